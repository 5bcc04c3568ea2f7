"""Session-30 red team: the wrap-flag dispute (EL 2 / ED on a row of a wrapped line, uv / indicatif
frames), SM / RM of ANSI modes, zero-width marks at the pending-wrap column and page breaks spelled by
their numbers (tests/tmux_families_red.py, "session 30"), at sizes 2..200 x 2..50, in the displays
no-terminal / unknown / sized / fresh, judged by a live tmux 3.3a (tests/tmux_judge.py).

    PYTHONPATH=$PWD python fuzz/wrap_modes_marks.py --families wrapjoin,uv_frames --count 200 --seed 1 \\
        --out /tmp/f.jsonl
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import tmux_families_red as fam  # noqa: E402
from tests import tmux_judge  # noqa: E402

FAMILIES = {"wrapjoin": fam.wrapjoin, "uv_frames": fam.uv_frames, "ansi_modes": fam.ansi_modes,
            "margin_marks": fam.margin_marks, "page_spellings": fam.page_spellings, "erased_zwj": fam.erased_zwj}
DISPLAYS = ("no-terminal", "unknown", "sized", "fresh")


def make(family: str, display: str, count: int, seed: int) -> list[tmux_judge.Case]:
    rng = random.Random(f"red30:{family}:{display}:{seed}")
    cases = []
    for _ in range(count):
        columns, rows = fam.random_size(rng)
        if display == "unknown":
            columns, rows = 80, 24  # rows of exactly 80 cells
        raw = FAMILIES[family](rng, columns, rows)
        cases.append(tmux_judge.display_case(raw, display, columns, rows, family))
    return cases


MATRIX_RUNS = [("fresh", 10, 4, b""), ("sized", 20, 6, b"\x1b[H\x1b[2Jhead\r\n"), ("sized", 80, 24, b"head\r\n"),
               ("fresh", 80, 24, b"head\r\n"), ("unknown", 80, 24, b"head\r\n"), ("no-terminal", 80, 24, b"head\r\n"),
               ("sized", 7, 3, b"\x1b[H\x1b[2J"), ("fresh", 200, 50, b"")]


SPELLING_RUNS = [("sized", 10, 4, b""), ("fresh", 20, 6, b""), ("sized", 80, 24, b""), ("fresh", 80, 24, b""),
                 ("unknown", 80, 24, b""), ("no-terminal", 80, 24, b""), ("sized", 40, 2, b""), ("fresh", 200, 50, b"")]


def matrix(out: Path | None, generate: Callable[..., list[tuple[str, bytes]]],
           runs: list[tuple[str, int, int, bytes]]) -> None:
    total: Counter[str] = Counter()
    with tmux_judge.server() as srv:
        for display, columns, rows, prefix in runs:
            cases = []
            for name, raw in generate(columns, rows, *([prefix] if prefix else [])):
                cases.append(tmux_judge.display_case(raw, display, columns, rows, name))
            t = time.perf_counter()
            tmux_judge.judge(cases, srv)
            bad = [c for c in cases if c.problems]
            adopted = sum(c.adopted for c in cases)
            total.update(streams=len(cases), adopted=adopted, lossy=len(bad))
            by_erase = Counter(c.family.split(">")[1] for c in cases if c.adopted and ">" in c.family)
            print(f"{generate.__name__} {display:11s} {columns}x{rows} streams={len(cases)} adopted={adopted} "
                  f"lossy={len(bad)} "
                  f"({time.perf_counter() - t:.1f}s) adopted by erase={dict(by_erase)}", flush=True)
            for c in bad:
                c.report(display, out)
    print("TOTAL", dict(total), flush=True)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--families", default=",".join(FAMILIES))
    p.add_argument("--displays", default=",".join(DISPLAYS))
    p.add_argument("--count", type=int, default=50)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path)
    p.add_argument("--matrix", action="store_true", help="fam.wrap_matrix at fixed sizes and displays instead")
    p.add_argument("--spellings", action="store_true", help="fam.spelling_matrix at fixed sizes and displays instead")
    a = p.parse_args()
    if a.matrix or a.spellings:
        matrix(a.out, fam.wrap_matrix if a.matrix else fam.spelling_matrix, MATRIX_RUNS if a.matrix else SPELLING_RUNS)
        return
    tmux_judge.judge_families(lambda family, display: make(family, display, a.count, a.seed), a.families,
                              a.displays, a.out)


if __name__ == "__main__":
    main()
