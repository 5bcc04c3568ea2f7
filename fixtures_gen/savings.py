"""``python -m fixtures_gen.savings [DIR]``: the token-savings table over a fixture directory.

Columns: tokens of the raw capture, after ``textclean.clean(min_tokens=0)``, the ideal (the oracle's
informative lines joined by newlines: what a terminal shows, blank lines dropped), and the gate
reason when the cleaner refused. Prints Markdown for the README.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from fixtures_gen.checks import Fixture, judge, load_fixtures

DEFAULT_DIR = Path("tests/fixtures")


@dataclass(frozen=True)
class Row:
    fixture: str
    before: int
    after: int
    ideal: int
    reason: str | None


def measure(fixture: Fixture) -> Row:
    v = judge(fixture.text)
    return Row(fixture.name, v.tokens_before, v.tokens_after, v.tokens_ideal, v.reason)


def percent_saved(before: int, after: int) -> str:
    return f"{100 * (before - after) / before:.0f}%" if before else "-"


def markdown_table(rows: Sequence[Row]) -> str:
    lines = [
        "| fixture | tokens before | after (textclean) | saved | ideal (oracle) | gate |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for row in rows:
        gate = row.reason or "adopted"
        saved = percent_saved(row.before, row.after)
        lines.append(f"| {row.fixture} | {row.before} | {row.after} | {saved} | {row.ideal} | {gate} |")
    before, after, ideal = (sum(getattr(row, key) for row in rows) for key in ("before", "after", "ideal"))
    adopted = sum(row.reason is None for row in rows)
    total_gate = f"{adopted}/{len(rows)} adopted"
    lines.append(
        f"| **total** | {before} | {after} | {percent_saved(before, after)} | {ideal} | {total_gate} |"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fixtures_gen.savings", description=__doc__)
    parser.add_argument("directory", nargs="?", type=Path, default=DEFAULT_DIR)
    args = parser.parse_args(argv)
    fixtures = load_fixtures(args.directory)
    if not fixtures:
        print(f"no fixtures in {args.directory}", file=sys.stderr)
        return 1
    print(markdown_table([measure(fixture) for fixture in fixtures]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
