"""Whether Claude Code is known to run a Bash command as written, without asking: the PreToolUse hook
rewrites a command only then (textclean changes what the model reads, never what the host decides).

Known "run" is narrow on purpose. The command must split with certainty into plain simple commands
(``claude_commands.split_command``), no deny or ask rule may match any part of it, nor the whole, nor
the rewritten command the host will check instead, and then either the permission mode is
``bypassPermissions`` or an allow rule matches every part. Rules are read from every source Claude Code
reads (``claude_rules.load_rules``): the settings files, and the host's own command line
(``--allowedTools``, ``--disallowedTools``, ``--settings``) through ``/proc/$CLAUDE_PID/cmdline``. A
source that cannot be read, a rule that cannot be parsed, a match that is not certain: the answer is
"not known", and the hook leaves the command alone.

Claude Code checks more than rules: :mod:`textclean.integrations.claude_commands` refuses every
command shape it checks beyond them. The rules themselves: :mod:`textclean.integrations.claude_rules`.
"""

from __future__ import annotations

import enum
import os
import re
import shutil
from collections.abc import Iterable, Mapping

from textclean.integrations.claude_commands import (
    names_a_link_or_an_outside_path,
    part_texts,
    shell_defined_names,
    split_command,
    without_fd_dup,
)
from textclean.integrations.claude_rules import Match, Rule, RuleKind, Rules, host_argv, load_rules, match_rule


def _any_match(rules: Iterable[Rule], commands: Iterable[str]) -> bool:
    return any(match_rule(rule, command) is not Match.NO for rule in rules for command in commands)


def _names_a_command(rules: Iterable[Rule], names: Iterable[str]) -> bool:
    """Whether a rule's first word (quotes left out, ``*`` any text) is one of ``names``, the commands
    run: the host matches deny and ask rules on more spellings than :func:`match_rule` knows (seen:
    ``Bash(printf:*)`` denies ``'printf' x`` and ``pr'intf' x``), so any rule about a command counts."""
    names = set(names)
    for rule in rules:
        if rule.kind not in (RuleKind.EXACT, RuleKind.PREFIX, RuleKind.WILDCARD):
            continue
        head = (rule.content.replace("'", "").replace('"', "").split() or [""])[0]
        pattern = re.compile(".*".join(re.escape(piece) for piece in head.split("*")), re.DOTALL)
        if any(pattern.fullmatch(name) for name in names):
            return True
    return False


class Verdict(enum.Enum):
    """What is known of the host's answer to a command."""

    BYPASS = "bypass"    # bypassPermissions and no deny or ask rule: the host runs it
    ALLOWED = "allowed"  # an allow rule for every part and no deny or ask rule: the host runs it
    UNKNOWN = "unknown"  # anything else: the host decides on the command as written


def host_verdict(command: str, rewritten: str, mode: object, rules: Rules, cwd: str | None = None,
                 path: str | None = None, shell_names: frozenset[str] = frozenset()) -> Verdict:
    """Whether Claude Code is known to run ``command`` unasked in permission ``mode``, and to run
    ``rewritten`` (the command it will check in its place) just the same; ``cwd``: the session's
    directory, whose symlinks the words must not name; ``path``: the ``PATH`` every part's command must
    be a program on (None: neither is checked, for tests of the rules); ``shell_names``: the aliases and
    functions of the host's shell, which no part's command may be."""
    if not rules.complete:
        return Verdict.UNKNOWN
    parts = part_texts(command)
    split = split_command(command)
    if parts is None or split is None:
        return Verdict.UNKNOWN
    # The host runs a command in a shell holding the user's aliases and functions (its snapshot of
    # ~/.bashrc); the rewrite's fresh `bash -c` has none (seen: `ll`, a function: ran bare, 127 hooked).
    if path is not None and not all(shutil.which(words[0], path=path) for words in split):
        return Verdict.UNKNOWN
    # ... and an alias or function of that shell may shadow a program (seen: `alias ls='ls -a'`).
    if any(words[0] in shell_names for words in split):
        return Verdict.UNKNOWN
    if cwd is not None and names_a_link_or_an_outside_path((w for words in split for w in words[1:]), cwd):
        return Verdict.UNKNOWN
    # The host may match a part with its `2>&1` left out; and it matches the rewritten command too.
    # ... and with its quotes left out (seen: `Bash(printf RAN*)` denies `printf 'RAN%s\\n' OK`).
    checked = [*parts, *(without_fd_dup(part) for part in parts), *(" ".join(words) for words in split),
               command, rewritten]
    if _any_match(rules.deny, checked) or _any_match(rules.ask, checked):
        return Verdict.UNKNOWN
    if _names_a_command([*rules.deny, *rules.ask], (words[0] for words in split)):
        return Verdict.UNKNOWN
    if mode == "bypassPermissions":
        return Verdict.BYPASS
    # an allow rule matches a part with or without its `2>&1` (seen: `Bash(touch m)` allows `touch m 2>&1`)
    if mode in ("default", "acceptEdits", "dontAsk") and all(
            any(match_rule(rule, form) is Match.YES for rule in rules.allow
                for form in (part, without_fd_dup(part))) for part in parts):
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
    home = environ.get("HOME")
    claude_dirs = [environ.get("CLAUDE_CONFIG_DIR") or "", os.path.join(home, ".claude") if home else ""]
    return host_verdict(command, rewritten, event.get("permission_mode"), rules, cwd if isinstance(cwd, str) else "",
                        environ.get("PATH") or "", shell_defined_names((d for d in claude_dirs if d), home))
