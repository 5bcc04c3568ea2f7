"""``python -m fixtures_gen.savings [DIR]``: the token-savings table over a fixture directory.

Columns: tokens of the raw capture; the ideal (the oracle's informative lines with no terminal, joined
by newlines: the unwrapped rendering, blank lines dropped); after ``textclean.clean(min_tokens=0)``
with no terminal (the default: logical lines, as a pipe or a log has them), its share of the ideal
saving and its gate reason; then the same cleaned at the size the capture was recorded at (its
``.json`` ``columns`` x ``lines``). The totals give each as a share of the ideal saving. Prints
Markdown for the README; with ``--strict`` it exits 1 when a fixture breaks the corpus contract (so
a team can run it in CI over its own fixture directory).
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
from fixtures_gen.requires import require

DEFAULT_DIR = Path("tests/fixtures")
SESSIONS_DIR = DEFAULT_DIR / "sessions"


@dataclass(frozen=True)
class Row:
    fixture: str
    before: int
    after: int  # with no terminal (fixtures); at the recorded size (sessions)
    ideal: int
    reason: str | None
    problems: tuple[str, ...] = ()
    size: str = ""  # COLUMNSxROWS recorded
    after_sized: int | None = None  # at the recorded size (fixtures)
    reason_sized: str | None = None


def measure(fixture: Fixture) -> Row:
    """A capture cleaned with no terminal, judged against the oracle's no-terminal rendering, and
    cleaned at its recorded size, judged at that size."""
    v = judge(fixture.text, terminal=False)
    sized = judge(fixture.text, columns=fixture.columns, rows=fixture.rows)
    return Row(fixture.name, v.tokens_before, v.tokens_after, v.tokens_ideal, v.reason,
               tuple(problems(v)) + tuple(f"at its size: {problem}" for problem in problems(sized)),
               f"{fixture.columns}x{fixture.rows}", sized.tokens_after, sized.reason)


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


def share_of_ideal(before: int, after: int, ideal: int) -> str:
    """The saving as a share of the ideal saving (before - ideal)."""
    possible = before - ideal
    return f"{100 * (before - after) / possible:.1f}%" if possible > 0 else "-"


#: The README's short table: a few captures of different kinds, then the total over every capture.
SUMMARY = ("grep_color", "cr_progress", "pytest_failures", "cargo_build_error", "pip_download", "git_diff")


def summary_table(rows: Sequence[Row]) -> str:
    """Tokens before and after with no terminal: the :data:`SUMMARY` captures, then all of them."""
    lines = ["| capture | tokens before | after | saved |", "| --- | ---: | ---: | ---: |"]
    for row in rows:
        if row.fixture in SUMMARY:
            lines.append(f"| {row.fixture} | {row.before:,} | {row.after:,} | {percent_saved(row.before, row.after)} |")
    before, after = sum(row.before for row in rows), sum(row.after for row in rows)
    lines.append(f"| **all {len(rows)} captures** | {before:,} | {after:,} | {percent_saved(before, after)} |")
    return "\n".join(lines)


def markdown_table(rows: Sequence[Row]) -> str:
    lines = [
        "| fixture | size | tokens before | ideal (no terminal) | after, no terminal | saved | of the ideal saving "
        "| gate | after, at its size | of the ideal saving | gate |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- |",
    ]
    for row in rows:
        sized = row.before if row.after_sized is None else row.after_sized
        lines.append(
            f"| {row.fixture} | {row.size} | {row.before} | {row.ideal} | {row.after} "
            f"| {percent_saved(row.before, row.after)} | {share_of_ideal(row.before, row.after, row.ideal)} "
            f"| {row.reason or 'adopted'} | {sized} | {share_of_ideal(row.before, sized, row.ideal)} "
            f"| {row.reason_sized or 'adopted'} |"
        )
    before, after, ideal = (sum(getattr(row, key) for row in rows) for key in ("before", "after", "ideal"))
    sized = sum(row.before if row.after_sized is None else row.after_sized for row in rows)
    adopted = sum(row.reason is None for row in rows)
    adopted_sized = sum(row.reason_sized is None for row in rows)
    lines.append(
        f"| **total** | | {before} | {ideal} | {after} | {percent_saved(before, after)} "
        f"| **{share_of_ideal(before, after, ideal)}** | {adopted}/{len(rows)} adopted | {sized} "
        f"| **{share_of_ideal(before, sized, ideal)}** | {adopted_sized}/{len(rows)} adopted |"
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
    parser.add_argument("--summary", action="store_true", help="the README's short table instead of the full one")
    args = parser.parse_args(argv)
    require("python -m fixtures_gen.savings", "pyte", "pip install . ./packaging/oracle (the oracle judges the ideal)")
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
    print(summary_table(rows) if args.summary else markdown_table(rows))
    return report_problems(rows, args.strict)


def report_problems(rows: Sequence[Row], strict: bool) -> int:
    broken = [row for row in rows if row.problems]
    for row in broken:
        print(f"{row.fixture}: {'; '.join(row.problems)}", file=sys.stderr)
    return 1 if broken and strict else 0


if __name__ == "__main__":
    sys.exit(main())
