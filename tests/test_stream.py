"""``textclean.Stream`` (issue 40) on real captures, no terminal and the sessions at their recorded
size: however the stream is chunked, the
released text keeps every line the oracle shows for the whole raw text, and costs the tokens of a
one-shot ``clean()`` within 2 %. The cut points come from two readings (the cleaner's finder, the
verifier's check): a planted finder that cuts at every line end is caught by the check alone."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import scaled

import oracle
from fixtures_gen.checks import load_fixtures, load_sessions
from textclean import Stream, clean
from textclean.pipeline.clean import cut_finder as cuts
from textclean.pipeline.tokens import token_counter
from textclean.pipeline.verify import cut_check as verify_cuts

FIXTURES = Path(__file__).parent / "fixtures"
CAPTURES = {f.name: f.raw for d in (FIXTURES, FIXTURES / "progress", FIXTURES / "pages") for f in load_fixtures(d)}
CAPTURES.update({s.name: s.raw for s in load_sessions(FIXTURES / "sessions")})
SMALL = sorted(name for name, raw in CAPTURES.items() if len(raw) <= 1500)
#: Lossless, but far above one-shot: the first line is released before ``clear`` comes, and a clear
#: stops the cut points (what follows may read the screen): the rest goes out raw.
ABOVE_ONE_SHOT = {"session_asciinema_shell"}
count = token_counter(None)


def streamed(raw: bytes, sizes: list[int], **keywords: object) -> str:
    stream = Stream(**keywords)  # type: ignore[arg-type]
    out, at, turn = [], 0, 0
    while at < len(raw):
        size = sizes[turn % len(sizes)] if sizes else len(raw)
        out.append(stream.feed(raw[at:at + size]))
        at += size
        turn += 1
    out.append(stream.close())
    return "".join(out)


def lossless(raw: bytes, released: str) -> bool:
    return bool(oracle.check_lossless(raw.decode("utf-8", "surrogateescape"), released, terminal=False).ok)


def test_the_captures_are_there() -> None:
    assert len(CAPTURES) >= 50 and len(SMALL) >= 15


@pytest.mark.parametrize("name", sorted(CAPTURES))
@given(sizes=st.lists(st.integers(1, 4096), min_size=1, max_size=20))
def test_random_chunkings_are_lossless(name: str, sizes: list[int]) -> None:
    raw = CAPTURES[name]
    assert lossless(raw, streamed(raw, sizes))


@pytest.mark.parametrize("name", sorted(CAPTURES))
def test_tokens_within_two_percent_of_one_shot(name: str) -> None:
    raw = CAPTURES[name]
    one_shot = count(clean(raw, min_tokens=0, terminal=False).text.decode("utf-8", "surrogateescape"))
    rng = random.Random(name)
    for _ in range(3):
        tokens = count(streamed(raw, [rng.randint(1, 4096) for _ in range(16)]))
        if name in ABOVE_ONE_SHOT:
            assert tokens > one_shot * 1.02  # still the case: drop it from the set once fixed
        else:
            assert tokens <= one_shot * 1.02


@pytest.mark.parametrize("name", SMALL)
def test_every_byte_offset_is_lossless(name: str) -> None:
    raw = CAPTURES[name]
    whole = streamed(raw, [])
    assert lossless(raw, whole)
    for offset in range(1, len(raw)):
        released = streamed(raw, [offset, len(raw)])
        assert released == whole or lossless(raw, released), offset


def every_line_end(self: object, text: str) -> list[int]:
    """A planted finder: every line end a cut point, open strings and redraws or not."""
    base = getattr(self, "_seen", 0)
    self._seen = base + len(text)  # type: ignore[attr-defined]
    return [base + i + 1 for i, char in enumerate(text) if char == "\n"]


PLANT = ["session_tb_apt", "session_top", "session_vim", "tqdm_nested"]  # where that planted finder loses lines


@pytest.mark.parametrize("name", PLANT)
def test_a_finder_cutting_at_every_line_end_is_stopped_by_the_verifiers_check(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = CAPTURES[name]
    monkeypatch.setattr(cuts.CutFinder, "feed", every_line_end)
    assert lossless(raw, streamed(raw, [97])) and lossless(raw, streamed(raw, [1000]))


@pytest.mark.pure_only(reason="compiled code calls past the finder planted on CutFinder.feed and CutCheck.feed")
def test_without_the_verifiers_check_the_planted_finder_loses_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """It can fail: both readings cutting at every line end lose a line on some capture."""
    monkeypatch.setattr(cuts.CutFinder, "feed", every_line_end)
    monkeypatch.setattr(verify_cuts.CutCheck, "feed", every_line_end)
    lost = [name for name in PLANT for size in (97, 1000)
            if not lossless(CAPTURES[name], streamed(CAPTURES[name], [size]))]
    assert {"session_tb_apt", "session_top", "session_vim", "tqdm_nested"} <= set(lost)


def test_bytes_cut_inside_characters_and_invalid_bytes_come_back_exactly() -> None:
    raw = "héllo ✓ wörld\n".encode() * 3 + b"bad \xff\xfe byte \xc3\n" + "☃\n".encode()
    for size in range(1, 8):
        assert streamed(raw, [size]).encode("utf-8", "surrogateescape") == raw  # nothing to clean: as it came


def test_a_plain_line_is_released_at_its_line_end() -> None:
    stream = Stream()
    assert stream.feed(b"first \x1b[1mline\x1b[0m\n") == "first line\n"
    assert stream.feed("50%\r") == ""
    assert stream.close() == "50%\r"


def test_a_terminal_of_unknown_width_is_held_to_close() -> None:
    stream = Stream(terminal=True)
    assert stream.feed("a\x1b[1mb\n" * 40) == ""
    assert stream.close() == clean("a\x1b[1mb\n" * 40, terminal=True, min_tokens=0).text


def test_a_terminal_of_a_known_size_releases_plain_lines_as_they_settle() -> None:
    stream = Stream(columns=80, rows=24)
    assert stream.feed("a\x1b[1mb\n" * 40) == "ab\n" * 40
    assert stream.feed("50%\r") == ""
    assert stream.close() == "50%\r"


def test_past_the_bound_the_tail_goes_out_raw_and_cleaning_resumes_at_a_cut() -> None:
    stream = Stream(max_held=100)
    frames = "".join(f"\r{i}%" for i in range(100))
    assert stream.feed(frames) == frames  # no line end for 100 characters: raw, exactly
    # the stretch up to the next cut point does not start at one: raw (the frames' row, settled in place
    # as ``done``, is a cut point at its line end), then cleaned again; with a row left blank by the
    # last frame, the cut waits for 24 rows below it
    lines = "x\x1b[1my\n" * 30
    released = stream.feed("\rdone\n" + lines) + stream.close()
    assert released == "\rdone\n" + "xy\n" * 30
    stream = Stream(max_held=100)
    assert stream.feed(frames) == frames
    released = stream.feed("\r\x1b[K\n" + lines) + stream.close()
    assert released == "\r\x1b[K\n" + "x\x1b[1my\n" * 24 + "xy\n" * 6


def test_feed_after_close_and_wrong_types_are_clear_errors() -> None:
    stream = Stream()
    with pytest.raises(TypeError):
        stream.feed(3)  # type: ignore[arg-type]
    stream.close()
    with pytest.raises(ValueError):
        stream.feed("x")


# --- generated streams: plain lines, redraws the finders cut through, controls that stop them ----------
LINE = st.builds(lambda n, word: f"line {n} \x1b[1m{word}\x1b[0m\n", st.integers(0, 999),
                 st.sampled_from(["ok", "", "err"]))
IN_PLACE = st.sampled_from(["\x1b[A", "\x1b[2A", "\x1b[B", "\x1b[F", "\x1b[E", "\x1b[K", "\x1b[2K", "\x1b[1K", "\b",
                            "\x1b[3C", "\x1b[3D", "\x1b[J", "\x1bM", "\x1b[5G", "\x1b[2X", "\r", "\n", "ab", "xyz",
                            "\x1b]0;title\x07", "\x1b_bk;t=1\x07"])
STOPPING = st.sampled_from(["\x1b[H", "\x1b[2J", "\x1b[3;1H", "\x1b7", "\x1b8", "\x1b[2;5r", "\x1b[5d", "\x1b[L",
                            "\x1b[M", "\x1b[S", "\x1b(0", "\x0e", "\x1b[", "\x1b]8;;"])
# a clear, lines, then a position on the screen: the rows it lands on depend on every line end before
PAGE = st.tuples(st.sampled_from(["\x1b[2J", "\x1b[H\x1b[2J", "\x1b[J"]), st.lists(LINE, max_size=8).map("".join),
                 st.sampled_from(["\x1b[H", "\x1b[2;1H", "\x1b[3d", "\x1b[2;4r\x1b[4;1H\n\n"]),
                 st.sampled_from(["xyz", "\x1b[2K", "ab\n"])).map("".join)
PART = st.one_of(PAGE, st.lists(LINE, max_size=40).map("".join),
                 st.lists(IN_PLACE, min_size=1, max_size=40).map("".join),
                 st.tuples(STOPPING, st.lists(IN_PLACE, max_size=10).map("".join)).map("".join),
                 st.integers(1, 30).map(lambda n: "\n" * n))


def same_screen(raw: str, released: str) -> bool:
    """The oracle's last word where its order of lines shown differs: the same lines end on the screen and
    in the history, and the same lines were shown (the oracle orders a row a redraw fills above by the
    clock of the last draw, and a draw split by SGR ticks that clock twice, so removing the SGR of a line
    above can reorder them: ``oracle/screen.py``'s ``_birth_time``; found here, reported, not changed)."""
    before, after = oracle.render(raw, terminal=False), oracle.render(released, terminal=False)
    return before.lines == after.lines and sorted(before.shown) == sorted(after.shown)


@settings(max_examples=scaled(300))
@given(parts=st.lists(PART, min_size=1, max_size=6), sizes=st.lists(st.sampled_from([1, 5, 30, 200, 5000]),
                                                                    min_size=1, max_size=8))
def test_generated_streams_are_lossless(parts: list[str], sizes: list[int]) -> None:
    raw = "".join(parts)
    stream = Stream()
    released, at, turn = [], 0, 0
    while at < len(raw):
        size = sizes[turn % len(sizes)]
        released.append(stream.feed(raw[at:at + size]))
        at, turn = at + size, turn + 1
    released.append(stream.close())
    out = "".join(released)
    if out == clean(raw, min_tokens=0, terminal=False).text:
        return  # held whole and cleaned at close(): the gate's own verdict, judged by the gate's tests
    assert oracle.check_lossless(raw, out, terminal=False).ok or same_screen(raw, out)


# --- a terminal of a known size: the sessions at the size they were recorded at -----------------------
SESSIONS = {s.name: s for s in load_sessions(FIXTURES / "sessions")}
SMALL_SESSIONS = sorted(name for name, s in SESSIONS.items() if len(s.raw) <= 3000)
#: tokens of the release over one-shot ``clean()`` at the recorded size (not fresh), where above 2 %:
#: a stretch that starts at a homing clear keeps the clear in front (8 tokens, and a CR before it), so
#: that rows after it stand where the raw puts them; a small session pays it visibly (9 of 84 tokens;
#: session_asciinema starts with one, kept at a terminal in use since red team 41's F41-2: 63 for 55)
SIZED_ABOVE_ONE_SHOT = {"session_asciinema_shell": 1.13, "session_asciinema": 1.15}


def at_size(name: str, fresh: bool) -> dict[str, object]:
    session = SESSIONS[name]
    return {"columns": session.columns, "rows": session.rows, "fresh": fresh}


def lossless_at(raw: bytes, released: str, display: dict[str, object]) -> bool:
    return bool(oracle.check_lossless(raw.decode("utf-8", "surrogateescape"), released, **display).ok)  # type: ignore[arg-type]


def test_the_sessions_are_there() -> None:
    assert len(SESSIONS) >= 10 and len(SMALL_SESSIONS) >= 4


@pytest.mark.parametrize("fresh", [False, True])
@pytest.mark.parametrize("name", sorted(SESSIONS))
@settings(max_examples=scaled(6), deadline=None)
@given(sizes=st.lists(st.integers(1, 4096), min_size=1, max_size=20))
def test_sessions_at_their_size_random_chunkings_are_lossless(name: str, fresh: bool, sizes: list[int]) -> None:
    raw, display = SESSIONS[name].raw, at_size(name, fresh)
    assert lossless_at(raw, streamed(raw, sizes, **display), display)


@pytest.mark.parametrize("name", sorted(SESSIONS))
def test_sessions_at_their_size_cost_one_shot_tokens(name: str) -> None:
    raw, display = SESSIONS[name].raw, at_size(name, False)
    one_shot = count(tokens_text(clean(raw, min_tokens=0, **display).text))  # type: ignore[arg-type]
    rng = random.Random(name)
    for _ in range(3):
        tokens = count(streamed(raw, [rng.randint(1, 4096) for _ in range(16)], **display))
        if name in SIZED_ABOVE_ONE_SHOT:
            assert one_shot * 1.02 < tokens <= one_shot * SIZED_ABOVE_ONE_SHOT[name]  # drop it once it is within
        else:
            assert tokens <= one_shot * 1.02


def tokens_text(text: str | bytes) -> str:
    return text.decode("utf-8", "surrogateescape") if isinstance(text, bytes) else text


@pytest.mark.parametrize("name", SMALL_SESSIONS)
def test_small_sessions_at_their_size_every_byte_offset_is_lossless(name: str) -> None:
    raw, display = SESSIONS[name].raw, at_size(name, False)
    whole = streamed(raw, [], **display)
    assert lossless_at(raw, whole, display)
    for offset in range(1, len(raw)):
        released = streamed(raw, [offset, len(raw)], **display)
        assert released == whole or lossless_at(raw, released, display), offset


def test_the_asciinema_shell_session_streams_past_its_clear() -> None:
    """A ``clear`` after the first released line no longer stops the cut points at a known size: the
    lines after it are released as they settle (each feed), cleaned."""
    raw, display = SESSIONS["session_asciinema_shell"].raw, at_size("session_asciinema_shell", False)
    stream = Stream(**display)  # type: ignore[arg-type]
    early = "".join(stream.feed(raw[i:i + 64]) for i in range(0, len(raw) // 2, 64))
    assert "$ python fetch.py" in early and "\x1b[?2004" not in early


# Each reading on its own, on the rules a terminal of a known size adds (the same expectations for both:
# a bug planted in either side's rule fails here, though the other side would still keep the stream safe).
READINGS = [pytest.param(lambda **size: cuts.CutFinder(**size), id="cleaner"),
            pytest.param(lambda **size: verify_cuts.CutCheck(**size), id="verifier")]


def read(make: object, text: str, columns: int, rows: int, chunk: int = 3) -> tuple[list[int], bool]:
    reading = make(columns=columns, rows=rows)  # type: ignore[operator]
    found = [offset for i in range(0, len(text), chunk) for offset in reading.feed(text[i:i + chunk])]
    stopped = getattr(reading, "stopped", None) or getattr(reading, "ended", None)
    return found, stopped is not None


@pytest.mark.parametrize("make", READINGS)
def test_rows_are_counted_at_the_width(make: object) -> None:
    # 25 cells at 10 columns take 3 rows: the line end before them is out of reach of a 4-row screen only
    # after one more row (the redraw on the first line keeps its line end waiting for the reach)
    text = "ab\rc\n" + "x" * 25 + "\n"
    assert read(make, text, 10, 4) == ([], False)
    assert read(make, text + "y\n", 10, 4) == ([33], False)  # 5 rows below the redraw: it and all before settle
    assert read(make, "ab\rc\n" + "x" * 10 + "\n" * 2, 10, 4) == ([], False)  # filled to the width: one row


@pytest.mark.parametrize("make", READINGS)
def test_the_reach_is_the_screen(make: object) -> None:
    lines = "".join(f"l{i}\n" for i in range(8))
    assert read(make, lines + "\x1b[5A", 10, 6)[1] is False
    assert read(make, lines + "\x1b[6A", 10, 6)[1] is True  # past the screen's top: terminals clamp or scroll
    assert read(make, "ab\rc\n" + lines, 10, 6)[0] == [23, 26, 29]  # more than 6 rows below the redraw


@pytest.mark.parametrize("make", READINGS)
def test_the_pending_wrap_column(make: object) -> None:
    full = "top\n" + "x" * 10
    assert read(make, full + "\x1b[A\rok\n", 10, 4)[1] is False  # carried by CUU, settled by CR
    assert read(make, full + "\x1b[A\x1b[2K\x1b[B\r\n", 10, 4)[1] is False
    assert read(make, full + "\x1b[Aok\n", 10, 4)[1] is True  # text where tmux and xterm hold apart
    assert read(make, full + "\bZ\n", 10, 4)[1] is True
    assert read(make, full + "y" * 3 + "\r\n", 10, 4)[1] is False  # the wrap itself
    # the margin reached by a run that wraps from the middle of a row: the column counts from where it began
    # (the finder once counted from 0 after the wrap when a colour split the text, and read on)
    split = "top\nabcde\x1b[1m0123456789\x1b[0mabcde"
    for chunk in (3, len(split) + 5):
        assert read(make, split + "\x1b[AX\n", 10, 4, chunk)[1] is True
        assert read(make, split + "\x1b[A\rX\n", 10, 4, chunk)[1] is False


@pytest.mark.parametrize("make", READINGS)
def test_widths_at_the_margin(make: object) -> None:
    assert read(make, "x" * 9 + "漢\n", 10, 4)[1] is True  # a wide character at the last column
    assert read(make, "x" * 8 + "漢\n", 10, 4) == ([10], False)
    assert read(make, "\u0301x\n", 10, 4)[1] is True  # a zero-width character with no cell before it
    assert read(make, "x" * 11 + "\r\bZ\n", 10, 4)[1] is True  # BS at a wrapped row's first column


@pytest.mark.parametrize("make", READINGS)
def test_a_homing_clear_is_a_cut_point_where_it_starts(make: object) -> None:
    head = "a\x1b[1mb\rc\n" + "partial"
    assert read(make, head + "\x1b[H\x1b[2J\x1b[3Jnext\n", 20, 5)[0] == [len(head), len(head) + 16]
    assert read(make, head + "\x1b[2J\x1b[Hnext\n", 20, 5)[0] == [len(head), len(head) + 12]
    assert read(make, head + "\x1b[?2004l\r\x1b[H\x1b[2J" + "l\n" * 3 + "\x1b[3A", 20, 5)[1] is False
    assert read(make, head + "\x1b[H\x1b[2J" + "l\n" * 3 + "\x1b[4A", 20, 5)[1] is True  # above the page's top
    for near_miss in ("\x1b[2J", "\x1b[H", "\x1b[HX\x1b[2J", "\x1b[H\x1b[1m\x1b[2J", "\x1b[2;1H\x1b[2J", "\x1b[3J"):
        assert read(make, head + near_miss + "next\n", 20, 5) == ([], True), near_miss


@pytest.mark.parametrize("make", READINGS)
def test_strings_tmux_reads_on_stop_at_a_terminal(make: object) -> None:
    assert read(make, "a\x1b]0;title\x07b\n", 20, 5) == ([13], False)
    assert read(make, "a\x1b_bk;t=1\x07b\n", 20, 5)[1] is True


@pytest.mark.parametrize("make", READINGS)
def test_sgr_inside_text_takes_no_cell(make: object) -> None:
    # the rows at the width as in test_rows_are_counted_at_the_width, with SGR between the cells (8 characters
    # that are no cells: counted as cells, the 25 cells would take 4 rows and settle a line end sooner)
    text = "ab\rc\n" + "x" * 5 + "\x1b[1m" + "x" * 20 + "\x1b[0m\n"
    assert read(make, text, 10, 4) == ([], False)
    assert read(make, text + "y\n", 10, 4) == ([41], False)
    assert read(make, "ab\rc\n" + "x\x1b[1m" * 10 + "\n" * 2, 10, 4) == ([], False)  # filled to the width: one row


@pytest.mark.parametrize("make", [pytest.param(cuts.CutFinder, id="cleaner"),
                                  pytest.param(verify_cuts.CutCheck, id="verifier")])
def test_a_line_of_sgr_and_spaces_is_blank(make: type) -> None:
    # for no terminal a line end settles at once after a written line, a blank one waits (programs come back to
    # draw on blank rows): SGR writes nothing on the row
    assert make().feed("\x1b[1m  \x1b[0m\n") == []
    assert make().feed("\x1b[1m x\x1b[0m\n") == [11]
