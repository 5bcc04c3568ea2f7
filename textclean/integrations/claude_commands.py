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
