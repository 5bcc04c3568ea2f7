"""The smallest kept stretch (issue 40): a message refused whole is gated stretch by stretch.

For text written for **no terminal**, a *cut point* is a line end both the cleaner's finder
(:class:`.clean.CutFinder`) and the verifier's own reading (:class:`.verify.CutCheck`) confirm: the
state there is agreed and nothing after it can change how the lines before it show (the cut points
``textclean.Stream`` releases at). When the whole message is not adopted for a reason a stretch can
fix, the gate splits it at those cut points: each stretch is cleaned, verified and counted on its own
(a refused one is halved at its middle cut point, down to a stretch with no cut point inside it); an
adopted stretch gives its cleaned text, any other stretch its raw characters exactly.

The finder and the check stop at the first control neither resolves in place and give no cut point
after it: a refused control keeps raw the stretch from the nearest cut point before it to the end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import NamedTuple

from .clean import CutFinder
from .result import NO_TERMINAL_NOISE, NOT_SMALLER, NOTHING_REMOVED, KeptStretch, Removed
from .verify import CutCheck

__all__ = ["Assembled", "KeptStretch", "Piece", "assemble", "cut_points", "describe"]

#: How many kept stretches the gate's detail names (the ``kept`` field holds them all).
NAMED_IN_DETAIL = 4


class Piece(NamedTuple):
    """One stretch's verdict: ``text`` its cleaned text (None: refused), with why it was refused."""

    text: str | None
    removed: Removed
    reason: str | None
    detail: str | None


class Assembled(NamedTuple):
    text: str
    removed: Removed
    kept: tuple[KeptStretch, ...]
    cleaned: int  # stretches adopted
    raw_tail: int  # where the trailing run of raw stretches starts (len(raw): none)


def cut_points(raw: str) -> list[int]:
    """The offsets inside ``raw`` (0 and its end excluded) both sides confirm as cut points."""
    found = set(CutFinder(len(raw) + 1).feed(raw))
    checked = CutCheck(len(raw) + 1).feed(raw)
    return sorted(offset for offset in found.intersection(checked) if 0 < offset < len(raw))


def _sum(parts: list[Removed]) -> Removed:
    if not parts:
        return NOTHING_REMOVED
    return Removed(**{f.name: sum(getattr(p, f.name) for p in parts) for f in fields(Removed)})


def assemble(raw: str, cuts: list[int], gate: Callable[[str], Piece], whole: Piece) -> Assembled:
    """``raw`` gated stretch by stretch at ``cuts`` (ascending offsets strictly inside it): a stretch
    ``gate`` refuses is halved at its middle cut until it holds none; then it is kept raw (reported
    unless it had nothing to clean). ``whole``: the verdict on all of ``raw`` already given."""
    out: list[str] = []
    removed: list[Removed] = []
    kept: list[KeptStretch] = []
    cleaned = 0
    raw_tail = 0  # start of the current trailing run of raw stretches
    pending = [(0, len(raw), 0, len(cuts))]  # (start, end, first and past-last index of cuts inside)
    while pending:
        start, end, low, high = pending.pop()
        piece = whole if end - start == len(raw) else gate(raw[start:end])
        if piece.text is not None:
            out.append(piece.text)
            removed.append(piece.removed)
            cleaned += 1
            raw_tail = end
            continue
        if piece.reason != NO_TERMINAL_NOISE and low < high:
            middle = (low + high) // 2
            # depth first, the left half last on the stack: the stretches come out in order
            pending.append((cuts[middle], end, middle + 1, high))
            pending.append((start, cuts[middle], low, middle))
            continue
        out.append(raw[start:end])
        if piece.reason != NO_TERMINAL_NOISE:
            kept.append(KeptStretch(start, end, piece.reason or NOT_SMALLER, piece.detail))
    return Assembled("".join(out), _sum(removed), tuple(kept), cleaned, raw_tail)


def describe(kept: tuple[KeptStretch, ...]) -> str:
    """The gate's detail naming the kept stretches: ``"stretches kept raw: 1200-3400 (unsupported_control:
    CSI 2;23 r (DECSTBM) at offset 40)"``; past :data:`NAMED_IN_DETAIL`, how many more."""
    named = [f"{k.start}-{k.end} ({k.reason}{': ' + k.detail if k.detail else ''})" for k in kept[:NAMED_IN_DETAIL]]
    more = len(kept) - NAMED_IN_DETAIL
    return "stretches kept raw: " + "; ".join(named) + (f"; and {more} more" if more > 0 else "")
