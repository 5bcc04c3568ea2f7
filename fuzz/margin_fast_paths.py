"""Red team, session 34: issue 27's two speed changes in the cleaner, judged by a live tmux 3.3a.

1. ``ScreenModel.write`` writes text of one-cell characters other than ASCII (blocks, box drawing, braille,
   Latin-1, arrows, general punctuation) a row at a time at a known width, as it writes ASCII.
2. ``LineModel.overlay`` / ``_overlay_frames`` / ``ScreenModel.overlay``: a line redrawn by CR and EL alone
   takes the string path where a frame ends exactly at the known margin and a CR or the line's end follows.

Families (``tests/tmux_families_red.py``): ``one_cell_margin`` (runs near the margin, then controls, bars
redrawn) and ``frames_at_margin`` (CR / EL frames that fill the row, uv / indicatif blocks, page ends).
Each case is cleaned (``min_tokens=0``) in one display and every adopted one judged by tmux
(``tests/tmux_judge.judge``); the run counts how often each new path was taken (``paths``).

    PYTHONPATH=$PWD python fuzz/margin_fast_paths.py --count 200 --seed 1 --out /tmp/margin.jsonl
    PYTHONPATH=$PWD python fuzz/margin_fast_paths.py --matrix sized:10x4,fresh:20x6,fresh:80x24 \\
        --out /tmp/margin-matrix.jsonl

Sizes: 10x4, 20x6, 79x24, 80x24, 160x40 and a random one; ``unknown`` cleans without a size (judged at
80x24 and 200x60), ``no-terminal`` for pipes (judged at tmux's widest).

Known judge false alarm (on 13d3aa7 too, not these changes): ``b'AAAAAAAAB XYZ\r\nC\r\nD\r\nE\x1b[?1049hxyz'``
at 10x4. The history's last row ``AAAAAAAAB `` fills the width with a blank cell; ``subsequence_missing``
right-trims it to 9 characters before its ``held_from`` rule looks for the held screen's top row ``XYZ`` at that
offset of the kept line ``AAAAAAAAB XYZ`` (where it starts at 10), so it reports ``XYZ`` lost. tmux shows the
same rows for the raw and the candidate.
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

FAMILIES = {"one_cell_margin": fam.one_cell_margin, "frames_at_margin": fam.frames_at_margin}
MATRICES = {"one_cell_matrix": fam.one_cell_matrix, "frames_matrix": fam.frames_matrix,
            "pending_matrix": fam.pending_matrix}
DISPLAYS = ("sized", "fresh", "unknown", "no-terminal")
SIZES = [(10, 4), (20, 6), (79, 24), (80, 24), (160, 40)]

PATHS: Counter[str] = Counter()


def _count_paths() -> None:
    """Count the new paths taken (a string path ending pending at the margin; a one-cell run, not ASCII,
    reaching the margin in write), where the tree has them."""
    try:
        from textclean.pipeline.clean import screen
        from textclean.pipeline.clean.line import ONE_CELL_TEXT
    except ImportError:
        return
    overlay, write = screen.ScreenModel.overlay, screen.ScreenModel.write

    def counted_overlay(self, parts):  # type: ignore[no-untyped-def]
        taken = overlay(self, parts)
        PATHS["overlay_taken"] += taken
        PATHS["overlay_pending"] += bool(taken and self.pending_wrap)
        return taken

    def counted_write(self, text):  # type: ignore[no-untyped-def]
        if (self.width is not None and not text.isascii() and ONE_CELL_TEXT.fullmatch(text) is not None
                and self.col + len(text) >= self.width):
            PATHS["one_cell_to_margin"] += 1
        return write(self, text)

    screen.ScreenModel.overlay = counted_overlay  # type: ignore[method-assign]
    screen.ScreenModel.write = counted_write  # type: ignore[method-assign]


def _size(rng: random.Random) -> tuple[int, int]:
    if rng.random() < 0.85:
        return rng.choice(SIZES)
    return rng.randint(3, 200), rng.randint(3, 50)


def make(family: str, display: str, count: int, seed: int) -> list[tmux_judge.Case]:
    rng = random.Random(f"red34:{family}:{display}:{seed}")
    cases = []
    for _ in range(count):
        columns, rows = _size(rng)
        raw = FAMILIES[family](rng, columns, rows)
        cases.append(tmux_judge.display_case(raw, display, columns, rows, family))
    return cases


def run(batches: list[tuple[str, str, str, list[tmux_judge.Case]]], out: Path | None) -> Counter[str]:
    total: Counter[str] = Counter()
    with tmux_judge.server() as srv:
        for family, display, size, cases in batches:
            start = time.perf_counter()
            before = Counter(PATHS)
            tmux_judge.judge(cases, srv)
            bad = [c for c in cases if c.problems]
            adopted = sum(c.adopted for c in cases)
            raised = sum(any("raised" in p for p in c.problems) for c in cases)
            total.update(streams=len(cases), adopted=adopted, lossy=len(bad), raised=raised)
            total.update({f"{family}/{display}:{k}": v for k, v in
                          (("streams", len(cases)), ("adopted", adopted), ("lossy", len(bad)))})
            paths = dict(PATHS - before)
            reasons = Counter(getattr(c.result, "reason", None) for c in cases if c.result and not c.result.applied)
            print(f"{family:16s} {display:11s} {size:8s} streams={len(cases)} adopted={adopted} lossy={len(bad)} "
                  f"raised={raised} paths={paths} ({time.perf_counter() - start:.1f}s) "
                  f"refusals={dict(reasons.most_common(3))}", flush=True)
            for c in bad:
                c.report(display, out)
    print("TOTAL", {k: v for k, v in total.items() if "/" not in k}, dict(PATHS), flush=True)
    for key in sorted(k for k in total if "/" in k):
        print("  ", key, total[key])
    return total


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--families", default=",".join(FAMILIES))
    p.add_argument("--displays", default=",".join(DISPLAYS))
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path)
    p.add_argument("--matrix", default="",
                   help="the matrices (--families of MATRICES) at DISPLAY:COLSxROWS, comma-separated")
    a = p.parse_args()
    _count_paths()
    batches = []
    if a.matrix:
        names = [f for f in a.families.split(",") if f in MATRICES] or list(MATRICES)
        for spec in a.matrix.split(","):
            display, size = spec.split(":")
            columns, rows = (int(n) for n in size.split("x"))
            for name in names:
                cases = [tmux_judge.display_case(raw, display, columns, rows, label)
                         for label, raw in MATRICES[name](columns, rows)]
                for c in cases:
                    c.family = f"{name}:{c.family}"
                batches.append((name, display, size, cases))
    else:
        for family in a.families.split(","):
            for display in a.displays.split(","):
                batches.append((family, display, "mixed", make(family, display, a.count, a.seed)))
    run(batches, a.out)


if __name__ == "__main__":
    main()
