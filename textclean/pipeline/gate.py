"""The gate: adopt the cleaner's candidate only when it is verified lossless and strictly smaller."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Any, NamedTuple, cast, overload

from . import clean as cleaner
from . import kept as stretches
from . import verify
from .probe import has_terminal_noise
from .result import (
    BELOW_MIN_TOKENS,
    CONTENT_WOULD_CHANGE,
    MALFORMED_ESCAPE,
    NO_TERMINAL_NOISE,
    NOT_SMALLER,
    NOTHING_REMOVED,
    TOO_LARGE,
    UNSUPPORTED_CONTROL,
    KeptStretch,
    Result,
)
from .tokens import (
    PairCount,
    Tokenizer,
    additive,
    encoding_of,
    max_token_bytes,
    releases_gil,
    surely_fewer,
    token_counter,
)

DEFAULT_MIN_TOKENS = 50
#: The sizes a terminal can have (tmux's own limits): a size outside them is a caller's error.
MIN_SIZE = 2
MAX_SIZE = 10_000
#: Inputs longer than this many characters are refused unread (``too_large``).
DEFAULT_MAX_CHARS = 32 * 1024 * 1024

# Undecodable bytes travel as lone surrogates (surrogateescape). Removing what stood between two of
# them can make their bytes a valid UTF-8 character once encoded back: b"\xc3\x1b[m\xa9" would
# become "é" where a terminal showed two replacement characters.
_SURROGATE_RUN = re.compile(r"[\udc80-\udcff]{2,}")  # (raw: re reads the escapes, mypyc takes no surrogate literal)


def _joined_bytes(candidate: str) -> str | None:
    """Where the candidate's undecodable bytes would decode as a character once written as bytes."""
    if candidate.isascii():  # no lone surrogate (constant time on an ASCII str)
        return None
    for m in _SURROGATE_RUN.finditer(candidate):
        run = m.group()
        if bytes(ord(c) - 0xDC00 for c in run).decode("utf-8", "surrogateescape") != run:
            return f"undecodable bytes would join into a UTF-8 character at offset {m.start()} of the candidate"
    return None


#: How many pages the gate keeps on the verifier's word before it refuses the whole message.
MAX_REJECTED_PAGES = 8
#: The verifier's work finding rejected pages, in multiples of the text's length (bisection checks
#: prefixes): past it the message is refused, so no input makes the retries quadratic.
VERIFY_WORK_PER_CHAR = 24


def _size(columns: int | None, rows: int | None) -> tuple[int | None, int | None]:
    for name, value in (("columns", columns), ("rows", rows)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                  or not MIN_SIZE <= value <= MAX_SIZE):
            raise ValueError(f"{name} must be an int from {MIN_SIZE} to {MAX_SIZE} or None, not {value!r}")
    return columns, rows


class Display(NamedTuple):
    """Which display the text was written for, as the models take it: a terminal of ``columns`` x
    ``rows`` (either may be unknown), or no terminal at all (``terminal=False``: logical lines, no
    right margin, as a pipe or a log viewer has them); ``fresh``: a new terminal (an empty screen, the
    cursor home, default modes)."""

    columns: int | None = None
    rows: int | None = None
    terminal: bool = False
    fresh: bool = False

    def keywords(self) -> dict[str, Any]:
        return {"columns": self.columns, "rows": self.rows, "terminal": self.terminal, "fresh": self.fresh}


def display(columns: int | None = None, rows: int | None = None, terminal: bool | None = None,
            fresh: bool = False) -> Display:
    """The display a caller names: a size makes a terminal; ``terminal=True`` without one, a terminal of
    unknown size; neither, no terminal. ``fresh`` needs a terminal."""
    columns, rows = _size(columns, rows)
    sized = columns is not None or rows is not None
    if terminal is None:
        terminal = sized or fresh
    elif not isinstance(terminal, bool):
        raise ValueError(f"terminal must be True, False or None, not {terminal!r}")
    if sized and not terminal:
        raise ValueError("terminal=False (no terminal) takes no columns or rows: a size is a terminal's")
    if not isinstance(fresh, bool):
        raise ValueError(f"fresh must be True or False, not {fresh!r}")
    return Display(columns, rows, terminal, fresh)


def _check(raw: str, candidate: str, shown: Display) -> str | None:
    """The verifier's verdict on a whole candidate (None: it passes)."""
    difference = verify.first_difference(raw, candidate, **shown.keywords())
    return difference or _joined_bytes(candidate)


def _offset(difference: str | None) -> int | None:
    """The raw offset of the page the verifier's difference names (a ``verify.Difference``), if any."""
    return difference.offset if isinstance(difference, verify.Difference) else None


def _keep_rejected_pages(
    raw: str, segments: list[cleaner.Segment], difference: str | None, shown: Display,
) -> tuple[cleaner.Candidate | None, str | None]:
    """Keep, one at a time, the first cleaned page whose prefix the verifier rejects, until the whole
    candidate passes (the verifier alone decides adoption) or nothing is left to keep (None).

    ``segments``: the rejected candidate's pages, taken over: emptied before the next resolution, so
    that no two candidates, nor two lists of pages, are alive at once."""
    keep: set[int] = set()
    budget = [VERIFY_WORK_PER_CHAR * len(raw)]
    proposal = None
    for _ in range(MAX_REJECTED_PAGES):
        bad = _named_page(difference, segments)
        if bad is None:
            bad = _first_rejected(raw, segments, shown, budget)
        if bad is None or segments[bad].text is None or bad in keep:
            return None, difference
        keep.add(bad)
        budget[0] -= len(raw)  # resolving again
        if budget[0] < 0:
            return None, difference
        proposal = None
        segments.clear()
        try:
            proposal = cleaner.candidate(raw, keep=keep, **shown.keywords())
        except cleaner.Refused:
            return None, difference
        segments = list(proposal.segments or ())
        difference = _check(raw, proposal.text, shown)
        if difference is None:
            return proposal, None
    return None, difference


def _named_page(difference: str | None, segments: list[cleaner.Segment]) -> int | None:
    """The cleaned page holding the raw offset the verifier's difference names, if any (a hint:
    whatever page is kept, only the verifier's verdict on the whole adopts the candidate)."""
    offset = _offset(difference)
    if offset is None:
        return None
    for index, segment in enumerate(segments):
        if segment.page.start <= offset < segment.page.end:
            return index if segment.text is not None else None
    return None


def _first_rejected(
    raw: str, segments: list[cleaner.Segment], shown: Display, budget: list[int],
) -> int | None:
    """The first page whose prefix (the raw text up to its end, the candidate up to its segment) the
    verifier rejects, by bisection (the whole is known to be rejected); None past the work budget."""
    low, high = 0, len(segments) - 1
    while low < high:
        middle = (low + high) // 2
        end = segments[middle].page.end
        budget[0] -= end
        if budget[0] < 0:
            return None
        prefix = cleaner.joined(raw[:end], segments[: middle + 1])
        if _check(raw[:end], prefix, shown) is None:
            low = middle + 1
        else:
            high = middle
    return low


#: The refusals of a whole message a stretch can fix: the cleaning fails in one place (issue 40).
STRETCH_FIXES = frozenset((UNSUPPORTED_CONTROL, MALFORMED_ESCAPE, CONTENT_WOULD_CHANGE, NOT_SMALLER))


class TextClean:
    """A configured cleaner for hot paths: build once, call :meth:`clean` per message."""

    def __init__(
        self,
        *,
        min_tokens: int = DEFAULT_MIN_TOKENS,
        tokenizer: Tokenizer = None,
        max_chars: int | None = None,
        columns: int | None = None,
        rows: int | None = None,
        terminal: bool | None = None,
        fresh: bool = False,
    ) -> None:
        if min_tokens < 0:
            raise ValueError("min_tokens must be >= 0")
        self.display = display(columns, rows, terminal, fresh)
        self.columns, self.rows = self.display.columns, self.display.rows
        self._terminal = terminal
        self.min_tokens = min_tokens
        self.max_chars = DEFAULT_MAX_CHARS if max_chars is None else max_chars
        self._count = token_counter(tokenizer)
        # Cheap bounds on a count (a token is 1..N UTF-8 bytes) let a clean message skip counting.
        self._encoding_name = encoding_of(tokenizer)
        self._max_token_bytes: int | None = None
        # Counts add up across cuts: the input and the candidate share their unchanged lines' count.
        self._additive = additive(self._count)

    @overload
    def clean(self, text: str, *, tokens_before: int | None = None, columns: int | None = None,
              rows: int | None = None, terminal: bool | None = None, fresh: bool | None = None) -> Result[str]: ...
    @overload
    def clean(self, text: bytes, *, tokens_before: int | None = None, columns: int | None = None,
              rows: int | None = None, terminal: bool | None = None, fresh: bool | None = None) -> Result[bytes]: ...

    def clean(
        self, text: str | bytes, *, tokens_before: int | None = None, columns: int | None = None,
        rows: int | None = None, terminal: bool | None = None, fresh: bool | None = None,
    ) -> Result[str] | Result[bytes]:
        """Clean one message, written for the display this gate was built for unless the call names
        another: ``columns`` / ``rows``, the size of the terminal the text was written to;
        ``terminal=True`` without a size, a terminal of unknown size; ``fresh=True``, a new terminal
        (empty screen, cursor home, default modes). By default, no terminal (pipes, logs)."""
        if columns is None and rows is None and terminal is None and fresh is None:
            shown = self.display
        else:
            shown = display(
                self.columns if columns is None else columns,
                self.rows if rows is None else rows,
                self._terminal if terminal is None else terminal,
                self.display.fresh if fresh is None else fresh,
            )
        return self._clean(text, tokens_before, shown)

    def _clean(self, text: str | bytes, tokens_before: int | None, shown: Display) -> Result[str] | Result[bytes]:
        if isinstance(text, bytes):
            return _clean_bytes(self, text, tokens_before, shown)
        if not isinstance(text, str):
            raise TypeError(f"clean() takes str or bytes, not {type(text).__name__}")
        if len(text) > self.max_chars:
            return self._refuse(text, TOO_LARGE, f"{len(text)} characters > max_chars={self.max_chars}",
                                tokens_before)
        noisy = has_terminal_noise(text)
        undecided = False  # whether tokens_before < min_tokens is still open
        if tokens_before is not None:
            if tokens_before < self.min_tokens:
                return self._refuse(text, BELOW_MIN_TOKENS, None, tokens_before)
        else:
            below = self._surely_below(text)
            if below:
                return self._refuse(text, BELOW_MIN_TOKENS, None, None)
            undecided = below is None
        if not noisy:
            # no_terminal_noise, unless a count shows below_min_tokens: decided when someone asks.
            return self._refuse(text, NO_TERMINAL_NOISE, None, tokens_before, pending=undecided)
        proposal: cleaner.Candidate | None
        try:
            proposal = cleaner.candidate(text, **shown.keywords())
        except cleaner.Refused as refusal:
            # Not counted either: refused noise (hostile input above all) costs no tokenization.
            by_stretch = self._kept_stretches(text, shown, refusal.reason, refusal.detail, tokens_before)
            if by_stretch is not None:
                return by_stretch
            return self._refuse(text, refusal.reason, refusal.detail, tokens_before, pending=undecided)
        pair = None
        # Left uncounted (counted when first asked for) where bounds show the text is not below
        # min_tokens and the candidate has fewer tokens: the token counter is then never loaded.
        if tokens_before is None and (undecided or not self._surely_fewer(proposal.text, text)):
            # A caller's tokens_before may come from another count: only our own count of the input
            # is the base the candidate's count is derived from.
            if self._additive:
                pair = PairCount(self._count, text, proposal.text)
                tokens_before = pair.before
            else:
                tokens_before = self._count(text)
            if tokens_before < self.min_tokens:
                return self._refuse(text, BELOW_MIN_TOKENS, None, tokens_before)
        difference = _check(text, proposal.text, shown)
        if difference is not None and proposal.segments is not None and len(proposal.segments) > 1:
            segments = list(proposal.segments)
            proposal = pair = None  # the rejected candidate is not kept beside the next one
            retried, difference = _keep_rejected_pages(text, segments, difference, shown)
            if retried is not None:
                proposal = retried
        if difference is not None or proposal is None:
            by_stretch = self._kept_stretches(text, shown, CONTENT_WOULD_CHANGE, difference, tokens_before)
            return by_stretch or self._refuse(text, CONTENT_WOULD_CHANGE, difference, tokens_before)
        tokens_after: int | None = None
        if tokens_before is None and self._surely_fewer(proposal.text, text):
            pass  # both counts left to the result
        else:
            if tokens_before is None:  # (the pages were resolved again: the new candidate is not surely smaller)
                tokens_before = self._count(text)
            if pair is not None and pair.candidate is proposal.text:
                tokens_after = pair.after()
            else:
                tokens_after = self._count(proposal.text)
            if tokens_after >= tokens_before:
                why = f"{tokens_after} >= {tokens_before} tokens"
                by_stretch = self._kept_stretches(text, shown, NOT_SMALLER, why, tokens_before)
                return by_stretch or self._refuse(text, NOT_SMALLER, why, tokens_before)
        kept = next((seg for seg in proposal.segments or () if seg.text is None), None)
        return Result(
            proposal.text,
            applied=True,
            reason=None,
            detail=None if kept is None else f"page kept: {kept.why}",
            pages_cleaned=proposal.pages_cleaned,
            pages_kept=proposal.pages_kept,
            removed=proposal.removed,
            tokens_before=tokens_before,
            tokens_after=tokens_after,
            count=self._count,
            original=text,
        )

    def _kept_stretches(
        self, text: str, shown: Display, reason: str, detail: str | None, tokens_before: int | None,
    ) -> Result[str] | None:
        """The message gated stretch by stretch at the cut points both sides confirm (for no terminal),
        the stretches whose cleaning fails kept raw; None where that is not adopted either: nothing to
        cut, no stretch cleaned, the whole not verified, or not strictly fewer tokens than the raw."""
        if shown.terminal or reason not in STRETCH_FIXES or len(text) > stretches.MAX_CHARS:
            return None
        cuts = stretches.cut_points(text)
        if not cuts:
            return None
        if tokens_before is None:
            tokens_before = self._count(text)
            if tokens_before < self.min_tokens:
                return None
        whole = stretches.Piece(None, NOTHING_REMOVED, reason, detail)
        assembled = stretches.resolve(text, cuts, lambda stretch: self._stretch(stretch, shown),
                                      lambda raw, candidate: _check(raw, candidate, shown), whole)
        if assembled is None:
            return None
        tokens_after = self._count(assembled.text)
        if tokens_after >= tokens_before:
            return None
        return Result(
            assembled.text,
            applied=True,
            reason=None,
            detail=stretches.describe(assembled.kept),
            removed=assembled.removed,
            tokens_before=tokens_before,
            tokens_after=tokens_after,
            count=self._count,
            original=text,
            kept=assembled.kept,
        )

    def _stretch(self, stretch: str, shown: Display) -> stretches.Piece:
        """One stretch between cut points through the gate's own checks (no ``min_tokens``)."""
        if not has_terminal_noise(stretch):
            return stretches.Piece(None, NOTHING_REMOVED, NO_TERMINAL_NOISE, None)
        try:
            proposal = cleaner.candidate(stretch, **shown.keywords())
        except cleaner.Refused as refusal:
            return stretches.Piece(None, NOTHING_REMOVED, refusal.reason, refusal.detail)
        difference = _check(stretch, proposal.text, shown)
        if difference is not None:
            return stretches.Piece(None, NOTHING_REMOVED, CONTENT_WOULD_CHANGE, difference)
        after, before = self._count(proposal.text), self._count(stretch)
        if after >= before:
            return stretches.Piece(None, NOTHING_REMOVED, NOT_SMALLER, f"{after} >= {before} tokens")
        return stretches.Piece(proposal.text, proposal.removed, None, None)

    def clean_many(self, texts: Sequence[str], *, workers: int | None = None) -> list[Result[str]]:
        """:meth:`clean` of each text, in order; in a thread pool when the token counter releases the
        GIL (tiktoken: the counts of some texts overlap the cleaning of others), serially otherwise."""
        if workers is None:
            workers = min(len(texts), os.cpu_count() or 1)
        if workers <= 1 or not releases_gil(self._count):
            return [self.clean(text) for text in texts]
        from concurrent.futures import ThreadPoolExecutor  # (imports logging: not for one message)

        with ThreadPoolExecutor(workers) as pool:
            return list(pool.map(self.clean, texts))

    def _surely_fewer(self, candidate: str, text: str) -> bool:
        """Whether ``candidate`` surely has fewer tokens than ``text``, told by bounds without a count."""
        return self._encoding_name is not None and surely_fewer(self._encoding_name, candidate, text)

    def _surely_below(self, text: str) -> bool | None:
        """Decide ``tokens < min_tokens`` without counting where bounds allow; None when they do not."""
        upper = len(text) if text.isascii() else 4 * len(text)  # a token is at least one UTF-8 byte
        if upper < self.min_tokens:
            return True
        if self._encoding_name is not None:
            if self._max_token_bytes is None:
                self._max_token_bytes = max_token_bytes(self._encoding_name)
            if len(text) >= self.min_tokens * self._max_token_bytes:  # bytes >= chars
                return False
        return None

    def _refuse(
        self, text: str, reason: str, detail: str | None, tokens_before: int | None, *, pending: bool = False,
    ) -> Result[str]:
        """A refusal; ``pending``: ``reason`` stands unless a count (made when first asked for) shows
        the text is below ``min_tokens``, which comes first in the gate's order."""
        return Result(
            text,
            applied=False,
            reason=reason,
            detail=detail,
            removed=NOTHING_REMOVED,
            tokens_before=tokens_before,
            tokens_after=None,
            count=self._count,
            original=text,
            min_tokens=self.min_tokens if pending else None,
        )


def _clean_bytes(
    gate: TextClean, raw: bytes, tokens_before: int | None, shown: Display,
) -> Result[bytes]:
    """Bytes in, bytes out: undecodable bytes travel as lone surrogates and come back exactly; on a
    refusal ``text`` is ``raw`` itself."""
    text = raw.decode("utf-8", "surrogateescape")
    result = cast("Result[str]", gate._clean(text, tokens_before, shown))
    encoded = result.text.encode("utf-8", "surrogateescape") if result.applied else raw
    if not result.kept:
        return result.with_text(encoded)
    kept = tuple(KeptStretch(_bytes_at(text, k.start), _bytes_at(text, k.end), k.reason, k.detail)
                 for k in result.kept)
    return result.with_text(encoded, kept, stretches.describe(kept))


def _bytes_at(text: str, offset: int) -> int:
    """The byte offset of character ``offset`` of a text decoded with surrogateescape."""
    return len(text[:offset].encode("utf-8", "surrogateescape"))


_DEFAULT: dict[tuple[int, int | None], TextClean] = {}


@overload
def clean(text: str, *, min_tokens: int = ..., tokenizer: Tokenizer = ..., tokens_before: int | None = ...,
          max_chars: int | None = ..., columns: int | None = ..., rows: int | None = ...,
          terminal: bool | None = ..., fresh: bool = ...) -> Result[str]: ...
@overload
def clean(text: bytes, *, min_tokens: int = ..., tokenizer: Tokenizer = ..., tokens_before: int | None = ...,
          max_chars: int | None = ..., columns: int | None = ..., rows: int | None = ...,
          terminal: bool | None = ..., fresh: bool = ...) -> Result[bytes]: ...


def clean(
    text: str | bytes,
    *,
    min_tokens: int = DEFAULT_MIN_TOKENS,
    tokenizer: Tokenizer = None,
    tokens_before: int | None = None,
    max_chars: int | None = None,
    columns: int | None = None,
    rows: int | None = None,
    terminal: bool | None = None,
    fresh: bool = False,
) -> Result[str] | Result[bytes]:
    """Clean one tool message (``str``, or ``bytes`` for a ``bytes`` result); see :class:`TextClean`.

    Which display the text was written for: by default **no terminal** (pipes, logs: logical lines,
    no wrap); ``columns`` / ``rows``, a terminal of that size; ``terminal=True`` without a size, a
    terminal of unknown size (at least 80 columns); ``fresh=True``, a new terminal (empty screen,
    cursor home, default modes), as a recording or ``textclean run --pty`` starts."""
    if tokenizer is None:
        key = (min_tokens, max_chars)
        gate = _DEFAULT.get(key)
        if gate is None:
            gate = _DEFAULT.setdefault(key, TextClean(min_tokens=min_tokens, max_chars=max_chars))
    else:
        gate = TextClean(min_tokens=min_tokens, tokenizer=tokenizer, max_chars=max_chars)
    return gate.clean(text, tokens_before=tokens_before, columns=columns, rows=rows, terminal=terminal, fresh=fresh)
