"""The verifier's screen model: whole sessions, page by page (docs/design.md, 'Pages').

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
"""

from __future__ import annotations

import gc
import re
import threading
from collections.abc import Callable
from functools import partial
from itertools import compress
from operator import is_not, itemgetter

from .. import grammar
from ..grammar import C0_RANGE, C1_RANGE, CR, CSI, ESC, Kind
from ..model import MIN_COLUMNS
from ..model import SCREEN_LINES as MIN_ROWS
from ..names import (
    ALT_SCREEN,
    ALT_SCREEN_1047,
    ALT_SCREEN_1049,
    CUP,
    DECAWM,
    ED,
    EL,
    HARMLESS_PRIVATE_MODES,
    REP,
    RIS,
    RM,
    SGR,
    SM,
)
from .fast import ALL, Shortcuts
from .meaning import INERT, Refusal, all_narrow, closer, control_name, csi_action, sequence_label, swallows_on
from .page_breaks import Breaks
from .sequences import CACHE_LIMIT, FIXED, HOME, MOVE, PARSED, PLAIN_SGR, decimal, is_home, parse, sequence_at
from .state import BLANK, UNWRITTEN, Changes, Memo, Page, Row, Shape, informative, render

#: The break run a page is replayed after (:class:`Replays`), pages replayed up to this length, the memo's size
FRESH_BREAK = grammar.CSI + CUP + grammar.CSI + "2" + ED
_MEMO_BODY = 4096
_MEMO_LIMIT = 256
_SEEN_LIMIT = 4096
#: Outside a replay's state: constant for a text (``text``, ``on_page``), the page records and the budget
#: (replayed by difference), the scroll count (by difference: no saved cursor reads it), the CR run read
#: last (it ends before the page: read again), the memos and where the last home and ED 2 ended.
UNKEYED = ("text", "on_page", "pages", "work_left", "scrolls", "cr_run", "lines_read", "memo", "recording",
            "seen", "fresh_at", "shapes")
_KEY_TYPES = frozenset((type(None), bool, int, str, tuple, frozenset))
_PAGE_FIELDS = tuple(slot for slot in Page.__slots__ if slot not in ("start", "break_end", "end"))


def _page_fields(page: Page) -> tuple[object, ...]:
    return tuple(tuple(value.items()) if type(value) is dict else tuple(value) if type(value) is list else value
                 for value in map(page.__getattribute__, _PAGE_FIELDS))


NEW_PAGE = _page_fields(Page(0, 0))  # a page record as made, before its break run sets any field


#: The characters a page's walk reads only as printable, one cell wide and not blank (outside its escape
#: sequences): a page's shape is its text with each of them read as ``a`` (:meth:`Replays.shape_template`)
_CLASS = "".join(map(chr, range(0x21, 0x7F)))
_CLASS_INDEX = {char: index for index, char in enumerate(_CLASS)}
_SHAPE = str.maketrans(_CLASS, "a" * len(_CLASS))
_EMPTY_LINE = itemgetter(slice(0, 0))


_NO_SHAPE = Shape((), ({}, 0, 0, (), ()), (), "")  # a shape whose template failed (or not the one met)


def page_changes(before: tuple[object, ...], after: tuple[object, ...]) -> Changes:
    """The fields of :func:`_page_fields` that differ (in type or value) from ``before`` to ``after``."""
    return tuple((name, value) for name, old, value in zip(_PAGE_FIELDS, before, after, strict=True)
                 if type(old) is not type(value) or old != value)


def set_page_fields(page: Page, changes: Changes) -> None:
    for name, value in changes:
        if name == "lines":
            value = list(value)  # type: ignore[call-overload]
        elif name == "inherits":
            value = dict(value)  # type: ignore[call-overload]
        setattr(page, name, value)


class Replays(Breaks):
    """Pages that repeat: a page after a home and ED 2 whose bytes up to the next home and ED 2 were walked
    before from the same state ends as that walk did (the model is a function of its state and the
    text; the walk reads no byte past that break), so its records are replayed, not walked again."""

    def state_key(self) -> dict[str, object] | None:
        """Everything the walk of the next page reads, frozen (None: state that records page indexes or
        rows of their own, never replayed). Outside it: :data:`UNKEYED`."""
        if (self.saved is not None or self.saved_on is not None or self.alt_on is not None or self.set_on
                or self.alt is not None or self.lost is not None or self.tight):
            return None
        state = vars(self).copy()
        for name in UNKEYED:
            del state[name]
        grid = state["grid"] = tuple(self.grid)
        if grid.count(BLANK) != len(grid):
            return None
        state["history"], state["tail"] = tuple(self.history), tuple(self.tail)
        state["modes"], state["set_on"] = frozenset(self.modes), ()
        state["page"] = _page_fields(self.pages[-1])
        types = tuple(map(type, state.values()))
        if not _KEY_TYPES.issuperset(types):
            return None
        state["types"] = types  # True == 1: the types must agree too
        return state

    def replay(self, at: int) -> int:
        """At ``at``, just after a home and ED 2: the pages walked before from this state, replayed (the
        last one's walk recorded for the next time), or made from the template of a page of the same shape
        (:meth:`shape_template`). Returns where the walk goes on."""
        text, pages = self.text, self.pages
        recording, self.recording = self.recording, None
        if recording is not None:  # the page since the last home and ED 2, walked: remembered if it ended here
            body, state, count, work, scrolls, start, shape = recording
            # the page decided (a reason names offsets), its break run not extended, the next one at the end
            done, page = pages[-2:] if len(pages) > 1 else (None, None)
            valid = (len(pages) == count + 1 and done is not None and page is not None and done.reason is None
                     and done.break_end == start and page.start == start + len(body)
                     and page.break_end == at == page.start + len(FRESH_BREAK)
                     and self.work_left >= work - self.work_left and self.state_key() == state)
            if valid:
                assert done is not None
                if len(self.memo) >= _MEMO_LIMIT:
                    self.memo.clear()
                fields = state["page"]  # the page as it began (so began the next one): only what changed is set
                assert isinstance(fields, tuple)
                self.memo[body] = (state, work - self.work_left, self.scrolls - scrolls,
                                   page_changes(fields, _page_fields(done)), page_changes(NEW_PAGE, fields))
            if shape is not None and self.shapes is not None:
                made = self.shape_template(body, start, self.memo[body], work) if valid else None
                self.shapes[shape] = _NO_SHAPE if made is None else made
        known_state: dict[str, object] | None = None
        shapes = self.shapes
        while True:
            end = text.find(FRESH_BREAK, at, at + _MEMO_BODY)
            if end < 0:
                return at
            body = text[at:end]
            known = self.memo.get(body)
            kind: str | None = None
            template: Shape | None = None
            if known is None and shapes is not None:
                kind = body.translate(_SHAPE)
                template = shapes.get(kind, _NO_SHAPE)
                if template is None:  # seen once: this page, if new, is recorded for a template
                    kind = None if body in self.seen else kind
                elif template is not _NO_SHAPE and all(
                        text.startswith(token, at + offset) for offset, token in template.tokens):
                    known = template.memo
                else:
                    if kind not in shapes:
                        if len(shapes) >= _SEEN_LIMIT:
                            shapes.clear()
                        shapes[kind] = None
                    kind, template = None, None
            if known is None and kind is None and body not in self.seen:
                # the first time only noted: pages that never repeat pay a set lookup, not a record of state
                if len(self.seen) >= _SEEN_LIMIT:
                    self.seen.clear()
                self.seen.add(body)
                return at
            if known_state is None:
                known_state = self.state_key()
                if known_state is None:
                    return at
            if known is None or self.work_left < known[1] or known[0] != known_state:
                self.recording = (body, known_state, len(pages), self.work_left, self.scrolls, at,
                                  kind if known is None else None)
                return at
            # the walk's every charge lowers the budget, and the recording's stayed within it: so does this
            self.work_left -= known[1]
            self.scrolls += known[2]
            done = pages[-1]
            done.end = end
            set_page_fields(done, known[3])
            if template is not None:
                source = body + template.literals
                done.lines = ["".join(line(source)) for line in template.lines]
            at = end + len(FRESH_BREAK)
            page = Page(end, at)
            set_page_fields(page, known[4])  # the walk left the state as it found it: its page too
            pages.append(page)
            if self.on_page is not None:
                self.on_page(pages)

    def shape_template(self, body: str, at: int, memo: Memo, budget: int) -> Shape | None:
        """The template of the page ``body`` at ``at``, just walked from the state ``memo`` starts from with
        ``budget`` work left: for a page of the same shape (the same text but for printable characters
        other than space outside its escape sequences, which are the same), its walk is this one's with
        those characters in the cells they took (the walk reads them only as one cell wide, printable and
        not blank: tests/test_verify_fast_path.py). Where each line's characters come from is read from
        walks of the page with those characters replaced by digits of their offset (base 94, as many
        walks as digits), each from the same state (copied, compared) and ending as this one did; the
        template must rebuild all of their lines and this page's. None where any of it fails."""
        text = self.text
        tokens: list[tuple[int, str]] = []
        fixed = bytearray(len(body))  # offsets inside escape sequences: kept as they are
        offset = body.find(ESC)
        while offset >= 0:
            found = grammar.match_at(text, at + offset)
            if found is None or found.end() > at + len(body):
                return None
            tokens.append((offset, found.group()))
            fixed[offset:found.end() - at] = b"\x01" * (found.end() - at - offset)
            offset = body.find(ESC, found.end() - at)
        changes = dict(memo[3])
        want = list(changes.pop("lines", ()))  # type: ignore[call-overload]
        rest = tuple(changes.items())
        count = len(_CLASS)
        digits = 1 if len(body) <= count else 2
        if len(body) > count ** digits:
            return None
        walks = []
        for digit in range(digits):
            step = count ** digit
            marked = "".join(_CLASS[offset // step % count] if not fixed[offset] and char in _CLASS_INDEX else char
                             for offset, char in enumerate(body))
            walked = self.walk_alone(marked, memo, budget)
            if walked is None or walked[1] != rest or len(walked[0]) != len(want):
                return None
            walks.append((marked, walked[0]))
        literals: list[str] = []
        lines = []
        for index, line in enumerate(want):
            sources = []
            columns = [walk[1][index] for walk in walks]
            if any(len(column) != len(line) for column in columns):
                return None
            for chars in zip(*columns, strict=True):
                if chars[0] in _CLASS_INDEX:
                    if not all(char in _CLASS_INDEX for char in chars):
                        return None
                    source = sum(_CLASS_INDEX[char] * count ** digit for digit, char in enumerate(chars))
                    if source >= len(body) or fixed[source] or body[source] not in _CLASS_INDEX:
                        return None
                elif len(set(chars)) == 1:
                    if chars[0] not in literals:
                        literals.append(chars[0])
                    source = len(body) + literals.index(chars[0])
                else:
                    return None
                sources.append(source)
            lines.append(itemgetter(*sources) if sources else _EMPTY_LINE)
        template = Shape(tuple(tokens), (memo[0], memo[1], memo[2], rest, memo[4]), tuple(lines),
                          "".join(literals))
        for source, expected in [(body, want)] + [(marked, made) for marked, made in walks]:
            joined = source + template.literals
            if ["".join(line(joined)) for line in template.lines] != expected:
                return None
        return template


    def walk_alone(self, body: str, memo: Memo, budget: int) -> tuple[list[str], Changes] | None:
        """``body`` walked by a model of its own (:meth:`shape_template`): the whole model's, which makes
        one of its own class (:class:`.display.Model`)."""
        raise NotImplementedError

SPECIAL = re.compile(f"[{C0_RANGE}\x7f{C1_RANGE}]")
# A line that only appends: printable characters, SGR (checked against PLAIN_SGR) and EL 0, CR, then LF
LINE_TOKEN = grammar.csi_ending_in(SGR + EL + REP, subparameters=True)  # candidates: each checked by its text
# written as runs of text between tokens: `re` takes a run in one step, not one character a turn (the
# same matches: a token begins with ESC, which no run holds)
_PLAIN_LINE = re.compile(
    rf"[^{C0_RANGE}\x7f{C1_RANGE}]*(?:{LINE_TOKEN.pattern}[^{C0_RANGE}\x7f{C1_RANGE}]*)*(\r?)\n")
# ... or one redrawn, holding CRs not before its LF (plain_lines overlays it, where shortcuts.redrawn): tried
# only where _PLAIN_LINE fails, which costs a line that only appends nothing
_REDRAWN_LINE = re.compile(
    rf"[^{C0_RANGE}\x7f{C1_RANGE}]*(?:(?:{LINE_TOKEN.pattern}|\r(?!\n))[^{C0_RANGE}\x7f{C1_RANGE}]*)*(\r?)\n")
ERASE_TO_END = frozenset((grammar.CSI + EL, grammar.CSI + "0" + EL))
_ERASE_ROW = grammar.CSI + "2" + EL
# A line's text and tokens, alternating (split with the tokens kept: one scan); a redrawn line's, with its
# runs of CRs among the tokens
_LINE_PARTS = re.compile(f"({LINE_TOKEN.pattern})")
_REDRAW_TOKEN = re.compile(f"({LINE_TOKEN.pattern}|\r+)")
# redrawn_cells rebuilds the row string per text run: characters copied, at most this many plus this many
# per character of the line (progress frames rewrite a row of about their own length; "\rX" over a long
# row would copy it per run); past it the walk's cells, linear, take the line
_REDRAW_COPY_ALLOWANCE = 1 << 16
_REDRAW_COPIES_PER_CHAR = 8
_NOT_CR = re.compile("[^\r]")
_REPEATS: dict[str, int] = {}  # REP tokens plain_lines met: the count it reads (0: none it takes)
_CACHED_LINE = 256  # plain_lines remembers what lines up to this length write


class Runs(Replays):
    """Text that only appends, written at once: plain lines (what a line with sequences writes,
    remembered), runs of text split only by SGR, and the CR runs that only end a row."""

    def coloured_run(self, start: int, stop: int, token: re.Match[str]) -> tuple[int, re.Match[str] | None] | None:
        """The text from ``start`` to the plain SGR ``token`` at ``stop``, and the text after each plain SGR
        that follows, as far as writing them one by one (:meth:`put_narrow`) would only append: written
        at once. Then nothing is disputed, pending or shown, the column is known, the row ends at or
        before the cursor, every character is one cell wide, no piece but the last reaches a margin
        (the last one, a known right margin: the wrap is pending; at an unknown width, past column 80
        only with autowrap on: the page is wide) and the work (a pad, then each piece's) is within the
        budget; an SGR only forgets the character REP repeats, which the next piece sets. Returns where
        the run ends and the control or sequence there (None: the end of the text); None where no SGR
        and text follow the first piece, or it is not written at once."""
        if self.disputed is not None or self.pending or not self.cx_known or self.has_shown:
            return None
        grid, cy = self.grid, self.cy
        row = grid[cy]
        col = self.cx
        length = len(row.cells)
        if row.shown or col < length:
            return None
        columns = self.columns
        if columns is not None:
            margin: int | None = columns if self.autowrap else columns - 1
        else:
            margin = MIN_COLUMNS if self.unknown_width and not self.autowrap else None
        text = self.text
        search = SPECIAL.search
        pieces = [text[start:stop]]
        end = col + stop - start
        at = stop
        ending: re.Match[str] | None = None
        while True:
            after = token.end()
            following = search(text, after)
            next_stop = following.start() if following else len(text)
            if next_stop == after or (margin is not None and end + next_stop - after > margin):
                break
            pieces.append(text[after:next_stop])
            end += next_stop - after
            at, ending = next_stop, following
            if following is None or not text.startswith(CSI, next_stop):
                break
            found = grammar.match_at(text, next_stop)
            if found is None or found.group() not in PLAIN_SGR:
                break
            token = found
        if len(pieces) == 1 or (margin is not None and col + len(pieces[0]) > margin):
            return None
        run = "".join(pieces)
        if not (run.isascii() or all_narrow(run)):
            return None
        work = col - length + sum([len(piece) >> 4 for piece in pieces])
        if self.work_left < work:
            return None
        if row is BLANK:
            row = grid[cy] = Row()
        cells = row.cells
        if col > length:
            cells.extend(UNWRITTEN * (col - length))
        cells.extend(run)
        self.work_left -= work
        self.advance(end)
        self.last_char = run[-1]
        return at, ending

    def ends_line(self, at: int) -> bool:
        """Whether the CR at ``at`` only ends its row: more CRs, then LF or the end of the text, follow
        it (docs/design.md: harmless). A run of CRs is read once (a CR at a time would be quadratic)."""
        if at >= self.cr_run[0]:
            end = _NOT_CR.search(self.text, at)
            self.cr_run = (len(self.text) if end is None else end.start(), end is None or end.group() == "\n")
        return self.cr_run[1]

    def plain_lines(self, position: int) -> int:
        """The lines from ``position`` on that only append, each at once where the walk could only write
        and line-feed: the cursor at the first column of an empty row, nothing pending (a home, a wrap,
        a swallowing string, a disputed column), no region, no row shown before the alternate screen;
        the line's text one cell a character and short of a known margin or reaching it with autowrap
        on and no EL (the wrap pending till the line ends; at an unknown margin, past column 80 only
        with autowrap on), its sequences SGR already known plain or EL 0 (at the row's end), its work
        within the budget; or a line redrawn by CR (:meth:`redrawn_cells`). The line feed is the
        walk's own. Returns where the walk goes on (at the first line it must take token by token)."""
        text = self.text
        match = _PLAIN_LINE.match
        # a line redrawn by CR: only at a known width or with no terminal (redrawn_cells)
        redrawn = _REDRAWN_LINE.match if self.redraws_at_once and not self.unknown_width else None
        # where the walk's mark_wide or wrap acts (none without a terminal)
        margin = self.columns if self.columns is not None else MIN_COLUMNS if self.unknown_width else None
        if (self.lost is not None or self.home_at >= 0 or self.disputed
                or self.pending or not self.cx_known or self.cx or self.bottom is not None or self.has_shown):
            return position
        # none of these change below: a line feed only moves the cursor down and rows off the screen
        unknown_width = self.unknown_width
        read = self.lines_read
        grid = self.grid
        # a line feed on the bottom row of the whole known screen scrolls it (line_feed's first case)
        scrolls = self.bottom is None and self.anchored and self.height == len(grid)
        while True:
            row = grid[self.cy]
            if row.cells or row.shown:
                return position
            found = match(text, position)
            if found is None and redrawn is not None:
                found = redrawn(text, position)
            if found is None:
                return position
            returns = found.start(1) < found.end(1)
            line = text[position:found.start(1)]
            end = found.end()
            if CR in line:  # redrawn: never remembered (what it writes depends on autowrap too)
                known = self.redrawn_cells(line, row)
                if known is None:
                    return position
                chars, work, column = known
            elif ESC in line:
                known = read.get(line)
                if known is None:
                    known = self.line_cells(line, margin)
                    if known is None:
                        return position
                    if len(line) <= _CACHED_LINE:
                        if len(read) >= CACHE_LIMIT:
                            read.clear()
                        read[line] = known
                chars, work, column = known
            else:
                chars = line
                work = len(line) >> 4
                column = len(line)
            if self.work_left < work:
                self.tight = True
                return position
            if not (chars.isascii() or all_narrow(chars)):
                return position
            if margin is not None and len(chars) >= margin:
                # at an unknown width the walk only marks the page wide (mark_wide), and refuses past
                # column 80 with autowrap off; at a known one a line past the margin wraps (walked), one
                # reaching it leaves the wrap pending (refused with autowrap off) for the CR or LF to end
                if unknown_width:
                    if len(chars) > MIN_COLUMNS and not self.autowrap:
                        return position
                    self.wide_page = True
                elif len(chars) > margin or not self.autowrap:
                    return position
                else:
                    column = min(column, margin - 1)  # advance: the cursor stays on the last column
            if chars:
                self.work_left -= work
                if row is BLANK:
                    row = grid[self.cy] = Row()
                row.cells.extend(chars)
                self.printed = True
                self.cx = 0 if returns else column
            try:
                if scrolls and self.cy == len(grid) - 1:
                    self.scroll_screen()
                else:
                    self.line_feed()
            except Refusal as exc:
                self.lose(f"{control_name(chr(10))} at offset {end - 1}: {exc}", end - 1)
                return end
            self.cx = 0  # carriage_return: the line feed left the rest as it is (known, no wrap pending)
            position = end

    def line_cells(self, line: str, margin: int | None) -> tuple[str, int, int] | None:
        """A line of :meth:`plain_lines` holding sequences: the cells it writes and the walk's work for
        them, or None where the walk must take it token by token."""
        erases = 0
        parts = _LINE_PARTS.split(line)
        pieces = parts[::2]
        # put_narrow's charge, text run by text run (none for runs under 16 characters)
        work = sum([len(piece) >> 4 for piece in pieces]) if len(line) >= 16 else 0
        cells = 0
        for index, token in enumerate(parts[1::2]):
            cells += len(pieces[index])
            if token in ERASE_TO_END:
                erases += 1  # at the end of the row's text: erase_line erases nothing
            elif (seq := PARSED.get(token) or parse(token)).final == REP:
                # repeat: the character written right before it, short of the margin
                count = _REPEATS.get(token, -1)
                if count < 0:
                    numbers = seq.decimal() if len(seq.params) < 10 else None
                    count = numbers[0] if numbers is not None and len(numbers) == 1 else 0
                    if len(_REPEATS) >= CACHE_LIMIT:
                        _REPEATS.clear()
                    _REPEATS[token] = count
                before = pieces[index][-1:]
                limit = margin - 1 if margin is not None else None
                if not count or not " " <= before < "\x7f" or (limit is not None and cells + count > limit):
                    return None
                pieces[index] += before * count
                cells += count
                work += count + (count >> 4)  # repeat's charge, then put_narrow's
            elif token not in PLAIN_SGR:
                return None
        chars = "".join(pieces)
        if erases and margin is not None and len(chars) >= margin:
            return None  # an EL at the pending-wrap position is a dispute; at an unknown width layout_known may refuse
        if erases and self.unknown_width:
            work += erases  # layout_known's charge for the row
        return chars, work, len(chars)

    def redrawn_cells(self, line: str, row: Row) -> tuple[str, int, int] | None:
        """A line of :meth:`plain_lines` holding CRs (not the one before its LF), at a known width or with
        no terminal (``shortcuts.redrawn``: plain_lines reads no such line otherwise), written from the
        first column of the empty ``row``: the cells the walk leaves, its work and the cursor's column,
        or None where the walk must take it token by token.

        Its text is one cell a character; its sequences SGR already known plain, EL 0 or EL 2. Each
        token is the walk's operation on the row held as a string: text written over the row from the
        cursor (put_narrow: appended past the row's end, charged a sixteenth, else overwritten, charged
        in full), CR to the first column, EL 0 and EL 2 cut the row, charged the cells erased. Taken
        only where nothing the walk checks applies: no row wrapped into this one or from it, no
        character of uncertain width, no pad (a write right of the row's end), no write past the known
        right margin (reaching it, with autowrap on, leaves the wrap pending: a CR must follow, never
        an EL or text)."""
        if row.wrapped or row.wrap_disputed or row.uncertain:
            return None
        cy = self.cy
        if (self.grid[cy - 1].wrapped if cy else bool(self.tail)):
            return None  # erase_cells refuses on a wrapped line's rows
        parts = _REDRAW_TOKEN.split(line)
        if not all_narrow("".join(parts[::2])):
            return None
        columns = self.columns
        limit = columns if columns is not None and self.autowrap else None if columns is None else columns - 1
        cells = ""
        col = work = 0
        copies = _REDRAW_COPY_ALLOWANCE + _REDRAW_COPIES_PER_CHAR * len(line)
        pending = False
        for index, part in enumerate(parts):
            if not part:
                continue
            if not index & 1:  # text: put_narrow
                end = col + len(part)
                if pending or col > len(cells) or (limit is not None and end > limit):
                    return None  # a wrap, a pad, or past the right margin
                work += len(part) >> 4 if col >= len(cells) else len(part)
                copies -= len(cells)
                if copies < 0:
                    return None  # a long row rebuilt for short runs: quadratic as strings, linear as cells
                cells = cells[:col] + part + cells[end:]
                pending = columns is not None and end >= columns
                col = columns - 1 if pending and columns is not None else end
            elif part[0] == CR:  # carriage_return
                col = 0
                pending = False
            elif part in ERASE_TO_END or part == _ERASE_ROW:
                if pending:
                    return None  # EL at the pending-wrap position: a dispute
                start = col if part != _ERASE_ROW else 0
                if start < len(cells):
                    work += len(cells) - start
                    cells = cells[:start]
            elif part not in PLAIN_SGR:
                return None
        if pending or (not cells and any(parts[::2])):
            return None  # a wrap pending at the line's end; an emptied row the walk made a row of its own
        return cells, work, col


_UNDECODABLE = re.compile("[\udc80-\udcff]")  # bytes decoded with surrogateescape

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
        if homed and kind == "ED 2" and self.lost is None:
            self.fresh_at = end

    # -- a page walked alone (Replays.shape_template) ---------------------------------------------------

    def walk_alone(self, body: str, memo: Memo, budget: int) -> tuple[list[str], Changes] | None:
        """``body`` walked by a model of its own from the state ``memo`` starts from (every attribute of the
        state key copied, then compared) with ``budget`` work left: its lines and its page's other changes,
        where it ends as ``memo`` says (the same state, work, scrolls and next page), else None."""
        state = memo[0]
        alone = Model(body + FRESH_BREAK, self.columns, self.height, self.strict, None, self.terminal)
        for name, value in vars(self).items():
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
