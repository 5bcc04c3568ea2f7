"""The pipeline's subclasses of ``str``: cells and line ends told apart by identity, and the verifier's
answer that carries offsets. They live here, outside the modules mypyc compiles (it compiles no subclass
of a builtin type), so the compiled build and the pure one share the very same classes.
"""

from __future__ import annotations


class Marker(str):
    """A cell that renders as itself but is told apart by identity."""


class Wrap(str):
    """A line ending that is none: the row wrapped into the next one."""


class Difference(str):
    """:func:`first_difference`'s answer: the readable difference, with ``offset``, the raw offset of
    the page a gate should keep (None when it names none) and ``disputed`` (terminals disagree)."""

    offset: int | None
    disputed: bool

    def __new__(cls, text: str, offset: int | None = None, disputed: bool = False) -> Difference:
        made = super().__new__(cls, text)
        made.offset = offset
        made.disputed = disputed
        return made
