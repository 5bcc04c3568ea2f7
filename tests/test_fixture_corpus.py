"""Every committed real-terminal fixture, judged by the oracle and run through the cleaner's gate."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from fixtures_gen.checks import CAPTURE_METADATA_KEYS, Fixture, judge, load_fixtures, problems
from fixtures_gen.pending_wrap import count
from fixtures_gen.savings import markdown_table, measure

FIXTURES_DIR = Path(__file__).parent / "fixtures"
FIXTURES = load_fixtures(FIXTURES_DIR)
# Multi-bar progress at several window sizes (fixtures_gen/progress.py), out of the README's table.
PROGRESS_DIR = FIXTURES_DIR / "progress"
PROGRESS = load_fixtures(PROGRESS_DIR)
METADATA_KEYS = CAPTURE_METADATA_KEYS | {"name"}


def by_name(fixtures: list[Fixture]) -> list[pytest.param]:
    return [pytest.param(fixture, id=fixture.name) for fixture in fixtures]


def test_the_corpus_is_there_and_small() -> None:
    assert len(FIXTURES) >= 20
    total = sum(path.stat().st_size for path in FIXTURES_DIR.iterdir() if path.is_file())
    assert total < 3_000_000


@pytest.mark.parametrize("fixture", by_name(FIXTURES))
def test_metadata_matches_the_raw_bytes(fixture: Fixture) -> None:
    assert METADATA_KEYS <= set(fixture.metadata)
    assert fixture.metadata["name"] == fixture.name
    assert fixture.metadata["sha256"] == hashlib.sha256(fixture.raw).hexdigest()
    assert fixture.metadata["program_version"], "the version command failed at capture time"


@pytest.mark.parametrize("fixture", by_name(FIXTURES))
def test_oracle_renders_it(fixture: Fixture) -> None:
    import oracle

    assert oracle.render(fixture.text).lines
    assert oracle.informative_lines(fixture.text)


@pytest.mark.parametrize("fixture", by_name(FIXTURES))
def test_cleaner_adopts_what_the_oracle_agrees_with_or_refuses(fixture: Fixture) -> None:
    verdict = judge(fixture.text, columns=fixture.columns, rows=fixture.rows)
    assert problems(verdict) == []
    if verdict.adopted:
        assert verdict.tokens_after < verdict.tokens_before


@pytest.mark.parametrize("fixture", by_name(FIXTURES))
def test_no_terminal_keeps_every_line_of_the_unwrapped_rendering(fixture: Fixture) -> None:
    """Cleaned as text written for no terminal (the default), judged by the oracle's no-terminal
    rendering (logical lines, strings ended at BEL removed): adopted only when lossless and smaller."""
    verdict = judge(fixture.text, terminal=False)
    assert problems(verdict) == []
    if verdict.adopted:
        assert verdict.tokens_after < verdict.tokens_before


def test_savings_table_has_a_row_per_fixture() -> None:
    rows = [measure(fixture) for fixture in FIXTURES]
    table = markdown_table(rows).splitlines()
    assert len(table) == 2 + len(FIXTURES) + 1
    for fixture, line in zip(FIXTURES, table[2:], strict=False):
        assert line.startswith(f"| {fixture.name} | {fixture.columns}x{fixture.rows} |")
    assert all(row.after_sized is not None for row in rows)  # both displays measured


def test_the_progress_captures_are_there_at_several_sizes() -> None:
    from fixtures_gen.__main__ import BY_NAME

    sizes = {(fixture.columns, fixture.rows) for fixture in PROGRESS}
    assert {(80, 24), (120, 40), (160, 40)} <= sizes
    for fixture in PROGRESS:
        entry = BY_NAME[fixture.name]  # python -m fixtures_gen NAME regenerates it
        assert (entry.columns, entry.lines, entry.subdir) == (fixture.columns, fixture.rows, "progress")
    assert sum(path.stat().st_size for path in PROGRESS_DIR.iterdir()) < 400_000


@pytest.mark.parametrize("fixture", by_name(PROGRESS))
def test_progress_capture_matches_its_metadata_and_holds_for_the_oracle(fixture: Fixture) -> None:
    assert METADATA_KEYS <= set(fixture.metadata) and fixture.metadata["name"] == fixture.name
    assert fixture.metadata["sha256"] == hashlib.sha256(fixture.raw).hexdigest()
    assert fixture.metadata["exit_code"] == 0
    verdict = judge(fixture.text, columns=fixture.columns, rows=fixture.rows)
    assert problems(verdict) == []


@pytest.mark.parametrize("fixture", by_name([f for f in PROGRESS if f.name.startswith(("uv_", "tqdm_"))]))
def test_bars_fill_the_row_and_move_up_from_the_pending_wrap_position(fixture: Fixture) -> None:
    """Issue 22's shape, counted by pyte (not textclean): a row written to the last column, then
    CSI A while the next character would wrap, then CR."""
    tally = count(fixture.text, fixture.columns, fixture.rows)
    assert tally.cuu_then_cr() >= 10, tally.pairs
