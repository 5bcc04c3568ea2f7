"""asciicast v2 recordings (``asciinema rec``): the terminal's size from the header, the output
events joined into the bytes the terminal received."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Recording:
    output: str  # the "o" events' data, joined in order
    columns: int
    rows: int
    header: dict[str, Any]


def read_asciicast(data: bytes | str) -> Recording:
    """Parse an asciicast v2 file's text; raises ``ValueError`` on anything else."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    lines = text.splitlines()
    if not lines:
        raise ValueError("empty asciicast")
    header = json.loads(lines[0])
    if not isinstance(header, dict) or header.get("version") != 2:
        raise ValueError("not an asciicast v2 header")
    output = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        event = json.loads(line)
        if not (isinstance(event, list) and len(event) == 3 and isinstance(event[2], str)):
            raise ValueError(f"line {number}: not an asciicast v2 event")
        if event[1] == "o":
            output.append(event[2])
    return Recording("".join(output), int(header["width"]), int(header["height"]), header)
