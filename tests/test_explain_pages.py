"""What ``--explain`` and ``--json`` say was removed, on the page path too (a known size, or screen clears).

The report is read off the models that cleaned the text; it never changes the text. On every real
capture an adopted result names what it removed, and never more characters than left the text."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures_gen.checks import load_fixtures, load_sessions
from textclean import clean

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
CAPTURES = [*load_fixtures(FIXTURES), *load_fixtures(FIXTURES / "progress"), *load_fixtures(FIXTURES / "pages")]


def _sizes(metadata: dict) -> list[tuple[int | None, int | None]]:
    recorded = (metadata.get("columns"), metadata.get("lines") or metadata.get("rows"))
    return [(None, None), (80, 24), recorded] if recorded[0] else [(None, None), (80, 24)]


def _removed_chars(result) -> int:
    removed = result.removed
    return removed.escape_chars + removed.cr_chars + removed.backspace_chars + removed.multiline_chars


@pytest.mark.parametrize("capture", CAPTURES, ids=lambda c: c.name)
def test_an_adopted_capture_names_what_it_removed(capture) -> None:
    text = capture.raw.decode("utf-8", errors="surrogateescape")
    for columns, rows in _sizes(capture.metadata):
        result = clean(text, columns=columns, rows=rows)
        if not result.applied:
            continue
        said = result.removed.describe()
        assert said != "nothing", (capture.name, columns, rows, result.tokens_before, result.tokens_after)
        assert 0 < _removed_chars(result) <= len(text) - len(result.text), (capture.name, columns, said)


def test_sessions_cleaned_page_by_page_name_what_they_removed() -> None:
    paged = 0
    for session in load_sessions(FIXTURES / "sessions"):
        result = clean(session.text, columns=session.columns, rows=session.rows)
        if result.applied:
            paged += result.pages_cleaned > 1
            assert result.removed.describe() != "nothing", session.name
            assert _removed_chars(result) <= len(session.text) - len(result.text), session.name
    assert paged  # the page path, not only the row model


def test_explain_and_json_report_the_page_paths_redraws() -> None:
    """A tqdm bar written to an 80x24 terminal is cleaned as a page: the report names its redraws."""
    path = FIXTURES / "tqdm_single.raw"
    line = subprocess.run([sys.executable, "-m", "textclean", "--size", "80x24", "--explain", str(path)],
                          capture_output=True, check=True, timeout=60).stderr.decode()
    assert "pages 1 cleaned" in line and "removed nothing" not in line, line
    assert "carriage-return redraws (" in line, line
    report = json.loads(subprocess.run(
        [sys.executable, "-m", "textclean", "--size", "80x24", "--explain", "--json", str(path)],
        capture_output=True, check=True, timeout=60).stderr)
    assert report["pages_cleaned"] == 1 and report["removed"]["cr_redraws"] > 0
    assert report["removed"]["cr_chars"] > 0
