"""F30-1 and F30-2 on the verifier's side alone: the candidates the red team saw adopted are refused in
every display, the neighbours the verifier still accepts are judged by a live tmux 3.3a.

F30-1: tmux 3.3a keeps a ZWJ the cleaner's and verifier's models place where it was written (a ZWJ
followed by a narrow character, a control or an escape) and writes it again before the next
zero-width character, however far on. F30-2: ``?1049l`` leaving an alternate screen entered by
``?47h`` / ``?1047h`` restores no cursor in tmux (none was saved), the models put it elsewhere.
The candidates are written by hand (the escapes stripped, what a terminal without the quirk shows):
nothing of the cleaner is used.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests import tmux_judge
from textclean.pipeline import verify

needs_tmux = pytest.mark.skipif(not tmux_judge.available(), reason="tmux not installed")

DISPLAYS: dict[str, dict[str, Any]] = {
    "no-terminal": {"terminal": False},
    "unknown": {"columns": None, "rows": None, "terminal": True},
    "80x24": {"columns": 80, "rows": 24, "terminal": True},
    "80x24-fresh": {"columns": 80, "rows": 24, "terminal": True, "fresh": True},
}
SCREEN_DISPLAYS = ["unknown", "80x24", "80x24-fresh"]


@pytest.fixture(scope="module")
def judge_server():
    with tmux_judge.server() as srv:
        yield srv


def _shown(srv: tmux_judge.JudgeServer, raws: list[bytes]) -> list[list[str]]:
    """The non-blank lines tmux shows at 80x24 for each stream."""
    return [[line.rstrip() for line in capture.lines if line.strip()]
            for capture in srv.show_many([(raw, 80, 24) for raw in raws], join_wrapped=True)]


def _judge(srv: tmux_judge.JudgeServer, raw: bytes, candidate: str, display: dict[str, Any]) -> list[str]:
    case = tmux_judge.Case(raw, display.get("columns"), display.get("rows"), "F30",
                           terminal=display["terminal"], fresh=display.get("fresh", False),
                           candidate=candidate.encode())
    case.keeps_more_after_bel = False
    tmux_judge.judge([case], srv)
    return case.problems


# -- F30-1 -------------------------------------------------------------------------------------------

F30_1 = [  # raw, the lossy candidate (the ZWJ where the models put it: on a row erased or left behind)
    pytest.param(b"\xe2\x80\x8dA\r\x1b[Ky\xef\xb8\x8f", "y\ufe0f", id="minimised"),
    pytest.param(b"x\xe2\x80\x8dA\r\x1b[2Ky\xcc\x81\r\n", "y\u0301\n", id="EL2-combining"),
    pytest.param(b"x\xe2\x80\x8dA\r\x1b[2K\x1b[1mok\x1b[m\r\nnext line\r\nlast\xcc\x81\r\n",
                 "ok\nnext line\nlast\u0301\n", id="two-lines-later"),
    pytest.param(b"x\xe2\x80\x8dA\r\n\r\ny\xcc\x81\r\n", "x\u200dA\ny\u0301\n", id="kept-row"),
    pytest.param(b"x\xe2\x80\x8d\r\ny\xcc\x81\r\n", "x\u200d\ny\u0301\n", id="before-CR"),
    pytest.param(b"x\xe2\x80\x8dA\x1bcy\xcc\x81\r\n", "x\u200dA\ny\u0301\n", id="after-RIS"),
    pytest.param(b"x\xe2\x80\x8dA\x1b[2J\x1b[Hy\xcc\x81\r\n", "x\u200dA\ny\u0301\n", id="after-ED2"),
    pytest.param(b"x\xe2\x80\x8dA\r\ny\xe2\x80\x8b\r\n", "x\u200dA\ny\u200b\n", id="before-ZWSP"),
]


@needs_tmux
def test_tmux_shows_the_kept_zwj_again(judge_server) -> None:
    """The ground truth F30-1 rests on, and where tmux 3.3a does not keep the ZWJ (the neighbours)."""
    shown = _shown(judge_server, [
        b"\xe2\x80\x8dA\r\x1b[Ky\xef\xb8\x8f",
        b"x\xe2\x80\x8dA\x1bcy\xcc\x81z\xcc\x81\r\n",  # after RIS, only before the next mark
        b"x\xe2\x80\x8d\r\ny\xcc\x81\r\n",  # a ZWJ before a control is kept too
        b"x\xe2\x80\x8d\xcc\x81A\r\ny\xcc\x81\r\n",  # joined with a mark right after it: not kept
        "\U0001f468\u200d\U0001f469\r\ny\u0301\r\n".encode(),  # an emoji sequence: not kept
    ])
    assert shown[0] == ["y\u200d\ufe0f"]
    assert shown[1] == ["xA", "y\u200d\u0301z\u0301"]
    assert shown[2] == ["x", "y\u200d\u0301"]
    assert shown[3] == ["x\u200d\u0301A", "y\u0301"]
    assert shown[4] == ["\U0001f468\u200d\U0001f469", "y\u0301"]


@pytest.mark.parametrize("display", list(DISPLAYS))
@pytest.mark.parametrize(("raw", "candidate"), F30_1)
def test_f30_1_refused(raw: bytes, candidate: str, display: str) -> None:
    difference = verify.first_difference(raw.decode(), candidate, **DISPLAYS[display])
    assert difference is not None
    assert "ZWJ" in difference and difference.disputed
    assert difference.offset == raw.decode().index("\u200d")
    with pytest.raises(verify.Refusal, match="ZWJ"):
        verify.terminal_lines(raw.decode(), **DISPLAYS[display])


@needs_tmux
def test_the_judge_catches_f30_1(judge_server) -> None:
    """The judge below can fail: the red team's adopted candidate loses tmux's line."""
    assert _judge(judge_server, b"x\xe2\x80\x8dA\r\x1b[2Ky\xcc\x81\r\n", "y\u0301\n", DISPLAYS["80x24"])


F30_1_NEIGHBOURS = [  # raw, a candidate the verifier still accepts
    pytest.param(b"x\xe2\x80\x8dA\r\nplain\r\n", "x\u200dA\nplain\n", id="no-mark-later"),
    pytest.param(b"x\xe2\x80\x8d\xcc\x81A\r\ny\xcc\x81\r\n", "x\u200d\u0301A\ny\u0301\n", id="zwj-then-mark"),
    pytest.param("\U0001f468\u200d\U0001f469 ok\r\ny\u0301\r\n".encode(), "\U0001f468\u200d\U0001f469 ok\ny\u0301\n",
                 id="emoji-sequence"),
    pytest.param(b"ab\r\x1b[Ky\xcc\x81\r\n", "y\u0301\n", id="no-zwj"),
]


@needs_tmux
@pytest.mark.parametrize("display", list(DISPLAYS))
@pytest.mark.parametrize(("raw", "candidate"), F30_1_NEIGHBOURS)
def test_f30_1_neighbours_adopted_and_true_to_tmux(judge_server, raw: bytes, candidate: str, display: str) -> None:
    assert verify.first_difference(raw.decode(), candidate, **DISPLAYS[display]) is None
    assert not _judge(judge_server, raw, candidate, DISPLAYS[display])


# -- F30-2 -------------------------------------------------------------------------------------------

F30_2 = [  # raw, the lossy candidate (the cursor put at a new line on return)
    pytest.param(b"\x1b[?47h0\x1b[?1049lt", "0\nt", id="minimised"),
    pytest.param(b"\x1b[?1047habc\x1b[?1049lt\r\n", "abc\r\nt\r\n", id="1047"),
    pytest.param(b"\x1b[H\x1b[2Jx\r\n\x1b[?47habc\x1b[?1049lt\r\n", "x\r\nabc\r\nt\r\n", id="after-a-page"),
    pytest.param(b"ok\x1b7\x1b[?47habc\x1b[?1049lt\r\n", "ok\nabc\nt\n", id="DECSC-before"),
    pytest.param(b"\x1b[?1049habc\x1b[?47lt\r\n", "abc\nt\n", id="1049-then-47"),
    pytest.param(b"\x1b[?1049habc\x1b[?1047lt\r\n", "abc\nt\n", id="1049-then-1047"),
    pytest.param(b"\x1b[?1048h\x1b[?47habc\x1b[?1049lt\r\n", "abc\nt\n", id="1048-save"),
]


@needs_tmux
def test_tmux_restores_no_cursor_it_never_saved(judge_server) -> None:
    """The ground truth of F30-2: tmux 3.3a leaves the cursor where the alternate screen had it."""
    shown = _shown(judge_server, [b"\x1b[?47h0\x1b[?1049lt", b"ok\x1b7\x1b[?47habc\x1b[?1049lt\r\n",
                                  b"ok\x1b[?1049habc\x1b[?1049lt\r\n"])
    assert shown[0] == [" t"]
    assert shown[1] == ["ok   t"]  # DECSC saved none tmux restores here: the cursor after "abc"
    assert shown[2] == ["okt"]  # ?1049h saved it: restored


@pytest.mark.parametrize("display", SCREEN_DISPLAYS)
@pytest.mark.parametrize(("raw", "candidate"), F30_2)
def test_f30_2_refused(raw: bytes, candidate: str, display: str) -> None:
    assert verify.first_difference(raw.decode(), candidate, **DISPLAYS[display]) is not None
    with pytest.raises(verify.Refusal):
        verify.terminal_lines(raw.decode(), **DISPLAYS[display])


@needs_tmux
def test_the_judge_catches_f30_2(judge_server) -> None:
    assert _judge(judge_server, b"\x1b[?47h0\x1b[?1049lt", "0\nt", DISPLAYS["80x24"])


@needs_tmux
@pytest.mark.parametrize("display", SCREEN_DISPLAYS)
def test_f30_2_neighbour_1049_both_ways_adopted_and_true_to_tmux(judge_server, display: str) -> None:
    raw = b"ok\r\n\x1b[?1049habc\x1b[?1049lt\r\n"
    assert verify.first_difference(raw.decode(), "ok\nabc\nt\n", **DISPLAYS[display]) is None
    assert not _judge(judge_server, raw, "ok\nabc\nt\n", DISPLAYS[display])
