"""``python -m fixtures_gen [--out DIR] [--list] [NAME ...]``: regenerate real-terminal fixtures."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from fixtures_gen.catalogue import BY_NAME, CATALOGUE, Entry, capture_entry

DEFAULT_OUT = Path("tests/fixtures")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m fixtures_gen", description=__doc__)
    parser.add_argument("names", nargs="*", metavar="NAME", help="entries to capture (default: all)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"output directory ({DEFAULT_OUT})")
    parser.add_argument("--list", action="store_true", help="show the catalogue and exit")
    return parser.parse_args(argv)


def list_catalogue() -> None:
    width = max(len(entry.name) for entry in CATALOGUE)
    for entry in CATALOGUE:
        ok, reason = entry.available()
        status = "" if ok else f"  [unavailable: {reason}]"
        print(f"{entry.name:<{width}}  {entry.description}{status}")


def write_fixture(out: Path, name: str, raw: bytes, metadata: dict[str, object]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.raw").write_bytes(raw)
    (out / f"{name}.json").write_text(json.dumps(metadata, indent=2, ensure_ascii=False) + "\n")


def fixed_workdir(name: str) -> Path:
    """An empty directory whose path does not change between runs: compilers print it."""
    path = Path(tempfile.gettempdir()) / f"fixtures_gen-{os.getuid()}" / name
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


def generate(entry: Entry, out: Path) -> str:
    """Capture one entry into ``out``; returns the line to print."""
    ok, reason = entry.available()
    if not ok:
        return f"skipped {entry.name}: {reason}"
    workdir = fixed_workdir(entry.name)
    try:
        result = capture_entry(entry, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if result.timed_out:
        return f"skipped {entry.name}: timed out after {entry.timeout:g}s"
    write_fixture(out, entry.name, result.raw, result.metadata)
    return f"written {entry.name}: {len(result.raw)} bytes, exit {result.exit_code}"


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.list:
        list_catalogue()
        return 0
    unknown = [name for name in args.names if name not in BY_NAME]
    if unknown:
        print(f"unknown entries: {', '.join(unknown)} (see --list)", file=sys.stderr)
        return 2
    selected = [BY_NAME[name] for name in args.names] if args.names else CATALOGUE
    for entry in selected:
        print(generate(entry, args.out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
