"""Run generated streams through the live-tmux judge (tests/tmux_judge.py) and report lossy adoptions.

    PYTHONPATH=$PWD python fuzz/tmux_redteam.py --families redraws,sessions --count 200 --seed 1
    PYTHONPATH=$PWD python fuzz/tmux_redteam.py --count 100 --out /tmp/findings.jsonl

Each stream is cleaned at a size drawn from tests/tmux_families.SIZES (or with the size unknown, then
judged at 80x24 and 200x60). Findings are printed (and written as JSON lines with ``--out``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import tmux_families, tmux_judge  # noqa: E402


def make_cases(family: str, count: int, seed: int, unknown: float = 0.2) -> list[tmux_judge.Case]:
    rng = random.Random(f"{family}:{seed}")
    gen = tmux_families.FAMILIES[family]
    cases = []
    for _ in range(count):
        columns, rows = rng.choice(tmux_families.SIZES)
        raw = gen(rng, columns, rows)
        if rng.random() < unknown:
            cases.append(tmux_judge.Case(raw, None, None, family, [(80, 24), (200, 60)]))
        else:
            cases.append(tmux_judge.Case(raw, columns, rows, family))
    return cases


def run(families: list[str], count: int, seed: int, out: Path | None) -> int:
    total_bad = 0
    with tmux_judge.server() as srv:
        for family in families:
            started = time.perf_counter()
            cases = make_cases(family, count, seed)
            tmux_judge.judge(cases, srv)
            adopted = sum(case.adopted for case in cases)
            bad = [case for case in cases if case.problems]
            total_bad += len(bad)
            print(f"{family:14s} streams={len(cases):5d} adopted={adopted:5d} problems={len(bad):4d} "
                  f"({time.perf_counter() - started:.1f} s)", flush=True)
            for case in bad:
                record = {
                    "family": family, "raw": repr(case.raw), "columns": case.columns, "rows": case.rows,
                    "candidate": repr(case.candidate), "problems": case.problems,
                }
                print("   ", json.dumps(record)[:600])
                if out is not None:
                    with out.open("a") as fh:
                        fh.write(json.dumps(record) + "\n")
    return total_bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", default=",".join(tmux_families.FAMILIES))
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    bad = run(args.families.split(","), args.count, args.seed, args.out)
    raise SystemExit(1 if bad else 0)


if __name__ == "__main__":
    main()
