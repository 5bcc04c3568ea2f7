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
from collections.abc import Iterator
from typing import NamedTuple

from .. import grammar
from ..names import DECSTBM, IRM, SM

# A break run's parts: (start, end, what the sequence is, whether a home came right before it).
_Part = tuple[int, int, grammar.BreakPart, bool]


class Page(NamedTuple):  # a tuple: a session of small pages builds one per page
    start: int  # where the page's break run starts (0 for the first page)
    body: int  # where the break run ends and the page's own text starts
    end: int  # where the next page's break run starts (or the end of the text)
    cleared: bool  # the run blanked the screen the page is written on (ED 3 alone does not)
    homed: bool  # the run left the cursor at 1;1 (CUP home or RIS)
    reset: bool  # the run holds RIS: modes, margins and the saved cursor are back to their defaults
    screen: str  # "alt" or "main" after the run ("" when the run switched no screen)
    switch: str  # the last screen switch in the run ("?1049h", "?47l", ...), or ""
    erases_history: bool = False  # the run holds ED 3 or RIS (the scrollback is erased)
    switches: int = 0  # how many screen switches the run holds (RIS counts none)
    switched_homed: bool = False  # the run's last switch left a screen with the cursor at 1;1 (a home before it)


def has_break(text: str) -> bool:
    return "\x1b" in text and next(_breaks(text), None) is not None


def _breaks(text: str) -> Iterator[_Part]:
    """Each break in ``text``, left to right: ED 2 / 3, a home joined to ED 0 / 2 / 3 (from the
    home's start; ``True``), a switch of screens, RIS."""
    home_end = -1
    home_start = 0
    for m in grammar.BREAK_CANDIDATE.finditer(text):
        part = grammar.break_part(m.group())
        if part is None:
            continue
        if part.kind == "home":
            home_start, home_end = m.start(), m.end()
        elif part.kind == "erase" and home_end == m.start():
            yield home_start, m.end(), part, True
        elif part.kind != "erase" or part.mode != 0:
            yield m.start(), m.end(), part, False


def split(text: str) -> list[Page]:
    """The pages of ``text``; a text without breaks is one page. One pass over the break candidates:
    a break run closes when the next break is not joined to it by inert sequences alone."""
    pages: list[Page] = []
    append = pages.append
    part_of = grammar.break_part
    inert_at = grammar.INERT_SEQUENCE.match
    start = body = 0  # the open page: where its break run starts and ends
    flags = _NO_BREAK
    parts: list[tuple[grammar.BreakPart, bool]] = []  # the last break run's parts (open until the next)
    described: list[tuple[grammar.BreakPart, bool]] = []  # the parts of the last run described, and flags
    described_flags = _NO_BREAK
    run_start = run_end = 0
    home_start, home_end = 0, -1
    for m in grammar.BREAK_PART_CANDIDATE.finditer(text):
        part = part_of(m.group())
        if part is None:
            continue
        kind = part.kind
        if kind == "home":
            home_start, home_end = m.span()
            continue
        at = m.start()
        if kind == "erase" and home_end == at:
            at, homed = home_start, True  # the run starts at the home
        elif kind == "erase" and part.mode == 0:
            continue  # ED 0 not right after a home breaks nothing
        else:
            homed = False
        # (most breaks follow a page's text: its first character is no inert sequence's start)
        if parts and (run_end == at or inert_at(text, run_end, at) is not None) and _only_inert(text, run_end, at):
            parts.append((part, homed))
            run_end = m.end()
            continue
        if parts:  # the run before is complete: the page before it ends where it starts
            append(_page((start, body, run_start) + flags))
            start, body = run_start, run_end
            if parts != described:  # a session repeats one break run: described once in a row
                described, described_flags = parts, _describe(tuple(parts))
            flags = described_flags
        parts = [(part, homed)]
        run_start, run_end = at, m.end()
    if parts:
        append(_page((start, body, run_start) + flags))
        start, body = run_start, run_end
        flags = _describe(tuple(parts))
    append(_page((start, body, len(text)) + flags))
    return pages


# Page(...) without the Python-level __new__ namedtuple writes (a page of a session builds one)
_page = functools.partial(tuple.__new__, Page)


_NO_BREAK: tuple[bool, bool, bool, str, str, bool, int, bool] = (False, False, False, "", "", False, 0, False)


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
def _describe(parts: tuple[tuple[grammar.BreakPart, bool], ...]) -> tuple[bool, bool, bool, str, str, bool, int, bool]:
    cleared = homed = reset = erases_history = switched_homed = False
    screen = switch = ""
    switches = 0
    for part, after_home in parts:
        if part.kind == "reset":
            cleared = homed = reset = erases_history = True
            screen, switch, switches = "main", "", 0
            switched_homed = False
        elif part.kind == "switch":
            switch = part.switch
            switches += 1
            switched_homed = homed
            screen = "alt" if switch.endswith(SM) else "main"
            cleared = screen == "alt"  # the alternate screen starts blank (tmux clears it)
            # a switch leaves the cursor where it is, at 1;1 after a home (F33-1); ?1049l restores it
            homed = homed and switch != "?1049l"
        else:
            homed = homed or after_home
            # ED 3 erases the scrollback only (tmux 3.3a screen_write_clearhistory): no visible row
            # changes, so a run of ED 3 (or home + ED 3) alone does not blank the screen
            cleared = cleared or part.mode != 3
            erases_history = erases_history or part.mode == 3
    return cleared, homed, reset, screen, switch, erases_history, switches, switched_homed

# --- What a kept page's bytes carry past the next break --------------------------------------------
# State a clear leaves as it was: scroll margins, origin mode, insert mode, autowrap, left/right
# margins, character sets, the saved cursor, and a string or sequence left open at the page's end.
_PERSISTENT_PRIVATE = {6: "DECOM", 7: "DECAWM", 69: "DECLRMM", 1048: "saved cursor"}
_SHIFT = re.compile(r"[\x0e\x0f]")  # SO, SI


def persists(page_text: str) -> str | None:
    """What in a page's bytes could change how a later page renders, or None."""
    for m in grammar.MODE_OR_MARGINS.finditer(page_text):
        private, params, final = m.groups()
        if final == DECSTBM:
            if not private:
                return f"DECSTBM at page offset {m.start()}"
            continue
        for field in params.split(";"):
            mode = int(field.lstrip("0") or "0") if len(field) <= 20 else -1  # CSI ? 06 h is DECOM too
            if private and mode in _PERSISTENT_PRIVATE:
                return f"{_PERSISTENT_PRIVATE[mode]} at page offset {m.start()}"
            if not private and mode == IRM:
                return f"IRM at page offset {m.start()}"
    other = grammar.PERSISTENT_ESCAPE.search(page_text)
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
