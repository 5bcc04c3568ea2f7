"""Issue 23 / 27 (round 2): the cleaner's per-page paths give what the general ones give, on every
committed capture and session and on generated streams: the one-pass page split against the two-pass
reference it replaced, and a page's walk reused for an identical page against walking it (no page short
enough to reuse: walk._MEMO_CHARS below every length)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import CSI, plain_text_runs, sgr, terminal_streams

from oracle.asciicast import read_asciicast
from textclean.pipeline import clean, grammar
from textclean.pipeline.clean import assemble, breaks, feed, line, walk
from textclean.pipeline.clean.screen import ScreenModel
from textclean.pipeline.clean.screen_state import WRAP

FIXTURES = Path(__file__).parent / "fixtures"
CAPTURES = [*sorted(FIXTURES.glob("*.raw")), *sorted((FIXTURES / "sessions").glob("*.raw")),
            *sorted((FIXTURES / "pages").glob("*.raw")), *sorted((FIXTURES / "progress").glob("*.raw")),
            *sorted((FIXTURES / "sessions").glob("*.cast"))]
PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# breaks of every kind, joined by inert sequences or not, between text, moves and homes
_BREAKS = [
    st.tuples(plain_text_runs(0, 8), sgr()).map("".join),
    st.sampled_from(["\r\n", "\n", "\x07", "\x1b]0;t\x07", CSI + "?25l", CSI + "3;5H", CSI + "A", CSI + "K"]),
    st.sampled_from([CSI + "H", CSI + "2J", CSI + "J", CSI + "0J", CSI + "3J", CSI + "1J", CSI + ";H", CSI + "1;1f",
                     CSI + "H" + CSI + "2J", CSI + "H" + CSI + "J", CSI + "H" + CSI + "3J", "\x1bc",
                     CSI + "?1049h", CSI + "?1049l", CSI + "?47h", CSI + "?1047l", CSI + "?1049;25h",
                     CSI + "02J", CSI + "2;1H"]),
]


def _read(path: Path) -> str:
    with open(path, "rb") as f:
        data = f.read()
    if path.suffix == ".cast":
        return read_asciicast(data).output
    return data.decode("utf-8", "surrogateescape")


def _reference_split(text: str) -> list[breaks.Page]:
    """breaks.split as it was (main 9336002): the breaks, then their runs, then the pages."""
    runs: list[tuple[int, int, list[tuple[grammar.BreakPart, bool]]]] = []
    for start, end, part, homed in breaks._breaks(text):
        if runs and breaks._only_inert(text, runs[-1][1], start):
            runs[-1][2].append((part, homed))
            runs[-1] = (runs[-1][0], end, runs[-1][2])
        else:
            runs.append((start, end, [(part, homed)]))
    out: list[breaks.Page] = []
    start, body = 0, 0
    flags: tuple[bool, bool, bool, str, str, bool, int] = (False, False, False, "", "", False, 0)
    for run_start, run_end, parts in runs:
        out.append(breaks.Page(start, body, run_start, *flags))
        start, body = run_start, run_end
        flags = breaks._describe(tuple(parts))
    out.append(breaks.Page(start, body, len(text), *flags))
    return out


def test_split_is_the_reference_on_captures() -> None:
    broken = 0
    for path in CAPTURES:
        text = _read(path)
        expected = _reference_split(text)
        assert breaks.split(text) == expected, path.name
        broken += len(expected) > 1
    assert broken >= 10  # not vacuous: captures with page breaks


@PROPERTY
@given(terminal_streams(_BREAKS))
def test_split_is_the_reference_on_generated_streams(text: str) -> None:
    assert breaks.split(text) == _reference_split(text)


# --- identical pages: a page's walk reused, or none ---------------------------------------------
def _resolved(text: str, memo: bool, **display: object) -> tuple[object, ...]:
    with pytest.MonkeyPatch.context() as patch:
        if not memo:
            patch.setattr(walk, "_MEMO_CHARS", -1)  # no page is short enough to reuse its walk
        try:
            return ("segments", walk.resolve(text, **display))  # type: ignore[arg-type]
        except assemble.WholeRefusal as whole:
            return ("refused", whole.reason, whole.detail, whole.segments)


def _hits(patch: pytest.MonkeyPatch) -> list[int]:
    """Counts the walks reused (patched onto ``_Walker.reuse``)."""
    hits: list[int] = []
    reuse = walk._Walker.reuse

    def counting(walker: walk._Walker, walked: walk._Walked) -> bool:
        taken = reuse(walker, walked)
        hits.extend([1] if taken else [])
        return taken

    patch.setattr(walk._Walker, "reuse", counting)
    return hits


_DISPLAYS = ({"columns": None, "rows": None}, {"columns": 80, "rows": 24}, {"columns": 20, "rows": 5},
             {"columns": None, "rows": None, "terminal": False}, {"columns": 80, "rows": 24, "fresh": True})


def test_reused_walks_are_the_walks_on_captures() -> None:
    """No committed capture repeats a page after a clear and a home (the last walk is compared, never reused):
    the generated streams below repeat them."""
    for path in CAPTURES:
        text = _read(path)
        for display in _DISPLAYS:
            assert _resolved(text, True, **display) == _resolved(text, False, **display), (path.name, display)
        if len(breaks.split(text)) > 2:
            keep = {"keep": {1}, "columns": 80, "rows": 24}
            assert _resolved(text, True, **keep) == _resolved(text, False, **keep), path.name


_CLEAR = CSI + "H" + CSI + "2J"


@PROPERTY
@given(terminal_streams(_BREAKS, max_lines=4), terminal_streams(_BREAKS, max_lines=4), st.integers(2, 5),
       st.sampled_from(_DISPLAYS), st.sampled_from(["", "\r\n", CSI + "?1049h", CSI + "3J", "\x1bc"]))
def test_reused_walks_are_the_walks_on_generated_streams(before: str, page: str, times: int,
                                                         display: dict[str, object], between: str) -> None:
    text = before + (_CLEAR + page + between) * times + _CLEAR + page
    assert _resolved(text, True, **display) == _resolved(text, False, **display)


@pytest.mark.pure_only(reason="compiled code calls past the spy on walk._Walker.reuse")
@pytest.mark.parametrize("allowance", [0, 40, 97, 200, 1000])
def test_reused_walks_run_out_of_budget_where_the_walks_do(monkeypatch: pytest.MonkeyPatch, allowance: int) -> None:
    """Pages that pad and overwrite cells (charged), the budget made small: the walk reused only while
    the budget covers what it drew, so the page where it runs out is the same."""
    monkeypatch.setattr(line, "WORK_ALLOWANCE", allowance)
    monkeypatch.setattr(line, "WORK_PER_INPUT_CHAR", 0)
    monkeypatch.setattr(walk, "WORK_ALLOWANCE", allowance)
    monkeypatch.setattr(walk, "WORK_PER_INPUT_CHAR", 0)
    hits = _hits(monkeypatch)
    text = "x\r\n" + (_CLEAR + "abc\rX\r\n" + CSI + "3;9HY\r\n" + CSI + "4b\r\n") * 30
    for display in _DISPLAYS[:3]:
        expected = _resolved(text, False, **display)
        assert _resolved(text, True, **display) == expected, display
    if allowance >= 97:
        assert hits


@pytest.mark.pure_only(reason="compiled code calls past the spy on walk._Walker.reuse")
def test_small_pages_reuse_their_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not vacuous: issue 23's many small pages reuse the first page's walk, and give the walk's candidate."""
    text = (_CLEAR + "abc\rX\r\n" + CSI + "3;5HY\r\n") * 200
    expected = _resolved(text, False, columns=80, rows=24)
    hits = _hits(monkeypatch)
    assert _resolved(text, True, columns=80, rows=24) == expected
    assert len(hits) >= 190


# --- short pages: one pass over a page's tokens and line ends (feed._feed_short) -------------------
def _model_state(model: ScreenModel) -> tuple[object, ...]:
    """What a page's model holds that a later step reads (rows, pins, cursor, top, modes, REP's
    character, the budget and its low water)."""
    rows = model.rows
    return (
        [(r.cells, r.ending, r.ending is WRAP, r.written, r.kind, r.special, r.ambiguous) for r in rows],
        [index for index, row in enumerate(rows) if row in model.pins], sorted(map(tuple, model.pins.values())),
        model.row, model.col, model.top, model.top_known, model.cursor_known, model.blank, model.pending_wrap,
        model.wrap_disputed, model.col_disputed, model.last_char, model.margins, model.origin, model.saved,
        getattr(model, "saved_screen", None), model.cursor_saved, model.pad_budget, model.low_water,
        [rows.index(row) for row in model.joins_disputed if row in rows],
    )


def _fed(text: str, short: int, **display: object) -> tuple[object, ...]:
    """resolve's outcome with pages below ``short`` characters fed by _feed_short (0: none, the general
    _feed), each page's model as it ends and the budget after each kept page, and how many pages took it."""
    states: list[object] = []
    taken: list[int] = []
    done, failed, feed_short = walk._Walker.done, walk._Walker.failed, feed._feed_short

    def record_done(walker: walk._Walker, model: ScreenModel) -> None:
        states.append(_model_state(model))
        done(walker, model)

    def record_failed(walker: walk._Walker) -> None:
        current = walker.current
        states.append(("kept", None if current is None else _model_state(current), walker.budget))
        failed(walker)

    def counting(*args: object) -> None:
        taken.append(1)
        feed_short(*args)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(walk, "_MEMO_CHARS", -1)  # every page walked
        patch.setattr(feed, "_SHORT_PAGE_CHARS", short)
        patch.setattr(walk._Walker, "done", record_done)
        patch.setattr(walk._Walker, "failed", record_failed)
        patch.setattr(feed, "_feed_short", counting)
        outcome = _resolved(text, False, **display)
    return outcome, states, len(taken)


def _same_walks(text: str, display: dict[str, object], short: int = 10**9) -> int:
    """Every page fed by _feed_short (``short``: pages below it) gives what the general _feed gives: the
    outcome, the models and the budgets; returns how many pages took the short path."""
    outcome, states, taken = _fed(text, short, **display)
    expected, expected_states, none = _fed(text, 0, **display)
    assert none == 0
    assert (outcome, states) == (expected, expected_states)
    return taken


@pytest.mark.pure_only(reason="compiled code calls past the spy on feed._feed_short")
def test_short_pages_are_fed_as_the_general_walk_on_captures() -> None:
    """Every page of every capture through the short path (whatever its length: no line is long enough
    for the string path there, but it is the walk's equal too), and at its default bound."""
    taken = 0
    for path in CAPTURES:
        text = _read(path)
        if len(text) > 200_000:
            text = text[:200_000]  # (a run of CRs is tried at each CR: quadratic past a short page)
        for display in _DISPLAYS:
            taken += _same_walks(text, display)
            _same_walks(text, display, feed._SHORT_PAGE_CHARS)
    assert taken > 100


@pytest.mark.pure_only(reason="compiled code calls past the spy on feed._feed_short")
def test_counted_pages_take_the_short_path() -> None:
    """Not vacuous: issue 23's pages that each differ (a frame counter) are short pages, and the default
    bound sends them there."""
    text = "".join(f"{_CLEAR}abc{count:07d}\rX\r\n{CSI}3;5HY\r\n" for count in range(50))
    assert _same_walks(text, {"columns": 80, "rows": 24}, feed._SHORT_PAGE_CHARS) == 51  # (and the empty first)


# what a short page holds: every control and sequence the walk acts on or refuses, CR runs before a line
# end or at the page's end, backspace runs, REP after text and after a line end
_SHORT = [
    st.sampled_from(["\r", "\r\r", "\r\r\n", "\n", "\b", "\b\b\b", "\t", "\x07", "\x00", "\x1b", "\x9b2K", "\x85",
                     "\udc80", "日", "e\u0301", "a\u200d", "━", " ", "  \r\n"]),
    st.sampled_from([CSI + "3b", CSI + "b", CSI + "K", CSI + "1K", CSI + "2K", CSI + "A", CSI + "2B", CSI + "3C",
                     CSI + "D", CSI + "E", CSI + "F", CSI + "5G", CSI + "3;5H", CSI + "9;90H", CSI + "2d", CSI + "X",
                     CSI + "@", CSI + "P", CSI + "L", CSI + "M", CSI + "S", CSI + "T", CSI + "2;4r", CSI + "?6h",
                     CSI + "?7l", CSI + "?25l", CSI + "J", CSI + "1J", "\x1b7", "\x1b8", "\x1bM", "\x1bD", "\x1bE",
                     CSI + "s", CSI + "u", CSI + "99999999999C"]),
    sgr(),
]


_PAGE_ENDS = st.sampled_from(["", "\r", "\r\r", "x\r", "x\r\r", "\n", "\r\n", "\r\r\n", CSI + "2b", "\b"])


@PROPERTY
@given(st.lists(st.tuples(terminal_streams([*_SHORT, *_BREAKS], max_lines=3), _PAGE_ENDS).map("".join),
                min_size=1, max_size=4),
       st.sampled_from(_DISPLAYS))
def test_short_pages_are_fed_as_the_general_walk_on_generated_streams(pages_: list[str],
                                                                      display: dict[str, object]) -> None:
    _same_walks(_CLEAR + _CLEAR.join(pages_), display)


@PROPERTY
@given(st.text(st.sampled_from(["\x1b", "[", "?", "0", "1", "2", "3", ";", ":", "H", "f", "J", "h", "l", "c", "x"]),
               max_size=40))
def test_break_part_candidates_are_the_candidates_that_are_parts(text: str) -> None:
    """breaks.split scans for grammar.BREAK_PART_CANDIDATE: the same parts at the same offsets as the
    parts among BREAK_CANDIDATE's matches."""
    def parts(pattern: re.Pattern[str]) -> list[tuple[tuple[int, int], grammar.BreakPart]]:
        found = ((m.span(), grammar.break_part(m.group())) for m in pattern.finditer(text))
        return [(span, part) for span, part in found if part is not None]

    assert parts(grammar.BREAK_PART_CANDIDATE) == parts(grammar.BREAK_CANDIDATE)


# --- what each path says it removed -----------------------------------------------------------------
@pytest.mark.parametrize("short", [feed._SHORT_PAGE_CHARS, 1 << 30], ids=["as-is", "every-page-short"])
def test_the_page_walk_counts_the_sequences_the_line_walk_counts(monkeypatch: pytest.MonkeyPatch, short: int) -> None:
    """On a capture of one page the row model cleans, the page walk (``walk.resolve``) removes the same
    escape sequences and characters as the line walk: two counts kept apart, each the other's check (the
    report's ``escape_sequences`` / ``escape_chars`` on the page path, which no verdict reads). Once as the
    walk goes, once with every page taken as a short one (``_feed_short``)."""
    monkeypatch.setattr(feed, "_SHORT_PAGE_CHARS", short)
    compared = 0
    for path in CAPTURES:
        text = _read(path)
        if len(breaks.split(text)) != 1:
            continue
        for display in ({"columns": None, "rows": None}, {"columns": 80, "rows": 24}):
            try:
                line = clean._resolve_redraws(text, display["columns"], display["rows"])
                segments = walk.resolve(text, **display)  # type: ignore[arg-type]
            except (clean.Refused, assemble.WholeRefusal):
                continue
            if any(segment.text is None for segment in segments):
                continue
            removed = (sum(segment.sequences for segment in segments),
                       sum(segment.sequence_chars for segment in segments))
            assert removed == (line.removed.escape_sequences, line.removed.escape_chars), (path.name, display)
            compared += line.removed.escape_sequences > 0
    assert compared >= 20  # not vacuous: captures with sequences removed both ways
