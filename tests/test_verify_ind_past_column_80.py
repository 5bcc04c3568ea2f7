"""F32-1 on the verifier's side alone: IND from column 80 on, at a terminal of unknown width.

IND moves down without a CR. On an 80-column terminal a row of 80 cells leaves the cursor at the
pending-wrap position, so the next character wraps to the first column of a new row; on a wider one it
stands at column 80 of the row IND reached. Terminals disagree on that column, so a candidate that
resolves it either way is refused (CUD and RI were already refused there). The candidates are written by
hand (what a wider terminal shows): nothing of the cleaner is used.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests import tmux_judge
from textclean.pipeline import verify

needs_tmux = pytest.mark.skipif(not tmux_judge.available(), reason="tmux not installed")

UNKNOWN: dict[str, Any] = {"columns": None, "rows": None, "terminal": True}


def _wider(raw: str) -> str:
    """What a terminal wider than every row shows: IND as a line end, then spaces to the same column."""
    head, _, tail = raw.partition("\x1bD")
    row = head.split("\n")[-1].split("\r")[-1]
    return head + "\n" + " " * len(row) + tail


F32_1 = [  # rows reaching column 80 (80, 81, 160, 161 cells), then IND and text
    pytest.param("\n" + "x" * 80 + "\x1bDXY", id="minimised"),
    pytest.param("a\rb" + "x" * 80 + "\x1bDX", id="after-CR"),
    pytest.param("\n" + "x" * 81 + "\x1bDXY", id="81-cells"),
    pytest.param("\n" + "x" * 160 + "\x1bDXY\r\n", id="160-cells"),
    pytest.param("\n" + "x" * 161 + "\x1bDXY\r\n", id="161-cells"),
]


@pytest.fixture(scope="module")
def judge_server():
    with tmux_judge.server() as srv:
        yield srv


@needs_tmux
def test_tmux_wraps_the_text_after_ind_from_the_margin(judge_server) -> None:
    """The ground truth: at 80 columns the text after IND starts a row of its own; at 200 it stands at
    column 80 of the row below (the wider terminal's reading, which the candidate takes)."""
    raw = ("\n" + "x" * 80 + "\x1bDXY").encode()
    narrow, wide = (judge_server.show_many([(raw, columns, 24)], join_wrapped=True)[0] for columns in (80, 200))
    assert [line.rstrip() for line in narrow.lines if line.strip()] == ["x" * 80, "XY"]
    assert [line.rstrip() for line in wide.lines if line.strip()] == ["x" * 80, " " * 80 + "XY"]


@pytest.mark.parametrize("raw", F32_1)
def test_f32_1_refused_at_an_unknown_width(raw: str) -> None:
    difference = verify.first_difference(raw, _wider(raw), **UNKNOWN)
    assert difference is not None and "IND" in difference


@needs_tmux
def test_ind_short_of_column_80_still_adopted_and_true_to_tmux(judge_server) -> None:
    """The neighbour: a row of 79 cells, where every terminal of at least 80 columns agrees."""
    raw = "\n" + "x" * 79 + "\x1bDXY"
    candidate = _wider(raw)
    assert verify.first_difference(raw, candidate, **UNKNOWN) is None
    case = tmux_judge.Case(raw.encode(), None, None, "F32", terminal=True, candidate=candidate.encode())
    tmux_judge.judge([case], judge_server)
    assert not case.problems
