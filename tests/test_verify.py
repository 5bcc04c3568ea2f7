"""The independent verifier: its display model rule by rule, first_difference, speed, and pyte."""

from __future__ import annotations

import gc
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from wcwidth import wcwidth

from benchmarks.bench import VERIFIER_CHEAP as CHEAP
from benchmarks.bench import VERIFIER_DENSE as DENSE
from textclean.pipeline import grammar, verify
from textclean.pipeline.verify import Refusal, first_difference, paging, terminal_lines

ESC = "\x1b"
CSI = ESC + "["


def lines(text: str) -> list[str]:
    return terminal_lines(text)


def refused(text: str) -> str:
    """The Refusal message for ``text`` (fails the test if it resolves)."""
    with pytest.raises(Refusal) as info:
        terminal_lines(text)
    return str(info.value)


# --- lines, CR, blank lines ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("plain\ntext\n", ["plain", "text"]),
        ("a\n\n  \n\t\nb", ["a", "b"]),  # blank lines (empty, spaces, tabs) are dropped
        ("trailing spaces  \n", ["trailing spaces  "]),  # written spaces stay
        ("abcdef\rXY\n", ["XYcdef"]),
        ("Done\r\r\n", ["Done"]),  # CRs before LF are a line ending
        ("Done\r", ["Done"]),  # ... and at the very end of the text
        ("a\r\nb\r\n", ["a", "b"]),
        ("\r\r\rx", ["x"]),
        ("10%\r20%\r100%\n", ["100%"]),
        ("long frame\rshort\n", ["shortframe"]),  # a shorter frame leaves the old tail
        ("line one\nline two\r\n", ["line one", "line two"]),
    ],
)
def test_lines_and_carriage_returns(raw: str, expected: list[str]) -> None:
    assert lines(raw) == expected


def test_line_feed_implies_carriage_return() -> None:
    assert lines("abc\ndef") == ["abc", "def"]


# --- inert sequences -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sequence",
    [
        CSI + "m",
        CSI + "01;31m",
        CSI + "38:2::255:100:0m",
        CSI + ">4;1m",  # XTMODKEYS
        CSI + "?25l",
        CSI + "?25h",
        CSI + "?1;2004;2026h",
        CSI + "?1000;1006l",
        CSI + "2 q",  # DECSCUSR
        CSI + "22;0t",  # window ops
        CSI + "c",
        CSI + ">c",
        CSI + "=c",
        CSI + "6n",
        CSI + ">1u",  # kitty keyboard
        CSI + "<u",
        CSI + "?u",
        CSI + "=1;1u",
        ESC + "]0;title\x07",
        ESC + "]8;;https://example.com/" + ESC + "\\",
        ESC + "P$qm" + ESC + "\\",
        ESC + "_bk;t=1700000000000" + ESC + "\\",
        ESC + "^pm" + ESC + "\\",
        ESC + "Xsos" + ESC + "\\",
        ESC + "(B",
        ESC + ")0",
        ESC + "*B",
        ESC + "+A",
        ESC + "%G",
        ESC + "=",
        ESC + ">",
        ESC + "\\",
        CSI + "31\x18",  # cancelled by CAN
        ESC + "]0;half\x1a",  # cancelled by SUB
        "\x07",  # a lone BEL
    ],
)
def test_inert_sequences_are_dropped(sequence: str) -> None:
    assert lines("ab" + sequence + "cd\n") == ["abcd"]


def test_inert_sequences_do_not_end_append_mode() -> None:
    raw = f"{CSI}35m{CSI}Kfile.py{CSI}m{CSI}K:{CSI}32m12{CSI}m:  {CSI}01;31m{CSI}Kmatch{CSI}m{CSI}K rest\n"
    assert lines(raw) == ["file.py:12:  match rest"]


# --- refused controls ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("x" + CSI + "H", "CSI H (CUP) at offset 1"),
        ("x" + CSI + "1;1f", "CSI 1;1 f (HVP)"),
        ("x" + CSI + "5d", "CSI 5 d (VPA)"),
        ("x" + CSI + "1;24r", "(DECSTBM)"),
        ("x" + CSI + "L", "(IL)"),
        ("x" + CSI + "M", "(DL)"),
        ("x" + CSI + "S", "(SU)"),
        ("x" + CSI + "T", "(SD)"),
        ("x" + CSI + "4h", "(SM)"),  # IRM
        ("x" + CSI + "?1047l", "alternate screen"),
        ("x" + CSI + "?3h", "DECCOLM"),
        ("x" + CSI + "?6h", "CSI ? 6 h (SM) at offset 1: an absolute row"),  # DECOM homes the cursor
        ("x" + CSI + "?69h", "DECLRMM"),
        ("x" + CSI + "?5h", "DECSCNM"),
        ("x" + CSI + "?45h", "reverse wraparound"),
        ("x" + CSI + "?25;3h", "DECSET 3"),  # one harmful mode spoils the list
        ("x" + CSI + "1;2s", "(SCOSC/DECSLRM)"),  # DECSLRM, not SCOSC
        ("x" + CSI + "K" + CSI + "3K", "CSI 3 K (EL)"),
        ("x" + CSI + "?K", "CSI ? K (EL)"),  # DECSEL
        ("x" + ESC + "H", "ESC H (HTS)"),
        ("x" + ESC + "#8", "ESC # 8"),
        ("x" + ESC + "(0", "G0 designation"),
        ("x" + ESC + "%@", "coding-system switch"),
        ("x\x0e", "SO (U+000E)"),
        ("x\x0f", "SI (U+000F)"),
        ("x\x00", "NUL (U+0000) at offset 1"),
        ("x\x0b", "VT (U+000B)"),
        ("x\x0c", "FF (U+000C)"),
        ("x\x18", "CAN (U+0018)"),  # not cancelling anything
        ("x\x9b31m", "C1 control U+009B at offset 1"),
        ("x\x85", "C1 control U+0085"),
        ("x" + ESC + "]0;title\x9c", "U+009C"),  # a C1 ST ends the string outside its payload
        ("x" + CSI + "31", "malformed or truncated"),
        ("x" + ESC, "malformed or truncated"),
        ("x" + ESC + "]0;unterminated", "malformed or truncated"),
        ("x" + ESC + "]0;broken\nline\x07", "malformed or truncated"),  # no payload across LF
    ],
)
def test_out_of_scope_controls_are_unresolvable(raw: str, expected: str) -> None:
    assert expected in refused(raw)


# Whole sessions (docs/design.md, 'Pages'): these resolved nothing before issue 11; a page break keeps
# every line shown before it, and edits at the end of a row change nothing (tmux agrees).
@pytest.mark.parametrize(("raw", "expected"), [
    ("0123456789" + CSI + "2J", ["0123456789"]),
    ("x" + CSI + "@", ["x"]),
    ("x" + CSI + "P", ["x"]),
    ("x" + CSI + "3b", ["xxxx"]),
    ("x" + CSI + "?1049h", ["x"]),
    ("x" + CSI + "?47h", ["x"]),
    ("x" + ESC + "c", ["x"]),
    ("x" + ESC + "D", ["x"]),
    ("x" + ESC + "E", ["x"]),
])
def test_resolved_by_the_screen_model(raw: str, expected: list[str]) -> None:
    assert terminal_lines(raw) == expected


def test_unresolvable_message_counts_offsets_across_lines() -> None:
    assert refused("ab\ncd\n" + CSI + "?5h") == "CSI ? 5 h (SM) at offset 6: DEC private mode 5 (DECSET 5, DECSCNM)"


# --- overwriting, backspace, wide characters -----------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("N\bNA\bA", ["NA"]),  # overstrike bold
        ("_\bX", ["X"]),  # underline: the last write wins
        ("X\b_", ["_"]),
        ("abc\b\bX", ["aXc"]),
        ("ab\b\b\b\b\bX", ["Xb"]),  # BS stops at column 0
        ("abc" + CSI + "2DX", ["aXc"]),  # CUB
        ("abc" + CSI + "0DX", ["abX"]),  # 0 means 1
        ("abc" + CSI + "DX", ["abX"]),
        ("abc" + CSI + "9DX", ["Xbc"]),
        ("abc" + CSI + "2GX", ["aXc"]),  # CHA, 1-based
        ("abc" + CSI + "GX", ["Xbc"]),
        ("abc" + CSI + "0GX", ["Xbc"]),
        ("abc" + CSI + "3`X", ["abX"]),  # HPA
        ("abc" + CSI + "6GX", ["abc  X"]),  # unwritten cells inside a line are spaces
        ("ab" + CSI + "3CX", ["ab   X"]),  # CUF
        ("ab" + CSI + "CX", ["ab X"]),
        ("ab" + CSI + "5C\n", ["ab"]),  # never-written cells at line end are dropped
        ("ab\r" + CSI + "CX", ["aX"]),
        ("日本\n", ["日本"]),
        ("日本\r日", ["日本"]),  # a wide character over exactly a wide character
        ("日本\rab", ["ab本"]),  # narrow text covering exactly the two cells of one
        ("ab\r日", ["日"]),  # a wide character over two narrow ones
        ("abc\r日", ["日c"]),
    ],
)
def test_overwriting(raw: str, expected: list[str]) -> None:
    assert lines(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        "日本語\ra",  # the left half of 日
        "日" + CSI + "D" + "x",  # the right half
        "a日\r日",  # a wide character over 'a' and the left half of 日
        "ab日\r" + CSI + "C日",  # ... over 'b' and the left half
        "日本\r" + CSI + "C日",  # ... over the right half of 日 and the left half of 本
    ],
)
def test_writing_over_part_of_a_wide_character_is_unresolvable(raw: str) -> None:
    assert "wide character" in refused(raw)


def test_writing_over_exactly_a_wide_character_resolves() -> None:
    assert lines("a日\r" + CSI + "C本") == ["a本"]
    assert lines("a日\rb日") == ["b日"]


@pytest.mark.parametrize(
    "raw",
    [
        "e\u0301x\rY",  # combining mark
        "👨\u200d👩\rx",  # ZWJ sequence
        "⚠\ufe0f ok\rx",  # variation selector
        "a\u0301b\bc",
        "a\u0301b" + CSI + "Dc",
        "a\u0301b" + CSI + "2Gc",
        "a\u0301b\x7f\rc",  # DEL: wcwidth -1
        "e\u0301\n" + CSI + "Ax",  # cursor moved up into the line: its column is unknown
    ],
)
def test_zero_width_characters_with_cursor_movement_are_unresolvable(raw: str) -> None:
    assert "zero-width or ambiguous" in refused(raw) or "part of a wide character" in refused(raw)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("e\u0301 caf\u00e9\n", ["e\u0301 caf\u00e9"]),  # no movement: just appended
        ("👨\u200d👩 family\n", ["👨\u200d👩 family"]),
        ("a\x7fb\n", ["a\x7fb"]),  # DEL stays where it stands (the cleaner keeps it)
        ("⚠\ufe0f spinner\r" + CSI + "Kdone\n", ["done"]),  # erased from column 0: nothing is left
        ("⚠\ufe0f spinner" + CSI + "2K\rdone\n", ["done"]),  # EL 2 then CR: column known again
        ("⚠\ufe0f x\r\n", ["⚠\ufe0f x"]),  # CR before LF moves nothing visible
    ],
)
def test_zero_width_characters_without_ambiguity_resolve(raw: str, expected: list[str]) -> None:
    assert lines(raw) == expected


# --- tabs ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("a\tb\n", ["a\tb"]),  # kept literally
        ("name\tvalue\tunit\n", ["name\tvalue\tunit"]),
        ("a\tb\rX", ["X\tb"]),  # writing before the tab leaves it
        ("a\tb\r\x1b[9GY", ["a\tY"]),  # column 9 is after the tab's cells (0..7 for 'a'+tab)
        ("ab" + CSI + "5G\tx", ["ab  \tx"]),  # a tab over unwritten cells only
        ("\tx\r" + CSI + "K", []),  # erasing a whole line with a tab
        ("a\tb" + CSI + "2K", []),
        ("a\tb\r" + CSI + "C" + CSI + "K", ["a"]),  # EL 0 from the tab's first cell: all of it
        ("ab\tc" + CSI + "G" + CSI + "C" + CSI + "1K", ["  \tc"]),  # EL 1 up to the cell before it
    ],
)
def test_tabs(raw: str, expected: list[str]) -> None:
    assert lines(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        "abcdefghij\r\tX",  # a tab skipping over written cells
        "a\tb\r" + CSI + "3GX",  # writing into a cell the tab owns
        "a\tb" + CSI + "5D" + CSI + "X",  # erasing a tab-owned cell (ECH)
        "ab\tc\r" + CSI + "3C" + CSI + "1K",  # ... EL 1 up to the tab's second cell
        "a\tb\r" + CSI + "2C" + CSI + "K",  # ... EL 0 from the middle of the tab
    ],
)
def test_tab_conflicts_are_unresolvable(raw: str) -> None:
    assert "tab" in refused(raw)


# --- erasing -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("frame 1\r" + CSI + "Kframe 2\n", ["frame 2"]),
        ("frame one\r" + CSI + "K", []),  # a final frame erased leaves nothing
        ("abcdef" + CSI + "3D" + CSI + "K", ["abc"]),  # EL 0: cursor to end
        ("abcdef" + CSI + "3D" + CSI + "0K", ["abc"]),
        ("abcdef" + CSI + "3D" + CSI + "1K", ["    ef"]),  # EL 1: start to cursor, inclusive
        ("abcdef" + CSI + "3D" + CSI + "2K", []),  # EL 2: whole line
        ("abcdef" + CSI + "2KX", ["      X"]),  # the cursor stays where it was
        ("abcdef" + CSI + "1KX", ["      X"]),
        ("abcdef" + CSI + "4D" + CSI + "2X", ["ab  ef"]),  # ECH
        ("abcdef" + CSI + "4D" + CSI + "X", ["ab def"]),
        ("abcdef" + CSI + "4D" + CSI + "9X", ["ab"]),
        ("abc" + CSI + "K" + CSI + "X" + CSI + "5X", ["abc"]),  # nothing right of the cursor
        ("日本" + CSI + "4D" + CSI + "2X", ["  本"]),  # both cells of a wide character
    ],
)
def test_erasing(raw: str, expected: list[str]) -> None:
    assert lines(raw) == expected


def test_erasing_half_a_wide_character_is_unresolvable() -> None:
    assert "wide character" in refused("日本" + CSI + "3D" + CSI + "K")
    assert "wide character" in refused("日本" + CSI + "4D" + CSI + "X")


# --- multi-line redraws --------------------------------------------------------------------------


def bars(*frames: tuple[str, str]) -> str:
    """Two progress bars redrawn in place with CUU + EL, the way docker/pip draw them."""
    out = []
    for index, (first, second) in enumerate(frames):
        if index:
            out.append(CSI + "2A")
        out.append(f"{CSI}K{first}\n{CSI}K{second}\n")
    return "".join(out)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (bars(("a 10%", "b 0%"), ("a 50%", "b 20%"), ("a done", "b done")), ["a done", "b done"]),
        (bars(("layer1: downloading", "layer2: waiting"), ("layer1: done", "layer2: ok")),
         ["layer1: done", "layer2: ok"]),
        ("one\ntwo\nthree\n" + CSI + "2AX\n", ["one", "Xwo", "three"]),  # LF above the lowest row
        ("one\ntwo\n" + CSI + "A" + CSI + "B!\n", ["one", "two", "!"]),  # CUD
        ("one\ntwo\n" + CSI + "2F*\n", ["*ne", "two"]),  # CPL
        ("one\ntwo\nthree" + CSI + "2F" + CSI + "E*", ["one", "*wo", "three"]),  # CNL
        ("one\ntwo" + ESC + "MX", ["oneX", "two"]),  # RI keeps the column
        ("abc\ndef" + CSI + "AX", ["abcX", "def"]),
        ("ab\ncdef" + CSI + "AX", ["ab  X", "cdef"]),
        ("one\ntwo\nthree\n" + CSI + "3A" + CSI + "K\n\n\nfour\n", ["two", "three", "four"]),
    ],
)
def test_multi_line_redraws(raw: str, expected: list[str]) -> None:
    assert lines(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (ESC + "7abc" + ESC + "8X", ["Xbc"]),  # DECSC / DECRC
        ("ab" + CSI + "scd" + CSI + "uX", ["abXd"]),  # SCOSC / SCORC
        ("a\nb\nc\n" + CSI + "2A" + ESC + "7\n" + ESC + "8X", ["a", "X", "c"]),  # no new row since
        ("one\ntwo\n" + CSI + "2A" + ESC + "7\n" + ESC + "8!", ["!ne", "two"]),
        ("1" + ESC + "72" + ESC + "8a" + ESC + "8b", ["1b"]),  # restore twice
        (CSI + "s" + "x" + ESC + "8y", ["y"]),  # one saved position shared by both forms
    ],
)
def test_save_and_restore(raw: str, expected: list[str]) -> None:
    assert lines(raw) == expected


@pytest.mark.parametrize(
    ("raw", "detail"),
    [
        (CSI + "A", "above the first row"),
        ("x\n" + CSI + "2A", "above the first row"),
        (ESC + "M", "above the first row"),
        ("x" + CSI + "B", "below the lowest row"),
        ("x\ny\n" + CSI + "2A" + CSI + "3B", "below the lowest row"),
        ("x\n" + CSI + "E" + CSI + "E", "below the lowest row"),
        ("x" + ESC + "8", "never saved"),
        ("x" + CSI + "u", "never saved"),
        ("a\n" + ESC + "7b\nc\n" + ESC + "8X", "may have scrolled"),  # a new row since the save
        ("one" + ESC + "7\ntwo\n" + ESC + "8!", "may have scrolled"),
    ],
)
def test_unresolvable_vertical_moves(raw: str, detail: str) -> None:
    assert detail in refused(raw)


def test_vertical_moves_to_the_first_row_resolve() -> None:
    assert lines("x\n" + CSI + "FX") == ["X"]
    assert lines("x\ny" + CSI + "AZ") == ["xZ", "y"]


def test_window_limit_of_24_rows() -> None:
    rows = "".join(f"row {i}\n" for i in range(30))  # rows 0..29, cursor on row 30 (the lowest)
    assert lines(rows + CSI + "23AX\n")[7] == "Xow 7"  # row 30 - 23 = 7: the top of a 24-row screen
    assert "more than 23 rows above" in refused(rows + CSI + "24AX")
    assert "may have scrolled" in refused(ESC + "7top\n" + rows + ESC + "8X")  # restore too
    assert "more than 23 rows above" in refused(rows + CSI + "23A" + ESC + "M")


def test_window_follows_the_lowest_row_not_the_cursor() -> None:
    rows = "".join(f"r{i}\n" for i in range(30))  # the lowest row is 30 however far up the cursor is
    assert lines(rows + CSI + "20A" + CSI + "3AX\n")[7] == "X7"
    assert "more than 23 rows above" in refused(rows + CSI + "20A" + CSI + "3A" + CSI + "A")
    assert lines(rows + CSI + "20A" + CSI + "3A" + CSI + "23BX\n")[-1] == "X"  # back to row 30


# --- first_difference ----------------------------------------------------------------------------


def test_first_difference_accepts_the_resolved_text() -> None:
    raw = f"{CSI}32mok{CSI}m\rdownloading 10%\rdownloading 100%\nDone\r\r\n"
    assert first_difference(raw, "downloading 100%\nDone\r\r\n") is None
    assert first_difference(raw, "downloading 100%\r\nDone\r\n") is None  # CRLF candidate
    assert first_difference(raw, "\n\ndownloading 100%\n  \nDone") is None  # blank lines ignored


def test_first_difference_missing_line() -> None:
    assert first_difference("a\nb\nc\n", "a\nc\n") == "line 2: missing 'b'"


def test_first_difference_changed_line() -> None:
    assert first_difference("a\nb\nc\n", "a\nB\nc\n") == "line 2: expected 'b', got 'B'"


def test_first_difference_extra_line() -> None:
    assert first_difference("a\nc\n", "a\nb\nc\n") == "line 2: unexpected extra line 'b'"
    assert "unexpected extra line 'z'" in (first_difference("a\n", "a\nz\n") or "")


def test_first_difference_candidate_ends_early() -> None:
    assert "missing 'c'" in (first_difference("a\nb\nc\n", "a\nb\n") or "")


def test_first_difference_truncates_long_lines() -> None:
    message = first_difference("x" * 500, "y" * 500) or ""
    assert len(message) < 160
    assert "…" in message


def test_first_difference_keeps_literal_candidate_text() -> None:
    # the candidate is compared literally: escape sequences left in it are a difference
    assert first_difference(f"{CSI}1mbold{CSI}m\n", f"{CSI}1mbold{CSI}m\n") is not None
    # and trailing written spaces count
    assert first_difference("ok  \n", "ok\n") == "line 1: expected 'ok  ', got 'ok'"


def test_first_difference_reports_unresolvable_raw() -> None:
    assert first_difference("x" + CSI + "H", "x") == (
        "unresolvable: CSI H (CUP) at offset 1: an absolute row on a page whose place on the screen is unknown"
    )


# --- tokenising: the same sequences grammar.scan finds --------------------------------------------

_GRAMMAR_ALPHABET = "ab;[]?01m7\\()B# \x1b\x07\x18\x9b\x9c\x9d\x90\x80é"


@given(st.text(_GRAMMAR_ALPHABET, max_size=40))
def test_sequences_found_at_each_escape_match_grammar_scan(text: str) -> None:

    scanned = [(start, end) for start, end, _family in grammar.scan(text)]
    ours = []
    position, escape = 0, text.find(ESC)
    while escape >= 0:
        found = grammar.match_at(text, escape)
        if found is None:
            position = escape + 1
        else:
            ours.append((escape, found.end()))
            position = found.end()
        escape = text.find(ESC, position)
    if any(text[start] != ESC for start, _end in scanned):
        return  # scan matched a C1-introduced sequence: refused by the verifier either way
    if any("\x9c" in text[start:end] for start, end in ours):
        return  # a 7-bit string reaching past a C1 ST: refused by the verifier
    # scan never starts a match inside an earlier one; the ESC walk matches at unmatched ESCs only
    assert ours == scanned


# --- property: the verifier accepts what a terminal (pyte) shows, and nothing more ---------------

_NO_SPACE_PIECES = st.one_of(
    st.text("abcXYZ-=", min_size=1, max_size=10),  # no written spaces or tabs: pyte right-trims them
    st.sampled_from(["\r", "\b", "\n", "\r\n", CSI + "K", CSI + "1K", CSI + "2K", CSI + "m",
                     CSI + "1;31m", ESC + "7", ESC + "8", CSI + "?25l"]),
    st.builds(lambda n, final: f"{CSI}{n}{final}", st.integers(0, 12), st.sampled_from("ABCDEFGXe")),
)


@given(st.lists(_NO_SPACE_PIECES, max_size=50).map("".join))
def test_first_difference_accepts_what_pyte_shows(raw: str) -> None:
    assume(raw.count(ESC + "8") <= 1)  # pyte's save stack (see test_agrees_with_pyte)
    try:
        terminal_lines(raw)
    except Refusal:
        assert (first_difference(raw, raw) or "").startswith("unresolvable: ")
        return
    shown = pyte_lines(raw)
    candidate = "\n".join(shown)
    assert first_difference(raw, candidate) is None
    if shown:
        assert first_difference(raw, candidate + "LEAK") is not None
        assert first_difference(raw, candidate + "\nLEAK") is not None
        assert first_difference(raw, "\n".join(shown[1:])) is not None


# --- differential: pyte ---------------------------------------------------------------------------

_PYTE_PIECES = st.one_of(
    st.text("abcXYZ -", min_size=1, max_size=12),
    st.sampled_from(["\r", "\b", "\n", "\t", CSI + "K", CSI + "0K", CSI + "1K", CSI + "2K", CSI + "m",
                     CSI + "1;32m", ESC + "7", ESC + "8", ESC + "M", CSI + "?25l"]),
    # no HPA (CSI `): pyte 0.8.2 defines HPA as CSI ' and ignores CSI ` (tmux and xterm implement it;
    # see test_agrees_with_tmux)
    st.builds(lambda n, final: f"{CSI}{n}{final}", st.sampled_from(["", "0", "1", "2", "3", "7", "12"]),
              st.sampled_from("ABCDEFGXae")),
)


def pyte_lines(raw: str) -> list[str]:
    pyte = pytest.importorskip("pyte")  # here, not at module level: the tests above need no pyte
    screen = pyte.Screen(400, 60)
    screen.set_mode(pyte.modes.LNM)
    pyte.Stream(screen).feed(raw)
    return [line.rstrip() for line in screen.display if line.strip()]


def comparable(shown: list[str]) -> list[str]:
    expanded = (line.expandtabs(8).rstrip() for line in shown)  # pyte moves over tab cells
    return [line for line in expanded if line]


@given(st.lists(_PYTE_PIECES, max_size=50).map("".join))
def test_agrees_with_pyte(raw: str) -> None:
    assert raw.count("\n") <= 50  # nothing scrolls on a 60-row pyte screen
    # pyte keeps saved cursors on a stack and pops one per DECRC (a second DECRC goes home); xterm
    # and tmux restore the same position every time (see TMUX_CASES)
    assume(raw.count(ESC + "8") <= 1)
    try:
        shown = terminal_lines(raw)
    except Refusal:
        return
    assert comparable(shown) == pyte_lines(raw)


@pytest.mark.parametrize(
    "raw",
    [
        "abcdef\rXY\n",
        "N\bNA\bA\n",
        "abcdef" + CSI + "3D" + CSI + "1Kx\n",
        bars(("a 10%", "b 0%"), ("a 50%", "b 20%")),
        "one\ntwo\nthree" + CSI + "2F" + CSI + "E*",
        "a\tb\rX" + CSI + "20GY\n",
        "abc\ndef\n" + CSI + "2A" + ESC + "7" + CSI + "Bg" + ESC + "8X",
    ],
)
def test_agrees_with_pyte_examples(raw: str) -> None:
    assert comparable(terminal_lines(raw)) == pyte_lines(raw)


# --- differential: the repository's oracle (pyte with wide, combining and tab handling) ------------

_ORACLE_PIECES = st.one_of(
    _PYTE_PIECES,
    st.sampled_from(["日", "本語", "é", "e\u0301", "🙂", "─", "\x07", ESC + "]0;title\x07", CSI + "s", CSI + "u"]),
)


def expand_tabs(line: str) -> str:
    """Tabs to spaces by cell width (str.expandtabs counts a wide character as one column)."""
    out, col = [], 0
    for char in line:
        if char == "\t":
            out.append(" " * (8 - col % 8))
            col += 8 - col % 8
        else:
            out.append(char)
            col += max(wcwidth(char), 0)
    return "".join(out)


@given(st.lists(_ORACLE_PIECES, max_size=40).map("".join))
def test_agrees_with_the_oracle(raw: str) -> None:
    import oracle

    assume(raw.count(ESC + "8") + raw.count(CSI + "u") <= 1)  # pyte's save stack, as above
    try:
        shown = terminal_lines(raw)
    except Refusal:
        return
    ours = [line for line in (expand_tabs(line).rstrip() for line in shown) if line]
    # columns=400: the oracle's own width estimate counts CSI 0 C as no column at all
    assert ours == oracle.informative_lines(raw, columns=400, lines=60)


TMUX_CASES = [
    "abc" + CSI + "2`X\n",  # HPA: pyte ignores it
    "X" + CSI + "`Y\n",
    "X" + ESC + "7" + ESC + "8" + ESC + "8X\n",  # DECRC twice restores the same position (pyte: home)
    "ab" + ESC + "7cd" + ESC + "8" + ESC + "8Z\n",
    CSI + "0C" + CSI + "0CZ\n",  # 0 means 1
    "ab" + CSI + "0D" + CSI + "0DX\n",
    "abcdef" + CSI + "3D" + CSI + "1Kx\n",
    "abcdef\rXY\n",
    "N\bNA\bA\n",
    bars(("a 10%", "b 0%"), ("a 50%", "b 20%")),
    "one\ntwo\nthree" + CSI + "2F" + CSI + "E*\n",
    "ab" + CSI + "scd" + CSI + "uX\n",
    "a\tb\rX" + CSI + "20GY\n",
]


def tmux_lines(raw: str, tmp_path: Path) -> list[str]:
    """What a real tmux shows for ``raw`` (200 x 50, so nothing wraps or scrolls)."""
    source = tmp_path / "raw.txt"
    source.write_bytes(raw.encode())
    server = ["tmux", "-S", str(tmp_path / "tmux.sock"), "-f", "/dev/null"]
    subprocess.run([*server, "new-session", "-d", "-x", "200", "-y", "50", f"cat {source}; sleep 30"],
                   check=True)
    try:
        deadline = time.monotonic() + 10
        while True:
            shown = subprocess.run([*server, "capture-pane", "-p"], check=True, capture_output=True,
                                   text=True).stdout
            if shown.strip() or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        time.sleep(0.2)  # let cat finish
        shown = subprocess.run([*server, "capture-pane", "-p"], check=True, capture_output=True,
                               text=True).stdout
    finally:
        subprocess.run([*server, "kill-server"], check=False)
    return [line.rstrip() for line in shown.splitlines() if line.strip()]


# DECSET 6 with no scroll region homes to the screen's top; where the screen's bottom is not known the
# verifier put the cursor on row -1 (an IndexError with no terminal: the red team's pages_differ, issue 40)
ORIGIN_MODE_HOME = "\x1b[?6h\nx\r6\n"
TMUX_CASES.append(ORIGIN_MODE_HOME)


@pytest.mark.parametrize("terminal", [False, True])
def test_origin_mode_without_a_region_homes_to_the_screen_top(terminal: bool) -> None:
    assert terminal_lines(ORIGIN_MODE_HOME, terminal=terminal) == ["6"]


@pytest.mark.tmux
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux not installed")
@pytest.mark.parametrize("raw", TMUX_CASES)
def test_agrees_with_tmux(raw: str, tmp_path: Path) -> None:
    assert comparable(terminal_lines(raw)) == tmux_lines(raw, tmp_path)


# --- pathological input: its speed is `python -m benchmarks.bench --only verifier` ------------------

MB = 1 << 20


_K = 64 * 1024
#: Each pathological input at 64 KB: its lines, or a phrase of its refusal (by hand, from the input).
PATHOLOGICAL_ANSWERS: dict[str, list[str] | str] = {
    "unterminated CSI parameters": "malformed",
    "CR run": ["doneress"],
    "BS run": ["Xrogress"],  # BS stops at column 0
    "CUU run": "more than 23 rows",
    "C1 string introducers": "C1 control U+009D",
    "OSC with C1 payload": "malformed",
    "huge cursor jumps": "past column 80",
    "CUU/CUD pairs": ["row"] * 30,
    "CR frames on one long line": "past column 80",
    "overstrike": "past column 80",  # each N BS N goes one column on: BS past column 80 (width unknown)
    "SGR soup": ["a" * (_K // 5)],
    "erase at a far column": "past column 80",
    "tabs": ["a\t" * (_K // 2)],
    "far moves on a long row": "past column 80",
}


@pytest.mark.parametrize("name", sorted(CHEAP) + sorted(DENSE))
def test_pathological_input_is_answered(name: str) -> None:
    """Each answer as expected (the growth t(2S)/2t(S) is a benchmark row)."""
    raw = (CHEAP.get(name) or DENSE[name])(_K)
    expected = PATHOLOGICAL_ANSWERS[name]
    if isinstance(expected, str):
        assert expected in refused(raw)
    else:
        assert lines(raw) == expected


def test_pathological_results() -> None:
    assert lines(CHEAP["CR run"](1000)) == ["doneress"]
    assert lines(CHEAP["BS run"](1000)) == ["Xrogress"]
    assert lines(DENSE["overstrike"](30)) == ["N" * 10]
    assert lines(DENSE["tabs"](10)) == ["a\ta\ta\ta\ta\t"]
    assert "malformed" in refused(CHEAP["unterminated CSI parameters"](1000))
    assert "more than 23 rows" in refused(CHEAP["CUU run"](1000))
    assert "C1 control U+009D" in refused(CHEAP["C1 string introducers"](1000))
    assert "malformed" in refused(CHEAP["OSC with C1 payload"](1000))
    assert "past column 80" in refused(CHEAP["huge cursor jumps"](MB))
    # the row passes column 80 (size unknown) before the work budget runs out
    assert "past column 80" in refused(DENSE["erase at a far column"](MB))
    assert "past column 80" in refused("x" + CSI + "999999999Cy")  # no 10^9-cell line is ever built
    assert "above 2147483647" in refused("x" + CSI + "99999999999Cy")  # tmux ignores it, xterm clamps


def test_c1_inside_a_string_payload_is_refused() -> None:
    """The grammar keeps C1 out of string payloads (a run of C1 introducers would otherwise be
    quadratic to scan), so such a string is no complete sequence."""
    with pytest.raises(Refusal):
        terminal_lines(ESC + "]0;title with C1 \x9b inside\x07text\n")


@pytest.mark.parametrize("clear", [CSI + "H" + CSI + "2J", CSI + "2J" + CSI + "H", CSI + "1;1H", CSI + "J"])
def test_clear_or_home_before_the_output_begins_hides_nothing(clear: str) -> None:
    assert terminal_lines(clear + "file1  file2\n") == ["file1  file2"]


@pytest.mark.parametrize(
    ("raw", "columns"),
    [
        ("AB\x1b_x\x07\nCD\x1b\\EF\n", None),  # tmux 3.3a shows ABEF: the line end is swallowed
        ("AB\x1b_x\x07\nCD\x1b\\EF\n", 80),
        ("a\x1b[2147483648Cb\r\n", 80),  # F1 on the screen model
        ("\x1b[75G0123456789\x1b[2Kg\r\n", None),  # F2
        ("x" * 97 + "\ryyyyyyyyy\n", None),
        ("x" * 100 + "\r\nb\x1b[Az\r\n", None),
        ("\x1b[70G1prf5xdrfm6\x1b[2Kg", None),
    ],
)
def test_red_team_refusals_by_the_verifier(raw: str, columns: int | None) -> None:
    with pytest.raises(verify.Refusal):
        verify.terminal_lines(raw, columns=columns, rows=24 if columns else None)


@pytest.mark.parametrize(("spelled", "plain"), [
    (CSI + "02J", CSI + "2J"), (CSI + "003J" + CSI + "01;1H" + CSI + "002J", CSI + "3J" + CSI + "H" + CSI + "2J"),
    (CSI + "0K", CSI + "K"), (CSI + "00001D", CSI + "D"), (CSI + ";f" + CSI + "0J", CSI + "H" + CSI + "J"),
])
def test_parameters_are_read_as_numbers(spelled: str, plain: str) -> None:
    """Leading zeros and empty fields, read through the grammar's numbers: the same lines, page breaks
    and all, at every display."""
    for display in ({}, {"columns": 80, "rows": 24}, {"terminal": False}):
        text = "one\ntwo\rT" + spelled + "three\n"
        assert terminal_lines(text, **display) == terminal_lines(text.replace(spelled, plain), **display)


def _collecting_during_walk() -> list[bool]:
    """Whether the garbage collector was on at each page break of a captured session's walk."""
    data = (Path(__file__).parent / "fixtures" / "sessions" / "session_less.raw").read_bytes()
    seen: list[bool] = []
    paging.pages(data.decode("utf-8", "surrogateescape"), on_page=lambda pages: seen.append(gc.isenabled()))
    assert seen  # not vacuous: the capture has page breaks
    return seen


def test_the_walk_turns_the_collector_off_only_while_no_other_thread_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Alone, the walk runs without collections (its page records are its own) and turns the collector
    back on; beside another thread (clean_many's pool, a host's server) it leaves the collector alone."""
    assert gc.isenabled()
    with monkeypatch.context() as alone:  # alone, whatever threads other tests of this process left behind
        alone.setattr(threading, "active_count", lambda: 1)
        assert not any(_collecting_during_walk())
    assert gc.isenabled()
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert all(_collecting_during_walk())
    finally:
        stop.set()
        other.join()
    assert gc.isenabled()
