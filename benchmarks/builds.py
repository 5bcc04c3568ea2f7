"""``python -m benchmarks.builds --compiled PYTHON``: issue 39's rows for the pure and the compiled build, in one run.

The same bench (:mod:`benchmarks.bench`, its ``issue27`` and ``hook`` sections by default) runs in turns:
the pure build (this interpreter, the repository's source) and the compiled build (``PYTHON``, an
interpreter whose installed ``textclean`` is the compiled wheel: ``TEXTCLEAN_COMPILE=1 python -m build
--wheel``, then ``pip install`` the wheel into a venv). Each turn is a new process that writes its table
of ratios (``--json``); every row here is the median over the turns of that build, each ratio itself
taken against its baseline inside one process, so the two columns compare like with like on a busy
machine. A turn that imported the other build than it was meant to stops the run.

The goals are issue 39's (the bench's own goals are older issues'): compiled, clean+verify <= 3x the
regex strip on captures and <= 4x on sessions at 160x40, the gate with ``tokens_before`` <= 1.2x one
encode, the hook on the noisy pip capture <= 3x a bare Python start; pure, sessions <= 8x; both, peak
memory <= 3x the input.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.bench import DEFAULT_FIXTURES, HOOK_LABELS, ISSUE27_LABELS

REPOSITORY = Path(__file__).resolve().parent.parent
BUILDS = ("pure", "compiled")

#: issue 39's goals: (the bench's label key, goal for pure, goal for compiled); None: for information
GOALS = (
    ("captures", None, 3.0),
    ("sessions", 8.0, 4.0),
    ("unsized", None, None),
    ("floor captures", None, None),
    ("floor sessions", None, None),
    ("gate captures", 1.2, 1.2),
    ("gate sessions", 1.2, 1.2),
    ("memory", 3.0, 3.0),
)
HOOK_GOALS = (("clean", None, None), ("noisy", 3.0, 3.0))


def _label_key(label: str) -> tuple[str, float | None, float | None] | None:
    """The issue-39 goals of a bench row, told by its label (the labels hold a count or a size)."""
    for key, pure, compiled in GOALS:
        head = ISSUE27_LABELS[key].split("{")[0]
        if label.startswith(head) and (label == ISSUE27_LABELS[key] or "{" in ISSUE27_LABELS[key]):
            return key, pure, compiled
    for key, pure, compiled in HOOK_GOALS:
        if label == HOOK_LABELS[key]:
            return f"hook {key}", pure, compiled
    return None


def _turn(python: str, build: str, bench_args: list[str], scratch: Path, index: int) -> dict[str, float]:
    """One process of the bench for one build: its ratios by label."""
    out = scratch / f"{build}-{index}.json"
    env = dict(os.environ)
    # the working directory holds the repository's packages but textclean: the pure build adds the
    # repository's source, the compiled one imports its installed package
    env["PYTHONPATH"] = str(REPOSITORY) if build == "pure" else ""
    env.pop("PYTHONSAFEPATH", None)
    command = [python, "-m", "benchmarks.bench", *bench_args, "--json", str(out)]
    done = subprocess.run(command, cwd=scratch, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        tail = (done.stdout + done.stderr)[-4000:]
        raise SystemExit(f"{build} turn {index + 1} failed (exit {done.returncode}):\n{tail}")
    table = json.loads(out.read_text())
    if table["build"] != build:
        raise SystemExit(f"the {build} turn imported the {table['build']} build: {done.stdout.splitlines()[0]}")
    print(f"  {build} turn {index + 1}: {done.stdout.splitlines()[0]}", flush=True)
    return {row["label"]: row["value"] for row in table["ratios"] if not row["skipped"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.builds", description=__doc__.splitlines()[0])
    parser.add_argument("--compiled", required=True, help="a Python whose installed textclean is the compiled build")
    parser.add_argument("--turns", type=int, default=3, help="bench processes per build, alternating (default 3)")
    parser.add_argument("--quick", action="store_true", help="the bench's small inputs (a smoke run)")
    parser.add_argument("--material", type=Path, default=None, help="the bench's --material (sessions at 160x40)")
    parser.add_argument("--only", action="append", default=None, help="bench sections (default: issue27, hook)")
    args = parser.parse_args(argv)
    bench_args = ["--fixtures", str(DEFAULT_FIXTURES.resolve())]
    for section in args.only or ["issue27", "hook"]:
        bench_args += ["--only", section]
    if args.quick:
        bench_args.append("--quick")
    if args.material is not None:
        bench_args += ["--material", str(args.material.resolve())]
    pythons = {"pure": sys.executable, "compiled": args.compiled}
    probe = subprocess.run([args.compiled, "-c", "from textclean.build import build; print(build())"],
                           cwd=tempfile.gettempdir(), env={**os.environ, "PYTHONPATH": ""},
                           capture_output=True, text=True)
    if probe.stdout.strip() != "compiled":
        raise SystemExit(f"{args.compiled} does not import a compiled textclean: "
                         f"{(probe.stdout + probe.stderr).strip().splitlines()[-1:] or 'no answer'}")
    runs: dict[str, list[dict[str, float]]] = {build: [] for build in BUILDS}
    with tempfile.TemporaryDirectory(prefix="textclean-builds-") as name:
        scratch = Path(name)
        for package in REPOSITORY.glob("*/__init__.py"):  # the bench's own imports, all but the package timed
            if package.parent.name != "textclean":
                (scratch / package.parent.name).symlink_to(package.parent)
        for index in range(args.turns):
            for build in BUILDS:
                runs[build].append(_turn(pythons[build], build, bench_args, scratch, index))
    labels = [label for label in runs["pure"][0] if all(label in run for build in BUILDS for run in runs[build])]
    print(f"\nmedians of {args.turns} turns per build, alternating")
    print(f"{'ratio':<78} {'pure':>8} {'goal':>6} {'compiled':>9} {'goal':>6}")
    missed = 0
    for label in labels:
        goals = _label_key(label)
        cells = []
        for build, goal in zip(BUILDS, (goals[1], goals[2]) if goals else (None, None), strict=True):
            value = statistics.median(run[label] for run in runs[build])
            mark = "" if goal is None else ("" if value <= goal else " MISS")
            missed += bool(mark)
            cells.append(f"{value:>7.2f}x {('<= ' + format(goal, 'g')) if goal else '':>6}{mark}")
        print(f"{label:<78} {cells[0]} {cells[1]}")
    print(f"{missed} of issue 39's goals missed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
