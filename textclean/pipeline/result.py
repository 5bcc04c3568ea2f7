"""What the gate returns: :class:`Result`, the per-transform account :class:`Removed`, the reasons."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import AnyStr, Generic, NamedTuple

# Gate reasons, in the order the gate checks them (public, documented in the README).
TOO_LARGE = "too_large"
BELOW_MIN_TOKENS = "below_min_tokens"
NO_TERMINAL_NOISE = "no_terminal_noise"
UNSUPPORTED_CONTROL = "unsupported_control"
MALFORMED_ESCAPE = "malformed_escape"
CONTENT_WOULD_CHANGE = "content_would_change"
NOT_SMALLER = "not_smaller"

GATE_REASONS = (
    TOO_LARGE,
    BELOW_MIN_TOKENS,
    NO_TERMINAL_NOISE,
    UNSUPPORTED_CONTROL,
    MALFORMED_ESCAPE,
    CONTENT_WOULD_CHANGE,
    NOT_SMALLER,
)
#: Added by the message integration: a tool output with non-text parts, left whole.
NON_TEXT_BLOCKS = "non_text_blocks"


class KeptStretch(NamedTuple):
    """A stretch of the raw text kept exactly as it arrived in an adopted message (issue 40):
    ``start`` / ``end`` offsets into the raw text (characters of a ``str``, bytes of a ``bytes``
    input) and why its cleaning was not adopted: a gate reason, and the detail its own gate gave
    (offsets in it count from the stretch's start)."""

    start: int
    end: int
    reason: str
    detail: str | None


@dataclass(frozen=True)
class Removed:
    """What each transform removed: a count of sequences or redrawn lines, and characters."""

    escape_sequences: int = 0  # escape sequences and stray BELs removed
    escape_chars: int = 0
    cr_redraws: int = 0  # lines redrawn in place: \r, erase in line, cursor moves within the line
    cr_chars: int = 0  # visible characters those redraws overwrote or erased
    backspace_redraws: int = 0
    backspace_chars: int = 0
    multiline_redraws: int = 0  # lines rewritten after the cursor moved up
    multiline_chars: int = 0

    def describe(self) -> str:
        """One readable line: "24 escape sequences (90 characters), 1 carriage-return redraw (301
        characters overwritten)", each transform that removed something; "nothing" when none did."""
        parts = []
        for count, chars, one, many, what in (
            (self.escape_sequences, self.escape_chars, "escape sequence", "escape sequences", "characters"),
            (self.cr_redraws, self.cr_chars, "carriage-return redraw", "carriage-return redraws",
             "characters overwritten"),
            (self.backspace_redraws, self.backspace_chars, "backspace redraw", "backspace redraws",
             "characters overwritten"),
            (self.multiline_redraws, self.multiline_chars, "multi-line redraw", "multi-line redraws",
             "characters overwritten"),
        ):
            if count or chars:
                parts.append(f"{count} {one if count == 1 else many} ({chars} {what})")
        return ", ".join(parts) or "nothing"


NOTHING_REMOVED = Removed()


class Result(Generic[AnyStr]):
    """The outcome of one :func:`textclean.clean` call.

    ``text`` is the cleaned text, or the very object that was passed in when the gate refused: ``str``
    for a ``str`` input, ``bytes`` for a ``bytes`` input (``Result[str]``, ``Result[bytes]``).
    ``tokens_before`` is counted on first access when the gate did not need it. So is ``reason`` for a
    message with no terminal noise whose size left open whether it is below ``min_tokens``: the hot
    path (a clean message, ``text`` returned as is) never tokenizes.
    """

    __slots__ = (
        "text", "applied", "_detail", "removed", "_reason", "_tokens_before", "_tokens_after", "_count",
        "_min_tokens", "pages_cleaned", "pages_kept", "kept",
    )

    def __init__(
        self,
        text: AnyStr,
        *,
        applied: bool,
        reason: str | None,
        detail: str | None,
        removed: Removed,
        tokens_before: int | None,
        tokens_after: int | None,
        count: Callable[[str], int],
        original: str,
        min_tokens: int | None = None,
        pages_cleaned: int = 0,
        pages_kept: int = 0,
        kept: tuple[KeptStretch, ...] = (),
    ) -> None:
        self.text: AnyStr = text
        # A text resolved page by page (docs/design.md, 'Pages'): pages cleaned, and kept as raw bytes.
        self.pages_cleaned = pages_cleaned
        self.pages_kept = pages_kept
        # A message refused whole and adopted stretch by stretch (issue 40): the stretches kept raw.
        self.kept = kept
        self.applied = applied
        self._reason = reason
        self._min_tokens = min_tokens  # set when reason waits for a count
        self._detail = detail
        self.removed = removed
        self._tokens_before = tokens_before
        self._tokens_after = tokens_after
        self._count = (count, original)

    def with_text(self, text: bytes, kept: tuple[KeptStretch, ...] = (), detail: str | None = None) -> Result[bytes]:
        """This outcome carrying ``text`` (the bytes form of a ``str`` outcome); counts stay shared.
        ``kept`` / ``detail``: the kept stretches in byte offsets, and the detail naming them."""
        count, original = self._count
        return Result(text, applied=self.applied, reason=self._reason, detail=detail if kept else self._detail,
                      removed=self.removed, tokens_before=self._tokens_before, tokens_after=self._tokens_after,
                      count=count, original=original, min_tokens=self._min_tokens, pages_cleaned=self.pages_cleaned,
                      pages_kept=self.pages_kept, kept=kept)

    @property
    def reason(self) -> str | None:
        self._settle()
        return self._reason

    @property
    def detail(self) -> str | None:
        self._settle()
        return self._detail

    def _settle(self) -> None:
        """Decide a refusal that waited for a count: below ``min_tokens`` comes first in the gate."""
        if self._min_tokens is not None:
            if self.tokens_before < self._min_tokens:
                self._reason, self._detail = BELOW_MIN_TOKENS, None
            self._min_tokens = None

    @property
    def tokens_before(self) -> int:
        if self._tokens_before is None:
            count, original = self._count
            self._tokens_before = count(original)
        return self._tokens_before

    @property
    def tokens_after(self) -> int:
        if self._tokens_after is None:
            text = self.text if isinstance(self.text, str) else self.text.decode("utf-8", "surrogateescape")
            self._tokens_after = self.tokens_before if not self.applied else self._count[0](text)
        return self._tokens_after

    @property
    def tokens_saved(self) -> int:
        return self.tokens_before - self.tokens_after

    def __repr__(self) -> str:
        state = "applied" if self.applied else f"refused: {self.reason}"
        return f"Result({state}, tokens {self.tokens_before} -> {self.tokens_after}, {self.removed})"
