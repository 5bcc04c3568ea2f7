"""Red team (issue 40's merge): kept stretches whose refused control sits mid-line, at the very end, or
reaches back into rows cleaned before it, through ``fuzz/kept_stretches.py``'s checks and tmux judge.

    PYTHONPATH=$PWD python fuzz/red41_kept.py --seed 1 --count 300
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import kept_stretches  # noqa: E402
import stream_cuts  # noqa: E402

REFUSED = kept_stretches.REFUSED + [b"\x1b[1;1H", b"\x1b[20;1H", b"\x1b[3A\x1b[5;1H", b"\x1b[H\x1b[2J",
                                    b"\x1b[2J\x1b[H", b"\x1b[?25l\x1b[H", b"\x1b[10;5HX",
                                    b"\x1b[r", b"\x1b[1;3r\x1b[3;1H\n\n", b"\x1b]0;t"]


def _body(rng: random.Random) -> bytes:
    return rng.choice([stream_cuts.sgr_lines, stream_cuts.progress, stream_cuts.line_end_redraws,
                       stream_cuts.up_past_24, stream_cuts.late_cuts])(rng)


def refused_at_end(rng: random.Random) -> bytes:
    """Cleanable lines, then a refused control as the text's last bytes (maybe with a line or no LF)."""
    return _body(rng) + stream_cuts._plain(rng, rng.choice([0, 1, 24, 26])) + rng.choice(
        [b"", stream_cuts._line(rng)]) + rng.choice(REFUSED) + rng.choice([b"", b"\n", b"tail", b"tail\r\n"])


def refused_mid_line(rng: random.Random) -> bytes:
    """A refused control between two halves of one line, then more (redrawn) lines, maybe a second one."""
    out = [_body(rng)]
    for _ in range(rng.randint(1, 2)):
        out.append(stream_cuts._line(rng) + rng.choice(REFUSED) + stream_cuts._line(rng)
                   + rng.choice([b"\n", b"\r\n", b"\r", b""]) + _body(rng))
    return b"".join(out)


def refused_reaching_back(rng: random.Random) -> bytes:
    """Redraws (cleaned), 24+ plain rows or fewer, then a refused absolute move onto the rows cleaned, written over."""
    head = stream_cuts.progress(rng) + stream_cuts._plain(rng, rng.choice([1, 5, 23, 24, 25, 30]))
    move = rng.choice([b"\x1b[%d;1H" % rng.randint(1, 24), b"\x1b[%dd" % rng.randint(1, 24), b"\x1b[H",
                       b"\x1b[%dA\x1b[%d;1H" % (rng.randint(1, 3), rng.randint(1, 24))])
    over = rng.choice([b"OVER\n", b"\x1b[2KOVER\n", b"\x1b[K", b"\x1b[1J", b"X\x1b[J", b"OVER\r\n"])
    return head + move + over + rng.choice([b"", stream_cuts._plain(rng, 3)])


FAMILIES = {f.__name__: f for f in (refused_at_end, refused_mid_line, refused_reaching_back)}


if __name__ == "__main__":
    kept_stretches.FAMILIES.clear()
    kept_stretches.FAMILIES.update(FAMILIES)
    raise SystemExit(kept_stretches.main())
