"""Each side alone: the cleaner's candidate (textclean.pipeline.clean.candidate) judged by live tmux,
and the verifier's verdict on it (verify.first_difference), for the session-22 families and displays.
A cleaner candidate tmux flags that the verifier accepts is a gate loss; one the verifier rejects is a
cleaner bug the verifier caught."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz import disputes_in_displays  # noqa: E402
from tests import tmux_judge  # noqa: E402
from textclean.pipeline import clean, verify  # noqa: E402


def kw(case: tmux_judge.Case) -> dict:
    if not case.terminal:
        return {"columns": None, "rows": None, "terminal": False}
    return {"columns": case.columns, "rows": case.rows, "terminal": True, "fresh": case.fresh}


def main() -> None:
    families, displays, count, seed = sys.argv[1].split(","), sys.argv[2].split(","), int(sys.argv[3]), int(sys.argv[4])
    with tmux_judge.server() as srv:
        for family in families:
            for display in displays:
                judged = []
                for case in disputes_in_displays.make(family, display, count, seed):
                    text = case.raw.decode("utf-8", "surrogateescape")
                    try:
                        cand = clean.candidate(text, **kw(case)).text
                    except clean.Refused:
                        continue
                    except Exception as exc:  # noqa: BLE001
                        print("  CRASH cleaner", repr(case.raw)[:200], exc)
                        continue
                    if cand == text:
                        continue
                    try:
                        diff = verify.first_difference(text, cand, **kw(case))
                    except Exception as exc:  # noqa: BLE001
                        diff = f"raised {type(exc).__name__}: {exc}"
                    j = tmux_judge.Case(case.raw, case.columns, case.rows, family, list(case.judge_sizes),
                                        terminal=case.terminal, fresh=case.fresh,
                                        candidate=cand.encode("utf-8", "surrogateescape"))
                    j.keeps_more_after_bel = False
                    judged.append((j, diff))
                tmux_judge.judge([j for j, _ in judged], srv)
                lossy = [(j, d) for j, d in judged if j.problems]
                caught = sum(d is not None for _, d in lossy)
                wrongly_refused = sum(d is not None for j, d in judged if not j.problems)
                print(f"{family:16s} {display:11s} cleaner proposed={len(judged)} tmux-lossy={len(lossy)} "
                      f"(verifier caught {caught}, let through {len(lossy) - caught}); verifier rejected "
                      f"{wrongly_refused} tmux finds lossless", flush=True)
                for j, d in lossy:
                    print("   ", json.dumps({"raw": repr(j.raw), "display": display, "size": [j.columns, j.rows],
                                             "cand": repr(j.candidate), "verifier": str(d)[:150],
                                             "problems": [p[:150] for p in j.problems]})[:900], flush=True)


if __name__ == "__main__":
    main()
