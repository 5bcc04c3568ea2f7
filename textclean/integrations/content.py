"""The one walk from chat messages to their tool outputs, shared by clean_messages and ``textclean measure``.

Three shapes hold tool outputs:

* ``openai``: OpenAI Chat Completions, a ``role: "tool"`` message's ``content``;
* ``anthropic``: Anthropic Messages, each ``tool_result`` block's ``content`` in a message's content list;
* ``responses``: OpenAI Responses API input items of type ``function_call_output`` or
  ``custom_tool_call_output``, their ``output``.

An output's content is a string, or a list of parts. Only parts of the shape's text type (``text``;
``input_text`` for the Responses API) whose ``text`` is a string are text; any other part (an image, a
file, a text part whose ``text`` is missing or null) makes the output one that integrations leave whole.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final, Literal, NamedTuple

from textclean.pipeline.result import NON_TEXT_BLOCKS  # the reason for an output left whole

__all__ = [
    "ANTHROPIC", "MESSAGE_FORMATS", "NON_TEXT_BLOCKS", "OPENAI", "RESPONSES", "ContentParts", "MessageFormat",
    "ToolOutputSite", "content_parts", "message_format", "tool_output_sites",
]

MessageFormat = Literal["openai", "anthropic", "responses"]
OPENAI: Final = "openai"
ANTHROPIC: Final = "anthropic"
RESPONSES: Final = "responses"
MESSAGE_FORMATS: tuple[MessageFormat, ...] = (OPENAI, ANTHROPIC, RESPONSES)


RESPONSES_OUTPUT_TYPES = ("function_call_output", "custom_tool_call_output")
_TEXT_TYPES: dict[str, tuple[str, ...]] = {OPENAI: ("text",), ANTHROPIC: ("text",), RESPONSES: ("input_text",)}


class ContentParts(NamedTuple):
    """The texts of one tool output's content.

    ``texts`` holds ``(part_index, text)``, ``part_index`` None for string content. ``non_text`` is
    true when a part other than text stands in the list; ``malformed`` when the content is neither a
    string nor a list (None, a number).
    """

    texts: list[tuple[int | None, str]]
    non_text: bool = False
    malformed: bool = False


class ToolOutputSite(NamedTuple):
    """Where one tool output sits in a message: ``message[key]``, or ``message["content"][block][key]``."""

    format: MessageFormat
    block_index: int | None
    key: str
    content: Any
    name: str | None  # tool_call_id, tool_use_id or call_id when the message gives one


def content_parts(content: Any, format: MessageFormat = OPENAI) -> ContentParts:
    """Split one tool output's content into its texts; see :class:`ContentParts`."""
    if isinstance(content, str):
        return ContentParts([(None, content)])
    if not isinstance(content, list):
        return ContentParts([], malformed=content is not None)
    text_types = _TEXT_TYPES[format]
    texts: list[tuple[int | None, str]] = []
    non_text = False
    for i, part in enumerate(content):
        if isinstance(part, dict) and part.get("type") in text_types and isinstance(part.get("text"), str):
            texts.append((i, part["text"]))
        else:
            non_text = True
    return ContentParts(texts, non_text)


def message_format(message: Any) -> MessageFormat | None:
    """The shape of one message if it holds a tool output, else None."""
    if not isinstance(message, dict):
        return None
    if message.get("role") == "tool" and "content" in message:
        return OPENAI
    if message.get("type") in RESPONSES_OUTPUT_TYPES and "output" in message:
        return RESPONSES
    content = message.get("content")
    if isinstance(content, list) and any(
        isinstance(block, dict) and block.get("type") == "tool_result" and "content" in block for block in content
    ):
        return ANTHROPIC
    return None


def tool_output_sites(message: Any, format: MessageFormat) -> Iterator[ToolOutputSite]:
    """The tool outputs one message holds in the given shape (none when it is another shape)."""
    if not isinstance(message, dict):
        return
    if format == OPENAI:
        if message.get("role") == "tool" and "content" in message:
            yield ToolOutputSite(OPENAI, None, "content", message["content"], message.get("tool_call_id"))
    elif format == RESPONSES:
        if message.get("type") in RESPONSES_OUTPUT_TYPES and "output" in message:
            yield ToolOutputSite(RESPONSES, None, "output", message["output"], message.get("call_id"))
    elif format == ANTHROPIC:
        content = message.get("content")
        if isinstance(content, list):
            for i, block in enumerate(content):
                if isinstance(block, dict) and block.get("type") == "tool_result" and "content" in block:
                    yield ToolOutputSite(ANTHROPIC, i, "content", block["content"], block.get("tool_use_id"))
    else:
        raise ValueError(f"format must be one of {', '.join(MESSAGE_FORMATS)}, not {format!r}")
