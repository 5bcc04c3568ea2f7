"""The one cheap question asked of every message: is there any display control in it at all?"""

from __future__ import annotations

import re

# ESC, backspace, a C1 code point, or a CR that neither ends a line nor ends the text.
_NOISE = re.compile(r"[\x1b\x08\x80-\x9f]|\r(?=[^\r\n])")


def has_terminal_noise(text: str) -> bool:
    """True when ``text`` holds an escape sequence, a redraw or a C1 control.

    For ASCII text (``str.isascii`` is O(1) in CPython) this is two or three ``memchr`` scans; CRLF
    text pays one regex scan more, only when it has a CR at all.
    """
    if text.isascii():
        if "\x1b" in text or "\x08" in text:
            return True
        if "\r" not in text:
            return False
    return _NOISE.search(text) is not None
