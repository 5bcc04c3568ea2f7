"""F33-1 on the verifier's side alone: a home, then ED 3 or a screen switch, in one break run.

ED 3 erases only the history and a screen switch keeps the cursor where it is, so the home before them
still moves the cursor: tmux 3.3a starts the alternate page at row 0 (and ``?1049h`` saves the homed
cursor). The verifier dropped a home that did not join an ED 2 / ED 0, so the alternate page began one
row down and a candidate that lost a line passed. Judged by the live tmux, not by our oracle.

The lossy candidates are what the cleaner proposed at 516f60a (its code unread); the cleaner of the day
is asked too: whatever it proposes, the verifier rejects it or tmux finds nothing lost.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests import tmux_judge
from textclean.pipeline import clean as cleaner
from textclean.pipeline import verify
from textclean.pipeline.verify.meaning import Refusal

needs_tmux = pytest.mark.skipif(not tmux_judge.available(), reason="tmux not installed")

DISPLAYS: dict[str, dict[str, Any]] = {
    "no-terminal": {"terminal": False},
    "unknown": {"columns": None, "rows": None, "terminal": True},
    "sized": {"columns": 80, "rows": 24, "terminal": True},
    "fresh": {"columns": 80, "rows": 24, "terminal": True, "fresh": True},
    "10x5": {"columns": 10, "rows": 5, "terminal": True},
    "10x5-fresh": {"columns": 10, "rows": 5, "terminal": True, "fresh": True},
}
ALL = ("no-terminal", "unknown", "sized", "fresh")

#: (raw, the displays where clean() adopted it, the candidate the cleaner proposed there at 516f60a)
F33_1 = [
    (b"\x1b[H\x1b[Jx\r\n\x1b[H\x1b[3J\x1b[?47h\n\nw\x1b[4H8", ALL, "x\r\n8"),
    (b"\x1b[H\x1b[J\n\x1b[H\x1b[3J\x1b[?47h\n\nw\x1b[4H8", ALL, "8"),
    (b"x\r\n\x1b[H\x1b[3J\x1b[?1049h\n\nw\x1b[4H8", ("fresh",), "x\r\n8"),
    (b"x\r\n\x1b[H\x1b[3J\x1b[?1049hw\x1b[2H8", ("fresh",), "x\r\n8"),
    (b"\x1b[B\x1b[H\x1b[3J\x1b[?47;25h2\x1b[2Hv", ("fresh",), "v"),
    # home, ED 3, ED 2: the order `clear` does not use
    (b"\x1b[H\x1b[Jx\r\n\x1b[H\x1b[3J\x1b[2J\x1b[?47h\n\nw\x1b[4H8", ("unknown", "sized", "fresh"), "x\r\n8"),
    # ?1049h saves the cursor after the home (not the DECSC before it)
    (b"\x1b[H\x1b[Jx\r\n\x1b7\x1b[H\x1b[3J\x1b[?1049ha\r\nb\x1b[1;3Hc", ("sized",), "x\r\n  c\r\na\r\nb"),
]
ADOPTED = [pytest.param(raw, display, lossy, id=f"{index}-{display}")
           for index, (raw, displays, lossy) in enumerate(F33_1) for display in displays]

HOMES = {"CUP": b"\x1b[H", "CUP-1;1": b"\x1b[1;1H", "CUP-;": b"\x1b[;H", "HVP": b"\x1b[f"}
#: {home} and {mode} filled in: the minimal raws' shapes, with and without text before
SHAPES = {
    "text-ed3-switch": b"\x1b[H\x1b[Jx\r\n{home}\x1b[3J\x1b[?{mode}h\n\nw\x1b[4H8",
    "blank-ed3-switch": b"\x1b[H\x1b[J\n{home}\x1b[3J\x1b[?{mode}h\n\nw\x1b[4H8",
    "no-clear-ed3-switch": b"x\r\n{home}\x1b[3J\x1b[?{mode}hw\x1b[2H8",
    "nothing-before": b"{home}\x1b[3J\x1b[?{mode}hw\x1b[2H8",
    "cud-ed3-switch": b"\x1b[B{home}\x1b[3J\x1b[?{mode};25h2\x1b[2Hv",
    "ed3-ed2-switch": b"\x1b[H\x1b[Jx\r\n{home}\x1b[3J\x1b[2J\x1b[?{mode}h\n\nw\x1b[4H8",
    "switch-alone": b"x\r\n\x1b[B{home}\x1b[?{mode}hw\x1b[2H8",
    "ed3-then-text": b"x\r\n\x1b[B{home}\x1b[3Jw\r\n",
    "decsc-ed3-1049": b"\x1b[H\x1b[Jx\r\n\x1b7{home}\x1b[3J\x1b[?1049ha\r\nb\x1b[1;3Hc",
}
MODES = (b"47", b"1047", b"1049")


def _variants() -> list[bytes]:
    out: list[bytes] = []
    for shape in SHAPES.values():
        for home in HOMES.values():
            for mode in MODES if b"{mode}" in shape else (b"",):
                raw = shape.replace(b"{home}", home).replace(b"{mode}", mode)
                if raw not in out:
                    out.append(raw)
    return out


VARIANTS = _variants()


def _shown(lines: list[str]) -> list[str]:
    return [line.rstrip() for line in lines if line.strip()]


@pytest.fixture(scope="module")
def tmux_lines() -> dict[tuple[bytes, int, int], list[str]]:
    """What tmux shows for every raw here at 80x24 and 10x5 (fresh windows), one server, one batch."""
    if not tmux_judge.available():
        pytest.skip("tmux not installed")
    jobs = [(raw, columns, rows) for raw in VARIANTS + [raw for raw, _, _ in F33_1]
            for columns, rows in ((80, 24), (10, 5))]
    with tmux_judge.server() as srv:
        captures = srv.show_many(jobs, join_wrapped=True, held=True)
    return {job: _shown(capture.lines) for job, capture in zip(jobs, captures, strict=True)}


@needs_tmux
@pytest.mark.parametrize("raw, display, lossy", ADOPTED)
def test_tmux_shows_what_the_lossy_candidate_lost(raw: bytes, display: str, lossy: str) -> None:
    """The ground truth: the candidate adopted at 516f60a loses a line tmux shows."""
    case = tmux_judge.Case(raw, DISPLAYS[display].get("columns"), DISPLAYS[display].get("rows"), "f33",
                           terminal=DISPLAYS[display]["terminal"], fresh=DISPLAYS[display].get("fresh", False),
                           candidate=lossy.encode())
    case.keeps_more_after_bel = False
    with tmux_judge.server() as srv:
        tmux_judge.judge([case], srv)
    assert case.problems


@pytest.mark.parametrize("raw, display, lossy", ADOPTED)
def test_f33_1_lossy_candidate_rejected(raw: bytes, display: str, lossy: str) -> None:
    assert verify.first_difference(raw.decode(), lossy, **DISPLAYS[display]) is not None


@needs_tmux
@pytest.mark.parametrize("raw, display, lossy", ADOPTED)
def test_f33_1_todays_cleaner_candidate_rejected_or_true_to_tmux(raw: bytes, display: str, lossy: str) -> None:
    try:
        proposed = cleaner.candidate(raw.decode(), **DISPLAYS[display]).text
    except cleaner.Refused:
        return
    if verify.first_difference(raw.decode(), proposed, **DISPLAYS[display]) is not None:
        return
    case = tmux_judge.Case(raw, DISPLAYS[display].get("columns"), DISPLAYS[display].get("rows"), "f33",
                           terminal=DISPLAYS[display]["terminal"], fresh=DISPLAYS[display].get("fresh", False),
                           candidate=proposed.encode())
    case.keeps_more_after_bel = False
    with tmux_judge.server() as srv:
        tmux_judge.judge([case], srv)
    assert not case.problems, case.problems


@needs_tmux
@pytest.mark.parametrize("display", list(DISPLAYS))
@pytest.mark.parametrize("raw", VARIANTS, ids=[repr(raw)[2:-1] for raw in VARIANTS])
def test_terminal_lines_refuses_or_shows_what_tmux_shows(tmux_lines, raw: bytes, display: str) -> None:
    """Every variant in every display: the verifier refuses, or its lines are tmux's (a fresh tmux window
    of the display's size; 80x24 where the size is unknown or there is no terminal)."""
    kwargs = DISPLAYS[display]
    size = (10, 5) if kwargs.get("columns") == 10 else (80, 24)
    try:
        lines = verify.terminal_lines(raw.decode(), **kwargs)
    except Refusal:
        return
    assert _shown(lines) == tmux_lines[(raw, *size)]


@needs_tmux
def test_the_variants_are_decided_where_the_page_is_known(tmux_lines) -> None:
    """The fix resolves, not only refuses: at a fresh 80x24 terminal the minimal raws are decided, as tmux
    shows them."""
    for raw, _, _ in F33_1:
        lines = verify.terminal_lines(raw.decode(), **DISPLAYS["fresh"])
        assert _shown(lines) == tmux_lines[(raw, 80, 24)], raw
