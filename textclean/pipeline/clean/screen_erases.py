"""The cleaner's screen model, its erases: EL, ECH, ICH, DCH within the cursor's row and ED on the screen
(what ED erases leaves the screen and is kept; a row on screen when it acts is pinned to the page's end)."""

from __future__ import annotations

from ..model import MIN_COLUMNS
from .line import UNWRITTEN, WIDEST_COLUMNS, Unresolved
from .screen_regions import ScreenRegions
from .screen_state import blank_row


class ScreenErases(ScreenRegions):
    """Erase, insert and delete cells in a row; erase in display."""

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
            self.rows[self.top :] = [r for r in self.rows[self.top :] if not blank_row(r)]
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
        if not all(blank_row(r) for r in others) or any(c is not UNWRITTEN and c != " " for c in part):
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
