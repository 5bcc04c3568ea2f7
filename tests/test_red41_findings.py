"""Red team 41's findings on issue 40's merge (cut points at a terminal, kept stretches, the stream).

F41-1: a G1-G3 character set designation (``ESC ) 0``, inert alone) was read through by both cut
readings. A stretch holding it was cleaned (the designation dropped as noise) while a later stretch
holding the shift that uses it (SO) was kept raw, or went out raw after the stream's readings stopped:
tmux showed the shifted line in DEC line drawing for the raw text and as plain letters for the result
(``lqqk`` for ``┌──┐``). The plain capture shows both as ``lqqk``; ``capture-pane -e`` marks the
shifted cells with SO, so the judge here is that capture, live tmux.

F41-2: a stream at a terminal in use (``fresh=False``; what ``textclean run --pty`` streams once it wrote
plain lines ahead) that starts with a homing clear cleaned its first stretch without the clear (the
stream kept it in front only of a later stretch). A later stretch going out raw after a stop (an
absolute position) then wrote over a row the terminal held from before the stream, where the raw
wrote over one of the stream's own rows after the clear: tmux showed ``ahead 0`` (kept in the history
by the clear) for the raw and lost it for the release.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

import textclean
from tests import tmux_judge
from textclean.pipeline.clean import CutFinder
from textclean.pipeline.verify import CutCheck

END = "END-OF-DATA"
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

LINES = b"".join(b"\x1b[3%dmline %d\x1b[0m ok\n" % (1 + i % 7, i) for i in range(30))
MORE = b"".join(b"\x1b[32mmore %d\x1b[0m\n" % i for i in range(3))
# G1 designated DEC line drawing, 30 coloured lines, a line shifted into G1 (tmux: a box's top edge)
SHIFTED = b"\x1b)0" + LINES + b"\x0elqqk\x0f\n" + MORE
# the same at 40x10 with a homing clear before the shift: the stream holds the tail from the clear
SHIFTED_AFTER_CLEAR = b"\x1b)0" + LINES + b"\x1b[H\x1b[2J\x0elqqk\x0f\n\x1b[3;1Hpos\n"


def shown_with_charset(tmp_path: Path, data: bytes, columns: int, rows: int) -> list[str]:
    """The rows tmux shows for ``data`` (history included) with their attributes (``capture-pane -e``:
    a cell in the line-drawing set comes after SO), the SGR codes taken out."""
    shown = len(list(tmp_path.glob("*.raw")))  # a server of its own each time (a killed one may linger)
    socket, path = tmp_path / f"sock{shown}", tmp_path / f"data{shown}.raw"
    path.write_bytes(data)
    tmux = ["tmux", "-f", "/dev/null", "-S", str(socket)]
    run = lambda *args: subprocess.run([*tmux, *args], capture_output=True, check=True, timeout=60)  # noqa: E731
    # the pane ends the data with a marker line: once tmux shows it, it has read every byte before it
    command = f"stty -echo; cat {path}; printf '\\r\\n{END}\\r\\n'; tmux -S {socket} wait-for -S shown; exec sleep 1000"
    run("new-session", "-d", "-x", str(columns), "-y", str(rows), command)
    try:
        run("wait-for", "shown")
        for _ in range(600):
            out = run("capture-pane", "-e", "-p", "-S", "-", "-E", "-").stdout.decode()
            if END in out:
                break
            time.sleep(0.05)
        else:
            raise AssertionError("tmux never showed the data's end")
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, timeout=60)
    return [line for line in (re.sub(r"\x1b\[[0-9;:]*m", "", row) for row in out.split("\n")) if "lqqk" in line]


def released(data: bytes, **display: object) -> bytes:
    stream = textclean.Stream(**display)  # type: ignore[arg-type]
    return (stream.feed(data) + stream.close()).encode("utf-8", "surrogateescape")


def test_tmux_shows_the_shifted_line_in_line_drawing(tmp_path: Path) -> None:
    # the premise, planted: without the designation tmux shows the letters themselves
    assert shown_with_charset(tmp_path, SHIFTED, 80, 24) == ["\x0elqqk"]
    assert shown_with_charset(tmp_path, SHIFTED[len(b"\x1b)0"):], 80, 24) == ["lqqk"]


def test_no_cut_point_after_a_designation_for_a_shift() -> None:
    text = SHIFTED.decode()
    for size in ({}, {"columns": 80, "rows": 24}):
        assert CutFinder(**size).feed(text) == []  # type: ignore[arg-type]
        assert CutCheck(**size).feed(text) == []  # type: ignore[arg-type]
    # ``ESC ( B`` (G0 back to ASCII, tput sgr0's) still reads through
    plain = b"\x1b(B" + LINES
    assert CutFinder().feed(plain.decode()) and CutCheck().feed(plain.decode())


def test_kept_stretch_keeps_the_shifted_line_as_tmux_shows_it(tmp_path: Path) -> None:
    result = textclean.clean(SHIFTED, min_tokens=0)
    assert shown_with_charset(tmp_path, result.text, 80, 24) == ["\x0elqqk"]


def test_stream_keeps_the_shifted_line_as_tmux_shows_it(tmp_path: Path) -> None:
    assert shown_with_charset(tmp_path, released(SHIFTED), 80, 24) == ["\x0elqqk"]
    assert shown_with_charset(tmp_path, released(SHIFTED_AFTER_CLEAR, columns=40, rows=10), 40, 10) == ["\x0elqqk"]


# rows the terminal shows before the stream (``run --pty``'s lines written ahead), then the stream: a
# homing clear, three coloured lines (each a cut point on the blank page), a position home (a stop)
AHEAD = b"ahead 0\nahead 1\n"
CLEARED_THEN_HOME = (b"\x1b[H\x1b[2J\x1b[31mline 0\x1b[0m\n\x1b[32mline 1\x1b[0m\n\x1b[33mline 2\x1b[0m\n"
                     b"\x1b[1;1HOVER\n")


def test_a_stream_in_use_keeps_its_leading_homing_clear() -> None:
    out = released(CLEARED_THEN_HOME, columns=40, rows=10, fresh=False)
    assert out != CLEARED_THEN_HOME  # cleaned in part
    case = tmux_judge.Case(AHEAD + CLEARED_THEN_HOME, 40, 10, "F41-2", [(40, 10)], fresh=True, candidate=AHEAD + out)
    case.keeps_more_after_bel = False
    with tmux_judge.server() as srv:
        tmux_judge.judge([case], srv)
    assert case.problems == []
    # a fresh terminal's blank screen needs no clear: the first stretch is cleaned as before
    assert not released(CLEARED_THEN_HOME, columns=40, rows=10, fresh=True).startswith(b"\x1b[H")
