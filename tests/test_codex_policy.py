"""The Codex PreToolUse answer: a rewrite only where Codex's own answer is "run" in the same sandbox.

Each case runs the real hook (``textclean hook codex``) as Codex runs it: a subprocess fed the event Codex
0.171 sends (tool_name ``Bash``, tool_input ``{"command"}``, ``permission_mode``), with a fresh CODEX_HOME
holding the rules files Codex would load. tests/test_host_codex.py runs the real binary.
"""

from __future__ import annotations

import json
import os
import pwd
import subprocess
import sys
from pathlib import Path

import pytest

from textclean.integrations.codex_policy import command_words, rule_strings

ROOT = Path(__file__).resolve().parent.parent


def _pre(command: str, tmp_path: Path, *, mode: str = "bypassPermissions", cwd: Path | None = None,
         rules: dict[str, str] | None = None) -> dict[str, object] | None:
    home = tmp_path / "codex-home"
    (home / "rules").mkdir(parents=True, exist_ok=True)
    for name, text in (rules or {}).items():
        (home / "rules" / name).write_text(text)
    work = cwd or tmp_path / "work"
    work.mkdir(parents=True, exist_ok=True)
    event = {"session_id": "s", "turn_id": "t", "transcript_path": None, "cwd": str(work),
             "hook_event_name": "PreToolUse", "model": "m", "permission_mode": mode, "tool_name": "Bash",
             "tool_input": {"command": command}, "tool_use_id": "call_1"}
    env = {**os.environ, "CODEX_HOME": str(home), "PYTHONPATH": str(ROOT), "SHELL": "/bin/bash"}
    proc = subprocess.run([sys.executable, "-m", "textclean", "hook", "codex"], input=json.dumps(event).encode(),
                          capture_output=True, timeout=60, env=env)
    assert (proc.returncode, proc.stderr) == (0, b"")
    return json.loads(proc.stdout) if proc.stdout else None


def test_never_without_rules_rewrites_with_allow(tmp_path: Path) -> None:
    answer = _pre("make test", tmp_path)
    assert answer is not None
    output = answer["hookSpecificOutput"]
    assert isinstance(output, dict)
    assert output["permissionDecision"] == "allow"  # Codex applies updatedInput only beside allow
    shell = pwd.getpwuid(os.getuid()).pw_shell  # Codex's own shell, by its path (seen: "/bin/bash: line 1")
    assert output["updatedInput"]["command"].endswith(f" run --one-stream --tty-passthrough -- {shell} -c 'make test'")


@pytest.mark.parametrize("mode", ["default", "acceptEdits", "plan", "", "dontAsk"])
def test_any_policy_that_may_ask_is_left_alone(tmp_path: Path, mode: str) -> None:
    assert _pre("make test", tmp_path, mode=mode) is None


@pytest.mark.parametrize("command", [
    "touch x", "ls && touch x", "echo $(touch x)", "to'u'ch x", "/usr/bin/touch x", "FOO=1 touch x",
])
def test_a_rule_on_any_part_of_the_command_leaves_it_alone(tmp_path: Path, command: str) -> None:
    rules = {"default.rules": 'prefix_rule(pattern=["touch"], decision="forbidden", justification="no")\n'}
    assert _pre(command, tmp_path, rules=rules) is None
    assert _pre("ls -a", tmp_path, rules=rules) is not None  # a rule elsewhere leaves other commands free


@pytest.mark.parametrize("program", ["bash", "sh", "textclean", Path(sys.executable).name])
def test_a_rule_on_a_word_of_the_rewrite_leaves_every_command_alone(tmp_path: Path, program: str) -> None:
    rules = {"a.rules": f'prefix_rule(pattern=["{program}"], decision="prompt")\n'}
    assert _pre("make test", tmp_path, rules=rules) is None


def test_project_rules_above_the_working_directory_count(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".codex" / "rules").mkdir(parents=True)
    (project / ".codex" / "rules" / "p.rules").write_text('prefix_rule(pattern=["make"], decision="prompt")\n')
    assert _pre("make test", tmp_path, cwd=project / "src" / "deep") is None
    assert _pre("ls", tmp_path, cwd=project / "src" / "deep") is not None


@pytest.mark.parametrize("text", [
    'prefix_rule(pattern=["tou" + "ch"], decision="forbidden")\n',
    'load("x.star", "r")\nr()\n',
    'prefix_rule(pattern=["\\x74ouch"], decision="forbidden")\n',
])
def test_a_rules_file_it_cannot_read_stops_every_rewrite(tmp_path: Path, text: str) -> None:
    assert _pre("ls", tmp_path, rules={"odd.rules": text}) is None
    assert rule_strings(text) is None


@pytest.mark.parametrize("command", ["rm -f build/x", "rm -rf build", "sudo rm -r x", "rm x", "git reset --hard"])
def test_commands_codex_may_call_dangerous_are_left_alone(tmp_path: Path, command: str) -> None:
    assert _pre(command, tmp_path) is None


def test_words_are_a_superset_of_what_the_shell_runs() -> None:
    assert {"touch", "x", "ls"} <= command_words("ls; t'o'uch \"x\" | $(ls)")
    assert "git" in command_words("/usr/local/bin/git status")
