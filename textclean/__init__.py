"""textclean: lossless removal of terminal escape sequences and redraws from LLM tool output.

>>> from textclean import clean
>>> result = clean(tool_output)            # doctest: +SKIP
>>> result.text, result.applied, result.reason   # doctest: +SKIP
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._version import __version__

if TYPE_CHECKING:
    from .integrations.messages import NON_TEXT_BLOCKS, MessagesReport, ToolOutputOutcome, clean_messages
    from .pipeline.errors import TokenizerError
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
        KeptStretch,
        Removed,
        Result,
    )
    from .stream import Stream

# Imported when first used: `textclean run` and `textclean hook` answer a clean output without
# loading the pipeline (tens of milliseconds of imports), and every submodule import runs this file.
_WHERE = {
    **dict.fromkeys(("NON_TEXT_BLOCKS", "MessagesReport", "ToolOutputOutcome", "clean_messages"),
                    ".integrations.messages"),
    **dict.fromkeys(("DEFAULT_MAX_CHARS", "DEFAULT_MIN_TOKENS", "TextClean", "clean"), ".pipeline.gate"),
    "has_terminal_noise": ".pipeline.probe",
    **dict.fromkeys(("BELOW_MIN_TOKENS", "CONTENT_WOULD_CHANGE", "GATE_REASONS", "MALFORMED_ESCAPE",
                     "NO_TERMINAL_NOISE", "NOT_SMALLER", "TOO_LARGE", "UNSUPPORTED_CONTROL", "KeptStretch", "Removed",
                     "Result"),
                    ".pipeline.result"),
    "TokenizerError": ".pipeline.errors",
    "Stream": ".stream",
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(where, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "BELOW_MIN_TOKENS",
    "CONTENT_WOULD_CHANGE",
    "DEFAULT_MAX_CHARS",
    "DEFAULT_MIN_TOKENS",
    "GATE_REASONS",
    "KeptStretch",
    "MALFORMED_ESCAPE",
    "MessagesReport",
    "NON_TEXT_BLOCKS",
    "NOT_SMALLER",
    "NO_TERMINAL_NOISE",
    "TOO_LARGE",
    "UNSUPPORTED_CONTROL",
    "Removed",
    "Result",
    "Stream",
    "TextClean",
    "TokenizerError",
    "ToolOutputOutcome",
    "clean",
    "clean_messages",
    "has_terminal_noise",
    "__version__",
]
