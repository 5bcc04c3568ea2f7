"""The cleaner's screen model, its state: the screen's geometry (its top row, a known or unknown size,
the cursor's screen position), the disputes terminals have about the cursor's column, and the joins of
wrapped rows an erase puts in doubt. The classes after it (:mod:`screen_regions`, :mod:`screen_erases`,
:mod:`screen_moves`, :mod:`screen`) add the controls, each on the one before.
"""

from __future__ import annotations

from ..model import MIN_COLUMNS, SCREEN_LINES
from ..str_kinds import Wrap
from .line import UNWRITTEN, LineModel, Row, Unresolved

#: A line ending that is none: the row wrapped into the next one.
WRAP = Wrap("")


def blank_row(row: Row) -> bool:
    """Nothing shows on the row: every cell of it unwritten or a space."""
    return all(c is UNWRITTEN or c == " " for c in row.cells)


class ScreenState(LineModel):
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
        # the row model's state (positional: a page of a session builds one model, and keywords cost as much
        # as the rest); its ``columns``, where the row model refuses to reach, stays None: this one wraps
        LineModel.__init__(self, input_length, rows or SCREEN_LINES, None, terminal)
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
        # (col_disputed, set by the row model: here also whether the next character wraps)
        self.last_char: str | None = None
        self.pins: dict[Row, list[str]] = {}  # rows on screen when ED acted, and their cells then
        # Rows whose wrap into the next row terminals disagree on (an erase of a whole row of a wrapped
        # line): a state, read only where a terminal that keeps the join shows another line (check_pins)
        self.joins_disputed: list[Row] = []
        self.cursor_saved = False  # DECSC / SCOSC on this page: a terminal keeps it across breaks
        if cursor is not None and cursor != (0, 0):
            self._place(*cursor)

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
        if not self.top_known and self.blank and all(blank_row(r) for r in self.rows):
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
        if not blank_row(row):
            self.rows.insert(self.top, row)
            self.top += 1

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
            if not blank_row(rows[following]):
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
            elif (leaving or blank_row(row)) and self._blank_after(index):
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

    def at_column_81(self) -> bool:
        """Right after column 80 of an unknown width: an 80-column terminal's pending wrap (kept through
        ED and a page break that does not home), a wider one's column 81: the column is disputed."""
        return (self._unknown_width() and self.col == MIN_COLUMNS and self.row < len(self.rows)
                and not self.rows[self.row].ambiguous and len(self.rows[self.row].cells) <= MIN_COLUMNS)
