"""Issue 24 item 1 on the cleaner's side: the cleaner's modules read escape sequences through the
grammar (``textclean/pipeline/grammar.py``: parsed sequences, its documented patterns) and the names
constants; no CSI regular expression is written in them, prefilters included."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PIPELINE = Path(__file__).resolve().parent.parent / "textclean" / "pipeline"
CLEANER_MODULES = sorted([*(f"clean/{path.name}" for path in (PIPELINE / "clean").glob("*.py")),
                          "model.py", "probe.py"])
# A CSI introducer as a regular expression writes it: ESC, then an escaped "[" (the character class
# form too). A plain string search such as "\x1b[2K" in text is not a pattern and is not matched.
_CSI_IN_A_PATTERN = re.compile(r"\\x1b\\\[|\\x1b\[\\\[\]|\\033\\\[|\\u001b\\\[")


@pytest.mark.parametrize("module", CLEANER_MODULES)
def test_no_csi_pattern_outside_the_grammar(module: str) -> None:
    source = (PIPELINE / module).read_text()
    found = [line.strip() for line in source.splitlines() if _CSI_IN_A_PATTERN.search(line)]
    assert found == []


def test_the_check_finds_a_csi_pattern_where_there_is_one() -> None:
    assert _CSI_IN_A_PATTERN.search((PIPELINE / "grammar.py").read_text()) is not None
    assert _CSI_IN_A_PATTERN.search('X = re.compile(r"\\x1b\\[[0-9]*m")') is not None
    assert _CSI_IN_A_PATTERN.search('if "\\x1b[2K" in body:') is None
