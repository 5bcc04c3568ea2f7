"""Codex CLI, the real binary, headless against a scripted model: with textclean's hooks it runs exactly
what it runs without them, and the model reads cleaned output.

Each case runs ``codex exec`` twice in a fresh HOME/CODEX_HOME, with and without ``textclean hook codex``
registered for PreToolUse and PostToolUse (trusted for the run with ``--dangerously-bypass-hook-trust``).
The mock model (tests/hosts/responses_mock.py, 127.0.0.1) asks for one ``exec_command`` and records the
``function_call_output`` Codex sends back: exactly what a model reads.

The matrix: sandbox (read-only, workspace-write, danger-full-access,
``--dangerously-bypass-approvals-and-sandbox``, and ``--approve-for-me``: approval on-request) x
execpolicy rules (none; a ``forbidden``, ``prompt`` or ``allow`` prefix rule on ``touch``) x command
(noisy and succeeding, noisy and failing, both touching a marker file in the workspace; ``touch``; ``ls
-a``; ``rm -f``, which Codex's heuristic forbids; a ``touch`` asking for escalation; lines on stdout and
stderr in turn; a noisy command the model runs on a PTY, ``tty: true``).

``TEXTCLEAN_CODEX=/path/to/codex`` runs it against another Codex (the newest: tests/hosts/README.md).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from host_binaries import host_binary
from hosts.responses_mock import ResponsesMock

ROOT = Path(__file__).resolve().parent.parent
HOOK = f"{sys.executable} -m textclean hook codex"

NOISY = r"""
import sys, time
status = int(sys.argv[1])
print("\x1b[1mBuilding project\x1b[0m (12 modules)")
for step in range(0, 101, 5):
    sys.stdout.write(f"\r\x1b[36mcompiling\x1b[0m [{'=' * (step // 5):<20}] {step:3d}% module_{step // 5:02d}.c")
    sys.stdout.flush()
print()
for name in ("parser", "lexer", "codegen", "runtime", "stdlib"):
    colour = "\x1b[31mFAILED\x1b[0m" if status and name == "codegen" else "\x1b[32mok\x1b[0m"
    print(f"test {name}::suite ... {colour}")
print(f"\x1b[1mresult: {'1 failed, 4 passed' if status else '5 passed'}\x1b[0m")
sys.exit(status)
"""

SANDBOXES: dict[str, list[str]] = {
    "read-only": [],  # codex exec's default: approval never, sandbox read-only
    "workspace-write": ["-s", "workspace-write"],
    "danger-full-access": ["-s", "danger-full-access"],
    "bypass": ["--dangerously-bypass-approvals-and-sandbox"],
    "approve-for-me": ["--approve-for-me"],  # approval on-request, reviewed by a model: the hook stays out
}
#: In ``user.rules``: Codex 0.171 drops some allow rules from ``default.rules``, its own file, at start.
RULES: dict[str, str | None] = {
    "no rules": None,
    "forbidden touch": 'prefix_rule(pattern=["touch"], decision="forbidden", justification="no touching")\n',
    "prompt touch": 'prefix_rule(pattern=["touch"], decision="prompt")\n',
    "allow touch": 'prefix_rule(pattern=["touch"], decision="allow")\n',  # a whole match runs unsandboxed
}
#: name: (command, more exec_command arguments)
COMMANDS: dict[str, tuple[str, dict[str, str]]] = {
    "noisy ok": (f"touch marker; {sys.executable} noisy.py 0", {}),
    "noisy fail": (f"touch marker; {sys.executable} noisy.py 3", {}),
    "touch": ("touch marker", {}),
    "ls": ("ls -a", {}),
    "rm -f": ("rm -f gone.txt; echo removed", {}),
    "escalated touch": ("touch marker", {"sandbox_permissions": "require_escalated", "justification": "write"}),
    "both streams": ("echo out1; sleep 0.1; echo err1 >&2; sleep 0.1; echo out2", {}),
    "on a pty": (f"test -t 1 && echo stdout-is-a-terminal; {sys.executable} noisy.py 0", {"tty": True}),
}
#: Rules on ``touch`` matter to the commands that touch: forbidden and prompt ones are checked at two
#: sandboxes, allow ones (which may lift the sandbox) at three; --approve-for-me and the stream checks once.
CASES = [(sandbox, rules, command) for sandbox in SANDBOXES for rules in RULES for command in COMMANDS
         if (rules == "no rules" and (command not in ("both streams", "on a pty") or sandbox == "read-only"))
         or (command in ("noisy ok", "noisy fail", "touch")
             and ((rules == "allow touch" and sandbox in ("read-only", "workspace-write", "bypass"))
                  or (rules in ("forbidden touch", "prompt touch") and sandbox in ("read-only", "bypass"))))]
_EXITED = re.compile(r"Process exited with code (-?\d+)")


@dataclass(frozen=True)
class Outcome:
    """What one run decided and what the model read."""

    exit_code: int | None  # None: Codex did not run the command
    refusal: str | None  # what the model read instead of output
    marker: bool  # the command's write reached the workspace
    output: str  # the command's output as the model read it
    stderr: str


def codex_binary() -> Path:
    other = os.environ.get("TEXTCLEAN_CODEX")
    return Path(other) if other else host_binary("codex")


def config_toml(base_url: str, hooks: bool) -> str:
    text = (f'model = "mock-model"\nmodel_provider = "mock"\n\n[model_providers.mock]\nname = "mock"\n'
            f'base_url = "{base_url}"\nwire_api = "responses"\nenv_key = "TEXTCLEAN_MOCK_KEY"\n')
    if hooks:
        for event in ("PreToolUse", "PostToolUse"):
            text += f'\n[[hooks.{event}]]\n[[hooks.{event}.hooks]]\ntype = "command"\ncommand = {json.dumps(HOOK)}\n'
    return text


def run_codex(place: Path, command: tuple[str, dict[str, str]], args: list[str], rules: str | None, hooks: bool,
              trust: bool = True) -> Outcome:
    home, work = place / "home", place / "work"
    (home / ".codex" / "rules").mkdir(parents=True)
    work.mkdir()
    (work / "noisy.py").write_text(NOISY)
    if rules:
        (home / ".codex" / "rules" / "user.rules").write_text(rules)
    with ResponsesMock(command[0], extra_arguments=command[1]) as mock:
        (home / ".codex" / "config.toml").write_text(config_toml(mock.base_url, hooks))
        env = {**os.environ, "HOME": str(home), "CODEX_HOME": str(home / ".codex"), "PYTHONPATH": str(ROOT),
               "TEXTCLEAN_MOCK_KEY": "dummy", "SHELL": "/bin/bash"}
        trust_flag = ["--dangerously-bypass-hook-trust"] if trust else []
        proc = subprocess.run([str(codex_binary()), "exec", "--skip-git-repo-check", *trust_flag, *args, "go"],
                              cwd=work, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=120)
        outputs = mock.outputs
    assert outputs, f"codex sent nothing back (exit {proc.returncode}): {proc.stderr[-2000:]}"
    text = outputs[0]
    exited = _EXITED.search(text)
    if exited is None:
        return Outcome(None, text, (work / "marker").exists(), "", proc.stderr)
    output = text.split("\nOutput:\n", 1)[1] if "\nOutput:\n" in text else ""
    return Outcome(int(exited.group(1)), None, (work / "marker").exists(), output, proc.stderr)


@pytest.fixture(scope="module")
def matrix(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str, str], tuple[Outcome, Outcome]]:
    codex_binary()  # skips (or fails under TEXTCLEAN_REQUIRE_HOSTS) before any work
    root = tmp_path_factory.mktemp("codex")

    def one(index: int, case: tuple[str, str, str], hooks: bool) -> Outcome:
        sandbox, rules, command = case
        return run_codex(root / f"{index}-{int(hooks)}", COMMANDS[command], SANDBOXES[sandbox], RULES[rules], hooks)

    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {(case, hooks): pool.submit(one, index, case, hooks)
                   for index, case in enumerate(CASES) for hooks in (False, True)}
        results = {case: (futures[(case, False)].result(), futures[(case, True)].result()) for case in CASES}
    report = os.environ.get("TEXTCLEAN_CODEX_REPORT")
    if report:
        Path(report).write_text(json.dumps({" | ".join(case): [vars(without), vars(with_)]
                                            for case, (without, with_) in results.items()}, indent=1))
    return results


def rewrite_expected(sandbox: str, rules: str, command: str) -> bool:
    """Where the hook knows Codex runs the command as it would run the rewrite (codex_policy): approval
    never, no rule on any part, no ``rm``."""
    text = COMMANDS[command][0]
    return sandbox != "approve-for-me" and "rm " not in text and (rules == "no rules" or "touch" not in text)


@pytest.mark.parametrize(("sandbox", "rules", "command"), CASES)
def test_same_decision_and_clean_output(matrix: dict[tuple[str, str, str], tuple[Outcome, Outcome]],
                                        sandbox: str, rules: str, command: str) -> None:
    without, with_ = matrix[(sandbox, rules, command)]
    # The same decision: ran or not, with the same status, the same refusal, the same write allowed.
    assert (with_.exit_code, with_.refusal, with_.marker) == (without.exit_code, without.refusal, without.marker)
    assert "hook: PreToolUse" in with_.stderr and "hook: PreToolUse" not in without.stderr
    if command == "both streams":  # the rewrite keeps the order Codex merges stdout and stderr in
        assert with_.output == without.output == "out1\nerr1\nout2\n"
    if command == "on a pty":  # the model asked for a terminal: the command gets it, as without the hook
        assert with_.output == without.output and without.output.startswith("stdout-is-a-terminal\r\n")
    if without.exit_code is None or not command.startswith("noisy"):
        return
    assert "\x1b" in without.output and "\r" in without.output  # the command is noisy: the check can fail
    if rewrite_expected(sandbox, rules, command):
        assert "\x1b" not in with_.output and "\r" not in with_.output, with_.output
        assert "test codegen::suite ... " in with_.output and "result: " in with_.output
    else:
        # Left alone, the output reaches the model as it was: Codex 0.171 ignores PostToolUse's
        # updatedToolOutput for its shell tool (docs/hosts.md). A Codex that honours it fails here.
        assert with_.output == without.output


def test_untrusted_hooks_do_not_run(tmp_path: Path) -> None:
    """Codex 0.171 skips hooks nobody trusted, without a word: the output reaches the model as it was."""
    outcome = run_codex(tmp_path, COMMANDS["noisy ok"], [], None, hooks=True, trust=False)
    assert outcome.exit_code == 0
    assert "\x1b" in outcome.output and "\r" in outcome.output
    assert "hook: PreToolUse" not in outcome.stderr  # what codex exec prints when a hook runs


def trust_hooks(codex_home: Path, cwd: Path, env: dict[str, str]) -> list[str]:
    """Trust every hook Codex lists, the way its own ``/hooks`` screen does: ``codex app-server``'s
    ``hooks/list`` gives each hook's key and current hash; ``[hooks.state."<key>"] trusted_hash`` in
    config.toml records the trust. The keys trusted."""
    server = subprocess.Popen([str(codex_binary()), "app-server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=env, cwd=cwd, text=True)
    deadline = threading.Timer(60, server.kill)  # a server that never answers ends the read loop
    deadline.start()
    try:
        assert server.stdin is not None and server.stdout is not None
        requests = [{"method": "initialize", "id": 1, "params": {"clientInfo": {"name": "textclean-tests",
                                                                               "version": "1"}}},
                    {"method": "initialized"},
                    {"method": "hooks/list", "id": 2, "params": {"cwds": [str(cwd)]}}]
        server.stdin.write("".join(json.dumps(request) + "\n" for request in requests))
        server.stdin.flush()
        for line in server.stdout:  # one JSON message a line; the answer to id 2 ends the talk
            message = json.loads(line)
            if message.get("id") == 2:
                break
        else:
            raise AssertionError("codex app-server ended without answering hooks/list")
    finally:
        deadline.cancel()
        server.kill()
        server.wait()
    hooks = [hook for entry in message["result"]["data"] for hook in entry["hooks"]]
    state = "".join(f'\n[hooks.state.{json.dumps(hook["key"])}]\ntrusted_hash = {json.dumps(hook["currentHash"])}\n'
                    for hook in hooks)
    with open(codex_home / "config.toml", "a") as config:
        config.write(state)
    return [hook["key"] for hook in hooks if hook["trustStatus"] != "trusted"]


def test_hooks_trusted_once_run_without_the_bypass_flag(tmp_path: Path) -> None:
    """Trust recorded in config.toml (what ``/hooks`` writes) is enough: no flag needed afterwards."""
    home, work = tmp_path / "home", tmp_path / "work"
    (home / ".codex").mkdir(parents=True)
    work.mkdir()
    (work / "noisy.py").write_text(NOISY)
    env = {**os.environ, "HOME": str(home), "CODEX_HOME": str(home / ".codex"), "PYTHONPATH": str(ROOT),
           "TEXTCLEAN_MOCK_KEY": "dummy", "SHELL": "/bin/bash"}
    with ResponsesMock(COMMANDS["noisy ok"][0]) as mock:
        (home / ".codex" / "config.toml").write_text(config_toml(mock.base_url, hooks=True))
        trusted = trust_hooks(home / ".codex", work, env)
        assert sorted(key.rsplit(":", 3)[1] for key in trusted) == ["post_tool_use", "pre_tool_use"]
        proc = subprocess.run([str(codex_binary()), "exec", "--skip-git-repo-check", "-s", "workspace-write", "go"],
                              cwd=work, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=120)
        outputs = mock.outputs
    assert "hook: PreToolUse Completed" in proc.stderr
    assert outputs and "Process exited with code 0" in outputs[0]
    assert "\x1b" not in outputs[0] and "\r" not in outputs[0] and "result: 5 passed" in outputs[0]


def test_a_shell_error_reads_as_without_the_hooks(tmp_path: Path) -> None:
    """Found by fuzz/hook_decisions.py: the rewrite ran ``bash -c`` where Codex runs its shell by path,
    so every shell error read "bash: line 1: ..." instead of "/bin/bash: line 1: ..."."""
    codex_binary()
    command = ("nosuchcmd_zz x; echo done", {})
    without = run_codex(tmp_path / "without", command, [], None, False)
    with_ = run_codex(tmp_path / "with", command, [], None, True)
    assert "hook: PreToolUse" in with_.stderr
    assert "nosuchcmd_zz: command not found" in without.output
    assert (with_.exit_code, with_.output) == (without.exit_code, without.output)


#: the command the model reads while it runs (tests/hosts/polled.py), copied beside the project
POLLED = Path(__file__).parent / "hosts" / "polled.py"
#: ``exec_command`` returns what the command printed by then; polls wait until it exits.
POLLED_YIELD_MS = 10000


def run_polled(place: Path, hooks: bool) -> tuple[list[str], list[str], str]:
    """One ``codex exec`` whose model runs POLLED with ``exec_command`` and polls it with ``write_stdin``
    (empty ``chars``) until it exits: the output of each read, in order; the tool calls; Codex's stderr."""
    home, work = place / "home", place / "work"
    (home / ".codex").mkdir(parents=True)
    work.mkdir()
    (work / "polled.py").write_bytes(POLLED.read_bytes())
    with ResponsesMock(f"{sys.executable} polled.py", extra_arguments={"yield_time_ms": POLLED_YIELD_MS},
                       poll_arguments={}, on_poll=lambda: (work / "go-on").touch(), max_requests=10) as mock:
        (home / ".codex" / "config.toml").write_text(config_toml(mock.base_url, hooks))
        env = {**os.environ, "HOME": str(home), "CODEX_HOME": str(home / ".codex"), "PYTHONPATH": str(ROOT),
               "TEXTCLEAN_MOCK_KEY": "dummy", "SHELL": "/bin/bash"}
        proc = subprocess.run([str(codex_binary()), "exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust",
                               "go"], cwd=work, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=180)
        reads = mock.polls
        calls = [item["name"] for item in mock.requests[-1].get("input", [])
                 if isinstance(item, dict) and item.get("type") == "function_call"] if mock.requests else []
    return reads, calls, proc.stderr


def _read_output(read: str) -> str:
    return read.split("\nOutput:\n", 1)[1] if "\nOutput:\n" in read else ""


def test_a_polled_command_reads_cleaned_while_it_runs(tmp_path: Path) -> None:
    """Codex's unified exec: ``exec_command`` returns what the command printed within ``yield_time_ms``
    and the session's id; the model polls with ``write_stdin``. Rewritten to ``textclean run``, which
    streams through its pipe, the first read already holds the first line, cleaned, while the command
    still runs; all the reads together keep every line of the raw output; the status is the same."""
    codex_binary()
    with ThreadPoolExecutor(max_workers=2) as pool:
        bare_future = pool.submit(run_polled, tmp_path / "bare", False)
        hooked_future = pool.submit(run_polled, tmp_path / "hooked", True)
        (bare, bare_calls, _), (hooked, hooked_calls, stderr) = bare_future.result(), hooked_future.result()
    assert "hook: PreToolUse" in stderr
    for reads, calls in ((bare, bare_calls), (hooked, hooked_calls)):
        assert calls[0] == "exec_command" and set(calls[1:]) == {"write_stdin"}, calls
        assert len(reads) == len(calls) >= 2
        assert "Process running with session ID" in reads[0]  # the first read came while it ran
        assert [_EXITED.search(read) is not None for read in reads] == [False] * (len(reads) - 1) + [True]
    exited = [_EXITED.search(reads[-1]) for reads in (bare, hooked)]
    assert [match.group(1) for match in exited if match] == ["3", "3"]  # the status, as without the hook
    raw = "".join(_read_output(read) for read in bare)
    first_raw = _read_output(bare[0])
    assert "\x1b[1mfirst line\x1b[0m of the build\n" in first_raw and "\r" in first_raw  # the noise was there
    first = _read_output(hooked[0])
    assert first.startswith("first line of the build\n"), hooked[0]  # read while running, cleaned
    cleaned = "".join(_read_output(read) for read in hooked)
    assert "\x1b" not in cleaned and "\r" not in cleaned, cleaned
    assert "ok parser\nok lexer\nresult: 2 passed\n" in cleaned
    from oracle.lossless import check_lossless

    verdict = check_lossless(raw, cleaned, terminal=False)
    assert verdict.ok, (verdict.missing, raw, cleaned)
