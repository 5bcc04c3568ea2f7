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

*Rows redrawn in place* (``in_place_rows``, the stream's readings; the kept stretches of one message
keep the rule above): a row redrawn only within itself counts as written left to right when what the
cleaner releases for it holds the same cells as the raw's row. The row is followed cell by cell
(``_RowInPlace``) from the line feed that opened it as the lowest row (the first row too: it starts
blank with the cursor at its start, as the cleaner reads a text that is not fresh) while everything on
it stays on it: printable ASCII, CR, BS, CHA / HPA / CUF / CUB, EL 0-2, ECH. At its line feed it counts
as written left to right when it was rewound over characters and its cells are written characters from
the first column on, none blank among them, the last not a space. It counts as redrawn when left blank
or holding only spaces, with a trailing space, with a blank cell among its characters (EL 1, ECH, CUF
past its end), when only its first frame was drawn (``\\r`` + frame: tqdm's nested bars come back up to
it from the row below, and released early the rest of such a stream is kept raw), or when it can no
longer be followed: a vertical move into or out of it, a tab, a character other than printable ASCII,
ED 0, and at a terminal the last column (the pending-wrap column, where terminals part) or a wrap (the
joined-line dispute stays with the rules below). SGR changes no cell's character: an erase under a
background colour leaves blank cells past the text in both.

At a terminal of a known size (``columns`` x ``rows``, tmux's rules) the same reading counts *rows*, not
lines, and the reach is the screen (``rows`` rows instead of 24); a blank row counts as redrawn there (the
cleaner may give a run of blank rows as fewer, scrolled into history: a row counted up from a cut past it,
as a move clamped at the screen's top is, would not be the raw's; F42-4): text that passes the last column wraps
onto a new lowest row (``settled_width``'s widths; a character of disputed width, a wide one at the last
column or a zero-width one at a row's start stops the finder); a wrap above the lowest row moves the
cursor down onto the row below, as a line feed there does (no row is added). At
the pending-wrap column terminals disagree where the cursor is once it moved (tmux past the last
column, xterm on it): CUU / CUD / RI / EL 2 carry that dispute, CR, LF, CNL / CPL and CHA settle it,
anything else there stops the finder (text too, once carried). BS at
the first column of a row a wrapped line continues on stops it (tmux goes up a row). An erase on such
a row leaves whether the line stays joined in dispute (tmux drops the join): the erase is a redraw, so
no cut comes within reach of the row, and the stretch's own gate reads the dispute where it shows.
Only OSC strings are inert there: tmux reads DCS / SOS / PM / APC on past BEL.

At a terminal of a known size, DECSET / DECRST of modes that change nothing shown
(``grammar.harmless_private_mode_change``, autowrap off excepted) are inert, and a *homing clear* (CUP
home and ED 2 next to each other, either order, ED 3 right after allowed) read while the finder runs is
a cut point at its start: the screen every row before it was on is cleared (its rows out of reach), the
stretch after the cut starts from a cleared screen whatever the text before it was cleaned to, and the
reading starts again on a blank page, its first row the screen's top. (The stream keeps the clear in
front of a cleaned stretch that starts with one, so later rows stand where the raw puts them.) For no
terminal both stay stopping: releasing more there exposes more of a stream to a later stop (after which
the rest goes out raw), and ``session_flash`` then cost 42 % more tokens than one-shot.

When unsure it is no cut: a missed cut costs memory and latency, a wrong one could lose a line.
"""

from __future__ import annotations

import functools
import re

from .. import grammar
from ..grammar import Kind
from ..model import SCREEN_LINES, settled_width
from . import dispatch

__all__ = ["CutFinder"]

#: the dispatch table's calls that stay on the cursor's row (CHA, HPA, CUF, CUB, ECH; EL 0-2 and ED 0 below)
_IN_LINE = frozenset(("cursor_to_column", "cursor_forward", "cursor_back", "erase_characters"))
_NO_ROW = -(1 << 60)  # no row redrawn yet
# characters that stop the finder in text: C1 controls (terminals disagree on them) and the ZWJ tmux replays
_STOPPING_TEXT = re.compile("[\x80-\x9f\u200d]")
_CRS_THEN_LF = re.compile("\r*\n")  # a CR that only ends a line (``Done\r\r\n``) redraws nothing
# strings tmux does not end at BEL (it swallows on to the next ESC or ST): at a terminal they stop the finder
_SWALLOWING = frozenset((Kind.DCS, Kind.SOS, Kind.PM, Kind.APC, Kind.CANCELLED))
_TAB_STOP = 8
_FOLLOWED_CELLS = 1024  # with no terminal, a row is followed in place up to this column (past it: redrawn)
# a run of text and plain SGR: nothing in it changes state but the column and whether the row is inked, so
# it is read in one turn (a coloured progress frame is one run, not a dozen tokens); a C1 control or a ZWJ
# ends it (read as text between tokens, where it stops the finder)
_RUN = f"(?:[^\\x00-\\x1f\\x7f-\\x9f\\u200d]+|{grammar.SGR_ONLY.pattern})+"
_RUN_OR_TOKEN = re.compile(f"(?P<run>{_RUN})|{grammar.SEQUENCE_OR_CONTROL.pattern}")
_ONE_CELL = {chr(code) for code in range(0x20, 0x7F)}  # one cell wide: printable ASCII, and those found since


class _RowInPlace:
    """The cells of the lowest row, followed from the line feed that opened it while every control on it
    stays on it (CR, BS, CHA / HPA / CUF / CUB, EL 0-2, ECH): ``redrawn`` once one of them rewound or
    erased it. A row it cannot follow (a vertical move, a wrap, a tab, other than printable ASCII, the
    last column at a terminal) is dropped by the finder and counted as redrawn if it was."""

    __slots__ = ("cells", "col", "last", "redrawn", "rewound")

    def __init__(self, width: int | None) -> None:
        self.cells: list[str] = []  # "" a blank cell: never written, or erased
        self.col = 0
        self.last = width - 1 if width is not None else _FOLLOWED_CELLS  # the column the cursor stops at
        self.redrawn = False
        self.rewound = False  # a control went back over characters or erased some (EL after the text: not)

    def write(self, run: str) -> bool:
        end = self.col + len(run)
        if end > self.last or not (run.isascii() and run.isprintable()):
            return False  # at a terminal: the pending-wrap column (where terminals part), or a wrap
        if len(self.cells) < end:
            self.cells.extend([""] * (end - len(self.cells)))
        self.cells[self.col:end] = run
        self.col = end
        return True

    def act(self, handler: str, count: int) -> bool:
        """A control on the row (the dispatch table's handler, its 0-based column or count)."""
        self.redrawn = True
        if handler == "carriage_return":
            self._back_to(0)
        elif handler == "backspace":
            self._back_to(max(self.col - 1, 0))
        elif handler in ("cursor_to_column", "cursor_forward"):
            col = max(count, 0) if handler == "cursor_to_column" else self.col + max(count, 1)
            if self.last == _FOLLOWED_CELLS and col > self.last:
                return False
            self._back_to(min(col, self.last))
        elif handler == "cursor_back":
            self._back_to(max(self.col - max(count, 1), 0))
        elif handler == "erase_in_line" and 0 <= count <= 2:
            start, end = ((self.col, len(self.cells)), (0, self.col + 1), (0, len(self.cells)))[count]
            self._blank(start, end)
        elif handler == "erase_characters":
            self._blank(self.col, self.col + max(count, 1))
        else:
            return False
        return True

    def _back_to(self, col: int) -> None:
        """The cursor moved to ``col``: a rewind if a character stands there or after it."""
        if not self.rewound and col < self.col:
            self.rewound = any(self.cells[col:])
        self.col = col

    def _blank(self, start: int, end: int) -> None:
        end = min(end, len(self.cells))
        if start < end:
            self.rewound = self.rewound or any(self.cells[start:end])
            self.cells[start:end] = [""] * (end - start)

    def settled_in_place(self) -> bool:
        """Whether the row, redrawn, holds what writing its text left to right gives (what the cleaner
        releases for it): written characters from the first column on, none blank among them, the last
        not a space; a row left blank (or holding only spaces) is not, nor one with a gap. And it was
        rewound over characters: a row redrawn only where nothing stood is left as a redraw (as before
        rows were followed), for what it costs: a bar's first frame (``\\r`` + frame) that tqdm's nested
        bars come back to from the row below, top's rows ended by EL on a page a later control stops
        the readings on; released early, the rest of such a stream goes out raw."""
        if not self.rewound:
            return False
        cells = self.cells
        while cells and not cells[-1]:
            cells.pop()
        return bool(cells) and not cells[-1].isspace() and all(cells)


def _reading(token: str) -> tuple[grammar.Sequence, bool, dispatch.Decoded]:
    """A complete sequence parsed, whether it is inert, and the dispatch table's reading of it."""
    seq = grammar.parse(token)
    return seq, grammar.INERT_SEQUENCE.fullmatch(token) is not None, dispatch.decode(seq)


# a stream repeats a few short sequences (SGR, EL, CUU) over and over, each read alike wherever it stands
_cached_reading = functools.lru_cache(maxsize=4096)(_reading)
_CACHED_LENGTH = 64  # longer ones (strings) are read each time, not kept


def _one_cell(chars: set[str]) -> bool:
    """Whether every character in ``chars`` (no control among them) is one cell wide."""
    for char in chars:
        if char not in _ONE_CELL:
            if settled_width(char) != 1:
                return False
            _ONE_CELL.add(char)
    return True


class CutFinder:
    """Feed it the text as it arrives; each :meth:`feed` returns the cut points it confirmed since,
    as offsets into the whole text fed (ascending). ``stopped``: why it gives no more (None: it does)."""

    def __init__(self, limit: int = 1 << 20, *, columns: int | None = None, rows: int | None = None,
                 in_place_rows: bool = False) -> None:
        if (columns is None) != (rows is None) or (columns is not None and (columns < 2 or rows is None or rows < 2)):
            raise ValueError("a terminal's cut points need both columns and rows (at least 2 each)")
        self.stopped: str | None = None
        self.page_breaks: list[int] = []  # the cut points confirmed at a homing clear (a caller may clear it)
        self._width = columns  # None: no terminal, no right margin
        self._reach = rows if rows is not None else SCREEN_LINES  # rows a move up may reach back
        self._col = 0  # the cursor's column (at a terminal); == width: the wrap is pending
        self._moved_at_margin = False  # the cursor moved while the wrap was pending: its column is disputed
        self._wrapped: set[int] = set()  # rows a wrapped line spans (counted as ``_lowest``), within reach
        self._half: str | None = None  # "home" or "clear": half of a homing clear read, the other half next
        self._half_at = 0  # where that half starts
        self._cleared = False  # the last thing read completed a homing clear (ED 3 may follow)
        self._limit = limit  # the longest open sequence it waits for before it stops
        self._pending = ""  # text not read yet: an open sequence, CRs at the end
        self._base = 0  # the offset of ``_pending`` in the whole text
        self._lowest = 0  # the lowest row written (rows counted from the first, 0)
        self._up = 0  # how many rows the cursor stands above the lowest
        self._redrawn = _NO_ROW  # the lowest row when something last redrew
        self._waiting: list[tuple[int, int]] = []  # (offset, row) of line ends not yet out of reach
        self._inked = False  # the row being written holds a printable character other than space
        # the lowest row while redrawn only within itself (None: not followed); the first row starts blank
        # with the cursor at its start, as the cleaner reads a text that is not fresh too
        self._in_place_rows = in_place_rows
        self._row = self._new_row()

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
        if self._half is not None:
            self._stop(f"half a homing clear before offset {self._base + start}")
            return False
        self._cleared = False
        if _STOPPING_TEXT.search(text, start, end):
            self._stop(f"a C1 control or ZWJ after offset {self._base + start}")
            return False
        self._inked = self._inked or not text[start:end].isspace()
        if self._row is not None and not self._row.write(text[start:end]):
            self._drop_row()
        if self._width is not None:
            why = self._advance(text[start:end])
            if why is not None:
                self._stop(f"{why} before offset {self._base + end}")
                return False
        return True

    def _advance(self, run: str) -> str | None:
        """Write ``run`` at a terminal's width: the cursor's column, and rows the wrap adds."""
        width = self._width
        assert width is not None
        if self._moved_at_margin:
            return "text where terminals put the cursor apart (moved at the pending-wrap column)"
        if run.isascii():
            return self._narrow(len(run))
        if 0 <= self._col and self._col + len(run) <= width and (set(run) <= _ONE_CELL or _one_cell(set(run))):
            self._col += len(run)  # one cell each, and no wrap: as written one by one
            return None
        for char in run:
            cells = settled_width(char)
            if cells < 0 or cells > 2:
                return "a character of disputed width"
            if cells == 0:
                if self._col == 0 or self._col >= width:
                    return "a zero-width character at a row's start or the pending-wrap column"
            elif cells == 2:
                if self._col == width - 1:
                    return "a wide character at the last column"
                if self._col >= width:
                    why = self._wrap()
                    if why is not None:
                        return why
                self._col += 2
            else:
                why = self._narrow(1)
                if why is not None:
                    return why
        return None

    def _run(self, run: str, start: int) -> bool:
        """Text and plain SGR read as one: the text's effect (SGR is inert), where the run starts no
        half of a homing clear waits (a run after half of one stops, as its text or its SGR does)."""
        if self._half is not None:
            self._stop(f"half a homing clear before offset {self._base + start}")
            return False
        self._cleared = False
        width = self._width
        if width is None and self._inked and self._row is None:
            return True  # for no terminal the text only inks the row (and it is inked), or writes a followed one
        text = grammar.SGR_ONLY.sub("", run) if grammar.ESC in run else run
        # written into the followed row at once, as its pieces one by one: while it is followed no piece
        # reaches the last column, so none wraps before the row is dropped
        if self._row is not None and text and not self._row.write(text):
            self._drop_row()
        if width is None or not text:
            self._inked = self._inked or (bool(text) and not text.isspace())
            return True
        if not self._moved_at_margin and 0 <= self._col and self._col + len(text) <= width and (
                text.isascii() or set(text) <= _ONE_CELL or _one_cell(set(text))):
            self._inked = self._inked or not text.isspace()
            self._col += len(text)  # one cell each, and no wrap: as its pieces are written one by one
            return True
        # the text between its SGR, each piece written as it was alone between two tokens
        pieces = grammar.SGR_ONLY.split(run) if grammar.ESC in run else (run,)
        for piece in pieces:
            if piece:
                self._inked = self._inked or not piece.isspace()
                if self._width is not None:
                    why = self._advance(piece)
                    if why is not None:
                        self._stop(f"{why} before offset {self._base + start + len(run)}")
                        return False
        return True

    def _narrow(self, cells: int) -> str | None:
        """``cells`` one-cell characters from the cursor: a wrap each time the column passes the width."""
        width = self._width
        assert width is not None
        if not cells:
            return None
        col = self._col  # each wrap sets the column to 0: the column after the run counts from this one
        wraps = (col + cells - 1) // width
        for _ in range(wraps):
            why = self._wrap()
            if why is not None:
                return why
        self._col = col + cells - wraps * width
        return None

    def _wrap(self) -> str | None:
        self._drop_row()
        row = self._lowest - self._up
        self._wrapped.update((row, row + 1))
        if self._up:
            self._up -= 1  # onto a row already written (the screen does not scroll: it is not the last)
        else:
            self._lowest += 1
        self._col = 0
        return None

    def _in_row(self, handler: str, count: int = 0) -> str | None:
        """A control that stays on the cursor's row, at a terminal: where it leaves the column, or why it stops."""
        width = self._width
        if width is None:
            return None
        if handler in ("carriage_return", "cursor_to_column"):
            self._col = 0 if handler == "carriage_return" else min(max(count, 0), width - 1)
            self._moved_at_margin = False
            return None
        if self._col >= width:
            if handler != "erase_in_line" or count != 2:
                return "a control at the pending-wrap column"
            self._moved_at_margin = True  # EL 2 erases the whole row in both and keeps the dispute
            return None
        row = self._lowest - self._up
        if handler == "backspace":
            if self._col == 0 and row in self._wrapped:
                return "BS at the first column of a wrapped row"
            self._col = max(self._col - 1, 0)
        elif handler == "tab":
            self._col = min((self._col // _TAB_STOP + 1) * _TAB_STOP, width - 1)
        elif handler == "cursor_forward":
            self._col = min(self._col + max(count, 1), width - 1)
        elif handler == "cursor_back":
            self._col = max(self._col - max(count, 1), 0)
        return None  # an erase: the cursor stays

    def _scan(self, text: str, end: int, confirmed: list[int]) -> int:
        """Read ``text`` up to ``end``; where the reading paused (an ESC whose sequence may still come
        whole: no line feed after it yet), else ``end``."""
        pos = 0
        for m in _RUN_OR_TOKEN.finditer(text, 0, end):
            if m.start() > pos and not self._text(text, pos, m.start()):
                return end
            start, pos = m.start(), m.end()
            token = m.group()
            if m.lastgroup == "run":
                if not self._run(token, start):
                    return end
                continue
            if (self._half is not None or self._cleared) and token != grammar.ESC and token[0] != grammar.ESC:
                if self._half is not None:
                    self._stop(f"half a homing clear at offset {self._base + start}")
                    return end
                self._cleared = False
            if token == "\n":
                self._line_feed(self._base + pos, confirmed)
            elif token == "\r":
                if _CRS_THEN_LF.match(text, pos, end) is None:
                    self._redraw_in_row("carriage_return")
                    self._in_row("carriage_return")
            elif token == grammar.BEL:
                pass
            elif token in ("\t", grammar.BS):
                if token == grammar.BS:
                    self._redraw_in_row("backspace")
                else:
                    self._drop_row()  # a tab: its cells are not what the cleaned text's tab gives
                why = self._in_row("tab" if token == "\t" else "backspace")
                if why is not None:
                    self._stop(f"{why} at offset {self._base + start}")
                    return end
            elif token == grammar.ESC and text.find("\n", start) < 0:
                return start  # a sequence cut by the chunk's end (a complete one never holds a line feed)
            elif len(token) > 1 and token[0] == grammar.ESC:
                why = self._sequence(token, self._base + start, confirmed)
                if why is not None:
                    self._stop(f"{why} at offset {self._base + start}")
                    return end
            else:
                self._stop(f"control U+{ord(token[0]):04X} at offset {self._base + start}")
                return end
        if end > pos:
            self._text(text, pos, end)
        return end

    def _sequence(self, token: str, offset: int, confirmed: list[int]) -> str | None:
        """Act on one complete sequence, as the dispatch table reads it; the reason the finder stops, or None."""
        half, self._half = self._half, None
        cleared, self._cleared = self._cleared, False
        seq, inert, decoded = _cached_reading(token) if len(token) <= _CACHED_LENGTH else _reading(token)
        if seq.kind is Kind.CANCELLED:
            return "a cancelled sequence"
        if self._width is not None and seq.kind in _SWALLOWING:
            return "a string tmux may read on past its end"
        if grammar.designates_shifted_set(seq):
            # inert alone, but a stretch kept raw may hold the shift while the cleaned one dropped the designation
            return "a character set designated for a later shift"
        if inert:
            return None if half is None else "half a homing clear"
        if (decoded.disputed is not None or len(seq.params) >= grammar.PARAMETER_BYTES_LIMIT
                or grammar.above_range(seq.params)):
            return "a parameter terminals may read apart"
        if self._width is not None:
            if half is None and decoded.calls == () and grammar.harmless_private_mode_change(seq) and not (
                    dispatch.autowrap_off(token)):
                return None  # a mode that changes nothing shown (autowrap off would)
            page = self._page_break(decoded.calls, half, cleared, offset, confirmed)
            if not isinstance(page, bool):
                return page
        if decoded.calls is None or len(decoded.calls) != 1 or (seq.kind is Kind.CSI and seq.private):
            return "a sequence that leaves state"
        call = decoded.calls[0]
        if call.handler in _IN_LINE or (call.handler == "erase_in_line" and (call.args[0] or 0) <= 2) or (
                call.handler == "erase_in_display" and call.args[0] == 0):
            count = (call.args[0] or 0) if call.args else 0
            self._redraw_in_row(call.handler, count)
            return self._in_row(call.handler, count)
        if self._width is not None and self._col >= self._width:
            self._moved_at_margin = True  # carried by the move (settled below by CNL / CPL)
        if call.handler == "reverse_index":
            return self._vertical(-1)
        if call.handler == "cursor_vertical":
            if ("to_column_zero", True) in call.keywords:
                self._col = 0
                self._moved_at_margin = False
            return self._vertical(call.args[0] or 0)  # signed: up is negative
        return "a sequence that leaves state"

    def _page_break(self, calls: tuple[dispatch.Call, ...] | None, half: str | None, cleared: bool, offset: int,
                    confirmed: list[int]) -> str | None | bool:
        """A homing clear at a terminal, half by half: None when read (else why it stops), True when
        ``calls`` is none of it."""
        call = calls[0] if calls is not None and len(calls) == 1 else None
        if call is not None and call.handler == "cursor_position" and call.args == (0, 0):
            this = "home"
        elif call is not None and call.handler == "erase_in_display" and call.args[0] == 2:
            this = "clear"
        elif call is not None and call.handler == "erase_in_display" and call.args[0] == 3 and cleared:
            return None  # the scrollback erased right after a homing clear: every row before is settled already
        else:
            return True if half is None else "half a homing clear"
        if half is None:
            self._half, self._half_at = this, offset
            return None
        if half == this:
            return "half a homing clear"
        # the cut is the clear's start: the screen every row before it was on is cleared (out of reach),
        # and the stretch after the cut starts with the clear, whatever the text before was cleaned to
        confirmed.append(self._half_at)
        self.page_breaks.append(self._half_at)
        self._waiting.clear()
        self._lowest, self._up, self._col = 0, 0, 0
        self._moved_at_margin = False
        self._redrawn = _NO_ROW
        self._wrapped.clear()
        self._inked = False
        self._row = self._new_row()  # the cleared screen's top row, the cursor at its start
        self._cleared = True
        return None

    def _redraw(self) -> None:
        self._redrawn = self._lowest

    def _new_row(self) -> _RowInPlace | None:
        return _RowInPlace(self._width) if self._in_place_rows else None

    def _redraw_in_row(self, handler: str, count: int = 0) -> None:
        """A control that redraws the cursor's row: followed in place while the row is, else a redraw."""
        if self._row is None or not self._row.act(handler, count):
            self._drop_row()
            self._redraw()

    def _drop_row(self) -> None:
        """The row can no longer be followed in place: a redraw on it so far counts as one."""
        if self._row is not None and self._row.redrawn:
            self._redraw()
        self._row = None

    def _vertical(self, rows: int) -> str | None:
        self._row = None  # the row left (or entered) by a move: counted as redrawn below, whatever it holds
        self._redraw()
        self._up -= rows
        if self._up < 0:
            return "a move below the lowest row"
        if self._up >= self._reach or self._up > self._lowest:
            return f"a move more than {self._reach - 1} rows up, or above the first row"
        row = self._lowest - self._up
        while self._waiting and self._waiting[-1][1] > row:
            self._waiting.pop()  # the cursor is back above that line end: no cut there
        return None

    def _line_feed(self, offset: int, confirmed: list[int]) -> None:
        inked, self._inked = self._inked, False
        self._col = 0
        self._moved_at_margin = False
        if self._up:
            self._up -= 1
            return
        if self._row is not None and self._row.redrawn and not self._row.settled_in_place():
            self._redraw()
        elif not inked and self._width is not None:
            # at a terminal the cleaner may give a run of blank rows as fewer (scrolled into history): a row
            # the text may later reach by counting rows up from a cut (a move clamped at the screen's top)
            # would not be the raw's, so a blank row waits out the reach as a redrawn one does (F42-4)
            self._redraw()
        self._row = self._new_row()
        self._lowest += 1
        row = self._lowest
        # a blank line is left out: programs print blank rows to come back and draw on (tqdm's bars)
        if len(self._wrapped) > 4 * self._reach:
            self._wrapped = {wrapped for wrapped in self._wrapped if wrapped + self._reach >= row}
        if inked and row - self._redrawn > self._reach:
            self._waiting.clear()  # the rows before are plain: every earlier line end is out of reach too
            confirmed.append(offset)
            return
        self._waiting.append((offset, row))
        reached = 0
        while reached < len(self._waiting) and self._waiting[reached][1] + self._reach <= self._lowest:
            reached += 1
        if reached:
            confirmed.append(self._waiting[reached - 1][0])
            del self._waiting[:reached]
