"""Hypothesis strategies for terminal streams built from real ingredients.

Shared by the oracle, redraw and fuzz tests. Every strategy draws ``str`` (encode with UTF-8 for
bytes). The building blocks are small and composable:

* ``text_runs()``: printable text with tabs, wide, combining and zero-width-joined characters.
* ``sgr()``, ``osc()``, ``strings()`` (DCS/SOS/PM/APC), ``two_byte_escapes()``, ``private_modes()``:
  inert sequences in the forms real programs write.
* ``redraw_frames()``: ``\\r`` redraws of longer and shorter frames, with or without erase-line.
* ``backspaces()``, ``erase_line()``, ``line_endings()``.
* ``lines(pieces)`` / ``terminal_streams(extra_pieces=...)``: whole streams. Cursor
  controls compose by passing their strategies as ``extra_pieces``.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

ESC = "\x1b"
CSI = ESC + "["
OSC = ESC + "]"
ST = ESC + "\\"
BEL = "\x07"

# Characters real output contains: ASCII, Latin-1 letters, CJK (two cells), emoji, box drawing.
_NARROW = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;-_=+/|()[]{}<>#%*'\"!?@"
_OTHER = "éüñß─│┌┐✔✗•…→"
_WIDE = "日本語中文한국어🙂🚀"
_COMBINING = "\u0301\u0308\u0323"
_ZERO_WIDTH = "\u200d\ufe0f"


@st.composite
def _cluster(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["narrow"] * 12 + ["other", "wide", "combining", "zwj", "tab"]))
    if kind == "narrow":
        return draw(st.sampled_from(_NARROW))
    if kind == "other":
        return draw(st.sampled_from(_OTHER))
    if kind == "wide":
        return draw(st.sampled_from(_WIDE))
    if kind == "combining":
        return draw(st.sampled_from("aeou")) + draw(st.sampled_from(_COMBINING))
    if kind == "zwj":
        return "👨" + draw(st.sampled_from(_ZERO_WIDTH)) + draw(st.sampled_from("👩👧"))
    return "\t"


def text_runs(min_size: int = 1, max_size: int = 24) -> st.SearchStrategy[str]:
    """Printable text: mostly ASCII, with tabs, wide, combining and ZWJ-joined characters."""
    return st.lists(_cluster(), min_size=min_size, max_size=max_size).map("".join)


def plain_text_runs(min_size: int = 1, max_size: int = 24) -> st.SearchStrategy[str]:
    """ASCII-only text without tabs (for redraws whose cell arithmetic should stay simple)."""
    return st.text(_NARROW, min_size=min_size, max_size=max_size)


def _byte() -> st.SearchStrategy[int]:
    return st.integers(0, 255)


def sgr() -> st.SearchStrategy[str]:
    """SGR in the forms programs write: reset, attribute lists, 256/true colour, colon forms."""
    colour = st.sampled_from([30, 31, 32, 33, 34, 35, 36, 37, 39, 90, 97, 40, 41, 49, 100])
    attribute = st.sampled_from([0, 1, 2, 3, 4, 5, 7, 9, 22, 23, 24, 27, 29])
    return st.one_of(
        st.just(CSI + "m"),
        st.just(CSI + "0m"),
        st.lists(st.one_of(colour, attribute), min_size=1, max_size=4).map(
            lambda ps: CSI + ";".join(map(str, ps)) + "m"
        ),
        st.tuples(st.sampled_from([38, 48, 58]), _byte()).map(lambda p: f"{CSI}{p[0]};5;{p[1]}m"),
        st.tuples(st.sampled_from([38, 48]), _byte(), _byte(), _byte()).map(
            lambda p: f"{CSI}{p[0]};2;{p[1]};{p[2]};{p[3]}m"
        ),
        st.tuples(st.sampled_from([38, 48, 58]), _byte(), _byte(), _byte()).map(
            lambda p: f"{CSI}{p[0]}:2::{p[1]}:{p[2]}:{p[3]}m"
        ),
        st.sampled_from([CSI + "4:3m", CSI + "4:0m", CSI + "01;32m", CSI + "1;38;5;208m"]),
    )


_PAYLOAD = st.text("abcdefghijklmnopqrstuvwxyz0123456789 /:.;=-_~", max_size=30)


def osc() -> st.SearchStrategy[str]:
    """OSC titles, OSC 8 hyperlinks and OSC 133 marks, ended by BEL or ST."""
    end = st.sampled_from([BEL, ST])
    return st.one_of(
        st.tuples(st.sampled_from(["0", "1", "2"]), _PAYLOAD, end).map(lambda p: f"{OSC}{p[0]};{p[1]}{p[2]}"),
        st.tuples(_PAYLOAD, end).map(lambda p: f"{OSC}8;;https://example.com/{p[0]}{p[1]}"),
        st.tuples(end).map(lambda p: f"{OSC}8;;{p[0]}"),
        st.tuples(st.sampled_from(["A", "B", "C", "D;0", "D;1"]), end).map(
            lambda p: f"{OSC}133;{p[0]}{p[1]}"
        ),
    )


def strings() -> st.SearchStrategy[str]:
    """DCS, SOS, PM and APC strings ended by ST, and APC ended by BEL (Buildkite timestamps)."""
    return st.one_of(
        st.tuples(st.sampled_from(["P", "X", "^", "_"]), _PAYLOAD).map(lambda p: f"{ESC}{p[0]}{p[1]}{ST}"),
        st.just(ESC + "P$qm" + ST),
        st.just(ESC + "P+q544e" + ST),
        st.integers(0, 2**40).map(lambda t: f"{ESC}_bk;t={t}{BEL}"),
    )


def two_byte_escapes() -> st.SearchStrategy[str]:
    """Inert two- and three-byte escapes: charset G0 = ASCII, keypad modes, a lone ST."""
    return st.sampled_from([ESC + "(B", ESC + ")0", ESC + "=", ESC + ">", ST])


def private_modes() -> st.SearchStrategy[str]:
    """Harmless DEC private modes programs toggle (cursor, bracketed paste, focus, sync output)."""
    modes = st.sampled_from(["25", "1", "7", "12", "1000", "1006", "1004", "2004", "2026", "1;25"])
    return st.tuples(modes, st.sampled_from("hl")).map(lambda p: f"{CSI}?{p[0]}{p[1]}")


def inert_sequences() -> st.SearchStrategy[str]:
    return st.one_of(sgr(), osc(), strings(), two_byte_escapes(), private_modes())


def erase_line() -> st.SearchStrategy[str]:
    return st.sampled_from([CSI + "K", CSI + "0K", CSI + "1K", CSI + "2K"])


def redraw_frames(frame: st.SearchStrategy[str] | None = None) -> st.SearchStrategy[str]:
    """A line redrawn in place: frames joined by ``\\r`` (optionally ``\\r`` + erase-line), longer and
    shorter ones, possibly coloured, as progress bars and spinners write them."""
    frame = frame if frame is not None else plain_text_runs(0, 30)
    decorated = st.tuples(st.one_of(st.just(""), sgr()), frame, st.one_of(st.just(""), sgr())).map("".join)
    joiner = st.sampled_from(["\r", "\r", "\r" + CSI + "K", "\r" + CSI + "2K", CSI + "2K\r"])
    return st.tuples(decorated, st.lists(st.tuples(joiner, decorated), min_size=1, max_size=5)).map(
        lambda p: p[0] + "".join(j + f for j, f in p[1])
    )


def backspaces() -> st.SearchStrategy[str]:
    """Backspace overstrike (``man``: ``_\\bx``, ``x\\bx``) and backspace corrections."""
    letter = st.sampled_from("abcxyz")
    return st.one_of(
        letter.map(lambda c: f"_\b{c}"),
        letter.map(lambda c: f"{c}\b{c}"),
        st.tuples(plain_text_runs(1, 6), st.integers(1, 3), plain_text_runs(0, 6)).map(
            lambda p: p[0] + "\b" * p[1] + p[2]
        ),
    )


def line_endings() -> st.SearchStrategy[str]:
    return st.sampled_from(["\n"] * 6 + ["\r\n", "\r\r\n", "\r\n\r\n", "\n\n"])


def line_pieces() -> list[st.SearchStrategy[str]]:
    """The ingredients of one line (a list, so callers can add their own)."""
    return [text_runs(), text_runs(), inert_sequences(), redraw_frames(), backspaces(), erase_line()]


def lines(pieces: Sequence[st.SearchStrategy[str]], max_pieces: int = 6) -> st.SearchStrategy[str]:
    """One line: a few pieces, then a line ending."""
    return st.tuples(st.lists(st.one_of(*pieces), max_size=max_pieces), line_endings()).map(
        lambda p: "".join(p[0]) + p[1]
    )


def terminal_streams(
    extra_pieces: Sequence[st.SearchStrategy[str]] = (),
    max_lines: int = 8,
    final_newline: bool | None = None,
) -> st.SearchStrategy[str]:
    """Whole streams: lines of text, inert sequences, redraws, backspaces and erase-line.

    ``extra_pieces`` adds ingredients (cursor controls); ``final_newline`` forces the last
    line to end with (True) or without (False) its line ending (None: either).
    """
    line = lines([*line_pieces(), *extra_pieces])
    stream = st.lists(line, min_size=1, max_size=max_lines).map("".join)
    if final_newline is False:
        return stream.map(lambda s: s.rstrip("\r\n"))
    if final_newline is None:
        return st.tuples(stream, st.booleans()).map(lambda p: p[0] if p[1] else p[0].rstrip("\r\n"))
    return stream


def screen_controls() -> st.SearchStrategy[str]:
    """Controls that move the cursor across lines or change the screen, in scope for the cleaner or
    not: cursor moves, erases, insert/delete, scrolling and its region, save/restore, the alternate
    screen, tab stops, IRM. For checking the oracle itself against real terminals."""
    n = st.integers(0, 6).map(lambda v: "" if v == 0 else str(v))
    row_col = st.tuples(st.integers(1, 12), st.integers(1, 30))
    return st.one_of(
        st.tuples(n, st.sampled_from("ABCDEFGJKLMPSTX@`dbI")).map(lambda p: f"{CSI}{p[0]}{p[1]}"),
        row_col.map(lambda p: f"{CSI}{p[0]};{p[1]}H"),
        st.tuples(st.integers(1, 8), st.integers(2, 14)).map(lambda p: f"{CSI}{p[0]};{p[1]}r"),
        st.sampled_from(
            [
                CSI + "r",
                ESC + "7",
                ESC + "8",
                ESC + "M",
                ESC + "D",
                ESC + "E",
                ESC + "H",
                CSI + "s",
                CSI + "u",
                CSI + "3g",
                CSI + "?1049h",
                CSI + "?1049l",
                CSI + "?47h",
                CSI + "?47l",
                CSI + "4h",
                CSI + "4l",
                CSI + "?7l",
                CSI + "?7h",
                CSI + "2J",
                CSI + "J",
                CSI + "1J",
            ]
        ),
    )


def disagreements() -> st.SearchStrategy[str]:
    """Issue 12's ingredients, where terminals disagree: control strings ended by BEL, holding C0
    controls, or cancelled by CAN / SUB; code points from the whole code space; undecodable bytes
    (lone surrogates, as ``surrogateescape`` decodes them); CSI parameters near and above 2^31."""
    introducer = st.sampled_from(["\x1bP", "\x1bX", "\x1b^", "\x1b_", "\x1b]"])
    payload = st.sampled_from(["", "1;2", "q", "bk;t=1", "1:2x", "$qm", "0;title"])
    inside = st.sampled_from(["", "\n", "\r", "\b", "\t", "\x07", "\x00", "\x05"])
    end = st.sampled_from(["\x07", "\x1b\\", "\x18", "\x1a", ""])
    strings = st.tuples(introducer, payload, inside, payload, end).map("".join)
    code_point = st.integers(0xA0, 0x10FFFF).filter(lambda c: not 0xD800 <= c <= 0xDFFF).map(chr)
    invalid = st.sampled_from(["\udcff", "\udc80", "\udce6\udc97", "\udcc3", "\udcc0\udcaf"])
    parameter = st.sampled_from([2**31 - 2, 2**31 - 1, 2**31, 2**31 + 1, 2**32, 10**11]).map(str)
    csi = st.tuples(parameter, st.sampled_from("CDGK`XABEF")).map(lambda p: f"{CSI}{p[0]}{p[1]}")
    return st.one_of(strings, code_point, invalid, csi)
