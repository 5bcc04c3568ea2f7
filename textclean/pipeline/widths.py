"""Wide characters whose width a terminal may not agree on, because its tables are older than ours.

Cell widths come from ``wcwidth`` (Unicode 17). A terminal with older tables draws a character
assigned or widened since then in one cell or none (tmux 3.3a: the newest emoji in none, a lone
regional indicator in one), so a redraw that moves the cursor over such a character lands elsewhere
there. The cleaner treats these like zero-width characters: appending after them is fine, anything
that depends on the cursor's column is not.

The table is frozen, so the cleaner gives the same answer on every Python: every character ``wcwidth``
0.7.0 gives width 2 that was unassigned, or not East Asian Wide / Fullwidth, in Unicode 13.0 (Python
3.10's ``unicodedata``), plus the regional indicators U+1F1E6..U+1F1FF.
"""

from __future__ import annotations

import bisect

UNSETTLED_WIDE_RANGES: tuple[tuple[int, int], ...] = (
    (0x02630, 0x02637),
    (0x0268A, 0x0268F),
    (0x02FFC, 0x02FFF),
    (0x031E4, 0x031E5),
    (0x031EF, 0x031EF),
    (0x04DC0, 0x04DFF),
    (0x09FFD, 0x09FFF),
    (0x0FA6E, 0x0FA6F),
    (0x0FADA, 0x0FAFF),
    (0x16FF2, 0x16FF6),
    (0x187F8, 0x187FF),
    (0x18CFF, 0x18CFF),
    (0x18D09, 0x18D1E),
    (0x18D80, 0x18DF2),
    (0x1AFF0, 0x1AFF3),
    (0x1AFF5, 0x1AFFB),
    (0x1AFFD, 0x1AFFE),
    (0x1B11F, 0x1B122),
    (0x1B132, 0x1B132),
    (0x1B155, 0x1B155),
    (0x1D300, 0x1D356),
    (0x1D360, 0x1D376),
    (0x1F1E6, 0x1F1FF),
    (0x1F6D8, 0x1F6D8),
    (0x1F6DC, 0x1F6DF),
    (0x1F7F0, 0x1F7F0),
    (0x1F979, 0x1F979),
    (0x1F9CC, 0x1F9CC),
    (0x1FA75, 0x1FA77),
    (0x1FA7B, 0x1FA7C),
    (0x1FA87, 0x1FA8A),
    (0x1FA8E, 0x1FA8F),
    (0x1FAA9, 0x1FAAF),
    (0x1FAB7, 0x1FABF),
    (0x1FAC3, 0x1FAC6),
    (0x1FAC8, 0x1FAC8),
    (0x1FACD, 0x1FACF),
    (0x1FAD7, 0x1FADC),
    (0x1FADF, 0x1FAEA),
    (0x1FAEF, 0x1FAF8),
    (0x2A6DE, 0x2A6FF),
    (0x2B735, 0x2B73F),
    (0x2B81E, 0x2B81F),
    (0x2CEA2, 0x2CEAF),
    (0x2EBE1, 0x2F7FF),
    (0x2FA1E, 0x2FFFD),
    (0x3134B, 0x3FFFD),
)
_STARTS = tuple(start for start, _ in UNSETTLED_WIDE_RANGES)


def unsettled_width(char: str) -> bool:
    """Whether a wide ``char`` may take fewer cells on a terminal with older Unicode tables."""
    code = ord(char)
    index = bisect.bisect_right(_STARTS, code) - 1
    return index >= 0 and code <= UNSETTLED_WIDE_RANGES[index][1]
