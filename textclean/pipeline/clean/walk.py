"""Whole terminal sessions: one candidate from a text's pages, each cleaned or kept as its raw bytes.

:func:`resolve` walks the pages of :mod:`breaks` with the :mod:`screen` model, carrying what a break
leaves as it was (the cursor's screen position where known, margins, origin mode, the main screen
under an alternate one). A page the model cannot resolve, or that the gate names in ``keep``, is
kept verbatim, provided :func:`breaks.persists` finds nothing in it that outlives the next break;
:func:`assemble.assemble` (:mod:`assemble`) joins the segments in the contract's shape (docs/design.md, 'Pages').
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection
from typing import NamedTuple

from .. import grammar
from ..model import WORK_ALLOWANCE, WORK_PER_INPUT_CHAR
from ..result import UNSUPPORTED_CONTROL
from . import breaks
from .assemble import Segment, WholeRefusal, _check_kept, _render
from .feed import _TOKEN, _TOKEN_OR_BACKSPACES, _feed
from .line import Row, Stripped, Unresolved
from .screen import ScreenModel
from .swallow import swallowed_redraw, swallowed_text

_RESTORE = grammar.RESTORE_CURSOR  # DECRC, SCORC, XTRESTORE 1048
_UNDECODABLE = re.compile(r"[\udc80-\udcff]")  # bytes ``surrogateescape`` could not decode


def resolve(text: str, *, columns: int | None, rows: int | None, keep: Collection[int] = (),
            fast: bool = True, terminal: bool = True, fresh: bool = False) -> list[Segment]:
    """One segment per page of ``text``; ``keep``: indices of pages to keep whatever the model says.
    ``fast=False``: every backspace its own move (the reference the run path is tested against)."""
    swallowed = swallowed_redraw(text)
    if swallowed is None and terminal and "\x1b" in text:
        swallowed = swallowed_text(text)
    if swallowed is not None:
        raise WholeRefusal(UNSUPPORTED_CONTROL, swallowed, [])
    undecodable = None if text.isascii() else _UNDECODABLE.search(text)
    if undecodable is not None:
        # tmux drops or joins a broken UTF-8 sequence around a page break; where it lands is unsettled
        raise WholeRefusal(UNSUPPORTED_CONTROL, f"an undecodable byte at offset {undecodable.start()} in a "
                           "session with page breaks (terminals disagree on what it shows)", [])
    walker = _Walker(len(text), columns, rows, terminal=terminal, fresh=fresh)
    ending = "\r\n" if "\r\n" in text else "\n"
    segments: list[Segment] = []
    carried: dict[int, str] = {}  # kept pages, and what earlier pages leave them that the candidate would not
    candidate_alt = False  # the screen the candidate is on: only kept pages' raw breaks switch it
    tokens = _TOKEN_OR_BACKSPACES if fast else _TOKEN
    append = segments.append
    for index, page in enumerate(breaks.split(text)):
        start, body, end, cleared, homed, reset, _, switch, _, _, _ = page
        raw_alt = walker.on_alt
        reusable = False
        if fast and start and cleared and homed and not reset and not switch and end - body <= _MEMO_CHARS \
                and not raw_alt and walker.modes == _DEFAULT_MODES and index not in keep:
            # (a clear and a home here leave what _Walked assumes: the main screen, no scroll region,
            # origin mode off)
            reusable = True
            walked = walker.last
            if walked is not None and end - body == len(walked.body) \
                    and text.startswith(walked.body, body) and walker.reuse(walked):
                append(_segment((page, walked.text, None) + walked.tally))
                continue
        try:
            model, continues = walker.begin(page)  # a kept page too: its break switches screens, resets
            if index in keep:
                raise Unresolved("the verifier rejected this page")
            walker.current = model
            model.low_water = start_budget = model.pad_budget
            tally = Stripped()
            _feed(model, text, body, end, tally, tokens, fast)
            if model.pins or model.joins_disputed:
                model.check_pins()
            start_row = _check_frozen(model, walker.frozen) if continues else 0
            walker.done(model)
            redraws = _redraws(model)
            rendered = _render(model, start_row, ending)
            append(_segment((page, rendered, None, tally.sequences, tally.chars, redraws)))
            if reusable:
                walker.last = _walked((text[body:end], rendered, (tally.sequences, tally.chars, redraws), model,
                                       start_budget, start_budget - model.low_water, start_budget - model.pad_budget))
        except Unresolved as exc:
            found = walker.inherited(text[page.start : page.end]) if page.start else None
            if found is None and page.switch and raw_alt != candidate_alt:
                # its switch acts from another screen in the raw than in the candidate (a switch on a
                # cleaned page before it is gone)
                found = "on the alternate screen" if raw_alt else "on the main screen"
            if found is not None:
                carried[index] = found
            if page.reset or page.switch:
                candidate_alt = page.screen == "alt"
            walker.failed()
            segments.append(Segment(page, None, f"{exc} (page at offset {page.start})"))
    _check_kept(text, segments, carried)
    return segments


def _redraws(model: ScreenModel) -> tuple[int, int, int, int, int, int]:
    """What the page's redraws left unshown, for the report (:class:`Removed`): read, never written."""
    tallies = model.redraws()
    cr, bs, multiline = tallies["cr"], tallies["bs"], tallies["multiline"]
    return cr.rows, cr.chars, bs.rows, bs.chars, multiline.rows, multiline.chars


# --- identical pages --------------------------------------------------------------------------------
_MEMO_CHARS = 4096  # a longer page is not kept (its model holds many rows); there are few of them anyway


class _Walked(NamedTuple):
    """A page walked to success from the same start as any page :meth:`_Walker.reuse` gives it to: a
    clear and a home (``begin``'s blank screen, cursor home, no margins, origin mode off, the main
    screen: nothing of the page before it is read), the same text, the same width, height and length."""

    body: str  # the page's text after its break
    text: str  # the rendered page
    tally: tuple[int, int, tuple[int, int, int, int, int, int]]  # sequences, their characters, redraws
    model: ScreenModel  # left as the walk left it: the next page's ``previous`` (read, never written)
    start: int  # the budget the walk started with
    need: int  # the most the walk drew from it at any point (the start less its low water)
    spent: int  # what it drew at the end


_DEFAULT_MODES = (None, False)  # no scroll region, origin mode off


# Segment(...) and _Walked(...) without the Python-level __new__ a namedtuple has (one each a page)
_segment = functools.partial(tuple.__new__, Segment)
_walked = functools.partial(tuple.__new__, _Walked)


class _Walker:
    """What one page leaves for the next: its model, the main screen under an alternate one, modes."""

    def __init__(self, length: int, columns: int | None, rows: int | None, *, terminal: bool = True,
                 fresh: bool = False) -> None:
        self.length, self.columns, self.rows = length, columns, rows
        self.terminal = terminal
        self.fresh = fresh and terminal  # a new terminal: the first page starts on a blank, homed screen
        self.previous: ScreenModel | None = None  # the last page's model (None: kept, state unknown)
        self.main: ScreenModel | None = None  # the main screen while the alternate one is up
        self.alt_saved = False  # the alternate screen was entered by a lone ?1049h (the cursor saved)
        self.frozen: list[tuple[Row, str]] = []
        self.on_alt = False
        self.modes: tuple[tuple[int, int | None] | None, bool] = (None, False)  # margins, origin
        self.cursor_saved = False  # a cleaned page saved the cursor (DECSC / SCOSC) and no RIS came since
        # One work budget for the whole text (model.WORK_PER_INPUT_CHAR): pages do not each get one.
        self.budget: int | None = None
        self.current: ScreenModel | None = None
        self.last: _Walked | None = None  # the last page walked from a clear and a home (sessions redraw one)

    def _budgeted(self, model: ScreenModel) -> ScreenModel:
        if self.budget is not None:
            model.pad_budget = self.budget
        return model

    def _fresh(self, cursor: tuple[int, int] | None) -> ScreenModel:
        """A blank screen. With the cursor's row unknown but its column known (a clear after a page
        whose top is not known), the page is resolved as a text's first page is: relative moves only."""
        margins, origin = self.modes
        previous = self.previous
        if cursor is None and previous is not None and previous.cursor_known and not previous.pending_wrap \
                and margins is None and not origin:
            model = ScreenModel(self.length, columns=self.columns, rows=self.rows, top_known=False,
                                blank=True, cursor=(0, previous.col), terminal=self.terminal)
            # a column terminals disagree on stays disputed across the break: read, refused; CR settles it
            model.col_disputed = previous.col_disputed or (
                "a clear right after column 80 of a screen of unknown width" if previous.at_column_81() else "")
            return self._budgeted(model)
        # (positional: the call a session of small pages makes once a page)
        return self._budgeted(ScreenModel(self.length, self.columns, self.rows, True, False, cursor, margins, origin,
                                          self.terminal))

    def begin(self, page: breaks.Page) -> tuple[ScreenModel, bool]:
        """The model ``page`` is written on; True when it continues a main screen with frozen rows."""
        if page.start and page.homed and page.cleared and not page.reset and not page.switch:
            # a later page after a clear and a home on the screen it is on: what the checks below come
            # to for it (most pages of a session)
            if self.modes[1] and self.modes[0] is not None:
                raise Unresolved(f"page break at offset {page.start} in origin mode (DECOM) with a scroll region")
            return self._fresh((0, 0)), False
        previous = self.previous
        if page.start == 0 and self.fresh:
            # a new terminal: an empty screen, the cursor home, default modes, the main screen; a
            # leading break changes none of that (an alternate screen starts blank and homed too)
            if page.screen == "alt":
                self.on_alt = True
                self.alt_saved = _saves_cursor(page)
                self.main = ScreenModel(self.length, columns=self.columns, rows=self.rows, top_known=True,
                                        cursor=(0, 0))
            return self._budgeted(ScreenModel(self.length, columns=self.columns, rows=self.rows, top_known=True,
                                              cursor=(0, 0))), False
        if page.start == 0 and (page.body == 0 or not (page.cleared or page.homed or page.switch)):
            # a text's first page; a leading ED 3 alone changes no visible row
            return ScreenModel(self.length, columns=self.columns, rows=self.rows, top_known=False,
                               terminal=self.terminal), False
        if not (page.cleared or page.reset or page.switch):
            # ED 3 (with or without a home) blanks no row: the page writes over the one before it,
            # which the candidate holds as other text (cleaned) or as bytes of unknown effect (kept)
            raise Unresolved(f"ED 3 at offset {page.start} erases the scrollback only, not the screen")
        margins, origin = self.modes
        if origin and margins is not None and not page.reset:
            # under DECOM tmux homes to the region's top, and a clear leaves the cursor within the
            # region: where the page's rows land is not the screen's top that a fresh page assumes
            raise Unresolved(f"page break at offset {page.start} in origin mode (DECOM) with a scroll region")
        cursor = (0, 0) if page.homed else None if previous is None else previous.screen_cursor()
        if page.reset and self.on_alt:
            # tmux 3.3a stays on the alternate screen after RIS, xterm leaves it; keeping the page
            # would not survive a second pass (the switch before it is cleaned away)
            raise WholeRefusal(UNSUPPORTED_CONTROL, f"RIS on the alternate screen at offset {page.start} "
                               "(terminals disagree)", [])
        if page.reset:
            self.main, self.frozen, self.on_alt, self.modes = None, [], False, (None, False)
            self.cursor_saved = False
            return self._fresh((0, 0)), False
        if page.screen == "alt" and not self.on_alt:
            self.last = None  # the main screen's model may be written again: no walk may share it
            self.main = previous
            self.frozen = [] if previous is None else [(r, r.render()) for r in previous.rows if r.cells]
            if page.switched_homed and previous is not None:
                # the run homed on the main screen before it switched (F33-1): its cursor, which ?1049h
                # saves, is at the screen's top row, a row of its model only where that top is known
                if previous.top_known:
                    previous._place(0, 0)
                else:
                    self.main = None
            # Freezing and later re-checking the main screen costs its cells at every switch: charged,
            # so that a text toggling screens between main-screen lines cannot go quadratic.
            self._spend(sum(len(row.cells) + 1 for row, _ in self.frozen))
            self.on_alt = True
            self.alt_saved = _saves_cursor(page)
            return self._fresh(cursor), False
        if page.screen == "main" and self.on_alt:
            self.on_alt = False
            main, self.main = self.main, None
            if not (page.cleared and page.homed) and (
                    page.switches != 1 or (page.switch == "?1049l" and not self.alt_saved)):
                # tmux 3.3a restores only a cursor a ?1049h saved (an older one too, else it stays
                # put), xterm the one DECSC / ?1049h saved or home: no agreed position
                raise Unresolved(f"{page.switch} at offset {page.start} leaves an alternate screen that no lone "
                                 "?1049h entered, or after another switch: where the cursor goes is disputed")
            if page.cleared:
                if page.homed or page.switch != "?1049l":
                    return self._fresh(cursor if page.homed else None), False
                # ?1049l restores the cursor saved on entering: the main screen's, not the alternate's
                at = None if main is None else main.screen_cursor()
                if at is None:
                    raise Unresolved(f"?1049l at offset {page.start} restores a cursor whose row is not known")
                return self._fresh(at), False
            if main is None or previous is None:
                raise Unresolved("leaving an alternate screen for a main screen whose state is not known")
            if page.homed:
                if not main.top_known:
                    raise Unresolved(f"a home at offset {page.start} on a main screen whose top is not known")
                main._place(0, 0)
            elif page.switch != "?1049l":
                at = previous.screen_cursor()
                if at is None or not main.top_known:
                    raise Unresolved(f"{page.switch} leaves the cursor where the alternate screen had it")
                main._place(*at)
            self._spend(sum(len(row.cells) + 1 for row, _ in self.frozen))  # _check_frozen's work
            return self._budgeted(main), bool(self.frozen)
        if page.switch and not page.cleared:
            raise Unresolved(f"{page.switch} with no switch to the other screen before it")
        if page.switch and self.on_alt:
            self.alt_saved = False  # a second entry: tmux keeps the first save, xterm takes a new one
        return self._fresh(cursor), False

    def reuse(self, walked: _Walked) -> bool:
        """What :meth:`done` does after ``walked``'s walk, where walking the page again now would give
        the same (else False: walk it). The walk reads the budget only to refuse below 0 (``_charge``)
        and to try a fast path where what it charges next is within it (``write_pieces``, ``_feed``'s
        plain lines), each then charged at once: with a budget no higher than the walk's start, each
        test comes out as it did while the budget stays above 0 wherever the walk's did, that is
        while this budget is at least the most the walk drew at any point."""
        budget = WORK_ALLOWANCE + WORK_PER_INPUT_CHAR * self.length if self.budget is None else self.budget
        if not walked.need <= budget <= walked.start:
            return False
        self.cursor_saved = self.cursor_saved or walked.model.cursor_saved
        self.budget = budget - walked.spent
        self.previous = walked.model
        self.modes = (walked.model.margins, walked.model.origin)
        return True

    def _spend(self, cells: int) -> None:
        if self.budget is None:
            self.budget = WORK_ALLOWANCE + WORK_PER_INPUT_CHAR * self.length  # a model's own budget
        self.budget -= cells
        if self.budget < 0:
            raise WholeRefusal(UNSUPPORTED_CONTROL, "redraws touch more cells than this input allows", [])

    def inherited(self, page_text: str) -> str | None:
        """What the pages so far leave the next one (``page_text``) that differs from a terminal's
        defaults, or None. A kept page after them is raw bytes after plain text in the candidate:
        defaults there, and no saved cursor for a restore in it to go back to."""
        if self.cursor_saved and _RESTORE.search(page_text) is not None:
            return "a cursor saved (DECSC / SCOSC) that it restores"
        margins, origin = self.modes
        if margins is not None:
            bottom = "" if margins[1] is None else str(margins[1] + 1)
            return f"a scroll region (DECSTBM {margins[0] + 1};{bottom})"
        if origin:
            return "origin mode (DECOM)"
        return None

    def done(self, model: ScreenModel) -> None:
        self.cursor_saved = self.cursor_saved or model.cursor_saved
        self.budget = model.pad_budget
        self.current = None
        self.previous = model
        self.modes = (model.margins, model.origin)

    def failed(self) -> None:
        if self.current is not None:
            self.budget = self.current.pad_budget
            self.current = None
        if self.budget is not None and self.budget < 0:
            raise WholeRefusal(UNSUPPORTED_CONTROL, "redraws touch more cells than this input allows", [])
        self.previous = None
        if not self.on_alt:
            self.main, self.frozen = None, []


def _saves_cursor(page: breaks.Page) -> bool:
    """Whether ``page``'s break entered the alternate screen by one ?1049h alone (tmux 3.3a saves no
    cursor for a ?1049h on the alternate screen already, xterm does)."""
    return page.switch == "?1049h" and page.switches == 1


def _check_frozen(model: ScreenModel, frozen: list[tuple[Row, str]]) -> int:
    """The main screen after the alternate one: its earlier rows must be as they were; returns where
    the continuation's own rows start."""
    position = 0
    for row, shown in frozen:
        try:
            at = model.rows.index(row, position)
        except ValueError:
            raise Unresolved("a main-screen row written before the alternate screen left the screen after it") from None
        if row.render() != shown:
            raise Unresolved("a main-screen row written before the alternate screen changed after it")
        position = at + 1
    return position
