"""Issue 23 / 27 speed and memory paths give what the whole-text paths give: the substitution a chunk of
lines at a time, the first lines' substitution tried before the whole text's, the row model's blocks
substituted a chunk at a time, the residual-control scan a slice at a time, and the screen model's
coloured runs appended as one string. Each is forced down to a few characters here, on every
committed capture and session and on generated streams, and compared with the defaults."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import CSI, plain_text_runs, sgr, terminal_streams

from textclean.pipeline import clean, grammar
from textclean.pipeline.clean import assemble, string_path, walk
from textclean.pipeline.clean.line import INERT_MARK
from textclean.pipeline.clean.screen import ScreenModel
from textclean.pipeline.clean.string_path import without_inert

FIXTURES = Path(__file__).parent / "fixtures"
CAPTURES = [*sorted(FIXTURES.glob("*.raw")), *sorted((FIXTURES / "sessions").glob("*.raw")),
            *sorted((FIXTURES / "pages").glob("*.raw"))]
PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# cursor moves, erases, clears and REP between coloured runs: pages, the screen model's runs, blocks
_RUNS = [
    st.tuples(plain_text_runs(0, 12), sgr(), plain_text_runs(0, 12), sgr()).map("".join),
    st.sampled_from(["日本", "⠋", "━━╸", "\t", "\x07", "\x1b]0;t\x07", "\r", "\b\b"]),
    st.sampled_from([CSI + "A", CSI + "K", CSI + "2K", CSI + "5G", CSI + "H", CSI + "2J", CSI + "H" + CSI + "2J",
                     CSI + "3;5H", CSI + "3b", "\x1b7", "\x1b8"]),
]


def _read(path: Path) -> str:
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "surrogateescape")


def _display(path: Path) -> tuple[int | None, int | None]:
    meta = path.with_suffix(".json")
    if not meta.exists():
        return None, None
    data = json.loads(meta.read_text())
    return data.get("columns"), data.get("lines") or data.get("rows")


def _candidate(text: str, columns: int | None, rows: int | None) -> tuple[object, ...]:
    try:
        result = clean.candidate(text, columns=columns, rows=rows)
    except clean.Refused as refusal:
        return ("refused", type(refusal).__name__, refusal.reason, refusal.detail)
    return ("cleaned", result.text, result.removed, result.segments)


def _tiny(patch: pytest.MonkeyPatch) -> None:
    patch.setattr(clean, "_CHUNK_CHARS", 16)
    patch.setattr(clean, "_PREFIX_CHARS", 4)
    patch.setattr(clean, "_SCAN_AS_BYTES", 8)
    patch.setattr(clean, "_ENCODE_SLICE", 8)
    patch.setattr(string_path, "_SUBSTITUTE_WHOLE", 32)
    patch.setattr(string_path, "_SUBSTITUTE_CHUNK", 8)


@pytest.mark.parametrize("path", CAPTURES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_candidates_do_not_depend_on_chunk_sizes(path: Path) -> None:
    text = _read(path)
    for columns, rows in dict.fromkeys(((None, None), _display(path), (80, 24))):
        expected = _candidate(text, columns, rows)
        with pytest.MonkeyPatch.context() as patch:
            _tiny(patch)
            assert _candidate(text, columns, rows) == expected, (columns, rows)


@pytest.mark.pure_only(reason="compiled code calls past the spy on clean._Blocks._chunk")
def test_blocks_are_substituted_in_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not vacuous: the row model's blocks take more than one chunk on a long capture."""
    chunks: list[int] = []
    chunk = clean._Blocks._chunk

    def counting(blocks: clean._Blocks, start: int) -> None:
        chunks.append(start)
        chunk(blocks, start)

    monkeypatch.setattr(clean._Blocks, "_chunk", counting)
    monkeypatch.setattr(clean, "_CHUNK_CHARS", 256)
    text = _read(FIXTURES / "pytest_failures_verbose.raw")
    expected = clean._resolve_redraws(text, fast=False)
    assert clean._resolve_redraws(text) == expected
    assert len(chunks) > 4


@PROPERTY
@given(terminal_streams(_RUNS), st.sampled_from(["", INERT_MARK]))
def test_chunked_substitution_is_the_whole_substitution(text: str, mark: str) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(string_path, "_SUBSTITUTE_WHOLE", 4)
        patch.setattr(string_path, "_SUBSTITUTE_CHUNK", 2)
        for inert in (grammar.INERT_SEQUENCE, grammar.APPEND_ONLY_INERT):
            assert without_inert(inert, text, mark) == inert.subn(mark, text)


@PROPERTY
@given(terminal_streams(_RUNS), st.sampled_from([None, 20, 80]))
def test_generated_candidates_do_not_depend_on_chunk_sizes(text: str, columns: int | None) -> None:
    expected = _candidate(text, columns, None if columns is None else 24)
    with pytest.MonkeyPatch.context() as patch:
        _tiny(patch)
        assert _candidate(text, columns, None if columns is None else 24) == expected


def test_residual_control_found_in_any_slice() -> None:
    for text in ("é" * 40 + "\x07", "\x1b" + "日" * 40, "é" * 40 + "\rx", "é" * 40 + "\r\n"):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(clean, "_SCAN_AS_BYTES", 8)
            patch.setattr(clean, "_ENCODE_SLICE", 8)
            sliced = clean._has_residual_control(text)
        assert sliced == (clean._RESIDUAL_CONTROL_CHAR.search(text) is not None
                          or clean.REDRAWING_CR.search(text) is not None), text


@pytest.mark.pure_only(reason="compiled code calls past the spy on ScreenModel.append_run")
def test_sessions_append_coloured_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The screen model takes coloured rows as one string on the committed sessions (the fast walk is
    compared with the token walk in test_clean_overlay.py)."""
    taken: list[bool] = []
    append_run = ScreenModel.append_run

    def counting(model: ScreenModel, pieces: list[str], text: str) -> bool:
        done = append_run(model, pieces, text)
        taken.append(done)
        return done

    monkeypatch.setattr(ScreenModel, "append_run", counting)
    for path in sorted((FIXTURES / "sessions").glob("*.raw")):
        try:
            walk.resolve(_read(path), columns=None, rows=None)
        except assemble.WholeRefusal:
            pass
    assert sum(taken) >= 20, (sum(taken), len(taken))


@pytest.mark.parametrize("text", [
    "\n\x1b[m\x9b\x1b[1A\rX\n",  # found by test_long_blocks_agree: a lone C1 is text to the walk
    "\x1b[31mab\x85cd\x1b[m\n\x1b[1AZ\n",
    "\x1b[H\x1b[2J\x1b[1mA\x1b[m\x90B\r\n\x1b[2;1H\x1b[32m\x9fC\x1b[m\n",
])
def test_coloured_runs_with_c1_walk_as_tokens_do(text: str) -> None:
    def pages(fast: bool) -> object:
        try:
            return walk.resolve(text, columns=None, rows=None, fast=fast)
        except assemble.WholeRefusal as refusal:
            return refusal.reason, refusal.detail, refusal.segments

    assert pages(True) == pages(False)
