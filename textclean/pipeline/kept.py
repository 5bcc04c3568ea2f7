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

__all__ = ["Assembled", "KeptStretch", "Piece", "assemble", "cut_points", "describe", "judged", "resolve"]

#: How many kept stretches the gate's detail names (the ``kept`` field holds them all).
NAMED_IN_DETAIL = 4
#: The longest message (characters) split into stretches: the split reads the text twice more and
#: gates each stretch, several times the whole refusal's cost (0.9 MB refused in 0.4 s took 3.4 s
#: split), so a longer refusal stays whole and answers as fast as before.
MAX_CHARS = 256 * 1024


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
    raw_tail: int  # where the trailing run of raw stretches starts in the raw text (its length: none)


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
    ``gate`` refuses is cut at its last cut point if it ends the text, else halved at its middle one,
    until it holds none; then it is kept raw (reported
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
            # the trailing stretch alone first: a refused control stops both readings, so the last cut
            # point is the nearest one before it (the rest, when refused too, is halved)
            middle = high - 1 if end == len(raw) else (low + high) // 2
            # depth first, the left half last on the stack: the stretches come out in order
            pending.append((cuts[middle], end, middle + 1, high))
            pending.append((start, cuts[middle], low, middle))
            continue
        out.append(raw[start:end])
        if piece.reason != NO_TERMINAL_NOISE:
            kept.append(KeptStretch(start, end, piece.reason or NOT_SMALLER, piece.detail))
    return Assembled("".join(out), _sum(removed), tuple(kept), cleaned, raw_tail)


def judged(raw: str, text: str, tail: int, check: Callable[[str, str], str | None]) -> str | None:
    """The verifier's verdict (``check``) on ``text``, assembled stretch by stretch, judged whole against
    ``raw``. Where the verifier cannot read ``raw`` whole (a refused control in the trailing raw run,
    ``raw[tail:]``), it judges the cleaned part against the raw text up to ``tail``, a cut point
    confirmed by both readings: every line before it is settled. The rest is the raw text itself."""
    difference = check(raw, text)
    if difference is None or not difference.startswith("unresolvable") or not 0 < tail < len(raw):
        return difference
    cleaned = len(text) - (len(raw) - tail)
    if cleaned < 0 or text[cleaned:] != raw[tail:]:
        return difference
    return check(raw[:tail], text[:cleaned])


#: How many times the text assembled is gated again (see :func:`resolve`).
MAX_PASSES = 4


def resolve(raw: str, cuts: list[int], gate: Callable[[str], Piece], check: Callable[[str, str], str | None],
            whole: Piece) -> Assembled | None:
    """``raw`` gated stretch by stretch at ``cuts`` (:func:`cut_points`), verified, until it is a fixed
    point; None where no stretch is cleaned or the verifier refuses the result.

    A cleaned stretch redraws nothing, so the text assembled may confirm cut points the raw text did not
    (a line end within 24 rows below a redraw, confirmed only once 24 more rows are written, which a
    refused control stops). The trailing raw run is then gated again at those cut points; each pass is
    verified against the text before it, and the final text against ``raw`` itself. Without it, cleaning
    the text again would clean more (cleaning is idempotent, README). The kept stretches are given in
    ``raw``'s offsets; a pass whose kept stretches are not all in that raw run ends the passes."""
    first = assemble(raw, cuts, gate, whole)
    if not first.cleaned or not first.kept or judged(raw, first.text, first.raw_tail, check) is not None:
        return None
    done = first
    for _ in range(MAX_PASSES - 1):
        if done.kept[0].start < done.raw_tail:
            break  # a stretch kept in the middle: its offsets would not map back
        text = done.text
        shift = len(raw) - len(text)  # text[x] is raw[x + shift] in the trailing raw run
        later = [cut for cut in cut_points(text) if cut + shift > done.raw_tail]
        if not later:
            break
        again = assemble(text, later, gate, Piece(None, NOTHING_REMOVED, whole.reason, whole.detail))
        tail = again.raw_tail + shift
        if (not again.cleaned or tail <= done.raw_tail or not again.kept or again.kept[0].start < again.raw_tail
                or judged(text, again.text, again.raw_tail, check) is not None
                or judged(raw, again.text, tail, check) is not None):
            break
        kept = tuple(k._replace(start=k.start + shift, end=k.end + shift) for k in again.kept)
        done = Assembled(again.text, _sum([done.removed, again.removed]), kept, done.cleaned + again.cleaned, tail)
    return done


def describe(kept: tuple[KeptStretch, ...]) -> str:
    """The gate's detail naming the kept stretches: ``"stretches kept raw: 1200-3400 (unsupported_control:
    CSI 2;23 r (DECSTBM) at offset 40)"``; past :data:`NAMED_IN_DETAIL`, how many more."""
    named = [f"{k.start}-{k.end} ({k.reason}{': ' + k.detail if k.detail else ''})" for k in kept[:NAMED_IN_DETAIL]]
    more = len(kept) - NAMED_IN_DETAIL
    return "stretches kept raw: " + "; ".join(named) + (f"; and {more} more" if more > 0 else "")
