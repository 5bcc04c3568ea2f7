"""``textclean [FILE...]``: clean tool outputs, bytes in, bytes out (``measure``, ``run``, ``hook``).

Each FILE is one tool output, cleaned on its own and written in turn, like ``cat``. Bytes that are not
valid UTF-8 travel through as lone surrogates (``surrogateescape``) and come out exactly as they went in.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ._version import __version__
from .build import build

if TYPE_CHECKING:
    from .pipeline.result import Result

# The pipeline is imported where it is used: `textclean run` and `textclean hook` answer output
# without terminal noise before loading it.


def _parser() -> argparse.ArgumentParser:
    from .pipeline.gate import DEFAULT_MAX_CHARS, DEFAULT_MIN_TOKENS
    from .pipeline.tokens import DEFAULT_ENCODING, OFFLINE_ENCODINGS

    parser = argparse.ArgumentParser(
        prog="textclean",
        description=(
            "Remove terminal escape sequences and redraws from a tool output, losslessly. Writes the "
            "cleaned bytes to stdout, or the input unchanged when the gate refuses (exit 0 either way). "
            "'textclean measure PATH...' measures savings over transcripts; 'textclean run -- CMD' runs a "
            "command and cleans its output; 'textclean hook claude-code' (or codex) is an agent hook."
        ),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__} ({build()})")
    parser.add_argument(
        "files", nargs="*", metavar="FILE", help="files to clean one after the other (default, or '-': standard input)"
    )
    parser.add_argument(
        "--min-tokens", type=int, default=DEFAULT_MIN_TOKENS, metavar="N",
        help=f"refuse outputs of fewer tokens (default {DEFAULT_MIN_TOKENS})",
    )
    parser.add_argument(
        "--max-chars", type=int, default=DEFAULT_MAX_CHARS, metavar="N",
        help=f"refuse (unchanged) inputs longer than N characters (default {DEFAULT_MAX_CHARS})",
    )
    parser.add_argument(
        "--size", type=_size, default=(None, None), metavar="COLUMNSxROWS",
        help="the size of the terminal the output was written to (e.g. 160x40); default: no terminal "
             "(output that came through pipes: logical lines, no wrap)",
    )
    parser.add_argument(
        "--terminal", action="store_true",
        help="the output was written to a terminal of unknown size (at least 80 columns)",
    )
    parser.add_argument(
        "--fresh", action="store_true",
        help="the output was written to a new terminal (empty screen, cursor home, default modes); "
             "implies --terminal",
    )
    parser.add_argument(
        "--tokenizer", default=None, metavar="ENCODING",
        help=f"encoding to count tokens in: {', '.join(OFFLINE_ENCODINGS)} (offline) or another tiktoken name "
             f"(default {DEFAULT_ENCODING})",
    )
    parser.add_argument(
        "-f", "--follow", action="store_true",
        help="stream standard input to stdout, each stretch written once it is settled (tail -f log | textclean -f); "
             "with no terminal, cut at line ends; at a terminal (--size, --terminal) held to the end",
    )
    parser.add_argument("--explain", action="store_true", help="print the gate's verdict and token counts on stderr")
    parser.add_argument("--json", action="store_true", help="with --explain: one JSON line per input instead of text")
    return parser


def _size(value: str) -> tuple[int, int]:
    from .pipeline.gate import MAX_SIZE, MIN_SIZE

    columns, sep, rows = value.lower().partition("x")
    if not (sep and columns.isdigit() and rows.isdigit()
            and MIN_SIZE <= int(columns) <= MAX_SIZE and MIN_SIZE <= int(rows) <= MAX_SIZE):
        raise argparse.ArgumentTypeError(
            f"expected COLUMNSxROWS such as 160x40, each from {MIN_SIZE} to {MAX_SIZE}, not {value!r}")
    return int(columns), int(rows)


def _read(path: str | None) -> bytes:
    if path is None or path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()


def _read_or_say(path: str) -> bytes | None:
    """The input's bytes, or None with one line on stderr naming it (the other inputs are still written)."""
    try:
        return _read(path)
    except OSError as exc:
        print(f"textclean: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return None


def _pass_through(paths: list[str]) -> int:
    """Each input written unchanged, like a refusal; 2 when one could not be read (named on stderr)."""
    status = 0
    for path in paths:
        raw = _read_or_say(path)
        if raw is None:
            status = 2
            continue
        try:
            sys.stdout.buffer.write(raw)
            sys.stdout.buffer.flush()
        except BrokenPipeError:
            break
    return status


def _explain(name: str, result: Result[bytes], as_json: bool) -> str:
    if as_json:
        from dataclasses import asdict  # (dataclasses imports inspect: not on the hook's path)

        return json.dumps({
            "file": name,
            "applied": result.applied,
            "reason": result.reason,
            "detail": result.detail,
            "tokens_before": result.tokens_before,
            "tokens_after": result.tokens_after,
            "removed": asdict(result.removed),
            "pages_cleaned": result.pages_cleaned,
            "pages_kept": result.pages_kept,
        })
    verdict = "applied" if result.applied else f"refused: {result.reason}"
    detail = f" ({result.detail})" if result.detail else ""
    pages = f"; pages {result.pages_cleaned} cleaned, {result.pages_kept} kept" if result.pages_cleaned else ""
    removed = f"; removed {result.removed.describe()}" if result.applied else ""
    return f"textclean: {verdict}{detail}; tokens {result.tokens_before} -> {result.tokens_after}{removed}{pages}"


def _follow(args: argparse.Namespace) -> int:
    """``--follow``: standard input read as it comes (a read returns what is there), written as it settles."""
    import os

    from .integrations.follow import Follower

    columns, rows = args.size
    follower = Follower(sys.stdout.buffer, min_tokens=args.min_tokens, tokenizer=args.tokenizer,
                        columns=columns, rows=rows, terminal=True if args.terminal or args.fresh else None,
                        fresh=args.fresh)
    try:
        while data := os.read(sys.stdin.fileno(), 65536):
            follower.write(data)
        follower.close()
    except BrokenPipeError:
        pass
    except KeyboardInterrupt:
        follower.close()
        return 130
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] == "measure":
        from .measure import measure_main

        return measure_main(args_list[1:])
    if args_list and args_list[0] == "hook":
        from .integrations.hook import hook_main

        return hook_main(args_list[1:])
    if args_list and args_list[0] == "run":
        from .integrations.run import run_main

        return run_main(args_list[1:])
    from .pipeline.errors import BackendError
    from .pipeline.gate import clean
    from .pipeline.tokens import TokenizerError, token_counter

    args = _parser().parse_args(args_list)
    if args.min_tokens < 0 or args.max_chars < 0:
        print("textclean: --min-tokens and --max-chars must be >= 0", file=sys.stderr)
        return 2
    try:
        token_counter(args.tokenizer)  # loaded once here, so a bad name is one line, not a traceback per file
    except BackendError as error:  # set in the environment, far from this command line: the bytes still flow
        print(f"textclean: {error}; input passed through unchanged", file=sys.stderr)
        return _pass_through(args.files or ["-"]) or 2
    except TokenizerError as error:
        print(f"textclean: {error}", file=sys.stderr)
        return 2
    status = 0
    columns, rows = args.size
    if args.follow:
        if args.files not in ([], ["-"]) or args.explain:
            print("textclean: --follow reads standard input only, without --explain", file=sys.stderr)
            return 2
        return _follow(args)
    for path in args.files or ["-"]:
        raw = _read_or_say(path)
        if raw is None:
            status = 2
            continue
        result = clean(raw, min_tokens=args.min_tokens, max_chars=args.max_chars, columns=columns, rows=rows,
                       terminal=True if args.terminal or args.fresh else None, fresh=args.fresh,
                       tokenizer=args.tokenizer)
        try:
            sys.stdout.buffer.write(result.text)
            sys.stdout.buffer.flush()
        except BrokenPipeError:
            return status
        if args.explain:
            print(_explain(path, result, args.json), file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
