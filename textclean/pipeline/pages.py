"""Page breaks (docs/design.md, 'Pages'): where a text's screen starts over, and what a kept page carries.

A break is ED 2 or ED 3 (which clears no row: a run of ED 3 alone is not "cleared"), CUP / HVP to
1;1 followed by ED 0 or ED 2, RIS, or a switch to or from the alternate screen (DECSET / DECRST
1049, 47, 1047). A run of breaks with only inert sequences (SGR, harmless modes, OSC, ...) between
them is one break. :func:`split` cuts a text into pages, each
starting at its break run (the first page at 0), and says what the run did.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from . import grammar
from .names import CUP, DECSTBM, HVP

_HOME = r"\x1b\[(?:0?1?(?:;0?1?)?)?[Hf]"
_ERASE_ALL = r"\x1b\[[23]J"
_ERASE_BELOW = r"\x1b\[0?J"
_ALT = r"\x1b\[\?(?:1049|1047|47)[hl]"
_RIS = r"\x1bc"
_BREAK = re.compile(rf"{_ERASE_ALL}|{_HOME}(?:{_ERASE_BELOW}|{_ERASE_ALL})|{_ALT}|{_RIS}")
# Cheap pre-check: can the text hold a break at all?
_BREAK_HINT = re.compile(r"\x1b(?:\[(?:[23]?J|\?(?:1049|1047|47)[hl])|c)")


@dataclass(frozen=True)
class Page:
    start: int  # where the page's break run starts (0 for the first page)
    body: int  # where the break run ends and the page's own text starts
    end: int  # where the next page's break run starts (or the end of the text)
    cleared: bool  # the run blanked the screen the page is written on (ED 3 alone does not)
    homed: bool  # the run left the cursor at 1;1 (CUP home or RIS)
    reset: bool  # the run holds RIS: modes, margins and the saved cursor are back to their defaults
    screen: str  # "alt" or "main" after the run ("" when the run switched no screen)
    switch: str  # the last screen switch in the run ("?1049h", "?47l", ...), or ""


def has_break(text: str) -> bool:
    return "\x1b" in text and _BREAK_HINT.search(text) is not None


def split(text: str) -> list[Page]:
    """The pages of ``text``; a text without breaks is one page."""
    pages: list[Page] = []
    runs: list[tuple[int, int, list[str]]] = []
    for m in _BREAK.finditer(text):
        if runs and _only_inert(text, runs[-1][1], m.start()):
            runs[-1][2].append(m.group())
            runs[-1] = (runs[-1][0], m.end(), runs[-1][2])
        else:
            runs.append((m.start(), m.end(), [m.group()]))
    start, body = 0, 0
    flags = (False, False, False, "", "")
    for run_start, run_end, parts in runs:
        pages.append(Page(start, body, run_start, *flags))
        start, body = run_start, run_end
        flags = _describe(tuple(parts))
    pages.append(Page(start, body, len(text), *flags))
    return pages


def _only_inert(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is inert sequences end to end (matched from its start: the cost is
    what it holds of them, not the page after them)."""
    inert = grammar.INERT_SEQUENCE
    while start < end:
        m = inert.match(text, start, end)
        if m is None:
            return False
        start = m.end()
    return True


@functools.lru_cache(maxsize=256)  # a session repeats a few break runs (clear, home + clear) many times
def _describe(parts: tuple[str, ...]) -> tuple[bool, bool, bool, str, str]:
    cleared = homed = reset = False
    screen = switch = ""
    for part in parts:
        if part == "\x1bc":
            cleared = homed = reset = True
            screen, switch = "main", ""
        elif part.startswith("\x1b[?"):
            switch = part[2:]
            screen = "alt" if part.endswith("h") else "main"
            cleared = part.endswith("h")  # the alternate screen starts blank (tmux clears it)
            homed = False  # a switch leaves the cursor where it is (1049 restores it on leaving)
        else:
            homed = homed or part[-1] in (CUP, HVP) or part[-2] not in "23" or len(part) > 4
            # ED 3 erases the scrollback only (tmux 3.3a screen_write_clearhistory): no visible row
            # changes, so a run of ED 3 (or home + ED 3) alone does not blank the screen
            cleared = cleared or not part.endswith("3J")
    return cleared, homed, reset, screen, switch


# --- What a kept page's bytes carry past the next break --------------------------------------------
# State a clear leaves as it was: scroll margins, origin mode, insert mode, autowrap, left/right
# margins, character sets, the saved cursor, and a string or sequence left open at the page's end.
_MODES = re.compile(r"\x1b\[(\??)([0-9;]*)([hlr])")
_PERSISTENT_PRIVATE = {"6": "DECOM", "7": "DECAWM", "69": "DECLRMM", "1048": "saved cursor"}
_OTHER = re.compile(r"\x1b(?:[)*+\-./][\x30-\x7e]|\([^B]|[78]|\[[su]|[#%])")  # ESC first: a fast scan
_SHIFT = re.compile(r"[\x0e\x0f]")  # SO, SI


def persists(page_text: str) -> str | None:
    """What in a page's bytes could change how a later page renders, or None."""
    for m in _MODES.finditer(page_text):
        private, params, final = m.groups()
        if final == DECSTBM:
            if not private:
                return f"DECSTBM at page offset {m.start()}"
            continue
        for field in params.split(";"):
            if private and field in _PERSISTENT_PRIVATE:
                return f"{_PERSISTENT_PRIVATE[field]} at page offset {m.start()}"
            if not private and field == "4":
                return f"IRM at page offset {m.start()}"
    other = _OTHER.search(page_text)
    if "\x0e" in page_text or "\x0f" in page_text:
        shift = _SHIFT.search(page_text, 0, len(page_text) if other is None else other.start())
        other = other if shift is None else shift
    if other is not None:
        return f"{other.group()!r} at page offset {other.start()}"
    if page_text.endswith("\u200d"):
        return "a zero-width joiner at the page's end"
    last_escape = page_text.rfind("\x1b")
    if last_escape != -1 and grammar.match_at(page_text, last_escape) is None:
        return f"an escape sequence left open at page offset {last_escape}"
    return None
