"""Text that only appends, written at once: plain lines (what a line with sequences writes,
remembered), lines redrawn by CR and EL overlaid as strings, runs of text split only by SGR, and the CR
runs that only end a row."""

from __future__ import annotations

import re
import sys

from .. import grammar
from ..grammar import C0_RANGE, C1_RANGE, CR, CSI, ESC
from ..model import MIN_COLUMNS
from ..names import EL, REP, SGR
from .meaning import Refusal, all_narrow, control_name
from .replays import Replays
from .sequences import CACHE_LIMIT, PARSED, PLAIN_SGR, parse
from .state import BLANK, UNWRITTEN, Row

SPECIAL = re.compile(f"[{C0_RANGE}\x7f{C1_RANGE}]")
# A line that only appends: printable characters, SGR (checked against PLAIN_SGR) and EL 0, CR, then LF
LINE_TOKEN = grammar.csi_ending_in(SGR + EL + REP, subparameters=True)  # candidates: each checked by its text
# written as runs of text between tokens: `re` takes a run in one step, not one character a turn (the
# same matches: a token begins with ESC, which no run holds)
_PLAIN_LINE = re.compile(
    rf"[^{C0_RANGE}\x7f{C1_RANGE}]*(?:{LINE_TOKEN.pattern}[^{C0_RANGE}\x7f{C1_RANGE}]*)*(\r?)\n")
# ... or one redrawn, holding CRs not before its LF (plain_lines overlays it, where shortcuts.redrawn)
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
        # a line redrawn by CR: only at a known width or with no terminal (redrawn_cells). Its pattern
        # matches every line _PLAIN_LINE does, alike (a CR it adds is one not before the LF): one match a line
        redraws = self.redraws_at_once and not self.unknown_width
        match = _REDRAWN_LINE.match if redraws else _PLAIN_LINE.match
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
                narrow = True  # its cells are characters of its text runs, each one cell wide (redrawn_cells)
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
                narrow = False
            else:
                chars = line
                work = len(line) >> 4
                column = len(line)
                narrow = False
            if self.work_left < work:
                self.tight = True
                return position
            if not (narrow or chars.isascii() or all_narrow(chars)):
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
        tokens = parts[1::2]
        if PLAIN_SGR.issuperset(tokens):
            # the commonest line: its text, coloured; what the loop below comes to (a token known plain is
            # parsed already: the loop parses none of them, so no cache changes)
            chars = "".join(pieces)
            return chars, work, len(chars)
        cells = 0
        for index, token in enumerate(tokens):
            cells += len(pieces[index])
            # the order matters: parse() may make a token known plain (PLAIN_SGR), tested last
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
        # its text runs hold no control (_REDRAWN_LINE): an ASCII line's are narrow
        if not (line.isascii() or all_narrow("".join(parts[::2]))):
            return None
        columns = self.columns
        # where the wrap is pending and past which no text goes (without a terminal: nowhere)
        wraps = columns if columns is not None else sys.maxsize
        limit = wraps if self.autowrap or columns is None else wraps - 1
        cells = ""
        col = work = 0
        copies = _REDRAW_COPY_ALLOWANCE + _REDRAW_COPIES_PER_CHAR * len(line)
        pending = False
        for index, part in enumerate(parts):
            if not index & 1:  # text: put_narrow
                if not part:
                    continue
                size = len(cells)
                end = col + len(part)
                if pending or col > size or end > limit:
                    return None  # a wrap, a pad, or past the right margin
                copies -= size
                if copies < 0:
                    return None  # a long row rebuilt for short runs: quadratic as strings, linear as cells
                if col == size:  # appended
                    work += len(part) >> 4
                    cells += part
                else:
                    work += len(part)
                    cells = cells[:col] + part + cells[end:]
                pending = end >= wraps
                col = wraps - 1 if pending else end
            elif part in PLAIN_SGR:  # the tokens' kinds are disjoint: the commonest first
                continue
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
            else:
                return None
        if pending or (not cells and any(parts[::2])):
            return None  # a wrap pending at the line's end; an emptied row the walk made a row of its own
        return cells, work, col
