"""Cut points on the cleaner's side (issue 40), for text written for no terminal (logical lines).

A *cut point* is an offset right after a line feed where the raw text before it can be cleaned alone
and released: every terminal agrees on the state there, and nothing the text may do after it changes
how the lines before it show. Read with the cleaner's grammar and display rules (``docs/design.md``):

* the line feed left the lowest row written, so the cursor stands at column 0 of a new row, and no
  escape sequence or string is open (a complete sequence never holds a line feed);
* everything so far was *resolvable in place*: text, tabs, BEL, inert sequences (``grammar.INERT_SEQUENCE``;
  strings end at BEL, as a log viewer ends them), CR, BS, EL / ECH, CHA / HPA / CUF / CUB, ED 0, and
  the relative vertical moves CUU / CUD / CNL / CPL / RI within the 24 rows above the lowest. Anything
  else (absolute positions, clears, regions, saves, modes, C1, other C0, a ZWJ, a malformed or
  cancelled sequence, a disputed parameter) leaves state the text after it would read: from there on
  the finder is *stopped* and gives no cut again;
* and the lines before it are out of reach of what follows: either the 24 rows above the new row were
  written left to right only (no redraw touched them since: cleaned, they hold the same cells as the
  raw, so a later move up into them acts alike on both), or 24 rows more were written below it with
  the cursor never back above it (a move further up is unresolvable in both models).

When unsure it is no cut: a missed cut costs memory and latency, a wrong one could lose a line.
"""

from __future__ import annotations

import re

from .. import grammar
from ..grammar import Kind
from ..model import SCREEN_LINES
from . import dispatch

__all__ = ["CutFinder"]

#: the dispatch table's calls that stay on the cursor's row (CHA, HPA, CUF, CUB, ECH; EL 0-2 and ED 0 below)
_IN_LINE = frozenset(("cursor_to_column", "cursor_forward", "cursor_back", "erase_characters"))
_NO_ROW = -(1 << 60)  # no row redrawn yet
# characters that stop the finder in text: C1 controls (terminals disagree on them) and the ZWJ tmux replays
_STOPPING_TEXT = re.compile("[\x80-\x9f\u200d]")
_CRS_THEN_LF = re.compile("\r*\n")  # a CR that only ends a line (``Done\r\r\n``) redraws nothing


class CutFinder:
    """Feed it the text as it arrives; each :meth:`feed` returns the cut points it confirmed since,
    as offsets into the whole text fed (ascending). ``stopped``: why it gives no more (None: it does)."""

    def __init__(self, limit: int = 1 << 20) -> None:
        self.stopped: str | None = None
        self._limit = limit  # the longest open sequence it waits for before it stops
        self._pending = ""  # text not read yet: an open sequence, CRs at the end
        self._base = 0  # the offset of ``_pending`` in the whole text
        self._lowest = 0  # the lowest row written (rows counted from the first, 0)
        self._up = 0  # how many rows the cursor stands above the lowest
        self._redrawn = _NO_ROW  # the lowest row when something last redrew
        self._waiting: list[tuple[int, int]] = []  # (offset, row) of line ends not yet out of reach
        self._inked = False  # the row being written holds a printable character other than space

    def feed(self, text: str) -> list[int]:
        if self.stopped is not None:
            return []
        pending = self._pending + text
        end = len(pending.rstrip("\r"))  # a CR's meaning waits for what follows it
        confirmed: list[int] = []
        kept = self._scan(pending, end, confirmed)
        # read through a call: the check above narrows ``stopped`` to None, and compiled, reading it after
        # _scan stopped the finder raised a TypeError (mypyc checks the narrowed type)
        if not self.has_stopped():
            self._pending = pending[kept:]
            self._base += kept
            if len(self._pending) > self._limit:
                self._stop(f"a sequence open for {len(self._pending)} characters")
        return confirmed

    def has_stopped(self) -> bool:
        return self.stopped is not None

    def _stop(self, why: str) -> None:
        self.stopped = why
        self._waiting.clear()
        self._pending = ""

    def _text(self, text: str, start: int, end: int) -> bool:
        if _STOPPING_TEXT.search(text, start, end):
            self._stop(f"a C1 control or ZWJ after offset {self._base + start}")
            return False
        self._inked = self._inked or not text[start:end].isspace()
        return True

    def _scan(self, text: str, end: int, confirmed: list[int]) -> int:
        """Read ``text`` up to ``end``; where the reading paused (an ESC whose sequence may still come
        whole: no line feed after it yet), else ``end``."""
        pos = 0
        for m in grammar.SEQUENCE_OR_CONTROL.finditer(text, 0, end):
            if m.start() > pos and not self._text(text, pos, m.start()):
                return end
            start, pos = m.start(), m.end()
            token = m.group()
            if token == "\n":
                self._line_feed(self._base + pos, confirmed)
            elif token == "\r":
                if _CRS_THEN_LF.match(text, pos, end) is None:
                    self._redraw()
            elif token in ("\t", grammar.BEL):
                pass
            elif token == grammar.BS:
                self._redraw()
            elif token == grammar.ESC and text.find("\n", start) < 0:
                return start  # a sequence cut by the chunk's end (a complete one never holds a line feed)
            elif len(token) > 1 and token[0] == grammar.ESC:
                why = self._sequence(token)
                if why is not None:
                    self._stop(f"{why} at offset {self._base + start}")
                    return end
            else:
                self._stop(f"control U+{ord(token[0]):04X} at offset {self._base + start}")
                return end
        if end > pos:
            self._text(text, pos, end)
        return end

    def _sequence(self, token: str) -> str | None:
        """Act on one complete sequence, as the dispatch table reads it; the reason the finder stops, or None."""
        seq = grammar.parse(token)
        if seq.kind is Kind.CANCELLED:
            return "a cancelled sequence"
        if grammar.INERT_SEQUENCE.fullmatch(token):
            return None
        decoded = dispatch.decode(seq)
        if (decoded.disputed is not None or len(seq.params) >= grammar.PARAMETER_BYTES_LIMIT
                or grammar.above_range(seq.params)):
            return "a parameter terminals may read apart"
        if decoded.calls is None or len(decoded.calls) != 1 or (seq.kind is Kind.CSI and seq.private):
            return "a sequence that leaves state"
        call = decoded.calls[0]
        if call.handler in _IN_LINE or (call.handler == "erase_in_line" and (call.args[0] or 0) <= 2) or (
                call.handler == "erase_in_display" and call.args[0] == 0):
            self._redraw()
            return None
        if call.handler == "reverse_index":
            return self._vertical(-1)
        if call.handler == "cursor_vertical":
            return self._vertical(call.args[0] or 0)  # signed: up is negative
        return "a sequence that leaves state"

    def _redraw(self) -> None:
        self._redrawn = self._lowest

    def _vertical(self, rows: int) -> str | None:
        self._redraw()
        self._up -= rows
        if self._up < 0:
            return "a move below the lowest row"
        if self._up >= SCREEN_LINES or self._up > self._lowest:
            return f"a move more than {SCREEN_LINES - 1} rows up, or above the first row"
        row = self._lowest - self._up
        while self._waiting and self._waiting[-1][1] > row:
            self._waiting.pop()  # the cursor is back above that line end: no cut there
        return None

    def _line_feed(self, offset: int, confirmed: list[int]) -> None:
        inked, self._inked = self._inked, False
        if self._up:
            self._up -= 1
            return
        self._lowest += 1
        row = self._lowest
        # a blank line is left out: programs print blank rows to come back and draw on (tqdm's bars)
        if inked and row - self._redrawn > SCREEN_LINES:
            self._waiting.clear()  # the rows before are plain: every earlier line end is out of reach too
            confirmed.append(offset)
            return
        self._waiting.append((offset, row))
        reached = 0
        while reached < len(self._waiting) and self._waiting[reached][1] + SCREEN_LINES <= self._lowest:
            reached += 1
        if reached:
            confirmed.append(self._waiting[reached - 1][0])
            del self._waiting[:reached]
