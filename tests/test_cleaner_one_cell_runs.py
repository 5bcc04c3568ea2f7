"""Text of one-cell characters other than ASCII (progress bars' blocks, box drawing, braille spinners,
Latin-1 letters) written at a known width where it may reach the right margin (issue 27).

The screen model writes such a run a row at a time, as it writes ASCII, where it used to write it a
character at a time (tqdm's bars at 160 columns cost the cleaner 8x more than the same bars in
ASCII). The cleaner is asked directly (``clean.candidate``) for streams whose runs start, end and
wrap at every column near the margin, then overwrite, erase and move over the wrapped rows; it
refuses, or what it proposes is judged by a live tmux at that size (never by our oracle).
"""

from __future__ import annotations

import random

import pytest

from tests import tmux_judge
from textclean.pipeline import clean

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(not tmux_judge.available(), reason="tmux is not installed (.ci/run installs it)"),
]

# one cell on every terminal (redraw.ONE_CELL_TEXT's ranges), mixed with ASCII in some runs
_ONE_CELL = "█▋▏━─│┼⠋⠙⠹é·…→"
_SIZES = ((10, 5, False), (10, 5, True), (20, 6, False), (80, 24, True))


def _run(rng: random.Random, n: int) -> str:
    if rng.random() < 0.3:
        return "".join(rng.choice(_ONE_CELL + "ab#") for _ in range(n))
    if rng.random() < 0.15:  # two cells each: the run must not be taken for one-cell text
        return "".join(rng.choice("中文a") for _ in range(n // 2))
    return rng.choice(_ONE_CELL) * n


def _streams(columns: int, seed: int) -> list[bytes]:
    """Runs that start before the margin and end just short of it, at it, or one or more rows past
    it; then what follows a bar: a CR and a shorter bar, EL, a move up over the wrapped row, text at
    the pending-wrap column, an erase, a move back or a backspace there, a line feed."""
    rng = random.Random(seed)
    out: list[bytes] = []
    for start in (0, 1, columns - 2):
        for length in (columns - start - 1, columns - start, columns - start + 1, 2 * columns - start + 3):
            if length <= 0:
                continue
            lead = "p" * start
            bar = _run(rng, length)
            for tail in ("\r\n", "\rq" + _run(rng, 3) + "\r\n", "\x1b[K\r\n", "x\r\n",
                         "\x1b[1A\r" + _run(rng, 4) + "\r\n", "\r\x1b[2K" + _run(rng, columns // 2) + "\r\n",
                         "\x1b[31m" + _run(rng, 2) + "\x1b[0m\r\n",
                         # what reads the pending-wrap state: an erase, a move back, a backspace, then text
                         "\x1b[Kz\r\n", "\x1b[1Dz\r\n", "\bz\r\n"):
                out.append(("top\r\n" + lead + bar + tail + "end\r\n").encode())
    return out


CASES = [pytest.param(columns, rows, fresh, id=f"{columns}x{rows}{'-fresh' if fresh else ''}")
         for columns, rows, fresh in _SIZES]


@pytest.fixture(scope="module")
def judge_server():
    with tmux_judge.server() as srv:
        yield srv


@pytest.mark.parametrize(("columns", "rows", "fresh"), CASES)
def test_one_cell_runs_near_the_margin_are_what_tmux_shows(judge_server, columns: int, rows: int,
                                                           fresh: bool) -> None:
    cases, proposed = [], 0
    for raw in _streams(columns, seed=columns * 7 + fresh):
        try:
            text = clean.candidate(tmux_judge.decode(raw), columns=columns, rows=rows, fresh=fresh).text
        except clean.Refused:
            continue
        case = tmux_judge.Case(raw, columns, rows, "one-cell runs", fresh=fresh)
        case.candidate = text.encode("utf-8", "surrogateescape")
        cases.append(case)
        proposed += 1
    tmux_judge.judge(cases, judge_server)
    problems = [(case.raw, case.candidate, case.problems) for case in cases if case.problems]
    assert not problems, problems[:3]
    # No clear, no alternate screen: the candidate's lines are the very lines tmux shows, in order (the
    # judge above lets a row that fills the width run on into the next; a joined row is a lost line).
    shown = judge_server.show_many([(case.raw, columns, rows) for case in cases], join_wrapped=True)
    for case, capture in zip(cases, shown, strict=True):
        expected = [line.rstrip(" ") for line in capture.lines if line.strip()]
        lines = tmux_judge.decode(case.candidate or b"").split("\n")
        assert [line.rstrip("\r").rstrip(" ") for line in lines if line.strip()] == expected, case.raw
    assert proposed >= 40, proposed  # most are resolved: the runs wrap as ASCII does
