"""The verifier's screen model, fed a whole text: whole sessions, page by page (docs/design.md, 'Pages').

The verifier's one model (issue 24: the line model it had became this model at an unknown top):
:mod:`textclean.pipeline.verify` walks every text here that no shortcut (:mod:`.fast`) answers,
one page or many, at an unknown or known size, with or without a terminal. Written from ECMA-48,
xterm's ctlseqs and live tmux 3.3a, never from the cleaner: only the grammar (where a sequence
starts and ends) and its mnemonics are shared.

The screen is a window of rows: with a known height exactly the visible screen (``anchored``); with
an unknown one (at least 24 rows), the page's rows from its top while the page has fewer than 24
rows, then the last 24 rows with the top unknown (``floating``: no absolute row, no region). Rows
that leave the window go to the page's lines in order. A page ends at a page break; its lines are
its scrolled-off rows then its final rows. A page the model cannot decide is recorded with the
reason and skipped to the next break; whatever state it may leave behind (a region, origin mode, a
charset, a saved cursor) makes every later page undecided until RIS.

:class:`Model` is the last layer of the model's class (:mod:`.state` holds the chain): it
feeds the text token by token, cuts it into pages at page breaks, and :func:`pages` runs it.
"""

from __future__ import annotations

import gc
import re
import threading
from collections.abc import Callable
from functools import partial
from itertools import compress
from operator import is_not

from .. import grammar
from ..grammar import C0_RANGE, C1_RANGE, CSI, ESC, Kind
from ..model import SCREEN_LINES as MIN_ROWS
from ..names import ALT_SCREEN, ALT_SCREEN_1047, ALT_SCREEN_1049, DECAWM, ED, HARMLESS_PRIVATE_MODES, RIS, RM, SM
from .fast import ALL, Shortcuts
from .meaning import INERT, Refusal, closer, control_name, csi_action, sequence_label, swallows_on
from .replays import FRESH_BREAK, NEW_PAGE, UNKEYED, page_changes, set_page_fields
from .runs import ERASE_TO_END, LINE_TOKEN, SPECIAL, Runs
from .sequences import FIXED, HOME, MOVE, PARSED, PLAIN_SGR, decimal, is_home, parse, sequence_at
from .state import BLANK, Changes, Memo, Page, informative, render

_UNDECODABLE = re.compile(r"[\udc80-\udcff]")  # bytes decoded with surrogateescape

# On an undecided page: text, controls, SGR and EL 0 only (the walk then only notes what was printed)
_SHOWN = re.compile(f"[^{C0_RANGE}\x7f{C1_RANGE}]")

_ALT_MODES = (ALT_SCREEN, ALT_SCREEN_1047, ALT_SCREEN_1049)

_WRITTEN = partial(is_not, BLANK)


class Model(Runs):
    """Feed a whole text; :meth:`run` returns what each page shows: pages, page breaks and the state that
    outlives a page."""

    # -- pages ---------------------------------------------------------------------------------------

    def page_lines(self) -> list[str]:
        """The page's informative lines so far: scrolled-off rows, then the screen's unshown rows."""
        if self.unknown_width:
            self.wraps_below(False)
        out = [line for line in self.history if informative(line)] if self.history else []
        pieces = list(self.tail)
        grid = self.grid
        self.charge(len(grid))  # every row is visited, blank or not: a tall screen broken often costs
        previous = -1
        for index in compress(range(len(grid)), map(_WRITTEN, grid)):  # the shared blank row: no line
            if pieces and index > previous + 1:
                line = "".join(pieces)  # a blank row below a wrapped one ends its line
                if informative(line):
                    out.append(line)
                pieces = []
            previous = index
            row = grid[index]
            if row.cells and not (pieces or row.wrapped or row.wrap_disputed or row.shown):
                self.charge(len(row.cells))  # a row that is a line of its own: what the checks below come to
                line = render(row)
                if informative(line):
                    out.append(line)
                continue
            if not (row.cells or pieces or row.wrapped or row.wrap_disputed or row.shown):
                continue
            if row.wrap_disputed and index + 1 < len(grid):
                self.wrap_read(row, grid[index + 1])
            if row.shown:
                if pieces or (row.wrapped and index + 1 < len(grid) and not grid[index + 1].shown):
                    raise Refusal("a line shown before the alternate screen continues after it")
                continue
            if not row.cells and not row.wrapped and not pieces:
                continue  # a blank line
            self.charge(len(row.cells))
            pieces.append(render(row))
            if not row.wrapped:
                line = "".join(pieces)
                if informative(line):
                    out.append(line)
                pieces = []
        if pieces:
            line = "".join(pieces)
            if informative(line):
                out.append(line)
        return out

    def begin_break(self, start: int, end: int, resets: bool, erases_history: bool = False) -> None:
        """A page-break sequence at ``raw[start:end]``: a new page, unless the run of breaks goes on.
        ``erases_history``: it is ED 3 or RIS (the run's first decides what the page before loses)."""
        pages = self.pages
        if self.printed or not self.breaks_seen:
            page = pages[-1]
            page.end = start
            page.full = self.lost is None and self.screen_full()
            inherits = dict(self.set_on)
            if self.alt_on is not None:
                inherits["the alternate screen"] = self.alt_on
            pages.append(Page(start, end, inherits=inherits, erases_history=erases_history))
            if self.on_page is not None:
                self.on_page(pages)
        else:
            pages[-1].break_end = end
        if resets:
            pages[-1].resets = True
        self.breaks_seen = True
        self.printed = False

    def screen_full(self) -> bool:
        """Whether every row of the screen may hold a line: then a line end the cleaned text adds at the
        page's end scrolls its top row into the history (at an unknown height, a screen anchored at
        its top with fewer than 24 rows has blank rows below)."""
        grid = self.grid
        if self.anchored and self.height is None and len(grid) < MIN_ROWS:
            return False
        self.charge(len(grid))
        return BLANK not in grid and all(informative(render(row)) for row in grid)

    def emit(self) -> None:
        """Move what the page shows into its record (before a break changes the screen)."""
        if self.lost is None:
            self.pages[-1].lines.extend(self.page_lines())
        if self.history:
            self.history = []
        if self.tail:
            self.tail = []

    def finish(self) -> list[Page]:
        try:
            self.flush_home()
        except Refusal as exc:
            self.lose(str(exc), exc.offset)
        if self.lost is None:
            try:
                self.emit()
            except Refusal as exc:
                self.lose(f"at the end: {exc}", exc.offset)
        self.page.end = len(self.text)
        return self.pages

    # -- feeding -------------------------------------------------------------------------------------

    def run(self) -> list[Page]:
        text = self.text
        position = 0
        length = len(text)
        search = SPECIAL.search
        match_at = grammar.match_at
        unknown_width = self.unknown_width
        runs = self.runs_at_once
        while position < length:
            if self.lost is not None and self.plain_lines_at_once:
                position = self.skip_undecided(position)
                if position >= length:
                    break
            found = search(text, position)
            stop = found.start() if found else length
            matched = None  # the sequence at ``stop``, when matched already
            if stop > position:
                if self.lost is None:
                    run = None
                    if runs and found is not None and self.home_at < 0 and text.startswith(CSI, stop):
                        matched = match_at(text, stop)
                        if matched is not None and matched.group() in PLAIN_SGR:
                            run = self.coloured_run(position, stop, matched)
                    if run is not None:
                        stop, found = run
                        matched = None
                    else:
                        try:
                            if self.home_at >= 0:
                                self.flush_home()
                            self.write(text[position:stop])
                        except Refusal as exc:
                            self.lose(f"text at offset {position}: {exc}", position)
                else:
                    self.home_at = -1
                self.printed = True
            if found is None:
                break
            char = found.group()
            if char == ESC:
                match = match_at(text, stop) if matched is None else matched
                if match is None:
                    reason = f"malformed or truncated escape sequence at offset {stop}"
                    self.lose(reason, stop)
                    # A string left open swallows what follows, breaks included: nothing after is decided.
                    self.poisoned = reason
                    return self.finish()
                end = match.end()
                token = text[stop:end]
                if token in PLAIN_SGR and self.home_at < 0:
                    self.last_char = ""  # SGR changes nothing a page shows or leaves (what sequence() does)
                else:
                    self.sequence(token, stop, end)
                    if self.fresh_at == end and self.replays:
                        end = self.replay(end)
                position = end
            else:
                if self.lost is None:
                    try:
                        if self.home_at >= 0:
                            self.flush_home()
                        if char == "\r" and (not unknown_width or text.startswith("\n", stop + 1)):
                            self.carriage_return()  # what control() comes to for this CR
                            if text.startswith("\n", stop + 1):
                                # CR LF: the LF read now, as the next turn would (no home pending, none lost)
                                stop += 1
                                char = "\n"
                                self.line_feed()
                                self.carriage_return()
                        else:
                            self.control(char, char == "\r" and self.ends_line(stop))
                    except Refusal as exc:
                        self.lose(f"{control_name(char)} at offset {stop}: {exc}", stop)
                else:
                    self.home_at = -1
                position = stop + 1
                self.last_char = ""
                if char == "\n" and self.plain_lines_at_once and self.lost is None:
                    position = self.plain_lines(position)
        return self.finish()

    def skip_undecided(self, position: int) -> int:
        """On an undecided page, the text, controls, SGR and EL 0 from ``position`` on at once: for each the
        walk only forgets a pending home and notes whether text was printed (a sequence it must parse, a
        break among them, ends the span). Returns where the walk goes on."""
        text = self.text
        end = len(text)
        at = text.find(ESC, position)
        while at >= 0:  # up to the first sequence the walk must parse
            token = LINE_TOKEN.match(text, at)
            if token is None or (token.group() not in PLAIN_SGR and token.group() not in ERASE_TO_END):
                end = at
                break
            at = text.find(ESC, token.end())
        shown = LINE_TOKEN.sub("", text[position:end])
        if end > position:
            if _SHOWN.search(shown):
                self.printed = True
            self.home_at = -1
        return end

    def flush_home(self) -> None:
        """Apply a CUP home that turned out not to start a break."""
        if self.home_at >= 0:
            at, self.home_at = self.home_at, -1
            try:
                self.goto_row(0)
                self.goto_column(0)
            except Refusal as exc:
                home = sequence_at(self.text, at)
                label = "CSI H (CUP)" if home is None else sequence_label(home)
                raise Refusal(f"{label} at offset {at}: {exc}", at) from None

    def sequence(self, token: str, start: int, end: int) -> None:
        seq = PARSED.get(token) or parse(token)
        last_char, self.last_char = self.last_char, ""
        fixed = FIXED.get(token)
        try:
            if fixed is not None:  # what the checks below come to for a home, ED 2, ED 3 or RIS, or a move
                if fixed is MOVE:
                    if self.lost is not None:
                        self.home_at = -1
                        return
                    if self.home_at >= 0:
                        self.flush_home()
                    self.move(seq, last_char)  # what csi() comes to for it
                    return
                if fixed is HOME:
                    if self.breaks_seen and not self.printed and self.pages[-1].cleared:
                        self.pages[-1].fresh_start = True
                    if self.lost is None and self.home_at >= 0:
                        self.flush_home()
                    self.home_at = start
                    return
                joined = self.home_at >= 0 and fixed == "ED 2"
                self.page_break(fixed, seq, self.home_at if joined else start, end, joined)
                return
            if "\x9c" in token:
                raise Refusal("C1 control U+009C (ST) ends the string outside its payload")
            if (seq.kind is Kind.CSI and len(seq.params) >= grammar.PARAMETER_BYTES_LIMIT
                    and csi_action(seq).op != INERT):
                # tmux discards it, xterm acts: what it leaves is not agreed on, here or on later pages
                reason = (f"{grammar.PARAMETER_BYTES_LIMIT} or more parameter bytes "
                          "(tmux discards the sequence, xterm acts)")
                self.poisoned = self.poisoned or f"a sequence {reason}"
                raise Refusal(reason)
            if swallows_on(seq) and (self.terminal or seq.text[-1] != "\x07"):  # no terminal: BEL ends it
                self.swallow(seq, end)
            kind = self.break_kind(seq)
            if kind is not None:
                joined = self.home_at >= 0 and kind in ("ED 0", "ED 2")
                self.page_break(kind, seq, self.home_at if joined else start, end, joined)
                return
            if is_home(seq):
                if self.breaks_seen and not self.printed and self.page.cleared:
                    self.page.fresh_start = True
                if self.lost is None:
                    self.flush_home()
                self.home_at = start
                return
            if self.lost is not None:
                self.home_at = -1
                self.track_state(seq)
                return
            self.flush_home()
            self.track_state(seq)
            self.apply(seq, last_char)
        except Refusal as exc:
            self.lose(f"{sequence_label(seq)} at offset {start}: {exc}", start)

    # -- page breaks ---------------------------------------------------------------------------------

    def swallow(self, seq: grammar.Sequence, end: int) -> None:
        """At a terminal, a string tmux does not end where the grammar does (BEL-ended DCS/SOS/PM/APC, a
        cancelled DCS): tmux swallows what follows up to the next ESC (SOS, PM, APC) or up to ST (DCS,
        breaks included: nothing after it is decided, RIS or not). Agreed only where that comes next."""
        ends = closer(seq.text)
        after = self.text[end:end + 2]
        if after and not after.startswith(ends):
            if ends == grammar.ST:
                self.poisoned = self.swallowed = f"text after a DCS tmux runs on to ST, at offset {end}"
            raise Refusal(f"text at offset {end} that tmux swallows with the string before it")

    def break_kind(self, seq: grammar.Sequence) -> str | None:
        if seq.kind is Kind.ESC2 and seq.final == RIS:
            return "RIS"
        if seq.kind is not Kind.CSI or seq.intermediates:
            return None
        modes = decimal(seq) if seq.final == ED and not seq.private else None
        if modes is not None and len(modes) == 1 and modes[0] in (0, 2, 3):
            mode = modes[0]
            if mode in (2, 3):
                return f"ED {mode}"
            homed_in_region = self.origin and self.top  # CUP home goes to the region's top: rows above stay
            if (self.home_at >= 0 and not homed_in_region) or (self.lost is None and self.at_home()):
                return "ED 0"
            return None
        if seq.private == "?" and seq.final in (SM, RM):
            modes = seq.numbers(default=-1)
            switches = [mode for mode in modes if mode in _ALT_MODES]
            if switches:
                # tmux and xterm act on a list's modes one by one: ``?1049;25h`` is ``?1049h`` then ``?25h``
                others = [mode for mode in modes if mode not in _ALT_MODES]
                if len(switches) != 1 or any(mode not in HARMLESS_PRIVATE_MODES or mode == DECAWM for mode in others):
                    raise Refusal("an alternate-screen switch combined with other modes")
                return f"alt {switches[0]} {'on' if seq.final == SM else 'off'}"
        return None

    def at_home(self) -> bool:
        """At home, or maybe (the page's first row, its place unknown): tmux keeps the screen then."""
        return (self.cy == 0 and self.cx == 0 and self.cx_known and not self.pending and self.disputed is None
                and not (self.origin and self.top))

    def page_break(self, kind: str, seq: grammar.Sequence, start: int, end: int, homed: bool) -> None:
        home, self.home_at = (-1 if homed else self.home_at), -1
        if home >= 0 and kind.startswith("alt ") and self.lost is None:
            # F33-1: a home in the run moves the cursor the other screen starts at (and ?1049h saves)
            self.home_at = home
            try:
                self.flush_home()
            except Refusal as exc:
                self.lose(str(exc), exc.offset)
        lost = self.lost
        if lost is None:
            try:
                self.emit()
            except Refusal as exc:
                self.lose(f"{sequence_label(seq)} at offset {start}: {exc}", start)
                lost = self.lost
                self.emit()
        else:
            self.emit()  # what the undecided page scrolled off is its own (kept verbatim), not the next page's
            if self.modes or self.page.leaves:
                self.poisoned = self.poisoned or f"an undecided page may leave {self.page.leaves or sorted(self.modes)}"
        self.pages[-1].modes = frozenset(self.modes)
        self.begin_break(start, end, resets=kind == "RIS", erases_history=kind in ("ED 3", "RIS"))
        if homed or kind in ("ED 2", "RIS"):
            page = self.pages[-1]
            page.cleared = True
            page.fresh_start = page.fresh_start or homed or kind == "RIS"
        if kind.startswith("alt "):
            entering = kind.endswith(" on")
            self.alt_on = len(self.pages) - 1 if entering else None
            if entering and kind.split()[1] == "1049":
                self.saved_on = len(self.pages) - 1  # ?1049h saves the cursor
        self.lost = None
        if self.undecodable is None:
            found = _UNDECODABLE.search(self.text)
            self.undecodable = "" if found is None else f"an undecodable byte at offset {found.start()}"
            self.undecodable_at = None if found is None else found.start()
        if self.undecodable:
            # a cleaned page loses its break: bytes on either side of it would join into other characters
            self.lose(f"a page break in a text with {self.undecodable}", self.undecodable_at)
            return
        if self.poisoned is not None:
            if kind != "RIS" or self.swallowed is not None:
                self.lose(self.poisoned)
                return
            self.poisoned = None
        if lost is not None:
            self.saved_unknown = True
            # modes were followed through the undecided page: none left means the defaults
            self.bottom, self.top, self.origin, self.autowrap = None, 0, False, True
        if kind == "ED 3":
            self.home_at = home  # F33-1: ED 3 leaves the cursor alone: a home before it still applies
        try:
            self.apply_break(kind, lost, homed, end)
        except Refusal as exc:
            self.lose(f"{sequence_label(seq)} at offset {start}: {exc}", start)
        self.pages[-1].alternate = self.alt is not None
        # read through a call: ``self.lost = None`` above narrows the attribute, and compiled, reading it after
        # apply_break or lose set a reason raised a TypeError (mypyc checks the narrowed type)
        if homed and kind == "ED 2" and not self.undecided():
            self.fresh_at = end

    # -- a page walked alone (Replays.shape_template) ---------------------------------------------------

    def walk_alone(self, body: str, memo: Memo, budget: int) -> tuple[list[str], Changes] | None:
        """``body`` walked by a model of its own from the state ``memo`` starts from (every attribute of the
        state key copied, then compared) with ``budget`` work left: its lines and its page's other changes,
        where it ends as ``memo`` says (the same state, work, scrolls and next page), else None."""
        state = memo[0]
        alone = Model(body + FRESH_BREAK, self.columns, self.height, self.strict, None, self.terminal)
        for name, value in self.fields().items():
            if name not in UNKEYED:
                kind = type(value)
                setattr(alone, name, kind(value) if kind in (list, set, dict) else value)
        fields = state["page"]
        assert isinstance(fields, tuple)
        set_page_fields(alone.pages[0], page_changes(NEW_PAGE, fields))
        alone.work_left = budget
        if alone.state_key() != state:
            return None
        alone.recording = (body, state, 1, budget, alone.scrolls, 0, None)
        try:
            alone.run()
        except Refusal:
            return None
        made = alone.memo.get(body)
        if made is None or made[1:3] != memo[1:3] or made[4] != memo[4]:
            return None
        changes = dict(made[3])
        lines = list(changes.pop("lines", ()))  # type: ignore[call-overload]
        return lines, tuple(changes.items())


def pages(text: str, columns: int | None = None, rows: int | None = None, *, strict: bool = False,
          on_page: Callable[[list[Page]], None] | None = None, terminal: bool = True,
          fresh: bool = False, shortcuts: Shortcuts = ALL) -> list[Page]:
    """The raw text's pages, each with its informative lines or the reason it is undecided.

    ``strict``: raise :class:`Refusal` at the first undecided page (its ``page`` attribute: which).
    ``on_page``: see :class:`Model` (pages it empties of their lines are returned so).
    ``terminal=False``: no terminal (no right margin, strings end at BEL); ``fresh``: a new terminal
    (the first page's top is the screen's, the cursor home).
    """
    # One page record per break, none in a cycle: a collection per thousand allocations is pure cost (about
    # a tenth of the walk on a text of many pages). Only while no other thread runs: then every object
    # allocated meanwhile is the walk's own, and a host's threads (clean_many's, a server's) keep theirs.
    collecting = gc.isenabled() and threading.active_count() == 1
    if collecting:
        gc.disable()
    try:
        return Model(text, columns, rows, strict, on_page, terminal, fresh, shortcuts).run()
    finally:
        if collecting:
            gc.enable()
