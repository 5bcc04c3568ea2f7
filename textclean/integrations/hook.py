"""``textclean hook claude-code|codex``: a command hook for PreToolUse and PostToolUse on Bash (and MCP tools).

The agent writes the hook event as JSON on stdin (``session_id``, ``cwd``, ``hook_event_name``,
``tool_name``, ``tool_input``, ``tool_response`` after the call, ...). One registration serves both
events; ``hook_event_name`` tells them apart.

**PreToolUse** (Bash): the command may be rewritten to run under ``textclean run``, so its output
reaches the model cleaned whether it succeeds or fails::

    {"hookSpecificOutput": {"hookEventName": "PreToolUse", ["permissionDecision": "allow",]
                            "updatedInput": {..., "command": "textclean run --one-stream -- bash -c '<command>'"}}}

The command is quoted whole (``shlex.quote``) and run by ``bash -c``, so quotes, heredocs, pipes and
``&&`` run as written; ``updatedInput`` is the event's ``tool_input`` with only ``command`` changed.
Left alone (no output): a command already under textclean, and other tools. A background command
(``run_in_background``) is rewritten under the same conditions: ``textclean run`` streams through its
pipe, so the file Claude Code writes its output to, which the model reads while it runs, holds each line
cleaned once it is settled (docs/hosts.md).

Claude Code: textclean changes what the model reads, never what the host decides to run or to ask
about. The hook rewrites only where Claude Code is known to run the command as written
(:mod:`textclean.integrations.claude_permissions`): ``permission_mode`` ``bypassPermissions``, or an
allow rule for every part of the command, and in both cases no deny or ask rule on any part, on the
whole, or on the rewritten command (which the host checks in its place), read from every settings file
and from the host's command line; and only commands that split with certainty into plain parts.
Everywhere else it prints nothing: the host decides on the command as written, and PostToolUse cleans
a successful output. It never answers "ask" or "deny". Seen in Claude Code 2.1.332
(tests/test_host_claude_code.py): under an allow rule ``updatedInput`` applies with ``"allow"`` (without
a decision the host asks about the rewritten command, which a headless run denies); in bypass mode it
applies with no decision, which the hook sends (rtk-ai/rtk#893 saw ``"allow"`` dropped there).
Codex applies ``updatedInput`` only beside ``"allow"`` and then judges the rewritten command, so for
Codex the hook rewrites only where :mod:`~textclean.integrations.codex_policy` knows Codex runs the
command as written, in the same sandbox (else it prints nothing).

**PostToolUse**: when the gate cleans some text of ``tool_response``, the hook prints one JSON line
replacing it, of the very same JSON shape with only the cleaned texts changed::

    {"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": ...}}

Claude Code's MCP tools (``mcp__...``) get ``updatedMCPToolOutput`` instead, the field every Claude Code
version with output replacement honours; Codex gets ``updatedToolOutput`` for every tool. Texts
cleaned: a string response (Codex's Bash), a Bash response's ``stdout`` and ``stderr`` (Claude Code),
and the text blocks of an MCP result (a list of content blocks, or an object's ``content`` list).
Other tools' responses (file reads above all, whose exact bytes an agent edits against) are left
alone. Texts without terminal noise are answered before the pipeline is imported.

When nothing changes the hook prints nothing. It never blocks the agent: malformed input, a bad
option or an internal error writes one line to stderr and exits 1, which both agents treat as a
non-blocking error (2 would block).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from textclean.pipeline.errors import TokenizerError
from textclean.pipeline.probe import has_terminal_noise

if TYPE_CHECKING:
    from textclean.pipeline.gate import TextClean

HOSTS = ("claude-code", "codex")
_STREAMS = ("stdout", "stderr")
#: The events this hook answers.
PRE_TOOL_USE = "PreToolUse"
POST_TOOL_USE = "PostToolUse"
# A command that already runs under textclean: `textclean ...`, `/path/to/textclean ...` (quoted or
# not), or `python -m textclean ...` (any python), after optional leading blanks.
_PROGRAM = r"""(?:'(?:[^']*/)?{0}'|"(?:[^"]*/)?{0}"|(?:[^\s'"]*/)?{0})"""
_UNDER_TEXTCLEAN = re.compile(
    r"\s*(?:{}|{}\s+-m\s+textclean)(?:\s|$)".format(_PROGRAM.format("textclean"), _PROGRAM.format(r"python[\d.]*"))
)


class HookInputError(ValueError):
    """The event on stdin is not an event this hook can read."""


def _clean_blocks(blocks: list[Any], cleaner: TextClean) -> list[Any]:
    """A list of content blocks with its text blocks cleaned; the same list when nothing changed.

    A list holding a non-text block (an image) is left whole, as clean_messages leaves it.
    """
    from textclean.integrations.content import content_parts

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


def response_texts(tool_name: str, response: Any) -> Iterator[str]:
    """The texts :func:`clean_tool_response` would hand to the gate (and a few it would not)."""
    if isinstance(response, str):
        yield response
    elif isinstance(response, dict):
        for key in _STREAMS:
            if isinstance(response.get(key), str):
                yield response[key]
        blocks = response.get("content")
        if tool_name.startswith("mcp__") and isinstance(blocks, list):
            yield from response_texts(tool_name, blocks)
    elif isinstance(response, list) and tool_name.startswith("mcp__"):
        for block in response:
            if isinstance(block, dict) and isinstance(block.get("text"), str):
                yield block["text"]


def _event_fields(event: Any) -> tuple[str, str]:
    if not isinstance(event, dict):
        raise HookInputError("the hook event is not a JSON object")
    name = event.get("hook_event_name", POST_TOOL_USE)
    if name not in (PRE_TOOL_USE, POST_TOOL_USE):
        raise HookInputError(f"not a PreToolUse or PostToolUse event: {name!r}")
    tool_name = event.get("tool_name")
    if not isinstance(tool_name, str):
        raise HookInputError("the event has no tool_name string")
    return name, tool_name


def hook_output(host: str, event: Any, cleaner: TextClean) -> dict[str, Any] | None:
    """The JSON the hook prints for one PostToolUse event, or None when nothing changes."""
    name, tool_name = _event_fields(event)
    if name != POST_TOOL_USE:
        raise HookInputError(f"not a PostToolUse event: {name!r}")
    if "tool_response" not in event:
        raise HookInputError("the event has no tool_response")
    response = event["tool_response"]
    new = clean_tool_response(tool_name, response, cleaner)
    if new is response:
        return None
    field = "updatedMCPToolOutput" if host == "claude-code" and tool_name.startswith("mcp__") else "updatedToolOutput"
    return {"hookSpecificOutput": {"hookEventName": POST_TOOL_USE, field: new}}


def textclean_command() -> str:
    """How the rewritten command calls textclean: this very program, quoted for a shell."""
    program = sys.argv[0] if sys.argv else ""
    if os.path.basename(program) == "textclean" and os.path.isfile(program):
        return shlex.quote(os.path.abspath(program))
    return f"{shlex.quote(sys.executable)} -m textclean"


def under_textclean(command: str) -> bool:
    """Whether ``command`` already runs under textclean (``textclean run ...`` or any textclean call)."""
    return _UNDER_TEXTCLEAN.match(command) is not None


def wrap_command(command: str, program: str | None = None, options: Sequence[str] = (), shell: str = "bash") -> str:
    """``command`` run by ``<shell> -c`` under ``textclean run [options]``: the same words, quoted whole."""
    given = "".join(f" {shlex.quote(option)}" for option in options)
    return f"{program or textclean_command()} run{given} -- {shlex.quote(shell)} -c {shlex.quote(command)}"


def rewrite_output(host: str, event: Any, *, run_options: Sequence[str] = (),
                   env: Mapping[str, str] | None = None) -> dict[str, Any] | None:
    """The JSON the hook prints for one PreToolUse event, or None to leave the call alone;
    ``run_options``: passed on to ``textclean run`` (the hook's own ``--min-tokens`` and ``--tokenizer``);
    ``env``: the environment the host gave the hook (``os.environ`` when None)."""
    _, tool_name = _event_fields(event)
    if tool_name != "Bash":
        return None
    tool_input = event.get("tool_input")
    if not isinstance(tool_input, dict) or not isinstance(tool_input.get("command"), str):
        raise HookInputError("the Bash event has no tool_input.command string")
    command = tool_input["command"]
    if not command.strip() or under_textclean(command):
        return None
    specific: dict[str, Any] = {"hookEventName": PRE_TOOL_USE}
    if host == "codex":
        from textclean.integrations.codex_policy import login_shell, rewrite_allowed

        # Codex's shell tool hands the model stdout and stderr merged in the order written, and may give the
        # command a PTY to talk with (its `tty` argument, which the hook does not see): so does the rewrite.
        # The shell is Codex's own, by the same path (seen: its errors read "/bin/bash: line 1: ...").
        wrapped = wrap_command(command, options=[*run_options, "--one-stream", "--tty-passthrough"],
                               shell=login_shell() or "bash")
        if not rewrite_allowed(event, command, wrapped):
            return None  # Codex decides on the command as written
        specific["permissionDecision"] = "allow"  # Codex applies updatedInput only beside "allow"
    else:
        from textclean.integrations.claude_permissions import Verdict, session_verdict

        # Claude Code hands the model stdout and stderr merged in the order written (seen: `printf 'a\\n';
        # ls missing; printf 'b\\n'` reads a, the error, b): so does the rewrite.
        wrapped = wrap_command(command, options=[*run_options, "--one-stream"])
        verdict = session_verdict(event, command, wrapped, env)
        if verdict is Verdict.UNKNOWN:
            return None  # the host decides on the command as written
        if verdict is Verdict.ALLOWED:
            specific["permissionDecision"] = "allow"  # the allow rule was for the original command
        # Bypass mode: no decision, the host runs the rewrite in its own mode (rtk-ai/rtk#893).
    specific["permissionDecisionReason"] = "textclean: run under `textclean run` so its output is cleaned"
    specific["updatedInput"] = {**tool_input, "command": wrapped}
    return {"hookSpecificOutput": specific}


class _Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one stderr line and exit 1: exit 2 would block the agent."""

    def error(self, message: str) -> NoReturn:
        self.exit(1, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _non_negative(value: str) -> int:
    if not value.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, not {value!r}")
    return int(value)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="textclean hook",
        description=(
            "A command hook for Claude Code or Codex, registered for PreToolUse and/or PostToolUse. Reads "
            "one event on stdin. PreToolUse on Bash: rewrites the command to run under 'textclean run', so "
            "its output is cleaned, failed calls included; in Claude Code only where the host runs the "
            "command anyway (bypass mode, or an allow rule on every part, with no deny or ask rule on any "
            "part), and never answers 'ask' or 'deny'. PostToolUse: replaces a successful call's output "
            "with its cleaned text. Prints nothing when nothing changes; never blocks (errors exit 1)."
        ),
    )
    parser.add_argument("host", choices=HOSTS, help="the agent that runs the hook")
    parser.add_argument("--min-tokens", type=_non_negative, default=None, metavar="N",
                        help="leave outputs of fewer tokens as they are (default 50)")
    parser.add_argument("--tokenizer", default=None, metavar="ENCODING",
                        help="encoding to count tokens in (default cl100k_base, offline)")
    parser.add_argument("--approve", action="store_true", help=argparse.SUPPRESS)
    return parser


def _post_tool_use(host: str, event: dict[str, Any], min_tokens: int | None,
                   tokenizer: str | None) -> dict[str, Any] | None:
    tool_name = event.get("tool_name")
    response = event.get("tool_response")
    if isinstance(tool_name, str) and "tool_response" in event and not any(
            has_terminal_noise(text) for text in response_texts(tool_name, response)):
        return None  # nothing for the gate to clean: answered without importing it
    from textclean.pipeline.gate import DEFAULT_MIN_TOKENS, TextClean

    cleaner = TextClean(min_tokens=DEFAULT_MIN_TOKENS if min_tokens is None else min_tokens, tokenizer=tokenizer)
    return hook_output(host, event, cleaner)


def _arguments(argv: list[str]) -> argparse.Namespace:
    """The options. The bare ``textclean hook HOST`` an agent runs on every tool call is read without
    building the parser, whose help formatter imports shutil and gettext's locale (issue 39)."""
    if len(argv) == 1 and argv[0] in HOSTS:
        return argparse.Namespace(host=argv[0], min_tokens=None, tokenizer=None, approve=False)
    return _parser().parse_args(argv)


def hook_main(argv: Sequence[str]) -> int:
    """Entry point of ``textclean hook``; ``argv`` excludes the subcommand name."""
    try:
        args = _arguments(list(argv))
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 1
    if args.approve:
        print("textclean hook: --approve was removed: the hook never answers for the person "
              "(see docs/integration.md); tool call left as it was", file=sys.stderr)
        return 1
    try:
        raw = sys.stdin.buffer.read()
        try:
            event = json.loads(raw)
        except ValueError as exc:  # also invalid UTF-8
            raise HookInputError(f"stdin is not JSON: {exc}") from None
        name, _ = _event_fields(event)
        if name == PRE_TOOL_USE:
            run_options = [*(["--min-tokens", str(args.min_tokens)] if args.min_tokens is not None else []),
                           *(["--tokenizer", args.tokenizer] if args.tokenizer is not None else [])]
            output = rewrite_output(args.host, event, run_options=run_options)
        else:
            output = _post_tool_use(args.host, event, args.min_tokens, args.tokenizer)
        if output is not None:
            sys.stdout.write(json.dumps(output) + "\n")  # ASCII: lone surrogates stay escapes
            sys.stdout.flush()
        return 0
    except (HookInputError, TokenizerError) as exc:
        print(f"textclean hook: {exc}; tool call left as it was", file=sys.stderr)
        return 1
    except Exception as exc:  # never block the agent, whatever happens
        print(f"textclean hook: internal error ({type(exc).__name__}: {exc}); tool call left as it was",
              file=sys.stderr)
        return 1
