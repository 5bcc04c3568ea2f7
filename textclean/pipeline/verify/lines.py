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
from collections.abc import Callable, Iterable
from typing import NamedTuple

from . import grammar
from .grammar import BEL, BS, C0_RANGE, C1_RANGE, CR, ESC, HT, LF, Kind, Sequence
from .model import MIN_COLUMNS, SCREEN_LINES, TAB_WIDTH, WORK_ALLOWANCE, WORK_PER_INPUT_CHAR, settled_width
from .names import (
    C0_NAMES,
    CBT,
    CHA,
    CHARSET_US_ASCII,
    CNL,
    CODING_SYSTEM,
    CPL,
    CSI_NAMES,
    CUB,
    CUD,
    CUF,
    CUP,
    CUU,
    DA,
    DCH,
    DECAWM,
    DECKPAM,
    DECKPNM,
    DECRC,
    DECRQM,
    DECSC,
    DECSCUSR,
    DECSTBM,
    DECTCEM,
    DL,
    DOCS_UTF8,
    DSR,
    ECH,
    ED,
    EL,
    ESC_NAMES,
    G0_DESIGNATE,
    G1_TO_G3_DESIGNATE,
    HARMLESS_PRIVATE_MODES,
    HPA,
    HPR,
    HVP,
    ICH,
    IL,
    INERT_ANSI_MODES,
    NF_NAMES,
    PRIVATE_MODE_NAMES,
    REP,
    RI,
    RM,
    SCORC,
    SCOSC,
    SD,
    SGR,
    SM,
    ST_FINAL,
    SU,
    TBC,
    VPA,
    VPR,
    XTWINOPS,
)

__all__ = ["ALL", "WALK", "Difference", "Refusal", "Shortcuts", "first_difference", "terminal_lines"]


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



class Refusal(Exception):
    """The verifier's one refusal: what a terminal shows here cannot be decided.

    ``reason``: readable, for people (``str()`` of the refusal); ``offset``: where in the raw text the
    refused token starts, when known; ``disputed``: terminals themselves disagree (a string tmux
    swallows past, a parameter out of range), final: no other model of this verifier may take the text
    over; ``page``: the screen model's page it stopped on, when it stopped on one."""

    def __init__(self, reason: str, offset: int | None = None, disputed: bool = False,
                 page: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.offset = offset
        self.disputed = disputed
        self.page = page


class Difference(str):
    """:func:`first_difference`'s answer: the readable difference, with ``offset``, the raw offset of
    the page a gate should keep (None when it names none) and ``disputed`` (terminals disagree)."""

    offset: int | None
    disputed: bool

    def __new__(cls, text: str, offset: int | None = None, disputed: bool = False) -> Difference:
        made = super().__new__(cls, text)
        made.offset = offset
        made.disputed = disputed
        return made


class Shortcuts(NamedTuple):
    """Which of the verifier's fast paths answer before the token walk where they can (each equal to it
    wherever it answers: tests/test_verify_fast_path.py). All by default; :data:`WALK`: none, the
    reference the tests compare them with."""

    append: bool = True  # every line written once, left to right: the text without its sequences
    overlay: bool = True  # rows redrawn by CR (and EL) alone: overlaid as strings
    rows: bool = True  # rows redrawn in place by CR, BS, EL and row moves: walked as strings
    route: bool = True  # a text the line model is sure to refuse: straight to the screen model
    joined: bool = True  # a candidate compared as one string, not line by line
    streamed: bool = True  # pages matched as the screen model makes them final


ALL = Shortcuts()
WALK = Shortcuts(*(False for _ in Shortcuts._fields))


class _Width(dict):
    """Cells per character, memoised (the hot paths look widths up with ``map``): -1 where terminals
    disagree (the shared width table), so that no column is ever computed across such a character."""

    def __missing__(self, char: str) -> int:
        width = self[char] = settled_width(char)
        return width


_WIDTH = _Width()


def _is_plain(text: str) -> bool:
    """True when every character of ``text`` is printable ASCII, i.e. exactly one cell wide."""
    return text.isascii() and text.isprintable()


_NARROW = {chr(code) for code in range(0x20, 0x7F)}  # grows with every character found one cell wide
_NARROW_PATTERN_LIMIT = 1024  # characters in the pattern below, at most (compiling it costs per character)


def _other_than(chars: set[str]) -> re.Pattern[str]:
    return re.compile("[^" + "".join(sorted(map(re.escape, chars))) + "]")


_NOT_NARROW = _other_than(_NARROW)  # a character not yet known to be one cell wide (a search runs in C)


def _all_narrow(text: str) -> bool:
    """True when every character of ``text`` takes exactly one cell (HT and the sentinels do not)."""
    global _NOT_NARROW
    if _is_plain(text):
        return True
    found = _NOT_NARROW.search(text)
    if found is None:
        return True
    chars = set(text[found.start():])  # a hash per character only from the first one not yet known
    if chars <= _NARROW:
        return True
    for char in chars - _NARROW:
        if _WIDTH[char] != 1:
            return False
        _NARROW.add(char)
    if len(_NARROW) <= _NARROW_PATTERN_LIMIT:
        _NOT_NARROW = _other_than(_NARROW)
    return True


def _stable_width(text: str) -> int | None:
    """Cells taken by written ``text`` (no controls), or None if it holds a zero-width/ambiguous char."""
    if _all_narrow(text):
        return len(text)
    widths = list(map(_WIDTH.__getitem__, text))
    if widths and min(widths) < 1:
        return None
    return sum(widths)


# ---------------------------------------------------------------------------------------------------
# What each escape sequence does


class _Action(NamedTuple):
    op: str
    count: int = 0
    detail: str = ""  # for REFUSE: why
    disagree: bool = False  # for REFUSE: terminals disagree (final)
    idle_when_appending: bool = False  # no effect while the cursor is at the end of an append-mode row


INERT = "inert"
REFUSE = "refuse"
_INERT = _Action(INERT, idle_when_appending=True)


def _refuse(detail: str) -> _Action:
    return _Action(REFUSE, detail=detail)


def _csi_text(seq: Sequence) -> str:
    parts = ["CSI"]
    if seq.private:
        parts.append(seq.private)
    if seq.params:
        parts.append(seq.params)
    parts.append(seq.intermediates.replace(" ", "SP ") + seq.final)
    return " ".join(parts)


def _sequence_label(seq: Sequence) -> str:
    """A readable name for a sequence: ``CSI 2 J (ED)``, ``ESC 8 (DECRC)``, ``ESC ( 0 (G0 designation)``."""
    if seq.kind is Kind.CSI:
        text, name = _csi_text(seq), CSI_NAMES.get(seq.final)
    elif seq.kind is Kind.ESC2:
        text, name = f"ESC {seq.final}", ESC_NAMES.get(seq.final)
    elif seq.kind is Kind.NF:
        text, name = f"ESC {seq.intermediates} {seq.final}", NF_NAMES.get(seq.intermediates[0])
    else:
        return f"{seq.kind.name} string"
    return f"{text} ({name})" if name else text


def _numeric(seq: Sequence) -> bool:
    """A single, plain decimal parameter (or none): the only form cursor controls are resolved in."""
    return not seq.private and not seq.intermediates and (seq.params == "" or seq.params.isdigit())


# HPR and VPR are not here (refused): xterm and pyte move the cursor, tmux ignores them.
_CURSOR_CONTROLS = {
    # final: (operation, default count)
    ECH: ("erase_characters", 1),
    CHA: ("cursor_to_column", 1),
    HPA: ("cursor_to_column", 1),
    CUF: ("cursor_forward", 1),
    CUB: ("cursor_back", 1),
    CUU: ("cursor_up", 1),
    CUD: ("cursor_down", 1),
    CNL: ("next_line", 1),
    CPL: ("previous_line", 1),
}
_UPWARDS = ("cursor_up", "previous_line")  # counted as negative row deltas
_VERTICAL = {"cursor_up": "move_rows", "cursor_down": "move_rows",
             "next_line": "move_rows_home", "previous_line": "move_rows_home"}


def _csi_action(seq: Sequence) -> _Action:
    action = _csi_meaning(seq)
    if action.op != INERT and len(seq.params) >= grammar.PARAMETER_BYTES_LIMIT:
        # tmux 3.3a keeps parameter bytes in param_buf[64] and discards a sequence that fills it; xterm acts.
        text = _csi_text(seq)
        shown = text if len(text) <= 40 else text[:39] + "…"
        detail = f"{shown}: {grammar.PARAMETER_BYTES_LIMIT} or more parameter bytes"
        return _Action(REFUSE, detail=detail, disagree=True)
    if action.op not in (INERT, REFUSE) and grammar.above_range(seq.params):
        # tmux ignores the whole sequence, xterm clamps the parameter: no column is agreed on.
        detail = f"{_csi_text(seq)}: a parameter above {grammar.PARAMETER_RANGE_LIMIT}"
        return _Action(REFUSE, detail=detail, disagree=True)
    return action


def _csi_meaning(seq: Sequence) -> _Action:
    final, private, params = seq.final, seq.private, seq.params
    if not seq.intermediates:
        if final == SGR:  # SGR, and XTMODKEYS / XTQMODKEYS with a private marker
            return _INERT
        if (
            (final == XTWINOPS and private in ("", ">"))  # window operations, XTSMTITLE
            or (final == DA and private in ("", ">", "="))  # DA1, DA2, DA3
            or (final == DSR and private in ("", "?", ">"))  # DSR, DECDSR, XTMODKEYS reset
            or (final == SCORC and private in ("<", "=", ">", "?"))  # kitty keyboard protocol
            or (final == DECSCUSR and private == ">")  # XTVERSION
        ):
            return _INERT
        if final in (SM, RM) and private == "?":
            modes = seq.numbers(default=-1)
            harmful = [mode for mode in modes if mode not in HARMLESS_PRIVATE_MODES]
            if not harmful:
                return _Action("autowrap_off") if final == RM and DECAWM in modes else _INERT
            name = PRIVATE_MODE_NAMES.get(harmful[0], "DEC private mode")
            verb = "DECSET" if final == SM else "DECRST"
            return _refuse(f"{_csi_text(seq)} ({verb} {harmful[0]}, {name})")
        if final in (SM, RM) and not private and params.isdigit() and set(seq.numbers(default=-1)) <= INERT_ANSI_MODES:
            return _INERT  # SM / RM 34 (cursor visibility): nothing shown changes, in tmux or xterm
        if final == SCOSC and not private and not params:
            return _Action("save_cursor")  # SCOSC
        if final == SCORC and not private and not params:
            return _Action("restore_cursor")  # SCORC
        modes = seq.decimal()
        if final == EL and not private and modes is not None and len(modes) == 1 and modes[0] <= 2:
            return _Action("erase_in_line", modes[0], idle_when_appending=modes[0] == 0)  # EL
        if not private and modes is not None and _homes_or_clears(final, modes):
            return _Action("clear_before_output")  # ED, CUP / HVP home: harmless only before any output
        if final in _CURSOR_CONTROLS and _numeric(seq):
            operation, default = _CURSOR_CONTROLS[final]
            count = seq.first(default)
            if operation in _VERTICAL:
                return _Action(_VERTICAL[operation], -count if operation in _UPWARDS else count)
            return _Action(operation, count, idle_when_appending=operation == "erase_characters")
    elif seq.intermediates == " " and final == DECSCUSR and not private:
        return _INERT  # DECSCUSR cursor style
    elif seq.intermediates == "$" and final == DECRQM and private in ("", "?"):
        return _INERT  # DECRQM: a query
    return _refuse(_sequence_label(seq))


def _homes_or_clears(final: str, numbers: list[int]) -> bool:
    """ED (any mode), or CUP / HVP to row 1, column 1 (``numbers``: the plain decimal parameters)."""
    if final == ED:
        return len(numbers) == 1 and numbers[0] <= 3
    return final in (CUP, HVP) and len(numbers) <= 2 and all(number <= 1 for number in numbers)


def _escape_action(seq: Sequence) -> _Action:
    final = seq.final
    if final == DECSC:
        return _Action("save_cursor")
    if final == DECRC:
        return _Action("restore_cursor")
    if final == RI:
        return _Action("move_rows", -1)
    if final in (DECKPAM, DECKPNM, ST_FINAL):  # a lone ST
        return _INERT
    return _refuse(_sequence_label(seq))


def _nf_action(seq: Sequence) -> _Action:
    intermediates = seq.intermediates
    if (intermediates == G0_DESIGNATE and seq.final == CHARSET_US_ASCII) or intermediates[0] in G1_TO_G3_DESIGNATE:
        return _INERT
    if intermediates == CODING_SYSTEM and seq.final == DOCS_UTF8:  # select UTF-8: what the decoded text already is
        return _INERT
    return _refuse(_sequence_label(seq))


def _sequence_action(text: str) -> _Action:
    """Interpret one complete sequence that starts with ESC."""
    if "\x9c" in text:  # a C1 ST: the string really ends there, outside any payload
        return _refuse("C1 control U+009C (ST)")
    seq = grammar.parse(text)
    kind = seq.kind
    if kind is Kind.CSI:
        return _csi_action(seq)
    if kind is Kind.ESC2:
        return _escape_action(seq)
    if kind is Kind.NF:
        return _nf_action(seq)
    if _swallows_on(seq):
        return _Action(STRING_SWALLOWS_ON)
    return _INERT  # OSC, DCS, SOS, PM, APC, and sequences cancelled by CAN / SUB


STRING_SWALLOWS_ON = "string_swallows_on"
_DCS_HEADER = frozenset(map(chr, range(0x20, 0x40)))  # parameters and intermediates before DCS data


def _swallows_on(seq: Sequence) -> bool:
    """A string tmux does not end where the grammar does: DCS, SOS, PM or APC ended by BEL (tmux
    ignores BEL there and swallows up to the next ESC), or a DCS cancelled by CAN / SUB after its data
    began (tmux swallows DCS data up to ST)."""
    text = seq.text
    if seq.kind in (Kind.DCS, Kind.SOS, Kind.PM, Kind.APC):
        return text[-1] == BEL
    if seq.kind is Kind.CANCELLED and text[:2] == grammar.DCS:
        return not set(text[2:-1]) <= _DCS_HEADER
    return False


def _closer(string: str) -> str:
    """What ends, in tmux, a string :func:`_swallows_on` names: ST for a DCS whose data began (tmux
    reads DCS data on to ST), else the next ESC (SOS, PM, APC, and a DCS still in its header)."""
    began = string[:2] == grammar.DCS and not set(string[2:-1]) <= _DCS_HEADER
    return grammar.ST if began else ESC


_ACTION_CACHE: dict[str, _Action] = {}
_IDLE_WHEN_APPENDING: set[str] = set()  # cached sequences whose action is idle_when_appending
_ACTION_CACHE_LIMIT = 4096
_CACHED_SEQUENCE_LENGTH = 48


def _action_for(text: str) -> _Action:
    action = _ACTION_CACHE.get(text)
    if action is None:
        action = _sequence_action(text)
        if len(text) <= _CACHED_SEQUENCE_LENGTH:
            if len(_ACTION_CACHE) >= _ACTION_CACHE_LIMIT:
                _ACTION_CACHE.clear()
                _IDLE_WHEN_APPENDING.clear()
            _ACTION_CACHE[text] = action
            if action.idle_when_appending:
                _IDLE_WHEN_APPENDING.add(text)
    return action


def _control_name(char: str) -> str:
    code = ord(char)
    if char == ESC:
        return "ESC that starts no complete sequence (truncated or malformed)"
    if code < 0x20:
        return f"{C0_NAMES.get(code, 'C0 control')} (U+{code:04X})"
    return f"C1 control U+{code:04X}"


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
            width = _WIDTH[char]
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
        self.saved: tuple[int, int] | None = None
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
        if after and not after.startswith(_closer(self.token)):
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
        if _all_narrow(row):
            return len(row)
        self.charge(len(row))
        return _cells(row)

    def cells(self) -> list[str]:
        """The cursor's row as cells (not in append mode), converting a lazy string row once."""
        row = self.rows[self.row]
        if isinstance(row, list):
            return row
        self.charge(len(row))
        if _all_narrow(row):
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
                    width = _WIDTH[char]
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
        if isinstance(row, str) and col >= len(row) and _all_narrow(row):
            self.pieces = [row, self.padding(col - len(row)), text]
            return
        cells = self.cells()
        if _all_narrow(text):
            end = col + len(text)
            self.make_room(cells, col, end)
            cells[col:end] = text
            self.col = end
            return
        for char in text:
            width = _WIDTH[char]
            if width not in (1, 2):
                raise self.refuse(f"zero-width or ambiguous U+{ord(char):04X} written on a redrawn line")
            end = col + width
            self.make_room(cells, col, end)
            cells[col:end] = char if width == 1 else (char, WIDE_TAIL)
            col = end
        self.col = col

    def covers(self, text: str, row: str | list[str]) -> bool:
        """Whether ``text`` written from column 0 replaces every cell of ``row`` (and splits no tab)."""
        width = _stable_width(text)
        if width is None or width < len(row):
            return False
        self.charge(len(row))
        if isinstance(row, str):
            return _all_narrow(row)  # its length is its width only then
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
        if isinstance(row, str) and col >= len(row) and _all_narrow(row):
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
        if mode == 0 and isinstance(row, str) and _all_narrow(row):
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
        for index, char in enumerate(run):
            if char == CR:
                self.carriage_return()
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
        return _control_name(token)
    if token.startswith(ESC) and len(token) > 1:
        return _sequence_label(grammar.parse(token))
    return f"text {_clip(token)}"


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
        if pieces is None or text not in _IDLE_WHEN_APPENDING:
            action = _ACTION_CACHE.get(text) or _action_for(text)
            if action.op == REFUSE:
                raise Refusal(f"{action.detail} at offset {offset + escape}", offset + escape, action.disagree)
            if action.op != INERT and (pieces is None or not action.idle_when_appending):
                screen.offset = offset + escape
                screen.token = text
                operations[action.op](action.count)
                pieces = screen.pieces
        escape = line.find(ESC, position)
    if position < len(line):
        _feed_gap(screen, line[position:], offset + position)


def _line_model(text: str, unknown_width: bool = False, terminal: bool = True,
                shortcuts: Shortcuts = ALL, route: bool = False) -> list[str] | None:
    """Informative lines of a single page by the line model (today's fast path).

    Resolved, blank ones (empty or only spaces/tabs) dropped. Written spaces are kept (no right-trim of
    written spaces); never-written/erased cells are dropped at line end and render as ' ' inside a line.
    Tabs kept literally. Raises :class:`Refusal` for everything design.md lists as out of scope or
    unresolvable. ``route``: None where the token walk is sure to refuse (the caller goes on to the
    screen model and asks :func:`_line_refusal` for the refusal only if it needs it).
    """
    lines = _append_only_lines(text) if shortcuts.append else None  # no column depends on the width
    if lines is None and shortcuts.overlay:
        lines = _redrawn_lines(text, MIN_COLUMNS if unknown_width else None)
    if lines is None and shortcuts.rows:
        lines = _rows_lines(text, MIN_COLUMNS if unknown_width else None)
    if lines is None and route and shortcuts.route and len(text) <= _ROUTE_LIMIT and _line_model_refuses(text):
        return None
    return _model_lines(text, unknown_width, terminal) if lines is None else lines


def _model_lines(text: str, unknown_width: bool = False, terminal: bool = True) -> list[str]:
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


# ---------------------------------------------------------------------------------------------------
# The fast path: every line written once, left to right, by sequences the action table leaves idle

# Every sequence introduced by ESC, split out by the grammar; an ESC left over (malformed) stays in the
# text and sends it to the line model.
_APPENDED_SEQUENCE = grammar.ESC_SEQUENCES
# Left after those sequences: any control but HT, LF and CR (two classes: `re` scans a lone class fast).
_OTHER_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_CR_THEN_MORE = re.compile(r"\r[^\r\n]")  # a CR that is neither a line ending nor last: a redraw


def _append_only_lines(text: str) -> list[str] | None:
    """:func:`terminal_lines` when every line is written once left to right, else None.

    Then the model stays in append mode throughout: a sequence whose action is inert or idle when
    appending does nothing, a CR before LF or at the end only ends a row. Equal to the line model
    wherever it answers (tests/test_verify_fast_path.py)."""
    if CR in text and _CR_THEN_MORE.search(text) is not None:
        return None
    if ESC in text:
        parts = _APPENDED_SEQUENCE.split(text)
        for sequence in set(parts[1::2]):
            action = _action_for(sequence)
            if action.op != INERT and not action.idle_when_appending:
                return None
            found = _SEQUENCE_AT(sequence, 0)
            if found is None or found.end() != len(sequence):  # the grammar says where sequences end
                return None
        text = "".join(parts[::2])
        del parts
    if _OTHER_CONTROL.search(text) is not None:
        return None
    return [line for line in (line.rstrip(CR) for line in text.split(LF)) if line.strip(" \t")]


# ---------------------------------------------------------------------------------------------------
# The fast path for rows redrawn by CR alone (progress lines): overlaid as strings

_ERASED_TO_END = "\x00"  # stands for EL 0 in a stripped line (a NUL of the text itself is refused first)
_ERASED_ROW = "\x01"  # stands for EL 2: the same as EL 0 where it comes first in its segment
_MARKS = _ERASED_TO_END + _ERASED_ROW
_CR_RUN = re.compile(CR + "+")
# CSI finals that, without a private marker or intermediates, the action table never leaves inert
# (cursor moves, erases but EL, edits, scrolling, tab stops, margins, cursor save/restore)
_NEVER_OVERLAID = grammar.csi_ending_in(
    CUU + CUD + CUF + CUB + CNL + CPL + CHA + CUP + ED + IL + DL + DCH + SU + SD + ECH + CBT + ICH + HPA + HPR
    + REP + VPA + VPR + HVP + TBC + DECSTBM + SCOSC + SCORC
)


def _redrawn_lines(text: str, margin: int | None) -> list[str] | None:
    """:func:`terminal_lines` when every row is written from column 0 by CR-separated segments, else None.

    Sequences must be inert by this module's action table, or EL 0 / EL 2 (EL 2 only where nothing of
    its segment is written yet); a row a CR redraws may hold only characters one cell wide by the
    width table (no HT, no zero-width, ambiguous or wide character), so a segment's width is its
    length. Then a later segment overwrites the cells of earlier ones and a longer earlier segment's
    tail survives; an EL resets the row to its own segment. ``margin``: no segment that a later CR or
    EL acts on may reach it (the unknown width's narrowest terminal; or the known width). The row
    model charges such rows a few cells per character, far under its budget per input character, so
    the budget is charged nothing here. Equal to the token walk wherever it answers
    (tests/test_verify_fast_path.py)."""
    if _NEVER_OVERLAID.search(text) is not None:
        return None  # doomed: answered before building a list of every part (time and peak memory)
    parts = _APPENDED_SEQUENCE.split(text)
    if _OTHER_CONTROL.search("".join(parts[::2])) is not None:
        return None
    replace: dict[str, str] = {}
    for sequence in set(parts[1::2]):
        action = _action_for(sequence)
        if action.op == INERT:
            replace[sequence] = ""
        elif action.op == "erase_in_line" and action.count in (0, 2):
            replace[sequence] = _ERASED_ROW if action.count else _ERASED_TO_END
        else:
            return None
        found = _SEQUENCE_AT(sequence, 0)
        if found is None or found.end() != len(sequence):  # the grammar says where sequences end
            return None
    parts[1::2] = map(replace.__getitem__, parts[1::2])
    lines: list[str] = []
    split = "".join(parts).split(LF)
    last = len(split) - 1
    for number, line in enumerate(split):
        if CR in line or _ERASED_ROW in line or _ERASED_TO_END in line:
            row = _overlay(line, margin, number < last)
            if row is None:
                return None
            line = row
        if line.strip(" \t"):
            lines.append(line)
    return lines


def _overlay(line: str, margin: int | None, ends_before_lf: bool) -> str | None:
    """The row CR-separated segments (with EL marks) leave, or None where a width is not settled."""
    marked = _ERASED_ROW in line or _ERASED_TO_END in line
    written = line.replace(CR, "")
    if marked:
        written = written.replace(_ERASED_TO_END, "").replace(_ERASED_ROW, "")
    if not _all_narrow(written):  # HT, and every zero-width, ambiguous or wide character, is not
        return None
    segments = _CR_RUN.split(line)  # a run of CRs acts as one
    # the row is acted on at every CR run but one CR right before LF, and at every EL
    acted = len(segments) - 1 - (ends_before_lf and line.endswith(CR) and not line.endswith(CR + CR))
    if not marked:
        if margin is not None and acted > 0 and max(map(len, segments[:acted])) >= margin:
            return None
        longest = max(map(len, segments))
        row = ""
        for segment in reversed(segments):  # the last segment's cells, then earlier segments' tails
            if len(segment) > len(row):
                row += segment[len(row):]
                if len(row) == longest:
                    break
        return row
    texts: list[str] = []
    resets: list[bool] = []
    widest = 0  # the row's width so far, at most
    for index, segment in enumerate(segments):
        reset = False
        if _ERASED_ROW in segment or _ERASED_TO_END in segment:
            if _ERASED_ROW in segment.lstrip(_MARKS):
                return None  # EL 2 after text of its segment: the erased cells before the cursor stay blank
            reset = True
            segment = segment.replace(_ERASED_TO_END, "").replace(_ERASED_ROW, "")
        width = max(widest, len(segment))
        if margin is not None and width >= margin and (reset or index < acted):
            return None  # a CR or EL would act on a row reaching the margin
        widest = len(segment) if reset else width
        texts.append(segment)
        resets.append(reset)
    row = ""
    for segment, reset in zip(reversed(texts), reversed(resets), strict=True):
        if len(segment) > len(row):
            row += segment[len(row):]
        if reset:
            break
    return row


# ---------------------------------------------------------------------------------------------------
# The fast path for rows redrawn in place (multi-row progress displays, spinners, overstrike): the
# token walk's own steps on rows of one-cell characters held as strings

# Cursor moves and edits this path does not take (CUP, ED, ECH, DCH, scrolling, margins, ...)
_NEVER_ROWS = grammar.csi_ending_in(
    CUP + ED + IL + DL + DCH + SU + SD + ECH + CBT + ICH + HPA + HPR + REP + VPA + VPR + HVP + TBC + DECSTBM
    + SCOSC + SCORC
)
_ROW_OPERATIONS = frozenset({"erase_in_line", "move_rows", "move_rows_home", "cursor_to_column", "cursor_back",
                             "cursor_forward"})
_INERT_MARK = "\x1a"  # where an inert sequence was: it splits a write in two, as in the token walk
_OPERATION_MARKS = "".join(map(chr, (*range(0x00, 0x07), 0x0B, 0x0C, *range(0x0E, 0x1A), *range(0x1C, 0x20))))
_NOT_PRINTABLE_ASCII = re.compile("[^ -~\r\n\b\a]+")
_ROW_SEQUENCE = grammar.ESC_SEQUENCES
_ROW_TOKEN = re.compile(f"[\r\b\a]+|[{re.escape(_OPERATION_MARKS)}]|[^\r\b\a{re.escape(_OPERATION_MARKS)}]+")


def _rows_lines(text: str, margin: int | None) -> list[str] | None:
    """:func:`terminal_lines` where every character written is one cell wide (no HT, no other
    control but CR, LF, BS and BEL) and every sequence is inert or EL 0 / EL 2, CUU, CUD, CNL, CPL,
    CUB, or CUF / CHA below the narrowest margin; else None. Each sequence is replaced by a mark (one character, a
    control the written text cannot hold), so a row appended to is taken a line at a time, and the
    rest is :func:`_walk_rows`. Equal to the token walk wherever it answers
    (tests/test_verify_fast_path.py)."""
    if _NEVER_ROWS.search(text) is not None:
        return None
    # every character but CR, LF, BS and ESC one cell wide (so no control a mark stands for), found by
    # runs of the others before anything is split (a set of every character would cost a hash each); an
    # ESC left over once the sequences are taken out is not narrow either (checked after the split)
    others = set(_NOT_PRINTABLE_ASCII.findall(text))
    if others and not _all_narrow("".join(others).replace(ESC, "")):
        return None
    parts = _ROW_SEQUENCE.split(text)
    marks: dict[str, str] = {}
    actions: dict[str, tuple[str, int]] = {}
    for sequence in set(parts[1::2]):
        action = _action_for(sequence)
        if action.op == INERT:
            marks[sequence] = _INERT_MARK
        elif action.op in _ROW_OPERATIONS and len(actions) < len(_OPERATION_MARKS):
            if action.op == "erase_in_line" and action.count == 1:
                return None  # EL 1 leaves unwritten cells before the cursor
            if action.op == "cursor_to_column" and action.count - 1 >= MIN_COLUMNS:
                return None  # past the narrowest margin the token walk measures the row
            mark = marks[sequence] = _OPERATION_MARKS[len(actions)]
            actions[mark] = (action.op, action.count)
        else:
            return None
        found = _SEQUENCE_AT(sequence, 0)
        if found is None or found.end() != len(sequence):  # the grammar says where sequences end
            return None
    parts[1::2] = map(marks.__getitem__, parts[1::2])
    marked = "".join(parts)
    del parts
    if ESC in marked:
        return None  # an escape sequence of another form, or a malformed one: the token walk's
    lines = marked.split(LF)
    del marked
    # the work the token walk would charge, over-counted: a quarter of its budget, so it never runs out
    return _walk_rows(lines, actions, margin, (WORK_ALLOWANCE + WORK_PER_INPUT_CHAR * len(text)) // 4)


def _walk_rows(
    lines: list[str], actions: dict[str, tuple[str, int]], margin: int | None, budget: int
) -> list[str] | None:
    """:class:`_Screen`'s steps for marked lines of one-cell characters, on strings, or None.

    The same state as the token walk: ``rows``, the cursor's row ``r``, ``pieces`` (append mode),
    ``col`` (updated exactly where the token walk updates it), and ``listed``, the rows it holds as
    cell lists (written in the middle), where a write at the row's end stays out of append mode. Each
    step is the token walk's operation of the same name; wherever that would pad, measure a width,
    reach the narrowest margin (``margin``: check_layout's row past it, or cursor at it), leave the
    rows or run out of work, this gives None instead. Inlined for speed: one step per token costs no call."""
    rows = [""]
    listed: set[int] = set()
    r = 0
    pieces: list[str] | None = []
    col = 0
    work = 0
    last_line = len(lines) - 1
    for number, line in enumerate(lines):
        if number:  # line_feed
            if pieces is not None:
                joined = rows[r] = "".join(pieces)
                work += len(joined)
                pieces = None
            if margin is not None and len(rows[r]) > margin and r < len(rows) - 1:
                return None  # check_wrap_below
            r += 1
            if r == len(rows):
                rows.append("")
                pieces = []
            else:
                col = 0
            if work > budget:
                return None
        if not line:
            continue
        if pieces is not None:
            plain = line.replace(_INERT_MARK, "") if _INERT_MARK in line else line
            if plain.isprintable():  # no CR, BS or mark: appended whole
                pieces.append(plain)
                continue
        tokens = _ROW_TOKEN.findall(line)
        last = len(tokens) - 1
        for index, token in enumerate(tokens):
            first = token[0]
            if first == CR or first == BS or first == BEL:  # control_run: homogeneous at once, else by char
                if token.count(first) == len(token):
                    before = index == last and number < last_line  # the next character is LF
                    steps: Iterable[tuple[str, int, bool]] = ((first, len(token), before),)
                else:
                    steps = [(char, 1, False) for char in token]
                for char, count, before_lf in steps:
                    if char == BEL:
                        continue
                    if pieces is not None:  # end_append (cursor_column for BS)
                        joined = rows[r] = "".join(pieces)
                        work += len(joined)
                        pieces = None
                        if char == BS:
                            col = len(joined)
                    if char == CR:  # carriage_return
                        if margin is not None and not before_lf and len(rows[r]) > margin:
                            return None
                        col = 0
                    else:  # cursor_back
                        if margin is not None and (col >= margin or len(rows[r]) > margin):
                            return None
                        col = col - count if col > count else 0
                continue
            action = actions.get(first)
            if action is not None:
                op, count = action
                if op == "erase_in_line":
                    if pieces is not None:
                        if count == 0:
                            continue  # idle when appending
                        joined = rows[r] = "".join(pieces)  # cursor_column
                        work += len(joined)
                        pieces = None
                        col = len(joined)
                        if margin is not None and col >= margin:
                            return None
                        rows[r] = ""
                        listed.discard(r)
                        continue
                    row = rows[r]
                    if not row:
                        continue
                    if margin is not None and (col >= margin or len(row) > margin):
                        return None
                    if count == 2 or col == 0:
                        rows[r] = ""
                        listed.discard(r)
                    else:
                        work += len(row)
                        rows[r] = row[:col]
                    continue
                if pieces is not None:  # end_append (cursor_column for a vertical move)
                    joined = rows[r] = "".join(pieces)
                    work += len(joined)
                    pieces = None
                    if op != "cursor_to_column":
                        col = len(joined)
                if op == "cursor_back":
                    if margin is not None and (col >= margin or len(rows[r]) > margin):
                        return None
                    col = col - count if col > count else 0
                    continue
                if op == "cursor_forward":  # past the narrowest margin the token walk measures the row
                    col += count
                    if col >= MIN_COLUMNS:
                        return None
                    continue
                if op == "cursor_to_column":  # checked with the column the cursor had before append mode
                    if margin is not None and (col >= margin or len(rows[r]) > margin):
                        return None
                    col = count - 1
                    continue
                target = r + count  # move_rows, move_rows_home
                lowest = len(rows) - 1
                if target < 0 or target > lowest or target < lowest - (SCREEN_LINES - 1):
                    return None  # the token walk refuses
                if margin is not None:
                    if col >= margin:
                        return None
                    for between in range(min(r, target), max(r, target) + 1):
                        if len(rows[between]) > margin:
                            return None
                r = target
                if op == "move_rows_home":
                    col = 0
                continue
            # text, with the marks of inert sequences: the writes between them, as the token walk makes them
            if pieces is not None:
                pieces.append(token.replace(_INERT_MARK, "") if _INERT_MARK in token else token)
                continue
            chunks = token.split(_INERT_MARK) if _INERT_MARK in token else (token,)
            for at, chunk in enumerate(chunks):
                if pieces is not None:
                    pieces.append("".join(chunks[at:]))
                    break
                if not chunk:
                    continue
                row = rows[r]  # write
                if col == 0 and len(chunk) >= len(row):  # covers the row
                    work += len(row)
                    pieces = [chunk]
                    listed.discard(r)
                elif col > len(row):
                    return None  # the token walk pads with unwritten cells
                elif col == len(row) and r not in listed:
                    work += len(row) + len(chunk)
                    pieces = [row, chunk]
                else:
                    listed.add(r)  # the token walk's cells
                    end = col + len(chunk)
                    work += len(row) + len(chunk)
                    if work > budget:
                        return None
                    rows[r] = row[:col] + chunk + row[end:]
                    col = end
    if pieces is not None:
        rows[r] = "".join(pieces)
    if margin is not None and len(rows[r]) > margin and any(rows[r + 1:r + 1 + (len(rows[r]) - 1) // margin]):
        return None  # check_wrap_below at the end
    return [row for row in rows if row.strip(" \t")]


def _line_model_fits(text: str, columns: int | None, rows: int | None) -> bool:
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


# ---------------------------------------------------------------------------------------------------
# Texts the line model is sure to refuse (page breaks after output, sequences it never resolves) go
# straight to the screen model; its refusal, which names the first such place, only if asked for

# The check splits the whole text, the walk it saves stops at its first refusal: past this size the
# split's list would cost more memory than the walk it spares (a refusal early in megabytes)
_ROUTE_LIMIT = 64 * 1024
# a CSI whose final is none of SGR, EL, ECH and the cursor moves the action table resolves (nor the
# cursor hidden or shown, which progress displays write around every frame): a text
# without one is not routed (a missed routing only costs the walk, which is the reference anyway)
_MAY_BE_REFUSED = grammar.csi_ending_otherwise(
    SGR + EL + ECH + CHA + CUU + CUF + CUB + CUD + CNL + CPL + HPA, unless_private_modes=(DECTCEM,)
)
_HOME_OR_CLEAR = "clear_before_output"


def _line_model_refuses(text: str) -> bool:
    """True only where the token walk surely raises a plain :class:`Refusal` (never a disputed one,
    which is final): every ESC starts a CSI or OSC the grammar ends where
    the verifier's pattern does, none has an action that terminals disagree on, and one is refused
    outright, or clears or homes the screen after a line feed (the walk's rows never shrink, so the
    output has begun there). The walk stops at its first refusal; whichever it meets first is plain."""
    if _MAY_BE_REFUSED.search(text) is None:
        return False  # SGR, EL and cursor moves (at worst one refused is missed: the walk then finds it)
    parts = _APPENDED_SEQUENCE.split(text)
    if any(ESC in part for part in parts[::2]):
        return False
    refused = False
    first_clear = -1
    for sequence in set(parts[1::2]):
        found = _SEQUENCE_AT(sequence, 0)
        if found is None or found.end() != len(sequence):
            return False
        action = _action_for(sequence)
        if action.disagree or action.op == STRING_SWALLOWS_ON:
            return False
        if action.op == REFUSE:
            refused = True
        elif action.op == _HOME_OR_CLEAR:
            at = text.find(sequence)
            first_clear = at if first_clear < 0 else min(first_clear, at)
    return refused or (first_clear >= 0 and LF in text[:first_clear])


def _line_refusal(text: str, unknown_width: bool, terminal: bool) -> Refusal:
    """The line model's refusal of a text :func:`_line_model` routed on (found by the walk only where a
    message needs it)."""
    try:
        _model_lines(text, unknown_width, terminal)
    except Refusal as exc:
        return exc
    return Refusal("the line model was expected to refuse this text")  # not reached (tested)


def _first_page(
    text: str, columns: int | None, rows: int | None, terminal: bool, shortcuts: Shortcuts = ALL,
) -> tuple[list[str] | None, Callable[[], Refusal] | None]:
    """The line model's answer where its assumptions hold: its lines, or None and how to get its
    refusal (the walk runs again only where a message needs it); ``(None, None)`` where the line model
    does not apply. A disputed refusal is raised (final)."""
    if not _line_model_fits(text, columns, rows):
        return None, None
    unknown_width = terminal and columns is None
    try:
        lines = _line_model(text, unknown_width, terminal, shortcuts, route=True)
    except Refusal as exc:
        if exc.disputed:
            raise
        found = exc
        return None, lambda: found
    if lines is None:
        return None, lambda: _line_refusal(text, unknown_width, terminal)
    return lines, None


def terminal_lines(
    text: str, *, columns: int | None = None, rows: int | None = None, terminal: bool = True, fresh: bool = False,
    shortcuts: Shortcuts = ALL,
) -> list[str]:
    """Informative lines a terminal shows for ``text``, page after page (docs/design.md, 'Pages').

    Resolved, blank ones (empty or only spaces/tabs) dropped. Written spaces are kept (no right-trim of
    written spaces); never-written/erased cells are dropped at line end and render as ' ' inside a line.
    Tabs kept literally. ``columns`` / ``rows``: the terminal's size when known (else at least 80 x 24,
    no wrapping assumed); ``terminal=False``: no terminal (logical lines, no right margin, strings end
    at BEL); ``fresh``: a new terminal (empty screen, cursor home). Raises :class:`Refusal` for
    anything the models cannot decide.
    """
    lines, refusal = _first_page(text, columns, rows, terminal, shortcuts)
    if lines is not None:
        return lines
    from . import verify_screen

    try:
        pages = verify_screen.pages(text, columns, rows, strict=True, terminal=terminal, fresh=fresh)
    except Refusal as exc:
        if refusal is not None and (exc.page or 0) == 0:
            raise refusal() from None
        raise
    return [line for page in pages for line in page.lines]


# ---------------------------------------------------------------------------------------------------
# Comparing a candidate


def _clip(text: str, limit: int = 60) -> str:
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _candidate_lines(candidate: str) -> list[str]:
    lines = (line.rstrip(CR) for line in candidate.split(LF))
    return [line for line in lines if line.strip(" \t")]


_JOINED_LIMIT = 1 << 20  # characters: larger candidates are read line by line (no copies of them)
_WHITESPACE_LINE = re.compile(LF + "[ \t]+(?=" + LF + "|\\Z)")  # a line of spaces and tabs, after the first


def _same_lines(expected: list[str], candidate: str, joined: bool = True) -> bool:
    """``_candidate_lines(candidate) == expected``, reading the candidate line by line (no list).

    First by whole strings where every CR of the candidate ends a line (CR LF, whose CR the reading
    strips) and no line holds only spaces and tabs: its informative lines are then its non-empty
    ones, which joined are the candidate with CR LF made LF, runs of LF made one and stripped at both
    ends; lists of LF-free lines are equal exactly when joined with LF they are
    (tests/test_verify_fast_path.py compares with the line by line reading)."""
    text = candidate
    joining = joined and len(candidate) <= _JOINED_LIMIT  # copies of the candidate: memory
    if joining and CR in text and text.count(CR) == text.count(CR + LF):
        text = text.replace(CR + LF, LF)
    if (joining and CR not in text and not text.startswith((" ", "\t"))
            and _WHITESPACE_LINE.search(text) is None):
        joined = LF.join(expected)
        # an empty expected line leaves an empty join, or LF at an end or twice: never equal then
        if joined and joined.count(LF) == len(expected) - 1:
            text = text.strip(LF)
            if LF + LF in text:  # blank lines between: the non-empty ones (a pattern for runs scans slowly)
                text = LF.join(filter(None, text.split(LF)))
            if text == joined:
                return True
    del text
    want = iter(expected)
    start = 0
    while True:
        end = candidate.find(LF, start)
        line = (candidate[start:] if end < 0 else candidate[start:end]).rstrip(CR)
        if line.strip(" \t") and next(want, None) != line:
            return False
        if end < 0:
            return next(want, None) is None
        start = end + 1


def _line_difference(expected: list[str], got: list[str]) -> str | None:
    if got == expected:
        return None
    for index, (want, have) in enumerate(zip(expected, got, strict=False)):
        if want != have:
            number = index + 1
            if index + 1 < len(expected) and expected[index + 1] == have:
                return f"line {number}: missing {_clip(want)}"
            if index + 1 < len(got) and got[index + 1] == want:
                return f"line {number}: unexpected extra line {_clip(have)}"
            return f"line {number}: expected {_clip(want)}, got {_clip(have)}"
    number = min(len(expected), len(got)) + 1
    if len(got) < len(expected):
        return f"line {number}: missing {_clip(expected[number - 1])} (candidate ends early)"
    return f"line {number}: unexpected extra line {_clip(got[number - 1])} (expected the end)"


def first_difference(
    raw: str, candidate: str, *, columns: int | None = None, rows: int | None = None, terminal: bool = True,
    fresh: bool = False, shortcuts: Shortcuts = ALL,
) -> Difference | None:
    """None if ``candidate`` shows every informative line of ``raw``, page by page; else where not.

    The candidate is, per raw page, a cleaned page (plain text whose non-blank lines, split on LF with
    trailing CRs stripped, are the page's informative lines) or a kept page (the page's raw bytes);
    see :func:`verify_pages.first_difference` for the pages. An unresolvable one-page ``raw`` gives
    ``"unresolvable: "`` and the reason. The display, as :func:`terminal_lines` takes it: a terminal of
    ``columns`` x ``rows`` (either unknown), or none (``terminal=False``); ``fresh``, a new terminal.
    """
    try:
        expected, refusal = _first_page(raw, columns, rows, terminal, shortcuts)
    except Refusal as exc:
        return Difference(f"unresolvable: {exc}", exc.offset, disputed=True)
    if expected is not None:
        if _same_lines(expected, candidate, shortcuts.joined):  # the common case: no list of the candidate's lines
            return None
        return Difference(_line_difference(expected, _candidate_lines(candidate)) or "")
    from . import verify_pages

    return verify_pages.first_difference(raw, candidate, columns, rows, refusal, terminal=terminal, fresh=fresh,
                                         shortcuts=shortcuts)
