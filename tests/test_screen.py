"""The screen model (``screen.py``) through the cleaner: erase in display (ED 0/1/2/3) within a page.

Every expected candidate is written by hand from what a terminal does (ECMA-48 8.3.39; tmux 3.3a
judges the adopted ones in ``test_tmux_shows_the_candidates_lines``). The model is reached through
``cleaner.candidate`` and ``clean()`` only, not its methods: its internals are being reshaped.

Page breaks (``pages.py``) are ED 2 / ED 3 and CUP home then ED, however their parameters are spelled
(leading zeros, empty fields: ``tests/test_cleaner_spellings.py``); within a page the model meets ED 0
at home with an inert sequence between the CUP and the ED (which is not taken as a break).
"""

from __future__ import annotations

import pytest

from textclean import clean
from textclean.pipeline import clean as cleaner

CSI = "\x1b["
CLEAR = CSI + "H" + CSI + "2J"  # a page that starts on a blank screen, its top row known
SIZES = [(None, None), (80, 24)]

#: (name, raw, the candidate a terminal's lines give, whether the verifier confirms it)
WITHIN_A_PAGE = [
    # ED 0 at home: the whole screen leaves it and stays in the scrollback; "three" is on a new row
    ("ED 0 at home, SGR between", CLEAR + "one\ntwo\n" + CSI + "H" + CSI + "m" + CSI + "Jthree\n",
     "one\ntwo\nthree\n", True),
    # ED 0 below the cursor where nothing is written: erases nothing
    ("ED 0 over blank rows, first page", "one\ntwo\n" + CSI + "Jthree\n", "one\ntwo\nthree\n", True),
    ("ED 0 over blank rows, known top", CLEAR + "one\ntwo\n" + CSI + "0Jthree\n", "one\ntwo\nthree\n", True),
    # ED 1 above the cursor on a blank screen: erases nothing (blank rows above a page's first written
    # row are not written out)
    ("ED 1 on a blank screen, row 3", CLEAR + CSI + "3;1H" + CSI + "1Jone\ntwo\n", "one\ntwo\n", True),
    ("ED 1 on a blank screen, after LFs", CLEAR + "\n\n" + CSI + "1Jone\n", "one\n", True),
]

#: ED 0 / ED 1 over written cells: the erased cells were shown, a candidate would have to keep them
#: where no terminal shows them, so the cleaner keeps the page or refuses.
OVER_WRITTEN_CELLS = [
    ("ED 0 from the middle of a written row", CLEAR + "one\ntwo\nthree" + CSI + "2;2H" + CSI + "J\n"),
    ("ED 1 over written rows", CLEAR + "one\ntwo\nthree\n" + CSI + "2;3H" + CSI + "1Jx\n"),
    ("ED 0 after cursor up, first page", "one\ntwo\nthree\n" + CSI + "2A" + CSI + "JX\n"),
    ("ED 1 on the first page", "one\n" + CSI + "1Jtwo\n"),
]


def _lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip()]


@pytest.mark.parametrize("columns,rows", SIZES)
@pytest.mark.parametrize("name,raw,expected,confirmed", WITHIN_A_PAGE, ids=[c[0] for c in WITHIN_A_PAGE])
def test_erase_in_display_candidate(name: str, raw: str, expected: str, confirmed: bool,
                                    columns: int | None, rows: int | None) -> None:
    proposal = cleaner.candidate(raw, columns=columns, rows=rows)
    assert proposal.text == expected
    assert proposal.pages_kept == 0


@pytest.mark.parametrize("columns,rows", SIZES)
@pytest.mark.parametrize("name,raw,expected,confirmed", [c for c in WITHIN_A_PAGE if c[3]],
                         ids=[c[0] for c in WITHIN_A_PAGE if c[3]])
def test_erase_in_display_adopted_by_the_gate(name: str, raw: str, expected: str, confirmed: bool,
                                              columns: int | None, rows: int | None) -> None:
    result = clean(raw, min_tokens=0, columns=columns, rows=rows)
    assert (result.reason, result.text) == (None, expected)


@pytest.mark.parametrize("name,raw", OVER_WRITTEN_CELLS, ids=[c[0] for c in OVER_WRITTEN_CELLS])
def test_erase_over_written_cells_is_not_cleaned(name: str, raw: str) -> None:
    try:
        proposal = cleaner.candidate(raw)
    except cleaner.Refused as refusal:
        assert refusal.reason == "unsupported_control"
    else:
        assert proposal.pages_kept >= 1
    result = clean(raw, min_tokens=0)
    assert (result.applied, result.text) == (False, raw)


@pytest.mark.tmux
def test_tmux_shows_the_candidates_lines() -> None:
    """The hand-written candidates are what tmux 3.3a shows (its scrollback included), except ED 3,
    which clears only the scrollback: there "three" overwrites "one" on screen, and the candidate keeps
    both (the verifier refuses it, so the gate does)."""
    from oracle import tmux

    if not tmux.available():
        pytest.skip("tmux is not installed (.ci/run installs it)")
    with tmux.server() as server:
        captures = server.show_many([(raw.encode(), 80, 24) for _, raw, _, _ in WITHIN_A_PAGE])
    for (name, _, expected, _), capture in zip(WITHIN_A_PAGE, captures, strict=True):
        shown = [line for line in capture.lines if line.strip()]
        if name.startswith("ED 03"):
            assert shown == ["three", "two"], name
        else:
            assert shown == _lines(expected), name
