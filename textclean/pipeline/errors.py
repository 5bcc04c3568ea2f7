"""Errors a caller can meet, in a module that imports nothing (the hook catches them before loading
the pipeline)."""

from __future__ import annotations


class TokenizerError(ValueError):
    """An encoding name no backend can count: unknown to tiktoken, or not downloadable (offline).

    Raised when the encoding is first loaded (:func:`token_counter`, or a gate's first count); the
    command line prints its message as one line and exits 2."""


class BackendError(TokenizerError):
    """A token-counting backend that cannot be used: ``TEXTCLEAN_TOKEN_BACKEND`` (or ``backend=``) names
    none, or names bpe-openai where it is not installed. The command line passes its input through
    unchanged and says so in one line."""
