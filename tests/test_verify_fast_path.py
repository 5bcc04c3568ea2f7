"""The verifier's shortcuts answer exactly as its walk (the screen model) does, where they answer."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from textclean.pipeline import verify
from textclean.pipeline.model import MIN_COLUMNS
from textclean.pipeline.verify import compare
from textclean.pipeline.verify import fast as fastpaths

from .agent_logs import FIXTURES, captures, peer_recordings
from .strategies import private_modes, screen_controls, strings, terminal_streams, two_byte_escapes


def _model(text: str) -> list[str] | str:
    return _model_at(text, True)


def _agrees(text: str) -> bool:
    """Whether the fast path answered, asserting it answered as the model does."""
    fast = fastpaths.append_only_lines(text)
    if fast is not None:
        assert fast == _model(text), repr(text[:200])
    return fast is not None


def test_fast_path_agrees_on_every_capture() -> None:
    answered = sum(_agrees(text) for _, text in captures())
    assert answered >= 8  # the coloured-only captures (grep, ls, diff, git diff, ...) take it
    texts = peer_recordings()
    if texts:
        assert sum(_agrees(text) for text in texts) >= 12


_EXTRA = st.one_of(
    screen_controls(), strings(), two_byte_escapes(), private_modes(),
    st.sampled_from(["\x07", "\x08", "\x00", "\x7f", "\x85", "\x9b31m", "\x1b", "\x1b[", "\r", "\t", "\u200b",
                     "\x1b]8;;http://x\x1b\\", "\x1b]0;t\x07", "\x1b]0;a\x18b\x07", "\x1b[1;2 m", "\udcff",
                     "\x1b[?25l", "\x1b[?1049h", "\x1b[K", "\x1b[1K", "\x1b[X", "\x1b[2J", "\x1b[H", "wide 你好"]),
)


@given(terminal_streams(extra_pieces=[_EXTRA]))
@example("abc\r\x1b[K\n")
@example("abc\x1b[K\r\n\x1b[2J")
@example("\x1b[2Jabc\n")
@example("a\tb\x1b[31m\tc\r\r\n  \n\x1b[0m")
def test_fast_path_agrees_on_generated_streams(text: str) -> None:
    _agrees(text)


# ---------------------------------------------------------------------------------------------------
# Every shortcut together (verify.ALL) against the walk alone (verify.WALK): the same lines, refusals and
# their messages, and the same differences of candidates; and each line shortcut on its own, where it
# answers, against the walk: the CR overlay (fastpaths.redrawn_lines) and the rows-in-place walk
# (fastpaths.rows_lines).


def _verdict(text: str, columns: int | None = None, rows: int | None = None, *,
             shortcuts: verify.Shortcuts = verify.ALL) -> object:
    try:
        return verify.terminal_lines(text, columns=columns, rows=rows, shortcuts=shortcuts)
    except verify.Refusal as exc:
        return f"unresolvable: {exc}"


def _model_at(text: str, unknown_width: bool) -> list[str] | str:
    """The walk alone: at a terminal of unknown width, or with no right margin at all (no terminal)."""
    try:
        return verify.terminal_lines(text, terminal=unknown_width, shortcuts=verify.WALK)
    except verify.Refusal as exc:
        return f"unresolvable: {exc}"


def _recorded() -> list[tuple[str, int | None, int | None]]:
    """Every session and pages fixture, with the size it was recorded at and at an unknown size."""
    out: list[tuple[str, int | None, int | None]] = []
    for directory in (FIXTURES / "sessions", FIXTURES / "pages", FIXTURES / "progress"):
        for path in sorted(directory.glob("*.raw")):
            text = path.read_bytes().decode("utf-8", "surrogateescape")
            meta = json.loads(path.with_suffix(".json").read_text())
            out += [(text, None, None), (text, meta.get("columns"), meta.get("rows", meta.get("lines")))]
    return out


def _answers(text: str, columns: int | None, rows: int | None, shortcuts: verify.Shortcuts) -> tuple[object, ...]:
    verdict = _verdict(text, columns, rows, shortcuts=shortcuts)
    candidate = "\n".join(verdict) if isinstance(verdict, list) else ""
    differences = tuple(verify.first_difference(text, other, columns=columns, rows=rows, shortcuts=shortcuts)
                        for other in (candidate, text, candidate + "x\n"))
    offsets = tuple(None if difference is None else difference.offset for difference in differences)
    return verdict, differences, offsets


def _shortcuts_agree(text: str, columns: int | None = None, rows: int | None = None) -> None:
    assert _answers(text, columns, rows, verify.ALL) == _answers(text, columns, rows, verify.WALK), repr(text[:200])


def _redrawn_agrees(text: str, margin: int | None = MIN_COLUMNS) -> bool:
    """Whether the overlay answered, asserting it answered as the token walk does."""
    fast = fastpaths.redrawn_lines(text, margin)
    if fast is not None:
        assert fast == _model_at(text, margin == MIN_COLUMNS), repr(text[:200])
    return fast is not None


def _rows_agree(text: str, margin: int | None = MIN_COLUMNS) -> bool:
    """Whether the rows path answered, asserting it answered as the token walk does."""
    fast = fastpaths.rows_lines(text, margin)
    if fast is not None:
        assert fast == _model_at(text, margin is not None), repr(text[:200])
    return fast is not None


def test_shortcuts_agree_with_the_walk_on_every_capture_and_recording() -> None:
    named = list(captures())
    for _, text in named:
        _shortcuts_agree(text)
        _shortcuts_agree(text, 80, 24)
    for text, columns, rows in _recorded():
        _shortcuts_agree(text, columns, rows)
    for text in peer_recordings():
        _shortcuts_agree(text)
    # each line shortcut answers on the captures it was written for, as the walk does
    assert len([name for name, text in named if _redrawn_agrees(text)]) >= 10  # apt, cargo, curl, ninja, ...
    rows = {name for name, text in named if _rows_agree(text) | _rows_agree(text, None)}
    assert {"rich_progress", "rich_status", "npm_spinner", "pip_spinner", "man_overstrike"} <= rows, rows
    recorded = peer_recordings()
    for text in recorded:
        _redrawn_agrees(text)
        _rows_agree(text)


_SEGMENT = st.text(st.sampled_from("ab ━é你\t\u200b\udcff"), max_size=6) | st.text("xyz ", min_size=70, max_size=90)
_REDRAW_PIECE = st.one_of(
    _SEGMENT,
    st.sampled_from(["\r", "\r", "\r\n", "\n", "\x1b[K", "\x1b[0K", "\x1b[2K", "\x1b[1K", "\x1b[31m", "\x1b[m",
                     "\x1b]0;t\x07", "\x1b[X", "\x1b[3G", "\x1b[A", "\x1b[2J", "\b", "\x1b"]),
)
_SIZES = st.sampled_from([(None, None), (80, 24), (20, 5), (100, 30), (72, None), (None, 10)])


@given(st.lists(_REDRAW_PIECE, max_size=24).map("".join), _SIZES)
@example("abc\rxy\n", (None, None))
@example("a" * 85 + "\rb\n", (None, None))  # a CR on a row past column 80 at an unknown width
@example("a" * 85 + "\r\nb", (None, None))  # ... but a CR right before LF acts on nothing
@example("a" * 85 + "\r", (None, None))  # ... and a CR at the very end does
@example("abc\x1b[2Kd\rx\x1b[K\n", (None, None))
@example("ab" * 20 + "\rxyz", (40, 24))  # a segment reaching the known margin
@example("\x1b[2K\r" + "x" * 79 + "\x1b[K\r", (None, None))
def test_shortcuts_agree_on_generated_redraws(text: str, size: tuple[int | None, int | None]) -> None:
    _shortcuts_agree(text, *size)
    _redrawn_agrees(text, size[0] or MIN_COLUMNS)


_ROW_TEXT = (st.text(st.sampled_from("ab -━⠙é你\t\u200b\udcff"), min_size=1, max_size=6)
             | st.text("xyz ", min_size=70, max_size=90))
_ROW_PIECE = st.one_of(
    _ROW_TEXT,
    st.sampled_from(["\r", "\r", "\n", "\r\n", "\b", "\b\b", "\b\b\b\b", "\r\b", "\b\r", "\x07\r", "\x1b[K", "\x1b[0K",
                     "\x1b[D", "\x1b[3D", "\x1b[C", "\x1b[4C", "\x1b[79C", "\x07\x07",
                     "\x1b[2K", "\x1b[1K", "\x1b[00K", "\x1b[A", "\x1b[1A", "\x1b[2A", "\x1b[0A", "\x1b[B", "\x1b[3B",
                     "\x1b[E", "\x1b[F", "\x1b[2F", "\x1b[G", "\x1b[1G", "\x1b[5G", "\x1b[81G", "\x1b[31m", "\x1b[m",
                     "\x1b[?25l", "\x1b]0;t\x07", "\x1b[C", "\x1b[H", "\x1b[2J", "\x1b[X", "\x1b7", "\x1b8", "\x1b",
                     "\x1bM", "\x1b=", "\x1b>", "\x1bc", "\x1bP", "\x1b\\", "\x1b(B", "\x1b(0", "\x1b#8",
                     "\x07", "\t"]),
)


@given(st.lists(_ROW_PIECE, max_size=30).map("".join), _SIZES)
@example("a\r\x1b[2K\x1b[1A\x1b[2Kb\r\nc\r\n", (None, None))
@example("ab\r\nx\x1b[1Ay\n", (None, None))  # a write past the end of the row above: padding
@example("N\bNA\bAM\bME\bE\r\n", (None, None))  # overstrike: writes in the middle of a row
@example("abc\bd\x1b[K\n", (None, None))  # EL 0 on a row held as cells
@example("x" * 85 + "\b\b\n", (None, None))  # BS on a row past column 80 at an unknown width
@example("x" * 85 + "\b\r\n", (None, None))  # a CR in a mixed run right before LF still acts
@example("ab\x1b[2Kc\n", (None, None))  # EL 2 in append mode: the next write pads
@example("x" * 85 + "\x1b[2K\r\n", (None, None))  # EL 2 on a row past column 80 at an unknown width
@example("ab\x1b[5Cc\n", (None, None))  # CUF past the row's end: the next write pads
@example("abcdef\x1b[3Dx\x1b[Cy\n", (None, None))  # CUB and CUF inside the row
@example("ab\x07\rc\x07\n", (None, None))  # BEL in a control run: char by char
@example("x" * 80 + "\r \r\x1b[2Ky\n", (None, None))  # a row of 80 columns: a CR acts on it
@example("x" * 81 + "\ry\n", (None, None))  # ... one of 81 wraps on an 80-column terminal
@example("x" * 80 + "\n" + "y" * 80 + "\x1b[Az\n", (None, None))  # a row move from column 81
@example("x" * 79 + "\x1b[K\x1b[Cy\x1b[K\b\n", (None, None))  # the cursor at column 80
@example("\r\n" * 30 + "\x1b[25A" + "x\n", (None, None))  # more than 23 rows up
@example("ab\bc\x1b[m" + "x" * 80 + "\x1b[K\n", (None, None))  # a write at the end of cells: not appending
@example("A\r\nB\r\nC\r\n\x1b[3A" + "x" * 85 + "\n\x1b[2K\r\n", (None, None))  # F19: LF from a row past 80
@example("A\r\nB\r\nC\r\n\x1b[3A" + "x" * 85, (None, None))  # F19: its wrap joins the row below
@example("A\r\n\r\nB\x1b[2A\r" + "x" * 160, (None, None))  # F19: its wrap reaches a blank row only
@example("A\r\n\r\nB\x1b[2A\r" + "x" * 161, (None, None))  # F19: ... and then B's row
def test_shortcuts_agree_on_generated_rows(text: str, size: tuple[int | None, int | None]) -> None:
    _shortcuts_agree(text, *size)
    for margin in (size[0] or MIN_COLUMNS, None):
        if size[0] is None or margin is None:
            _rows_agree(text, margin)


# ---------------------------------------------------------------------------------------------------
# Streams the screen model walks (its own shortcuts, BS runs and plain lines at once, did not pay for
# themselves and are gone): every line shortcut still answers as the walk does there


_SCREEN_PIECE = st.one_of(
    _ROW_TEXT,
    st.sampled_from(["\b", "\b\b", "\b" * 5, "\b" * 30, "\r", "\n", "\r\n", "\t", "\x1b[K", "\x1b[2K", "\x1b[A",
                     "\x1b[C", "\x1b[3C", "\x1b[P", "\x1b[2J", "\x1b[H", "\x1b[5;3H", "\x1b[?1049h", "\x1b[?1049l",
                     "\x1b[?7l", "\x1b_x\x07", "\x1b[6n", "\x1b[31m", "\x1b[1048h", "\x1b", "\x07"]),
)


@given(st.lists(_SCREEN_PIECE, max_size=30).map("".join), _SIZES)
@example("abcdefg\b\b\bx\n", (5, 24))  # a BS run reaching the first column of a row a wrapped line continues on
@example("abcdefghij\b\b\b\b\b\b\b\b\b\b\b\bx\n", (None, None))
@example("x" * 90 + "\b\b\b", (None, None))  # on a row past column 80 at an unknown width
def test_shortcuts_agree_on_generated_screen_streams(text: str, size: tuple[int | None, int | None]) -> None:
    _shortcuts_agree(text, *size)


# ---------------------------------------------------------------------------------------------------
# Comparing a candidate by whole strings (compare.same_lines): the same answer as line by line


def _same(expected: list[str], candidate: str, *, joined: bool) -> bool:
    return compare.same_lines(expected, candidate, joined)


def test_same_lines_agree_on_every_capture() -> None:
    from textclean.pipeline import clean

    for _, text in captures():
        try:
            expected = verify.terminal_lines(text)
        except verify.Refusal:
            continue
        candidate = clean.candidate(text).text
        for other in (candidate, candidate + "\n", "\n" + candidate, candidate.replace("\n", "\n\n"), text,
                      candidate[: len(candidate) // 2], candidate.replace("\n", "\n \n")):
            assert _same(expected, other, joined=True) == _same(expected, other, joined=False)
        assert _same(expected, "\n".join(expected), joined=True)


_LINE = st.text(st.sampled_from("ab \t\r"), max_size=4)


@given(st.lists(_LINE | st.sampled_from(["a\nb", "", " "]), max_size=6), st.lists(_LINE, max_size=10).map("\n".join))
@example(["a"], "a\n\n")
@example(["a"], "\na")
@example(["a", "b"], "a\n \nb")
@example(["a", " b"], "a\n b")
@example(["a"], "a\r")
@example(["a\r"], "a\r")
@example(["a\nb"], "a\nb")
@example([""], "")
@example(["a", "b"], "a\r\nb\r\n")
@example(["a", "b"], "a\r\r\nb")
@example(["a\r", "b"], "a\r\r\nb")
@example(["a", "b"], "a\r\nb\r")
@example(["a", "b"], "a\n\r\nb")
@example([" ", "a"], " \na")
@example(["a", " "], "a\n ")
def test_same_lines_agree_on_generated_lines(expected: list[str], candidate: str) -> None:
    assert _same(expected, candidate, joined=True) == _same(expected, candidate, joined=False)
    joined = "\n".join(expected)
    assert _same(expected, joined, joined=True) == _same(expected, joined, joined=False)


# ---------------------------------------------------------------------------------------------------
# Page breaks after output and sequences no shortcut takes: the walk answers alone


_ROUTE_PIECE = st.one_of(
    _ROW_TEXT,
    st.sampled_from(["\r", "\n", "\r\n", "\b", "\x1b[2J", "\x1b[H", "\x1b[J", "\x1b[3J", "\x1b[1;1H", "\x1b[5;3H",
                     "\x1b[?1049h", "\x1b[?1049l", "\x1bc", "\x1b[1P", "\x1b[K", "\x1b[31m", "\x1b]0;t\x07",
                     "\x1bP1$r\x07", "\x1b_x\x07", "\x1b[" + "1;" * 40 + "H", "\x1b[99999999999C", "\x1b", "\x9b2J"]),
)


@given(st.lists(_ROUTE_PIECE, max_size=20).map("".join), _SIZES)
@example("a\n\x1b[2Jb\n", (None, None))
@example("a\r\x1b[K\x1b[2Jb\n", (None, None))  # output erased before the clear
@example("a\n\x1b[1Pb\x1b_x\x07\nc", (None, None))  # a string tmux swallows past (after the refusal)
@example("\x1b[2Ja\n\x1b[2Jb", (20, 5))
@example("\x1b_x\x07\nc\x1b[1P", (None, None))  # ... and before the refused sequence: the walk's refusal is final
@example("a" + "x" * 70 + "a\t\t\r", (None, None))  # a CR ending the text after tabs past column 80: harmless
@example("a" + "x" * 70 + "a\t\t\r\r", (None, None))  # ... and a run of them
def test_shortcuts_agree_on_generated_pages(text: str, size: tuple[int | None, int | None]) -> None:
    _shortcuts_agree(text, *size)


_PLAIN_PIECE = st.one_of(
    _ROW_TEXT,
    st.text("xyz ", min_size=75, max_size=82),
    st.sampled_from(["\n", "\n", "\r\n", "\r\n", "\r", "\x1b[31m", "\x1b[m", "\x1b[1;32m", "\x1b[38:5:1m", "\t",
                     "\x1b[K", "\x1b[0K", "\x1b[1K", "\x1b[m\x1b[K", "\x1b[2J", "\x1b[H", "\x1b[3;5r", "\x1b[r",
                     "\x1b[?1049h", "\x1b[?1049l",
                     "\x1b[A", "\x1b[5;3H", "\x1b_x\x07", "\x1b[1048h", "\x1b[?7l", "\x1b[>1m", "\x1b[1 m",
                     "\x85", "\x7f", "é", "你", "\u200b", "\udcff", "\x1b", "\x07", "\b"]),
)


@given(st.lists(_PLAIN_PIECE, max_size=40).map("".join), _SIZES)
@example("a\nb\r\n\x1b[31mc\x1b[m\n" * 20, (None, None))  # the window fills and lines leave its top
@example("a\nb\r\n\x1b[31mc\x1b[m\n" * 20, (20, 5))  # ... and the known screen scrolls
@example("x" * 79 + "\n" + "y" * 80 + "\n", (None, None))  # a line reaching column 80: the page is wide
@example("\x1b[?7l" + "x" * 80 + "\n" + "y" * 81 + "\nz\n", (None, None))  # ... past it with autowrap off: refused
@example("x" * 79 + "\n" + "y" * 90 + "\n\x1b[Az\n", (None, None))  # ... and what acts on the wide page
@example("x" * 19 + "\n" + "y" * 20 + "\nz\n", (20, 5))  # ... and the one reaching the known margin
@example("a\x1b[K\n" + "b" * 79 + "\x1b[K\n" + "c" * 79 + "\x1b[Kd\n", (None, None))  # EL 0 near column 80
@example("\x1b[2;4r\x1b[4Hab\ncd\nef\n", (None, 10))  # in a region: walked
@example("\x1b_x\x07a\nb\n", (None, None))  # after a string tmux swallows: walked
def test_shortcuts_agree_on_generated_plain_lines(text: str, size: tuple[int | None, int | None]) -> None:
    _shortcuts_agree(text, *size)


# ---------------------------------------------------------------------------------------------------
# Pages matched as the screen model makes them final (shortcuts.streamed), letting go of their
# lines: the same answer as matching them all once the model is done


def _page_answer(raw: str, candidate: str, columns: int | None, rows: int | None, *, streamed: bool) -> object:
    try:
        return verify.first_difference(raw, candidate, columns=columns, rows=rows,
                                       shortcuts=verify.ALL._replace(streamed=streamed))
    except verify.Refusal as exc:
        return f"unresolvable: {exc}"


def test_streamed_pages_agree_on_sessions_and_joined_captures() -> None:
    from textclean.pipeline import clean  # a candidate to check: any bytes do, the cleaner's are realistic

    joined = "".join(text for _, text in captures())
    cases = [(joined, None, None), (joined, 100, 30)] + _recorded()
    answers = []
    for raw, columns, rows in cases:
        try:
            candidate = clean.candidate(raw, columns=columns, rows=rows).text
        except clean.Refused:
            candidate = raw
        middle = candidate.find("\n", len(candidate) // 2)
        following = candidate.find("\n", middle + 1)
        variants = [candidate, raw, candidate[:middle] + candidate[following:] if following > 0 else candidate + "x",
                    candidate[: len(candidate) // 3], candidate.replace("e", "f", 1)]
        for variant in variants:
            streamed = _page_answer(raw, variant, columns, rows, streamed=True)
            assert streamed == _page_answer(raw, variant, columns, rows, streamed=False), repr(raw[:100])
            answers.append(streamed)
    assert None in answers and any(isinstance(answer, str) and "page" in answer for answer in answers)
    # a break run of two sequences after an undecided (kept) page: the page is matched only once the
    # run is over (its next page's break is all of ED 2 ED 3, not the first of them)
    raw = "a\x1b[?1048hb\n\x1b[2J\x1b[3Jc\n\x1b[2Jd\n\x1b[2Je\n"
    for candidate in ("a\x1b[?1048hb\n\x1b[2Jc\nd\ne\n", "a\x1b[?1048hb\n\x1b[2J\x1b[3Jc\nd\ne\n"):
        streamed = _page_answer(raw, candidate, None, None, streamed=True)
        assert streamed == _page_answer(raw, candidate, None, None, streamed=False)
        # page 1 is kept only where the whole break run follows it
        assert streamed.startswith("page 1 at offset 0" if "3J" not in candidate else "page 2"), streamed


# ---------------------------------------------------------------------------------------------------
# Pages replayed (shortcuts.replayed): a page after a home and ED 2 walked before from the same state
# ends as that walk did: every page record, refusal and candidate's answer equal to walking it again

_HOME_CLEAR = "\x1b[H\x1b[2J"
_PAGE_PIECE = st.sampled_from(
    ["abc", "\rX\r\n", "\x1b[3;5HY\r\n", "\x1b[1m", "\x1b[m", "\n", "\x1b[2;4r", "\x1b[r", "\x1b7", "\x1b8",
     "\x1b[?6h", "\x1b[?6l", "\x1b[3J", "\x1bc", "\x1b[2J", "\x1b[H", "x" * 85, "\x1b[24;1H", "\x1b[?1049h",
     "\x1b[?1049l", "\t", "é", "你", "\x1b[K", "\x1b[5b", "\r", "\x1b[A", "\x1b[?7l", "\x1b[?7h", "\x1b[s",
     "\x1b[u", "\x1b[4h", "\x1b(0", "\x1b_x\x07", "\udcff", "\x1b[2;3H\x1b[L"])
_PAGE = st.lists(_PAGE_PIECE, min_size=1, max_size=6).map("".join)
_REPEATED = st.lists(st.tuples(st.sampled_from([_HOME_CLEAR, "", _HOME_CLEAR * 2]), _PAGE), min_size=1, max_size=4)


def _records(text: str, columns: int | None, rows: int | None, strict: bool, replayed: bool) -> object:
    from textclean.pipeline.verify import paging, state

    try:
        pages = paging.pages(text, columns, rows, strict=strict, shortcuts=verify.ALL._replace(replayed=replayed))
    except verify.Refusal as exc:
        return f"unresolvable: {exc} at {exc.offset}"
    return [tuple(getattr(page, name) for name in state.PAGE_FIELDS) for page in pages]


@given(_REPEATED, st.lists(st.integers(0, 3), min_size=2, max_size=12), _SIZES)
@example([(_HOME_CLEAR, "abc\rX\r\n\x1b[3;5HY\r\n")], [0] * 5, (80, 24))  # the shape of issue 23
@example([(_HOME_CLEAR, "\x1b[K\r\rX\r\n\x1b[5b")], [0] * 5, (80, 24))  # undecided pages name their offsets
@example([(_HOME_CLEAR, "\x1b7a\n"), (_HOME_CLEAR, "\x1b8b\n")], [0, 1] * 4, (None, None))  # a saved cursor
@example([(_HOME_CLEAR, "\x1b[2;4ra\n")], [0] * 5, (20, 5))  # a region set by the page
def test_replayed_pages_agree_with_walking_them(units: list[tuple[str, str]], order: list[int],
                                                size: tuple[int | None, int | None]) -> None:
    text = "".join("".join(units[index % len(units)]) for index in order)
    for strict in (False, True):
        assert _records(text, *size, strict, True) == _records(text, *size, strict, False), repr(text[:200])
    replayed, walked = (verify.ALL._replace(replayed=flag) for flag in (True, False))
    assert _answers(text, *size, replayed) == _answers(text, *size, walked), repr(text[:200])


def test_repeated_pages_are_replayed() -> None:
    """The memo answers on the shape it is for (the walk would take it page by page), and equals it."""
    from textclean.pipeline.verify import paging

    text = (_HOME_CLEAR + "abc\rX\r\n\x1b[3;5HY\r\n") * 200
    model = paging.Model(text, 80, 24)
    pages = model.run()
    assert len(model.memo) == 1 and len(pages) == 201
    assert [page.lines for page in pages[1:]] == [["Xbc", "    Y"]] * 200
    assert _records(text, 80, 24, False, True) == _records(text, 80, 24, False, False)


# ---------------------------------------------------------------------------------------------------
# Pages of one shape (shortcuts.shaped): a page after a home and ED 2 whose text differs from one walked
# before only in printable characters other than space, outside its escape sequences, made from that
# walk's template: every page record, refusal and candidate's answer equal to walking it

_HOLE = "#"
_SHAPED_PIECE = st.one_of(
    _PAGE_PIECE,
    st.sampled_from(["#", "##", "#" * 10, "#" * 85, "#\x1b[3b", "#\x1b[2D#", "\x1b#", "\x1b[#m", "\x1b]0;#\x07",
                     "\x1b[#;5H", " #\t#", "#\x1b[K", "#\r#\n", "#é", "#你#", "#\u0301"]),
)
_FILLS = st.lists(st.text(st.sampled_from("09az~![;H é\x1b"), min_size=1, max_size=3), min_size=2, max_size=10)


def _filled(skeleton: str, fill: str) -> str:
    parts = skeleton.split(_HOLE)
    return "".join(part + (fill[index % len(fill)] if index < len(parts) - 1 else "")
                   for index, part in enumerate(parts))


def _shaped_records(text: str, columns: int | None, rows: int | None, strict: bool,
                    shortcuts: verify.Shortcuts, terminal: bool = True) -> object:
    from textclean.pipeline.verify import paging, state

    try:
        pages = paging.pages(text, columns, rows, strict=strict, shortcuts=shortcuts, terminal=terminal)
    except verify.Refusal as exc:
        return f"unresolvable: {exc} at {exc.offset}"
    return [tuple(getattr(page, name) for name in state.PAGE_FIELDS) for page in pages]


@given(st.lists(_SHAPED_PIECE, min_size=1, max_size=8).map("".join), _FILLS, _SIZES)
@example("abc#######\rX\r\n\x1b[3;5HY\r\n", ["0000000", "0000001", "1234567", "9999999"], (80, 24))  # issue 23's
@example("#\x1b[3b\r\n" + "#" * 85 + "\r\n", ["a", "b", "c", "d"], (80, 24))  # REP copies its hole; a wrapped row
@example("\x1b#x\n", ["7", "8", "c", "7"], (None, None))  # a hole that makes the sequence (DECSC, DECRC, RIS)
@example("\x1b[#mx\r\n", ["1", "2", "H", "1", "J"], (None, None))  # ... a parameter or the final
@example("ab#\n", ["x", "y", "z", " ", "w", "é", "v"], (None, None))  # fills of another shape between
def test_shaped_pages_agree_with_walking_them(skeleton: str, fills: list[str],
                                              size: tuple[int | None, int | None]) -> None:
    text = "".join(_HOME_CLEAR + _filled(skeleton, fill) for fill in fills)
    shaped, walked = verify.ALL, verify.ALL._replace(replayed=False, shaped=False)
    for strict in (False, True):
        assert (_shaped_records(text, *size, strict, shaped)
                == _shaped_records(text, *size, strict, walked)), repr(text[:200])
    assert _answers(text, *size, shaped) == _answers(text, *size, walked), repr(text[:200])


def test_pages_of_one_shape_are_made_from_a_template() -> None:
    """The template answers on the shape it is for (pages that never repeat: each is new), and equals the walk."""
    from benchmarks.bench import _counted_pages
    from textclean.pipeline.verify import paging, replays

    text = _counted_pages(30 * 300)
    model = paging.Model(text, 80, 24)
    pages = model.run()
    assert model.shapes is not None and len(model.memo) == 1 and len(pages) == 301
    # one template, made (not the marker of a template that failed its checks: pages would be walked)
    assert [template is not None and template is not replays._NO_SHAPE and len(template.lines)
            for template in model.shapes.values()] == [2]
    assert [page.lines for page in pages[1:4]] == [["Xbc0000000", "    Y"], ["Xbc0000001", "    Y"],
                                                   ["Xbc0000002", "    Y"]]
    walked = verify.ALL._replace(replayed=False, shaped=False)
    assert _shaped_records(text, 80, 24, False, verify.ALL) == _shaped_records(text, 80, 24, False, walked)


# ---------------------------------------------------------------------------------------------------
# Text split only by SGR written at once (shortcuts.runs): where writing it piece by piece would only
# append, the same cells, cursor, pending wrap, work and answers as the walk piece by piece

_RUN_PIECE = st.one_of(
    st.text(st.sampled_from("ab -━⠙é你\t\u200b"), min_size=1, max_size=6),
    st.text("xyz ", min_size=15, max_size=45),
    st.sampled_from(["\x1b[32m", "\x1b[0m", "\x1b[1;2m", "\x1b[38:5:1m", "\x1b[m", "\x1b[?5m", "\x1b[2K", "\x1b[K",
                     "\r", "\r", "\n", "\r\n", "\x1b[A", "\x1b[3G", "\x1b[5b", "\x1b[H\x1b[2J", "\x1b[?7l", "\x1b[?7h",
                     "\x1b[2;4r", "\x1b[3J", "\x1b[?1049h", "\x1b7", "\x1b8", "\b", "\x1b"]),
)


@given(st.lists(_RUN_PIECE, max_size=30).map("".join), _SIZES | st.sampled_from([(40, 10), (20, 4)]))
@example("\x1b[32mok\x1b[0m \x1b[33mbuild\x1b[0m step\r\n", (80, 24))
@example("\r\x1b[2K" + "a" * 30 + "\x1b[1m" + "b" * 9 + "\x1b[m" + "c", (40, 10))  # the last piece reaches the margin
@example("\r\x1b[2K" + "a" * 30 + "\x1b[1m" + "b" * 9 + "\x1b[m" + "cd", (40, 10))  # ... and one goes past it
@example("\x1b[?7l" + "a" * 70 + "\x1b[1m" + "b" * 10 + "\x1b[m" + "c\r", (None, None))  # column 81, autowrap off
@example("\x1b[?7l" + "a" * 30 + "\x1b[1m" + "b" * 9 + "\x1b[m" + "c", (40, 10))  # the margin, autowrap off
@example("ab\x1b[3G\x1b[1mcd\x1b[me\x1b[2b\n", (None, None))  # past the row's end (a pad), then REP
@example("abcdef\r\x1b[1mxy\x1b[mz\n", (None, None))  # over the row's text: walked
def test_coloured_runs_agree_with_writing_them_piece_by_piece(text: str, size: tuple[int | None, int | None]) -> None:
    walked = verify.ALL._replace(runs=False)
    for strict in (False, True):
        assert (_shaped_records(text, *size, strict, verify.ALL)
                == _shaped_records(text, *size, strict, walked)), repr(text[:200])
    assert _answers(text, *size, verify.ALL) == _answers(text, *size, walked), repr(text[:200])
    assert (_shaped_records(text, None, None, False, verify.ALL, terminal=False)
            == _shaped_records(text, None, None, False, walked, terminal=False)), repr(text[:200])


@pytest.mark.pure_only(reason="counts Model.put_narrow in a subclass; none inherits a compiled class")
def test_coloured_runs_are_written_at_once() -> None:
    """The shortcut answers on a spinner's redraws (rich, uv), and equals the walk there: one write a frame."""
    from textclean.pipeline.verify import paging

    class Counted(paging.Model):
        writes = 0

        def put_narrow(self, text: str) -> None:
            Counted.writes += 1
            super().put_narrow(text)

    frames = "".join(f"\r\x1b[2K\x1b[37m{spinner}\x1b[0m \x1b[2mResolving dependencies...\x1b[0m ({count}/5)"
                     for count, spinner in enumerate("⠋⠙⠹⠸⠼⠴"))
    text = frames + "\r\x1b[2K\x1b[32mdone\x1b[0m\n"
    for runs, writes in ((True, 1), (False, 4 * 6 + 1)):
        Counted.writes = 0
        pages = Counted(text, 160, 40, shortcuts=verify.ALL._replace(runs=runs)).run()
        assert Counted.writes == writes and [page.lines for page in pages] == [["done"]]


@pytest.mark.pure_only(reason="compiled code calls past the spy on Replays.shape_template")
def test_making_a_template_leaves_the_model_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """A template is read from walks of a model of its own, whose state is a copy of the real one's: the
    real model's state (its rows, history, modes: what the next page reads) is the same after each
    template is made as before, and the pages after it are what walking them gives."""
    from benchmarks.bench import _counted_pages
    from textclean.pipeline.verify import paging, replays

    def snapshot(model: paging.Model) -> dict[str, str]:
        return {name: repr(value) for name, value in vars(model).items() if name not in replays.UNKEYED}

    made = []
    real = replays.Replays.shape_template

    def checked(self: paging.Model, *args: object) -> object:
        before = snapshot(self)
        template = real(self, *args)
        made.append(template)
        assert snapshot(self) == before
        return template

    monkeypatch.setattr(replays.Replays, "shape_template", checked)
    text = _counted_pages(30 * 40) + "\x1b[H\x1b[2Jend\r\n"
    for columns, rows in ((80, 24), (None, None)):
        model = paging.Model(text, columns, rows)
        pages = model.run()
        assert pages[-1].lines == ["end"] and pages[-2].lines == ["Xbc0000039", "    Y"]
    assert made and all(template is not replays._NO_SHAPE for template in made)
