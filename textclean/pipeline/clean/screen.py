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

from ..model import MIN_COLUMNS, SCREEN_LINES, WORK_ALLOWANCE, WORK_PER_INPUT_CHAR, settled_width
from .line import INERT_MARK, ONE_CELL_TEXT, UNWRITTEN, WIDEST_COLUMNS, LineModel, Redrawn, Row, Unresolved


class _Wrap(str):
    """A line ending that is none: the row wrapped into the next one."""


WRAP = _Wrap("")
#: A screen model's ``frozen`` tallies: it never freezes a row (``freezes``), so they stay empty.
_NEVER_FROZEN: dict[str, Redrawn] = {"cr": Redrawn(), "bs": Redrawn(), "multiline": Redrawn()}


def _blank(row: Row) -> bool:
    return all(c is UNWRITTEN or c == " " for c in row.cells)


class ScreenModel(LineModel):
    """Rows, a cursor and a screen of known or unknown size.

    ``top_known``: the screen's first row is ``rows[top]`` (true after a clear or on a blank alternate
    screen; false on a text's first page, whose screen held who knows what). ``cursor``: the cursor's
    screen position at the start, or None when it is unknown (then everything but an absolute
    position refuses until one comes).
    """

    freezes = False

    def __init__(
        self,
        input_length: int,
        columns: int | None,  # (positional too: keywords cost a page of a session more than its checks)
        rows: int | None,
        top_known: bool,
        blank: bool = False,
        cursor: tuple[int, int] | None = (0, 0),
        margins: tuple[int, int | None] | None = None,
        origin: bool = False,
        terminal: bool = True,
    ) -> None:
        # LineModel.__init__'s attributes, in its order, set here (a page of a session builds one model:
        # the call and its keywords cost as much as the rest); a screen model never freezes its rows
        self.screen_lines = rows or SCREEN_LINES
        self.columns = None
        self.terminal = terminal
        self.col_disputed = ""
        self.rows = [Row()]
        self.live = 0
        self.wide_frozen = -1
        self.frozen = _NEVER_FROZEN
        self.row = 0
        self.col = 0
        self.saved = None
        self.wrapped_since_save = False
        self.pad_budget = self.low_water = WORK_ALLOWANCE + WORK_PER_INPUT_CHAR * input_length
        self.width = columns
        self.height = rows
        self.top = 0
        self.top_known = top_known
        # top not known, but the screen is blank (a clear, an alternate screen) and only the cursor's
        # row is unknown: the first absolute position, before anything is written, anchors the page
        self.blank = blank
        self.cursor_known = cursor is not None
        self.margins = margins
        self.origin = origin
        self.pending_wrap = False
        self.wrap_disputed = False  # EL at the pending-wrap column: terminals disagree on the next character
        # What terminals disagree on about the cursor's column (and whether the next character wraps),
        # or "": a dispute is a state (docs/design.md, "Disputes: the cleaner"), refused only where read.
        self.col_disputed = ""
        self.last_char: str | None = None
        self.pins: dict[Row, list[str]] = {}  # rows on screen when ED acted, and their cells then
        # Rows whose wrap into the next row terminals disagree on (an erase of a whole row of a wrapped
        # line): a state, read only where a terminal that keeps the join shows another line (check_pins)
        self.joins_disputed: list[Row] = []
        self.cursor_saved = False  # DECSC / SCOSC on this page: a terminal keeps it across breaks
        if cursor is not None and cursor != (0, 0):
            self._place(*cursor)

    # --- geometry ---------------------------------------------------------------------------------
    def _settle_top(self) -> None:
        """With a known height, once the page has as many rows as the screen its lowest row is the
        screen's last (every new row scrolled it there), so the page's top is known."""
        if not self.top_known and self.height is not None and self.margins is None and len(self.rows) >= self.height:
            self.top_known = True
            self.top = len(self.rows) - self.height
            self.saved = None

    def _require_top(self, what: str) -> None:
        self._settle_top()
        if not self.top_known:
            raise Unresolved(f"{what} on a page whose top row is not known")
        if self.height is None and len(self.rows) - self.top > SCREEN_LINES:
            raise Unresolved(f"{what} after more than {SCREEN_LINES} rows on a screen of unknown height")

    def _anchor(self) -> None:
        """An absolute position on a blank screen before any output: the page's top is now known."""
        if not self.top_known and self.blank and all(_blank(r) for r in self.rows):
            self.top_known = True
            self.rows, self.top, self.row = [Row()], 0, 0
            self.saved = None

    def _unknown_width(self) -> bool:
        return self.width is None and self.terminal

    def _require_narrow_screen(self) -> None:
        """An unknown width: a row on screen past column 80 is more than one row on an 80-column
        terminal, so vertical and absolute positions on this screen are unknown."""
        if self._unknown_width():
            self._require_narrow_rows(self.top, len(self.rows) - 1)

    def _require_cursor(self) -> None:
        if not self.cursor_known:
            raise Unresolved("output where the cursor's position is not known")

    def _ensure(self, index: int) -> None:
        rows = self.rows
        while len(rows) <= index:
            rows.append(Row())

    def _place(self, screen_row: int, column: int) -> None:
        self._ensure(self.top + screen_row)
        self.row = self.top + screen_row
        self.col = column
        self.cursor_known = True
        self.pending_wrap = self.wrap_disputed = False
        self.col_disputed = ""

    def screen_cursor(self) -> tuple[int, int] | None:
        """The cursor's screen position where it is certain."""
        if not self.cursor_known or not self.top_known or self.pending_wrap or self.col_disputed:
            return None
        if self.height is None and len(self.rows) - self.top > SCREEN_LINES:
            return None
        return self.row - self.top, self.col

    def _region(self) -> tuple[int, int | None]:
        """The scroll region's top and bottom screen rows (bottom None: an unknown screen's last row)."""
        if self.margins is not None:
            return self.margins
        return 0, (self.height - 1 if self.height else None)

    def _retire(self, index: int) -> None:
        """Take row ``index`` off the screen, keeping it before the screen (blank rows are dropped).
        The caller puts the cursor back on its screen row."""
        row = self.rows.pop(index)
        if not _blank(row):
            self.rows.insert(self.top, row)
            self.top += 1

    # --- writing ----------------------------------------------------------------------------------
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

    def _require_on_any_screen(self) -> None:
        if self.width is None:
            super()._require_on_any_screen()

    def _no_pending_wrap(self, what: str) -> None:
        """``what`` reads the cursor's column: refused at the pending-wrap column or in a dispute."""
        if self.pending_wrap:
            raise Unresolved(f"{what} at the pending-wrap column (terminals disagree)")
        if self.col_disputed:
            raise Unresolved(f"{what} where terminals disagree on the cursor's column ({self.col_disputed})")

    def _dispute(self, what: str) -> bool:
        """``what`` at the pending-wrap column: tmux 3.3a keeps its cursor past the last column (the
        next character wraps), xterm stands on the last column with its wrap flag reset, and a
        backspace or a relative move counts from there. Terminals agree on the row, not on the column:
        recorded, not refused; what reads the column refuses (:meth:`_no_pending_wrap`), what puts
        every terminal on one column settles it (:meth:`_place`, CR, LF, CHA). True: a dispute began."""
        if not self.pending_wrap:
            return False
        assert self.width is not None  # a pending wrap needs a known width
        self.pending_wrap = self.wrap_disputed = False
        self.col = self.width - 1
        self.col_disputed = f"{what} at the pending-wrap column"
        return True

    def _settled(self) -> None:
        """Every terminal now stands on the model's column with no wrap pending."""
        self.pending_wrap = self.wrap_disputed = False
        self.col_disputed = ""

    def _keep_joined(self, index: int, *, own: bool = True) -> None:
        """An erase that clears all of row ``index``: tmux 3.3a then drops the wrap into it from the row
        before (``grid_clear_lines``) and its own wrap into the next, so they are no longer one line;
        xterm's ctlseqs promise nothing about the wrap flag. A dispute, not a refusal: the model keeps
        the join (so what reads a wrapped line still refuses) and records the row whose wrap is in
        doubt; a later autowrap out of it settles it (every terminal joins), and at the page's end it is
        read only where the joined and the split rows show different lines (:meth:`check_joins`).
        ``own``: the row's own wrap is dropped too."""
        rows = self.rows
        if own and rows[index].ending is WRAP:
            self._dispute_join(rows[index])
        if index > 0 and rows[index - 1].ending is WRAP:
            self._dispute_join(rows[index - 1])

    def _dispute_join(self, row: Row) -> None:
        if row not in self.joins_disputed:
            self._charge(len(self.joins_disputed))
            self.joins_disputed.append(row)

    def _blank_after(self, index: int) -> bool:
        """Every row that row ``index`` wraps into (the next, and on while they wrap) is blank."""
        rows = self.rows
        following = index + 1
        while following < len(rows):
            if not _blank(rows[following]):
                return False
            if rows[following].ending is not WRAP:
                break
            following += 1
        return True

    def _index_of(self, row: Row) -> int | None:
        """Where ``row`` is on the page, searched outward from the cursor's row (disputed rows are near
        it), the distance charged to the budget; None once it left the page (a blank row scrolled off)."""
        rows, start = self.rows, self.row
        for distance in range(len(rows)):
            for index in (start - distance, start + distance):
                if 0 <= index < len(rows) and rows[index] is row:
                    self._charge(distance)
                    return index
        self._charge(len(rows))
        return None

    def _settle_joins(self, *, leaving: bool = False) -> None:
        """A disputed join is settled where every row of the wrapped line is blank: nothing shows on
        them in any terminal, joined or not, and the model takes tmux 3.3a's split (the row ends as a
        line of its own). ``leaving``: the screen's rows leave it (ED 2 / 3), so a row that still holds
        text before blank rows is settled too (joined or split, it shows the same, and nothing can
        write into those rows any more)."""
        for row in list(self.joins_disputed):
            index = self._index_of(row)
            if index is None or row.ending is not WRAP:
                self.joins_disputed.remove(row)
            elif (leaving or _blank(row)) and self._blank_after(index):
                row.ending = ""
                self.joins_disputed.remove(row)

    def check_joins(self) -> None:
        """Read every disputed join: a terminal that keeps it shows the row and the rows it wraps into as
        one line, tmux 3.3a as two; they show the same lines only where every row it wraps into is blank
        (right-trimmed, the joined line is the row itself)."""
        if not self.joins_disputed:
            return
        for row in self.joins_disputed:
            index = self._index_of(row)
            if index is not None and row.ending is WRAP and not self._blank_after(index):
                raise Unresolved("an erase of a whole row of a wrapped line (tmux 3.3a splits the line there, "
                                 "xterm keeps it), then text in the row it wrapped into")

    # --- moves within a row -----------------------------------------------------------------------
    def carriage_return(self) -> None:
        if not self.cursor_known:
            self._require_cursor()
        self.pending_wrap = self.wrap_disputed = False  # _settled
        self.col_disputed = ""
        if self.width is None:
            super().carriage_return()  # its layout checks read an unknown width
            return
        row = self.rows[self.row]
        if not row.kind:
            row.kind = "cr"  # row.mark("cr")
        self.col = 0

    def backspace(self) -> None:
        self._require_cursor()
        if self._dispute("backspace"):
            self.rows[self.row].mark("bs")
            return
        self._no_pending_wrap("backspace")
        if self.col == 0:
            self._require_unwrapped_above()
        super().backspace()

    def _require_unwrapped_above(self) -> None:
        if self.row > 0 and self.rows[self.row - 1].ending is WRAP:
            raise Unresolved("backspace at the first column of an autowrapped row (tmux goes up a row, xterm stays)")

    def backspaces(self, n: int) -> None:
        """``n`` backspaces; the first-column check applies to each one that starts at column 0."""
        self.backspace()
        if n > 1:
            self._no_pending_wrap("backspace")  # the second reads the column the first disputed
        if n > 1 and self.col <= n - 2:
            self._require_unwrapped_above()
        self.col = max(0, self.col - (n - 1))

    def tab(self) -> None:
        self._require_cursor()
        if self._dispute("tab"):
            return
        self._no_pending_wrap("tab")
        if self.width is not None and (self.col // 8 + 1) * 8 >= self.width:
            raise Unresolved("tab to the right margin")
        super().tab()

    def cursor_forward(self, n: int) -> None:
        self._require_cursor()
        if self._dispute("cursor forward"):
            return
        self._no_pending_wrap("cursor forward")
        if self.width is not None:
            self._require_exact_column()
            self.rows[self.row].mark("cr")
            self.col = min(self.col + n, self.width - 1)
            return
        super().cursor_forward(n)

    def cursor_back(self, n: int) -> None:
        self._require_cursor()
        if self._dispute("cursor back"):
            return
        self._no_pending_wrap("cursor back")
        super().cursor_back(n)

    def cursor_to_column(self, column: int) -> None:
        self._require_cursor()
        self._settled()
        if self.width is not None:
            column = min(column, self.width - 1)
        super().cursor_to_column(column)

    def erase_in_line(self, mode: int) -> None:
        self._require_cursor()
        if self.pending_wrap and mode == 0:
            # tmux 3.3a erases nothing from the pending-wrap column (xterm erases the last cell:
            # keeping it keeps more); where the next character goes then differs, so it refuses
            self.wrap_disputed = True
            return
        if mode == 2 or (mode == 1 and self.pending_wrap):
            # the whole row in every terminal (EL 1 from the pending-wrap column too); the column
            # stays disputed, neither read nor settled
            self._dispute("erase in line")
            mode = 2
        else:
            self._no_pending_wrap("erase in line")
        width = self.width
        if width is not None and (mode == 2 or (mode == 0 and self.col == 0) or (mode == 1 and self.col >= width - 1)):
            self._keep_joined(self.row)
        super().erase_in_line(mode)
        if self.joins_disputed:
            self._settle_joins()

    def erase_characters(self, n: int) -> None:
        self._require_cursor()
        self._no_pending_wrap("erase characters")
        if self.width is not None and self.col == 0 and n >= self.width:
            self._keep_joined(self.row)
        super().erase_characters(n)
        if self.joins_disputed:
            self._settle_joins()

    def insert_characters(self, n: int) -> None:
        """ICH: blanks at the cursor, the rest of the row shifted right (what passes the margin is lost)."""
        self._require_cursor()
        self._no_pending_wrap("insert characters")
        self._require_layout(relative=True)
        row = self.rows[self.row]
        if row.special or row.ambiguous:
            raise Unresolved("insert characters on a row with wide, ambiguous or tab characters")
        cells = row.cells
        # no terminal: judged as the widest tmux (10,000 columns), whose ICH bug is the same
        if 2 * n > (self.width or (MIN_COLUMNS if self.terminal else WIDEST_COLUMNS)) - self.col:
            raise Unresolved("insert characters of more than half the rest of the row (tmux 3.3a leaves old cells)")
        if self.col >= len(cells):
            return
        limit = self.width
        if limit is None and self.terminal and len(cells) + n > MIN_COLUMNS:
            raise Unresolved("insert characters that may push cells past an unknown right margin")
        self._charge(n)
        row.mark("cr")
        cells[self.col : self.col] = [UNWRITTEN] * n
        if limit is not None:
            del cells[limit:]

    def delete_characters(self, n: int) -> None:
        """DCH: the cells at the cursor removed, the rest of the row shifted left."""
        self._require_cursor()
        self._no_pending_wrap("delete characters")
        self._require_layout(relative=True)
        row = self.rows[self.row]
        if row.special or row.ambiguous:
            raise Unresolved("delete characters on a row with wide, ambiguous or tab characters")
        cells = row.cells
        if self.col < len(cells):
            row.mark("cr")
            length = len(cells)
            del cells[self.col : self.col + n]
            cells.extend([UNWRITTEN] * (length - len(cells)))  # cleared at the row's end, its length kept

    # --- moves between rows -----------------------------------------------------------------------
    def index(self) -> None:
        """IND (ESC D): down one row, the column kept."""
        self._require_cursor()
        self._dispute("index")
        column, disputed = self.col, self.col_disputed  # IND keeps the column: a dispute is carried
        if not self.top_known:
            self._require_exact_column()
            if self._unknown_width() and self.col >= MIN_COLUMNS:
                # an 80-column terminal's column is another (at column 81 its pending wrap: tmux 3.3a
                # goes down and wraps the next character onto a new row), a wider one keeps column
                # ``col``: they agree on the row only, so the column is disputed (F32-1); CR settles it
                disputed = f"an index from column {self.col + 1} of a screen of unknown width"
            else:
                self._require_layout(relative=True)
            self._require_narrow_rows(self.row + 1, self.row + 1)
            super().line_feed("")
        else:
            self._require_layout(relative=True)
            self._require_narrow_screen()
            self._index()
        self.col, self.col_disputed = column, disputed

    def _index(self) -> None:
        """Down one row, scrolling the region at its bottom margin."""
        self._require_cursor()
        if not self.top_known:
            super().line_feed(WRAP)  # only autowrap gets here without a known top
            return
        if self.margins is not None:
            self._require_narrow_screen()
        upper, lower = self._region()
        screen_row = self.row - self.top
        if self.margins is not None and screen_row == lower:
            self._scroll_up(1)
            return
        if self.height is not None and screen_row == self.height - 1:
            if self.margins is None:
                self.top += 1  # the top row scrolls off and stays, in order
                self._ensure(self.top + self.height - 1)
                self.row = self.top + self.height - 1
            return  # below a region: the cursor stays on the last row
        if self.margins is not None and lower is None and screen_row >= upper:
            raise Unresolved("line feed in a scroll region whose bottom an unknown height hides")
        self.row += 1
        self._ensure(self.row)

    def line_feed(self, ending: str) -> None:
        if not self.cursor_known:
            self._require_cursor()
        self.pending_wrap = self.wrap_disputed = False  # LF implies CR (docs/design.md, "The display model")
        self.col_disputed = ""
        if not self.top_known:
            super().line_feed(ending)
            return
        rows = self.rows
        index = self.row
        row = rows[index]
        if not row.ending and row.ending is not WRAP:
            row.ending = ending
        if self.margins is None:  # _index without a region, inline (a line feed per walked line)
            index += 1  # the row below, or on the last row the new last row the screen scrolls to
            height = self.height
            if height is not None and index - self.top == height:
                self.top += 1  # the top row scrolls off and stays, in order
            self.row = index
            if index == len(rows):
                rows.append(Row())
        else:
            self._index()
        self.col = 0

    def reverse_index(self) -> None:
        """RI: up one row, scrolling the region down at its top margin."""
        self._require_cursor()
        self._dispute("reverse index")
        if not self.top_known:
            super().cursor_vertical(-1, to_column_zero=False)
            return
        self._require_top("reverse index")
        self._require_layout(relative=True)
        self._require_narrow_screen()
        upper, _ = self._region()
        screen_row = self.row - self.top
        if screen_row == upper:
            self._scroll_down(1)
        elif screen_row > 0:
            self.row -= 1

    def cursor_vertical(self, delta: int, *, to_column_zero: bool) -> None:
        self._require_cursor()
        if to_column_zero:
            disputed = ""
            self._settled()  # CNL / CPL: column 0 in every terminal
        else:
            self._dispute("cursor up or down")
            disputed = self.col_disputed  # carried: a vertical move neither reads nor settles it
        if not self.top_known:
            super().cursor_vertical(delta, to_column_zero=to_column_zero)
            return
        self._require_top("cursor move")
        self._require_layout(relative=not to_column_zero)
        self._require_narrow_screen()
        if not to_column_zero:
            self._require_exact_column()
        upper, lower = self._region()
        screen_row = self.row - self.top
        inside = self.margins is not None and upper <= screen_row <= (lower if lower is not None else screen_row)
        if delta < 0:
            stop = upper if inside else 0
            target = max(screen_row + delta, min(stop, screen_row))
        else:
            if inside and lower is not None:
                stop = lower
            elif self.height is not None:
                stop = self.height - 1
            else:
                stop = None
            target = screen_row + delta if stop is None else min(screen_row + delta, max(stop, screen_row))
            if stop is None and target >= SCREEN_LINES:
                raise Unresolved("cursor move down past row 24 of a screen of unknown height")
        self.rows[self.row].mark("multiline")
        self._place(target, 0 if to_column_zero else self.col)
        self.col_disputed = disputed
        self.rows[self.row].mark("multiline")

    def cursor_position(self, row: int, column: int | None) -> None:
        """CUP / HVP (``column`` None: VPA, the column stays). Rows and columns from 0."""
        height, width = self.height, self.width
        if self.top_known and height is not None and width is not None and column is not None and not self.origin:
            # a known screen, its top known: every check below passes, and the position is clamped
            # (_place and the row's mark("multiline"), inline)
            index = self.top + (row if row < height else height - 1)
            rows = self.rows
            while len(rows) <= index:
                rows.append(Row())
            self.row = index
            self.col = column if column < width else width - 1
            self.cursor_known = True
            self.pending_wrap = self.wrap_disputed = False
            self.col_disputed = ""
            rows[index].kind = "multiline"
            return
        self._anchor()
        self._settle_top()
        self._require_top("absolute position")
        self._require_narrow_screen()
        disputed = ""
        if column is None:
            self._require_cursor()
            self._dispute("VPA")
            disputed = self.col_disputed  # VPA keeps the column: carried
            column = self.col
        if self.origin:
            upper, lower = self._region()
            row += upper
            if lower is not None:
                row = min(row, lower)
        if self.height is not None:
            row = min(row, self.height - 1)
        elif row >= SCREEN_LINES:
            raise Unresolved(f"absolute position to row {row + 1} of a screen of unknown height")
        if self.width is not None:
            column = min(column, self.width - 1)
        self._place(row, column)
        self.col_disputed = disputed
        self.rows[self.row].mark("multiline")
        self._require_on_any_screen()

    def at_column_81(self) -> bool:
        """Right after column 80 of an unknown width: an 80-column terminal's pending wrap (kept through
        ED and a page break that does not home), a wider one's column 81: the column is disputed."""
        return (self._unknown_width() and self.col == MIN_COLUMNS and self.row < len(self.rows)
                and not self.rows[self.row].ambiguous and len(self.rows[self.row].cells) <= MIN_COLUMNS)

    def erase_in_display(self, mode: int) -> None:
        """ED: what it erases leaves the screen and is kept (modes 2 and 3 keep the whole screen)."""
        self._require_cursor()
        if mode == 0 and not self.top_known:
            # below the cursor: rows of this text only (the cursor is within the screen's last rows)
            self._no_pending_wrap("erase in display")
            self._erase_nothing(0)
            return
        self._require_top("erase in display")
        if mode not in (2, 3):
            self._require_layout(relative=True)
            self._require_narrow_screen()
        if mode in (2, 3):
            at_81 = self.at_column_81()
            screen_row = self.row - self.top
            self._charge(len(self.rows) - self.top)
            if self.joins_disputed:
                self._settle_joins(leaving=True)
            self.rows[self.top :] = [r for r in self.rows[self.top :] if not _blank(r)]
            self.top = len(self.rows)
            self._dispute("erase in display")
            if at_81:
                # right after column 80 of an unknown width: an 80-column terminal's pending wrap, which
                # tmux keeps through ED (the next character wraps), a wider one's column 81
                self.col_disputed = "erase in display at column 81 of a screen of unknown width"
            disputed = self.col_disputed
            self._place(screen_row, self.col)
            self.col_disputed = disputed  # ED 2 / 3 leave the cursor where it was, disputed or not
            return
        if mode == 0 and self.row == self.top and self.col == 0 and not self.pending_wrap and not self.origin:
            self.erase_in_display(2)  # ED 0 at home: a page break (everything shown stays)
            return
        if mode not in (0, 1):
            raise Unresolved(f"erase in display with mode {mode}")
        self._no_pending_wrap("erase in display")
        if self.width is not None:
            # rows wholly cleared: below the cursor (ED 0) or above it (ED 1), and the cursor's own
            # row where the erase starts or ends at its edge
            start, stop = (self.row + 1, len(self.rows)) if mode == 0 else (self.top, self.row)
            for index in range(start, stop):
                self._keep_joined(index)
            if self.col == (0 if mode == 0 else self.width - 1):
                self._keep_joined(self.row)
            elif mode == 0 and self.row + 1 < len(self.rows):
                self._keep_joined(self.row + 1, own=False)
        # The oracle counts every row on screen when ED acts as shown (design.md), the contract counts
        # the page's final state: where they differ (ED over written rows) the page is refused.
        self._erase_nothing(mode)

    def _erase_nothing(self, mode: int) -> None:
        """ED 0 / 1 that erases no written cell; the cursor's row is pinned as it stands."""
        row = self.rows[self.row]
        others = self.rows[self.row + 1 :] if mode == 0 else self.rows[self.top : self.row]
        part = row.cells[self.col :] if mode == 0 else row.cells[: self.col + 1]
        if not all(_blank(r) for r in others) or any(c is not UNWRITTEN and c != " " for c in part):
            raise Unresolved("erase in display over written cells (shown for the oracle, gone for the contract)")
        visible = self.rows[self.top :] if self.top_known else self.rows[-self.screen_lines :]
        pins = self.pins
        for written in visible:
            cells = written.cells
            if cells:
                self._charge(len(cells))
                if pins.setdefault(written, cells[:]) != cells:
                    raise Unresolved("a row on screen when ED acted changed after it (shown for the oracle)")

    def check_pins(self) -> None:
        """Rows on screen when ED acted count as shown (oracle): they must end the page as they were.
        The page's disputed joins are read here too (:meth:`check_joins`)."""
        self.check_joins()
        if not self.pins:
            return
        present = set(map(id, self.rows))
        for row, cells in self.pins.items():
            if row.cells != cells or id(row) not in present:
                raise Unresolved("a row on screen when ED acted changed after it (shown for the oracle)")

    def insert_lines(self, n: int) -> None:
        """IL: blank rows at the cursor's row; rows pushed past the bottom margin are dropped."""
        self._lines(n, insert=True)

    def delete_lines(self, n: int) -> None:
        """DL: the cursor's row and the next ones are dropped; blank rows come in at the bottom margin."""
        self._lines(n, insert=False)

    def _lines(self, n: int, *, insert: bool) -> None:
        self._require_top("insert or delete lines")
        self._require_cursor()
        self._require_narrow_screen()
        upper, lower = self._region()
        screen_row = self.row - self.top
        if screen_row < upper or (lower is not None and screen_row > lower):
            raise Unresolved("insert or delete lines outside the scroll region (tmux acts, xterm ignores it)")
        if self.col or self.pending_wrap:
            raise Unresolved("insert or delete lines away from the first column (xterm moves the cursor there, "
                             "tmux 3.3a leaves it)")
        self._shift(screen_row, lower, n, up=not insert, keep=False)
        self.col = 0
        self.pending_wrap = False

    def _scroll_up(self, n: int) -> None:
        upper, lower = self._region()
        self._shift(upper, lower, n, up=True, keep=True)

    def _scroll_down(self, n: int) -> None:
        upper, lower = self._region()
        self._shift(upper, lower, n, up=False, keep=False)

    def scroll(self, n: int, *, up: bool) -> None:
        """SU / SD."""
        self._require_top("scroll")
        self._require_cursor()
        self._require_narrow_screen()
        if up:
            self._scroll_up(n)
        else:
            self._scroll_down(n)

    def _shift(self, first: int, last: int | None, n: int, *, up: bool, keep: bool) -> None:
        """Move screen rows ``first..last`` up (rows leave at ``first``) or down (they leave at ``last``).

        ``keep``: the rows that leave scrolled off (LF, IND, SU at the region's top) and stay in the
        text; rows DL deletes or IL / SD / RI push off the bottom are dropped, as overwritten cells are.
        """
        if last is None:
            # An unknown bottom: certain only while nothing below could reach it.
            if len(self.rows) - self.top + (0 if up else n) > SCREEN_LINES:
                raise Unresolved("rows shifted towards the bottom of a screen of unknown height")
            last = SCREEN_LINES - 1
        n = min(n, last - first + 1)
        self._charge(n * (last - first + 2))  # each shift moves the region's rows
        if not (up and keep):
            # tmux 3.3a splits a wrapped line that IL, DL, SD or RI move or cut (checked live: the row
            # moved down is no longer joined); scrolling up (LF, IND, SU) keeps it
            stop = min(len(self.rows), self.top + last + 1)
            if any(self.rows[index].ending is WRAP for index in range(max(self.top + first - 1, 0), stop)):
                raise Unresolved("rows of a wrapped line inserted, deleted or scrolled down (tmux splits the line)")
        cursor = self.row - self.top
        self._ensure(self.top + last)
        for _ in range(n):
            if up:
                self.rows.insert(self.top + last + 1, Row())
                if keep:
                    self._retire(self.top + first)
                else:
                    self._drop(self.top + first)
            else:
                self._drop(self.top + last)
                self.rows.insert(self.top + first, Row())
        # the cursor keeps its screen position
        self.row = self.top + cursor
        self._trim_screen()

    def _drop(self, index: int) -> None:
        """A row DL deletes or IL / SD / RI push off the bottom: a terminal discards it, the oracle
        counts it as shown; only a blank one goes without a refusal."""
        if index < len(self.rows) and not _blank(self.rows[index]):
            raise Unresolved("a written row deleted or pushed off the screen (shown for the oracle, gone for the "
                             "contract)")
        if index < len(self.rows):
            self.rows.pop(index)

    def _trim_screen(self) -> None:
        """Blank rows below a known screen's bottom (left by shifting) are not rows of the screen."""
        if self.height is not None:
            limit = self.top + self.height
            while len(self.rows) > limit and len(self.rows) - 1 > self.row and _blank(self.rows[-1]):
                self.rows.pop()

    def set_margins(self, upper: int, lower: int | None) -> None:
        """DECSTBM (rows from 0; ``lower`` None: the screen's bottom). The cursor goes home."""
        self._anchor()
        self._require_top("set scroll region")
        self._require_narrow_screen()
        if self.origin:
            raise Unresolved("scroll region set in origin mode (tmux homes to the screen's top, xterm the region's)")
        if self.height is not None:
            lower = self.height - 1 if lower is None else min(lower, self.height - 1)
        elif upper >= SCREEN_LINES - 1 or (lower is not None and lower >= SCREEN_LINES):
            # past the 24 rows an unknown height is sure of: a 24-row terminal clamps the bottom or
            # ignores the region, a taller one sets it (found judging at an unknown size)
            raise Unresolved(f"scroll region past row {SCREEN_LINES} of a screen of unknown height")
        if lower is not None and upper >= lower:
            raise Unresolved("scroll region with its top at or below its bottom (terminals disagree)")
        full = upper == 0 and (lower is None or lower == (self.height or 0) - 1)
        self.margins = None if full else (upper, lower)
        self._home()

    def set_origin(self, on: bool) -> None:
        """DECOM: positions relative to the region; the cursor goes home."""
        self._anchor()
        self._require_top("origin mode")
        self.origin = on
        self._home()

    def _home(self) -> None:
        upper = self._region()[0] if self.origin else 0
        self._place(upper, 0)

    def save_cursor(self) -> None:
        self.cursor_saved = True
        self._no_pending_wrap("save cursor")
        if not self.top_known:
            super().save_cursor()
            return
        self._require_cursor()
        self._no_pending_wrap("save cursor")
        self._require_top("save cursor")
        self._require_layout(relative=True)
        self.saved_screen = (self.row - self.top, self.col)

    def restore_cursor(self) -> None:
        if not self.top_known:
            super().restore_cursor()
            return
        saved = getattr(self, "saved_screen", None)
        if saved is None:
            raise Unresolved("cursor restore without a save on this page")
        self._require_top("restore cursor")
        self._require_narrow_screen()
        self._place(*saved)
        self.rows[self.row].mark("multiline")
