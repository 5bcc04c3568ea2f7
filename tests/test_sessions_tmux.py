"""Generated sessions (clears, absolute positions, scroll regions, the alternate screen, long lines
at a known width) cleaned at several sizes and judged by a live tmux 3.3a: for each page, what tmux
shows just before the next break (history + screen) is in what it shows for the candidate, in order:
every line shown before a clear stays (docs/design.md, 'Pages')."""

from __future__ import annotations

import random

import pytest

from oracle import tmux
from textclean.pipeline import clean
from textclean.pipeline.clean import breaks

pytestmark = [pytest.mark.skipif(not tmux.available(), reason="tmux is not installed (.ci/run installs it)")]

SIZES = [(80, 24), (120, 40), (60, 12)]
CLEAR = "\x1b[H\x1b[2J\x1b[3J"


def _log(rng: random.Random, n: int, width: int) -> str:
    return "".join(f"line {rng.randrange(10**6)} " + "x" * rng.randrange(width) + "\r\n" for _ in range(n))


def _progress_rows(rng: random.Random, tasks: int, frames: int) -> str:
    """A rich-style display: ``tasks`` rows redrawn in place with CUU + EL 2."""
    out = "".join(f"task {t} 0%\r\n" for t in range(tasks))
    for frame in range(1, frames + 1):
        out += f"\x1b[{tasks}A" + "".join(f"\x1b[2K\rtask {t} {frame * 100 // frames}%\r\n" for t in range(tasks))
    return out


def _screen(rng: random.Random, rows: int) -> str:
    """A full-screen frame: absolute positions, a region scrolled at its bottom, IL / DL on blank rows."""
    out = CLEAR + "".join(f"\x1b[{r + 1};1Hrow {r} of the frame" for r in range(min(rows - 2, 8)))
    out += f"\x1b[{rows};1Hstatus {rng.randrange(100)}"
    out += f"\x1b[3;{rows - 1}r\x1b[{rows - 1};1H" + "".join(f"\r\nregion {i}" for i in range(rows + 3)) + "\x1b[r"
    out += f"\x1b[{rows};1H\x1b[2Kstatus done\x1b[2;5Hedit"
    return out


def _session(rng: random.Random, columns: int, rows: int) -> str:
    parts = [CLEAR, "$ build\r\n", _log(rng, rng.randrange(3, rows * 2), columns * 2)]
    parts.append(_progress_rows(rng, min(rows - 2, rng.randrange(3, 30)), rng.randrange(2, 6)))
    parts.append("$ top-like\r\n" + _screen(rng, rows))
    parts.append(CLEAR + "$ pager\r\n\x1b[?1049h\x1b[H\x1b[2J" + _log(rng, rows - 1, columns // 2) + ":\x1b[?1049l")
    parts.append("\r\n$ tests\r\n" + _log(rng, 5, 20) + "$ ")
    return "".join(parts)


def test_generated_sessions_keep_every_line_tmux_shows() -> None:
    rng = random.Random(11)
    jobs, cases = [], []
    for index in range(9):
        columns, rows = SIZES[index % len(SIZES)]
        raw = _session(rng, columns, rows)
        proposal = clean.candidate(raw, columns=columns, rows=rows)
        assert proposal.pages_kept == 0, [s.why for s in proposal.segments or () if s.text is None]
        ends = sorted({page.end for page in breaks.split(raw) if page.end > page.body})
        cases.append(len(ends))
        jobs.append((proposal.text.encode(), columns, rows))
        jobs.extend((raw[:end].encode(), columns, rows) for end in ends)
    with tmux.server() as server:
        captures = server.show_many(jobs)
    at = 0
    for index, count in enumerate(cases):
        kept = [line for line in captures[at].lines if line.strip()]
        for page, capture in enumerate(captures[at + 1 : at + 1 + count]):
            position = 0
            for line in (line for line in capture.lines if line.strip()):
                assert line in kept[position:], f"session {index}, page {page}: {line!r} missing"
                position = kept.index(line, position) + 1
        at += 1 + count
