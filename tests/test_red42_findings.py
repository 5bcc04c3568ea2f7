"""Red team 42's findings on rows redrawn in place (the stream's ``in_place_rows`` readings).

F42-1: the verifier's cut reading (``CutCheck``, ``in_place_rows=True``, what ``Stream`` and so
``textclean run`` / ``-f`` read with) erased a followed row's cells for ECH one column at a time over
the whole count, not over the cells the row holds: ``CSI 1000000 X`` cost a million dict lookups. A
thousand bytes of output (``abc`` then a hundred of them) kept ``textclean run -- cat`` busy for 15 s
(27 s for 200 of them through ``Stream``), where ``clean()`` of the same text takes milliseconds and
the cleaner's reading (``CutFinder``) clamps the erase to the row. No line is lost; hostile input
stalls the stream.

The work is measured in the reading's own line events (``sys.settrace``), not in time: an ECH of a
hundred thousand columns must cost about what an ECH of one does.

F42-4 (live tmux; the same on 89265bb, before rows redrawn in place): a stream at a terminal of a known
size released a stretch whose blank rows the cleaner collapsed (an erased row and three blank rows
after a wrapped line became one blank row), its cut point confirmed because the raw's rows below had
taken the wrapped line off the 4-row screen. The rest went out raw after both readings stopped on a
CPL past the screen's top, which a terminal clamps to the top row: a blank row in the raw, the wrapped
line's last row in the release, erased there by the EL that follows. tmux shows
``long line here wrapping`` for the raw and loses its end for the release.
A second stream (seed 4203, 308 bytes) shows the same layout change with a one-row RI: the release
holds a blank row after ``7/9 item`` the raw holds before ``a.b``, so a raw RI + ECH lands elsewhere.
"""

from __future__ import annotations

import shutil
import sys
from types import FrameType
from typing import Any

import pytest

import textclean
from tests import tmux_judge
from textclean.pipeline.clean import cut_finder
from textclean.pipeline.verify import cut_check


def _line_events(module: Any, feed: Any, text: str) -> int:
    """How many lines of ``module`` run while ``feed(text)`` runs."""
    path = module.__file__
    events = 0

    def local(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal events
        if event == "line":
            events += 1
        return local

    def tracer(frame: FrameType, event: str, arg: object) -> Any:
        return local if frame.f_code.co_filename == path else None

    sys.settrace(tracer)
    try:
        feed(text)
    finally:
        sys.settrace(None)
    return events


def _pure(module: Any) -> bool:
    return str(module.__file__).endswith(".py")


@pytest.mark.parametrize("size", [{}, {"columns": 80, "rows": 24}], ids=["no-terminal", "80x24"])
@pytest.mark.parametrize("reading", ["check", "finder"])
def test_a_long_ech_costs_what_a_short_one_does(reading: str, size: dict[str, int]) -> None:
    module = cut_check if reading == "check" else cut_finder
    if not _pure(module):
        pytest.skip("compiled: its lines are not traced")

    def feed(text: str) -> None:
        if reading == "check":
            cut_check.CutCheck(1 << 20, in_place_rows=True, **size).feed(text)
        else:
            cut_finder.CutFinder(1 << 20, in_place_rows=True, **size).feed(text)

    short = _line_events(module, feed, "abc\r\x1b[1X\ndone\n")
    long = _line_events(module, feed, "abc\r\x1b[100000X\ndone\n")
    assert long < short + 200, (short, long)


@pytest.mark.parametrize("erase", ["\x1b[K", "\x1b[1K"], ids=["EL0-past-the-text", "EL1-at-the-start"])
def test_an_erase_in_line_costs_no_scan_of_a_long_row(erase: str) -> None:
    """F42-2: EL 0 / EL 1 on the followed row listed every cell the row holds to find those it erases,
    each time: a 4,000-character line, CR, then 40,000 EL 1 (164 KB) took 20 s through ``Stream``,
    ``clean()`` 0.6 s. An erase that finds nothing to erase must not cost the row's length."""
    if not _pure(cut_check):
        pytest.skip("compiled: its lines are not traced")

    def feed(text: str) -> None:
        cut_check.CutCheck(1 << 20, in_place_rows=True).feed(text)

    where = "\r\x1b[3999C" if erase == "\x1b[K" else "\r"
    short = _line_events(cut_check, feed, "x" * 4000 + where + erase * 2 + "\ndone\n")
    long = _line_events(cut_check, feed, "x" * 4000 + where + erase * 202 + "\ndone\n")
    assert long - short < 200 * 100, (short, long)  # ~50 lines an erase (the reading), not the row's 4,000 cells


def test_moves_past_the_text_cost_no_scan_of_a_long_row() -> None:
    """F42-3: a move back that lands past the row's last character (CUB after CUF past a 4,000-character
    line, nothing rewound yet) scanned every cell to find one at or after it, each time: 20,000 CUB / CUF
    pairs (164 KB) took 17 s in ``CutCheck``, ``clean()`` 1.3 s."""
    if not _pure(cut_check):
        pytest.skip("compiled: its lines are not traced")

    def feed(text: str) -> None:
        cut_check.CutCheck(1 << 20, in_place_rows=True).feed(text)

    short = _line_events(cut_check, feed, "x" * 4000 + "\x1b[10C" + "\x1b[5D\x1b[5C" + "\ndone\n")
    long = _line_events(cut_check, feed, "x" * 4000 + "\x1b[10C" + "\x1b[5D\x1b[5C" * 101 + "\ndone\n")
    assert long - short < 200 * 100, (short, long)  # ~50 lines a move (the reading), not the row's 4,000 cells


_CLAMPED = b"long line here wrapping\r\n7\r\x1b[K\n\n\n\nend\r\n\x1b[6F\x1b[K\r\n\n\n\n"
# fuzz/red42_random.py seed 4203, not minimised: the release moves a blank row of ``7/\n\n\n\na.b`` to
# after ``7/9 item``, so the raw RI + ECH 2 that follows erases ``7/`` in the raw (tmux: ``  9 item``)
# and a blank row in the release
_MOVED_BLANK = (
    b"[##  ] a.b o\tok \x1b[7m[\x1b[0m## \x1b[K42\x1b[31m%\nd\t4\x1b[K\x1b[0mdone 7/\x1b[1;32m9 \x1b[GPASS\x1b[m"
    b" 7/\x1b[0m9 [\x1b[0m#\x1b[0m#\x08x\x1b[31m item i\x1b[0K\r\nx [##  \x1b[3`7/9\r\x1b[31m42% ok erro\nitem x o"
    b"\na.b 7/9 d\nP\nx ok P\nitem\ner\n7/\n\n\n\na.b  \n\n7/9 item \r\r\n\x1bM\x1b[2X\r\nerror: x i\x1b[K"
    b"\x1b[mi\x1b[1;32mt\x1b[0me\x1b[31mm\x1b[1;32m a\x1b[1;32m.b a.b\x1b[3X7/9 42% \t[##  ] PASS \r\x1b[K\n\n\n\n"
)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
@pytest.mark.parametrize(("raw", "fresh"), [(_CLAMPED, True), (_CLAMPED, False), (_MOVED_BLANK, False)],
                         ids=["clamped-fresh", "clamped-in-use", "moved-blank-in-use"])
def test_a_move_up_after_collapsed_blank_rows_loses_no_line(raw: bytes, fresh: bool) -> None:
    stream = textclean.Stream(columns=10, rows=4, fresh=fresh)
    released = tmux_judge.encode(stream.feed(raw) + stream.close())
    case = tmux_judge.display_case(raw, "fresh" if fresh else "sized", 10, 4, "red42")
    case.candidate = released
    with tmux_judge.server() as srv:
        tmux_judge.judge([case], srv)
    assert case.problems == [], released
