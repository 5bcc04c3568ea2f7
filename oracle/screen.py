"""The oracle's screen: :class:`pyte.Screen` with scrollback, an alternate screen and fixed gaps.

Differences from plain pyte 0.8.2 (each has a test in ``tests/test_oracle_fixes.py``):

* **Scrollback.** A line scrolled off the top of the main screen is kept (rendered to text) instead
  of being dropped; :class:`pyte.HistoryScreen` is not used because its per-event wrapper is what
  makes it slow.
* **Alternate screen** (DEC private modes 47, 1047, 1048, 1049) with a buffer of its own.
* **Wide characters.** Overwriting the left half of a two-cell character blanks the right half;
  overwriting the right half blanks the left (xterm) or keeps it (tmux's grid). Rendering never
  meets a half character (pyte's ``display`` raises ``IndexError`` there).
* **Zero-width characters** (ZWJ, variation selectors, combining marks) join the preceding cell;
  other characters of no width (C1 code points, ``wcwidth`` -1) are invisible. pyte stops drawing
  the rest of the chunk at the first of them.
* **Fast drawing.** Runs of single-width characters are written with one ``dict.update``; cell
  objects are shared per character (the oracle tracks text, not attributes).
* **Shown log.** Every non-blank line that leaves the screen by a *destructive* operation (scrolled
  off, erased in display, cleared by RIS or DECCOLM, deleted by DL, pushed off the bottom by IL, SD
  or RI, or still on the alternate screen when it is left) is recorded with its birth time, so the
  lossless check can ask for every line a terminal ever showed. See :mod:`oracle.lossless`.
* LNM is set and stays set (it models the pty's ``onlcr``, which a program cannot switch off with
  an escape sequence) unless ``onlcr=False`` (for recordings taken after the pty's translation);
  DECCOLM clears and homes without resizing, as tmux does.
"""

from __future__ import annotations

import bisect
import copy
from typing import Any, NamedTuple

import pyte
from pyte import modes as mo
from pyte.screens import Char, Margins, StaticDefaultDict
from wcwidth import wcwidth

from textclean.pipeline.model import TAB_WIDTH
from textclean.pipeline.names import ALT_SCREEN, ALT_SCREEN_1047, ALT_SCREEN_1049, SAVE_CURSOR_1048

from .tmux_widths import TMUX_WIDTH_RANGES

# DEC private modes (pyte stores private modes shifted left by 5).
ALTBUF = ALT_SCREEN  # xterm: use the alternate screen buffer
ALTBUF_CLEAR = ALT_SCREEN_1047  # xterm: alternate buffer, cleared when leaving it
SAVE_CURSOR = SAVE_CURSOR_1048  # xterm: save / restore cursor as DECSC / DECRC
ALTBUF_SAVE_CLEAR = ALT_SCREEN_1049  # xterm: 1048 + 1047, cleared when entering
ALTERNATE_MODES = frozenset({ALTBUF, ALTBUF_CLEAR, SAVE_CURSOR, ALTBUF_SAVE_CLEAR})

PLACEHOLDER = ""  # pyte's data for the right half of a two-cell character
BLANK = Char(" ")
STUB = Char(PLACEHOLDER)

# Where xterm and tmux part ways (docs/oracle.md, "Flavours"). On a pending wrap (the cursor past
# the last column after writing it) xterm's IND/RI/LF/VT/FF, EL/ECH/ICH/DCH and BS/CUB act from the
# last column and end the pending wrap; tmux's IND/RI/LF keep it, its EL/ECH/ICH/DCH do nothing
# there, and its BS/CUB count from past the margin. With the default width (one column more than
# the widest line) no line reaches the margin. tmux also joins ZWJ sequences into one cell, keeps
# a wide character whose right half is overwritten, repeats only ASCII (REP), applies IL/DL outside
# the scrolling region, and ignores HPR/VPR/CHT and the output's LNM.
XTERM = "xterm"
TMUX = "tmux"
# tmux's behaviours, except that DECSTBM homes the cursor within the region in origin mode (as
# xterm does); for alacritty's reference recordings, which compare the visible screen only.
ALACRITTY = "alacritty"
FLAVOURS = (XTERM, TMUX, ALACRITTY)

# Behaviours on which real terminals disagree (docs/oracle.md, deviation table); a rendering lists
# those its input relied on in ``Rendering.ambiguous``.
WIDE_SPLIT = "wide-character-split"  # a wide character cut in half (xterm blanks it, tmux keeps it)
ERASED_SCROLLBACK = "erase-scrollback"  # ED 3 with a scrollback (kept here, erased by xterm/tmux)
DEC_GRAPHICS = "dec-special-graphics"  # ESC ( 0 line drawing (tmux's capture shows the ASCII)
ZWJ_SEQUENCE = "zero-width-joiner"  # xterm: each emoji its own cells; tmux: one cell, see _join
DECSTBM_ZERO_BOTTOM = "decstbm-zero-bottom"  # CSI t;0 r: xterm's bottom row, tmux's row 1
REVERSE_WRAP = "backspace-reverse-wrap"  # BS at column 0 under a wrapped row: tmux goes up, xterm stays
INSERT_LINES_TO_BOTTOM = "insert-lines-to-bottom"  # tmux's IL outside the region, to the last row
SAVE_CURSOR_FLAG = "save-cursor-1048"  # ? 1048 h/l: xterm saves/restores the cursor, tmux 3.3a ignores it

ZWJ = "\u200d"


class _Cells(dict):  # type: ignore[type-arg]
    """One shared :class:`Char` per character (attributes are not tracked)."""

    def __missing__(self, key: str) -> Char:
        cell = self[key] = Char(key)
        return cell


class _Widths(dict):  # type: ignore[type-arg]
    def __missing__(self, key: str) -> int:
        width = self[key] = wcwidth(key)
        return width


class _TmuxWidths(dict):  # type: ignore[type-arg]
    """tmux 3.3a's widths: the C library's ``wcwidth`` (oracle/tmux_widths.py), -1 drawing nothing."""

    def __missing__(self, key: str) -> int:
        code = ord(key)
        index = bisect.bisect_right(_TMUX_STARTS, code) - 1
        if index >= 0 and code <= TMUX_WIDTH_RANGES[index][1]:
            width = TMUX_WIDTH_RANGES[index][2]
        else:
            width = wcwidth(key)
        self[key] = width
        return width


_TMUX_STARTS = tuple(start for start, _, _ in TMUX_WIDTH_RANGES)
_CELLS = _Cells()
char_width = _Widths().__getitem__
tmux_char_width = _TmuxWidths().__getitem__
#: tmux keeps a cell's character and its combining marks in 21 bytes of UTF-8 (UTF8_SIZE) and drops
#: marks past that; xterm keeps a few (its combiningChars resource). Past this many characters the
#: xterm flavour drops them too (and says so): a cell that grew per mark would make a run quadratic.
TMUX_CELL_BYTES = 21
XTERM_CELL_CHARS = 32
COMBINING_OVERFLOW = "combining-overflow"


class Row(StaticDefaultDict[int, Char]):
    """A screen row: sparse cells plus ``born``, when it took its place in the output (see
    ``OracleScreen._birth_time``)."""

    def __init__(self) -> None:
        super().__init__(BLANK)
        self.born: float | None = None
        # Written to since it was last cleared whole (tmux's ``cellused``): tmux's scroll-on-clear
        # pushes the rows down to the last such row into the history, blank-looking ones included.
        self.used = False
        self.wrapped = False  # autowrap continued it on the next row (tmux's GRID_LINE_WRAPPED)


class ShownLine(NamedTuple):
    born: float
    text: str


def row_text(row: dict[int, Char] | None, columns: int, keep_cut_wide: bool = False) -> str:
    """The text of a row, right-trimmed; unwritten cells before content read as spaces.

    A wide character whose right half was overwritten or erased reads as a space, unless
    ``keep_cut_wide`` (tmux's grid: it keeps the character, the cell after it counts on its own, and
    a right half left without its character reads as nothing).
    """
    if not row:
        return ""
    width = min(max(row) + 1, columns)
    datas = [cell.data for cell in map(row.__getitem__, range(width))]
    text = "".join(datas)
    if len(text) == width and text.isascii():  # no wide, combined or placeholder cells
        return text.rstrip(" ")
    parts: list[str] = []
    end = 0  # next column to emit
    for x in sorted(row):
        if x >= columns:
            break
        if x < end:  # the right half of a wide character already emitted
            continue
        if x > end:
            parts.append(" " * (x - end))
        data = row[x].data
        if data == PLACEHOLDER:  # the right half of a wide character that is gone
            parts.append("" if keep_cut_wide else " ")
        elif data and char_width(data[0]) == 2:
            nxt = row.get(x + 1)
            if nxt is not None and nxt.data == PLACEHOLDER:
                parts.append(data)
                end = x + 2
                continue
            parts.append(data if keep_cut_wide else " ")
        else:
            parts.append(data)
        end = x + 1
    return "".join(parts).rstrip(" ")


class Buffer:
    """The rows of a screen by line number, scrolled in O(1) by moving an offset.

    It offers the part of the mapping interface pyte's :class:`~pyte.Screen` uses (a missing row
    is created on access, like pyte's ``defaultdict``).
    """

    __slots__ = ("_rows", "_offset")

    def __init__(self) -> None:
        self._rows: dict[int, Row] = {}
        self._offset = 0

    def __getitem__(self, y: int) -> Row:
        key = y + self._offset
        row = self._rows.get(key)
        if row is None:
            row = self._rows[key] = Row()
        return row

    def __setitem__(self, y: int, row: Row) -> None:
        self._rows[y + self._offset] = row

    def __contains__(self, y: object) -> bool:
        return isinstance(y, int) and y + self._offset in self._rows

    def get(self, y: int, default: Row | None = None) -> Row | None:
        return self._rows.get(y + self._offset, default)

    def pop(self, y: int, default: Row | None = None) -> Row | None:
        return self._rows.pop(y + self._offset, default)

    def clear(self) -> None:
        self._rows.clear()

    def values(self) -> list[Row]:
        return list(self._rows.values())

    def scroll_up(self) -> Row | None:
        """Drop row 0 and renumber every row one up (a full-screen scroll)."""
        row = self._rows.pop(self._offset, None)
        self._offset += 1
        return row


class OracleScreen(pyte.Screen):
    """A :class:`pyte.Screen` with unbounded scrollback, an alternate screen and a shown log."""

    def __init__(self, columns: int, lines: int, *, onlcr: bool = True, flavour: str = XTERM) -> None:
        if flavour not in FLAVOURS:
            raise ValueError(f"flavour must be one of {FLAVOURS}, not {flavour!r}")
        self.onlcr = onlcr
        self.xterm = flavour == XTERM
        self.width = char_width if self.xterm else tmux_char_width
        self.home_in_region = flavour != TMUX  # DECSTBM's home in origin mode
        # Without autowrap tmux drops a character that does not fit (issue 41); xterm's and alacritty's
        # flavours write it over the last column(s), as before.
        self.drops_unfit = flavour == TMUX
        self.output_lnm = False  # LNM set by the output itself
        self.scrollback: list[ShownLine] = []
        self.shown: list[ShownLine] = []
        self.clock = 0
        self.alternate = False
        self._main_buffer: Buffer | None = None
        self._alt_buffer: Buffer = Buffer()
        self._alt_cursor: tuple[int, int] | None = None  # tmux's 1049 cursor slot
        self._wrapping = False
        self._default_tabs = True
        self.last_char: str | None = None
        self.ambiguous: set[str] = set()
        self._zwj_pending = False
        super().__init__(columns, lines)
        self.buffer = Buffer()  # type: ignore[assignment]
        if onlcr:
            self.mode.add(mo.LNM)

    # -- the shown log -------------------------------------------------------------------------

    def _retire(self, row: Row | None) -> None:
        if row and row.born is not None:
            text = self._text(row)
            if text:
                self.shown.append(ShownLine(row.born, text))

    def _retire_rows(self, rows: range) -> None:
        buffer = self.buffer
        for y in rows:
            if y in buffer:
                self._retire(buffer[y])

    def _text(self, row: dict[int, Char] | None) -> str:
        return row_text(row, self.columns, keep_cut_wide=not self.xterm)

    # -- drawing -------------------------------------------------------------------------------

    def draw(self, data: str) -> None:
        self.clock += 1
        if self.charset:
            data = data.translate(self.g1_charset)
        elif self.g0_charset is not pyte.charsets.LAT1_MAP:
            translated = data.translate(self.g0_charset)
            if translated != data:
                self.ambiguous.add(DEC_GRAPHICS)
            data = translated
        if (
            mo.IRM not in self.mode
            and not self._zwj_pending
            and (data.isascii() or all(self.width(char) == 1 for char in set(data)))
        ):
            self._draw_narrow(data)
        else:
            for char in data:
                self._draw_char(char)
        if data:
            self.last_char = data[-1]

    def _row(self) -> Row:
        row: Row = self.buffer[self.cursor.y]  # type: ignore[assignment]
        if row.born is None:
            row.born = self._birth_time()
        row.used = True
        return row

    def _birth_time(self) -> float:
        """Now, or just before the earliest row below the cursor already written on this screen: a
        blank row filled in by a cursor-up redraw keeps its place above the rows written after it,
        while a row first written after an alternate screen came and went still follows that."""
        buffer, below = self.buffer, None
        for y in range(self.cursor.y + 1, self.lines):
            other = buffer.get(y)
            if other is not None and other.born is not None and (below is None or other.born < below):
                below = other.born
        return self.clock if below is None else min(self.clock, below - 0.5)

    def _wrap(self) -> None:
        self.carriage_return()
        self._wrapping = True
        self.index()
        self._wrapping = False

    def _draw_narrow(self, data: str) -> None:
        cursor = self.cursor
        columns = self.columns
        autowrap = mo.DECAWM in self.mode
        pos, length = 0, len(data)
        while pos < length:
            if cursor.x >= columns:
                if autowrap:
                    self._wrap()
                elif self.drops_unfit:
                    return  # tmux 3.3a: past the margin with autowrap off, nothing is written (see _draw_char)
                else:
                    cursor.x = columns - 1
            room = columns - cursor.x
            if not autowrap and length - pos > room:
                # Without autowrap every character past the margin overwrites the last column.
                chunk = data[pos : pos + room - 1] + data[-1]
                pos = length
            else:
                chunk = data[pos : pos + room]
                pos += len(chunk)
            row = self._row()
            x = cursor.x
            end = x + len(chunk)
            self._split_wide(row, x, end, write=True, collected=self._collected(chunk[0]))
            row.update(zip(range(x, end), map(_CELLS.__getitem__, chunk), strict=True))
            cursor.x = end if autowrap or end < columns else columns - 1

    def _collected(self, char: str) -> bool:
        """Whether tmux 3.3a writes ``char`` through its collect buffer: printable ASCII with
        autowrap on, insert mode off and no character set (else it goes cell by cell)."""
        return ("\x20" <= char < "\x7f" and mo.DECAWM in self.mode and mo.IRM not in self.mode
                and not self.charset and self.g0_charset is pyte.charsets.LAT1_MAP)

    def _split_wide(
        self, row: Row, start: int, end: int, *, write: bool = False, wide: bool = False, collected: bool = False,
    ) -> None:
        """Blank the other half of wide characters cut by overwriting or erasing ``start..end-1``."""
        first = row.get(start)
        if first is not None and first.data == PLACEHOLDER and start > 0:
            # tmux 3.3 keeps the left half when erasing, and when its collect buffer writes over a
            # character that starts in column 0 (that loop stops short of column 0); a character
            # written cell by cell (not ASCII, autowrap off, insert mode, a charset) blanks it.
            if self.xterm or wide or (write and (start > 1 or not collected)):
                row[start - 1] = BLANK
            self.ambiguous.add(WIDE_SPLIT)
        after = row.get(end)
        if after is not None and after.data == PLACEHOLDER:
            row[end] = BLANK

    def _draw_char(self, char: str) -> None:
        if char == ZWJ:
            self.ambiguous.add(ZWJ_SEQUENCE)
            if not self.xterm:
                self._zwj_pending = True
                return
        elif self._zwj_pending:
            self._zwj_pending = False
            if not char.isascii():
                self._join(ZWJ + char)
                return
        width = self.width(char)
        cursor = self.cursor
        if width > 0:
            wrapped = False
            if cursor.x + width > self.columns:
                if mo.DECAWM in self.mode:
                    self._wrap()
                    wrapped = True
                elif self.drops_unfit:
                    # tmux 3.3a (screen_write_cell): with autowrap off a character that does not fit is
                    # dropped and the cursor stays: a wide one in the last column, any one past the margin.
                    return
                else:
                    cursor.x = self.columns - width
            # tmux 3.3a writes a character that wrapped over the next row's first cell, insert mode or not
            if mo.IRM in self.mode and not (wrapped and not self.xterm):
                self.insert_characters(width)
            row = self._row()
            x = cursor.x
            self._split_wide(row, x, x + width, write=True, wide=width == 2, collected=self._collected(char))
            row[x] = _CELLS[char]
            if width == 2:
                row[x + 1] = STUB
            cursor.x = x + width
            if cursor.x >= self.columns and mo.DECAWM not in self.mode and self.drops_unfit:
                cursor.x = self.columns - 1  # tmux: without autowrap the cursor sticks at the last column
        elif width == 0 and cursor.x > 0:
            row = self._row()
            x = min(cursor.x, self.columns) - 1
            if row[x].data == PLACEHOLDER and x > 0:
                x -= 1
            row[x] = self._combined(row[x].data, char)
        # wcwidth -1 (C1 code points, other non-printables): invisible, as in tmux.

    def _join(self, text: str) -> None:
        """tmux 3.3: a zero-width joiner followed by a non-ASCII character joins both to the cell
        before the cursor (dropped at the start of a line); before an ASCII character it is dropped."""
        x = min(self.cursor.x, self.columns) - 1
        if x < 0:
            return
        row = self._row()
        if row[x].data == PLACEHOLDER and x > 0:
            x -= 1
        row[x] = self._combined(row[x].data, text)

    def _combined(self, data: str, marks: str) -> Char:
        """The cell ``data`` with ``marks`` added, as far as a cell holds them (see TMUX_CELL_BYTES)."""
        if self.xterm:
            if len(data) + len(marks) <= XTERM_CELL_CHARS:
                return _CELLS[data + marks]
            self.ambiguous.add(COMBINING_OVERFLOW)
        elif len((data + marks).encode("utf-8", "surrogatepass")) <= TMUX_CELL_BYTES:
            return _CELLS[data + marks]
        return _CELLS[data]

    def next_line(self) -> None:
        """NEL: a line feed that always returns the carriage (pyte maps it to LF, LNM or not)."""
        self.index()
        self.carriage_return()

    def vertical_feed(self) -> None:
        """VT and FF: onlcr leaves them alone; xterm returns the carriage under the output's own LNM
        (``CSI 20 h``), tmux ignores LNM."""
        self.index()
        if self.xterm and self.output_lnm:
            self.carriage_return()

    def repeat_character(self, count: int) -> None:
        """REP: repeat the preceding graphic character (pyte lacks it; tmux repeats ASCII only)."""
        if self.last_char is None:
            return
        count = min(count or 1, 65535)
        if not self.xterm:
            if not self.last_char.isascii():
                return
            count = min(count, max(self.columns - self.cursor.x, 0))  # tmux stops at the margin
        self.draw(self.last_char * count)

    def tab(self) -> None:
        if self.cursor.x >= self.columns - 1:
            return  # at the last column, or past it with a wrap pending: xterm and tmux stay put
        if not self._default_tabs:
            super().tab()
            return
        self.cursor.x = min((self.cursor.x // TAB_WIDTH + 1) * TAB_WIDTH, self.columns - 1)

    def set_tab_stop(self) -> None:
        self._default_tabs = False
        self.tabstops.add(min(self.cursor.x, self.columns - 1))

    def clear_tab_stop(self, how: int = 0) -> None:
        self._default_tabs = False
        super().clear_tab_stop(how)

    # -- cursor moves --------------------------------------------------------------------------
    # ``cursor.x == columns`` is a pending wrap: CUU/CUD/VPA end it (back to the last column);
    # see FLAVOURS for the rest.

    def _end_pending_wrap(self) -> None:
        if self.cursor.x >= self.columns:
            self.cursor.x = self.columns - 1

    def cursor_up(self, count: int | None = None) -> None:
        # The top margin stops the cursor only from inside the region (pyte stops it from above too).
        self._end_pending_wrap()
        top, _ = self.margins or Margins(0, self.lines - 1)
        limit = top if self.cursor.y >= top else 0
        self.cursor.y = max(self.cursor.y - (count or 1), limit)

    def cursor_down(self, count: int | None = None) -> None:
        self._end_pending_wrap()
        _, bottom = self.margins or Margins(0, self.lines - 1)
        limit = bottom if self.cursor.y <= bottom else self.lines - 1
        self.cursor.y = min(self.cursor.y + (count or 1), limit)

    def line_position_forward(self, count: int | None = None) -> None:
        """VPR: down ``count`` rows, ignoring the scrolling margins (xterm; pyte maps it to CUD)."""
        self._end_pending_wrap()
        self.cursor.y = min(self.cursor.y + (count or 1), self.lines - 1)

    def cursor_position(self, line: int | None = None, column: int | None = None) -> None:
        """CUP/HVP. In origin mode a row past the region's bottom stops there (xterm and tmux; pyte
        ignores the whole move)."""
        self.cursor.x = min((column or 1) - 1, self.columns - 1)
        self.cursor_to_line(line)

    def cursor_to_line(self, line: int | None = None) -> None:
        """VPA (and CUP's row), relative to the region in origin mode. tmux's VPA keeps a pending
        wrap (the column is left as it is)."""
        if self.xterm:
            self._end_pending_wrap()
        y = (line or 1) - 1
        if mo.DECOM in self.mode:
            top, bottom = self.margins or Margins(0, self.lines - 1)
            y = bottom if y > bottom - top else y + top
        self.cursor.y = min(y, self.lines - 1)

    def set_margins(self, top: int | None = None, bottom: int | None = None) -> None:
        """DECSTBM: an omitted or 0 top is row 1, an omitted bottom the last row (pyte keeps the
        previous region's); a region of one row is ignored. The cursor goes home: tmux to the
        screen's (0, 0) even in origin mode, xterm and alacritty to the region's."""
        if bottom == 0:
            # xterm reads a 0 bottom as the default (the last row), tmux as row 1 (then the region
            # is one row and ignored).
            self.ambiguous.add(DECSTBM_ZERO_BOTTOM)
            bottom = None if self.xterm else 1
        top = min(max((top or 1) - 1, 0), self.lines - 1)
        bottom = min((bottom or self.lines) - 1, self.lines - 1)
        if top >= bottom:
            return
        self.margins = None if top == 0 and bottom == self.lines - 1 else Margins(top, bottom)
        if self.home_in_region:
            self.cursor_position()
        else:
            self.cursor.x = self.cursor.y = 0

    def cursor_back(self, count: int | None = None) -> None:
        if self.xterm:
            self._end_pending_wrap()
        self.cursor.x = min(max(self.cursor.x - (count or 1), 0), self.columns - 1)

    # -- scrolling -----------------------------------------------------------------------------

    def index(self) -> None:
        if self.xterm:
            self._end_pending_wrap()
        if self._wrapping:
            self.buffer[self.cursor.y].wrapped = True  # only clearing the whole row ends it (tmux)
        top, bottom = self.margins or Margins(0, self.lines - 1)
        if self.cursor.y != bottom:
            if self.cursor.y < self.lines - 1:
                self.cursor.y += 1
            return
        buffer = self.buffer
        full_screen = top == 0 and bottom == self.lines - 1
        leaving = buffer.scroll_up() if full_screen else buffer.pop(top, None)
        if leaving and leaving.born is not None:
            text = self._text(leaving)
            if text:
                line = ShownLine(leaving.born, text)
                self.shown.append(line)
                # tmux moves the top line of any scrolling region of the main screen into history.
                if not self.alternate:
                    self.scrollback.append(line)
            elif not self.alternate:
                self.scrollback.append(ShownLine(leaving.born, ""))
        elif not self.alternate:
            self.scrollback.append(ShownLine(self.clock, ""))
        if not full_screen:
            for y in range(top, bottom):
                if y + 1 in buffer:
                    buffer[y] = buffer.pop(y + 1)

    def save_cursor(self) -> None:
        super().save_cursor()
        del self.savepoints[:-1]  # one saved cursor, as in xterm and tmux (pyte keeps a stack)

    def restore_cursor(self) -> None:
        if not self.savepoints:
            super().restore_cursor()
            return
        savepoint = self.savepoints[-1]
        saved_y = savepoint.cursor.y
        super().restore_cursor()
        # pyte clamps the restored row into the scrolling region (in the saved cursor itself); xterm
        # and tmux do not.
        self.cursor.y = savepoint.cursor.y = min(saved_y, self.lines - 1)
        # xterm and tmux restore the same position again on the next DECRC; pyte pops it, and hands
        # the saved cursor object itself to the screen, where later moves would change it.
        self.savepoints.append(savepoint)
        self.cursor = copy.copy(self.cursor)

    def reverse_index(self) -> None:
        if self.xterm:
            self._end_pending_wrap()
        top, bottom = self.margins or Margins(0, self.lines - 1)
        if self.cursor.y != top:
            if self.cursor.y > 0:
                self.cursor.y -= 1
            return
        buffer = self.buffer
        buffer.pop(bottom, None)  # pushed off the bottom: gone (tmux keeps no such line)
        for y in range(bottom, top, -1):
            if y - 1 in buffer:
                buffer[y] = buffer.pop(y - 1)

    def scroll_up(self, count: int) -> None:
        """SU: scroll the region up ``count`` lines (pyte lacks it)."""
        top, bottom = self.margins or Margins(0, self.lines - 1)
        saved = (self.cursor.x, self.cursor.y)
        self.cursor.y = bottom
        for _ in range(min(count or 1, bottom - top + 1)):
            self.index()
        self.cursor.x, self.cursor.y = saved

    def scroll_down(self, count: int) -> None:
        """SD: scroll the region down ``count`` lines (pyte lacks it)."""
        top, bottom = self.margins or Margins(0, self.lines - 1)
        saved = (self.cursor.x, self.cursor.y)
        self.cursor.y = top
        for _ in range(min(count or 1, bottom - top + 1)):
            self.reverse_index()
        self.cursor.x, self.cursor.y = saved

    def insert_lines(self, count: int | None = None) -> None:
        # pyte leaves a row in place when the row moving onto it is blank; hence no super().
        top, bottom = self._line_region()
        y = self.cursor.y
        if not top <= y <= bottom:
            return
        count = min(count or 1, bottom - y + 1)
        outside = self.margins is not None and not self.margins.top <= y <= self.margins.bottom
        if not self.xterm and outside and count == bottom - y + 1:
            # tmux 3.3a outside the region: moving no rows (grid_move_lines of 0) clears none either.
            self.ambiguous.add(INSERT_LINES_TO_BOTTOM)
            return
        self._move_rows(list(range(bottom - count, y - 1, -1)), count)
        for row_y in range(y, y + count):
            self.buffer.pop(row_y, None)
        if self.xterm:  # tmux leaves the cursor's column alone
            self.carriage_return()

    def delete_lines(self, count: int | None = None) -> None:
        top, bottom = self._line_region()
        y = self.cursor.y
        if not top <= y <= bottom:
            return
        count = min(count or 1, bottom - y + 1)
        for row_y in range(y, y + count):
            self.buffer.pop(row_y, None)
        self._move_rows(list(range(y + count, bottom + 1)), -count)
        if self.xterm:  # tmux leaves the cursor's column alone
            self.carriage_return()

    def _line_region(self) -> tuple[int, int]:
        """The rows IL and DL act on: the scrolling region; outside it, nothing in xterm and the
        rows from the cursor to the bottom of the screen in tmux."""
        top, bottom = self.margins or Margins(0, self.lines - 1)
        if not self.xterm and not top <= self.cursor.y <= bottom:
            return self.cursor.y, self.lines - 1
        return top, bottom

    def _move_rows(self, rows: list[int], step: int) -> None:
        """Move each of ``rows`` (in the order given) ``step`` rows down, leaving blanks behind."""
        buffer = self.buffer
        for row_y in rows:
            row = buffer.pop(row_y, None)
            if row is not None:
                buffer[row_y + step] = row
            else:
                buffer.pop(row_y + step, None)

    def insert_characters(self, count: int | None = None) -> None:
        if self.xterm:
            self._end_pending_wrap()
        if self.cursor.x < self.columns:  # tmux: with a wrap pending ICH does nothing
            self._flag_cut(self.cursor.x)
            if self.xterm or mo.IRM in self.mode:
                super().insert_characters(count)
                self.buffer[self.cursor.y].pop(self.columns, None)
            else:
                self._tmux_insert_characters(count or 1)

    def _tmux_insert_characters(self, count: int) -> None:
        """tmux 3.3a's ICH (``grid_view_insert_cells``): the cells after the cursor move right, and
        only as many cells as moved are blanked, so inserting more than half of what is left of the
        line leaves some old cells in place."""
        x, row = self.cursor.x, self._row_at_cursor()
        count = min(count, self.columns - x)
        if x >= self.columns - 1:
            row.pop(x, None)
            return
        moved = self.columns - x - count
        old = {col: row[col] for col in range(x, x + moved) if col in row}
        for col in range(x, x + min(moved, count)):
            row.pop(col, None)
        for col in range(x + count, self.columns):
            row.pop(col, None)
        for col, cell in old.items():
            row[col + count] = cell

    def _row_at_cursor(self) -> Row:
        return self.buffer[self.cursor.y]  # type: ignore[return-value]

    def delete_characters(self, count: int | None = None) -> None:
        if self.xterm:
            self._end_pending_wrap()
        if self.cursor.x < self.columns:  # tmux: with a wrap pending DCH does nothing
            self._flag_cut(self.cursor.x, self.cursor.x + (count or 1))
            super().delete_characters(count)

    def _flag_cut(self, *columns: int) -> None:
        """Flag ICH/DCH that separate a wide character's halves (terminals disagree on the result)."""
        row = self.buffer.get(self.cursor.y)
        if row and any(x > 0 and row.get(x, BLANK).data == PLACEHOLDER for x in columns):
            self.ambiguous.add(WIDE_SPLIT)

    def backspace(self) -> None:
        """BS. tmux 3.3a at column 0 goes back to the last column of the row above when that row
        wrapped into this one (xterm only with reverse-wraparound, mode 45, which is off)."""
        if self.cursor.x == 0 and self.cursor.y > 0:
            above = self.buffer.get(self.cursor.y - 1)
            if above is not None and above.wrapped:
                self.ambiguous.add(REVERSE_WRAP)
                if not self.xterm:
                    self.cursor.y -= 1
                    self.cursor.x = self.columns - 1
                    return
        self.cursor_back(1)

    # -- erasing (cells are removed: an erased cell renders like a never-written one) ----------

    def erase_in_line(self, how: int = 0, private: bool = False) -> None:
        if self.xterm:
            self._end_pending_wrap()
        row: Row = self.buffer[self.cursor.y]  # type: ignore[assignment]
        x = self.cursor.x  # tmux: with a wrap pending EL 0 erases nothing
        if how == 0:
            start, end = x, self.columns
        elif how == 1:
            start, end = 0, min(x + 1, self.columns)
        elif how == 2:
            row.clear()
            row.used = row.wrapped = False
            return
        else:
            return
        if start == 0 and end == self.columns:
            row.used = row.wrapped = False
        self._erase_cells(row, start, end)

    def erase_characters(self, count: int | None = None) -> None:
        if self.xterm:
            self._end_pending_wrap()
        row: Row = self.buffer[self.cursor.y]  # type: ignore[assignment]
        x = self.cursor.x
        if x < self.columns:  # tmux: with a wrap pending ECH erases nothing
            self._erase_cells(row, x, min(x + (count or 1), self.columns))

    def _erase_cells(self, row: Row, start: int, end: int) -> None:
        if not row:
            return
        self._split_wide(row, start, end)
        if end - start > len(row):
            for x in [x for x in row if start <= x < end]:
                del row[x]
        else:
            for x in range(start, end):
                row.pop(x, None)

    def erase_in_display(self, how: int = 0, *args: Any, **kwargs: Any) -> None:
        y = self.cursor.y
        clear = how == 2 or (how == 0 and y == 0 and self.cursor.x == 0)  # a page break
        if clear:
            rows = range(self.lines)
            self._retire_rows(rows)  # a cleared screen was shown
            if not self.xterm and not self.alternate:
                self._scroll_on_clear()
        elif how == 0:
            rows = range(y, self.lines)
        elif how == 1:
            rows = range(0, y + 1)
        else:
            if how == 3 and self.scrollback:
                # ED 3 erases the history in xterm and tmux. The shown log keeps every line that
                # was in it (the project's safe side); the xterm flavour's scrollback keeps it too
                # (docs/oracle.md, deviation 2), the tmux flavour's is erased as tmux's is.
                self.ambiguous.add(ERASED_SCROLLBACK)
                if not self.xterm:
                    self.scrollback = []
            return
        buffer = self.buffer
        for row_y in rows:
            if row_y != y or clear:
                buffer.pop(row_y, None)
        if not clear:
            self.erase_in_line(how)

    def _scroll_on_clear(self) -> None:
        """tmux's ``scroll-on-clear`` (on by default since 3.3): clearing the main screen scrolls its
        rows down to the last one written into the history (``grid_view_clear_history``)."""
        buffer = self.buffer
        used = [y for y in range(self.lines) if (row := buffer.get(y)) is not None and row.used]
        for y in range(used[-1] + 1 if used else 0):
            row = buffer.get(y)
            born = row.born if row is not None and row.born is not None else self.clock
            self.scrollback.append(ShownLine(born, self._text(row)))

    def alignment_display(self) -> None:
        self._retire_rows(range(self.lines))
        self.clock += 1
        for y in range(self.lines):
            row = Row()
            row.born = self.clock
            row.update(dict.fromkeys(range(self.columns), _CELLS["E"]))
            self.buffer[y] = row

    # -- modes ---------------------------------------------------------------------------------

    def reset(self) -> None:
        """RIS. xterm leaves the alternate screen; tmux 3.3a stays on it and clears it, and on the
        main screen clears as ED 2 does (scroll-on-clear pushes the screen into the history)."""
        alternate = False
        if hasattr(self, "shown"):
            self._retire_rows(range(self.lines))
            if self.alternate and self.xterm:
                self._leave_alternate()
                self._retire_rows(range(self.lines))
            elif not self.xterm:
                alternate = self.alternate
                if not alternate:
                    self._scroll_on_clear()
        if not alternate:
            self._main_buffer = None
        self.alternate = alternate
        self._default_tabs = True
        self.output_lnm = False
        self.last_char = None
        self._other_savepoints: list[Any] = []
        super().reset()
        self.savepoints = []  # RIS forgets the saved cursor (pyte's reset keeps it)
        if self.onlcr:
            self.mode.add(mo.LNM)

    def set_mode(self, *modes: int, **kwargs: Any) -> None:
        self._modes(modes, kwargs.get("private", False), enable=True)

    def reset_mode(self, *modes: int, **kwargs: Any) -> None:
        self._modes(modes, kwargs.get("private", False), enable=False)

    def _modes(self, modes: tuple[int, ...], private: bool, enable: bool) -> None:
        rest = []
        for mode in modes:
            if not private:
                if mode == mo.LNM:
                    self.output_lnm = enable
                    if self.onlcr:  # a program cannot switch off the pty's onlcr
                        continue
                rest.append(mode)
            elif mode in ALTERNATE_MODES:
                self._alternate_mode(mode, enable)
            elif mode << 5 == mo.DECCOLM:
                # tmux (and xterm without allowColumnMode' resize) clears and homes; no resize.
                self.erase_in_display(2)
                self.cursor_position()
            elif mode << 5 != mo.DECSCNM:  # reverse video changes no text
                rest.append(mode)
        if rest:
            if enable:
                super().set_mode(*rest, private=private)
            else:
                super().reset_mode(*rest, private=private)

    def _alternate_mode(self, mode: int, enable: bool) -> None:
        if mode == SAVE_CURSOR:
            self.ambiguous.add(SAVE_CURSOR_FLAG)
            if self.xterm:  # tmux 3.3a ignores 1048
                self.save_cursor() if enable else self.restore_cursor()
            return
        if not self.xterm:
            self._tmux_alternate(mode, enable)
            return
        if enable:
            if self.alternate:
                return
            if mode == ALTBUF_SAVE_CLEAR:
                self.save_cursor()
                self._alt_buffer = Buffer()
            self._main_buffer = self.buffer  # type: ignore[assignment]
            self.buffer = self._alt_buffer  # type: ignore[assignment]
            # xterm keeps one saved cursor per screen (DECSC on the alternate screen leaves the main
            # screen's alone).
            self._other_savepoints, self.savepoints = self.savepoints, getattr(self, "_other_savepoints", [])
            self.alternate = True
        else:
            if not self.alternate:
                return
            self._retire_rows(range(self.lines))
            if mode in (ALTBUF_CLEAR, ALTBUF_SAVE_CLEAR):
                self._alt_buffer = Buffer()
            self._leave_alternate()
            if mode == ALTBUF_SAVE_CLEAR:
                self.restore_cursor()

    def _tmux_alternate(self, mode: int, enable: bool) -> None:
        """tmux 3.3a (``screen_alternate_on/off``): 47, 1047 and 1049 all enter a cleared alternate
        screen and leave it for the main screen as it was; 1049 also saves the cursor in a slot of
        its own (not DECSC's, which both screens share) and restores it on leaving, even when not on
        the alternate screen then."""
        if enable:
            if self.alternate:
                return
            if mode == ALTBUF_SAVE_CLEAR:
                self._alt_cursor = (self.cursor.x, self.cursor.y)
            self._main_buffer = self.buffer  # type: ignore[assignment]
            self.buffer = Buffer()  # type: ignore[assignment]
            self.alternate = True
            return
        if mode == ALTBUF_SAVE_CLEAR and self._alt_cursor is not None:
            self.cursor.x, self.cursor.y = self._alt_cursor
        if self.alternate:
            self._retire_rows(range(self.lines))
            assert self._main_buffer is not None
            self.buffer = self._main_buffer  # type: ignore[assignment]
            self._main_buffer = None
            self.alternate = False
        self.cursor.x = min(self.cursor.x, self.columns - 1)
        self.cursor.y = min(self.cursor.y, self.lines - 1)

    def _leave_alternate(self) -> None:
        assert self._main_buffer is not None
        self.buffer = self._main_buffer  # type: ignore[assignment]
        self._main_buffer = None
        self._other_savepoints, self.savepoints = self.savepoints, getattr(self, "_other_savepoints", [])
        self.alternate = False

    # -- results -------------------------------------------------------------------------------

    def screen_lines(self) -> list[str]:
        """The visible rows, right-trimmed (trailing blank rows included)."""
        buffer = self.buffer
        return [self._text(buffer.get(y)) for y in range(self.lines)]

    def ever_shown(self) -> list[str]:
        """Every non-blank line the terminal showed, ordered by when the line was first drawn."""
        entries = list(self.shown)
        buffers = [self.buffer]
        if self.alternate and self._main_buffer is not None:
            buffers.insert(0, self._main_buffer)
        for buffer in buffers:
            for y in range(self.lines):
                row = buffer.get(y)
                if row and row.born is not None:
                    text = self._text(row)
                    if text:
                        entries.append(ShownLine(row.born, text))
        entries.sort(key=lambda line: line.born)  # stable: ties keep recording order
        return [line.text for line in entries]
