"""The one cheap question asked of every message: is there any display control in it at all?"""

from __future__ import annotations

import re

# A C1 control (U+0080-U+009F) as UTF-8: C2 80 .. C2 9F. Searching the encoded bytes for it is ~8x
# faster than a character-class scan of the str.
_C1_IN_UTF8 = re.compile(rb"\xc2[\x80-\x9f]")
#: A CR that neither ends a line (CR LF, CR CR LF) nor ends the text: a redraw.
REDRAWING_CR = re.compile(r"\r[^\r\n]")
_REDRAWING_CR_BYTES = re.compile(rb"\r[^\r\n]")


# Encoded a slice at a time: the encoder reserves up to 4 bytes per character of the whole str.
_SLICE = 1 << 16


def c1_control_offset(text: str) -> int | None:
    """The offset of the first C1 control in ``text`` (searched in its UTF-8 bytes), or None."""
    if text.isascii():
        return None
    for start in range(0, len(text), _SLICE):
        data = text[start : start + _SLICE].encode("utf-8", "surrogatepass")
        found = _C1_IN_UTF8.search(data) if b"\xc2" in data else None
        if found is not None:
            return start + len(data[: found.start()].decode("utf-8", "surrogatepass"))
    return None


def has_terminal_noise(text: str) -> bool:
    """True when ``text`` holds ESC, a backspace, a C1 control, or a CR that is not a line ending.

    ASCII text without CR costs two ``memchr`` scans; a CR adds one literal-prefix regex scan; other
    text adds one UTF-8 encoding, a slice at a time.
    """
    if "\x1b" in text or "\x08" in text:
        return True
    if c1_control_offset(text) is not None:
        return True
    if "\r" not in text:
        return False
    return REDRAWING_CR.search(text) is not None


def bytes_have_terminal_noise(data: bytes) -> bool:
    """:func:`has_terminal_noise` of ``data`` decoded with ``surrogateescape``, asked of the bytes.

    The same answer: ESC, BS and CR are single bytes in UTF-8 and never inside another character's
    encoding, and a C1 control decodes from ``C2 80``..``C2 9F`` only (``C2`` is never a continuation
    byte, so an invalid byte before it leaves the pair whole). ``textclean run`` and ``textclean hook``
    ask it before they import the rest of the pipeline.
    """
    if b"\x1b" in data or b"\x08" in data:
        return True
    if b"\xc2" in data and _C1_IN_UTF8.search(data) is not None:
        return True
    return b"\r" in data and _REDRAWING_CR_BYTES.search(data) is not None
