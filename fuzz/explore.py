"""Red exploration (issue 41): the oracle-vs-tmux properties under the ``red`` profile, with new seeds.

The properties of ``tests/test_oracle_tmux.py`` (``plain``: generated streams, ``screen``: with cursor
moves, erases, regions and the alternate screen, ``disagreement``: issue 12's families) draw batches of
six streams each under hypothesis's ``red`` profile (``tests/hypothesis_profiles.py``) and one ``@seed``
per run. Unlike the tests, nothing stops at the first failure: every stream drawn for a seed goes to one
tmux server, each whose lines differ from the oracle's tmux flavour is reported, and in the
``disagreement`` property each the gate would adopt is judged as the test judges it (``judge_family``).
A finding is printed as an ``@example`` for the property and appended to ``--out`` as JSON.

    PYTHONPATH=$PWD python fuzz/explore.py --seeds 20 --examples 10 --out /tmp/explore.jsonl
    PYTHONPATH=$PWD python fuzz/explore.py --seed 1234 --examples 10 --properties disagreement   # replay

Without ``--seed`` each run draws new seeds (printed first); the same seed, example count and property
draw the same streams again. Exit 1 when anything was found. Never part of ``.ci/run``.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import hypothesis_profiles  # noqa: E402
from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from strategies import disagreements, screen_controls, terminal_streams  # noqa: E402

import oracle  # noqa: E402
from oracle import tmux  # noqa: E402
from oracle.screen import TMUX  # noqa: E402

BATCH = 6  # streams per example, as the properties draw them
PROPERTIES: dict[str, tuple[str, Callable[[], st.SearchStrategy[list[str]]]]] = {
    "plain": ("test_generated_streams_agree_with_tmux",
              lambda: st.lists(terminal_streams(), min_size=BATCH, max_size=BATCH)),
    "screen": ("test_generated_screen_streams_agree_with_tmux",
               lambda: st.lists(terminal_streams(extra_pieces=[screen_controls()] * 3), min_size=BATCH,
                                max_size=BATCH)),
    "disagreement": ("test_generated_disagreement_streams_agree_with_tmux",
                     lambda: st.lists(terminal_streams(extra_pieces=[disagreements()] * 3), min_size=BATCH,
                                      max_size=BATCH)),
}


def draw(name: str, run_seed: int, examples: int) -> list[str]:
    """The streams the property ``name`` draws under ``red`` with ``run_seed``, ``examples`` batches."""
    hypothesis_profiles.register()
    red = settings(settings.get_profile(hypothesis_profiles.RED), max_examples=examples,
                   phases=(Phase.generate,), suppress_health_check=list(HealthCheck))
    drawn: list[str] = []

    @seed(run_seed)
    @red
    @given(PROPERTIES[name][1]())
    def collect(streams: list[str]) -> None:
        drawn.extend(streams)

    collect()
    return drawn


def _lines(data: bytes, columns: int) -> list[str]:
    return oracle.render(data, columns=columns, lines=oracle.DEFAULT_LINES, flavour=TMUX).lines


def disagreeing(streams: list[str]) -> list[dict[str, Any]]:
    """Every stream whose oracle lines (tmux flavour) differ from tmux's, all fed to one tmux server."""
    datas = [stream.encode("utf-8", "surrogateescape") for stream in streams]
    jobs = [(data, oracle.estimate_columns(oracle.decode(data)), oracle.DEFAULT_LINES) for data in datas]
    with tmux.server() as server:
        captures = server.show_many(jobs)
    found = []
    for stream, data, capture in zip(streams, datas, captures, strict=True):
        try:
            mine: list[str] | str = _lines(data, capture.columns)
        except Exception as error:  # noqa: BLE001 (an oracle that raises is a finding too)
            mine = f"raised {error!r}"
        if mine != capture.lines:
            found.append({"kind": "oracle-vs-tmux", "stream": stream, "columns": capture.columns,
                          "tmux": capture.lines, "oracle": mine})
    return found


def gate_losses(streams: list[str]) -> list[dict[str, Any]]:
    """The disagreement property's second half: each stream the gate would adopt, judged as the test does."""
    import test_oracle_tmux as prop  # the test's own judge (tests/ is on the path)

    adopted = [stream for stream in streams if prop._adopted(stream) is not None]
    found = []
    try:
        prop.judge_family(adopted)
        return []
    except AssertionError:
        pass
    for stream in adopted:  # one by one, to name each
        try:
            prop.judge_family([stream])
        except AssertionError as error:
            found.append({"kind": "gate-vs-tmux", "stream": stream, "problem": str(error)[:2000]})
    return found


def report(finding: dict[str, Any], name: str, run_seed: int, out: Path | None) -> None:
    finding.update(property=name, test=PROPERTIES[name][0], seed=run_seed)
    data = finding["stream"].encode("utf-8", "surrogateescape")
    print(f"  FOUND {finding['kind']} ({name}, seed {run_seed})")
    print(f"    bytes:  {data!r}")
    for side in ("tmux", "oracle", "problem"):
        if side in finding:
            print(f"    {side + ':':7s} {finding[side]!r}"[:1000])
    print(f"    @example(streams=[{finding['stream']!r}])  # on tests/test_oracle_tmux.py::{finding['test']}")
    if out is not None:
        with out.open("a") as fh:
            fh.write(json.dumps(finding, ensure_ascii=True) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=1, help="how many new seeds (ignored with --seed)")
    parser.add_argument("--seed", type=int, action="append", help="replay this seed (repeatable)")
    parser.add_argument("--examples", type=int, default=10, help="batches of six streams per property and seed")
    parser.add_argument("--properties", default=",".join(PROPERTIES), help="comma-separated: " + ",".join(PROPERTIES))
    parser.add_argument("--out", type=Path, help="append each finding as one JSON line")
    args = parser.parse_args(argv)
    if not tmux.available():
        print("explore: tmux is not installed", file=sys.stderr)
        return 2
    names = args.properties.split(",")
    unknown = [name for name in names if name not in PROPERTIES]
    if unknown:
        print(f"explore: unknown properties {unknown}; choose from {list(PROPERTIES)}", file=sys.stderr)
        return 2
    seeds = args.seed or [secrets.randbits(32) for _ in range(args.seeds)]
    print(f"red exploration: seeds {seeds}, {args.examples} examples x {BATCH} streams per property {names}")
    totals = {"streams": 0, "findings": 0}
    for run_seed in seeds:
        for name in names:
            start = time.perf_counter()
            streams = draw(name, run_seed, args.examples)
            found = disagreeing(streams)
            if name == "disagreement":
                found += gate_losses(streams)
            totals["streams"] += len(streams)
            totals["findings"] += len(found)
            print(f"seed {run_seed} {name:12s} streams={len(streams)} findings={len(found)} "
                  f"({time.perf_counter() - start:.0f}s)", flush=True)
            for finding in found:
                report(finding, name, run_seed, args.out)
    print("TOTAL", totals, "seeds", seeds, flush=True)
    return 1 if totals["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
