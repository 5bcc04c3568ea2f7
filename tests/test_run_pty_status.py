"""``textclean run --pty`` exits with the command's own status, every time.

Coreutils close stdout and stderr before they exit. Closing the pty's master in that moment hangs up
the command's session, and the SIGHUP became its status (129) in about a third of the runs of
``echo hi`` or ``ls /nonexistent``, and in every run of a command that closes its output, then works on.
Each loop here runs real short commands through a real pty, many times over.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from textclean.integrations.run import Options, capture

ROOT = Path(__file__).resolve().parent.parent

#: (argv, its exit status, what it prints on the pty)
COMMANDS: dict[str, tuple[list[str], int, bytes]] = {
    "true": (["true"], 0, b""),
    "false": (["false"], 1, b""),
    "exit 3": (["sh", "-c", "exit 3"], 3, b""),
    "echo hi": (["echo", "hi"], 0, b"hi\n"),
    "ls /nonexistent": (["env", "LC_ALL=C", "ls", "/nonexistent"], 2,
                        b"ls: cannot access '/nonexistent': No such file or directory\n"),
    "printf without newline": (["printf", "no newline"], 0, b"no newline"),
    "closes its output, then exits 5": (["sh", "-c", "echo bye; exec >&- 2>&-; sleep 0.05; exit 5"], 5, b"bye\n"),
}
ROUNDS = 30  # 7 commands x 30 = 210 runs


def _run_once(argv: list[str]) -> tuple[int, bytes]:
    status, streams = capture(argv, Options(pty=True, size=(80, 24)))
    try:
        (stream,) = streams
        stream.spool.seek(0)
        return status, stream.spool.read()
    finally:
        for each in streams:
            each.spool.close()


def test_two_hundred_short_commands_each_return_their_own_status() -> None:
    outcomes: Counter[tuple[str, int, bytes]] = Counter()
    for _ in range(ROUNDS):
        for name, (argv, _, _) in COMMANDS.items():
            status, output = _run_once(argv)
            outcomes[(name, status, output)] += 1
    expected = Counter({(name, status, output): ROUNDS for name, (_, status, output) in COMMANDS.items()})
    assert outcomes == expected


@pytest.mark.parametrize("name", ["echo hi", "ls /nonexistent", "closes its output, then exits 5"])
def test_the_cli_returns_the_status_too(name: str) -> None:
    argv, status, output = COMMANDS[name]
    statuses: Counter[tuple[int, bytes]] = Counter()
    for _ in range(5):
        proc = subprocess.run([sys.executable, "-m", "textclean", "run", "--pty", "--", *argv],
                              capture_output=True, timeout=60, cwd=ROOT)
        statuses[(proc.returncode, proc.stdout)] += 1
    assert statuses == Counter({(status, output): 5})
