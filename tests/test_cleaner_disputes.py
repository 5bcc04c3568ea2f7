"""The cleaner's disputes (issue 22 item 1, docs/design.md "Disputes: the cleaner"), judged by a live tmux.

At the pending-wrap column (a row written to exactly its last column) terminals disagree on the
cursor's column and on whether the next character wraps once a move, a backspace, a tab or an erase
acts there. The cleaner records the dispute and goes on: what settles it (CR, LF, CNL / CPL, CHA,
CUP, ...) lets the page be cleaned, and tmux must then show every line of the raw in the candidate;
what reads it (a character, a relative move, an erase whose reach depends on the column, ...) is
refused. Only the cleaner is asked here (``clean.candidate``), never the verifier.
"""

from __future__ import annotations

import random

import pytest

from tests import tmux_judge
from textclean.pipeline import clean
from textclean.pipeline.clean import walk

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(not tmux_judge.available(), reason="tmux is not installed (.ci/run installs it)"),
]

ROW = b"0123456789"  # exactly the width of a 10-column screen: the cursor ends at the pending-wrap column
HOME = b"\x1b[H\x1b[2J"  # a page whose top is known (for absolute moves)


@pytest.fixture(scope="module")
def judge_server():
    with tmux_judge.server() as srv:
        yield srv


def _propose(raw: bytes, columns: int, rows: int) -> bytes:
    return clean.candidate(raw.decode(), columns=columns, rows=rows).text.encode()


def _judge(srv: tmux_judge.JudgeServer, raw: bytes, candidate: bytes, columns: int, rows: int) -> list[str]:
    case = tmux_judge.Case(raw, columns, rows, "dispute", [(columns, rows)], candidate=candidate)
    tmux_judge.judge([case], srv)
    return case.problems


# Each creates a dispute at the pending-wrap column, carries it through what neither reads nor settles
# it, then settles it; the candidate must hold every line tmux shows.
SETTLED = {
    "CUU, then CR": b"hdr\r\n" + ROW + b"\x1b[1A\r\x1b[2Kxy\r\n",
    "CUU, EL 2 (carried), then CR": b"hdr\r\n" + ROW + b"\x1b[1A\x1b[2K\rxy\r\n",
    "CUU, CUD (carried), then CR": b"hdr\r\n" + ROW + b"\x1b[1A\x1b[1B\rX\r\n",
    "CUU, then CHA": b"hdr\r\n" + ROW + b"\x1b[1A\x1b[3GX\r\n",
    "CUU, then HPA": b"hdr\r\n" + ROW + b"\x1b[1A\x1b[3`X\r\n",
    "CUU, then LF (LF implies CR)": b"hdr\r\n" + ROW + b"\x1b[1A\nX\r\n",
    "CUU, then CPL": b"a\r\nb\r\n" + ROW + b"\x1b[1A\x1b[1FX\r\n",
    "CUU, then CNL": b"hdr\r\n" + ROW + b"\x1b[1A\x1b[1EX\r\n",
    "CUU, then CUP": HOME + b"hdr\r\n" + ROW + b"\x1b[1A\x1b[1;3HX\r\n",
    "VPA (carried), then CR": HOME + b"hdr\r\n" + ROW + b"\x1b[1d\rX\r\n",
    "RI (carried), then CR": b"hdr\r\n" + ROW + b"\x1bM\rX\r\n",
    "IND (carried), then CR": b"hdr\r\nmid\r\n" + ROW + b"\x1b[2A\x1bD\rX\r\n",
    "BS, then CR": b"hdr\r\n" + ROW + b"\x08\rX\r\n",
    "CUB, then CR": b"hdr\r\n" + ROW + b"\x1b[3D\rX\r\n",
    "CUF, then CR": b"hdr\r\n" + ROW + b"\x1b[C\rX\r\n",
    "HT, then CR": b"hdr\r\n" + ROW + b"\t\rX\r\n",
    "EL 2 at the pending-wrap column, then CR": b"hdr\r\n" + ROW + b"\x1b[2K\rX\r\n",
    "EL 1 at the pending-wrap column, then CR": b"hdr\r\n" + ROW + b"\x1b[1K\rX\r\n",
    "CUU, then the end of the text": b"hdr\r\n" + ROW + b"\x1b[1A",
    "CUU, then DECRC (a position saved before)": b"hdr\r\n\x1b7" + ROW + b"\x1b[1A\x1b8X\r\n",
}


@pytest.mark.parametrize("raw", SETTLED.values(), ids=SETTLED.keys())
def test_a_settled_dispute_is_cleaned_and_tmux_shows_every_line(judge_server, raw: bytes) -> None:
    candidate = _propose(raw, 10, 4)
    assert _judge(judge_server, raw, candidate, 10, 4) == []


# Each reads the disputed column before anything settles it: refused (tmux and xterm differ there).
READ = {
    "CUU, then a character": b"hdr\r\n" + ROW + b"\x1b[1AX\r\n",
    "BS, then a character": b"hdr\r\n" + ROW + b"\x08X\r\n",
    "two BS": b"hdr\r\n" + ROW + b"\x08\x08X\r\n",
    "CUU, then BS": b"hdr\r\n" + ROW + b"\x1b[1A\x08\rX\r\n",
    "CUU, then CUB": b"hdr\r\n" + ROW + b"\x1b[1A\x1b[2D\rX\r\n",
    "CUU, then CUF": b"hdr\r\n" + ROW + b"\x1b[1A\x1b[C\rX\r\n",
    "CUU, then HT": b"hdr\r\n" + ROW + b"\x1b[1A\t\rX\r\n",
    "CUU, then EL 0": b"hdr\r\n" + ROW + b"\x1b[1A\x1b[K\rX\r\n",
    "CUU, then EL 1": b"hdr\r\n" + ROW + b"\x1b[1A\x1b[1K\rX\r\n",
    "CUU, then ECH": b"hdr\r\n" + ROW + b"\x1b[1A\x1b[2X\rX\r\n",
    "CUU, then DCH": b"hdr\r\n" + ROW + b"\x1b[1A\x1b[2P\rX\r\n",
    "CUU, then ICH": b"hdr\r\n" + ROW + b"\x1b[1A\x1b[2@\rX\r\n",
    "CUU, then DECSC": b"hdr\r\n" + ROW + b"\x1b[1A\x1b7\rX\r\n",
    "CUU, then REP": b"hdr\r\n" + ROW + b"\x1b[1A\x1b[3b\rX\r\n",
    "IND (carried), then a character": b"hdr\r\nmid\r\n" + ROW + b"\x1b[2A\x1bDX\r\n",
    "RI (carried), then a character": b"hdr\r\n" + ROW + b"\x1bMX\r\n",
    "VPA (carried), then a character": HOME + b"hdr\r\n" + ROW + b"\x1b[1dX\r\n",
    "ED 2 (carried), then a character": HOME + b"hdr\r\n" + ROW + b"\x1b[2JX\r\n",
}


@pytest.mark.parametrize("raw", READ.values(), ids=READ.keys())
def test_what_reads_a_dispute_is_refused(raw: bytes) -> None:
    with pytest.raises(clean.Refused):
        _propose(raw, 10, 4)


def test_tmux_and_xterm_differ_where_a_backspace_reads_the_pending_wrap_column(judge_server) -> None:
    """Why BS at the pending-wrap column is a dispute: tmux 3.3a steps back from past the last column
    (``X`` over ``9``); xterm stands on the last column and steps back from there (``X`` over ``8``)."""
    assert judge_server.show(b"hdr\r\n" + ROW + b"\x08X\r\n", 10, 4).lines == ["hdr", "012345678X"]


def test_a_dispute_carried_over_a_break_that_does_not_home_leaves_the_next_page_unknown() -> None:
    """ED 2 alone keeps the cursor where it stood: the next page's column is disputed, so its text is
    not placed at a column the model would guess (the page is kept as raw bytes, or refused)."""
    raw = HOME + b"hdr\r\n" + ROW + b"\x1b[1A\x1b[2JX\r\n"
    try:
        proposal = clean.candidate(raw.decode(), columns=10, rows=4)
    except clean.Refused:
        return
    assert proposal.segments is not None and proposal.segments[-1].text is None


# Progress displays of uv / pip / cargo / indicatif / rich: bars padded to exactly the width, redrawn
# with CUU, CR and EL 2 (the padded-to-width case), at a few sizes.
def _multi_bar(columns: int, bars: int, frames: int) -> bytes:
    out = [b"Resolving dependencies\r\n"]
    for frame in range(frames):
        for bar in range(bars):
            label = f"pkg{bar} {frame * 100 // (frames - 1):3d}% ".encode()
            filled = (columns - len(label)) * frame // (frames - 1)
            out.append(label + b"#" * filled + b"-" * (columns - len(label) - filled))
            if bar < bars - 1:
                out.append(b"\r\n")
        if frame < frames - 1:
            out.append((b"\x1b[1A\r\x1b[2K" * (bars - 1)) + b"\r\x1b[2K" if bars > 1 else b"\r\x1b[2K")
    out.append(b"\r\nInstalled 3 packages\r\n")
    return b"".join(out)


@pytest.mark.parametrize(("columns", "rows", "bars"), [(40, 10, 3), (80, 24, 2), (160, 40, 4)])
def test_multi_bar_progress_at_the_width_is_cleaned_and_keeps_every_line(judge_server, columns, rows, bars) -> None:
    raw = _multi_bar(columns, bars, 6)
    candidate = _propose(raw, columns, rows)
    assert len(candidate) < len(raw) // 3
    assert candidate.endswith(b"Installed 3 packages\r\n")
    assert _judge(judge_server, raw, candidate, columns, rows) == []


def test_the_dispute_is_the_screen_model_s_state_not_a_refusal() -> None:
    """The walk itself: after CUU at the pending-wrap column the model records the dispute, CR clears it."""
    segments = walk.resolve((b"hdr\r\n" + ROW + b"\x1b[1A\r\x1b[2Kxy\r\n").decode(), columns=10, rows=4)
    assert [s.text for s in segments] == ["xy\r\n0123456789"]


# At an unknown width (at least 80 columns), a row of exactly 80 cells leaves an 80-column terminal at
# its pending-wrap column and a wider one at column 81: the same dispute, judged at 80 and 200 columns.
ROW_80 = b"0123456789" * 8
UNKNOWN_SETTLED = {
    "CUU, then CR": b"hdr\r\n" + ROW_80 + b"\x1b[1A\r\x1b[2Kxy\r\n",
    "CUU, EL 2, then CR": b"hdr\r\n" + ROW_80 + b"\x1b[1A\x1b[2K\rxy\r\n",
    "EL 2, then CR": b"hdr\r\n" + ROW_80 + b"\x1b[2K\rxy\r\n",
    "CUU, then CHA": b"hdr\r\n" + ROW_80 + b"\x1b[1A\x1b[3GX\r\n",
    "CUU, CUD, then LF": b"hdr\r\n" + ROW_80 + b"\x1b[1A\x1b[1B\nX\r\n",
}
UNKNOWN_READ = {
    "CUU, then a character": b"hdr\r\n" + ROW_80 + b"\x1b[1AX\r\n",
    "CUU, then HT": b"hdr\r\n" + ROW_80 + b"\x1b[1A\t\rX\r\n",
    "CUU, then BS": b"hdr\r\n" + ROW_80 + b"\x1b[1A\x08\rX\r\n",
    "CUU, then EL 0": b"hdr\r\n" + ROW_80 + b"\x1b[1A\x1b[K\rX\r\n",
}


@pytest.mark.parametrize("raw", UNKNOWN_SETTLED.values(), ids=UNKNOWN_SETTLED.keys())
def test_a_settled_dispute_at_an_unknown_width_is_cleaned(judge_server, raw: bytes) -> None:
    candidate = clean.candidate(raw.decode(), columns=None, rows=None).text.encode()
    case = tmux_judge.Case(raw, None, None, "dispute", [(80, 24), (200, 60)], candidate=candidate)
    tmux_judge.judge([case], judge_server)
    assert case.problems == []


@pytest.mark.parametrize("raw", UNKNOWN_READ.values(), ids=UNKNOWN_READ.keys())
def test_what_reads_a_dispute_at_an_unknown_width_is_refused(raw: bytes) -> None:
    with pytest.raises(clean.Refused):
        clean.candidate(raw.decode(), columns=None, rows=None)


def test_tmux_at_80_and_200_columns_disagree_on_a_character_after_the_move(judge_server) -> None:
    raw = b"hdr\r\n" + ROW_80 + b"\x1b[1AX\r\n"
    narrow, wide = judge_server.show_many([(raw, 80, 24), (raw, 200, 24)])
    assert narrow.lines[0] == "hdr" + " " * 76 + "X" and wide.lines[0] == "hdr" + " " * 77 + "X"


# Generated: rows padded to the width, then a creator, carriers, and a settler or a reader, in random
# order and number; the cleaner's candidates (where it proposes one) judged by tmux at the size.
CREATORS = [b"\x1b[1A", b"\x1b[A", b"\x08", b"\x1b[2D", b"\x1b[C", b"\t", b"\x1b[2K", b"\x1b[1K", b"\x1bM", b"\x1b[1B"]
CARRIERS = [b"\x1b[1A", b"\x1b[1B", b"\x1b[2K", b"\x1bM", b"\x1b[m", b"\x1b]0;t\x07"]
SETTLERS = [b"\r", b"\n", b"\r\n", b"\x1b[1G", b"\x1b[5G", b"\x1b[1E", b"\x1b[1F", b"\x1bE"]
READERS = [b"X", b"\x08", b"\x1b[D", b"\x1b[C", b"\t", b"\x1b[K", b"\x1b[1K", b"\x1b[X", b"\x1b[P", b"\x1b[@", b"\x1b7"]


def _dispute_stream(rng: random.Random, columns: int) -> bytes:
    out = [b"head\r\n"]
    for _ in range(rng.randint(1, 4)):
        for _ in range(rng.randint(1, 3)):
            out.append(b"".join(rng.choice([b"#", b"-", b"a", b" "]) for _ in range(columns)))
            out.append(rng.choice([b"", b"\r\n"]))
        out.append(rng.choice(CREATORS))
        out.extend(rng.choice(CARRIERS) for _ in range(rng.randint(0, 2)))
        out.append(rng.choice(SETTLERS) if rng.random() < 0.7 else rng.choice(READERS))
        out.append(b"".join(rng.choice([b"x", b"y", b"z"]) for _ in range(rng.randint(0, 6))))
    out.append(b"\r\ndone\r\n")
    return b"".join(out)


def test_generated_dispute_streams_keep_every_line(judge_server) -> None:
    rng = random.Random(22)
    cases = []
    for _ in range(80):
        columns, rows = rng.choice([(10, 4), (40, 10), (80, 24), (160, 40)])
        raw = _dispute_stream(rng, columns)
        try:
            candidate = _propose(raw, columns, rows)
        except clean.Refused:
            continue
        cases.append(tmux_judge.Case(raw, columns, rows, "disputes", [(columns, rows)], candidate=candidate))
    assert len(cases) >= 15  # the batch exercises adoptions, not only refusals
    tmux_judge.judge(cases, judge_server)
    assert [(c.raw, c.problems) for c in cases if c.problems] == []


# --- The wrap of a line one of whose rows is erased whole (issue 22, the uv / indicatif layout) -------
# A row padded to exactly the width with the next text right after it: autowrap joins them into one
# line. EL 2 (or ECH of the whole row) on either row then splits that line in tmux 3.3a (the row's
# own wrap flag and the one into it are dropped); xterm keeps the flag (its ClearLine never clears it)
# and ghostty copies xterm. The cleaner records the join as disputed and goes on.
WRAPPED = b"hdr\r\n" + ROW + b"ab"  # rows "0123456789" and "ab": one line
ERASE_BOTH = b"\x1b[1A\r\x1b[2K\x1b[1B\r\x1b[2K\x1b[1A"  # uv's frame erase: both rows, back to the first

JOIN_SETTLED = {
    "both rows erased, redrawn wrapping, erased, then lines": WRAPPED + ERASE_BOTH + b"9876543210cd" + ERASE_BOTH
    + b"done\r\nnext\r\n",
    "the first row erased, then re-wrapped (autowrap sets the flag in every terminal)": WRAPPED
    + b"\x1b[1A\r\x1b[2KABCDEFGHIJk\r\n",
    "the continuation row erased, the page ends with it blank": WRAPPED + b"\r\x1b[2K",
    "ECH of the whole first row, EL 2 of the second, then a line": WRAPPED + b"\x1b[1A\r\x1b[10X\x1b[1B\r\x1b[2Kx\r\n",
    "uv's last frame: padded to the width, CR, EL 2, then lines": WRAPPED + ERASE_BOTH + ROW + b"\r\x1b[2K"
    + b"Prepared\r\nInstalled\r\n + pkg\r\n",
}


@pytest.mark.parametrize("raw", JOIN_SETTLED.values(), ids=JOIN_SETTLED.keys())
def test_a_settled_join_dispute_is_cleaned_and_tmux_shows_every_line(judge_server, raw: bytes) -> None:
    candidate = _propose(raw, 10, 4)
    assert b"\x1b" not in candidate
    assert _judge(judge_server, raw, candidate, 10, 4) == []


JOIN_READ = {
    "the first row erased and rewritten short, the continuation still holds text": WRAPPED
    + b"\x1b[1A\r\x1b[2Knew\r\n",
    "the continuation row erased, then text in it": WRAPPED + b"\r\x1b[2Kcd\r\n",
    "the first row erased, the page ends with text after it": WRAPPED + b"\x1b[1A\r\x1b[2K",
}


@pytest.mark.parametrize("raw", JOIN_READ.values(), ids=JOIN_READ.keys())
def test_what_reads_a_join_dispute_is_refused(raw: bytes) -> None:
    with pytest.raises(clean.Refused):
        _propose(raw, 10, 4)


def test_tmux_splits_a_wrapped_line_whose_row_is_erased(judge_server) -> None:
    """Why the join is disputed: tmux 3.3a shows two lines where xterm's flag still joins them
    (``new`` padded to the width, then ``ab``)."""
    split, joined = judge_server.show_many([(WRAPPED + b"\x1b[1A\r\x1b[2Knew\r\n", 10, 4),
                                            (WRAPPED + b"\r\n", 10, 4)], join_wrapped=True)
    assert split.lines == ["hdr", "new", "ab"]
    assert joined.lines == ["hdr", "0123456789ab"]


@pytest.mark.parametrize("name", ["uv_install_80x24", "uv_install_120x40", "uv_install_160x40"])
def test_uv_captures_are_cleaned_near_their_ideal_and_tmux_shows_every_line(judge_server, name: str) -> None:
    """The captured uv runs (indicatif bars padded to the width, CUU, CR, EL 2) at their sizes."""
    import json
    from pathlib import Path

    import oracle

    path = Path(__file__).parent / "fixtures" / "progress" / f"{name}.raw"
    meta = json.loads(path.with_suffix(".json").read_text())
    raw = path.read_bytes()
    columns, rows = meta["columns"], meta["lines"]
    candidate = _propose(raw, columns, rows)
    ideal = oracle.ideal_lines(raw.decode(), columns=columns, rows=rows)
    assert len(candidate) <= 2 * len("\n".join(ideal).encode())
    assert _judge(judge_server, raw, candidate, columns, rows) == []


def _join_stream(rng: random.Random, columns: int) -> bytes:
    """Frames in uv's layout (a row padded to the width, the next text right after it), erased and
    redrawn with the erases programs use, some of them leaving text in the row a line wrapped into."""
    out = [b"head\r\n"]
    for _ in range(rng.randint(1, 5)):
        label = b"".join(rng.choice([b"a", b"b", b" "]) for _ in range(rng.randint(0, columns - 1)))
        out.append(label.ljust(columns, b" "))
        out.append(b"".join(rng.choice([b"#", b"-"]) for _ in range(rng.randint(0, columns // 2))))
        out.append(rng.choice([
            ERASE_BOTH, ERASE_BOTH, b"\x1b[1A\r\x1b[2K", b"\r\x1b[2K", b"\x1b[1A\r\x1b[2K\x1b[1B\r\x1b[2K",
            b"\x1b[1A\r\x1b[" + str(columns).encode() + b"X", b"\r\n", b"\x1b[1A\r\x1b[K\x1b[1B\r\x1b[K\x1b[1A",
        ]))
        out.append(rng.choice([b"", b"x", b"done\r\n", b"line one\r\nline two\r\n"]))
    out.append(rng.choice([b"", b"\r\nend\r\n"]))
    return b"".join(out)


def test_generated_join_streams_keep_every_line(judge_server) -> None:
    rng = random.Random(2222)
    cases, refused = [], 0
    for _ in range(150):
        columns, rows = rng.choice([(10, 4), (20, 6), (40, 10)])
        raw = _join_stream(rng, columns)
        try:
            candidate = _propose(raw, columns, rows)
        except clean.Refused:
            refused += 1
            continue
        cases.append(tmux_judge.Case(raw, columns, rows, "joins", [(columns, rows)], candidate=candidate))
    assert len(cases) >= 40 and refused >= 5  # both sides of the dispute are exercised
    tmux_judge.judge(cases, judge_server)
    assert [(c.raw, c.problems) for c in cases if c.problems] == []
