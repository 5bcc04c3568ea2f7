"""The independent verifier: what a terminal shows for a text, by its own per-token line model.

:func:`terminal_lines` renders the informative lines of ``docs/design.md``'s display model;
:func:`first_difference` compares a cleaner's candidate with them. The model is deliberately written
without looking at the cleaner (``cleaner.py``, ``redraw.py``): a check that resolved both sides with
the same rule could not catch that rule's bug. Only the *grammar* (where a sequence starts and ends)
is shared, through the grammar's tagged pattern (the one :func:`textclean.pipeline.grammar.scan` iterates) and
:func:`textclean.pipeline.grammar.parse`; what each sequence does is decided here.

How a row is held, cheapest first:

* **append**: the cursor is at the end of the row and has only moved forward; the row is a list of
  string pieces (``"".join`` at the end).
* **lazy**: the row is a plain string and the cursor is at a known column (after ``CR``, ``CHA`` or a
  vertical move); a write that covers the whole row, or lands at its end, goes back to *append*.
* **cells**: one list item per terminal cell, with sentinel characters for cells that are unwritten,
  the second half of a wide character, or skipped by a tab.

Every operation whose cost is not bounded by the input it consumes is charged to a work budget
proportional to the input length, so no input can make the model quadratic or blow up its memory
(``CSI 99999999 C`` then ``x``); exceeding the budget is unresolvable.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .. import grammar
from ..grammar import BEL, BS, C0_RANGE, C1_RANGE, CR, ESC, HT, LF
from ..model import MIN_COLUMNS, SCREEN_LINES, TAB_WIDTH, WORK_ALLOWANCE, WORK_PER_INPUT_CHAR
from ..names import (
    CHA,
    CUF,
    HPA,
    HPR,
)
from .compare import clip
from .fast import ALL, ROUTE_LIMIT, Shortcuts, append_only_lines, line_model_refuses, redrawn_lines, rows_lines
from .meaning import (
    ACTION_CACHE,
    IDLE_WHEN_APPENDING,
    INERT,
    REFUSE,
    STRING_SWALLOWS_ON,
    WIDTH,
    Refusal,
    action_for,
    all_narrow,
    closer,
    control_name,
    sequence_label,
    stable_width,
)

# Cell sentinels: C0 characters never reach a cell as content (they are controls or refused).
UNWRITTEN = "\x00"
WIDE_TAIL = "\x01"  # the right half of a wcwidth-2 character
TAB_TAIL = "\x02"  # a cell after the HT that skipped it (the HT itself sits in the first cell)
_TAILS = (WIDE_TAIL, TAB_TAIL)
_RENDER = str.maketrans({UNWRITTEN: " ", WIDE_TAIL: None, TAB_TAIL: None})

UNKNOWN_COLUMN = -1  # a column that depends on how wide a zero-width/ambiguous character is drawn

_CONTROL_RUN = re.compile(f"([{C0_RANGE}{C1_RANGE}]+)")
# CUF, HPR, CHA, HPA: where they stop depends on the right margin (the line model's fit at a known size)
_FORWARD_MOVE = grammar.csi_ending_in(CUF + HPR + CHA + HPA)
# grammar.scan's pattern, anchored at each ESC instead of searched for: scan's finditer tries every
# position (~120 ns per plain character) and retries every C1 string introducer to the end of the
# line (quadratic on runs of them). A sequence can only start at ESC or a C1 introducer, and a C1
# introducer is refused anyway, so matching at each ESC past the previous match yields exactly the
# sequences scan yields up to the first refusal (tests/test_verify.py checks this against scan).
_SEQUENCE_AT = grammar.match_at



# ---------------------------------------------------------------------------------------------------
# The screen



def _cells(row: str, disputed: int | None = None) -> int | None:
    """The cells a row's string takes (tabs to the next stop, an unwritten cell one). A zero-width or
    ambiguous character makes it None, unless ``disputed`` is given: then an ambiguous one counts that
    many cells and a zero-width one none."""
    col = 0
    for char in row:
        if char == HT:
            col = (col // TAB_WIDTH + 1) * TAB_WIDTH
        elif char == UNWRITTEN:
            col += 1
        else:
            width = WIDTH[char]
            if width < 1:
                if disputed is None:
                    return None
                width = disputed if width < 0 else 0
            col += width
    return col

class _Screen:
    """Rows from the first row of the output down, and a cursor; see the module docstring for modes."""

    def __init__(self, input_length: int) -> None:
        self.rows: list[str | list[str]] = [""]
        self.row = 0
        self.pieces: list[str] | None = []  # not None: append mode on the cursor's row
        self.col = 0  # the cursor column in lazy and cells mode (or UNKNOWN_COLUMN)
        self.saved: tuple[int, int, int] | None = None
        self.work_left = WORK_ALLOWANCE + WORK_PER_INPUT_CHAR * input_length
        self.offset = 0  # where the token being applied starts, for messages
        self.token = ""  # the token being applied, for messages
        self.operations = {
            "erase_in_line": self.erase_in_line,
            "erase_characters": self.erase_characters,
            "cursor_to_column": self.cursor_to_column,
            "cursor_forward": self.cursor_forward,
            "cursor_back": self.cursor_back,
            "move_rows": self.move_rows,
            "move_rows_home": self.move_rows_home,
            "save_cursor": self.save_cursor,
            "restore_cursor": self.restore_cursor,
            "clear_before_output": self.clear_before_output,
            "autowrap_off": self.autowrap_off,
            STRING_SWALLOWS_ON: self.string_swallows_on,
        }
        self.text = ""  # the whole page, for what follows a swallowing string
        self.unknown_width = False  # the terminal's width is unknown (at least MIN_COLUMNS, may wrap there)
        self.terminal = True  # False: no terminal (a pipe, a log viewer), where strings end at BEL
        self.narrow_rows: dict[int, str] = {}  # rows (by index) measured within MIN_COLUMNS

    # -- errors and budget ---------------------------------------------------------------------------

    def refuse(self, detail: str, disputed: bool = False) -> Refusal:
        return Refusal(f"{_describe_token(self.token)} at offset {self.offset}: {detail}", self.offset, disputed)

    def charge(self, cells: int) -> None:
        self.work_left -= cells
        if self.work_left < 0:
            raise self.refuse("redraws need more work than the model allows for this input size")

    def padding(self, cells: int) -> str:
        self.charge(cells)
        return UNWRITTEN * cells

    def string_swallows_on(self, _count: int = 0) -> None:
        """At a terminal, a string tmux does not end where the grammar does: tmux swallows what follows
        it, up to the next ESC (SOS, PM, APC: ``AB ESC _ x BEL CD ESC [ m EF`` shows ``ABEF``) or up to
        ST (DCS: ``ESC \\``). Agreed only where nothing but that follows (or the text ends)."""
        if not self.terminal and self.token[-1] == BEL:
            return  # no terminal: a log viewer ends it at BEL (a DCS cancelled by CAN / SUB stays refused)
        end = self.offset + len(self.token)
        after = self.text[end:end + 2]
        if after and not after.startswith(closer(self.token)):
            detail = f"text at offset {end} that tmux swallows with the string before it"
            raise self.refuse(detail, disputed=True)

    # -- mode changes --------------------------------------------------------------------------------

    def end_append(self) -> None:
        """Leave append mode, if in it (the caller sets ``col``)."""
        pieces = self.pieces
        if pieces is None:
            return
        if len(pieces) == 1:
            self.rows[self.row] = pieces[0]
        else:
            text = self.rows[self.row] = "".join(pieces)
            self.charge(len(text))
        self.pieces = None

    def cursor_column(self) -> int:
        """The cursor column, leaving append mode (UNKNOWN_COLUMN past a zero-width/ambiguous char)."""
        if self.pieces is None:
            return self.col
        self.end_append()
        row = self.rows[self.row]
        assert isinstance(row, str)
        width = self.row_width(row)
        self.col = UNKNOWN_COLUMN if width is None else width
        return self.col

    def known_column(self) -> int:
        col = self.cursor_column()
        if col == UNKNOWN_COLUMN:
            raise self.refuse("cursor column depends on the width of a zero-width or ambiguous character")
        return col

    def row_width(self, row: str) -> int | None:
        if all_narrow(row):
            return len(row)
        self.charge(len(row))
        return _cells(row)

    def cells(self) -> list[str]:
        """The cursor's row as cells (not in append mode), converting a lazy string row once."""
        row = self.rows[self.row]
        if isinstance(row, list):
            return row
        self.charge(len(row))
        if all_narrow(row):
            cells = list(row)
        else:
            cells = []
            for char in row:
                if char == HT:
                    cells.append(HT)
                    cells.extend(TAB_TAIL * (-len(cells) % TAB_WIDTH))
                elif char == UNWRITTEN:
                    cells.append(UNWRITTEN)
                else:
                    width = WIDTH[char]
                    if width == 1:
                        cells.append(char)
                    elif width == 2:
                        cells += (char, WIDE_TAIL)
                    else:
                        raise self.refuse(
                            f"cursor movement on a line holding zero-width or ambiguous U+{ord(char):04X}"
                        )
        self.rows[self.row] = cells
        return cells

    # -- writing -------------------------------------------------------------------------------------

    def write(self, text: str) -> None:
        if self.pieces is not None:
            self.pieces.append(text)
            return
        col = self.col
        if col == UNKNOWN_COLUMN:
            raise self.refuse("cursor column depends on the width of a zero-width or ambiguous character")
        row = self.rows[self.row]
        if col == 0 and self.covers(text, row):
            self.pieces = [text]
            return
        if isinstance(row, str) and col >= len(row) and all_narrow(row):
            self.pieces = [row, self.padding(col - len(row)), text]
            return
        cells = self.cells()
        if all_narrow(text):
            end = col + len(text)
            self.make_room(cells, col, end)
            cells[col:end] = text
            self.col = end
            return
        for char in text:
            width = WIDTH[char]
            if width not in (1, 2):
                raise self.refuse(f"zero-width or ambiguous U+{ord(char):04X} written on a redrawn line")
            end = col + width
            self.make_room(cells, col, end)
            cells[col:end] = char if width == 1 else (char, WIDE_TAIL)
            col = end
        self.col = col

    def covers(self, text: str, row: str | list[str]) -> bool:
        """Whether ``text`` written from column 0 replaces every cell of ``row`` (and splits no tab)."""
        width = stable_width(text)
        if width is None or width < len(row):
            return False
        self.charge(len(row))
        if isinstance(row, str):
            return all_narrow(row)  # its length is its width only then
        flat = "".join(row)
        return HT not in flat and TAB_TAIL not in flat

    def make_room(self, cells: list[str], start: int, end: int) -> None:
        """Check that writing cells ``start:end`` splits no wide character or tab; pad up to ``start``."""
        length = len(cells)
        self.charge(end - start)
        if start > length:
            cells.extend(self.padding(start - length))
        elif start < length:
            covered = "".join(cells[start:end])
            if HT in covered or TAB_TAIL in covered:
                raise self.refuse("overwrites cells a tab skipped")
            if covered[0] == WIDE_TAIL or (end < length and cells[end] == WIDE_TAIL):
                raise self.refuse("overwrites part of a wide character")

    def tab(self) -> None:
        if self.pieces is not None:
            self.pieces.append(HT)
            return
        row = self.rows[self.row]
        col = self.known_column()
        if isinstance(row, str) and col >= len(row) and all_narrow(row):
            self.pieces = [row, self.padding(col - len(row)), HT]
            return
        cells = self.cells()
        stop = (col // TAB_WIDTH + 1) * TAB_WIDTH
        length = len(cells)
        self.charge(stop - col)
        if col > length:
            cells.extend(self.padding(col - length))
        elif col < length and "".join(cells[col:stop]).strip(UNWRITTEN):
            raise self.refuse("tab skips over written cells")
        cells[col:stop] = HT + TAB_TAIL * (stop - col - 1)
        self.col = stop

    # -- horizontal moves ----------------------------------------------------------------------------

    def check_layout(self, low: int, high: int | None = None, cursor: bool = True) -> None:
        """Width unknown: a row past column 80 wraps on an 80-column terminal, so a column- or
        row-dependent operation on it (or across it) is undecided; appending to it stays decided."""
        if not self.unknown_width:
            return
        if high is None or high == low:
            if self.pieces is None or low != self.row:
                row = self.rows[low]
                if len(row) <= MIN_COLUMNS and (isinstance(row, list) or (row.isascii() and HT not in row)) and (
                        not cursor or low != self.row or self.col < MIN_COLUMNS):
                    return  # the common case, without a loop: a short row of one cell per item
            high = low
        low, high = max(min(low, high), 0), min(max(low, high), len(self.rows) - 1)
        checked = self.narrow_rows
        for index in range(low, high + 1):
            if index == self.row and self.pieces is not None:
                self.end_append()
                self.col = self.cursor_column_of_row()
            if cursor and index == self.row and self.col >= MIN_COLUMNS:
                raise self.refuse(f"acts from column {self.col + 1} of a terminal of unknown width")
            row = self.rows[index]
            if len(row) <= MIN_COLUMNS // 2 or checked.get(index) is row:
                continue
            width: int | None
            if isinstance(row, list) or (row.isascii() and HT not in row):
                width = len(row)  # one cell per item (a cell list) or per character (ASCII, no tab)
            else:
                width = self.row_width(row)
            if width is None or width > MIN_COLUMNS:
                raise self.refuse(f"acts on a row past column {MIN_COLUMNS} of a terminal of unknown width")
            if isinstance(row, str):
                checked[index] = row  # immutable: measured once

    def cursor_column_of_row(self) -> int:
        row = self.rows[self.row]
        assert isinstance(row, str)
        width = self.row_width(row)
        return UNKNOWN_COLUMN if width is None else width

    def carriage_return(self, before_lf: bool = False) -> None:
        self.end_append()
        if self.unknown_width and not before_lf:
            row = self.rows[self.row]
            if len(row) > MIN_COLUMNS or not (isinstance(row, list) or (row.isascii() and HT not in row)):
                self.check_layout(self.row, cursor=False)
        self.col = 0

    def cursor_back(self, count: int) -> None:
        col = self.col if self.pieces is None else self.cursor_column()
        self.check_layout(self.row)
        if col != UNKNOWN_COLUMN:
            self.col = col - count if col > count else 0

    def cursor_forward(self, count: int) -> None:
        # Leaves append mode: the target column decides (past the narrowest terminal's margin, or not).
        # A row a move succeeds on is under MIN_COLUMNS cells, so measuring it each time stays cheap.
        col = self.known_column() + count
        self.check_within_narrowest(col)
        self.col = col

    def cursor_to_column(self, column: int) -> None:
        self.end_append()
        self.check_layout(self.row)
        self.col = column - 1
        self.check_within_narrowest(self.col)

    def check_within_narrowest(self, col: int) -> None:
        """A move into empty cells past the narrowest terminal's last column stops at the right margin
        there: where it lands depends on the terminal's width."""
        if col < MIN_COLUMNS or not self.unknown_width:
            return  # a known width is the screen model's; no terminal has no right margin
        width = len(self.cells())  # a list from now on: the next check costs nothing
        if col > width:
            raise self.refuse(f"moves to column {col + 1}, past the row's text and past column {MIN_COLUMNS}")

    # -- erasing -------------------------------------------------------------------------------------

    def erase_in_line(self, mode: int) -> None:
        if self.pieces is not None:
            if mode == 0:  # nothing is written right of the cursor in append mode
                return
            self.cursor_column()  # EL 1 and EL 2 both erase the whole row from the end
            self.check_layout(self.row)
            self.rows[self.row] = ""
            return
        row = self.rows[self.row]
        if not row:
            return
        self.check_layout(self.row)
        if mode == 2 or (mode == 0 and self.col == 0):
            self.rows[self.row] = ""
            return
        col = self.known_column()
        if mode == 0 and isinstance(row, str) and all_narrow(row):
            self.charge(col)
            self.rows[self.row] = row[:col]
            return
        cells = self.cells()
        if mode == 0:
            self.erase(cells, col, len(cells))
        else:
            self.erase(cells, 0, col + 1)

    def erase_characters(self, count: int) -> None:
        if self.pieces is not None or not self.rows[self.row]:
            return
        self.check_layout(self.row)
        col = self.known_column()
        self.erase(self.cells(), col, col + count)

    def erase(self, cells: list[str], start: int, end: int) -> None:
        length = len(cells)
        end = min(end, length)
        if start >= end:
            return
        if cells[start] in _TAILS or (end < length and cells[end] in _TAILS):
            raise self.refuse("erases part of a wide character or of a tab")
        self.charge(end - start)
        if end == length:
            del cells[start:]
        else:
            cells[start:end] = UNWRITTEN * (end - start)

    # -- rows ----------------------------------------------------------------------------------------

    def line_feed(self, offset: int) -> None:
        self.end_append()
        if self.row == len(self.rows) - 1:
            self.rows.append("")
            self.row += 1
            self.pieces = []
        else:
            if self.unknown_width:
                self.check_wrap_below(offset)
            self.row += 1
            self.col = 0

    def widest(self, row: str | list[str]) -> int:
        """The most cells ``row`` may take: 2 for a character terminals disagree on (a cell list is exact)."""
        if isinstance(row, list) or (row.isascii() and HT not in row):
            return len(row)
        self.charge(len(row))
        cells = _cells(row, disputed=2)
        assert cells is not None
        return cells

    def check_wrap_below(self, line_feed_at: int) -> None:
        """Width unknown, F19: the cursor's row past column 80 with rows below it wraps, on an
        80-column terminal, over the row below: a line feed from it (at offset ``line_feed_at``) lands
        a row lower than here, and at the end (-1) the row below shows joined to it if it holds cells."""
        row = self.rows[self.row]
        if self.row == len(self.rows) - 1 or len(row) <= MIN_COLUMNS // 2:
            return
        width = self.widest(row)
        if width <= MIN_COLUMNS:
            return
        reach = self.rows[self.row + 1:self.row + 1 + (width - 1) // MIN_COLUMNS]
        if line_feed_at >= 0 or any(reach):
            where = f"LF at offset {line_feed_at}" if line_feed_at >= 0 else "at the end"
            raise Refusal(f"{where}: a row past column {MIN_COLUMNS} above rows already written (an "
                          f"{MIN_COLUMNS}-column terminal wraps it onto the row below)",
                          line_feed_at if line_feed_at >= 0 else None)

    def check_row(self, target: int) -> None:
        lowest = len(self.rows) - 1
        if target < 0:
            raise self.refuse("moves above the first row of the output")
        if target > lowest:
            raise self.refuse("moves below the lowest row written so far")
        if target < lowest - (SCREEN_LINES - 1):
            raise self.refuse(f"moves more than {SCREEN_LINES - 1} rows above the lowest row")

    def move_rows(self, delta: int) -> None:
        """CUU, CUD, VPR, RI: ``delta`` rows down (negative: up), same column."""
        target = self.row + delta
        self.check_row(target)
        self.check_layout(self.row, target)
        self.col = self.col if self.pieces is None and self.col != UNKNOWN_COLUMN else self.known_column()
        self.row = target

    def move_rows_home(self, delta: int) -> None:
        """CNL, CPL: ``delta`` rows down (negative: up), to column 0."""
        target = self.row + delta
        self.check_row(target)
        self.check_layout(self.row, target)
        self.end_append()
        self.row = target
        self.col = 0

    def save_cursor(self, _count: int = 0) -> None:
        self.saved = (self.row, self.known_column(), len(self.rows))

    def restore_cursor(self, _count: int = 0) -> None:
        if self.saved is None:
            raise self.refuse("restores a cursor position that was never saved")
        row, col, rows_then = self.saved
        if len(self.rows) != rows_then:
            # DECSC saves a screen position: once a new row may have scrolled the screen, the saved
            # row holds other content (the terminal's height and starting row are unknown).
            raise self.refuse("restores a screen position after new rows may have scrolled the screen")
        self.check_row(row)
        self.check_layout(self.row, row)
        self.end_append()
        self.row = row
        self.col = col

    # -- controls and output -------------------------------------------------------------------------

    def clear_before_output(self, _count: int = 0) -> None:
        """A screen clear or cursor home before the output wrote anything hides none of it."""
        row = self.rows[0]
        untouched = (
            len(self.rows) == 1
            and not row
            and (not self.pieces if self.pieces is not None else self.col == 0)
        )
        if not untouched:
            raise self.refuse("clears or homes the screen after the output began")

    def autowrap_off(self, _count: int = 0) -> None:
        """DECRST 7: past the right margin a row then overwrites its last cell, so at an unknown width
        a row past column 80 shows differently on an 80-column terminal; the screen model decides."""
        if self.unknown_width:
            raise self.refuse("autowrap off at an unknown width")

    def ends_line(self, at: int) -> bool:
        """Whether a CR run ending at ``at`` only ends its row: LF or the end of the text follows it
        (docs/design.md: CRs before LF, or at the very end, are harmless)."""
        return at == len(self.text) or self.text.startswith(LF, at)

    def control_run(self, run: str) -> None:
        """Apply a run of C0/C1 characters (a homogeneous run of CR, BS or BEL at once)."""
        if run == CR:
            self.carriage_return(self.ends_line(self.offset + 1))
            return
        if run == BS:
            self.cursor_back(1)
            return
        first = run[0]
        if first == CR and run.count(CR) == len(run):
            self.carriage_return(self.ends_line(self.offset + len(run)))
            return
        if first == BS and run.count(BS) == len(run):
            self.cursor_back(len(run))
            return
        # the CRs that end the run, before LF or the end of the text, only end the row
        ending = len(run) - len(run.rstrip(CR)) if self.ends_line(self.offset + len(run)) else 0
        for index, char in enumerate(run):
            if char == CR:
                self.carriage_return(index >= len(run) - ending)
            elif char == BS:
                self.cursor_back(1)
            elif char == HT:
                self.tab()
            elif char != BEL:
                self.offset += index
                self.token = char
                raise self.refuse("unsupported control")

    def informative_lines(self) -> list[str]:
        self.end_append()
        if self.unknown_width:
            self.check_wrap_below(-1)
        lines = []
        for row in self.rows:
            if isinstance(row, list):
                text = "".join(row).rstrip(UNWRITTEN).translate(_RENDER)
            elif UNWRITTEN in row:
                text = row.rstrip(UNWRITTEN).replace(UNWRITTEN, " ")
            else:
                text = row
            if text.strip(" \t"):
                lines.append(text)
        return lines


def _describe_token(token: str) -> str:
    if len(token) == 1 and (token < " " or "\x80" <= token <= "\x9f"):
        return control_name(token)
    if token.startswith(ESC) and len(token) > 1:
        return sequence_label(grammar.parse(token))
    return f"text {clip(token)}"


# ---------------------------------------------------------------------------------------------------
# Feeding text


def _feed_gap(screen: _Screen, gap: str, offset: int) -> None:
    """Text between sequences: printable runs and runs of C0/C1 controls."""
    if gap.isprintable():
        screen.offset = offset
        screen.token = gap
        screen.write(gap)
        return
    position = 0
    # lazily, run by run: a refusal early in a long gap stops there (a split would list every run first)
    for found in _CONTROL_RUN.finditer(gap):
        start, end = found.span()
        if start > position:
            screen.offset = offset + position
            screen.token = gap[position:start]
            screen.write(screen.token)
        screen.offset = offset + start
        screen.token = found.group()
        screen.control_run(screen.token)
        position = end
    if position < len(gap):
        screen.offset = offset + position
        screen.token = gap[position:]
        screen.write(screen.token)


def _feed_line(screen: _Screen, line: str, offset: int) -> None:
    """One line (no LF): the text between sequences, and each sequence found at an ESC."""
    operations = screen.operations
    pieces = screen.pieces  # kept in step with screen.pieces: the common path appends without a call
    position = 0
    escape = line.find(ESC)
    while escape >= 0:
        if escape > position:
            gap = line[position:escape]
            if pieces is not None and gap.isprintable():
                pieces.append(gap)
            else:
                _feed_gap(screen, gap, offset + position)
                pieces = screen.pieces
        found = _SEQUENCE_AT(line, escape)
        if found is None:
            screen.offset = offset + escape
            screen.token = ESC
            raise screen.refuse("malformed or truncated escape sequence")
        position = found.end()
        text = line[escape:position]
        if pieces is None or text not in IDLE_WHEN_APPENDING:
            action = ACTION_CACHE.get(text) or action_for(text)
            if action.op == REFUSE:
                raise Refusal(f"{action.detail} at offset {offset + escape}", offset + escape, action.disagree)
            if action.op != INERT and (pieces is None or not action.idle_when_appending):
                screen.offset = offset + escape
                screen.token = text
                operations[action.op](action.number)
                pieces = screen.pieces
        escape = line.find(ESC, position)
    if position < len(line):
        _feed_gap(screen, line[position:], offset + position)


def line_model(text: str, unknown_width: bool = False, terminal: bool = True,
                shortcuts: Shortcuts = ALL, route: bool = False) -> list[str] | None:
    """Informative lines of a single page by the line model (today's fast path).

    Resolved, blank ones (empty or only spaces/tabs) dropped. Written spaces are kept (no right-trim of
    written spaces); never-written/erased cells are dropped at line end and render as ' ' inside a line.
    Tabs kept literally. Raises :class:`Refusal` for everything design.md lists as out of scope or
    unresolvable. ``route``: None where the token walk is sure to refuse (the caller goes on to the
    screen model and asks :func:`line_refusal` for the refusal only if it needs it).
    """
    lines = append_only_lines(text) if shortcuts.append else None  # no column depends on the width
    if lines is None and shortcuts.overlay:
        lines = redrawn_lines(text, MIN_COLUMNS if unknown_width else None)
    if lines is None and shortcuts.rows:
        lines = rows_lines(text, MIN_COLUMNS if unknown_width else None)
    if lines is None and route and shortcuts.route and len(text) <= ROUTE_LIMIT and line_model_refuses(text):
        return None
    return model_lines(text, unknown_width, terminal) if lines is None else lines


def model_lines(text: str, unknown_width: bool = False, terminal: bool = True) -> list[str]:
    """:func:`terminal_lines` by the line model, token by token."""
    screen = _Screen(len(text))
    screen.text = text
    screen.unknown_width = unknown_width
    screen.terminal = terminal
    try:
        return _feed_lines(screen, text)
    finally:
        screen.operations.clear()  # its bound methods hold the screen: free its rows now, not at a GC


def _feed_lines(screen: _Screen, text: str) -> list[str]:
    offset = 0
    while True:  # line by line without a list of every line (memory)
        end = text.find(LF, offset)
        line = text[offset:] if end < 0 else text[offset:end]
        if line:
            if screen.pieces is not None and line.isprintable():
                screen.pieces.append(line)
            else:
                _feed_line(screen, line, offset)
        if end < 0:
            return screen.informative_lines()
        screen.line_feed(end)
        offset = end + 1


def line_model_fits(text: str, columns: int | None, rows: int | None) -> bool:
    """Whether the line model's assumptions (>= 24 rows, no row reaching the right margin) hold."""
    if rows is not None and rows < SCREEN_LINES:
        return False
    if columns is None:
        return True
    if _FORWARD_MOVE.search(text):
        return False  # a cursor move past the margin would stop at it: the line model does not know
    factor = 1 if text.isascii() else 2
    if "\t" not in text:
        return max(map(len, text.split(LF))) * factor < columns
    return all((len(line) + (TAB_WIDTH - 1) * line.count(HT)) * factor < columns for line in text.split(LF))


def line_refusal(text: str, unknown_width: bool, terminal: bool) -> Refusal:
    """The line model's refusal of a text :func:`line_model` routed on (found by the walk only where a
    message needs it)."""
    try:
        model_lines(text, unknown_width, terminal)
    except Refusal as exc:
        return exc
    return Refusal("the line model was expected to refuse this text")  # not reached (tested)


def first_page(
    text: str, columns: int | None, rows: int | None, terminal: bool, shortcuts: Shortcuts = ALL,
) -> tuple[list[str] | None, Callable[[], Refusal] | None]:
    """The line model's answer where its assumptions hold: its lines, or None and how to get its
    refusal (the walk runs again only where a message needs it); ``(None, None)`` where the line model
    does not apply. A disputed refusal is raised (final)."""
    if not line_model_fits(text, columns, rows):
        return None, None
    unknown_width = terminal and columns is None
    try:
        lines = line_model(text, unknown_width, terminal, shortcuts, route=True)
    except Refusal as exc:
        if exc.disputed:
            raise
        found = exc
        return None, lambda: found
    if lines is None:
        return None, lambda: line_refusal(text, unknown_width, terminal)
    return lines, None


