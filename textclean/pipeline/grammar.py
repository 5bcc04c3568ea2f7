"""The escape-sequence grammar of ECMA-48 and DEC terminals, defined once.

Everything in textclean that needs to know where a control sequence starts and ends asks this
module: the cleaner (through :data:`ESCAPE_SEQUENCE`, :data:`INERT_SEQUENCE` and :func:`parse`), the
independent verifier (through :func:`match_at` and :func:`parse`) and the measurement tools. What the
sequences are called lives in ``names.py``. The byte classes below are the table; the regular
expressions are built from it, so the grammar cannot drift between the pattern and the table.

Forms recognised (7-bit introducer, or its C1 code point where ECMA-48 defines one):

* CSI ``ESC [`` / U+009B, parameter bytes 0x30-0x3F (digits, ``:`` sub-parameters, ``;`` and the
  private markers ``< = > ?``), intermediate bytes 0x20-0x2F, one final byte 0x40-0x7E.
* OSC ``ESC ]`` / U+009D, ended by BEL or ST (``ESC \\`` / U+009C).
* DCS ``ESC P`` / U+0090, SOS ``ESC X`` / U+0098, PM ``ESC ^`` / U+009E, APC ``ESC _`` / U+009F,
  ended by ST.  **Policy:** BEL also ends APC (and PM/SOS/DCS), because CI log emitters such as
  Buildkite's timestamps write ``ESC _ ... BEL`` and their log viewers end the string there; tmux
  keeps swallowing (to the next ESC; DCS data to ST), so it shows *less* than we keep. Keeping more
  is safe only while nothing acts on what tmux swallowed: the cleaner and the verifier refuse every
  redraw after such a string (and after a DCS cancelled by CAN / SUB once its data began).
* nF escapes ``ESC`` + intermediates 0x20-0x2F + final 0x30-0x7E (``ESC ( B``, ``ESC # 8``).
* Fp / Fe / Fs two-byte escapes ``ESC`` + 0x30-0x7E (``ESC 7``, ``ESC M``, ``ESC c``).
* A sequence interrupted by CAN or SUB is aborted, as a terminal aborts it: the partial sequence and
  the CAN/SUB are one *cancelled* match.

String payloads may not contain C0 controls (a newline inside an OSC is far likelier to be a broken
sequence than a title), nor ESC, so an unterminated string never reaches across a line and never
swallows visible text: it simply does not match, and the cleaner refuses what is left over.
All patterns are linear: every repetition is over a character class that cannot overlap what follows.
"""

from __future__ import annotations

import enum
import functools
import re
from typing import NamedTuple

from .names import (
    ALT_SCREEN,
    ALT_SCREEN_1047,
    ALT_SCREEN_1049,
    CHA,
    CNL,
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
    DECRC,
    DECRQM,
    DECSCUSR,
    DECSTBM,
    DL,
    DSR,
    ECH,
    ED,
    EL,
    ESC_NAMES,
    HARMLESS_ANSI_MODES,
    HARMLESS_PRIVATE_MODES,
    HVP,
    ICH,
    IL,
    REP,
    RIS,
    RM,
    SAVE_CURSOR_1048,
    SCORC,
    SD,
    SGR,
    SM,
    SU,
    VPA,
    XTWINOPS,
)

# C0 controls (ECMA-48 section 8.2).
NUL = "\x00"
BEL = "\x07"
BS = "\x08"
HT = "\x09"
LF = "\x0a"
VT = "\x0b"
FF = "\x0c"
CR = "\x0d"
SO = "\x0e"
SI = "\x0f"
CAN = "\x18"
SUB = "\x1a"
ESC = "\x1b"
DEL = "\x7f"

# C1 string introducers as code points (ECMA-48 section 8.3).
DCS_C1 = "\x90"
SOS_C1 = "\x98"
PM_C1 = "\x9e"
APC_C1 = "\x9f"

# Seven-bit forms of the introducers (ESC Fe).
CSI = ESC + "["
OSC = ESC + "]"
DCS = ESC + "P"
SOS = ESC + "X"
PM = ESC + "^"
APC = ESC + "_"
ST = ESC + "\\"

# The byte classes of ECMA-48 section 5.4, as regular-expression class bodies (escapes, not raw
# characters, so that a backslash or bracket in a range can never be misread by `re`).
PARAMETER_BYTES = r"\x30-\x3f"
INTERMEDIATE_BYTES = r"\x20-\x2f"
FINAL_BYTES = r"\x40-\x7e"
NF_FINAL_BYTES = r"\x30-\x7e"
# ESC + one byte: 0x30-0x7e except the introducers of CSI ([), OSC (]), DCS (P), SOS (X), PM (^), APC (_).
TWO_BYTE_FINAL_BYTES = r"\x30-\x4f\x51-\x57\x59\x5a\x5c\x60-\x7e"
C0_RANGE = r"\x00-\x1f"
C1_RANGE = r"\x80-\x9f"
ABORT_CONTROLS = r"\x18\x1a"  # CAN, SUB
# What may stand inside a control string: anything but C0 controls (so no ESC, BEL, CAN, SUB, LF) and
# C1 controls (ST ends the string; another introducer would make a run of them quadratic to scan).
STRING_PAYLOAD = rf"[^{C0_RANGE}{C1_RANGE}]"


class Kind(enum.Enum):
    """The family a matched sequence belongs to."""

    CSI = "csi"
    OSC = "osc"
    DCS = "dcs"
    SOS = "sos"
    PM = "pm"
    APC = "apc"
    NF = "nf"  # ESC, intermediates, final
    ESC2 = "esc"  # ESC + one Fp/Fe/Fs byte
    CANCELLED = "cancelled"  # an introducer and partial body ended by CAN or SUB


_CSI_BODY = rf"[{PARAMETER_BYTES}]*[{INTERMEDIATE_BYTES}]*"
_STRING_END = r"(?:\x07|\x1b\\|\x9c)"  # BEL, ST, C1 ST
_CSI_PATTERN = rf"(?:\x1b\[|\x9b){_CSI_BODY}[{FINAL_BYTES}]"
_OSC_PATTERN = rf"(?:\x1b\]|\x9d){STRING_PAYLOAD}*{_STRING_END}"
_OTHER_STRING_PATTERN = rf"(?:\x1b[PX^_]|[\x90\x98\x9e\x9f]){STRING_PAYLOAD}*{_STRING_END}"
_NF_PATTERN = rf"\x1b[{INTERMEDIATE_BYTES}]+[{NF_FINAL_BYTES}]"
_TWO_BYTE_PATTERN = rf"\x1b[{TWO_BYTE_FINAL_BYTES}]"
# An interrupted sequence: a prefix of any form, then CAN or SUB.
_CANCELLED_PATTERN = (
    rf"(?:(?:\x1b\[|\x9b){_CSI_BODY}"
    rf"|(?:\x1b[\]PX^_]|[\x9d\x90\x98\x9e\x9f]){STRING_PAYLOAD}*"
    rf"|\x1b[{INTERMEDIATE_BYTES}]*)[{ABORT_CONTROLS}]"
)

def _literal_first(*alternatives: str) -> str:
    """Join alternatives that each start with a literal introducer.

    `re` scans for a match fast only when every top-level alternative starts with a literal
    character (it then skips to the next introducer instead of trying each branch at every
    position): about 30x faster on plain text than alternatives that start with a group.
    """
    return "|".join(alternatives)


_PAYLOAD_TO_END = rf"{STRING_PAYLOAD}*{_STRING_END}"
_PAYLOAD_TO_ABORT = rf"{STRING_PAYLOAD}*[{ABORT_CONTROLS}]"

# Every form introduced by 7-bit ESC, as one alternative that starts with the literal ESC.
_ESC_FORMS = (
    rf"\x1b(?:\[{_CSI_BODY}[{FINAL_BYTES}{ABORT_CONTROLS}]"
    rf"|[\]PX^_](?:{_PAYLOAD_TO_END}|{_PAYLOAD_TO_ABORT})"
    rf"|[{INTERMEDIATE_BYTES}]+[{NF_FINAL_BYTES}]"
    rf"|[{TWO_BYTE_FINAL_BYTES}]"
    rf"|[{INTERMEDIATE_BYTES}]*[{ABORT_CONTROLS}])"
)

#: One complete escape sequence of any family (a match never contains a newline).
ESCAPE_SEQUENCE = re.compile(
    _literal_first(
        _ESC_FORMS,
        rf"\x9b{_CSI_BODY}[{FINAL_BYTES}{ABORT_CONTROLS}]",
        rf"\x9d(?:{_PAYLOAD_TO_END}|{_PAYLOAD_TO_ABORT})",
        rf"\x90(?:{_PAYLOAD_TO_END}|{_PAYLOAD_TO_ABORT})",
        rf"\x98(?:{_PAYLOAD_TO_END}|{_PAYLOAD_TO_ABORT})",
        rf"\x9e(?:{_PAYLOAD_TO_END}|{_PAYLOAD_TO_ABORT})",
        rf"\x9f(?:{_PAYLOAD_TO_END}|{_PAYLOAD_TO_ABORT})",
    )
)

#: The cleaner's tokens within a line: one complete sequence or one C0 control (or DEL); everything
#: between two matches is text to write.
SEQUENCE_OR_CONTROL = re.compile(rf"{ESCAPE_SEQUENCE.pattern}|[\x00-\x1f\x7f]")

#: Like :data:`ESCAPE_SEQUENCE`, with one named group per family, for :func:`scan`.
_TAGGED = re.compile(
    "|".join(
        f"(?P<{name}>{pattern})"
        for name, pattern in (
            ("csi", _CSI_PATTERN),
            ("osc", _OSC_PATTERN),
            ("string", _OTHER_STRING_PATTERN),
            ("nf", _NF_PATTERN),
            ("esc", _TWO_BYTE_PATTERN),
            ("cancelled", _CANCELLED_PATTERN),
        )
    )
)

_STRING_KINDS = {
    "P": Kind.DCS, "X": Kind.SOS, "^": Kind.PM, "_": Kind.APC,
    DCS_C1: Kind.DCS, SOS_C1: Kind.SOS, PM_C1: Kind.PM, APC_C1: Kind.APC,
}


#: CSI parameters larger than this are read as this: a field of thousands of digits would raise in
#: ``int()`` (Python refuses more than 4300 digits) and means nothing a terminal would act on.
MAX_PARAMETER = 999_999_999
#: The largest CSI parameter terminals agree on: tmux ignores a sequence with a larger one, xterm
#: clamps it (to a different bound); a control with a larger parameter is refused.
PARAMETER_RANGE_LIMIT = 2_147_483_647
#: The fewest CSI parameter bytes (after a private marker) tmux 3.3a cannot hold (its ``param_buf[64]``):
#: it discards such a sequence, xterm acts on it; a control with so many is refused.
PARAMETER_BYTES_LIMIT = 64
_MAX_PARAMETER_DIGITS = len(str(MAX_PARAMETER))


class Sequence(NamedTuple):
    """A parsed escape sequence."""

    kind: Kind
    text: str  # the whole sequence as it stood in the input
    private: str  # CSI: leading private marker(s) from ``< = > ?``, else ""
    params: str  # CSI: the parameter bytes after the private marker; strings: the payload
    intermediates: str  # CSI / nF: the intermediate bytes
    final: str  # CSI / nF / two-byte: the final byte; strings: ""

    def numbers(self, default: int = 0) -> list[int]:
        """CSI parameters as integers (sub-parameters after ``:`` ignored; empty -> ``default``),
        clamped to :data:`MAX_PARAMETER`."""
        out = []
        for field in self.params.split(";"):
            head = field.split(":", 1)[0]
            if not head.isdigit():
                out.append(default)
                continue
            digits = head.lstrip("0")
            out.append(int(digits or "0") if len(digits) <= _MAX_PARAMETER_DIGITS else MAX_PARAMETER)
        return out

    def decimal(self) -> list[int] | None:
        """The parameters as integers where each is plain decimal digits or empty (empty: 0; leading
        zeros ignored, so ``01;01`` is ``[1, 1]``); None where one holds a sub-parameter or another byte."""
        for field in self.params.split(";"):
            if field and not field.isdigit():
                return None
        return self.numbers(0)

    def first(self, default: int) -> int:
        """The first CSI parameter, where 0 or absent means ``default`` (ECMA-48 cursor moves)."""
        value = self.numbers(0)[0]
        return value if value else default


def parse(text: str) -> Sequence:
    """Split one matched sequence into its parts (``text`` must be a full :data:`ESCAPE_SEQUENCE` match)."""
    m = _TAGGED.fullmatch(text)
    if m is None:
        raise ValueError(f"not one escape sequence: {text!r}")
    family = m.lastgroup
    if family == "csi":
        body = text[2:-1] if text[0] == ESC else text[1:-1]
        cut = len(body.rstrip(INTERMEDIATE_CHARS))
        params, inter = body[:cut], body[cut:]
        priv = ""
        while params and params[0] in "<=>?":
            priv += params[0]
            params = params[1:]
        return Sequence(Kind.CSI, text, priv, params, inter, text[-1])
    if family in ("osc", "string"):
        intro_len = 2 if text[0] == ESC else 1
        end_len = 2 if text.endswith(ST) else 1
        payload = text[intro_len:-end_len]
        kind = Kind.OSC if family == "osc" else _STRING_KINDS[text[1] if text[0] == ESC else text[0]]
        return Sequence(kind, text, "", payload, "", "")
    if family == "nf":
        return Sequence(Kind.NF, text, "", "", text[1:-1], text[-1])
    if family == "esc":
        return Sequence(Kind.ESC2, text, "", "", "", text[1])
    return Sequence(Kind.CANCELLED, text, "", "", "", "")


INTERMEDIATE_CHARS = "".join(chr(c) for c in range(0x20, 0x30))


def match_at(text: str, pos: int) -> re.Match[str] | None:
    """The complete sequence starting exactly at ``pos``, if any (``lastgroup`` names its family)."""
    return _TAGGED.match(text, pos)


def scan(text: str):
    """Yield ``(start, end, family)`` for every complete sequence, left to right, never overlapping.

    ``family`` is one of ``csi osc string nf esc cancelled``. A character that could start display
    control but begins no complete sequence (a truncated ``ESC [ 3 1``, a lone ESC, an unterminated
    OSC) is *not* yielded: callers find it in the gaps.
    """
    for m in _TAGGED.finditer(text):
        yield m.start(), m.end(), m.lastgroup


# --- Which sequences change nothing about which characters show where ---------------------------
# The harmless DEC private modes (``CSI ? Pm h`` / ``CSI ? Pm l``) are one list, in names.py.
_MODE = "(?:" + "|".join(str(m) for m in sorted(HARMLESS_PRIVATE_MODES, reverse=True)) + ")"

_INERT_CSI_BODIES = (
    rf"[{PARAMETER_BYTES}]*{SGR}",  # SGR, any parameters (colon sub-parameters, private markers)
    rf"\?{_MODE}(?:;{_MODE})*[{SM}{RM}]",  # DECSET / DECRST of harmless modes
    rf"[0-9]* {DECSCUSR}",  # DECSCUSR cursor style
    rf"[0-9;]*{XTWINOPS}",  # XTWINOPS (title stack, window reports)
    rf"[>=]?[0-9;]*{DA}",  # DA primary / secondary / tertiary
    rf"\??[0-9;]*{DSR}",  # DSR
    rf">[0-9;]*{DECSCUSR}",  # XTVERSION
    rf"\??[0-9;]*\${DECRQM}",  # DECRQM
    rf"[<=>?][0-9;:]*{SCORC}",  # kitty keyboard protocol push / pop / query
    rf"{_CSI_BODY}[{ABORT_CONTROLS}]",  # cancelled by CAN / SUB
)
_INERT_ESC_BODIES = (
    rf"[\]PX^_](?:{_PAYLOAD_TO_END}|{_PAYLOAD_TO_ABORT})",  # OSC, DCS, SOS, PM, APC (or cancelled)
    r"\(B",  # designate US-ASCII into G0 (what tput sgr0 writes)
    r"[)*+\-./][\x30-\x7e]",  # designate G1-G3: no effect until SO / LS2 / LS3
    r"%G",  # select UTF-8 (ESC % @ leaves it: refused)
    r" [FGLMN]",  # announce 7/8-bit controls, ANSI conformance level
    r"[=>\\]",  # DECKPAM, DECKPNM, a lone ST
    rf"[{INTERMEDIATE_BYTES}]*[{ABORT_CONTROLS}]",  # cancelled by CAN / SUB
)


def _inert_pattern(extra_csi_bodies: tuple[str, ...] = ()) -> str:
    csi = "|".join(_INERT_CSI_BODIES + extra_csi_bodies)
    esc = "|".join(_INERT_ESC_BODIES)
    return _literal_first(rf"\x1b(?:\[(?:{csi})|{esc})", r"\x07")  # BEL outside a string


#: Sequences that are removed wherever they stand: no effect on which characters show where.
INERT_SEQUENCE = re.compile(_inert_pattern())

#: What the cleaner's one-pass fast path removes when no line is redrawn.
APPEND_ONLY_INERT = re.compile(_inert_pattern((rf"0?{EL}",)))

# --- Prefilters: the patterns other modules search with, written here once -------------------------
# The verifier's fast paths and its routing look for sequences before they walk a text token by token.
# What a found sequence does is still decided by the caller, from :func:`parse` and the names.

#: Every complete sequence introduced by 7-bit ESC, in one capturing group, for ``split``: the odd
#: pieces are sequences, each exactly what :func:`match_at` matches at its ESC; an ESC left in the
#: even pieces starts no complete sequence. C1 introducers are not split out (they stay in the text).
ESC_SEQUENCES = re.compile(f"({_ESC_FORMS})")


def csi_ending_in(finals: str, *, subparameters: bool = False) -> re.Pattern[str]:
    """A prefilter: a 7-bit CSI of decimal parameters only (``;`` between them, and ``:`` with
    ``subparameters``), no private marker and no intermediates, whose final is one of ``finals``
    (names constants). Sequences of other forms are not found: a caller that must see them parses."""
    fields = "0-9;:" if subparameters else "0-9;"
    return re.compile(rf"\x1b\[[{fields}]*[{re.escape(finals)}]")


def csi_ending_otherwise(finals: str, *, unless_private_modes: tuple[int, ...] = ()) -> re.Pattern[str]:
    """A prefilter: a complete 7-bit CSI whose final is none of ``finals`` (names constants), any
    parameters and intermediates; a DECSET / DECRST of exactly one of ``unless_private_modes`` is not
    found."""
    unless = ""
    if unless_private_modes:
        modes = "|".join(str(mode) for mode in sorted(unless_private_modes, reverse=True))
        unless = rf"(?!\?(?:{modes})[{SM}{RM}])"
    return re.compile(
        rf"\x1b\[{unless}[{PARAMETER_BYTES}]*[{INTERMEDIATE_BYTES}]*"
        rf"[^{PARAMETER_BYTES}{INTERMEDIATE_BYTES}{re.escape(finals)}]"
    )


def above_range(params: str) -> bool:
    """Whether a CSI parameter or sub-parameter of ``params`` is above :data:`PARAMETER_RANGE_LIMIT`
    (leading zeros ignored)."""
    if len(params) < _LIMIT_LENGTH:
        return False
    for field in params.replace(":", ";").split(";"):
        digits = field.lstrip("0")
        if digits.isdigit() and (len(digits) > _LIMIT_LENGTH
                                 or (len(digits) == _LIMIT_LENGTH and int(digits) > PARAMETER_RANGE_LIMIT)):
            return True
    return False


_LIMIT_LENGTH = len(str(PARAMETER_RANGE_LIMIT))


def describe(seq: Sequence) -> str:
    """A short human-readable name for a sequence, for refusal details: ``CSI 2 J (ED)``."""
    if seq.kind is Kind.CSI:
        if seq.private == "?" and seq.final in (SM, RM):
            name = "DECSET" if seq.final == SM else "DECRST"
        elif seq.private or seq.intermediates:
            name = "private"
        else:
            name = CSI_NAMES.get(seq.final, "?")
        body = " ".join(p for p in (seq.private + seq.params, seq.intermediates, seq.final) if p)
        return f"CSI {body} ({name})"
    if seq.kind is Kind.ESC2:
        return f"ESC {seq.final} ({ESC_NAMES.get(seq.final, '?')})"
    if seq.kind is Kind.NF:
        return f"ESC {seq.intermediates} {seq.final}"
    return seq.kind.name


def harmless_mode_change(seq: Sequence) -> bool:
    """SM / RM (no private marker) whose every mode is in :data:`names.HARMLESS_ANSI_MODES`: changes
    nothing shown at any display (``CSI 34 h``, vim's cvvis). Empty fields are mode 0: refused."""
    if seq.kind is not Kind.CSI or seq.private or seq.intermediates or seq.final not in (SM, RM):
        return False
    fields = seq.params.split(";")
    return all(f.isdigit() for f in fields) and all(n in HARMLESS_ANSI_MODES for n in seq.numbers())


#: The intermediates that designate a character set into G1, G2 or G3 (``ESC ) 0``): inert alone, but
#: a later shift (SO, LS2, SS2 ...) writes in that set.
SHIFTED_SET_DESIGNATORS = frozenset(")*+-./")


def designates_shifted_set(seq: Sequence) -> bool:
    """ESC ) / * / + / - / . / / and a final: a character set given to G1-G3 for a later shift."""
    return seq.kind is Kind.NF and seq.intermediates[:1] in SHIFTED_SET_DESIGNATORS


def harmless_private_mode_change(seq: Sequence) -> bool:
    """DECSET / DECRST whose every mode is in :data:`names.HARMLESS_PRIVATE_MODES`, however spelled
    (``CSI ? 025 h`` is ``CSI ? 25 h``, which the inert table takes in its plain spelling only)."""
    if seq.kind is not Kind.CSI or seq.private != "?" or seq.intermediates or seq.final not in (SM, RM):
        return False
    fields = seq.params.split(";")
    if not all(f.isdigit() and len(f) <= _MAX_PARAMETER_DIGITS for f in fields):
        return False
    return all(n in HARMLESS_PRIVATE_MODES for n in seq.numbers())


# --- Page breaks (pages.py): the sequences after which a text's screen starts over -----------------
# Read from the parsed sequence, so that every spelling of one fact is one break: ``CSI 01;01 H``,
# ``CSI ;H`` and ``CSI H`` are all home, ``CSI 02 J`` is ED 2 (tmux 3.3a and xterm read parameters as
# decimal numbers, leading zeros and empty fields included).
ALTERNATE_SCREEN_MODES = (ALT_SCREEN_1049, ALT_SCREEN_1047, ALT_SCREEN)

#: Every sequence that may be a page break or its first half: ED, CUP / HVP, DECSET / DECRST, RIS
#: (:func:`break_part` says which are).
BREAK_CANDIDATE = re.compile(rf"\x1b\[\??[0-9;]*[{ED}{CUP}{HVP}{SM}{RM}]|\x1b{RIS}")
#: :data:`BREAK_CANDIDATE` less what :func:`break_part` never reads as a part: CUP / HVP with a field
#: other than 0 or 1 or a third field, ED with ``?``, SM / RM without it. The same parts at the same
#: offsets (no candidate holds an ESC, so skipping one moves no other), and a session's cursor
#: positions are skipped by the scan instead of matched.
BREAK_PART_CANDIDATE = re.compile(rf"\x1b(?:\[(?:0*1?(?:;0*1?)?[{CUP}{HVP}]|[0-9;]*{ED}|\?[0-9;]*[{SM}{RM}])|{RIS})")


#: A homing clear: CUP / HVP and ED 2 next to each other, either order, ED 3 right after allowed. Both cut
#: readings take one as a cut point where it starts (each reads it its own way, the home's parameters
#: included); a stretch released from such a cut keeps it in front of its cleaned text (``textclean.Stream``).
#: A prefilter for its extent there: the CUP / HVP's decimal parameters are not read here.
HOMING_CLEAR = re.compile(
    rf"(?:\x1b\[[0-9;]*[{CUP}{HVP}]\x1b\[2{ED}|\x1b\[2{ED}\x1b\[[0-9;]*[{CUP}{HVP}])(?:\x1b\[3{ED})?"
)


class BreakPart(NamedTuple):
    """A sequence's part in a page break: ``kind`` is ``erase`` (ED, ``mode`` 0, 2 or 3), ``home``
    (CUP / HVP to row 1, column 1), ``switch`` (DECSET / DECRST of an alternate screen: ``switch`` is
    ``?1049h`` ...) or ``reset`` (RIS)."""

    kind: str
    mode: int = 0
    switch: str = ""


@functools.lru_cache(maxsize=1024)
def break_part(token: str) -> BreakPart | None:
    """``token`` (one :data:`BREAK_CANDIDATE` match) as a part of a page break, or None. ED 1 and
    mode lists (``?1049;25h``) are none: the models read them where they stand."""
    if token == ESC + RIS:
        return BreakPart("reset")
    seq = parse(token)
    fields = seq.params.split(";")
    if seq.intermediates or not all(f.isdigit() or not f for f in fields):
        return None
    if len(seq.params) >= PARAMETER_BYTES_LIMIT or any(len(f) > _MAX_PARAMETER_DIGITS for f in fields):
        return None  # terminals disagree on it: the models refuse it where it stands
    numbers = seq.numbers()
    if seq.private == "?":
        # one alternate-screen mode, alone or in a list with modes that change nothing shown (tmux
        # 3.3a and xterm act on a list's modes one by one: ``?1049;25h`` is ``?1049h`` then ``?25h``)
        switches = [n for n in numbers if n in ALTERNATE_SCREEN_MODES]
        if seq.final in (SM, RM) and len(switches) == 1 and all(fields) and all(
                n in HARMLESS_PRIVATE_MODES for n in numbers if n not in ALTERNATE_SCREEN_MODES):
            return BreakPart("switch", switches[0], f"?{switches[0]}{seq.final}")
        return None
    if seq.private:
        return None
    if seq.final == ED and len(numbers) == 1 and numbers[0] in (0, 2, 3):
        return BreakPart("erase", numbers[0])
    if seq.final in (CUP, HVP) and len(numbers) <= 2 and all(n in (0, 1) for n in numbers):
        return BreakPart("home")
    return None


def clears_or_homes(seq: Sequence) -> bool:
    """ED in any mode (0 to 3), or CUP / HVP to row 1, column 1: decimal fields, leading zeros and
    empty fields read as terminals read them (``CSI 01;01 H`` and ``CSI ;H`` are home)."""
    if seq.kind is not Kind.CSI or seq.private or seq.intermediates:
        return False
    fields = seq.params.split(";")
    if not all(f.isdigit() or not f for f in fields) or any(len(f) > _MAX_PARAMETER_DIGITS for f in fields):
        return False
    if seq.final == ED:
        return len(fields) == 1 and seq.numbers()[0] <= 3
    return seq.final in (CUP, HVP) and len(fields) <= 2 and all(n in (0, 1) for n in seq.numbers())


#: A CSI with ten parameter bytes or more: the shortest that may hold a parameter terminals disagree on
#: (``session.disputed_parameters``); a prefilter.
LONG_CSI = re.compile(rf"\x1b\[[{PARAMETER_BYTES}]{{10}}")


# --- What a kept page's bytes carry past the next break (pages.persists) ---------------------------
#: SM / RM (``?`` for DECSET / DECRST) and DECSTBM: groups private marker, parameters, final.
MODE_OR_MARGINS = re.compile(rf"\x1b\[(\??)([0-9;]*)([{SM}{RM}{DECSTBM}])")
#: State a clear leaves: G1-G3 designations, G0 other than ASCII, DECSC / DECRC, SCOSC / SCORC, DEC line
#: attributes and character-set selection (``ESC #``, ``ESC %``). ESC first: a fast scan.
PERSISTENT_ESCAPE = re.compile(r"\x1b(?:[)*+\-./][\x30-\x7e]|\([^B]|[78]|\[[su]|[#%])")


# --- The cleaner's prefilters and fast paths: sequences in one spelling, where another spelling only
# --- sends the text down the slower path that parses every sequence (never to another outcome) -------
#: SGR with plain parameters: what most of a coloured text's sequences are (one literal-prefix pattern).
SGR_ONLY = re.compile(rf"\x1b\[[0-9;]*{SGR}")
#: A CR followed by a character no substitution removes (sequences start with ESC; C1 is refused), or
#: by EL 2 (which no substitution removes): the whole-text substitution would leave a redraw.
CR_BEFORE_TEXT = re.compile(rf"\r(?:[^\r\n\x1b]|\x1b\[2{EL})")
#: A CR followed by anything but CR, LF, ESC or BEL: the line is redrawn whatever the substitution
#: removes from it (it removes only from an ESC or a BEL), so the one-regex path does not take it.
CR_REDRAWS = re.compile(r"\r[^\r\n\x1b\x07]")
#: DECRST of a mode list holding 7 (DECAWM off), leading zeros and empty fields included.
AUTOWRAP_OFF = re.compile(rf"\x1b\[\?(?:[0-9;]*;)?0*{DECAWM}(?:;[0-9;]*)?{RM}")
#: The string path for a line redrawn by CR and EL 0 / 2 (and backspace runs): what it splits at.
CR_OR_EL = re.compile(rf"(\r|\x1b\[[02]?{EL})")
CR_EL_OR_BACKSPACES = re.compile(rf"(\r|\x1b\[[02]?{EL}|\x08+)")
#: Cursor moves and ED with plain parameters: never inert, so the string path does not take the line.
MOVES = re.compile(rf"\x1b\[[0-9]*[{CUU}{CUD}{CUF}{CUB}{CNL}{CPL}{CHA}{CUP}{ED}]")
#: What restores a saved cursor: DECRC, SCORC, XTRESTORE 1048 (leading zeros included).
RESTORE_CURSOR = re.compile(rf"\x1b{DECRC}|\x1b\[{SCORC}|\x1b\[\?0*{SAVE_CURSOR_1048}{RM}")
#: REP right after a printable ASCII character of the same line (no sequence between), count of up to
#: three digits: groups the character and the count.
REP_AFTER_CHARACTER = re.compile(rf"([\x20-\x7e])\x1b\[([0-9]{{0,3}}){REP}")
#: A string tmux 3.3a reads on past where the project's policy ends it: DCS / SOS / PM / APC ended by
#: BEL, and a DCS cancelled by CAN / SUB once its data began (``session.swallowed_text``).
SWALLOWING_STRING: re.Pattern[str] = re.compile(
    rf"\x1b[PX^_]{STRING_PAYLOAD}*\x07"
    rf"|\x1bP[\x20-\x3f]*[^{C0_RANGE}{C1_RANGE}\x20-\x3f]{STRING_PAYLOAD}*"
    rf"[{ABORT_CONTROLS}]"
)
#: From where a :data:`SWALLOWING_STRING` ends: a line end (CR or LF) before the next ESC, and all up to
#: that ESC (or the text's end). tmux joins the text before the string with the text after its ST.
LINE_END_BEFORE_ESC = re.compile(r"[^\x1b\r\n]*[\r\n][^\x1b]*")
#: Where tmux 3.3a ends an SOS, PM or APC that :data:`SWALLOWING_STRING` ended early (checked live): at
#: the next ESC (which starts a sequence of its own), CAN or SUB; a DCS before its data too.
TMUX_ENDS_STRING = re.compile(rf"[\x1b{ABORT_CONTROLS}]")
#: Where tmux 3.3a ends a DCS whose data began: only at ST (an ESC followed by anything else, CAN and SUB
#: are the string's data there).
TMUX_ENDS_DCS = re.compile(r"\x1b\\")
#: A DCS before its data (only parameter digits and ';', and C0 tmux ignores, after ESC P): tmux is still
#: reading its parameters, where an ESC, CAN or SUB ends it as it ends SOS / PM / APC (checked live:
#: ``h ESC P BEL ESC [ m 3`` shows ``h3``). Anything else (a final byte, ':', a private marker) may have
#: begun its data, which only ST ends.
DCS_BEFORE_DATA = re.compile(r"[\x00-\x17\x19\x1c-\x1f0-9;]*")

#: A cursor move, an erase in display or a line / character insert, delete or erase (not EL), in its
#: plain spelling: no inert sequence ends in one of these finals after digits and ';' alone, so a line
#: holding one keeps it however its inert sequences are marked (the screen model's plain-line path).
MOVE_OR_ERASE_NOT_EL = re.compile(
    rf"\x1b\[[0-9;]*[{CUP}{HVP}{CUU}{CUD}{CUF}{CUB}{CNL}{CPL}{CHA}{ED}{VPA}{IL}{DL}{DCH}{ECH}{ICH}{SU}{SD}]"
)
