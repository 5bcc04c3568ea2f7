"""Red team 42: random mixtures aimed at rows redrawn in place (Stream's ``in_place_rows``), judged by tmux.

    PYTHONPATH=$PWD python fuzz/red42_random.py --seed 1 --count 200
    PYTHONPATH=$PWD python fuzz/red42_random.py --seed 5 --count 100 --sizes 10x4,20x6 --out /tmp/r.jsonl

Each raw stream is a random mixture of pieces: progress rows redrawn in place (CR, BS, CHA / HPA / CUF /
CUB, EL 0-2, ECH; frames ending in spaces, tabs, wide characters, blank rows), later moves up into them
(CUU / CPL / RI, CUD / CNL back), SGR between characters at and around the wrap margin, homing clears,
scroll regions (DECSTBM) and plain lines. It is streamed through ``Stream`` at no terminal or at a small
size (10x4, 20x6, 80x24; fresh or not), chunked whole, a byte at a time, at random, and in two at every
offset for short streams. Every distinct release is judged against the whole raw text by a live tmux
(``tests/tmux_judge.py``); every adopted stretch is cleaned again for the same display and must come back
unchanged (``fuzz/stream_cuts.CheckedStream``). A finding is printed as one JSON line (and appended to
``--out``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz import stream_cuts  # noqa: E402
from tests import tmux_judge  # noqa: E402

_WIDE = ["漢", "é", "😀", "\u0301", "ｱ", "─"]


def _word(rng: random.Random) -> bytes:
    return rng.choice([b"ok", b"done", b"x", b"item", b"42%", b"[##  ]", b"error:", b"PASS", b"a.b", b"7/9"])


def _sgr_split(rng: random.Random, text: bytes) -> bytes:
    """``text`` with SGR codes between some of its characters."""
    out = []
    for ch in text:
        if rng.random() < 0.2:
            out.append(rng.choice([b"\x1b[31m", b"\x1b[0m", b"\x1b[1;32m", b"\x1b[m", b"\x1b[7m"]))
        out.append(bytes([ch]))
    return b"".join(out)


def _cells(rng: random.Random, n: int) -> bytes:
    """``n`` one-cell printable ASCII characters, words and spaces."""
    out = b""
    while len(out) < n:
        out += _word(rng) + b" "
    return out[:n]


def _frame(rng: random.Random, columns: int) -> bytes:
    kind = rng.random()
    if kind < 0.8:
        n = rng.choice([1, 3, 8, 12, columns - 3]) if rng.random() < 0.8 else rng.choice([columns - 1, columns,
                                                                                          columns + 1, 2 * columns])
        text = _cells(rng, max(1, n))
    elif kind < 0.87:
        text = b""
    elif kind < 0.93:
        text = _cells(rng, rng.randint(1, 6)) + b" " * rng.randint(1, 3)
    elif kind < 0.96:
        text = _cells(rng, rng.randint(0, 4)) + b"\t" + _cells(rng, rng.randint(0, 4))
    else:
        text = _cells(rng, rng.randint(0, columns)) + rng.choice(_WIDE).encode() * rng.randint(1, 2)
    return _sgr_split(rng, text) if text.isascii() and rng.random() < 0.5 else text


_IN_ROW = [b"\r", b"\r\x1b[K", b"\r\x1b[2K", b"\x1b[K", b"\x1b[1K", b"\b", b"\b\b\b", b"\x1b[G", b"\x1b[5G",
           b"\x1b[3`", b"\x1b[2C", b"\x1b[4D", b"\x1b[3X", b"\r\x1b[2C\x1b[X", b"  \r", b"\t", b"\x1b[0K"]


def in_place_row(rng: random.Random, columns: int) -> bytes:
    out = [_frame(rng, columns)]
    for _ in range(rng.randint(0, 5)):
        out.append(rng.choice(_IN_ROW) + _frame(rng, columns))
    return b"".join(out) + rng.choice([b"\n", b"\r\n", b"\n", b"\n\n", b"\r\x1b[K\n"])


def move_up(rng: random.Random, rows: int) -> bytes:
    up = rng.choice([1, 2, 3, rows - 1, rows, rows + 1])
    move = rng.choice([b"\x1b[%dA" % up, b"\x1b[%dF" % up, b"\x1bM" * min(up, 30), b"\r\x1b[%dA" % up])
    act = rng.choice([b"", b"\x1b[K", b"\x1b[2K", b"Z", b"\rQQ", b"\x1b[1K", b"\x1b[2X", b"\x1b[P", b"\x1b[2@",
                      b"\x1b[3CW", b"\r\x1b[KNEW"])
    down = rng.choice([b"\x1b[%dB" % up, b"\x1b[%dE" % up, b"\n" * up, b"", b"\x1b[%dB\r" % up])
    return move + act + down + rng.choice([b"\n", b"", b"\r\n"])


def move_up_within(rng: random.Random, written: int) -> bytes:
    """A move up by at most the lines written so far, something done there, and back down."""
    up = rng.randint(1, written)
    move = rng.choice([b"\x1b[%dA" % up, b"\x1b[%dF" % up, b"\x1bM" * min(up, 30), b"\r\x1b[%dA" % up])
    act = rng.choice([b"", b"\x1b[K", b"\x1b[2K", b"Z", b"\rQQ", b"\x1b[2X", b"\r\x1b[KNEW", b"\x1b[3CW"])
    return move + act + b"\r" + b"\n" * up


def margin_sgr(rng: random.Random, columns: int) -> bytes:
    """A line reaching the margin with SGR codes between its last characters, then a control or text."""
    text = _cells(rng, rng.choice([columns - 1, columns, columns + 1]))
    head, tail = text[:-3], text[-3:]
    ctl = rng.choice([b"", b"\r", b"\b", b"\x1b[K", b"\x1b[A", b"X", b"\x1b[C", b"\x1b[3G", b"\r\x1b[K"])
    return head + _sgr_split(rng, tail) + b"\x1b[0m" * rng.randint(0, 1) + ctl + rng.choice([b"\n", b"\r\n"])


def homing_clear(rng: random.Random, rows: int) -> bytes:
    return rng.choice([b"\x1b[H\x1b[2J", b"\x1b[H\x1b[2J\x1b[3J", b"\x1b[2J\x1b[H", b"\x1b[H\x1b[J", b"\x1b[2J",
                       b"\x1b[H"])


def region(rng: random.Random, rows: int) -> bytes:
    top = rng.randint(1, max(1, rows - 1))
    bottom = rng.randint(top, rows)
    return rng.choice([b"\x1b[%d;%dr" % (top, bottom), b"\x1b[r", b"\x1b[%d;%dr\x1b[%dH" % (top, bottom, bottom)])


def plain(rng: random.Random, columns: int) -> bytes:
    return _cells(rng, rng.randint(1, max(1, columns))).rstrip() + b"\n"


def blank(rng: random.Random, columns: int) -> bytes:
    return b"\n" * rng.randint(1, 3)


def mixture(rng: random.Random, columns: int, rows: int) -> bytes:
    out = [b"".join(plain(rng, columns) for _ in range(rng.choice([0, 1, 2, rows]))), in_place_row(rng, columns)]
    hostile = rng.random() < 0.3  # clears, regions and moves up past what was written: often refused
    for _ in range(rng.randint(2, 12)):
        r = rng.random()
        if r < 0.35:
            out.append(in_place_row(rng, columns))
        elif r < 0.5:
            written = sum(part.count(b"\n") for part in out)
            out.append(move_up(rng, rows) if hostile else move_up_within(rng, max(1, written)))
        elif r < 0.62:
            out.append(margin_sgr(rng, columns))
        elif r < 0.67 and hostile:
            out.append(homing_clear(rng, rows))
        elif r < 0.71 and hostile:
            out.append(region(rng, rows))
        elif r < 0.8:
            out.append(blank(rng, columns))
        else:
            out.append(b"".join(plain(rng, columns) for _ in range(rng.choice([1, 2, rows - 1, rows]))))
    return b"".join(out)


def chunkings(raw: bytes, rng: random.Random, every_offset: int) -> list[tuple[str, list[bytes]]]:
    out = [("whole", [raw]), ("bytes", [raw[i:i + 1] for i in range(len(raw))])]
    if len(raw) <= every_offset:
        out += [(f"at{i}", [raw[:i], raw[i:]]) for i in range(1, len(raw))]
    for k in range(3):
        cuts, at = [], 0
        while at < len(raw):
            n = rng.randint(1, rng.choice([2, 5, 17, 60]))
            cuts.append(raw[at:at + n])
            at += n
        out.append((f"rand{k}", cuts))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--sizes", default="none,10x4,20x6,80x24")
    ap.add_argument("--every-offset", type=int, default=200)
    ap.add_argument("--batch", type=int, default=200)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    print(f"seed={args.seed}", flush=True)
    rng = random.Random(args.seed)
    sizes = args.sizes.split(",")
    totals: Counter[str] = Counter()
    pending: list[tuple[dict[str, object], tmux_judge.Case]] = []
    findings = 0

    def flush(srv: tmux_judge.JudgeServer) -> None:
        nonlocal findings
        if not pending:
            return
        tmux_judge.judge([case for _, case in pending], srv)
        for record, case in pending:
            totals["judged_releases"] += 1
            assert case.candidate is not None
            if stream_cuts.raw_redraw_kept(case.raw, case.candidate, case.problems):
                totals["byte_check_on_raw_redraw"] += 1
            elif case.problems:
                findings += 1
                record = {**record, "released": repr(case.candidate), "problems": case.problems}
                print("LOSS", json.dumps(record)[:2000], flush=True)
                if args.out:
                    with args.out.open("a") as fh:
                        fh.write(json.dumps(record) + "\n")
        pending.clear()

    start = time.perf_counter()
    with tmux_judge.server() as srv:
        for _ in range(args.count):
            size = rng.choice(sizes)
            if size == "none":
                columns, rows, kw = 80, 24, {"terminal": False}
            else:
                columns, rows = (int(x) for x in size.split("x"))
                kw = {"columns": columns, "rows": rows, "fresh": rng.random() < 0.5}
            raw = mixture(rng, columns, rows)
            settings = {**kw, **rng.choice([{}, {}, {"max_held": rng.choice([1, 8, 40])}])}
            seen: dict[bytes, str] = {}
            for name, chunks in chunkings(raw, rng, args.every_offset):
                totals["streams"] += 1
                try:
                    got = tmux_judge.encode(stream_cuts.release(chunks, **settings))
                except Exception as exc:  # noqa: BLE001 - a raise is a finding
                    findings += 1
                    print("RAISED", json.dumps({"raw": repr(raw), "settings": settings, "chunking": name,
                                                "raised": repr(exc)}), flush=True)
                    continue
                if got not in seen:
                    seen[got] = name
                    if got == raw:
                        totals["raw_releases"] += 1
                        continue
                    if size == "none":
                        case = tmux_judge.display_case(raw, "no-terminal", 0, 0, "red42")
                    else:
                        case = tmux_judge.display_case(raw, "fresh" if kw["fresh"] else "sized", columns, rows,
                                                       "red42")
                    case.candidate = got
                    pending.append(({"raw": repr(raw), "settings": settings, "chunking": name,
                                     "chunks": [repr(c) for c in chunks][:60]}, case))
            while stream_cuts.NOT_IDEMPOTENT:
                stretch, out, again = stream_cuts.NOT_IDEMPOTENT.pop()
                findings += 1
                print("ODD", json.dumps({"why": "stretch not idempotent", "settings": settings,
                                         "stretch": repr(stretch), "adopted": repr(out), "again": repr(again)}),
                      flush=True)
            if len(pending) >= args.batch:
                flush(srv)
        flush(srv)
    print("TOTAL", dict(totals), "findings", findings, f"seed={args.seed}",
          f"({time.perf_counter() - start:.0f}s)", flush=True)
    return 1 if findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
