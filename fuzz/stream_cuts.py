"""Red team for ``textclean.Stream`` at its cut points (issue 40), judged by a live tmux.

    PYTHONPATH=$PWD python fuzz/stream_cuts.py --seed 1 --count 40
    PYTHONPATH=$PWD python fuzz/stream_cuts.py --seed 7 --count 200 --families up_past_24,strings --out /tmp/f.jsonl

Each generated raw stream (families aimed at the cut points: redraws reaching back up near and past 24
rows, CR / BS / EL / ECH / CHA at line ends, CR and ESC split at chunk ends, strings ended by BEL, by ST
or never, C1 controls, invalid UTF-8 cut mid-character, tqdm-style blank rows drawn on later,
progress rows redrawn in place then moved up into (``in_place_then_up``), clears and
positions after a release, lines past a small ``max_held``, ``min_tokens`` thresholds) is fed to
``Stream()`` (no terminal) in many chunkings: cut in two at every byte offset (small streams), one byte at
a time, and at seeded random chunk sizes. The released text (every ``feed`` return plus ``close``) is
judged against the whole raw text by a live tmux (``tests/tmux_judge.py``, display "no-terminal", the
candidate given as it is). Chunkings that release the same text are judged once (counted each).

Also checked per stream: feeding ``str`` and ``bytes`` releases the same text; the release is within 2 %
of one-shot ``clean(raw, terminal=False, min_tokens=0)``'s tokens (the ratio distribution is reported);
``clean()`` of the release gives it back unchanged (idempotence). The seed is printed; a finding is
printed as one JSON line (and appended to ``--out``).

The ``sized_*`` families are streamed at a terminal of a known size (small: 10-80 columns, 4-24 rows,
so lines wrap and rows leave the screen; ``fresh`` or not) and judged by tmux at that size: lines at
and past the width, moves at the pending-wrap column, uv's two-row spinners redrawn by CUU / EL 2,
homing clears (and near misses) after released lines, moves up near the screen's height, wide and
zero-width characters at the margin, BS at a wrapped row's start; the no-terminal families too.

    PYTHONPATH=$PWD python fuzz/stream_cuts.py --seed 3 --count 100 --families sized_wraps,sized_clears
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import textclean  # noqa: E402
from tests import tmux_judge  # noqa: E402
from textclean.pipeline import grammar  # noqa: E402
from textclean.pipeline.tokens import count_tokens  # noqa: E402

Gen = Callable[[random.Random], bytes]

_WORDS = [b"alpha", b"beta", b"gamma", b"delta", b"build", b"ok", b"PASS", b"error:", b"x", b"42%", b"done"]


def _line(rng: random.Random, width: int = 6) -> bytes:
    """Words, some coloured (so a stretch has something to clean and its release differs from the raw)."""
    words = [rng.choice(_WORDS) for _ in range(rng.randint(1, width))]
    return b" ".join(b"\x1b[3%dm%s\x1b[0m" % (rng.randint(1, 7), w) if rng.random() < 0.3 else w for w in words)


def _plain(rng: random.Random, n: int) -> bytes:
    return b"".join(_line(rng) + b"\n" for _ in range(n))


def up_past_24(rng: random.Random) -> bytes:
    """Plain lines, then a redraw moving up near / past 24 rows, writing over a row."""
    n = rng.choice([1, 3, 20, 23, 24, 25, 26, 30])
    head = _plain(rng, n)
    up = rng.choice([1, 2, n - 1, n, n + 1, 23, 24, 25, 26])
    move = rng.choice([b"\x1b[%dA" % up, b"\x1b[%dF" % up, b"\x1bM" * min(up, 30), b"\r\x1b[%dA" % up])
    over = rng.choice([b"\rNEW", b"\x1b[2K\rNEW", b"\x1b[K", b"NEW\x1b[K", b"\x1b[3X"])
    down = rng.choice([b"\x1b[%dB" % up, b"\x1b[%dE" % up, b"\n" * up, b""])
    return head + move + over + down + b"\n" + _plain(rng, rng.choice([0, 1, 25]))


def line_end_redraws(rng: random.Random) -> bytes:
    out = []
    for _ in range(rng.randint(2, 8)):
        text = _line(rng)
        tail = rng.choice([b"\r", b"\r\r", b"\b\b", b"\x1b[K", b"\x1b[1K", b"\x1b[2K", b"\x1b[3X",
                           b"\x1b[3G", b"\x1b[G", b"\r\x1b[K", b"\x1b[2D", b"\x1b[4C", b"", b"\rZ", b"\x1b[1`"])
        out.append(text + tail + rng.choice([b"\n", b"\r\n", b"more\n", b"\r\r\n"]))
    return b"".join(out)


def progress(rng: random.Random) -> bytes:
    """tqdm-style frames by CR, with blank rows written on later by a move up."""
    out = [_plain(rng, rng.randint(0, 3))]
    for _ in range(rng.randint(1, 3)):
        bars = rng.randint(1, 3)
        out.append(b"\n" * bars + b"\x1b[%dA" % bars)
        for pct in range(0, 101, rng.choice([25, 50, 100])):
            for b in range(bars):
                out.append(b"\r bar%d %3d%%|%s|" % (b, pct, b"#" * (pct // 10)))
                out.append(b"\n" if b < bars - 1 else b"")
            if bars > 1:
                out.append(b"\x1b[%dA" % (bars - 1))
        out.append(rng.choice([b"\n" * bars, b"\x1b[%dB\n" % bars, b"\n"]))
        out.append(_plain(rng, rng.randint(0, 2)))
    return b"".join(out)


def strings(rng: random.Random) -> bytes:
    out = []
    for _ in range(rng.randint(1, 6)):
        intro = rng.choice([b"\x1b]0;title", b"\x1b]8;;http://x\x1b\\link\x1b]8;;", b"\x1bPq#0", b"\x1b_Gts=1",
                            b"\x1b^pm", b"\x1bXsos", b"\x9d0;t", b"\x90q"])
        end = rng.choice([b"\x07", b"\x1b\\", b"", b"\x9c", b"\x18", b"\n"])
        out.append(rng.choice([b"", _line(rng)]) + intro + end + _line(rng) + b"\n")
    return b"".join(out)


def c1_and_c0(rng: random.Random) -> bytes:
    out = [_plain(rng, rng.randint(1, 3))]
    ctl = rng.choice([b"\x85", b"\x84", b"\x8d", b"\xc2\x85", b"\xc2\x84", b"\xc2\x8d", b"\xc2\x9b2K",
                      b"\x0b", b"\x0c", b"\x0e", b"\x00", b"\x7f", b"\x1bE", b"\x1bD"])
    out.append(_line(rng) + ctl + _line(rng) + b"\n")
    out.append(_plain(rng, rng.randint(0, 3)))
    return b"".join(out)


def bad_utf8(rng: random.Random) -> bytes:
    out = [_plain(rng, rng.randint(0, 2))]
    for _ in range(rng.randint(1, 4)):
        cut = rng.choice([b"\xe2\x94", b"\xff", b"\xc3", b"\xe2\x94\x80", b"\xf0\x9f\x98\x80", b"\xed\xa0\x80",
                          b"\x80"])
        out.append(_line(rng) + cut + rng.choice([b"\n", b"\r", b"x\n", b"\x1b[K\n"]))
    return b"".join(out) + _plain(rng, 1)


def clears_after(rng: random.Random) -> bytes:
    """Settled lines, then state-changing controls (positions, clears, regions, modes, saves)."""
    head = _plain(rng, rng.choice([2, 26, 30]))
    ctl = rng.choice([b"\x1b[H", b"\x1b[2J", b"\x1b[3J", b"\x1b[5;1H", b"\x1b[2;10r", b"\x1b7", b"\x1b8",
                      b"\x1b[?1049h", b"\x1b[?1049l", b"\x1bc", b"\x1b[J", b"\x1b[1J", b"\x1b[s", b"\x1b[?25l",
                      b"\x1b[31m", b"\x1b[4h", b"\x1b[5d", b"\x1b[3;5H"])
    return head + ctl + _line(rng) + rng.choice([b"\n", b"\r", b""]) + _plain(rng, rng.randint(0, 3)) + \
        rng.choice([b"", b"\x1b[H\x1b[2JNEW\n", b"\x1b[?1049l"])


def long_lines(rng: random.Random) -> bytes:
    out = []
    for _ in range(rng.randint(2, 5)):
        out.append(rng.choice([_line(rng, 30), b"\x1b[32m" + _line(rng, 30) + b"\x1b[0m",
                               _line(rng, 20) + b"\r" + _line(rng, 5), b"short"]) + b"\n")
    return b"".join(out)


def mixed(rng: random.Random) -> bytes:
    parts = [up_past_24, line_end_redraws, progress, strings, c1_and_c0, bad_utf8, clears_after, long_lines]
    return b"".join(rng.choice(parts)(rng) for _ in range(rng.randint(2, 3)))


def sgr_lines(rng: random.Random) -> bytes:
    """Coloured lines (each stretch adoptable), CR at chunk-end candidates, then one redraw up."""
    out = [b"\x1b[1;3%dm%s\x1b[0m%s\n" % (rng.randint(1, 7), _line(rng), rng.choice([b"", b"\r", b"\x1b[K"]))
           for _ in range(rng.randint(2, 30))]
    if rng.random() < 0.5:
        out.append(b"\x1b[%dA\rOVER\x1b[K\n" % rng.randint(1, 28))
    return b"".join(out)


def strings_over_lines(rng: random.Random) -> bytes:
    """A string left open over line ends (tmux swallows the LF inside), ended later by BEL, ST, CAN or never."""
    intro = rng.choice([b"\x1b]0;", b"\x1bP", b"\x1b_", b"\x1b^", b"\x1bX", b"\x1b]8;;"])
    end = rng.choice([b"\x07", b"\x1b\\", b"\x18", b"\x1a", b""])
    return (_plain(rng, rng.randint(1, 3)) + _line(rng) + intro + _plain(rng, rng.randint(1, 3)) + end
            + _line(rng) + b"\n" + _plain(rng, rng.randint(0, 3)))


def late_cuts(rng: random.Random) -> bytes:
    """CR redraws every few lines, so cut points are confirmed only 24 rows later (after the tail went out
    raw past a small ``max_held``); lines written over by CR, so a stretch cleaned from mid-line differs."""
    out = []
    for i in range(rng.randint(30, 70)):
        if rng.random() < 0.3:
            out.append(b"%s\r%s\x1b[3%dm.\x1b[0m\n" % (_line(rng, 4), rng.choice([b"XY", b"Z", b"NEW LINE"]), i % 8))
        else:
            out.append(_line(rng, 4) + b"\n")
    return b"".join(out)


_IN_ROW_REDRAWS = [b"\r\x1b[K", b"\r\x1b[2K", b"\r", b"\x1b[3D", b"\b\b", b"\x1b[G", b"\x1b[1`", b"\x1b[4G\x1b[1K",
                   b"\r\x1b[2C\x1b[2X", b"\x1b[K", b"\r\x1b[K   ", b"\t", b"  \r", b"\x1b[3C", b"\r\x1b[0K", b""]


def _in_place_row(rng: random.Random, n: int, wide: bool = False) -> bytes:
    """A progress row redrawn only within itself (CR, BS, CHA / HPA / CUF / CUB, EL 0-2, ECH), its last
    frame plain, blank, space-ended or holed, before its line end."""
    out = [b"item %d: start" % n]
    for _ in range(rng.randint(0, 4)):
        out.append(rng.choice(_IN_ROW_REDRAWS) + rng.choice([b"", b"item %d: %d%% [##  ]" % (n, rng.randint(0, 99)),
                                                            b"x", b"   ", _line(rng, 3)]))
    last = rng.choice([b"item %d: done" % n, b"", b"ok ", b"y", _line(rng, 2), b"done[K"])
    if wide:
        last += rng.choice([b"", "漢".encode(), "é".encode(), b"	|"])
    return b"".join(out) + rng.choice(_IN_ROW_REDRAWS + [b"\r\x1b[K"] * 4) + last


def _up_into(rng: random.Random, most: int) -> bytes:
    """A later move up into rows written before (CUU / CPL / RI), something done there, and back down."""
    up = rng.randint(1, max(1, most))
    move = rng.choice([b"\x1b[%dA" % up, b"\x1b[%dF" % up, b"\x1bM" * up, b"\r\x1b[%dA" % up])
    act = rng.choice([b"\x1b[K", b"\x1b[2K", b"Z", b"\x1b[4CZ", b"\x1b[1K", b"\x1b[2X", b"\rQQ", b"", b"\x1b[20CW",
                      b"\x1b[P", b"\x1b[2@", b"\r\x1b[KNEW"])
    down = rng.choice([b"\x1b[%dB" % up, b"\x1b[%dE" % up, b"\n" * up, b""])
    return move + act + down + rng.choice([b"\n", b"\r\n", b""])


def in_place_then_up(rng: random.Random) -> bytes:
    """Progress rows redrawn in place (some left blank, space-ended, holed by EL 1 / ECH, tabbed, wide),
    plain lines between, then later moves up (CUU / CPL / RI) into those rows, near and past 24 rows."""
    out = [_plain(rng, rng.choice([0, 1, 2]))]
    rows = 0
    for n in range(rng.randint(1, 6)):
        out.append(_in_place_row(rng, n, wide=rng.random() < 0.2) + b"\n")
        plain = rng.choice([0, 0, 1, 3, 22, 23, 24])
        out.append(_plain(rng, plain))
        rows += 1 + plain
        if rng.random() < 0.4:
            out.append(_up_into(rng, rng.choice([rows, 1, 2, 24, 25])))
    out.append(_up_into(rng, rng.choice([rows, rows + 1, 1, 3])))
    return b"".join(out) + _plain(rng, rng.choice([0, 1, 2]))


Size = tuple[int, int, bool]  # columns, rows, fresh
SizedGen = Callable[[random.Random, int, int], bytes]


def _text(rng: random.Random, cells: int) -> bytes:
    """``cells`` one-cell characters of words, some coloured."""
    out, n = [], 0
    while n < cells:
        word = rng.choice(_WORDS)[: cells - n]
        out.append(b"\x1b[3%dm%s\x1b[0m" % (rng.randint(1, 7), word) if rng.random() < 0.3 else word)
        n += len(word)
        if n < cells:
            out.append(b" ")
            n += 1
    return b"".join(out)


def sized_wraps(rng: random.Random, columns: int, rows: int) -> bytes:
    """Lines shorter than, exactly at and past the width, some redrawn in place after."""
    out = []
    for _ in range(rng.randint(2, 3 * rows)):
        cells = rng.choice([1, 5, columns - 1, columns, columns + 1, 2 * columns, 2 * columns + 3,
                            rng.randint(1, 3 * columns)])
        tail = rng.choice([b"", b"", b"\r", b"\rXY", b"\x1b[K", b"\x1b[2K", b"\b", b"\bZ", b"\x1b[3D!", b"\x1b[5G#",
                           b"\x1b[2C+", b"\x1b[1X", b"\t|", b"\r\x1b[K" + _text(rng, 4)])
        out.append(_text(rng, cells) + tail + rng.choice([b"\n", b"\r\n", b"\n", b"\r\r\n"]))
    return b"".join(out)


def sized_pending_wrap(rng: random.Random, columns: int, rows: int) -> bytes:
    """A row filled to the width, then a control with the wrap pending."""
    out = [_plain(rng, rng.randint(0, rows + 2))]
    for _ in range(rng.randint(1, 4)):
        ctl = rng.choice([b"\x1b[A", b"\x1b[1A\r", b"\x1b[A\x1b[2K\x1b[B", b"\x1b[2K", b"\x1b[2KX", b"\r", b"\b",
                          b"\bQ", b"\x1b[C", b"\x1b[D", b"\x1b[3G", b"\x1b[E", b"\x1b[F", b"\x1bM", b"\x1b[K",
                          b"\x1b[B", b"\t", b"Q", b"\x1b[A\x1b[B", b"\x1b[AW"])
        out.append(b"\n" * rng.randint(0, 2) + _text(rng, columns) + ctl + rng.choice([b"", b"end"]) + b"\n")
    return b"".join(out) + _plain(rng, rng.randint(0, rows + 2))


def sized_spinner(rng: random.Random, columns: int, rows: int) -> bytes:
    """uv's spinner: a status row padded to the width and a bar row written on as one wrapped line,
    redrawn by CUU / CR / EL 2 / CUD, then the final lines."""
    out = [_plain(rng, rng.randint(0, rows))]
    for i in range(rng.randint(1, 6)):
        status = (b"\x1b[37m%s\x1b[0m preparing (%d/5)" % ("⠋⠙⠹⠸"[i % 4].encode(), i))[: columns]
        pad = b" " * max(0, columns - len(status.replace(b"\x1b[37m", b"").replace(b"\x1b[0m", b"")) + 2)
        bar = b"pkg " + b"-" * rng.randint(0, columns - 6)
        if i:
            out.append(rng.choice([b"\x1b[1A\r\x1b[2K\x1b[1B\r\x1b[2K\x1b[1A", b"\r\x1b[2K\x1b[1A\r\x1b[2K",
                                   b"\x1b[1A\r"]))
        out.append(status + pad + bar + b" " * rng.randint(0, 4))
    out.append(rng.choice([b"\n", b"\r\n\x1b[2K", b"\x1b[1A\r\x1b[2K\x1b[1B\r\x1b[2K\x1b[1A\r", b""]))
    return b"".join(out) + _plain(rng, rng.randint(0, rows + 3))


def sized_clears(rng: random.Random, columns: int, rows: int) -> bytes:
    """Prompts and lines, then a homing clear (or a near miss), then more lines and maybe positions."""
    out = []
    for _ in range(rng.randint(1, 3)):
        out.append(rng.choice([b"", b"\x1b[?2004h$ clear\r\n\x1b[?2004l\r", b"$ ls\r\n", b"\x1b[?25l"]))
        out.append(_plain(rng, rng.choice([0, 1, rows - 1, rows, rows + 1, 2 * rows])))
        out.append(rng.choice([b"", b"partial", b"\x1b[3A\rOVER\x1b[K\n", b"50%\r"]))
        out.append(rng.choice([b"\x1b[H\x1b[2J", b"\x1b[H\x1b[2J\x1b[3J", b"\x1b[2J\x1b[H", b"\x1b[1;1H\x1b[2J",
                               b"\x1b[2J", b"\x1b[H", b"\x1b[HX\x1b[2J", b"\x1b[H\x1b[1mX\x1b[2J", b"\x1b[3J",
                               b"\x1b[H\x1b[J", b"\x1b[2;1H\x1b[2J", b"\x1b[H\x1b[2J\x1b[1m\x1b[3J", b"\x1bc"]))
        out.append(rng.choice([b"", b"\x1b[?2004h$ run\r\n\x1b[?2004l\r", b"\x1b[A\rUP\n", b"\x1b[5AHIGH\n"]))
        out.append(_plain(rng, rng.choice([0, 1, 3, rows + 2])))
        out.append(rng.choice([b"", b"", b"\x1b[2;3Hpos\n", b"\x1b[?1049hALT\n\x1b[?1049l", b"\x1b[?7lnowrap\n"]))
    return b"".join(out)


def sized_reach(rng: random.Random, columns: int, rows: int) -> bytes:
    """Plain lines (some wrapped), then a move up near the screen's height, written over, and down."""
    n = rng.choice([1, rows - 2, rows - 1, rows, rows + 1, rows + 3, 2 * rows])
    head = b"".join(_text(rng, rng.choice([3, columns + 2, columns])) + b"\n" for _ in range(n))
    up = max(1, rng.choice([1, rows - 2, rows - 1, rows, rows + 1, n, n + 1]))
    move = rng.choice([b"\x1b[%dA" % up, b"\x1b[%dF" % up, b"\x1bM" * up, b"\r\x1b[%dA" % up])
    over = rng.choice([b"\rNEW", b"\x1b[2K\rNEW", b"\x1b[K", b"NEW\x1b[K", b"\x1b[3X", _text(rng, columns + 3)])
    down = rng.choice([b"\x1b[%dB" % up, b"\x1b[%dE" % up, b"\n" * up, b""])
    return head + move + over + down + b"\n" + _plain(rng, rng.choice([0, 1, rows + 1]))


def sized_wide(rng: random.Random, columns: int, rows: int) -> bytes:
    """Wide, zero-width and ambiguous characters at and near the margin, BS at a wrapped row's start."""
    out = []
    for _ in range(rng.randint(2, rows + 2)):
        lead = _text(rng, rng.choice([0, columns - 2, columns - 1, columns, columns + 1, 3]))
        char = rng.choice(["漢", "😀", "é", "e\u0301", "\u0301", "─", "█", "·", "\u00a0", "ｱ", "⠙"]).encode()
        tail = rng.choice([b"", b"x", b"\b\bY", b"\r\x1b[K", _text(rng, columns)])
        out.append(lead + char * rng.randint(1, 3) + tail + b"\n")
    if rng.random() < 0.5:
        out.append(_text(rng, columns + rng.randint(1, 3)) + b"\r" + b"\b" * rng.randint(1, 2) + b"Z\n")
    return b"".join(out)


def sized_in_place_then_up(rng: random.Random, columns: int, rows: int) -> bytes:
    """In-place progress rows at a size (some reaching and passing the width, so they wrap or wait at
    the margin), then later moves up into them near the screen's height."""
    out, written = [_plain(rng, rng.choice([0, 1]))], 0
    for n in range(rng.randint(1, 5)):
        row = _in_place_row(rng, n, wide=rng.random() < 0.2)
        if rng.random() < 0.3:
            row += b"\r" + _text(rng, rng.choice([columns - 1, columns, columns + 2]))
        out.append(row + rng.choice([b"\n", b"\r\n"]))
        plain = rng.choice([0, 1, rows - 2, rows - 1, rows])
        out.append(_plain(rng, plain))
        written += 1 + plain
        if rng.random() < 0.4:
            out.append(_up_into(rng, rng.choice([written, 1, rows - 1, rows])))
    out.append(_up_into(rng, rng.choice([written, 1, 2])))
    return b"".join(out) + _plain(rng, rng.choice([0, 1]))


SIZED_FAMILIES: dict[str, SizedGen] = {f.__name__: f for f in (
    sized_wraps, sized_pending_wrap, sized_spinner, sized_clears, sized_reach, sized_wide,
    sized_in_place_then_up)}

FAMILIES: dict[str, Gen] = {f.__name__: f for f in (
    up_past_24, line_end_redraws, progress, strings, strings_over_lines, c1_and_c0, bad_utf8, clears_after, long_lines,
    sgr_lines, late_cuts, mixed, in_place_then_up)}


def chunkings(raw: bytes, rng: random.Random, every_offset: int) -> Iterator[tuple[str, list[bytes]]]:
    yield "whole", [raw]
    yield "bytes", [raw[i:i + 1] for i in range(len(raw))]
    if len(raw) <= every_offset:
        for i in range(1, len(raw)):
            yield f"at{i}", [raw[:i], raw[i:]]
    if b"\r" in raw:  # each line fed alone, cut just before its CR
        lines = re.findall(rb"[^\n]*\n|[^\n]+$", raw)
        yield "before_cr", [piece for line in lines for piece in _split_before_cr(line)]
    for k in range(4):
        sizes, at, cuts = [], 0, []
        while at < len(raw):
            n = rng.randint(1, rng.choice([3, 8, 40, 200]))
            cuts.append(raw[at:at + n])
            sizes.append(n)
            at += n
        yield f"rand{k}", cuts


def raw_redraw_kept(raw: bytes, released: bytes, problems: list[str]) -> bool:
    """Only the judge's byte check failed, on a line the release kept exactly as it arrived with its CR / BS
    redraw in it (a stretch released raw): tmux shows the redrawn line, the bytes hold the redraw, as in
    the raw itself. Every other problem (a line tmux does not show for the release) is a loss."""
    if not problems or not all(p.endswith("not a line of the candidate") for p in problems):
        return False
    lines = [line for line in released.split(b"\n") if re.search(rb"[^\r]\r+[^\r]|\x08", line.rstrip(b"\r"))]
    return bool(lines) and all(line in raw for line in lines)


NOT_IDEMPOTENT: list[tuple[str, str, str]] = []  # (stretch, adopted, cleaned again)


class CheckedStream(textclean.Stream):
    """A Stream whose every adopted stretch is cleaned again: it must come back unchanged (or be refused)."""

    def _settle(self, stretch: str) -> str:
        first = self._start == len(stretch)
        out = super()._settle(stretch)
        if out != stretch:
            # the display a later stretch is cleaned for: the stream's, in use (not fresh)
            shown = self._gate.display if first else self._gate.display._replace(fresh=False)
            kept = grammar.HOMING_CLEAR.match(out)  # the clear a stretch keeps in front (not the gate's)
            adopted = out[kept.end():] if kept is not None and (not first or not shown.fresh) else out
            again = textclean.clean(adopted, min_tokens=0, **shown.keywords())
            if again.applied and again.text != adopted:
                NOT_IDEMPOTENT.append((stretch, out, again.text))
        return out


def _split_before_cr(line: bytes) -> list[bytes]:
    at = line.find(b"\r")
    return [line[:at], line[at:]] if at > 0 else [line]


def release(chunks: list[bytes] | list[str], **kw: object) -> str:
    stream = CheckedStream(**kw)  # type: ignore[arg-type]
    return "".join(stream.feed(c) for c in chunks) + stream.close()


@dataclass
class Trial:
    raw: bytes
    family: str
    settings: dict[str, object]
    chunking: str
    chunks: list[bytes]
    released: bytes
    size: Size | None = None  # a terminal's columns, rows and fresh; None: no terminal


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=30, help="raw streams per family")
    ap.add_argument("--families", default=",".join([*FAMILIES, *SIZED_FAMILIES]))
    ap.add_argument("--every-offset", type=int, default=400, help="cut in two at every offset up to this length")
    ap.add_argument("--batch", type=int, default=300)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    print(f"seed={args.seed}", flush=True)
    rng = random.Random(args.seed)
    totals: Counter[str] = Counter()
    ratios: list[float] = []
    odd: list[dict[str, object]] = []
    pending: list[tuple[Trial, int]] = []  # unique (raw, release) pairs and how many chunkings they stand for

    def flush(srv: tmux_judge.JudgeServer) -> None:
        if not pending:
            return
        cases = []
        for trial, _ in pending:
            if trial.size is None:
                case = tmux_judge.display_case(trial.raw, "no-terminal", 0, 0, trial.family)
            else:
                columns, rows, fresh = trial.size
                case = tmux_judge.display_case(trial.raw, "fresh" if fresh else "sized", columns, rows, trial.family)
            case.candidate = trial.released
            cases.append(case)
        tmux_judge.judge(cases, srv)
        for (trial, weight), case in zip(pending, cases, strict=True):
            totals["judged_releases"] += 1
            totals["judged_chunkings"] += weight
            if raw_redraw_kept(trial.raw, trial.released, case.problems):
                totals["byte_check_on_raw_redraw"] += 1
            elif case.problems:
                totals["lossy"] += 1
                record = {"family": trial.family, "settings": trial.settings, "size": trial.size,
                          "chunking": trial.chunking,
                          "chunks": [repr(c) for c in trial.chunks][:50], "raw": repr(trial.raw),
                          "released": repr(trial.released), "problems": case.problems}
                print("LOSS", json.dumps(record)[:1500], flush=True)
                if args.out:
                    with args.out.open("a") as fh:
                        fh.write(json.dumps(record) + "\n")
        pending.clear()

    start = time.perf_counter()
    with tmux_judge.server() as srv:
        for family in args.families.split(","):
            for _ in range(args.count):
                size: Size | None = None
                shown: dict[str, object] = {"terminal": False}
                if family in SIZED_FAMILIES:
                    size = (rng.choice([10, 20, 40, 80]), rng.choice([4, 6, 10, 24]), rng.random() < 0.5)
                    raw = SIZED_FAMILIES[family](rng, size[0], size[1])
                    shown = {"columns": size[0], "rows": size[1], "fresh": size[2]}
                else:
                    raw = FAMILIES[family](rng)
                settings: dict[str, object] = rng.choice([{}, {}, {"max_held": rng.choice([1, 5, 20, 60, 200])},
                                                          {"min_tokens": rng.choice([1, 5, 50])}])
                if size is not None:
                    settings = {**settings, **shown}
                one = textclean.clean(raw, min_tokens=0, **shown)  # type: ignore[arg-type]
                one_tokens = count_tokens(tmux_judge.decode(one.text) if isinstance(one.text, bytes) else one.text)
                seen: dict[bytes, int] = {}
                first: dict[bytes, Trial] = {}
                for name, chunks in chunkings(raw, rng, args.every_offset):
                    totals["streams"] += 1
                    try:
                        out = release(chunks, **settings)
                    except Exception as exc:  # noqa: BLE001 - a raise is a finding
                        odd.append({"family": family, "raw": repr(raw), "chunking": name, "raised": repr(exc)})
                        print("RAISED", odd[-1], flush=True)
                        continue
                    got = tmux_judge.encode(out)
                    seen[got] = seen.get(got, 0) + 1
                    first.setdefault(got, Trial(raw, family, settings, name, chunks, got, size))
                    if name == "whole" or (name.startswith("rand") and name.endswith("0")):
                        as_str = release([tmux_judge.decode(c) for c in chunks] if name == "whole"
                                         else [tmux_judge.decode(b"".join(chunks))], **settings)
                        if name == "whole" and as_str != out:
                            odd.append({"family": family, "raw": repr(raw), "why": "str and bytes differ",
                                        "str": repr(as_str), "bytes": repr(out)})
                            print("ODD", odd[-1], flush=True)
                for got, weight in seen.items():
                    if settings == shown and one_tokens:  # no bound, no threshold: against one-shot clean()
                        ratios.extend([count_tokens(tmux_judge.decode(got)) / one_tokens] * weight)
                    if got == raw:
                        totals["raw_releases"] += weight  # exactly as it arrived: lossless without a judge
                        continue
                    again = textclean.clean(tmux_judge.decode(got), min_tokens=0, **shown)  # type: ignore[arg-type]
                    if again.applied and tmux_judge.encode(again.text) != got:
                        totals["release_cleaned_further"] += weight  # raw stretches a later clean() adopts
                    pending.append((first[got], weight))
                if not one.applied and any(got != raw for got in seen):
                    totals["one_shot_refused_stream_cleaned"] += 1
                while NOT_IDEMPOTENT:
                    stretch, out, again_text = NOT_IDEMPOTENT.pop()
                    odd.append({"family": family, "why": "stretch not idempotent", "stretch": repr(stretch),
                                "adopted": repr(out), "again": repr(again_text)})
                    print("ODD", odd[-1], flush=True)
                if len(pending) >= args.batch:
                    flush(srv)
            flush(srv)
            print(f"{family:18s} {dict(totals)} ({time.perf_counter() - start:.0f}s)", flush=True)
    ratios.sort()
    if ratios:
        above = sum(r > 1.02 for r in ratios)
        q = [ratios[int(p * (len(ratios) - 1))] for p in (0, 0.5, 0.9, 0.99, 1)]
        print(f"token ratio release/one-shot (default Stream()) over {len(ratios)} chunkings: min/median/p90/p99/max "
              f"{' '.join(f'{x:.3f}' for x in q)}; >1.02: {above} ({100 * above / len(ratios):.1f} %)")
    print("TOTAL", dict(totals), "odd", len(odd), f"seed={args.seed}", flush=True)
    return 1 if totals["lossy"] or odd else 0


if __name__ == "__main__":
    raise SystemExit(main())
