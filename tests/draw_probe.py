"""Properties that only draw (run by ``test_hypothesis_profiles.py`` in a pytest of its own, never
collected on their own): the shared stream strategies as the tmux properties draw them, and a
``random.Random`` hypothesis hands out. Each draw is appended to ``$DRAW_PROBE_OUT``, one repr a line."""

from __future__ import annotations

import os
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import disagreements, screen_controls, terminal_streams

# Fewer examples than any profile's, so the probe runs fast; the profile still gives the seed.
FEW = settings(max_examples=30)


def _record(*drawn: object) -> None:
    with open(os.environ["DRAW_PROBE_OUT"], "a", encoding="utf-8") as out:
        out.write(repr(drawn) + "\n")


@FEW
@given(st.lists(terminal_streams(extra_pieces=[disagreements(), screen_controls()]), min_size=2, max_size=2))
def test_draw_streams(streams: list[str]) -> None:
    _record("streams", streams)


@FEW
@given(st.randoms(use_true_random=False), st.lists(st.text(max_size=3), max_size=4, unique=True))
def test_draw_randoms_and_words(rng: random.Random, words: list[str]) -> None:
    _record("random", rng.random(), words)
