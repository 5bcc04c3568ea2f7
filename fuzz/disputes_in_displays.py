"""Session-22 red team: the families of tests/tmux_families_red.py through the live-tmux judge, in the
displays no-terminal / unknown / sized / fresh (sized and a new terminal; every tmux window is one).

    PYTHONPATH=$PWD python fuzz/disputes_in_displays.py --families dispute,progress --count 100 --seed 1 \\
        --out /tmp/f.jsonl
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import tmux_families, tmux_judge  # noqa: E402
from tests import tmux_families_red as fam  # noqa: E402

FAMILIES = {"dispute": fam.dispute, "progress": fam.progress, "nt_lines": fam.nt_lines,
            "fresh_first_page": fam.fresh_first_page, "pages": fam.pages, "chain": fam.chain}
SIZES = {"dispute": [(40, 10), (80, 24), (120, 40), (160, 40)],
         "progress": [(40, 10), (80, 24), (120, 40), (160, 40)],
         "nt_lines": [(80, 24)],
         "fresh_first_page": [(40, 10), (80, 24), (20, 5)],
         "chain": [(40, 10), (80, 24), (20, 5), (160, 40)],
         "pages": [(c, r) for r in (2, 3, 5, 10, 24, 40) for c in (10, 40, 80)]}
DISPLAYS = ("no-terminal", "unknown", "sized", "fresh")


def make(family: str, display: str, count: int, seed: int) -> list[tmux_judge.Case]:
    rng = random.Random(f"{family}:{display}:{seed}")
    cases = []
    for _ in range(count):
        columns, rows = rng.choice(SIZES.get(family, tmux_families.SIZES))
        if display == "unknown":
            columns, rows = 80, 24  # rows of exactly 80 cells
        raw = FAMILIES[family](rng, columns, rows) if family in FAMILIES else \
            tmux_families.FAMILIES[family](rng, columns, rows)
        cases.append(tmux_judge.display_case(raw, display, columns, rows, family))
    return cases


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--families", default=",".join(FAMILIES))
    p.add_argument("--displays", default=",".join(DISPLAYS))
    p.add_argument("--count", type=int, default=50)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path)
    a = p.parse_args()
    tmux_judge.judge_families(lambda family, display: make(family, display, a.count, a.seed), a.families,
                              a.displays, a.out)


if __name__ == "__main__":
    main()
