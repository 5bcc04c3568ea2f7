"""ANSI modes that change nothing shown (``names.HARMLESS_ANSI_MODES``), on the cleaner's side.

vim writes ``CSI 34 h`` / ``CSI 34 l`` (cvvis / cnorm in the screen and tmux terminfo) around every
redraw: tmux 3.3a's ``input_csi_dispatch_sm`` only toggles cursor blinking for 34, and xterm does not
define it. The cleaner treats those modes as changing nothing, in the row model and the screen model,
and a live tmux must show every line of the raw in the candidate. IRM (4) and LNM (20) stay refused.
Only the cleaner is asked here (``clean.candidate``), never the verifier.
"""

from __future__ import annotations

import pytest

from tests import tmux_judge
from textclean.pipeline import clean

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(not tmux_judge.available(), reason="tmux is not installed (.ci/run installs it)"),
]

HOME = b"\x1b[H\x1b[2J"

# vim's status-line redraw at 40x8, as the agent recording draws it (cursor hidden, placed, SM 34, shown)
VIM_LIKE = (
    HOME + b"\x1b[?25l\x1b[1;1Hfirst line of the file\x1b[2;1H~\x1b[3;1H~\x1b[8;1H\"f.txt\" 1L, 22B"
    b"\x1b[8;30H1,1\x1b[9CAll\x1b[1;1H\x1b[34h\x1b[?25h"
    b"\x1b[?25l\x1b[8;30H1,2\x1b[1;2H\x1b[34h\x1b[?25h\x1b[34l"
)
CASES = {
    "vim-like screen redraw (screen model)": (VIM_LIKE, 40, 8),
    "SM 34 inside a CR redraw (row model)": (b"one\r\n\x1b[34hstep 1\rstep 2\x1b[34l\r\ndone\r\n", 20, 5),
    "RM 34 before an overwrite": (b"abc\r\n\x1b[34lxyz\r\x1b[34hQ\r\n", 20, 5),
    "KAM and SRM set and reset": (b"a\r\n\x1b[2h\x1b[12hwait\r\x1b[2l\x1b[12;34lok  \r\n", 20, 5),
}


@pytest.fixture(scope="module")
def judge_server():
    with tmux_judge.server() as srv:
        yield srv


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_harmless_ansi_modes_are_dropped_and_tmux_shows_every_line(judge_server, case) -> None:
    raw, columns, rows = case
    proposal = clean.candidate(raw.decode(), columns=columns, rows=rows).text
    assert "\x1b[34" not in proposal and "\x1b[2h" not in proposal
    assert proposal.count("\x1b") < raw.count(b"\x1b")
    judged = tmux_judge.Case(raw, columns, rows, "modes", [(columns, rows)], candidate=proposal.encode())
    tmux_judge.judge([judged], judge_server)
    assert judged.problems == []


REFUSED = {
    "IRM set, then an overwrite": b"abc\r\n\x1b[4hxyz\rQ\r\n",
    "LNM set, then a redraw": b"abc\r\n\x1b[20hxyz\rQ\r\n",
    "SM 34 with IRM in one list": b"abc\r\n\x1b[34;4hxyz\rQ\r\n",
    "SM with an empty field (mode 0)": b"abc\r\n\x1b[34;hxyz\rQ\r\n",
}


@pytest.mark.parametrize("raw", REFUSED.values(), ids=REFUSED.keys())
def test_modes_that_change_content_are_still_refused(raw: bytes) -> None:
    with pytest.raises(clean.Refused):
        clean.candidate(raw.decode(), columns=20, rows=5)


def test_tmux_inserts_under_irm_which_is_why_it_stays_refused(judge_server) -> None:
    assert judge_server.show(b"abc\r\x1b[4hX\x1b[4l\r\n", 20, 5).lines == ["Xabc"]
    assert judge_server.show(b"abc\r\x1b[34hX\x1b[34l\r\n", 20, 5).lines == ["Xbc"]
