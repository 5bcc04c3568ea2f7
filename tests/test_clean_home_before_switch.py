"""Red-team finding F33-1 on the cleaner's side alone (docs/red-team-findings.md).

A home, then ED 3 (which erases only the scrollback), then a switch of screens, in one break run: tmux
3.3a applies the home, and a switch leaves the cursor where it is, so the alternate page starts at the
screen's top row (and ?1049h saves that cursor for ?1049l). The cleaner took the alternate page's cursor
from before the home. It now carries a home through a switch that does not restore a cursor.

The cleaner is asked directly (``cleaner.candidate``): it refuses, or what it proposes is judged by a
live tmux at each display (never by our oracle).
"""

from __future__ import annotations

import pytest

from tests import tmux_families_red, tmux_judge
from textclean.pipeline import clean as cleaner

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(not tmux_judge.available(), reason="tmux is not installed (.ci/run installs it)"),
]

_DISPLAYS = {
    "no-terminal": {"terminal": False},
    "unknown": {"columns": None, "rows": None, "terminal": True},
    "sized": {"columns": 80, "rows": 24, "terminal": True},
    "fresh": {"columns": 80, "rows": 24, "terminal": True, "fresh": True},
    "10x5": {"columns": 10, "rows": 5, "terminal": True},
    "10x5-fresh": {"columns": 10, "rows": 5, "terminal": True, "fresh": True},
}


@pytest.fixture(scope="module")
def judge_server():
    with tmux_judge.server() as srv:
        yield srv


def _case(raw: bytes, display: dict) -> tmux_judge.Case:
    case = tmux_judge.Case(raw, display.get("columns"), display.get("rows"), "F33-1",
                           terminal=display["terminal"], fresh=display.get("fresh", False))
    case.keeps_more_after_bel = False
    return case


def _propose(raw: bytes, display: dict) -> str | None:
    try:
        return cleaner.candidate(tmux_judge.decode(raw), **display).text
    except cleaner.Refused:
        return None


# The red team's raws, each in the displays where clean() adopted a lossy candidate.
F33_1 = tmux_families_red.FINDINGS_33
RED_TEAM = [pytest.param(raw, d, id=f"{n}-{d}") for n, (raw, displays) in enumerate(F33_1) for d in displays]


def _variants() -> list[bytes]:
    """The red team's shapes with the home spelt otherwise, each alternate-screen mode, with and
    without text before, and the way back (?1049l restores the cursor ?1049h saved at the home)."""
    out: list[bytes] = []
    for mode in (b"47", b"1047", b"1049"):
        on = b"\x1b[?" + mode + b"h"
        for home in (b"\x1b[H", b"\x1b[1;1H", b"\x1b[;H"):
            out.append(b"x\r\n" + home + b"\x1b[3J" + on + b"w\x1b[2H8")
        for before in (b"", b"\x1b[H\x1b[Jx\r\n", b"x\r\ny\r\nz\r\n"):
            out.append(before + b"\x1b[H\x1b[3J" + on + b"\n\nw\x1b[4H8")
        out.append(b"x\r\ny\r\n\x1b[H\x1b[3J" + on + b"a\r\nb\x1b[?" + mode + b"lq\r\n")
        out.append(b"\x1b[H\x1b[Jx\r\ny\r\n\x1b[H\x1b[3J" + on + b"a\x1b[?" + mode + b"l\x1b[2;1Hq")
    # the home after the switch, on the alternate screen (the main screen's cursor stays)
    out.append(b"x\r\ny\r\n\x1b[?1049h\x1b[H\x1b[3Ja\r\nb\x1b[?1049lq\r\n")
    # a home before leaving: ?47l / ?1047l keep it, ?1049l restores the cursor saved before
    for mode in (b"47", b"1047", b"1049"):
        out.append(b"x\r\ny\r\n\x1b[?" + mode + b"ha\r\nb\r\n\x1b[H\x1b[3J\x1b[?" + mode + b"lq\r\n")
        out.append(b"x\r\ny\r\n\x1b[?" + mode + b"ha\r\nb\r\n\x1b[?" + mode + b"l\x1b[H\x1b[3Jq\r\n")
    return out


VARIANTS = [pytest.param(raw, d, id=f"v{n}-{d}") for n, raw in enumerate(_variants()) for d in _DISPLAYS]


def test_f33_1_tmux_applies_the_home_before_the_switch(judge_server) -> None:
    """The ground: the alternate page starts at the home's row, not the row the cursor left."""
    shown = judge_server.show(b"x\r\n\x1b[H\x1b[3J\x1b[?1049hw\x1b[2H8", 80, 24).lines
    assert [line for line in shown if line.strip()][-2:] == ["w", "8"]


@pytest.mark.parametrize(("raw", "display"), RED_TEAM + VARIANTS)
def test_f33_1_the_cleaner_refuses_or_proposes_what_tmux_shows(judge_server, raw: bytes, display: str) -> None:
    proposed = _propose(raw, _DISPLAYS[display])
    if proposed is None:
        return
    case = _case(raw, _DISPLAYS[display])
    case.candidate = proposed.encode("utf-8", "surrogateescape")
    tmux_judge.judge([case], judge_server)
    assert not case.problems, (proposed, case.problems)


@pytest.mark.parametrize(("raw", "display"), RED_TEAM)
def test_f33_1_the_red_team_raws_are_resolved(raw: bytes, display: str) -> None:
    """Where the cleaner knows the cursor (the home's row), it resolves the alternate page."""
    assert _propose(raw, _DISPLAYS[display]) is not None
