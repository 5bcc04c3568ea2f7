"""``python -m benchmarks.profile_kinds [--material DIR] [--top N]``: where ``clean()`` spends its time, by
input kind (issue 27).

Kinds: small captures (under 2 KB) and all committed captures (no terminal), the Terminal-Bench-shaped
sessions at 160x40 (``bench.tb_sessions``; ``--material`` adds local ``.cast`` recordings), and issue
23's REP chains and many small pages (1 MB at 80x24). For each: the gate's CPU time (tiktoken) against
a bare ansi-regex strip, split into the cleaner (``cleaner.candidate``), the verifier
(``verify.first_difference``), the tokenizer (the counts the gate makes) and the rest of the gate;
then the functions with the most own time under cProfile, for the cleaner and the verifier each.
Best of a few runs of CPU time (``time.process_time``): on a shared machine still only a guide.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks import bench
from textclean.pipeline import clean as cleaner
from textclean.pipeline import tokens, verify
from textclean.pipeline.gate import TextClean

MB = 1 << 20
Item = tuple[str, dict[str, Any]]


def kinds(material: Path | None) -> dict[str, list[Item]]:
    fixtures = [text for _, text in bench.load_fixtures(bench.DEFAULT_FIXTURES)]
    sessions = bench.tb_sessions(bench.DEFAULT_FIXTURES, material)
    return {
        "small captures (<2 KB)": [(t, {}) for t in fixtures if len(t) < 2048],
        "all committed captures": [(t, {}) for t in fixtures],
        "sessions at 160x40": [(t, {"columns": c, "rows": r}) for _, t, c, r in sessions],
        "REP chains, 1 MB at 80x24": [(bench.SIZED_SHAPES["REP chains"](MB), {"columns": 80, "rows": 24})],
        "many small pages, 1 MB at 80x24": [(bench.SIZED_SHAPES["many small pages"](MB),
                                             {"columns": 80, "rows": 24})],
        "many small pages, each different, 1 MB at 80x24": [
            (bench.SIZED_SHAPES["many small pages, each different"](MB), {"columns": 80, "rows": 24})],
    }


def best(fn: Callable[[], object], runs: int) -> float:
    gc.disable()
    try:
        times = []
        for _ in range(runs):
            start = time.process_time()
            fn()
            times.append(time.process_time() - start)
        return min(times)
    finally:
        gc.enable()


def _model(keywords: dict[str, Any]) -> dict[str, Any]:
    return {"columns": None, "rows": None, "terminal": bool(keywords), "fresh": False, **keywords}


def top(fn: Callable[[], object], files: tuple[str, ...], count: int) -> list[str]:
    profile = cProfile.Profile()
    profile.enable()
    fn()
    profile.disable()
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    total = sum(entry[2] for entry in stats.values()) or 1.0
    rows = sorted(((entry[2], entry[3], key) for key, entry in stats.items()
                   if Path(key[0]).as_posix().endswith(files)), reverse=True)[:count]
    return [f"{own / total * 100:5.1f}% own {cum / total * 100:5.1f}% cum  {Path(key[0]).name}:{key[1]}({key[2]})"
            for own, cum, key in rows]


# path endings, one side each: every module of the cleaner's package (and the probe), every module of the verifier's
_PIPELINE = Path(__file__).resolve().parent.parent / "textclean" / "pipeline"
CLEANER_FILES = ("pipeline/probe.py",
                 *sorted(f"pipeline/clean/{path.name}" for path in (_PIPELINE / "clean").glob("*.py")))
VERIFIER_FILES = tuple(sorted(f"pipeline/verify/{path.name}" for path in (_PIPELINE / "verify").glob("*.py")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.profile_kinds", description=__doc__.splitlines()[0])
    parser.add_argument("--material", type=Path, default=None, help="also the .cast recordings at 160x40 under DIR")
    parser.add_argument("--top", type=int, default=6, help="functions listed per side")
    parser.add_argument("--runs", type=int, default=3, help="best of this many runs")
    args = parser.parse_args(argv)
    gate, by_len = TextClean(min_tokens=0), TextClean(min_tokens=0, tokenizer=len)
    encoding = tokens.tiktoken_encoding(tokens.DEFAULT_ENCODING)
    for name, items in kinds(args.material).items():
        chars = sum(len(t) for t, _ in items)
        pairs = []
        for text, keywords in items:
            try:
                pairs.append((text, cleaner.candidate(text, **_model(keywords)).text, keywords))
            except cleaner.Refused:
                pass
        loops = max(1, int(MB // max(chars, 1)))

        def each(fn: Callable[[str, dict[str, Any]], object], loops: int = loops,
                 items: list[Item] = items) -> Callable[[], None]:
            def run() -> None:
                for _ in range(loops):
                    for text, keywords in items:
                        fn(text, keywords)
            return run

        def candidate(text: str, keywords: dict[str, Any]) -> None:
            try:
                cleaner.candidate(text, **_model(keywords))
            except cleaner.Refused:
                pass

        def verified(loops: int = loops, pairs: list[tuple[str, str, dict[str, Any]]] = pairs) -> None:
            for _ in range(loops):
                for text, proposal, keywords in pairs:
                    verify.first_difference(text, proposal, **_model(keywords))

        regex = best(each(lambda t, k: bench.strip_ansi(t)), args.runs)
        whole = best(each(lambda t, k: gate.clean(t, **k)), args.runs)
        untokenized = best(each(lambda t, k: by_len.clean(t, **k)), args.runs)
        clean = best(each(candidate), args.runs)
        check = best(verified, args.runs)
        counted = whole - untokenized
        rest = untokenized - clean - check
        print(f"== {name}: {len(items)} inputs, {chars / 1024:.0f} KB x{loops}: gate {whole * 1e3:.1f} ms = "
              f"{whole / regex:.1f}x ansi-regex ({whole / (chars * loops / MB):.2f} s/MB); cleaner "
              f"{clean / whole * 100:.0f}%, verifier {check / whole * 100:.0f}%, tokenizer "
              f"{counted / whole * 100:.0f}%, rest of the gate {rest / whole * 100:.0f}%; one encode_ordinary "
              f"{best(each(lambda t, k: encoding.encode_ordinary(t)), args.runs) / regex:.1f}x ansi-regex")
        print("   cleaner:")
        for line in top(each(candidate), CLEANER_FILES, args.top):
            print(f"     {line}")
        print("   verifier:")
        for line in top(verified, VERIFIER_FILES, args.top):
            print(f"     {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
