"""The candidate from a text's segments: one per page, cleaned (its rows rendered) or kept as its raw
bytes, and the checks that a kept page may stay so; :class:`WholeRefusal` when none may.
"""

from __future__ import annotations

from typing import NamedTuple

from ..result import UNSUPPORTED_CONTROL
from . import breaks
from .line import UNWRITTEN
from .screen import ScreenModel
from .screen_state import WRAP


class WholeRefusal(Exception):
    """No candidate: ``reason`` is a gate reason, ``detail`` says where."""

    def __init__(self, reason: str, detail: str, segments: list[Segment]) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
        self.segments = segments


class Segment(NamedTuple):  # a tuple: a session of small pages builds one per page
    page: breaks.Page
    text: str | None  # the cleaned page, or None: the page is kept as raw[start:end]
    why: str | None  # why a kept page was kept
    sequences: int = 0  # escape sequences removed (a cleaned page)
    sequence_chars: int = 0
    # rows and characters no longer shown per redraw kind: cr, backspace, multi-line (a cleaned page)
    redraws: tuple[int, int, int, int, int, int] = (0, 0, 0, 0, 0, 0)



def _check_kept(text: str, segments: list[Segment], carried: dict[int, str]) -> None:
    for number, segment in enumerate(segments):
        if segment.text is not None:
            continue
        page = segment.page
        if page.start and not (page.cleared and page.homed):
            raise WholeRefusal(
                UNSUPPORTED_CONTROL,
                f"page at offset {page.start} cannot be kept: its break leaves the cursor or the screen "
                f"as the page before left them; kept because {segment.why}",
                segments,
            )
        if number in carried:
            # the raw renders the page under it; in the candidate the earlier pages are plain text
            raise WholeRefusal(
                UNSUPPORTED_CONTROL,
                f"page at offset {page.start} cannot be kept: the pages before leave it {carried[number]}, "
                f"which the cleaned text before it would not; kept because {segment.why}",
                segments,
            )
        found = breaks.persists(text[page.start : page.end])
        if found is None:
            continue
        if any(later.page.reset for later in segments[number + 1 :]) and _reset_first(segments, number):
            continue
        raise WholeRefusal(
            UNSUPPORTED_CONTROL,
            f"page at offset {page.start} cannot be kept ({found} would reach later pages); kept because {segment.why}",
            segments,
        )


def _reset_first(segments: list[Segment], number: int) -> bool:
    """Whether the page right after a kept page starts with RIS (then nothing of it persists)."""
    return number + 1 < len(segments) and segments[number + 1].page.reset


def _render(model: ScreenModel, start_row: int, ending: str) -> str:
    """The rows from ``start_row`` on, each with its line ending; runs of blank rows become one, and
    blank rows at the end are dropped."""
    out: list[str] = []
    blank = False
    append = out.append
    for row in model.rows[start_row:] if start_row else model.rows:
        cells = row.cells
        if row.ending is WRAP:
            # the next row continues this line. Every cell up to the row's last, erased ones as spaces,
            # as ``capture-pane -J`` joins them: a wide character that did not fit at the margin left
            # the last column out of the row, and a wide cell is one character, not two.
            append("".join(cells))
            blank = False
            continue
        if not cells:
            shown = ""
        elif cells[-1] is not UNWRITTEN:
            shown = "".join(cells)
        else:
            shown = row.render()
        if not shown or (shown[0] in " \t" and not shown.strip(" \t")):
            if not blank and out:
                append(row.ending or ending)
            blank = True
            continue
        blank = False
        append(shown)
        append(row.ending or ending)
    while out and out[-1] in ("\n", "\r\n", "") and (len(out) == 1 or out[-2] in ("\n", "\r\n")):
        out.pop()
    last = model.rows[-1]
    if out and last.cells and not last.ending and last.render():
        out.pop()  # the last row had no line ending in the raw text: neither has its cleaned form
    return "".join(out)


_KEPT_SLICE = 1 << 12


def assemble(text: str, segments: list[Segment]) -> str:
    """The candidate: cleaned pages as plain text, kept pages as their raw bytes. A cleaned page
    followed by another segment ends with a line end; one after a kept page starts with its break."""
    out: list[str] = []
    previous_kept = False
    candidate_alt = False  # the screen the candidate is on: only break bytes it holds switch it
    ending = "\r\n" if "\r\n" in text else "\n"
    for segment in segments:
        page = segment.page
        switches = bool(page.switch or page.reset)
        if segment.text is None:
            # a break run with ED 3 or RIS erases the scrollback: a line end the raw did not have
            # would scroll the screen's top row into it first (issue 23: a row lost)
            if out and not previous_kept and not out[-1].endswith("\n") and not page.erases_history:
                out.append(ending)
            # in slices of a bounded length: each is as narrow as its own characters allow (one emoji
            # makes a whole slice four bytes a character), and the join holds them all at once
            out.extend(text[at : min(at + _KEPT_SLICE, page.end)] for at in range(page.start, page.end, _KEPT_SLICE))
            previous_kept = True
            if switches:
                candidate_alt = page.screen == "alt"
            continue
        # after a kept page, a cleaned page starts with its break; so does one whose break returns to
        # the main screen the candidate left (a break it holds switched to the alternate one)
        if (previous_kept or (switches and candidate_alt and page.screen != "alt")) and page.body > page.start:
            if out and not previous_kept and not out[-1].endswith("\n"):
                out.append(ending)
            out.append(text[page.start : page.body])
            previous_kept = False
            if switches:
                candidate_alt = page.screen == "alt"
        if not segment.text:
            continue
        if out and not previous_kept and not out[-1].endswith("\n"):
            out.append(ending)
        out.append(segment.text)
        previous_kept = False
    return "".join(out)

