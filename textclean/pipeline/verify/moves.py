"""The screen model's controls and cursor moves: rows, columns, the scroll region, scrolling, the page's
place on the screen (ECMA-48 CR, LF, RI; the cursor's rows and columns; xterm's pending wrap)."""

from __future__ import annotations

from collections.abc import Callable

from ..model import MIN_COLUMNS
from ..model import SCREEN_LINES as MIN_ROWS
from .meaning import Refusal
from .state import BLANK, Row, State, informative, render


class Moves(State):
    """Controls and cursor moves: rows, columns, the region, scrolling, the page's place on the screen."""

    # -- controls ------------------------------------------------------------------------------------

    def carriage_return(self) -> None:
        self.cx = 0
        self.cx_known = True
        self.pending = False
        self.disputed = None

    def at_margin(self, what: str) -> bool:
        """A move or erase at the pending-wrap position: terminals disagree on the column and the wrap
        flag after it (a dispute, not yet a refusal). True when it was."""
        if not (self.pending and self.cx_known):
            return False
        self.disputed = f"{what} at the pending-wrap position"
        self.pending = False
        return True

    def carry(self, what: str) -> None:
        """A move that neither reads nor settles the column (CUU, CUD, VPA): it carries a dispute, and makes
        one at the pending-wrap position or after a character of uncertain width."""
        if not self.at_margin(what) and self.disputed is None and not self.cx_known:
            self.disputed = f"{what} after a character whose width terminals disagree on"

    def layout_known(self, *indexes: int, cursor: bool = True) -> None:
        """Width unknown: a row reaching past column 80 wraps on an 80-column terminal, so a column- or
        row-dependent operation on it (or across it) is undecided; appending to it stays decided."""
        if not self.unknown_width:
            return
        grid = self.grid
        low, high = min(indexes), max(indexes)
        self.charge(high - low + 1)
        for index in range(max(low, 0), min(high, len(grid) - 1) + 1):
            if len(grid[index].cells) > MIN_COLUMNS or (
                    cursor and index == self.cy and self.cx_known and self.cx >= MIN_COLUMNS):
                raise Refusal(f"acts on a row past column {MIN_COLUMNS} of a terminal of unknown width")

    def need_column(self) -> int:
        if self.disputed is not None:
            raise Refusal(f"reads the cursor's column, which terminals disagree on after {self.disputed}")
        if not self.cx_known:
            raise Refusal("cursor column depends on the width of a zero-width or ambiguous character")
        if self.pending:
            raise Refusal("moves from the pending-wrap position (xterm and tmux differ)")
        return self.cx

    # -- vertical structure --------------------------------------------------------------------------

    def region(self) -> tuple[int, int]:
        """The scroll region's top and bottom rows (the whole screen without one)."""
        if self.bottom is not None:
            return self.top, self.bottom
        if self.anchored and self.height:
            return 0, self.height - 1
        return 0, -1  # the bottom of the screen is not known

    def line_feed(self, wrapping: bool = False) -> None:
        """LF / IND: down a row, scrolling at the region's bottom (the top row leaves: kept)."""
        grid = self.grid
        if self.cy == len(grid) - 1 and self.bottom is None and self.anchored and self.height == len(grid):
            if wrapping:  # tmux 3.3a never unmarks a wrapped row on a later line feed (checked live)
                row = self.own_row(-1)
                row.wrapped = True
                row.wrap_disputed = False  # both terminals set the flag again
            self.scroll_screen()
            return
        if self.unknown_width and not wrapping and (self.cy < len(self.grid) - 1 or self.bottom is not None):
            self.wraps_below(True)
        self.pending = False
        if wrapping:  # tmux 3.3a never unmarks a wrapped row on a later line feed (checked live)
            row = self.own_row(self.cy)
            row.wrapped = True
            row.wrap_disputed = False  # both terminals set the flag again
        top, bottom = self.region()
        if self.cy == bottom:
            self.scroll_up(top, bottom, 1)
        elif self.cy < len(self.grid) - 1:
            self.cy += 1
        elif self.bottom is not None and self.cy > self.bottom:
            if self.height is not None:
                return  # below the region at the screen's bottom: LF does nothing
            if len(self.grid) >= MIN_ROWS:
                raise Refusal("moves below a scroll region toward a screen bottom of unknown place")
            self.grid.append(BLANK)
            self.cy += 1
        else:
            self.grow()

    def wraps_below(self, moves: bool) -> None:
        """Width unknown, F19: the cursor's row past column 80 above other rows (or in a scroll region)
        wraps, on an 80-column terminal, over the row below: a line feed from it (``moves``) lands a
        row lower than here, and the row below shows joined to it if it holds cells."""
        cy, grid = self.cy, self.grid
        if not self.unknown_width or (cy >= len(grid) - 1 and self.bottom is None):
            return
        row = grid[cy]
        width = len(row.cells) + row.uncertain  # a character of uncertain width may take 2 cells
        if width <= MIN_COLUMNS:
            return
        below = grid[cy + 1:cy + 1 + (width - 1) // MIN_COLUMNS]
        if moves or self.bottom is not None or any(other.cells for other in below):
            raise Refusal(f"a row past column {MIN_COLUMNS} above other rows, or in a scroll region, at an "
                            f"unknown width (an {MIN_COLUMNS}-column terminal wraps it onto the row below)")

    def grow(self) -> None:
        """A new row below the lowest one; past the window the top row leaves the screen."""
        self.grid.append(BLANK)
        self.cy = len(self.grid) - 1
        if not self.anchored:
            self.scrolls += 1  # the screen may have scrolled under a saved position
        if len(self.grid) > self.window:
            self.leave_top(self.grid.pop(0))
            self.cy -= 1
            self.scrolls += 1
            # With a known height the screen has scrolled: the window is the screen again.
            self.anchored = self.height is not None

    def leave_top(self, row: Row) -> None:
        if row.wrap_disputed:
            self.wrap_read(row, None)
        if row.shown:
            if row.wrapped:
                raise Refusal("a line shown before the alternate screen wrapped")
            return
        self.charge(len(row.cells))
        self.tail.append(render(row))
        if not row.wrapped:
            self.history.append("".join(self.tail))
            self.tail = []

    def scroll_screen(self) -> None:
        """A line feed on the bottom row of a whole known screen, no region, nothing pending (what
        :meth:`line_feed` does there: the top row leaves, a blank one comes in), without its checks."""
        grid = self.grid
        self.pending = False
        row = grid.pop(0)
        if row is BLANK and not self.tail:
            self.history.append("")
        elif row.wrap_disputed or row.shown or row.wrapped or self.tail:
            self.leave_top(row)
        else:
            self.charge(len(row.cells))
            self.history.append(render(row))
        grid.append(BLANK)
        self.charge(len(grid) // 8 + 1)
        self.scrolls += 1

    def scroll_up(self, top: int, bottom: int, count: int) -> None:
        grid = self.grid
        if self.bottom is not None or bottom < len(grid) - 1:
            self.no_wrapped_rows(top, bottom)
            if any(row.shown for row in grid):
                # tmux's history would then hold the region's lines before rows of an earlier page
                raise Refusal("a scroll region scrolls beside rows shown before the alternate screen")
        self.scrolls += self.shift_rows(top, bottom, count, self.leave_top)

    def scroll_down(self, top: int, bottom: int, count: int, certain: bool = True) -> None:
        self.no_wrapped_rows(top, bottom)
        self.shift_rows(bottom, top, count, lambda row: self.discard(row, certain))

    def shift_rows(self, take: int, put: int, count: int, drop: Callable[[Row], None]) -> int:
        """Scroll the rows between ``take`` and ``put`` (SU, SD, IL, DL, LF at a region's bottom): up to
        their number of times, ``drop`` the row at ``take`` (it leaves the screen, or is discarded) and
        put a blank row at ``put``. Returns how many rows moved."""
        grid = self.grid
        span = abs(put - take) + 1
        count = min(count, span)
        for _ in range(count):
            drop(grid.pop(take))
            grid.insert(put, BLANK)
            self.charge(span // 8 + 1)
        return count

    def no_wrapped_rows(self, top: int, bottom: int) -> None:
        """Rows moved apart from their neighbours: tmux unwraps some of them, so none may be wrapped."""
        self.charge(bottom - top + 2)
        if any(row.wrapped or row.wrap_disputed for row in self.grid[max(top - 1, 0):bottom + 1]):
            raise Refusal("moves rows of a wrapped line")
        if top == 0 and self.tail:
            raise Refusal("moves rows of a wrapped line")

    def discard(self, row: Row, certain: bool = True) -> None:
        """A row a terminal drops (DL, IL, SD): as overwritten cells, it never counted."""
        if row.shown and informative(render(row)):
            raise Refusal("drops a row shown before the alternate screen")
        if row.wrapped or row.wrap_disputed:
            raise Refusal("drops part of a wrapped line")
        if not certain and informative(render(row)):
            raise Refusal("pushes a row past a screen bottom of unknown place")

    def need_anchored(self, what: str) -> None:
        if not self.anchored:
            raise Refusal(f"{what} on a page whose place on the screen is unknown")
        if self.wide_page:
            raise Refusal(f"{what} on a page whose lines may have wrapped (width unknown)")

    def page_blank(self) -> bool:
        return not self.history and not self.tail and all(not row.cells for row in self.grid)

    def anchor_if_blank(self) -> None:
        """Nothing written on the page yet: an absolute position makes its place known."""
        if not self.anchored and self.page_blank() and not self.wide_page:
            self.charge(len(self.grid))
            self.grid = self.blank_grid(True)
            self.anchored = True

    def goto_row(self, row: int) -> None:
        """Absolute row (0-based; within the region under DECOM)."""
        if not self.anchored or self.wide_page:  # what the two checks look at first
            self.anchor_if_blank()
            self.need_anchored("an absolute row")
        if self.origin:
            top, bottom = self.region()
            # no region and no known bottom: the origin is the screen's (the limit below bounds the row)
            row = top + row if bottom < 0 else min(top + row, bottom)
        limit = (self.height or MIN_ROWS) - 1
        if row > limit:
            if self.height is None:
                raise Refusal("addresses a row below the 24 rows every terminal has")
            row = limit
        while row >= len(self.grid):
            self.grid.append(BLANK)
        if self.unknown_width:
            self.layout_known(self.cy, row)
        self.charge(1)
        self.cy = row
        self.pending = False

    def move_rows(self, delta: int) -> None:
        """CUU / CUD / CNL / CPL / VPR: clamped at the region's margins or the screen's edge."""
        target = self.cy + delta
        self.layout_known(self.cy, target)
        if self.bottom is not None:
            if self.cy >= self.top and target < self.top:
                target = self.top
            if self.cy <= self.bottom and target > self.bottom:
                target = self.bottom
        if target < 0:
            if not self.anchored and (self.history or self.tail):
                raise Refusal(f"moves more than {MIN_ROWS - 1} rows above the lowest row")
            if not self.anchored:
                raise Refusal("moves above the first row of the page")
            target = 0
        if target >= len(self.grid):
            if self.anchored and self.height is None:
                if target > MIN_ROWS - 1:
                    raise Refusal("moves below the 24 rows every terminal has")
                while target >= len(self.grid):
                    self.grid.append(BLANK)
            elif self.anchored:
                target = len(self.grid) - 1
            else:
                raise Refusal("moves below the lowest row written so far")
        self.cy = target
        self.pending = False

    def reverse_index(self) -> None:
        top, bottom = self.region()
        if self.cy == top:
            if not self.anchored and self.cy == 0:
                self.move_rows(-1)  # above the page's first row: refused there
            self.need_anchored("RI at the top margin")
            if bottom < 0:
                raise Refusal("RI scrolls toward a screen bottom of unknown place")
            while bottom >= len(self.grid):
                self.grid.append(BLANK)
            self.scroll_down(top, bottom, 1)
        else:
            self.move_rows(-1)

    # -- horizontal ----------------------------------------------------------------------------------

    def right_limit(self) -> int | None:
        return None if self.columns is None else self.columns - 1

    def cursor_left(self, count: int) -> None:
        if self.at_margin("CUB"):
            return
        col = self.need_column()
        self.layout_known(self.cy)
        self.cx = max(col - count, 0)

    def cursor_right(self, count: int) -> None:
        if self.at_margin("CUF"):
            return
        col = self.need_column()
        limit = self.right_limit()
        target = col + count
        if limit is not None and target > limit:
            target = limit
        self.within_narrowest(target)
        self.charge(min(count, target))
        self.cx = target
        self.mark_wide(target)

    def goto_column(self, col: int) -> None:
        unknown_width = self.unknown_width
        if unknown_width:
            self.layout_known(self.cy)
        columns = self.columns
        if columns is not None and col >= columns:
            col = columns - 1
        if unknown_width:
            self.within_narrowest(col)
        self.charge(col)
        self.cx = col
        self.cx_known = True
        self.pending = False
        self.disputed = None
        if unknown_width:
            self.mark_wide(col)

    def within_narrowest(self, col: int) -> None:
        """Width unknown: a move into empty cells past column 80 stops at a margin of unknown place."""
        if self.unknown_width and col >= MIN_COLUMNS and col > len(self.grid[self.cy].cells):
            raise Refusal(f"moves to column {col + 1}, past the row's text and past column {MIN_COLUMNS}")

    def mark_wide(self, col: int) -> None:
        if self.unknown_width and col >= MIN_COLUMNS:
            self.wide_page = True
            if col > MIN_COLUMNS and not self.autowrap:
                # an 80-column terminal overwrites its last cell with what passes it
                raise Refusal(f"reaches past column {MIN_COLUMNS} with autowrap off at an unknown width")

    def wrap_read(self, row: Row, below: Row | None) -> None:
        """A disputed wrap flag read where the line is rendered (``below``: the next row; None: it is
        not known yet, the row leaves the screen). Joined to the next row (xterm) or not (tmux), the
        same line shows where the row stops short of the right margin (its line visibly ends there:
        xterm's stale flag only changes what its selection copies) or the next row is blank."""
        full = row.uncertain or self.columns is None or len(row.cells) >= self.columns
        if full and (below is None or below.cells or below.wrapped or below.wrap_disputed):
            raise Refusal("a row reaching the right margin whose wrap flag terminals disagree on after EL 2 "
                            "(tmux drops it, xterm keeps it): its line may go on onto the next row")
