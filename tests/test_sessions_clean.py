"""Whole terminal sessions, cleaner side (docs/design.md, 'Pages'): recorded sessions cleaned page by
page at their real size, judged by the oracle (tmux flavour, the session's size): every line the
terminal showed survives, and the saving is within 2 % of the oracle's ideal (its shown lines)."""

from __future__ import annotations

import json
from collections.abc import Collection
from pathlib import Path
from typing import Any

import pytest

import textclean
from fixtures_gen.checks import load_sessions
from oracle.render import render
from textclean.pipeline import clean as cleaner
from textclean.pipeline import gate, verify
from textclean.pipeline.clean import assemble, walk
from textclean.pipeline.tokens import token_counter

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SESSIONS = {s.name: s for s in load_sessions(FIXTURES / "sessions")}
COUNT = token_counter(None)
FLASH = (FIXTURES / "pages" / "session_flash.raw").read_bytes().decode("utf-8", "surrogateescape")
FLASH_SIZE = json.loads((FIXTURES / "pages" / "session_flash.json").read_text())


def _text(name: str) -> str:
    raw = SESSIONS[name].raw
    return raw if isinstance(raw, str) else raw.decode("utf-8", "surrogateescape")


def _missing(raw: str, candidate: str, columns: int, rows: int) -> str | None:
    """The first line tmux (the oracle's tmux flavour, at the session's size) showed that the
    candidate's rendering lacks, in order; None when every one survives."""
    shown = render(raw, columns=columns, lines=rows, flavour="tmux").shown
    kept = render(candidate, columns=columns, lines=rows, flavour="tmux").shown
    position = 0
    for line in shown:
        try:
            position = kept.index(line, position) + 1
        except ValueError:
            return line
    return None


def _ideal_tokens(raw: str, columns: int, rows: int) -> int:
    return COUNT("\n".join(render(raw, columns=columns, lines=rows, flavour="tmux").shown) + "\n")


# Sessions the cleaner resolves at their size, each page cleaned; see docs/benchmarks.md ("Whole terminal sessions").
RESOLVED = ["session_bash", "session_man", "session_top", "session_asciinema", "session_asciinema_shell"]


@pytest.mark.parametrize("name", RESOLVED)
def test_a_session_at_its_size_keeps_every_shown_line_and_nearly_the_ideal_saving(name: str) -> None:
    recording = SESSIONS[name]
    raw = _text(name)
    proposal = cleaner.candidate(raw, columns=recording.columns, rows=recording.rows)
    assert proposal.pages_kept == 0
    assert _missing(raw, proposal.text, recording.columns, recording.rows) is None
    before, after = COUNT(raw), COUNT(proposal.text)
    ideal = _ideal_tokens(raw, recording.columns, recording.rows)
    assert (after - ideal) / before <= 0.02, (before, after, ideal)


def test_the_acceptance_session_clear_installs_tall_progress_tests_pager() -> None:
    """session_bash: clear, pip install with progress bars, a 30-task rich display in a 40-row
    terminal, a pytest run and git's pager output."""
    recording = SESSIONS["session_bash"]
    raw = _text("session_bash")
    proposal = cleaner.candidate(raw, columns=recording.columns, rows=recording.rows)
    assert "layer 29 " in proposal.text and "30 layers converted" in proposal.text
    assert proposal.text.count("layer 29 ") == 1  # the display's frames resolved to its last
    # Without the size, the 30-row display cannot be resolved (24 rows assumed): that page is kept.
    unsized = cleaner.candidate(raw)
    assert unsized.pages_kept == 1 and proposal.pages_kept == 0


def test_one_unresolvable_page_is_kept_verbatim_and_the_others_are_cleaned() -> None:
    columns, rows = FLASH_SIZE["columns"], FLASH_SIZE["lines"]
    proposal = cleaner.candidate(FLASH, columns=columns, rows=rows)
    assert (proposal.pages_cleaned, proposal.pages_kept) == (3, 1)
    kept = next(s for s in proposal.segments if s.text is None)
    page = FLASH[kept.page.start : kept.page.end]
    assert "\x1b[?5h" in page and page in proposal.text  # exactly its raw bytes
    assert "DECSET" in kept.why or "?5" in kept.why
    assert "\rdownloading" not in proposal.text and "downloading 40/40" in proposal.text
    assert "\x1b[2K" not in proposal.text.split(page)[1].split("\x1b[3J", 1)[1]
    assert _missing(FLASH, proposal.text, columns, rows) is None
    assert COUNT(proposal.text) < COUNT(FLASH)


def test_a_kept_page_whose_state_outlives_the_clear_refuses_the_whole_message() -> None:
    recording = SESSIONS["session_vim"]  # vim sets DECSTBM on the page it cannot resolve
    with pytest.raises(cleaner.Refused) as info:
        cleaner.candidate(_text("session_vim"), columns=recording.columns, rows=recording.rows)
    assert "DECSTBM" in info.value.detail


# F14 (red team, session 13): a page kept verbatim renders under the modes earlier pages leave; in the
# candidate those pages are plain text, so it would render under the defaults instead.
REGION_THEN_KEPT = "\x1b[H\x1b[2J\x1b[2;4rp0\r\n\x1b[H\x1b[2JA\r\nB\r\nC\r\nD\r\nE\x1b[5;1HX\x1b[L\r\n"
REGION_THEN_GATE_KEPT = "\x1b[2J\x1b[5ro\x1b[?1049l\x1b[H\x1b[Jy\x1b[T1"


@pytest.mark.parametrize(("text", "inherited"), [
    (REGION_THEN_KEPT, "a scroll region"),
    (REGION_THEN_KEPT.replace("\x1b[5;1HX\x1b[L", "\x1b[3;1H\x1b[L"), "a scroll region"),
    ("\x1b[H\x1b[2J\x1b[2;4rp0\r\n\x1b[H\x1b[2JA\x1b[?5hB\r\n", "a scroll region"),
    ("\x1b[H\x1b[2J\x1b[?6hp0\r\n\x1b[H\x1b[2JA\x1b[?5hB\r\n", "origin mode"),
])
@pytest.mark.parametrize("size", [(80, 24), (40, 10), (None, None)])
def test_a_page_is_kept_only_under_the_modes_the_candidate_gives_it(text: str, inherited: str, size: tuple) -> None:
    with pytest.raises(cleaner.Refused, match=f"the pages before leave it {inherited}"):
        cleaner.candidate(text, columns=size[0], rows=size[1])


@pytest.mark.parametrize("text", [
    "p0\r\n\x1b7\x1b[H\x1b[2JA\r\nB\r\nC\x1b8XXXX\x1bc",  # F16: the RIS after it let the page be kept
    "p0\r\n\x1b[s\x1b[H\x1b[JA\r\nB\r\nC\x1b[uXXXX\x1bcnext\r\n",
    "H\x1b[s\x1b[H\x1b[J\x1b[u3\x1bc",
])
@pytest.mark.parametrize("size", [(80, 24), (None, None)])
def test_a_kept_page_may_not_restore_a_cursor_a_cleaned_page_saved(text: str, size: tuple) -> None:
    with pytest.raises(cleaner.Refused, match="a cursor saved"):
        cleaner.candidate(text, columns=size[0], rows=size[1])


def test_a_page_whose_screen_switch_acts_from_another_screen_in_the_candidate_is_not_kept() -> None:
    """A second ?1049h (tmux: nothing to do) kept after the first went with a cleaned page: in the
    candidate it switches from the main screen, and a second pass cleans it (not idempotent)."""
    text = "p0\r\n\x1b[?1049h\x1b[H\x1b[2Ja\r\n\x1b[?1049h\x1b[H\x1b[2Jb\r\n"
    assert [s.text for s in walk.resolve(text, columns=80, rows=24)] == ["p0\r\n", "a\r\n", "b\r\n"]
    with pytest.raises(assemble.WholeRefusal, match="leave it on the alternate screen"):
        walk.resolve(text, columns=80, rows=24, keep={2})
    both = walk.resolve(text, columns=80, rows=24, keep={1, 2})  # its switch kept with it: the same screen
    assert [s.text is None for s in both] == [False, True, True]


def test_candidate_keep_walks_the_pages_with_those_kept_raw() -> None:
    """``candidate(keep=...)``, the gate's second try: the page walk alone (a text the one-regex path
    cleans whole too), the named pages kept as their raw bytes: the walk's segments, joined."""
    text = "p0\r\n\x1b[?1049h\x1b[H\x1b[2Ja\r\n\x1b[?1049h\x1b[H\x1b[2Jb\r\n"
    proposal = cleaner.candidate(text, columns=80, rows=24, keep={1, 2})
    segments = walk.resolve(text, columns=80, rows=24, keep={1, 2})
    assert proposal.segments == tuple(segments) and proposal.text == cleaner.joined(text, segments)
    assert proposal.text == "p0\r\n" + text[text.index("\x1b[?1049h"):]
    assert (proposal.pages_cleaned, proposal.pages_kept) == (1, 2)
    coloured = "\x1b[31mred\x1b[0m\r\n"
    assert cleaner.candidate(coloured).segments is None  # the one-regex path
    assert cleaner.candidate(coloured, keep=()).segments == tuple(walk.resolve(coloured, columns=None, rows=None))


def test_a_kept_page_after_the_modes_are_back_to_their_defaults_stays_kept() -> None:
    for text in ("\x1b[H\x1b[2J\x1b[2;4rp0\x1b[r\r\n\x1b[H\x1b[2JA\x1b[?5hB\r\n",  # DECSTBM reset
                 "\x1b[H\x1b[2J\x1b[2;4rp0\r\n\x1bcA\x1b[?5hB\r\n",  # RIS
                 "\x1b[H\x1b[2Jp0\x1b7\r\n\x1b[H\x1b[2JA\x1b[?5hB\r\n"):  # a saved cursor it never restores
        proposal = cleaner.candidate(text, columns=80, rows=24)
        assert proposal.pages_kept == 1
        assert proposal.text.startswith("p0\r\n\x1b")


@pytest.mark.parametrize("size", [(80, 24), (200, 50)])
def test_the_gate_may_not_keep_a_page_under_a_region_a_cleaned_page_set(size: tuple) -> None:
    """The gate's second path (_keep_rejected_pages): candidate(keep=...) refuses as the cleaner does."""
    columns, rows = size
    assert cleaner.candidate(REGION_THEN_GATE_KEPT, columns=columns, rows=rows).pages_kept == 0
    with pytest.raises(cleaner.Refused, match="the pages before leave it a scroll region"):
        cleaner.candidate(REGION_THEN_GATE_KEPT, columns=columns, rows=rows, keep={2})
    result = gate.TextClean(min_tokens=0).clean(REGION_THEN_GATE_KEPT, columns=columns, rows=rows)
    assert not result.applied or "y1" in result.text.replace("\x1b[T", "")


def test_the_gate_keeps_the_page_the_verifier_rejects(monkeypatch: pytest.MonkeyPatch) -> None:
    """The verifier alone decides: a stand-in that rejects the first cleaned page's lines unless that
    page is kept verbatim. The gate finds the page by bisecting prefixes and keeps it."""
    columns, rows = FLASH_SIZE["columns"], FLASH_SIZE["lines"]
    first = walk.resolve(FLASH, columns=columns, rows=rows)
    listing = next(s for s in first if s.text)
    listing_raw = FLASH[listing.page.start : listing.page.end]

    def verifier(raw: str, candidate: str, *, columns: int | None = None, rows: int | None = None,
                 **_: object) -> str | None:
        if listing.page.end <= len(raw) and listing_raw not in candidate:
            return "line 1: rejected"
        return None

    monkeypatch.setattr(verify, "first_difference", verifier)
    result = gate.TextClean(min_tokens=0).clean(FLASH, columns=columns, rows=rows)
    assert result.applied, result.detail
    assert (result.pages_cleaned, result.pages_kept) == (2, 2)
    assert listing_raw in result.text
    assert result.detail.startswith("page kept: ") and "offset" in result.detail


def test_the_gate_adopts_a_sized_session_and_keeps_every_shown_line() -> None:
    recording = SESSIONS["session_bash"]
    raw = _text("session_bash")
    result = textclean.clean(raw, columns=recording.columns, rows=recording.rows)
    assert (result.applied, result.reason, result.pages_kept) == (True, None, 0), result.detail
    assert result.pages_cleaned >= 2
    assert _missing(raw, result.text, recording.columns, recording.rows) is None


@pytest.mark.parametrize("bad", [0, 1, -5, 2.5, True, "80"])
def test_a_size_must_be_a_plain_int(bad: object) -> None:
    with pytest.raises(ValueError):
        textclean.clean("x\x1b[31my\x1b[m", columns=bad)  # type: ignore[arg-type]


def session_table() -> str:
    """The table of recorded sessions in docs/benchmarks.md (regenerate: ``python -m tests.test_sessions_clean``)."""
    lines = [
        "| session | size | pages cleaned / kept | tokens before | candidate | oracle's ideal |",
        "| --- | --- | --- | ---: | ---: | ---: |",
    ]
    for name in sorted(SESSIONS):
        recording = SESSIONS[name]
        raw = _text(name)
        before = COUNT(raw)
        ideal = _ideal_tokens(raw, recording.columns, recording.rows)
        try:
            proposal = cleaner.candidate(raw, columns=recording.columns, rows=recording.rows)
        except cleaner.Refused as refusal:
            shown = refusal.detail.split(" (page at offset")[0].split("; kept because ")[-1]
            lines.append(f"| {name} | {recording.columns}x{recording.rows} | refused: {shown} | {before} | "
                         f"{before} | {ideal} |")
            continue
        lines.append(f"| {name} | {recording.columns}x{recording.rows} | {proposal.pages_cleaned} / "
                     f"{proposal.pages_kept} | {before} | {COUNT(proposal.text)} | {ideal} |")
    return "\n".join(lines)


def test_benchmarks_session_table_is_current() -> None:
    readme = (Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md").read_text()
    assert session_table() in readme, "regenerate with: python -m tests.test_sessions_clean"


def test_benchmarks_before_after_example_is_current() -> None:
    readme = (Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md").read_text()
    recording = SESSIONS["session_man"]
    raw = _text("session_man")
    proposal = cleaner.candidate(raw, columns=recording.columns, rows=recording.rows)
    block = readme.split("redrawn and erased; ", 1)[1].split("```\n", 2)[1]
    before, after = COUNT(raw), COUNT(proposal.text)
    assert f"{before} tokens) becomes" in readme and f"without the status line ({after} tokens)" in readme
    shown = [line for line in block.splitlines() if line != "..."]
    lines = proposal.text.replace("\r\n", "\n").split("\n")
    assert all(line in lines for line in shown) and "Manual page" not in proposal.text


def test_autowrap_off_is_refused_where_the_width_is_known() -> None:
    """Without a width DECAWM off is inert while no row passes column 80 (the narrowest terminal
    assumed); with one, a long line would lose cells."""
    text = "\x1b[?7l" + "x" * 100 + "\n"
    assert cleaner.candidate("\x1b[?7l" + "x" * 80 + "\n").text == "x" * 80 + "\n"
    with pytest.raises(cleaner.Refused, match="DECAWM"):
        cleaner.candidate(text)  # an 80-column terminal writes the last 20 over its last column
    with pytest.raises(cleaner.Refused, match="DECAWM"):
        cleaner.candidate(text, columns=80, rows=24)
    assert cleaner.candidate("x" * 100 + "\n", columns=80, rows=24).text == "x" * 100 + "\n"  # wraps, one line


if __name__ == "__main__":
    print(session_table())


@pytest.mark.pure_only(reason="compiled code calls past the cleaner planted on walk.resolve")
def test_the_gate_keeps_the_failing_page_of_a_cleaned_run_not_its_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Five pages cleaned as one run; a stand-in cleaner loses a line of the third unless it is kept.
    The real verifier names that page (its raw offset, a field of the difference, not prose), so the
    gate keeps it alone: before, it named the run's first page and the gate kept pages 1, 2 and 3."""
    clear = "\x1b[H\x1b[2J"
    page = "page {0} line one\x1b[31m red\x1b[0m\r\npage {0} line two\r\n"
    raw = "".join(page.format(i) + clear for i in range(1, 5)) + "end\r\n"
    resolve = walk.resolve

    def losing(text: str, *, keep: Collection[int] = (), **display: Any) -> list[assemble.Segment]:
        segments = resolve(text, keep=keep, **display)
        return [s._replace(text=s.text.replace("page 3 line two\r\n", "")) if s.text else s
                for s in segments]

    monkeypatch.setattr(walk, "resolve", losing)
    third = raw.index("page 3")
    candidate = cleaner.from_segments(raw, losing(raw, columns=80, rows=24)).text
    difference = verify.first_difference(raw, candidate, columns=80, rows=24)
    assert difference is not None and "missing 'page 3 line two'" in difference
    assert difference.offset == raw.rindex(clear, 0, third)  # the third page starts at its break
    result = gate.TextClean(min_tokens=0).clean(raw, columns=80, rows=24)
    assert result.applied, result.detail
    assert (result.pages_cleaned, result.pages_kept) == (4, 1)
    assert raw[raw.rindex(clear, 0, third):raw.index(clear, third)] in result.text
    assert "page 2 line one red" in result.text and "\x1b[31m" not in result.text.split("page 3")[0]
