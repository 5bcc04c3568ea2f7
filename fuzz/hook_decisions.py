"""Red team for issue 36: does a PreToolUse hook ever change what Claude Code or Codex decides?

Phase 1 (cheap, no host binary): generate commands (seeded at random, plus a hand list of odd shapes)
and rule sets (allow/deny/ask rules in the user, project and local settings files, ``--allowedTools``,
``--disallowedTools``, ``--settings`` on the host's command line read through ``CLAUDE_PID``), in each
permission mode, and ask the hook, in process, whether it rewrites. Every exception is a finding; one
case in ``--subprocess-every`` also goes through ``python -m textclean hook`` as a subprocess, whose
answer must be the in-process one and whose stderr must hold no traceback. Each rewrite is checked
against what the hosts were seen to do (:func:`suspect`): a deny or ask rule naming a part's command
in any spelling, a unicode space, a shape the host checks beyond its rules.

Phase 2 (``--claude-runs N``, ``--codex-runs N``): up to N rewritten cases, of distinct shapes, run in the
real binary with and without the hooks (one run at a time, tests/test_host_claude_code.py's and
tests/test_host_codex.py's helpers); a difference in whether it ran, its error flag, or the text the model
read (refusals word for word; outputs after cleaning) is a finding.

    PYTHONPATH=. python fuzz/hook_decisions.py --seed 7 --cases 3000 [--claude-runs 10] [--codex-runs 5]

Prints its seed, the counts, and one line per finding; exits 1 when there is one.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from textclean.integrations.hook import rewrite_output  # noqa: E402

MODES = ("default", "acceptEdits", "bypassPermissions", "dontAsk", "plan")
NAMES = ("printf", "echo", "ls", "cat", "touch", "git", "grep", "wc", "true", "false", "npm", "head", "sort",
         "sudo", "xargs", "env", "command", "builtin", "time", "exec", "eval", "bash", "sh", "find", "rm",
         "python3", "jq", "tr", "legit", "date")
ARGS = ("x", "-a", "--all", "RAN", "'a b'", "\"a b\"", "'-la'", "run", "test:unit", "status", "push", "reset",
        "--force", "a=b", "@x", "%s", "'RAN%s\\n'", "OK", "2>&1", ">|f", "&>f", "2>e", "<>f", ">&2", "3>&1",
        "<f", "~", "~/x", "*.py", "?", "[ab]", "$HOME", "\"$HOME\"", "'$HOME'", "$(id)", "`id`", "<(ls)",
        "'a\u00a0b'", "'a\u200bb'", "'\u00e9'", "#c", "'#c'", "{a,b}", "'{a,b}'", "-exec", "\\;", "sub/x",
        "..", ".env", "/etc/hostname", "'it''s'", "\"a'b\"", "'a\"b'", "--", "-", "a\\ b", "!x", "'!x'",
        "-c", "'ls x'", "\"ls x\"", "-I{}", "-0")
OPERATORS = (" && ", " || ", "; ", " | ", " & ", "\n", ";", "&&", " |& ", " ;; ")
HAND = (
    "FOO=1 printf x", "env FOO=1 printf x", "exec printf x", "eval 'printf x'", "sudo printf x", "xargs printf",
    "find . -exec printf x \\;", "bash -c 'printf x'", "sh -c 'printf x'", "command printf x",
    "builtin printf x", "time printf x", "f() { printf x; }; f", "alias p=printf; p x", "printf x # c",
    "printf x #c", "cat <<EOF\nx\nEOF", "cat <<'EOF'\nx\nEOF", "cat <(ls)", "printf x >| f", "printf x &> f",
    "printf x 2> e", "cat <> f", "printf x >&2", "printf x 3>&1", "printf x 2>&1", "2>&1 printf x",
    "printf x '2'>&1", "printf x\nprintf y", "printf x &", "printf x & printf y", "printf 'a;b'", "p'rintf' x",
    "'printf' x", "\"printf\" x", "pr\"intf\" x", "printf 'x\u00a0'", "printf '\u2028'", "printf x" + " y" * 3000,
    "npm run test:unit", "npm run test", "git status", "git  status", "git\tstatus", "git 'status'",
    "git -C sub status", "ls ~", "ls *", "printf $'x'", "printf x;", " printf x", "printf x ", "printf x;;",
    "printf x||printf y", "printf x|cat", "printf x | cat -", "ls -- -a", "legit reset", "git --force",
)
RULE_POOL = ("Bash", "Bash(*)", "Bash()", "Bash(printf:*)", "Bash(printf *)", "Bash(printf)", "Bash(printf x)",
             "Bash(git *)", "Bash(git status:*)", "Bash(git status)", "Bash(npm run test:*)", "Bash(npm run:*)",
             "Bash( printf:*)", "Bash(printf: *)", "Bash(printf RAN*)", "Bash(*textclean*)", "Bash(ls)",
             "bash(ls)", "Read(./x)", "WebFetch", "Bash(pr*)", "Bash(* --force)", "Bash(echo:*)", "Bash(cat:*)",
             "Bash(ls:*)", "Bash(touch:*)", "Bash(ls *)", "Bash(printf\\ x)", "Bash(printf 'x')", "*",
             "Bash(l*)", "Bash(ls -a)", "Bash(wc:*)", "Bash(head:*)", "Bash(sort:*)", "Bash(true)",
             "Bash(jq:*)", "Bash(date:*)", "Bash(tr:*)", "Bash(grep:*)")


@dataclass
class Case:
    command: str
    mode: str
    user: dict[str, list[str]] = field(default_factory=dict)
    project: dict[str, list[str]] = field(default_factory=dict)
    local: dict[str, list[str]] = field(default_factory=dict)
    cli: list[str] = field(default_factory=list)
    shape: str = "random"

    def rules(self, key: str) -> list[str]:
        found = [*self.user.get(key, []), *self.project.get(key, []), *self.local.get(key, [])]
        if key == "deny":
            found += [rule for flag, rule in zip(self.cli[::2], self.cli[1::2], strict=False)
                      if flag == "--disallowedTools"]
        if key == "allow":
            found += [rule for flag, rule in zip(self.cli[::2], self.cli[1::2], strict=False)
                      if flag == "--allowedTools"]
        return found


def random_command(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.choice((1, 1, 2, 2, 3))):
        name = rng.choice(NAMES)
        style = rng.random()
        if style < 0.08:
            name = f"'{name}'"
        elif style < 0.12:
            name = f"{name[:1]}'{name[1:]}'" if len(name) > 1 else name
        words = [name, *(rng.choice(ARGS) for _ in range(rng.choice((0, 1, 1, 2, 3))))]
        if rng.random() < 0.05:
            words.insert(0, "FOO=1")
        parts.append(" ".join(words))
    command = parts[0]
    for part in parts[1:]:
        command += rng.choice(OPERATORS[:6] if rng.random() < 0.9 else OPERATORS) + part
    return command


def random_rules(rng: random.Random, command: str) -> Case:
    case = Case(command, rng.choice(MODES))
    names = {word.strip("'\"") for word in re.split(r"[\s;&|]+", command) if word}
    covering = [f"Bash({name}:*)" for name in sorted(names) if name.isidentifier() or name.isalnum()]
    allow = covering if rng.random() < 0.6 else rng.sample(RULE_POOL, rng.choice((0, 1, 2)))
    deny = rng.sample(RULE_POOL, rng.choice((0, 0, 0, 1)))
    ask = rng.sample(RULE_POOL, rng.choice((0, 0, 0, 1)))
    sources = [case.user, case.project, case.local]
    for key, values in (("allow", allow), ("deny", deny), ("ask", ask)):
        for value in values:
            where = rng.random()
            if where < 0.15 and key == "allow":
                case.cli += ["--allowedTools", value]
            elif where < 0.15 and key == "deny":
                case.cli += ["--disallowedTools", value]
            else:
                rng.choice(sources[:1] if key == "allow" else sources).setdefault(key, []).append(value)
    return case


def _write(path: Path, rules: dict[str, list[str]]) -> None:
    if rules:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"permissions": rules}))


class Host:
    """A stand-in process whose command line is Claude Code's (the hook reads it through CLAUDE_PID)."""

    def __init__(self, argv: list[str]) -> None:
        # `read` is a builtin: no child to outlive the stand-in and hold our stdout open
        self.process = subprocess.Popen(["bash", "-c", "read -r _", "claude", *argv], stdin=subprocess.PIPE,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cmdline = Path(f"/proc/{self.process.pid}/cmdline")
        while not cmdline.read_bytes().startswith(b"bash\0"):  # until the exec: before it, our own argv
            time.sleep(0.001)

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        if self.process.stdin is not None:
            self.process.stdin.close()


def hook_answer(case: Case, base: Path, host: str = "claude-code") -> tuple[dict[str, Any] | None, dict[str, str],
                                                                          dict[str, Any]]:
    """The hook's answer, in process, for ``case`` (settings written under ``base``)."""
    home, project = base / "home", base / "project"
    for path in (home, project):
        path.mkdir(parents=True, exist_ok=True)
    _write(home / ".claude" / "settings.json", case.user)
    _write(project / ".claude" / "settings.json", case.project)
    _write(project / ".claude" / "settings.local.json", case.local)
    stand_in = Host(["-p", "go", "--permission-mode", case.mode, *case.cli])
    env = {"HOME": str(home), "CLAUDE_PID": str(stand_in.process.pid), "PATH": os.environ.get("PATH", "")}
    event = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(project),
             "permission_mode": case.mode, "tool_input": {"command": case.command, "description": "x"}}
    try:
        return rewrite_output(host, event, env=env), env, event
    finally:
        stand_in.close()
        for path in (home / ".claude" / "settings.json", project / ".claude" / "settings.json",
                     project / ".claude" / "settings.local.json"):
            path.unlink(missing_ok=True)


def _unquoted_parts(command: str) -> list[list[str]] | None:
    """An independent reading (shlex) of the command's parts, quotes removed."""
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|\n")
        lexer.whitespace = " \t"
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError:
        return None
    parts: list[list[str]] = [[]]
    for token in tokens:
        if token and set(token) <= set(";&|\n"):
            parts.append([])
        else:
            parts[-1].append(token)
    return [part for part in parts if part]


def _rule_head(rule: str) -> str | None:
    match = re.fullmatch(r"Bash\((.*)\)", rule.strip(), re.DOTALL)
    if match is None:
        return None
    content = match.group(1).replace("'", "").replace('"', "").removesuffix(":*").strip()
    return (content.split() or ["*"])[0].rstrip(":")


def suspect(case: Case) -> str | None:
    """Why the seen host behaviour says a rewrite of ``case`` may change the host's decision, or None."""
    if any(not char.isprintable() and char not in " \t\n" for char in case.command):
        return "a unicode space or control character (seen: the host asks, 'Contains Unicode whitespace')"
    parts = _unquoted_parts(case.command)
    if parts is None:
        return "the command does not even lex"
    names = {part[0] for part in parts}
    for rule in [*case.rules("deny"), *case.rules("ask")]:
        if rule.strip() in ("Bash", "*") or rule.strip().startswith("Bash(*") or rule.strip() == "Bash()":
            return f"a deny/ask rule on every command: {rule}"
        head = _rule_head(rule)
        if head is None:
            continue
        pattern = ".*".join(re.escape(piece) for piece in head.split("*"))
        if any(re.fullmatch(pattern, name) for name in names):
            return f"a deny/ask rule names a part's command: {rule} (seen: quoted spellings still match)"
    if case.mode == "plan":
        return "plan mode runs nothing"
    unquoted = re.sub(r"'[^']*'|\"[^\"$`\\]*\"|(?<!\S)2>&1(?!\S)", "q", case.command)
    if re.search(r"[<>$`~*?\[\]{}()\\#!]", unquoted):
        return "a shape the host checks beyond its rules (redirection, expansion, glob, subshell)"
    return None


def phase_one(rng: random.Random, count: int, every: int, base: Path) -> tuple[list[Case], list[str], list[Case]]:
    cases = [random_rules(rng, command) for command in HAND]
    cases += [random_rules(rng, random_command(rng)) for _ in range(max(0, count - len(cases)))]
    rewritten: list[Case] = []
    findings: list[str] = []
    for index, case in enumerate(cases):
        try:
            answer, env, event = hook_answer(case, base)
        except Exception:
            findings.append(f"CRASH {case!r}: {traceback.format_exc(limit=3)}")
            continue
        if every and index % every == 0:
            done = subprocess.run([sys.executable, "-m", "textclean", "hook", "claude-code"],
                                  input=json.dumps(event).encode(), capture_output=True, timeout=60, check=False,
                                  env={**env, "PYTHONPATH": str(ROOT)})
            if b"Traceback" in done.stderr or done.returncode not in (0, 1):
                findings.append(f"TRACEBACK {case!r}: {done.stderr[-500:]!r}")
            # The subprocess's stand-in is gone: it can only answer less, never more.
            if answer is None and done.stdout.strip():
                findings.append(f"SUBPROCESS REWRITES MORE {case!r}: {done.stdout[:200]!r}")
        if answer is None:
            continue
        rewritten.append(case)
        why = suspect(case)
        if why is not None:
            findings.append(f"SUSPECT REWRITE {case!r}: {why}")
    return cases, findings, rewritten


def _shape(case: Case) -> str:
    return re.sub(r"[A-Za-z0-9_]+", "w", case.command)[:40] + "|" + case.mode + "|" + ",".join(
        sorted({"deny" for _ in case.rules("deny")} | {"ask" for _ in case.rules("ask")}))


def claude_side_by_side(cases: list[Case], base: Path) -> tuple[int, list[str]]:
    from host_binaries import NODE_BIN
    from hosts.anthropic_mock import MockAnthropic
    from test_host_claude_code import Case as HostCase
    from test_host_claude_code import _run

    findings: list[str] = []
    mock = MockAnthropic(max_requests=20 * len(cases) + 20, lifetime=60 * len(cases) + 60).start()
    try:
        for index, case in enumerate(cases):
            host_case = HostCase(f"fuzz{index}", case.command,
                                 ("--permission-mode", case.mode, *case.cli), user=case.user,
                                 project=case.project, local=case.local)
            sides = [_run(NODE_BIN / "claude", mock, host_case, hooked, base / f"claude{index}")
                     for hooked in (True, False)]
            hooked, bare = sides
            got = [(r.is_error, r.text.replace("/hooked/", "/bare/")) for r in hooked.results]
            want = [(r.is_error, r.text) for r in bare.results]
            if got != want:
                findings.append(f"CLAUDE DIFFERS {case!r}: hooked {got!r:.300} bare {want!r:.300}")
    finally:
        mock.stop()
    return len(cases), findings


def codex_side_by_side(cases: list[Case], base: Path) -> tuple[int, list[str]]:
    from test_host_codex import SANDBOXES, run_codex

    findings: list[str] = []
    for index, case in enumerate(cases):
        sides = [run_codex(base / f"codex{index}-{int(hooks)}", (case.command, {}), SANDBOXES["workspace-write"],
                           None, hooks) for hooks in (False, True)]
        bare, hooked = ((o.exit_code, o.refusal, o.marker, o.output.replace("\r\n", "\n")) for o in sides)
        if bare != hooked:
            findings.append(f"CODEX DIFFERS {case.command!r}: bare {bare!r:.300} hooked {hooked!r:.300}")
    return len(cases), findings


def codex_rewrites(cases: list[Case], base: Path) -> list[Case]:
    found = []
    for case in cases:
        event = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(base),
                 "permission_mode": "bypassPermissions", "tool_input": {"command": case.command}}
        try:
            answer = rewrite_output("codex", event, env={"HOME": str(base), "CODEX_HOME": str(base / "codex")})
        except Exception:
            answer = None
        if answer is not None:
            found.append(case)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--subprocess-every", type=int, default=100)
    parser.add_argument("--claude-runs", type=int, default=0, help="rewritten cases to run in claude (2 runs each)")
    parser.add_argument("--codex-runs", type=int, default=0, help="cases the codex hook rewrites, run in codex")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    print(f"seed {seed}", flush=True)
    rng = random.Random(seed)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="hook_decisions") as tmp:
        base = Path(tmp)
        cases, findings, rewritten = phase_one(rng, args.cases, args.subprocess_every, base)
        print(f"phase 1: {len(cases)} cases, {len(rewritten)} rewritten by the claude-code hook, "
              f"{len(findings)} findings ({time.monotonic() - started:.0f}s)", flush=True)
        shapes: dict[str, Case] = {}
        for case in rewritten:
            shapes.setdefault(_shape(case), case)
        chosen = list(shapes.values())
        rng.shuffle(chosen)
        ran = 0
        if args.claude_runs:
            ran, more = claude_side_by_side(chosen[:args.claude_runs], base)
            findings += more
        codex_cases = codex_rewrites(cases, base)
        print(f"codex hook (approval never, no rules): {len(codex_cases)} of {len(cases)} rewritten", flush=True)
        codex_ran = 0
        if args.codex_runs:
            picked = rng.sample(codex_cases, min(args.codex_runs, len(codex_cases)))
            codex_ran, more = codex_side_by_side(picked, base)
            findings += more
    for finding in findings:
        print(finding)
    print(f"seed {seed}: generated {len(cases)}, rewritten {len(rewritten)} ({len(shapes)} shapes), "
          f"claude runs {ran} cases, codex runs {codex_ran} cases, findings {len(findings)}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
