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
"""

from __future__ import annotations

import re

from .. import grammar
from ..grammar import Kind
from ..model import SCREEN_LINES
from .meaning import INERT, action_for

__all__ = ["CutCheck"]

_CONTROL_OR_JOINER = re.compile("[\x00-\x1f\x7f-\x9f\u200d]")
_IN_ROW = frozenset(("erase_in_line", "erase_characters", "cursor_to_column", "cursor_forward", "cursor_back"))
_ROWS = frozenset(("move_rows", "move_rows_home"))
_STRINGS = frozenset((Kind.OSC, Kind.DCS, Kind.SOS, Kind.PM, Kind.APC))


class CutCheck:
    """Feed it the text as it arrives; :meth:`feed` answers the line ends it confirms as cut points
    (offsets into the whole text). ``ended``: why it confirms no more (None while it reads on)."""

    def __init__(self, limit: int = 1 << 20) -> None:
        self.ended: str | None = None
        self._limit = limit
        self._tail = ""  # the text not read yet (an open sequence, CRs at the end)
        self._start = 0  # where ``_tail`` starts in the whole text
        self._row = 0  # the cursor's row, 0 the first row of the output
        self._bottom = 0  # the lowest row reached
        self._touched: int | None = None  # the bottom row when a row was last redrawn, None before any
        self._open: list[tuple[int, int]] = []  # line ends (offset, new row) not settled yet
        self._shown = False  # the row holds a printable character other than space, written since its line feed

    def feed(self, text: str) -> list[int]:
        if self.ended is not None:
            return []
        tail = self._tail + text
        stop = len(tail)
        while stop and tail[stop - 1] == "\r":
            stop -= 1  # what a CR does depends on what comes after it
        settled: list[int] = []
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
            found = _CONTROL_OR_JOINER.search(text, i, stop)
            if found is None:
                if stop > i:
                    self._shown = self._shown or not text[i:stop].isspace()
                return stop
            if found.start() > i:
                self._shown = self._shown or not text[i:found.start()].isspace()
            i = found.start()
            char = text[i]
            if char == "\n":
                self._new_line(self._start + i + 1, settled)
                i += 1
            elif char == "\r":
                j = i + 1
                while j < stop and text[j] == "\r":
                    j += 1
                if text[j] != "\n":  # a CR before the line end moves nothing that shows
                    self._touch()
                i = j
            elif char in "\t\x07":
                i += 1
            elif char == "\x08":
                self._touch()
                i += 1
            elif char == grammar.ESC:
                match = grammar.match_at(text, i)
                if match is None and "\n" not in text[i:]:
                    return i  # cut by the chunk's end, maybe: wait for the rest
                if match is None or not self._sequence(match.group()):
                    self._end(f"a sequence read no further at offset {self._start + i}")
                    return stop
                i = match.end()
            else:
                self._end(f"U+{ord(char):04X} at offset {self._start + i}")
                return stop

    def _sequence(self, sequence: str) -> bool:
        """Whether the reading goes on past ``sequence`` (acted on)."""
        if "\x9c" in sequence:  # a C1 ST
            return False
        kind = grammar.parse(sequence).kind
        if kind in _STRINGS:
            return True  # ended where the grammar ends it: at BEL or ST, as a log viewer does
        if kind is Kind.CANCELLED:
            return False
        action = action_for(sequence)
        if action.op == INERT:
            return True
        if action.op in _IN_ROW:
            self._touch()
            return True
        if action.op in _ROWS:
            return self._move(action.number)
        return False

    def _touch(self) -> None:
        self._touched = self._bottom

    def _move(self, rows: int) -> bool:
        self._touch()
        self._row += rows
        if self._row > self._bottom or self._row <= self._bottom - SCREEN_LINES or self._row < 0:
            return False
        self._open = [(offset, row) for offset, row in self._open if row <= self._row]
        return True

    def _new_line(self, offset: int, settled: list[int]) -> None:
        shown, self._shown = self._shown, False
        if self._row < self._bottom:
            self._row += 1
            return
        self._row = self._bottom = self._bottom + 1
        # a blank line is not settled at once: programs print blank rows to come back and draw on
        if shown and (self._touched is None or self._bottom - self._touched > SCREEN_LINES):
            settled.append(offset)
            self._open = []
            return
        self._open.append((offset, self._bottom))
        out = [offset for offset, row in self._open if row + SCREEN_LINES <= self._bottom]
        if out:
            settled.append(out[-1])
            self._open = [(offset, row) for offset, row in self._open if row + SCREEN_LINES > self._bottom]
