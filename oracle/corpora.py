"""Peer emulators' test suites (``../shared/corpora``): real terminals' answers to raw streams.

Each suite is replayed at its own screen size (not the oracle's "as wide as the longest line"
model) and compared on visible text only: every screen row, right-trimmed, trailing blank rows
dropped. The suites are never copied into this repository; :func:`locate` finds them beside it.

* ``xtermjs``: ``tNNNN-NAME.in`` fed through a pty (so LF implies CR) to a real xterm at 80x25;
  ``.text`` is its screen (plus a 26th empty line).
* ``alacritty``: ``alacritty.recording`` = bytes read from the pty master (``onlcr`` already
  applied, so LF is a bare line feed) and ``grid.json`` = alacritty's grid at ``size.json``.
* ``pyte``: pyte's own captures at 80x24 (a regression reference, not an independent terminal).

Where xterm and tmux disagree at the right margin (:data:`oracle.screen.FLAVOURS`) each suite is
replayed with its terminal's behaviour: xterm for xterm.js's and pyte's, tmux for alacritty's.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyte

from .render import render
from .screen import ALACRITTY, XTERM

ENVIRONMENT_VARIABLE = "TEXTCLEAN_CORPORA"
SPACER_FLAGS = ("WIDE_CHAR_SPACER", "LEADING_WIDE_CHAR_SPACER")


@dataclass(frozen=True)
class Case:
    suite: str
    name: str
    data: bytes
    columns: int
    lines: int
    expected: tuple[str, ...]  # screen rows, right-trimmed, trailing blank rows dropped
    onlcr: bool
    flavour: str  # the terminal's right-margin behaviour (oracle.screen.FLAVOURS)


def locate(repo_root: Path | None = None) -> Path | None:
    """``$TEXTCLEAN_CORPORA``, else ``<repo>/../shared/corpora``; ``None`` when absent.

    ``TEXTCLEAN_CORPORA`` set to an empty string means "no suites", even with ``../shared`` beside the
    repository: how CI proves that a clone alone passes its tests."""
    override = os.environ.get(ENVIRONMENT_VARIABLE)
    if override is not None:
        if not override:
            return None
        path = Path(override)
    else:
        root = repo_root or Path(__file__).resolve().parent.parent
        path = root.parent / "shared" / "corpora"
    return path if path.is_dir() else None


def _trim(rows: list[str]) -> tuple[str, ...]:
    rows = [row.rstrip(" ") for row in rows]
    while rows and not rows[-1]:
        rows.pop()
    return tuple(rows)


def xtermjs_cases(root: Path) -> list[Case]:
    cases = []
    folder = root / "xtermjs"
    for source in sorted(folder.glob("t*.in")):
        expected = source.with_suffix(".text")
        if not expected.exists():
            continue
        rows = expected.read_bytes().decode("utf-8", "replace").split("\n")[:25]
        data = source.read_bytes()
        cases.append(Case("xtermjs", source.stem, data, 80, 25, _trim(rows), onlcr=True, flavour=XTERM))
    return cases


def _alacritty_rows(grid: dict, lines: int) -> list[str]:  # type: ignore[type-arg]
    raw = grid["raw"]
    inner, zero = raw["inner"], raw["zero"]
    rows = []
    for i in range(lines):  # visible row i, 0 = bottom
        cells = inner[(zero + i) % len(inner)]["inner"]
        text = []
        for cell in cells:
            flags = cell.get("flags") or ""
            if any(flag in flags for flag in SPACER_FLAGS):
                continue
            char = cell["c"]
            text.append(" " if char == "\t" else char)
            extra = cell.get("extra") or {}
            text.extend(extra.get("zerowidth") or ())
        rows.append("".join(text))
    rows.reverse()
    return rows


def alacritty_cases(root: Path) -> list[Case]:
    cases = []
    for folder in sorted((root / "alacritty").iterdir()):
        grid_file = folder / "grid.json"
        recording = folder / "alacritty.recording"
        if not (grid_file.exists() and recording.exists()):
            continue
        size = json.loads((folder / "size.json").read_text())
        columns, lines = size["columns"], size["screen_lines"]
        grid = json.loads(grid_file.read_text())
        expected = _trim(_alacritty_rows(grid, lines))
        # alacritty's EL/ECH with a wrap pending leave the last column alone, as tmux does.
        data = recording.read_bytes()
        cases.append(Case("alacritty", folder.name, data, columns, lines, expected, False, ALACRITTY))
    return cases


def pyte_cases(root: Path) -> list[Case]:
    cases = []
    for source in sorted((root / "pyte_captured").glob("*.input")):
        rows = json.loads(source.with_suffix(".output").read_text())
        cases.append(Case("pyte", source.stem, source.read_bytes(), 80, 24, _trim(rows), False, XTERM))
    return cases


SUITES: dict[str, Callable[[Path], list[Case]]] = {
    "xtermjs": xtermjs_cases,
    "alacritty": alacritty_cases,
    "pyte": pyte_cases,
}


def oracle_screen(case: Case) -> tuple[str, ...]:
    """The oracle's screen rows for a case, at the case's size."""
    rendering = render(
        case.data, columns=case.columns, lines=case.lines, onlcr=case.onlcr, flavour=case.flavour
    )
    return _trim(list(rendering.screen))


def plain_pyte_screen(case: Case) -> tuple[str, ...] | None:
    """Plain pyte 0.8.2's screen rows for a case; ``None`` when pyte raises."""
    screen = pyte.Screen(case.columns, case.lines)
    if case.onlcr:
        screen.set_mode(pyte.modes.LNM)
    try:
        pyte.ByteStream(screen).feed(case.data)
        return _trim(screen.display)
    except Exception:  # noqa: BLE001 - pyte's gaps raise TypeError, IndexError, ...
        return None


def agreeing(cases: list[Case], screen: Callable[[Case], tuple[str, ...] | None]) -> set[str]:
    """Names of the cases whose screen equals the real terminal's."""
    return {case.name for case in cases if screen(case) == case.expected}
