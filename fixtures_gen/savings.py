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

from fixtures_gen.checks import (
    Fixture,
    Session,
    clean_at_size,
    judge,
    judge_session,
    load_fixtures,
    load_sessions,
    problems,
)

DEFAULT_DIR = Path("tests/fixtures")
SESSIONS_DIR = DEFAULT_DIR / "sessions"


@dataclass(frozen=True)
class Row:
    fixture: str
    before: int
    after: int
    ideal: int
    reason: str | None
    problems: tuple[str, ...] = ()


def measure(fixture: Fixture) -> Row:
    v = judge(fixture.text, columns=fixture.columns, rows=fixture.rows)
    return Row(fixture.name, v.tokens_before, v.tokens_after, v.tokens_ideal, v.reason, tuple(problems(v)))


def measure_session(session: Session) -> Row:
    v = judge_session(session)
    return Row(session.name, v.tokens_before, v.tokens_after, v.tokens_ideal, v.reason, tuple(problems(v)))


def session_table(sessions: Sequence[Session], rows: Sequence[Row]) -> str:
    """The sessions' table: each at its recorded size (passed to ``clean`` once it takes one)."""
    sized = bool(sessions) and clean_at_size("", 80, 24)[1]
    lines = [
        f"| session | size | tokens before | after (textclean{'' if sized else ', size unknown to it'}) | saved "
        "| ideal (oracle, at its size) | of the ideal saving | gate |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for session, row in zip(sessions, rows, strict=True):
        possible = row.before - row.ideal
        share = f"{100 * (row.before - row.after) / possible:.0f}%" if possible > 0 else "-"
        lines.append(
            f"| {row.fixture} | {session.columns}x{session.rows} | {row.before} | {row.after} "
            f"| {percent_saved(row.before, row.after)} | {row.ideal} | {share} | {row.reason or 'adopted'} |"
        )
    return "\n".join(lines)


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
        "--sessions", action="store_true",
        help=f"whole sessions at their recorded size (DIR defaults to {SESSIONS_DIR})",
    )
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 when a fixture breaks the contract (lossy, disagreeing)"
    )
    args = parser.parse_args(argv)
    if args.sessions:
        directory = args.directory if args.directory != DEFAULT_DIR else SESSIONS_DIR
        sessions = load_sessions(directory)
        if not sessions:
            print(f"no sessions in {directory}", file=sys.stderr)
            return 1
        session_rows = [measure_session(session) for session in sessions]
        print(session_table(sessions, session_rows))
        return report_problems(session_rows, args.strict)
    fixtures = load_fixtures(args.directory)
    if not fixtures:
        print(f"no fixtures in {args.directory}", file=sys.stderr)
        return 1
    rows = [measure(fixture) for fixture in fixtures]
    print(markdown_table(rows))
    return report_problems(rows, args.strict)


def report_problems(rows: Sequence[Row], strict: bool) -> int:
    broken = [row for row in rows if row.problems]
    for row in broken:
        print(f"{row.fixture}: {'; '.join(row.problems)}", file=sys.stderr)
    return 1 if broken and strict else 0


if __name__ == "__main__":
    sys.exit(main())
