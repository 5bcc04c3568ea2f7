"""``textclean hook claude-code|codex``: a PostToolUse command hook that cleans a tool's output.

The agent writes the hook event as JSON on stdin (``session_id``, ``transcript_path``, ``cwd``,
``hook_event_name``, ``tool_name``, ``tool_input``, ``tool_response``, ...). When the gate cleans some
text of ``tool_response``, the hook prints one JSON line replacing it, of the very same JSON shape with
only the cleaned texts changed::

    {"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": ...}}

Claude Code's MCP tools (``mcp__...``) get ``updatedMCPToolOutput`` instead, the field every Claude Code
version with output replacement honours; Codex gets ``updatedToolOutput`` for every tool. When nothing
changes the hook prints nothing. It never blocks the agent: malformed input or an internal error writes
one line to stderr and exits 1, which both agents treat as a non-blocking error (2 would block).

Texts cleaned: a string response (Codex's Bash), a Bash response's ``stdout`` and ``stderr`` (Claude
Code), and the text blocks of an MCP result (a list of content blocks, or an object's ``content``
list). Other tools' responses (file reads above all, whose exact bytes an agent edits against) are
left alone.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from textclean.integrations.content import content_parts
from textclean.pipeline.gate import DEFAULT_MIN_TOKENS, TextClean

HOSTS = ("claude-code", "codex")
_STREAMS = ("stdout", "stderr")


class HookInputError(ValueError):
    """The event on stdin is not a PostToolUse event this hook can read."""


def _clean_blocks(blocks: list[Any], cleaner: TextClean) -> list[Any]:
    """A list of content blocks with its text blocks cleaned; the same list when nothing changed.

    A list holding a non-text block (an image) is left whole, as clean_messages leaves it.
    """
    parts = content_parts(blocks)
    if parts.non_text:
        return blocks
    new: list[Any] | None = None
    for index, text in parts.texts:
        assert index is not None
        result = cleaner.clean(text)
        if result.applied:
            if new is None:
                new = list(blocks)
            new[index] = {**blocks[index], "text": result.text}
    return blocks if new is None else new


def clean_tool_response(tool_name: str, response: Any, cleaner: TextClean) -> Any:
    """``response`` with its text fields cleaned, of the same shape; the same object when nothing changed."""
    if isinstance(response, str):
        result = cleaner.clean(response)
        return result.text
    if tool_name.startswith("mcp__"):
        if isinstance(response, list):
            return _clean_blocks(response, cleaner)
        if isinstance(response, dict) and isinstance(response.get("content"), list):
            blocks = _clean_blocks(response["content"], cleaner)
            return response if blocks is response["content"] else {**response, "content": blocks}
        return response
    if isinstance(response, dict):
        changed: dict[str, str] = {}
        for key in _STREAMS:
            value = response.get(key)
            if isinstance(value, str):
                result = cleaner.clean(value)
                if result.applied:
                    changed[key] = result.text
        return {**response, **changed} if changed else response
    return response


def hook_output(host: str, event: Any, cleaner: TextClean) -> dict[str, Any] | None:
    """The JSON the hook prints for one event, or None when nothing changes."""
    if not isinstance(event, dict):
        raise HookInputError("the hook event is not a JSON object")
    if event.get("hook_event_name", "PostToolUse") != "PostToolUse":
        raise HookInputError(f"not a PostToolUse event: {event.get('hook_event_name')!r}")
    if "tool_response" not in event:
        raise HookInputError("the event has no tool_response")
    tool_name = event.get("tool_name")
    if not isinstance(tool_name, str):
        raise HookInputError("the event has no tool_name string")
    response = event["tool_response"]
    new = clean_tool_response(tool_name, response, cleaner)
    if new is response:
        return None
    field = "updatedMCPToolOutput" if host == "claude-code" and tool_name.startswith("mcp__") else "updatedToolOutput"
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", field: new}}


def hook_main(argv: Sequence[str]) -> int:
    """Entry point of ``textclean hook``; ``argv`` excludes the subcommand name."""
    try:
        args = list(argv)
        min_tokens = DEFAULT_MIN_TOKENS
        tokenizer = None
        while len(args) >= 3 and args[-2] in ("--min-tokens", "--tokenizer"):
            option, value = args[-2:]
            if option == "--min-tokens":
                if not value.isdigit():
                    break
                min_tokens = int(value)
            else:
                tokenizer = value
            args = args[:-2]
        if len(args) != 1 or args[0] not in HOSTS:
            print(f"textclean hook: usage: textclean hook {{{'|'.join(HOSTS)}}} [--min-tokens N] "
                  "[--tokenizer ENCODING]", file=sys.stderr)
            return 1
        raw = sys.stdin.buffer.read()
        try:
            event = json.loads(raw)
        except ValueError as exc:  # also invalid UTF-8
            raise HookInputError(f"stdin is not JSON: {exc}") from None
        output = hook_output(args[0], event, TextClean(min_tokens=min_tokens, tokenizer=tokenizer))
        if output is not None:
            sys.stdout.write(json.dumps(output) + "\n")  # ASCII: lone surrogates stay escapes
            sys.stdout.flush()
        return 0
    except HookInputError as exc:
        print(f"textclean hook: {exc}; tool output left as it was", file=sys.stderr)
        return 1
    except Exception as exc:  # never block the agent, whatever happens
        print(f"textclean hook: internal error ({type(exc).__name__}: {exc}); tool output left as it was",
              file=sys.stderr)
        return 1
