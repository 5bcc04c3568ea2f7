"""The screen model's lines taken at once (issue 27) equal the walk token by token: lines redrawn by CR
and EL (``shortcuts.redrawn``), lines reaching a known right margin exactly (``shortcuts.plain_lines``),
and text holding characters other than one cell wide written run by run (:func:`meaning.other_widths`).

Each shortcut is compared with the model that lacks it on the whole state it leaves (every page
record, and the grid, cursor, modes and budget at the end), on the committed captures, sessions and
recordings, and on generated streams; and shown to answer where it was written for."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from textclean.pipeline import verify
from textclean.pipeline.verify import meaning, paging, replays, runs, state

from .agent_logs import captures, peer_recordings
from .test_verify_fast_path import _answers, _recorded

# ---------------------------------------------------------------------------------------------------
# The model's whole state, page records and all: what two walks must agree on


def _row(row: state.Row) -> tuple[object, ...]:
    return (row is state.BLANK, tuple(row.cells), row.wrapped, row.wrap_disputed, row.shown, row.uncertain)


_STATE_SKIPPED = frozenset(replays.UNKEYED) | {"redraws_at_once", "plain_lines_at_once", "runs_at_once", "shapes",
                                               "tight"}


def _state(model: paging.Model, work: bool) -> dict[str, object]:
    state: dict[str, object] = {name: repr(value) for name, value in model.fields().items()
                                if name not in _STATE_SKIPPED and name not in ("grid", "alt")}
    state["grid"] = [_row(row) for row in model.grid]
    state["alt"] = None if model.alt is None else {
        name: [_row(row) for row in value] if name == "grid" else repr(value) for name, value in model.alt.items()}
    if work:
        state["work_left"] = model.work_left
    return state


def _walked(text: str, columns: int | None, rows: int | None, shortcuts: verify.Shortcuts, *,
            strict: bool = False, terminal: bool = True, work: bool = True) -> object:
    """The page records and the state at the end; ``work``: the budget left too (plain_lines charges a
    line's EL 0 at the row's end at an unknown width, which the walk does not: equal only without it)."""
    model = paging.Model(text, columns, rows, strict=strict, terminal=terminal, shortcuts=shortcuts)
    try:
        pages = model.run()
    except verify.Refusal as exc:
        return f"unresolvable: {exc} at {exc.offset}", _state(model, work)
    return [tuple(getattr(page, name) for name in state.PAGE_FIELDS) for page in pages], _state(model, work)


def _same_walks(text: str, columns: int | None, rows: int | None, fast: verify.Shortcuts,
                slow: verify.Shortcuts, work: bool = True) -> None:
    """The same records and state, strict or not, at the size and with no terminal, and the same answers;
    for ``text`` and after a line (plain_lines runs after a line feed the walk reads: the text's first
    line is walked)."""
    for case in (text, "x\n" + text):
        for strict in (False, True):
            assert (_walked(case, columns, rows, fast, strict=strict, work=work)
                    == _walked(case, columns, rows, slow, strict=strict, work=work)), repr(case[:200])
        assert (_walked(case, None, None, fast, terminal=False, work=work)
                == _walked(case, None, None, slow, terminal=False, work=work)), repr(case[:200])
        assert _answers(case, columns, rows, fast) == _answers(case, columns, rows, slow), repr(case[:200])


_UNREDRAWN = verify.ALL._replace(redrawn=False)
# plain_lines off: no line at once, redrawn or reaching the margin (what the walk takes token by token)
_NO_LINES = verify.ALL._replace(plain_lines=False, redrawn=False)


def _sessions() -> list[tuple[str, int | None, int | None]]:
    from benchmarks import bench

    return [(text, columns, rows) for _, text, columns, rows in bench.tb_sessions(bench.DEFAULT_FIXTURES)]


def test_lines_at_once_agree_on_every_capture_session_and_recording() -> None:
    cases = [(text, size) for _, text in captures() for size in ((None, None), (80, 24), (160, 40))]
    cases += [(text, (columns, rows)) for text, columns, rows in _recorded() + _sessions()]
    cases += [(text, size) for text in peer_recordings() for size in ((None, None), (80, 24))]
    for text, (columns, rows) in cases:
        assert _walked(text, columns, rows, verify.ALL) == _walked(text, columns, rows, _UNREDRAWN), repr(text[:200])
        assert (_walked(text, columns, rows, verify.ALL, work=columns is not None)
                == _walked(text, columns, rows, _NO_LINES, work=columns is not None)), repr(text[:200])


# ---------------------------------------------------------------------------------------------------
# Generated: redraws by CR and EL over rows of one-cell characters (and what sends a line to the walk)

_TEXT = st.one_of(
    st.text(st.sampled_from("ab -="), min_size=1, max_size=8),
    st.text(st.sampled_from("█▋▎━─│┃⠋⠙⠹ "), min_size=1, max_size=8),  # one cell each, not ASCII
    st.text("xyz ", min_size=15, max_size=45),
    st.sampled_from(["你好", "é", "\u200b", "🌍", "\t", "\udcff", "a" * 20, "b" * 40, "c" * 80, "d" * 160]),
)
_REDRAW_PIECE = st.one_of(
    _TEXT, _TEXT,
    st.sampled_from(["\r", "\r", "\r\r", "\r\n", "\r\n", "\n", "\x1b[K", "\x1b[0K", "\x1b[2K", "\x1b[2K", "\x1b[1K",
                     "\x1b[3K", "\x1b[32m", "\x1b[0m", "\x1b[1;2m", "\x1b[38:5:1m", "\x1b[m", "\x1b[?5m", "\x1b[1A",
                     "\x1b[1B", "\x1b[2A", "\x1b[3G", "\x1b[2b", "\x1b[?7l", "\x1b[?7h", "\x1b[2;4r", "\x1b[H\x1b[2J",
                     "\x1b[?1049h", "\x1b[?1049l", "\x1b7", "\x1b8", "\b", "\x07", "\x1b", "\x1b[?25l"]),
)
_SIZES = st.sampled_from([(None, None), (80, 24), (20, 5), (40, 10), (160, 40), (72, None), (None, 10), (20, 4)])


@given(st.lists(_REDRAW_PIECE, max_size=40).map("".join), _SIZES)
@example("abcdef\rxy\n", (40, 10))  # the tail of a longer segment survives
@example("ab\rabcdefghij\rx\x1b[K\r\n", (40, 10))  # EL 0 after a CR cuts the row
@example("\x1b[32mab\x1b[0m\r\x1b[2K\x1b[1mcd\x1b[m\n", (40, 10))  # a spinner's frames
@example("x" * 40 + "\r\x1b[2Kdone\n", (40, 10))  # a frame reaching the margin, then a CR
@example("x" * 40 + "\x1b[0m\r\x1b[2Ky\n", (40, 10))  # ... an SGR at the pending wrap
@example("x" * 40 + "\x1b[2K\ry\n", (40, 10))  # ... an EL at the pending wrap: a dispute
@example("x" * 40 + "\x1b[K\ry\n", (40, 10))  # ... EL 0 there erases nothing
@example("x" * 40 + "y\rz\n", (40, 10))  # ... text past it: a wrap
@example("\x1b[?7l" + "x" * 40 + "\rz\n", (40, 10))  # ... reaching it with autowrap off: refused
@example("ab\x1b[2Kcd\rx\n", (40, 10))  # EL 2 away from the first column: the next write pads
@example("abc\r\x1b[2K\n", (40, 10))  # a row written, then emptied
@example("\x1b[1;2m\r\x1b[K\n", (40, 10))  # no text at all
@example("x" * 45 + "\n" + "ab\rc\x1b[2K\rd\n", (40, 10))  # the row above wrapped into this one
@example("a\n" * 12 + "b" * 45 + "\rc\n", (40, 10))  # ... and at the top of the screen
@example("你\rab\n", (40, 10))  # a wide character overwritten
@example("é\u200b\rab\n", (None, None))  # a zero-width one
def test_redrawn_lines_agree_with_walking_them(text: str, size: tuple[int | None, int | None]) -> None:
    _same_walks(text, *size, verify.ALL, _UNREDRAWN)


# Lines mostly of what the shortcuts take (plain_lines runs after a line feed the walk reads: the first
# line is walked), now and then something they leave to the walk
_FRAME_PIECE = st.one_of(
    st.text(st.sampled_from("ab -=█▋⠙"), min_size=1, max_size=12), st.text("xyz ", min_size=15, max_size=45),
    st.sampled_from(["\r", "\r", "\r", "\x1b[2K", "\x1b[2K", "\x1b[K", "\x1b[32m", "\x1b[0m", "\x1b[1;2m", "a" * 19,
                     "a" * 20, "b" * 39, "b" * 40, "c" * 79, "c" * 80, "d" * 160]),
)
_ROW_MOVES = ("\x1b[1A", "\x1b[1B")  # before the line: it is then written over a row written before
_ODD = st.sampled_from([""] * 12 + ["你", "\u200b", *_ROW_MOVES, "\x1b[?7l", "\x1b[?7h", "\b", "\x1b[1K", "\x1b[2b",
                                    "\t", "\x1b[3;5r", "\x1b[r", "\x1b[?1049h", "\x1b[?1049l", "\x1b[2J"])


def _frame_line(body: str, ending: str, odd: str) -> str:
    return odd + body + ending if odd in _ROW_MOVES else body + odd + ending


_FRAME_LINE = st.builds(_frame_line, st.lists(_FRAME_PIECE, max_size=12).map("".join),
                        st.sampled_from(["\n", "\r\n", "\r\r\n", "\x1b[K\n"]), _ODD)
_FRAME_STREAM = st.lists(_FRAME_LINE, min_size=1, max_size=16).map("".join)


@given(_FRAME_STREAM, _SIZES)
@example("ab\rcd\n" * 30, (20, 5))  # the known screen scrolls under redrawn lines
def test_redrawn_lines_of_frames_agree_with_walking_them(text: str, size: tuple[int | None, int | None]) -> None:
    _same_walks(text, *size, verify.ALL, _UNREDRAWN)
    _same_walks(text, *size, verify.ALL, _NO_LINES, work=False)


@given(st.lists(_REDRAW_PIECE, max_size=40).map("".join) | _FRAME_STREAM, _SIZES)
@example("x" * 40 + "\r\n" + "y" * 40 + "\n" + "z\n", (40, 10))  # lines reaching the margin
@example("x" * 40 + "\x1b[K\n", (40, 10))  # ... with an EL at the pending wrap: walked
@example("\x1b[?7l\n" + "x" * 40 + "\nz\n", (40, 10))  # ... autowrap off: refused
@example("\x1b[1m" + "x" * 40 + "\x1b[m\r\n" * 12, (40, 10))  # ... scrolling the known screen
def test_lines_reaching_the_margin_agree_with_walking_them(text: str, size: tuple[int | None, int | None]) -> None:
    _same_walks(text, *size, verify.ALL, _NO_LINES, work=False)
    if size[0] is not None:  # at a known width plain_lines charges what the walk charges
        assert _walked(text, *size, verify.ALL) == _walked(text, *size, _NO_LINES), repr(text[:200])


# ---------------------------------------------------------------------------------------------------
# The shortcuts answer where they were written for


class _Counted(paging.Model):
    """Counts the walk's own steps: each text written and each sequence read."""

    steps = 0

    def write(self, text: str) -> None:
        _Counted.steps += 1
        super().write(text)

    def sequence(self, token: str, start: int, end: int) -> None:
        _Counted.steps += 1
        super().sequence(token, start, end)


def _steps(text: str, shortcuts: verify.Shortcuts) -> tuple[int, list[list[str]]]:
    _Counted.steps = 0
    pages = _Counted(text, 160, 40, shortcuts=shortcuts).run()
    return _Counted.steps, [page.lines for page in pages]


@pytest.mark.pure_only(reason="counts Model.write and Model.sequence in a subclass; none inherits a compiled class")
def test_redrawn_lines_and_lines_at_the_margin_are_taken_at_once() -> None:
    frames = "".join(f"\x1b[37m{spinner}\x1b[0m \x1b[2mResolving dependencies...{' ' * 129}\x1b[0m\r\x1b[2K"
                     for spinner in "⠋⠙⠹⠸⠼⠴")  # uv pads each frame to the full width: 160 columns
    banner = "\x1b[1m" + "=" * 160 + "\x1b[0m\r\n"
    progress = "".join(f"\r{count:3d}% |{'█' * count}{'▋' * (count < 50)}{' ' * (50 - count)}|" for count in range(51))
    text = "\x1b[H\x1b[2J" + "start\r\n" + frames + "\x1b[32mdone\x1b[0m\r\n" + banner + progress + "\r\n"
    fast, walked = _steps(text, verify.ALL), _steps(text, _NO_LINES)
    # the last frame is one cell shorter than those before it: their closing bar stays
    assert fast[1] == walked[1] == [[], ["start", "done", "=" * 160, f" 50% |{'█' * 50}||"]]
    assert fast[0] == 3 and walked[0] > 50  # the clear and "start" (no LF before it): the rest at once


@pytest.mark.pure_only(reason="compiled code calls past the spy on Runs.redrawn_cells")
def test_a_long_row_rebuilt_for_short_runs_is_walked() -> None:
    """A row string rebuilt per run copies the row each time: "\\rX" over a long row would be quadratic
    (a second at 640 KB, four at 1.3 MB). Past the copy allowance the walk's cells take the line, with
    the same lines; a row of about the frames' own length stays on the shortcut."""
    taken: list[bool] = []
    real = runs.Runs.redrawn_cells

    def counting(model: runs.Runs, line: str, row: state.Row) -> tuple[str, int, int] | None:
        answer = real(model, line, row)
        taken.append(answer is not None)
        return answer

    start = "\x1b[H\x1b[2Jtop\x1b[1Bx\r\n"  # a page the text's other shortcuts do not take
    rebuilt = start + "x" * 40_000 + "\rX" * 20_000 + "\ndone\n"
    frames = start + "".join(f"\r{count:5d} of 20000" for count in range(20_000)) + "\ndone\n"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runs.Runs, "redrawn_cells", counting)
        for text, shortcut in ((rebuilt, False), (frames, True)):
            taken.clear()
            lines = verify.terminal_lines(text, terminal=False)
            assert taken == [shortcut]
            assert lines == verify.terminal_lines(text, terminal=False, shortcuts=_NO_LINES)


# ---------------------------------------------------------------------------------------------------
# Characters other than one cell wide, found run by run


# characters of every kind, most never met before (all_narrow learns each narrow one the first time)
_ANY_CHARACTERS = st.text(st.characters(blacklist_categories=("Cs",)) | st.sampled_from("ab █▋你🌍\u200b\t\udcff"),
                          max_size=12)


@given(st.text(st.sampled_from("ab █▋━─⠋你é🌍\u200b\u0301\t\x7f\udcff\u00ad"), max_size=40) | _ANY_CHARACTERS)
@example("下载模型权重:  15%|███████▎  |")
def test_other_widths_are_every_character_not_one_cell_wide(text: str) -> None:
    expected = [(index, meaning.WIDTH[char]) for index, char in enumerate(text) if meaning.WIDTH[char] != 1]
    assert meaning.other_widths(text) == expected
    assert meaning.other_widths(text) == expected  # again, with what the first call learned


@given(_ANY_CHARACTERS)
@example("🌍 ")  # the first character not yet known narrow is wide: answered before a set of the rest
@example("\u2591\u2592 你")  # ... and narrow ones first, learned on the way
def test_all_narrow_is_every_character_one_cell_wide(text: str) -> None:
    expected = all(meaning.WIDTH[char] == 1 for char in text)
    assert meaning.all_narrow(text) == expected
    assert meaning.all_narrow(text) == expected  # again, with what the first call learned
