"""Shrink a stream the tmux judge flags to a short one it still flags (batched ddmin over bytes).

    PYTHONPATH=$PWD python fuzz/tmux_minimise.py --raw "b'...'" --size 80x24 [--match SUBSTRING]

``--fresh``: cleaned for a new terminal of that size.
``--size none`` cleans for a terminal of unknown size (judged at 80x24 and 200x60); ``--size
no-terminal`` for no terminal (judged by tmux at 10000 columns after the BEL-ended strings go). Each round judges every
candidate reduction in one tmux batch; a reduction is kept when the judge still reports a problem
(containing ``--match`` when given).
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import tmux_judge  # noqa: E402


def _flags(srv, datas, columns, rows, match, terminal=True, fresh=False):
    sizes = [] if columns or not terminal else [(80, 24), (200, 60)]
    cases = [tmux_judge.Case(d, columns, rows, "min", list(sizes), terminal=terminal, fresh=fresh) for d in datas]
    tmux_judge.judge(cases, srv)
    return [bool(c.problems) and (match is None or any(match in p for p in c.problems)) for c in cases]


def minimise(data: bytes, columns, rows, match=None, terminal=True, fresh=False) -> bytes:
    with tmux_judge.server() as srv:
        assert _flags(srv, [data], columns, rows, match, terminal, fresh)[0], "the judge does not flag the input"
        n = 2
        while len(data) >= 2:
            size = max(1, len(data) // n)
            chunks = [(i, min(i + size, len(data))) for i in range(0, len(data), size)]
            trials = [data[:a] + data[b:] for a, b in chunks]
            flagged = _flags(srv, trials, columns, rows, match, terminal, fresh)
            hit = next((t for t, f in zip(trials, flagged, strict=True) if f), None)
            if hit is not None:
                data = hit
                n = max(n - 1, 2)
                print(len(data), repr(data)[:200], flush=True)
                continue
            if size == 1:
                break
            n = min(len(data), n * 2)
    return data


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--raw", required=True)
    p.add_argument("--size", default="none")
    p.add_argument("--match")
    p.add_argument("--fresh", action="store_true", help="cleaned for a new terminal (every tmux window is one)")
    a = p.parse_args()
    raw = ast.literal_eval(a.raw)
    terminal = a.size != "no-terminal"
    if a.size in ("none", "no-terminal"):
        columns = rows = None
    else:
        columns, rows = (int(x) for x in a.size.split("x"))
    out = minimise(raw, columns, rows, a.match, terminal, a.fresh)
    print("MINIMAL", repr(out))


if __name__ == "__main__":
    main()
