"""The gate profiles draw the same examples on every run; ``red`` draws new ones (issue 41).

Each check runs ``tests/draw_probe.py`` in a pytest of its own, which writes every example it draws
(``$DRAW_PROBE_OUT``). ``PYTHONHASHSEED`` differs between the runs, so set order cannot hide in a draw;
``.ci/run`` sets the ``ci`` profile, with ``CI`` or without.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from fuzz import explore
from oracle import tmux

ROOT = Path(__file__).resolve().parent.parent
PROBE = "tests/draw_probe.py"


def drawn(tmp_path: Path, name: str, *, hash_seed: int, extra: dict[str, str] | None = None,
          args: tuple[str, ...] = (), quiet: bool = True) -> tuple[list[str], str]:
    """What the probe drew, one repr per example in order, and pytest's output."""
    out = tmp_path / f"{name}.txt"
    env = {key: value for key, value in os.environ.items()
           if key not in ("CI", "TEXTCLEAN_HYPOTHESIS_PROFILE") and not key.startswith("HYPOTHESIS")}
    env.update(PYTHONPATH=str(ROOT), PYTHONHASHSEED=str(hash_seed), DRAW_PROBE_OUT=str(out), **(extra or {}))
    run = subprocess.run([sys.executable, "-m", "pytest", *(["-q"] if quiet else []), "-p", "no:cacheprovider",
                          PROBE, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    draws = out.read_text(encoding="utf-8").splitlines()
    assert len(draws) >= 50, run.stdout  # 30 examples per property, fewer where the space runs out
    return draws, run.stdout


def test_plain_pytest_draws_the_same_examples_every_run(tmp_path: Path) -> None:
    first, _ = drawn(tmp_path, "dev-1", hash_seed=1)
    again, _ = drawn(tmp_path, "dev-2", hash_seed=2)
    assert first == again


def test_the_ci_profile_draws_the_same_with_ci_set_or_not(tmp_path: Path) -> None:
    as_ci_run, _ = drawn(tmp_path, "ci-run", hash_seed=3, extra={"TEXTCLEAN_HYPOTHESIS_PROFILE": "ci"})
    with_ci, _ = drawn(tmp_path, "ci-run-ci", hash_seed=4, extra={"TEXTCLEAN_HYPOTHESIS_PROFILE": "ci", "CI": "true"})
    assert as_ci_run == with_ci


def test_ci_run_gates_with_the_ci_profile() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    assert 'export TEXTCLEAN_HYPOTHESIS_PROFILE="${TEXTCLEAN_HYPOTHESIS_PROFILE:-ci}"' in script
    assert re.search(r"^\s*ci\|thorough\) ;;$", script, re.MULTILINE)  # red (or anything else) refused


def test_red_draws_new_examples_and_replays_the_seed_it_prints(tmp_path: Path) -> None:
    red = {"TEXTCLEAN_HYPOTHESIS_PROFILE": "red"}
    first, out = drawn(tmp_path, "red-1", hash_seed=1, extra=red, quiet=False)
    printed = re.search(r"red exploration, seed (\d+): replay with .*--hypothesis-seed=\1", out)
    assert printed, out
    replayed, _ = drawn(tmp_path, "red-replay", hash_seed=2, extra=red, args=(f"--hypothesis-seed={printed[1]}",))
    assert replayed == first
    second, _ = drawn(tmp_path, "red-2", hash_seed=1, extra=red)
    assert second != first


def test_explore_replays_a_seed_and_reports_each_disagreement(monkeypatch: pytest.MonkeyPatch) -> None:
    """``fuzz/explore.py``: a seed draws the same batches again, another seed others; a stream whose oracle
    lines differ from tmux's is reported (planted: an oracle that drops the last line)."""
    assert explore.draw("disagreement", 41, 3) == explore.draw("disagreement", 41, 3)
    assert explore.draw("disagreement", 41, 3) != explore.draw("disagreement", 42, 3)
    if not tmux.available():
        pytest.skip("tmux is not installed (.ci/run installs it)")
    streams = ["ab\r\n\udce6\udc97\x1b_1;2\n\x1a\x1b]8;;\x07Ü end\r\nlast\r\n", "one\ntwo\n"]
    assert explore.disagreeing(streams) == []
    monkeypatch.setattr(explore, "_lines", lambda data, columns: ["ab", "Ü end"] if b"last" in data else [])
    found = explore.disagreeing(streams)
    assert [(f["stream"], f["tmux"], f["oracle"]) for f in found] == [
        (streams[0], ["ab", "Ü end", "last"], ["ab", "Ü end"]), (streams[1], ["one", "two"], [])]
