"""Readers that pull tool outputs out of agent logs and terminal recordings, one format per function.

Every reader takes a path and a :class:`ReadStats` (where it counts malformed records) and yields
:class:`ToolOutput` items, ``(label, text)`` plus a flag for outputs that message integration would
leave whole because they hold non-text blocks. Readers stream: JSON-lines files are read line by line,
and only one output is held at a time (a ``.json`` document is one value and is parsed whole).
A malformed line, event or document is counted and skipped, never raised.

Formats (see :func:`detect_format`):

* ``claude-code``: Claude Code session logs (``*.jsonl``), ``tool_result`` blocks inside user messages.
* ``openai``: OpenAI chat messages (``role: "tool"``), as a JSON list / ``{"messages": [...]}`` document
  or as JSON lines (one message, or one ``{"messages": [...]}`` conversation, per line).
* ``anthropic``: Anthropic Messages (``tool_result`` blocks), as JSON or JSON lines.
* ``swe-agent``: SWE-agent trajectories (``*.traj``), each step's ``observation``.
* ``asciicast``: asciicast v1, v2 and v3 recordings (``*.cast``), output events joined into one output.
* ``raw``: any other file, its whole content as one output (bytes decoded with ``surrogateescape``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from textclean.integrations.content import content_parts

CLAUDE_CODE = "claude-code"
OPENAI = "openai"
ANTHROPIC = "anthropic"
SWE_AGENT = "swe-agent"
ASCIICAST = "asciicast"
RAW = "raw"
OTHER_JSON = "other-json"  # a JSON document of no known shape (fixture metadata, configs): skipped
FORMATS = (CLAUDE_CODE, OPENAI, ANTHROPIC, SWE_AGENT, ASCIICAST, RAW, OTHER_JSON)

# How many leading lines of a JSON-lines file are looked at to tell Claude Code, OpenAI and Anthropic apart.
_SNIFF_LINES = 50
_SNIFF_BYTES = 1 << 20


class ToolOutput(NamedTuple):
    """One tool output: where it came from, its text, and whether it also held non-text blocks.

    When ``non_text_blocks`` is true, ``text`` is the output's text blocks joined by newlines (for
    counting only): message integration leaves such an output whole.
    """

    label: str
    text: str
    non_text_blocks: bool = False


@dataclass
class ReadStats:
    """What the readers met besides outputs: files by format and malformed records."""

    files: int = 0
    malformed: int = 0
    unreadable_files: int = 0
    skipped_files: int = 0


# --- shared helpers ------------------------------------------------------------------------------


def decode(data: bytes) -> str:
    """Bytes to text without loss: invalid UTF-8 becomes lone surrogates that encode back exactly."""
    return data.decode("utf-8", errors="surrogateescape")


def _json_lines(path: str, stats: ReadStats) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, value)`` for each non-blank line that parses; count the others."""
    with open(path, "rb") as f:
        for number, raw in enumerate(f, 1):
            if not raw.strip():
                continue
            try:
                yield number, json.loads(decode(raw))
            except ValueError:
                stats.malformed += 1


def _json_document(path: str, stats: ReadStats) -> Any:
    with open(path, "rb") as f:
        try:
            return json.loads(decode(f.read()))
        except ValueError:
            stats.malformed += 1
            return None


def _content_outputs(label: str, content: Any, stats: ReadStats) -> Iterator[ToolOutput]:
    """Outputs of one tool result's content: a string, or a list of text (and maybe other) blocks.

    Text blocks are separate outputs (message integration cleans each on its own), unless a non-text
    block stands beside them: then the whole result is one output that integration leaves whole.
    """
    parts = content_parts(content)
    texts = [text for _, text in parts.texts]
    if parts.malformed:
        stats.malformed += 1
    elif parts.non_text:
        yield ToolOutput(label, "\n".join(texts), non_text_blocks=True)
    elif len(texts) == 1:
        yield ToolOutput(label, texts[0])
    else:
        for i, text in enumerate(texts):
            yield ToolOutput(f"{label}[{i}]", text)


def _anthropic_blocks_outputs(label: str, content: Any, stats: ReadStats) -> Iterator[ToolOutput]:
    """The ``tool_result`` blocks of one Anthropic (or Claude Code) message content."""
    if not isinstance(content, list):
        return
    for i, block in enumerate(content):
        if isinstance(block, dict) and block.get("type") == "tool_result":
            name = block.get("tool_use_id") or str(i)
            yield from _content_outputs(f"{label}:{name}", block.get("content"), stats)


def _openai_message_outputs(label: str, message: Any, stats: ReadStats) -> Iterator[ToolOutput]:
    if isinstance(message, dict) and message.get("role") == "tool":
        name = message.get("tool_call_id") or ""
        yield from _content_outputs(f"{label}:{name}" if name else label, message.get("content"), stats)


def _anthropic_message_outputs(label: str, message: Any, stats: ReadStats) -> Iterator[ToolOutput]:
    if isinstance(message, dict):
        yield from _anthropic_blocks_outputs(label, message.get("content"), stats)


def _messages_of(document: Any) -> list[Any] | None:
    """The message list of a document: a bare list, or an object's ``messages``."""
    if isinstance(document, list):
        return document
    if isinstance(document, dict) and isinstance(document.get("messages"), list):
        return document["messages"]
    return None


def _chat_outputs(
    path: str,
    stats: ReadStats,
    message_outputs: Callable[[str, Any, ReadStats], Iterator[ToolOutput]],
) -> Iterator[ToolOutput]:
    """Outputs of a chat log: one JSON document, or JSON lines each a message or a conversation."""
    if path.endswith(".jsonl"):
        for number, value in _json_lines(path, stats):
            messages = _messages_of(value)
            if messages is None:
                yield from message_outputs(f"{path}:{number}", value, stats)
            else:
                for i, message in enumerate(messages):
                    yield from message_outputs(f"{path}:{number}:{i}", message, stats)
        return
    document = _json_document(path, stats)
    messages = _messages_of(document)
    if messages is None:
        if document is not None:
            stats.malformed += 1
        return
    for i, message in enumerate(messages):
        yield from message_outputs(f"{path}:{i}", message, stats)


# --- one reader per format -----------------------------------------------------------------------


def read_claude_code(path: str, stats: ReadStats) -> Iterator[ToolOutput]:
    """Claude Code session log: each line an event; user events carry ``tool_result`` blocks."""
    for number, event in _json_lines(path, stats):
        if not isinstance(event, dict):
            stats.malformed += 1
            continue
        message = event.get("message")
        if isinstance(message, dict):
            yield from _anthropic_blocks_outputs(f"{path}:{number}", message.get("content"), stats)


def read_openai(path: str, stats: ReadStats) -> Iterator[ToolOutput]:
    """OpenAI chat messages: ``role: "tool"`` messages (string content or text parts)."""
    yield from _chat_outputs(path, stats, _openai_message_outputs)


def read_anthropic(path: str, stats: ReadStats) -> Iterator[ToolOutput]:
    """Anthropic Messages: ``tool_result`` blocks (string content or text blocks)."""
    yield from _chat_outputs(path, stats, _anthropic_message_outputs)


def read_swe_agent(path: str, stats: ReadStats) -> Iterator[ToolOutput]:
    """SWE-agent trajectory: the ``observation`` of each step of ``trajectory``.

    Older trajectories without ``trajectory`` keep observations as the ``user`` turns of ``history``
    that follow an action; those are read instead.
    """
    document = _json_document(path, stats)
    if not isinstance(document, dict):
        if document is not None:
            stats.malformed += 1
        return
    steps = document.get("trajectory")
    if isinstance(steps, list):
        for i, step in enumerate(steps):
            observation = step.get("observation") if isinstance(step, dict) else None
            if isinstance(observation, str):
                yield ToolOutput(f"{path}:step {i}", observation)
            elif observation is not None or not isinstance(step, dict):
                stats.malformed += 1
        return
    history = document.get("history")
    if not isinstance(history, list):
        stats.malformed += 1
        return
    for i in range(1, len(history)):
        previous, turn = history[i - 1], history[i]
        if (
            isinstance(turn, dict)
            and turn.get("role") == "user"
            and isinstance(turn.get("content"), str)
            and isinstance(previous, dict)
            and previous.get("role") == "assistant"
        ):
            yield ToolOutput(f"{path}:history {i}", turn["content"])


def read_asciicast(path: str, stats: ReadStats) -> Iterator[ToolOutput]:
    """asciicast recording: the output (``"o"``) events' data joined, as one output.

    v2/v3: a header line, then one ``[time, code, data]`` event per line. v1: one JSON document whose
    ``stdout`` is a list of ``[delay, data]``.
    """
    parts: list[str] = []
    with open(path, "rb") as f:
        first = f.readline()
        try:
            header = json.loads(decode(first))
        except ValueError:
            header = None
        if isinstance(header, dict) and header.get("version") in (2, 3):
            for raw in f:
                if not raw.strip():
                    continue
                try:
                    event = json.loads(decode(raw))
                except ValueError:
                    stats.malformed += 1
                    continue
                if not (isinstance(event, list) and len(event) >= 3 and isinstance(event[2], str)):
                    stats.malformed += 1
                elif event[1] == "o":
                    parts.append(event[2])
        else:
            try:
                document = json.loads(decode(first + f.read()))
            except ValueError:
                stats.malformed += 1
                return
            frames = document.get("stdout") if isinstance(document, dict) else None
            if not isinstance(frames, list):
                stats.malformed += 1
                return
            for frame in frames:
                if isinstance(frame, list) and len(frame) >= 2 and isinstance(frame[1], str):
                    parts.append(frame[1])
                else:
                    stats.malformed += 1
    if parts:
        yield ToolOutput(path, "".join(parts))


def read_raw(path: str, stats: ReadStats) -> Iterator[ToolOutput]:
    """A raw capture: the whole file is one output."""
    with open(path, "rb") as f:
        yield ToolOutput(path, decode(f.read()))


def skip_other_json(path: str, stats: ReadStats) -> Iterator[ToolOutput]:
    """A JSON document that is no chat log (fixture metadata beside captures): no outputs."""
    stats.skipped_files += 1
    yield from ()


READERS: dict[str, Callable[[str, ReadStats], Iterator[ToolOutput]]] = {
    CLAUDE_CODE: read_claude_code,
    OPENAI: read_openai,
    ANTHROPIC: read_anthropic,
    SWE_AGENT: read_swe_agent,
    ASCIICAST: read_asciicast,
    RAW: read_raw,
    OTHER_JSON: skip_other_json,
}


# --- detection -----------------------------------------------------------------------------------


def _looks_like(value: Any) -> str | None:
    """The chat format one parsed JSON value belongs to, if it tells."""
    if isinstance(value, dict):
        if value.get("type") in ("user", "assistant") and isinstance(value.get("message"), dict):
            return CLAUDE_CODE
        if isinstance(value.get("trajectory"), list):
            return SWE_AGENT
        messages = _messages_of(value)
        if messages is not None:
            for message in messages:
                kind = _looks_like(message)
                if kind:
                    return kind
            return None
        if value.get("role") == "tool":
            return OPENAI
        content = value.get("content")
        if isinstance(content, list) and any(
            isinstance(b, dict) and b.get("type") in ("tool_result", "tool_use") for b in content
        ):
            return ANTHROPIC
        if value.get("role") == "assistant" and "tool_calls" in value:
            return OPENAI
    elif isinstance(value, list):
        for item in value:
            kind = _looks_like(item)
            if kind:
                return kind
    return None


def _sniff_json_lines(path: str) -> str | None:
    with open(path, "rb") as f:
        for _ in range(_SNIFF_LINES):
            raw = f.readline(_SNIFF_BYTES)
            if not raw:
                break
            try:
                kind = _looks_like(json.loads(decode(raw)))
            except ValueError:
                continue
            if kind:
                return kind
    return None


def detect_format(path: str) -> str:
    """The format of one file, from its name and, for JSON, its first records.

    ``.cast`` is asciicast and ``.traj`` SWE-agent. A ``.jsonl`` file is Claude Code, OpenAI or
    Anthropic by the shape of its first records (Claude Code when nothing tells, as its logs are the
    common ``.jsonl`` source); a ``.json`` document by its messages (one of no known shape is
    skipped). Anything else is a raw capture.
    """
    name = path.lower()
    if name.endswith(".cast"):
        return ASCIICAST
    if name.endswith(".traj"):
        return SWE_AGENT
    if name.endswith(".jsonl"):
        return _sniff_json_lines(path) or CLAUDE_CODE
    if name.endswith(".json"):
        stats = ReadStats()
        kind = _looks_like(_json_document(path, stats))
        if kind:
            return kind
        return OPENAI if stats.malformed else OTHER_JSON
    return RAW


def expand_paths(paths: Iterable[str]) -> Iterator[str]:
    """Files named, and the files under directories named (sorted, hidden entries skipped)."""
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(files):
                    if not name.startswith("."):
                        yield os.path.join(root, name)
        else:
            yield path


def read_file(path: str, stats: ReadStats, fmt: str | None = None) -> Iterator[ToolOutput]:
    """The outputs of one file, in its detected (or the given) format; an unreadable file is counted."""
    stats.files += 1
    try:
        reader = READERS[fmt or detect_format(path)]
        yield from reader(path, stats)
    except OSError:
        stats.unreadable_files += 1
