"""The red team of ``textclean.Stream`` (issue 40), judged by a live tmux: streams aimed at the cut points
(``fuzz/stream_cuts.py``'s families: redraws reaching back up near and past 24 rows, line-end redraws,
progress frames, strings over line ends) cut in two at every byte offset and fed a byte at a time; every
released text (each ``feed`` plus ``close``) keeps every line tmux shows for the whole raw text.

A planted pair of readings that both cut at every line end (the cleaner's finder and the verifier's
check agreeing wrongly) cleans a stretch alone that starts above the lowest row: tmux catches it.
Findings of the red team, when there are any, go here as strict xfails (none so far).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from tests import tmux_judge
from textclean.pipeline.clean import cut_finder
from textclean.pipeline.verify import cut_check

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fuzz"))
import stream_cuts  # noqa: E402

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(not tmux_judge.available(), reason="tmux is not installed (.ci/run installs it)"),
]

#: A line end reached above the lowest row, then a line erased to its end: cut there (the cursor is not on
#: the lowest row), the stretch cleaned alone drops the EL and ``123456`` shows through (made by hand).
REDRAW_UP = b"top\x1b[31m!\x1b[0m\n123456\n\x1b[2A\nabc\x1b[K\x1b[1m\x1b[0m\nlast\x1b[1m!\x1b[0m\n"


def _streams(seed: int) -> list[bytes]:
    rng = random.Random(seed)
    families = ("up_past_24", "line_end_redraws", "progress", "strings_over_lines", "sgr_lines")
    return [REDRAW_UP] + [stream_cuts.FAMILIES[f](rng) for f in families for _ in range(2)]


def _lossy(raws: list[bytes]) -> list[tuple[bytes, str, bytes, list[str]]]:
    """Every (raw, chunking, release, problems) where tmux shows a line of the raw the release lacks."""
    pending: dict[tuple[bytes, bytes], str] = {}
    for raw in raws:
        chunkings = [("bytes", [raw[i:i + 1] for i in range(len(raw))])]
        chunkings += [(f"at{i}", [raw[:i], raw[i:]]) for i in range(1, min(len(raw), 200))]
        for name, chunks in chunkings:
            released = tmux_judge.encode(stream_cuts.release(chunks))
            if released != raw:
                pending.setdefault((raw, released), name)
    cases = []
    for (raw, released), name in pending.items():
        case = tmux_judge.display_case(raw, "no-terminal", 0, 0, name)
        case.candidate = released
        cases.append(case)
    with tmux_judge.server() as srv:
        tmux_judge.judge(cases, srv)
    return [(c.raw, c.family, c.candidate or b"", c.problems) for c in cases
            if c.problems and not stream_cuts.raw_redraw_kept(c.raw, c.candidate or b"", c.problems)]


def test_streams_cut_anywhere_keep_every_line_tmux_shows() -> None:
    assert _lossy(_streams(40)) == []


def test_a_cut_at_every_line_end_on_both_sides_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def every_line_end(self: object, text: str) -> list[int]:
        base = getattr(self, "_red_base", 0)
        object.__setattr__(self, "_red_base", base + len(text))
        return [base + i + 1 for i, c in enumerate(text) if c == "\n"]

    monkeypatch.setattr(cut_finder.CutFinder, "feed", every_line_end)
    monkeypatch.setattr(cut_check.CutCheck, "feed", every_line_end)
    lossy = _lossy([REDRAW_UP])
    assert lossy, "a stretch cut before a redraw that reaches back up must lose a line tmux shows"
    assert any("'abc'" in p for _, _, _, problems in lossy for p in problems)
