"""Errors a caller can meet, in a module that imports nothing (the hook catches them before loading
the pipeline)."""

from __future__ import annotations


class TokenizerError(ValueError):
    """An encoding name no backend can count: unknown to tiktoken, or not downloadable (offline).

    Raised when the encoding is first loaded (:func:`token_counter`, or a gate's first count); the
    command line prints its message as one line and exits 2."""
