"""Matching a candidate against the raw text's pages (docs/design.md, 'Pages', "The candidate's shape").

The candidate is, page after page, a *kept* page (``raw[start:end]`` verbatim) or a *cleaned* one
(plain text). Cleaned text holds no ESC and every page but the first starts with its break (an ESC
sequence), so the segments are found with ``startswith`` at known offsets and one ``find`` per run of
cleaned pages: linear in the candidate, whatever it holds. A page is taken as kept only where the
bytes that must follow a kept page follow it (the next page's break, or the end); a kept page and a
cleaned page with the same bytes then read the same.
"""

from __future__ import annotations

from ..grammar import ESC, LF
from . import paging
from .compare import candidate_lines, clip, line_difference, same_lines
from .fast import ALL, Shortcuts
from .meaning import Difference, Refusal
from .state import Page

_HARMLESS_LEAVES = ("a saved cursor",)  # cleaned pages hold no DECRC: nothing of theirs can use it


def _pages_label(first: int, last: int) -> str:
    return f"page {first + 1}" if first == last else f"pages {first + 1}-{last + 1}"


def first_difference(
    raw: str, candidate: str, columns: int | None, rows: int | None, *, terminal: bool = True, fresh: bool = False,
    whole: bool = False,
    shortcuts: Shortcuts = ALL,
) -> Difference | None:
    """The first place the candidate does not show a page of ``raw`` as the screen model does (None:
    none), with the raw offset of the page to keep where one is named. ``whole``: a text of one page
    is matched by its lines only (its shortcuts' and the walk's answers then agree)."""

    # Pages are matched as the screen model makes them final (all but its last two), and a matched
    # page lets go of its lines: only the open run of cleaned pages keeps its lines at once.
    pages: list[Page] = []
    length = len(candidate)
    position = 0  # where the next segment starts
    run: tuple[int, int, int] | None = None  # an open run of cleaned pages: text start, end, first page
    expected: list[str] = []
    ends: list[tuple[int, int]] = []  # the open run's pages: (index, its lines' end in ``expected``)
    taint: str | None = None  # what a kept page left that would change how a cleaned page renders
    previous_kept = False
    kept_pages: set[int] = set()  # pages kept verbatim: the state their bytes set, the candidate sets too
    matched = 0  # pages matched so far
    found: Difference | None = None  # the first difference (later pages are not matched)

    def failing_page(got: list[str], first: int) -> int:
        """The run's page holding the first line the candidate does not show (a line too many at the
        end: the last page); a page without bytes gives way to the next one with bytes."""
        at = next((i for i, (want, have) in enumerate(zip(expected, got, strict=False)) if want != have),
                  min(len(expected), len(got)))
        index = next((page for page, end in ends if at < end), ends[-1][0] if ends else first)
        return next((i for i in range(index, len(pages)) if pages[i].end > pages[i].start
                     or i == index and not any(p.end > p.start for p in pages[index:])), index)

    def close_run(last: int, got: list[str] | None = None) -> Difference | None:
        nonlocal run, expected, ends
        assert run is not None
        start, end, first = run
        run = None
        text = candidate[start:end]
        if got is None:
            got = candidate_lines(text)
        difference = line_difference(expected, got)
        bad = failing_page(got, first) if difference is not None else first
        expected, ends = [], []
        if difference is not None:
            if len(pages) == 1:
                return Difference(difference)
            # the failing page, by its raw offset: the gate keeps it instead of bisecting
            named = pages[bad]
            return Difference(f"{_pages_label(first, last)} (cleaned) at offset {named.start}: {difference}",
                              named.start)
        if end < length and text and not text.endswith(LF):
            return Difference(f"{_pages_label(first, last)} (cleaned): no line ending before the kept page after it")
        return None

    def match(index: int) -> Difference | None:
        nonlocal position, run, taint, previous_kept
        page = pages[index]
        if page.resets:
            taint = None
        body = raw[page.start:page.end]
        kept = False
        if candidate.startswith(body, position):
            after = position + len(body)
            if index + 1 < len(pages):
                following = pages[index + 1]
                kept = candidate.startswith(raw[following.start:following.break_end], after)
            else:
                kept = after == length
            if kept and page.reason is None and run is not None and not body:
                kept = False  # an empty page inside a cleaned run: nothing to keep
        shown: list[str] | None = None  # the open run's lines, read once when a kept page would close it
        if kept and run is not None:
            shown = candidate_lines(candidate[run[0]:run[1]])
            if page.reason is None and len(shown) > len(expected) and shown[: len(expected)] == expected:
                # the run shows lines past its pages so far: these bytes are a later page's with the same
                # bytes (F33-2: a page repeated after a cleaned one), and this page is in the run
                kept = False
        if kept and run is not None and not page.fresh_start:
            # its bytes start where the cleaned text left the cursor and act on the rows it left on the
            # screen, neither of which is the raw's: only a clear and a home make them agree
            return Difference(f"page {index} (cleaned) at offset {pages[index - 1].start}: the kept page after "
                              f"it at offset {page.start} does not start with a clear and a home",
                              pages[index - 1].start)
        before = pages[index - 1] if index else None
        if (kept and run is not None and before is not None and page.erases_history
                and (before.full or not raw[before.start:before.end].endswith(LF))):
            # the cleaned text ends with a line end its raw may not have: where the raw's last row may be
            # the screen's bottom row (a full screen, or rows pushed down by IL below blank ones) it
            # scrolls a row into the history this page's break erases, a row the raw still had on its
            # screen; named by the cleaned page's offset: the gate keeps that one
            return Difference(f"page {index} (cleaned) at offset {before.start}: its raw does not end a line (or "
                              f"its screen is full) and the kept page after it breaks with ED 3 or RIS first, "
                              f"which erases the history the cleaned text's line end scrolls a row into",
                              before.start)
        if kept and not page.resets:
            for state, origin in page.inherits.items():
                if origin not in kept_pages:
                    # the candidate's cleaned pages hold no escape sequences: this page would render without it
                    # named by the cleaned page's offset: the gate keeps that one too
                    return Difference(f"page {index + 1}: kept verbatim, but it inherits {state} from page "
                                      f"{origin + 1} at offset {pages[origin].start} (cleaned)", pages[origin].start)
        if kept:
            page.lines = []  # never compared
            kept_pages.add(index)
            if run is not None:
                difference = close_run(index - 1, shown)
                if difference is not None:
                    return difference
            if page.modes:
                taint = ", ".join(sorted(page.modes))
            elif page.modes is not None and not page.resets:
                taint = None if taint is None or taint.startswith("a ") and page.modes == frozenset() else taint
            if page.leaves is not None and page.leaves not in _HARMLESS_LEAVES:
                taint = page.leaves
            position += len(body)
            previous_kept = True
            return None
        if page.reason is not None:
            return Difference(f"page {index + 1} at offset {page.start}: not kept verbatim, and undecided: "
                              f"{page.reason}", page.start)
        if taint is not None:
            return Difference(f"page {index + 1} at offset {page.start}: cleaned after a kept page that leaves "
                              f"{taint}", page.start)
        if run is None:
            start = position
            if previous_kept:
                opening = raw[page.start:page.break_end]
                if not candidate.startswith(opening, position):
                    return Difference(f"page {index + 1} at offset {page.start}: a cleaned page after a kept one "
                                      f"does not start with its page break {clip(opening)}", page.start)
                start += len(opening)
            end = candidate.find(ESC, start)
            run = (start, length if end < 0 else end, index)
            position = run[1]
        expected.extend(page.lines)
        ends.append((index, len(expected)))
        page.lines = []
        previous_kept = False
        return None

    def on_page(made: list[Page]) -> None:
        nonlocal pages, matched, found
        pages = made
        while found is None and matched < len(made) - 2:
            found = match(matched)
            matched += 1

    try:
        pages = paging.pages(raw, columns, rows, on_page=on_page if shortcuts.streamed else None,
                                    terminal=terminal, fresh=fresh, shortcuts=shortcuts)
    except Refusal as exc:  # outside any page (the first screen outgrows the work budget)
        return Difference(f"unresolvable: {exc}", exc.offset, exc.disputed)
    if len(pages) == 1 and pages[0].reason is not None:
        return Difference(f"unresolvable: {pages[0].reason}", pages[0].reason_offset)
    if len(pages) == 1 and whole:  # one page the shortcuts could have taken: no kept page either
        if same_lines(pages[0].lines, candidate, shortcuts.joined):
            return None
        return Difference(line_difference(pages[0].lines, candidate_lines(candidate)) or "")
    while found is None and matched < len(pages):
        found = match(matched)
        matched += 1
    if found is not None:
        return found
    if run is not None:
        difference = close_run(len(pages) - 1)
        if difference is not None:
            return difference
    if position != length:
        return Difference(f"unexpected candidate bytes at offset {position} of the candidate: "
                          f"{clip(candidate[position:position + 40])}")
    return None
