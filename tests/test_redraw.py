"""The cleaner's row model (``textclean/pipeline/clean/line.py``) on its own: one test per control it
resolves and per reason it gives up. End to end it is covered by test_cleaner.py and test_contract.py."""

from __future__ import annotations

import pytest

from textclean.pipeline.clean.line import LineModel, Unresolved
from textclean.pipeline.model import MIN_COLUMNS, SCREEN_LINES, TAB_WIDTH


def model(*rows: str) -> LineModel:
    """A model that has written ``rows`` with a line feed after each but the last."""
    m = LineModel(1000)
    for index, row in enumerate(rows):
        if index:
            m.line_feed("\n")
        m.write(row)
    return m


def test_append_and_line_feed_keep_the_endings() -> None:
    m = model("one", "two")
    m.line_feed("\r\n")
    assert m.render() == "one\ntwo\r\n"
    assert m.at_fresh_row()


def test_carriage_return_overwrites_and_counts_a_cr_redraw() -> None:
    m = model("progress 10%")
    m.carriage_return()
    m.write("done")
    assert m.render() == "doneress 10%"
    assert m.rows[0].kind == "cr"
    assert m.rows[0].dropped() == 4


def test_backspace_marks_bs_and_stops_at_column_zero() -> None:
    m = model("ab")
    for _ in range(5):
        m.backspace()
    m.write("X")
    assert m.render() == "Xb"
    assert m.rows[0].kind == "bs"


@pytest.mark.parametrize(("mode", "shown"), [(0, "ab"), (1, "   d"), (2, "")])
def test_erase_in_line(mode: int, shown: str) -> None:
    m = model("abcd")
    m.cursor_to_column(2)
    m.erase_in_line(mode)
    assert m.render() == shown


def test_erase_in_line_with_an_unknown_mode_is_unresolved() -> None:
    m = model("abcd")
    m.cursor_to_column(2)
    with pytest.raises(Unresolved):
        m.erase_in_line(3)


def test_erase_characters_leaves_unwritten_cells() -> None:
    m = model("abcdef")
    m.cursor_to_column(1)
    m.erase_characters(2)
    assert m.render() == "a  def"


def test_unwritten_cells_are_spaces_inside_a_row_and_nothing_at_its_end() -> None:
    m = model("ab")
    m.cursor_forward(3)
    assert m.render() == "ab"
    m.write("X")
    assert m.render() == "ab   X"


def test_a_move_past_the_narrowest_terminal_is_unresolved() -> None:
    m = model("ab")
    m.cursor_forward(MIN_COLUMNS - 3)  # to column MIN_COLUMNS (1-based): still on any screen
    with pytest.raises(Unresolved, match="past column"):
        m.cursor_forward(1)


def test_tab_owns_the_cells_to_the_next_stop_and_is_kept() -> None:
    m = model("a")
    m.tab()
    m.write("b")
    assert m.render() == "a\tb"
    m.cursor_to_column(TAB_WIDTH)
    m.write("Y")
    assert m.render() == "a\tY"
    m.cursor_to_column(2)
    with pytest.raises(Unresolved, match="tab"):
        m.write("Z")


def test_wide_characters_take_two_cells_and_cannot_be_split() -> None:
    m = model("日本")
    m.carriage_return()
    m.write("ab")
    assert m.render() == "ab本"
    m = model("日本")
    m.carriage_return()
    with pytest.raises(Unresolved, match="half a wide"):
        m.write("X")


@pytest.mark.parametrize("char", ["e\u0301", "\U0001fa75", "\U0001f1e6"])  # combining, newer emoji, lone RI
def test_after_an_ambiguous_character_only_column_free_controls_resolve(char: str) -> None:
    m = model("ok " + char)
    with pytest.raises(Unresolved):
        m.cursor_back(1)
    m = model("ok " + char)
    m.carriage_return()
    m.erase_in_line(0)  # from column 0: the whole row, whatever its widths
    m.write("done")
    assert m.render() == "done"


def test_a_trailing_zero_width_joiner_is_unresolved() -> None:
    with pytest.raises(Unresolved, match="joiner"):
        model("a\u200d")


def test_cursor_up_and_down_within_the_rows_written() -> None:
    m = model("one", "two", "")
    m.cursor_vertical(-2, to_column_zero=True)
    m.write("O")
    m.cursor_vertical(1, to_column_zero=False)
    m.write("T")
    assert m.render() == "One\ntTo\n"
    assert [row.kind for row in m.rows] == ["multiline", "multiline", "multiline"]


def test_cursor_moves_outside_the_screen_window_are_unresolved() -> None:
    m = model(*(f"r{n}" for n in range(SCREEN_LINES)), "")
    m.cursor_vertical(-(SCREEN_LINES - 1), to_column_zero=True)
    with pytest.raises(Unresolved, match="row"):
        m.cursor_vertical(-1, to_column_zero=True)
    with pytest.raises(Unresolved, match="row"):
        model("a").cursor_vertical(1, to_column_zero=False)


def test_save_and_restore_on_the_same_rows() -> None:
    m = model("abcd")
    m.cursor_to_column(2)
    m.save_cursor()
    m.write("XY")
    m.restore_cursor()
    m.write("!")
    assert m.render() == "ab!Y"


def test_restore_after_a_new_row_or_without_a_save_is_unresolved() -> None:
    m = model("a")
    m.save_cursor()
    m.line_feed("\n")
    with pytest.raises(Unresolved, match="scrolled"):
        m.restore_cursor()
    with pytest.raises(Unresolved, match="without a save"):
        model("a").restore_cursor()


def test_work_beyond_the_budget_is_unresolved() -> None:
    m = LineModel(0, columns=2000)  # the fixed allowance only; a known width (a row past column 80 of an
    m.write("x" * 1000)  # unknown width refuses any column operation)
    with pytest.raises(Unresolved, match="more cells"):
        for _ in range(10_000):
            m.cursor_to_column(0)
            m.erase_in_line(1)
            m.write("x" * 999)
            m.cursor_to_column(998)
