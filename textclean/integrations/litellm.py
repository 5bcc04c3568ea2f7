"""A LiteLLM proxy hook: every request's tool outputs cleaned before the model sees them.

Install with ``pip install 'textclean-lossless[litellm]'`` and name the ready instance in the proxy's
``config.yaml``::

    litellm_settings:
      callbacks: textclean.integrations.litellm.proxy_handler_instance

``async_pre_call_hook`` runs :func:`textclean.clean_messages` (shape detected per message) on the
request's ``messages`` (chat completions, Anthropic ``/v1/messages``) or its ``input`` list (Responses
API), replaces them only when an output was cleaned, and records what it did under the ``textclean``
key of the request's LiteLLM metadata (``litellm_metadata`` when the request carries that, else
``metadata``), so it reaches the proxy's logging callbacks and spend logs.

Tool outputs are cleaned as written for **no terminal** (the default: what a harness captures through
pipes). A proxy in front of harnesses that run tools in a pty of known size says so::

    from textclean.integrations.litellm import TextCleanHook
    proxy_handler_instance = TextCleanHook(columns=120, rows=40)  # or terminal=True: a terminal, size unknown
"""

from __future__ import annotations

from typing import Any

from litellm.integrations.custom_logger import CustomLogger

from textclean.integrations.messages import MessagesReport, clean_messages
from textclean.pipeline.gate import DEFAULT_MIN_TOKENS, TextClean
from textclean.pipeline.tokens import Tokenizer

__all__ = ["TextCleanHook", "proxy_handler_instance", "report_metadata"]

METADATA_KEY = "textclean"


def report_metadata(report: MessagesReport) -> dict[str, Any]:
    """What one request's cleaning did, as plain JSON values, and for which display."""
    return {
        "tool_outputs": len(report.outputs),
        "applied": report.applied,
        "tokens_saved": report.tokens_saved,
        "reasons": dict(report.reasons),
        "display": report.display,
    }


class TextCleanHook(CustomLogger):  # type: ignore[misc]  # litellm ships no type information for it
    """A LiteLLM ``CustomLogger`` whose pre-call hook cleans tool outputs losslessly."""

    def __init__(
        self, *, min_tokens: int = DEFAULT_MIN_TOKENS, max_chars: int | None = None, tokenizer: Tokenizer = None,
        columns: int | None = None, rows: int | None = None, terminal: bool | None = None, fresh: bool = False,
        **kwargs: Any,
    ) -> None:
        """``columns`` / ``rows`` / ``terminal`` / ``fresh``: the display the tool outputs were written
        for, as :func:`textclean.clean` names it (by default no terminal)."""
        super().__init__(**kwargs)
        self.cleaner = TextClean(min_tokens=min_tokens, max_chars=max_chars, tokenizer=tokenizer,
                                 columns=columns, rows=rows, terminal=terminal, fresh=fresh)

    async def async_pre_call_hook(
        self, user_api_key_dict: Any, cache: Any, data: dict[str, Any], call_type: Any
    ) -> dict[str, Any]:
        key = "messages" if isinstance(data.get("messages"), list) else "input"
        items = data.get(key)
        if not isinstance(items, list):
            return data
        new, report = clean_messages(items, cleaner=self.cleaner)
        if report.applied:
            data[key] = new
        if report.outputs:
            metadata_key = "litellm_metadata" if isinstance(data.get("litellm_metadata"), dict) else "metadata"
            metadata = data.get(metadata_key)
            if not isinstance(metadata, dict):
                metadata = data[metadata_key] = {}
            metadata[METADATA_KEY] = report_metadata(report)
        return data


proxy_handler_instance = TextCleanHook()
