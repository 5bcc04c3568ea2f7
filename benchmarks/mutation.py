"""``python benchmarks/mutation.py [TARGET ...]``: mutation testing of the pipeline's guarantees, by hand.

Not a CI step: it runs where the benchmark runs (minutes to hours on two cores). For each target it
copies the tree into ``.mutation/<target>/`` (ignored by git), writes a ``[tool.mutmut]`` section
that mutates only that target's modules and runs only the test files that guard them, runs
``mutmut run`` there (niced, bounded by ``--timeout``) and prints the score and every surviving
mutant. ``benchmarks/mutation-report.md`` holds the last scores and what each survivor means.

Targets: ``names``, ``grammar``, ``gate``, ``overlay``, ``verify`` (all by default). ``--functions GLOB``
narrows a target to some functions (mutmut names, e.g. ``'textclean.pipeline.verify.x_first_difference*'``).
Results are cached per target directory; ``--fresh`` starts over. Mutmut 3 mutates function bodies
only: module-level tables (names.py's constants, grammar.py's byte classes) are guarded by the
hand-written tests in ``tests/test_safety_net.py`` instead.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # oracle.corpora, when run as a script

#: target -> (modules to mutate, the test files that guard them)
TARGETS: dict[str, tuple[list[str], list[str]]] = {
    "names": (
        ["textclean/pipeline/names.py"],
        ["tests/test_safety_net.py", "tests/test_grammar.py", "tests/test_contract.py"],
    ),
    "grammar": (
        ["textclean/pipeline/grammar.py"],
        ["tests/test_safety_net.py", "tests/test_grammar.py"],
    ),
    "gate": (
        ["textclean/pipeline/gate.py"],
        # test_sessions_clean: the pages kept on the verifier's word; test_tokens: clean_many
        ["tests/test_safety_net.py", "tests/test_gate.py", "tests/test_sessions_clean.py", "tests/test_tokens.py"],
    ),
    "overlay": (
        ["textclean/pipeline/clean/line.py"],
        # the cleaner's string path for lines redrawn by CR and EL: proven equal to the walk there (narrow
        # it with --functions, e.g. '*ǁ_overlay_frames__mutmut*'; the rest of the row model is the walk)
        ["tests/test_clean_overlay.py"],
    ),
    "verify": (
        ["textclean/pipeline/verify/*.py"],
        # every verifier test file (the disputes, the findings' files), the contract's cases and the
        # red team's refusals: a rule guarded only by a file left out here shows as a survivor
        ["tests/test_safety_net.py", "tests/test_verify*.py", "tests/test_contract.py", "tests/test_red_team.py"],
    ),
}


def _test_files(patterns: list[str]) -> list[str]:
    """The patterns expanded in the tree (pytest is given files, not globs)."""
    return sorted({str(path.relative_to(ROOT)) for pattern in patterns for path in ROOT.glob(pattern)})

COPIED = ("textclean", "oracle", "fixtures_gen", "benchmarks", "fuzz", "tests", "docs", "README.md", "CHANGELOG.md")
ALSO_COPY = ["oracle/", "fixtures_gen/", "benchmarks/", "fuzz/", "docs/", "README.md", "CHANGELOG.md"]
STATUS = re.compile(r"^\s*(\S+): (.+)$")


def _config(modules: list[str], tests: list[str]) -> str:
    def toml_list(items: list[str]) -> str:
        return "[" + ", ".join(json.dumps(item) for item in items) + "]"

    return (
        "\n[tool.mutmut]\n"
        'source_paths = ["textclean/"]\n'
        f"only_mutate = {toml_list(modules)}\n"
        f"also_copy = {toml_list(ALSO_COPY)}\n"
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "-q"]\n'
        # a mutant that loops is stopped after 3x its tests' time (mutmut's default 15x: minutes each)
        "timeout_multiplier = 3.0\n"
        f"pytest_add_cli_args_test_selection = {toml_list(tests)}\n"
    )


def prepare(target: str, fresh: bool) -> Path:
    """The target's scratch copy of the tree, with its own mutmut configuration."""
    modules, patterns = TARGETS[target]
    tests = _test_files(patterns)
    work = ROOT / ".mutation" / target
    if fresh and work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", ".hypothesis", "*.pyc")
    for name in COPIED:
        if (ROOT / name).is_file():
            shutil.copy2(ROOT / name, work / name)
            continue
        if (work / name).exists():
            shutil.rmtree(work / name)
        shutil.copytree(ROOT / name, work / name, ignore=ignore)
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    project = project.split("\n[tool.mutmut]\n", 1)[0].rstrip("\n") + "\n"
    (work / "pyproject.toml").write_text(project + _config(modules, tests), encoding="utf-8")
    return work


def run(work: Path, timeout: int, children: int, functions: list[str]) -> int:
    """``mutmut run`` in ``work``, its progress spinner written to ``work/mutmut.log``."""
    command = ["nice", "-n", "10", "timeout", str(timeout), sys.executable, "-m", "mutmut", "run",
               "--max-children", str(children), *functions]
    env = dict(os.environ)
    if "TEXTCLEAN_CORPORA" not in env:  # the copy is not beside ../shared/corpora: name where it is
        from oracle import corpora

        found = corpora.locate()
        if found is not None:
            env["TEXTCLEAN_CORPORA"] = str(found)
    with open(work / "mutmut.log", "w", encoding="utf-8") as log:
        return subprocess.run(command, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT).returncode


def results(work: Path) -> dict[str, str]:
    """Every mutant's status (killed, survived, no tests, timeout, not checked, ...)."""
    out = subprocess.run([sys.executable, "-m", "mutmut", "results", "--all", "true"], cwd=work,
                         capture_output=True, text=True).stdout
    return {m.group(1): m.group(2).strip() for m in map(STATUS.match, out.splitlines()) if m}


def summary(target: str, statuses: dict[str, str]) -> str:
    counts: dict[str, int] = {}
    for status in statuses.values():
        counts[status] = counts.get(status, 0) + 1
    checked = sum(n for status, n in counts.items() if status != "not checked")
    killed = counts.get("killed", 0) + counts.get("timeout", 0)
    score = f"{100 * killed / checked:.1f} %" if checked else "n/a"
    detail = ", ".join(f"{status} {n}" for status, n in sorted(counts.items()))
    return f"{target}: {len(statuses)} mutants, {checked} checked, score {score} ({detail})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("targets", nargs="*", help=f"some of {', '.join(TARGETS)} (default: all)")
    parser.add_argument("--timeout", type=int, default=2400, help="seconds per target (default 2400)")
    parser.add_argument("--children", type=int, default=2, help="parallel mutant workers (default 2)")
    parser.add_argument("--functions", action="append", default=[], help="mutmut name glob (repeatable)")
    parser.add_argument("--fresh", action="store_true", help="forget cached results")
    args = parser.parse_args(argv)
    unknown = set(args.targets) - set(TARGETS)
    if unknown:
        parser.error(f"unknown targets: {', '.join(sorted(unknown))}")
    lines = []
    for target in args.targets or list(TARGETS):
        work = prepare(target, args.fresh)
        code = run(work, args.timeout, args.children, args.functions)
        statuses = results(work)
        survivors = sorted(name for name, status in statuses.items() if status not in ("killed", "timeout"))
        print(f"\n# {target} (mutmut exit {code}{', timed out' if code == 124 else ''}; log: {work / 'mutmut.log'})")
        if not statuses:
            print("    no mutants: mutmut mutates function bodies only (module-level tables are guarded by hand)")
        for name in survivors:
            print(f"    {name}: {statuses[name]}")
        lines.append(summary(target, statuses))
    print("\n" + "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
