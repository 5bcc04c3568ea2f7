"""The oracle's own table of ECMA-48 bytes (5th edition, 1991), written apart from textclean's grammar.

The oracle judges what ``textclean.pipeline.grammar`` decides, so it never reads that module: a byte
class wrong there (a final byte lost, an intermediate taken for a parameter) would be wrong here too
and hide from every oracle-based test. Only the names of control functions are shared
(``textclean.pipeline.names``: CUP is ``H``); where a sequence starts and ends is written here.
"""

from __future__ import annotations

from collections.abc import Iterable

# C0 controls (section 8.3) the parser acts on or stops at.
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
C0_CONTROLS = range(0x00, 0x20)
ABORTS = CAN + SUB  # a sequence interrupted by either is void (section 8.3.6, 8.3.148)

# Section 5.4: CSI, then parameter bytes, then intermediate bytes, then one final byte.
PARAMETER_BYTES = range(0x30, 0x40)  # 0-9 : ; < = > ?
INTERMEDIATE_BYTES = range(0x20, 0x30)  # SPACE ! " # $ % & ' ( ) * + , - . /
FINAL_BYTES = range(0x40, 0x7F)  # @ A-Z [ \ ] ^ _ ` a-z { | } ~ (0x70-0x7E: private use)
PRIVATE_MARKERS = "<=>?"  # 0x3C-0x3F first: a private parameter string (5.4.1 c)

# Section 5.3 (and ECMA-35 13.2): ESC + one byte 0x30-0x7E (Fp, Fe, Fs), or ESC + intermediates +
# one byte 0x30-0x7E (nF, e.g. ``ESC ( B``).
ESCAPE_FINAL_BYTES = range(0x30, 0x7F)
CSI_INTRODUCER = "["  # ESC [ (section 8.3.16)
STRING_INTRODUCERS = "]PX^_"  # ESC ] OSC, ESC P DCS, ESC X SOS, ESC ^ PM, ESC _ APC
ST_FINAL = "\\"  # ESC \ ends a control string (section 8.3.143)
# ESC + one of these bytes stands alone; the others open a sequence or a string.
TWO_BYTE_FINAL_BYTES = tuple(
    code for code in ESCAPE_FINAL_BYTES if chr(code) not in CSI_INTRODUCER + STRING_INTRODUCERS
)


def chars(codes: Iterable[int]) -> frozenset[str]:
    return frozenset(map(chr, codes))


def char_class(codes: Iterable[int], negate: bool = False) -> str:
    """A regular-expression class of these code points, as ``\\xNN`` ranges: ``[\\x30-\\x3f]``."""
    ordered = sorted(set(codes))
    parts: list[str] = []
    index = 0
    while index < len(ordered):
        start = end = ordered[index]
        while index + 1 < len(ordered) and ordered[index + 1] == end + 1:
            index += 1
            end = ordered[index]
        parts.append(f"\\x{start:02x}" if start == end else f"\\x{start:02x}-\\x{end:02x}")
        index += 1
    return "[" + ("^" if negate else "") + "".join(parts) + "]"
