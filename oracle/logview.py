"""No terminal: text as a log viewer shows it (pipes, CI logs), before it is rendered as logical lines."""

from __future__ import annotations

import re
from typing import overload

__all__ = ["without_bel_ended_strings"]

# A control string a log viewer ends at BEL (Buildkite's timestamps are APCs ended so): the introducer,
# then anything up to the first BEL that no ESC, CAN or SUB comes before (those end or cancel it).
_BEL_ENDED = re.compile(r"\x1b[\]PX^_][^\x07\x18\x1a\x1b]*\x07")
_BEL_ENDED_BYTES = re.compile(rb"\x1b[\]PX^_][^\x07\x18\x1a\x1b]*\x07")


@overload
def without_bel_ended_strings(data: str) -> str: ...
@overload
def without_bel_ended_strings(data: bytes) -> bytes: ...


def without_bel_ended_strings(data: str | bytes) -> str | bytes:
    """``data`` without the APC / DCS / SOS / PM / OSC strings ended at BEL, removed as a log viewer
    removes them (a terminal such as tmux reads DCS, SOS, PM and APC on to ST instead)."""
    if isinstance(data, bytes):
        return _BEL_ENDED_BYTES.sub(b"", data)
    return _BEL_ENDED.sub("", data)
