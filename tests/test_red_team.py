"""Red-team of the gate: inputs built to hit the assumptions the cleaner and the verifier share.

Every adopted result must keep every line the terminal showed (``oracle.check_lossless``), show the
same informative lines (``oracle.agrees``) and be a fixed point of ``clean``. Findings that are real
bugs (in the cleaner, the verifier, the design or the oracle) are recorded as strict xfails with the
exact input; tmux 3.3 was the tiebreaker wherever the oracle itself was in doubt.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_profiles import scaled

import oracle
import textclean

ESC = "\x1b"
CSI = ESC + "["

PROPERTY = settings(
    max_examples=scaled(1000), deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _clean(text: str) -> textclean.Result:
    """At a terminal of unknown size, as the oracle renders by default (these inputs were found so)."""
    return textclean.clean(text, min_tokens=0, terminal=True)


def _assert_sound(raw: str) -> textclean.Result:
    """Adopted implies lossless, agreeing and idempotent; refused implies the very same object."""
    result = _clean(raw)
    if not result.applied:
        assert result.text is raw
        return result
    candidate = result.text
    lossless = oracle.check_lossless(raw, candidate)
    assert lossless.ok, (raw, candidate, lossless.describe())
    assert oracle.ideal_lines(raw) == oracle.ideal_lines(candidate), (raw, candidate)
    again = _clean(candidate)
    assert not again.applied or again.text == candidate, (raw, candidate, again.text)
    return result


# ---------------------------------------------------------------------------------------------------
# Hand-made attacks that held up: each is adopted and sound, or refused untouched.

HELD_UP = [
    # tabs with cursor moves, EL, ECH, CHA across tab stops
    "ab\tc\x1b[2Dxx\n",
    "a\t\x1b[K\n",
    "a\t\x1b[3Gz\n",
    "ab\x1b[5C\tX\rY\n",
    # wide characters at CUB / CUF / ECH / EL1 boundaries
    "\u4e2d\x1b[K\n",
    "a\u4e2d\x1b[1D\x1b[K\n",
    "a\u4e2d\x1b[1D\x1b[1K\n",
    "a\u4e2d\x1b[1D\x1b[X\n",
    "\u4e2d\x1b[D\x1b[1K\n",
    "\b\u4e2dx\rab\n",
    # combining marks and ZWJ after CR, then EL2
    "e\u0301\r\x1b[2Kz\n",
    "\u200d\r\x1b[2Kz\n",
    "\u200b\x1b[2Kx\n",
    "e\u0301\x1b[1Kx\n",
    # CR at the end, CR CR LF, CR before an inert sequence then LF
    "ab\r\r\nc\rd\n",
    "ab\r\x1b[m\nc\rd\n",
    "ab\r\x1b[m",
    "ab\r\x1b[m\r",
    "ab\x1b[m\r\x1b[m\nc\rd",
    "ab\rc\r\x1b[0m",
    # erase modes with parameter 0 (means 1), CHA 0
    "abc\r\x1b[0X\n",
    "abc\r\x1b[0Xz\n",
    "x\x1b[0Gy\n",
    "abc\x1b[0`y\n",
    # clear before output, then cursor moves; clear after output
    "\x1b[2J\x1b[5Cy\rz\n",
    "\x1b[H\x1b[2Jab\rc\n",
    "x\x1b[2J\x1b[Hy\n",
    "\x1b[5C\x1b[Hx\n",
    # SCOSC / SCORC mixed with DECSC / DECRC, restores after new rows
    "a\x1b7\nb\x1b8c\n",
    "a\x1b[s\x1b8c\rd\n",
    "a\x1b7\x1b[uc\rd\n",
    # glyph-changing modes and charsets
    "a\x1b[?7lbbbb\rc\n",
    "ab\x1b[8mcd\x1b[0m\rX\n",
    "\x1b)0\x0eabc\rd\n",
    "\x1b)0abc\rd\n",
    "\x1b(0abc\rd\n",
    "\x1b*0\x1bnqq\rz\n",
    "ab\x1bNcd\rz\n",
    "a\x1b[?2027hb\rz\n",
    # sequences cancelled by CAN / SUB, OSC 8 link text
    "ab\x1b[1\x1acd\rz\n",
    "ab\x1b[1\x18cd\rz\n",
    "ab\x1b]0;x\x1acd\rz\n",
    "\x1b]8;;http://x\x07link\x1b]8;;\x07\rL\n",
    # undecodable bytes next to removed sequences and redraws
    "\udcc3\x1b[m\udca9\rx\n",
    "\udcc3\r\udca9\n",
    "\udce4\udcb8X\r\x1b[2C\udc80\n",
    # DEL, window edges, RI at the top
    "ab\x7f\rc\n",
    "\x1bMa\rb\n",
    "a\n" * 23 + "z\x1b[23Fy\n",
    "a\n" * 23 + "z\x1b[24Fy\n",
    "a\n" * 24 + "z\x1b[24Ay\n",
    "a\n\n\x1b[Ab\x1b[Ac\n",
    # the fast path's EL0 after HT, a wide char, CUF past the content
    "ab\x1b[5C\x1b[K\n",
    "a\t\x1b[K\rb\n",
    "\u4e2d\x1b[Kx\rb\n",
    "ab\x1b[3Cc\x1b[K\rd\n",
]


@pytest.mark.parametrize("raw", HELD_UP)
def test_hand_made_attacks_hold(raw: str) -> None:
    _assert_sound(raw)


def test_undecodable_bytes_joined_by_a_redraw_are_refused() -> None:
    # e4 b8 'X' CR CUF2 80: the redraw would put e4 b8 80 ("一") side by side.
    raw = "\udce4\udcb8X\r\x1b[2C\udc80\n"
    assert not _clean(raw).applied


# ---------------------------------------------------------------------------------------------------
# Findings


def test_oracle_width_estimate_counts_cuf_zero_as_one() -> None:
    raw = "\x1b[0Ca\x1b[K"
    result = _clean(raw)
    assert result.applied and result.text == " a"
    assert oracle.render(raw).informative == [" a"]
    assert oracle.agrees(raw, result.text)


def test_oracle_width_estimate_does_not_cap_cursor_forward_at_1000() -> None:
    assert oracle.render("\x1b[1500Cx\n").informative == [" " * 1500 + "x"]


def test_cursor_forward_to_the_right_margin_is_refused() -> None:
    noise = "\x1b[1;32m\u2714\x1b[0m \x1b[2mstep\x1b[0m\n" * 20
    raw = noise + "build \x1b[999C\x1b[6Ddone!\n"
    assert not _clean(raw).applied


def test_dangling_zwj_before_a_carriage_return_is_refused() -> None:
    assert not _clean("\U0001f468\u200d\r\x1b[2K\U0001f469 done\n").applied


def test_cr_at_the_end_after_a_cursor_up_is_resolved() -> None:
    raw = "a\nb\x1b[Ac\r"
    result = _assert_sound(raw)
    assert result.applied
    assert oracle.render(result.text).informative == ["ac", "b"]


@pytest.mark.parametrize("raw", ["ab\x1b[?1$pc\rd\n", "ab\x1b[>0qc\rd\n"])
def test_inert_queries_are_adopted(raw: str) -> None:
    assert _assert_sound(raw).applied


def test_coding_system_switch_is_unsupported() -> None:
    assert _clean("\x1b%@\u00e9\u4e2d\rz\n").reason == textclean.UNSUPPORTED_CONTROL


def test_cleaner_budgets_erase_work() -> None:
    from textclean.pipeline import clean as cleaner

    raw = "a" * 60000 + "\x1b[59999G\x1b[1K" * 800  # 48 million cells erased for 71 200 characters
    assert not _clean(raw).applied
    with pytest.raises(cleaner.Refused):
        cleaner.candidate(raw)


@pytest.mark.parametrize("char", ["\U0001f1e6", "\U0001f1ff", "\u268e"])
def test_regional_indicator_width_is_ambiguous(char: str) -> None:
    assert not _clean(f"{char}ab\r\x1b[2Cz\x1b[m\n").applied


@pytest.mark.parametrize("char", ["\U0001f6dc", "\U0001fae8", "\U0001faf8"])
def test_emoji_newer_than_the_terminal_are_ambiguous(char: str) -> None:
    assert not _clean(f"{char}ab\r\x1b[2Cz\x1b[m\n").applied


# ---------------------------------------------------------------------------------------------------
# Generators: token soups aimed at the shared assumptions


_TEXT = ["a", "b", "xy", "abcdefgh", " ", "\u4e2d", "\ud55c", "\U0001f642", "e\u0301", "\u0301", "\u200d",
         "\U0001f468\u200d\U0001f469", "\ufe0f", "\u200b", "\udcc3", "\udca9", "\t"]
_IN_LINE = ["\b", "\b\b", "\r", "\r\r", CSI + "K", CSI + "0K", CSI + "1K", CSI + "2K", CSI + "X", CSI + "0X",
            CSI + "2X", CSI + "C", CSI + "2C", CSI + "7C", CSI + "9C", CSI + "D", CSI + "0D", CSI + "3D",
            CSI + "G", CSI + "0G", CSI + "3G", CSI + "8G", CSI + "9G", CSI + "16G", CSI + "`", CSI + "5`"]
_ROWS = ["\n", "\r\n", "\r\r\n", CSI + "A", CSI + "0A", CSI + "2A", CSI + "B", CSI + "E", CSI + "0E", CSI + "F",
         CSI + "2F", CSI + "23A", CSI + "23F", CSI + "24A", ESC + "M", ESC + "7", ESC + "8", CSI + "s", CSI + "u"]
_INERT = [CSI + "m", CSI + "1;31m", CSI + "8m", ESC + "]0;t\x07", CSI + "?25l", CSI + "?7l", ESC + ")0", "\x07",
          CSI + "2J", CSI + "H", CSI + "J"]

# CSI 0 C and cursor moves past 1000 cells are left out: they hit the oracle's width-estimate bugs.
token_soup = st.lists(st.sampled_from(_TEXT + _IN_LINE + _ROWS + _INERT), min_size=1, max_size=16).map("".join)
multi_row_soup = st.lists(
    st.sampled_from(["\n"] * 6 + [CSI + "A"] * 3 + _ROWS + _TEXT[:6] + ["\t", "\r", CSI + "K", CSI + "2K"]),
    min_size=1, max_size=30,
).map("".join)


@PROPERTY
@given(token_soup)
def test_token_soup_adopted_only_when_sound(raw: str) -> None:
    _assert_sound(raw)


@PROPERTY
@given(multi_row_soup)
def test_multi_row_soup_adopted_only_when_sound(raw: str) -> None:
    _assert_sound(raw)


@st.composite
def _frames_over_tabs_and_wide(draw: st.DrawFn) -> str:
    """A status line with tabs and wide characters, redrawn by CR / CHA / CUB then EL or ECH."""
    base = draw(st.lists(st.sampled_from(["ab", "\t", "\u4e2d", "x", " ", "e\u0301"]), min_size=1, max_size=6))
    frames = [("".join(base))]
    for _ in range(draw(st.integers(1, 3))):
        move = draw(st.sampled_from(["\r", CSI + "G", CSI + "2G", CSI + "9G", CSI + "D", CSI + "2D", "\b",
                                     CSI + "C", ESC + "[3C"]))
        erase = draw(st.sampled_from(["", CSI + "K", CSI + "1K", CSI + "2K", CSI + "X", CSI + "3X"]))
        text = "".join(draw(st.lists(st.sampled_from(["z", "\u4e2d", "\t", "yy", "\U0001f642"]), max_size=3)))
        frames.append(move + erase + text)
    return "".join(frames) + draw(st.sampled_from(["", "\n", "\r", "\r\n", "\r" + CSI + "m\n"]))


@PROPERTY
@given(_frames_over_tabs_and_wide())
def test_frames_over_tabs_and_wide_adopted_only_when_sound(raw: str) -> None:
    _assert_sound(raw)


def test_the_soups_are_not_vacuous() -> None:
    """Enough of the soups is adopted with real redraw work that the properties above test something."""
    import random

    rng = random.Random(7)
    pool = _TEXT + _IN_LINE + _ROWS + _INERT
    adopted = 0
    for _ in range(2000):
        raw = "".join(rng.choice(pool) for _ in range(rng.randint(2, 12)))
        result = _clean(raw)
        if result.applied and (result.removed.cr_redraws or result.removed.multiline_redraws):
            adopted += 1
    assert adopted > 100
