"""textclean: lossless removal of terminal escape sequences and redraws from LLM tool output.

>>> from textclean import clean
>>> result = clean(tool_output)            # doctest: +SKIP
>>> result.text, result.applied, result.reason   # doctest: +SKIP
"""

from ._version import __version__
from .integrations.messages import NON_TEXT_BLOCKS, MessagesReport, ToolOutputOutcome, clean_messages
from .pipeline.gate import DEFAULT_MAX_CHARS, DEFAULT_MIN_TOKENS, TextClean, clean
from .pipeline.probe import has_terminal_noise
from .pipeline.result import (
    BELOW_MIN_TOKENS,
    CONTENT_WOULD_CHANGE,
    GATE_REASONS,
    MALFORMED_ESCAPE,
    NO_TERMINAL_NOISE,
    NOT_SMALLER,
    TOO_LARGE,
    UNSUPPORTED_CONTROL,
    Removed,
    Result,
)
from .pipeline.tokens import TokenizerError

__all__ = [
    "BELOW_MIN_TOKENS",
    "CONTENT_WOULD_CHANGE",
    "DEFAULT_MAX_CHARS",
    "DEFAULT_MIN_TOKENS",
    "GATE_REASONS",
    "MALFORMED_ESCAPE",
    "MessagesReport",
    "NON_TEXT_BLOCKS",
    "NOT_SMALLER",
    "NO_TERMINAL_NOISE",
    "TOO_LARGE",
    "UNSUPPORTED_CONTROL",
    "Removed",
    "Result",
    "TextClean",
    "TokenizerError",
    "ToolOutputOutcome",
    "clean",
    "clean_messages",
    "has_terminal_noise",
    "__version__",
]
