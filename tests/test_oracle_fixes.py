"""Each pyte 0.8.2 gap the oracle fixes: plain pyte fails or differs, the oracle is right.

The expected answers are tmux 3.3a's (``tests/test_oracle_tmux.py`` checks the same inputs against a
live tmux when one is installed).
"""

from __future__ import annotations

import pyte
import pytest

import oracle
from oracle.screen import OracleScreen


def plain_pyte(data: bytes, columns: int = 40, lines: int = 6) -> list[str]:
    """What plain pyte shows: non-blank lines of ``Screen.display`` (LNM set, as for the oracle)."""
    screen = pyte.Screen(columns, lines)
    screen.set_mode(pyte.modes.LNM)
    pyte.ByteStream(screen).feed(data)
    return [line.rstrip() for line in screen.display if line.strip()]


def ours(data: bytes | str, columns: int = 40, lines: int = 6) -> list[str]:
    return oracle.render(data, columns=columns, lines=lines).informative


@pytest.mark.parametrize(
    ("data", "shown"),
    [
        (b"abc\x1bP$qm\x1b\\def\n", ["abcdef"]),  # DCS (DECRQSS)
        (b"a\x1bXsos\x1b\\b\x1b^pm\x1b\\c\x1b_apc\x1b\\d\n", ["abcd"]),  # SOS, PM, APC
        (b"a\x1bPq#0;2;0;0;0#1!6~-\x1b\\b\n", ["ab"]),  # sixel DCS
    ],
)
def test_control_strings_are_consumed(data: bytes, shown: list[str]) -> None:
    assert plain_pyte(data) != shown
    assert ours(data) == shown


@pytest.mark.parametrize(
    ("data", "shown"),
    [
        (b"\x1b[38:2::255:100:0mred\x1b[m\n", ["red"]),  # colon sub-parameters
        (b"\x1b[4:3mcurly\x1b[4:0m\n", ["curly"]),
        (b"x\x1b[=1;2uY\n", ["xY"]),  # kitty keyboard protocol push
        (b"x\x1b[<1uY\n", ["xY"]),  # kitty keyboard protocol pop
        (b"x\x1b[1'zY\n", ["xY"]),  # DECELR: ' is an intermediate, not pyte's HPA
    ],
)
def test_csi_parameters_do_not_leak(data: bytes, shown: list[str]) -> None:
    assert plain_pyte(data) != shown
    assert ours(data) == shown


def test_private_marker_sgr_is_not_sgr() -> None:
    # CSI > 4;1 m (xterm modifyOtherKeys) is not "underline, bold": pyte applies it as SGR.
    screen = pyte.Screen(10, 2)
    pyte.ByteStream(screen).feed(b"\x1b[>4;1mY")
    assert screen.buffer[0][0].bold
    assert ours(b"x\x1b[>4;1mY\n") == ["xY"]


def test_surplus_csi_parameters() -> None:
    with pytest.raises(TypeError, match="positional arguments"):
        plain_pyte(b"ab\x1b[1;2;3Dc\n")
    with pytest.raises(TypeError, match="positional arguments"):
        plain_pyte(b"ab\x1b[1;2Ac\n")
    assert ours(b"ab\x1b[1;2;3Dc\n") == ["ac"]
    assert ours(b"ab\x1b[1;2Ac\n") == ["abc"]


def test_half_overwritten_wide_character() -> None:
    data = "日本語\ra\n".encode()
    with pytest.raises(IndexError):
        plain_pyte(data)
    assert ours(data) == ["a 本語"]
    # the right half: the left half is blanked
    assert ours("日本\x1b[2Ga\n".encode()) == [" a本"]


@pytest.mark.parametrize("text", ["👨\u200d👩\u200d👧 ok", "✔\ufe0f done", "e\u0301te"])
def test_zero_width_characters_join_the_previous_cell(text: str) -> None:
    data = (text + "\n").encode()
    if "\u0301" not in text:
        assert plain_pyte(data) != [text]
    assert ours(data) == [text]


def test_c1_code_points_are_invisible_characters() -> None:
    # tmux with UTF-8 shows nothing for U+009B; pyte takes it for CSI and eats what follows.
    data = "a\u009bb\n".encode()
    assert plain_pyte(data) == ["a"]
    assert ours(data) == ["ab"]


def test_alternate_screen() -> None:
    for mode in (b"1049", b"47", b"1047"):
        data = b"main\n\x1b[?" + mode + b"hFULL SCREEN APP\x1b[?" + mode + b"l"
        assert "FULL SCREEN APP" in plain_pyte(data)
        assert ours(data) == ["main"]
    # 1049 restores the cursor saved on entry
    assert ours(b"ab\x1b[?1049h\x1b[5;5Hx\x1b[?1049lc\n") == ["abc"]


def test_scrollback_without_history_screen() -> None:
    data = b"".join(b"line %d\n" % i for i in range(10))
    assert plain_pyte(data, lines=4) == ["line 7", "line 8", "line 9"]
    assert ours(data, lines=4) == [f"line {i}" for i in range(10)]


def test_controls_pyte_lacks() -> None:
    # HPA is CSI ` (pyte maps CSI ' instead), REP, SU.
    assert plain_pyte(b"ab\x1b[1`c\n") == ["abc"]
    assert ours(b"ab\x1b[1`c\n") == ["cb"]
    assert plain_pyte(b"x\x1b[3bY\n") == ["xY"]
    assert ours(b"x\x1b[3bY\n") == ["xxxxY"]
    screen = OracleScreen(5, 3)
    oracle.stream.OracleStream(screen).feed("1\n2\n3\x1b[1S")
    assert screen.screen_lines() == ["2", "3", ""]
    assert plain_pyte(b"1\n2\n3\x1b[1S", lines=3) == ["1", "2", "3"]


def test_index_below_the_scrolling_region() -> None:
    # pyte's cursor_down clamps to the bottom margin even when the cursor is below it.
    data = b"\x1b[1;2r\x1b[4;1Ha\nb\n"
    assert plain_pyte(data, lines=6) == ["b", "a"]
    assert ours(data, lines=6) == ["a", "b"]


def test_cursor_up_above_the_scrolling_region() -> None:
    # pyte stops CUU at the top margin even when the cursor is above the region (zsh with tput csr).
    data = b"\x1b[4;6r\x1b[2;1Hx\x1b[Ay\x1b[5Az\n"
    assert plain_pyte(data, lines=8) == ["x", " yz"]
    assert ours(data, lines=8) == [" yz", "x"]


def test_next_line_returns_the_carriage_without_lnm() -> None:
    # NEL is CR + LF whatever LNM says; pyte maps it to LF (for recordings taken after onlcr).
    screen = pyte.Screen(10, 3)
    pyte.ByteStream(screen).feed(b"a\x1bEb")
    assert screen.display[1].rstrip() == " b"
    assert oracle.render(b"a\x1bEb", columns=10, lines=3, onlcr=False).lines == ["a", "b"]


def test_resetting_the_scrolling_region_homes_the_cursor() -> None:
    # DECSTBM homes the cursor; pyte returns early when the region is reset (CSI r).
    data = b"\n\x1b[ra\n"
    assert plain_pyte(data) == ["a"] and pyte_row_of("a", data) == 1
    assert oracle.render(data).lines == ["a"]


def pyte_row_of(text: str, data: bytes) -> int:
    screen = pyte.Screen(10, 4)
    screen.set_mode(pyte.modes.LNM)
    pyte.ByteStream(screen).feed(data)
    return [line.rstrip() for line in screen.display].index(text)


def test_delete_lines_next_to_blank_rows() -> None:
    # pyte's DL leaves a row in place when the row that should move onto it is blank.
    deleted = b"a\n\nc\x1b[1;1H\x1b[M"
    assert plain_pyte(deleted) == ["a", "c"]
    assert ours(deleted) == ["c"]
    assert oracle.render(deleted).screen[:2] == ("", "c")


def test_oracle_judges_a_large_log() -> None:
    """Its speed against pyte's Stream is a row of ``python -m benchmarks.bench --only oracle``."""
    data = b"".join(
        b"\x1b[32m%6d\x1b[0m some log text with words and \x1b[1mbold\x1b[m parts\n" % i
        + (b"progress 10%\rprogress 50%\r\x1b[Kprogress 100%\n" if i % 5 == 0 else b"")
        for i in range(8000)
    )
    informative = oracle.render(data).informative
    assert len(informative) == 8000 + 1600
    assert informative[:3] == ["     0 some log text with words and bold parts", "progress 100%",
                               "     1 some log text with words and bold parts"]


@pytest.mark.parametrize(
    ("data", "shown"),
    [
        (b"ab\x1b7cd\x1b8X\x1b8Y\n", ["abYd"]),  # DECRC restores the one saved cursor again
        (b"ab\x1b7cd\x1b8X\x1b8Y\x1b8Z\n", ["abZd"]),
    ],
)
def test_saved_cursor_is_one_position_restored_again_and_again(data: bytes, shown: list[str]) -> None:
    # pyte pops a stack: the second DECRC finds it empty and homes the cursor.
    assert plain_pyte(data) != shown
    assert ours(data) == shown


def test_alternate_screen_keeps_its_own_saved_cursor() -> None:
    data = b"a\n    b\x1b7\n\x1b[?47h\n >\x1b7\x1b8\x1b[?47l!\x1b8<\n"
    assert ours(data, lines=8) == ["a", "    b<", "  !"]  # as xterm.js t0092 records from real xterm
