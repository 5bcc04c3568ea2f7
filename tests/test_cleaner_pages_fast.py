"""Issue 23 / 27 (round 2): the cleaner's per-page paths give what the general ones give. The one-pass
page split against the two-pass reference it replaced, on every committed capture and session and on
generated streams."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import CSI, plain_text_runs, sgr, terminal_streams

from oracle.asciicast import read_asciicast
from textclean.pipeline import grammar, pages

FIXTURES = Path(__file__).parent / "fixtures"
CAPTURES = [*sorted(FIXTURES.glob("*.raw")), *sorted((FIXTURES / "sessions").glob("*.raw")),
            *sorted((FIXTURES / "pages").glob("*.raw")), *sorted((FIXTURES / "progress").glob("*.raw")),
            *sorted((FIXTURES / "sessions").glob("*.cast"))]
PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# breaks of every kind, joined by inert sequences or not, between text, moves and homes
_BREAKS = [
    st.tuples(plain_text_runs(0, 8), sgr()).map("".join),
    st.sampled_from(["\r\n", "\n", "\x07", "\x1b]0;t\x07", CSI + "?25l", CSI + "3;5H", CSI + "A", CSI + "K"]),
    st.sampled_from([CSI + "H", CSI + "2J", CSI + "J", CSI + "0J", CSI + "3J", CSI + "1J", CSI + ";H", CSI + "1;1f",
                     CSI + "H" + CSI + "2J", CSI + "H" + CSI + "J", CSI + "H" + CSI + "3J", "\x1bc",
                     CSI + "?1049h", CSI + "?1049l", CSI + "?47h", CSI + "?1047l", CSI + "?1049;25h",
                     CSI + "02J", CSI + "2;1H"]),
]


def _read(path: Path) -> str:
    with open(path, "rb") as f:
        data = f.read()
    if path.suffix == ".cast":
        return read_asciicast(data).output
    return data.decode("utf-8", "surrogateescape")


def _reference_split(text: str) -> list[pages.Page]:
    """pages.split as it was (main 9336002): the breaks, then their runs, then the pages."""
    runs: list[tuple[int, int, list[tuple[grammar.BreakPart, bool]]]] = []
    for start, end, part, homed in pages._breaks(text):
        if runs and pages._only_inert(text, runs[-1][1], start):
            runs[-1][2].append((part, homed))
            runs[-1] = (runs[-1][0], end, runs[-1][2])
        else:
            runs.append((start, end, [(part, homed)]))
    out: list[pages.Page] = []
    start, body = 0, 0
    flags: tuple[bool, bool, bool, str, str, bool, int] = (False, False, False, "", "", False, 0)
    for run_start, run_end, parts in runs:
        out.append(pages.Page(start, body, run_start, *flags))
        start, body = run_start, run_end
        flags = pages._describe(tuple(parts))
    out.append(pages.Page(start, body, len(text), *flags))
    return out


def test_split_is_the_reference_on_captures() -> None:
    broken = 0
    for path in CAPTURES:
        text = _read(path)
        expected = _reference_split(text)
        assert pages.split(text) == expected, path.name
        broken += len(expected) > 1
    assert broken >= 10  # not vacuous: captures with page breaks


@PROPERTY
@given(terminal_streams(_BREAKS))
def test_split_is_the_reference_on_generated_streams(text: str) -> None:
    assert pages.split(text) == _reference_split(text)
