"""The fast cleaner, case by case: what it proposes, and what it refuses."""

import pytest

from textclean import MALFORMED_ESCAPE, UNSUPPORTED_CONTROL
from textclean.pipeline import clean, verify
from textclean.pipeline.clean import Refused, candidate, strip_escapes_only


def proposed(text):
    return candidate(text).text


# --- escape sequences -------------------------------------------------------------------------------
def test_grep_match_line_loses_every_escape_and_keeps_every_character():
    line = "\x1b[35m\x1b[Ksrc/app.py\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K12\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K    \x1b[01;31m\x1b[Kreturn\x1b[m\x1b[K value\n"  # noqa: E501
    assert proposed(line) == "src/app.py:12:    return value\n"


def test_osc8_hyperlink_keeps_the_link_text():
    assert proposed("see \x1b]8;;https://x.org/\x1b\\the docs\x1b]8;;\x1b\\ now\n") == "see the docs now\n"


def test_title_and_dcs_and_bel_ended_apc_are_removed():
    text = "\x1b]0;build\x07\x1bP$qm\x1b\\\x1b_bk;t=1700000000000\x07step 1\n"
    assert candidate(text, terminal=False).text == "step 1\n"  # a log viewer ends the APC at BEL
    with pytest.raises(Refused, match="tmux reads on"):  # tmux swallows `step 1`: terminals disagree
        proposed(text)


def test_colon_subparameters_are_one_sequence():
    assert proposed("\x1b[38:2::255:100:0mrgb\x1b[0m\n") == "rgb\n"


def test_cancelled_sequence_is_removed_with_its_can():
    assert proposed("a\x1b[31\x18b\n") == "ab\n"


def test_truncated_sequence_at_end_is_refused():
    with pytest.raises(Refused) as info:
        candidate("text\x1b[3")
    assert info.value.reason == MALFORMED_ESCAPE


def test_interrupted_sequence_is_refused_not_half_stripped():
    with pytest.raises(Refused) as info:
        candidate("\x1b[31 \x1b[32mX\n")
    assert info.value.reason == MALFORMED_ESCAPE


def test_unterminated_osc_is_refused():
    with pytest.raises(Refused) as info:
        candidate("\x1b]0;title never ends\nvisible\n")
    assert info.value.reason == MALFORMED_ESCAPE


def test_c1_code_point_is_refused_and_neighbours_untouched():
    with pytest.raises(Refused) as info:
        candidate("caf\u00e9 \x9b31mred\n")
    assert info.value.reason == UNSUPPORTED_CONTROL
    assert "U+009B" in info.value.detail


@pytest.mark.parametrize("code", ["\x1b[H", "\x1b[5;1H", "\x1b[1;20r", "\x1b(0"])
def test_out_of_scope_controls_are_refused(code):
    with pytest.raises(Refused) as info:
        candidate(f"before\n{code}after\n")
    assert info.value.reason == UNSUPPORTED_CONTROL


@pytest.mark.parametrize("control", ["\x00", "\x0b", "\x0c", "\x0e", "\x7f"])
def test_other_c0_controls_are_refused(control):
    with pytest.raises(Refused):
        candidate(f"\x1b[1mx\x1b[0m{control}y\n")


# --- carriage-return redraws --------------------------------------------------------------------------
def test_cr_overwrites_cell_by_cell():
    assert proposed("abcdef\rXY\n") == "XYcdef\n"


def test_progress_frames_keep_only_the_last():
    assert proposed("  0%\r 50%\r100%\n") == "100%\n"


def test_shorter_frame_leaves_the_tail_of_the_longer_one():
    assert proposed("downloading 10 files\rdone\n") == "doneloading 10 files\n"


def test_erase_after_cr_is_honoured():
    assert proposed("working 10%\r\x1b[Kworking 100%\r\x1b[Kdone\n") == "done\n"


def test_frames_then_erase_then_newline_leave_an_empty_line():
    assert proposed("10%\r50%\r\x1b[K\nnext\n") == "\nnext\n"


def test_several_crs_before_lf_keep_the_line():
    assert proposed("\x1b[1mDone\x1b[0m\r\r\n") == "Done\r\r\n"


def test_crlf_endings_come_back_byte_identical():
    text = "\x1b[32mok\x1b[0m\r\nsecond\r\n"
    assert proposed(text) == "ok\r\nsecond\r\n"


def test_cr_at_end_of_text_is_kept():
    assert proposed("\x1b[1mlast\x1b[0m\r") == "last\r"


def test_wide_characters_take_two_cells():
    assert proposed("日本語\r日本\n") == "日本語\n"
    assert proposed("日本語\rab\n") == "ab本語\n"


def test_half_a_wide_character_is_refused():
    with pytest.raises(Refused):
        candidate("日本語\ra\n")


def test_tabs_and_trailing_spaces_and_blank_lines_are_untouched():
    text = "\x1b[1mcol1\tcol2   \x1b[0m\n\n \n\tx\n"
    assert proposed(text) == "col1\tcol2   \n\n \n\tx\n"


def test_overwriting_a_tab_is_refused():
    with pytest.raises(Refused):
        candidate("\tb\rX\n")


def test_zero_width_joiner_on_a_redrawn_line_is_refused():
    with pytest.raises(Refused):
        candidate("\U0001f468\u200d\U0001f469 ok\rX\n")


def test_emoji_status_line_redrawn_after_erasing_the_whole_line():
    frames = "\r\x1b[2K\u2699\ufe0f step 1\r\x1b[2K\u2699\ufe0f step 2\r\x1b[2K\u2714\ufe0f done\n"
    assert proposed(frames) == "\u2714\ufe0f done\n"


def test_overwriting_after_a_variation_selector_is_refused():
    with pytest.raises(Refused):
        candidate("\u2699\ufe0f step\x1b[3Dx\n")
    with pytest.raises(Refused):
        candidate("\u2699\ufe0f step 1\rX\n")  # X lands in a cell whose neighbours are uncertain


def test_zero_width_joiner_on_a_plain_line_is_kept():
    assert proposed("\x1b[1m\U0001f468\u200d\U0001f469 ok\x1b[0m\n") == "\U0001f468\u200d\U0001f469 ok\n"


# --- backspace and cursor controls within a line -----------------------------------------------------
def test_man_page_overstrike_bold_and_underline():
    assert proposed("N\bNA\bAM\bME\bE\n_\bf_\bi_\bl_\be\n") == "NAME\nfile\n"


def test_backspace_spinner():
    assert proposed("working |\b/\b-\b\\\b \n") == "working  \n"


def test_backspace_at_column_zero_stays():
    assert proposed("\b\bab\n") == "ab\n"


def test_cursor_back_and_erase_characters():
    assert proposed("abcdef\x1b[3D\x1b[2Xg\n") == "abcg f\n"


def test_cursor_horizontal_absolute_and_forward():
    assert proposed("abcdef\x1b[2GX\x1b[2CY\n") == "aXcdYf\n"


def test_erase_in_line_modes():
    assert proposed("abcdef\x1b[3D\x1b[1K\n") == "    ef\n"
    assert proposed("abcdef\x1b[3D\x1b[2K\n") == "\n"


# --- multi-line redraws ------------------------------------------------------------------------------------
def test_two_progress_bars_redrawn_with_cursor_up():
    frames = "a  0%\nb  0%\n" "\x1b[2A\x1b[Ka 50%\n\x1b[Kb 10%\n" "\x1b[2A\x1b[Ka100%\n\x1b[Kb100%\n"
    assert proposed("log line\n" + frames + "after\n") == "log line\na100%\nb100%\nafter\n"


def test_lines_the_redraw_never_touched_stay():
    assert proposed("keep 1\nbar 0%\n\x1b[1A\x1b[2Kbar 100%\nkeep 2\n") == "keep 1\nbar 100%\nkeep 2\n"


def test_save_and_restore_cursor_within_the_rows_on_screen():
    assert proposed("one\ntwo\nthree\n\x1b[2A\x1b7\x1b[2Kzwei\n\x1b8\x1b[1Ctwo\n") == "one\nztwo\nthree\n"


def test_restore_after_a_new_row_is_refused():
    # DECSC saves a screen position; the new row may have scrolled the screen under it.
    with pytest.raises(Refused):
        candidate("status: ...\x1b7\nlog\x1b8done\n")


def test_cursor_up_beyond_the_output_is_refused():
    with pytest.raises(Refused):
        candidate("one\n\x1b[5Aover\n")


def test_cursor_up_beyond_a_24_row_screen_is_refused():
    text = "".join(f"line {i}\n" for i in range(30)) + "\x1b[25Ax\n"
    with pytest.raises(Refused):
        candidate(text)
    assert proposed("".join(f"line {i}\n" for i in range(30)) + "\x1b[23A\x1b[2Kx\n").count("x\n") == 1


@pytest.mark.parametrize("clear", ["\x1b[H\x1b[2J", "\x1b[2J\x1b[H", "\x1b[H\x1b[J\x1b[3J", "\x1b[1;1H"])
def test_clear_before_the_output_begins_removes_nothing(clear):
    assert proposed(f"{clear}file1  file2\n") == "file1  file2\n"


@pytest.mark.parametrize("code", ["\x1b[2J", "\x1b[H\x1b[2J", "\x1b[?1049h", "\x1bc"])
def test_a_clear_after_output_began_is_a_page_break(code):
    """docs/design.md, 'Pages': what was shown before the clear stays, the next page follows."""
    proposal = candidate(f"first\n{code}second\n")
    assert proposal.text == "first\nsecond\n"
    assert (proposal.pages_cleaned, proposal.pages_kept) == (2, 0)


def test_restore_without_save_is_refused():
    with pytest.raises(Refused):
        candidate("a\x1b8b\n")


# --- accounting -----------------------------------------------------------------------------------------
def test_account_separates_the_transforms():
    text = "\x1b[1mtitle\x1b[0m\n 10%\r100%\nN\bNo\bo\nbar 1\n\x1b[1A\x1b[2Kbar 2\n"
    result = candidate(text)
    removed = result.removed
    assert result.text == "title\n100%\nNo\nbar 2\n"
    assert removed.escape_sequences == 4
    assert removed.cr_redraws == 1 and removed.cr_chars == 4
    assert removed.backspace_redraws == 1 and removed.backspace_chars == 2
    assert removed.multiline_redraws >= 1 and removed.multiline_chars == 5


def test_strip_escapes_only_leaves_redraws():
    assert strip_escapes_only("\x1b[1ma\x1b[0m\rb\x1b[K\n") == "a\rb\n"


# Issue 12: where terminals disagree, a redraw that depends on it is refused by the cleaner and the
# verifier alike (tests/test_oracle_tmux.py judges these families with a live tmux).
DISAGREEMENTS = {
    "SOS ended by BEL, then CR": "plain text\x1bXsos\x07\rX\n",
    "APC ended by BEL, then a redraw lines later": "\x1b_bk;t=1\x07step\n50%\r100%\n",
    "DCS ended by BEL, then BS": "ab\x1bPq\x07cd\b\bX\n",
    "PM ended by BEL, then cursor up": "row\n\x1b^pm\x07x\n\x1b[Ay\n",
    "DCS data cancelled by CAN, then CR": "ab\x1bPx\x18cd\rX\n",
    "DCS data cancelled by SUB, then EL": "ab\x1bP1;2|x\x1acd\x1b[2K\n",
    "CUB above 2^31-1": "progress 10%\x1b[99999999999D\x1b[Kdone\n",
    "CHA at 2^31": "ab\x1b[2147483648Gc\n",
    "EL with a huge mode": "ab\x1b[2147483648Kc\n",
    "width 1 vs 2 (wcwidth vs glibc)": "\u3248abc\rXYZ\n",
    "invalid byte under CR": "A\udcffBC\rXY\n",
}


@pytest.mark.parametrize("name", sorted(DISAGREEMENTS))
def test_redraws_over_what_terminals_disagree_on_are_refused(name: str) -> None:
    text = DISAGREEMENTS[name]
    with pytest.raises(clean.Refused):
        clean.candidate(text)
    assert verify.first_difference(text, text) is not None  # the verifier refuses on its own


# F13 (red team, session 13): tmux 3.3a keeps CSI parameter bytes in a 64-byte buffer and discards a
# sequence that reaches 64 of them; xterm acts on it. Leading zeros make a long string of a small value.
LONG_PARAMETERS = {
    "EL after CR": "keep\r\x1b[" + "0" * 64 + "K\r\n",
    "EL 2, no CR": "important\x1b[" + "0" * 63 + "2K\r\n",
    "CUU": "line1\r\nline2\x1b[" + "0" * 63 + "1A\rXXXXX\r\n",
    "CUP on a page": "\x1b[H\x1b[2Jkeep\r\nmore\r\n\x1b[" + "0" * 62 + "1;1HX\r\n",
    "ED on a page": "\x1b[H\x1b[2Jkeep\r\nmore\x1b[" + "0" * 63 + "1J\r\n",
    "DECSTBM": "\x1b[H\x1b[2Jkeep\r\n\x1b[" + "0" * 62 + "2;5r\x1b[5;1H\n\n\r\n",
    "private marker, then 64": "\x1b[H\x1b[2Jkeep\x1b[?" + "0" * 63 + "6h\r\nX\r\n",
}


@pytest.mark.parametrize("name", sorted(LONG_PARAMETERS))
@pytest.mark.parametrize("size", [(None, None), (80, 24)])
def test_a_control_tmux_discards_for_its_parameter_length_is_refused(name: str, size: tuple) -> None:
    with pytest.raises(clean.TerminalsDisagree, match="64 parameter bytes|6[5-9] parameter bytes"):
        clean.candidate(LONG_PARAMETERS[name], columns=size[0], rows=size[1])


def test_63_parameter_bytes_still_act_and_an_inert_sequence_of_any_length_is_stripped() -> None:
    assert candidate("keep\r\x1b[" + "0" * 63 + "K\r\n").text == "\r\n"  # tmux acts on 63 bytes
    assert candidate("line1\r\nline2\x1b[" + "0" * 62 + "1A\rXXXXX\r\n").text == "XXXXX\r\nline2"
    assert candidate("\x1b[H\x1b[2Jkeep\r\nmore\x1b[" + "0" * 60 + "1;1HX\r\n", columns=80, rows=24).text \
        == "Xeep\r\nmore"
    assert candidate("red\x1b[" + "0;" * 40 + "31mtext\x1b[m\r\n").text == "redtext\r\n"  # SGR: inert


def test_appending_after_a_policy_string_stays_resolved() -> None:
    text = "\x1b_bk;t=1\x07step 1\n\x1b_bk;t=2\x07step 2\n50%\r"
    assert clean.candidate(text, terminal=False).text == "step 1\nstep 2\n50%\r"
    # tmux 3.3a swallows on to the next ESC, the line end too (it joins lines there): the verifier refuses
    assert "swallows" in verify.first_difference(text, "step 1\nstep 2\n50%\r")
    ended = "\x1b_bk;t=1\x07\x1b[mstep 1\n\x1b_bk;t=2\x07\x1b[mstep 2\n50%\r"  # the next ESC ends it first
    assert verify.first_difference(ended, "step 1\nstep 2\n50%\r") is None
    assert clean.candidate("50%\r100%\n\x1b_bk;t=1\x07step\n", terminal=False).text == "100%\nstep\n"
    assert clean.candidate("x\x1bP1;2\x18y\rz\n").text == "zy\n"  # CAN before DCS data: all agree
    assert clean.candidate("abc\x1b[2147483647Dx\n").text == "xbc\n"  # the largest agreed parameter
