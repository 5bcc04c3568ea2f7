"""Seeded generators of hostile terminal streams for the tmux judge (red team, issue 11).

Each family is ``f(rng, columns, rows) -> bytes``; ``columns``/``rows`` is the terminal the stream is
written for (generators use it to aim at margins, wrap points and the bottom row). Written from the
terminal's side (ECMA-48 / DEC names), not from the cleaner's model.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

ESC = "\x1b"
CSI = ESC + "["
FIXTURES = Path(__file__).resolve().parent / "fixtures"

# ---------------------------------------------------------------------------------------------------
# Characters across the code space.

_POOLS: list[tuple[int, int]] = [
    (0x4E00, 0x9FFF), (0xAC00, 0xD7A3), (0xFF01, 0xFF60), (0x3040, 0x30FF),  # wide
    (0x1F300, 0x1F64F), (0x1F900, 0x1F9FF), (0x1FA70, 0x1FAFF), (0x1F1E6, 0x1F1FF),  # emoji, flags
    (0x0300, 0x036F), (0x20D0, 0x20FF), (0x1AB0, 0x1AFF), (0x0E31, 0x0E3A), (0x0591, 0x05C7),  # combining
    (0x00A1, 0x00FF), (0x2460, 0x24FF), (0x2500, 0x257F), (0x0391, 0x03C9), (0x0410, 0x044F),  # ambiguous
    (0x1100, 0x115F), (0xE000, 0xE0FF), (0x2E80, 0x2FDF), (0x3000, 0x303F), (0x2600, 0x27BF),
]
_ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\ufe0f", "\ufe0e", "\u00ad", "\u2060", "\u180e", "\u034f",
               "\U000e0001", "\U000e0020", "\u061c", "\u200e", "\u2028", "\u0085"]
_INVALID = [b"\x80", b"\xff", b"\xc3", b"\xe4\xb8", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80",
            b"\xc2\x9b", b"\xc2\x9d", b"\xfe"]


def char(rng: random.Random) -> str:
    k = rng.random()
    if k < 0.45:
        return chr(rng.randrange(0x21, 0x7F))
    if k < 0.55:
        return " "
    if k < 0.85:
        lo, hi = rng.choice(_POOLS)
        return chr(rng.randint(lo, hi))
    if k < 0.92:
        return rng.choice(_ZERO_WIDTH)
    while True:  # anywhere in the code space
        c = rng.randrange(0xA0, 0x110000)
        if not 0xD800 <= c <= 0xDFFF:
            return chr(c)


def text(rng: random.Random, n: int, *, exotic: float = 0.3) -> bytes:
    out = []
    for _ in range(n):
        r = rng.random()
        if r < exotic:
            out.append(char(rng).encode("utf-8"))
        elif r < exotic + 0.02:
            out.append(rng.choice(_INVALID))
        elif r < exotic + 0.05:
            out.append(b"\t")
        else:
            out.append(bytes([rng.randrange(0x21, 0x7F)]))
    return b"".join(out)


def word(rng: random.Random, n: int | None = None) -> bytes:
    n = rng.randint(1, 12) if n is None else n
    return bytes(rng.choice(b"abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(n))


def csi(s: str) -> bytes:
    return (CSI + s).encode()


def num(rng: random.Random, hi: int) -> str:
    """A parameter: often small, sometimes omitted, zero, or at the edge of the screen."""
    r = rng.random()
    if r < 0.1:
        return ""
    if r < 0.15:
        return "0"
    if r < 0.9:
        return str(rng.randint(1, max(1, hi)))
    return str(rng.choice([hi, hi + 1, hi * 2, 999, 65535, 2**31 - 1]))


# ---------------------------------------------------------------------------------------------------
# Single-line / few-line redraws.


def _redraw_control(rng: random.Random, columns: int, rows: int) -> bytes:
    c = rng.randrange(26)
    n = num(rng, columns)
    v = num(rng, 3)
    return [
        b"\r", b"\b", b"\b\b", csi("K"), csi("1K"), csi("2K"), csi("0K"), csi(f"{n}X"),
        csi(f"{n}G"), csi(f"{n}`"), csi(f"{n}C"), csi(f"{n}D"), csi(f"{v}A"), csi(f"{v}B"),
        csi(f"{v}E"), csi(f"{v}F"), b"\x1bM", b"\x1bD", b"\x1bE", b"\x1b7", b"\x1b8", csi("s"),
        csi("u"), b"\n", b"\r\n", csi(f"{rng.choice(['1', '31', '0', '1;32', '38;5;200', ''])}m"),
    ][c]


def redraws(rng: random.Random, columns: int, rows: int) -> bytes:
    """Text (wide, combining, ambiguous, zero-width, invalid, tabs) mixed with in-line and few-line
    cursor controls."""
    out = []
    for _ in range(rng.randint(3, 40)):
        if rng.random() < 0.5:
            out.append(text(rng, rng.randint(1, 15)))
        else:
            out.append(_redraw_control(rng, columns, rows))
    if rng.random() < 0.7:
        out.append(b"\r\n")
    return b"".join(out)


def redraws_ascii(rng: random.Random, columns: int, rows: int) -> bytes:
    """As :func:`redraws` but plain words, so the cursor arithmetic (not widths) is what is tested."""
    out = []
    for _ in range(rng.randint(3, 40)):
        if rng.random() < 0.5:
            out.append(word(rng))
        else:
            out.append(_redraw_control(rng, columns, rows))
    out.append(b"\r\n")
    return b"".join(out)


def width_wrap(rng: random.Random, columns: int, rows: int) -> bytes:
    """Rows of one kind of character (wide, emoji, ambiguous, combining, zero-width, new in Unicode
    13-15) filling the width to within a cell or two, then a redraw that depends on where the row
    ended: where the terminal's width table and ours disagree, the redraw lands elsewhere."""
    lo, hi = rng.choice(_POOLS + [(0x1FAE0, 0x1FAF8), (0x1F7E0, 0x1F7EB), (0x1F90C, 0x1F90F), (0x2E3B, 0x2E3B),
                                  (0x31350, 0x313A0), (0x16FE0, 0x16FE4), (0x1F1E6, 0x1F1FF)])
    out = [b"\x1b[H\x1b[2J" if rng.random() < 0.5 else b""]
    for _ in range(rng.randint(1, 4)):
        count = rng.choice([columns // 2 - 1, columns // 2, columns // 2 + 1, columns - 1, columns, columns + 1])
        prefix = word(rng, rng.randint(0, 3))
        body = "".join(chr(rng.randint(lo, hi)) for _ in range(count)).encode()
        out.append(prefix + body)
        out.append(rng.choice([b"\r", b"\x1b[A", b"\x1b[K", b"\b", b"\x1b[2D", b"\x1b[1G", b"\r\n", b"\x1b[1K",
                               b"\x1b[X", b"\x1b[" + str(columns).encode() + b"G", b"\x1b[@", b"\x1b[P"]))
        out.append(word(rng, rng.randint(1, 4)))
        out.append(b"\r\n")
    return b"".join(out)


def long_lines(rng: random.Random, columns: int, rows: int) -> bytes:
    """Lines around the wrap point, then redraws that depend on where the wrap put the cursor."""
    out = []
    for _ in range(rng.randint(1, 6)):
        width = rng.choice([columns - 1, columns, columns + 1, 2 * columns, 2 * columns - 1, columns * 3 + 2])
        if rng.random() < 0.3:
            line = ("\u4e2d" * (width // 2) + "x" * (width % 2)).encode()
        else:
            line = word(rng, width)
        out.append(line)
        for _ in range(rng.randint(0, 3)):
            out.append(_redraw_control(rng, columns, rows))
            if rng.random() < 0.6:
                out.append(word(rng, rng.randint(1, 5)))
        out.append(rng.choice([b"\r\n", b"\n", b"", b"\r"]))
    out.append(b"\r\n")
    return b"".join(out)


# ---------------------------------------------------------------------------------------------------
# Strings and parameters.

_STRING_OPENERS = [b"\x1b]", b"\x1bP", b"\x1bX", b"\x1b^", b"\x1b_", b"\xc2\x9d", b"\xc2\x90"]
_STRING_ENDS = [b"\x07", b"\x1b\\", b"\x18", b"\x1a", b"\x1b", b"\xc2\x9c", b"\x9c", b""]


def strings(rng: random.Random, columns: int, rows: int) -> bytes:
    """OSC/DCS/SOS/PM/APC bodies ended by BEL/ST/CAN/SUB/ESC/C1 ST, with redraws after them."""
    out = []
    for _ in range(rng.randint(1, 6)):
        out.append(word(rng, rng.randint(0, 10)))
        body = rng.choice([b"0;title", b"8;;http://x/", b"52;c;YQ==", b"1$r", b"q", b"tmux;\x1b\x1b]0;x\x07",
                           b"abc\rdef\n", b"a\x1b[31mb", b"x\x07y", word(rng, rng.randint(0, 30))])
        out.append(rng.choice(_STRING_OPENERS) + body + rng.choice(_STRING_ENDS))
        for _ in range(rng.randint(0, 3)):
            out.append(_redraw_control(rng, columns, rows))
            out.append(word(rng, rng.randint(0, 6)))
        if rng.random() < 0.5:
            out.append(b"\r\n")
    out.append(b"\r\n")
    return b"".join(out)


_BIG = ["2147483647", "2147483648", "2147483649", "4294967295", "4294967296", "4294967297",
        "65535", "65536", "32767", "32768", "99999999999999999999", "0000000000000000000003",
        "18446744073709551617", "9" * 40]


def params(rng: random.Random, columns: int, rows: int) -> bytes:
    """Parameters near and above 2^15, 2^16, 2^31, 2^32, 2^64 on cursor and erase controls."""
    out = [word(rng, 20), b"\r\n", word(rng, 30)]
    for _ in range(rng.randint(1, 6)):
        p = rng.choice(_BIG)
        final = rng.choice("ABCDEFGHJKX`dfPM@LSTb")
        sep = rng.choice(["", ";1", f";{p}"])
        out.append(csi(f"{p}{sep}{final}" if final in "Hf" else f"{p}{final}"))
        out.append(word(rng, rng.randint(0, 5)))
        if rng.random() < 0.3:
            out.append(b"\r\n")
    out.append(b"\r\n")
    return b"".join(out)


# ---------------------------------------------------------------------------------------------------
# Whole sessions.

_CLEARS = [b"\x1b[2J", b"\x1b[3J", b"\x1b[H\x1b[2J", b"\x1b[H\x1b[J", b"\x1b[H\x1b[2J\x1b[3J", b"\x1bc",
           b"\x1b[J", b"\x1b[0J", b"\x1b[1J", b"\x1b[;H\x1b[0J", b"\x1b[1;1f\x1b[2J", b"\x1bc\x1b[3J"]
_ALT = [(b"\x1b[?1049h", b"\x1b[?1049l"), (b"\x1b[?47h", b"\x1b[?47l"), (b"\x1b[?1047h", b"\x1b[?1047l"),
        (b"\x1b[?1048h\x1b[?1047h", b"\x1b[?1047l\x1b[?1048l"), (b"\x1b[?1049h", b""),
        (b"\x1b[?1049h", b"\x1b[?47l"), (b"\x1b[?1048h", b"\x1b[?1048l")]


def _log(rng: random.Random, n: int, columns: int) -> bytes:
    """Log lines, mostly narrower than the screen, now and then one that wraps."""
    def width() -> int:
        return rng.randint(0, columns + 5) if rng.random() < 0.1 else rng.randint(0, max(0, columns - 6))
    return b"".join(b"log " + word(rng, width()) + b"\r\n" for _ in range(n))


def _screen_op(rng: random.Random, columns: int, rows: int, wild: bool = True) -> bytes:
    r, c = num(rng, rows), num(rng, columns)
    k = rng.randrange(30)
    if not wild and 18 <= k < 24:
        k = rng.choice([0, 2, 7, 8, 9, 14, 16, 24, 25])
    if k < 4:
        return csi(f"{r};{c}H") + word(rng)
    if k < 5:
        return csi(f"{r};{c}f") + word(rng)
    if k < 7:
        return csi(f"{r}d") + word(rng)
    if k < 8:
        return csi(f"{c}G") + word(rng)
    if k < 9:
        return csi(f"{num(rng, 4)}L")
    if k < 10:
        return csi(f"{num(rng, 4)}M")
    if k < 11:
        return csi(f"{num(rng, 6)}@")
    if k < 12:
        return csi(f"{num(rng, 6)}P")
    if k < 13:
        return b"x" + csi(f"{num(rng, columns)}b")
    if k < 14:
        return csi(f"{num(rng, 3)}S")
    if k < 15:
        return csi(f"{num(rng, 3)}T")
    if k < 17:
        top = rng.randint(1, rows)
        bottom = rng.randint(top, rows)
        return csi(f"{top};{bottom}r") if rng.random() < 0.8 else csi("r")
    if k < 18:
        return b"\x1bD" if rng.random() < 0.5 else b"\x1bM"
    if k < 19:
        return csi("?6h") if rng.random() < 0.5 else csi("?6l")
    if k < 20:
        return rng.choice([b"\x1b7", b"\x1b8", csi("s"), csi("u")])
    if k < 21:
        return rng.choice([csi("4h"), csi("4l")])
    if k < 22:
        return rng.choice([csi("?7l"), csi("?7h")])
    if k < 23:
        return rng.choice([b"\x1b(0", b"\x1b(B", b"\x0e", b"\x0f", b"\x1b)0"]) + word(rng, 3)
    if k < 25:
        return rng.choice(_CLEARS)
    if k < 26:
        return csi(f"{rng.choice(['', '0', '1', '2'])}K")
    return _redraw_control(rng, columns, rows) + word(rng, rng.randint(0, 8))


def sessions_wild(rng: random.Random, columns: int, rows: int) -> bytes:
    """:func:`sessions` with modes too (DECOM, IRM, DECAWM, charsets, saved cursors, IND/RI)."""
    return sessions(rng, columns, rows, wild=True)


def sessions(rng: random.Random, columns: int, rows: int, wild: bool = False) -> bytes:
    """Logs, clears, absolute positions, regions, alternate screens, IL/DL/ICH/DCH/REP/SU/SD."""
    out = []
    for _ in range(rng.randint(2, 10)):
        k = rng.random()
        if k < 0.25:
            out.append(_log(rng, rng.randint(1, rows + 3), columns))
        elif k < 0.4:
            out.append(rng.choice(_CLEARS) + b"$ cmd\r\n")
        elif k < 0.5:
            enter, leave = rng.choice(_ALT)
            out.append(enter + rng.choice([b"", b"\x1b[H\x1b[2J"]))
            out.extend(_screen_op(rng, columns, rows, wild) for _ in range(rng.randint(1, 10)))
            out.append(leave)
        else:
            out.extend(_screen_op(rng, columns, rows, wild) for _ in range(rng.randint(1, 8)))
            if rng.random() < 0.5:
                out.append(b"\r\n")
    return b"".join(out)


def screen_frames(rng: random.Random, columns: int, rows: int) -> bytes:
    """top/htop-like frames: clear or home, rows painted by CUP, EL, a status line, repainted."""
    out = [_log(rng, rng.randint(0, 5), columns)]
    lines = rng.randint(2, rows + 2)
    for frame in range(rng.randint(1, 4)):
        out.append(rng.choice([b"\x1b[H\x1b[2J", b"\x1b[H", b"\x1b[H\x1b[J", b"\x1b[2J\x1b[H", b"\x1b[1;1H"]))
        order = list(range(1, lines + 1))
        if rng.random() < 0.3:
            rng.shuffle(order)
        for r in order:
            out.append(csi(f"{r};{rng.choice([1, 1, 1, 5])}H") + b"row%d f%d " % (r, frame) + word(rng))
            if rng.random() < 0.5:
                out.append(csi("K"))
        if rng.random() < 0.5:
            out.append(csi(f"{rows};1H") + b"status " + word(rng))
    out.append(rng.choice([b"", b"\r\n", csi(f"{rows};1H") + b"\r\n$ "]))
    return b"".join(out)


def regions(rng: random.Random, columns: int, rows: int) -> bytes:
    """DECSTBM regions scrolled by LF/IND/RI at their margins, origin mode, reset or not."""
    start = rng.choice([b"", b"\x1b[H\x1b[2J", b"\x1b[2J\x1b[H", b"\x1bc", b"\x1b[H\x1b[J"])
    out = [start, _log(rng, rng.choice([rng.randint(0, rows), rows + rng.randint(0, 5)]), columns)]
    for _ in range(rng.randint(1, 4)):
        top = rng.randint(1, max(1, rows - 1))
        bottom = rng.randint(top + 1, rows)
        out.append(csi(f"{top};{bottom}r"))
        if rng.random() < 0.3:
            out.append(csi("?6h"))
        out.append(csi(f"{rng.choice([top, bottom, rng.randint(1, rows)])};1H"))
        for _ in range(rng.randint(1, rows + 4)):
            out.append(rng.choice([b"\n", b"\r\n", b"\x1bD", b"\x1bM", b"\x1bE", csi("S"), csi("T")]))
            out.append(word(rng))
        if rng.random() < 0.3:
            out.append(csi("?6l"))
        if rng.random() < 0.7:
            out.append(csi("r"))
    out.append(rng.choice([b"", csi(f"{rows};1H") + b"\r\n", b"\r\n"]))
    return b"".join(out)


def tall_progress(rng: random.Random, columns: int, rows: int) -> bytes:
    """A multi-row progress display (CUU/CPL + EL) from a few rows to taller than the screen."""
    tasks = rng.choice([3, rows - 2, rows - 1, rows, rows + 1, rows + 5, 30])
    up = rng.choice(["A", "F"])
    out = [b"$ run\r\n"] + [b"task %d 0%%\r\n" % t for t in range(tasks)]
    for frame in range(1, rng.randint(2, 5)):
        out.append(csi(f"{tasks}{up}"))
        for t in range(tasks):
            out.append((b"\r" if up == "A" else b"") + csi("2K") + b"task %d %d%%\r\n" % (t, frame * 25))
    out.append(b"done\r\n")
    return b"".join(out)


def leaks(rng: random.Random, columns: int, rows: int) -> bytes:
    """State a page leaves behind (regions, DECOM, IRM, charsets, SO, DECAWM off, a saved cursor,
    an unterminated string), then a clear, then text the state would change."""
    state = rng.choice([
        csi("3;5r"), csi("?6h"), csi("4h"), b"\x1b(0", b"\x1b)0\x0e", b"\x0e", csi("?7l"), b"\x1b7",
        csi("s"), b"\x1b]0;unterminated", b"\x1bPq", "a\u200d".encode(), csi("5;10r") + csi("?6h"),
        csi(f"{rows // 2};{rows}r") + csi(f"{rows};1H"), b"\x1b#8", csi("20h"), csi("?5h"), csi("?69h") + csi("10;20s"),
    ])
    out = [_log(rng, rng.randint(0, 3), columns)]
    out.append(csi(f"{rng.randint(1, rows)};{rng.randint(1, 20)}H") + b"mark" if rng.random() < 0.5 else b"")
    out.append(state)
    out.append(word(rng) + csi(f"{rng.randint(1, 3)}A") + b"jqxl" + b"\r\n")
    if rng.random() < 0.3:  # something unresolvable so the page is kept
        out.append(csi("6n") if rng.random() < 0.5 else csi("?1000h"))
    out.append(rng.choice(_CLEARS))
    out.append(b"after " + word(rng) + b"jqxl\r\n" + word(rng, columns + 3))
    out.append(rng.choice([b"\x1b8", csi("u"), csi("1;1H") + b"X", b"\r\n" * (rows + 1), b"", csi("10;1H") + b"y"]))
    out.append(b"\r\n")
    return b"".join(out)


def hostile_mix(rng: random.Random, columns: int, rows: int) -> bytes:
    """Everything at once, short."""
    fams = [redraws, strings, params, sessions, regions, leaks, long_lines]
    return b"".join(rng.choice(fams)(rng, columns, rows)[: rng.randint(10, 400)] for _ in range(rng.randint(2, 4)))


# ---------------------------------------------------------------------------------------------------
# Mutations of the real captures.

_FIXTURE_CACHE: list[tuple[str, bytes, int | None, int | None]] = []


def fixtures() -> list[tuple[str, bytes, int | None, int | None]]:
    if not _FIXTURE_CACHE:
        for raw in sorted(FIXTURES.rglob("*.raw")):
            meta_path = raw.with_suffix(".json")
            columns = rows = None
            if meta_path.exists():
                meta = json.loads(meta_path.read_text())
                columns, rows = meta.get("columns"), meta.get("lines") or meta.get("rows")
            _FIXTURE_CACHE.append((raw.stem, raw.read_bytes(), columns, rows))
    return _FIXTURE_CACHE


def mutate_fixture(rng: random.Random, columns: int, rows: int) -> bytes:
    """A real capture spliced with another, truncated, or with a clear / CUP / region inserted."""
    pool = fixtures()
    _name, data, _c, _r = rng.choice(pool)
    if len(data) > 20000:
        start = rng.randrange(len(data) - 20000)
        data = data[start : start + 20000]
    for _ in range(rng.randint(1, 3)):
        k = rng.randrange(6)
        at = rng.randrange(len(data) + 1)
        if k == 0:
            data = data[:at]
        elif k == 1:
            other = rng.choice(pool)[1]
            o = rng.randrange(len(other) + 1)
            data = data[:at] + other[o : o + rng.randint(10, 3000)] + data[at:]
        elif k == 2:
            data = data[:at] + rng.choice(_CLEARS) + data[at:]
        elif k == 3:
            data = data[:at] + csi(f"{rng.randint(1, rows)};{rng.randint(1, columns)}H") + data[at:]
        elif k == 4:
            data = data[:at] + _screen_op(rng, columns, rows) + data[at:]
        else:
            enter, leave = rng.choice(_ALT)
            data = data[:at] + enter + data[at:]
    return data


FAMILIES: dict[str, Callable[[random.Random, int, int], bytes]] = {
    "redraws": redraws,
    "redraws_ascii": redraws_ascii,
    "long_lines": long_lines,
    "width_wrap": width_wrap,
    "strings": strings,
    "params": params,
    "sessions": sessions,
    "sessions_wild": sessions_wild,
    "screen_frames": screen_frames,
    "regions": regions,
    "tall_progress": tall_progress,
    "leaks": leaks,
    "hostile_mix": hostile_mix,
    "fixtures": mutate_fixture,
}

SIZES = [(80, 24), (120, 40), (40, 10), (200, 50)]


# ---------------------------------------------------------------------------------------------------
# Rows redrawn by CR alone (the cleaner's and the verifier's string fast paths, session 13).

# Characters one cell wide by our tables but where terminals may not agree (Latin-1 incl. SHY and NBSP,
# Latin Extended, IPA, spacing modifiers, box drawing, block elements), plus plain ASCII and spaces.
_ONE_CELLISH = [(0x20, 0x7E), (0x20, 0x20), (0xA0, 0xFF), (0xAD, 0xAD), (0x100, 0x2FF), (0x2500, 0x259F),
                (0x2B0, 0x2FF), (0x370, 0x3FF), (0x2010, 0x2027), (0x20A0, 0x20C0)]
_SEGMENT_ODDITY = [b"\t", b"\x00", b"\x7f", b"\b", b"\x80", b"\xff", b"\xc3", b"\xcc\x81", "\u200b".encode(),
                   "\ufe0f".encode(), "\u4e2d".encode(), b"\x1b[1K", b"\x1b[X", b"\x1b[A", b"\x0b", b"\x0c",
                   b"\x1b[41m", b"\x1b[48;5;21m", b"\x1b]0;t\x07", b"\x1b[?25l", b"\x1b(0", b"\x0e", b"\x0f"]


def _cellish(rng: random.Random, n: int, exotic: float) -> bytes:
    out = []
    for _ in range(n):
        if rng.random() < exotic:
            lo, hi = rng.choice(_ONE_CELLISH)
            out.append(chr(rng.randint(lo, hi)).encode())
        else:
            out.append(bytes([rng.choice(b"abcdefghijklmnopqrstuvwxyz0123456789=>[]%. ")]))
    return b"".join(out)


def cr_overlay(rng: random.Random, columns: int, rows: int) -> bytes:
    """Progress-like rows redrawn by CR alone, EL 0/2 and SGR (background colours too), with segments
    aimed at the margin (the known width, and 80 for an unknown one), trailing spaces over text, CR CR
    LF, CR at the end of the text; now and then an oddity (tab, NUL, DEL, BS, invalid UTF-8, wide,
    combining, EL 1, cursor up, charset shifts) inside a segment; sometimes a clear or the alternate
    screen between rows."""
    out = []
    exotic = rng.choice([0.0, 0.05, 0.3])
    margins = [columns, 80]
    for _ in range(rng.randint(1, 5)):
        if rng.random() < 0.15:
            out.append(rng.choice([b"\x1b[H\x1b[2J", b"\x1b[?1049h", b"\x1b[?1049l", b"\x1b[3J", b"log line\r\n"]))
        for _ in range(rng.randint(1, 6)):
            r = rng.random()
            if r < 0.12:
                n = rng.choice(margins) + rng.randint(-2, 2)
            elif r < 0.15:
                n = 2 * rng.choice(margins) + rng.randint(-1, 1)
            else:
                n = rng.randint(0, 30)
            seg = _cellish(rng, max(0, n), exotic)
            if rng.random() < 0.2:
                seg = seg.rstrip() + b" " * rng.randint(1, 10)
            if rng.random() < 0.12:
                at = rng.randint(0, len(seg))
                seg = seg[:at] + rng.choice(_SEGMENT_ODDITY) + seg[at:]
            if rng.random() < 0.3:
                sgr = rng.choice([b"\x1b[1m", b"\x1b[32m", b"\x1b[0m", b"\x1b[44m", b"\x1b[7m", b"\x1b[m"])
                at = rng.randint(0, len(seg))
                seg = seg[:at] + sgr + seg[at:]
            out.append(seg)
            out.append(rng.choice([b"\r", b"\r", b"\r", b"\r\r", b"\x1b[K", b"\r\x1b[K", b"\r\x1b[2K",
                                   b"\x1b[2K\r", b"\x1b[0K", b"\x1b[44m\x1b[K", b"\r\x1b[44m\x1b[2K\x1b[m", b""]))
        out.append(rng.choice([b"\r\n", b"\n", b"\r\r\n", b"\r", b"", b"\r\n\r\n", b"\r\n", b"\n", b"\x1b[A\r"]))
    if rng.random() < 0.5:
        out.append(b"\r\n")
    return b"".join(out)


FAMILIES["cr_overlay"] = cr_overlay


def reach(rng: random.Random, columns: int, rows: int) -> bytes:
    """Lines (some wider than the screen, so they wrap), then the cursor sent up to about the screen's
    height (rows - 1, rows, rows + 1, and past wrapped rows) to overwrite or erase there: aimed at
    where the models freeze rows the cursor can no longer reach (session 13's row freezing)."""
    out = [b"\x1b[H\x1b[2J" if rng.random() < 0.4 else b""]
    heights = [rows - 2, rows - 1, rows, rows + 1, 23, 24, 25, 2 * rows]
    for _ in range(rng.randint(1, 3)):
        for i in range(rng.randint(1, max(2, rows + 4))):
            r = rng.random()
            if r < 0.15:
                line = word(rng, rng.choice([columns - 1, columns, columns + 1, 2 * columns + 3, 81]))
            elif r < 0.25:
                line = b""
            else:
                line = b"L%d " % i + word(rng)
            out.append(line + rng.choice([b"\r\n", b"\r\n", b"\n", b"\r\r\n"]))
        k = rng.choice(heights) + rng.randint(-1, 1)
        out.append(rng.choice([csi(f"{max(k, 0)}A"), csi(f"{max(k, 0)}F"), b"\x1bM" * max(k, 0),
                               csi(f"{max(k, 0)}A") + b"\r", b"\x1b[s" + b"\n" * 3 + b"\x1b[u"]))
        out.append(rng.choice([b"Z", b"\x1b[K", b"\x1b[2K", b"\x1b[1K", b"XY\x1b[K", b"\x1b[M", b"\x1b[L",
                               b"\x1b[" + str(rng.randint(1, columns + 2)).encode() + b"G!", b"\x1b[P"]))
        out.append(rng.choice([csi(f"{max(k, 0)}B"), csi(f"{max(k, 0)}E"), b"\n" * rng.randint(0, 3),
                               csi(f"{rows};1H"), b""]))
        out.append(rng.choice([b"\r\n", b"tail\r\n", b""]))
    return b"".join(out)


FAMILIES["reach"] = reach


def carried_state(rng: random.Random, columns: int, rows: int) -> bytes:
    """A first page (cleared and homed) that sets state outliving its break (a scroll region, origin
    mode, a saved cursor, tab stops, scrolled content) and writes a line; then pages that do what the
    models may leave undecided (IL/DL/ICH/DCH, rows pushed off, cursor moves past the region): where a
    cleaned page's state acts on a kept page, a candidate without it renders that page otherwise."""
    top = rng.randint(1, max(1, rows - 2))
    bottom = rng.randint(top + 1, rows)
    state = rng.choice([csi(f"{top};{bottom}r"), csi(f"{top};{bottom}r") + b"\x1b[?6h", b"\x1b[?6h",
                        csi(f"{top};{bottom}r") + b"\x1b[?6h\x1b[?6l", b"\x1b[5;3H\x1b7\x1b[H",
                        b"\x1b[5;3H\x1b[s\x1b[H",
                        b"\x1b[1;5H\x1bH\x1b[H", b"\x1b[3g", csi(f"{top};{bottom}r") + csi("r"), csi(f"{top}r")])
    out = [b"\x1b[H\x1b[2J", state, b"p0 " + word(rng) + b"\r\n"]
    for _ in range(rng.randint(1, 3)):
        out.append(rng.choice([b"\x1b[H\x1b[2J", b"\x1b[2J\x1b[H", b"\x1b[H\x1b[J", b"\x1b[3J\x1b[H\x1b[2J",
                               b"\x1b[?1049h\x1b[H\x1b[2J", b"\x1b[?1049l\x1b[H\x1b[2J", b"\x1bc"]))
        for i in range(rng.randint(1, rows + 3)):
            out.append(b"%c%d " % (rng.choice(b"ABCDEFGH"), i) + word(rng))
            if rng.random() < 0.2:
                out.append(rng.choice([csi(f"{rng.randint(1, rows + 1)};1H"), csi("L"), csi("M"), csi("2@"),
                                       csi("P"), b"\x1bM", csi(f"{rng.randint(1, 3)}A"), b"\t", b"\x1b[S",
                                       b"\x1b[T", b"\x1b8", b"\x1b[u", b"\x1b[H"]))
            out.append(rng.choice([b"\r\n", b"\r\n", b"\n"]))
        if rng.random() < 0.5:
            out.append(csi(f"{rng.randint(1, rows)};1H") + b"X" + rng.choice([csi("L"), csi("M"), b""]) + b"\r\n")
    return b"".join(out)


FAMILIES["carried_state"] = carried_state


# ---------------------------------------------------------------------------------------------------
# Session 14 (red team 3): the shapes both models now walk as strings (multi-row redraws, BS runs,
# overstrike, spinners, rows between SGR only, NUL beside removed sequences), then breaks around them.

# Characters that make a run's width arithmetic interesting: wide, ambiguous, combining, ZWJ
# sequences, tabs, one-cell symbols (box drawing, braille, arrows), C1 controls, NUL, DEL.
_ROW_ODDITY = ["\u4e2d", "\uff21", "\u00e9", "e\u0301", "\u00b7", "\u2500", "\u2801", "\u2192", "\u25cf",
               "\U0001f468\u200d\U0001f469", "\u2764\ufe0f", "\t", "\u200b", "\u00ad", "\u2026", "\u03b1",
               "\U0001f600", "\u2713", "\u2588", "\u2591", "\u28ff", "\u2190", "\u25b6", "\u00a0"]
_ROW_HOSTILE = ["\u0085", "\u009b", "\u0090", "\x00", "\x7f", "\x07", "\x0b", "\x0c", "\x1b", "\udc80"]
_EL = [b"\x1b[2K", b"\x1b[K", b"\x1b[0K", b"\x1b[1K", b"\r\x1b[2K", b"", b"\x1b[2K\r"]


def _row(rng: random.Random, columns: int, exotic: float) -> bytes:
    r = rng.random()
    if r < 0.15:
        n = rng.choice([columns, 80]) + rng.randint(-2, 1)
    elif r < 0.2:
        n = rng.choice([columns, 80]) + rng.randint(2, 12)
    else:
        n = rng.randint(0, 25)
    out = []
    for _ in range(max(0, n)):
        if rng.random() < exotic:
            hostile = rng.random() < 0.05
            out.append(rng.choice(_ROW_HOSTILE if hostile else _ROW_ODDITY).encode("utf-8", "surrogateescape"))
        else:
            out.append(bytes([rng.choice(b"abcdefghijklmnopqrstuvwxyz0123456789=>#%. /|")]))
    return b"".join(out)


def multirow(rng: random.Random, columns: int, rows: int) -> bytes:
    """Multi-row progress displays: k rows written, then frames of CUU n (or CPL, RI, n LF back) +
    EL 0/1/2 + rows; frames with fewer or more rows than the last, CUU past the top of what was
    written, rows at or past the margin, wide / ambiguous / combining / ZWJ / tab / C1 / NUL / DEL."""
    exotic = rng.choice([0.0, 0.0, 0.02, 0.1])
    out = [rng.choice([b"", b"log start\r\n", b"\x1b[H\x1b[2J", b"header\r\n\r\n"])]
    k = rng.randint(1, 6)
    for _ in range(k):
        out.append(_row(rng, columns, exotic) + rng.choice([b"\r\n", b"\n", b"\r\n", b"\x1b[K\r\n"]))
    for _ in range(rng.randint(1, 5)):
        up = k + rng.choice([0, 0, 0, 0, -1, 1, 2, rows])
        up = max(up, 0)
        out.append(rng.choice([csi(f"{up}A"), csi(f"{up}A") + b"\r", csi(f"{up}F"), b"\x1bM" * up, csi(f"{up}A")
                               if up else b"", b"\r" + csi(f"{up}A")]))
        el = rng.choice(_EL)
        new_k = max(1, k + rng.choice([0, 0, 0, -1, 1, -2]))
        for _i in range(new_k):
            sgr = rng.choice([b"", b"", b"\x1b[32m", b"\x1b[1;34m"])
            row = _row(rng, columns, exotic)
            end = rng.choice([b"\r\n", b"\r\n", b"\n", b"\x1b[K\r\n", b"\x1b[1B\r", b"\x1bE"])
            out.append(el + sgr + row + (b"\x1b[0m" if sgr else b"") + end)
        if rng.random() < 0.2:
            out.append(rng.choice([b"\x1b[J", b"\x1b[0J", b"\x1b[1J", b"\x1b[2K", b"\x1b[1M"]))
        k = new_k
    out.append(rng.choice([b"", b"done\r\n", b"\x1b[?25h", b"\r\n"]))
    return b"".join(out)


FAMILIES["multirow"] = multirow


def bs_runs(rng: random.Random, columns: int, rows: int) -> bytes:
    """Backspace runs: across column 0, across wide characters and combining marks, from a pending
    wrap at the margin, past column 80 at an unknown width; then CR, EL 0/1/2, ECH, overwrite, LF."""
    out = []
    exotic = rng.choice([0.0, 0.0, 0.1, 0.3])
    for _ in range(rng.randint(1, 5)):
        r = rng.random()
        if r < 0.25:
            n = rng.choice([columns, 80, 2 * columns]) + rng.randint(-2, 2)
        else:
            n = rng.randint(0, 20)
        out.append(b"".join(
            rng.choice(_ROW_ODDITY).encode() if rng.random() < exotic else bytes([rng.choice(b"abcdefgh0123456789")])
            for _ in range(max(0, n))))
        for _ in range(rng.randint(1, 3)):
            m = rng.choice([1, 2, 3, n // 2, n, n + 1, n + 3, columns, columns + 1, 81, 2 * columns])
            out.append(b"\b" * max(0, m))
            out.append(rng.choice([b"", b"X", b"YZ", b"\x1b[K", b"\x1b[1K", b"\x1b[2K", b"\x1b[3X", b"\r",
                                   b"\r\x1b[K", b"\x1b[32mG\x1b[m", "\u4e2d".encode(), b" ", b"\b", b"\x7f",
                                   b"\x00", b"\x1b[C", b"\x1b[D"]))
        out.append(rng.choice([b"\r\n", b"\n", b"", b"\r\n", b"\x1b[A\r", b"\r"]))
    if rng.random() < 0.6:
        out.append(b"\r\n")
    return b"".join(out)


FAMILIES["bs_runs"] = bs_runs


def overstrike(rng: random.Random, columns: int, rows: int) -> bytes:
    """man/nroff overstrike (``_\\bX`` underline, ``X\\bX`` bold) and spinners (``|\\b/\\b-``, also
    multi-cell and wide spinner frames), with SGR, CR, and frames that end shorter than the last."""
    out = []
    for _ in range(rng.randint(1, 6)):
        r = rng.random()
        if r < 0.4:  # overstruck words
            for _ in range(rng.randint(1, 6)):
                w = rng.choice([word(rng).decode(), "\u00e9t\u00e9", "\u4e2d\u6587", "\u2500\u2500", "a\u0301b"])
                style = rng.random()
                for c in w:
                    if style < 0.4:
                        out.append(f"_\b{c}".encode())
                    elif style < 0.8:
                        out.append(f"{c}\b{c}".encode())
                    else:
                        out.append(f"{c}\b_".encode() if rng.random() < 0.5 else f"{c}\b\b{c}".encode())
                out.append(b" ")
            out.append(rng.choice([b"\r\n", b"\n", b"\x1b[K\r\n"]))
        elif r < 0.8:  # spinner
            frames = rng.choice([["|", "/", "-", "\\"], ["\u280b", "\u2819", "\u2839"], ["..", "o.", ".o"],
                                 ["\u25d0", "\u25d3"], ["\u4e2d", "\u6587"], ["[=  ]", "[ = ]", "[  =]"]])
            out.append(b"working " + (b"\x1b[?25l" if rng.random() < 0.3 else b""))
            for i in range(rng.randint(1, 12)):
                f = frames[i % len(frames)]
                sgr = rng.random() < 0.3
                out.append((b"\x1b[36m" if sgr else b"") + f.encode() + (b"\x1b[m" if sgr else b""))
                back = len(f) if rng.random() < 0.8 else len(f) + rng.choice([-1, 1, 2])
                out.append(b"\b" * max(0, back))
            out.append(rng.choice([b"done\r\n", b" \r\n", b"\x1b[K\r\n", b"\r\n", b"\rfinished\x1b[K\r\n", b""]))
        else:  # counter redrawn by BS
            last = b""
            for i in range(rng.randint(1, 8)):
                s = str(rng.choice([i, 10 * i, 100 - i, 5])).encode() + b"%"
                out.append(b"\b" * len(last) + s)
                last = s
            out.append(rng.choice([b"\r\n", b"\n", b""]))
    return b"".join(out)


FAMILIES["overstrike"] = overstrike


_HIDDEN_IN_SGR_ROW = [b"\x1b]0;title\x07", b"\x1b]8;;http://x\x1b\\", b"\x1bP1$r0m\x1b\\", b"\x1b[1$p", b"\x1b[?25l",
                      b"\x1b[>4;1m", b"\x1b[=1c", b"\x1b[ q", b"\x1b[!p", b"\x1b[<1u", b"\x1b[4h", b"\x1b[?7l",
                      b"\x1b[?7h", b"\x1b(0", b"\x1b)0\x0e", b"\x0f", b"\x1b#8", b"\x1b[38:2:1:2:3m",
                      b"\x1b[38;5;300m", b"\x1b[" + b"1;" * 40 + b"m", b"\x1b[" + b"0" * 64 + b"m",
                      b"\x1bX sos \x1b\\", b"\x1b^pm\x07", b"\x1b_apc\x1b\\", b"\x00", b"\x7f", b"\x1b[m\x00",
                      b"\x00\x1b[m", b"\x1b\x00[m", "\u009b31m".encode(), "\u009d0;t\u009c".encode(),
                      b"\x1b[3", b"\x1b]", b"\x1bP", b"\x1b[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17m",
                      b"\x1b[0\x00m", b"\x1b[3\x7f1m", b"\x1b[1\x1b[m", b"\x1b[?1049h", b"\x1b[2J", b"\x1b[5n",
                      b"\x1b[6n", b"\x1b[c", b"\x1b[18t", b"\x1b[3;3H", b"\x1b[10b"]


def sgr_rows(rng: random.Random, columns: int, rows: int) -> bytes:
    """Rows of text between SGR only (the cleaner's no-scan path), now and then with another sequence
    hidden among the SGR: OSC, DCS, SOS/PM/APC, CSI with intermediates or private markers, a 64+ byte
    parameter string, C1 CSI/OSC, truncated sequences, NUL and DEL inside or beside a sequence."""
    out = []
    for _ in range(rng.randint(1, 12)):
        parts = []
        for _ in range(rng.randint(1, 6)):
            parts.append(rng.choice([b"\x1b[1m", b"\x1b[31m", b"\x1b[0m", b"\x1b[m", b"\x1b[38;5;208m",
                                     b"\x1b[1;4;32m", b"\x1b[22m"]))
            parts.append(_row(rng, columns, rng.choice([0.0, 0.1])))
            if rng.random() < 0.05:
                parts.insert(rng.randrange(len(parts) + 1), rng.choice(_HIDDEN_IN_SGR_ROW))
        out.append(b"".join(parts) + rng.choice([b"\r\n", b"\n", b"\x1b[m\r\n", b"\r\r\n", b"\x1b[K\r\n"]))
    return b"".join(out)


FAMILIES["sgr_rows"] = sgr_rows


def nul_marks(rng: random.Random, columns: int, rows: int) -> bytes:
    """NUL (and C1 / invalid bytes) in the input next to sequences the cleaner removes (it marks
    removals with NUL): NUL before / after / between SGR, inside a CR-redrawn row, after EL, at a line's
    end, NUL runs; the same with U+0080-U+009F and lone invalid bytes."""
    out = []
    odd = [b"\x00", b"\x00\x00", b"\x00" * 5, "\u0080".encode(), "\u009b".encode(), b"\x80", b"\xff", b"\xc2",
           b"\x1b\x00", b"\x00\x1b[m", b"\x7f"]
    for _ in range(rng.randint(1, 8)):
        seq = []
        for _ in range(rng.randint(1, 6)):
            seq.append(rng.choice([b"\x1b[32m", b"\x1b[m", b"\x1b[K", b"\r", b"\x1b[2K", b"\b", b"\x1b[1A",
                                   b"\x1b]0;t\x07", b"\x1b[?25l", b""]))
            if rng.random() < 0.12:
                seq.append(rng.choice(odd))
            seq.append(word(rng) if rng.random() < 0.8 else b"")
        out.append(b"".join(seq) + rng.choice([b"\r\n", b"\x00\r\n", b"\r\x00\n", b"\n", b"\r\n\x00"]))
    return b"".join(out)


FAMILIES["nul_marks"] = nul_marks


_BREAKS = [b"\x1b[H\x1b[2J", b"\x1b[2J\x1b[H", b"\x1b[3J\x1b[H\x1b[2J", b"\x1b[H\x1b[2J\x1b[3J", b"\x1b[3J",
           b"\x1b[H\x1b[J", b"\x1b[2J", b"\x1b[3J\x1b[2J", b"\x1b[3J\x1b[H\x1b[J", b"\x1b[3J\x1b[1;1H\x1b[2J",
           b"\x1b[3J\x1b[H\x1b[0J", b"\x1b[3J\x1b[f\x1b[2J", b"\x1b[3J\x1b[H\x1b[2J\x1b[3J", b"\x1b[3;J",
           b"\x1b[?1049h\x1b[H\x1b[2J", b"\x1b[?1049l", b"\x1b[?47h", b"\x1b[?47l", b"\x1b[?1047h", b"\x1b[?1047l",
           b"\x1bc", b"\x1b[3J\x1bc", b"\x1b[3J\x1b[?1049h", b"\x1b[H\x1b[3J\x1b[2J", b"\x1b[3J\x1b[H"]


def broken_sessions(rng: random.Random, columns: int, rows: int) -> bytes:
    """Sessions: the string-path shapes above (multi-row, BS runs, overstrike, SGR rows, NUL marks) with
    page breaks around and between them (every clear variant incl. ED 3 before/after home + ED 2, the
    alternate screen in/out, RIS), sometimes a page left undecided (IL/DL, a row pushed off)."""
    shapes = [multirow, bs_runs, overstrike, sgr_rows, nul_marks, cr_overlay]
    out = []
    for _ in range(rng.randint(2, 5)):
        if rng.random() < 0.75:
            out.append(rng.choice(_BREAKS))
        if rng.random() < 0.15:
            out.append(rng.choice([csi("L"), csi("M"), csi(f"{rows};1H") + b"\n\n", csi("2;5r"), b"\x1b7",
                                   b"\x1b8", csi("?6h")]))
        out.append(rng.choice(shapes)(rng, columns, rows))
    return b"".join(out)


FAMILIES["broken_sessions"] = broken_sessions


_ED3_NEAR = [b"\x1b[3J\x1b[H\x1b[2J", b"\x1b[3J\x1b[2J", b"\x1b[3J\x1b[H\x1b[J", b"\x1b[3J\x1b[1;1H\x1b[2J",
             b"\x1b[3J\x1b[f\x1b[2J", b"\x1b[3J\x1b[m\x1b[H\x1b[2J", b"\x1b[3J\x1b[H\x1b[?25l\x1b[2J",
             b"\x1b[3J\x1b[H\x1b[1J", b"\x1b[3J\x1b[H\x1b[2J\x1b[3J", b"\x1b[3J\x1b[H", b"\x1b[3J\x1b[3J\x1b[H\x1b[2J",
             b"\x1b[3J\x1b[H\x1b[0;2J", b"\x1b[3J\x1b[1;2H\x1b[2J", b"\x1b[3J\x1b[2;1H\x1b[2J", b"\x1b[3J\r\x1b[2J",
             b"\x1b[3J\x1b[H\x1b[2J\x1b[H", b"\x1b[3J\x1b[H\x1b[22J", b"\x1b[3J\x1b[H\x1b[?2J",
             b"\x1b[3J\x1b7\x1b[H\x1b[2J",
             b"\x1b[3J\x1b[H\x1bM\x1b[2J", b"\x1b[3J\x1b[A\x1b[2J", b"\x1b[3J\x1b[H\x1b[2J\x1b[?1049h", b"\x1b[3J\x1bc"]
_UNDECIDED = [b"\x1b[L", b"\x1b[M", b"\x1b[2;1H\x1b[L", b"\x1b[S", b"\x1b[T", b"\x1bM", b"\x1b[5;1H\x1b[M",
              b"\x1b[2;4r", b"\x1b[2;4r\x1b[?6h", b"\x1b7", b"\x1b[s", b"\x1b[3@", b"\x1b[2P"]


def ed3_neighbours(rng: random.Random, columns: int, rows: int) -> bytes:
    """ED 3 next to home + ED 2 and its neighbours (ED 2 without home, ED 0/1 at home, home by HVP or
    CUP 1;1, SGR or DECTCEM between, another ED 3 after, a CUP not home, RIS), after a page the models
    may leave undecided (IL/DL, SU/SD, RI at the top, a region, origin mode, a saved cursor, rows pushed
    off), then a page of writes relative to home (CUP, CUU, EL, RI, restores, text) and the string-path
    shapes (multi-row redraws, BS runs)."""
    out = [rng.choice([b"", b"\x1b[H\x1b[2J", b"start\r\n\x1b[?1049h"])]
    for _ in range(rng.randint(1, 3)):
        for i in range(rng.randint(1, rows + 3)):
            out.append(b"\x1b[3%dm%c%d \x1b[m" % (i % 8, rng.choice(b"PQRS"), i) + word(rng))
            if rng.random() < 0.08:
                out.append(rng.choice(_UNDECIDED))
            out.append(rng.choice([b"\r\n", b"\r\n", b"\n"]))
        out.append(rng.choice(_ED3_NEAR))
        r = rng.random()
        if r < 0.4:
            for _ in range(rng.randint(1, 4)):
                out.append(rng.choice([b"", csi(f"{rng.randint(1, rows)};{rng.randint(1, 5)}H"), csi("A"), csi("K"),
                                       csi("2K"), b"\x1bM", b"\x1b8", b"\x1b[u", csi("?6l"), csi("r"), b"\r"]))
                out.append(word(rng) + rng.choice([b"", b"\r\n"]))
        elif r < 0.7:
            out.append(multirow(rng, columns, rows))
        else:
            out.append(bs_runs(rng, columns, rows))
    return b"".join(out)


FAMILIES["ed3_neighbours"] = ed3_neighbours


_SPARSE_BENIGN = [b"\x1b[32mok\x1b[0m line\r\n", b"\r[===   ] 30%", b"\r\x1b[2K[=====] 50%", b"\x1b[2A\x1b[2Krow\r\n",
                  b"abc\b\b\bxyz", b"_\bu_\bn", b"|\b/\b-\b", b"plain words here\r\n", b"\x1b[1;34mbold\x1b[m ",
                  b"\x1b]0;title\x07", b"\x1b[?25l", b"\r\n", b"\x1b[1A\r\x1b[Kredo\r\n"]
_SPARSE_HOSTILE = [b"\x00", b"\x80", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xc2\x9b", b"\xc2\x85", b"\x1b\x00",
                   b"\x1b[\x00m", b"\x7f", b"\x07", b"\x18", b"\x1a", b"\b" * 9, b"\x1b[3J", b"\x1b[H\x1b[2J", b"\t",
                   b"\xe4\xb8\xad", b"e\xcc\x81", b"\x1b[" + b"0" * 64 + b"K", b"\x1b]8;;\x00\x07", b"\x1b[2;1H"]


def hostile_sparse(rng: random.Random, columns: int, rows: int) -> bytes:
    """Progress output (CR, EL, CUU, BS runs, overstrike, spinners, SGR, OSC) with a hostile unit now
    and then: NUL, DEL, C1 (U+0085, U+009B), invalid UTF-8, CAN/SUB, ESC NUL, a 64-byte CSI, clears."""
    return b"".join(rng.choice(_SPARSE_HOSTILE) if rng.random() < 0.04 else rng.choice(_SPARSE_BENIGN)
                    for _ in range(rng.randint(2, 80)))


FAMILIES["hostile_sparse"] = hostile_sparse


# ---------------------------------------------------------------------------------------------------
# Disputes at the pending-wrap position (issue 22): a row written to exactly the width leaves the cursor
# where terminals disagree (its column, whether the next character wraps); a move or erase there, then
# something that settles it (every terminal in the same state) or reads it.

# The control written while the wrap is pending (the dispute) and what comes next.
_DISPUTES = {
    "CUU": lambda rng, k: csi(f"{rng.choice(['', '1', str(max(k - 1, 1)), str(k)])}A"),
    "CUD": lambda rng, k: csi(f"{rng.choice(['', '1', '2'])}B"),
    "BS": lambda rng, k: b"\b" * rng.choice([1, 1, 2, 5]),
    "HT": lambda rng, k: b"\t" * rng.choice([1, 2]),
    "EL": lambda rng, k: csi(rng.choice(["K", "0K", "1K", "2K"])),
    "CUF": lambda rng, k: csi(f"{rng.choice(['', '1', '3'])}C"),
    "CUB": lambda rng, k: csi(f"{rng.choice(['', '1', '3', '200'])}D"),
}
_SETTLES = {
    "CR": lambda rng, c, r: b"\r",
    "CUP": lambda rng, c, r: csi(f"{rng.randint(1, r)};{rng.choice([1, 1, 2, c // 2, c, c + 5])}H"),
    "CHA": lambda rng, c, r: csi(f"{rng.choice([1, 1, 3, c])}G"),
    "HPA": lambda rng, c, r: csi(f"{rng.choice([1, 4, c])}`"),
    "ED2": lambda rng, c, r: rng.choice([b"\x1b[H\x1b[2J", b"\x1b[2J\x1b[H", b"\x1b[2J"]),
}
_READS = {
    "text": lambda rng, c, r: word(rng, rng.choice([1, 1, 3, 8])),
    "CUF": lambda rng, c, r: csi(f"{rng.choice(['', '2'])}C") + word(rng, 2),
    "CUB": lambda rng, c, r: csi(f"{rng.choice(['', '2'])}D") + word(rng, 2),
    "EL0": lambda rng, c, r: csi("K"),
    "EL1": lambda rng, c, r: csi("1K"),
    "end": lambda rng, c, r: b"",
}


def _full_row(rng: random.Random, columns: int, index: int) -> bytes:
    """A progress row of exactly ``columns`` cells: label, bar, padding to the width (uv, indicatif,
    tqdm with ncols, rich expanded); sometimes coloured, sometimes ending in a wide character that fills
    the last two cells, sometimes one cell short (no dispute: the near miss)."""
    label = b"pkg-%d " % index
    tail = rng.choice([b" 3.2 MiB/16 MiB", b" 12/48", b"", b" eta 0:00:01"])
    room = max(columns - len(label) - len(tail), 0)
    done = rng.randint(0, room)
    bar_char = rng.choice(["=", "#", "\u2501", "\u2588"]).encode()
    row = label + bar_char * done + b" " * (room - done) + tail
    shape = rng.random()
    if shape < 0.1 and columns >= 4:  # the last two cells a wide character
        row = row[: len(label)] + b"-" * (columns - len(label) - 2) + "\u4e2d".encode()
    elif shape < 0.18:  # one cell short of the margin
        row = row.decode()[:-1].encode()
    if rng.random() < 0.3:
        row = b"\x1b[2m" + row + b"\x1b[0m"
    return row


def pending_wrap(rng: random.Random, columns: int, rows: int) -> bytes:
    """Multi-bar progress whose rows fill the width exactly (joined by autowrap or by CR LF), then at
    the pending-wrap position a dispute (CUU / CUD / BS / HT / EL / CUF / CUB), then what settles it
    (CR, CUP with both coordinates, CHA, HPA, a page break) or reads it (a character, CUF / CUB, EL 0 /
    1, the end of the text); frames repeated, as uv, pip, cargo and tqdm redraw."""
    out = [rng.choice([b"", b"$ uv pip install numpy pandas\r\n", b"Resolved 5 packages\r\n"])]
    k = rng.choice([1, 2, 2, 3, 4])
    joiner = rng.choice([b"", b"", b"\r\n"])
    end: bytes = b""
    for frame in range(rng.randint(1, 4)):
        out.append(joiner.join(_full_row(rng, columns, i) for i in range(k)))
        if frame and rng.random() < 0.2:
            break
        dispute = _DISPUTES[rng.choice(list(_DISPUTES))](rng, k)
        if rng.random() < 0.6:
            follow = _SETTLES[rng.choice(list(_SETTLES))](rng, columns, rows)
        else:
            follow = _READS[rng.choice(list(_READS))](rng, columns, rows)
        out.append(dispute + follow)
        if not follow:  # the end of the text reads the dispute
            return b"".join(out)
        out.append(rng.choice([b"\x1b[2K", b"", b"\r\x1b[2K", b"\x1b[J"]))
        if rng.random() < 0.5 and k > 1:  # back to the top of the display, as uv does after its CUU
            out.append(b"\r" + csi(f"{k - 1}A"))
        end = rng.choice([b"done\r\n", b"\r\n", b"", b"\x1b[?25h"])
    out.append(end)
    return b"".join(out)


FAMILIES["pending_wrap"] = pending_wrap


# Issue 23: pages kept after cleaned ones (ED 3 / RIS at the break), text after BEL-ended strings, sizes at
# the edges.

# A page the models cannot resolve, so the gate keeps its raw bytes after the cleaned page before it.
_KEPT_PAGE = [b"x\x1b[5ay", b"x\x1b[5ay\r\n", b"x\x1b[2;1H\x1b[Ly\r\n", b"x\x1b[?1048hy\r\n", b"x\x1b[3eY\r\n"]
_ED3_OR_RIS = [b"\x1b[3J\x1b[H\x1b[2J", b"\x1bc", b"\x1b[3J\x1bc", b"\x1b[3J\x1b[2J\x1b[H", b"\x1b[3J\x1b[H\x1b[J"]
KEPT_AFTER_CLEANED_SIZES = [(columns, rows) for rows in (2, 3, 5, 10, 24, 40) for columns in (2, 10, 80)]


def kept_after_cleaned(rng: random.Random, columns: int, rows: int) -> bytes:
    """A cleaned page (SGR to remove, rows up to the bottom screen row, the last one without a line end,
    as in issue 23's ``ESC[1mA ESC[m LF B``), then a break that begins with ED 3 or RIS and a page the
    gate keeps raw: a line end the cleaned page gains scrolls its top row into the history ED 3 erases."""
    out = [rng.choice([b"", b"\x1b[H\x1b[2J"])]
    count = rng.choice([rows - 1, rows, rows + 1, max(1, rows // 2), 1])
    for i in range(max(1, count)):
        if i:
            out.append(rng.choice([b"\n", b"\r\n"]))
        out.append(b"\x1b[1m%c\x1b[m" % rng.choice(b"ABCDEFGH") + word(rng, rng.randint(0, min(columns, 6))))
    if rng.random() < 0.2:
        out.append(rng.choice([b"\r\n", b"\n"]))
    out.append(rng.choice(_ED3_OR_RIS))
    out.append(rng.choice(_KEPT_PAGE))
    return b"".join(out)


FAMILIES["kept_after_cleaned"] = kept_after_cleaned

_BEL_STRING_OPENERS = [b"\x1b_", b"\x1bP", b"\x1bX", b"\x1b^", b"\x1b]0;", b"\x1b_bk;t=", b"\x1bP1$r"]
_AFTER_BEL = [b"\t", b" =0", b"CD", b"\r", b"\rX", b"\x1b[K", b"\x1b[2K", b"\b", b"\x1b[A", b"\r\n", b"\n",
              b"\x1b[1m", b"\x1b[m", b"\x1b\\", b"\x1b[3C", b"step 1", b"\x1b[H", b"\x07"]


def bel_strings(rng: random.Random, columns: int, rows: int) -> bytes:
    """Text before and after strings ended by BEL (APC, DCS, SOS, PM, OSC): tabs, words, redraws and line
    ends before the next ESC, sometimes an ST later (``AB ESC _ x BEL TAB CD ESC \\ LF``), Buildkite-style
    timestamps on every line, lines past the width."""
    out = []
    for _ in range(rng.randint(1, 6)):
        if rng.random() < 0.5:
            out.append(word(rng, rng.choice([rng.randint(1, 8), columns + rng.randint(-2, 5)])))
        out.append(rng.choice(_BEL_STRING_OPENERS) + word(rng, rng.randint(0, 6)) + b"\x07")
        for _ in range(rng.randint(0, 4)):
            out.append(rng.choice(_AFTER_BEL))
            if rng.random() < 0.5:
                out.append(word(rng, rng.randint(1, 6)))
        if rng.random() < 0.3:
            out.append(b"\x1b\\")
        out.append(rng.choice([b"\r\n", b"\n", b"", b"\x1b[m\r\n"]))
    return b"".join(out)


FAMILIES["bel_strings"] = bel_strings

EDGE_SIZES = [(2, 24), (2, 2), (80, 2), (500, 24), (500, 2), (80, 10000), (2, 10000), (500, 10000)]
_EDGE_SHAPES = ["redraws_ascii", "long_lines", "cr_overlay", "sessions", "reach", "multirow", "tall_progress"]


def edge_sizes(rng: random.Random, columns: int, rows: int) -> bytes:
    """Other families' shapes at the sizes at the edges (2 columns, 2 rows, 500 columns, 10,000 rows),
    with moves aimed at the far row and column (``CUP 9999;1``, ``CUD 10000``, ``CHA 500``)."""
    out = [FAMILIES[rng.choice(_EDGE_SHAPES)](rng, columns, rows)]
    if rng.random() < 0.5:
        far = rng.choice([csi(f"{rows};1H"), csi(f"{rows - 1};1H"), csi(f"{rows}B"), csi(f"{columns}G"),
                          csi(f"{rows};{columns}H"), b"\x1b[H\x1b[2J"])
        out.append(far + word(rng, rng.randint(1, 5)) + rng.choice([b"\r\n", b"\ry\r\n", b""]))
    return b"".join(out)


FAMILIES["edge_sizes"] = edge_sizes

#: Families written for particular sizes (the others are drawn at :data:`SIZES`).
FAMILY_SIZES: dict[str, list[tuple[int, int]]] = {
    "kept_after_cleaned": KEPT_AFTER_CLEANED_SIZES,
    "edge_sizes": EDGE_SIZES,
}

# ---------------------------------------------------------------------------------------------------
# The three displays (issue 28): each family is run written for no terminal, for a terminal of unknown
# size, and for a terminal of a given size.

NO_TERMINAL, UNKNOWN_SIZE, SIZED = "no-terminal", "unknown", "sized"
DISPLAYS = (NO_TERMINAL, UNKNOWN_SIZE, SIZED)
#: Widths the generators aim at where the display has none (no terminal, unknown size): past 80.
WIDE_SIZES = [(100, 24), (132, 40), (200, 50), (300, 30)]


def widen(rng: random.Random, data: bytes, columns: int) -> bytes:
    """``data`` with a line that reaches past ``columns`` (and past 80) put in at a line start: plain words,
    sometimes a CR frame over it or a shorter frame after it, as progress lines are."""
    width = max(columns, 80) + rng.randint(1, max(columns, 80))
    line = word(rng, width)
    tail = rng.choice([b"\r\n", b"\r" + word(rng, rng.randint(1, width)) + b"\r\n",
                       b"\r\x1b[K" + word(rng, 10) + b"\r\n", b"\x1b[2D!\r\n", b""])
    starts = [0] + [i + 1 for i in range(len(data)) if data[i] in b"\n"]
    at = rng.choice(starts)
    return data[:at] + line + tail + data[at:]


def generate(family: str, rng: random.Random, display: str) -> tuple[bytes, int | None, int | None]:
    """A stream of ``family`` written for ``display``: (bytes, columns, rows), the size None where the
    display has none. Lines reach past 80 and past the width the generator aimed at."""
    sizes = FAMILY_SIZES.get(family, SIZES) if display == SIZED else WIDE_SIZES
    columns, rows = rng.choice(sizes)
    raw = FAMILIES[family](rng, columns, rows)
    if rng.random() < 0.5 and columns <= 2000:
        raw = widen(rng, raw, columns)
    if display == SIZED:
        return raw, columns, rows
    return raw, None, None
