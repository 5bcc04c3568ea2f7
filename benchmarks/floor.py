"""The floor of issue 27's rows: the least a terminal model in pure Python does for a text.

:func:`walk` reads a text as a screen would, with nothing a lossless model needs: one split into text
and controls (C speed), then per piece one Python step: text written over a row string, CR, LF
(scrolling off the top past ``rows``), EL, CUU/CUD and CUP; every other control and sequence ignored.
No widths, no margin, no pending wrap, no refusal, no work budget, no page, no candidate to compare.

It is not a model (its lines are wrong wherever a row wraps or a wide character is written): it is
what one pass of Python per control costs on a given material, the part of the cost no model written
in Python avoids. Issue 27 asks for the cleaner and the verifier together within 3x a regex strip;
two such passes are already most of that (``bench --only issue27`` prints the row).
"""

from __future__ import annotations

import re

_SPLIT = re.compile(r"(\x1b\[[0-?]*[ -/]*[@-~]|\x1b[\]P_^X][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b.|[\x00-\x1f])").split
_NUMBER = re.compile(r"\d+")


def walk(text: str, rows: int = 24) -> list[str]:
    """The rows that scrolled off and the screen, for ``text``, as the floor reads it."""
    screen = [""]
    gone: list[str] = []
    row = col = 0
    parts = _SPLIT(text)
    for at in range(0, len(parts), 2):
        run = parts[at]
        if run:
            line = screen[row]
            if col >= len(line):
                screen[row] = line + " " * (col - len(line)) + run
            else:
                screen[row] = line[:col] + run + line[col + len(run) :]
            col += len(run)
        if at + 1 == len(parts):
            break
        control = parts[at + 1]
        final = control[-1]
        if control == "\n":
            row += 1
            if row == len(screen):
                screen.append("")
                if len(screen) > rows:
                    gone.append(screen.pop(0))
                    row -= 1
        elif control == "\r":
            col = 0
        elif len(control) < 3 or final == "m":
            continue
        elif final == "K":
            screen[row] = screen[row][:col]
        elif final in "AB":
            count = int(control[2:-1] or 1) if control[2:-1].isdigit() else 1
            row = max(0, row - count) if final == "A" else min(len(screen) - 1, row + count)
        elif final in "Hf":
            numbers = [int(n) for n in _NUMBER.findall(control)] + [1, 1]
            row = min(max(numbers[0], 1), rows) - 1
            col = max(numbers[1], 1) - 1
            while row >= len(screen):
                screen.append("")
    return gone + screen
