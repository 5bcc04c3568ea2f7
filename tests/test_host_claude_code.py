"""The real Claude Code, headless against a scripted model (tests/hosts/anthropic_mock.py), with and
without textclean's hooks: the host runs a command with the hooks exactly when it runs it without them,
and what the model reads of a run is clean wherever the hooks can clean it.

Each case is one ``claude -p`` run per side, in a fresh HOME and project directory, with its permission
mode, its settings rules (user, project, local) and its command-line tool lists. The model asks for one
Bash command; the mock records the ``tool_result`` it gets back. A command that runs leaves a marker
file (``touch``) or prints ``RANOK`` (a read-only command). The cases run a few at a time, all in one
module fixture; ``TEXTCLEAN_CLAUDE`` runs them against another ``claude`` binary (tests/hosts/README.md).

A few more cases run a command in the background (``run_in_background``) and read its output file while
it runs and after it ended (``test_a_background_command_reads_cleaned_while_it_runs``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.host_binaries import host_binary
from tests.hosts.anthropic_mock import MockAnthropic, ToolResult, background_prompt, call_prompt, prompt

ROOT = Path(__file__).resolve().parent.parent
_WORKERS = 3
_NOISY_LINES = "".join(f"\\033[32mok\\033[0m step {n} 10%%\\r100%%\\n" for n in range(12))
#: A noisy command that succeeds, one that fails, and a read-only one the host approves by itself.
SUCCEEDS = f"touch ran_marker && printf 'RAN%s\\n' OK && printf '{_NOISY_LINES}'"
FAILS = f"touch ran_marker && printf 'RAN%s\\n' OK && printf '{_NOISY_LINES}' && ls missing_file"
READ_ONLY = "ls -a"
OPERATORS = f"touch ran_marker\nprintf 'RAN%s\\n' OK; printf '{_NOISY_LINES}' | cat || printf x && ls missing_file"
ALLOW_ALL_PARTS = ["Bash(touch:*)", "Bash(printf:*)", "Bash(ls:*)"]
BYPASS = ["--permission-mode", "bypassPermissions"]


@dataclass(frozen=True)
class Case:
    """One host configuration and command; ``rewrites``: the hook knows the host runs it."""

    name: str
    command: str
    args: tuple[str, ...] = ()
    user: dict[str, list[str]] = field(default_factory=dict)
    project: dict[str, list[str]] = field(default_factory=dict)
    local: dict[str, list[str]] = field(default_factory=dict)
    trusted: bool = False
    rewrites: bool = False
    mcp_fails: bool | None = None  # an MCP tool call (tests/hosts/mcp_noisy.py) instead of Bash
    link: bool = False  # the project holds `link`, a symlink to /etc/hostname
    bashrc: str = ""  # the user's ~/.bashrc (the host runs commands with its aliases and functions)


def _matrix() -> list[Case]:
    ok, fail, ls = SUCCEEDS, FAILS, READ_ONLY
    allow = {"allow": ALLOW_ALL_PARTS}

    def mode(name: str) -> tuple[str, ...]:
        return ("--permission-mode", name)

    return [
        # no rules: the host's own answer in each mode; the hook rewrites under bypass only
        Case("default-norules-ok", ok, mode("default")),
        Case("default-norules-fail", fail, mode("default")),
        Case("default-norules-ls", ls, mode("default")),
        Case("acceptEdits-norules-ok", ok, mode("acceptEdits")),
        Case("bypass-norules-ok", ok, BYPASS, rewrites=True),
        Case("bypass-norules-fail", fail, BYPASS, rewrites=True),
        Case("bypass-norules-ls", ls, BYPASS, rewrites=True),
        Case("dontAsk-norules-ok", ok, mode("dontAsk")),
        Case("dontAsk-norules-ls", ls, mode("dontAsk")),
        Case("plan-norules-ok", ok, mode("plan")),
        # allow rules for every part, from settings and from the command line
        Case("default-allow-ok", ok, user=allow, rewrites=True),
        Case("default-allow-fail", fail, user=allow, rewrites=True),
        Case("acceptEdits-allow-fail", fail, mode("acceptEdits"), user=allow, rewrites=True),
        Case("dontAsk-allow-fail", fail, mode("dontAsk"), user=allow, rewrites=True),
        Case("plan-allow-ok", ok, mode("plan"), user=allow),
        Case("default-cliallow-fail", fail, ("--allowedTools", *ALLOW_ALL_PARTS), rewrites=True),
        Case("dontAsk-cliallow-ok", ok, (*mode("dontAsk"), "--allowedTools", ",".join(ALLOW_ALL_PARTS)),
             rewrites=True),
        Case("default-allowbare-fail", fail, user={"allow": ["Bash"]}, rewrites=True),
        Case("default-allowsome-ok", ok, user={"allow": ["Bash(touch:*)"]}),
        # the project's allow rules count in a trusted workspace only
        Case("default-projectallow-untrusted-ok", ok, project={"allow": ["Bash(touch *)", "Bash(printf *)"]}),
        Case("default-localallow-trusted-fail", fail, local={"allow": ["Bash(touch *)", "Bash(printf *)",
                                                                       "Bash(ls *)"]},
             trusted=True, rewrites=True),
        # every operator the splitter knows: `;`, a newline, `|`, `||`, `&&`
        Case("default-allow-operators-fail", OPERATORS, user={"allow": [*ALLOW_ALL_PARTS, "Bash(cat:*)"]},
             rewrites=True),
        Case("bypass-denypipe-fail", OPERATORS, BYPASS, project={"deny": ["Bash(cat:*)"]}),
        # a deny or an ask rule on the second part, or on the rewrite only, from each source
        Case("bypass-deny2-ok", ok, BYPASS, project={"deny": ["Bash(printf:*)"]}),
        Case("bypass-ask2-ok", ok, BYPASS, local={"ask": ["Bash(printf:*)"]}),
        Case("bypass-clideny2-ok", ok, (*BYPASS, "--disallowedTools", "Bash(printf:*)")),
        Case("bypass-denyrewrite-ok", ok, BYPASS, user={"deny": ["Bash(*textclean*)"]}),
        Case("bypass-clisettings-deny2-ok", ok,
             (*BYPASS, "--settings", json.dumps({"permissions": {"deny": ["Bash(printf:*)"]}}))),
        Case("default-allow-deny2-ok", ok, user={**allow, "deny": ["Bash(printf:*)"]}),
        Case("default-allow-ask3-fail", fail, user=allow, local={"ask": ["Bash(ls:*)"]}),
        Case("default-allow-denyrewrite-ok", ok, user=allow, project={"deny": ["Bash(*textclean*)"]}),
        # shapes the host checks beyond its rules: left to the host
        Case("bypass-dangerous-rm", "touch ran_marker && rm -rf /nonexistent_zz", BYPASS),
        Case("default-allow-outside", "touch ran_marker && touch /tmp/textclean_outside_zz", user=allow),
        Case("default-allow-substitution", "touch ran_marker $(printf x)", user=allow),
        # an MCP tool's text result, successful and an error result (PostToolUseFailure)
        Case("mcp-ok", "", ("--allowedTools", "mcp__noisy__emit"), mcp_fails=False),
        Case("mcp-fail", "", ("--allowedTools", "mcp__noisy__emit"), mcp_fails=True),
        Case("default-allow-symlink", "touch ran_marker && cat link", user={"allow": [*ALLOW_ALL_PARTS, "Bash(cat:*)"]},
             link=True),
        Case("default-allow-redirect", "touch ran_marker && printf 'RAN%s\\n' OK > out.txt", user=allow),
        # quoted spellings the host still matches its deny and ask rules on, and a unicode space it asks about
        Case("bypass-quotedname-deny", "'printf' 'RAN%s\\n' OK", BYPASS, user={"deny": ["Bash(printf:*)"]}),
        Case("bypass-midquote-ask", "pr'intf' 'RAN%s\\n' OK", BYPASS, local={"ask": ["Bash(printf:*)"]}),
        Case("bypass-quotedarg-denywildcard", "printf 'RAN%s\\n' OK", BYPASS, user={"deny": ["Bash(printf RAN*)"]}),
        Case("default-allow-unicodespace", "printf 'RAN%s\\n' OK 'a\u00a0b'", user={"allow": ["Bash(printf:*)"]}),
    ]


CASES = _matrix()
#: ``TEXTCLEAN_CLAUDE_CASES=name,name``: run those cases only (to look at one closely).
_CHOSEN = {name for name in os.environ.get("TEXTCLEAN_CLAUDE_CASES", "").split(",") if name}
if _CHOSEN:
    CASES = [case for case in CASES if case.name in _CHOSEN]


@dataclass
class Run:
    """One side of a case: whether the command ran, and what the model read."""

    ran: bool
    results: list[ToolResult]
    stdout: str


def _claude() -> Path:
    other = os.environ.get("TEXTCLEAN_CLAUDE")
    return Path(other) if other else host_binary("claude")


def _hooks() -> dict[str, Any]:
    hook = {"type": "command", "command": f"{sys.executable} -m textclean hook claude-code"}
    return {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}],
            "PostToolUse": [{"matcher": "Bash|mcp__.*", "hooks": [hook]}]}


def _write(path: Path, rules: dict[str, list[str]], hooks: dict[str, Any] | None = None) -> None:
    settings: dict[str, Any] = {"permissions": rules} if rules else {}
    if hooks:
        settings["hooks"] = hooks
    if settings:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings))


def _run(claude: Path, mock: MockAnthropic, case: Case, hooked: bool, base: Path) -> Run:
    side = "hooked" if hooked else "bare"
    home, project = base / side / "home", base / side / "project"
    home.mkdir(parents=True)
    project.mkdir(parents=True)
    (project / "RANOK").write_text("")  # `ls -a` prints RANOK when it runs
    if case.link:
        (project / "link").symlink_to("/etc/hostname")
    if case.bashrc:
        (home / ".bashrc").write_text(case.bashrc)
    _write(home / ".claude" / "settings.json", case.user, _hooks() if hooked else None)
    _write(project / ".claude" / "settings.json", case.project)
    _write(project / ".claude" / "settings.local.json", case.local)
    if case.trusted:
        (home / ".claude.json").write_text(json.dumps({"projects": {str(project): {"hasTrustDialogAccepted": True}}}))
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "ANTHROPIC_BASE_URL": mock.url,
           "ANTHROPIC_API_KEY": "sk-ant-dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
           "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"}
    if os.geteuid() == 0:
        env["IS_SANDBOX"] = "1"  # bypass mode refuses root otherwise
    key = f"{case.name}.{side}"
    args = ["-p", prompt(key, case.command), *case.args]
    if case.mcp_fails is not None:
        server = {"command": sys.executable, "args": [str(ROOT / "tests" / "hosts" / "mcp_noisy.py")]}
        args = ["-p", call_prompt(key, "mcp__noisy__emit", {"fail": case.mcp_fails}), *case.args,
                "--mcp-config", json.dumps({"mcpServers": {"noisy": server}})]
        env["ENABLE_TOOL_SEARCH"] = "false"  # the MCP tool offered to the model, not deferred
    done = subprocess.run([str(claude), *args, "--output-format", "json"], cwd=project, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120, check=False)
    results = mock.results(key)
    ran = (project / "ran_marker").exists() or any(
        ("RANOK" in result.text and "RAN%s" not in result.text) or "MCPRAN" in result.text for result in results)
    return Run(ran, results, done.stdout + done.stderr)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Run, Run]]:
    claude = _claude()
    mock = MockAnthropic(max_requests=20 * len(CASES), lifetime=600).start()
    base = tmp_path_factory.mktemp("claude")
    try:
        with ThreadPoolExecutor(_WORKERS) as pool:
            futures = {case.name: (pool.submit(_run, claude, mock, case, True, base / case.name),
                                   pool.submit(_run, claude, mock, case, False, base / case.name))
                       for case in CASES}
            runs = {name: (hooked.result(), bare.result()) for name, (hooked, bare) in futures.items()}
    finally:
        mock.stop()
    summary = os.environ.get("TEXTCLEAN_CLAUDE_SUMMARY")
    if summary:  # one line per case: what the host did, and what the model read with the hooks
        with open(summary, "w", encoding="utf-8") as out:
            for name, (hooked, bare) in runs.items():
                got = hooked.results[0] if hooked.results else None
                out.write(json.dumps({"case": name, "ran": bare.ran, "ran_hooked": hooked.ran,
                                      "is_error": got.is_error if got else None,
                                      "clean": _clean(got.text) if got else None,
                                      "text": got.text[:160] if got else None}) + "\n")
    return runs


def _clean(text: str) -> bool:
    return "\x1b" not in text and "\r" not in text


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_the_host_decides_the_same_and_the_model_reads_clean_output(
        case: Case, runs: dict[str, tuple[Run, Run]]) -> None:
    hooked, bare = runs[case.name]
    assert len(bare.results) == 1, bare.stdout
    assert len(hooked.results) == 1, hooked.stdout
    got, want = hooked.results[0], bare.results[0]
    assert hooked.ran == bare.ran, (got, want)
    assert got.is_error == want.is_error, (got, want)
    if not bare.ran:
        assert got.text.replace("/hooked/", "/bare/") == want.text  # the same refusal, word for word
        return
    if not want.is_error:
        assert _clean(got.text), got  # PostToolUse or the rewrite
    elif case.rewrites:
        assert _clean(got.text), got  # failures: only the rewrite cleans them
    else:
        assert got.text.replace("/hooked/", "/bare/") == want.text  # not rewritten: as it came
    if case.command != READ_ONLY:
        assert not _clean(want.text)  # the noise was there to clean


@pytest.mark.skipif(bool(_CHOSEN), reason="TEXTCLEAN_CLAUDE_CASES chose a part of the matrix")
def test_the_matrix_covers_runs_refusals_and_failures(runs: dict[str, tuple[Run, Run]]) -> None:
    ran = [name for name, (_, bare) in runs.items() if bare.ran]
    refused = [name for name, (_, bare) in runs.items() if not bare.ran]
    failed_and_rewritten = [case.name for case in CASES
                            if case.rewrites and runs[case.name][1].ran and runs[case.name][1].results[0].is_error]
    assert len(ran) >= 15 and len(refused) >= 10 and len(failed_and_rewritten) >= 5, (ran, refused)



#: the command the model reads while it runs (tests/hosts/polled.py), copied beside the project
POLLED = Path(__file__).parent / "hosts" / "polled.py"
BACKGROUND = "touch ran_marker && python3 polled.py"
BACKGROUND_CASES = [
    Case("background-bypass", BACKGROUND, BYPASS, rewrites=True),
    Case("background-default-allow", BACKGROUND, user={"allow": ["Bash(touch:*)", "Bash(python3:*)"]},
         rewrites=True),
    Case("background-bypass-deny2", BACKGROUND, BYPASS, project={"deny": ["Bash(python3:*)"]}),
    Case("background-bypass-ask2", BACKGROUND, BYPASS, local={"ask": ["Bash(python3:*)"]}),
    Case("background-default-norules", BACKGROUND, ("--permission-mode", "default")),
]
_READ_LINE_NUMBER = re.compile(r"^ *\d+\t", re.MULTILINE)
_NOTICE = re.compile(r"<status>(.*?)</status>.*?<summary>(.*?)</summary>", re.DOTALL)


def _run_background(claude: Path, mock: MockAnthropic, case: Case, hooked: bool,
                    base: Path) -> tuple[bool, list[ToolResult]]:
    side = "hooked" if hooked else "bare"
    home, project = base / side / "home", base / side / "project"
    home.mkdir(parents=True)
    project.mkdir(parents=True)
    (project / "polled.py").write_bytes(POLLED.read_bytes())
    _write(home / ".claude" / "settings.json", case.user, _hooks() if hooked else None)
    _write(project / ".claude" / "settings.json", case.project)
    _write(project / ".claude" / "settings.local.json", case.local)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "ANTHROPIC_BASE_URL": mock.url,
           "ANTHROPIC_API_KEY": "sk-ant-dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
           "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"}
    if os.geteuid() == 0:
        env["IS_SANDBOX"] = "1"
    key = f"{case.name}.{side}"
    subprocess.run([str(claude), "-p", background_prompt(key, case.command, str(project / "go-on")), *case.args,
                    "--output-format", "json"], cwd=project, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                   text=True, timeout=180, check=False)
    return (project / "ran_marker").exists(), mock.background(key)


@pytest.fixture(scope="module")
def background_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[tuple[bool, list[ToolResult]], ...]]:
    claude = _claude()
    mock = MockAnthropic(max_requests=200, lifetime=600).start()
    base = tmp_path_factory.mktemp("claude-background")
    try:
        with ThreadPoolExecutor(_WORKERS) as pool:
            futures = {case.name: (pool.submit(_run_background, claude, mock, case, True, base / case.name),
                                   pool.submit(_run_background, claude, mock, case, False, base / case.name))
                       for case in BACKGROUND_CASES}
            return {name: (hooked.result(), bare.result()) for name, (hooked, bare) in futures.items()}
    finally:
        mock.stop()


def _polled_raw(tmp_path: Path) -> bytes:
    """What POLLED writes, byte for byte (the gate open from the start)."""
    (tmp_path / "polled.py").write_bytes(POLLED.read_bytes())
    (tmp_path / "go-on").touch()
    return subprocess.run([sys.executable, "polled.py"], cwd=tmp_path, capture_output=True, check=False).stdout


@pytest.mark.parametrize("case", BACKGROUND_CASES, ids=lambda case: case.name)
def test_a_background_command_reads_cleaned_while_it_runs(
        case: Case, background_runs: dict[str, tuple[tuple[bool, list[ToolResult]], ...]], tmp_path: Path) -> None:
    """Claude Code 2.1.332 runs ``run_in_background`` commands with their output going to a file, which the
    model reads with ``Read`` (the result says so); the end comes as a task notification. Rewritten to
    ``textclean run``, which streams, a read while the command runs already holds its first line, cleaned;
    the last read keeps every line of the raw output; the host decides, and reports the status, the same."""
    (ran_hooked, hooked), (ran, bare) = background_runs[case.name]
    assert ran_hooked == ran
    if not ran:  # refused by the host, word for word the same way
        assert len(hooked) == len(bare) == 1, (hooked, bare)
        assert hooked[0].text.replace("/hooked/", "/bare/") == bare[0].text and bare[0].is_error
        return
    assert len(bare) == len(hooked) == 4, (bare, hooked)  # the start, a read while it runs, a read after, the end
    (bare_notice, hooked_notice) = (_NOTICE.search(side[3].text) for side in (bare, hooked))
    assert bare_notice and hooked_notice and bare_notice.groups() == hooked_notice.groups()
    assert "exit code 3" in bare_notice.group(2)
    running, final = (_READ_LINE_NUMBER.sub("", hooked[n].text) for n in (1, 2))
    raw_final = _READ_LINE_NUMBER.sub("", bare[2].text)
    # the host's file: the command's output, then its own line "[exited with code N]"
    trailer = "\n[exited with code 3]\n"
    assert raw_final == _polled_raw(tmp_path).decode() + trailer  # the bare read is the whole raw output
    assert "\x1b[1mfirst line" in bare[1].text  # the noise was there to clean, in the read while it ran
    if not case.rewrites:
        assert hooked[2].text == bare[2].text
        return
    assert running.startswith("first line of the build\n") and "\x1b" not in running and "\r" not in running, running
    assert "\x1b" not in final and "\r" not in final and final.endswith("result: 2 passed\n" + trailer), final
    from oracle.lossless import check_lossless

    verdict = check_lossless(raw_final, final, terminal=False)
    assert verdict.ok, (verdict.missing, raw_final, final)
