"""Red-team findings F30-1 and F30-2 on the cleaner's side alone (docs/design.md "Disputes: the cleaner").

F30-1: tmux 3.3a leaves a zero-width joiner followed by an ASCII character (text, a control, an escape)
pending and shows it again before the next non-ASCII character, across line feeds, page breaks and RIS,
even after the joiner's row was erased. The cleaner refuses such a joiner once a redraw follows.
F30-2: ``CSI ? 1049 l`` off an alternate screen that ``?47h`` / ``?1047h`` entered: tmux 3.3a leaves the
cursor where it is (it restores only a cursor a ``?1049h`` saved), xterm restores the DECSC slot or
homes. The cleaner keeps that page (and so refuses where it cannot be kept).

Only the cleaner is asked (``clean.candidate``); what it still proposes is judged by a live tmux.
"""

from __future__ import annotations

import pytest

from tests import tmux_judge
from textclean.pipeline import clean

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(not tmux_judge.available(), reason="tmux is not installed (.ci/run installs it)"),
]

DISPLAYS = {
    "no-terminal": {"terminal": False},
    "unknown": {"columns": None, "rows": None, "terminal": True},
    "80x24": {"columns": 80, "rows": 24, "terminal": True},
    "80x24-fresh": {"columns": 80, "rows": 24, "terminal": True, "fresh": True},
}
SCREENS = ["unknown", "80x24", "80x24-fresh"]  # a switch of screens means nothing without a terminal


@pytest.fixture(scope="module")
def judge_server():
    with tmux_judge.server() as srv:
        yield srv


def _propose(raw: bytes, display: str) -> str | None:
    try:
        return clean.candidate(raw.decode("utf-8", "surrogateescape"), **DISPLAYS[display]).text
    except clean.Refused:
        return None


def _judge(srv: tmux_judge.JudgeServer, raw: bytes, proposed: str, display: str) -> list[str]:
    keywords = DISPLAYS[display]
    case = tmux_judge.Case(raw, keywords.get("columns"), keywords.get("rows"), "F30",
                           terminal=keywords["terminal"], fresh=keywords.get("fresh", False),
                           candidate=proposed.encode("utf-8", "surrogateescape"))
    case.keeps_more_after_bel = False
    tmux_judge.judge([case], srv)
    return case.problems


# --- F30-1 ------------------------------------------------------------------------------------------

F30_1_RAWS = [
    pytest.param(b"\xe2\x80\x8dA\r\x1b[Ky\xef\xb8\x8f", id="minimised"),
    pytest.param(b"x\xe2\x80\x8dA\r\x1b[2Ky\xcc\x81\r\n", id="EL2-combining"),
    pytest.param(b"x\xe2\x80\x8dA\r\x1b[2K\x1b[1mok\x1b[m\r\nnext line\r\nlast\xcc\x81\r\n", id="two-lines-later"),
    # what tmux was found to do (live, 3.3a): the joiner comes back before the next non-ASCII character
    # whatever it is (a narrow letter, a wide one, an emoji), after a page break or RIS too
    pytest.param(b"x\xe2\x80\x8dA\r\x1b[Ky\xc3\xa9\r\n", id="before-a-letter"),
    pytest.param(b"x\xe2\x80\x8dA\r\x1b[Ky\xe4\xb8\xad\r\n", id="before-a-wide-letter"),
    pytest.param(b"x\xe2\x80\x8d\x1b[1mA\r\x1b[Kyz\xcc\x81\r\n", id="an-escape-between"),
    pytest.param(b"x\xe2\x80\x8dA\x1b[H\x1b[2Jline\xcc\x81\r\n", id="across-ED2"),
    pytest.param(b"x\xe2\x80\x8dA\x1bcline\xcc\x81\r\n", id="across-RIS"),
    pytest.param(b"x\xe2\x80\x8d\r\nok\r\x1b[Kno\xcc\x81\r\n", id="joiner-before-a-line-end"),
]


@pytest.mark.parametrize("display", list(DISPLAYS))
@pytest.mark.parametrize("raw", F30_1_RAWS)
def test_f30_1_a_pending_joiner_before_a_redraw_is_refused(raw: bytes, display: str) -> None:
    with pytest.raises(clean.Refused, match="zero-width joiner"):
        clean.candidate(raw.decode(), **DISPLAYS[display])


# Neighbours that stay adopted: the joiner joins what directly follows it (tmux shows it in place), no
# non-ASCII character comes after it, or nothing is redrawn (the candidate is the text itself).
F30_1_ADOPTED = [
    pytest.param("\U0001f468\u200d\U0001f469 family\r\x1b[Kok\u0301\r\n".encode(), id="emoji-sequence"),
    pytest.param("x\u200d\u00e9 a\r\x1b[Kb\u0301\r\n".encode(), id="joiner-then-a-letter"),
    pytest.param("x\u200d\u0301A\r\x1b[Ky\ufe0f\r\n".encode(), id="joiner-then-a-mark"),
    pytest.param(b"x\xe2\x80\x8dA\r\x1b[Kyz\r\n", id="nothing-non-ASCII-after"),
    pytest.param(b"x\xe2\x80\x8dA \x1b[1mok\x1b[m\xcc\x81\r\n", id="no-redraw"),
]


@pytest.mark.parametrize("display", list(DISPLAYS))
@pytest.mark.parametrize("raw", F30_1_ADOPTED)
def test_f30_1_neighbours_are_proposed_and_tmux_agrees(judge_server, raw: bytes, display: str) -> None:
    proposed = _propose(raw, display)
    assert proposed is not None
    assert proposed != raw.decode()
    assert not _judge(judge_server, raw, proposed, display)


# --- F30-2 ------------------------------------------------------------------------------------------

F30_2_RAWS = [
    pytest.param(b"\x1b[?47h0\x1b[?1049lt", id="minimised"),
    pytest.param(b"\x1b[?1047habc\x1b[?1049lt\r\n", id="1047"),
    pytest.param(b"\x1b[H\x1b[2Jx\r\n\x1b[?47habc\x1b[?1049lt\r\n", id="after-a-page"),
    # DECSC fills xterm's slot, which tmux's ?1049l never reads
    pytest.param(b"\x1b[H\x1b[2Jx\x1b7\r\n\x1b[?47habc\x1b[?1049lt\r\n", id="DECSC-before"),
    # a ?1049h save, then a ?47h entry: tmux restores the old save, xterm its own slot
    pytest.param(b"\x1b[H\x1b[2Jab\r\n\x1b[?1049hz\x1b[?1049lcd\r\n\x1b[?47hq\x1b[?1049lt\r\n", id="an-old-save"),
    # ?1049h on the alternate screen already: tmux saves nothing, xterm saves
    pytest.param(b"\x1b[H\x1b[2Jab\x1b[?47h\x1b[?1049hq\x1b[?1049lt\r\n", id="47h-then-1049h"),
    pytest.param(b"\x1b[H\x1b[2Jab\x1b[?47hq\x1b[?1049h\x1b[2Jr\x1b[?1049lt\r\n", id="1049h-while-on-47"),
    pytest.param(b"\x1b[H\x1b[2Jabc\x1b[?47h\x1b[5Gxy\x1b[?1049l\x1b[2Jt\r\n", id="47h-then-1049l-ED2"),
]


@pytest.mark.parametrize("display", SCREENS)
@pytest.mark.parametrize("raw", F30_2_RAWS)
def test_f30_2_leaving_without_an_agreed_cursor_is_refused(raw: bytes, display: str) -> None:
    with pytest.raises(clean.Refused, match="where the cursor goes is disputed"):
        clean.candidate(raw.decode(), **DISPLAYS[display])


# Neighbours that stay cleaned: ?1049h / ?1049l as a pair, and ?47l / ?1047l (the cursor stays put in
# tmux and xterm alike) whichever switch entered.
F30_2_ADOPTED = [
    pytest.param(b"\x1b[H\x1b[2Jab\r\n\x1b[?1049hq\r\x1b[Kz\x1b[?1049lt\r\n", id="1049-pair"),
    pytest.param(b"\x1b[H\x1b[2Jab\r\n\x1b[?47hq\r\x1b[Kz\x1b[?47l\rt\r\n", id="47-pair"),
    pytest.param(b"\x1b[H\x1b[2Jab\r\n\x1b[?1049hq\r\x1b[Kz\x1b[?1047l\rt\r\n", id="1049h-then-1047l"),
    pytest.param(b"\x1b[H\x1b[2Jab\r\n\x1b[?1047hq\r\x1b[Kz\x1b[?47l\rt\r\n", id="1047h-then-47l"),
    pytest.param(b"\x1b[H\x1b[2Jab\r\n\x1b[?47hq\r\x1b[Kz\x1b[?1049l\x1b[H\x1b[2Jt\r\n", id="1049l-then-a-clear"),
    # ED 2 without a home right after ?1049l: the restored cursor's column, not the alternate screen's
    pytest.param(b"\x1b[H\x1b[2Jabc\x1b[?1049h\x1b[5Gxy\x1b[?1049l\x1b[2Jt\r\n", id="1049l-then-ED2"),
    pytest.param(b"\x1b[H\x1b[2Jabc\x1b[?47h\x1b[5Gxy\x1b[?47l\x1b[2Jt\r\n", id="47l-then-ED2"),
]


@pytest.mark.parametrize("display", SCREENS)
@pytest.mark.parametrize("raw", F30_2_ADOPTED)
def test_f30_2_neighbours_are_proposed_and_tmux_agrees(judge_server, raw: bytes, display: str) -> None:
    proposed = _propose(raw, display)
    assert proposed is not None
    assert proposed != raw.decode()
    assert not _judge(judge_server, raw, proposed, display)
