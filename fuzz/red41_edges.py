"""Red team (issue 40's merge): the new cut rules' edges, through ``fuzz/stream_cuts.py``'s machinery.

    PYTHONPATH=$PWD python fuzz/red41_edges.py --seed 1 --count 30
    PYTHONPATH=$PWD python fuzz/red41_edges.py --seed 2 --count 30 --families sized_page_edges
    PYTHONPATH=$PWD python fuzz/red41_edges.py --prior --seed 3 --count 30 --families sized_clear_first,sized_clears

Sized families (judged by a live tmux at the stream's size, every chunking, idempotence of every stretch
adopted): homing clears with text before / after on the same row, in every spelling both readings take
and near misses (ED 3 alone, ED 3 first, SGR between, a scroll region or origin mode set before), the
pending-wrap column before a clear, moves after a clear; DECSET / DECRST of modes read as harmless
interleaved with wraps and at the pending-wrap column; wide characters and combining marks at the
margin; CRLF, LF, ``\\r\\r\\n`` and ``\\n\\r`` line ends with multi-byte characters (every chunking cuts
them mid-character); streams that start with a homing clear then stop. ``--prior``: every sized stream
at a terminal in use (``fresh=False``), judged after three rows shown before it on both sides (F41-2;
with that fix reverted, seed 4172 ``sized_clear_first`` finds 8 losses). Also, per stream: the cut
points both readings give with their per-sequence caches warm (after reading the same sequences at
other widths) equal those read with the caches bypassed.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import stream_cuts  # noqa: E402
from stream_cuts import _plain, _text  # noqa: E402

from textclean.pipeline.clean import cut_finder  # noqa: E402
from textclean.pipeline.verify import cut_check  # noqa: E402

HOMES = [b"\x1b[H", b"\x1b[;H", b"\x1b[1;1H", b"\x1b[01;01H", b"\x1b[1;1f", b"\x1b[f", b"\x1b[;01f", b"\x1b[1H"]
CLEARS = [b"\x1b[2J", b"\x1b[02J", b"\x1b[2;0J", b"\x1b[0;2J"]
NEAR = [b"\x1b[3J", b"\x1b[3J\x1b[H\x1b[2J", b"\x1b[H\x1b[1m\x1b[2J", b"\x1b[2J\x1b[3J\x1b[H",
        b"\x1b[H\x1b[2J\x1b[m\x1b[3J", b"\x1b[H\x1b[2J\x1b[3J\x1b[3J", b"\x1b[2J\x1b[2J\x1b[H", b"\x1b[H\x1b[H\x1b[2J",
        b"\x1b[H\x1b[0J", b"\x1b[1;2H\x1b[2J",
        b"\x1b[2;1H\x1b[2J", b"\x1b[H\x1b[?25l\x1b[2J", b"\x1b[H\r\x1b[2J", b"\x1b[H\x07\x1b[2J"]
BEFORE = [b"", b"", b"\x1b[3;6r", b"\x1b[?6h", b"\x1b[3;6r\x1b[?6h", b"\x1b[?6h\x1b[?6l", b"\x1b[r", b"\x1b[4;1H",
          b"\x1b[?25l", b"\x1b[?7h", b"\x1b[?2004h", b"\x1b[5A", b"\x1b[2B", b"\x1b7", b"\x1b[?1049h"]
AFTER = [b"", b"", b"\x1b[A\rUP\n", b"\x1b[3;1Hpos\n", b"\rCR", b"\bBS", b"\x1b[2Atwo\n", b"\x1b[K", b"\x1b[B\n",
         b"\x1b[H\x1b[2J", b"\x1b[?1049l", b"\x1b8", b"\x1bM\n"]


def _clear(rng: random.Random) -> bytes:
    if rng.random() < 0.3:
        return rng.choice(NEAR)
    home, clear = rng.choice(HOMES), rng.choice(CLEARS)
    pair = home + clear if rng.random() < 0.5 else clear + home
    return pair + rng.choice([b"", b"", b"\x1b[3J", b"\x1b[3J\x1b[3J"])


def sized_page_edges(rng: random.Random, columns: int, rows: int) -> bytes:
    """Homing clears (and near misses) with text on the same row before and after, at the pending-wrap
    column, after moves and modes, several in a row, at the very end."""
    out = []
    for _ in range(rng.randint(1, 4)):
        out.append(_plain(rng, rng.choice([0, 1, 2, rows - 1, rows, rows + 2])))
        out.append(rng.choice([b"", b"", _text(rng, 3), _text(rng, columns), _text(rng, columns + 2),
                               _text(rng, columns) + b"\x1b[A", b"50%\r", b"\x1b[2A\rOVER\x1b[K"]))
        out.append(rng.choice(BEFORE))
        out.append(_clear(rng))
        out.append(rng.choice([b"", _text(rng, 4), _text(rng, columns), _text(rng, columns + 1) + b"\n"]))
        out.append(rng.choice(AFTER))
        out.append(_plain(rng, rng.choice([0, 1, 3, rows + 1])))
    return b"".join(out)


MODES = [b"\x1b[?25l", b"\x1b[?25h", b"\x1b[?7h", b"\x1b[?7l", b"\x1b[?1h", b"\x1b[?12h", b"\x1b[?2026h",
         b"\x1b[?2026l",
         b"\x1b[?40h", b"\x1b[?45h", b"\x1b[?1;25l", b"\x1b[?025h", b"\x1b[?2004h", b"\x1b[?1000h\x1b[?1006h",
         b"\x1b[?1007h", b"\x1b[?4h", b"\x1b[?5h", b"\x1b[?3l", b"\x1b[?8h", b"\x1b[?44h", b"\x1b[?1010h", b"\x1b[?66h",
         b"\x1b[?25;7h", b"\x1b[?25;7l", b"\x1b[?9001h", b"\x1b[?2048h", b"\x1b[?18h", b"\x1b[?19h"]


def sized_modes_wraps(rng: random.Random, columns: int, rows: int) -> bytes:
    """Modes read as harmless (and some that are not) before, inside and right after a wrap, at the
    pending-wrap column, before BS / CR / moves."""
    out = []
    for _ in range(rng.randint(2, rows + 3)):
        cells = rng.choice([columns - 1, columns, columns + 1, 2 * columns, 4])
        text = _text(rng, cells)
        at = rng.randint(0, len(text))
        text = text[:at] + rng.choice(MODES) + text[at:]
        tail = rng.choice([b"", rng.choice(MODES), rng.choice(MODES) + b"X", rng.choice(MODES) + b"\b",
                           rng.choice(MODES) + b"\r", rng.choice(MODES) + b"\x1b[A", b"\x1b[A" + rng.choice(MODES),
                           rng.choice(MODES) + b"\x1b[2K", b"\b" + rng.choice(MODES) + b"Z"])
        out.append(text + tail + rng.choice([b"\n", b"\r\n", b"\n"]))
    return b"".join(out)


MARKS = ["漢", "😀", "e\u0301", "\u0301", "\u0308", "ｱ", "\u200b", "\u00ad", "\U0001f1fa\U0001f1f8", "\u2764\ufe0f",
         "\u1100\u1161", "a\u20dd", "\u0e01\u0e49", "\u3000", "\ufe0f", "🏳\u200d🌈", "\u00e9"]


def sized_margin_marks(rng: random.Random, columns: int, rows: int) -> bytes:
    """Wide characters and combining marks at columns width-2, width-1, width and past, wrapped lines
    redrawn, multi-byte text everywhere (chunkings cut it mid-character)."""
    out = []
    for _ in range(rng.randint(2, rows + 2)):
        lead = _text(rng, rng.choice([columns - 3, columns - 2, columns - 1, columns, columns + 1, 2 * columns - 1]))
        mark = "".join(rng.choice(MARKS) for _ in range(rng.randint(1, 3))).encode()
        tail = rng.choice([b"", b"z", b"\b", b"\bQ", b"\r\x1b[K", b"\x1b[A", b"\x1b[D", b"\x1b[1G", _text(rng, 3)])
        out.append(lead + mark + tail + rng.choice([b"\n", b"\r\n", b"\r\r\n", b"\n\r"]))
    return b"".join(out)


def sized_line_ends(rng: random.Random, columns: int, rows: int) -> bytes:
    """CRLF / LF / CR CR LF / LF CR mixes, text at the width, multi-byte characters cut by every chunking."""
    out = []
    for _ in range(rng.randint(3, 2 * rows + 3)):
        body = _text(rng, rng.choice([3, columns - 1, columns, columns + 1])) + rng.choice(
            [b"", "é".encode(), "漢字".encode(), "─".encode() * 3, b"\xe2\x94", b"\xff"])
        out.append(body + rng.choice([b"\n", b"\r\n", b"\r\r\n", b"\n\r", b"\r\n\r\n", b"\n\n"]))
    return b"".join(out)


def sized_pages(rng: random.Random, columns: int, rows: int) -> bytes:
    """Mostly page breaks both readings take: several in a row, text on the clear's row before and after
    it, wrapped rows, CR / EL redraws and moves up within the new page, the stream ending on a clear."""
    out = []
    for _ in range(rng.randint(2, 5)):
        out.append(_plain(rng, rng.choice([0, 1, 2, rows - 1, rows, rows + 2])))
        out.append(rng.choice([b"", b"", _text(rng, 3), _text(rng, columns), _text(rng, columns + 2), b"50%\r",
                               b"\x1b[?25l", b"\x1b[1A\x1b[2K", b"\r\x1b[K"]))
        home, clear = rng.choice(HOMES), rng.choice(CLEARS[:2])
        out.append((home + clear if rng.random() < 0.5 else clear + home) + rng.choice([b"", b"\x1b[3J"]))
        out.append(rng.choice([b"", _text(rng, 4), _text(rng, columns), _text(rng, columns + 1) + b"\n",
                               b"\x1b[31m" + _text(rng, 5) + b"\x1b[0m\r\x1b[K" + _text(rng, 2)]))
        out.append(rng.choice([b"", b"", b"\n", b"\rCR\n", b"x\n\x1b[A\r\x1b[2Kover\n", b"a\nb\n\x1b[2A\rAA\n\n"]))
        out.append(_plain(rng, rng.choice([0, 1, 3, rows - 1, rows + 1])))
    return b"".join(out)


def sized_clear_first(rng: random.Random, columns: int, rows: int) -> bytes:
    """A stream that starts with a homing clear (a page break at offset 0), a few lines, then a stop that
    writes where the screen's rows are: an absolute position, a clear of the rest, a region."""
    home, clear = rng.choice(HOMES), rng.choice(CLEARS[:1])
    out = [(home + clear if rng.random() < 0.5 else clear + home) + rng.choice([b"", b"\x1b[3J"])]
    out.append(_plain(rng, rng.choice([1, 2, rows // 2, rows - 1, rows + 1])))
    out.append(rng.choice([b"\x1b[%d;1HOVER\n" % rng.randint(1, rows), b"\x1b[HTOP\x1b[K\n", b"\x1b[1;%dr" % rows,
                           b"\x1b[%dd\x1b[2K" % rng.randint(1, rows), b"\x1b7\x1b[1;1Hsaved\x1b8\n", b"\x1b[J"]))
    return b"".join(out) + _plain(rng, rng.choice([0, 1, 3]))


NEW_SIZED = {f.__name__: f for f in (
    sized_clear_first, sized_pages, sized_page_edges, sized_modes_wraps, sized_margin_marks, sized_line_ends)}
CACHE_ODD: list[dict[str, object]] = []


def _cuts(text: str, size: dict[str, int]) -> tuple[list[int], list[int], list[int], list[int]]:
    finder, check = cut_finder.CutFinder(len(text) + 1, **size), cut_check.CutCheck(len(text) + 1, **size)
    return finder.feed(text), check.feed(text), finder.page_breaks, check.clears


def _cache_checked(gen: stream_cuts.SizedGen) -> stream_cuts.SizedGen:
    """The family, plus: the cut points with the caches warm (read at two other widths first) equal the
    cut points with the caches bypassed."""
    def wrapped(rng: random.Random, columns: int, rows: int) -> bytes:
        raw = gen(rng, columns, rows)
        text = raw.decode("utf-8", "surrogateescape")
        for other in (11, 3):
            _cuts(text, {"columns": other, "rows": rows})
        _cuts(text, {})
        warm = _cuts(text, {"columns": columns, "rows": rows})
        finder_cached, check_cached = cut_finder._cached_reading, cut_check._cached_parsed
        cut_finder._cached_reading, cut_check._cached_parsed = cut_finder._reading, cut_check._parsed  # type: ignore[assignment]
        try:
            cold = _cuts(text, {"columns": columns, "rows": rows})
        finally:
            cut_finder._cached_reading, cut_check._cached_parsed = finder_cached, check_cached
        if warm != cold:
            CACHE_ODD.append({"raw": repr(raw), "size": (columns, rows), "warm": warm, "cold": cold})
            print("CACHE", CACHE_ODD[-1], flush=True)
        return raw
    wrapped.__name__ = gen.__name__
    return wrapped


#: ``--prior``: rows a terminal in use holds before the stream (F41-2), shown before both sides
PRIOR = b"".join(b"before %d\n" % i for i in range(3))


def _in_use() -> None:
    """Stream every sized family at a terminal in use (``fresh=False``) and judge it after :data:`PRIOR`
    on both sides, in a new tmux window (the judge's own windows are always fresh)."""
    release, display_case = stream_cuts.release, stream_cuts.tmux_judge.display_case

    def in_use(chunks: list[bytes] | list[str], **kw: object) -> str:
        return release(chunks, **{**kw, "fresh": False} if "columns" in kw else kw)

    class AfterPrior(stream_cuts.tmux_judge.Case):
        def __setattr__(self, name: str, value: object) -> None:
            if name == "candidate" and isinstance(value, bytes):
                value = PRIOR + value
            super().__setattr__(name, value)

    def case_after_prior(raw: bytes, display: str, columns: int, rows: int, family: str) -> object:
        case = display_case(PRIOR + raw, "fresh" if display == "sized" else display, columns, rows, family)
        case.__class__ = AfterPrior
        return case

    stream_cuts.release = in_use  # type: ignore[assignment]
    stream_cuts.tmux_judge.display_case = case_after_prior  # type: ignore[assignment]


def main() -> int:
    if "--prior" in sys.argv:
        sys.argv.remove("--prior")
        _in_use()
    for name, gen in NEW_SIZED.items():
        stream_cuts.SIZED_FAMILIES[name] = _cache_checked(gen)
    if "--families" not in sys.argv:
        sys.argv += ["--families", ",".join(NEW_SIZED)]
    code = stream_cuts.main()
    print("cache differences", len(CACHE_ODD), flush=True)
    return code or (1 if CACHE_ODD else 0)


if __name__ == "__main__":
    raise SystemExit(main())
