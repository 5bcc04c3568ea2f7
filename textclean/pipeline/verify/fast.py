"""The verifier's shortcuts: paths that answer before the walk (the screen model, token by token)
where they can, each equal to it wherever it answers (tests/test_verify_fast_path.py), chosen by a
:class:`Shortcuts` argument.

Each is kept because it pays for itself (``python -m benchmarks.bench --only shortcuts``: the CPU time
without it, against all of them): append-only text, rows redrawn by CR alone (overlaid as strings),
rows redrawn in place (walked as strings), a candidate compared as one string, the screen model's
lines that only append (each at once), pages matched as the screen model makes them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from .. import grammar
from ..grammar import BEL, BS, CR, ESC, HT, LF
from ..model import MIN_COLUMNS, SCREEN_LINES, TAB_WIDTH, WORK_ALLOWANCE, WORK_PER_INPUT_CHAR
from ..names import (
    CBT,
    CHA,
    CNL,
    CPL,
    CUB,
    CUD,
    CUF,
    CUP,
    CUU,
    DCH,
    DECSTBM,
    DL,
    ECH,
    ED,
    HPA,
    HPR,
    HVP,
    ICH,
    IL,
    REP,
    SCORC,
    SCOSC,
    SD,
    SU,
    TBC,
    VPA,
    VPR,
)
from .meaning import INERT, WIDTH, action_for, all_narrow


class Shortcuts(NamedTuple):
    """Which of the verifier's fast paths answer before the walk where they can (each equal to it
    wherever it answers: tests/test_verify_fast_path.py). All by default; :data:`WALK`: none, the
    reference the tests compare them with."""

    append: bool = True  # every line written once, left to right: the text without its sequences
    overlay: bool = True  # rows redrawn by CR (and EL) alone: overlaid as strings
    rows: bool = True  # rows redrawn in place by CR, BS, EL and row moves: walked as strings
    joined: bool = True  # a candidate compared as one string, not line by line
    plain_lines: bool = True  # the screen model: lines that only append, each at once
    streamed: bool = True  # pages matched as the screen model makes them final
    replayed: bool = True  # the screen model: a page after a home and ED 2 walked before from the same state
    # ... or one whose text differs from a page walked before only in printable characters other than space
    # (a counter, a clock): its lines made from that walk's template (with ``replayed``)
    shaped: bool = True
    runs: bool = True  # the screen model: text split only by SGR, appended to a row's end, written at once
    redrawn: bool = True  # the screen model: lines redrawn by CR (and EL 0 / EL 2) alone, overlaid as strings


ALL = Shortcuts()
WALK = Shortcuts(*(False for _ in Shortcuts._fields))


# ---------------------------------------------------------------------------------------------------
# The fast path: every line written once, left to right, by sequences the action table leaves idle

# Every sequence introduced by ESC, split out by the grammar (each piece is what grammar.match_at finds at
# its ESC: tests/test_grammar.py); an ESC left over (malformed) stays in the text and sends it to the walk.
_APPENDED_SEQUENCE = grammar.ESC_SEQUENCES
# Left after those sequences: any control but HT, LF and CR (two classes: `re` scans a lone class fast).
_OTHER_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_CR_THEN_MORE = re.compile(r"\r[^\r\n]")  # a CR that is neither a line ending nor last: a redraw


def append_only_lines(text: str) -> list[str] | None:
    """:func:`terminal_lines` when every line is written once left to right, else None.

    Then the model stays in append mode throughout: a sequence whose action is inert or idle when
    appending does nothing, a CR before LF or at the end only ends a row. Equal to the walk
    wherever it answers (tests/test_verify_fast_path.py)."""
    if CR in text and _CR_THEN_MORE.search(text) is not None:
        return None
    if ESC in text:
        parts = _APPENDED_SEQUENCE.split(text)
        for sequence in set(parts[1::2]):
            action = action_for(sequence)
            if action.op != INERT and not action.idle_when_appending:
                return None
        text = "".join(parts[::2])
        del parts
    if _OTHER_CONTROL.search(text) is not None:
        return None
    lines = [line for line in (line.rstrip(CR) for line in text.split(LF)) if line.strip(" \t")]
    return None if not text.isascii() and _zero_width_first(lines) else lines


def _zero_width_first(lines: list[str]) -> bool:
    """A line whose first character is zero-width: it joins no character before it (tmux drops it),
    which the walk refuses."""
    return any(WIDTH[line[0]] == 0 for line in lines)


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


def redrawn_lines(text: str, margin: int | None) -> list[str] | None:
    """:func:`terminal_lines` when every row is written from column 0 by CR-separated segments, else None.

    Sequences must be inert by this module's action table, or EL 0 / EL 2 (EL 2 only where nothing of
    its segment is written yet); a row a CR redraws may hold only characters one cell wide by the
    width table (no HT, no zero-width, ambiguous or wide character), so a segment's width is its
    length. Then a later segment overwrites the cells of earlier ones and a longer earlier segment's
    tail survives; an EL resets the row to its own segment. ``margin``: no segment that a later CR or
    EL acts on may reach it (the unknown width's narrowest terminal; or the known width). The row
    model charges such rows a few cells per character, far under its budget per input character, so
    the budget is charged nothing here. Equal to the walk wherever it answers
    (tests/test_verify_fast_path.py)."""
    if _NEVER_OVERLAID.search(text) is not None:
        return None  # doomed: answered before building a list of every part (time and peak memory)
    parts = _APPENDED_SEQUENCE.split(text)
    if _OTHER_CONTROL.search("".join(parts[::2])) is not None:
        return None
    replace: dict[str, str] = {}
    for sequence in set(parts[1::2]):
        action = action_for(sequence)
        if action.op == INERT:
            replace[sequence] = ""
        elif action.op == "erase_in_line" and action.number in (0, 2):
            replace[sequence] = _ERASED_ROW if action.number else _ERASED_TO_END
        else:
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
    return None if not text.isascii() and _zero_width_first(lines) else lines


def _overlay(line: str, margin: int | None, ends_before_lf: bool) -> str | None:
    """The row CR-separated segments (with EL marks) leave, or None where a width is not settled."""
    marked = _ERASED_ROW in line or _ERASED_TO_END in line
    written = line.replace(CR, "")
    if marked:
        written = written.replace(_ERASED_TO_END, "").replace(_ERASED_ROW, "")
    if not all_narrow(written):  # HT, and every zero-width, ambiguous or wide character, is not
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
# walk's own steps on rows of one-cell characters held as strings

# Cursor moves and edits this path does not take (CUP, ED, ECH, DCH, scrolling, margins, ...)
_NEVER_ROWS = grammar.csi_ending_in(
    CUP + ED + IL + DL + DCH + SU + SD + ECH + CBT + ICH + HPA + HPR + REP + VPA + VPR + HVP + TBC + DECSTBM
    + SCOSC + SCORC
)
_ROW_OPERATIONS = frozenset({"erase_in_line", "move_rows", "move_rows_home", "cursor_to_column", "cursor_back",
                             "cursor_forward"})
_INERT_MARK = "\x1a"  # where an inert sequence was: it splits a write in two, as in the walk
_OPERATION_MARKS = "".join(map(chr, (*range(0x00, 0x07), 0x0B, 0x0C, *range(0x0E, 0x1A), *range(0x1C, 0x20))))
_NOT_PRINTABLE_ASCII = re.compile("[^ -~\r\n\b\a]+")
_ROW_TOKEN = re.compile(f"[\r\b\a]+|[{re.escape(_OPERATION_MARKS)}]|[^\r\b\a{re.escape(_OPERATION_MARKS)}]+")


def rows_lines(text: str, margin: int | None) -> list[str] | None:
    """:func:`terminal_lines` where every character written is one cell wide (no HT, no other
    control but CR, LF, BS and BEL) and every sequence is inert or EL 0 / EL 2, CUU, CUD, CNL, CPL,
    CUB, or CUF / CHA below the narrowest margin; else None. Each sequence is replaced by a mark (one character, a
    control the written text cannot hold), so a row appended to is taken a line at a time, and the
    rest is :func:`_walk_rows`. Equal to the walk wherever it answers
    (tests/test_verify_fast_path.py)."""
    if _NEVER_ROWS.search(text) is not None:
        return None
    # every character but CR, LF, BS and ESC one cell wide (so no control a mark stands for), found by
    # runs of the others before anything is split (a set of every character would cost a hash each); an
    # ESC left over once the sequences are taken out is not narrow either (checked after the split)
    others = set(_NOT_PRINTABLE_ASCII.findall(text))
    if others and not all_narrow("".join(others).replace(ESC, "")):
        return None
    parts = _APPENDED_SEQUENCE.split(text)
    marks: dict[str, str] = {}
    actions: dict[str, tuple[str, int]] = {}
    for sequence in set(parts[1::2]):
        action = action_for(sequence)
        if action.op == INERT:
            marks[sequence] = _INERT_MARK
        elif action.op in _ROW_OPERATIONS and len(actions) < len(_OPERATION_MARKS):
            if action.op == "erase_in_line" and action.number == 1:
                return None  # EL 1 leaves unwritten cells before the cursor
            if action.op == "cursor_to_column" and action.number - 1 >= MIN_COLUMNS:
                return None  # past the narrowest margin the walk measures the row
            mark = marks[sequence] = _OPERATION_MARKS[len(actions)]
            actions[mark] = (action.op, action.number)
        else:
            return None
    parts[1::2] = map(marks.__getitem__, parts[1::2])
    marked = "".join(parts)
    del parts
    if ESC in marked:
        return None  # an escape sequence of another form, or a malformed one: the walk's
    lines = marked.split(LF)
    del marked
    # the work the walk would charge, over-counted: a quarter of its budget, so it never runs out
    return _walk_rows(lines, actions, margin, (WORK_ALLOWANCE + WORK_PER_INPUT_CHAR * len(text)) // 4)


def _walk_rows(
    lines: list[str], actions: dict[str, tuple[str, int]], margin: int | None, budget: int
) -> list[str] | None:
    """A row model's steps for marked lines of one-cell characters, on strings, or None.

    Written after the verifier's former line model (merged into the screen model, issue 24), whose
    state it keeps: ``rows``, the cursor's row ``r``, ``pieces`` (append mode),
    ``col`` (updated exactly where the walk updates it), and ``listed``, the rows it holds as
    cell lists (written in the middle), where a write at the row's end stays out of append mode. Each
    step is the walk's operation of the same name; wherever that would pad, measure a width,
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
                if op == "cursor_forward":  # past the narrowest margin the walk measures the row
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
                    return None  # the walk refuses
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
            # text, with the marks of inert sequences: the writes between them, as the walk makes them
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
                    return None  # the walk pads with unwritten cells
                elif col == len(row) and r not in listed:
                    work += len(row) + len(chunk)
                    pieces = [row, chunk]
                else:
                    listed.add(r)  # the walk's cells
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


# ---------------------------------------------------------------------------------------------------
# Where the shortcuts apply: one page, at least 24 rows, no row reaching a known right margin

# CUF, HPR, CHA, HPA: where they stop depends on the right margin, which the shortcuts do not model
_FORWARD_MOVE = grammar.csi_ending_in(CUF + HPR + CHA + HPA)


def fits(text: str, columns: int | None, rows: int | None) -> bool:
    """Whether the shortcuts' assumptions (>= 24 rows, no row reaching a known right margin) hold."""
    if rows is not None and rows < SCREEN_LINES:
        return False
    if columns is None:
        return True
    if _FORWARD_MOVE.search(text):
        return False
    factor = 1 if text.isascii() else 2
    if HT not in text:
        return max(map(len, text.split(LF))) * factor < columns
    return all((len(line) + (TAB_WIDTH - 1) * line.count(HT)) * factor < columns for line in text.split(LF))


def first_page(text: str, columns: int | None, terminal: bool, shortcuts: Shortcuts) -> list[str] | None:
    """The informative lines of a text that :func:`fits` by the first shortcut that answers, else None
    (the screen model walks it). At an unknown width (a terminal, ``columns`` None) no row a CR, EL or
    move acts on may reach column 80."""
    margin = MIN_COLUMNS if terminal and columns is None else None
    lines = append_only_lines(text) if shortcuts.append else None
    if lines is None and shortcuts.overlay:
        lines = redrawn_lines(text, margin)
    if lines is None and shortcuts.rows:
        lines = rows_lines(text, margin)
    return lines
