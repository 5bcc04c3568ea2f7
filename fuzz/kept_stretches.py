"""Red team for the smallest kept stretch (issue 40), judged by a live tmux.

    PYTHONPATH=$PWD python fuzz/kept_stretches.py --seed 1 --count 300

Generated raw texts with a refused control after ordinary coloured lines (``fuzz/stream_cuts.py``'s
families, and ``refused_between``: coloured lines, a control the gate refuses, more lines, sometimes a
second refusal) are cleaned once, no terminal (``clean(raw, min_tokens=0)``). Every text adopted with
kept stretches is judged against its raw text by a live tmux (``tests/tmux_judge.py``, display
"no-terminal") and by the oracle. Each kept stretch must be the raw text itself, from a cut point both
readings confirm on the raw text or (a later pass) on the text cleaned. The text cleaned again must come
back unchanged. A finding is printed as one JSON line.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import stream_cuts  # noqa: E402

import oracle  # noqa: E402
import textclean  # noqa: E402
from tests import tmux_judge  # noqa: E402
from textclean.pipeline import kept  # noqa: E402

#: Controls the gate refuses for no terminal (a state a later line would read, C1, malformed, a move past 24 rows).
REFUSED = [b"\x1b[H", b"\x1b[2J", b"\x1b[5;1H", b"\x1b[2;10r", b"\x1b7", b"\x1b[?1049h", b"\x1b[?1049l", b"\x1bc",
           b"\x1b[1J", b"\x1b[s", b"\x1b[4h", b"\x1b[5d", b"\xc2\x85", b"\x0b", b"\x0c", b"\x1b[30A", b"\x1b[0%m",
           b"\x1b[3L", b"\x1b[2M", b"\x1b[2P", b"\x1b[S", b"\x1b(0"]


def refused_between(rng: random.Random) -> bytes:
    out = [stream_cuts.sgr_lines(rng), stream_cuts._plain(rng, rng.choice([0, 3, 25, 30]))]
    for _ in range(rng.randint(1, 2)):
        out.append(stream_cuts._line(rng) + rng.choice(REFUSED) + stream_cuts._line(rng) + b"\n")
        out.append(rng.choice([stream_cuts.sgr_lines, stream_cuts.progress, stream_cuts.line_end_redraws])(rng))
    return b"".join(out)


FAMILIES = {"refused_between": refused_between, **stream_cuts.FAMILIES}


def check(raw: bytes) -> tuple[textclean.Result[bytes], list[str]]:
    result = textclean.clean(raw, min_tokens=0)
    problems = []
    if result.kept:
        text = raw.decode("utf-8", "surrogateescape")
        cleaned = textclean.clean(text, min_tokens=0)
        # a cut point of the raw text, or (a later pass) of the text cleaned, where the raw run starts
        cuts = set(kept.cut_points(text)) | {0, len(text)}
        shift = len(text) - len(cleaned.text)
        cuts |= {cut + shift for cut in kept.cut_points(cleaned.text)}
        for stretch in cleaned.kept:
            if stretch.start not in cuts or stretch.end not in cuts:
                problems.append(f"stretch {stretch} not between cut points")
        last = result.kept[-1]
        if last.end == len(raw) and not result.text.endswith(raw[last.start:]):
            problems.append("the last kept stretch is not the raw text")
        if not oracle.check_lossless(raw, result.text, terminal=False):
            problems.append("oracle: " + oracle.check_lossless(raw, result.text, terminal=False).describe()[:200])
        again = textclean.clean(result.text, min_tokens=0)
        if again.applied and again.text != result.text:
            problems.append("cleaned again, it changes")
    return result, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--families", default=",".join(FAMILIES))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    names = args.families.split(",")
    tally: Counter[str] = Counter()
    cases, found = [], 0
    for i in range(args.count):
        family = names[i % len(names)]
        raw = FAMILIES[family](rng)
        result, problems = check(raw)
        tally["kept" if result.kept else "adopted whole" if result.applied else "refused"] += 1
        if result.kept:
            tally[f"kept/{family}"] += 1
            case = tmux_judge.display_case(raw, "no-terminal", 80, 24, family)
            case.problems.extend(problems)
            cases.append(case)
    with tmux_judge.server() as srv:
        tmux_judge.judge(cases, srv)
    for case in cases:
        if case.problems or not case.adopted:
            found += 1
            print(json.dumps({"family": case.family, "raw": repr(case.raw)[:400], "problems": case.problems,
                              "adopted": case.adopted})[:900])
    print(f"seed {args.seed}: {args.count} texts, {dict(sorted(tally.items()))}; "
          f"{len(cases)} adopted with kept stretches judged by tmux, {found} findings")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
