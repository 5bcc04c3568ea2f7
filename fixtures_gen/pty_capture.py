"""Run a program in a fresh pseudo-terminal and keep every byte it writes.

The program gets a new session whose controlling terminal is the pty slave, so it sees a real
terminal on stdin, stdout and stderr (merged, as on a screen), a window size set with TIOCSWINSZ,
and a minimal, reproducible environment. The harness reads the master side until EOF and the
process exits, or kills the whole process group when the timeout expires.
"""

from __future__ import annotations

import datetime as _dt
import errno
import fcntl
import hashlib
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import tempfile
import termios
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

READ_CHUNK = 65536
# After the program exits, children it left behind may still hold the slave open; stop reading once
# the terminal has been quiet this long instead of waiting for their EOF.
QUIET_AFTER_EXIT = 0.2
VERSION_TIMEOUT = 10.0


@dataclass(frozen=True)
class Step:
    """One keystroke batch of a scripted session: wait until the output since the previous batch
    matches ``expect`` (a regular expression over bytes; ``None`` waits for ``settle`` of quiet only)
    and has been quiet for ``settle`` seconds, then type ``send``."""

    send: bytes
    expect: bytes | None = None
    settle: float = 0.3


@dataclass
class Capture:
    """What a program wrote to its terminal, and how it was run."""

    raw: bytes
    exit_code: int | None
    metadata: dict[str, Any] = field(default_factory=dict)
    timed_out: bool = False


def minimal_env(*, home: str, term: str, columns: int, lines: int) -> dict[str, str]:
    """The environment every capture starts from: nothing of the caller's but PATH."""
    return {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": home,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TERM": term,
        "COLUMNS": str(columns),
        "LINES": str(lines),
    }


def set_window_size(fd: int, columns: int, lines: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))


def _make_controlling_tty() -> None:
    # Runs in the child after setsid() (start_new_session=True) with the slave already on fd 0.
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def _read_available(master: int) -> bytes | None:
    """One read from the master; None at EOF (Linux reports a closed slave as EIO)."""
    try:
        data = os.read(master, READ_CHUNK)
    except OSError as exc:
        if exc.errno == errno.EIO:
            return None
        raise
    return data or None


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _pump(
    master: int, proc: subprocess.Popen[bytes], deadline: float, steps: Sequence[Step] = ()
) -> tuple[bytes, bool]:
    """Read the master until EOF (or quiet after exit) or the deadline, typing ``steps`` as their
    expectations are met; returns (bytes, timed_out)."""
    chunks: list[bytes] = []
    exited_at: float | None = None
    pending = list(steps)
    since = 0  # offset in the output where the current step's expectation is looked for
    last_data = time.monotonic()
    while True:
        now = time.monotonic()
        if now >= deadline:
            return b"".join(chunks), True
        if pending and now - last_data >= pending[0].settle:
            step = pending[0]
            output = b"".join(chunks)
            if step.expect is None or re.search(step.expect, output[since:]):
                os.write(master, step.send)
                pending.pop(0)
                since = len(output)
                last_data = now
        if exited_at is None and proc.poll() is not None:
            exited_at = now
        if exited_at is not None and now - exited_at >= QUIET_AFTER_EXIT:
            return b"".join(chunks), False
        ready, _, _ = select.select([master], [], [], min(0.05, deadline - now))
        if not ready:
            continue
        data = _read_available(master)
        if data is None:
            return b"".join(chunks), False
        chunks.append(data)
        last_data = time.monotonic()
        if exited_at is not None:
            exited_at = time.monotonic()


def program_version(version_argv: Sequence[str] | None, env: Mapping[str, str], cwd: str) -> str | None:
    """First non-empty line the version command prints, or None when it fails or cannot be run."""
    if not version_argv:
        return None
    try:
        done = subprocess.run(
            list(version_argv),
            env=dict(env),
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=VERSION_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    text = (done.stdout + done.stderr).decode("utf-8", errors="replace")
    return next((line.strip() for line in text.splitlines() if line.strip()), None)


def _run_in_pty(
    argv: Sequence[str],
    *,
    cwd: str,
    env: Mapping[str, str],
    columns: int,
    lines: int,
    timeout: float,
    steps: Sequence[Step] = (),
) -> tuple[bytes, int | None, bool]:
    master, slave = os.openpty()
    try:
        set_window_size(slave, columns, lines)
        proc = subprocess.Popen(
            list(argv),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=dict(env),
            start_new_session=True,
            preexec_fn=_make_controlling_tty,
            close_fds=True,
        )
        os.close(slave)
        slave = -1
        raw, timed_out = _pump(master, proc, time.monotonic() + timeout, steps)
        if timed_out:
            _kill_group(proc)
        try:
            exit_code: int | None = proc.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            exit_code = proc.wait()
        _kill_group(proc)  # whatever the program left running in its session
        return raw, exit_code, timed_out
    finally:
        if slave >= 0:
            os.close(slave)
        os.close(master)


def capture(
    argv: Sequence[str],
    *,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    columns: int = 120,
    lines: int = 40,
    term: str = "xterm-256color",
    timeout: float = 60.0,
    version_argv: Sequence[str] | None = None,
    steps: Sequence[Step] = (),
) -> Capture:
    """Run ``argv`` in a new pty and return its raw output, exit code and metadata.

    ``env`` is laid over :func:`minimal_env`; HOME is ``cwd`` (or a temporary directory removed
    afterwards) unless ``env`` sets it. The exit code is negative (``-signal``) when a signal ended the
    program, e.g. ``-9`` when the timeout killed it. ``version_argv`` defaults to ``[argv[0],
    "--version"]``; pass ``()`` to skip the version look-up. ``steps`` are typed into the terminal
    as the output meets their expectations (an interactive session); the metadata records them.
    """
    scratch = None if cwd is not None else tempfile.mkdtemp(prefix="fixtures_gen-")
    workdir = os.fspath(cwd) if cwd is not None else scratch
    assert workdir is not None
    try:
        full_env = minimal_env(home=workdir, term=term, columns=columns, lines=lines)
        full_env.update(env or {})
        started = _dt.datetime.now(_dt.timezone.utc)
        raw, exit_code, timed_out = _run_in_pty(
            argv, cwd=workdir, env=full_env, columns=columns, lines=lines, timeout=timeout, steps=steps
        )
        if version_argv is None:
            version_argv = [argv[0], "--version"]
        metadata: dict[str, Any] = {
            "argv": list(argv),
            "columns": columns,
            "lines": lines,
            "term": term,
            "env": dict(env or {}),
            "exit_code": exit_code,
            "program_version": program_version(version_argv, full_env, workdir),
            "sha256": hashlib.sha256(raw).hexdigest(),
            "captured": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
        }
        if steps:
            metadata["keys"] = [step.send.decode("utf-8", "backslashreplace") for step in steps]
        if timed_out:
            metadata["timed_out"] = True
        return Capture(raw=raw, exit_code=exit_code, metadata=metadata, timed_out=timed_out)
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
