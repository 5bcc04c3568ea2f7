"""Red-team finding F32-1 on the cleaner's side alone (tests/tmux_families_red.py, FINDINGS_32).

At a terminal of unknown width (at least 80 columns), IND (``ESC D``) right after column 80 goes down from
an 80-column terminal's pending wrap: tmux 3.3a then wraps the next character onto a new row's first
column, while a wider terminal writes it at column 81 of the row below; from a row past column 80 an
80-column terminal's column is another too. The cleaner disputes the column after IND from column 81 or
further (CUD and RI there are refused): a character written on it is refused, a CR (or NEL) settles it.

The cleaner is asked directly (``clean.candidate``); what it proposes, and what the gate adopts, is
judged by a live tmux at 80x24 and 200x60.
"""

from __future__ import annotations

import pytest

from tests import tmux_judge
from textclean.pipeline import clean

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(not tmux_judge.available(), reason="tmux is not installed (.ci/run installs it)"),
]

UNKNOWN = {"columns": None, "rows": None, "terminal": True}


@pytest.fixture(scope="module")
def judge_server():
    with tmux_judge.server() as srv:
        yield srv


def _propose(raw: bytes, **display: object) -> str | None:
    try:
        return clean.candidate(tmux_judge.decode(raw), **display).text  # type: ignore[arg-type]
    except clean.Refused:
        return None


F32_1_RAWS = [
    pytest.param(b"\n" + b"x" * 80 + b"\x1bDXY", id="minimised"),
    pytest.param(b"a\rb" + b"x" * 80 + b"\x1bDX", id="after-a-CR"),
    pytest.param(b"b" + b"x" * 79 + b"\x1bDX", id="first-row-80"),
    pytest.param(b"\n" + b"x" * 81 + b"\x1bDXY", id="row-81"),
    pytest.param(b"\n" + b"x" * 160 + b"\x1bDXY", id="row-160"),
    pytest.param(b"\n" + b"x" * 161 + b"\x1bDXY", id="row-161"),
    pytest.param(b"ok\r\n" + b"x" * 80 + b"\x1bD\x1b[1mXY\x1b[m\r\n", id="then-SGR"),
    pytest.param(b"\n" + b"x" * 80 + b"\x1bD\x1b[KXY", id="then-EL"),
]


def test_f32_1_tmux_disagrees_with_itself_across_widths(judge_server) -> None:
    """The rule's ground: the minimised raw's XY lands on different rows and columns by width."""
    raw = b"\n" + b"x" * 80 + b"\x1bDXY"
    narrow = judge_server.show(raw, 80, 24).lines
    wide = judge_server.show(raw, 200, 60).lines
    assert narrow[-1] == "XY"  # an 80-column tmux wraps XY to a row's first column
    assert wide[-1] == " " * 80 + "XY"  # a wider one writes it at column 81 of the row below


@pytest.mark.parametrize("raw", F32_1_RAWS)
def test_f32_1_index_from_column_81_at_an_unknown_width_is_refused(raw: bytes) -> None:
    with pytest.raises(clean.Refused):
        clean.candidate(tmux_judge.decode(raw), **UNKNOWN)  # type: ignore[arg-type]


@pytest.mark.parametrize("raw", F32_1_RAWS)
def test_f32_1_the_gate_keeps_what_tmux_shows(judge_server, raw: bytes) -> None:
    case = tmux_judge.Case(raw, None, None, "F32-1")
    case.keeps_more_after_bel = False
    tmux_judge.judge([case], judge_server)
    assert not case.problems


# Neighbours that stay proposed: a CR settles the column, IND short of column 80 keeps it, and a known
# width or no terminal resolves the same raw.
F32_1_ADOPTED = [
    pytest.param(b"\n" + b"x" * 80 + b"\x1bD\rXY", UNKNOWN, id="CR-settles"),
    pytest.param(b"\n" + b"x" * 161 + b"\x1bD\rXY", UNKNOWN, id="CR-settles-row-161"),
    pytest.param(b"\n" + b"x" * 80 + b"\x1bEXY", UNKNOWN, id="NEL-column-81"),
    pytest.param(b"\n" + b"x" * 161 + b"\x1bEXY", UNKNOWN, id="NEL-row-161"),
    pytest.param(b"\n" + b"x" * 40 + b"\x1bDXY", UNKNOWN, id="column-41"),
    pytest.param(b"\n" + b"x" * 80 + b"\x1bDXY", {"columns": 200, "rows": 60, "terminal": True}, id="200x60"),
    pytest.param(b"\n" + b"x" * 80 + b"\x1bDXY", {"terminal": False}, id="no-terminal"),
]


@pytest.mark.parametrize(("raw", "display"), F32_1_ADOPTED)
def test_f32_1_neighbours_are_proposed_and_tmux_agrees(judge_server, raw: bytes, display: dict) -> None:
    proposed = _propose(raw, **display)
    assert proposed is not None
    assert proposed != tmux_judge.decode(raw)
    case = tmux_judge.Case(raw, display.get("columns"), display.get("rows"), "F32-1",
                           terminal=display["terminal"], candidate=tmux_judge.encode(proposed))
    case.keeps_more_after_bel = False
    tmux_judge.judge([case], judge_server)
    assert not case.problems
