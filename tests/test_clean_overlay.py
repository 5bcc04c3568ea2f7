"""The cleaner's fast paths give exactly what feeding the same lines token by token to the row model
gives: the text, the tallies, or the same refusal. The string path for lines redrawn by CR alone
(``LineModel.overlay``), lines fed a run at a time (text and inert sequences written as one string,
a run of backspaces as one move), and the screen model's backspace runs (``walk.resolve``). On
every real capture and peer recording (at no width, the width it was captured at and a narrow one)
and on generated streams, with and without a known width."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agent_logs import peer_params
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import (
    CSI,
    ESC,
    inert_sequences,
    line_endings,
    plain_text_runs,
    redraw_frames,
    sgr,
    terminal_streams,
    text_runs,
)

from oracle import corpora
from textclean.pipeline import clean
from textclean.pipeline.clean import assemble, breaks, feed, walk
from textclean.pipeline.clean.line import LineModel, Stripped, Unresolved
from textclean.pipeline.clean.screen import ScreenModel
from textclean.pipeline.clean.screen_state import WRAP
from textclean.pipeline.clean.string_path import without_inert

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
            result = clean._resolve_redraws(text, columns, None, fast=fast)
    except clean.Refused as refusal:
        return ("refused", type(refusal).__name__, refusal.reason, refusal.detail)
    return ("cleaned", result.text, result.removed, budgets)


def _pages(text: str, columns: int | None, rows: int | None, *, fast: bool) -> tuple[object, ...]:
    try:
        segments = walk.resolve(text, columns=columns, rows=rows, fast=fast)
    except assemble.WholeRefusal as refusal:
        return ("refused", refusal.reason, refusal.detail, refusal.segments)
    return ("resolved", segments)


def _agree(text: str, columns: int | None, rows: int | None = None) -> None:
    """Both models, fast paths on and off (blocks of plain lines taken in short texts too)."""
    slow = _outcome(text, columns, fast=False)
    assert _outcome(text, columns, fast=True) == slow, columns
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(clean, "_BLOCK_LINES", 0)
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

    def counting(model: LineModel, parts: list[str | None], pending_at_margin: bool = False) -> bool:
        done = original(model, parts, pending_at_margin)
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


@pytest.mark.parametrize("path", peer_params(RECORDINGS, [f"{p.parent.name}/{p.name}" for p in RECORDINGS]))
def test_peer_recordings_agree(path: Path, corpora_root: Path) -> None:
    text = _read(path)
    for columns, rows in ((None, None), (80, 24), (40, 10)):
        _agree(text, columns, rows)


@pytest.mark.pure_only(reason="compiled code calls past the spy on LineModel.overlay")
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


@pytest.mark.pure_only(reason="compiled code calls past the spy on LineModel.overlay")
def test_generated_streams_take_the_string_path(overlaid: list[int]) -> None:
    """The properties above are not vacuous: their kind of line takes the string path."""
    frames = "a" * 30 + "\r" + CSI + "32mbb" + CSI + "0m\r" + CSI + "2Kccc" + CSI + "K\rdd\n"
    assert _outcome(frames, None, fast=True) == _outcome(frames, None, fast=False)
    assert overlaid == [True]


_AT_MARGIN = ["\r", "\r" + CSI + "2K", CSI + "K", CSI + "2K", CSI + "1K", "\b", CSI + "0m", CSI + "0m\r", CSI + "A",
              CSI + "3G", "x", "xy\r", "\r\n", "\n", "", CSI + "32m"]


@pytest.mark.pure_only(reason="compiled code calls past the spy on LineModel.overlay")
@pytest.mark.parametrize("columns", [6, 20])
def test_frames_that_reach_the_margin_agree(columns: int, overlaid: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """A run may end at a known margin on the string path where a CR or the line's end follows (the
    cursor pending there, as the walk leaves it); anything else after it is the walk's. Frames that
    fill the row, one cell short of it and one past it, then each control, then a shorter frame or
    a full one: the same pages as the walk's (short lines and pages taken by the string path too)."""
    monkeypatch.setattr(feed, "_OVERLAY_MIN_CHARS", 0)
    monkeypatch.setattr(feed, "_SHORT_PAGE_CHARS", 0)
    for frame in ("░" * (columns - 1) + "]", "░" * (columns - 2) + "]", "[" + "░" * columns):
        for before in ("", "\r", CSI + "2m"):
            for after in _AT_MARGIN:
                for then in ("", "\rab", "\r" + CSI + "2K" + frame, "\r" + frame + CSI + "0m"):
                    text = "top\r\n" + before + frame + after + then + "\r\nend\r\n"
                    for rows in (None, 4):
                        assert _pages(text, columns, rows, fast=True) == _pages(text, columns, rows, fast=False), text
    assert overlaid.count(True) > 100  # not vacuous: most of them take the string path


@pytest.mark.pure_only(reason="compiled code calls past the spy on LineModel.overlay")
def test_frames_that_fill_the_row_take_the_string_path(overlaid: list[int]) -> None:
    """uv's wheel bar fills 160 columns and is redrawn by CR and EL 2: the string path takes it, and a
    frame that ends at the margin before anything but a CR leaves it to the walk."""
    frame = "░" * 20 + " [0/5] " + CSI + "2m" + "Installing wheels...".ljust(133) + CSI + "0m"
    line = frame + ("\r" + CSI + "2K" + frame) * 5 + "\r\n"
    for text, taken in ((line, [True]), (frame + "\r" + frame + CSI + "K\r\n", [False]),
                        (frame + "\r" + frame + "x\r\n", [False])):
        overlaid.clear()
        assert _pages(text, 160, 40, fast=True) == _pages(text, 160, 40, fast=False)
        assert overlaid == taken, text


@pytest.mark.pure_only(reason="compiled code calls past the spy on LineModel.overlay")
def test_harmless_private_modes_take_the_string_path(overlaid: list[int]) -> None:
    """rich hides the cursor (``CSI ? 25 l``) at the start of its bar's line: inert on the string path as
    in the walk. DECAWM off, which the walk refuses at a known width, stays the walk's."""
    frame = CSI + "38;5;237m" + "━" * 40 + CSI + "0m " + CSI + "32m0.0/16.8 MB" + CSI + "0m eta -:--:--"
    for mode, taken in (("25l", [True]), ("2004h", [True]), ("7l", []), ("25;7l", [])):
        text = "top\r\n" + CSI + "?" + mode + "     " + frame + ("\r" + CSI + "2K     " + frame) * 3 + "\r\n"
        overlaid.clear()
        assert _pages(text, 160, 40, fast=True) == _pages(text, 160, 40, fast=False), mode
        assert overlaid == taken, mode


@pytest.mark.pure_only(reason="compiled code calls past the spy on LineModel.overlay")
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


@pytest.mark.pure_only(reason="compiled code calls past the spy on LineModel.__init__")
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


@pytest.mark.pure_only(reason="compiled code calls past the spy on LineModel.overlay")
def test_a_spinner_drawn_by_backspaces_takes_the_string_path(overlaid: list[int]) -> None:
    assert _outcome(_read(FIXTURES / "pip_spinner.raw"), None, fast=True)[0] == "cleaned"
    assert overlaid.count(True) == 2


@pytest.mark.pure_only(reason="compiled code calls past the spies on clean._write_run and LineModel.backspaces")
def test_real_captures_take_the_run_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """The agreement above is not vacuous: rich's multi-row display writes its rows (text between SGR)
    as one string each, and man's overstrike and a shell's line editing move back by backspace runs."""
    combined: list[bool] = []
    runs: list[int] = []
    write_run, backspaces = clean._write_run, LineModel.backspaces

    def counting_write(model: LineModel, run: str, tally: Stripped) -> bool:
        done = write_run(model, run, tally)
        if "\x1b" in run:
            combined.append(done)
        return done

    def counting_backspaces(model: LineModel, n: int) -> None:
        runs.append(n)
        backspaces(model, n)

    monkeypatch.setattr(clean, "_write_run", counting_write)
    monkeypatch.setattr(LineModel, "backspaces", counting_backspaces)
    assert _outcome(_read(FIXTURES / "rich_progress.raw"), None, fast=True)[0] == "cleaned"
    assert combined.count(True) > 40
    shell = "$ \n" + CSI + "A\r$ echo helo" + "\b" * 4 + CSI + "Khello\n"  # a row written before: no string path
    assert _outcome(shell, None, fast=True)[1] == "$ echo hello\n"
    assert runs == [4]


@pytest.mark.pure_only(reason="compiled code calls past the spy on ScreenModel.backspaces")
def test_a_session_moves_back_by_backspace_runs(corpora_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from textclean.pipeline.clean.screen import ScreenModel

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
        assert clean._has_residual_control(text) == (
            clean._RESIDUAL_CONTROL_CHAR.search(text) is not None or "\r" in text and
            clean.REDRAWING_CR.search(text) is not None)


@PROPERTY
@given(terminal_streams(_RUNS), st.sampled_from([None, 80]))
def test_skipping_the_substitution_only_where_it_is_doomed(text: str, columns: int | None) -> None:
    """A CR before text or before EL 2: the whole-text substitution would leave a control (a redraw)."""
    if "\r" in text and clean._CR_BEFORE_TEXT.search(text) is not None:
        assert clean._has_residual_control(clean._append_only(columns).sub("", text))


def test_real_progress_skips_the_doomed_substitution() -> None:
    for name in ("pip_download", "rich_progress", "git_clone_progress"):
        assert clean._CR_BEFORE_TEXT.search(_read(FIXTURES / f"{name}.raw")) is not None, name


@PROPERTY
@given(terminal_streams(_RUNS))
def test_dropped_counts_every_cell_but_the_markers(text: str) -> None:
    """Row.dropped counts shown characters by joining the cells (the reference: a sum over plain cells)."""
    from textclean.pipeline.clean.line import Row

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
@given(terminal_streams(_RUNS), st.sampled_from(["", clean.INERT_MARK]))
def test_sgr_first_substitutes_what_the_inert_pattern_does(text: str, mark: str) -> None:
    """Where SGR alone leaves no other sequence, it removed what the inert pattern removes."""
    from textclean.pipeline import grammar

    erases = text.count("\x1b[K") + text.count("\x1b[0K") + text.count("\x1b[2K")
    for inert, left in ((grammar.INERT_SEQUENCE, erases), (grammar.APPEND_ONLY_INERT, 0), (grammar.INERT_SEQUENCE, 0)):
        assert without_inert(inert, text, mark, left) == inert.subn(mark, text)


@pytest.mark.pure_only(reason="compiled code calls past the spy on clean._Blocks.lines")
def test_plain_lines_after_a_redraw_are_substituted_as_a_block(monkeypatch: pytest.MonkeyPatch) -> None:
    """pytest redraws one line by CR; the lines after it are written once: one block."""
    taken: list[int] = []
    lines = clean._Blocks.lines

    def counting(blocks: clean._Blocks, start: int):  # type: ignore[no-untyped-def]
        for line in lines(blocks, start):
            taken.append(line[0])
            yield line

    monkeypatch.setattr(clean._Blocks, "lines", counting)
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
        result = clean.candidate(text, columns=columns, rows=rows)
    except clean.Refused as refusal:
        return ("refused", type(refusal).__name__, refusal.reason, refusal.detail)
    return ("cleaned", result.text, result.removed, result.segments)


def _straight_to_pages_agrees(text: str, columns: int | None, rows: int | None) -> bool:
    """A text the page models take without the row model's pass: the row model would have refused it
    (never as terminals disagreeing), and the candidate is the same as after that pass."""
    if "\x1b" not in text or not clean.breaks.has_break(text) or not clean._row_model_refuses(text):
        return False
    if clean._SWALLOWING_STRING.search(text) is None:
        with pytest.raises(clean.Refused) as refused:
            clean._resolve_redraws(text, columns, rows)
        assert not isinstance(refused.value, clean.TerminalsDisagree)
    routed = _candidate(text, columns, rows)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(clean, "_row_model_refuses", lambda _text: False)
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


# --- the screen model's plain lines (walk.resolve appends runs of them at once) -----------------
def _model_state(model: ScreenModel) -> tuple[object, ...]:
    """Everything a page's model holds that a later step reads: rows (cells, endings, wrap, counts,
    redraw kinds, flags), pins by row, cursor, screen top, modes, REP's character and the budget."""
    rows = model.rows
    pinned = [index for index, row in enumerate(rows) if row in model.pins]
    return (
        [(r.cells, r.ending, r.ending is WRAP, r.written, r.kind, r.special, r.ambiguous) for r in rows],
        pinned, len(model.pins), sorted(map(tuple, model.pins.values())),
        model.row, model.col, model.top, model.top_known, model.cursor_known, model.blank, model.pending_wrap,
        model.wrap_disputed, model.last_char, model.margins, model.origin, model.saved,
        getattr(model, "saved_screen", None), model.cursor_saved, model.pad_budget,
    )


def _walked(text: str, columns: int | None, rows: int | None, *, fast: bool) -> tuple[object, ...]:
    """:func:`_pages`, with each page's model as it ends (cleaned) and the budget after each kept page."""
    states: list[object] = []
    done, failed = walk._Walker.done, walk._Walker.failed

    def record_done(walker: walk._Walker, model: ScreenModel) -> None:
        states.append(_model_state(model))
        done(walker, model)

    def record_failed(walker: walk._Walker) -> None:
        states.append(("kept", None if walker.current is None else walker.current.pad_budget, walker.budget))
        failed(walker)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(walk._Walker, "done", record_done)
        patch.setattr(walk._Walker, "failed", record_failed)
        outcome = _pages(text, columns, rows, fast=fast)
    return outcome, states


@pytest.fixture
def appended(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many lines the screen model appended at once (so that agreement is not vacuous)."""
    taken: list[int] = []
    original = ScreenModel.append_plain

    def counting(model: ScreenModel, lines: list[tuple[str, str, int, int, int]]) -> int:
        done = original(model, lines)
        taken.append(done)
        return done

    monkeypatch.setattr(ScreenModel, "append_plain", counting)
    return taken


_SESSIONS = [*sorted((FIXTURES / "sessions").glob("*.raw")), *sorted((FIXTURES / "pages").glob("*.raw"))]


@pytest.mark.parametrize("path", _SESSIONS, ids=lambda p: p.stem)
def test_sessions_append_plain_lines_as_the_walk_does(path: Path, appended: list[int]) -> None:
    text = _read(path)
    meta = json.loads(path.with_suffix(".json").read_text())
    size = (meta.get("columns"), meta.get("lines") or meta.get("rows"))
    for columns, rows in dict.fromkeys(((None, None), size, (80, 24), (40, 10), (None, 5))):
        assert _walked(text, columns, rows, fast=True) == _walked(text, columns, rows, fast=False), (columns, rows)


@pytest.mark.pure_only(reason="compiled code calls past the spy on ScreenModel.append_plain")
def test_sessions_take_the_append_path(appended: list[int]) -> None:
    """less, man, apt and a shell session append lines at once (vim and top redraw every row)."""
    taken = {}
    for path in _SESSIONS:
        appended.clear()
        try:
            walk.resolve(_read(path), columns=None, rows=None)
        except assemble.WholeRefusal:
            pass
        taken[path.stem] = sum(appended)
    assert sum(taken.values()) >= 100 and sum(1 for n in taken.values() if n) >= 4, taken


@pytest.mark.pure_only(reason="compiled code calls past the spy on ScreenModel.append_plain")
def test_recordings_append_plain_lines_as_the_walk_does(corpora_root: Path, appended: list[int]) -> None:
    for path in RECORDINGS:
        text = _read(path)
        for columns, rows in ((None, None), (80, 24), (20, 6)):
            assert _walked(text, columns, rows, fast=True) == _walked(text, columns, rows, fast=False), path
    assert sum(appended) > 100


@pytest.mark.pure_only(reason="compiled code calls past the spies on ScreenModel.append_plain and feed._feed_line")
def test_joined_captures_append_most_lines(appended: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Real output with clears between (as the bench joins captures): of the lines the page models
    take, most are appended at once, the rest walked a token at a time."""
    walked: list[int] = []
    feed_line = feed._feed_line

    def counting(model: ScreenModel, body: str, *args: object) -> None:
        walked.append(1)
        feed_line(model, body, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(feed, "_feed_line", counting)
    text = "".join(_read(path) + "\n" + CSI + "H" + CSI + "2J" for path in CAPTURES)
    for columns, rows in ((None, None), (80, 24)):
        assert _walked(text, columns, rows, fast=True) == _walked(text, columns, rows, fast=False)
        appended.clear()
        walked.clear()
        with pytest.raises(assemble.WholeRefusal):  # a kept page's scroll region (after the lines counted)
            walk.resolve(text, columns=columns, rows=rows)
        assert sum(appended) > 2 * len(walked), (sum(appended), len(walked))


_PLAIN_PIECES = [
    plain_text_runs(0, 12),
    plain_text_runs(18, 24),  # about a narrow screen's width
    st.sampled_from(["é─━│█⠋", "日本", "e\u0301", "a\u200d", "\t", "\x00", "\x07", "\x1b", "\udc80", "\x9b"]),
    sgr(),
    inert_sequences(),
    st.sampled_from([CSI + "3b", ESC + ")b", ESC + "(B", CSI + "?7l", CSI + "?25;7l", CSI + "?7h", CSI + "?25l"]),
]
_SCREEN_STEPS = st.sampled_from([
    CSI + "H", CSI + "2J", CSI + "H" + CSI + "2J", CSI + "J", CSI + "1J", CSI + "3;5H", CSI + "8d", CSI + "2;4r",
    CSI + "r", CSI + "?6h", CSI + "?6l", CSI + "L", CSI + "2M", CSI + "S", CSI + "T", ESC + "M", ESC + "D", ESC + "E",
    ESC + "7", ESC + "8", CSI + "s", CSI + "u", CSI + "?1049h", CSI + "?1049l", CSI + "?47h", "\x1bc", CSI + "3A",
    CSI + "2B", CSI + "K", CSI + "2K", CSI + "12G", "\r", "\b\b", CSI + "2@", CSI + "P", CSI + "5X",
])
_PLAIN_LINES = st.tuples(st.lists(st.one_of(*_PLAIN_PIECES), max_size=5), line_endings()).map(
    lambda p: "".join(p[0]) + p[1])
_SCREEN_STREAMS = st.lists(st.one_of(_PLAIN_LINES, _PLAIN_LINES, _SCREEN_STEPS), min_size=1, max_size=16).map("".join)


@PROPERTY
@given(_SCREEN_STREAMS, st.sampled_from([(None, None), (None, 4), (80, 24), (20, 6), (24, 3), (12, None)]))
def test_generated_plain_lines_on_screens_agree(text: str, size: tuple[int | None, int | None]) -> None:
    """Plain lines between clears, homes, scroll regions, origin mode, pins (ED 0 / 1), scrolling at
    small heights, lines about the width, REP after a line, DECAWM off, NUL, wide, joined, undecodable
    and C1 characters: every page's model ends the same, and the same segments or refusal come out."""
    assert _walked(text, *size, fast=True) == _walked(text, *size, fast=False)


_PERSIST_PIECES = st.sampled_from(["\x0e", "\x0f", ESC + ")0", ESC + "(0", ESC + "(B", ESC + "7", ESC + "8", CSI + "s",
                                   CSI + "u", ESC + "#8", ESC + "%G", CSI + "2J", CSI + "m", "a", "\x07", ESC])


@PROPERTY
@given(st.lists(st.one_of(_PERSIST_PIECES, inert_sequences(), plain_text_runs(0, 4)), max_size=12).map("".join))
def test_page_scans_equal_their_reference(text: str) -> None:
    """breaks.persists scans ESC forms and SO / SI apart (a literal-first pattern): the same first
    match as the one alternation; a gap of inert sequences is matched from its start, not substituted."""
    import re

    from textclean.pipeline import grammar

    reference = re.compile(r"\x1b[)*+\-./][\x30-\x7e]|\x1b\([^B]|[\x0e\x0f]|\x1b[78]|\x1b\[[su]|\x1b[#%]")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(grammar, "PERSISTENT_ESCAPE", reference)
        patch.setattr(breaks, "_SHIFT", re.compile("(?!)"))  # never matches: the alternation alone
        old = breaks.persists(text)
    assert breaks.persists(text) == old
    for start in range(len(text) + 1):
        assert breaks._only_inert(text, start, len(text)) == (grammar.INERT_SEQUENCE.sub("", text[start:]) == "")


@pytest.mark.parametrize("text", [
    "a\nb\n" + CSI + "H" + CSI + "2J" + "one\ntwo\n" + CSI + "H" + "ONE\n\nx" + CSI + "K\n",  # into written rows
    CSI + "2J" + CSI + "5;1H" + CSI + "2J" + CSI + "H" + "\n".join(f"r{i}" for i in range(9)) + "\n",  # rows below
    CSI + "2J" + CSI + "H" + "x" * 20 + "y\nz\n" + CSI + "A" + CSI + "2K\rw\n",  # a wrapped row (width 20)
    CSI + "2J" + CSI + "H" + "top\n" + CSI + "J" + "kept\n" + CSI + "H" + CSI + "2K" + "top\n",  # a pinned row
    CSI + "2J" + CSI + "H" + "abc" + CSI + "3b\n" + CSI + "3b" + "\n" + ESC + ")b" + CSI + "2b\n",  # REP across lines
    CSI + "2J" + CSI + "H" + "x" * 79 + CSI + "K\n" + "y" * 80 + CSI + "K\n",  # EL at the 80th column
    CSI + "2J" + CSI + "H" + CSI + "2;4r" + "a\nb\nc\nd\ne\n" + CSI + "r" + "f\ng\n",  # a scroll region
], ids=range(7))
def test_plain_lines_where_the_screen_decides(text: str) -> None:
    for size in ((None, None), (20, 4), (80, 3), (None, 2)):
        assert _walked(text, *size, fast=True) == _walked(text, *size, fast=False), size


def test_kept_pages_are_joined_in_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    """assemble joins a kept page's bytes in slices (each as narrow as its characters): the same
    candidate as one slice per page, on real sessions with kept pages, with a wide character in one."""
    checked = 0
    for path in [*_SESSIONS, *CAPTURES]:
        text = _read(path)
        for variant in (text, "🙂" + text):
            try:
                segments = walk.resolve(variant, columns=None, rows=None)
            except assemble.WholeRefusal:
                continue
            if all(s.text is not None for s in segments):
                continue
            whole = assemble.assemble(variant, segments)
            with monkeypatch.context() as patch:
                patch.setattr(assemble, "_KEPT_SLICE", 7)
                assert assemble.assemble(variant, segments) == whole
                patch.setattr(assemble, "_KEPT_SLICE", 1 << 30)
                assert assemble.assemble(variant, segments) == whole
            checked += 1
    assert checked >= 2


def test_lines_marked_in_small_blocks_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines are marked a block at a time: blocks of 1 and 3 lines give what the walk gives."""
    texts = [_read(path) for path in _SESSIONS]
    for block in (1, 3):
        monkeypatch.setattr(feed, "_MARK_LINES", block)
        for text in texts:
            for size in ((None, None), (80, 24)):
                assert _walked(text, *size, fast=True) == _walked(text, *size, fast=False), (block, size)


def _overlaid_state(parts: list[str | None], columns: int | None, budget: int) -> tuple[object, ...]:
    model = LineModel(columns=columns)
    model.pad_budget = budget
    try:
        done = model.overlay(parts)
    except Unresolved as exc:
        return ("unresolved", str(exc))
    row = model.rows[0]
    return (done, row.cells, row.written, row.kind, model.col, model.pad_budget)


@PROPERTY
@given(st.lists(st.text("ab█ -=#", max_size=12) | st.text("x", min_size=70, max_size=95), min_size=2, max_size=12),
       st.sampled_from([None, 10, 40, 200]), st.sampled_from([10**6, 30, 0]), st.booleans())
def test_progress_frames_overlay_as_the_general_loop_does(frames: list[str], columns: int | None, budget: int,
                                                          small_allowance: bool) -> None:
    """Runs separated by CR alone take ``LineModel._overlay_frames`` (the row built from its last frame
    back): the same answer, cells, tallies, cursor and work charged as overlay's loop, which takes
    the same runs when an empty inert part (None) stands between two of them. Past the copy allowance
    both leave the string path."""
    parts: list[str | None] = [frames[0]]
    for frame in frames[1:]:
        parts += ["\r", frame]
    general = [*parts[:2], "", None, *parts[2:]]  # the same row: an inert sequence and an empty run
    with pytest.MonkeyPatch.context() as patch:
        if small_allowance:
            patch.setattr("textclean.pipeline.clean.line.OVERLAY_COPY_ALLOWANCE", 40)
        assert _overlaid_state(parts, columns, budget) == _overlaid_state(general, columns, budget)


_FRAME_PIECES = [
    plain_text_runs(0, 12), plain_text_runs(70, 90), st.text("─━█é日\t", max_size=3), sgr(), inert_sequences(),
    st.sampled_from(["\r", "\r", CSI + "K", CSI + "0K", CSI + "2K", CSI + "1K", "\x07", CSI + "3b", "\b", CSI + "?25l",
                     CSI + "A", CSI + "5G", "x" + CSI + "2b"]),
]
_FRAME_LINES = st.tuples(st.lists(st.one_of(*_FRAME_PIECES), max_size=8), line_endings()).map(
    lambda p: "".join(p[0]) + p[1])
_FRAME_STREAMS = st.lists(st.one_of(_FRAME_LINES, _FRAME_LINES, _SCREEN_STEPS), min_size=1, max_size=10).map("".join)


@PROPERTY
@given(_FRAME_STREAMS, st.sampled_from([(None, None), (80, 24), (20, 6), (12, None), (160, 40)]))
def test_generated_progress_frames_on_screens_agree(text: str, size: tuple[int | None, int | None]) -> None:
    """Lines redrawn by CR and EL on the screen model take the row model's string path
    (``feed._overlaid``) from an empty last row: every page's model ends as the walk leaves it
    (cells, counts, cursor, REP's character, the work charged), and the same segments come out."""
    assert _walked(text, *size, fast=True) == _walked(text, *size, fast=False)


@pytest.mark.pure_only(reason="compiled code calls past the spy on LineModel.overlay")
def test_sessions_overlay_progress_frames(overlaid: list[int]) -> None:
    """A pip-style bar after a clear (each frame CR, EL 2, coloured text) takes the string path on the
    screen model, at a size and at none (so that agreement above is not vacuous); on the committed
    Terminal-Bench-shaped recordings at their size every page's model ends as the walk leaves it."""
    from fixtures_gen.checks import load_fixtures, load_sessions

    bar = "".join(f"\r{CSI}2K{CSI}32m{'━' * (i // 4)}{CSI}0m {i}%" for i in range(100))
    text = f"$ pip install x\r\n{CSI}H{CSI}2J{bar}\r\nDone\r\n"
    for size in ((160, 40), (None, None)):
        overlaid.clear()
        assert _walked(text, *size, fast=True) == _walked(text, *size, fast=False)
        assert overlaid == [True], size
    recordings = [(s.name, s.text, s.columns, s.rows) for s in load_sessions(FIXTURES / "sessions")
                  if s.name.startswith("session_tb_")]
    recordings += [(f.name, f.text, 160, 40) for f in load_fixtures(FIXTURES / "progress") if f.name.endswith("160x40")]
    for name, text, columns, rows in recordings:
        assert _walked(text, columns, rows, fast=True) == _walked(text, columns, rows, fast=False), name
