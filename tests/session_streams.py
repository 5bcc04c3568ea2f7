"""Generated whole sessions for the tmux differential test: seeded, so every run feeds the same
streams, built from what real sessions do (clears, absolute positioning, scroll regions, origin
mode, the alternate screen, line editing, autowrap at the right margin, cursor-up redraws)."""

from __future__ import annotations

import random

SIZES = ((80, 24), (120, 40), (40, 10), (200, 50))
WORDS = "build test ok error warning fetch layer done passed failed step unpack é ━━ [##..] 42%".split()

CLEARS = [
    "\x1b[H\x1b[2J",  # clear without ED 3
    "\x1b[H\x1b[2J\x1b[3J",  # clear(1)
    "\x1b[2J",  # ED 2 where the cursor is
    "\x1b[H\x1b[J",  # ED 0 from home
    "\x1b[J",  # ED 0 wherever the cursor is
    "\x1b[1J",
    "\x1b[3J",
    "\x1bc",  # RIS
    "\x1b[?3h",  # DECCOLM clears
]
ALTERNATE = ["1049", "47", "1047"]


def _text(rng: random.Random, columns: int) -> str:
    """A line's text: mostly short, sometimes exactly the width (a pending wrap) or longer (wraps)."""
    kind = rng.random()
    if kind < 0.15:
        return ("x" * columns)[: columns - rng.choice([0, 0, 1])]
    if kind < 0.25:
        return " ".join(rng.choice(WORDS) for _ in range(columns // 3))
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6)))


def _piece(rng: random.Random, columns: int, rows: int) -> str:
    row = lambda: rng.randint(1, rows + 2)  # noqa: E731 (past the bottom now and then)
    col = lambda: rng.randint(1, columns + 2)  # noqa: E731
    n = lambda: rng.choice([1, 1, 2, 3, rows // 2, rows + 1])  # noqa: E731
    kind = rng.randrange(22)
    if kind < 6:
        return _text(rng, columns) + rng.choice(["\r\n", "\n", "\n", ""])
    if kind == 6:
        return rng.choice(CLEARS)
    if kind == 7:
        final = rng.choice("HfH")
        return f"\x1b[{row()};{col()}{final}" + _text(rng, columns)
    if kind == 8:
        return f"\x1b[{row()}d" + _text(rng, columns)  # VPA
    if kind == 9:
        return f"\x1b[{col()}{rng.choice('G`')}" + _text(rng, columns)  # CHA, HPA
    if kind == 10:  # a region, lines scrolling through it, then back to the whole screen
        top = rng.randint(1, rows - 1)
        bottom = rng.randint(top + 1, rows)
        body = "".join(_text(rng, columns) + "\n" for _ in range(rng.randint(1, bottom - top + 3)))
        reset = rng.choice(["\x1b[r", "\x1b[0;0r", f"\x1b[1;{rows}r", ""])
        return f"\x1b[{top};{bottom}r\x1b[{bottom};1H" + body + reset
    if kind == 11:  # IND / RI / LF at the margins of a region
        top = rng.randint(1, rows - 1)
        bottom = rng.randint(top + 1, rows)
        moves = "".join(rng.choice(["\x1bD", "\x1bM", "\n", "\x1bE"]) + rng.choice(WORDS) for _ in range(6))
        start = rng.choice([top, bottom, row()])
        return f"\x1b[{top};{bottom}r\x1b[{start};1H" + moves + rng.choice(["\x1b[r", ""])
    if kind == 12:  # origin mode
        top = rng.randint(1, rows - 1)
        bottom = rng.randint(top + 1, rows)
        return (
            f"\x1b[{top};{bottom}r\x1b[?6h\x1b[{row()};{col()}H" + _text(rng, columns)
            + f"\x1b[{row()}d" + rng.choice(WORDS) + "\n" * rng.randint(0, 3) + "\x1b[?6l"
        )  # fmt: skip
    if kind == 13:
        return f"\x1b[{n()}{rng.choice('LM')}" + rng.choice(["", _text(rng, columns)])  # IL / DL
    if kind == 14:
        return f"\x1b[{n()}{rng.choice('@PX')}" + rng.choice(["", rng.choice(WORDS)])  # ICH / DCH / ECH
    if kind == 15:
        return rng.choice(WORDS) + f"\x1b[{rng.randint(1, columns + 5)}b"  # REP
    if kind == 16:
        return f"\x1b[{n()}{rng.choice('ST')}"  # SU / SD
    if kind == 17:  # a full-screen program: alternate screen, positioned frames, leave (or not)
        mode = rng.choice(ALTERNATE)
        frames = "".join(
            f"\x1b[{row()};1H" + _text(rng, columns) + rng.choice(["\x1b[K", "\r\n", ""]) for _ in range(5)
        )
        leave = f"\x1b[?{mode}l" if rng.random() < 0.85 else ""
        return f"\x1b[?{mode}h" + rng.choice(["\x1b[H\x1b[2J", ""]) + frames + leave
    if kind == 18:
        return rng.choice(["\x1b7", "\x1b8", "\x1b[s", "\x1b[u", "\x1b[?1048h", "\x1b[?1048l"])
    if kind == 19:  # a multi-row redraw: up, rewrite
        up = rng.choice([1, 2, rows - 1, rows + 3])
        return f"\x1b[{up}A\r" + "".join(_text(rng, columns) + "\x1b[K\n" for _ in range(min(up, 4)))
    if kind == 20:
        return "\r" + _text(rng, columns) + rng.choice(["\x1b[K", "\x1b[2K", "\x1b[1K", ""])
    return rng.choice(["\x1b[?7l", "\x1b[?7h", "\b\b", "\t", f"\x1b[{n()}B"])


def session(seed: int, columns: int, rows: int) -> str:
    rng = random.Random(seed)
    start = rng.choice(["", "$ clear\r\n", "$ make\r\n"])
    pieces = [_piece(rng, columns, rows) for _ in range(rng.randint(20, 60))]
    end = rng.choice(["", "\x1b[?7h\x1b[4l\x1b[r$ exit\r\n"])
    return start + "".join(pieces) + end


def sessions(per_size: int) -> list[tuple[str, int, int]]:
    """``per_size`` sessions at each of :data:`SIZES`: ``(text, columns, rows)``."""
    return [
        (session(1000 * index + size, columns, rows), columns, rows)
        for size, (columns, rows) in enumerate(SIZES)
        for index in range(per_size)
    ]
