"""The verifier's own reading of cut points (issue 40), for text written for no terminal.

Written apart from the cleaner's finder (``pipeline/clean/cut_finder.py``), on the verifier's action table
(:func:`.meaning.action_for`): a stream is released only up to a line end both confirm.

A line end is a cut point here when, at it:

* the cursor was on the bottom row (the lowest row any output reached) and the line feed opened a
  new one below it: column 0, no sequence or string open;
* every sequence before it had an action the verifier's table reads in place: inert (strings of every
  kind end at BEL for no terminal), an erase or move within the row (EL, ECH, CHA / HPA, CUF, CUB),
  or rows moved relative to the cursor (CUU, CUD, CNL, CPL, RI) staying within the 24 rows above the
  bottom row and not below it; C0 controls other than LF, CR, BS, HT and BEL, any C1 control, a ZWJ,
  an ESC that starts no complete sequence, a cancelled string, or a sequence left to the walk, end
  the reading (no cut from there on);
* the rows above it are settled: no row within 24 of it was redrawn (written over, erased, moved
  onto) before it, or the bottom row has since moved 24 rows below it without the cursor going back
  above it.

With ``in_place_rows`` (the stream's reading; a message's kept stretches read without it), a bottom row
whose redraws all stayed on it is not counted as redrawn when, at its line feed, its cells are exactly
what writing its text left to right gives, so the cleaned text holds the same cells and a later move
up into it acts alike on both. Its cells are followed from the line feed that opened it (the first
row from the start, blank, the cursor at its start) through printable ASCII, CR, BS, CHA / HPA / CUF /
CUB, EL 0-2 and ECH; it must hold a character in every column from the first to its last, that one not
a space, and something must have gone back over characters in it (a row redrawn only before its first
character is a bar's first frame, which nested bars come back up to from below). A row left blank or
with a gap or a trailing space, or one no longer followed (moved into or out of, a tab, any other
character, ED 0, at a terminal the last column or a wrap) counts as redrawn.

At a terminal of a known size (``columns`` x ``rows``) the rows are the terminal's: a line passing the
last column goes on in the row below (the verifier's own widths, :data:`.meaning.WIDTH`), and "24"
becomes the screen's height. A blank row is a redrawn one there: a cleaned text may hold a run of blank
rows as fewer (scrolled into history), so rows counted up from a cut past it (a move clamped at the
screen's top) would not be the raw's (F42-4). The reading ends at a character whose width terminals dispute, a wide
one at the last column, a zero-width one with no cell before it (a wrap above the bottom row goes on
in the row below, as a line feed there does),
anything but text, CR, LF, CHA, a row move or EL 2 while the cursor waits at the margin to wrap (a row
move or EL 2 there leaves the column in dispute, tmux past the margin, xterm on it: then text, or
anything but those, CNL and CPL ends the reading), BS at the first column of a row a wrapped line
goes on in (tmux moves up into the row before), and a DCS, SOS, PM or APC string (tmux reads those on
past BEL; OSC ends at BEL there too). An erase on a row of a wrapped line (terminals keep or drop the
join) reads on: it touches the row, so no line end within reach of it is settled until the rows
below it are out of reach, and whether the line shows joined is the gate's verdict on its stretch.

At a terminal of a known size, a clear of the whole screen next to a move home (``CSI 2 J`` and ``CSI
H`` / ``CSI 1;1 H``, either order, ``CSI 3 J`` after them allowed) is a cut point where it starts: the
rows before it are cleared off the screen, and the reading goes on from a blank page whose first row is
the screen's top.
"""

from __future__ import annotations

import functools
import re

from .. import grammar
from ..grammar import Kind
from ..model import SCREEN_LINES
from ..names import CUP, HVP
from .meaning import INERT, WIDTH, action_for, all_narrow

__all__ = ["CutCheck"]

# text with plain SGR between (SGR acts on nothing the reading counts): read in one turn, the SGR taken out
_TEXT_AND_SGR = re.compile(f"(?:[^\\x00-\\x1f\\x7f-\\x9f\\u200d]+|{grammar.SGR_ONLY.pattern})+")
_IN_ROW = frozenset(("erase_in_line", "erase_characters", "cursor_to_column", "cursor_forward", "cursor_back"))
_ROWS = frozenset(("move_rows", "move_rows_home"))
_STRINGS = frozenset((Kind.OSC, Kind.DCS, Kind.SOS, Kind.PM, Kind.APC))
_TAB = 8
_WHOLE_SCREEN = "\x1b[2J"
_SCROLLBACK = "\x1b[3J"
_ONE_CELL_RUN = re.compile("[ -~]*")  # printable ASCII: one cell each, in every terminal and in the cleaned text
_LINE_REACH = 4096  # for no terminal: the bottom row's cells are followed up to this column, no further


def _parsed(sequence: str) -> grammar.Sequence:
    return grammar.parse(sequence)


# a stream repeats a few short sequences (SGR, EL, CUU) over and over (their actions: meaning's cache)
_cached_parsed = functools.lru_cache(maxsize=4096)(_parsed)
_CACHED_LENGTH = 64  # longer ones (strings) are read each time, not kept


def _home(sequence: str) -> bool:
    """CUP / HVP to row 1, column 1 in any plain spelling (``CSI H``, ``CSI 1;1 H``, ``CSI ;01 f``)."""
    if sequence[-1] not in (CUP, HVP):
        return False  # (most sequences: no parse)
    seq = grammar.parse(sequence)
    if seq.kind is not Kind.CSI or seq.private or seq.intermediates or seq.final not in (CUP, HVP):
        return False
    fields = seq.params.split(";")
    return len(fields) <= 2 and all(field == "" or (field.isdigit() and field.lstrip("0") in ("", "1"))
                                    for field in fields)


class CutCheck:
    """Feed it the text as it arrives; :meth:`feed` answers the line ends it confirms as cut points
    (offsets into the whole text). ``ended``: why it confirms no more (None while it reads on)."""

    def __init__(self, limit: int = 1 << 20, *, columns: int | None = None, rows: int | None = None,
                 in_place_rows: bool = False) -> None:
        sized = columns is not None and rows is not None
        if not sized and (columns is not None or rows is not None) or sized and min(columns or 0, rows or 0) < 2:
            raise ValueError("cut points at a terminal take its columns and rows, 2 or more each")
        self.ended: str | None = None
        self.clears: list[int] = []  # the cut points answered where a homing clear starts (callers may empty it)
        self._margin = columns  # the terminal's width; None for no terminal (no margin)
        self._screen = rows or SCREEN_LINES  # how far up a row can still be reached
        self._column = 0  # at a terminal; equal to the width while the wrap waits
        self._column_disputed = False  # moved while the wrap waited: terminals hold different columns
        self._joined: set[int] = set()  # rows that belong to a line longer than the width
        self._first: str | None = None  # the half of a homing clear just read: the other must come next
        self._first_at = 0  # the offset that half starts at
        self._after_clear = False  # nothing read since a homing clear (the scrollback's erase may follow)
        self._limit = limit
        self._tail = ""  # the text not read yet (an open sequence, CRs at the end)
        self._start = 0  # where ``_tail`` starts in the whole text
        self._row = 0  # the cursor's row, 0 the first row of the output
        self._bottom = 0  # the lowest row reached
        self._touched: int | None = None  # the bottom row when a row was last redrawn, None before any
        self._open: list[tuple[int, int]] = []  # line ends (offset, new row) not settled yet
        self._settled_now: list[int] = []  # the cut points the current ``feed`` answers
        self._shown = False  # the row holds a printable character other than space, written since its line feed
        # the bottom row's cells (column: character) while every control on it stayed on it since the line
        # feed that opened it (None: not followed); the first row starts blank, the cursor at its start
        self._follows_rows = in_place_rows
        self._cells: dict[int, str] | None = {} if in_place_rows else None
        self._appended = ""  # what was written on it before anything went back (kept as text: the common case)
        self._cells_at = 0  # the cursor's column in them
        self._cells_end = 0  # no cell at or past this column: each erase and move costs what it spans, not the row
        self._rewritten = False  # a control went back over them or erased in them
        self._rewound = False  # one went back over a character or erased one (not an EL past the text)

    def feed(self, text: str) -> list[int]:
        if self.ended is not None:
            return []
        tail = self._tail + text
        stop = len(tail)
        while stop and tail[stop - 1] == "\r":
            stop -= 1  # what a CR does depends on what comes after it
        settled: list[int] = []
        self._settled_now = settled
        read = self._read(tail, stop, settled)
        # read through a call: the check above narrows ``ended`` to None, and compiled, reading it after
        # _read ended the check raised a TypeError (mypyc checks the narrowed type)
        if not self.has_ended():
            self._tail = tail[read:]
            self._start += read
            if len(self._tail) > self._limit:
                self._end(f"a sequence still open after {len(self._tail)} characters")
        return settled

    def has_ended(self) -> bool:
        return self.ended is not None

    def _end(self, why: str) -> None:
        self.ended = why
        self._open = []
        self._tail = ""

    def _read(self, text: str, stop: int, settled: list[int]) -> int:
        """Read up to ``stop``; returns how far it read (short of ``stop`` at an ESC whose sequence is
        not complete yet and may still be: no line feed after it)."""
        i = 0
        while True:
            run = _TEXT_AND_SGR.match(text, i, stop)
            upto = i if run is None else run.end()  # a control, a joiner, an ESC of no plain SGR, or ``stop``
            if (upto > i or upto < stop and text[upto] != grammar.ESC) and not self._between():
                self._end(f"half a clear and home before offset {self._start + upto}")
                return stop
            if upto > i and (self._margin is not None or self._cells is not None or not self._shown):
                # (no terminal and no row followed: only "shown" to learn)
                segment = text[i:upto]
                if grammar.ESC in segment:
                    segment = grammar.SGR_ONLY.sub("", segment)
                if segment:
                    self._shown = self._shown or not segment.isspace()
                    if self._cells is not None and not self._write_cells(segment):
                        self._unfollow()
                    if self._margin is not None and not self._print(segment):
                        self._end(f"text whose cells terminals may lay out apart before offset {self._start + upto}")
                        return stop
            if upto >= stop:
                return stop
            i = upto
            char = text[i]
            if char == "\n":
                self._new_line(self._start + i + 1, settled)
                i += 1
            elif char == "\r":
                j = i + 1
                while j < stop and text[j] == "\r":
                    j += 1
                if text[j] != "\n":  # a CR before the line end moves nothing that shows
                    self._redraw_row("cursor_to_column", 1)
                    self._column = 0
                    self._column_disputed = False
                i = j
            elif char == "\x07":
                i += 1
            elif char in "\t\x08":
                if char == "\x08":
                    self._redraw_row("cursor_back", 1)
                else:
                    self._unfollow()  # a tab's cells: the cleaned text may lay them out otherwise
                if not self._in_row("tab" if char == "\t" else "back", 1):
                    self._end(f"HT or BS terminals may place apart at offset {self._start + i}")
                    return stop
                i += 1
            elif char == grammar.ESC:
                match = grammar.match_at(text, i)
                if match is None and "\n" not in text[i:]:
                    return i  # cut by the chunk's end, maybe: wait for the rest
                if match is None or not self._sequence(match.group(), self._start + i):
                    self._end(f"a sequence read no further at offset {self._start + i}")
                    return stop
                i = match.end()
            else:
                self._end(f"U+{ord(char):04X} at offset {self._start + i}")
                return stop

    def _between(self) -> bool:
        """Something other than a sequence comes: fine unless half a homing clear waits for the other."""
        self._after_clear = False
        return self._first is None

    def _sequence(self, sequence: str, at: int) -> bool:
        """Whether the reading goes on past ``sequence`` (acted on)."""
        first, self._first = self._first, None
        after_clear, self._after_clear = self._after_clear, False
        if self._margin is not None and (first is not None or sequence in (_WHOLE_SCREEN, _SCROLLBACK)
                                         or _home(sequence)):
            return self._homing_clear(sequence, first, after_clear, at)
        if "\x9c" in sequence:  # a C1 ST
            return False
        parsed = _cached_parsed(sequence) if len(sequence) <= _CACHED_LENGTH else _parsed(sequence)
        if grammar.designates_shifted_set(parsed):
            # G1-G3 given a set: a later shift writes in it, and the stretch holding that shift may be kept
            # raw after the designation was cleaned away
            return False
        kind = parsed.kind
        if kind in _STRINGS:
            # ended where the grammar ends it: at BEL or ST, as a log viewer does; a terminal only ends OSC so
            return self._margin is None or kind is Kind.OSC
        if kind is Kind.CANCELLED:
            return False
        action = action_for(sequence)
        if action.op == INERT:
            return True
        if action.op in _IN_ROW:
            self._redraw_row(action.op, action.number)
            return self._in_row(action.op, action.number)
        if action.op in _ROWS:
            if self._margin is not None:
                if self._column >= self._margin:
                    self._column_disputed = True  # the wait kept (tmux) or dropped (xterm)
                if action.op == "move_rows_home":
                    self._column = 0
                    self._column_disputed = False
            return self._move(action.number)
        return False

    def _in_row(self, op: str, number: int) -> bool:
        """The column after a control on the cursor's row, at a terminal; False where terminals may differ."""
        margin = self._margin
        if margin is None:
            return True
        if op == "cursor_to_column":
            self._column = min(margin - 1, max(number, 1) - 1)
            self._column_disputed = False
            return True
        if self._column >= margin:
            if op != "erase_in_line" or number != 2:
                return False
            self._column_disputed = True  # the whole row erased in both; the column stays in dispute
            return True
        if op == "back":
            if self._column == 0 and self._row in self._joined:
                return False  # tmux goes up into the row the line came from, xterm stays
            self._column = max(0, self._column - 1)
        elif op == "tab":
            self._column = min(margin - 1, self._column + _TAB - self._column % _TAB)
        elif op == "cursor_forward":
            self._column = min(margin - 1, self._column + max(number, 1))
        elif op == "cursor_back":
            self._column = max(0, self._column - max(number, 1))
        else:  # EL, ECH
            return True  # the cursor stays
        return True

    def _print(self, segment: str) -> bool:
        """Cells written at a terminal's width, a wrap onto a new bottom row each time the margin is passed."""
        margin = self._margin
        assert margin is not None
        if self._column_disputed:
            return False
        if all_narrow(segment):
            cells = len(segment)  # one cell each: the row fills to the margin, wraps, fills again
            while cells:
                if self._column == margin:
                    self._wrap_row()
                written = min(cells, margin - self._column)
                self._column += written
                cells -= written
            return True
        for char in segment:
            width = 1 if " " <= char <= "~" else WIDTH[char]
            if width == 0:
                if self._column in (0, margin):
                    return False
                continue
            if width not in (1, 2) or (width == 2 and self._column == margin - 1):
                return False
            if self._column == margin:
                self._wrap_row()
            self._column += width
        return True

    def _wrap_row(self) -> None:
        """The margin passed: the line goes on at column 0 of the row below (joined to it); the bottom
        row's cells are no longer followed."""
        self._unfollow()
        self._joined.add(self._row)
        self._row += 1
        self._bottom = max(self._bottom, self._row)
        self._joined.add(self._row)
        self._column = 0

    def _homing_clear(self, sequence: str, first: str | None, after_clear: bool, at: int) -> bool:
        if sequence == _SCROLLBACK:
            return after_clear and first is None  # history erased right after a homing clear
        this = "clear" if sequence == _WHOLE_SCREEN else "home" if _home(sequence) else None
        if this is None or this == first:
            return False
        if first is None:
            self._first, self._first_at = this, at
            return True
        # a cut where the clear starts: every row before is on a screen now cleared, out of every move's reach
        self._settled_now.append(self._first_at)
        self.clears.append(self._first_at)
        self._open = []
        self._row = self._bottom = self._column = 0
        self._column_disputed = False
        self._touched = None
        self._joined = set()
        self._shown = False
        self._follow_bottom_row()  # the top row of a blank page
        self._after_clear = True
        return True

    def _touch(self) -> None:
        self._touched = self._bottom

    def _follow_bottom_row(self) -> None:
        """A new bottom row opened, blank, the cursor at its start: its cells followed (if asked for)."""
        self._cells, self._cells_at, self._appended = ({} if self._follows_rows else None), 0, ""
        self._cells_end = 0
        self._rewritten = self._rewound = False

    def _unfollow(self) -> None:
        """Stop following the bottom row's cells: a redraw on it so far is a redraw."""
        if self._cells is not None and self._rewritten:
            self._touch()
        self._cells = None

    def _write_cells(self, segment: str) -> bool:
        """Printable ASCII written into the followed row; False where it is not followed further (other
        characters, or at a terminal the last column: the wrap waits there, where terminals part)."""
        cells = self._cells
        assert cells is not None
        last = self._margin - 1 if self._margin is not None else _LINE_REACH
        if self._cells_at + len(segment) > last or _ONE_CELL_RUN.fullmatch(segment) is None:
            return False
        if not self._rewritten:
            self._appended += segment  # written left to right so far: column i holds its i-th character
            self._cells_at += len(segment)
            return True
        for char in segment:
            cells[self._cells_at] = char
            self._cells_at += 1
        self._cells_end = max(self._cells_end, self._cells_at)
        return True

    def _redraw_row(self, op: str, number: int) -> None:
        """A control going back over the bottom row or erasing in it: followed in its cells while the row
        is, else the row is touched (redrawn)."""
        cells = self._cells
        if cells is None:
            self._touch()
            return
        if not self._rewritten:
            cells.update(enumerate(self._appended))
            self._cells_end = len(self._appended)
            self._appended = ""
        self._rewritten = True
        end = self._cells_end
        at, last = self._cells_at, self._margin - 1 if self._margin is not None else _LINE_REACH
        if op == "cursor_to_column":
            at = max(number, 1) - 1
        elif op == "cursor_forward":
            at += max(number, 1)
        elif op == "cursor_back":
            at = max(at - max(number, 1), 0)
        elif op == "erase_in_line" or op == "erase_characters":
            if op == "erase_characters":
                start, stop = at, min(at + max(number, 1), end)
            else:
                start, stop = ((at, end), (0, min(at + 1, end)), (0, end))[number]
                if number != 1:
                    self._cells_end = min(end, start)
            for column in range(start, stop):
                self._rewound = cells.pop(column, None) is not None or self._rewound
        if at < self._cells_at and not self._rewound:
            self._rewound = any(column in cells for column in range(at, end))  # back over a character
        if at > last:
            if self._margin is None:
                self._unfollow()
                self._touch()
                return
            at = last
        self._cells_at = at

    def _row_as_written(self) -> bool:
        """The followed row holds what its text written left to right gives, which is what the cleaned
        text holds for it: characters in every column from the first to its last, that one not a space;
        and something went back over characters in it or erased one. A row redrawn only where nothing
        stood stays a redraw, for the tokens: a bar's first frame, which nested bars (tqdm's) come back
        up to later, or top's rows ended by EL before a control that ends the reading (released early,
        the rest goes out raw)."""
        cells = self._cells
        if not cells or not self._rewound:
            return False
        end = max(cells)
        return len(cells) == end + 1 and cells[end] != " "

    def _move(self, rows: int) -> bool:
        self._cells = None  # a row moved into or out of is a redraw (touched here), whatever it holds
        self._touch()
        self._row += rows
        if self._row > self._bottom or self._row <= self._bottom - self._screen or self._row < 0:
            return False
        self._open = [(offset, row) for offset, row in self._open if row <= self._row]
        return True

    def _new_line(self, offset: int, settled: list[int]) -> None:
        shown, self._shown = self._shown, False
        self._column = 0
        self._column_disputed = False
        if self._row < self._bottom:
            self._row += 1
            return
        if self._cells is not None and self._rewritten and not self._row_as_written():
            self._touch()
        elif not shown and self._margin is not None:
            # blank rows at a terminal may be cleaned to fewer (history): rows counted up from a cut past
            # them would differ, so a blank row is out of reach only once the screen's rows pass it (F42-4)
            self._touch()
        self._follow_bottom_row()
        self._row = self._bottom = self._bottom + 1
        if len(self._joined) > 4 * self._screen:
            self._joined = {row for row in self._joined if row >= self._bottom - self._screen}
        # a blank line is not settled at once: programs print blank rows to come back and draw on
        if shown and (self._touched is None or self._bottom - self._touched > self._screen):
            settled.append(offset)
            self._open = []
            return
        self._open.append((offset, self._bottom))
        # rows ascend in ``_open``: those now out of reach are its first ones
        out = 0
        while out < len(self._open) and self._open[out][1] + self._screen <= self._bottom:
            out += 1
        if out:
            settled.append(self._open[out - 1][0])
            del self._open[:out]
