"""Clean the tool outputs of a chat's messages, in OpenAI, Anthropic or Responses API shape, and nothing else.

Only tool outputs are touched (found by :mod:`textclean.integrations.content`, the walk ``textclean
measure`` shares): OpenAI ``role: "tool"`` messages, Anthropic ``tool_result`` blocks and Responses API
``function_call_output`` / ``custom_tool_call_output`` items, each as a string or a list of text parts.
Each text goes through the gate on its own. A tool output holding any non-text part (an image, a file,
a text part without a string ``text``) is left whole, with the gate reason :data:`NON_TEXT_BLOCKS`.

The input is never mutated. The returned list holds the very same objects for every message that
was not changed; a changed message is a shallow copy with only the changed content replaced, so key
order and every other value stay as they were.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from textclean.integrations.content import (
    MESSAGE_FORMATS,
    NON_TEXT_BLOCKS,
    MessageFormat,
    ToolOutputSite,
    content_parts,
    message_format,
    tool_output_sites,
)
from textclean.pipeline.gate import DEFAULT_MIN_TOKENS, Display, TextClean
from textclean.pipeline.result import NOTHING_REMOVED, Result

__all__ = ["NON_TEXT_BLOCKS", "Format", "MessagesReport", "ToolOutputOutcome", "clean_messages", "describe_display"]

Format = MessageFormat
Message = dict[str, Any]


@dataclass
class ToolOutputOutcome:
    """What the gate did with one tool output.

    ``message_index`` is the message's position; ``block_index`` the ``tool_result`` block's position
    in an Anthropic message's content (None for the other shapes); ``part_index`` the text part's
    position when the content is a list (None for string content, and for a whole output left with
    non-text blocks). ``result`` is None only for :data:`NON_TEXT_BLOCKS`. ``format`` is the shape the
    message was read as.
    """

    message_index: int
    block_index: int | None
    part_index: int | None
    reason: str | None
    result: Result[str] | None
    format: MessageFormat = "openai"

    @property
    def applied(self) -> bool:
        return self.result is not None and self.result.applied


@dataclass
class MessagesReport:
    """Every tool output the call looked at, in message order."""

    outputs: list[ToolOutputOutcome] = field(default_factory=list)
    #: Notes for the caller, e.g. an explicit ``format`` that matched no tool output while another did.
    warnings: list[str] = field(default_factory=list)
    #: The display the outputs were cleaned for (:func:`describe_display`).
    display: str = "no terminal"

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
        return sum(o.result.tokens_saved for o in self.outputs if o.result is not None and o.applied)


def describe_display(display: Display) -> str:
    """The display tool outputs are cleaned for, in words: ``no terminal``, ``terminal of unknown size``,
    ``terminal 120x40`` (``new terminal ...`` when fresh)."""
    if not display.terminal:
        return "no terminal"
    if display.columns is None and display.rows is None:
        size = "of unknown size"
    else:
        size = f"{display.columns or '?'}x{display.rows or '?'}"
    return f"{'new ' if display.fresh else ''}terminal {size}"


def clean_messages(
    messages: Sequence[Message],
    *,
    format: Format | None = None,
    min_tokens: int = DEFAULT_MIN_TOKENS,
    tokenizer: str | Callable[[str], int] | None = None,
    max_chars: int | None = None,
    cleaner: TextClean | None = None,
    columns: int | None = None,
    rows: int | None = None,
    terminal: bool | None = None,
    fresh: bool = False,
) -> tuple[list[Message], MessagesReport]:
    """Return ``(new_messages, report)`` with each tool output cleaned where the gate allows.

    ``format`` None (the default) reads each message in the shape it has (OpenAI chat, Anthropic,
    Responses API input items; a list may mix them). An explicit ``format`` reads only that shape; when
    it finds no tool output where another shape would have, ``report.warnings`` says so.
    ``cleaner`` reuses a configured :class:`TextClean` (then ``min_tokens``, ``tokenizer``,
    ``max_chars`` and the display are ignored).

    The display the tool outputs were written for, as :func:`textclean.clean` names it: by default
    **no terminal** (a harness that captures a tool's output through pipes: logical lines, no wrap);
    ``columns`` / ``rows``, the size of the terminal they were written to, where the harness runs
    tools in a pty of known size; ``terminal=True`` without a size, a terminal of unknown size;
    ``fresh=True``, a new terminal (each tool run in a pty of its own).
    """
    if format is not None and format not in MESSAGE_FORMATS:
        raise ValueError(f"format must be None or one of {', '.join(map(repr, MESSAGE_FORMATS))}, not {format!r}")
    if cleaner is None:
        cleaner = TextClean(
            min_tokens=min_tokens, tokenizer=tokenizer, max_chars=max_chars, columns=columns, rows=rows,
            terminal=terminal, fresh=fresh,
        )
    # Two walks: the first collects the tool outputs' texts so that the gate cleans them in one batch
    # (TextClean.clean_many counts in threads where the counter allows), the second builds the new
    # messages from the results, taken in the same order.
    collected = _Collect()
    for index, message in enumerate(messages):
        shape = format or message_format(message)
        if shape is not None:
            _clean_message(index, message, shape, collected, MessagesReport())  # type: ignore[arg-type]
    replay = _Replay(cleaner.clean_many(collected.texts))
    report = MessagesReport(display=describe_display(cleaner.display))
    out: list[Message] = []
    for index, message in enumerate(messages):
        shape = format or message_format(message)
        out.append(message if shape is None else _clean_message(index, message, shape, replay, report))  # type: ignore[arg-type]
    if format is not None and not report.outputs:
        others = sorted({shape for m in messages if (shape := message_format(m)) not in (None, format)})
        if others:
            report.warnings.append(
                f"format={format!r} matched no tool output; the messages hold tool outputs in "
                f"{' and '.join(others)} shape (leave format=None to detect it)"
            )
    return out, report


class _Collect:
    """Stands in for the gate in the first walk: records each text, changes nothing."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def clean(self, text: str) -> Result[str]:
        self.texts.append(text)
        return Result(text, applied=False, reason=None, detail=None, removed=NOTHING_REMOVED, tokens_before=None,
                      tokens_after=None, count=len, original=text)


class _Replay:
    """Stands in for the gate in the second walk: the batch's results, in the order of the first."""

    def __init__(self, results: list[Result[str]]) -> None:
        self._results = iter(results)

    def clean(self, text: str) -> Result[str]:
        return next(self._results)


def _clean_content(
    site: ToolOutputSite,
    message_index: int,
    cleaner: TextClean,
    report: MessagesReport,
) -> Any:
    """A tool output's content, cleaned: the same object when nothing changed."""
    content = site.content
    parts = content_parts(content, site.format)
    if parts.non_text:
        report.outputs.append(
            ToolOutputOutcome(message_index, site.block_index, None, NON_TEXT_BLOCKS, None, site.format)
        )
        return content
    new_parts: list[Any] | None = None
    for part_index, text in parts.texts:
        result = cleaner.clean(text)
        report.outputs.append(
            ToolOutputOutcome(message_index, site.block_index, part_index, result.reason, result, site.format)
        )
        if part_index is None:
            return result.text
        if result.applied:
            if new_parts is None:
                new_parts = list(content)
            new_parts[part_index] = {**content[part_index], "text": result.text}
    return content if new_parts is None else new_parts


def _clean_message(
    index: int, message: Message, format: MessageFormat, cleaner: TextClean, report: MessagesReport
) -> Message:
    new_message = message
    new_blocks: list[Any] | None = None
    for site in tool_output_sites(message, format):
        new = _clean_content(site, index, cleaner, report)
        if new is site.content:
            continue
        if site.block_index is None:
            new_message = {**message, site.key: new}
        else:
            if new_blocks is None:
                new_blocks = list(message["content"])
            new_blocks[site.block_index] = {**new_blocks[site.block_index], site.key: new}
    if new_blocks is not None:
        new_message = {**message, "content": new_blocks}
    return new_message
