"""The oracle's parser: splits decoded text into runs and control functions for :class:`OracleScreen`.

It replaces :class:`pyte.Stream`, whose character-at-a-time generator is where pyte spends most of
its time and which mis-parses several sequence families (see ``docs/oracle.md``). Its byte classes are
its own (:mod:`oracle.ecma48`), never :mod:`textclean.pipeline.grammar`, which the oracle judges; it
does what a terminal (xterm's VT500 parser, tmux) does:

* a control *string* (OSC, DCS, SOS, PM, APC) swallows everything, C0 controls included, up to its
  terminator; an unterminated one swallows the rest of the input. In the xterm flavour BEL ends all
  of them: that is the project policy for APC/PM/SOS/DCS. The tmux flavour ends them as tmux 3.3a
  does (:func:`_tmux_string_end`): BEL only ends an OSC, and DCS data runs to ST.
* CAN and SUB abort a sequence; ESC inside one starts a new sequence.
* C0 controls inside a CSI are executed and the CSI goes on.
* C1 code points (U+0080-U+009F) in decoded text are invisible characters, as in tmux with UTF-8,
  not controls.
* CSI parameters may carry ``:`` sub-parameters, private markers ``< = > ?`` and intermediates;
  only the forms below change the screen, the rest (SGR, queries, modifyOtherKeys, cursor style,
  DECSTR, ...) change no text and are consumed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from textclean.pipeline.names import (
    CBT,
    CHA,
    CHT,
    CNL,
    CPL,
    CUB,
    CUD,
    CUF,
    CUP,
    CUU,
    DCH,
    DEC_LINE,
    DECALN,
    DECRC,
    DECSC,
    DECSTBM,
    DL,
    ECH,
    ED,
    EL,
    G0_DESIGNATE,
    G1_DESIGNATE,
    HPA,
    HPR,
    HTS,
    HVP,
    ICH,
    IL,
    IND,
    NEL,
    REP,
    RI,
    RIS,
    RM,
    SCORC,
    SCOSC,
    SD,
    SGR,
    SM,
    SU,
    TBC,
    VPA,
    VPR,
)

from .ecma48 import (
    ABORTS,
    BS,
    C0_CONTROLS,
    CR,
    DEL,
    ESC,
    ESCAPE_FINAL_BYTES,
    FF,
    FINAL_BYTES,
    HT,
    INTERMEDIATE_BYTES,
    LF,
    PARAMETER_BYTES,
    PRIVATE_MARKERS,
    SI,
    SO,
    TWO_BYTE_FINAL_BYTES,
    VT,
    char_class,
    chars,
)
from .screen import OracleScreen

MAX_PARAMETER = 9999  # as pyte and VT220: larger parameters are clamped
STRING_ENDED_BY_BEL = "string-ended-by-bel"  # see Rendering.ambiguous

_PARAMETER = char_class(PARAMETER_BYTES)
_INTERMEDIATE = char_class(INTERMEDIATE_BYTES)
_ABORT = char_class(map(ord, ABORTS))
_TEXT = char_class([*C0_CONTROLS, ord(DEL)], negate=True) + "+"
_CSI = rf"\x1b\[(?P<params>{_PARAMETER}*)(?P<inter>{_INTERMEDIATE}*)(?P<final>{char_class(FINAL_BYTES)})"
# A control string ends at BEL, ST, CAN or SUB (consumed), before any other ESC, or at the end.
_STRING = r"\x1b[\]PX^_][^\x07\x18\x1a\x1b]*(?:\x07|\x1b\\|[\x18\x1a]|(?=\x1b)|\Z)"
_NF = rf"\x1b(?P<nf_inter>{_INTERMEDIATE}+)(?P<nf_final>{char_class(ESCAPE_FINAL_BYTES)}|\Z)"
_ESC2 = rf"\x1b(?P<esc_final>{char_class(TWO_BYTE_FINAL_BYTES)})"
_CONTROL = char_class([code for code in (*C0_CONTROLS, ord(DEL)) if code != ord(ESC)])
_CANCELLED = rf"\x1b{_INTERMEDIATE}*{_ABORT}"  # ESC, intermediates, CAN/SUB

_TOKEN = re.compile(
    "|".join(
        f"(?P<{name}>{pattern})"
        for name, pattern in (
            ("text", _TEXT),
            ("csi", _CSI),
            ("string", _STRING),
            ("cancelled", _CANCELLED),
            ("nf", _NF),
            ("esc", _ESC2),
            ("control", _CONTROL),
            ("other", r"\x1b"),  # an ESC that starts nothing complete: see _broken_escape
        )
    ),
    re.DOTALL,
)

_MARKER = re.compile(char_class(map(ord, PRIVATE_MARKERS))).search
_FINAL_CHARS = chars(FINAL_BYTES)
_PARAMETER_CHARS = chars(PARAMETER_BYTES)
_INTERMEDIATE_CHARS = chars(INTERMEDIATE_BYTES)
_PARAMETER_RUN = re.compile(_PARAMETER + "+").match
_INTERMEDIATE_RUN = re.compile(_INTERMEDIATE + "+").match

TMUX_IGNORES = frozenset({HPR, VPR, CHT})  # tmux 3.3 does not implement these
_CURSOR_MOVES = frozenset({CUU, CUD, CUF, CUB, CNL, CPL, CHA, CUP, HPA, HVP, VPA})


def _numbers(params: str, limit: int = MAX_PARAMETER) -> list[int]:
    """CSI parameters as integers; sub-parameters after ``:`` ignored, empty fields 0."""
    if not params:
        return []
    out = []
    digits = len(str(limit))
    for field in params.split(";"):
        head = field.split(":", 1)[0].lstrip("0")
        # Clamp by length first: int() refuses strings of more than 4300 digits.
        out.append(limit if len(head) > digits else min(int(head), limit) if head.isdigit() else 0)
    return out


class OracleStream:
    """Feeds complete decoded text to an :class:`OracleScreen` (not incremental: one ``feed`` per input)."""

    def __init__(self, screen: OracleScreen) -> None:
        self.screen = screen
        s = screen
        self._controls: dict[str, Callable[[], None]] = {
            BS: s.backspace,
            HT: s.tab,
            LF: s.linefeed,
            VT: s.vertical_feed,
            FF: s.vertical_feed,
            CR: s.carriage_return,
            SO: s.shift_out,
            SI: s.shift_in,
        }
        self._escapes: dict[str, Callable[[], None]] = {
            DECSC: s.save_cursor,
            DECRC: s.restore_cursor,
            IND: s.index,
            NEL: s.next_line,
            RI: s.reverse_index,
            HTS: s.set_tab_stop,
            RIS: s.reset,
        }

    def feed(self, text: str) -> None:
        screen = self.screen
        draw = screen.draw
        controls = self._controls
        match = _TOKEN.match
        pos, length = 0, len(text)
        while pos < length:
            m = match(text, pos)
            assert m is not None  # the alternatives cover every character
            kind = m.lastgroup
            if kind == "text":
                draw(m.group())
                pos = m.end()
                continue
            if kind == "csi":
                self._csi(m["params"], m["inter"], m["final"])
            elif kind == "control":
                action = controls.get(m.group())
                if action is not None:
                    action()
            elif kind == "esc":
                action = self._escapes.get(m["esc_final"])
                if action is not None:
                    action()
            elif kind == "nf":
                self._nf(m["nf_inter"], m["nf_final"])
            elif kind == "other":
                pos = self._broken_escape(text, pos)
                screen.last_char = None
                continue
            elif kind == "string" and not screen.xterm:
                pos = _tmux_string_end(text, pos, m.end())
                screen.last_char = None
                continue
            elif kind == "string" and text[pos + 1] != "]" and m.group().endswith("\x07"):
                screen.ambiguous.add(STRING_ENDED_BY_BEL)  # tmux would swallow on, up to ST
            # "string" (OSC titles, DCS, SOS, PM, APC) and "cancelled" change no text.
            screen.last_char = None  # REP repeats only a character that directly precedes it
            pos = m.end()

    def _nf(self, intermediates: str, final: str) -> None:
        screen = self.screen
        if intermediates in (G0_DESIGNATE, G1_DESIGNATE) and final:
            screen.define_charset(final, intermediates)
        elif intermediates == DEC_LINE and final == DECALN:
            screen.alignment_display()

    def _broken_escape(self, text: str, pos: int) -> int:
        """ESC not starting a complete sequence: a CSI interleaved with C0 controls, or noise.

        Runs of parameter and intermediate bytes are taken whole, so a megabyte of them is one step.
        """
        if text[pos + 1 : pos + 2] != "[":
            # ESC + C0 control, or ESC + a non-ASCII character: xterm drops the ESC.
            return pos + 1
        params: list[str] = []
        intermediates: list[str] = []
        pos += 2
        length = len(text)
        while pos < length:
            char = text[pos]
            if char in _PARAMETER_CHARS:
                run = _PARAMETER_RUN(text, pos).end()  # type: ignore[union-attr]
                if intermediates:  # a parameter after an intermediate: the sequence is void
                    intermediates.append("\x00")
                params.append(text[pos:run])
                pos = run
                continue
            if char in _INTERMEDIATE_CHARS:
                run = _INTERMEDIATE_RUN(text, pos).end()  # type: ignore[union-attr]
                intermediates.append(text[pos:run])
                pos = run
                continue
            if char in _FINAL_CHARS:
                self._csi("".join(params), "".join(intermediates), char)
                return pos + 1
            if char in ABORTS:
                return pos + 1
            if char == ESC:
                return pos
            if char < " ":
                action = self._controls.get(char)
                if action is not None:
                    action()
            elif char != DEL:
                return pos  # not part of a CSI: the sequence ends here
            pos += 1
        return pos

    def _csi(self, params: str, intermediates: str, final: str) -> None:
        screen = self.screen
        if not screen.xterm and _tmux_rejects(params):
            return
        marker = ""
        if params[:1] in PRIVATE_MARKERS and params:
            marker, params = params[0], params[1:]
        if intermediates or _MARKER(params):
            return  # cursor style, DECSTR, DECRQM, ...: no text changes
        if marker:
            if marker == "?":
                if final in (SM, RM):
                    modes = _numbers(params)
                    if final == SM:
                        screen.set_mode(*modes, private=True)
                    else:
                        screen.reset_mode(*modes, private=True)
                # DECSED / DECSEL (CSI ? J / K): ignored, as tmux and alacritty do.
            return
        if final == SGR:
            return  # attributes only
        if final in TMUX_IGNORES and not screen.xterm:
            return
        if final == DECSTBM:
            top, bottom = (_given(params, index) for index in (0, 1))
            screen.set_margins(top, bottom)
            return
        handler = _CSI_HANDLERS.get(final)
        if handler is not None:
            # tmux stops a cursor move at the screen's edge whatever its size (up to INT_MAX); the
            # VT220 clamp would stop short of the last column of a 10000-column window.
            limit = TMUX_PARAMETER_LIMIT if not screen.xterm and final in _CURSOR_MOVES else MAX_PARAMETER
            handler(screen, _numbers(params, limit))


TMUX_PARAMETER_LIMIT = 2**31 - 1  # tmux's strtonum(..., 0, INT_MAX): above it, ignored
TMUX_MAX_PARAMETERS = 24  # tmux's input_ctx param_list: with more fields the sequence is ignored
_DIGITS = re.compile(r"[0-9]+")


def _tmux_rejects(params: str) -> bool:
    """tmux ignores a whole CSI sequence with a parameter above INT_MAX or more than 24 fields."""
    if params.count(";") >= TMUX_MAX_PARAMETERS:
        return True
    for run in _DIGITS.findall(params):
        digits = run.lstrip("0")
        if len(digits) > 10 or (len(digits) == 10 and int(digits) > TMUX_PARAMETER_LIMIT):
            return True
    return False


# tmux 3.3a's control strings (input.c): an OSC ends at BEL or ST, and at ESC, CAN or SUB; SOS, PM and
# APC ignore BEL and every other C0 control and end only at ESC, CAN or SUB; a DCS ends at ESC, CAN or
# SUB only until its final byte: then its data runs to ESC \ alone.
_SOS_PM_APC_END = re.compile(r"[\x18\x1a\x1b]")
_DCS_PRIVATE = frozenset(PRIVATE_MARKERS)


def _tmux_string_end(text: str, pos: int, regex_end: int) -> int:
    """Where tmux's parser leaves the control string starting at ``pos`` (``ESC`` + introducer)."""
    introducer = text[pos + 1]
    if introducer == "]":
        return regex_end  # the shared pattern ends OSC as tmux does
    start = pos + 2
    if introducer != "P":
        m = _SOS_PM_APC_END.search(text, start)
        return len(text) if m is None else m.end() if m.group() != "\x1b" else m.start()
    state = "enter"  # enter, parameter, intermediate, ignore: the DCS header
    index, length = start, len(text)
    while index < length:
        char = text[index]
        if char in "\x18\x1a":
            return index + 1
        if char == "\x1b":
            return index
        code = ord(char)
        if code < 0x20 or code >= 0x7F or state == "ignore":
            pass  # ignored, the state stays
        elif code >= 0x40:
            return _dcs_data_end(text, index + 1)
        elif code < 0x30:
            state = "intermediate"
        elif state == "intermediate" or char == ":" or (char in _DCS_PRIVATE and state != "enter"):
            state = "ignore"
        else:
            state = "parameter"
        index += 1
    return length


def _dcs_data_end(text: str, index: int) -> int:
    """DCS data: tmux swallows everything, ESC + any other byte included, up to ESC \\."""
    length = len(text)
    while True:
        escape = text.find("\x1b", index)
        if escape < 0 or escape + 1 >= length:
            return length
        if text[escape + 1] == "\\":
            return escape + 2
        index = escape + 2


def _p(numbers: list[int], index: int = 0) -> int:
    return numbers[index] if len(numbers) > index else 0


def _given(params: str, index: int) -> int | None:
    """Parameter ``index`` as an integer, or None when omitted (DECSTBM tells 0 from omitted)."""
    fields = params.split(";")
    if index >= len(fields) or not fields[index].split(":", 1)[0]:
        return None
    return _numbers(fields[index])[0]


def _tab_forward(screen: OracleScreen, n: list[int]) -> None:
    for _ in range(min(_p(n) or 1, screen.columns)):
        screen.tab()


def _tab_back(screen: OracleScreen, n: list[int]) -> None:
    cursor = screen.cursor
    for _ in range(min(_p(n) or 1, screen.columns)):
        stops = [stop for stop in screen.tabstops if stop < cursor.x]
        cursor.x = max(stops) if stops else 0


def _scroll_down(screen: OracleScreen, n: list[int]) -> None:
    if len(n) <= 1:  # CSI Ps ; Ps ; Ps ; Ps ; Ps T is xterm's mouse highlight tracking
        screen.scroll_down(_p(n))


def _save_cursor(screen: OracleScreen, n: list[int]) -> None:
    if not n:  # CSI Pl ; Pr s is DECSLRM when left/right margins are enabled
        screen.save_cursor()


_CSI_HANDLERS: dict[str, Callable[[OracleScreen, list[int]], None]] = {
    ICH: lambda s, n: s.insert_characters(_p(n)),
    CUU: lambda s, n: s.cursor_up(_p(n)),
    CUD: lambda s, n: s.cursor_down(_p(n)),
    CUF: lambda s, n: s.cursor_forward(_p(n)),
    CUB: lambda s, n: s.cursor_back(_p(n)),
    CNL: lambda s, n: s.cursor_down1(_p(n)),
    CPL: lambda s, n: s.cursor_up1(_p(n)),
    CHA: lambda s, n: s.cursor_to_column(_p(n)),
    CUP: lambda s, n: s.cursor_position(_p(n, 0), _p(n, 1)),
    CHT: _tab_forward,
    ED: lambda s, n: s.erase_in_display(_p(n)),
    EL: lambda s, n: s.erase_in_line(_p(n)),
    IL: lambda s, n: s.insert_lines(_p(n)),
    DL: lambda s, n: s.delete_lines(_p(n)),
    DCH: lambda s, n: s.delete_characters(_p(n)),
    SU: lambda s, n: s.scroll_up(_p(n)),
    SD: _scroll_down,
    ECH: lambda s, n: s.erase_characters(_p(n)),
    CBT: _tab_back,
    HPA: lambda s, n: s.cursor_to_column(_p(n)),
    HPR: lambda s, n: s.cursor_forward(_p(n)),
    REP: lambda s, n: s.repeat_character(_p(n)),
    VPA: lambda s, n: s.cursor_to_line(_p(n)),
    VPR: lambda s, n: s.line_position_forward(_p(n)),
    HVP: lambda s, n: s.cursor_position(_p(n, 0), _p(n, 1)),
    TBC: lambda s, n: s.clear_tab_stop(_p(n)),
    SM: lambda s, n: s.set_mode(*n),
    RM: lambda s, n: s.reset_mode(*n),
    SCOSC: _save_cursor,
    SCORC: lambda s, n: s.restore_cursor(),
}
