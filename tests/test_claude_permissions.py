"""Claude Code's permission rules and commands as textclean's PreToolUse hook reads them
(claude_commands, claude_rules, claude_permissions). The matches asserted here
were seen in the real Claude Code 2.1.332 (tests/test_host_claude_code.py runs them end to end)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from textclean.integrations.claude_commands import part_texts, shell_defined_names, split_command
from textclean.integrations.claude_permissions import Verdict, host_verdict
from textclean.integrations.claude_rules import (
    Match,
    RuleKind,
    Rules,
    host_argv,
    load_rules,
    match_rule,
    parse_command_line,
    parse_rule,
)

REWRITTEN = "/usr/bin/python3 -m textclean run -- bash -c 'x'"
NOISY = "touch ran_marker && printf 'RAN%s\\n' OK && printf '\\033[32mok\\033[0m 10%%\\r100%%\\n'"


@pytest.mark.parametrize(("command", "parts"), [
    ("printf 'orig\\n'", ["printf 'orig\\n'"]),
    (NOISY, ["touch ran_marker", "printf 'RAN%s\\n' OK", "printf '\\033[32mok\\033[0m 10%%\\r100%%\\n'"]),
    ("ls -a; git status || echo \"no git\" | tail -5", ["ls -a", "git status", "echo \"no git\"", "tail -5"]),
    ("pytest -x 2>&1 | tail -50\nls", ["pytest -x 2>&1", "tail -50", "ls"]),
    ("echo 'a && b; c'", ["echo 'a && b; c'"]),
])
def test_plain_commands_split_into_their_parts(command: str, parts: list[str]) -> None:
    assert part_texts(command) == parts


@pytest.mark.parametrize("command", [
    "echo hi > m1",                      # the host asks before a redirection writes (seen)
    "ls /etc",                           # a path outside the working directories (seen)
    "touch /tmp/x",                      # the same for writes (seen)
    "cd sub && touch m",                 # cd in a compound command (seen)
    "(touch m)",                         # a subshell (seen)
    "touch $(echo m)", "touch `echo m`",  # nested commands (seen)
    "FOO=1 touch m",                     # an assignment (seen: asked)
    "rm -rf x",                          # rm targets are checked even in bypass mode (seen)
    "cat <<EOF\nx\nEOF", "sleep 1 &", "ls *.py", "ls ~", "cat .env", "echo \"$HOME\"", "echo a\\ b",
    "for i in a b; do ls; done", "if true; then ls; fi", "bash -c 'ls'", "xargs ls",
    "ls &&", "&& ls", "ls;", "a ||| b", "echo 'unclosed", "ls |& cat", "echo '\x1b'",
])
def test_anything_else_does_not_split(command: str) -> None:
    assert split_command(command) is None


@pytest.mark.parametrize(("rule", "command", "expected"), [
    ("Bash", "anything at all", Match.YES),                       # seen: bare Bash allows every part
    ("Bash(*)", "git status", Match.YES),                         # seen
    ("Bash(printf:*)", "printf 'orig\\n'", Match.YES),            # seen: deny stops it
    ("Bash(printf:*)", "printf", Match.YES),
    ("Bash(printf:*)", "touch m", Match.NO),
    ("Bash(printf:*)", "printfx", Match.MAYBE),
    ("Bash(git status:*)", "git  status", Match.MAYBE),
    ("Bash(touch *)", "touch m4", Match.YES),                     # seen: allowed
    ("Bash(touch *)", "touch", Match.MAYBE),
    ("Bash(*textclean*)", REWRITTEN, Match.YES),                  # seen: denies the rewrite only
    ("Bash(npm test)", "npm test", Match.YES),
    ("Bash(npm test)", "npm test -x", Match.NO),
    ("Bash(npm test)", "npm  test", Match.MAYBE),
    ("Read(./x)", "cat x", Match.NO),
    ("bash(ls)", "ls", Match.MAYBE),
    ("Bash(ls \\*)", "ls x", Match.MAYBE),
    ("Bash(oops", "ls", Match.MAYBE),
])
def test_rules_match_as_the_host_matches(rule: str, command: str, expected: Match) -> None:
    assert match_rule(parse_rule(rule), command) is expected


def test_rule_kinds() -> None:
    assert [parse_rule(r).kind for r in ("Bash", "Bash()", "Bash(a:*)", "Bash(a *)", "Bash(a)", "WebFetch",
                                         "mcp__x__y", "Bash(a(b))")] == [
        RuleKind.ALL, RuleKind.ALL, RuleKind.PREFIX, RuleKind.WILDCARD, RuleKind.EXACT, RuleKind.OTHER_TOOL,
        RuleKind.OTHER_TOOL, RuleKind.UNKNOWN]


def _rules(allow: tuple[str, ...] = (), deny: tuple[str, ...] = (), ask: tuple[str, ...] = ()) -> Rules:
    rules = Rules()
    rules.add({"allow": list(allow), "deny": list(deny), "ask": list(ask)}, source="test")
    return rules


ALL_PARTS = ("Bash(touch:*)", "Bash(printf:*)")


@pytest.mark.parametrize(("mode", "rules", "verdict"), [
    ("bypassPermissions", _rules(), Verdict.BYPASS),
    ("bypassPermissions", _rules(deny=("Bash(printf:*)",)), Verdict.UNKNOWN),  # deny on the second part
    ("bypassPermissions", _rules(ask=("Bash(printf:*)",)), Verdict.UNKNOWN),
    ("bypassPermissions", _rules(deny=("Bash(*textclean*)",)), Verdict.UNKNOWN),  # on the rewrite only
    ("bypassPermissions", _rules(deny=("Bash(touch ran_marker && printf*)",)), Verdict.UNKNOWN),  # the whole
    ("bypassPermissions", _rules(deny=("Bash(what\\ever)",)), Verdict.UNKNOWN),  # a rule not understood
    ("bypassPermissions", _rules(deny=("Read(./secret)", "WebFetch")), Verdict.BYPASS),
    ("default", _rules(), Verdict.UNKNOWN),
    ("default", _rules(allow=ALL_PARTS), Verdict.ALLOWED),
    ("acceptEdits", _rules(allow=ALL_PARTS), Verdict.ALLOWED),
    ("dontAsk", _rules(allow=("Bash",)), Verdict.ALLOWED),
    ("plan", _rules(allow=ALL_PARTS), Verdict.UNKNOWN),
    ("auto", _rules(allow=ALL_PARTS), Verdict.UNKNOWN),
    ("default", _rules(allow=("Bash(touch:*)",)), Verdict.UNKNOWN),  # the second part is not allowed
    ("default", _rules(allow=("Bash(touch *)", "Bash(printf)")), Verdict.UNKNOWN),
    ("default", _rules(allow=ALL_PARTS, deny=("Bash(printf:*)",)), Verdict.UNKNOWN),
    ("default", _rules(allow=ALL_PARTS, ask=("Bash(printf 'RAN*)",)), Verdict.UNKNOWN),
])
def test_the_verdict(mode: str, rules: Rules, verdict: Verdict) -> None:
    assert host_verdict(NOISY, REWRITTEN, mode, rules) is verdict


def test_a_deny_rule_on_a_part_with_its_fd_dup_left_out() -> None:
    rules = _rules(allow=("Bash(pytest:*)",), deny=("Bash(pytest)",))
    assert host_verdict("pytest 2>&1", REWRITTEN, "default", rules) is Verdict.UNKNOWN


def test_an_allow_rule_matches_a_part_with_its_fd_dup_left_out() -> None:
    rules = _rules(allow=("Bash(touch ran1)", "Bash(printf:*)"))  # seen: the host runs it
    assert host_verdict("touch ran1 2>&1 && printf x", REWRITTEN, "default", rules) is Verdict.ALLOWED
    assert host_verdict("touch ran2 2>&1 && printf x", REWRITTEN, "default", rules) is Verdict.UNKNOWN


def test_a_word_naming_a_symlink_or_an_outside_path_is_unknown(tmp_path: Path) -> None:
    """Seen: under `Bash(cat:*)`, `cat link` (a symlink to /etc/hostname) is blocked by the host."""
    (tmp_path / "file").write_text("x")
    (tmp_path / "link").symlink_to("/etc/hostname")
    (tmp_path / "inner").symlink_to(tmp_path / "file")
    rules = _rules(allow=("Bash(cat:*)",))
    cwd = str(tmp_path)
    assert host_verdict("cat file missing -n", REWRITTEN, "default", rules, cwd) is Verdict.ALLOWED
    assert host_verdict("cat file && cat link", REWRITTEN, "default", rules, cwd) is Verdict.UNKNOWN
    assert host_verdict("cat --file=link", REWRITTEN, "default", rules, cwd) is Verdict.UNKNOWN
    assert host_verdict("cat inner", REWRITTEN, "bypassPermissions", rules, cwd) is Verdict.UNKNOWN
    assert host_verdict("cat file", REWRITTEN, "default", rules, "") is Verdict.UNKNOWN
    assert host_verdict("cat file", REWRITTEN, "default", rules, "relative") is Verdict.UNKNOWN


def test_unreadable_sources_and_unsplittable_commands_are_unknown() -> None:
    rules = _rules()
    rules.fail("test")
    assert host_verdict("ls", REWRITTEN, "bypassPermissions", rules) is Verdict.UNKNOWN
    assert host_verdict("ls > f", REWRITTEN, "bypassPermissions", _rules()) is Verdict.UNKNOWN


def test_command_line_options() -> None:
    line = parse_command_line(["claude", "-p", "hi", "--allowedTools", "Bash(git log:*) Read", "Edit",
                               "--disallowed-tools=Bash(rm:*),WebFetch", "--settings", "/x.json",
                               "--setting-sources", "user,local", "--output-format", "json"])
    assert line.allowed == ["Bash(git log:*)", "Read", "Edit"]
    assert line.disallowed == ["Bash(rm:*)", "WebFetch"]
    assert line.settings == ["/x.json"]
    assert line.setting_sources == ["user", "local"]


def _settings(path: Path, **permissions: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"permissions": permissions}))


def test_every_source_is_read(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    _settings(home / ".claude" / "settings.json", allow=["Bash(a:*)"], deny=["Bash(d1:*)"])
    _settings(project / ".claude" / "settings.json", allow=["Bash(b:*)"], deny=["Bash(d2:*)"])
    _settings(project / ".claude" / "settings.local.json", ask=["Bash(d3:*)"], allow=["Bash(c:*)"])
    settings = tmp_path / "cli.json"
    _settings(settings, deny=["Bash(d4:*)"])
    argv = ["claude", "--settings", str(settings), "--disallowedTools", "Bash(d5:*)", "--allowedTools", "Bash(e)"]
    rules = load_rules(str(project), {"HOME": str(home)}, argv)
    assert rules.complete
    assert [r.text for r in rules.deny] == ["Bash(d4:*)", "Bash(d1:*)", "Bash(d2:*)", "Bash(d5:*)"]
    assert [r.text for r in rules.ask] == ["Bash(d3:*)"]
    # the project's allow rules count only in a trusted workspace, as in the host (seen)
    assert [r.text for r in rules.allow] == ["Bash(a:*)", "Bash(e)"]
    (home / ".claude.json").write_text(json.dumps({"projects": {str(project): {"hasTrustDialogAccepted": True}}}))
    rules = load_rules(str(project), {"HOME": str(home)}, argv)
    assert [r.text for r in rules.allow] == ["Bash(a:*)", "Bash(b:*)", "Bash(c:*)", "Bash(e)"]
    rules = load_rules(str(project), {"HOME": str(home)}, [*argv, "--setting-sources", "user"])
    assert [r.text for r in rules.allow] == ["Bash(a:*)", "Bash(e)"]
    assert len(rules.deny) == 4


def test_claude_config_dir_replaces_the_user_directory_for_allow_rules(tmp_path: Path) -> None:
    home, config = tmp_path / "home", tmp_path / "config"
    _settings(home / ".claude" / "settings.json", allow=["Bash(a:*)"], deny=["Bash(d1:*)"])
    _settings(config / "settings.json", allow=["Bash(b:*)"], deny=["Bash(d2:*)"])
    rules = load_rules("", {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(config)}, ["claude"])
    assert [r.text for r in rules.allow] == ["Bash(b:*)"]
    assert {r.text for r in rules.deny} == {"Bash(d1:*)", "Bash(d2:*)"}


@pytest.mark.parametrize("content", [b"{not json", b"[]", b'{"permissions": {"deny": "Bash"}}',
                                     b'{"permissions": []}'])
def test_a_settings_file_that_cannot_be_read_leaves_nothing_known(tmp_path: Path, content: bytes) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_bytes(content)
    rules = load_rules("", {"HOME": str(tmp_path)}, ["claude"])
    assert not rules.complete and rules.why
    assert host_verdict("ls", REWRITTEN, "bypassPermissions", rules) is Verdict.UNKNOWN


def test_a_settings_option_is_read_from_the_hosts_directory(tmp_path: Path) -> None:
    _settings(tmp_path / "cli.json", deny=["Bash(d:*)"])
    rules = load_rules("/nowhere", {"HOME": str(tmp_path)}, ["claude", "--settings", "cli.json"], str(tmp_path))
    assert rules.complete and [r.text for r in rules.deny] == ["Bash(d:*)"]
    missing = load_rules("", {"HOME": str(tmp_path)}, ["claude", "--settings", "gone.json"], str(tmp_path))
    assert not missing.complete  # a file the host read but the hook cannot


def test_no_command_line_leaves_nothing_known(tmp_path: Path) -> None:
    assert not load_rules("", {"HOME": str(tmp_path)}, None).complete
    assert host_argv({}) is None
    assert host_argv({"CLAUDE_PID": "999999999"}) is None


def test_the_host_argv_is_read_through_proc() -> None:
    code = "import sys; print('ready', flush=True); sys.stdin.read()"
    child = subprocess.Popen([sys.executable, "-c", code, "--disallowedTools", "Bash(printf:*)"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None and child.stdout.readline() == b"ready\n"  # past its exec
        argv = host_argv({"CLAUDE_PID": str(child.pid)})
    finally:
        child.communicate(b"")
    assert argv is not None and argv[-2:] == ["--disallowedTools", "Bash(printf:*)"]
    assert parse_command_line(argv).disallowed == ["Bash(printf:*)"]
    assert os.path.basename(argv[0]).startswith("python")


# Found by fuzz/hook_decisions.py (issue 36's red team), each seen in Claude Code 2.1.332: the host
# matches deny and ask rules on the command with its quotes left out, so a quoted spelling must not
# slip past them through the rewrite.
@pytest.mark.parametrize(("command", "rules"), [
    ("'printf' 'RAN%s\\n' OK", _rules(deny=("Bash(printf:*)",))),      # seen: bare denied, hooked ran
    ("pr'intf' 'RAN%s\\n' OK", _rules(deny=("Bash(printf:*)",))),      # seen: the same
    ("\"printf\" 'RAN%s\\n' OK", _rules(ask=("Bash(printf:*)",))),     # seen: bare asked, hooked ran
    ("printf 'RAN%s\\n' OK", _rules(deny=("Bash(printf RAN*)",))),     # seen: bare denied, hooked ran
    ("printf 'a b'", _rules(deny=("Bash(printf a b)",))),
    ("ls -a", _rules(ask=("Bash(l* --force)",))),                      # any rule about the command
])
def test_a_quoted_spelling_does_not_slip_past_deny_and_ask_rules(command: str, rules: Rules) -> None:
    assert host_verdict(command, REWRITTEN, "bypassPermissions", rules) is Verdict.UNKNOWN


@pytest.mark.parametrize("space", ["\u00a0", "\u200b", "\u2003", "\u2028", "\ufeff"])
def test_unicode_spaces_are_left_to_the_host(space: str) -> None:
    # seen: with `Bash(printf:*)` allowed the host refuses "Contains Unicode whitespace" (NBSP, ZWSP)
    command = f"printf 'RAN%s\\n' OK 'a{space}b'"
    assert split_command(command) is None
    assert host_verdict(command, REWRITTEN, "default", _rules(allow=("Bash(printf:*)",))) is Verdict.UNKNOWN


def test_plain_unicode_still_splits() -> None:
    assert split_command("printf 'RAN%s\\n' OK '\u00e9'") == [["printf", "RAN%s\\n", "OK", "\u00e9"]]


def test_a_command_that_is_no_program_on_path_is_left_to_the_host() -> None:
    # seen: the host runs `greet` (a ~/.bashrc function) and `ll` (an alias); the rewrite's bash -c cannot
    path = "/usr/bin:/bin"
    assert host_verdict("printf x && ls -a", REWRITTEN, "bypassPermissions", _rules(), None, path) is Verdict.BYPASS
    assert host_verdict("greet", REWRITTEN, "bypassPermissions", _rules(), None, path) is Verdict.UNKNOWN
    assert host_verdict("printf x | ll", REWRITTEN, "bypassPermissions", _rules(), None, path) is Verdict.UNKNOWN
    assert host_verdict("printf x", REWRITTEN, "bypassPermissions", _rules(), None, "") is Verdict.UNKNOWN


@pytest.mark.parametrize("command", ["grep x", "printf x | grep x", "rg x", "find x",
                                     "printf x '2'>&1", 'printf x "2">&1'])  # a quoted 2 is a word, not an fd
def test_the_host_shells_own_functions_are_left_to_it(command: str) -> None:
    # seen: `type -t grep rg find` in the host's shell: function; a rewrite would run other programs
    assert split_command(command) is None


def test_an_alias_or_function_of_the_hosts_shell_is_unknown(tmp_path: Path) -> None:
    """The host runs a command in its shell snapshot (aliases and functions), the rewrite in a fresh bash:
    a name defined there, in the snapshot (as 2.1.332 writes it) or a start-up file, is never rewritten."""
    snapshots = tmp_path / "config" / "shell-snapshots"
    snapshots.mkdir(parents=True)
    (snapshots / "snapshot-bash-1-x.sh").write_text("alias -- ll='ls -a'\ngreet () \n{\n    echo hi\n}\n")
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text("if true; then\n    alias ls='ls --color=auto'\nfi\nmk() { mkdir -p \"$1\"; }\n")
    names = shell_defined_names([str(tmp_path / "config")], str(home))
    assert {"ll", "greet", "ls", "mk"} <= names and "if" not in names and "echo" not in names
    rules = load_rules(str(tmp_path), {"HOME": str(tmp_path / "empty")}, ["claude"])
    assert rules.complete
    for command in ("ll", "greet", "ls -la", "printf x && ls"):
        assert host_verdict(command, f"textclean run -- bash -c '{command}'", "bypassPermissions", rules,
                            shell_names=names) is Verdict.UNKNOWN, command
    assert host_verdict("printf x", "textclean run -- bash -c 'printf x'", "bypassPermissions", rules,
                        shell_names=names) is Verdict.BYPASS
