"""The gate on other projects' real terminal recordings: xterm.js's inputs, alacritty's ref-test
recordings and pyte's captures (full-screen programs, vim, htop, shells). Whatever it adopts agrees
with the oracle and keeps every line the terminal showed; the rest is refused untouched."""

from __future__ import annotations

from pathlib import Path

import pytest
from agent_logs import peer_params

import oracle
import textclean
from oracle import corpora, tmux

ROOT = corpora.locate()

pytestmark = [pytest.mark.corpora, pytest.mark.usefixtures("corpora_root")]  # skips when absent


def _recordings() -> list[Path]:
    if ROOT is None:
        return []
    return sorted(
        [*ROOT.glob("xtermjs/*.in"), *ROOT.glob("alacritty/*/alacritty.recording"), *ROOT.glob("pyte_captured/*.input")]
    )


RECORDINGS = _recordings()

# Where the oracle's no-terminal rendering orders lines otherwise than tmux, the tie-breaker: rows a
# scroll region pushed out are logged by pyte in another order than tmux's history holds them. For
# these the adopted candidate is judged by a live tmux at 10,000 columns (no terminal) instead.
ORACLE_ORDER_DIFFERS = {"alacritty/tmux_htop"}


@pytest.mark.parametrize("path", peer_params(RECORDINGS, [f"{p.parent.name}/{p.name}" for p in RECORDINGS]))
def test_gate_adopts_only_what_the_oracle_agrees_with(path: Path) -> None:
    raw = path.read_bytes()  # binary: the recordings hold bare \r
    text = raw.decode("utf-8", "surrogateescape")
    result = textclean.clean(text, min_tokens=0)  # no terminal, the default: judged as such
    if not result.applied:
        assert result.text is text and result.reason in textclean.GATE_REASONS
        return
    out = result.text.encode("utf-8", "surrogateescape")
    if path.parent.name in {name.split("/")[1] for name in ORACLE_ORDER_DIFFERS}:
        import tmux_judge

        case = tmux_judge.Case(raw, None, None, "peer", terminal=False, candidate=out)
        with tmux.server() as server:
            tmux_judge.judge([case], server)
        assert case.problems == []
        assert not oracle.check_lossless(raw, out, terminal=False).ok  # still a deviation: drop it when not
        return
    check = oracle.check_lossless(raw, out, terminal=False)
    assert check.ok, check.describe()
    if result.pages_cleaned + result.pages_kept <= 1:
        # one page: the same lines; with clears the candidate also keeps what they hid (docs/design.md, 'Pages')
        assert oracle.agrees(raw, out, terminal=False)


def test_some_recordings_are_adopted() -> None:
    adopted = [p for p in RECORDINGS if textclean.clean(p.read_bytes().decode("utf-8", "surrogateescape"),
                                                         min_tokens=0).applied]
    assert len(adopted) >= 10, adopted


CASES = [c for suite in corpora.SUITES.values() for c in suite(ROOT)] if ROOT is not None else []


@pytest.mark.parametrize("case", peer_params(CASES, [f"{c.suite}/{c.name}" for c in CASES]))
def test_with_its_size_what_the_gate_adopts_keeps_every_line_the_terminal_shows(case: corpora.Case) -> None:
    """The recordings' real sizes passed (alacritty: size.json, xterm.js 80x25, pyte 80x24): what the
    gate adopts keeps, in order, every line the terminal shows at the end (its history and screen)."""
    text = case.data.decode("utf-8", "surrogateescape")
    result = textclean.clean(text, min_tokens=0, columns=case.columns, rows=case.lines)
    if not result.applied:
        assert result.text is text and result.reason in textclean.GATE_REASONS
        return
    shown = oracle.render(case.data, columns=case.columns, lines=case.lines).informative
    kept = oracle.render(result.text.encode("utf-8", "surrogateescape"), columns=case.columns,
                         lines=case.lines).shown
    position = 0
    for line in shown:
        assert line in kept[position:], f"{line!r} missing"
        position = kept.index(line, position) + 1
