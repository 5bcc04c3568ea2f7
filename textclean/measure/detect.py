"""Which log format a file holds, told by its content (never by its name).

The first line decides the layout: an asciicast v2/v3 header, a JSON-lines log (two or more JSON
values on lines of their own), one JSON document (pretty-printed or not), or no JSON at all (a raw
capture). A file that reads as a raw capture is looked at once more: when its first
:data:`PREAMBLE_LINES` lines hold a line from which a JSON-lines log of a known shape starts (a harness
printed banner lines before the agent's log), it is that log, and :func:`detect` says how many lines
came before its records. A JSON log or document is then told by its records' shape (:func:`shape_of_line`,
:func:`shape_of_document`). JSON whose shape no reader knows, or that starts like JSON but does not
parse, is :data:`UNKNOWN`: reported with its path, never read as a format that would find nothing.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any, NamedTuple

from textclean.integrations.content import message_format

from .opener import open_binary
from .outputs import decode
from .recordings import is_header, is_v1_document

CLAUDE_CODE = "claude-code"
CODEX = "codex"
OPENAI = "openai"
ANTHROPIC = "anthropic"
SWE_AGENT = "swe-agent"
MINI_SWE_AGENT = "mini-swe-agent"
OPENHANDS = "openhands"
ASCIICAST = "asciicast"
RAW = "raw"
UNKNOWN = "unknown"
FORMATS = (CLAUDE_CODE, CODEX, OPENAI, ANTHROPIC, SWE_AGENT, MINI_SWE_AGENT, OPENHANDS, ASCIICAST, RAW, UNKNOWN)

SNIFF_LINES = 50  # leading JSON lines looked at before a JSON-lines log is called unknown
PREAMBLE_LINES = 64  # leading non-JSON lines a JSON-lines log may follow (banners a harness printed)
_LINE_LIMIT = 1 << 24  # one line longer than this is read whole only by the reader

_JSON_START = re.compile(rb'\s*(?:\{\s*(?:"|\}|$)|\[\s*(?:[{\["\]]|$|-?\d+(?:\.\d+)?\s*[,\]]))')

CODEX_RECORD_TYPES = ("session_meta", "response_item", "event_msg", "turn_context", "compacted")
CODEX_ITEM_TYPES = ("function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output",
                    "local_shell_call", "reasoning")
OPENHANDS_NON_TOOL_OBSERVATIONS = ("agent_state_changed", "null", "recall")


def is_openhands_event(value: Any) -> bool:
    """An OpenHands event: V0 (``action``/``observation`` with ``source``) or V1 (``kind`` …Event)."""
    if not isinstance(value, dict):
        return False
    if "source" in value and (isinstance(value.get("observation"), str) or isinstance(value.get("action"), str)):
        return True
    kind = value.get("kind")
    return isinstance(kind, str) and kind.endswith("Event") and ("observation" in value or "action" in value)


def _is_openhands_events(value: Any) -> bool:
    return isinstance(value, list) and any(is_openhands_event(item) for item in value[:SNIFF_LINES])


def _is_codex_item(value: dict[str, Any]) -> bool:
    kind = value.get("type")
    if kind in CODEX_ITEM_TYPES and ("call_id" in value or kind == "reasoning"):
        return True
    content = value.get("content")
    return kind == "message" and isinstance(content, list) and any(
        isinstance(part, dict) and part.get("type") in ("input_text", "output_text") for part in content
    )


def messages_of(value: Any) -> list[Any] | None:
    """The message list of a document: a bare list, or an object's ``messages``."""
    if isinstance(value, list):
        return value
    if isinstance(value, dict) and isinstance(value.get("messages"), list):
        messages: list[Any] = value["messages"]
        return messages
    return None


def chat_shape(value: Any) -> str | None:
    """OpenAI or Anthropic, from one message or a list / ``{"messages": […]}`` of them."""
    messages = messages_of(value)
    if messages is not None:
        for message in messages:
            kind = chat_shape(message) if isinstance(message, dict) else None
            if kind:
                return kind
        return None
    if not isinstance(value, dict):
        return None
    holds = message_format(value)  # a message holding a tool output, by the shared walker
    if holds in (OPENAI, ANTHROPIC):
        return holds
    if value.get("role") == "assistant" and "tool_calls" in value:
        return OPENAI
    content = value.get("content")
    if isinstance(content, list) and any(isinstance(b, dict) and b.get("type") == "tool_use" for b in content):
        return ANTHROPIC
    return None


def shape_of_line(value: Any) -> str | None:
    """The format one record of a JSON-lines log belongs to, if it tells."""
    if not isinstance(value, dict):
        return None
    kind = value.get("type")
    if kind in CODEX_RECORD_TYPES and isinstance(value.get("payload"), dict):
        return CODEX
    if _is_codex_item(value):
        return CODEX
    if kind in ("user", "assistant") and isinstance(value.get("message"), dict):
        return CLAUDE_CODE
    if is_openhands_event(value) or _is_openhands_events(value.get("history")):
        return OPENHANDS
    return chat_shape(value)


_MINI_OBSERVATION = re.compile(r"<returncode>-?\d+</returncode>\s*<(?:output|output_head|warning)>")


def message_text(content: Any) -> str | None:
    """A message's text: its string content, or its text parts joined; ``None`` for anything else."""
    if isinstance(content, str):
        return content
    if isinstance(content, list) and content and all(
        isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str) for part in content
    ):
        return "".join(part["text"] for part in content)
    return None


def is_mini_swe_agent_messages(value: Any) -> bool:
    """mini-swe-agent's bare trajectory: a list of messages whose user turns answer commands with
    ``<returncode>N</returncode>`` then ``<output>`` (or ``<output_head>`` / ``<warning>``)."""
    if not isinstance(value, list) or not value:
        return False
    if not all(isinstance(m, dict) and isinstance(m.get("role"), str) for m in value[:SNIFF_LINES]):
        return False
    return any(
        m.get("role") == "user" and _MINI_OBSERVATION.search(message_text(m.get("content")) or "") is not None
        for m in value
    )


def shape_of_document(value: Any) -> str | None:
    """The format of one whole JSON document, if its shape tells."""
    if is_v1_document(value):
        return ASCIICAST
    if is_mini_swe_agent_messages(value):
        return MINI_SWE_AGENT
    if isinstance(value, dict):
        info = value.get("info")
        if str(value.get("trajectory_format", "")).startswith("mini-swe-agent") or (
            isinstance(info, dict) and "mini_version" in info and isinstance(value.get("messages"), list)
        ):
            return MINI_SWE_AGENT
        if isinstance(value.get("trajectory"), list):
            return SWE_AGENT
        history = value.get("history")
        if _is_openhands_events(history):
            return OPENHANDS
        if isinstance(history, list) and any(isinstance(turn, dict) and "role" in turn for turn in history):
            return SWE_AGENT
        if is_openhands_event(value):
            return OPENHANDS  # one V1 event file
    if _is_openhands_events(value):
        return OPENHANDS
    return chat_shape(value)


def _parse(raw: bytes) -> tuple[bool, Any]:
    try:
        return True, json.loads(decode(raw))
    except ValueError:
        return False, None


class Detected(NamedTuple):
    format: str
    preamble: int  # lines before the first record of a JSON-lines log (0: none)


def detect(path: str) -> Detected:
    """The format of one file and the non-JSON lines before its records; see the module docstring."""
    found = detect_format(path)
    if found != RAW:
        return Detected(found, 0)
    with open_binary(path) as f:
        return _after_preamble(f) or Detected(RAW, 0)


def _after_preamble(f: Any) -> Detected | None:
    """A JSON-lines log of a known shape starting within the first :data:`PREAMBLE_LINES` lines."""
    for before in range(PREAMBLE_LINES):
        line = f.readline(_LINE_LIMIT)
        if not line:
            return None
        if not line.lstrip(b" \t").startswith(b"{"):
            continue
        parsed, value = _parse(line)
        if not parsed:
            continue
        kind = shape_of_line(value) or _sniff_lines(f)
        return Detected(kind, before) if kind else None
    return None


def _sniff_lines(f: Any) -> str | None:
    """The format the next :data:`SNIFF_LINES` lines of a JSON-lines log tell, if one does."""
    for _ in range(SNIFF_LINES):
        raw = f.readline(_LINE_LIMIT)
        if not raw:
            return None
        ok, record = _parse(raw)
        kind = shape_of_line(record) if ok else None
        if kind:
            return kind
    return None


def detect_format(path: str) -> str:
    """The format of one file, from its content, before any preamble is looked for (:func:`detect`)."""
    with open_binary(path) as f:
        first = f.readline(_LINE_LIMIT)
        start = first.lstrip(b"\xef\xbb\xbf \t\r\n")
        while not start and first:  # leading blank lines
            first = f.readline(_LINE_LIMIT)
            start = first.lstrip(b" \t\r\n")
        if not start.startswith((b"{", b"[")):
            return RAW
        parsed, value = _parse(first)
        if parsed and is_header(value):
            return ASCIICAST
        if parsed:
            rest = f.read(1 << 16)
            if not rest.strip():
                return shape_of_document(value) or UNKNOWN
            kind = shape_of_line(value)
            if kind:
                return kind
            buffered = (rest + f.readline(_LINE_LIMIT)).splitlines()
            for n, raw in enumerate(itertools.chain(buffered, iter(lambda: f.readline(_LINE_LIMIT), b""))):
                if n >= SNIFF_LINES:
                    break
                ok, record = _parse(raw)
                kind = shape_of_line(record) if ok else None
                if kind:
                    return kind
            return UNKNOWN
        parsed, value = _parse(first + f.read())
    if parsed:
        return shape_of_document(value) or UNKNOWN
    # Broken JSON is unknown (reported); text that merely starts with a bracket ("[0/5] CC x.o") is raw.
    return UNKNOWN if _JSON_START.match(start) else RAW
