"""Red-team families of session 22 (disputes as a state, the three displays, fresh terminals, pages),
run by fuzz/red22.py through the live-tmux judge (tests/tmux_judge.py)."""

from __future__ import annotations

import random

from tests.tmux_families import csi, word


def _n(rng: random.Random) -> str:
    return rng.choice(["", "1", "2", "3", "0"])


# A control written while the wrap is pending (it creates, carries or reads the dispute).
DISPUTE_OPS = {
    "CUU": lambda rng, c, r: csi(f"{_n(rng)}A"),
    "CUD": lambda rng, c, r: csi(f"{_n(rng)}B"),
    "VPA": lambda rng, c, r: csi(f"{rng.randint(1, r)}d"),
    "RI": lambda rng, c, r: b"\x1bM",
    "IND": lambda rng, c, r: b"\x1bD",
    "BS": lambda rng, c, r: b"\b" * rng.choice([1, 1, 2]),
    "HT": lambda rng, c, r: b"\t",
    "CUB": lambda rng, c, r: csi(f"{_n(rng)}D"),
    "CUF": lambda rng, c, r: csi(f"{_n(rng)}C"),
    "EL0": lambda rng, c, r: csi("K"),
    "EL1": lambda rng, c, r: csi("1K"),
    "EL2": lambda rng, c, r: csi("2K"),
    "ED0": lambda rng, c, r: csi("J"),
    "ED1": lambda rng, c, r: csi("1J"),
    "ECH": lambda rng, c, r: csi(f"{_n(rng)}X"),
    "ICH": lambda rng, c, r: csi(f"{_n(rng)}@"),
    "DCH": lambda rng, c, r: csi(f"{_n(rng)}P"),
    "IL": lambda rng, c, r: csi(f"{_n(rng)}L"),
    "DL": lambda rng, c, r: csi(f"{_n(rng)}M"),
    "SU": lambda rng, c, r: csi(f"{_n(rng)}S"),
    "SD": lambda rng, c, r: csi(f"{_n(rng)}T"),
    "DECSC": lambda rng, c, r: b"\x1b7",
    "DECRC": lambda rng, c, r: b"\x1b8",
    "SCOSC": lambda rng, c, r: csi("s"),
    "SCORC": lambda rng, c, r: csi("u"),
    "SGR": lambda rng, c, r: rng.choice([csi("m"), csi("1;32m"), csi("0m"), csi("7m")]),
    "REP": lambda rng, c, r: csi(f"{_n(rng)}b"),
    "combining": lambda rng, c, r: "\u0301".encode(),
    "ZWJ": lambda rng, c, r: "\u200d".encode(),
    "DECAWM": lambda rng, c, r: rng.choice([b"\x1b[?7l", b"\x1b[?7h"]),
    "OSC": lambda rng, c, r: b"\x1b]0;title\x07",
    "CUU-CUD": lambda rng, c, r: csi("A") + csi("B"),
}
SETTLE_OPS = {
    "CR": lambda rng, c, r: b"\r",
    "LF": lambda rng, c, r: b"\n",
    "CRLF": lambda rng, c, r: b"\r\n",
    "NEL": lambda rng, c, r: b"\x1bE",
    "CNL": lambda rng, c, r: csi(f"{_n(rng)}E"),
    "CPL": lambda rng, c, r: csi(f"{_n(rng)}F"),
    "CHA": lambda rng, c, r: csi(f"{rng.choice(['', '1', '3', str(c), str(c - 1)])}G"),
    "HPA": lambda rng, c, r: csi(f"{rng.choice(['', '1', '4', str(c)])}`"),
    "CUP": lambda rng, c, r: csi(f"{rng.randint(1, r)};{rng.choice([1, 2, c // 2, c])}H"),
    "HVP": lambda rng, c, r: csi(f"{rng.randint(1, r)};{rng.choice([1, 2, c])}f"),
    "CUPhome": lambda rng, c, r: csi("H"),
    "page": lambda rng, c, r: rng.choice([b"\x1b[H\x1b[2J", b"\x1b[2J\x1b[H", b"\x1b[3J\x1b[H\x1b[2J"]),
    "RIS": lambda rng, c, r: b"\x1bc",
    "FF": lambda rng, c, r: b"\x0c",
    "VT": lambda rng, c, r: b"\x0b",
}
READ_OPS = {
    "text": lambda rng, c, r: word(rng, rng.choice([1, 3, 8])),
    "wide": lambda rng, c, r: "\u4e2d".encode(),
    "CUF": lambda rng, c, r: csi(f"{rng.choice(['', '2'])}C") + word(rng, 2),
    "CUB": lambda rng, c, r: csi(f"{rng.choice(['', '2'])}D") + word(rng, 2),
    "EL0": lambda rng, c, r: csi("K"),
    "EL1": lambda rng, c, r: csi("1K"),
    "tab": lambda rng, c, r: b"\tX",
    "end": lambda rng, c, r: b"",
}


def full_row(rng: random.Random, columns: int, index: int) -> bytes:
    """A row of exactly ``columns`` cells: bars, a wide character in the last two cells, a combining
    mark on the last cell, SGR around, REP to fill it."""
    label = b"bar%d " % index
    shape = rng.random() if rng.random() < 0.4 else 1.0
    if shape < 0.15 and columns >= 6:
        return label + b"=" * (columns - len(label) - 2) + "\u4e2d".encode()
    if shape < 0.25:
        return label + b"#" * (columns - len(label) - 1) + "e\u0301".encode()
    if shape < 0.35 and columns > len(label) + 2:
        return label + b"-" + csi(f"{columns - len(label) - 1}b")
    if shape < 0.5:
        return b"\x1b[32m" + label + "\u2501".encode() * (columns - len(label)) + b"\x1b[0m"
    fill = columns - len(label)
    done = rng.randint(0, fill)
    return label + b"#" * done + b" " * (fill - done)


def dispute(rng: random.Random, columns: int, rows: int) -> bytes:
    """Rows filled to exactly the width, then one to three controls at the pending-wrap column, then
    something that settles or reads; frames repeated."""
    out = [rng.choice([b"", b"$ run\r\n", b"\x1b[H\x1b[2J", b"log line\r\n" * rng.randint(1, 3)])]
    k = rng.choice([1, 1, 2, 3])
    for _ in range(rng.randint(1, 3)):
        out.append(rng.choice([b"", b"\r\n"]).join(full_row(rng, columns, i) for i in range(k)))
        for _ in range(rng.choice([1, 1, 2, 3])):
            out.append(DISPUTE_OPS[rng.choice(list(DISPUTE_OPS))](rng, columns, rows))
        if rng.random() < 0.6:
            out.append(SETTLE_OPS[rng.choice(list(SETTLE_OPS))](rng, columns, rows))
            if rng.random() < 0.5:
                out.append(word(rng, rng.randint(1, 6)))
        else:
            follow = READ_OPS[rng.choice(list(READ_OPS))](rng, columns, rows)
            out.append(follow)
            if not follow:
                return b"".join(out)
        out.append(rng.choice([b"\r\x1b[2K", b"", b"\r\n", b"\x1b[J", b"\r" + csi(f"{max(k - 1, 1)}A")]))
    out.append(rng.choice([b"done\r\n", b"\r\n", b""]))
    return b"".join(out)


def progress(rng: random.Random, columns: int, rows: int) -> bytes:
    """uv/indicatif/rich multi-bar frames: rows padded to the width, CSI n A, CR, CSI 2 K, redrawn."""
    k = rng.randint(1, min(5, rows - 1))
    out = [b"Resolved 12 packages in 3ms\r\n"]
    style = rng.choice(["indicatif", "rich", "uv"])
    for frame in range(rng.randint(2, 6)):
        rows_ = [full_row(rng, columns, i) for i in range(k)]
        if style == "indicatif":
            out.append(b"\r\n".join(rows_))
            out.append(b"\r" + (csi(f"{k - 1}A") if k > 1 else b"") + b"\x1b[2K" if frame < 5 else b"")
        elif style == "rich":
            out.append(b"\x1b[?25l" + b"\n".join(rows_))
            out.append((b"\r\x1b[2K" + b"\x1b[1A\x1b[2K" * (k - 1)) if rng.random() < 0.8 else b"")
        else:
            out.append(b"".join(rows_))  # autowrap joins them
            out.append(csi(f"{k}A") + b"\r\x1b[J" if rng.random() < 0.7 else b"\x1b[2K" + csi(f"{k - 1}A"))
    out.append(rng.choice([b"Installed 12 packages\r\n", b"\x1b[?25h", b"", b"\r\n"]))
    return b"".join(out)


def nt_lines(rng: random.Random, columns: int, rows: int) -> bytes:
    """No terminal: logical lines past 80 and past 10,000 characters, CR/BS/EL/CUU on them, tabs, CUF
    far past the text, wide characters, BEL-ended strings."""
    out = []
    for _ in range(rng.randint(1, 6)):
        n = rng.choice([5, 79, 80, 81, 160, 1000, 10001, 12000])
        line = word(rng, n) if rng.random() < 0.8 else "\u4e2d".encode() * (n // 2)
        out.append(line)
        for _ in range(rng.randint(0, 3)):
            op = rng.choice(["CR", "BS", "EL", "CUU", "tab", "CUF", "bel", "CHA", "wide", "CUB"])
            if op == "CR":
                out.append(b"\r" + word(rng, rng.randint(1, 20)))
            elif op == "BS":
                out.append(b"\b" * rng.randint(1, 5) + word(rng, rng.randint(0, 3)))
            elif op == "EL":
                out.append(csi(rng.choice(["K", "1K", "2K"])) + word(rng, rng.randint(0, 3)))
            elif op == "CUU":
                out.append(csi(f"{rng.randint(1, 2)}A") + b"\r" + word(rng, 5))
            elif op == "tab":
                out.append(b"\t" * rng.randint(1, 3) + word(rng, 3))
            elif op == "CUF":
                out.append(csi(f"{rng.choice([5, 100, 9000, 20000])}C") + word(rng, 3))
            elif op == "bel":
                out.append(rng.choice([b"\x1b_", b"\x1bP", b"\x1b]0;", b"\x1bX"]) + b"x\x07" + word(rng, 3))
            elif op == "CHA":
                out.append(csi(f"{rng.choice([1, 50, 81, 200, 10005])}G") + word(rng, 3))
            elif op == "wide":
                out.append("\u4e2d\u0301".encode() + word(rng, 2))
            else:
                out.append(csi(f"{rng.choice([1, 10, 100, 20000])}D") + word(rng, 3))
        out.append(rng.choice([b"\r\n", b"\n", b""]))
    return b"".join(out)


def fresh_first_page(rng: random.Random, columns: int, rows: int) -> bytes:
    """No clear at the start (a fresh terminal): absolute moves, DECSTBM regions, the alternate screen
    on the first page, then maybe a break and more."""
    out = []
    for _ in range(rng.randint(2, 7)):
        op = rng.choice(["cup", "text", "region", "alt", "altoff", "lines", "vpa", "il", "el", "cuu", "ri"])
        if op == "cup":
            out.append(csi(f"{rng.randint(1, rows + 2)};{rng.randint(1, columns + 2)}H") + word(rng, rng.randint(1, 8)))
        elif op == "text":
            out.append(word(rng, rng.choice([3, columns, columns + 3])))
        elif op == "region":
            top = rng.randint(1, rows)
            out.append(csi(f"{top};{rng.randint(top, rows)}r") + rng.choice([b"", b"\n\n\n", b"\x1bM", b"x\r\n"]))
        elif op == "alt":
            out.append(rng.choice([b"\x1b[?1049h", b"\x1b[?47h", b"\x1b[?1047h"]) + word(rng, 4))
        elif op == "altoff":
            out.append(rng.choice([b"\x1b[?1049l", b"\x1b[?47l", b"\x1b[?1047l"]))
        elif op == "lines":
            out.append(b"".join(word(rng, rng.randint(1, 10)) + b"\r\n" for _ in range(rng.randint(1, rows + 2))))
        elif op == "vpa":
            out.append(csi(f"{rng.randint(1, rows)}d") + word(rng, 3))
        elif op == "il":
            out.append(csi(rng.choice(["L", "M", "2L", "S", "T"])))
        elif op == "el":
            out.append(csi(rng.choice(["K", "2K", "J", "1J"])))
        elif op == "cuu":
            out.append(csi(f"{rng.randint(1, 5)}A") + b"\r" + word(rng, 4))
        else:
            out.append(b"\x1bM" + word(rng, 3))
    out.append(rng.choice([b"\r\n", b"", b"\x1b[r\r\n", b"\x1b[H\x1b[2Jend\r\n"]))
    return b"".join(out)


_KEPT = [b"x\x1b[5ay", b"x\x1b[5ay\r\n", b"x\x1b[2;1H\x1b[Ly\r\n", b"x\x1b[?1048hy\r\n", b"x\x1b[3eY\r\n",
         b"\x1b[?1049hzz\x1b[5a\x1b[?1049l", b"q\x1b[2;0rX\r\n"]
_BREAKS = [b"\x1b[3J\x1b[H\x1b[2J", b"\x1bc", b"\x1b[H\x1b[2J", b"\x1b[2J\x1b[H", b"\x1b[?1049h", b"\x1b[?1049l",
           b"\x1b[?47h\x1b[H\x1b[2J", b"\x1b[3J", b"\x1b[H\x1b[3J\x1b[2J", b"\x1b[?1049h\x1b[3J\x1b[H\x1b[2J"]


def pages(rng: random.Random, columns: int, rows: int) -> bytes:
    """Cleaned pages (SGR, CR redraws, rows to or past the bottom, wrapped rows) then kept ones, with
    every kind of break between them, more than once."""
    out = [rng.choice([b"", b"\x1b[H\x1b[2J"])]
    for _ in range(rng.randint(2, 4)):
        if rng.random() < 0.6:
            count = rng.choice([rows - 1, rows, rows + 1, 1, max(1, rows // 2), 2 * rows])
            for i in range(max(1, count)):
                if i:
                    out.append(rng.choice([b"\n", b"\r\n"]))
                w = rng.choice([1, 3, columns - 1, columns, columns + 2])
                out.append(b"\x1b[1m" + word(rng, 1) + b"\x1b[m" + word(rng, max(0, w - 1)))
                if rng.random() < 0.2:
                    out.append(b"\r" + word(rng, 2))
            if rng.random() < 0.3:
                out.append(b"\r\n")
        else:
            out.append(rng.choice(_KEPT))
        out.append(rng.choice(_BREAKS))
    out.append(rng.choice(_KEPT + [b"end\r\n", b"end"]))
    return b"".join(out)


def matrix(columns: int, rows: int, prefix: bytes = b"") -> list[tuple[str, bytes]]:
    """Every dispute op x every settle / read after one row of exactly ``columns`` plain cells (above it a
    log line, below it the frame's next line), deterministic."""
    rng = random.Random(0)
    row = b"row " + bytes(ord("a") + i % 26 for i in range(columns - 4))
    out = []
    for dname, dop in DISPUTE_OPS.items():
        for fname, fop in list(SETTLE_OPS.items()) + [("read-" + k, v) for k, v in READ_OPS.items()]:
            follow = fop(rng, columns, rows)
            tail = b"" if fname == "read-end" else b"Z\r\nnext\r\n"
            out.append((f"{dname}>{fname}", prefix + b"log\r\n" + row + dop(rng, columns, rows) + follow + tail))
    return out


def _margin_row(rng: random.Random, columns: int) -> bytes:
    kind = rng.choice(["plain", "wide-end", "wide-spill", "combining", "rep", "sgr", "tab-end", "cuf-end"])
    base = bytes(ord("a") + i % 26 for i in range(columns))
    if kind == "plain":
        return base
    if kind == "wide-end":
        return base[: columns - 2] + "\u4e2d".encode()
    if kind == "wide-spill":
        return base[: columns - 1] + "\u4e2d".encode()
    if kind == "combining":
        return base + "\u0301".encode()
    if kind == "rep":
        return base[: columns // 2] + csi(f"{columns - columns // 2}b")
    if kind == "sgr":
        return b"\x1b[7m" + base + b"\x1b[m"
    if kind == "tab-end":
        return base[:3] + b"\t" * (columns // 8 + 1) + b"X"
    return base[:3] + csi(f"{columns}C") + b"X"


def chain(rng: random.Random, columns: int, rows: int) -> bytes:
    """A row to the margin (plain, a wide character at or past it, a combining mark, REP, tabs or CUF to
    it) on some screen row (the bottom one too), then two or three controls, then text, a settle or a
    read; twice."""
    out = [rng.choice([b"", b"\x1b[H\x1b[2J", b"top\r\n"])]
    if rng.random() < 0.4:
        out.append(b"".join(b"l%d\r\n" % i for i in range(rng.choice([rows - 2, rows - 1, rows, rows + 3]))))
    for _ in range(rng.randint(1, 2)):
        out.append(_margin_row(rng, columns))
        for _ in range(rng.randint(1, 3)):
            pool = rng.choice([DISPUTE_OPS, DISPUTE_OPS, SETTLE_OPS, READ_OPS])
            out.append(pool[rng.choice(list(pool))](rng, columns, rows))
        out.append(rng.choice([b"", b"Q", b"\r\n", b"\rR\r\n", b"\x1b[2K\rS\r\n"]))
    return b"".join(out)
