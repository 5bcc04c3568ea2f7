"""Capture real programs now, on this machine, and hold the cleaner to the same contract as the corpus.

Only grep and the Python interpreter running the tests are needed, so the claim that textclean is
lossless over real terminal output is re-proved wherever the suite runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fixtures_gen.catalogue import BY_NAME, capture_entry
from fixtures_gen.checks import judge, problems

pytestmark = pytest.mark.pty

ESC = "\x1b"


@pytest.mark.parametrize("name", ["grep_color", "cr_progress"])
def test_live_capture_is_adopted_lossless_and_escape_free(name: str, tmp_path: Path) -> None:
    entry = BY_NAME[name]
    ok, reason = entry.available()
    if not ok:
        pytest.skip(reason)
    result = capture_entry(entry, tmp_path)
    assert result.exit_code == 0 and not result.timed_out
    text = result.raw.decode("utf-8", errors="surrogateescape")
    noise = ESC if name == "grep_color" else "\r"
    assert noise in text.replace("\r\n", "\n"), "the program did not emit what this test is about"

    verdict = judge(text)
    assert problems(verdict) == []
    assert verdict.adopted, f"refused: {verdict.reason} ({verdict.detail})"
    assert verdict.lossless
    assert ESC not in verdict.cleaned
    assert verdict.tokens_after < verdict.tokens_before
