"""Rows redrawn in place at ``textclean.Stream``'s cut points (issue 40: a line written through a pipe
reaches ``textclean run``'s stdout within 100 ms of its line end).

A row redrawn only within itself (CR, BS, CHA / HPA / CUF / CUB, EL 0-2, ECH; no vertical move into or
out of it) counts as written left to right when its cells are what its text written left to right gives,
so a progress line is released at its own line end instead of 24 rows later. Each reading decides with
its own row model (``cut_finder._RowInPlace``, ``CutCheck``'s cells): both are checked here apart, on
the rows where that is true and on those where it is not (left blank, a trailing space, a gap left by
EL 1 / ECH / CUF, a tab, a wide character, the last column or a wrap at a size, a vertical move, a bar's
first frame only). The releases are judged by the oracle against the whole raw text: real captures with
CR progress fed a line at a time, and rows of each kind followed by a later move up into them (CUU /
CPL / RI) and a write or erase there, cut at every byte offset.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import oracle
from fixtures_gen.checks import load_fixtures
from textclean import Stream, clean
from textclean.pipeline.clean import CutFinder
from textclean.pipeline.tokens import token_counter
from textclean.pipeline.verify import CutCheck

FIXTURES = Path(__file__).parent / "fixtures"
CAPTURES = {f.name: f.raw for f in load_fixtures(FIXTURES)}
SIZES: list[dict[str, int]] = [{}, {"columns": 80, "rows": 24}]
count = token_counter(None)


def _shown(size: dict[str, int]) -> dict[str, object]:
    return dict(size) if size else {"terminal": False}


def lossless(raw: str, released: str, size: dict[str, int]) -> bool:
    return bool(oracle.check_lossless(raw, released, **_shown(size)).ok)  # type: ignore[arg-type]


def progress_frames(items: int) -> list[str]:
    """``benchmarks/stream.py``'s progress writer: CR + EL frames, then the line's last one and LF."""
    out = []
    for n in range(items):
        for f in range(0, 100, 10):
            out.append(f"\r\x1b[Kitem {n}: {f:3d}% [{'#' * (f // 10)}{' ' * (10 - f // 10)}]")
        out.append(f"\r\x1b[Kitem {n}: done\n")
    return out


@pytest.mark.parametrize("size", SIZES, ids=["no-terminal", "80x24"])
def test_each_progress_line_is_released_by_the_chunk_that_ends_it(size: dict[str, int]) -> None:
    frames = progress_frames(30)
    stream = Stream(**size)  # type: ignore[arg-type]
    released = []
    for frame in frames:
        out = stream.feed(frame.encode())
        assert out == (frame[frame.rindex("\r") + 4:] if frame.endswith("\n") else ""), frame
        released.append(out)
    assert stream.close() == ""
    assert lossless("".join(frames), "".join(released), size)


def cut_points(text: str, *, both: bool = True, **size: int) -> list[int]:
    """The cut points the cleaner's finder gives with rows followed in place (and the verifier's check
    agrees on, ``both``)."""
    found = CutFinder(len(text) + 1, in_place_rows=True, **size).feed(text)  # type: ignore[arg-type]
    checked = CutCheck(len(text) + 1, in_place_rows=True, **size).feed(text)  # type: ignore[arg-type]
    return sorted(set(found) & set(checked)) if both else found


HEAD = "head \x1b[1mline\x1b[0m\n"
#: rows redrawn within themselves whose cells are what their text written left to right gives
SETTLED = {
    "cr_el_frames": "\r\x1b[Kitem: 10%\r\x1b[Kitem: 50%\r\x1b[Kitem: done",
    "cr_over_longer": "item: 100%\ritem: ok",  # cells "item: ok0%": the cleaned line holds them too
    "bs_overwrite": "abc\b\bXY",
    "cub_cha_hpa": "abcdef\x1b[3Dxy\x1b[1Gz\x1b[2`W",
    "cuf_within_text": "abcdef\r\x1b[2Cxy",
    "el_2_then_text": "old text\x1b[2K\rnew",
    "ech_rewritten": "abcdef\r\x1b[3Xxyz",
}
#: rows redrawn within themselves that stay counted as redrawn (the rows within reach of them wait)
REDRAWN = {
    "left_blank": "abc\r\x1b[K",
    "left_spaces": "abc\r   ",
    "trailing_space": "abcd\r\x1b[Kab ",
    "el_1_gap": "abcdef\x1b[3G\x1b[1K",
    "ech_gap": "abcdef\r\x1b[2C\x1b[2X",
    "cuf_gap": "ab\r\x1b[K\x1b[5Cx",
    "tab": "a\tb\rc",
    "wide": "abc\r\x1b[K\u6f22",
    "combining": "abc\r\x1b[Ke\u0301",
    "vertical_out_and_back": "abc\x1b[A\x1b[B\rxy",
    "first_frame_only": "\r\x1b[Kbar   0%",  # tqdm's first frame: nested bars come back to it from below
    "ed_0": "abc\r\x1b[Jxy",
    # an EL after the text (grep's after a match, top's at each row's end) goes back over nothing: left a
    # redraw, for the tokens (top's page released row by row goes out raw after a later stop)
    "el_0_after_text": "abc\x1b[K",
}


@pytest.mark.parametrize("reading", ["finder", "check"])
@pytest.mark.parametrize("name", sorted(SETTLED) + sorted(REDRAWN))
def test_each_reading_takes_a_row_settled_in_place_only_when_its_cells_are_its_text(name: str, reading: str) -> None:
    row = SETTLED.get(name, REDRAWN.get(name))
    text = HEAD + row + "\n"
    cls = CutFinder if reading == "finder" else CutCheck
    cuts = cls(1 << 20, in_place_rows=True).feed(text)
    assert (len(text) in cuts) == (name in SETTLED)
    assert len(text) not in cls(1 << 20).feed(text)  # without rows followed in place: a redraw, as before


@pytest.mark.parametrize("reading", ["finder", "check"])
def test_at_a_size_a_row_at_the_last_column_or_wrapped_counts_as_redrawn(reading: str) -> None:
    cls = CutFinder if reading == "finder" else CutCheck
    for row, settled in (("abcdefghi\rxy", True), ("abcdefghij\rxy", False), ("abcdefghijkl\r\x1b[Kxy", False),
                         ("xy\x1b[20Cz\rq", False)):
        text = "head\n" + row + "\n"
        assert (len(text) in cls(1 << 20, in_place_rows=True, columns=10, rows=4).feed(text)) == settled, row


def later_moves(row: str) -> list[str]:
    """The row after a plain line, then a move up into it and something done there (or past it)."""
    body = HEAD + row + "\nnext \x1b[32mline\x1b[0m\n"
    return [body + move + act + "\x1b[9B\r\ntail \x1b[1m!\x1b[0m\n"
            for move in ("\x1b[2A", "\x1b[2F", "\x1bM\x1bM", "\x1b[3A")
            for act in ("Z", "\x1b[4CZ", "\x1b[K", "\x1b[2X", "\rQQ", "\x1b[1K")]


@pytest.mark.parametrize("size", SIZES, ids=["no-terminal", "80x24"])
@pytest.mark.parametrize("name", sorted(SETTLED) + sorted(REDRAWN))
def test_a_later_move_up_into_the_row_keeps_every_line_at_every_offset(name: str, size: dict[str, int]) -> None:
    row = SETTLED.get(name, REDRAWN.get(name))
    for raw in later_moves(row)[::5]:
        data = raw.encode()
        whole = Stream(**size)  # type: ignore[arg-type]
        released = {whole.feed(data) + whole.close()}
        for offset in range(1, len(data)):
            stream = Stream(**size)  # type: ignore[arg-type]
            released.add(stream.feed(data[:offset]) + stream.feed(data[offset:]) + stream.close())
        for text in released:
            assert lossless(raw, text, size), (raw, text)


#: captures with CR / BS / EL redraws whose every line end is a cut point once rows redrawn in place count
EVERY_LINE = ["cr_progress", "curl_bar", "curl_meter", "pip_spinner"]


@pytest.mark.parametrize("name", EVERY_LINE)
def test_captured_progress_is_released_line_by_line_losslessly(name: str) -> None:
    raw = CAPTURES[name].decode("utf-8", "surrogateescape")
    ends = [i + 1 for i, char in enumerate(raw) if char == "\n"]
    assert cut_points(raw) == ends  # every line end, where 24 rows of reach held them before:
    assert len(set(CutFinder(len(raw) + 1).feed(raw)) & set(CutCheck(len(raw) + 1).feed(raw))) < len(ends)
    stream = Stream()
    released, start = [], 0
    for end in ends:
        out = stream.feed(raw[start:end].encode("utf-8", "surrogateescape"))
        assert out, f"the line ending at {end} is held"
        released.append(out)
        start = end
    released.append(stream.feed(raw[start:].encode("utf-8", "surrogateescape")) + stream.close())
    text = "".join(released)
    assert lossless(raw, text, {})
    one_shot = count(clean(CAPTURES[name], min_tokens=0, terminal=False).text.decode("utf-8", "surrogateescape"))
    assert count(text) <= one_shot * 1.02
