"""Readers that pull tool outputs out of agent logs and terminal recordings, one format per function.

Every reader takes a path and a :class:`ReadStats` (where it counts malformed records) and yields
:class:`ToolOutput` items. Readers stream: JSON-lines logs are read line by line, and only one output
is held at a time (a JSON document is one value and is parsed whole). A malformed line, event or
document is counted and skipped, never raised. The format is told by content (:mod:`.detect`).

* ``claude-code``: Claude Code session logs, ``tool_result`` blocks inside user messages.
* ``codex``: Codex CLI rollouts, ``function_call_output`` / ``custom_tool_call_output`` items.
* ``openai`` / ``anthropic``: chat messages (``role: "tool"`` / ``tool_result`` blocks), as one JSON
  document (a list or ``{"messages": [...]}``) or as JSON lines (a message or a conversation per line).
* ``swe-agent``: SWE-agent trajectories, each step's ``observation`` (or, without steps, the history's
  observation turns: ``role: "tool"`` with function calling, else user turns after an action).
* ``mini-swe-agent``: mini-swe-agent trajectories, its observation messages.
* ``openhands``: OpenHands event trajectories, the observations' content.
* ``asciicast``: asciicast v1/v2/v3 recordings, one output per command (:mod:`.recordings`).
* ``raw``: any file that is not JSON, its whole content as one output.
* ``unknown``: JSON of no known shape: no outputs, reported with its path.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from typing import Any

from textclean.integrations.content import ANTHROPIC as CHAT_ANTHROPIC
from textclean.integrations.content import OPENAI as CHAT_OPENAI
from textclean.integrations.content import RESPONSES, MessageFormat, content_parts, tool_output_sites

from .detect import (
    ANTHROPIC,
    ASCIICAST,
    CLAUDE_CODE,
    CODEX,
    FORMATS,
    MINI_SWE_AGENT,
    OPENAI,
    OPENHANDS,
    OPENHANDS_NON_TOOL_OBSERVATIONS,
    RAW,
    SWE_AGENT,
    UNKNOWN,
    detect,
    detect_format,
    is_openhands_event,
    messages_of,
)
from .opener import expand_paths, open_binary
from .outputs import ReadStats, ToolOutput, decode
from .recordings import read_asciicast

__all__ = [
    "FORMATS", "READERS", "ReadStats", "ToolOutput", "decode", "detect", "detect_format", "expand_paths", "read_file",
]


# --- shared helpers ------------------------------------------------------------------------------


def _json_lines(path: str, stats: ReadStats, preamble: int = 0) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, value)`` for each non-blank line after the ``preamble`` lines that parses;
    count the others."""
    with open_binary(path) as f:
        for number, raw in enumerate(itertools.islice(f, preamble, None), preamble + 1):
            if not raw.strip():
                continue
            try:
                yield number, json.loads(decode(raw))
            except ValueError:
                stats.malformed += 1


def _records(path: str, stats: ReadStats, preamble: int = 0) -> Iterator[tuple[str, Any]]:
    """``(label, value)``: each line of a JSON-lines log, or the one value of a JSON document.

    JSON lines when the first non-blank line (after the ``preamble`` lines) parses on its own and more
    follows; a document otherwise.
    """
    with open_binary(path) as f:
        for _ in itertools.islice(f, preamble):
            pass
        first = b""
        skipped = preamble
        while not first.strip():
            first = f.readline()
            skipped += 1
            if not first:
                return
        try:
            value = json.loads(decode(first))
            whole = False
        except ValueError:
            whole = True
        if not whole:
            more = (raw for raw in f if raw.strip())
            second = next(more, None)
            if second is None:
                yield path, value
                return
            yield f"{path}:{skipped}", value
            for number, raw in enumerate(itertools.chain([second], f), skipped + 1):
                if not raw.strip():
                    continue
                try:
                    yield f"{path}:{number}", json.loads(decode(raw))
                except ValueError:
                    stats.malformed += 1
            return
        try:
            yield path, json.loads(decode(first + f.read()))
        except ValueError:
            stats.malformed += 1


def _json_document(path: str, stats: ReadStats) -> Any:
    with open_binary(path) as f:
        try:
            return json.loads(decode(f.read()))
        except ValueError:
            stats.malformed += 1
            return None


def _content_outputs(
    label: str, content: Any, stats: ReadStats, shape: MessageFormat = CHAT_OPENAI
) -> Iterator[ToolOutput]:
    """Outputs of one tool result's content (split by the shared walker, :func:`content_parts`).

    Text parts are separate outputs (message integration cleans each on its own), unless a non-text
    part stands beside them: then the whole result is one output that integration leaves whole.
    """
    parts = content_parts(content, shape)
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


def _site_outputs(label: str, message: Any, shape: MessageFormat, stats: ReadStats) -> Iterator[ToolOutput]:
    """The tool outputs of one message in one shape, found by the shared walker."""
    for site in tool_output_sites(message, shape):
        name = site.name or (str(site.block_index) if site.block_index is not None else "")
        yield from _content_outputs(f"{label}:{name}" if name else label, site.content, stats, shape)


def _openai_message_outputs(label: str, message: Any, stats: ReadStats) -> Iterator[ToolOutput]:
    yield from _site_outputs(label, message, CHAT_OPENAI, stats)


def _anthropic_message_outputs(label: str, message: Any, stats: ReadStats) -> Iterator[ToolOutput]:
    yield from _site_outputs(label, message, CHAT_ANTHROPIC, stats)


def _chat_outputs(
    path: str,
    stats: ReadStats,
    message_outputs: Callable[[str, Any, ReadStats], Iterator[ToolOutput]],
    preamble: int = 0,
) -> Iterator[ToolOutput]:
    """Outputs of a chat log: one JSON document, or JSON lines each a message or a conversation."""
    for label, value in _records(path, stats, preamble):
        messages = messages_of(value)
        if messages is None:
            if label == path:  # a document that holds no messages
                stats.malformed += 1
            else:
                yield from message_outputs(label, value, stats)
            continue
        for i, message in enumerate(messages):
            yield from message_outputs(f"{label}:{i}", message, stats)


# --- one reader per format -----------------------------------------------------------------------


def read_claude_code(path: str, stats: ReadStats, preamble: int = 0) -> Iterator[ToolOutput]:
    """Claude Code session log: each line an event; user events carry ``tool_result`` blocks."""
    for number, event in _json_lines(path, stats, preamble):
        if not isinstance(event, dict):
            stats.malformed += 1
            continue
        yield from _anthropic_message_outputs(f"{path}:{number}", event.get("message"), stats)


def read_openai(path: str, stats: ReadStats, preamble: int = 0) -> Iterator[ToolOutput]:
    """OpenAI chat messages: ``role: "tool"`` messages (string content or text parts)."""
    yield from _chat_outputs(path, stats, _openai_message_outputs, preamble)


def read_anthropic(path: str, stats: ReadStats, preamble: int = 0) -> Iterator[ToolOutput]:
    """Anthropic Messages: ``tool_result`` blocks (string content or text blocks)."""
    yield from _chat_outputs(path, stats, _anthropic_message_outputs, preamble)


def _unwrap_codex_output(output: Any) -> Any:
    """Older Codex CLIs wrap a tool's output as a JSON string ``{"output": …, "metadata": …}``."""
    if isinstance(output, str) and output.startswith("{"):
        try:
            wrapped = json.loads(output)
        except ValueError:
            return output
        if isinstance(wrapped, dict) and isinstance(wrapped.get("output"), str):
            return wrapped["output"]
    return output


def read_codex(path: str, stats: ReadStats, preamble: int = 0) -> Iterator[ToolOutput]:
    """Codex CLI rollout: ``response_item`` records whose payload is a tool call's output (Responses
    API items, found by the shared walker).

    ``event_msg`` records repeat what the response items hold (``exec_command_end``) and are not read.
    Rollouts from before the ``{"type", "payload"}`` envelope hold the items themselves, one per line.
    """
    for number, record in _json_lines(path, stats, preamble):
        if not isinstance(record, dict):
            stats.malformed += 1
            continue
        item = record.get("payload") if record.get("type") == "response_item" else record
        for site in tool_output_sites(item, RESPONSES):
            label = f"{path}:{number}:{site.name or ''}"
            yield from _content_outputs(label, _unwrap_codex_output(site.content), stats, RESPONSES)


def _observation_turns(history: list[Any]) -> Iterator[tuple[int, Any]]:
    """``(index, content)`` of a history's observation turns.

    ``role: "tool"`` turns (function calling) and user turns that answer an assistant turn (the
    environment's reply); where turns carry ``message_type``, only those marked ``observation``.
    """
    marked = any(isinstance(turn, dict) and "message_type" in turn for turn in history)
    previous: Any = None
    for i, turn in enumerate(history):
        if isinstance(turn, dict) and (not marked or turn.get("message_type") == "observation") and (
            turn.get("role") == "tool"
            or (turn.get("role") == "user" and isinstance(previous, dict) and previous.get("role") == "assistant")
        ):
            yield i, turn.get("content")
        previous = turn


def read_swe_agent(path: str, stats: ReadStats) -> Iterator[ToolOutput]:
    """SWE-agent trajectory: the ``observation`` of each step of ``trajectory``.

    Without steps, the observation turns of ``history`` are read instead (see :func:`_observation_turns`).
    """
    document = _json_document(path, stats)
    if not isinstance(document, dict):
        if document is not None:
            stats.malformed += 1
        return
    steps = document.get("trajectory")
    if isinstance(steps, list) and steps:
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
    for i, content in _observation_turns(history):
        yield from _content_outputs(f"{path}:history {i}", content, stats)


def read_mini_swe_agent(path: str, stats: ReadStats) -> Iterator[ToolOutput]:
    """mini-swe-agent trajectory (``.traj.json``): the observations among its ``messages``.

    Text-based models get each command's output as a user message after the assistant's; tool-calling
    models as ``role: "tool"`` messages. Older runs (and mini-swe-agent's own test data) save the
    message list bare, without ``info``; an empty observation (the turn after the final submit) is
    not an output.
    """
    document = _json_document(path, stats)
    messages = document if isinstance(document, list) else document.get("messages") if isinstance(
        document, dict) else None
    if not isinstance(messages, list):
        if document is not None:
            stats.malformed += 1
        return
    for i, content in _observation_turns(messages):
        if content != "":
            yield from _content_outputs(f"{path}:{i}", content, stats)


def _openhands_events(value: Any) -> list[Any]:
    if isinstance(value, dict) and isinstance(value.get("history"), list):
        history: list[Any] = value["history"]
        return history
    if isinstance(value, list):
        return value
    return [value]


def read_openhands(path: str, stats: ReadStats, preamble: int = 0) -> Iterator[ToolOutput]:
    """OpenHands events: a JSON list, ``{"history": […]}``, or one event (or run) per line.

    V0 observations keep the tool's output in ``content`` (a string); V1 ``ObservationEvent`` keep it
    in ``observation.content`` (text parts). Events that carry no tool output (agent state changes,
    recalled knowledge) are skipped.
    """
    for label, value in _records(path, stats, preamble):
        for i, event in enumerate(_openhands_events(value)):
            if not is_openhands_event(event):
                if not isinstance(event, dict):
                    stats.malformed += 1
                continue
            where = f"{label}:{event.get('id', i)}"
            observation = event.get("observation")
            if isinstance(observation, str):
                if observation not in OPENHANDS_NON_TOOL_OBSERVATIONS:
                    yield from _content_outputs(where, event.get("content"), stats)
            elif isinstance(observation, dict):
                content = observation.get("content", observation.get("output"))
                yield from _content_outputs(where, content, stats)


def read_raw(path: str, stats: ReadStats) -> Iterator[ToolOutput]:
    """A raw capture: the whole file is one output."""
    with open_binary(path) as f:
        yield ToolOutput(path, decode(f.read()))


def skip_unknown(path: str, stats: ReadStats) -> Iterator[ToolOutput]:
    """JSON of no known shape (fixture metadata, configs): no outputs; the report names the file."""
    stats.skipped_files += 1
    yield from ()


READERS: dict[str, Callable[[str, ReadStats], Iterator[ToolOutput]]] = {
    CLAUDE_CODE: read_claude_code,
    CODEX: read_codex,
    OPENAI: read_openai,
    ANTHROPIC: read_anthropic,
    SWE_AGENT: read_swe_agent,
    MINI_SWE_AGENT: read_mini_swe_agent,
    OPENHANDS: read_openhands,
    ASCIICAST: read_asciicast,
    RAW: read_raw,
    UNKNOWN: skip_unknown,
}


#: The formats read as JSON lines, which may follow preamble lines (:func:`detect`).
AFTER_PREAMBLE: dict[str, Callable[[str, ReadStats, int], Iterator[ToolOutput]]] = {
    CLAUDE_CODE: read_claude_code,
    CODEX: read_codex,
    OPENAI: read_openai,
    ANTHROPIC: read_anthropic,
    OPENHANDS: read_openhands,
}


def read_file(path: str, stats: ReadStats, fmt: str | None = None, preamble: int = 0) -> Iterator[ToolOutput]:
    """The outputs of one file, in its detected (or the given) format, after its ``preamble`` lines
    (detected with the format when it is not given); an unreadable file is counted."""
    stats.files += 1
    try:
        if fmt is None:
            fmt, preamble = detect(path)
        if preamble and fmt in AFTER_PREAMBLE:
            stats.preamble_lines += preamble
            stats.preamble_files += 1
            yield from AFTER_PREAMBLE[fmt](path, stats, preamble)
            return
        reader = READERS[fmt]
        yield from reader(path, stats)
    except (OSError, EOFError) as error:  # EOFError: a compressed file cut short
        stats.unreadable_files += 1
        stats.unreadable.append(f"{path}: {getattr(error, 'strerror', None) or error}")
