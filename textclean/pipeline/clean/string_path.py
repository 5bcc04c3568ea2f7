"""The string path of the row model: a fresh row redrawn by CR, EL and backspaces resolved on strings
(:func:`overlay_line`, through :meth:`LineModel.overlay`), and the inert sequences removed or marked
in one substitution (:func:`without_inert`), which the one-regex path uses too.
"""

from __future__ import annotations

import re

from .. import grammar
from ..model import settled_width
from .line import INERT_MARK, NOT_TEXT, ONE_CELL_TEXT, LineModel, Stripped


# --- The string path: a fresh row redrawn by CR, EL and backspaces, resolved on strings --------------
# Once a line's inert sequences are marked it is split at CRs, EL 0 / 2 and backspace runs
# (grammar.CR_OR_EL, or grammar.CR_EL_OR_BACKSPACES where the line holds a backspace: the pattern
# without them scans ~2.5x faster). Text runs must then be one cell per character.
def without_inert(inert: re.Pattern[str], text: str, mark: str = "", sequences_left: int = 0) -> tuple[str, int]:
    """``inert.subn(mark, text)`` (``inert`` removes SGR and more), SGR first: a literal-prefix pattern
    ~40% faster on what most of a coloured text's sequences are. The same result: SGR are marked by NUL
    (no sequence ``inert`` removes holds an SGR or a NUL, so none is made or unmade), then the rest,
    unless what is left is ``sequences_left`` sequences the caller knows ``inert`` leaves."""
    if len(text) > _SUBSTITUTE_WHOLE and not sequences_left:
        return _without_inert_in_chunks(inert, text, mark)
    return _without_inert(inert, text, mark, sequences_left)


def _without_inert(inert: re.Pattern[str], text: str, mark: str, sequences_left: int) -> tuple[str, int]:
    if INERT_MARK in text or (not sequences_left and "\x1b[K" in text):  # EL 0 beside SGR (grep, gcc): one pass
        return inert.subn(mark, text)
    if not mark and not sequences_left:  # removed outright: with no ESC or BEL left, none was joined
        stripped, count = grammar.SGR_ONLY.subn("", text)
        if "\x1b" not in stripped and "\x07" not in stripped:
            return stripped, count
        return inert.subn(mark, text)
    marked, count = grammar.SGR_ONLY.subn(INERT_MARK, text)
    if marked.count("\x1b") != sequences_left or "\x07" in marked:
        marked, more = inert.subn(INERT_MARK, marked)
        count += more
    return (marked if mark == INERT_MARK or not count else marked.replace(INERT_MARK, mark)), count

# A long text is substituted a chunk of lines at a time: ``re.sub`` holds every piece of its result
# as a string of its own before joining them (on coloured text more than the result itself), and a
# chunk's result is as narrow as its own characters allow (one emoji widens only its chunk), so the
# peak is the result and the narrow chunks, not the result and every piece.
_SUBSTITUTE_WHOLE = 1 << 20
_SUBSTITUTE_CHUNK = 1 << 13


def _without_inert_in_chunks(inert: re.Pattern[str], text: str, mark: str) -> tuple[str, int]:
    """:func:`without_inert` a chunk of whole lines at a time: no sequence holds an LF, so no match
    crosses a chunk's end and the result is the same."""
    parts: list[str] = []
    count = start = 0
    while start < len(text):
        cut = text.find("\n", start + _SUBSTITUTE_CHUNK)
        end = len(text) if cut < 0 else cut + 1
        part, found = _without_inert(inert, text[start:end], mark, 0)
        parts.append(part)
        count += found
        start = end
    return "".join(parts), count


def overlay_line(model: LineModel, body: str, tally: Stripped) -> bool:
    """A fresh row redrawn by CR, EL and backspaces, on strings (:meth:`LineModel.overlay`); False:
    feed it a run at a time.

    Each inert sequence is replaced by :data:`INERT_MARK` first (no CR, EL or backspace is inside one),
    then the text split at CR, EL and backspace runs."""
    if "\x1b" in body and grammar.MOVES.search(body) is not None:
        return False  # a cursor move or erase in display stays after any substitution: no string path
    erases = body.count("\x1b[K") + body.count("\x1b[0K") + body.count("\x1b[2K") if "\x1b" in body else 0
    if "\x07" not in body and body.count("\x1b") == erases:
        marked, count = body, 0
    elif INERT_MARK in body:
        return False  # a control in the text: the walk refuses it
    else:
        marked, count = without_inert(grammar.INERT_SEQUENCE, body, INERT_MARK, erases)
        if marked.count("\x1b") != erases:
            return False  # another sequence
    parts: list[str | None] = (grammar.CR_EL_OR_BACKSPACES if "\b" in marked else grammar.CR_OR_EL).split(marked)
    runs = "".join(parts[::2])  # type: ignore[arg-type]
    if not _narrow(runs.replace(INERT_MARK, "") if count else runs) or not model.overlay(parts):
        return False
    erased = [c for c in parts[1::2] if c is not None and c[0] == "\x1b"]
    tally.sequences += count + len(erased)
    tally.chars += len(body) - len(marked) + count + sum(map(len, erased))  # each inert sequence marked by one NUL
    return True


def _narrow(text: str) -> bool:
    """Every character takes one cell on every terminal (so a run's length is its width)."""
    if ONE_CELL_TEXT.fullmatch(text) is not None:
        return True
    return NOT_TEXT.search(text) is None and all(settled_width(ch) == 1 for ch in set(text) if ch >= "\u0300")
