"""``python -m benchmarks.verdicts record FILE`` / ``compare FILE``: every verdict and candidate on real
material, recorded once and compared after a speed change (a speed change changes neither).

For each recording (the committed captures, progress fixtures, sessions and pages; the peer suites
when ``TEXTCLEAN_CORPORA`` is set; ``--material DIR`` for local ``.cast`` files) and each display (no
terminal, a terminal of unknown size, the recorded size, the recorded size fresh), it keeps:
``cleaner.candidate``'s text (a SHA-256) or its refusal, ``verify.first_difference`` on that candidate,
and ``clean(min_tokens=0)``'s reason, detail, text, token counts and page counts. Issue 23's sized
shapes and the pathological families are added at small sizes. Not a test: run it by hand.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import textclean
from benchmarks import bench, sessions_saving
from textclean.pipeline import clean as cleaner
from textclean.pipeline import verify

KB = 1024


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:20]


def recordings(material: Path | None) -> Iterator[tuple[str, str, int | None, int | None]]:
    for rec in sessions_saving.single_commands(sessions_saving.FIXTURES, "single", sized=True):
        yield f"single/{rec.name}", rec.text, rec.columns, rec.rows
    for rec in sessions_saving.captured_sessions():
        yield f"captured/{rec.name}", rec.text, rec.columns, rec.rows
    for rec in sessions_saving.single_commands(sessions_saving.FIXTURES / "progress", "progress", sized=True):
        yield f"progress/{rec.name}", rec.text, rec.columns, rec.rows
    for rec in sessions_saving.peer_recordings():
        yield f"peer/{rec.name}", rec.text, rec.columns, rec.rows
    if material is not None:
        for rec in sessions_saving.material(material):
            yield f"material/{rec.name}", rec.text, rec.columns, rec.rows
    for name, make in bench.SIZED_SHAPES.items():
        yield f"sized/{name}", make(64 * KB), 80, 24
    for name, make in bench.PATHOLOGICAL.items():
        yield f"pathological/{name}", make(16 * KB), None, None


def displays(columns: int | None, rows: int | None) -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = [("none", {}), ("unknown", {"terminal": True})]
    if columns is not None or rows is not None:
        out.append(("sized", {"columns": columns, "rows": rows}))
        out.append(("fresh", {"columns": columns, "rows": rows, "fresh": True}))
    return out


def verdict(text: str, keywords: dict[str, Any]) -> dict[str, Any]:
    model = {"columns": None, "rows": None, "terminal": False, "fresh": False, **keywords}
    out: dict[str, Any] = {}
    try:
        proposal = cleaner.candidate(text, **model)
    except cleaner.Refused as refusal:
        out["candidate"] = ["refused", refusal.reason, refusal.detail]
    else:
        out["candidate"] = [_digest(proposal.text), proposal.pages_cleaned, proposal.pages_kept]
        out["difference"] = verify.first_difference(text, proposal.text, **model)
    result = textclean.clean(text, min_tokens=0, **keywords)
    out["clean"] = [result.applied, result.reason, result.detail, _digest(result.text), result.tokens_before,
                    result.tokens_after, result.pages_cleaned, result.pages_kept]
    return out


def record(material: Path | None) -> dict[str, Any]:
    table: dict[str, Any] = {}
    for name, text, columns, rows in recordings(material):
        for label, keywords in displays(columns, rows):
            try:
                table[f"{name} @{label}"] = verdict(text, keywords)
            except Exception as error:  # noqa: BLE001 - a crash is a verdict too
                table[f"{name} @{label}"] = {"raised": f"{type(error).__name__}: {error}"}
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.verdicts", description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("record", "compare"))
    parser.add_argument("file", type=Path)
    parser.add_argument("--material", type=Path, default=None, help="a directory of .cast recordings")
    args = parser.parse_args(argv)
    table = record(args.material)
    if args.mode == "record":
        args.file.write_text(json.dumps(table, indent=0, sort_keys=True))
        print(f"{len(table)} verdicts recorded in {args.file}")
        return 0
    before = json.loads(args.file.read_text())
    differ = sorted(key for key in before.keys() | table.keys() if before.get(key) != table.get(key))
    for key in differ[:50]:
        print(f"DIFFERS {key}:\n  before {before.get(key)}\n  after  {table.get(key)}")
    print(f"{len(table)} verdicts compared with {len(before)}: {len(differ)} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
