"""The screen model's text holding characters other than one cell wide is written run by run, as the walk
wrote it character by character (:func:`meaning.other_widths`, issue 27)."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from textclean.pipeline.verify import meaning

# ---------------------------------------------------------------------------------------------------
# Characters other than one cell wide, found run by run


@given(st.text(st.sampled_from("ab █▋━─⠋你é🌍\u200b\u0301\t\x7f\udcff\u00ad"), max_size=40))
@example("下载模型权重:  15%|███████▎  |")
def test_other_widths_are_every_character_not_one_cell_wide(text: str) -> None:
    expected = [(index, meaning.WIDTH[char]) for index, char in enumerate(text) if meaning.WIDTH[char] != 1]
    assert meaning.other_widths(text) == expected
    assert meaning.other_widths(text) == expected  # again, with what the first call learned
