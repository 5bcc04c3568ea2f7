"""asciicast recordings (v1, v2, v3), split into one tool output per command.

An agent reads a recorded session one command at a time, so a recording is measured the same way:

* by its input events where it has them: each ``"i"`` event holding a line end (``\\r`` or ``\\n``,
  the Enter that runs a command) starts a new output, made of the output events that follow it;
* else by prompt markers in the output stream: a new output starts at each OSC 133 ``A`` mark
  (prompt start, shell integration) or, failing those, at each ``CSI ? 2004 h`` (bash's readline
  turns bracketed paste on before every prompt);
* else the whole recording is one output.

Each output carries the terminal size from the header, updated by ``"r"`` (resize) events; an output
during which the size changed carries none (no single width describes it: a terminal of unknown
size). The first output is written to a new terminal (``fresh``: a recording starts with its
terminal, an empty screen with the cursor home).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from textclean.pipeline.grammar import CSI, OSC

from .opener import open_binary
from .outputs import ReadStats, ToolOutput, decode

PROMPT_START = OSC + "133;A"  # shell integration (FinalTerm) mark: a prompt begins
BRACKETED_PASTE_ON = CSI + "?2004h"  # readline, before each prompt
LINE_ENDS = ("\r", "\n")
_SIZE = re.compile(r"^\s*(\d+)\s*x\s*(\d+)\s*$")

Size = tuple[int, int] | None


class Recording(NamedTuple):
    """A recording's initial size and its events as ``(code, data)`` (``o``, ``i``, ``r``, …)."""

    version: int
    size: Size
    events: list[tuple[str, str]]


class Command(NamedTuple):
    text: str
    size: Size


def _size(columns: Any, rows: Any) -> Size:
    if isinstance(columns, int) and isinstance(rows, int) and columns > 0 and rows > 0:
        return columns, rows
    return None


def header_size(header: dict[str, Any]) -> Size:
    """The terminal size of a v1/v2 (``width``/``height``) or v3 (``term.cols``/``term.rows``) header."""
    term = header.get("term")
    if isinstance(term, dict):
        return _size(term.get("cols"), term.get("rows"))
    return _size(header.get("width"), header.get("height"))


def is_header(value: Any) -> bool:
    """Whether a parsed first line is an asciicast v2/v3 header."""
    return (
        isinstance(value, dict)
        and value.get("version") in (2, 3)
        and ("width" in value or isinstance(value.get("term"), dict))
    )


def is_v1_document(value: Any) -> bool:
    return isinstance(value, dict) and value.get("version") == 1 and isinstance(value.get("stdout"), list)


def read_recording(path: str, stats: ReadStats) -> Recording | None:
    """The recording in ``path``; None (counted malformed) when it is none."""
    with open_binary(path) as f:
        first = f.readline()
        try:
            header = json.loads(decode(first))
        except ValueError:
            header = None
        if is_header(header):
            events: list[tuple[str, str]] = []
            for raw in f:
                if not raw.strip() or raw.lstrip().startswith(b"#"):  # v3 comment lines
                    continue
                try:
                    event = json.loads(decode(raw))
                except ValueError:
                    stats.malformed += 1
                    continue
                if isinstance(event, list) and len(event) >= 3 and isinstance(event[1], str) \
                        and isinstance(event[2], str):
                    events.append((event[1], event[2]))
                else:
                    stats.malformed += 1
            return Recording(header["version"], header_size(header), events)
        try:
            document = json.loads(decode(first + f.read()))
        except ValueError:
            stats.malformed += 1
            return None
    if not is_v1_document(document):
        stats.malformed += 1
        return None
    events = []
    for frame in document["stdout"]:
        if isinstance(frame, list) and len(frame) >= 2 and isinstance(frame[1], str):
            events.append(("o", frame[1]))
        else:
            stats.malformed += 1
    return Recording(1, header_size(document), events)


def _parse_resize(data: str) -> Size:
    match = _SIZE.match(data)
    return _size(int(match[1]), int(match[2])) if match else None


def split_by_input(recording: Recording) -> list[Command]:
    """One command per line-ending input event: the output that follows it, up to the next one."""
    commands: list[Command] = []
    parts: list[str] = []
    size = start_size = recording.size
    resized = False
    for code, data in recording.events:
        if code == "o":
            parts.append(data)
        elif code == "r":
            new = _parse_resize(data)
            if new is not None and new != size:
                size = new
                if parts:
                    resized = True
                else:
                    start_size = size
        elif code == "i" and any(end in data for end in LINE_ENDS):
            if parts:
                commands.append(Command("".join(parts), None if resized else start_size))
            parts, resized, start_size = [], False, size
    if parts:
        commands.append(Command("".join(parts), None if resized else start_size))
    return commands


def split_by_marker(recording: Recording) -> list[Command]:
    """One command per prompt (OSC 133 A marks, else ``CSI ? 2004 h``), or the whole output."""
    parts: list[str] = []
    resizes: list[tuple[int, Size]] = []  # (offset in the joined output, size from there on)
    offset = 0
    size = recording.size
    for code, data in recording.events:
        if code == "o":
            parts.append(data)
            offset += len(data)
        elif code == "r":
            new = _parse_resize(data)
            if new is not None and new != size:
                size = new
                resizes.append((offset, size))
    text = "".join(parts)
    if not text:
        return []
    marker = PROMPT_START if PROMPT_START in text else BRACKETED_PASTE_ON
    cuts = [m.start() for m in re.finditer(re.escape(marker), text) if m.start() > 0]
    bounds = [0, *cuts, len(text)]
    commands: list[Command] = []
    for start, end in zip(bounds, bounds[1:], strict=False):
        at_start = recording.size
        changed = False
        for where, new in resizes:
            if where <= start:
                at_start = new
            elif where < end:
                changed = True
        commands.append(Command(text[start:end], None if changed else at_start))
    return commands


def has_line_input(recording: Recording) -> bool:
    return any(code == "i" and any(end in data for end in LINE_ENDS) for code, data in recording.events)


def split_commands(recording: Recording) -> list[Command]:
    return split_by_input(recording) if has_line_input(recording) else split_by_marker(recording)


def read_asciicast(path: str, stats: ReadStats) -> Iterator[ToolOutput]:
    """asciicast recording: one output per command (see the module docstring), with its size."""
    recording = read_recording(path, stats)
    if recording is None:
        return
    for n, command in enumerate(split_commands(recording)):
        columns, rows = command.size if command.size else (None, None)
        yield ToolOutput(f"{path}:cmd {n}", command.text, columns=columns, rows=rows, fresh=n == 0, terminal=True)
