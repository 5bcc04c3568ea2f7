"""Properties of ``textclean.clean`` judged by the oracle, on generated terminal streams.

For every stream: ``clean`` either refuses (and returns the input untouched), or the terminal
shows the same informative lines for its output as for the input (modulo tab expansion and
trailing spaces); and the output always keeps every line the terminal ever showed.
The example count comes from the hypothesis profile (``TEXTCLEAN_HYPOTHESIS_PROFILE``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import oracle
import textclean

sys.path.insert(0, str(Path(__file__).resolve().parent))
from strategies import screen_controls, terminal_streams  # noqa: E402

PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@PROPERTY
@given(terminal_streams())
def test_clean_refuses_or_agrees_with_the_terminal(stream: str) -> None:
    result = textclean.clean(stream, min_tokens=0)
    if not result.applied:
        assert result.text is stream
        return
    expected = oracle.render(stream).informative
    got = oracle.render(result.text).informative
    assert got == expected, (result.text, result.removed)


@PROPERTY
@given(terminal_streams())
def test_clean_is_lossless(stream: str) -> None:
    result = textclean.clean(stream, min_tokens=0)
    check = oracle.check_lossless(stream, result.text)
    assert check.ok, check.describe()


@PROPERTY
@given(terminal_streams().map(lambda s: s.encode("utf-8")))
def test_clean_is_lossless_on_bytes_decoded_with_surrogateescape(raw: bytes) -> None:
    text = raw.decode("utf-8", "surrogateescape")
    result = textclean.clean(text, min_tokens=0)
    check = oracle.check_lossless(raw, result.text)
    assert check.ok, check.describe()


@PROPERTY
@given(terminal_streams(extra_pieces=[screen_controls()] * 2))
def test_clean_with_screen_controls_refuses_or_agrees_and_is_lossless(stream: str) -> None:
    """Cursor moves, erases, scrolling regions, the alternate screen: resolved exactly or refused."""
    result = textclean.clean(stream, min_tokens=0)
    if result.applied:
        assert oracle.ideal_lines(result.text) == oracle.ideal_lines(stream), result.text
    check = oracle.check_lossless(stream, result.text)
    assert check.ok, check.describe()


FIXTURES = sorted((Path(__file__).resolve().parent / "fixtures").glob("*.raw"))


@pytest.mark.parametrize("path", FIXTURES, ids=[path.stem for path in FIXTURES])
def test_clean_passes_the_oracle_on_every_fixture(path: Path) -> None:
    raw = path.read_bytes()
    text = raw.decode("utf-8", "surrogateescape")
    result = textclean.clean(text, min_tokens=0)
    check = oracle.check_lossless(raw, result.text)
    assert check.ok, check.describe()
    if result.applied:
        assert oracle.ideal_lines(result.text) == oracle.ideal_lines(raw)
