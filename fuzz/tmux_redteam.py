"""Run generated streams through the live-tmux judge (tests/tmux_judge.py) and report lossy adoptions.

    PYTHONPATH=$PWD python fuzz/tmux_redteam.py --families redraws,sessions --count 200 --seed 1
    PYTHONPATH=$PWD python fuzz/tmux_redteam.py --count 100 --out /tmp/findings.jsonl
    PYTHONPATH=$PWD python fuzz/tmux_redteam.py --displays no-terminal --families bel_strings --count 50

Each family runs in each display (issue 28, ``--displays``): written for **no terminal** (cleaned with
``terminal=False``, judged by tmux at 10000 columns after the BEL-ended strings are removed), for a
terminal of **unknown size** (judged at 80x24 and 200x60), and for a terminal of a **given size** drawn
from tests/tmux_families.SIZES (or the family's own sizes, FAMILY_SIZES). Lines reach past 80 and past
the width the generator aimed at (tmux_families.generate). Findings are printed (and written as JSON
lines with ``--out``); one summary line per family and display.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from oracle import tmux  # noqa: E402
from tests import tmux_families, tmux_judge  # noqa: E402


def make_cases(family: str, count: int, seed: int, display: str = tmux_families.SIZED,
               strict_strings: bool = False) -> list[tmux_judge.Case]:
    """``count`` streams of ``family`` written for ``display`` (tmux_families.DISPLAYS); ``strict_strings``:
    at a terminal, a line tmux shows before a BEL-ended string must be there as it is (issue 23 item 2)."""
    rng = random.Random(f"{family}:{display}:{seed}")
    cases = []
    for _ in range(count):
        raw, columns, rows = tmux_families.generate(family, rng, display)
        if display == tmux_families.NO_TERMINAL:
            cases.append(tmux_judge.Case(raw, None, None, family, [(tmux.NO_TERMINAL_COLUMNS, 24),
                                                                   (tmux.NO_TERMINAL_COLUMNS, 60)], terminal=False))
        elif display == tmux_families.UNKNOWN_SIZE:
            cases.append(tmux_judge.Case(raw, None, None, family, [(80, 24), (200, 60)]))
        else:
            cases.append(tmux_judge.Case(raw, columns, rows, family))
    for case in cases:
        case.keeps_more_after_bel = not strict_strings
    return cases


def run(families: list[str], count: int, seed: int, out: Path | None,
        displays: tuple[str, ...] = tmux_families.DISPLAYS, strict_strings: bool = False) -> int:
    total_bad = 0
    with tmux_judge.server() as srv:
        for family in families:
            for display in displays:
                total_bad += _run_one(srv, family, display, count, seed, out, strict_strings)
    return total_bad


def _run_one(srv: tmux_judge.JudgeServer, family: str, display: str, count: int, seed: int, out: Path | None,
             strict_strings: bool) -> int:
    started = time.perf_counter()
    cases = make_cases(family, count, seed, display, strict_strings)
    tmux_judge.judge(cases, srv)
    adopted = sum(case.adopted for case in cases)
    bad = [case for case in cases if case.problems]
    print(f"{family:18s} {display:11s} streams={len(cases):5d} adopted={adopted:5d} problems={len(bad):4d} "
          f"({time.perf_counter() - started:.1f} s)", flush=True)
    for case in bad:
        record = {
            "family": family, "display": display, "raw": repr(case.raw), "columns": case.columns,
            "rows": case.rows, "candidate": repr(case.candidate), "problems": case.problems,
        }
        print("   ", json.dumps(record)[:600])
        if out is not None:
            with out.open("a") as fh:
                fh.write(json.dumps(record) + "\n")
    return len(bad)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", default=",".join(tmux_families.FAMILIES))
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--displays", default=",".join(tmux_families.DISPLAYS),
                        help=f"which displays, of {', '.join(tmux_families.DISPLAYS)}")
    parser.add_argument("--strict-strings", action="store_true",
                        help="at a terminal, a line before a BEL-ended string must be kept as it is (issue 23 item 2)")
    args = parser.parse_args()
    displays = tuple(args.displays.split(","))
    unknown = set(displays) - set(tmux_families.DISPLAYS)
    if unknown:
        parser.error(f"unknown display(s): {', '.join(sorted(unknown))}")
    bad = run(args.families.split(","), args.count, args.seed, args.out, displays, args.strict_strings)
    raise SystemExit(1 if bad else 0)


if __name__ == "__main__":
    main()
