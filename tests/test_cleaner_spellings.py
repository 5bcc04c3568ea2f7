"""One fact, every spelling (issue 24 item 1), on the cleaner's side: a sequence written with leading
zeros or empty fields is read as terminals read it, the number, so the cleaner's page breaks and
clears do not depend on how a program spelled them (``\\x1b[01;01H\\x1b[2J`` in mid-text was kept raw
where ``\\x1b[H\\x1b[2J`` was cleaned). Each variant must give the very same candidate (or the same
refusal) as its plain spelling, and tmux 3.3a must show every line of the raw in it.
"""

from __future__ import annotations

import pytest

from tests import tmux_judge
from textclean.pipeline import clean

BEFORE = "line one\r\nline two\r\n"
AFTER = "new screen\r\nmore\r\n"

#: (plain spelling, variants): each put between BEFORE and AFTER
SPELLINGS = {
    "home then ED 2": ("\x1b[H\x1b[2J", ["\x1b[01;01H\x1b[2J", "\x1b[;H\x1b[2J", "\x1b[001;001H\x1b[02J",
                                          "\x1b[1;H\x1b[2J", "\x1b[;1f\x1b[002J", "\x1b[0;0H\x1b[2J"]),
    "home then ED 0": ("\x1b[H\x1b[J", ["\x1b[01;01H\x1b[0J", "\x1b[;H\x1b[00J", "\x1b[001f\x1b[J"]),
    "ED 2 alone": ("\x1b[2J", ["\x1b[02J", "\x1b[0002J"]),
    "ED 3 then home": ("\x1b[3J\x1b[H", ["\x1b[03J\x1b[H", "\x1b[3J\x1b[01;01H"]),
    "alternate screen in and out": ("\x1b[?1049hfull\r\n\x1b[?1049l", ["\x1b[?01049hfull\r\n\x1b[?1049l",
                                                                      "\x1b[?1049hfull\r\n\x1b[?001049l"]),
    # a mode list is its modes one by one (tmux 3.3a, xterm): the switch with a cursor mode beside it
    "a switch and the cursor shown": ("\x1b[?1049h\x1b[?25hfull\r\n\x1b[?25l\x1b[?1049l",
                                      ["\x1b[?1049;25hfull\r\n\x1b[?25;1049l"]),
    "the cursor hidden around a redraw": ("\x1b[?25lstep 1\rstep 2\x1b[?25h\r\n",
                                          ["\x1b[?025lstep 1\rstep 2\x1b[?0025h\r\n",
                                           "\x1b[?25;2004lstep 1\rstep 2\x1b[?25h\r\n"]),
}
DISPLAYS = [{"columns": 80, "rows": 24}, {"terminal": True}, {"terminal": False}]


def _outcome(text: str, display: dict) -> tuple[str, str]:
    try:
        return "candidate", clean.candidate(text, **display).text
    except clean.Refused as refusal:
        return "refused", refusal.reason


CASES = [(name, plain, variant) for name, (plain, variants) in SPELLINGS.items() for variant in variants]


@pytest.mark.parametrize(("name", "plain", "variant"), CASES, ids=[f"{c[0]}: {c[2]!r}" for c in CASES])
@pytest.mark.parametrize("display", DISPLAYS, ids=["80x24", "unknown size", "no terminal"])
def test_a_variant_spelling_is_cleaned_as_its_plain_spelling(name: str, plain: str, variant: str,
                                                             display: dict) -> None:
    assert _outcome(BEFORE + variant + AFTER, display) == _outcome(BEFORE + plain + AFTER, display)


def test_the_issue_s_example_is_cleaned_in_mid_text() -> None:
    for home in ("\x1b[H", "\x1b[01;01H"):
        proposal = clean.candidate(BEFORE + home + "\x1b[2J" + AFTER, columns=80, rows=24)
        assert proposal.text == BEFORE + AFTER
        assert proposal.pages_kept == 0


@pytest.mark.tmux
@pytest.mark.skipif(not tmux_judge.available(), reason="tmux is not installed (.ci/run installs it)")
def test_tmux_shows_every_line_of_the_variants_in_their_candidates() -> None:
    cases = []
    for _, _, variant in CASES:
        raw = (BEFORE + variant + AFTER).encode()
        outcome = _outcome(raw.decode(), {"columns": 80, "rows": 24})
        if outcome[0] == "candidate":
            cases.append(tmux_judge.Case(raw, 80, 24, "spellings", [(80, 24)], candidate=outcome[1].encode()))
    assert len(cases) >= 10
    with tmux_judge.server() as srv:
        tmux_judge.judge(cases, srv)
    assert [(c.raw, c.problems) for c in cases if c.problems] == []
