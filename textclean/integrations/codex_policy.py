"""When the Codex PreToolUse hook may rewrite a command to run under ``textclean run``.

Codex checks its approval policy, its execpolicy rules and its "dangerous command" heuristic against
the command *after* the hook rewrote it (measured with Codex CLI 0.171.0, docs/hosts.md). It parses
``bash -lc '<script>'`` into its simple commands; it does not look inside the rewrite's
``textclean run -- bash -c '<command>'``. So a rewrite would run what a ``forbidden`` or ``prompt``
rule, or ``rm -f``, stops. The sandbox does still apply to the rewritten command as a whole.

The hook therefore rewrites only where Codex's own answer for the original command is known to be
"run, in the session's sandbox", and the rewritten command gets that same answer:

* ``permission_mode`` is ``bypassPermissions``: Codex's approval policy is ``never`` (what ``codex
  exec`` always runs with). Every other policy may ask, and the hook cannot see the sandbox that decides.
* No execpolicy rule can match a part of the original or of the rewritten command: no string in any
  ``*.rules`` file Codex may load (``$CODEX_HOME/rules``, ``/etc/codex/rules``, ``.codex/rules`` in the
  working directory and every directory above it) is a word of either. A rules file that cannot be
  read, or holds more than calls of its rule functions, lists and strings, stops every rewrite; so does
  ``/etc/codex/requirements.toml`` (managed rules).
* The command names no ``rm`` and no ``git ... reset`` (Codex's heuristic forbids ``rm -f`` under
  ``never``; older versions also ``git reset``).

Everywhere else the hook prints nothing and Codex decides on the command as written.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

#: The permission mode Codex reports when its approval policy is ``never``.
NEVER_ASKS = "bypassPermissions"
#: Shells Codex may wrap a command in; a rule on one of them matches an unparsed script.
SHELLS = frozenset({"bash", "sh", "zsh", "dash", "fish"})
RULES_SUFFIX = ".rules"
#: The calls an execpolicy file is made of.
RULE_FUNCTIONS = frozenset({"prefix_rule", "host_executable", "network_rule"})
SYSTEM_DIR = Path("/etc/codex")
_WORD_BREAKS = re.compile(r"[\s;&|()<>`$={}!]+")
_QUOTES = re.compile(r"""['"\\]""")
# What an execpolicy file may hold for this module to read it: comments, names, keywords (``=``), calls,
# lists, and plain strings. Anything else (``+``, ``%``, ``.``) and the file is not understood.
_RULES_TOKEN = re.compile(
    r"""\s+|#[^\n]*|[A-Za-z_][A-Za-z0-9_]*|[=(),\[\]]|"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'""")


def command_words(command: str) -> set[str]:
    """Every word a shell could make of ``command`` as a command name or argument, and the basename of
    each path among them: a superset (quotes and backslashes removed, split at every operator)."""
    words = {word for word in _WORD_BREAKS.split(_QUOTES.sub("", command)) if word}
    return words | {word.rsplit("/", 1)[-1] for word in words if "/" in word}


def might_be_dangerous(words: set[str]) -> bool:
    """Whether Codex's dangerous-command heuristic could flag a command of these words."""
    return "rm" in words or ("git" in words and "reset" in words)


def rule_strings(text: str) -> set[str] | None:
    """The strings of one execpolicy file (and their basenames); None when it holds anything else."""
    strings: set[str] = set()
    position = 0
    while position < len(text):
        match = _RULES_TOKEN.match(text, position)
        if match is None:
            return None
        word = match.group(0)
        if word[:1].isalpha() or word[:1] == "_":
            after = text[match.end():].lstrip()
            if after.startswith("(") and word not in RULE_FUNCTIONS:
                return None  # a call of anything else (``load``) could bring strings from elsewhere
        literal = match.group(1) if match.group(1) is not None else match.group(2)
        if literal is not None:
            if "\\" in literal:
                return None  # an escape could spell anything
            strings.add(literal)
            strings.add(literal.rsplit("/", 1)[-1])
        position = match.end()
    return strings


def rules_dirs(cwd: str | None, environ: Mapping[str, str]) -> list[Path]:
    """The directories Codex may load ``*.rules`` from, for a session in ``cwd``."""
    home = environ.get("CODEX_HOME") or os.path.join(environ.get("HOME") or os.path.expanduser("~"), ".codex")
    dirs = [Path(home) / "rules", SYSTEM_DIR / "rules"]
    if cwd:
        here = Path(cwd)
        dirs.extend(directory / ".codex" / "rules" for directory in (here, *here.parents))
    return dirs


def loaded_rule_strings(dirs: Iterable[Path]) -> set[str] | None:
    """Every string of every rules file in ``dirs``; None when one cannot be read or understood."""
    strings: set[str] = set()
    for directory in dirs:
        try:
            entries = sorted(directory.iterdir()) if directory.is_dir() else []
        except OSError:
            return None
        for path in entries:
            if not path.name.endswith(RULES_SUFFIX):
                continue
            try:
                found = rule_strings(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                return None
            if found is None:
                return None
            strings |= found
    return strings


def login_shell() -> str | None:
    """The shell Codex runs a command in (the user's login shell from the password database, not
    ``$SHELL``: seen ignored), when it is bash; None otherwise (the rewrite would change the shell)."""
    import pwd

    try:
        shell = pwd.getpwuid(os.getuid()).pw_shell
    except KeyError:
        return None
    return shell if os.path.isabs(shell) and os.path.basename(shell) == "bash" else None


def rewrite_allowed(event: Mapping[str, Any], command: str, rewritten: str,
                    environ: Mapping[str, str] | None = None) -> bool:
    """Whether Codex runs ``rewritten`` exactly where and as it runs ``command`` (module docstring)."""
    if event.get("permission_mode") != NEVER_ASKS or login_shell() is None:
        return False
    environ = os.environ if environ is None else environ
    words = command_words(command)
    if might_be_dangerous(words):
        return False
    if (SYSTEM_DIR / "requirements.toml").exists():
        return False
    cwd = event.get("cwd")
    strings = loaded_rule_strings(rules_dirs(cwd if isinstance(cwd, str) else None, environ))
    if strings is None:
        return False
    shell = environ.get("SHELL", "").rsplit("/", 1)[-1]
    exposed = words | command_words(rewritten) | SHELLS | ({shell} if shell else set())
    return not (strings & exposed)
