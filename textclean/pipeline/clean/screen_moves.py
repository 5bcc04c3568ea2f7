"""The cleaner's screen model, its cursor moves: within a row (CR, BS, HT, CUF / CUB / CHA) and between
rows (IND, LF, RI, CUU / CUD / CNL / CPL, CUP / HVP / VPA), and the saved cursor."""

from __future__ import annotations

from ..model import MIN_COLUMNS, SCREEN_LINES
from .line import Row, Unresolved
from .screen_erases import ScreenErases
from .screen_state import WRAP


class ScreenMoves(ScreenErases):
    """Move the cursor within a row and between rows; save and restore it."""

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
