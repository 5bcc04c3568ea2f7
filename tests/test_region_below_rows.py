"""A scroll region whose top is below written rows, scrolled up: the row that leaves it is gone in a
terminal (tmux keeps no history for a region below the screen's top), and both models kept it as if it
had scrolled into history, before the rows above the region. So a candidate read it before the rows it
was shown under: ``AAA top`` above ``BBB gone`` on the screen, ``BBB gone`` first in the text. The oracle
(lines in the order they were shown) rejects that order; tmux, which shows neither order at the end,
cannot tell. Found by the streams helper's generated streams (issue 40); each side now refuses it alone.
"""

from __future__ import annotations

from typing import Any

import pytest

import oracle
import textclean
from textclean.pipeline import clean as cleaner
from textclean.pipeline import verify

DISPLAYS: dict[str, dict[str, Any]] = {
    "no-terminal": {"terminal": False},
    "unknown": {"terminal": True},
    "sized": {"columns": 80, "rows": 24},
    "fresh": {"columns": 80, "rows": 24, "fresh": True},
}

#: (raw, the candidate both models proposed before: the row scrolled out first)
CASES = [
    ("\x1b[2J\x1b[HAAA top\r\nBBB gone\r\n\x1b[2;4r\x1b[4;1H\n\nlast line\r\n",
     "BBB gone\r\nAAA top\r\n\nlast line\r\n"),
    ("\x1b[2J\x1b[HAAA top\r\nBBB gone\r\n\x1b[2;4r\x1b[4;1H\n\nlast line\r\n" + "filler line\r\n" * 3,
     "BBB gone\r\nlast line\r\nfiller line\r\nAAA top\r\nfiller line\r\nfiller line\r\n"),
    ("\x1b[2J\x1b[Hxyz\x1b[2Jline 0 ok\nline 0 ok\n\x1b[2;4r\x1b[4;1H\n\nxyz",
     "xyz\nline 0 ok\n   line 0 ok\n\nxyz"),
]
#: a region at the screen's top scrolls into history as before: cleaned
AT_TOP = "\x1b[2J\x1b[H\x1b[1;3r\x1b[3;1H" + "".join(f"line {n}\r\n" for n in range(6))


@pytest.mark.parametrize("display", DISPLAYS)
@pytest.mark.parametrize("raw, old", CASES, ids=range(len(CASES)))
def test_the_oracle_rejects_the_old_order(raw: str, old: str, display: str) -> None:
    assert not oracle.check_lossless(raw, old, **DISPLAYS[display]).ok


@pytest.mark.parametrize("display", DISPLAYS)
@pytest.mark.parametrize("raw, old", CASES, ids=range(len(CASES)))
def test_the_verifier_rejects_the_old_order_alone(raw: str, old: str, display: str) -> None:
    assert verify.first_difference(raw, old, **DISPLAYS[display]) is not None


@pytest.mark.parametrize("display", DISPLAYS)
@pytest.mark.parametrize("raw, old", CASES, ids=range(len(CASES)))
def test_the_cleaner_refuses_the_page(raw: str, old: str, display: str) -> None:
    keywords = DISPLAYS[display]
    try:
        candidate = cleaner.candidate(raw, **keywords).text
    except cleaner.Refused:
        candidate = None
    assert candidate != old
    result = textclean.clean(raw, min_tokens=0, **keywords)
    if result.applied:
        assert oracle.check_lossless(raw, result.text, **keywords).ok


@pytest.mark.parametrize("display", DISPLAYS)
def test_a_region_at_the_top_still_scrolls_into_the_text(display: str) -> None:
    result = textclean.clean(AT_TOP, min_tokens=0, **DISPLAYS[display])
    assert result.applied, result.reason
    assert oracle.check_lossless(AT_TOP, result.text, **DISPLAYS[display]).ok
