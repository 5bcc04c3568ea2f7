"""The cleaner's screen model: the row model of :mod:`line` with a screen around it.

Used only for pages (see :mod:`breaks`) the row model refuses: absolute positions (CUP, HVP, VPA),
erases in display (ED), IL / DL / ICH / DCH / REP / SU / SD, DECSTBM scroll regions with IND / RI /
LF at their margins, origin mode (DECOM), and autowrap when the terminal's width is known.

``self.rows`` holds the page's rows in the order the cleaned text lists them: rows that scrolled off
(LF / IND / SU at the top of the screen or of a scroll region) come first, in the order they left,
then the screen; ``self.top`` is the index of the screen's first row. A row that scrolls off is kept
even where a region not at the top makes a terminal discard it (docs/design.md, 'Pages': the safe side).
A written row that DL deletes, IL / SD / RI push off the bottom or a partial ED erases is refused: the
oracle counts it as shown, the contract's final state drops it, and where they differ we refuse.
A row on screen when ED acts must also keep that state to the page's end (:meth:`check_pins`). A row
that autowraps ends in :data:`WRAP`: it and the next row are one line of the cleaned text, as
``tmux capture-pane -J`` joins them.

What the model cannot know raises :class:`Unresolved`: an absolute position while the page's top is
unknown (the first page of a text, or a page taller than an unknown screen), a scroll at a bottom
margin an unknown height hides, a relative move from the pending-wrap column, and so on.
"""

from __future__ import annotations

from ..model import MIN_COLUMNS, settled_width
from .line import INERT_MARK, ONE_CELL_TEXT, UNWRITTEN, WIDEST_COLUMNS, Row, Unresolved
from .screen_moves import ScreenMoves
from .screen_state import WRAP


class ScreenModel(ScreenMoves):
    """Rows, a cursor and a screen of known or unknown size (:class:`ScreenState`), with every control the
    cleaner resolves on it; here, writing: text, its autowrap at a known width, REP, and the fast paths
    that append a plain line, a coloured run or a redrawn row at once."""

    def append_line(self, text: str, ending: str) -> bool:
        """``write(text)`` then ``line_feed(ending)`` where that is all they can do, for a plain line:
        ``text`` of one-cell characters no wider than a known width, possibly with EL 0 after it
        (which then erases nothing; the caller bounds its column). The same rows, screen top, cursor
        and flags as the walk; False (nothing done) where the cursor's row is not empty at its first
        column, a wrap or scroll region is involved, or the page's top is unknown and the row is
        not the last (LF then marks the next row)."""
        rows = self.rows
        index = self.row
        row = rows[index]
        if (row.cells or self.col or self.pending_wrap or not self.cursor_known or self.margins is not None
                or row.ambiguous or row.ending is WRAP or (index and rows[index - 1].ending is WRAP)
                or self.joins_disputed):
            return False  # (a wrap into the row: EL at its first column would split the line; a join in
            # dispute: the walk's EL looks for it)
        if self._unknown_width() and len(text) > MIN_COLUMNS and index != len(rows) - 1:
            return False  # the walk decides (_require_wrap_room)
        if not self.top_known:
            if index != len(rows) - 1:
                return False
            row.ending = ending
        else:
            height = self.height
            if height is not None:
                bottom = self.top + height - 1
                if index > bottom:
                    return False
                if index == bottom:
                    self.top += 1  # the top row scrolls off and stays, in order
            if not row.ending:
                row.ending = ending
        if text:
            row.cells.extend(text)
            row.written += len(text)
        index += 1
        if index == len(rows):
            rows.append(Row())
        self.row = index
        self.wrap_disputed = False
        return True

    def append_plain(self, lines: list[tuple[str, str, int, int, int]]) -> int:
        """:meth:`append_line` for each line's text and ending in turn, up to the first it does not
        take: how many it took. Once a line has added a fresh last row, the cursor stands at its first
        column with nothing that refuses, so the rest are appended without the checks."""
        if not lines:
            return 0
        rows = self.rows
        count = len(rows)
        if not self.append_line(lines[0][0], lines[0][1]):
            return 0
        if len(rows) != count + 1:  # onto a row that was there: each one checked
            for taken in range(1, len(lines)):
                if not self.append_line(lines[taken][0], lines[taken][1]):
                    return taken
            return len(lines)
        index, top = self.row, self.top
        bottom = top + self.height - 1 if self.top_known and self.height is not None else -1
        row = rows[index]
        append = rows.append
        for taken in range(1, len(lines)):
            text, ending = lines[taken][0], lines[taken][1]
            row.ending = ending
            if text:
                row.cells.extend(text)
                row.written = len(text)
            if index == bottom:
                top += 1  # the top row scrolls off and stays, in order
                bottom += 1
            index += 1
            row = Row()
            append(row)
        self.row, self.top = index, top
        return len(lines)

    def overlay_ready(self) -> bool:
        """Whether the cursor stands where the row model's string path starts (:meth:`overlay`): the
        first column of the empty last row, no wrap into it, pending or disputed, its position known, and
        no join in dispute (the walk's erases look for them: the string path would charge other work)."""
        rows, index = self.rows, self.row
        row = rows[index]
        return not (row.cells or self.col or index != len(rows) - 1 or not self.cursor_known or self.pending_wrap
                    or self.wrap_disputed or self.col_disputed or self.joins_disputed or row.ambiguous or row.special
                    or row.ending is WRAP or (index and rows[index - 1].ending is WRAP))

    def overlay(self, parts: list[str | None], pending_at_margin: bool = True) -> bool:
        """:meth:`LineModel.overlay` with the known width as its margin (a run past it wraps: the walk
        decides; one ending at it before a CR or the line's end leaves the cursor pending, as
        :meth:`write` does, unless ``pending_at_margin`` is off), from where :meth:`overlay_ready` says."""
        if not self.overlay_ready():
            return False
        self.columns = self.width
        try:
            if not super().overlay(parts, pending_at_margin):
                return False
        finally:
            self.columns = None
        if self.width is not None and self.col >= self.width:
            self.pending_wrap = True  # a run ended the line at the margin, as write leaves the cursor
        # REP's character, as the walk leaves it: the line's last character where text ends it; after
        # a CR, an erase or an inert sequence (its mark) none
        tail = parts[-1]
        self.last_char = tail[-1] if tail and tail[-1] != INERT_MARK else None
        return True

    def write(self, text: str) -> None:
        if not self.cursor_known:
            self._require_cursor()
        if self.col_disputed:
            raise Unresolved(f"a character written where terminals disagree on the cursor's column "
                             f"({self.col_disputed})")
        self.last_char = text[-1]
        width = self.width
        if width is None:
            self.pending_wrap = False
            super().write(text)
            return
        if text.isascii() or ONE_CELL_TEXT.fullmatch(text) is not None:  # one cell each: wraps as ASCII
            col, n = self.col, len(text)
            if col + n < width:
                # short of the margin (most runs): what the loop below does for one row, without its
                # calls; appended at the row's end, what _write and _put_narrow do, inline
                row = self.rows[self.row]
                row.written += n
                cells = row.cells
                length = len(cells)
                if col == length:
                    cells.extend(text)
                    self.col = col + n
                    self.pending_wrap = False
                    return
                # over cells or past the row's end: what _prepare charges (the cells written, then the
                # padding) as one charge where the budget covers both, so nothing else differs
                budget = self.pad_budget - (n if col < length else n + col - length)
                if budget >= 0 and not (row.special or row.ambiguous):
                    self.pad_budget = budget
                    if budget < self.low_water:
                        self.low_water = budget
                    if col > length:
                        cells.extend([UNWRITTEN] * (col - length))
                        cells.extend(text)
                    else:
                        cells[col : col + n] = text
                    self.col = col + n
                else:
                    self._put_narrow(row, text)
                self.pending_wrap = False
                return
            pos, end = 0, len(text)
            while pos < end:  # a row at a time, by offsets (re-slicing the rest per row is quadratic)
                if self.col >= width:
                    self._wrap()
                room = width - self.col
                super().write(text[pos : pos + room])
                pos += room
            self.pending_wrap = self.col >= width
            return
        if "\u200d" in text:
            raise Unresolved("zero-width joiner on a screen of known width")
        if not self.pending_wrap and self.col + 2 * len(text) <= width:
            super().write(text)  # cannot reach the margin, whatever the widths
            self.pending_wrap = self.col >= width
            return
        for ch in text:
            cells = 1 if ch < "\u0300" else settled_width(ch)
            if cells < 0:
                raise Unresolved(f"character {ch!r} of uncertain width on a screen of known width")
            if cells == 0:
                if self.pending_wrap:
                    raise Unresolved("combining character at the pending-wrap column")
                super().write(ch)
                continue
            if self.col + cells > width:
                self._wrap()
            super().write(ch)
        self.pending_wrap = self.col >= width

    def append_run(self, pieces: list[str], text: str) -> bool:
        """``write`` of each non-empty piece in turn, with what an SGR between them does (REP's character
        reset), as one string (``text``: them joined, not empty) where that is the same: appended at
        the row's end, one-cell characters short of a known margin (or, at an unknown width, on the
        lowest row, where no wrap is looked for). False: nothing done."""
        if not self.cursor_known or self.col_disputed:
            return False  # write refuses
        rows = self.rows
        row = rows[self.row]
        cells, col, n = row.cells, self.col, len(text)
        if col != len(cells):
            return False
        width = self.width
        if text.isascii():
            if width is not None and col + n >= width:
                return False
        elif ONE_CELL_TEXT.fullmatch(text) is None or (width is not None and col + n >= width):
            return False  # (one cell each: write's loop would wrap at the same column as ASCII)
        if width is None and self.row != len(rows) - 1 and self._unknown_width():
            return False
        row.written += n
        cells.extend(text)
        self.col = col + n
        self.pending_wrap = False
        self.last_char = text[-1] if pieces[-1] else None  # an SGR after the last character resets it
        return True

    def _require_wrap_room(self) -> None:
        """On a page whose top is known, absolute positions and the known height's scrolling count
        rows from the top: a wrap onto the row below moves them all (F19), whatever those rows hold."""
        if self.top_known and self._past_min_columns(self.rows[self.row]):
            raise Unresolved(f"a row past column {MIN_COLUMNS} above the page's lowest row, on a screen of "
                             "unknown width (an 80-column terminal wraps it onto the row below)")
        super()._require_wrap_room()

    def _wrap(self) -> None:
        """Autowrap (DECAWM, on by default): the next character goes to the next row's first column."""
        if self.wrap_disputed:
            raise Unresolved("a character after erase in line at the pending-wrap column (terminals disagree)")
        row, top = self.rows[self.row], self.top
        lower = self.margins[1] if self.margins is not None else None
        if lower is not None and self.height is not None and lower < self.row - self.top == self.height - 1:
            # the last row below a scroll region: no line feed moves from it, the wrap writes over
            # its own first column (found judging fresh pages with a region carried across a clear)
            raise Unresolved("autowrap on the screen's last row below a scroll region")
        row.ending = WRAP
        if self.joins_disputed and row in self.joins_disputed:
            self.joins_disputed.remove(row)  # every terminal sets the wrap flag on autowrap: settled
        self._index()
        if self.rows[self.row] is row and self.top == top:
            raise Unresolved("autowrap where a line feed does not move the cursor")
        self.col = 0
        self.pending_wrap = False

    def repeat(self, n: int) -> None:
        """REP: the last graphic character, ``n`` more times."""
        if self.last_char is None:
            raise Unresolved("REP not right after a character (terminals disagree)")
        if not self.last_char.isascii():
            raise Unresolved("REP after a non-ASCII character (tmux 3.3a repeats only ASCII)")
        # tmux 3.3a repeats only up to the right margin (xterm wraps on): past it terminals disagree
        limit = self.width if self.width is not None else (MIN_COLUMNS if self.terminal else WIDEST_COLUMNS)
        if self.col + n > limit:
            raise Unresolved(f"REP of {n} from column {self.col + 1} past the right margin (tmux 3.3a repeats up "
                             "to it, xterm wraps on)")
        self._charge(n)
        self.write(self.last_char * n)
        self.last_char = None  # tmux 3.3a repeats nothing on a second REP, xterm the character again
