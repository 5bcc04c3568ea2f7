"""The lossless check: does a candidate keep every line the terminal ever showed, in order?

**What "ever shown" means.** A line counts as shown when it was on the screen as a whole row at a
moment the output could not have taken back with an in-line or cursor-up redraw:

* it scrolled into the scrollback (or off the top of a scrolling region or the alternate screen);
* it was on screen when an out-of-scope operation destroyed it: ED (erase in display, any mode),
  RIS, DECCOLM, DECALN, DL (deleted), IL / SD / RI (pushed off the bottom), or leaving the
  alternate screen;
* it is on the screen (main, and alternate if the output ends there) at the end.

A row's intermediate states are *not* required: text overwritten by a ``\\r`` frame, erased by EL
or ECH, or overwritten after a cursor-up move was shown only transiently, and the cleaner's in-scope
redraw resolution drops it. Content hidden by ED or the alternate screen *is* required, so a cleaner
that drops it fails.

Lines are ordered by the time their row first received a character (not by when they were
retired), so a line kept on the main screen while an alternate screen came and went precedes the
alternate screen's lines, as it does in the output; except that a row first written above rows
already written on the same screen (a blank line filled in by a cursor-up redraw) takes its place
just before them, as on the screen. The candidate is rendered by the same oracle and
must contain the raw output's shown lines as a subsequence of its own shown lines; rendering makes
the comparison modulo tab expansion (8-column stops) and trailing spaces, which a screen cannot
represent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .render import render
from .screen import TMUX, XTERM


@dataclass(frozen=True)
class LosslessResult:
    ok: bool
    missing: str | None  # the first shown line the candidate lacks
    index: int | None  # its position among the raw output's shown lines
    shown: tuple[str, ...]  # what the terminal showed for the raw output
    kept: tuple[str, ...]  # what it shows for the candidate

    def __bool__(self) -> bool:
        return self.ok

    def describe(self) -> str:
        if self.ok:
            return f"lossless: all {len(self.shown)} shown lines kept in order"
        assert self.index is not None
        after = repr(self.shown[self.index - 1]) if self.index else "the start"
        return (
            f"line {self.index + 1} of {len(self.shown)} that the terminal showed is missing from "
            f"the candidate (in order, after {after}): {self.missing!r}"
        )


def _rendering_args(columns: int | None, rows: int | None, flavour: str | None, terminal: bool | None = None,
                    fresh: bool | None = None) -> dict[str, Any]:
    """A known size is a real terminal's: tmux (the tie-breaker) decides, unless told otherwise."""
    if flavour is None:
        flavour = XTERM if columns is None and rows is None else TMUX
    return {"columns": columns, "lines": rows, "flavour": flavour, "terminal": terminal, "fresh": fresh}


def shown_lines(
    data: bytes | str, *, columns: int | None = None, rows: int | None = None, flavour: str | None = None,
    terminal: bool | None = None, fresh: bool | None = None,
) -> tuple[str, ...]:
    """Every non-blank line a terminal ever showed for ``data``, see the module docstring."""
    return render(data, **_rendering_args(columns, rows, flavour, terminal, fresh)).shown


def ideal_lines(data: bytes | str, *, columns: int | None = None, rows: int | None = None,
                terminal: bool | None = None, fresh: bool | None = None) -> list[str]:
    """A session's ideal: its informative lines, page by page (docs/design.md, 'Pages'), at its size.

    Every line a cleared page showed (tmux's scroll-on-clear), every line that scrolled off, the
    alternate screen's content as it was left, and the final screen, in the order they were first
    drawn; lines ``CSI 3 J`` erased from the history are kept (the project's safe side). This is
    the least a lossless candidate keeps (:func:`check_lossless`) and the yardstick for savings.
    """
    return list(shown_lines(data, columns=columns, rows=rows, terminal=terminal, fresh=fresh))


def check_lossless(
    raw: bytes | str,
    candidate: bytes | str,
    *,
    columns: int | None = None,
    rows: int | None = None,
    flavour: str | None = None,
    terminal: bool | None = None,
    fresh: bool | None = None,
) -> LosslessResult:
    """Whether ``candidate`` keeps every line the terminal ever showed for ``raw``, in order.

    The display is named as the gate names it (``textclean.pipeline.gate.display``). ``columns`` and
    ``rows`` are the terminal's size when the raw output was recorded (a session); then both texts are
    rendered at that size with the tmux flavour (``flavour`` overrides), so a line the terminal
    wrapped is compared as the rows it showed. Without a size the width is each text's own widest
    line (nothing wraps) and the flavour xterm's; ``terminal=False`` (no terminal) removes the
    strings a log viewer ends at BEL first and caps no width. ``fresh=False`` with a terminal: the
    text may have met a new terminal or one in use, so the candidate must keep every line on both.
    """
    samples = [None, False] if fresh is False and terminal is not False else [fresh]
    result = None
    for sample in samples:
        args = _rendering_args(columns, rows, flavour, terminal, sample)
        result = _subsequence(render(raw, **args).shown, render(candidate, **args).shown)
        if not result.ok:
            return result
    assert result is not None
    return result


def _subsequence(shown: tuple[str, ...], kept: tuple[str, ...]) -> LosslessResult:
    position = 0
    for index, line in enumerate(shown):
        try:
            position = kept.index(line, position) + 1
        except ValueError:
            return LosslessResult(False, line, index, shown, kept)
    return LosslessResult(True, None, None, shown, kept)


def agrees(raw: bytes | str, candidate: bytes | str, *, columns: int | None = None, rows: int | None = None,
           terminal: bool | None = None, fresh: bool | None = None) -> bool:
    """In-scope exact equality: the terminal shows the same informative lines for both."""
    args: dict[str, Any] = {"columns": columns, "rows": rows, "terminal": terminal, "fresh": fresh}
    return render(raw, **args).informative == render(candidate, **args).informative
