"""What each escape sequence means to the verifier, and how wide each character is.

The bottom of the verifier's chain (``meaning`` <- ``compare`` <- ``fast`` <- ``screen`` <- ``pages``,
the API in ``__init__``): its one refusal type, :class:`Refusal`, and the answer of a comparison,
:class:`Difference`; the shortcuts' action table (a parsed sequence and the ``names`` constants in, an
:class:`Action` out); names for messages; the width of characters (the shared width table: -1 where
terminals disagree). Written without looking at the cleaner; only the grammar and the names are shared.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .. import grammar
from ..grammar import BEL, C0_RANGE, C1_RANGE, ESC, Kind, Sequence
from ..model import settled_width
from ..names import (
    C0_NAMES,
    CHA,
    CHARSET_US_ASCII,
    CNL,
    CODING_SYSTEM,
    CPL,
    CSI_NAMES,
    CUB,
    CUD,
    CUF,
    CUU,
    DA,
    DECAWM,
    DECKPAM,
    DECKPNM,
    DECRQM,
    DECSCUSR,
    DOCS_UTF8,
    DSR,
    ECH,
    EL,
    ESC_NAMES,
    G0_DESIGNATE,
    G1_TO_G3_DESIGNATE,
    HARMLESS_PRIVATE_MODES,
    HPA,
    INERT_ANSI_MODES,
    NF_NAMES,
    RI,
    RM,
    SCORC,
    SGR,
    SM,
    ST_FINAL,
    XTWINOPS,
)
from ..str_kinds import Difference as Difference  # (the verifier's answer; verify re-exports it)


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


class _Width(dict[str, int]):
    """Cells per character, memoised (the hot paths look widths up with ``map``): -1 where terminals
    disagree (the shared width table), so that no column is ever computed across such a character."""

    def __missing__(self, char: str) -> int:
        width: int = settled_width(char)
        self[char] = width
        return width


WIDTH = _Width()


def _is_plain(text: str) -> bool:
    """True when every character of ``text`` is printable ASCII, i.e. exactly one cell wide."""
    return text.isascii() and text.isprintable()


_NARROW = {chr(code) for code in range(0x20, 0x7F)}  # grows with every character found one cell wide
_NARROW_PATTERN_LIMIT = 1024  # characters in the pattern below, at most (compiling it costs per character)


def _other_than(chars: set[str]) -> re.Pattern[str]:
    return re.compile("[^" + "".join(sorted(map(re.escape, chars))) + "]")


_NOT_NARROW = _other_than(_NARROW)  # a character not yet known to be one cell wide (a search runs in C)


def all_narrow(text: str) -> bool:
    """True when every character of ``text`` takes exactly one cell (HT and the sentinels do not)."""
    global _NOT_NARROW
    if _is_plain(text):
        return True
    found = _NOT_NARROW.search(text)
    if found is None:
        return True
    if WIDTH[found.group()] != 1:
        return False  # the first one not yet known narrow is not: no set of the rest (a wide label, an emoji)
    chars = set(text[found.start():])  # a hash per character only from the first one not yet known
    if chars <= _NARROW:
        return True
    for char in chars - _NARROW:
        if WIDTH[char] != 1:
            return False
        _NARROW.add(char)
    if len(_NARROW) <= _NARROW_PATTERN_LIMIT:
        _NOT_NARROW = _other_than(_NARROW)
    return True


def other_widths(text: str) -> list[tuple[int, int]]:
    """Where ``text`` holds a character not exactly one cell wide, and its width (0, 2 or -1), in order.

    Found by the pattern of characters not yet known narrow (a search in C), so a run of narrow
    characters, ASCII or not (bars of U+2580-259F, box drawing, braille), costs no turn of a loop;
    a character found narrow is learned, as :func:`all_narrow` learns it."""
    global _NOT_NARROW
    found: list[tuple[int, int]] = []
    learned = False
    for match in _NOT_NARROW.finditer(text):
        char = match.group()
        width = WIDTH[char]
        if width != 1:
            found.append((match.start(), width))
        elif char not in _NARROW:
            _NARROW.add(char)
            learned = True
    if learned and len(_NARROW) <= _NARROW_PATTERN_LIMIT:
        _NOT_NARROW = _other_than(_NARROW)
    return found


ZERO_WIDTH_JOINER = "\u200d"
_CONTROL = re.compile(f"[{C0_RANGE}\x7f{C1_RANGE}]")


def _zero_width(char: str) -> bool:
    """A character shown in no cell of its own (or one terminals measure differently): not a control."""
    return WIDTH[char] <= 0 and _CONTROL.match(char) is None


def replayed_joiner(text: str) -> int | None:
    """The offset of a ZWJ that tmux 3.3a may show again later, if any (F30-1).

    tmux joins a ZWJ with the character right after it when that one is zero-width or wide (an emoji
    sequence); after anything else (a narrow character, a control, an escape) it keeps the ZWJ and writes
    it again before the next zero-width character, wherever that comes: rows erased, lines, page breaks
    and RIS later (checked live). The row that gets it is not one the models can place, so such a ZWJ
    with any zero-width character after it is refused, whatever stands between them."""
    start = text.find(ZERO_WIDTH_JOINER)
    while start != -1:
        after = text[start + 1:start + 2]
        if not after or after == ZERO_WIDTH_JOINER or WIDTH[after] not in (0, 2) or _CONTROL.match(after):
            later = set(text[start + 1:])  # a hash per character, in C: only texts holding a ZWJ pay it
            return start if any(map(_zero_width, later)) else None
        start = text.find(ZERO_WIDTH_JOINER, start + 1)
    return None


# ---------------------------------------------------------------------------------------------------
# What each escape sequence does


class Action(NamedTuple):
    """What a sequence does, as the shortcuts (:mod:`.fast`) read it: an operation they may take on
    rows of strings, INERT, or WALK (left to the screen model's walk, which reads the sequence itself)."""

    op: str
    number: int = 0  # the operation's count or mode
    idle_when_appending: bool = False  # no effect while the cursor is at the end of the row it appends to


INERT = "inert"
WALK = "walk"
_INERT = Action(INERT, idle_when_appending=True)
_WALK = Action(WALK)


def _csi_text(seq: Sequence) -> str:
    parts = ["CSI"]
    if seq.private:
        parts.append(seq.private)
    if seq.params:
        parts.append(seq.params)
    parts.append(seq.intermediates.replace(" ", "SP ") + seq.final)
    return " ".join(parts)


def sequence_label(seq: Sequence) -> str:
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


# HPR and VPR are not here (walked): xterm and pyte move the cursor, tmux ignores them.
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


def csi_action(seq: Sequence) -> Action:
    action = _csi_meaning(seq)
    if action.op != INERT and (len(seq.params) >= grammar.PARAMETER_BYTES_LIMIT or grammar.above_range(seq.params)):
        # tmux 3.3a discards a sequence that fills its param_buf[64] or has a parameter out of range;
        # xterm acts (or clamps): the walk refuses
        return _WALK
    return action


def _csi_meaning(seq: Sequence) -> Action:
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
            harmless = all(mode in HARMLESS_PRIVATE_MODES for mode in modes)
            return _INERT if harmless and not (final == RM and DECAWM in modes) else _WALK
        if final in (SM, RM) and not private and params.isdigit() and set(seq.numbers(default=-1)) <= INERT_ANSI_MODES:
            return _INERT  # SM / RM 34 (cursor visibility): nothing shown changes, in tmux or xterm
        fields = seq.decimal() if final == EL else None
        if final == EL and not private and fields is not None and len(fields) == 1 and fields[0] <= 2:
            return Action("erase_in_line", fields[0], idle_when_appending=fields[0] == 0)  # EL
        if final in _CURSOR_CONTROLS and _numeric(seq):
            operation, default = _CURSOR_CONTROLS[final]
            count = seq.first(default)
            if operation in _VERTICAL:
                return Action(_VERTICAL[operation], -count if operation in _UPWARDS else count)
            return Action(operation, count, idle_when_appending=operation == "erase_characters")
    elif seq.intermediates == " " and final == DECSCUSR and not private:
        return _INERT  # DECSCUSR cursor style
    elif seq.intermediates == "$" and final == DECRQM and private in ("", "?"):
        return _INERT  # DECRQM: a query
    return _WALK


def _escape_action(seq: Sequence) -> Action:
    final = seq.final
    if final == RI:
        return Action("move_rows", -1)
    if final in (DECKPAM, DECKPNM, ST_FINAL):  # a lone ST
        return _INERT
    return _WALK


def _nf_action(seq: Sequence) -> Action:
    intermediates = seq.intermediates
    if (intermediates == G0_DESIGNATE and seq.final == CHARSET_US_ASCII) or intermediates[0] in G1_TO_G3_DESIGNATE:
        return _INERT
    if intermediates == CODING_SYSTEM and seq.final == DOCS_UTF8:  # select UTF-8: what the decoded text already is
        return _INERT
    return _WALK


def _sequence_action(text: str) -> Action:
    """Interpret one complete sequence that starts with ESC."""
    if "\x9c" in text:  # a C1 ST: the string really ends there, outside any payload
        return _WALK
    seq = grammar.parse(text)
    kind = seq.kind
    if kind is Kind.CSI:
        return csi_action(seq)
    if kind is Kind.ESC2:
        return _escape_action(seq)
    if kind is Kind.NF:
        return _nf_action(seq)
    if swallows_on(seq):
        return _WALK
    return _INERT  # OSC, DCS, SOS, PM, APC, and sequences cancelled by CAN / SUB


_DCS_HEADER = frozenset(map(chr, range(0x20, 0x40)))  # parameters and intermediates before DCS data


def swallows_on(seq: Sequence) -> bool:
    """A string tmux does not end where the grammar does: DCS, SOS, PM or APC ended by BEL (tmux
    ignores BEL there and swallows up to the next ESC), or a DCS cancelled by CAN / SUB after its data
    began (tmux swallows DCS data up to ST)."""
    text = seq.text
    if seq.kind in (Kind.DCS, Kind.SOS, Kind.PM, Kind.APC):
        return text[-1] == BEL
    if seq.kind is Kind.CANCELLED and text[:2] == grammar.DCS:
        return not set(text[2:-1]) <= _DCS_HEADER
    return False


def closer(string: str) -> str:
    """What ends, in tmux, a string :func:`swallows_on` names: ST for a DCS whose data began (tmux
    reads DCS data on to ST), else the next ESC (SOS, PM, APC, and a DCS still in its header)."""
    began = string[:2] == grammar.DCS and not set(string[2:-1]) <= _DCS_HEADER
    return grammar.ST if began else ESC


ACTION_CACHE: dict[str, Action] = {}
_ACTION_CACHE_LIMIT = 4096
_CACHED_SEQUENCE_LENGTH = 48


def action_for(text: str) -> Action:
    action = ACTION_CACHE.get(text)
    if action is None:
        action = _sequence_action(text)
        if len(text) <= _CACHED_SEQUENCE_LENGTH:
            if len(ACTION_CACHE) >= _ACTION_CACHE_LIMIT:
                ACTION_CACHE.clear()
            ACTION_CACHE[text] = action
    return action


def control_name(char: str) -> str:
    code = ord(char)
    if char == ESC:
        return "ESC that starts no complete sequence (truncated or malformed)"
    if code < 0x20:
        return f"{C0_NAMES.get(code, 'C0 control')} (U+{code:04X})"
    return f"C1 control U+{code:04X}"


