"""Whether Claude Code is known to run a Bash command as written, without asking: the PreToolUse hook
rewrites a command only then (textclean changes what the model reads, never what the host decides).

Known "run" is narrow on purpose. The command must split with certainty into plain simple commands
(:func:`split_command`), no deny or ask rule may match any part of it, nor the whole, nor the rewritten
command the host will check instead, and then either the permission mode is ``bypassPermissions`` or an
allow rule matches every part. Rules are read from every source Claude Code reads (:func:`load_rules`):
the settings files, and the host's own command line (``--allowedTools``, ``--disallowedTools``,
``--settings``) through ``/proc/$CLAUDE_PID/cmdline``. A source that cannot be read, a rule that cannot
be parsed, a match that is not certain: the answer is "not known", and the hook leaves the command alone.

Claude Code checks more than rules (measured on 2.1.332): paths outside the working directories,
output redirections, ``cd`` in compound commands, dangerous ``rm`` targets (even in bypass mode),
subshells and command substitutions all need approval even under an allow rule. It checks them on the
command it is given, and a rewritten command hides them inside one quoted word, so the splitter refuses
every such shape: a word with ``/``, a leading ``.`` or ``~``, globs, ``$``, backticks, redirections
other than ``2>&1``, assignments, and the commands the host inspects itself (:data:`HOST_INSPECTED`);
and a word naming a symlink in the session's directory (the host resolves it).
"""

from __future__ import annotations

import enum
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

#: Commands whose arguments Claude Code validates itself (paths, writes, nested commands, shell state),
#: or that run other commands: never rewritten, whatever the rules say.
HOST_INSPECTED = frozenset({
    "cd", "pushd", "popd", "exit", "exec", "export", "source", "eval", "set", "unset", "alias", "trap",
    "builtin", "command", "xargs", "env", "sudo", "su", "nohup", "time", "timeout", "nice", "find", "sed",
    "awk", "tee", "mv", "cp", "ln", "rm", "rmdir", "mkdir", "chmod", "chown", "dd", "bash", "sh", "zsh",
    "dash", "fish", "ssh", "kill", "pkill", "killall", "shutdown", "reboot",
    # shell keywords: a loop or a test is not a simple command, whatever `;` splits it into
    "for", "while", "until", "if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "select",
    "function", "coproc",
})
_WORD_CHAR = re.compile(r"[A-Za-z0-9_@%+=:,.\-]")
_OPERATORS = ("&&", "||", ";", "|", "\n")
_FD_DUP = re.compile(r"(?<!\S)2>&1(?!\S)")


def split_command(command: str) -> list[list[str]] | None:
    """The simple commands of ``command`` (each a list of its words, quotes removed), split at
    ``&&``, ``||``, ``;``, ``|`` and newlines; None when the command holds anything else or any shape
    Claude Code checks beyond its rules (see the module's docstring)."""
    parts: list[list[str]] = [[]]
    word: list[str] | None = None
    index = 0
    length = len(command)
    while index < length:
        char = command[index]
        if char in " \t":
            if word is not None:
                parts[-1].append("".join(word))
                word = None
            index += 1
            continue
        operator = next((op for op in _OPERATORS if command.startswith(op, index)), None)
        if operator is not None:
            if command.startswith("|&", index):
                return None
            if word is not None:
                parts[-1].append("".join(word))
                word = None
            if not parts[-1]:
                return None  # an empty part: `a && && b`, a leading or trailing operator
            parts.append([])
            index += len(operator)
            continue
        if char == ">" and word == ["2"] and command.startswith(">&1", index):
            after = command[index + 3:index + 4]
            if after in ("", " ", "\t", "\n", ";", "|", "&"):
                word = None  # `2>&1` only: no file is written
                index += 3
                continue
            return None
        if char == "'":
            end = command.find("'", index + 1)
            if end < 0:
                return None
            (word := word if word is not None else []).append(command[index + 1:end])
            index = end + 1
            continue
        if char == '"':
            end = command.find('"', index + 1)
            if end < 0:
                return None
            inner = command[index + 1:end]
            if any(c in inner for c in "$`\\"):
                return None
            (word := word if word is not None else []).append(inner)
            index = end + 1
            continue
        if not _WORD_CHAR.match(char):
            return None  # $ ` \ ( ) { } < > & * ? [ ] ~ # ! and the rest
        (word := word if word is not None else []).append(char)
        index += 1
    if word is not None:
        parts[-1].append("".join(word))
    if not parts[-1]:
        return None
    for words in parts:
        if "=" in words[0] or words[0] in HOST_INSPECTED:
            return None
        for value in words:
            if not value or "/" in value or value[0] in ".~" or any(ord(c) < 32 or c == "\x7f" for c in value):
                return None
    return parts


def part_texts(command: str) -> list[str] | None:
    """The text of each part of ``command`` as the host matches it against rules; None when unsplittable."""
    if split_command(command) is None:
        return None
    texts: list[str] = []
    current: list[str] = []
    quote = ""
    index = 0
    while index < len(command):
        char = command[index]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        else:
            operator = next((op for op in _OPERATORS if command.startswith(op, index)), None)
            if operator is not None:
                texts.append("".join(current).strip())
                current = []
                index += len(operator)
                continue
        current.append(char)
        index += 1
    texts.append("".join(current).strip())
    return texts


class Match(enum.Enum):
    """Whether a rule matches a command: a certain yes, a certain no, or not certain."""

    YES = "yes"
    NO = "no"
    MAYBE = "maybe"


class RuleKind(enum.Enum):
    ALL = "all"          # Bash, Bash(*), Bash()
    EXACT = "exact"      # Bash(npm test)
    PREFIX = "prefix"    # Bash(npm run:*)
    WILDCARD = "wildcard"  # Bash(git * --oneline), Bash(ls *)
    UNKNOWN = "unknown"  # a Bash rule this module cannot read
    OTHER_TOOL = "other"  # Read(...), WebFetch, mcp__...: not about Bash


@dataclass(frozen=True)
class Rule:
    """One permission rule as written, and how it reads for Bash."""

    text: str
    kind: RuleKind
    content: str = ""


_TOOL_RULE = re.compile(r"([A-Za-z_][A-Za-z0-9_\-]*)(?:\((.*)\))?", re.DOTALL)


def parse_rule(text: str) -> Rule:
    """``text`` read as Claude Code's permission rule syntax."""
    match = _TOOL_RULE.fullmatch(text.strip())
    if match is None:
        return Rule(text, RuleKind.UNKNOWN)
    tool, content = match.group(1), match.group(2)
    if tool != "Bash":
        return Rule(text, RuleKind.UNKNOWN if tool.lower() in ("bash", "shell") else RuleKind.OTHER_TOOL)
    if content is None or content.strip() in ("", "*"):
        return Rule(text, RuleKind.ALL)
    if any(c in content for c in "\\()"):
        return Rule(text, RuleKind.UNKNOWN)  # escapes and nested parentheses: not read here
    if content.endswith(":*") and "*" not in content[:-2]:
        return Rule(text, RuleKind.PREFIX, content[:-2])
    if "*" in content:
        return Rule(text, RuleKind.WILDCARD, content)
    return Rule(text, RuleKind.EXACT, content)


def _squeeze(text: str) -> str:
    return " ".join(text.split())


def match_rule(rule: Rule, command: str) -> Match:
    """Whether ``rule`` matches ``command`` (one part, or a whole command) the way Claude Code does."""
    if rule.kind is RuleKind.OTHER_TOOL:
        return Match.NO
    if rule.kind is RuleKind.ALL:
        return Match.YES
    if rule.kind is RuleKind.UNKNOWN:
        return Match.MAYBE
    content = rule.content
    loose = _squeeze(command)
    if rule.kind is RuleKind.EXACT:
        if command == content:
            return Match.YES
        return Match.MAYBE if loose == _squeeze(content) else Match.NO
    if rule.kind is RuleKind.PREFIX:
        if command == content or command.startswith(content + " "):
            return Match.YES
        return Match.MAYBE if loose.startswith(_squeeze(content)) else Match.NO
    pattern = re.compile(".*".join(re.escape(piece) for piece in content.split("*")), re.DOTALL)
    if pattern.fullmatch(command):
        return Match.YES
    loose_pattern = ".*".join(re.escape(piece) for piece in _squeeze(content).split("*"))
    if re.fullmatch(loose_pattern, loose, re.DOTALL):
        return Match.MAYBE
    if content.endswith(" *") and loose == _squeeze(content[:-2]):
        return Match.MAYBE  # `Bash(ls *)` against a bare `ls`
    return Match.NO


@dataclass
class Rules:
    """The allow, deny and ask rules of every source; ``complete`` is False when a source could not be
    read (then nothing is known, and nothing is rewritten)."""

    allow: list[Rule] = field(default_factory=list)
    deny: list[Rule] = field(default_factory=list)
    ask: list[Rule] = field(default_factory=list)
    complete: bool = True
    why: str = ""

    def add(self, permissions: object, *, source: str) -> None:
        if permissions is None:
            return
        if not isinstance(permissions, Mapping):
            self.fail(f"{source}: permissions is not an object")
            return
        for key, target in (("allow", self.allow), ("deny", self.deny), ("ask", self.ask)):
            values = permissions.get(key, [])
            if not isinstance(values, list) or not all(isinstance(value, str) for value in values):
                self.fail(f"{source}: permissions.{key} is not a list of strings")
                return
            target.extend(parse_rule(value) for value in values)

    def fail(self, why: str) -> None:
        self.complete = False
        self.why = self.why or why


def _read_settings(path: Path, rules: Rules, *, required: bool = False) -> None:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        if required:
            rules.fail(f"{path}: not found")
        return
    except OSError as exc:
        rules.fail(f"{path}: {exc.strerror}")
        return
    try:
        settings = json.loads(raw)
    except ValueError:
        rules.fail(f"{path}: not JSON")
        return
    if not isinstance(settings, Mapping):
        rules.fail(f"{path}: not a JSON object")
        return
    rules.add(settings.get("permissions"), source=str(path))


def _rule_values(values: Iterable[str]) -> list[str]:
    """The rules of ``--allowedTools a b,c``: Claude Code takes spaces and commas as separators
    outside parentheses."""
    found: list[str] = []
    for value in values:
        depth = 0
        current: list[str] = []
        for char in value:
            if char == "(":
                depth += 1
            elif char == ")":
                depth = max(0, depth - 1)
            if depth == 0 and char in " ,":
                if current:
                    found.append("".join(current))
                current = []
            else:
                current.append(char)
        if current:
            found.append("".join(current))
    return found


@dataclass
class CommandLine:
    """What Claude Code's own command line adds to the settings files."""

    allowed: list[str] = field(default_factory=list)
    disallowed: list[str] = field(default_factory=list)
    settings: list[str] = field(default_factory=list)
    setting_sources: list[str] | None = None


_LIST_FLAGS = {"--allowedTools": "allowed", "--allowed-tools": "allowed",
               "--disallowedTools": "disallowed", "--disallowed-tools": "disallowed"}


def parse_command_line(argv: Sequence[str]) -> CommandLine:
    """The permission options of Claude Code's ``argv``. A list option takes every following argument
    up to the next option (so a prompt after it is read as rules too: harmless for deny rules, and a
    prompt is not an allow rule for Bash unless it reads as one)."""
    line = CommandLine()
    index = 1
    while index < len(argv):
        arg = argv[index]
        name, eq, inline = arg.partition("=")
        if name in _LIST_FLAGS:
            values = [inline] if eq else []
            index += 1
            while not eq and index < len(argv) and not argv[index].startswith("-"):
                values.append(argv[index])
                index += 1
            getattr(line, _LIST_FLAGS[name]).extend(_rule_values(values))
            continue
        if name in ("--settings", "--setting-sources"):
            value = inline if eq else (argv[index + 1] if index + 1 < len(argv) else "")
            index += 1 if eq else 2
            if name == "--settings":
                line.settings.append(value)
            else:
                line.setting_sources = [source.strip() for source in value.split(",") if source.strip()]
            continue
        index += 1
    return line


def host_argv(env: Mapping[str, str]) -> list[str] | None:
    """Claude Code's own argv, read through ``/proc/$CLAUDE_PID/cmdline``; None when it cannot be read."""
    pid = env.get("CLAUDE_PID", "")
    if not pid.isdigit():
        return None
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    argv = [arg.decode("utf-8", "surrogateescape") for arg in raw.split(b"\0")]
    if argv and argv[-1] == "":
        argv.pop()
    return argv or None


def _trusted(project: Path, config_dir: Path | None) -> bool:
    """Whether the host's global config (``.claude.json``) records the trust dialog accepted for
    ``project`` itself (a trusted parent is not looked for: that only rewrites less)."""
    if config_dir is None:
        return False
    try:
        config = json.loads((config_dir / ".claude.json").read_bytes())
        entry = config["projects"][str(project)]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return isinstance(entry, Mapping) and entry.get("hasTrustDialogAccepted") is True


def load_rules(cwd: str, env: Mapping[str, str], argv: Sequence[str] | None, host_cwd: str | None = None) -> Rules:
    """Every rule Claude Code applies to the session: managed settings, ``--settings``, the user's
    settings, the project's shared and local settings, and the command line's tool lists;
    ``host_cwd``: the directory a relative ``--settings`` path is read from (``cwd`` when None)."""
    rules = Rules()
    if argv is None:
        rules.fail("Claude Code's command line cannot be read (no CLAUDE_PID, or no /proc)")
        return rules
    line = parse_command_line(argv)
    managed = Path("/etc/claude-code")
    _read_settings(managed / "managed-settings.json", rules)
    if managed.joinpath("managed-settings.d").is_dir():
        for path in sorted(managed.joinpath("managed-settings.d").glob("*.json")):
            _read_settings(path, rules)
    for value in line.settings:
        if value.lstrip().startswith("{"):
            try:
                settings = json.loads(value)
            except ValueError:
                rules.fail("--settings: not JSON")
                continue
            rules.add(settings.get("permissions") if isinstance(settings, Mapping) else None, source="--settings")
        else:
            _read_settings(Path(host_cwd or cwd or ".", value), rules, required=True)
    sources = set(line.setting_sources) if line.setting_sources is not None else {"user", "project", "local"}
    # Deny and ask rules are read from every file the host might read; allow rules only from those it
    # does read (a file read needlessly must never allow a command). The project's allow rules count
    # only in a workspace whose trust dialog was accepted (the host ignores them otherwise).
    config_dir = Path(env["CLAUDE_CONFIG_DIR"]) if env.get("CLAUDE_CONFIG_DIR") else None
    home = Path(env["HOME"]) if env.get("HOME") else None
    user_dirs = [config_dir] if config_dir else []
    if home:
        user_dirs.append(home / ".claude")
    projects = [Path(env["CLAUDE_PROJECT_DIR"])] if env.get("CLAUDE_PROJECT_DIR") else []
    if cwd:
        projects.append(Path(cwd))
    trusted = bool(projects) and _trusted(projects[0], config_dir or home)
    for kind, paths in (("user", [d / "settings.json" for d in user_dirs]),
                        ("project", [p / ".claude" / "settings.json" for p in projects]),
                        ("local", [p / ".claude" / "settings.local.json" for p in projects])):
        for position, path in enumerate(dict.fromkeys(paths)):
            before = len(rules.allow)
            _read_settings(path, rules)
            if kind not in sources or position > 0 or (kind != "user" and not trusted):
                del rules.allow[before:]
    rules.allow.extend(parse_rule(value) for value in line.allowed)
    rules.deny.extend(parse_rule(value) for value in line.disallowed)
    return rules


def _any_match(rules: Iterable[Rule], commands: Iterable[str]) -> bool:
    return any(match_rule(rule, command) is not Match.NO for rule in rules for command in commands)


class Verdict(enum.Enum):
    """What is known of the host's answer to a command."""

    BYPASS = "bypass"    # bypassPermissions and no deny or ask rule: the host runs it
    ALLOWED = "allowed"  # an allow rule for every part and no deny or ask rule: the host runs it
    UNKNOWN = "unknown"  # anything else: the host decides on the command as written


def names_a_link_or_an_outside_path(words: Iterable[str], cwd: str) -> bool:
    """Whether a word (or the value after a word's ``=``) names an existing symlink in ``cwd``, or a path
    that resolves outside it: Claude Code resolves them and asks (seen: ``cat link`` to /etc/hostname
    under ``Bash(cat:*)``). True when ``cwd`` is not an absolute directory."""
    if not os.path.isabs(cwd) or not os.path.isdir(cwd):
        return True
    root = os.path.realpath(cwd)
    for word in words:
        for name in {word, word.partition("=")[2]} - {""}:
            path = os.path.join(cwd, name)
            if os.path.islink(path):
                return True
            if os.path.lexists(path) and os.path.commonpath([root, os.path.realpath(path)]) != root:
                return True
    return False


def host_verdict(command: str, rewritten: str, mode: object, rules: Rules, cwd: str | None = None) -> Verdict:
    """Whether Claude Code is known to run ``command`` unasked in permission ``mode``, and to run
    ``rewritten`` (the command it will check in its place) just the same; ``cwd``: the session's
    directory, whose symlinks the words must not name (None: not checked, for tests of the rules)."""
    if not rules.complete:
        return Verdict.UNKNOWN
    parts = part_texts(command)
    split = split_command(command)
    if parts is None or split is None:
        return Verdict.UNKNOWN
    if cwd is not None and names_a_link_or_an_outside_path((w for words in split for w in words[1:]), cwd):
        return Verdict.UNKNOWN
    # The host may match a part with its `2>&1` left out; and it matches the rewritten command too.
    checked = [*parts, *(_squeeze(_FD_DUP.sub(" ", part)) for part in parts), command, rewritten]
    if _any_match(rules.deny, checked) or _any_match(rules.ask, checked):
        return Verdict.UNKNOWN
    if mode == "bypassPermissions":
        return Verdict.BYPASS
    # an allow rule matches a part with or without its `2>&1` (seen: `Bash(touch m)` allows `touch m 2>&1`)
    if mode in ("default", "acceptEdits", "dontAsk") and all(
            any(match_rule(rule, form) is Match.YES for rule in rules.allow
                for form in (part, _squeeze(_FD_DUP.sub(" ", part)))) for part in parts):
        return Verdict.ALLOWED
    return Verdict.UNKNOWN


def session_verdict(event: Mapping[str, object], command: str, rewritten: str,
                    env: Mapping[str, str] | None = None) -> Verdict:
    """:func:`host_verdict` for a PreToolUse event, with the rules of the session that sent it."""
    environ = os.environ if env is None else env
    cwd = event.get("cwd")
    pid = environ.get("CLAUDE_PID", "")
    try:
        host_cwd = os.readlink(f"/proc/{pid}/cwd") if pid.isdigit() else None
    except OSError:
        host_cwd = None
    rules = load_rules(cwd if isinstance(cwd, str) else "", environ, host_argv(environ), host_cwd)
    return host_verdict(command, rewritten, event.get("permission_mode"), rules, cwd if isinstance(cwd, str) else "")
