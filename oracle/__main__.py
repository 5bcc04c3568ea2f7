"""``python -m oracle render FILE`` / ``python -m oracle check RAW CLEANED``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .lossless import check_lossless
from .render import render


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()


def _display_options(parser: argparse.ArgumentParser) -> None:
    """The display, named as ``textclean`` names it."""
    parser.add_argument("--no-terminal", dest="terminal", action="store_false", default=None,
                        help="no terminal (pipes, logs): BEL-ended strings removed, logical lines")
    parser.add_argument("--in-use", dest="fresh", action="store_false", default=None,
                        help="a terminal in use (earlier output on its screen), not a new one")


def _display(args: argparse.Namespace) -> dict[str, Any]:
    return {"terminal": args.terminal, "fresh": args.fresh}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m oracle", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    show = commands.add_parser("render", help="print the lines a terminal shows (scrollback + screen)")
    show.add_argument("file", help="raw output ('-' for stdin)")
    show.add_argument("--columns", type=int, default=None, help="screen width (default: widest line)")
    show.add_argument("--lines", type=int, default=None, help="screen height (default: 24)")
    _display_options(show)
    check = commands.add_parser(
        "check", help="exit 1 unless CLEANED keeps every line the terminal ever showed for RAW"
    )
    check.add_argument("raw")
    check.add_argument("cleaned")
    check.add_argument("--columns", type=int, default=None, help="the terminal's width (a size)")
    check.add_argument("--rows", type=int, default=None, help="the terminal's height")
    _display_options(check)
    args = parser.parse_args(argv)

    out = sys.stdout
    if args.command == "render":
        try:
            rendering = render(_read(args.file), columns=args.columns, lines=args.lines, **_display(args))
        except ValueError as error:
            parser.error(str(error))
        out.buffer.write(rendering.text.encode("utf-8", "replace"))
        return 0
    try:
        result = check_lossless(_read(args.raw), _read(args.cleaned), columns=args.columns, rows=args.rows,
                                **_display(args))
    except ValueError as error:
        parser.error(str(error))
    if result.ok:
        print(result.describe(), file=out)
        return 0
    print(result.describe(), file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
