"""The cleaner's fast paths give exactly what feeding the same lines token by token to the row model
gives: the text, the tallies, or the same refusal. The string path for lines redrawn by CR alone
(``LineModel.overlay``), lines fed a run at a time (text and inert sequences written as one string,
a run of backspaces as one move), and the screen model's backspace runs (``session.resolve``). On
every real capture and peer recording (at no width, the width it was captured at and a narrow one)
and on generated streams, with and without a known width."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import (
    CSI,
    inert_sequences,
    line_endings,
    plain_text_runs,
    redraw_frames,
    sgr,
    terminal_streams,
    text_runs,
)

from oracle import corpora
from textclean.pipeline import cleaner, session
from textclean.pipeline.redraw import LineModel

FIXTURES = Path(__file__).parent / "fixtures"
CAPTURES = sorted(FIXTURES.glob("*.raw")) + sorted((FIXTURES / "sessions").glob("*.raw"))
_CORPORA = corpora.locate()
RECORDINGS = [] if _CORPORA is None else sorted(
    [*_CORPORA.glob("xtermjs/*.in"), *_CORPORA.glob("alacritty/*/alacritty.recording"),
     *_CORPORA.glob("pyte_captured/*.input")]
)
PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _outcome(text: str, columns: int | None, *, fast: bool) -> tuple[object, ...]:
    """The text, tallies and work charged (the budget left decides later refusals), or the refusal."""
    budgets: list[int] = []
    render = LineModel.render

    def rendering(model: LineModel) -> str:
        budgets.append(model.pad_budget)
        return render(model)

    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(LineModel, "render", rendering)
            result = cleaner._resolve_redraws(text, columns, None, fast=fast)
    except cleaner.Refused as refusal:
        return ("refused", type(refusal).__name__, refusal.reason, refusal.detail)
    return ("cleaned", result.text, result.removed, budgets)


def _pages(text: str, columns: int | None, rows: int | None, *, fast: bool) -> tuple[object, ...]:
    try:
        segments = session.resolve(text, columns=columns, rows=rows, fast=fast)
    except session.WholeRefusal as refusal:
        return ("refused", refusal.reason, refusal.detail, refusal.segments)
    return ("resolved", segments)


def _agree(text: str, columns: int | None, rows: int | None = None) -> None:
    """Both models, fast paths on and off (blocks of plain lines taken in short texts too)."""
    slow = _outcome(text, columns, fast=False)
    assert _outcome(text, columns, fast=True) == slow, columns
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cleaner, "_BLOCK_LINES", 0)
        assert _outcome(text, columns, fast=True) == slow, columns
    assert _pages(text, columns, rows, fast=True) == _pages(text, columns, rows, fast=False), columns


def _read(path: Path) -> str:
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "surrogateescape")


@pytest.fixture
def overlaid(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many lines the string path took (so that agreement is not vacuous)."""
    taken: list[int] = []
    original = LineModel.overlay

    def counting(model: LineModel, parts: list[str | None]) -> bool:
        done = original(model, parts)
        taken.append(done)
        return done

    monkeypatch.setattr(LineModel, "overlay", counting)
    return taken


@pytest.mark.parametrize("path", CAPTURES, ids=lambda p: p.stem)
def test_real_captures_agree(path: Path, overlaid: list[int]) -> None:
    text = _read(path)
    captured = json.loads(path.with_suffix(".json").read_text()).get("columns")
    for columns in dict.fromkeys((None, captured, 40)):
        _agree(text, columns)


@pytest.mark.parametrize("path", RECORDINGS, ids=[f"{p.parent.name}/{p.name}" for p in RECORDINGS])
def test_peer_recordings_agree(path: Path, corpora_root: Path) -> None:
    text = _read(path)
    for columns, rows in ((None, None), (80, 24), (40, 10)):
        _agree(text, columns, rows)


def test_real_progress_lines_take_the_string_path(overlaid: list[int]) -> None:
    """curl, wget, git clone, pip, tqdm, apt, rich and ninja redraw by CR (and EL) alone, man by
    backspaces (at the width they were captured at: a row past column 80 of an unknown width is the
    cell model's refusal)."""
    for name in ("curl_meter", "wget_bar", "git_clone_progress", "pip_download", "tqdm_single", "apt_download",
                 "rich_status", "ninja_build", "cr_progress", "man_overstrike"):
        overlaid.clear()
        path = FIXTURES / f"{name}.raw"
        columns = json.loads(path.with_suffix(".json").read_text())["columns"]
        assert _outcome(_read(path), columns, fast=True)[0] == "cleaned", name
        assert any(overlaid), name


_EL = st.sampled_from([CSI + "K", CSI + "0K", CSI + "1K", CSI + "2K", CSI + "00K", CSI + "X", CSI + "3X"])
_PIECES = [
    plain_text_runs(0, 30),
    plain_text_runs(40, 90),  # rows past column 80: an unknown width refuses a CR there
    text_runs(1, 8),  # tabs, wide, combining and joined characters: the cell model's
    st.text("─━│█▏▎é日\t\x7f\x08\x00\x1b", max_size=4),
    inert_sequences(),
    sgr(),
    redraw_frames(),
    _EL,
    st.sampled_from(["\r", "\r", "\r\r", "\x07", "\x1b", CSI + "2", CSI + "A", CSI + "5G", CSI + "C"]),
]
_LINES = st.tuples(st.lists(st.one_of(*_PIECES), max_size=10), line_endings()).map(lambda p: "".join(p[0]) + p[1])
_STREAMS = st.lists(_LINES, min_size=1, max_size=6).map("".join)


@PROPERTY
@given(_STREAMS, st.sampled_from([None, None, 12, 30, 80, 200]))
def test_generated_cr_streams_agree(text: str, columns: int | None) -> None:
    assert _outcome(text, columns, fast=True) == _outcome(text, columns, fast=False)


@PROPERTY
@given(terminal_streams(), st.sampled_from([None, 20, 80]))
def test_generated_terminal_streams_agree(text: str, columns: int | None) -> None:
    _agree(text, columns)


_RUNS = [
    st.integers(1, 12).map(lambda n: "\b" * n),  # backspace runs, to column 0 and past it
    st.integers(1, 4).map(lambda n: (CSI + "C") * n),
    st.tuples(plain_text_runs(0, 12), sgr(), plain_text_runs(0, 12), sgr()).map("".join),  # text between SGR
    st.sampled_from(["a\u200d", "\u200db", "日本", "e\u0301", "\t", "━━╸", "⠋", "\x9b", "\x85", "\x00", "\x1b", "\x07",
                     "\x1b]0;t", "\x1b[12;", "\x1b\\", "\x18"]),
    st.sampled_from([CSI + "A", CSI + "2A", CSI + "B", CSI + "K", CSI + "1K", CSI + "2K", CSI + "P", CSI + "3X",
                     CSI + "5G", CSI + "H", CSI + "2J", "\x1b7", "\x1b8", "\r"]),
]


@PROPERTY
@given(terminal_streams(_RUNS), st.sampled_from([None, None, 6, 20, 80]), st.sampled_from([None, 4, 24]))
def test_generated_runs_agree(text: str, columns: int | None, rows: int | None) -> None:
    """Backspace runs that reach column 0 (on an autowrapped row too), text and SGR written over
    cells, wide, ambiguous and joined characters, C1, moves up and down between runs."""
    _agree(text, columns, rows)


def test_generated_streams_take_the_string_path(overlaid: list[int]) -> None:
    """The properties above are not vacuous: their kind of line takes the string path."""
    frames = "a" * 30 + "\r" + CSI + "32mbb" + CSI + "0m\r" + CSI + "2Kccc" + CSI + "K\rdd\n"
    assert _outcome(frames, None, fast=True) == _outcome(frames, None, fast=False)
    assert overlaid == [True]


def test_a_long_row_rebuilt_for_short_runs_leaves_the_string_path(overlaid: list[int]) -> None:
    """Each run written back inside the row copies the row string: past the allowance the cell model
    (linear) takes the line, with the same outcome. Real progress frames stay on the string path."""
    rebuilt = "x" * 20_000 + "\rX" * 10_000 + "\n"
    assert _outcome(rebuilt, 1_000_000, fast=True) == _outcome(rebuilt, 1_000_000, fast=False)
    assert overlaid == [False]
    overlaid.clear()
    frames = "x" * 100 + "".join(f"\r{i}%" for i in range(500)) + "\n"
    assert _outcome(frames, 200, fast=True) == _outcome(frames, 200, fast=False)
    assert overlaid == [True]


def _nested_bars(bars: int, updates: int) -> str:
    """tqdm-style nested bars: each update goes up ``bars`` rows and redraws them; a row past column
    80 among them (the header) is what a move across it must refuse, frozen or not."""
    out = ["header " + "=" * 90 + "\n"] + [f"bar {i}: 0%\n" for i in range(bars)]
    for step in range(updates):
        out.append(f"{CSI}{bars}A" + "".join(f"\rbar {i}: {step}%{CSI}K\n" for i in range(bars)))
        out.append(f"log line {step}\n")
    return "".join(out)


@pytest.mark.parametrize("text", [
    *(_read(path) for path in CAPTURES),
    _nested_bars(3, 40),
    _nested_bars(30, 3),  # moves that reach past the rows the cursor can reach: refused either way
    "row\n" * 5 + "x" * 100 + "\n" + "row\n" * 25 + f"{CSI}27A\rA\n",  # across a wide frozen row
    "row\n" * 30 + f"{CSI}7A\rB{CSI}s\n\n{CSI}u{CSI}A\rC\n",
], ids=lambda t: t[:20])
def test_frozen_rows_change_nothing(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows the cursor can no longer reach, kept as strings: the same text, tallies and refusals."""
    for columns in (None, 40):
        frozen = _outcome(text, columns, fast=True)
        with monkeypatch.context() as patch:
            patch.setattr(LineModel, "freezes", False)
            assert _outcome(text, columns, fast=True) == frozen


def test_long_texts_freeze_their_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    models: list[LineModel] = []
    original = LineModel.__init__

    def keep(model: LineModel, *args: object, **kwargs: object) -> None:
        original(model, *args, **kwargs)  # type: ignore[arg-type]
        models.append(model)

    monkeypatch.setattr(LineModel, "__init__", keep)
    assert _outcome(_nested_bars(3, 40), None, fast=True)[0] == "cleaned"
    (model,) = models
    assert model.live > 0 and all(row.__class__ is str for row in model.rows[: model.live])


def test_a_spinner_drawn_by_backspaces_takes_the_string_path(overlaid: list[int]) -> None:
    assert _outcome(_read(FIXTURES / "pip_spinner.raw"), None, fast=True)[0] == "cleaned"
    assert overlaid.count(True) == 2


def test_real_captures_take_the_run_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """The agreement above is not vacuous: rich's multi-row display writes its rows (text between SGR)
    as one string each, and man's overstrike and a shell's line editing move back by backspace runs."""
    combined: list[bool] = []
    runs: list[int] = []
    write_run, backspaces = cleaner._write_run, LineModel.backspaces

    def counting_write(model: LineModel, run: str, tally: list[int]) -> bool:
        done = write_run(model, run, tally)
        if "\x1b" in run:
            combined.append(done)
        return done

    def counting_backspaces(model: LineModel, n: int) -> None:
        runs.append(n)
        backspaces(model, n)

    monkeypatch.setattr(cleaner, "_write_run", counting_write)
    monkeypatch.setattr(LineModel, "backspaces", counting_backspaces)
    assert _outcome(_read(FIXTURES / "rich_progress.raw"), None, fast=True)[0] == "cleaned"
    assert combined.count(True) > 40
    shell = "$ \n" + CSI + "A\r$ echo helo" + "\b" * 4 + CSI + "Khello\n"  # a row written before: no string path
    assert _outcome(shell, None, fast=True)[1] == "$ echo hello\n"
    assert runs == [4]


def test_a_session_moves_back_by_backspace_runs(corpora_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from textclean.pipeline.screen import ScreenModel

    runs: list[int] = []
    backspaces = ScreenModel.backspaces

    def counting(model: ScreenModel, n: int) -> None:
        runs.append(n)
        backspaces(model, n)

    monkeypatch.setattr(ScreenModel, "backspaces", counting)
    text = _read(corpora_root / "alacritty" / "underline" / "alacritty.recording")
    assert _pages(text, None, None, fast=True)[0] == "resolved"
    assert max(runs) >= 18


@PROPERTY
@given(st.text(st.characters(codec="utf-8") | st.sampled_from("\x00\x08\x0b\x0c\x0e\x1f\x7f\x85\t\n\r\udc80"),
               max_size=40), st.integers(0, 5000))
def test_residual_control_scans_agree(tail: str, padding: int) -> None:
    """The byte scan that answers for long texts finds a control exactly where the regex does."""
    for text in (tail + "x" * padding, "é" * padding + tail, tail):
        assert cleaner._has_residual_control(text) == (
            cleaner._RESIDUAL_CONTROL_CHAR.search(text) is not None or "\r" in text and
            cleaner.REDRAWING_CR.search(text) is not None)


@PROPERTY
@given(terminal_streams(_RUNS), st.sampled_from([None, 80]))
def test_skipping_the_substitution_only_where_it_is_doomed(text: str, columns: int | None) -> None:
    """A CR before text or before EL 2: the whole-text substitution would leave a control (a redraw)."""
    if "\r" in text and cleaner._CR_BEFORE_TEXT.search(text) is not None:
        assert cleaner._has_residual_control(cleaner._append_only(columns).sub("", text))


def test_real_progress_skips_the_doomed_substitution() -> None:
    for name in ("pip_download", "rich_progress", "git_clone_progress"):
        assert cleaner._CR_BEFORE_TEXT.search(_read(FIXTURES / f"{name}.raw")) is not None, name


@PROPERTY
@given(terminal_streams(_RUNS))
def test_dropped_counts_every_cell_but_the_markers(text: str) -> None:
    """Row.dropped counts shown characters by joining the cells (the reference: a sum over plain cells)."""
    from textclean.pipeline.redraw import Row

    checked: list[int] = []
    original = Row.dropped

    def compare(row: Row) -> int:
        shown = sum(len(c) for c in row.cells if c.__class__ is str)
        assert original(row) == max(0, row.written - shown)
        checked.append(1)
        return original(row)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Row, "dropped", compare)
        _outcome(text, None, fast=True)


@PROPERTY
@given(terminal_streams(_RUNS), st.sampled_from(["", cleaner.INERT_MARK]))
def test_sgr_first_substitutes_what_the_inert_pattern_does(text: str, mark: str) -> None:
    """Where SGR alone leaves no other sequence, it removed what the inert pattern removes."""
    from textclean.pipeline import grammar

    erases = text.count("\x1b[K") + text.count("\x1b[0K") + text.count("\x1b[2K")
    for inert, left in ((grammar.INERT_SEQUENCE, erases), (grammar.APPEND_ONLY_INERT, 0), (grammar.INERT_SEQUENCE, 0)):
        assert cleaner._without(inert, text, mark, left) == inert.subn(mark, text)


def test_plain_lines_after_a_redraw_are_substituted_as_a_block(monkeypatch: pytest.MonkeyPatch) -> None:
    """pytest redraws one line by CR; the lines after it are written once: one block."""
    taken: list[int] = []
    lines = cleaner._Blocks.lines

    def counting(blocks: cleaner._Blocks, start: int):  # type: ignore[no-untyped-def]
        for line in lines(blocks, start):
            taken.append(line[0])
            yield line

    monkeypatch.setattr(cleaner._Blocks, "lines", counting)
    text = _read(FIXTURES / "pytest_failures_verbose.raw")
    assert _outcome(text, None, fast=True) == _outcome(text, None, fast=False)
    assert len(taken) > text.count("\n") // 2


@PROPERTY
@given(terminal_streams(_RUNS, max_lines=4), st.integers(0, 60), st.sampled_from(["", "x" * 90, "é日\t"]),
       st.integers(1, 30), terminal_streams(_RUNS, max_lines=4), st.sampled_from([None, 40, 120]))
def test_long_blocks_agree(before: str, count: int, wide: str, up: int, after: str, columns: int | None) -> None:
    """Blocks longer than the rows the cursor can reach (rows built frozen, rows written before them
    frozen on the way), then moves back up into them."""
    lines = "".join(f"row {i} {wide if i % 7 == 3 else ''}{CSI}1m.{CSI}0m\n" for i in range(count))
    text = before + ("\n" if before and not before.endswith("\n") else "") + lines + after + f"{CSI}{up}A\rX\n"
    _agree(text, columns)


def _candidate(text: str, columns: int | None, rows: int | None) -> tuple[object, ...]:
    try:
        result = cleaner.candidate(text, columns=columns, rows=rows)
    except cleaner.Refused as refusal:
        return ("refused", type(refusal).__name__, refusal.reason, refusal.detail)
    return ("cleaned", result.text, result.removed, result.segments)


def _straight_to_pages_agrees(text: str, columns: int | None, rows: int | None) -> bool:
    """A text the page models take without the row model's pass: the row model would have refused it
    (never as terminals disagreeing), and the candidate is the same as after that pass."""
    if "\x1b" not in text or not cleaner.pages.has_break(text) or not cleaner._row_model_refuses(text):
        return False
    if cleaner._SWALLOWING_STRING.search(text) is None:
        with pytest.raises(cleaner.Refused) as refused:
            cleaner._resolve_redraws(text, columns, rows)
        assert not isinstance(refused.value, cleaner.TerminalsDisagree)
    routed = _candidate(text, columns, rows)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cleaner, "_row_model_refuses", lambda _text: False)
        assert routed == _candidate(text, columns, rows)
    return True


def test_page_breaks_go_straight_to_the_page_models_where_the_row_model_refuses(corpora_root: Path) -> None:
    taken = 0
    for path in [*CAPTURES, *sorted((FIXTURES / "pages").glob("*.raw")), *RECORDINGS]:
        text = _read(path)
        for columns, rows in ((None, None), (80, 24), (40, 10)):
            taken += _straight_to_pages_agrees(text, columns, rows)
    assert taken > 20


_BREAKS = st.sampled_from([CSI + "2J", CSI + "H" + CSI + "2J", CSI + "3J", CSI + "J", CSI + "H", CSI + "1;1H",
                           CSI + "?1049h", CSI + "?1049l", "\x1bc", CSI + "12345678901A", CSI + "0;01f"])


@PROPERTY
@given(terminal_streams([*_RUNS, _BREAKS]), st.sampled_from([(None, None), (80, 24), (20, 6)]))
def test_generated_page_breaks_agree(text: str, size: tuple[int | None, int | None]) -> None:
    _straight_to_pages_agrees(text, *size)
