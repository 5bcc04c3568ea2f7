"""The gate: adopt the cleaner's candidate only when it is verified lossless and strictly smaller."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import overload

from . import cleaner, verify
from .probe import has_terminal_noise
from .result import (
    BELOW_MIN_TOKENS,
    CONTENT_WOULD_CHANGE,
    NO_TERMINAL_NOISE,
    NOT_SMALLER,
    NOTHING_REMOVED,
    TOO_LARGE,
    Result,
)
from .tokens import Tokenizer, encoding_of, max_token_bytes, releases_gil, token_counter

DEFAULT_MIN_TOKENS = 50
#: Inputs longer than this many characters are refused unread (``too_large``).
DEFAULT_MAX_CHARS = 32 * 1024 * 1024

# Undecodable bytes travel as lone surrogates (surrogateescape). Removing what stood between two of
# them can make their bytes a valid UTF-8 character once encoded back: b"\xc3\x1b[m\xa9" would
# become "é" where a terminal showed two replacement characters.
_SURROGATE_RUN = re.compile("[\udc80-\udcff]{2,}")


def _joined_bytes(candidate: str) -> str | None:
    """Where the candidate's undecodable bytes would decode as a character once written as bytes."""
    for m in _SURROGATE_RUN.finditer(candidate):
        run = m.group()
        if bytes(ord(c) - 0xDC00 for c in run).decode("utf-8", "surrogateescape") != run:
            return f"undecodable bytes would join into a UTF-8 character at offset {m.start()} of the candidate"
    return None


class TextClean:
    """A configured cleaner for hot paths: build once, call :meth:`clean` per message."""

    def __init__(
        self,
        *,
        min_tokens: int = DEFAULT_MIN_TOKENS,
        tokenizer: Tokenizer = None,
        max_chars: int | None = None,
    ) -> None:
        if min_tokens < 0:
            raise ValueError("min_tokens must be >= 0")
        self.min_tokens = min_tokens
        self.max_chars = DEFAULT_MAX_CHARS if max_chars is None else max_chars
        self._count = token_counter(tokenizer)
        # Cheap bounds on a count (a token is 1..N UTF-8 bytes) let a clean message skip counting.
        self._encoding_name = encoding_of(tokenizer)
        self._max_token_bytes: int | None = None

    @overload
    def clean(self, text: str, *, tokens_before: int | None = None) -> Result[str]: ...
    @overload
    def clean(self, text: bytes, *, tokens_before: int | None = None) -> Result[bytes]: ...

    def clean(self, text: str | bytes, *, tokens_before: int | None = None) -> Result[str] | Result[bytes]:
        if isinstance(text, bytes):
            return _clean_bytes(self, text, tokens_before)
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
        try:
            proposal = cleaner.candidate(text)
        except cleaner.Refused as refusal:
            # Not counted either: refused noise (hostile input above all) costs no tokenization.
            return self._refuse(text, refusal.reason, refusal.detail, tokens_before, pending=undecided)
        if tokens_before is None:
            tokens_before = self._count(text)
            if tokens_before < self.min_tokens:
                return self._refuse(text, BELOW_MIN_TOKENS, None, tokens_before)
        difference = verify.first_difference(text, proposal.text) or _joined_bytes(proposal.text)
        if difference is not None:
            return self._refuse(text, CONTENT_WOULD_CHANGE, difference, tokens_before)
        tokens_after = self._count(proposal.text)
        if tokens_after >= tokens_before:
            return self._refuse(text, NOT_SMALLER, f"{tokens_after} >= {tokens_before} tokens", tokens_before)
        return Result(
            proposal.text,
            applied=True,
            reason=None,
            detail=None,
            removed=proposal.removed,
            tokens_before=tokens_before,
            tokens_after=tokens_after,
            count=self._count,
            original=text,
        )

    def clean_many(self, texts: Sequence[str], *, workers: int | None = None) -> list[Result]:
        """:meth:`clean` of each text, in order; in a thread pool when the token counter releases the
        GIL (tiktoken: the counts of some texts overlap the cleaning of others), serially otherwise."""
        if workers is None:
            workers = min(len(texts), os.cpu_count() or 1)
        if workers <= 1 or not releases_gil(self._count):
            return [self.clean(text) for text in texts]
        with ThreadPoolExecutor(workers) as pool:
            return list(pool.map(self.clean, texts))

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


def _clean_bytes(gate: TextClean, raw: bytes, tokens_before: int | None) -> Result[bytes]:
    """Bytes in, bytes out: undecodable bytes travel as lone surrogates and come back exactly; on a
    refusal ``text`` is ``raw`` itself."""
    result = gate.clean(raw.decode("utf-8", "surrogateescape"), tokens_before=tokens_before)
    return result.with_text(result.text.encode("utf-8", "surrogateescape") if result.applied else raw)


_DEFAULT: dict[tuple[int, int | None], TextClean] = {}


@overload
def clean(text: str, *, min_tokens: int = ..., tokenizer: Tokenizer = ..., tokens_before: int | None = ...,
          max_chars: int | None = ...) -> Result[str]: ...
@overload
def clean(text: bytes, *, min_tokens: int = ..., tokenizer: Tokenizer = ..., tokens_before: int | None = ...,
          max_chars: int | None = ...) -> Result[bytes]: ...


def clean(
    text: str | bytes,
    *,
    min_tokens: int = DEFAULT_MIN_TOKENS,
    tokenizer: Tokenizer = None,
    tokens_before: int | None = None,
    max_chars: int | None = None,
) -> Result[str] | Result[bytes]:
    """Clean one tool message (``str``, or ``bytes`` for a ``bytes`` result); see :class:`TextClean`."""
    if tokenizer is None:
        key = (min_tokens, max_chars)
        gate = _DEFAULT.get(key)
        if gate is None:
            gate = _DEFAULT.setdefault(key, TextClean(min_tokens=min_tokens, max_chars=max_chars))
    else:
        gate = TextClean(min_tokens=min_tokens, tokenizer=tokenizer, max_chars=max_chars)
    return gate.clean(text, tokens_before=tokens_before)
