"""The independent verifier: what a terminal shows for a text, and whether a candidate shows it all.

:func:`terminal_lines` renders the informative lines of ``docs/design.md``'s display model;
:func:`first_difference` compares a cleaner's candidate with them. Written without looking at the
cleaner (``cleaner``, ``redraw``, ``screen``, ``session``, ``pages`` of the pipeline): a check that
resolved both sides with the same rule could not catch that rule's bug. Only the grammar (where a
sequence starts and ends) and the names are shared.

Its modules form one chain, each importing only those before it: ``meaning`` (the refusal, the action
table, widths) <- ``compare`` (candidate lines) <- ``fast`` (the shortcuts) <- the one model, a layer
of its class a module: ``state`` <- ``moves`` <- ``cells`` <- ``sequences`` <- ``page_breaks`` <-
``replays`` <- ``runs`` <- ``paging`` (the whole text fed, cut into pages) <- ``matching`` (a
candidate matched page by page).
"""

from __future__ import annotations

from . import matching, paging
from .compare import candidate_lines, line_difference, same_lines
from .cut_check import CutCheck
from .fast import ALL, WALK, Shortcuts, first_page, fits
from .meaning import Difference, Refusal, replayed_joiner

__all__ = ["ALL", "WALK", "CutCheck", "Difference", "Refusal", "Shortcuts", "first_difference", "terminal_lines"]


def _refuse_replayed_joiner(text: str) -> None:
    """F30-1: in every display, before any model runs (each would place the ZWJ where it was written)."""
    if "\u200d" in text:
        offset = replayed_joiner(text)
        if offset is not None:
            raise Refusal("a ZWJ after which tmux keeps it for the next zero-width character", offset,
                          disputed=True)


def terminal_lines(
    text: str, *, columns: int | None = None, rows: int | None = None, terminal: bool = True, fresh: bool = False,
    shortcuts: Shortcuts = ALL,
) -> list[str]:
    """Informative lines a terminal shows for ``text``, page after page (docs/design.md, 'Pages').

    Resolved, blank ones (empty or only spaces/tabs) dropped. Written spaces are kept (no right-trim of
    written spaces); never-written/erased cells are dropped at line end and render as ' ' inside a line.
    Tabs kept literally. ``columns`` / ``rows``: the terminal's size when known (else at least 80 x 24,
    no wrapping assumed); ``terminal=False``: no terminal (logical lines, no right margin, strings end
    at BEL); ``fresh``: a new terminal (empty screen, cursor home). Raises :class:`Refusal` for
    anything the models cannot decide.
    """
    _refuse_replayed_joiner(text)
    lines = first_page(text, columns, terminal, shortcuts) if fits(text, columns, rows) else None
    if lines is not None:
        return lines
    pages = paging.pages(text, columns, rows, strict=True, terminal=terminal, fresh=fresh, shortcuts=shortcuts)
    return [line for page in pages for line in page.lines]


def first_difference(
    raw: str, candidate: str, *, columns: int | None = None, rows: int | None = None, terminal: bool = True,
    fresh: bool = False, shortcuts: Shortcuts = ALL,
) -> Difference | None:
    """None if ``candidate`` shows every informative line of ``raw``, page by page; else where not.

    The candidate is, per raw page, a cleaned page (plain text whose non-blank lines, split on LF with
    trailing CRs stripped, are the page's informative lines) or a kept page (the page's raw bytes);
    see :func:`matching.first_difference` for the pages. An unresolvable one-page ``raw`` gives
    ``"unresolvable: "`` and the reason. The display, as :func:`terminal_lines` takes it: a terminal of
    ``columns`` x ``rows`` (either unknown), or none (``terminal=False``); ``fresh``, a new terminal.
    """
    try:
        _refuse_replayed_joiner(raw)
        whole = fits(raw, columns, rows)  # one page the shortcuts may take: matched by its lines alone
        expected = first_page(raw, columns, terminal, shortcuts) if whole else None
    except Refusal as exc:
        return Difference(f"unresolvable: {exc}", exc.offset, disputed=True)
    if expected is not None:
        if same_lines(expected, candidate, shortcuts.joined):  # the common case: no list of the candidate's lines
            return None
        return Difference(line_difference(expected, candidate_lines(candidate)) or "")
    return matching.first_difference(raw, candidate, columns, rows, terminal=terminal, fresh=fresh, shortcuts=shortcuts,
                                     whole=whole)
