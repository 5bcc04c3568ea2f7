"""Every dispute op x settle/read at the pending-wrap column, judged by live tmux (sized, fresh, unknown).

Session 22's red team (families in tests/tmux_families_red.py)."""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import tmux_families_red as fam  # noqa: E402
from tests import tmux_judge  # noqa: E402


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    with tmux_judge.server() as srv:
        for display, (columns, rows) in [("sized", (40, 10)), ("fresh", (80, 24)), ("sized", (80, 24)),
                                         ("unknown", (80, 24)), ("sized", (160, 40))]:
            named = fam.matrix(columns, rows, b"\x1b[H\x1b[2J" if display == "sized" and columns == 160 else b"")
            cases = []
            for name, raw in named:
                if display == "unknown":
                    case = tmux_judge.Case(raw, None, None, name, [(80, 24), (200, 60)])
                else:
                    case = tmux_judge.Case(raw, columns, rows, name, fresh=display == "fresh")
                case.keeps_more_after_bel = False
                cases.append(case)
            tmux_judge.judge(cases, srv)
            adopted = Counter(c.family.split(">")[1] for c in cases if c.adopted)
            bad = [c for c in cases if c.problems]
            print(f"{display} {columns}x{rows}: streams={len(cases)} adopted={sum(adopted.values())} lossy={len(bad)}")
            print("   adopted by follow:", dict(adopted))
            print("   adopted by dispute:", dict(Counter(c.family.split(">")[0] for c in cases if c.adopted)))
            for c in bad:
                rec = {"name": c.family, "display": display, "raw": repr(c.raw), "columns": c.columns, "rows": c.rows,
                       "fresh": c.fresh, "candidate": repr(c.candidate), "problems": c.problems}
                print("   LOSS", json.dumps(rec)[:400])
                if out:
                    with out.open("a") as fh:
                        fh.write(json.dumps(rec) + "\n")


if __name__ == "__main__":
    main()
