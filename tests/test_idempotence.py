"""Cleaning is idempotent (issue 40): an adopted text cleaned again for the same display comes back
unchanged, refused (the very text) or adopted as the same text.

"Again" is the same display: the cleaned text is shown on the terminal the raw was written to (the same
size, ``fresh`` a new one as before). Every committed capture, session, page and progress fixture in each
display (no terminal, unknown size, its size, its size fresh); the peer suites and the Terminal-Bench
material when present. F33-2 (tests/tmux_families_red.py, ``NOT_IDEMPOTENT_33``): a page repeated byte for
byte after a cleaned one, which the verifier took for the earlier page kept, so that the gate kept the
first page too and a second pass dropped its break.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import textclean
from benchmarks import sessions_saving
from benchmarks.sessions_saving import Recording
from tests.tmux_families_red import NOT_IDEMPOTENT_33
from textclean.pipeline import verify

_DISPLAYS = {"no-terminal": {"terminal": False}, "unknown": {"terminal": True}}
_MATERIAL = Path(os.environ.get("TEXTCLEAN_MATERIAL", sessions_saving.DEFAULT_MATERIAL))


def displays(columns: int | None, rows: int | None) -> dict[str, dict[str, Any]]:
    out = dict(_DISPLAYS)
    if columns is not None or rows is not None:
        out["sized"] = {"columns": columns, "rows": rows}
        out["fresh"] = {"columns": columns, "rows": rows, "fresh": True}
    return out


def changed_by_a_second_pass(text: str, keywords: dict[str, Any]) -> tuple[str, str] | None:
    """None when cleaning ``text`` again for its display changes nothing; else (first, second)."""
    first = textclean.clean(text, min_tokens=0, **keywords)
    if not first.applied:
        assert first.text is text
        return None
    again = textclean.clean(first.text, min_tokens=0, **keywords)
    if again.text == first.text and (again.applied or again.text is first.text):
        return None
    return first.text, again.text


def not_idempotent(recordings: list[Recording]) -> list[str]:
    out = []
    for rec in recordings:
        for label, keywords in displays(rec.columns, rec.rows).items():
            if changed_by_a_second_pass(rec.text, keywords) is not None:
                out.append(f"{rec.name} @{label}")
    return out


def committed() -> list[Recording]:
    fixtures = sessions_saving.FIXTURES
    return [*sessions_saving.single_commands(fixtures, "single", sized=True), *sessions_saving.captured_sessions(),
            *sessions_saving.single_commands(fixtures / "progress", "progress", sized=True)]


_COMMITTED = committed()


@pytest.mark.parametrize("recording", _COMMITTED, ids=[f"{r.kind}/{r.name}" for r in _COMMITTED])
def test_every_committed_capture_in_every_display(recording: Recording) -> None:
    assert recording.columns is not None  # every capture has its size: all four displays
    assert not_idempotent([recording]) == []


def test_the_committed_material_is_all_there() -> None:
    assert len(_COMMITTED) >= 50  # captures, sessions, pages, progress (53 at issue 40)


def test_the_peer_suites() -> None:
    recordings = sessions_saving.peer_recordings()
    if not recordings:
        pytest.skip("no peer corpora (../shared/corpora or $TEXTCLEAN_CORPORA)")
    assert not_idempotent(recordings) == []


def test_the_terminal_bench_material() -> None:
    recordings = sessions_saving.material(_MATERIAL)
    if not recordings:
        pytest.skip(f"no .cast material in {_MATERIAL} ($TEXTCLEAN_MATERIAL)")
    assert not_idempotent(recordings) == []


# --- F33-2 -----------------------------------------------------------------------------------------------

F33_2 = NOT_IDEMPOTENT_33[0][0].decode()
# Pages: "B" | home ED "x" CUP "@" | home ED "2" | home ED "x" CUP "@" (the second page again, whose CUP to
# row 9 the verifier cannot place at an unknown size after "2") | home ED.
_REPEATED = "\x1b[H\x1b[Jx\x1b[9;80H@"
_CLEANED = "B\nx\n\n" + " " * 79 + "@\n2\n"


@pytest.mark.parametrize("label", ["no-terminal", "unknown", "sized", "fresh"])
def test_f33_2_is_idempotent(label: str) -> None:
    assert changed_by_a_second_pass(F33_2, displays(80, 24)[label]) is None


def test_f33_2_keeps_only_the_repeated_page_at_an_unknown_size() -> None:
    result = textclean.clean(F33_2, min_tokens=0, terminal=True)
    assert result.applied and result.pages_kept == 1
    assert result.text == _CLEANED + _REPEATED + "\x1b[H\x1b[J"  # the first page's break no longer kept


def test_the_verifier_reads_the_repeated_bytes_as_the_later_page() -> None:
    # the run of cleaned pages shows the second page's lines: the bytes after it are the fourth page's
    candidate = _CLEANED + _REPEATED + "\x1b[H\x1b[J"
    assert verify.first_difference(F33_2, candidate, terminal=True) is None


@pytest.mark.parametrize("candidate", [
    "B\n2\n" + _REPEATED + "\x1b[H\x1b[J",  # the second page's lines missing: read as kept, the run lacks "2"
    "B\nx\n\n" + " " * 79 + "@\n" + _REPEATED + "\x1b[H\x1b[J",  # "2" missing
    "B\n2\nx\n@\n" + _REPEATED + "\x1b[H\x1b[J",  # read with the second page cleaned: "2" out of order
])
def test_the_verifier_still_rejects_a_run_missing_a_line(candidate: str) -> None:
    assert verify.first_difference(F33_2, candidate, terminal=True) is not None


# --- generated: pages repeated byte for byte (F33-2's shape) -----------------------------------------------

_BREAK = st.sampled_from(["\x1b[H\x1b[J", "\x1b[H\x1b[2J", "\x1b[2J\x1b[H", "\x1b[H\x1b[J\x1b[3J", "\x1bc"])
_BODY_PIECE = st.one_of(
    st.sampled_from(["x", "2", "B", "ab cd", "\r\n", "\n", "\r", "\x1b[K", "\x1b[31m", "\x1b[m", "\x1b[A", "\x1b[2C"]),
    st.tuples(st.integers(1, 30), st.sampled_from([1, 2, 40, 79, 80, 81])).map(lambda p: f"\x1b[{p[0]};{p[1]}H@"),
)
_BODIES = st.lists(st.lists(_BODY_PIECE, max_size=5).map("".join), min_size=1, max_size=3)


@st.composite
def repeated_pages(draw: st.DrawFn) -> str:
    """A first page, then pages drawn from a few bodies (so that some repeat byte for byte), each after a
    break."""
    bodies = draw(_BODIES)
    out = [draw(st.sampled_from(["", "B", "head\r\n"]))]
    for index in draw(st.lists(st.integers(0, len(bodies) - 1), min_size=1, max_size=6)):
        out.append(draw(_BREAK) + bodies[index])
    out.append(draw(st.sampled_from(["", "\x1b[H\x1b[J", "\r\n"])))
    return "".join(out)


@given(repeated_pages(), st.sampled_from([(80, 24), (40, 10)]))
def test_generated_repeated_pages(text: str, size: tuple[int, int]) -> None:
    for label, keywords in displays(*size).items():
        assert changed_by_a_second_pass(text, keywords) is None, label
