"""Clean the tool outputs of a chat's messages, in OpenAI or Anthropic shape, and nothing else.

Only tool outputs are touched: OpenAI ``role: "tool"`` messages (string content, or each ``text``
part of a content list) and Anthropic ``tool_result`` blocks (string content, or each ``text``
block). Each text goes through the gate on its own. A tool output holding any non-text block (an
image, a document) is left whole, with the gate reason :data:`NON_TEXT_BLOCKS`.

The input is never mutated. The returned list holds the very same objects for every message that
was not changed; a changed message is a shallow copy with only the changed content replaced, so key
order and every other value stay as they were.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from textclean.pipeline.gate import DEFAULT_MIN_TOKENS, Result, TextClean
from textclean.pipeline.result import NON_TEXT_BLOCKS, NOTHING_REMOVED

Format = Literal["openai", "anthropic"]
Message = dict[str, Any]


@dataclass
class ToolOutputOutcome:
    """What the gate did with one tool output.

    ``message_index`` is the message's position; ``block_index`` the ``tool_result`` block's position
    in an Anthropic message's content (None for OpenAI); ``part_index`` the text part's position when
    the content is a list (None for string content, and for a whole output left with non-text blocks).
    ``result`` is None only for :data:`NON_TEXT_BLOCKS`.
    """

    message_index: int
    block_index: int | None
    part_index: int | None
    reason: str | None
    result: Result | None

    @property
    def applied(self) -> bool:
        return self.result is not None and self.result.applied


@dataclass
class MessagesReport:
    """Every tool output the call looked at, in message order."""

    outputs: list[ToolOutputOutcome] = field(default_factory=list)

    @property
    def applied(self) -> int:
        return sum(o.applied for o in self.outputs)

    @property
    def reasons(self) -> Counter[str]:
        """How many outputs were left as they were, by gate reason."""
        return Counter(o.reason for o in self.outputs if o.reason is not None)

    @property
    def tokens_saved(self) -> int:
        """Tokens removed from the cleaned outputs (counts only outputs the gate applied)."""
        return sum(o.result.tokens_before - o.result.tokens_after for o in self.outputs if o.applied)


def clean_messages(
    messages: Sequence[Message],
    *,
    format: Format = "openai",
    min_tokens: int = DEFAULT_MIN_TOKENS,
    tokenizer: str | Callable[[str], int] | None = None,
    max_chars: int | None = None,
    cleaner: TextClean | None = None,
) -> tuple[list[Message], MessagesReport]:
    """Return ``(new_messages, report)`` with each tool output cleaned where the gate allows.

    ``cleaner`` reuses a configured :class:`TextClean` (then ``min_tokens``, ``tokenizer`` and
    ``max_chars`` are ignored).
    """
    if format not in ("openai", "anthropic"):
        raise ValueError(f"format must be 'openai' or 'anthropic', not {format!r}")
    if cleaner is None:
        cleaner = TextClean(min_tokens=min_tokens, tokenizer=tokenizer, max_chars=max_chars)
    # Two walks over the messages: the first collects the tool outputs' texts so that the gate cleans
    # them in one batch (TextClean.clean_many counts in threads where the counter allows), the second
    # builds the new messages from the results, taken in the same order.
    collected = _Collect()
    _walk(messages, format, collected, MessagesReport())
    report = MessagesReport()
    out = _walk(messages, format, _Replay(cleaner.clean_many(collected.texts)), report)
    return out, report


class _Collect:
    def __init__(self) -> None:
        self.texts: list[str] = []

    def clean(self, text: str) -> Result:
        self.texts.append(text)
        return Result(text, applied=False, reason=None, detail=None, removed=NOTHING_REMOVED, tokens_before=None,
                      tokens_after=None, count=len, original=text)


class _Replay:
    def __init__(self, results: list[Result]) -> None:
        self._results = iter(results)

    def clean(self, text: str) -> Result:
        return next(self._results)


def _walk(messages: Sequence[Message], format: Format, cleaner: Any, report: MessagesReport) -> list[Message]:
    out: list[Message] = []
    for index, message in enumerate(messages):
        if format == "openai":
            out.append(_clean_openai_message(index, message, cleaner, report))
        else:
            out.append(_clean_anthropic_message(index, message, cleaner, report))
    return out


def _clean_content(
    content: Any,
    where: tuple[int, int | None],
    cleaner: TextClean,
    report: MessagesReport,
) -> Any:
    """A tool output's content, cleaned: the same object when nothing changed."""
    message_index, block_index = where
    if isinstance(content, str):
        result = cleaner.clean(content)
        report.outputs.append(ToolOutputOutcome(message_index, block_index, None, result.reason, result))
        return result.text
    if not isinstance(content, list):
        return content
    if not all(isinstance(part, dict) and part.get("type") == "text" for part in content):
        report.outputs.append(ToolOutputOutcome(message_index, block_index, None, NON_TEXT_BLOCKS, None))
        return content
    new_parts: list[Any] | None = None
    for i, part in enumerate(content):
        text = part.get("text")
        if not isinstance(text, str):
            continue
        result = cleaner.clean(text)
        report.outputs.append(ToolOutputOutcome(message_index, block_index, i, result.reason, result))
        if result.applied:
            if new_parts is None:
                new_parts = list(content)
            new_parts[i] = {**part, "text": result.text}
    return content if new_parts is None else new_parts


def _clean_openai_message(
    index: int, message: Message, cleaner: TextClean, report: MessagesReport
) -> Message:
    if not isinstance(message, dict) or message.get("role") != "tool" or "content" not in message:
        return message
    content = message["content"]
    new_content = _clean_content(content, (index, None), cleaner, report)
    if new_content is content:
        return message
    return {**message, "content": new_content}


def _clean_anthropic_message(
    index: int, message: Message, cleaner: TextClean, report: MessagesReport
) -> Message:
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return message
    new_blocks: list[Any] | None = None
    for i, block in enumerate(content):
        if not (isinstance(block, dict) and block.get("type") == "tool_result" and "content" in block):
            continue
        old = block["content"]
        new = _clean_content(old, (index, i), cleaner, report)
        if new is not old:
            if new_blocks is None:
                new_blocks = list(content)
            new_blocks[i] = {**block, "content": new}
    if new_blocks is None:
        return message
    return {**message, "content": new_blocks}
