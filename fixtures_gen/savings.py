"""``python -m fixtures_gen.savings [DIR]``: the token-savings table over a fixture directory.

Columns: tokens of the raw capture, after ``textclean.clean(min_tokens=0)``, the ideal (the oracle's
informative lines joined by newlines: what a terminal shows, blank lines dropped), and the gate
reason when the cleaner refused. Prints Markdown for the README; with ``--strict`` it exits 1 when a
fixture breaks the corpus contract (so a team can run it in CI over its own fixture directory).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from fixtures_gen.checks import Fixture, judge, load_fixtures, problems

DEFAULT_DIR = Path("tests/fixtures")


@dataclass(frozen=True)
class Row:
    fixture: str
    before: int
    after: int
    ideal: int
    reason: str | None
    problems: tuple[str, ...] = ()


def measure(fixture: Fixture) -> Row:
    v = judge(fixture.text)
    return Row(fixture.name, v.tokens_before, v.tokens_after, v.tokens_ideal, v.reason, tuple(problems(v)))


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
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 when a fixture breaks the contract (lossy, disagreeing)"
    )
    args = parser.parse_args(argv)
    fixtures = load_fixtures(args.directory)
    if not fixtures:
        print(f"no fixtures in {args.directory}", file=sys.stderr)
        return 1
    rows = [measure(fixture) for fixture in fixtures]
    print(markdown_table(rows))
    broken = [row for row in rows if row.problems]
    for row in broken:
        print(f"{row.fixture}: {'; '.join(row.problems)}", file=sys.stderr)
    return 1 if broken and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
