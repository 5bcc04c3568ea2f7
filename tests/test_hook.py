"""``textclean hook claude-code|codex`` run as the agents run it: a subprocess fed one event on stdin."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from textclean import clean

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _capture(name: str) -> str:
    return (FIXTURES / f"{name}.raw").read_bytes().decode("utf-8", "surrogateescape")


def _hook(host: str, stdin: bytes, *extra: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "textclean", "hook", host, *extra], input=stdin, capture_output=True, timeout=60
    )


def _event(tool_name: str, tool_input: object, tool_response: object, **more: object) -> bytes:
    # The common fields Claude Code sends (hooks reference), in its order.
    event = {
        "session_id": "abc123",
        "transcript_path": "/home/u/.claude/projects/p/abc123.jsonl",
        "cwd": "/home/u/p",
        "permission_mode": "default",
        "hook_event_name": "PostToolUse",
        "tool_name": tool_name,
        "tool_input": tool_input,
        "tool_response": tool_response,
        "tool_use_id": "toolu_01",
        **more,
    }
    return json.dumps(event).encode()


def _noisy_text() -> str:
    text = _capture("grep_color")
    assert clean(text).applied
    return text


def test_claude_code_bash_output_is_replaced_in_the_same_shape() -> None:
    stdout, stderr = _noisy_text(), _capture("cargo_build_error")
    response = {"stdout": stdout, "stderr": stderr, "interrupted": False, "isImage": False}
    proc = _hook("claude-code", _event("Bash", {"command": "grep --color=always -rn x ."}, response))
    assert proc.returncode == 0, proc.stderr
    output = json.loads(proc.stdout)
    assert list(output) == ["hookSpecificOutput"]
    specific = output["hookSpecificOutput"]
    assert specific["hookEventName"] == "PostToolUse"
    updated = specific["updatedToolOutput"]
    assert list(updated) == list(response)  # same keys, same order
    assert updated["stdout"] == clean(stdout).text != stdout
    assert updated["stderr"] == clean(stderr).text
    assert updated["interrupted"] is False and updated["isImage"] is False


def test_mcp_content_blocks_use_the_mcp_field() -> None:
    text = _noisy_text()
    blocks = [{"type": "text", "text": text}, {"type": "text", "text": "plain"}]
    proc = _hook("claude-code", _event("mcp__shell__run", {"cmd": "grep"}, blocks))
    assert proc.returncode == 0, proc.stderr
    specific = json.loads(proc.stdout)["hookSpecificOutput"]
    assert "updatedToolOutput" not in specific
    assert specific["updatedMCPToolOutput"] == [{"type": "text", "text": clean(text).text}, blocks[1]]


def test_mcp_call_result_object_and_image_blocks() -> None:
    text = _noisy_text()
    result = {"content": [{"type": "text", "text": text}], "isError": False}
    proc = _hook("claude-code", _event("mcp__shell__run", {}, result))
    assert json.loads(proc.stdout)["hookSpecificOutput"]["updatedMCPToolOutput"] == {
        "content": [{"type": "text", "text": clean(text).text}], "isError": False,
    }
    with_image = [{"type": "text", "text": text}, {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}]
    proc = _hook("claude-code", _event("mcp__shell__run", {}, with_image))
    assert proc.returncode == 0 and proc.stdout == b""  # left whole, as clean_messages leaves it


def test_codex_bash_string_response() -> None:
    text = _capture("cr_progress")
    assert clean(text).applied
    event = _event("Bash", {"command": "./progress"}, text, turn_id="t1", model="gpt-5-codex")
    proc = _hook("codex", event)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {
        "hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": clean(text).text}
    }
    mcp = _hook("codex", _event("mcp__fs__run", {}, {"content": [{"type": "text", "text": text}]}))
    assert "updatedToolOutput" in json.loads(mcp.stdout)["hookSpecificOutput"]  # Codex: one field for all


def test_nothing_to_clean_prints_nothing() -> None:
    response = {"stdout": "ok\n" * 100, "stderr": "", "interrupted": False, "isImage": False}
    proc = _hook("claude-code", _event("Bash", {"command": "yes ok | head"}, response))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")


def test_file_reads_are_never_touched() -> None:
    response = {"type": "text", "file": {"filePath": "/p/log.txt", "content": _noisy_text()}}
    proc = _hook("claude-code", _event("Read", {"file_path": "/p/log.txt"}, response))
    assert (proc.returncode, proc.stdout) == (0, b"")


def test_min_tokens_option() -> None:
    response = {"stdout": _noisy_text(), "stderr": ""}
    proc = _hook("claude-code", _event("Bash", {}, response), "--min-tokens", "1000000")
    assert (proc.returncode, proc.stdout) == (0, b"")


@pytest.mark.parametrize(
    "stdin",
    [
        b'{"session_id": "abc", "tool_name": "Bash", "tool_response": {"stdout": "\\u001b[31m',  # cut short
        b"\xff\xfe not json",
        b"[1, 2, 3]",
        b'{"hook_event_name": "PostToolUse", "tool_name": "Bash"}',  # no tool_response
        b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {}}',
        b"",
    ],
)
def test_malformed_input_is_one_stderr_line_and_exit_1(stdin: bytes) -> None:
    proc = _hook("claude-code", stdin)
    assert proc.returncode == 1  # non-blocking; 2 would block the agent
    assert proc.stdout == b""
    assert proc.stderr.count(b"\n") == 1 and proc.stderr.startswith(b"textclean hook: ")


def test_unknown_host_is_exit_1() -> None:
    proc = _hook("cursor", b"{}")
    assert proc.returncode == 1 and proc.stderr.count(b"\n") == 1
