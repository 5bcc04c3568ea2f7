"""A live tmux 3.3a as the judge of textclean's adoptions (red team, issue 11).

For a raw stream and a terminal size the judge cleans the text (``min_tokens=0``) and, if the gate
adopts, feeds the raw bytes to a private tmux server (``oracle/tmux.py``: tmux's default window
options, ``scroll-on-clear`` on), captures history + screen with wrapped rows joined
(``capture-pane -p -J -S - -E -``; a stream that ends on the alternate screen also shows the main
screen held under it, ``capture-pane -a``, between the two) and checks that every non-blank line tmux shows
(right-trimmed) is in what tmux shows for the candidate, in order. What tmux shows just before each
clear of the raw stream (ED 2/3, RIS, alternate screen in or out) is checked the same way, since every
line shown before a clear must survive (docs/design.md, 'Pages'). When the candidate is plain ASCII (no
escape, no tab) the check is also made on its bytes: every line tmux shows is a line of the candidate,
byte-identical. It also checks the gate's promises: a refusal returns the very same object, cleaning
an adopted text again changes nothing, bytes in give bytes out (where ``clean`` takes bytes).

Three displays (issue 28), as ``textclean.clean`` names them: a case written for **no terminal**
(``terminal=False``: pipes, logs) is cleaned so and judged by tmux at its widest, 10000 columns, after
the strings a log viewer ends at BEL are removed from both texts (``oracle.tmux.no_terminal``); a
case for a terminal of **unknown size** (``columns=None``) is judged at 80x24 and 200x60; a sized
case at its size (``fresh``: a new terminal, which every tmux window is).

Nothing here shares code with the cleaner or the verifier: tmux decides.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wcwidth import wcswidth

import textclean
from oracle import tmux

# A string the project's policy ends at BEL where tmux 3.3a reads on to ST (DCS, SOS, PM).
_BEL_ENDED_STRING = re.compile(rb"(?:\x1b[PX^_]|\xc2[\x90\x98\x9e\x9f])[^\x1b\x07\x18\x1a]*\x07")
# The breaks after which a terminal no longer shows what it showed just before (the contract's page
# breaks that can hide lines: ED 2 / ED 3 push or erase, RIS resets, the alternate screen switches).
_HIDING = re.compile(rb"\x1b\[[0-9;]*[23]J|\x1bc|\x1b\[\?[0-9;]*(?:1049|47|1047)[0-9;]*[hl]")

_ERASES_HISTORY = re.compile(rb"\x1b\[[0-9;]*3J")

available = tmux.available
server = tmux.server
JudgeServer = tmux.TmuxServer


def _show(srv: JudgeServer, jobs: Sequence[tuple[bytes, int, int]]) -> list[tmux.Capture]:
    """What tmux shows for each job, wrapped rows joined (``capture-pane -J``), with the main screen
    held under an alternate screen never left (it shows again when that screen is left)."""
    return srv.show_many(jobs, join_wrapped=True, held=True)


# ---------------------------------------------------------------------------------------------------


def display(columns: int | None, rows: int | None, terminal: bool = True, fresh: bool = False) -> dict[str, Any]:
    """The keywords ``textclean.clean`` takes for a display (issue 28)."""
    if not terminal:
        return {"terminal": False}
    return {"columns": columns, "rows": rows, "terminal": True, "fresh": fresh}


def clean(text: str, columns: int | None, rows: int | None, terminal: bool = True,
          fresh: bool = False) -> textclean.Result:
    return textclean.clean(text, min_tokens=0, **display(columns, rows, terminal, fresh))


def decode(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


@dataclass
class Case:
    """One raw stream cleaned for one size, judged at ``judge_sizes``."""

    raw: bytes
    columns: int | None  # the size given to clean (None: unknown)
    rows: int | None
    family: str = ""
    judge_sizes: list[tuple[int, int]] = field(default_factory=list)
    result: textclean.Result | None = None
    candidate: bytes | None = None
    problems: list[str] = field(default_factory=list)
    terminal: bool = True  # False: no terminal (then columns/rows are None), judged at tmux's widest
    fresh: bool = False  # a new terminal (cleaned so; every tmux window is one)
    # At a terminal, a line tmux shows before a BEL-ended DCS/SOS/PM/APC may be found inside a candidate's
    # line that shows more (the policy before issue 23 item 2). False: the line itself must be there, as
    # once the models refuse text after such a BEL at a terminal (models.md item 1).
    keeps_more_after_bel: bool = True

    def report(self, display: str, out: Path | None = None) -> None:
        """Print a lossy case as one JSON record (cut to 500 characters), and append it whole to ``out``."""
        record = {"family": self.family, "display": display, "raw": repr(self.raw), "columns": self.columns,
                  "rows": self.rows, "fresh": self.fresh, "terminal": self.terminal,
                  "candidate": repr(self.candidate), "problems": self.problems}
        print("   ", json.dumps(record)[:500], flush=True)
        if out:
            with out.open("a") as fh:
                fh.write(json.dumps(record) + "\n")

    @property
    def adopted(self) -> bool:
        """The gate adopted a candidate (or the case came with one to judge, ``result`` left None)."""
        if self.result is None:
            return self.candidate is not None
        return self.result.applied


def display_case(raw: bytes, display: str, columns: int, rows: int, family: str) -> Case:
    """A red-team case in one of the drivers' displays: ``no-terminal`` (judged at tmux's widest),
    ``unknown`` (cleaned without a size, judged at 80x24 and 200x60), ``sized`` or ``fresh`` (at
    ``columns`` x ``rows``). After a BEL-ended string the line itself must be there (``keeps_more_after_bel``
    off, as the models refuse text after such a BEL at a terminal)."""
    if display == "no-terminal":
        case = Case(raw, None, None, family, [(tmux.NO_TERMINAL_COLUMNS, 24)], terminal=False)
    elif display == "unknown":
        case = Case(raw, None, None, family, [(80, 24), (200, 60)])
    else:
        case = Case(raw, columns, rows, family, fresh=display == "fresh")
    case.keeps_more_after_bel = False
    return case


def _cut_by_a_hidden_row(line: str, columns: int | None) -> bool:
    """A history row that filled the width: its continuation may be on a screen tmux is not showing
    (the main screen under the alternate one), so ``-J`` could not join it."""
    if columns is None:
        return False
    width = wcswidth(line)
    return width > 0 and width % columns in (0, columns - 1)


def _keeps_more(line: str, kept: str) -> bool:
    """Every character of ``line`` is in ``kept``, in order (a policy that shows strictly more)."""
    it = iter(kept)
    return all(c in it for c in line if c != " ")


_PRIVATE_MODES = re.compile(rb"\x1b\[\?([0-9;]*)([hl])")
_ALT_MODES = {1049, 1047, 47}


def on_alternate_screen(prefix: bytes) -> bool:
    """Whether the stream ``prefix`` leaves tmux showing the alternate screen (tmux reads a mode list
    field by field, leading zeros and all: ``?01049h``, ``?25;1049h``)."""
    last = False
    for fields, final in _PRIVATE_MODES.findall(prefix):
        if any(f.isdigit() and int(f) in _ALT_MODES for f in fields.split(b";")):
            last = final == b"h"
    return last


def subsequence_missing(
    shown: list[str], kept: list[str], columns: int | None = None, *, more: bool = False,
    alternate_top: bool = False, erased_heads: bool = False, held_from: int | None = None,
) -> str | None:
    """The first non-blank line of ``shown`` not found, in order, among ``kept``; None if all are.
    ``more``: a line may also be found inside a kept line that shows strictly more (the documented
    policy that ends DCS/SOS/PM/APC at BEL, where tmux swallows on to ST). ``alternate_top``: ``shown``
    ends on the alternate screen, whose top row may continue a row scrolled away (one line, the first no
    other rule finds, may be matched as a tail).
    ``erased_heads``: the raw erased its history (ED 3), which can take the first rows of a wrapped line
    and leave its last ones on the screen: a line may be found as the tail of a kept line (the policy
    keeps what ED 3 erased).
    ``held_from``: the index in ``shown`` of the main screen held under the alternate one
    (``Capture.held_from``). Its top row may continue the history's last row where that row filled the
    width: it is then matched as the rest of the kept line the row began, at that boundary only."""
    at = 0
    tail_left = True
    cut: tuple[int, int] | None = None  # the kept line the history's last row began, and how far
    for index, line in enumerate(shown):
        if not line.strip():
            continue
        continued, cut = (cut if index == held_from else None), None
        try:
            at = kept.index(line, at) + 1
        except ValueError:
            found = None
            if continued is not None and kept[continued[0]].startswith(line, continued[1]):
                # the rest of that line: tmux 3.3a drops the wrap flag of the row above a region that
                # scrolls on the alternate screen, so the held main screen's top row starts a line
                found = continued[0]
            if found is None and erased_heads and columns is not None:
                found = next((i for i in range(at, len(kept))
                              if kept[i].endswith(line) and wcswidth(kept[i]) > columns), None)
            if found is None and _cut_by_a_hidden_row(line, columns):
                found = next((i for i in range(at, len(kept)) if kept[i].startswith(line)), None)
                if found is not None and held_from is not None and index == held_from - 1:
                    cut = (found, len(line))
            if found is None and more:
                found = next((i for i in range(at, len(kept)) if _keeps_more(line, kept[i])), None)
            if found is None and tail_left and alternate_top:
                # no history there: its top row may continue a row scrolled away (below the main
                # screen's history, so it is the first line no other rule finds, not the first shown)
                tail_left = False
                found = next((i for i in range(at, len(kept)) if kept[i].endswith(line)), None)
            if found is None:
                return line
            at = found + 1
    return None


def prefix_points(raw: bytes) -> list[int]:
    """Offsets just before each hiding break (what tmux showed then must survive)."""
    points = sorted({m.start() for m in _HIDING.finditer(raw)})
    return [p for p in points if p > 0]


def prepare(case: Case) -> None:
    """Clean, and check the gate's promises that need no terminal."""
    text = decode(case.raw)
    try:
        result = clean(text, case.columns, case.rows, case.terminal, case.fresh)
    except Exception as exc:  # noqa: BLE001 - a crash is a finding
        case.problems.append(f"clean raised {type(exc).__name__}: {exc}")
        return
    case.result = result
    if not result.applied:
        if result.text is not text:
            case.problems.append("refusal did not return the very same object")
        return
    try:
        again = clean(result.text, case.columns, case.rows, case.terminal, case.fresh)
    except Exception as exc:  # noqa: BLE001
        case.problems.append(f"clean(candidate) raised {type(exc).__name__}: {exc}")
        return
    if again.applied and again.text != result.text:
        case.problems.append(f"not idempotent: {result.text!r} -> {again.text!r}")
    case.candidate = encode(result.text)
    try:
        out = textclean.clean(case.raw, min_tokens=0, **_size_kwargs(case))
    except Exception as exc:  # noqa: BLE001
        case.problems.append(f"clean(bytes) raised {type(exc).__name__}: {exc}")
        out = None
    if out is not None:
        if not isinstance(out.text, bytes):
            case.problems.append(f"clean(bytes) returned {type(out.text).__name__}")
        elif out.applied and out.text != case.candidate:
            case.problems.append("clean(bytes) and clean(str) adopt different texts")


def _size_kwargs(case: Case) -> dict[str, Any]:
    return display(case.columns, case.rows, case.terminal, case.fresh)


def _plain(data: bytes) -> bool:
    """Text whose lines tmux shows byte for byte: printable ASCII, LF and CR (tmux drops characters
    its width table does not know, so beyond ASCII only the rendered comparison is fair)."""
    return not re.search(rb"[^\x20-\x7e\n\r]", data)


def _logged(data: bytes) -> bytes:
    """What no terminal shows tmux: the strings a log viewer ends at BEL removed."""
    return tmux.no_terminal(data)[0]


def _as_it_is(data: bytes) -> bytes:
    return data


def judge(cases: Sequence[Case], srv: JudgeServer) -> None:
    """Clean every case, render the adopted ones in tmux, record problems on each case. A case that
    comes with a ``candidate`` (and no ``result``) is judged as it is, without cleaning."""
    for case in cases:
        if case.candidate is None:
            prepare(case)
        if not case.judge_sizes:
            if not case.terminal:
                case.judge_sizes = [(tmux.NO_TERMINAL_COLUMNS, case.rows or 24)]
            elif case.columns is not None:
                case.judge_sizes = [(case.columns, case.rows or 24)]
            else:
                case.judge_sizes = [(80, 24), (200, 60)]
    jobs: list[tuple[bytes, int, int]] = []
    plan: list[tuple[Case, int, int, int, int, list[int]]] = []
    for case in cases:
        if not case.adopted or case.candidate is None:
            continue
        shown = _logged if not case.terminal else _as_it_is
        for columns, rows in case.judge_sizes:
            start = len(jobs)
            jobs.append((shown(case.raw), columns, rows))
            jobs.append((shown(case.candidate), columns, rows))
            points = prefix_points(case.raw)
            jobs.extend((shown(case.raw[:p]), columns, rows) for p in points)
            plan.append((case, columns, rows, start, len(points), points))
    captures = _show(srv, jobs)
    for case, columns, rows, start, count, points in plan:
        raw_capture = captures[start]
        raw_lines, cand_lines = raw_capture.lines, captures[start + 1].lines
        candidate = case.candidate if case.terminal else _logged(case.candidate or b"")
        plain = _plain(candidate or b"")
        # No terminal: the strings a log viewer ends at BEL are gone from both texts, nothing swallows.
        more = case.terminal and case.keeps_more_after_bel and _BEL_ENDED_STRING.search(case.raw) is not None
        cand_text_lines = [line.rstrip("\r").rstrip(" ") for line in decode(candidate or b"").split("\n")]
        on_alt = on_alternate_screen(case.raw)
        erased = _ERASES_HISTORY.search(case.raw) is not None
        missing = subsequence_missing(raw_lines, cand_lines, columns, more=more, alternate_top=on_alt,
                                      erased_heads=erased, held_from=raw_capture.held_from)
        if missing is not None:
            case.problems.append(f"{columns}x{rows}: tmux shows {missing!r}, not in the candidate's rendering")
        if plain:
            missing = subsequence_missing(raw_lines, cand_text_lines, columns, more=more, alternate_top=on_alt,
                                          erased_heads=erased, held_from=raw_capture.held_from)
            if missing is not None:
                case.problems.append(f"{columns}x{rows}: tmux shows {missing!r}, not a line of the candidate")
        for i in range(count):
            before = captures[start + 2 + i]
            shown = before.lines
            target = cand_text_lines if plain else cand_lines
            if not plain and _HIDING.search(case.candidate or b""):
                continue  # the candidate's own clears hide lines from its capture: final check only
            missing = subsequence_missing(shown, target, columns, more=more,
                                          alternate_top=on_alternate_screen(case.raw[:points[i]]),
                                          erased_heads=_ERASES_HISTORY.search(case.raw[:points[i]]) is not None,
                                          held_from=before.held_from)
            if missing is not None:
                case.problems.append(
                    f"{columns}x{rows}: before the break at {points[i]} tmux showed {missing!r}, lost")
                break


def judge_families(make: Callable[[str, str], list[Case]], families: str, displays: str,
                   out: Path | None = None) -> Counter[str]:
    """The red-team drivers' loop: each family in each display (comma-separated names) cleaned, judged by
    one tmux server and counted on one line; each lossy case reported. Returns the totals."""
    total: Counter[str] = Counter()
    with server() as srv:
        for family in families.split(","):
            for display in displays.split(","):
                start = time.perf_counter()
                cases = make(family, display)
                judge(cases, srv)
                bad = [c for c in cases if c.problems]
                adopted = sum(c.adopted for c in cases)
                total.update(streams=len(cases), adopted=adopted, lossy=len(bad))
                reasons = Counter(getattr(c.result, "reason", None) for c in cases if c.result and not c.result.applied)
                print(f"{family:16s} {display:11s} streams={len(cases)} adopted={adopted} lossy={len(bad)} "
                      f"({time.perf_counter() - start:.1f}s) refusals={dict(reasons.most_common(3))}", flush=True)
                for c in bad:
                    c.report(display, out)
    print("TOTAL", dict(total), flush=True)
    return total
