"""A control string cancelled by CAN or SUB after undecodable bytes, judged by a live tmux 3.3a (issue 41).

tmux takes CAN and SUB to ``input_c0_dispatch`` from every state but a DCS's data, and that clears a
pending UTF-8 sequence (``utf8started``); an ESC, ST or an OSC's BEL leaves it pending. The oracle's
tmux flavour kept a cut lead byte pending across a cancelled APC, DCS, SOS or PM, so the character
after it joined the cut sequence and vanished: ``E6 97 ESC _ 1;2 LF SUB ... C3 9C end`` showed `` end``
where tmux shows ``Ü end``. The matrix: 3 prefixes x 4 introducers x SUB and CAN, each compared line by
line with tmux; then the production side on the same streams, judged by tmux in each display.
"""

from __future__ import annotations

import pytest

import oracle
from oracle import tmux
from oracle.screen import TMUX
from tests import tmux_judge

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(not tmux.available(), reason="tmux is not installed (.ci/run installs it)"),
]

COLUMNS, LINES = 80, 24
PREFIXES = {"none": b"", "cut-3-byte-lead": b"\xe6\x97", "cut-2-byte-lead": b"\xc3"}
INTRODUCERS = {"APC": b"\x1b_", "DCS": b"\x1bP", "SOS": b"\x1bX", "PM": b"\x1b^"}
ABORTS = {"SUB": b"\x1a", "CAN": b"\x18"}
AFTER = b"\x1b]8;;\x07\xc3\x9c end\r\nlast\r\n"  # an OSC (ended by BEL), then a valid two-byte character

MATRIX = {
    f"{prefix}-{introducer}-{abort}": b"ab\r\n" + PREFIXES[prefix] + INTRODUCERS[introducer] + b"1;2\n"
    + ABORTS[abort] + AFTER
    for prefix in PREFIXES
    for introducer in INTRODUCERS
    for abort in ABORTS
}
# The stream of issue 41 (a generated stream of test_generated_disagreement_streams_agree_with_tmux,
# minimised) is the matrix's cut-3-byte-lead-APC-SUB.
ISSUE_41 = b"ab\r\n\xe6\x97\x1b_1;2\n\x1a\x1b]8;;\x07\xc3\x9c end\r\nlast\r\n"
assert MATRIX["cut-3-byte-lead-APC-SUB"] == ISSUE_41

_TAIL = b"\xc3\x9c end\r\nlast\r\n"
# What else ends a sequence after a cut lead: CAN / SUB anywhere clears it, ESC, ST and BEL do not.
NEIGHBOURS = {
    "OSC-SUB": b"ab\r\n\xe6\x97\x1b]0;t\x1a" + _TAIL,
    "OSC-BEL": b"ab\r\n\xe6\x97\x1b]0;t\x07" + _TAIL,  # pending goes on: C3 joins E6 97, nothing drawn
    "APC-ST": b"ab\r\n\xe6\x97\x1b_x\x1b\\" + _TAIL,  # pending goes on
    "DCS-data-SUB-then-ST": b"ab\r\n\xe6\x97\x1bPq\x1ax\x1b\\" + _TAIL,  # in DCS data SUB is data
    "ESC-intermediate-CAN": b"ab\r\n\xe6\x97\x1b(\x18" + _TAIL,
    "ESC-SUB": b"ab\r\n\xe6\x97\x1b\x1a" + _TAIL,
    "CSI-SUB": b"ab\r\n\xe6\x97\x1b[1\x1a" + _TAIL,
    "bare-SUB": b"ab\r\n\xe6\x97\x1a\xa5" + _TAIL,
    "continuation-after-APC-SUB": b"ab\r\n\xe6\x1b_x\x1a\x97\xa5" + _TAIL,  # abandoned: A5 draws nothing
    "APC-in-APC-SUB": b"ab\r\n\xe6\x97\x1b_\x1b_x\x1a" + _TAIL,
    "SOS-SUB-PM-CAN": b"ab\r\n\xe6\x97\x1bX\x1a\x1b^\x18" + _TAIL,
}


@pytest.fixture(scope="module")
def tmux_lines() -> dict[bytes, list[str]]:
    """tmux's lines (history + screen) for every stream here, one server for all."""
    streams = [*MATRIX.values(), *NEIGHBOURS.values()]
    with tmux.server() as server:
        captures = server.show_many([(data, COLUMNS, LINES) for data in streams])
    return {data: capture.lines for data, capture in zip(streams, captures, strict=True)}


def _oracle(data: bytes) -> list[str]:
    return oracle.render(data, columns=COLUMNS, lines=LINES, flavour=TMUX).lines


@pytest.mark.parametrize("data", MATRIX.values(), ids=MATRIX.keys())
def test_cancelled_string_after_undecodable_bytes_agrees_with_tmux(
    tmux_lines: dict[bytes, list[str]], data: bytes
) -> None:
    assert tmux_lines[data] == ["ab", "Ü end", "last"]  # the cancel drops the cut lead; Ü shows
    assert _oracle(data) == tmux_lines[data]


@pytest.mark.parametrize("data", NEIGHBOURS.values(), ids=NEIGHBOURS.keys())
def test_what_ends_a_sequence_after_a_cut_lead_agrees_with_tmux(
    tmux_lines: dict[bytes, list[str]], data: bytes
) -> None:
    assert _oracle(data) == tmux_lines[data]


def test_both_readings_occur_among_the_neighbours(tmux_lines: dict[bytes, list[str]]) -> None:
    """The neighbours hold both of tmux's readings, so they can tell a model that always abandons the
    pending sequence (or never does) from tmux."""
    assert tmux_lines[NEIGHBOURS["OSC-BEL"]] == tmux_lines[NEIGHBOURS["APC-ST"]] == ["ab", " end", "last"]
    assert tmux_lines[NEIGHBOURS["OSC-SUB"]] == ["ab", "Ü end", "last"]


def test_xterm_flavour_shows_each_undecodable_byte() -> None:
    """The xterm flavour has no pending sequence to abandon (U+FFFD per byte, deviation 3): unchanged."""
    assert oracle.render(ISSUE_41, columns=COLUMNS, lines=LINES).lines == ["ab", "\ufffd\ufffdÜ end", "last"]


DISPLAYS = ["no-terminal", "unknown", "sized", "fresh"]


@pytest.mark.parametrize("display", DISPLAYS)
def test_the_gate_loses_no_line_tmux_shows(display: str) -> None:
    """The production side on the 24 streams in each display: it refuses or adopts, and an adoption keeps
    every line tmux shows (tests/tmux_judge.py). Today it refuses them all (``malformed_escape``)."""
    cases = [tmux_judge.display_case(data, display, COLUMNS, LINES, "issue-41") for data in MATRIX.values()]
    with tmux_judge.server() as srv:
        tmux_judge.judge(cases, srv)
    assert [case.problems for case in cases if case.problems] == []
    refused = {case.result.reason for case in cases if case.result is not None and not case.result.applied}
    assert refused <= {"malformed_escape"}, refused
