"""The oracle's own failure: the virtual terminal (pyte) choked on an input.

An :class:`OracleError` means the oracle has no verdict for that input; it is never turned into a
verdict (a silent wrong answer would pass or fail a cleaner for the wrong reason).
"""

from __future__ import annotations

_SHOWN = 40  # characters of the offending sequence quoted in the message


class OracleError(Exception):
    """pyte raised while rendering; ``sequence`` and ``offset`` say where, when that is known."""

    def __init__(self, sequence: str | None, offset: int | None, cause: BaseException) -> None:
        if sequence is not None:
            quoted = repr(sequence[:_SHOWN]) + ("..." if len(sequence) > _SHOWN else "")
            where = f"{quoted} at character offset {offset}"
        else:
            where = "the input (outside the sequence parser)"
        super().__init__(f"the oracle's terminal failed on {where}: {type(cause).__name__}: {cause}")
        self.sequence = sequence
        self.offset = offset
        self.cause = cause
