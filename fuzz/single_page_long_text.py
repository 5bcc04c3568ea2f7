"""Session-32 red team: the one-model verifier on single pages and the cleaner's chunked paths on long
texts (tests/tmux_families_red.py, "session 32"), in the displays no-terminal / unknown / sized /
fresh, judged by a live tmux 3.3a (tests/tmux_judge.py).

    PYTHONPATH=$PWD timeout 900 python fuzz/single_page_long_text.py --families single_page --count 200 --seed 1 \\
        --out /tmp/f.jsonl
    PYTHONPATH=$PWD timeout 900 python fuzz/single_page_long_text.py --families long_text --count 10 --huge 2
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import tmux_families_red as fam  # noqa: E402
from tests import tmux_judge  # noqa: E402

FAMILIES = {"single_page": fam.single_page, "long_text": fam.long_text, "repeat_state": fam.repeat_state}
DISPLAYS = ("no-terminal", "unknown", "sized", "fresh")


def make(family: str, display: str, count: int, seed: int, huge: int = 0) -> list[tmux_judge.Case]:
    rng = random.Random(f"red32:{family}:{display}:{seed}")
    cases = []
    for i in range(count):
        columns, rows = rng.choice([(80, 24), (80, 24), (40, 10), (120, 40), (160, 40), (79, 30), (81, 50)]) \
            if rng.random() < 0.7 else fam.random_size(rng)
        if display == "unknown":
            columns, rows = 80, 24  # rows of exactly 80 cells
        if family == "long_text" and i < huge:
            raw = fam.long_text(rng, columns, rows, size=rng.choice([1_050_000, 1_100_000]))
        else:
            raw = FAMILIES[family](rng, columns, rows)
        cases.append(tmux_judge.display_case(raw, display, columns, rows, family))
    return cases


EDGE_RUNS = [("unknown", 80, 24), ("no-terminal", 80, 24), ("sized", 80, 24), ("fresh", 80, 24), ("sized", 40, 10),
             ("fresh", 79, 30), ("sized", 160, 40), ("fresh", 81, 5), ("sized", 10, 4)]


def edge(out: Path | None, prefixes: list[bytes], runs: list[tuple[str, int, int]]) -> None:
    """fam.edge_matrix at fixed sizes and displays, after each prefix."""
    total: Counter[str] = Counter()
    with tmux_judge.server() as srv:
        for prefix in prefixes:
            for display, columns, rows in runs:
                cases = []
                for name, raw in fam.edge_matrix(columns, rows, prefix):
                    cases.append(tmux_judge.display_case(raw, display, columns, rows, name))
                t = time.perf_counter()
                tmux_judge.judge(cases, srv)
                bad = [c for c in cases if c.problems]
                adopted = sum(c.adopted for c in cases)
                total.update(streams=len(cases), adopted=adopted, lossy=len(bad))
                print(f"edge_matrix {prefix[:20]!r:24} {display:11s} {columns}x{rows} streams={len(cases)} "
                      f"adopted={adopted} "
                      f"lossy={len(bad)} ({time.perf_counter() - t:.1f}s)", flush=True)
                for c in bad:
                    c.report(display, out)
    print("TOTAL", dict(total), flush=True)


EDGE_PREFIXES = [b"a 10%\rb 100%\r\n", b"\x1b[32mok\x1b[m\r\n" * 30, b"\x1b[H\x1b[2Jx\rhead\r\n"]


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--families", default=",".join(FAMILIES))
    p.add_argument("--displays", default=",".join(DISPLAYS))
    p.add_argument("--count", type=int, default=50)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--huge", type=int, default=0, help="long_text: this many of each display's texts past 1M")
    p.add_argument("--out", type=Path)
    p.add_argument("--edge", action="store_true", help="fam.edge_matrix at fixed sizes, displays and prefixes instead")
    p.add_argument("--edge-runs", default="", help="indices into EDGE_RUNS (default all)")
    p.add_argument("--edge-prefixes", default="", help="indices into EDGE_PREFIXES (default all)")
    a = p.parse_args()
    if a.edge:
        def pick(items: list, spec: str) -> list:  # type: ignore[type-arg]
            return [items[int(i)] for i in spec.split(",")] if spec else items
        edge(a.out, pick(EDGE_PREFIXES, a.edge_prefixes), pick(EDGE_RUNS, a.edge_runs))
        return
    tmux_judge.judge_families(lambda family, display: make(family, display, a.count, a.seed, a.huge), a.families,
                              a.displays, a.out)


if __name__ == "__main__":
    main()
