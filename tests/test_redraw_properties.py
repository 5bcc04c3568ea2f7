"""Redraws, generated: backspace, cursor controls within a line, and multi-line redraws by
cursor up / next / previous line, reverse index and save/restore, as multi-bar progress displays
write them. Every adopted output agrees with the oracle; every output passes ``check_lossless``; and
enough streams are adopted that the agreement property is not vacuous."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import CSI, ESC, line_endings, plain_text_runs, sgr, terminal_streams

import oracle
import textclean
from textclean.pipeline.names import (
    CHA,
    CNL,
    CPL,
    CUB,
    CUD,
    CUF,
    CUU,
    DECRC,
    DECSC,
    ECH,
    EL,
    HPA,
    HPR,
    RI,
    SCORC,
    SCOSC,
    VPR,
)

PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

_N = st.integers(0, 4).map(lambda n: "" if n == 0 else str(n))


def _counted(*finals: str) -> st.SearchStrategy[str]:
    """``CSI n F`` for each final ``F``, with a small count or none."""
    return st.builds(lambda n, final: f"{CSI}{n}{final}", _N, st.sampled_from(finals))


def in_line_cursor_controls() -> st.SearchStrategy[str]:
    """CUB, CUF, HPR, CHA, HPA, ECH, EL, BS: the controls that move or erase within one line."""
    return st.one_of(
        _counted(CUB, CUF, HPR, CHA, HPA, ECH),
        st.sampled_from([f"{CSI}{EL}", f"{CSI}1{EL}", f"{CSI}2{EL}", "\b", "\r"]),
    )


def vertical_cursor_controls() -> st.SearchStrategy[str]:
    """CUU, CUD, VPR, CNL, CPL, RI, DECSC/DECRC, SCOSC/SCORC."""
    return st.one_of(
        _counted(CUU, CUD, VPR, CNL, CPL),
        st.sampled_from([f"{ESC}{RI}", f"{ESC}{DECSC}", f"{ESC}{DECRC}", f"{CSI}{SCOSC}", f"{CSI}{SCORC}"]),
    )


@st.composite
def multi_bar_display(draw: st.DrawFn) -> str:
    """Log lines, then N bars drawn and redrawn in place the ways tqdm, pip, cargo and docker do it."""
    bars = draw(st.integers(1, 4))
    label = plain_text_runs(1, 12)
    out = "".join(draw(label) + draw(line_endings()) for _ in range(draw(st.integers(0, 3))))
    out += "".join(draw(label) + "\n" for _ in range(bars))
    for _ in range(draw(st.integers(1, 4))):
        style = draw(st.sampled_from(["cuu", "cpl", "ri", "save"]))
        up = {
            "cuu": f"{CSI}{bars}A" if bars > 1 else f"{CSI}A",
            "cpl": f"{CSI}{bars}F",
            "ri": f"{ESC}M" * bars,
            "save": f"{ESC}7{CSI}{bars}A",  # save the bottom position, redraw above, restore below
        }
        out += up[style]
        for _ in range(bars):
            erase = draw(st.sampled_from(["\r" + CSI + "2K", CSI + "2K", "\r" + CSI + "K", "\r"]))
            colour = draw(st.one_of(st.just(""), sgr()))
            out += erase + colour + draw(label) + (f"{CSI}0m" if colour else "") + "\n"
        if style == "save":
            out += f"{ESC}8"
    out += "".join(draw(label) + "\n" for _ in range(draw(st.integers(0, 2))))
    return out


def cursor_streams() -> st.SearchStrategy[str]:
    return st.one_of(
        multi_bar_display(),
        terminal_streams(extra_pieces=[in_line_cursor_controls(), vertical_cursor_controls()]),
    )


def _judge(stream: str) -> textclean.Result:
    result = textclean.clean(stream, min_tokens=0)
    check = oracle.check_lossless(stream, result.text)
    assert check.ok, check.describe()
    if result.applied:
        assert oracle.ideal_lines(result.text) == oracle.ideal_lines(stream), (
            stream,
            result.text,
        )
    else:
        assert result.text is stream
    return result


@PROPERTY
@given(cursor_streams())
def test_cursor_redraws_agree_with_the_terminal_and_lose_nothing(stream: str) -> None:
    _judge(stream)


@PROPERTY
@given(multi_bar_display())
def test_multi_bar_progress_is_resolved_like_the_terminal(stream: str) -> None:
    _judge(stream)


def test_most_multi_bar_displays_are_adopted() -> None:
    """The agreement properties mean something only if streams are adopted, not refused wholesale."""
    examples = []

    @settings(max_examples=150, deadline=None, database=None, derandomize=True)
    @given(multi_bar_display())
    def collect(stream: str) -> None:
        examples.append(_judge(stream))

    collect()
    adopted = sum(r.applied for r in examples)
    assert adopted >= 0.8 * len(examples), [r.reason for r in examples if not r.applied][:10]
    assert sum(r.removed.multiline_redraws > 0 for r in examples if r.applied) >= 0.5 * adopted
