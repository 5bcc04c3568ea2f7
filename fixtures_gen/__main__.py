"""Capture real programs' terminal output as fixtures (NAME.raw + NAME.json).

python -m fixtures_gen [--out DIR] [NAME ...]     regenerate catalogue entries (default: all)
python -m fixtures_gen --list                     show the catalogue and what is unavailable
python -m fixtures_gen [--out DIR] --capture NAME [--columns N] [--lines N] [--term T]
                       [--timeout S] [--env KEY=VALUE ...] -- COMMAND [ARG ...]
                                                  capture your own command, run in this directory
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from fixtures_gen.catalogue import CATALOGUE, Entry, capture_entry
from fixtures_gen.progress import PROGRESS
from fixtures_gen.pty_capture import Capture, capture
from fixtures_gen.sessions import SESSIONS

ENTRIES = [*CATALOGUE, *PROGRESS, *SESSIONS]
BY_NAME = {entry.name: entry for entry in ENTRIES}

DEFAULT_OUT = Path("tests/fixtures")


def split_command(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """Options before ``--``, the command after it."""
    argv = list(argv)
    if "--" in argv:
        cut = argv.index("--")
        return argv[:cut], argv[cut + 1 :]
    return argv, []


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m fixtures_gen",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "names", nargs="*", metavar="NAME", help="catalogue entries to capture (default: all)"
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"output directory ({DEFAULT_OUT})")
    parser.add_argument("--list", action="store_true", help="show the catalogue and exit")
    parser.add_argument("--capture", metavar="NAME", help="capture the command after -- as fixture NAME")
    parser.add_argument("--columns", type=int, default=120)
    parser.add_argument("--lines", type=int, default=40)
    parser.add_argument("--term", default="xterm-256color")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE")
    return parser.parse_args(argv)


def list_catalogue() -> None:
    width = max(len(entry.name) for entry in ENTRIES)
    for entry in ENTRIES:
        ok, reason = entry.available()
        status = "" if ok else f"  [unavailable: {reason}]"
        print(f"{entry.name:<{width}}  {entry.description}{status}")


def write_fixture(out: Path, name: str, raw: bytes, metadata: dict[str, object], suffix: str = "raw") -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.{suffix}").write_bytes(raw)
    (out / f"{name}.json").write_text(json.dumps(metadata, indent=2, ensure_ascii=False) + "\n")


def fixed_workdir(name: str) -> Path:
    """An empty directory whose path does not change between runs: compilers print it."""
    path = Path(tempfile.gettempdir()) / f"fixtures_gen-{os.getuid()}" / name
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


def report(name: str, result: Capture, timeout: float) -> str:
    if result.timed_out:
        return f"skipped {name}: timed out after {timeout:g}s"
    return f"written {name}: {len(result.raw)} bytes, exit {result.exit_code}"


def generate(entry: Entry, out: Path) -> str:
    """Capture one catalogue entry into ``out``; returns the line to print."""
    ok, reason = entry.available()
    if not ok:
        return f"skipped {entry.name}: {reason}"
    workdir = fixed_workdir(entry.name)
    try:
        result = capture_entry(entry, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if not result.timed_out:
        suffix = str(result.metadata.get("format", "raw"))
        write_fixture(out / entry.subdir, entry.name, result.raw, result.metadata, suffix)
    return report(entry.name, result, entry.timeout)


def parse_env(items: Sequence[str]) -> dict[str, str]:
    env = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise SystemExit(f"--env expects KEY=VALUE, got {item!r}")
        env[key] = value
    return env


def capture_command(args: argparse.Namespace, command: list[str]) -> tuple[str, bool]:
    """Capture a user's own command in the current directory, keeping their HOME; (line, written)."""
    env = {"HOME": os.environ.get("HOME", os.getcwd()), **parse_env(args.env)}
    result = capture(
        command, env=env, cwd=os.getcwd(), columns=args.columns, lines=args.lines, term=args.term,
        timeout=args.timeout,
    )  # fmt: skip
    result.metadata = {"name": args.capture, **result.metadata}
    if not result.timed_out:
        write_fixture(args.out, args.capture, result.raw, result.metadata)
    return report(args.capture, result, args.timeout), not result.timed_out


def main(argv: Sequence[str] | None = None) -> int:
    options, command = split_command(sys.argv[1:] if argv is None else argv)
    args = parse_args(options)
    if args.list:
        list_catalogue()
        return 0
    if args.capture:
        if not command or args.names:
            print("--capture NAME needs a command after -- and no catalogue names", file=sys.stderr)
            return 2
        line, written = capture_command(args, command)
        print(line, flush=True)
        return 0 if written else 1
    unknown = [name for name in args.names if name not in BY_NAME]
    if unknown:
        print(f"unknown entries: {', '.join(unknown)} (see --list)", file=sys.stderr)
        return 2
    selected = [BY_NAME[name] for name in args.names] if args.names else ENTRIES
    for entry in selected:
        print(generate(entry, args.out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
