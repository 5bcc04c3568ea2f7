"""Whole terminal sessions: one candidate from a text's pages, each cleaned or kept as its raw bytes.

:func:`resolve` walks the pages of :mod:`pages` with the :mod:`screen` model, carrying what a break
leaves as it was (the cursor's screen position where known, margins, origin mode, the main screen
under an alternate one). A page the model cannot resolve, or that the gate names in ``keep``, is
kept verbatim, provided :func:`pages.persists` finds nothing in it that outlives the next break;
:func:`assemble` joins the segments in the contract's shape (docs/design.md, 'Pages').
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection
from operator import methodcaller
from typing import NamedTuple

from . import grammar, pages
from .grammar import Kind
from .model import MIN_COLUMNS, WORK_ALLOWANCE, WORK_PER_INPUT_CHAR
from .names import (
    CHA,
    CNL,
    CPL,
    CUB,
    CUD,
    CUF,
    CUP,
    CUU,
    DCH,
    DECAWM,
    DECRC,
    DECSC,
    DECSTBM,
    DL,
    ECH,
    ED,
    EL,
    HPA,
    HVP,
    ICH,
    IL,
    IND,
    NEL,
    REP,
    RI,
    RM,
    SCORC,
    SCOSC,
    SD,
    SM,
    SU,
    VPA,
)
from .redraw import INERT_MARK, ONE_CELL_TEXT, UNWRITTEN, Row, Stripped, Unresolved, overlay_line
from .result import UNSUPPORTED_CONTROL
from .screen import WRAP, ScreenModel

_TOKEN = grammar.SEQUENCE_OR_CONTROL
_TOKEN_OR_BACKSPACES = re.compile(rf"\x08\x08+|{_TOKEN.pattern}")  # a run of backspaces is one move
_DIGITS = re.compile(r"[0-9;]*")
# Strings the grammar ends where tmux does not: DCS / SOS / PM / APC ended by BEL (the Buildkite
# policy), and a DCS cancelled by CAN / SUB once its data began. tmux 3.3a swallows on to ST (checked
# live, APC included), so the text after one may never show there: appending it keeps more than tmux
# shows, but no redraw may act on it, and no line end may come before the next ESC (tmux joins the
# text before the string with the text after its ST: ``AB ESC _ x BEL LF CD ESC \\ EF`` shows ``ABEF``).
SWALLOWING_STRING = grammar.SWALLOWING_STRING
_RESTORE = grammar.RESTORE_CURSOR  # DECRC, SCORC, XTRESTORE 1048
_UNDECODABLE = re.compile("[\udc80-\udcff]")  # bytes ``surrogateescape`` could not decode
# After a swallowing string: anything but appended text, line ends and inert sequences is a redraw.
_REDRAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]|\r(?!\n)")


def disputed_parameters(params: str) -> str | None:
    """Why terminals disagree on what a CSI with these parameter bytes does, or None. A parameter string
    of :data:`grammar.PARAMETER_BYTES_LIMIT` bytes or more (tmux discards the sequence, xterm acts on
    it), or a parameter above :data:`grammar.PARAMETER_RANGE_LIMIT` (tmux ignores the sequence, xterm
    clamps it; length first: ``int()`` refuses more than 4300 digits)."""
    if len(params) < 10:
        return None  # no field of ten digits: none above the limit
    if len(params) >= grammar.PARAMETER_BYTES_LIMIT:
        return (f"{len(params)} parameter bytes (tmux discards a sequence of {grammar.PARAMETER_BYTES_LIMIT} "
                "or more, xterm acts on it)")
    for field in re.split("[;:]", params):
        digits = field.lstrip("0")
        if len(digits) > 10 or (len(digits) == 10 and digits.isdigit() and int(digits) > grammar.PARAMETER_RANGE_LIMIT):
            return f"a parameter above {grammar.PARAMETER_RANGE_LIMIT} (tmux ignores the sequence, xterm clamps it)"
    return None


def joined_by_swallowing(text: str) -> str | None:
    """Where a string tmux swallows past is followed by a line end before the next ESC (tmux joins
    the lines around it): a description, or None."""
    for m in SWALLOWING_STRING.finditer(text):
        line_end = grammar.LINE_END_BEFORE_ESC.match(text, m.end())
        if line_end is None or line_end.end() == len(text):
            continue  # the string swallows to the end (tmux shows less: the safe side)
        if SWALLOWING_STRING.match(text, line_end.end()) is not None:
            continue  # the next ESC starts another such string: tmux shows nothing of what lies between
        return (f"a line end after {grammar.describe(grammar.parse(m.group()))} at offset {m.start()}, a string "
                "tmux does not end there (it joins the text before it with the text after its ST)")
    return None


def swallowed_text(text: str) -> str | None:
    """At a terminal: where something (text, a control, a sequence: anything but BEL) lies between
    the early end of a :data:`SWALLOWING_STRING` and the place tmux ends it. tmux swallows it, a
    terminal or viewer that ends the string at BEL shows or acts on it: they disagree on the line
    (issue 23). A description, or None."""
    for m in SWALLOWING_STRING.finditer(text):
        start = m.end()
        string = m.group()
        in_data = string[1] == "P" and grammar.DCS_BEFORE_DATA.fullmatch(string, 2, len(string) - 1) is None
        tmux_end = (grammar.TMUX_ENDS_DCS if in_data else grammar.TMUX_ENDS_STRING).search(text, start)
        stop = len(text) if tmux_end is None else tmux_end.start()
        stretch = text[start:stop]
        if not stretch.strip("\x07"):
            continue
        # Even where tmux shows nothing of the string's line (a Buildkite timestamp at a line's start), a
        # terminal that shows the stretch shows more than tmux: text tmux swallows is a dispute.
        return (f"{grammar.describe(grammar.parse(m.group()))} at offset {m.start()} ends there, but tmux "
                f"reads on to {'its ST' if in_data else 'the next ESC'} and swallows what lies "
                f"between (offset {start} to {stop}): terminals disagree on what shows")
    return None


def swallowed_redraw(text: str) -> str | None:
    """Where a string tmux swallows past is followed by a redraw or a line end before the next ESC
    (terminals disagree on what shows): a description, or None."""
    joined = joined_by_swallowing(text)
    if joined is not None:
        return joined
    m = SWALLOWING_STRING.search(text)
    if m is None:
        return None
    rest = grammar.APPEND_ONLY_INERT.sub("", text[m.end() :])
    if "\x1b" in rest or _REDRAW_CONTROL.search(rest) is not None:
        return (f"redraw after {grammar.describe(grammar.parse(m.group()))} at offset {m.start()}, a string tmux "
                "does not end there (it swallows what follows)")
    return None


class WholeRefusal(Exception):
    """No candidate: ``reason`` is a gate reason, ``detail`` says where."""

    def __init__(self, reason: str, detail: str, segments: list[Segment]) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
        self.segments = segments


class Segment(NamedTuple):  # a tuple: a session of small pages builds one per page
    page: pages.Page
    text: str | None  # the cleaned page, or None: the page is kept as raw[start:end]
    why: str | None  # why a kept page was kept
    sequences: int = 0  # escape sequences removed (a cleaned page)
    sequence_chars: int = 0
    # rows and characters no longer shown per redraw kind: cr, backspace, multi-line (a cleaned page)
    redraws: tuple[int, int, int, int, int, int] = (0, 0, 0, 0, 0, 0)


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
    for index, page in enumerate(pages.split(text)):
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

    def begin(self, page: pages.Page) -> tuple[ScreenModel, bool]:
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


def _saves_cursor(page: pages.Page) -> bool:
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
        found = pages.persists(text[page.start : page.end])
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


# --- feeding one page -------------------------------------------------------------------------------
def _feed(model: ScreenModel, text: str, start: int, end: int, tally: Stripped, tokens: re.Pattern[str],
          fast: bool = False) -> None:
    """Each line of ``text[start:end]`` to the model, a token at a time; with ``fast``, a plain line
    (:func:`_plain`) as one :meth:`~ScreenModel.append_line` where the model takes it so."""
    if fast and end - start < _SHORT_PAGE_CHARS:
        _feed_short(model, text, start, end, tally)
        return
    chunk = text[start:end]
    pieces = chunk.split("\n")
    last = len(pieces) - 1
    marking = fast and last > 0 and INERT_MARK not in chunk
    del chunk
    marked: list[str] = []  # lines block_start.. with their inert sequences and EL 0 marked
    width = model.width
    previous_raw: str | None = None  # the last line given to _plain, and what it gave
    previous: tuple[str, str, int, int, int] | None = None
    block_start = 0
    offset = start
    index = 0
    while index <= last:
        if marking and index < last:
            raw = pieces[index]
            if raw != previous_raw:
                if _NEVER_PLAIN.search(raw, 0, len(raw.rstrip("\r"))) is not None:
                    previous_raw, previous = raw, None  # a control no marking removes: walked, not marked
                else:
                    if index - block_start >= len(marked):
                        block_start, stop = index, min(last, index + _MARK_LINES)
                        chars = sum(len(pieces[i]) + 1 for i in range(index, stop)) - 1
                        marked = grammar.APPEND_ONLY_INERT.sub(INERT_MARK, text[offset : offset + chars]).split("\n")
                    previous_raw, previous = raw, _plain(raw, marked[index - block_start], width)
            marking_here = previous is not None
        else:
            marking_here = False
        if marking_here:  # a plain line: it and the plain lines after it appended at once
            first = index
            batch: list[tuple[str, str, int, int, int]] = []
            size = 1  # lines tried at once: doubled while every one is taken
            while index < last:
                if index - block_start >= len(marked):
                    # the next lines, marked a block at a time (a page refused early is not marked
                    # to its end); no sequence holds an LF, so the block has the same lines
                    block_start, stop = index, min(last, index + _MARK_LINES)
                    chars = sum(len(pieces[i]) + 1 for i in range(index, stop)) - 1
                    marked = grammar.APPEND_ONLY_INERT.sub(INERT_MARK, text[offset : offset + chars]).split("\n")
                budget = model.pad_budget
                stop = min(last, block_start + len(marked), index + size)
                batch.clear()
                for at in range(index, stop):
                    raw = pieces[at]
                    if raw != previous_raw:  # a repeated line (a bar, a rule): the same plain form
                        previous_raw, previous = raw, _plain(raw, marked[at - block_start], width)
                    if previous is None or previous[4] > budget:
                        break
                    budget -= previous[4]
                    batch.append(previous)
                taken = model.append_plain(batch)
                charged = 0
                for line in batch[:taken] if taken < len(batch) else batch:
                    charged += line[4]
                    tally.sequences += line[2]
                    tally.chars += line[3]
                if charged:
                    model._charge(charged)  # as REP charges the cells it repeats
                for at in range(index, index + taken):
                    offset += len(pieces[at]) + 1
                index += taken
                if index < stop:  # a line not plain, past the budget, or not taken
                    break
                size = min(2 * size, _MARK_LINES)
            if index > first:
                model.last_char = _last_char(pieces, first, index, model.last_char)
                continue
        piece = pieces[index]
        body = piece.rstrip("\r")
        piece_end = offset + len(piece)
        if body and not (fast and len(body) >= _OVERLAY_MIN_CHARS and _overlaid(model, body, tally)):
            _feed_line(model, body, offset, tally, tokens)
        if piece_end < end:
            model.line_feed(piece[len(body) :] + "\n")
        elif len(piece) > len(body):
            model.carriage_return()
        offset = piece_end + 1
        index += 1


# A line's end (the CRs before its LF: the ending the row records), the CRs that end the page's text,
# or one token of a line.
_PAGE_SPLIT = re.compile(rf"(\r*\n|\r+\Z|{_TOKEN_OR_BACKSPACES.pattern})").split


def _feed_short(model: ScreenModel, text: str, start: int, end: int, tally: Stripped) -> None:
    """:func:`_feed` (``fast``) of a page shorter than a line the string path takes, in one pass over its
    tokens and line ends: what walking each line gives, where batching lines or a line's coloured runs
    would not pay for their set-up (a session of small pages). Each line end is the line feed ``_feed``
    gives it (the CRs before its LF its ending), CRs that end the text one carriage return; the tokens
    between are walked as :func:`_walk_tokens` walks them (no line is long enough for the string path).
    (Split, not matched: a match object per token cost more than the page's walk.)"""
    pieces = _PAGE_SPLIT(text[start:end])  # text, token, text, ..., text
    at = start
    write = model.write
    for piece, token in zip(pieces[::2], pieces[1::2], strict=False):  # (texts: one more)
        if piece:
            write(piece)
            at += len(piece)
        last = token[-1]
        if last == "\n":
            model.line_feed(token)
        elif last == "\r":
            if at + len(token) != end:
                model.last_char = None  # a CR within a line: _feed_token's
            # (else CRs at the end: one token, tried before a CR alone; one carriage return, as _feed's)
            model.carriage_return()
        else:
            act = _ACTS.get(token)
            if act is None:
                _feed_token(model, token, at, tally)
            else:  # what _feed_token does for a sequence planned before (none is REP or DECRST)
                model.last_char = None
                tally.sequences += 1
                tally.chars += len(token)
                act(model)
        at += len(token)
    if pieces[-1]:
        write(pieces[-1])


_MARK_LINES = 256
# A CR before the line's end, a backspace or a tab (no inert sequence holds a C0 control), or a cursor
# move or erase other than EL (never inert, and its ESC starts no longer sequence): marking leaves it,
# and a plain line has none, so the line is not plain whatever its other sequences are.
_NEVER_PLAIN = re.compile(rf"[\r\x08\t]|{grammar.MOVE_OR_ERASE_NOT_EL.pattern}")
# A plain line once its inert sequences and EL 0 are marked: one-cell characters and marks, nothing else.
_PLAIN = re.compile(ONE_CELL_TEXT.pattern[0] + INERT_MARK + ONE_CELL_TEXT.pattern[1:])
# DECRST of a mode list holding 7 (DECAWM): refused at a known width (_feed_line)
_DECAWM_OFF = grammar.AUTOWRAP_OFF


# REP right after a printable ASCII character of the same line (no sequence between: each one left
# unmarked here is not inert, and REP repeats only a character written right before it)
_REP_AFTER_CHARACTER = grammar.REP_AFTER_CHARACTER


@functools.lru_cache(maxsize=256)
def _expand_repeats(marked: str) -> tuple[str, int, int, int] | None:
    """``marked`` with each REP after a character written out, the REPs, their characters and the
    cells they repeat; None unless the line is then plain. (Cached: a bar's lines repeat.)"""
    repeats = repeat_chars = repeated = 0
    pieces: list[str] = []
    pos = 0
    for m in _REP_AFTER_CHARACTER.finditer(marked):
        count = int(m.group(2) or 1) or 1  # 0 or none: once
        pieces.append(marked[pos : m.start()])
        pieces.append(m.group(1) * (1 + count))
        pos = m.end()
        repeats += 1
        repeat_chars += m.end() - m.start() - 1
        repeated += count
    if not repeats:
        return None
    pieces.append(marked[pos:])
    expanded = "".join(pieces)
    if _PLAIN.fullmatch(expanded) is None:
        return None
    return expanded, repeats, repeat_chars, repeated


def _plain(raw: str, marked: str, width: int | None) -> tuple[str, str, int, int, int] | None:
    """A line (without its LF; ``marked``: its inert sequences and EL 0 as :data:`INERT_MARK`) that
    the walk would only write and line-feed, from the first column of an empty row: its text, line
    ending, and the sequences and their characters removed; or None. Every ESC and control of it
    starts one marked sequence (none is left once they are marked), so the walk's tokens are those
    sequences and the text between them. EL 0 right after the text erases nothing: it only refuses
    at or past the 80th column of an unknown width (or decides a pending wrap at a known one),
    hence a bound on the last one's column."""
    body = len(raw)
    if raw and raw[-1] == "\r":
        body = len(raw.rstrip("\r"))
        marked = marked[: len(marked) - (len(raw) - body)]  # the same CRs end the marked line
    repeated = repeats = repeat_chars = 0
    if _PLAIN.fullmatch(marked) is None:
        if "\x1b[" not in marked or "b" not in marked:
            return None
        # a line of text and REP (a padded bar, a rule): the repeats written out, as the walk writes them
        expanded = _expand_repeats(marked)
        if expanded is None:
            return None
        marked, repeats, repeat_chars, repeated = expanded
    sequences = marked.count(INERT_MARK)
    shown = marked.replace(INERT_MARK, "") if sequences else marked
    if width is not None and (len(shown) > width or (sequences and _DECAWM_OFF.search(raw) is not None)):
        return None  # it would wrap; DECAWM off is refused
    if repeats and width is None and len(shown) > MIN_COLUMNS:
        return None  # REP past a margin: the walk decides (ScreenModel.repeat)
    if sequences and "K" in raw:
        erase = max(raw.rfind("\x1b[K"), raw.rfind("\x1b[0K"))
        if erase >= 0 and len(grammar.APPEND_ONLY_INERT.sub("", raw[:erase])) >= (width or MIN_COLUMNS):
            return None
    return shown, raw[body:] + "\n", sequences + repeats, body - len(shown) + repeated, repeated


_UNSET = object()


def _last_char(pieces: list[str], first: int, stop: int, before: str | None) -> str | None:
    """What REP repeats after lines ``pieces[first:stop]`` as the walk leaves it: the last character
    written, unless a sequence after it reset it (every sequence, REP too: terminals disagree on a
    second REP)."""
    for index in range(stop - 1, first - 1, -1):
        body = pieces[index].rstrip("\r")
        found: object = _UNSET
        pos = 0
        for m in _TOKEN.finditer(body):
            if m.start() > pos:
                found = body[m.start() - 1]
            pos = m.end()
            found = None
        if pos < len(body):
            found = body[-1]
        if found is not _UNSET:
            return found  # type: ignore[return-value]
    return before


# Sessions repeat a few sequences thousands of times (SGR, CUP, EL): each is parsed and classified once.
parse_cached = functools.lru_cache(maxsize=4096)(grammar.parse)


@functools.lru_cache(maxsize=4096)
def inert_cached(token: str) -> bool:
    """Whether ``token`` (one complete sequence) is inert: :data:`grammar.INERT_SEQUENCE` in full."""
    return grammar.INERT_SEQUENCE.fullmatch(token) is not None


_parse = parse_cached


@functools.lru_cache(maxsize=4096)
def _numbers(seq: grammar.Sequence) -> tuple[int, ...]:
    """``seq.numbers()`` of a parsed sequence, once per distinct sequence (sessions repeat CUP and EL)."""
    return tuple(seq.numbers())
_inert = inert_cached


#: A shorter line costs the walk less than the string path's set-up.
_OVERLAY_MIN_CHARS = 96
#: A page of fewer characters is fed by :func:`_feed_short`: no line of it is long enough for the string
#: path, and a run of CRs in it (which the split's line ends try at each CR) stays short.
_SHORT_PAGE_CHARS = _OVERLAY_MIN_CHARS


def _overlaid(model: ScreenModel, body: str, tally: Stripped) -> bool:
    """A line redrawn by CR and EL alone (progress frames) from the first column of an empty last row,
    resolved on strings as the row model's string path resolves it (:func:`redraw.overlay_line`): the same
    cells, cursor, tallies, work and character for REP as :func:`_feed_line`; False: walk it. (A harmless
    private mode, rich's ``CSI ? 25 l``, is inert there as in the walk; DECAWM off the walk refuses.)"""
    if len(body) < _OVERLAY_MIN_CHARS or "\r" not in body or "\b" in body or not model.overlay_ready() \
            or ("\x1b[?" in body and _DECAWM_OFF.search(body) is not None):
        return False
    return overlay_line(model, body, tally)


def _feed_line(model: ScreenModel, body: str, offset: int, tally: Stripped, tokens: re.Pattern[str]) -> None:
    if tokens is _TOKEN_OR_BACKSPACES and "m" in body and "\x1b[" in body and (
            body.isascii() or _C1.search(body) is None):  # a lone C1 is text to the walk, not a run's
        _feed_runs(model, body, offset, tally)
    else:
        _walk_tokens(model, body, offset, tally, tokens)


def _walk_tokens(model: ScreenModel, body: str, offset: int, tally: Stripped, tokens: re.Pattern[str]) -> None:
    pos = 0
    acts = _ACTS
    for m in tokens.finditer(body):
        token_start = m.start()
        if token_start > pos:
            model.write(body[pos:token_start])
        pos = m.end()
        token = m.group()
        act = acts.get(token)
        if act is None:
            _feed_token(model, token, offset + token_start, tally)
        else:  # what _feed_token does for a sequence planned before (none is REP or DECRST)
            model.last_char = None
            tally.sequences += 1
            tally.chars += len(token)
            act(model)
    if pos < len(body):
        model.write(body[pos:])


_C1 = re.compile("[\x80-\x9f]")
# The run path's steps: text and SGR between two other tokens (group 1), or one other token (every
# character but C1 is in one match).
_SGR_RUN = re.compile(rf"((?:[^\x00-\x1f\x7f-\x9f]+|{grammar.SGR_ONLY.pattern})+)|{_TOKEN_OR_BACKSPACES.pattern}")


def _feed_runs(model: ScreenModel, body: str, offset: int, tally: Stripped) -> None:
    """:func:`_feed_line` a run at a time: text and the SGR between it appended as one string where
    :meth:`ScreenModel.append_run` says that is the same as writing each piece (a coloured row)."""
    acts = _ACTS
    for m in _SGR_RUN.finditer(body):
        run = m.group(1)
        if run is None:
            token = m.group()
            act = acts.get(token)
            if act is None:
                _feed_token(model, token, offset + m.start(), tally)
            else:  # _walk_tokens' shortcut
                model.last_char = None
                tally.sequences += 1
                tally.chars += len(token)
                act(model)
        elif "\x1b" not in run:
            model.write(run)
        else:
            pieces = _SGR_ONLY_SPLIT(run)
            text = "".join(pieces)
            if text and model.append_run(pieces, text):
                tally.sequences += len(pieces) - 1
                tally.chars += len(run) - len(text)
            else:
                _walk_tokens(model, run, offset + m.start(), tally, _TOKEN)


_SGR_ONLY_SPLIT = grammar.SGR_ONLY.split


def _feed_token(model: ScreenModel, token: str, at: int, tally: Stripped) -> None:
    """One sequence or control at offset ``at`` of the text."""
    first = token[0]
    if token[-1] != REP:
        model.last_char = None  # REP repeats only a character written right before it
    if first == "\x1b":
        if len(token) == 1:
            raise Unresolved(f"ESC that starts no complete sequence at offset {at}")
        tally.sequences += 1
        tally.chars += len(token)
        if token[-1] == RM and model.width is not None and token.startswith("\x1b[?"):
            seq = _parse(token)
            if seq.kind is Kind.CSI and seq.private == "?" and seq.final == RM and DECAWM in seq.numbers(-1):
                raise Unresolved("DECAWM off on a screen of known width")
        act = _ACTS.get(token)
        if act is not None:
            act(model)
        elif not _inert(token):
            seq = _parse(token)
            act = _plan(seq) if len(_ACTS) < _ACTS_SIZE and len(token) <= _ACT_LENGTH else None
            if act is None:
                _apply(model, seq, at)
            else:
                _ACTS[token] = act
                act(model)
    elif first == "\r":
        model.carriage_return()
    elif first == "\b":
        model.backspaces(len(token))
    elif first == "\t":
        model.tab()
    elif first == "\x07":
        tally.sequences += 1
        tally.chars += 1
    else:
        raise Unresolved(f"control U+{ord(first):04X} at offset {at}")


# A plain cursor move or erase (no dispute, no refusal of its own): what _apply would call, decided once
# per distinct sequence (sessions repeat CUP and EL thousands of times).
_Act = Callable[[ScreenModel], object]
_ACTS: dict[str, _Act] = {}
_ACTS_SIZE = 4096
_ACT_LENGTH = 32  # longer sequences are rare and are not kept alive by the table


def _plan(seq: grammar.Sequence) -> _Act | None:
    """The one call :func:`_apply` makes on the model for ``seq``, where that call is all it does;
    None: leave it to :func:`_apply`."""
    if seq.kind is not Kind.CSI or seq.private or seq.intermediates or _DIGITS.fullmatch(seq.params) is None:
        return None
    if disputed_parameters(seq.params) is not None or grammar.harmless_mode_change(seq) \
            or grammar.harmless_private_mode_change(seq):
        return None
    numbers = _numbers(seq)
    final = seq.final
    single = len(numbers) == 1
    count = numbers[0] or 1
    if final in (CUP, HVP):
        if len(numbers) > 2:
            return None
        row = numbers[0] if numbers[0] else 1
        col = numbers[1] if len(numbers) > 1 and numbers[1] else 1
        return methodcaller("cursor_position", row - 1, col - 1)
    if not single:
        return None
    if final == VPA:
        return methodcaller("cursor_position", count - 1, None)
    if final in (CHA, HPA):
        return methodcaller("cursor_to_column", count - 1)
    if final == EL:
        return methodcaller("erase_in_line", numbers[0])
    if final == ED:
        return methodcaller("erase_in_display", numbers[0])
    if final == ECH:
        return methodcaller("erase_characters", count)
    if final == CUF:
        return methodcaller("cursor_forward", count)
    if final == CUB:
        return methodcaller("cursor_back", count)
    if final in (CUU, CUD, CNL, CPL):
        return methodcaller("cursor_vertical", count if final in (CUD, CNL) else -count,
                            to_column_zero=final in (CNL, CPL))
    return None


def _apply(model: ScreenModel, seq: grammar.Sequence, offset: int) -> None:
    """Act on one sequence that is not inert, or raise :class:`Unresolved`."""
    disputed = disputed_parameters(seq.params) if seq.kind is Kind.CSI else None
    if disputed is not None:
        raise WholeRefusal(UNSUPPORTED_CONTROL, f"{grammar.describe(seq)} at offset {offset}: {disputed}", [])
    if grammar.harmless_mode_change(seq) or grammar.harmless_private_mode_change(seq):
        return
    if seq.kind is Kind.CSI and not seq.intermediates and _DIGITS.fullmatch(seq.params):
        numbers = _numbers(seq)
        final = seq.final
        if seq.private == "?":
            if final in (SM, RM) and len(numbers) == 1:
                mode = numbers[0]
                if mode == 6:
                    model.set_origin(final == SM)
                    return
                if mode == 7:
                    return  # DECAWM on (off was refused above where it matters)
                # 1048 (save / restore the cursor): tmux 3.3a ignores it, xterm honours it: refused
            _refuse(seq, offset)
        if seq.private:
            _refuse(seq, offset)
        single = len(numbers) == 1
        count = numbers[0] or 1  # seq.first(1)
        if final in (CUP, HVP):
            row = numbers[0] if numbers[0] else 1
            col = numbers[1] if len(numbers) > 1 and numbers[1] else 1
            if len(numbers) > 2:
                _refuse(seq, offset)
            model.cursor_position(row - 1, col - 1)
        elif final == VPA and single:
            model.cursor_position(count - 1, None)
        elif final in (CHA, HPA) and single:
            model.cursor_to_column(count - 1)
        elif final == EL and single:
            model.erase_in_line(numbers[0])
        elif final == ED and single:
            model.erase_in_display(numbers[0])
        elif final == ECH and single:
            model.erase_characters(count)
        elif final == CUF and single:
            model.cursor_forward(count)
        elif final == CUB and single:
            model.cursor_back(count)
        elif final in (CUU, CUD, CNL, CPL) and single:
            model.cursor_vertical(count if final in (CUD, CNL) else -count, to_column_zero=final in (CNL, CPL))
        elif final == IL and single:
            model.insert_lines(count)
        elif final == DL and single:
            model.delete_lines(count)
        elif final == ICH and single:
            model.insert_characters(count)
        elif final == DCH and single:
            model.delete_characters(count)
        elif final == SU and single:
            model.scroll(count, up=True)
        elif final == SD and single:
            model.scroll(count, up=False)
        elif final == REP and single:
            model.repeat(count)
        elif final == DECSTBM and len(numbers) <= 2:
            upper = numbers[0] or 1
            fields = seq.params.split(";")
            if len(fields) > 1 and fields[1] and not numbers[1]:
                _refuse(seq, offset)  # a 0 bottom: tmux reads it as row 1 (region ignored), xterm as the last
            lower = numbers[1] if len(numbers) > 1 and numbers[1] else None
            model.set_margins(upper - 1, None if lower is None else lower - 1)
        elif final in (SCOSC, SCORC) and not seq.params:
            (model.save_cursor if final == SCOSC else model.restore_cursor)()
        else:
            _refuse(seq, offset)
    elif seq.kind is Kind.ESC2 and seq.final in (DECSC, DECRC, RI, IND, NEL):
        if seq.final == DECSC:
            model.save_cursor()
        elif seq.final == DECRC:
            model.restore_cursor()
        elif seq.final == RI:
            model.reverse_index()
        elif seq.final == IND:
            model.index()
        else:
            model.index()
            model.carriage_return()
    else:
        _refuse(seq, offset)


def _refuse(seq: grammar.Sequence, offset: int) -> None:
    raise Unresolved(f"{grammar.describe(seq)} at offset {offset}")
