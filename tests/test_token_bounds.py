"""The bounds that let the gate adopt a candidate without counting (tokens.surely_fewer, issue 39): what they
tell holds for tiktoken's own counts, on the committed captures and on generated digit-heavy text."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from textclean.pipeline import tokens
from textclean.pipeline.gate import TextClean
from textclean.pipeline.tokens import Counter, surely_fewer

from .agent_logs import captures

ENCODINGS = tokens.OFFLINE_ENCODINGS
REFERENCE = {name: Counter(name, "tiktoken") for name in ENCODINGS}


def _digit_runs(text: str) -> int:
    return sum(1 for _ in tokens._DIGIT_RUN.finditer(text))


@pytest.mark.parametrize("name", ENCODINGS)
def test_digit_runs_are_a_lower_bound_on_every_capture(name: str) -> None:
    for label, text in captures():
        assert _digit_runs(text) <= REFERENCE[name](text), label


# Digits among what the split pattern treats apart from them, and \p{N} characters that are not ASCII (the
# superscript two, an Arabic-Indic and a fullwidth digit, a Roman numeral) that join ASCII digits into a piece.
_PIECES = st.sampled_from(["0", "7", "12", "345", "6789", ".", ":", "/", " ", "-", "\n", "\r", "a", "é", "²", "١",
                           "５", "Ⅻ", "━", "\x1b[", "m", "%"])


@given(st.lists(_PIECES, max_size=60).map("".join))
@example("123.456,789 0:00:01 12/34")
@example("1²2²3²4²5²6²7²8²9")
def test_digit_runs_are_a_lower_bound_on_digit_heavy_text(text: str) -> None:
    for name in ENCODINGS:
        assert _digit_runs(text) <= REFERENCE[name](text)


@given(st.lists(_PIECES, max_size=40).map("".join), st.lists(_PIECES, max_size=8).map("".join))
@example("1 2 3 4 5 6 7 8 9 10 11 12", "ok")
@example("7", "a")  # one token each: not fewer
def test_what_the_bounds_tell_holds_for_the_counts(more: str, fewer: str) -> None:
    for name in ENCODINGS:
        if surely_fewer(name, fewer, more):
            assert REFERENCE[name](fewer) < REFERENCE[name](more)


def test_the_pip_capture_is_adopted_uncounted_and_its_counts_come_when_asked() -> None:
    pip = dict(captures())["pip_download"]
    counter = Counter("cl100k_base")  # (a new one: the default counter may have counted in an earlier test)
    result = TextClean(tokenizer=counter).clean(pip)
    assert result.applied
    assert counter._backend is None  # no vocabulary loaded to decide
    assert (result.tokens_before, result.tokens_after) == (REFERENCE["cl100k_base"](pip),
                                                           REFERENCE["cl100k_base"](result.text))
    assert result.tokens_after < result.tokens_before


def test_a_callable_tokenizer_is_always_called() -> None:
    pip = dict(captures())["pip_download"]
    calls: list[str] = []

    def count(text: str) -> int:
        calls.append(text)
        return len(text)

    result = TextClean(tokenizer=count).clean(pip)
    assert result.applied and calls  # no bound holds for a count the gate does not know
