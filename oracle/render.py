"""Render raw terminal output: which lines would a terminal show?

The model (see ``docs/oracle.md``): a screen as wide as the longest line (so logical lines never
wrap), ``lines`` rows high (24 unless told), newline implying carriage return (a pty's ``onlcr``),
unbounded scrollback. Cursor moves and erases act on the visible screen as in xterm; what scrolled
into the scrollback stays there.

The displays, named as the gate names them (``textclean.pipeline.gate.display``):

* ``terminal=False``, **no terminal** (pipes, logs): the strings a log viewer ends at BEL (APC, DCS,
  SOS, PM, OSC) are removed first, then the text is rendered on a screen wider than every line
  (no cap: logical lines);
* ``terminal=True`` (or not said) without a size, a terminal of **unknown size**: the screen as wide
  as the widest line (at most 10000 columns), strings ended as the flavour ends them;
* ``columns`` / ``rows``: a terminal of that size;
* ``fresh``: with a terminal, ``False`` renders it **in use** (the screen already full of earlier
  output, the cursor at the start of the bottom row), ``True`` or not said a new terminal (an empty
  screen, the cursor home), the only state the oracle rendered before the displays were named.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from wcwidth import wcwidth

from textclean.pipeline.model import SCREEN_LINES, TAB_WIDTH
from textclean.pipeline.names import CHA, CHT, CUF, CUP, DECRC, HPA, HPR, HVP, REP, SCORC

from .ecma48 import ABORTS, ESC
from .errors import OracleError
from .logview import without_bel_ended_strings
from .screen import TMUX, XTERM, OracleScreen
from .stream import _TOKEN, OracleStream, _tmux_string_end
from .tmux import MAX_COLUMNS

DEFAULT_LINES = SCREEN_LINES
MAX_CURSOR_STEP = 10000  # a cursor move counts at most this much towards the estimated width (tmux's maximum)

_SEGMENT = re.compile(r"[\n\r]")  # what returns the carriage (VT and FF do not)
_LONE_SURROGATE = re.compile("[\udc80-\udcff]")
_SURROGATE_OR_ESC = re.compile("[\udc80-\udcff\x1b]")
# CSI forms that move the cursor right (or repeat a character) and so widen a line.
_WIDENING = frozenset((CUF, HPR, CHA, HPA, CUP, HVP, REP, CHT))


INVALID_UTF8 = "invalid-utf-8"  # shown as U+FFFD (xterm); tmux shows nothing


def decode(data: bytes | str) -> str:
    """Decode raw output as a UTF-8 terminal does: each undecodable byte shows as U+FFFD.

    ``str`` input decoded elsewhere with ``surrogateescape`` gets the same treatment, so raw bytes
    and a cleaner's ``str`` output render alike.
    """
    if isinstance(data, bytes):
        data = data.decode("utf-8", "surrogateescape")
    return _LONE_SURROGATE.sub("\ufffd", data)


def _sequence_size(byte: int) -> int:
    """How many bytes tmux's UTF-8 decoder collects after this first byte (1: it starts nothing)."""
    return 2 if 0xC2 <= byte <= 0xDF else 3 if 0xE0 <= byte <= 0xEF else 4 if 0xF0 <= byte <= 0xF4 else 1


def tmux_decode(data: str) -> str:
    """What tmux 3.3a draws from text read with ``surrogateescape`` (tests/test_oracle_tmux.py).

    An undecodable byte draws nothing. A lead byte (C2-F4) collects the following bytes from 0x80 up
    into its sequence, up to the sequence's length, whatever they are (the first bytes of a valid
    character after it included; its other bytes then draw nothing); the sequence draws its character
    if it decodes, nothing otherwise. A printable ASCII character or a C0 control abandons a pending
    sequence; an escape sequence does not (``E6 97 ESC [ m A5`` draws 日 after the escape), unless CAN or
    SUB ends it (``E6 97 ESC _ x SUB C3 9C`` draws Ü: tmux executes the SUB as a C0 control). Bytes
    inside a string (OSC, DCS, APC... as far as tmux reads it) never reach the decoder: they are the
    string's (``ESC _ x BEL C3 ESC [ m E2 91 AF`` draws ⑯).
    """
    if _LONE_SURROGATE.search(data) is None:
        return data
    out: list[str] = []
    position, length = 0, len(data)
    while position < length:
        found = _SURROGATE_OR_ESC.search(data, position)
        if found is None:
            out.append(data[position:])
            break
        if found.group() == "\x1b":
            escape = _TOKEN.match(data, found.start())
            end = found.end() if escape is None or escape.lastgroup == "other" else escape.end()
            if escape is not None and escape.lastgroup == "string":
                end = _tmux_string_end(data, found.start(), end)
            out.append(data[position:end])
            position = end
            continue
        out.append(data[position : found.start()])
        position = found.end()
        lead = ord(found.group()) - 0xDC00
        size = _sequence_size(lead)
        if size == 1:
            continue  # a continuation byte or a byte no sequence starts with: nothing
        collected = bytearray((lead,))
        while position < length and len(collected) < size:
            char = data[position]
            if char == "\x1b":
                escape = _TOKEN.match(data, position)
                if escape is None or escape.lastgroup == "other":
                    break
                end = escape.end()
                if escape.lastgroup == "string":  # where tmux ends it: C0 controls inside do not count
                    end = _tmux_string_end(data, position, end)
                out.append(data[position:end])  # acted on; the pending sequence goes on after it
                position = end
                if _cancels(data, escape.lastgroup, end):
                    break  # unless CAN or SUB ended it: tmux executes those, and so abandons the sequence
                continue
            if char < "\x80":
                break  # printable ASCII or a C0 control: the pending sequence is abandoned
            encoded = char.encode("utf-8", "surrogateescape")
            taken = min(size - len(collected), len(encoded))
            collected += encoded[:taken]
            position += 1
            # The rest of a character cut in two are continuation bytes: they draw nothing.
        if len(collected) == size:
            try:
                out.append(collected.decode("utf-8"))
            except UnicodeDecodeError:
                pass
    return "".join(out)


def _cancels(data: str, kind: str | None, end: int) -> bool:
    """Whether the escape ending at ``end`` was ended by CAN or SUB.

    tmux 3.3a takes CAN and SUB in every state but a DCS's data (its "anywhere" transitions) to
    ``input_c0_dispatch``, which clears ``utf8started``; ESC, ST and an OSC's BEL do not. A DCS whose
    data ran to the end of the input may end in a CAN or SUB it swallowed: nothing follows it there.
    """
    return kind in ("string", "cancelled") and data[end - 1] in ABORTS


#: A row of earlier output on a terminal in use (``fresh=False``); such rows are left out of what is shown.
EARLIER_OUTPUT = "`"


def _text_cells(text: str) -> int:
    if text.isascii():
        return len(text) + (TAB_WIDTH - 1) * text.count("\t")
    return sum(TAB_WIDTH if char == "\t" else (2 if wcwidth(char) == 2 else 1) for char in text)


def _segment_cells(segment: str) -> int:
    """An upper bound on the cells a segment between carriage returns / newlines reaches.

    Tokenised by the oracle's own parser (not the production grammar, which it judges): text and
    controls count their cells, cursor moves that widen a line count their parameters.
    """
    if ESC not in segment:
        return _text_cells(segment)
    cells = 0
    for m in _TOKEN.finditer(segment):
        kind = m.lastgroup
        if kind == "csi":
            final = m["final"]
            if final in _WIDENING:
                for field in m["params"].split(";"):
                    head = field.split(":", 1)[0].lstrip("0")
                    number = int(head[:5]) if head.isdigit() else 1  # 0 or absent means 1
                    cells += min(number, MAX_CURSOR_STEP) + (TAB_WIDTH if final == CHT else 0)
        elif kind in ("text", "control", "other"):
            cells += _text_cells(m.group())
    return cells


def estimate_columns(text: str, *, cap: int | None = MAX_COLUMNS) -> int:
    """Columns enough that no line wraps or reaches the margin: one more than an upper bound on the
    widest line, capped at ``cap`` (10000, tmux's widest; None: no cap, logical lines)."""
    widest = 1
    # A restored cursor (DECRC, SCORC) may return to a column reached before a carriage return: then
    # the segments of a line add up, and the whole line is the bound.
    restores = ESC + DECRC in text or ESC + "[" + SCORC in text
    segments = text.split("\n") if restores else _SEGMENT.split(text)
    for segment in segments:
        if len(segment) * 2 > widest or "\t" in segment or "\x1b" in segment:
            widest = max(widest, _segment_cells(segment))
    return widest + 1 if cap is None else min(widest + 1, cap)


@dataclass(frozen=True)
class Rendering:
    """What a terminal shows after the output: scrollback, then the screen."""

    scrollback: tuple[str, ...]  # right-trimmed, oldest first (blank lines kept)
    screen: tuple[str, ...]  # every row, right-trimmed
    shown: tuple[str, ...]  # every non-blank line ever shown, see oracle.lossless
    columns: int
    rows: int
    alternate: bool  # output ended on the alternate screen
    # Behaviours the input relied on where real terminals disagree (docs/oracle.md): the rendering
    # follows the documented choice, another terminal may show these lines differently.
    ambiguous: frozenset[str] = frozenset()

    @property
    def lines(self) -> list[str]:
        """Scrollback + screen, right-trimmed, without the blank rows below the last content."""
        lines = [*self.scrollback, *self.screen]
        while lines and not lines[-1]:
            lines.pop()
        return lines

    @property
    def informative(self) -> list[str]:
        """The non-blank lines of scrollback + screen."""
        return [line for line in (*self.scrollback, *self.screen) if line]

    @property
    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)


def render(
    data: bytes | str,
    *,
    columns: int | None = None,
    lines: int | None = None,
    onlcr: bool = True,
    flavour: str = XTERM,
    rows: int | None = None,
    terminal: bool | None = None,
    fresh: bool | None = None,
) -> Rendering:
    """Feed ``data`` to a virtual terminal and return what it shows.

    ``columns`` defaults to the widest line (:func:`estimate_columns`), ``lines`` (or ``rows``) to 24.
    ``terminal=False``: no terminal (takes no size): strings ended at BEL removed first, no width cap.
    ``fresh=False`` (with a terminal): a terminal in use, see the module docstring. ``onlcr`` makes
    LF imply CR, as a pty does on output; pass ``False`` for bytes recorded on the terminal side of a
    pty, where that translation has already happened. ``flavour`` (``"xterm"`` or ``"tmux"``)
    settles what happens at the right margin where the two disagree (see
    :data:`oracle.screen.FLAVOURS`); at the default width no line reaches the margin.
    """
    if rows is not None and lines is not None and rows != lines:
        raise ValueError(f"rows={rows} and lines={lines} disagree (they name the same height)")
    rows = rows if rows is not None else lines
    terminal, in_use = _display(columns, rows, terminal, fresh)
    if isinstance(data, bytes):
        data = data.decode("utf-8", "surrogateescape")
    if not terminal:
        data = without_bel_ended_strings(data)
    invalid = _LONE_SURROGATE.search(data) is not None
    # tmux draws nothing for an undecodable byte; xterm and alacritty a U+FFFD.
    text = tmux_decode(data) if flavour == TMUX else decode(data)
    rows = rows or DEFAULT_LINES
    try:
        columns = columns or estimate_columns(text, cap=MAX_COLUMNS if terminal else None)
        screen = OracleScreen(columns, rows, onlcr=onlcr, flavour=flavour)
        stream = OracleStream(screen)
        if in_use:
            stream.feed((EARLIER_OUTPUT + "\r\n") * rows)
        stream.feed(text)
        return Rendering(
            scrollback=_mine([line.text for line in screen.scrollback], in_use),
            screen=_mine(screen.screen_lines(), in_use),
            shown=_mine(screen.ever_shown(), in_use),
            columns=columns,
            rows=rows,
            alternate=screen.alternate,
            ambiguous=frozenset(screen.ambiguous | ({INVALID_UTF8} if invalid else set())),
        )
    except Exception as error:
        raise OracleError(*_failed_at(error), error) from error


def _display(columns: int | None, rows: int | None, terminal: bool | None,
             fresh: bool | None) -> tuple[bool, bool]:
    """(whether there is a terminal, whether it is in use) for the display a caller names, checked as
    the gate checks it: a size is a terminal's, and so is a new terminal."""
    sized = columns is not None or rows is not None
    if terminal is False and sized:
        raise ValueError("terminal=False (no terminal) takes no columns or rows: a size is a terminal's")
    if terminal is False and fresh:
        raise ValueError("fresh=True (a new terminal) needs a terminal, not terminal=False")
    there = terminal is not False
    return there, there and fresh is False


def _mine(lines: Iterable[str], in_use: bool) -> tuple[str, ...]:
    """The lines, without the rows of earlier output a terminal in use started with."""
    return tuple(line for line in lines if line != EARLIER_OUTPUT) if in_use else tuple(lines)


def _failed_at(error: BaseException) -> tuple[str | None, int | None]:
    """The token :meth:`OracleStream.feed` was acting on when ``error`` was raised, and its offset."""
    tb = error.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code is OracleStream.feed.__code__:
            m, pos = frame.f_locals.get("m"), frame.f_locals.get("pos")
            if m is not None and m.start() == pos:
                return m.group(), pos
            return None, pos
        tb = tb.tb_next
    return None, None


def informative_lines(
    data: bytes | str, *, columns: int | None = None, lines: int | None = None, rows: int | None = None,
    terminal: bool | None = None, fresh: bool | None = None,
) -> list[str]:
    """The lines a terminal shows (scrollback + screen), right-trimmed, blank ones dropped, on the
    display named as :func:`render` names it (``terminal=False``: no terminal)."""
    return render(data, columns=columns, lines=lines, rows=rows, terminal=terminal, fresh=fresh).informative
