"""Issue 22's last gap on the verifier's side, judged by a live tmux 3.3a.

* SM / RM 34 (screen and tmux terminfo's cnorm / cvvis, which vim writes): tmux 3.3a's
  ``input_csi_dispatch_sm`` / ``_rm`` act on modes 4 (IRM) and 34 (the cursor's visibility) only, xterm
  on 2, 4, 12 and 20: 34 changes nothing shown in either (``names.INERT_ANSI_MODES``); the others stay
  refused.
* EL 2 of a row of a wrapped line: tmux 3.3a (``grid_clear_lines``) drops the row's wrap flag and the
  one of the row above it, xterm (``ClearLine``) keeps both. A dispute on the flag, not a refusal:
  settled when the row wraps again, not read where the row stops short of the right margin or the
  row below is blank, read (refused) where a row reaching the margin would join a row with text.
* A zero-width character at the pending-wrap position joins the last cell in tmux and xterm.

Candidates are what tmux shows (``capture-pane -J``, or the oracle's ideal lines for the captures)
and mutants of it (a line dropped, changed, two swapped), which must be rejected.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from oracle import asciicast, tmux
from oracle.lossless import ideal_lines
from tests import tmux_judge
from textclean.pipeline import verify

needs_tmux = pytest.mark.skipif(not tmux.available(), reason="tmux not installed")

ESC = "\x1b"
CSI = ESC + "["
HOME = CSI + "H" + CSI + "2J"
UP, DOWN, ERASE_ROW = CSI + "A", CSI + "B", CSI + "2K"
SIZE = (10, 6)
FIXTURES = Path(__file__).parent / "fixtures"


def _shown(streams: list[tuple[str, int, int]]) -> list[list[str]]:
    with tmux.server() as server:
        captures = server.show_many([(text.encode(), columns, rows) for text, columns, rows in streams],
                                    join_wrapped=True)
    return [capture.lines for capture in captures]


def _faithful(lines: list[str]) -> str:
    return "\r\n".join(lines) + "\r\n"


def _mutants(lines: list[str]) -> list[list[str]]:
    """A line dropped, a line changed, two neighbouring lines swapped (each where the lines allow)."""
    informative = [index for index, line in enumerate(lines) if line.strip()]
    middle = informative[len(informative) // 2]
    out = [lines[:middle] + lines[middle + 1:],
           lines[:middle] + [lines[middle] + "#"] + lines[middle + 1:]]
    pairs = [i for i, j in zip(informative, informative[1:], strict=False) if lines[i] != lines[j] and j == i + 1]
    if pairs:
        i = pairs[len(pairs) // 2]
        out.append(lines[:i] + [lines[i + 1], lines[i]] + lines[i + 2:])
    return out


def _judged(cases: dict[str, tuple[str, int | None, int | None]]) -> None:
    """Each raw's faithful candidate (tmux's lines; at an unknown size, tmux at 80x24) is accepted, its
    mutants rejected."""
    names = list(cases)
    shown = _shown([(raw, columns or 80, rows or 24) for raw, columns, rows in cases.values()])
    for name, lines in zip(names, shown, strict=True):
        raw, columns, rows = cases[name]
        assert verify.first_difference(raw, _faithful(lines), columns=columns, rows=rows) is None, (name, lines)
        for mutant in _mutants(lines):
            assert verify.first_difference(raw, _faithful(mutant), columns=columns, rows=rows) is not None, (
                name, mutant)


# --- SM / RM 34 ---------------------------------------------------------------------------------------

CNORM, CVVIS = CSI + "34h", CSI + "34l"
WITH_MODE_34 = {
    "line model": ("step 1\r" + CNORM + "step 2" + CVVIS + "\r\nnext line\r\nlast" + CNORM + "\r\n", None, None),
    "line model, redraw": ("a" + CVVIS + "bc\b\bX" + CNORM + "\r\nsecond\r\nthird\r\n", None, None),
    "screen model": (HOME + "top\r\n" + CSI + "?25l" + CNORM + CSI + "3;1Hmiddle" + CVVIS + CSI + "?25h"
                     + CSI + "2;1Hsecond\r\n", *SIZE),
    "vim-like": (HOME + CSI + "?25l" + CSI + "1;1H~\r\n~\r\n~" + CSI + "1;1Htext" + CNORM + CSI + "?25h"
                 + CSI + "6;1H:wq\r\n", *SIZE),
}


@needs_tmux
def test_mode_34_changes_nothing_tmux_shows() -> None:
    raws = [raw for raw, _, _ in WITH_MODE_34.values()]
    sizes = [(columns or 80, rows or 24) for _, columns, rows in WITH_MODE_34.values()]
    without = [raw.replace(CNORM, "").replace(CVVIS, "") for raw in raws]
    shown = _shown([(raw, *size) for raw, size in zip(raws + without, sizes + sizes, strict=True)])
    assert shown[:len(raws)] == shown[len(raws):]
    assert all(any(line.strip() for line in lines) for lines in shown)


@needs_tmux
def test_mode_34_is_inert_to_the_verifier() -> None:
    _judged(WITH_MODE_34)


@pytest.mark.parametrize("mode", ["4h", "4l", "20h", "20l", "2h", "12l", "34;4h", "4;34l", "34:1h", "34;h"])
@pytest.mark.parametrize("size", [(None, None), SIZE])
def test_ansi_modes_that_act_stay_refused(mode: str, size: tuple[int | None, int | None]) -> None:
    raw = HOME + "top\r\nab" + CSI + mode + "\r\nZ\r\n"
    with pytest.raises(verify.Refusal):
        verify.terminal_lines(raw, columns=size[0], rows=size[1])


# --- EL 2 of a row of a wrapped line -------------------------------------------------------------------


def _frame(step: int) -> str:
    """Two rows, the first padded to the width and the second written after it: one wrapped line."""
    columns = SIZE[0]
    return f"spin {step}".ljust(columns, ".") + f"bar {step}".ljust(columns, "-")


# indicatif's redraw (uv): up to the frame's first row, erase it, down, erase, up, write the next frame
REDRAW = UP + "\r" + ERASE_ROW + DOWN + "\r" + ERASE_ROW + UP
PROGRESS = HOME + "top\r\n" + _frame(1) + REDRAW + _frame(2) + REDRAW + _frame(3)

SETTLED = {
    "rewrapped": (PROGRESS + "\r\n", *SIZE),
    "erased, then short lines": (PROGRESS + REDRAW + "done\r\n + one\r\n + two\r\n", *SIZE),
    "erased, nothing after": (PROGRESS + REDRAW + "\r\nend\r\n", *SIZE),
    "erased, a full row above a blank one": (PROGRESS + REDRAW + "y" * SIZE[0] + "\r\n", *SIZE),
    "the continuation erased, the row above rewritten short": (
        HOME + "top\r\n" + "x" * 10 + "yy" + "\r" + ERASE_ROW + UP + "\r" + ERASE_ROW + "short\r\nzz\r\n", *SIZE),
    "scrolled off short": (PROGRESS + REDRAW + "done\r\n" + "".join(f"line {n}\r\n" for n in range(8)), *SIZE),
    "the bar at its own size": (HOME + "top\r\n" + "x" * 20 + "yyy" + UP + "\r" + ERASE_ROW + DOWN + "\r"
                                + ERASE_ROW + UP + "z" * 23 + "\r\n", 20, 6),
}

# a row reaching the margin whose flag is disputed, above a row with text: xterm joins them, tmux not
READ = {
    "the continuation erased and rewritten": HOME + "top\r\n" + "x" * 10 + "yy" + "\r" + ERASE_ROW + "zz\r\n",
    "the head erased and rewritten to the margin": (
        HOME + "top\r\n" + "x" * 10 + "yy" + UP + "\r" + ERASE_ROW + "w" * 10 + "\r\n"),
    "scrolled off full": (HOME + "top\r\n" + "x" * 10 + "yy" + UP + "\r" + ERASE_ROW + "w" * 10 + "\r\n"
                          + "".join(f"line {n}\r\n" for n in range(8))),
    "the progress frame, then a full row above text": PROGRESS + REDRAW + "y" * 10 + "\r\nnext\r\n",
    # the row below is blank but its own flag is disputed: xterm's line goes on through it to the third row
    "a blank row between, its flag disputed too": (
        HOME + "top\r\n" + "x" * 10 + "y" * 10 + "zz" + UP + "\r" + ERASE_ROW + "\r\n\r\nnext\r\n"),
    # 9 cells and a zero-width space: a terminal that gives it a cell fills the row (docs/design.md, 'Cells')
    "the head rewritten with a character of uncertain width": (
        HOME + "top\r\n" + "x" * 10 + "yy" + UP + "\r" + ERASE_ROW + "w" * 9 + "\u200b\r\n"),
}


@needs_tmux
def test_a_wrap_dispute_settled_or_unread_is_resolved_as_tmux_shows() -> None:
    _judged(SETTLED)


@needs_tmux
def test_tmux_drops_the_wrap_flag_where_the_dispute_is_read() -> None:
    """What tmux 3.3a shows for the refused streams: the rows as separate lines (xterm's ClearLine keeps the
    flag, so its line would be the two rows joined: no candidate shows both)."""
    shown = _shown([(raw, *SIZE) for raw in READ.values()])
    assert shown[0] == ["top", "x" * 10, "zz"]
    assert shown[1] == ["top", "w" * 10, "yy"]
    assert shown[3][-2:] == ["y" * 10, "next"]
    assert shown[4] == ["top", "x" * 10, "", "zz", "next"]
    assert shown[5] == ["top", "w" * 9 + "\u200b", "yy"]


@pytest.mark.parametrize("name", list(READ))
def test_a_wrap_dispute_read_refuses(name: str) -> None:
    with pytest.raises(verify.Refusal, match="disagree"):
        verify.terminal_lines(READ[name], columns=SIZE[0], rows=SIZE[1])


# --- a zero-width character at the right margin ------------------------------------------------------

COMBINING = {
    "after a narrow character": (HOME + "top\r\n" + "x" * 9 + "e\u0301" + "Z\r\n", *SIZE),
    "alone at the margin": (HOME + "top\r\n" + "x" * 10 + "\u0301" + "Z\r\n", *SIZE),
    "two marks, then the line's end": (HOME + "top\r\n" + "x" * 10 + "\u0301\u0308" + "\r\nnext\r\n", *SIZE),
    "after a wide character": (HOME + "top\r\n" + "x" * 8 + "\u4e00\u0301" + "Z\r\n", *SIZE),
}


@needs_tmux
def test_a_combining_mark_at_the_margin_joins_the_last_cell() -> None:
    _judged(COMBINING)


@pytest.mark.parametrize("after", ["\u200dZ\r\n", "\u0301\rZ\r\n", "\u0301" + UP + "Z\r\n"])
def test_a_zero_width_character_at_the_margin_still_refused_where_terminals_differ(after: str) -> None:
    raw = HOME + "top\r\n" + "x" * 10 + after
    with pytest.raises(verify.Refusal):
        verify.terminal_lines(raw, columns=SIZE[0], rows=SIZE[1])


# --- the captures of issue 22: uv's indicatif layout --------------------------------------------------


def _uv_captures() -> list[tuple[str, str, int, int]]:
    out = []
    for name in ("uv_install_80x24", "uv_install_120x40", "uv_install_160x40"):
        meta = json.loads((FIXTURES / "progress" / f"{name}.json").read_text())
        raw = (FIXTURES / "progress" / f"{name}.raw").read_bytes().decode("utf-8", "surrogateescape")
        out.append((name, raw, meta["columns"], meta["lines"]))
    recording = asciicast.read_asciicast((FIXTURES / "sessions" / "session_tb_uv.cast").read_bytes())
    out.append(("session_tb_uv", recording.output, recording.columns, recording.rows))
    return out


UV_CAPTURES = _uv_captures()
_SGR = re.compile(re.escape(CSI) + "[0-9;]*m")


def _with_written_spaces(raw: str, lines: list[str]) -> list[str]:
    """The oracle's lines right-trim the spaces a program wrote (content, in the contract): each line gets
    back the longest run of spaces the raw wrote right after its text, before a line end or a CR."""
    plain = _SGR.sub("", raw)
    out = []
    for line in lines:
        runs = [m.group(1) for m in re.finditer(re.escape(line) + "( +)(?=[\r\n])", plain)] if line else []
        out.append(line + max(runs, key=len, default=""))
    return out


def _ideal(raw: str, columns: int, rows: int) -> list[str]:
    return _with_written_spaces(raw, ideal_lines(raw, columns=columns, rows=rows, terminal=True))


@pytest.mark.parametrize(("name", "raw", "columns", "rows"), UV_CAPTURES, ids=[c[0] for c in UV_CAPTURES])
def test_the_uv_captures_ideal_is_accepted_and_its_mutants_rejected(name: str, raw: str, columns: int,
                                                                     rows: int) -> None:
    ideal = _ideal(raw, columns, rows)
    assert verify.first_difference(raw, "\n".join(ideal), columns=columns, rows=rows) is None
    for mutant in _mutants(ideal):
        assert verify.first_difference(raw, "\n".join(mutant), columns=columns, rows=rows) is not None


@pytest.mark.tmux
@needs_tmux
def test_the_uv_captures_ideal_loses_nothing_under_tmux() -> None:
    cases = [tmux_judge.Case(raw=tmux_judge.encode(raw), columns=columns, rows=rows,
                             candidate=tmux_judge.encode("\r\n".join(_ideal(raw, columns, rows)) + "\r\n"))
             for _, raw, columns, rows in UV_CAPTURES]
    with tmux_judge.server() as server:
        tmux_judge.judge(cases, server)
    assert [case.problems for case in cases] == [[] for _ in cases]


# --- generated streams: the verifier decides them as tmux shows them, or refuses -----------------------


def _generated(count: int, seed: int = 22) -> list[tuple[str, int, int]]:
    """Rows written to and past the margin, erased whole (EL 2) or from the cursor (EL 0), moved between
    (CUU, CUD, CR, LF), with mode 34 and combining marks among them: the shapes of this file, mixed."""
    import random

    rng = random.Random(seed)
    streams = []
    for _ in range(count):
        columns, rows = rng.choice([(8, 6), (10, 6), (13, 8)])
        parts = [HOME, "top\r\n"]
        for _ in range(rng.randint(3, 9)):
            op = rng.randrange(11)
            if op < 3:
                lengths = [1, columns - 1, columns, columns + 2, 2 * columns, rng.randint(1, 2 * columns + 3)]
                length = rng.choice(lengths)
                parts.append("".join(rng.choice("abcdefgh") for _ in range(length)))
            else:
                parts.append(["\r", "\r\n", UP, DOWN, ERASE_ROW, CSI + "K", "\u0301", CNORM][op - 3])
            if rng.random() < 0.2:
                parts.append(UP + "\r" + ERASE_ROW + DOWN + "\r" + ERASE_ROW + UP)
        parts.append("\r\n")
        streams.append(("".join(parts), columns, rows))
    return streams


@pytest.mark.tmux
@needs_tmux
def test_generated_wrap_streams_are_decided_as_tmux_shows_or_refused() -> None:
    streams = _generated(240)
    shown = _shown(streams)
    decided = 0
    for (raw, columns, rows), lines in zip(streams, shown, strict=True):
        try:
            verify.terminal_lines(raw, columns=columns, rows=rows)
        except verify.Refusal:
            continue
        decided += 1
        assert verify.first_difference(raw, _faithful(lines), columns=columns, rows=rows) is None, (raw, lines)
    assert decided >= len(streams) // 4, decided  # the property is not met by refusing everything
