"""``textclean hook claude-code|codex`` run as the agents run it: a subprocess fed one event on stdin."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from textclean import clean
from textclean.integrations.hook import HOSTS, _arguments, _parser, wrap_command

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _capture(name: str) -> str:
    return (FIXTURES / f"{name}.raw").read_bytes().decode("utf-8", "surrogateescape")


def _hook(host: str, stdin: bytes, *extra: str, env: dict[str, str] | None = None
          ) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "textclean", "hook", host, *extra], input=stdin, capture_output=True, timeout=60,
        env=env,
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


# --- PreToolUse: the command rewritten to run under `textclean run` (issue 25) -------------------

ROOT = Path(__file__).resolve().parent.parent


def _pre(command: str, *extra: str, host: str = "claude-code", tool_input: dict[str, object] | None = None,
         home: Path | None = None, **fields: object) -> subprocess.CompletedProcess[bytes]:
    """The hook on a PreToolUse event, as Claude Code runs it: ``CLAUDE_PID`` names the host (here this
    test process, whose command line holds no permission option) and ``home`` holds the user's settings
    (an empty directory when None)."""
    more = tool_input or {}
    event = json.loads(_event("Bash", {"command": command, "description": "run it", "timeout": 120000, **more}, None))
    del event["tool_response"]
    env = {key: value for key, value in os.environ.items() if key not in ("CLAUDE_CONFIG_DIR", "CLAUDE_PROJECT_DIR")}
    with tempfile.TemporaryDirectory() as empty:
        event.update(hook_event_name="PreToolUse", cwd=empty, **fields)  # a real directory, without symlinks
        env.update(HOME=str(home or empty), CLAUDE_PID=str(os.getpid()))
        return _hook(host, json.dumps(event).encode(), *extra, env=env)


def _bypass(command: str, *extra: str) -> subprocess.CompletedProcess[bytes]:
    return _pre(command, *extra, permission_mode="bypassPermissions")


REWRITE_CASES = [
    "echo \"double 'single' $((1+2))\" && echo 'single \"double\" $HOME' | tr a-z A-Z",
    "cat <<'EOF'\nheredoc with 'quotes', \"doubles\" and $HOME unexpanded \\n\nEOF\nfalse",
    "x=world; cat <<EOF | grep -c o\nhello $x\nfoo\nEOF",
    "for i in $(seq 1 30); do printf '\\033[1;31merror\\033[0m: case %s failed\\n' \"$i\"; done >&2; "
    "printf 'working\\r\\033[Kdone\\n'; exit 7",
    "true && { echo a; echo b >&2; } || echo never; (exit 3)",
    "printf '%s\\n' \"it's\" 'say \"hi\"' | while read -r line; do echo \"<$line>\"; done; test -z 1",
]


@pytest.mark.parametrize("command", REWRITE_CASES)
def test_rewritten_command_runs_the_same_with_cleaned_output(command: str) -> None:
    rewritten = wrap_command(command)
    assert " run -- bash -c " in rewritten
    original = subprocess.run(["bash", "-c", command], capture_output=True, timeout=60, cwd=ROOT)
    wrapped = subprocess.run(["bash", "-c", rewritten], capture_output=True, timeout=60, cwd=ROOT)
    assert wrapped.returncode == original.returncode
    assert wrapped.stdout == clean(original.stdout).text
    assert wrapped.stderr == clean(original.stderr).text


def test_a_rewritten_failing_command_comes_back_cleaned() -> None:
    rewritten = wrap_command(REWRITE_CASES[3])
    wrapped = subprocess.run(["bash", "-c", rewritten], capture_output=True, timeout=60, cwd=ROOT)
    assert wrapped.returncode == 7
    assert b"\x1b" not in wrapped.stderr and wrapped.stderr.count(b"error: case ") == 30


@pytest.mark.parametrize("command", [
    "textclean run -- make test",
    "  /usr/local/bin/textclean run --pty -- pip install .",
    "python3 -m textclean run -- pytest",
    "textclean measure ~/.claude/projects/",
    "   ",
])
def test_a_command_already_under_textclean_is_left_alone(command: str) -> None:
    proc = _bypass(command)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")


def test_a_rewrite_is_not_rewritten_again() -> None:
    first = json.loads(_bypass("ls -la").stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    proc = _bypass(first)
    assert (proc.returncode, proc.stdout) == (0, b"")


def test_a_background_command_is_rewritten_under_the_same_conditions() -> None:
    """``textclean run`` streams, so the host's output file of a background command holds cleaned lines
    as they settle (tests/test_host_claude_code.py): rewritten where a foreground one would be, and only there."""
    proc = _pre("ls -la", tool_input={"run_in_background": True}, permission_mode="bypassPermissions")
    updated = json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]
    assert updated["run_in_background"] is True and updated["command"].endswith("-c 'ls -la'")
    assert _pre("ls -la", tool_input={"run_in_background": True}, permission_mode="default").stdout == b""


def test_other_tools_are_left_alone() -> None:
    event = json.loads(_event("Read", {"file_path": "/etc/hosts"}, None))
    del event["tool_response"]
    event["hook_event_name"] = "PreToolUse"
    proc = _hook("claude-code", json.dumps(event).encode())
    assert (proc.returncode, proc.stdout) == (0, b"")


def test_the_rewrite_keeps_the_rest_of_the_tool_input() -> None:
    proc = _bypass("ls -la")
    assert proc.returncode == 0, proc.stderr
    specific = json.loads(proc.stdout)["hookSpecificOutput"]
    assert specific["hookEventName"] == "PreToolUse"
    updated = specific["updatedInput"]
    assert updated["description"] == "run it" and updated["timeout"] == 120000
    assert updated["command"] == wrap_command("ls -la", options=["--one-stream"])


def test_claude_code_rewrites_only_where_the_host_runs_the_command(tmp_path: Path) -> None:
    """No answer (the host decides) unless bypass mode or an allow rule on every part says it runs,
    and never "ask" or "deny" (Codex: tests/test_codex_policy.py)."""
    def answer(command: str = "ls -la && git status", mode: str = "default", host: str = "claude-code",
               **permissions: list[str]) -> object:
        home = tmp_path / f"home{len(list(tmp_path.iterdir()))}"
        (home / ".claude").mkdir(parents=True)
        (home / ".claude" / "settings.json").write_text(json.dumps({"permissions": permissions}))
        proc = _pre(command, host=host, home=home, permission_mode=mode)
        assert proc.returncode == 0 and proc.stderr == b"", proc.stderr
        if not proc.stdout:
            return None
        specific = json.loads(proc.stdout)["hookSpecificOutput"]
        assert specific["updatedInput"]["command"] == wrap_command(command, options=["--one-stream"])
        return specific.get("permissionDecision", "rewrite, no decision")

    assert answer() is None  # the host asks, or runs a read-only command by itself
    assert answer(mode="acceptEdits") is None
    assert answer(mode="dontAsk") is None
    assert answer(mode="plan") is None
    assert answer(mode="bypassPermissions") == "rewrite, no decision"  # "allow" would drop it (rtk-ai/rtk#893)
    assert answer(mode="bypassPermissions", deny=["Bash(git:*)"]) is None  # a deny rule on the second part
    assert answer(mode="bypassPermissions", ask=["Bash(git status)"]) is None
    assert answer(mode="bypassPermissions", deny=["Bash(*textclean*)"]) is None  # on the rewrite
    assert answer(allow=["Bash(ls:*)", "Bash(git status)"]) == "allow"
    assert answer(allow=["Bash(ls:*)"]) is None
    assert answer(allow=["Bash"], ask=["Bash(git:*)"]) is None
    assert answer("ls > listing", mode="bypassPermissions") is None  # the host checks redirections itself


def test_approve_is_gone_with_one_line() -> None:
    proc = _bypass("ls", "--approve")
    assert (proc.returncode, proc.stdout) == (1, b"")
    assert proc.stderr.count(b"\n") == 1 and b"--approve was removed" in proc.stderr


def test_rewrite_calls_the_textclean_program_that_runs_the_hook(monkeypatch: pytest.MonkeyPatch,
                                                                 tmp_path: Path) -> None:
    from textclean.integrations import hook

    script = tmp_path / "bin dir" / "textclean"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n")
    monkeypatch.setattr(sys, "argv", [str(script), "hook", "claude-code"])
    assert hook.wrap_command("echo 'hi'") == f"'{script}' run -- bash -c 'echo '\"'\"'hi'\"'\"''"
    assert hook.under_textclean(hook.wrap_command("echo hi"))
    monkeypatch.setattr(sys, "argv", ["/somewhere/textclean/__main__.py", "hook", "claude-code"])
    assert hook.textclean_command() == f"{shlex.quote(sys.executable)} -m textclean"


# --- options through argparse (issue 26) ---------------------------------------------------------


def test_help_is_usage_and_exit_0() -> None:
    proc = subprocess.run([sys.executable, "-m", "textclean", "hook", "--help"], capture_output=True, timeout=60)
    assert proc.returncode == 0
    assert proc.stdout.startswith(b"usage: textclean hook") and b"--min-tokens" in proc.stdout


@pytest.mark.parametrize("options", [["--min-tokens", "0", "claude-code"], ["--min-tokens=0", "claude-code"],
                                     ["claude-code", "--min-tokens=0"]])
def test_options_before_or_after_the_host(options: list[str]) -> None:
    short = "\x1b[32mok\x1b[0m\n" * 3  # cleaned only when min_tokens allows a short output
    assert not clean(short).applied and clean(short, min_tokens=0).applied
    event = _event("Bash", {"command": "x"}, {"stdout": short, "stderr": ""})
    proc = subprocess.run([sys.executable, "-m", "textclean", "hook", *options], input=event, capture_output=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["hookSpecificOutput"]["updatedToolOutput"]["stdout"] == "ok\n" * 3


@pytest.mark.parametrize("options", [["claude-code", "--min-tokens", "-1"], ["claude-code", "--bogus"], []])
def test_bad_options_are_one_line_and_exit_1(options: list[str]) -> None:
    proc = subprocess.run([sys.executable, "-m", "textclean", "hook", *options], input=b"{}", capture_output=True,
                          timeout=60)
    assert proc.returncode == 1  # 2 would block the agent
    assert proc.stdout == b"" and proc.stderr.count(b"\n") == 1


def test_clean_output_is_answered_without_importing_the_pipeline() -> None:
    event = _event("Bash", {"command": "ls"}, {"stdout": "a\nb\n" * 400, "stderr": ""})
    code = (
        "import sys; from textclean.cli import main; status = main(['hook', 'claude-code']);"
        "print(status, sorted(m for m in sys.modules if m.startswith('textclean.pipeline.')))"
    )
    proc = subprocess.run([sys.executable, "-c", code], input=event, capture_output=True, timeout=60, check=True,
                          cwd=ROOT)
    assert proc.stdout == b"0 ['textclean.pipeline.errors', 'textclean.pipeline.probe']\n"


def test_a_noisy_output_is_cleaned_without_loading_a_tokenizer_or_the_pretooluse_checks() -> None:
    """The pip capture: bounds tell it is above min_tokens and its cleaning is smaller (issue 39), so the hook
    answers without a vocabulary; the permission checks only a PreToolUse event needs stay unloaded."""
    pip = _capture("pip_download")
    event = _event("Bash", {"command": "pip download x"}, {"stdout": pip, "stderr": ""})
    code = (
        "import sys; from textclean.cli import main; status = main(['hook', 'claude-code']); sys.stdout.flush();"
        "print(status, sorted(m for m in sys.modules if m.split('.')[0] in ('tiktoken', 'bpe_openai', "
        "'concurrent') or m.startswith('textclean.integrations.claude_')), file=sys.stderr)"
    )
    proc = subprocess.run([sys.executable, "-c", code], input=event, capture_output=True, timeout=60, check=True,
                          cwd=ROOT)
    assert proc.stderr == b"0 []\n"
    result = clean(pip)
    assert result.applied
    assert json.loads(proc.stdout)["hookSpecificOutput"]["updatedToolOutput"]["stdout"] == result.text


@pytest.mark.parametrize("host", HOSTS)
def test_the_bare_host_reads_as_the_parser_reads_it(host: str) -> None:
    assert vars(_arguments([host])) == vars(_parser().parse_args([host]))


def test_the_hooks_gate_options_go_on_to_textclean_run() -> None:
    command = "printf '\\033[32mok\\033[0m\\n'"  # too short for the default min_tokens
    proc = _bypass(command, "--min-tokens", "0")
    rewritten = json.loads(proc.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    assert " run --min-tokens 0 --one-stream -- bash -c " in rewritten
    wrapped = subprocess.run(["bash", "-c", rewritten], capture_output=True, timeout=60, cwd=ROOT)
    assert (wrapped.returncode, wrapped.stdout) == (0, b"ok\n")
