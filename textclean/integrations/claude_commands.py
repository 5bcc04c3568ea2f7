"""The Bash commands textclean's Claude Code hook may rewrite: those that split with certainty into
plain simple commands, with none of the shapes Claude Code checks beyond its permission rules (measured
on 2.1.332): paths outside the working directories and symlinks, output redirections, ``cd`` in
compound commands, dangerous ``rm`` targets (even in bypass mode), subshells and command substitutions.
The host checks them on the command it is given, and a rewritten command hides them inside one quoted
word, so every such shape is refused here: a word with ``/``, a leading ``.`` or ``~``, globs, ``$``,
backticks, redirections other than ``2>&1``, assignments, shell keywords, and the commands the host
inspects itself (:data:`HOST_INSPECTED`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

#: Commands whose arguments Claude Code validates itself (paths, writes, nested commands, shell state),
#: or that run other commands: never rewritten, whatever the rules say.
HOST_INSPECTED = frozenset({
    "cd", "pushd", "popd", "exit", "exec", "export", "source", "eval", "set", "unset", "alias", "trap",
    "builtin", "command", "xargs", "env", "sudo", "su", "nohup", "time", "timeout", "nice", "find", "sed",
    "awk", "tee", "mv", "cp", "ln", "rm", "rmdir", "mkdir", "chmod", "chown", "dd", "bash", "sh", "zsh",
    "dash", "fish", "ssh", "kill", "pkill", "killall", "shutdown", "reboot",
    # functions of the host's own shell, running its bundled tools (seen: `type -t grep rg find`): a
    # rewrite's fresh `bash -c` would run other programs (seen: GNU grep's usage text instead of ugrep's)
    "grep", "rg",
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
    if any(not char.isprintable() and char not in " \t\n" for char in command):
        return None  # unicode spaces and format characters, quoted or not (seen: the host asks)
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
        if char == ">" and word == ["2"] and command[index - 1] == "2" and command.startswith(">&1", index):
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


def without_fd_dup(part: str) -> str:
    """``part`` with its ``2>&1`` left out, as the host also matches it (seen: ``Bash(touch m)`` allows
    ``touch m 2>&1``)."""
    return " ".join(_FD_DUP.sub(" ", part).split())


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


# A line of a shell file that defines a name: `alias -- ll='ls -a'` (or `alias ll=...`), `greet () ` as
# `declare -f` prints a function (or `greet() {`), or `function greet`; indented too (inside an `if`).
_DEFINED_NAME = re.compile(
    rb"^[ \t]*(?:alias\s+(?:-\S+\s+)*([^\s=]+)=|([^\s()=#$]+)\s*\(\)|function\s+([^\s()]+))", re.MULTILINE)
#: The user's shell start-up files, which Claude Code's shell snapshot is made from (it may not exist yet
#: at a session's first command): read as text, never run.
SHELL_START_FILES = (".bashrc", ".bash_aliases", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zprofile",
                     ".zshenv")


def _names_in(path: str, names: set[str]) -> None:
    try:
        with open(path, "rb") as handle:
            text = handle.read(4 * 1024 * 1024)
    except OSError:
        return
    for match in _DEFINED_NAME.finditer(text):
        name = next(group for group in match.groups() if group is not None)
        names.add(name.decode("utf-8", "surrogateescape"))


def shell_defined_names(claude_dirs: Iterable[str], home: str | None = None) -> frozenset[str]:
    """The aliases and functions Claude Code's shell may define. It runs every command after sourcing a
    snapshot of the user's shell (``<config dir>/shell-snapshots/snapshot-*.sh``, kept while a session
    lives), so a name defined there runs there, not in a rewrite's fresh ``bash -c`` (seen in 2.1.332:
    ``alias ls='ls -a'`` lists dot files bare and not hooked). Every session's snapshot counts, and so do
    the names written in ``home``'s start-up files. A name defined only in a file those source is not seen."""
    names: set[str] = set()
    for directory in claude_dirs:
        try:
            entries = os.scandir(os.path.join(directory, "shell-snapshots"))
        except OSError:
            continue
        with entries:
            for entry in entries:
                if entry.name.startswith("snapshot-"):
                    _names_in(entry.path, names)
    for name in SHELL_START_FILES if home else ():
        _names_in(os.path.join(home or "", name), names)
    return frozenset(names)
