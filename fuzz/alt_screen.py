"""Session-33 red team: the judge's reading of an alternate screen never left (``alt_held``) and many
small pages that differ slightly (``pages_differ``), tests/tmux_families_red.py "session 33", in the
displays no-terminal / unknown / sized / fresh, judged by a live tmux 3.3a (tests/tmux_judge.py).

    PYTHONPATH=$PWD timeout 1200 python fuzz/alt_screen.py --families alt_held --count 300 --seed 1 --out /tmp/f.jsonl
    PYTHONPATH=$PWD timeout 1200 python fuzz/alt_screen.py --families pages_differ --count 40 --seed 1

``alt_held`` audits the judge as well: every adopted case is judged again the old way (no main screen
held under the alternate one: ``tmux_judge._show`` with ``held=False``), and every adopted case whose raw
enters the alternate screen is checked without the judge's lenient rules: (leave) raw and candidate each
followed by ``CSI ? 1049 l``, whose history and restored main screen must show every raw line in the
candidate's, in order, byte-identical; (text) what tmux showed just before the raw's first switch to the
alternate screen must be lines of the candidate's text before its first switch, when that text is plain.
A case that passes the judge but fails either is printed as AUDIT. ``pages_differ`` checks at most
``--points`` of a raw's breaks (the judge renders the raw up to each: quadratic in the page count).
"""

from __future__ import annotations

import argparse
import inspect
import json
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wcwidth import wcswidth  # noqa: E402

from tests import tmux_families_red as fam  # noqa: E402
from tests import tmux_judge  # noqa: E402

FAMILIES = {"alt_held": fam.alt_held, "pages_differ": fam.pages_differ}
DISPLAYS = ("no-terminal", "unknown", "sized", "fresh")
PAGE_SIZES = [(80, 24), (40, 10), (160, 40), (2, 2), (10, 4)]
_ALT_IN = re.compile(rb"\x1b\[\?[0-9;]*h")
LEAVE = b"\x1b[?1049l"
_ED3 = re.compile(rb"\x1b\[[0-9;]*3J")


def _alt_size(rng: random.Random) -> tuple[int, int]:
    columns = rng.choice([2, 3, 4, 5, 8, 10, 20, 40, 79, 80, 81, 120, 200, rng.randint(2, 200)])
    rows = rng.choice([2, 3, 4, 5, 8, 10, 24, 40, rng.randint(2, 40)])
    return columns, rows


def make(family: str, display: str, count: int, seed: int) -> list[tmux_judge.Case]:
    rng = random.Random(f"red33:{family}:{display}:{seed}")
    cases = []
    for _ in range(count):
        columns, rows = rng.choice(PAGE_SIZES) if family == "pages_differ" else _alt_size(rng)
        if display == "unknown":
            columns, rows = 80, 24
        raw = FAMILIES[family](rng, columns, rows)
        cases.append(tmux_judge.display_case(raw, display, columns, rows, family))
    return cases


def capped_points(limit: int):  # type: ignore[no-untyped-def]
    """tmux_judge.prefix_points keeping at most ``limit`` breaks: the first and last few, a fixed sample."""
    whole = tmux_judge.prefix_points

    def points(raw: bytes) -> list[int]:
        found = whole(raw)
        if len(found) <= limit:
            return found
        keep = set(found[: limit // 4] + found[-(limit // 4):])
        keep.update(random.Random(len(raw)).sample(found, limit - len(keep)))
        return sorted(keep)
    return points


# The judge's _show answers captures since the held screen says where it begins (held_from), lines before.
_CAPTURES = "held_from" in inspect.signature(tmux_judge.subsequence_missing).parameters


def _show_old(srv: tmux_judge.JudgeServer, jobs: Sequence[tuple[bytes, int, int]]) -> list[Any]:
    captures = srv.show_many(jobs, join_wrapped=True, held=False)
    return list(captures) if _CAPTURES else [capture.lines for capture in captures]


def _lines(shown: Any) -> list[str]:
    return shown.lines if hasattr(shown, "lines") else shown  # type: ignore[no-any-return]


def _strict_missing(shown: list[str], kept: list[str], columns: int | None = None,
                    erased_heads: bool = False) -> str | None:
    """The first non-blank line of ``shown`` not a line of ``kept`` (in order). With ``columns``, rows
    that fill the width may be joined with the rows after them when the join is exactly a kept line
    (tmux drops the wrap flag of the history's last row when the alternate screen scrolls)."""
    at = 0
    lines = [line for line in shown if line.strip()]
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        try:
            at = kept.index(line, at) + 1
            continue
        except ValueError:
            pass
        if erased_heads and any(k.endswith(line) and len(k) > len(line) for k in kept[at:]):
            at = next(n for n in range(at, len(kept)) if kept[n].endswith(line) and len(kept[n]) > len(line)) + 1
            continue  # ED 3 erased the first rows of a wrapped line (the policy keeps them)
        joined, j = line, i
        while columns and wcswidth(joined) % columns == 0 and j < len(lines):
            joined += lines[j]
            j += 1
            if joined in kept[at:]:
                at = kept.index(joined, at) + 1
                i = j
                break
        else:
            return line
    return None


def _first_alt(data: bytes) -> int | None:
    for m in _ALT_IN.finditer(data):
        if tmux_judge.on_alternate_screen(data[: m.end()]):
            return m.start()
    return None


def audit(cases: list[tmux_judge.Case], srv: tmux_judge.JudgeServer) -> Counter[str]:
    """Judge the adopted cases the old way and check the alternate-screen ones strictly (module doc)."""
    tally: Counter[str] = Counter()
    adopted = [c for c in cases if c.adopted and c.candidate is not None and _first_alt(c.raw) is not None]
    old = [tmux_judge.Case(c.raw, c.columns, c.rows, c.family, list(c.judge_sizes), candidate=c.candidate,
                           terminal=c.terminal, fresh=c.fresh, keeps_more_after_bel=False) for c in adopted]
    saved = tmux_judge._show
    tmux_judge._show = _show_old
    try:
        tmux_judge.judge(old, srv)
    finally:
        tmux_judge._show = saved
    jobs: list[tuple[bytes, int, int]] = []
    plan = []
    for c in adopted:
        shown = tmux_judge._logged if not c.terminal else (lambda d: d)
        raw_at, cand_at = _first_alt(c.raw), _first_alt(c.candidate or b"")
        cand_pre = (c.candidate or b"")[: cand_at if cand_at is not None else None]
        for columns, rows in c.judge_sizes:
            start = len(jobs)
            jobs += [(shown(c.raw + LEAVE), columns, rows), (shown((c.candidate or b"") + LEAVE), columns, rows),
                     (shown(c.raw[:raw_at]), columns, rows)]
            plan.append((c, columns, rows, start, cand_pre, raw_at))
    captures = tmux_judge._show(srv, jobs) if jobs else []
    for c, o in zip(adopted, old, strict=True):
        tally["alt_adopted"] += 1
        tally["alt_ends_on_alt"] += tmux_judge.on_alternate_screen(c.raw)
        tally["old_lossy"] += bool(o.problems)
        if o.problems and not c.problems:
            tally["pass_only_held"] += 1
            record = {"pass_only_held": o.problems, "family": c.family, "raw": repr(c.raw), "columns": c.columns,
                      "rows": c.rows, "terminal": c.terminal, "fresh": c.fresh, "candidate": repr(c.candidate)}
            print("    PASS-ONLY-HELD", json.dumps(record)[:700], flush=True)
            if AUDIT_OUT:
                with AUDIT_OUT.open("a") as fh:
                    fh.write(json.dumps(record) + "\n")
    for c, columns, rows, start, cand_pre, raw_at in plan:
        raw_left, cand_left, raw_pre = (_lines(captures[start + k]) for k in range(3))
        notes = []
        missing = _strict_missing(raw_left, cand_left, columns, erased_heads=_ED3.search(c.raw) is not None)
        if missing is not None:
            notes.append(f"{columns}x{rows}: after leaving, tmux shows {missing!r} for the raw, not for the candidate")
        pre = cand_pre if c.terminal else tmux_judge._logged(cand_pre)
        if tmux_judge._plain(pre):
            text = [line.rstrip("\r").rstrip(" ") for line in tmux_judge.decode(pre).split("\n")]
            missing = _strict_missing(raw_pre, text, erased_heads=_ED3.search(c.raw[:raw_at]) is not None)
            if missing is not None:
                notes.append(f"{columns}x{rows}: before the first switch tmux shows {missing!r}, not a line of the "
                             f"candidate's text before its switch")
        else:
            tally["text_unchecked"] += 1
        if notes:
            tally["audit_flags"] += 1
            passed_new = not c.problems
            record = {"audit": notes, "judge_new": c.problems, "family": c.family, "raw": repr(c.raw),
                      "columns": c.columns, "rows": c.rows, "terminal": c.terminal, "fresh": c.fresh,
                      "candidate": repr(c.candidate), "judge_passes": passed_new}
            tally["audit_flags_judge_passed"] += passed_new
            print("    AUDIT", json.dumps(record)[:700], flush=True)
            if AUDIT_OUT:
                with AUDIT_OUT.open("a") as fh:
                    fh.write(json.dumps(record) + "\n")
    return tally


AUDIT_OUT: Path | None = None


def matrix(runs: str, out: Path | None) -> None:
    """fam.alt_switch_matrix in each ``display:COLSxROWS`` of ``runs``, judged (and audited with --audit-out)."""
    total: Counter[str] = Counter()
    with tmux_judge.server() as srv:
        for run in runs.split(","):
            display, size = run.split(":")
            columns, rows = (int(n) for n in size.split("x"))
            cases = []
            for name, raw in fam.alt_switch_matrix(columns, rows):
                cases.append(tmux_judge.display_case(raw, display, columns, rows, name))
            start = time.perf_counter()
            tmux_judge.judge(cases, srv)
            bad = [c for c in cases if c.problems]
            adopted = sum(c.adopted for c in cases)
            extra = audit(cases, srv) if AUDIT_OUT else Counter()
            total.update(streams=len(cases), adopted=adopted, lossy=len(bad))
            total.update(extra)
            print(f"alt_switch_matrix {display:11s} {columns}x{rows} streams={len(cases)} adopted={adopted} "
                  f"lossy={len(bad)} {dict(extra)} ({time.perf_counter() - start:.1f}s)", flush=True)
            for c in bad:
                c.report(display, out)
    print("TOTAL", dict(total), flush=True)


def main() -> None:
    global AUDIT_OUT
    p = argparse.ArgumentParser()
    p.add_argument("--families", default=",".join(FAMILIES))
    p.add_argument("--displays", default=",".join(DISPLAYS))
    p.add_argument("--count", type=int, default=50)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--points", type=int, default=24, help="at most this many breaks per raw judged before")
    p.add_argument("--out", type=Path)
    p.add_argument("--audit-out", type=Path)
    p.add_argument("--matrix", default="", help="fam.alt_switch_matrix at these DISPLAY:COLSxROWS (comma-separated)")
    a = p.parse_args()
    AUDIT_OUT = a.audit_out
    tmux_judge.prefix_points = capped_points(a.points)
    if a.matrix:
        matrix(a.matrix, a.out)
        return
    total: Counter[str] = Counter()
    with tmux_judge.server() as srv:
        for family in a.families.split(","):
            for display in a.displays.split(","):
                start = time.perf_counter()
                cases = make(family, display, a.count, a.seed)
                tmux_judge.judge(cases, srv)
                bad = [c for c in cases if c.problems]
                adopted = sum(c.adopted for c in cases)
                total.update(streams=len(cases), adopted=adopted, lossy=len(bad))
                extra = audit(cases, srv) if family == "alt_held" else Counter()
                total.update(extra)
                reasons = Counter(getattr(c.result, "reason", None) for c in cases if c.result and not c.result.applied)
                print(f"{family:13s} {display:11s} streams={len(cases)} adopted={adopted} lossy={len(bad)} "
                      f"{dict(extra)} ({time.perf_counter() - start:.1f}s) refusals={dict(reasons.most_common(3))}",
                      flush=True)
                for c in bad:
                    c.report(display, a.out)
    print("TOTAL", dict(total), flush=True)


if __name__ == "__main__":
    main()
