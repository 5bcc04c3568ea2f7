"""The cleaner for each display a text was written for (issue 28, issue 22 item 3, issue 23), judged by
a live tmux: no terminal (tmux at its widest, strings ended at BEL removed first, as a log viewer
ends them), a terminal of unknown size, a terminal of a given size, a fresh terminal.

Only the cleaner is asked (``clean.candidate``); tmux decides whether its candidate keeps every line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fixtures_gen.checks import load_fixtures
from tests import tmux_judge
from textclean.pipeline import clean

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(not tmux_judge.available(), reason="tmux is not installed (.ci/run installs it)"),
]

WIDEST = 10_000  # tmux's widest window: no line of these texts wraps there
# What a log viewer removes before showing a line: DCS / SOS / PM / APC ended by BEL.
_BEL_ENDED = re.compile(rb"\x1b[PX^_][^\x1b\x07\x18\x1a]*\x07")
FIXTURES = load_fixtures(Path(__file__).parent / "fixtures")


@pytest.fixture(scope="module")
def judge_server():
    with tmux_judge.server() as srv:
        yield srv


def _no_terminal(text: str) -> str:
    return clean.candidate(text, columns=None, rows=None, terminal=False).text


def _judge(srv: tmux_judge.JudgeServer, raw: bytes, candidate: bytes, sizes: list[tuple[int, int]]) -> list[str]:
    case = tmux_judge.Case(raw, None, None, "display", sizes, candidate=candidate)
    tmux_judge.judge([case], srv)
    return case.problems


def _judge_no_terminal(srv: tmux_judge.JudgeServer, raw: bytes, candidate: str) -> list[str]:
    cleaned = _BEL_ENDED.sub(b"", candidate.encode("utf-8", "surrogateescape"))
    return _judge(srv, _BEL_ENDED.sub(b"", raw), cleaned, [(WIDEST, 24), (WIDEST, 60)])


# --- no terminal ------------------------------------------------------------------------------------
TQDM = b"".join(b"\r %3d%%|" % p + b"#" * p + b" " * (100 - p) + b"| %d/100 [00:01<00:00]" % p
                for p in range(0, 101, 10))


def test_no_terminal_has_no_right_margin(judge_server) -> None:
    """A progress line past column 80, redrawn by CR: an unknown-width terminal cannot tell where CR
    goes (an 80-column one wrapped it), no terminal can: the last redraw is the line."""
    raw = b"start\r\n" + TQDM + b"\r\ndone\r\n"
    with pytest.raises(clean.Refused, match="past column 80"):
        clean.candidate(raw.decode(), columns=None, rows=None)  # a terminal of unknown size: as before
    candidate = _no_terminal(raw.decode())
    assert candidate.splitlines()[1].startswith(" 100%|" + "#" * 100)
    assert _judge_no_terminal(judge_server, raw, candidate) == []


def test_no_terminal_moves_past_column_80_and_wide_rows_above_are_resolved(judge_server) -> None:
    long = b"x" * 150
    raw = long + b"\r\n" + long + b"\r\n\x1b[2A\x1b[120C!\r\n\r\n\x1b[200Cend\r\n"
    candidate = _no_terminal(raw.decode())
    assert _judge_no_terminal(judge_server, raw, candidate) == []


@pytest.mark.parametrize("fixture", FIXTURES, ids=[f.name for f in FIXTURES])
def test_every_capture_without_a_terminal_is_cleaned_and_keeps_every_line(judge_server, fixture) -> None:
    candidate = _no_terminal(fixture.text)
    assert len(candidate) < len(fixture.text)
    assert _judge_no_terminal(judge_server, fixture.raw, candidate) == []


# --- strings ended by BEL (issue 23 item 2) ---------------------------------------------------------
@pytest.mark.parametrize("intro", [b"\x1b_", b"\x1bP", b"\x1bPq", b"\x1bX", b"\x1b^"],
                         ids=["APC", "DCS", "DCS q", "SOS", "PM"])
def test_text_tmux_swallows_after_a_bel_ended_string_is_refused_at_a_terminal(judge_server, intro) -> None:
    raw = b"AB" + intro + b"x\x07\tCD\x1b\\\r\n"
    assert judge_server.show(raw, 80, 24).lines == ["AB"]  # tmux reads on past BEL and swallows TAB CD
    for size in ((None, None), (80, 24), (200, 24)):
        with pytest.raises(clean.Refused, match="tmux reads on"):
            clean.candidate(raw.decode(), columns=size[0], rows=size[1])
    assert _no_terminal(raw.decode()) == "AB\tCD\r\n"  # a log viewer ends it at BEL: as before


def test_sos_swallowing_a_space_and_text_at_200_columns_is_refused(judge_server) -> None:
    raw = b"wk\x1bXsos\x07 =0\x1b\\\n"
    assert judge_server.show(raw, 200, 24).lines == ["wk"]
    with pytest.raises(clean.Refused):
        clean.candidate(raw.decode(), columns=200, rows=24)


@pytest.mark.parametrize("raw", [
    b"AB\x1b_x\x07\x07\x1b\\GH\r\n",  # only BEL before tmux's end
    b"AB\x1b_x\x07\x1b[1mGH\r\n",  # the next ESC ends it in tmux too
    b"h\x1bP\x07\x1b[m3\r\n",  # a DCS before its data: the next ESC ends it in tmux too
    b"h\x1bP1;2\x07\x1b[m3\r\n",
], ids=["bel", "esc", "dcs-before-data", "dcs-parameters"])
def test_where_tmux_shows_no_less_of_the_line_a_bel_ended_string_is_cleaned(judge_server, raw) -> None:
    candidate = clean.candidate(raw.decode(), columns=80, rows=24).text.encode()
    assert _judge(judge_server, raw, candidate, [(80, 24)]) == []


def test_a_buildkite_timestamp_at_a_terminal_is_refused_though_tmux_shows_nothing_of_its_line(judge_server) -> None:
    """tmux swallows `step 1` (the APC runs on to the next ESC): a terminal that ends it at BEL shows
    more than tmux's line, which is not the same line. With no terminal a log viewer ends it at BEL."""
    raw = b"\x1b_bk;t=1\x07step 1\x1b[m\r\nnext\r\n"
    assert judge_server.show(raw, 80, 24).lines == ["", "next"]
    for size in ((None, None), (80, 24)):
        with pytest.raises(clean.Refused, match="tmux reads on"):
            clean.candidate(raw.decode(), columns=size[0], rows=size[1])
    assert _no_terminal(raw.decode()) == "step 1\r\nnext\r\n"


# --- a fresh terminal (issue 22 item 3) -------------------------------------------------------------
FRESH = {
    "absolute positions": b"title\x1b[3;5Hthird\x1b[2;1Hsecond\x1b[5;1H",
    "a scroll region (dpkg-style status line)": (
        b"\x1b[1;4r\x1b[5;1H\x1b[7mProgress: [ 10%]\x1b[m\x1b[1;1H"
        + b"".join(b"Unpacking pkg%d ...\r\n" % i for i in range(8))
        + b"\x1b[5;1H\x1b[7mProgress: [100%]\x1b[m\x1b[r\x1b[5;1H\r\n"
    ),
    "the alternate screen, then an absolute position": (
        b"top\x1b[?1049h\x1b[2;3Hin alt\x1b[?1049l\x1b[3;1Hafter\r\n"),
    "?47 out, the cursor where the alternate screen had it": b"top\x1b[?47h\x1b[2;3Hin alt\x1b[?47l\x1b[3;1Hafter\r\n",
}


@pytest.mark.parametrize("raw", FRESH.values(), ids=FRESH.keys())
def test_a_fresh_terminal_resolves_the_first_page(judge_server, raw: bytes) -> None:
    """tmux's pane is a new terminal, as ``fresh`` says; without it the first page's top is unknown."""
    text = raw.decode()
    with pytest.raises(clean.Refused):
        clean.candidate(text, columns=40, rows=6)
    candidate = clean.candidate(text, columns=40, rows=6, fresh=True).text.encode()
    assert _judge(judge_server, raw, candidate, [(40, 6)]) == []


def test_fresh_means_nothing_without_a_terminal() -> None:
    raw = "title\x1b[3;5Hthird\r\n"
    with pytest.raises(clean.Refused):
        clean.candidate(raw, columns=None, rows=None, terminal=False, fresh=True)


# --- a line end before a break that erases the scrollback (issue 23 item 1) -------------------------
ERASED_HISTORY = {
    "ED 3 at 2x2": (b"\x1b[1mA\x1b[m\nB\x1b[3J\x1b[H\x1b[2Jx\x1b[5ay", 2, 2),
    "RIS at 2x2": (b"\x1b[1mA\x1b[m\nB\nC\x1b[3J\x1bcx\x1b[5ay", 2, 2),
    "ED 3 at 80x24": (b"\x1b[1mA\x1b[m\n" + b"".join(b"L%d\n" % i for i in range(24))
                      + b"B\x1b[3J\x1b[H\x1b[2Jx\x1b[5ay", 80, 24),
    "ED 3, unknown size": (b"\x1b[1mA\x1b[m\n" + b"".join(b"L%d\n" % i for i in range(24))
                           + b"B\x1b[3J\x1b[H\x1b[2Jx\x1b[5ay", None, None),
}


@pytest.mark.parametrize(("raw", "columns", "rows"), ERASED_HISTORY.values(), ids=ERASED_HISTORY.keys())
def test_no_line_end_is_added_before_a_kept_page_that_erases_the_scrollback(judge_server, raw, columns, rows) -> None:
    proposal = clean.candidate(raw.decode(), columns=columns, rows=rows)
    assert proposal.pages_kept == 1
    sizes = [(columns, rows)] if columns else [(80, 24), (200, 60)]
    assert _judge(judge_server, raw, proposal.text.encode(), sizes) == []


# --- sizes at tmux's limits (issue 23 item 3) -------------------------------------------------------
@pytest.mark.parametrize(("raw", "columns", "rows"), [
    ("\x1b[2Jx", 2, 10_000),
    ("\x1b[H\x1b[2Jx\x1b[9999;1Hy\r\n", 80, 10_000),
    ("\x1b[H\x1b[2Jx\x1b[9999;9999Hy\r\n", 10_000, 10_000),
    ("\x1b[H\x1b[2J" + "x" * 30_000 + "\x1b[1;1H\x1b[5000Lq\r\n", 10_000, 10_000),
])
def test_sizes_at_tmux_s_limits_give_a_candidate_or_a_refusal(raw, columns, rows) -> None:
    try:
        clean.candidate(raw, columns=columns, rows=rows)
    except clean.Refused as refusal:
        assert refusal.reason == "unsupported_control"


# --- found judging the cleaner's own candidates in all displays (a red team of its own) -------------
def test_rep_past_the_right_margin_is_refused(judge_server) -> None:
    """tmux 3.3a repeats only up to the right margin; xterm wraps on."""
    raw = b"pmi\r\nkprc" + b"\x1b[32b" + b"rj\r\n"
    assert judge_server.show(raw, 10, 4).lines == ["pmi", "kprccccccc", "rj"]
    with pytest.raises(clean.Refused, match="REP"):
        clean.candidate(raw.decode(), columns=10, rows=4)
    assert clean.candidate(raw.decode(), columns=None, rows=None).text == "pmi\r\nkprc" + "c" * 32 + "rj\r\n"
    past_80 = b"\x1b[H\x1b[2Jpmi\r\nkprc\x1b[90brj\r\n"  # an unknown width is at least 80 columns
    with pytest.raises(clean.Refused, match="REP"):
        clean.candidate(past_80.decode(), columns=None, rows=None)


@pytest.mark.parametrize("shift", [b"\x1b[1L", b"\x1b[1T", b"\x1bM"], ids=["IL", "SD", "RI"])
def test_a_wrapped_line_moved_down_is_refused(judge_server, shift: bytes) -> None:
    """tmux 3.3a splits a wrapped line that IL, SD or RI move down (scrolling up keeps it joined)."""
    raw = b"\x1b[H\x1b[2JabcdefghijKLM\x1b[1;1H" + shift + b"\r\n"
    joined = judge_server.show_many([(raw, 10, 6)], join_wrapped=True)[0].lines
    assert "abcdefghijKLM" not in joined and "abcdefghij" in joined
    with pytest.raises(clean.Refused):
        clean.candidate(raw.decode(), columns=10, rows=6)


def test_no_terminal_refuses_a_move_past_the_widest_terminal() -> None:
    with pytest.raises(clean.Refused, match="10000"):
        _no_terminal("ab\x1b[65535Cc\r\n")
    assert _no_terminal("ab\x1b[150Cc\r\n") == "ab" + " " * 150 + "c\r\n"


def test_a_switch_back_to_the_main_screen_is_kept_where_the_candidate_switched_away(judge_server) -> None:
    """A kept page, then a cleaned page whose break (which the candidate holds, after a kept page) enters
    the alternate screen, then a cleaned page whose break returns to the main screen and clears it: the
    candidate returns too, else the main screen's rows (the kept page's) never reach the scrollback."""
    raw = (b"\x1b[H\x1b[2Jp0\r\n\x1b[3J\x1b[H\x1b[2JH0 eyoa\nF1 t869cs\x1b[H\nG2 q7s\nB3 ol0\n\x1b[11;1HX\x1b[L\r\n"
           b"\x1b[?1049h\x1b[H\x1b[2JC0 cz\r\nH1 2g\r\n\x1b[?1049l\x1b[H\x1b[2JA0 2g\r\nA1 0c\r\n")
    proposal = clean.candidate(raw.decode(), columns=80, rows=24)
    assert proposal.pages_kept == 1 and "\x1b[?1049l" in proposal.text
    assert _judge(judge_server, raw, proposal.text.encode(), [(80, 24)]) == []


def test_autowrap_on_the_last_row_below_a_region_is_refused(judge_server) -> None:
    """A fresh page under a region carried across a clear: the wrap at the screen's last row, below the
    region, does not move the cursor in tmux (the row is written over from its first column)."""
    raw = b"\x1b[5;8r\x1b[H\x1b[2Jrg9\x1b[10;40Hyxkw\r\n"
    assert judge_server.show(raw, 40, 10).lines[-1] == "xkw" + " " * 36 + "y"
    with pytest.raises(clean.Refused):
        clean.candidate(raw.decode(), columns=40, rows=10, fresh=True)


def test_a_scroll_region_past_row_24_of_an_unknown_height_is_refused(judge_server) -> None:
    """tmux at 24 rows ignores DECSTBM 32 (its top is past the screen); a 50-row terminal sets it."""
    raw = b"\x1b[H\x1b[2J\x1b[32rp0\r\n\x1b[H\x1b[2JA0\r\nF1 sj\nF2\r\n\x1b[S\r\nB12\x1b[3A\r\nD17\x1b[H\nG18\r\n"
    short, tall = judge_server.show_many([(raw, 80, 24), (raw, 80, 50)])
    assert short.lines != tall.lines
    for display in ({"columns": None, "rows": None}, {"columns": None, "rows": None, "terminal": False}):
        with pytest.raises(clean.Refused):
            clean.candidate(raw.decode(), **display)
