"""The display model's numbers, written once (``docs/design.md``, "The display model").

Constants only, no behaviour: the cleaner (``cleaner.py``, ``redraw.py``), the independent verifier
(``verify.py``) and the oracle import them, so that a rule about the terminal's size or budget cannot
reach one model and not the other. Each model still decides for itself what to do with them.
"""

from __future__ import annotations

from .widths import AMBIGUOUS_RANGES, ambiguous_width, settled_width

__all__ = [
    "AMBIGUOUS_RANGES",
    "MIN_COLUMNS",
    "SCREEN_LINES",
    "TAB_WIDTH",
    "WORK_ALLOWANCE",
    "WORK_PER_INPUT_CHAR",
    "ambiguous_width",
    "settled_width",
]

#: The fewest rows a terminal is assumed to have: a cursor move up reaches back at most this far.
SCREEN_LINES = 24
#: The narrowest terminal assumed: a horizontal move into empty cells past this column lands where
#: the terminal's width says (it stops at the right margin), so it is unresolvable.
MIN_COLUMNS = 80
#: Tab stops every this many columns (the terminal default; HTS/TBC that change them are refused).
TAB_WIDTH = 8
#: Work not bounded by the input a model reads (padding, overwrites, erases), per input character,
#: plus a fixed allowance: ``CSI 99999999 C x`` must not build a hundred million cells. Beyond it
#: the input is unresolvable.
WORK_PER_INPUT_CHAR = 32
WORK_ALLOWANCE = 1 << 20
