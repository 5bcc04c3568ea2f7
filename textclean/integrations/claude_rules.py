"""Claude Code's permission rules: their syntax, how the host matches them against a command, and
every source it reads them from (settings files, ``--settings``, ``--allowedTools`` and
``--disallowedTools`` on its own command line, read through ``/proc/$CLAUDE_PID/cmdline``).
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path


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
