"""The screen model's cells: controls (LF, CR, BS, HT, DEL) and characters written (narrow, wide,
zero-width), erased (EL, ED, ECH) and edited (ICH, DCH, IL, DL, SU, SD, REP); the region (DECSTBM)
and the saved cursor (DECSC, DECRC)."""

from __future__ import annotations

from .. import grammar
from ..grammar import HT
from ..model import MIN_COLUMNS, TAB_WIDTH
from ..model import SCREEN_LINES as MIN_ROWS
from .meaning import WIDTH, Refusal, all_narrow, other_widths
from .moves import Moves
from .state import BLANK, TAB_TAIL, TAILS, UNWRITTEN, WIDE_TAIL, Row

_ZERO_WIDTH_JOINER = "\u200d"

# Cells a character takes: 1 or 2; 0 for zero-width; -1 where terminals disagree (the shared table),
# for a control and for an undecodable byte.
_width = WIDTH.__getitem__


class Cells(Moves):
    """Writing, erasing and editing cells."""

    # -- writing -------------------------------------------------------------------------------------

    def control(self, char: str, before_lf: bool = False) -> None:
        if char == "\n":
            self.line_feed()
            self.carriage_return()
        elif char == "\r":
            if not before_lf and self.unknown_width:
                self.layout_known(self.cy, cursor=False)
            self.carriage_return()
        elif char == "\b":
            if self.at_margin("BS"):
                return
            if self.cx_known and self.cx == 0 and not self.pending and (
                    (self.cy > 0 and self.grid[self.cy - 1].wrapped) or (self.cy == 0 and self.tail)):
                raise Refusal("BS at the first column of a wrapped row (tmux goes up a row, xterm not)")
            self.cursor_left(1)
        elif char == HT:
            self.tab()
        elif char == "\x7f":
            self.write(char)  # DEL: written where it stands, of uncertain width (the cleaner keeps it)
        elif char != "\x07":
            raise Refusal("unsupported control")

    def tab(self) -> None:
        if self.at_margin("HT"):
            return
        row = self.own_row(self.cy)
        cells = row.cells
        if not self.cx_known and self.disputed is None:
            # after a character of uncertain width, at the row's end (only appending leaves an unknown
            # column): the tab's stop is unknown too, up to TAB_WIDTH cells on; kept as written
            self.touch(row)
            cells.append(HT)
            row.uncertain += TAB_WIDTH - 1
            self.cx = len(cells)
            self.within_margin(row)
            return
        col = self.need_column()
        stop = (col // TAB_WIDTH + 1) * TAB_WIDTH
        limit = self.right_limit()
        if limit is not None and stop > limit:
            raise Refusal("a tab reaches the right margin")
        if col < len(cells):  # appending, a stop past column 80 only makes the page wide
            self.within_narrowest(stop)
        self.touch(row)
        self.charge(stop - col)
        if col < len(cells):
            if "".join(cells[col:stop]).strip(UNWRITTEN):
                raise Refusal("tab skips over written cells")
            if stop < len(cells) and cells[stop] in TAILS:
                raise Refusal("overwrites part of a wide character or tab")
        self.pad(cells, col)
        cells[col:stop] = HT + TAB_TAIL * (stop - col - 1)
        self.cx = stop
        self.mark_wide(stop)

    def touch(self, row: Row) -> None:
        if row.shown:
            raise Refusal("changes a row shown before the alternate screen")
        if self.has_shown and not row.cells:
            below = self.grid[self.cy + 1:]
            self.charge(len(below))
            if any(other.shown for other in below):
                # a terminal shows it above lines our text already gave: the order would differ
                raise Refusal("writes above rows shown before the alternate screen")

    def pad(self, cells: list[str], col: int) -> None:
        if col > len(cells):
            self.charge(col - len(cells))
            cells.extend(UNWRITTEN * (col - len(cells)))

    def write(self, text: str) -> None:
        if self.disputed is not None:
            self.need_column()  # a character written reads the column
        if self.cx_known and (text.isascii() or all_narrow(text)):
            self.put_narrow(text)
        else:
            run_start = 0
            for index, width in other_widths(text):  # the narrow runs between them: one put each
                if index > run_start and self.cx_known:
                    self.put_narrow(text[run_start:index])
                elif index > run_start:
                    self.put_after_uncertain(text[run_start:index])
                self.put_other(text[index], width)
                run_start = index + 1
            if run_start < len(text):
                if self.cx_known:
                    self.put_narrow(text[run_start:])
                else:
                    self.put_after_uncertain(text[run_start:])
        self.last_char = text[-1]

    def wrap(self) -> None:
        if not self.autowrap:
            raise Refusal("writes at the right margin with autowrap off")
        self.line_feed(wrapping=True)
        self.cx = 0

    def advance(self, end: int) -> None:
        """The cursor after narrow cells written up to column ``end``: pending at a known right margin."""
        columns = self.columns
        if columns is not None and end >= columns:
            self.cx = columns - 1
            self.pending = True
        else:
            self.cx = end
        if self.unknown_width:
            self.mark_wide(end)

    def put_narrow(self, text: str) -> None:
        """Narrow characters from a known column, wrapping at a known right margin."""
        columns = self.columns
        position, length_of_text = 0, len(text)
        while position < length_of_text:
            if self.pending:
                self.wrap()
            col = self.cx
            if columns is None:
                chunk, position = text[position:], length_of_text
            else:
                room = columns - col  # sliced at an offset: no re-copy of the rest per row
                chunk, position = text[position:position + room], position + room
            grid, cy = self.grid, self.cy
            row = grid[cy]
            if row is BLANK:
                row = grid[cy] = Row()
            if row.shown or self.has_shown:  # what touch() checks
                self.touch(row)
            cells = row.cells
            end = col + len(chunk)
            length = len(cells)
            if col >= length:
                if col > length:
                    self.pad(cells, col)
                self.charge(len(chunk) >> 4)
                cells.extend(chunk)
            else:
                self.charge(len(chunk))
                if cells[col] == WIDE_TAIL or (end < length and cells[end] == WIDE_TAIL):
                    raise Refusal("overwrites part of a wide character")
                covered = cells[col:end]
                if HT in covered or TAB_TAIL in covered or (end < length and cells[end] == TAB_TAIL):
                    raise Refusal("overwrites cells a tab skipped")
                if row.uncertain:
                    raise Refusal("overwrites a line holding a zero-width or ambiguous character")
                cells[col:end] = chunk
            if columns is not None and end >= columns and not self.autowrap:
                raise Refusal("writes at the right margin with autowrap off")
            self.advance(end)

    def put_after_uncertain(self, text: str) -> None:
        """Narrow characters after one of uncertain width (the column unknown, at the row's end): appended
        at once where they reach no margin, else one by one as :meth:`put_other` takes them."""
        row = self.own_row(self.cy)
        cells = row.cells
        end = len(cells) + len(text)
        limit = self.right_limit()
        if self.pending or self.cx != len(cells) or (limit is not None and end + row.uncertain > limit - 1):
            for char in text:
                self.put_other(char, 1)
            return
        self.touch(row)
        cells.extend(text)
        self.cx = end
        self.mark_wide(end)

    def put_other(self, char: str, width: int) -> None:
        """A wide, zero-width or uncertain character, or a narrow one after an uncertain one."""
        if self.pending and width == 0 and char != _ZERO_WIDTH_JOINER:
            self.combine_at_margin(char)
            return
        if self.pending:
            self.wrap()
        row = self.own_row(self.cy)
        self.touch(row)
        cells = row.cells
        col = self.cx
        if col < len(cells) and (not self.cx_known or width != 2 or row.uncertain):
            raise Refusal("writes over a line where the cursor's column is uncertain")
        if width == 0:
            if col == 0 or col != len(cells):
                raise Refusal("a zero-width character that joins no character before it")
            previous = col - 1 if cells[col - 1] != WIDE_TAIL else col - 2
            cells[previous] += char
            row.uncertain += 1
            self.cx_known = False
            return
        if width == 2:
            limit = self.right_limit()
            if limit is not None and col >= limit:
                raise Refusal("a wide character at the right margin")
            end = col + 2
            if col < len(cells):
                if cells[col] == WIDE_TAIL or (end < len(cells) and cells[end] == WIDE_TAIL):
                    raise Refusal("overwrites part of a wide character")
                if HT in cells[col:end] or TAB_TAIL in cells[col:end] or (end < len(cells) and cells[end] == TAB_TAIL):
                    raise Refusal("overwrites cells a tab skipped")
            self.pad(cells, col)
            cells[col:end] = [char, WIDE_TAIL]
        else:
            if col != len(cells):
                raise Refusal("a zero-width or ambiguous character written over a line")
            self.pad(cells, col)
            cells.append(char)
            end = col + 1
            if width == -1:  # 1 or 2 cells (or none): the row is uncertain from here on
                row.uncertain += 1
                self.cx_known = False
        self.within_margin(row)
        limit = self.right_limit()
        if limit is not None and end > limit:
            self.cx = limit
            self.pending = True
        else:
            self.cx = end
        self.mark_wide(end)

    def within_margin(self, row: Row) -> None:
        limit = self.right_limit()
        if row.uncertain and limit is not None and len(row.cells) + row.uncertain > limit - 1:
            raise Refusal("a line holding a zero-width or ambiguous character nears the right margin")

    def combine_at_margin(self, char: str) -> None:
        """A zero-width character at the pending-wrap position: tmux 3.3a and xterm both join it to the
        last cell and keep the wrap pending (checked live). Not a ZWJ: tmux keeps one pending."""
        row = self.own_row(self.cy)
        self.touch(row)
        cells = row.cells
        last = len(cells) - 1
        if not self.cx_known or last != self.cx:
            raise Refusal("a zero-width character at the right margin with no cell known before it")
        if cells[last] == WIDE_TAIL:
            last -= 1
        if cells[last] in TAILS or cells[last] == UNWRITTEN:
            raise Refusal("a zero-width character at the right margin after a tab or an empty cell")
        cells[last] += char
        row.uncertain += 1  # later edits of this row refuse, as after any zero-width character

    # -- erasing and editing -------------------------------------------------------------------------

    def erase_cells(self, row: Row, start: int, end: int | None, index: int) -> None:
        cells = row.cells
        length = len(cells)
        stop = length if end is None or end > length else end
        if start >= stop:
            return
        if row.wrapped or (index > 0 and self.grid[index - 1].wrapped) or (index == 0 and bool(self.tail)):
            raise Refusal("erases part of a wrapped line")
        if row.shown and "".join(cells[start:stop]).strip(UNWRITTEN):
            raise Refusal("changes a row shown before the alternate screen")
        if cells[start] in TAILS or (stop < length and cells[stop] in TAILS):
            raise Refusal("erases part of a wide character or of a tab")
        if row.uncertain:
            if start or stop != length:
                raise Refusal("erases on a line holding a zero-width or ambiguous character")
            row.uncertain = 0  # the whole row: no width matters
        self.charge(stop - start)
        if stop == length:
            del cells[start:]
        else:
            cells[start:stop] = UNWRITTEN * (stop - start)

    def erase_line(self, mode: int) -> None:
        if mode == 0 and self.at_row_end():
            return
        self.layout_known(self.cy)
        row = self.grid[self.cy]
        if self.at_margin(f"EL {mode}"):
            # tmux's cursor is past the last column: EL 0 erases nothing there (xterm would erase the
            # last character: keeping it is the safe side); EL 1 and EL 2 erase the whole row in both.
            if mode:
                self.erase_cells(row, 0, None, self.cy)
            return
        if mode == 2:
            self.erase_row(self.cy)  # the whole row, wherever the cursor is: a dispute or unknown column carried
            return
        col = self.need_column()
        if mode == 0:
            self.erase_cells(row, col, None, self.cy)
        else:
            self.erase_cells(row, 0, col + 1, self.cy)

    def erase_row(self, index: int) -> None:
        """EL 2 of a whole row. tmux 3.3a (grid_clear_lines) drops the row's wrap flag and the one of the
        row above it; xterm (ClearLine) keeps both: each flag that was set becomes a dispute, not a
        refusal. Refused where the row above is in the history (the line's head left the screen) or
        shown before the alternate screen."""
        row = self.grid[index]
        above = self.grid[index - 1] if index > 0 else None
        if not (index == 0 and self.tail) and not row.shown and not (above is not None and above.shown):
            for wrapped in (row, above):
                if wrapped is not None and wrapped.wrapped:
                    wrapped.wrapped = False
                    wrapped.wrap_disputed = True
        self.erase_cells(row, 0, None, index)

    def erase_display(self, mode: int) -> None:
        """ED 0 (to the end of the screen) / ED 1 (from its start) where it is no page break."""
        self.need_column()
        self.charge(len(self.grid))
        self.erase_line(mode)
        indexes = range(self.cy + 1, len(self.grid)) if mode == 0 else range(self.cy)
        for index in indexes:
            self.erase_cells(self.grid[index], 0, None, index)

    def at_row_end(self) -> bool:
        """Nothing is written right of the cursor, so EL 0 and ECH change nothing on any terminal, wrapped
        or not (an unknown column is the row's end: only appending leaves one)."""
        return self.disputed is None and not self.pending and (
            not self.cx_known or self.cx >= len(self.grid[self.cy].cells))

    def erase_chars(self, count: int) -> None:
        if self.at_row_end():
            return
        col = self.need_column()
        self.layout_known(self.cy)
        self.erase_cells(self.grid[self.cy], col, col + count, self.cy)

    def edit_check(self, row: Row, col: int) -> None:
        self.layout_known(self.cy)
        cells = row.cells
        self.touch(row)
        above = self.grid[self.cy - 1] if self.cy > 0 else None
        if (row.wrapped or row.wrap_disputed or row.uncertain
                or (above is not None and (above.wrapped or above.wrap_disputed))):
            raise Refusal("edits a wrapped line or one holding a zero-width or ambiguous character")
        if col < len(cells) and cells[col] in TAILS:
            raise Refusal("edits inside a wide character or tab")
        if HT in cells[col:] or TAB_TAIL in cells[col:]:
            raise Refusal("shifts a tab")

    def edited_cells(self) -> tuple[int, list[str]] | None:
        """ICH / DCH: the cursor's column and its row's cells, checked for an edit (None: the cursor
        stands past the row's end, where neither changes a cell)."""
        col = self.need_column()
        row = self.grid[self.cy]
        self.edit_check(row, col)
        cells = row.cells
        return None if col >= len(cells) else (col, cells)

    def insert_chars(self, count: int) -> None:
        edited = self.edited_cells()
        if edited is None:
            return
        col, cells = edited
        limit = self.right_limit()
        if limit is None and len(cells) + count > MIN_COLUMNS:
            raise Refusal("ICH pushes characters toward a right margin of unknown place")
        width = MIN_COLUMNS if limit is None else limit + 1
        if 2 * count > width - col:
            raise Refusal("ICH of more than half the rest of the row (tmux 3.3a leaves old cells)")
        count = min(count, width - col)
        self.charge(count + len(cells) - col)
        cells[col:col] = UNWRITTEN * count
        if len(cells) > width:
            if cells[width] == WIDE_TAIL:
                raise Refusal("ICH splits a wide character at the right margin")
            del cells[width:]
        while cells and cells[-1] == UNWRITTEN:
            cells.pop()

    def delete_chars(self, count: int) -> None:
        edited = self.edited_cells()
        if edited is None:
            return
        col, cells = edited
        end = min(col + count, len(cells))
        if end < len(cells) and cells[end] in TAILS:
            raise Refusal("DCH splits a wide character or tab")
        self.charge(len(cells) - col)
        del cells[col:end]

    def insert_lines(self, count: int, delete: bool) -> None:
        self.need_anchored("IL/DL")
        top, bottom = self.region()
        certain = True
        if bottom < 0:  # no region, unknown height: the screen has at least 24 rows
            bottom = MIN_ROWS - 1
            certain = False
        if not top <= self.cy <= bottom:
            if self.bottom is not None:
                raise Refusal("IL/DL outside the scroll region (tmux acts on the whole screen, xterm not)")
            return
        if self.need_column():  # the rows move alike in both: only the column is disputed
            self.disputed = "IL/DL away from the first column (xterm moves the cursor there, tmux not)"
        while bottom >= len(self.grid):
            self.grid.append(BLANK)
        if self.cy > 0 and (self.grid[self.cy - 1].wrapped or self.grid[self.cy - 1].wrap_disputed):
            raise Refusal("IL/DL inside a wrapped line")
        if delete:
            self.no_wrapped_rows(self.cy, bottom)
            self.shift_rows(self.cy, bottom, count, self.discard)
            if not certain:
                while len(self.grid) > 1 and not self.grid[-1].cells and len(self.grid) - 1 > self.cy:
                    self.grid.pop()
        else:
            self.scroll_down(self.cy, bottom, count, certain)

    def scroll_lines(self, count: int, up: bool) -> None:
        self.carry("SU" if up else "SD")  # the cursor stays: a dispute about its column carries, not read
        self.need_anchored("SU/SD")
        top, bottom = self.region()
        if bottom < 0:
            raise Refusal("SU/SD on a screen of unknown height")
        while bottom >= len(self.grid):
            self.grid.append(BLANK)
        if up:
            self.scroll_up(top, bottom, count)
        else:
            self.scroll_down(top, bottom, count)

    def repeat(self, count: int, last_char: str) -> None:
        if not last_char or not last_char.isascii() or _width(last_char) != 1:
            raise Refusal("REP without a narrow character written just before it")
        right = self.right_limit()
        limit = right if right is not None else MIN_COLUMNS - 1 if self.unknown_width else None
        if self.pending or (limit is not None and self.cx + count > limit):
            raise Refusal("REP reaches the right margin (tmux stops there, xterm wraps)")
        self.charge(count)
        self.write(last_char * count)
        self.last_char = ""  # a second REP: tmux 3.3a repeats nothing, xterm the character again

    def set_region(self, seq: grammar.Sequence) -> None:
        numbers = seq.numbers(0) if seq.params else [0, 0]
        if len(numbers) == 1:
            numbers.append(0)
        if len(numbers) != 2:
            raise Refusal("DECSTBM with more than two parameters")
        fields = seq.params.split(";")
        if len(fields) > 1 and fields[1] and numbers[1] == 0:
            raise Refusal("DECSTBM with a 0 bottom (tmux reads row 1, xterm the last row)")
        if self.origin:
            raise Refusal("DECSTBM in origin mode (tmux homes to the screen, xterm to the region)")
        top = max(numbers[0], 1) - 1
        height = self.height
        if numbers[1] == 0 and height is None:
            if top != 0:
                raise Refusal("a scroll region down to a screen bottom of unknown place")
            self.top, self.bottom = 0, None
            self.home()
            return
        bottom = (height - 1) if numbers[1] == 0 and height is not None else numbers[1] - 1
        if height is not None:
            bottom = min(bottom, height - 1)
        elif bottom > MIN_ROWS - 1:
            raise Refusal("a scroll region below the 24 rows every terminal has")
        if top >= bottom:
            return  # xterm and tmux ignore it
        self.anchor_if_blank()
        self.need_anchored("DECSTBM")
        if height is not None and top == 0 and bottom == height - 1:
            self.top, self.bottom = 0, None
        else:
            self.top, self.bottom = top, bottom
            while bottom >= len(self.grid):
                self.grid.append(BLANK)
        self.home()

    def home(self) -> None:
        self.goto_row(0)
        self.goto_column(0)

    def save_cursor(self) -> None:
        self.need_column()
        self.saved = (self.cy, self.cx, self.origin, self.anchored, len(self.pages), self.scrolls)
        self.saved_unknown = False

    def restore_cursor(self) -> None:
        if self.saved is None or self.saved_unknown:
            raise Refusal("restores a cursor position that was never saved (or is unknown)")
        cy, cx, origin, anchored, page, scrolls = self.saved
        self.layout_known(self.cy, cy)
        if anchored != self.anchored:
            raise Refusal("restores a position saved while the page's place was known differently")
        if not anchored and (page != len(self.pages) or scrolls != self.scrolls):
            raise Refusal("restores a screen position after new rows may have scrolled the screen")
        if self.origin != origin:
            raise Refusal("restores a cursor saved under another origin mode")
        while cy >= len(self.grid):
            self.grid.append(BLANK)
        self.cy, self.cx, self.cx_known, self.pending, self.disputed = cy, cx, True, False, None
