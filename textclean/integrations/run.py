"""``textclean run [--pty | --one-stream] [--size WxH] [--raw FILE] [--min-tokens N] [--tokenizer ENC] CMD``.

Runs CMD, captures what it writes, and writes it back cleaned; exits with the command's status (128+N
when signal N ended it). Standard input passes through untouched.

* Without ``--pty`` stdout and stderr come through pipes: each is cleaned on its own, for no terminal
  (logical lines, no right margin), and written to textclean's own stdout and stderr **as it settles**
  (``textclean.Stream``, :mod:`textclean.integrations.follow`): a line goes out once it ends and nothing
  after it can change it, not when the command is done.
* With ``--one-stream`` stdout and stderr are one pipe: read in the order written, cleaned as one stream
  to stdout.
* With ``--tty-passthrough``, when textclean's own stdout is a terminal (an agent's interactive PTY),
  CMD runs on it directly (``exec``), uncaptured and uncleaned, as if textclean were not there.
* With ``--pty`` stdout and stderr are one new pseudo-terminal of ``--size`` (default: the caller's
  terminal size, else 80x24), so programs draw as they would for a person; the output is cleaned for a
  fresh terminal of that size and written to stdout **as it settles** (``textclean.Stream`` at that size:
  rows out of reach of what may follow, and pages ended by a homing clear; what the stream cannot
  settle goes out at the end). The pty does not add CR before LF (``onlcr`` off): the display model
  takes LF as CR LF anyway.
* SIGINT, SIGTERM and SIGHUP sent to textclean (an agent's time-out) go on to the command's process
  group; after :data:`GRACE_SECONDS` the group is killed, and what was captured is still written,
  cleaned where the gate adopts it, raw otherwise.
* ``--raw FILE`` receives the exact bytes as they arrive (both streams, in arrival order).
* :func:`capture` (the library's call, not the CLI's) spools each stream: in memory up to
  :data:`SPOOL_BYTES`, in a temporary file beyond (in memory still where none can be made: a sandbox with
  no writable directory, as Codex's read-only one); :func:`write_stream` copies a stream longer than
  the gate's ``max_chars`` in bytes out raw from the spool (the gate would refuse it unread).

Output without terminal noise is written as it came without importing the pipeline
(:func:`~textclean.pipeline.probe.bytes_have_terminal_noise`); the gate and the tokenizer load only
for output that holds some.
"""

from __future__ import annotations

import errno
import io
import os
import selectors
import signal
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, BinaryIO

from textclean.pipeline.probe import bytes_have_terminal_noise

if TYPE_CHECKING:
    from subprocess import Popen

    from textclean.integrations.follow import Follower

#: Bytes a stream keeps in memory before it is spooled to a temporary file.
SPOOL_BYTES = 16 * 1024 * 1024
#: Seconds between forwarding a signal to the command and killing its process group.
GRACE_SECONDS = 1.0
#: Seconds to keep reading after the command is gone (its output may still be in flight).
DRAIN_SECONDS = 0.5
FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_CHUNK = 65536


@dataclass(frozen=True)
class Options:
    """How the command's output is captured, cleaned and kept."""

    pty: bool = False
    one_stream: bool = False  # stdout and stderr into one pipe, in the order written, cleaned to stdout
    tty_passthrough: bool = False  # on a terminal, run the command on it directly, uncaptured
    size: tuple[int, int] | None = None  # (columns, rows) of the pty; None: the caller's, else 80x24
    raw_path: str | None = None
    min_tokens: int | None = None  # None: the gate's default
    tokenizer: str | None = None
    spool_bytes: int = SPOOL_BYTES


@dataclass
class Captured:
    """One stream's bytes, spooled, and the display it was written for."""

    spool: Spool
    columns: int | None = None
    rows: int | None = None
    fresh: bool = False

    @property
    def size(self) -> int:
        return self.spool.tell()


def caller_size() -> tuple[int, int]:
    """The caller's terminal size (stdin, stdout or stderr, the first that is one), else 80x24."""
    for fd in (0, 1, 2):
        try:
            size = os.get_terminal_size(fd)
        except OSError:
            continue
        if size.columns >= 2 and size.lines >= 2:
            return size.columns, size.lines
    return 80, 24


class _Signals:
    """Forwards the signals textclean receives to the command and remembers the first one."""

    def __init__(self) -> None:
        self.received: int | None = None
        self.deadline: float | None = None
        self._target: int | None = None
        self._group = False
        self._previous: dict[int, Any] = {}

    def install(self) -> None:
        for signum in FORWARDED:
            self._previous[signum] = signal.signal(signum, self._handle)

    def restore(self) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)

    def target(self, pid: int, group: bool) -> None:
        self._target, self._group = pid, group

    def _handle(self, signum: int, frame: object) -> None:
        if self.received is None:
            self.received = signum
            self.deadline = time.monotonic() + GRACE_SECONDS
        self.send(signum)

    def send(self, signum: int) -> None:
        if self._target is None or (signum == signal.SIGINT and not self._group):
            return  # sharing textclean's group, the command got the terminal's ^C itself
        try:
            if self._group:
                os.killpg(self._target, signum)
            else:
                os.kill(self._target, signum)
        except (ProcessLookupError, PermissionError):
            pass


class Spool:
    """Bytes written once, in memory up to ``limit``, then in a temporary file; in memory still when no
    temporary file can be made (the command's output is never lost to where it is kept)."""

    def __init__(self, limit: int) -> None:
        self._file: IO[bytes] = io.BytesIO()
        self._limit = limit
        self._rolled = False

    def write(self, data: bytes) -> None:
        self._file.write(data)
        if not self._rolled and self._file.tell() > self._limit:
            self._rolled = True  # tried once: a sandbox without a writable directory stays so
            try:
                disk = tempfile.TemporaryFile()
            except OSError:
                return
            memory = self._file
            assert isinstance(memory, io.BytesIO)
            disk.write(memory.getbuffer())
            self._file = disk

    @property
    def on_disk(self) -> bool:
        return not isinstance(self._file, io.BytesIO)

    def tell(self) -> int:
        return self._file.tell()

    def seek(self, offset: int) -> int:
        return self._file.seek(offset)

    def read(self, size: int = -1) -> bytes:
        return self._file.read(size)

    def close(self) -> None:
        self._file.close()


def _spool(options: Options) -> Spool:
    return Spool(options.spool_bytes)


def _spawn(argv: Sequence[str], options: Options, signals: _Signals) -> tuple[Popen[bytes], dict[int, Captured]]:
    """Start the command; its process and the fds to read, each with where its bytes go."""
    import subprocess

    if options.pty:
        return _spawn_pty(argv, options, signals)
    # One pipe for both outputs with --one-stream: the order lines were written in is the order read, as
    # in a terminal or an agent's shell tool that merges the two (Codex's).
    pipes = [os.pipe()] if options.one_stream else [os.pipe(), os.pipe()]
    writes = [write for _, write in pipes]
    # Its own process group, so a forwarded signal reaches a pipeline's every process; not when
    # standard input is a terminal, where a background group reading it would be stopped (SIGTTIN)
    # and the terminal's own ^C reaches the command already.
    own_group = not _isatty(0)
    try:
        process = subprocess.Popen(list(argv), stdout=writes[0], stderr=writes[-1],
                                   preexec_fn=os.setpgrp if own_group else None)
    except BaseException:
        for read, _ in pipes:
            os.close(read)
        raise
    finally:
        for write in writes:
            os.close(write)
    signals.target(process.pid, own_group)
    return process, {read: Captured(_spool(options)) for read, _ in pipes}


def _spawn_pty(argv: Sequence[str], options: Options, signals: _Signals) -> tuple[Popen[bytes], dict[int, Captured]]:
    import fcntl
    import pty
    import struct
    import subprocess
    import termios

    columns, rows = options.size or caller_size()
    master, slave = pty.openpty()
    try:
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        attrs = termios.tcgetattr(slave)
        attrs[1] &= ~termios.ONLCR
        termios.tcsetattr(slave, termios.TCSANOW, attrs)

        def controlling_terminal() -> None:  # in the child, after setsid: fd 1 is the pty
            fcntl.ioctl(1, termios.TIOCSCTTY, 0)

        process = subprocess.Popen(list(argv), stdout=slave, stderr=slave, start_new_session=True,
                                   preexec_fn=controlling_terminal)
    except BaseException:
        os.close(master)
        raise
    finally:
        os.close(slave)
    signals.target(process.pid, True)
    return process, {master: Captured(_spool(options), columns=columns, rows=rows, fresh=True)}


def _isatty(fd: int) -> bool:
    try:
        return os.isatty(fd)
    except OSError:
        return False


def _status(returncode: int) -> int:
    return 128 - returncode if returncode < 0 else returncode


def _wait_briefly(process: Popen[bytes]) -> None:
    import subprocess

    try:
        process.wait(timeout=0.05)
    except subprocess.TimeoutExpired:
        pass


def capture(argv: Sequence[str], options: Options, raw_file: BinaryIO | None = None) -> tuple[int, list[Captured]]:
    """Run ``argv`` to its end (or a forwarded signal's), spooling what it writes; its exit status and
    the captured streams (stdout then stderr; one stream with a pty)."""
    signals = _Signals()
    signals.install()
    try:
        process, streams = _spawn(argv, options, signals)
        captured = list(streams.values())
        status = _pump(process, streams, signals, raw_file)
    finally:
        signals.restore()
    return status, captured


def _pump(process: Popen[bytes], streams: dict[int, Captured], signals: _Signals,
          raw_file: BinaryIO | None, sinks: dict[int, Follower] | None = None) -> int:
    selector = selectors.DefaultSelector()
    for fd in streams:
        os.set_blocking(fd, False)
        selector.register(fd, selectors.EVENT_READ)
    drain_until: float | None = None
    killed = False
    try:
        while True:
            now = time.monotonic()
            if signals.deadline is not None and now >= signals.deadline:
                if process.poll() is None and not killed:
                    signals.send(signal.SIGKILL)
                    killed = True
                if drain_until is None:
                    drain_until = now + DRAIN_SECONDS
            exited = process.poll() is not None
            if drain_until is None and exited:
                # Whatever the command left running may hold its pipes or pty open (a server started
                # with `&`): read what is there, then stop, as a shell waiting for the command would.
                drain_until = now + DRAIN_SECONDS
            if not selector.get_map():
                if exited:
                    break
                # Its output is closed but the command runs on (coreutils close stdout before they
                # exit): wait with the fds still open, since closing a pty's master hangs up its
                # session, and a SIGHUP there would become the command's exit status.
                _wait_briefly(process)
                continue
            if drain_until is not None and now >= drain_until:
                break
            for key, _ in selector.select(timeout=0.05):
                fd = int(key.fd)
                try:
                    data = os.read(fd, _CHUNK)
                except BlockingIOError:
                    continue
                except OSError as exc:
                    if exc.errno != errno.EIO:  # EIO: the pty's other side is closed
                        raise
                    data = b""
                if not data:
                    selector.unregister(fd)
                    continue
                if raw_file is not None:
                    raw_file.write(data)
                if sinks is not None:
                    sinks[fd].write(data)  # written as it settles
                else:
                    streams[fd].spool.write(data)
    finally:
        selector.close()
        for fd in streams:
            os.close(fd)
    if process.poll() is None and signals.received is not None and not killed:
        signals.send(signal.SIGKILL)
    return _status(process.wait())


def clean_output(raw: bytes, stream: Captured, options: Options) -> bytes:
    """The bytes to write for one captured stream: cleaned when the gate adopts it, else ``raw``."""
    if not bytes_have_terminal_noise(raw):
        return raw
    from textclean.pipeline.gate import clean

    keywords: dict[str, Any] = {"columns": stream.columns, "rows": stream.rows, "fresh": stream.fresh,
                                "terminal": True if stream.fresh else None, "tokenizer": options.tokenizer}
    if options.min_tokens is not None:
        keywords["min_tokens"] = options.min_tokens
    return clean(raw, **keywords).text


def write_stream(stream: Captured, out: IO[bytes], options: Options) -> None:
    """Write one captured stream to ``out``: cleaned, raw when the gate would refuse it unread (longer
    than its ``max_chars``: copied from the spool a chunk at a time), raw on any error."""
    spool = stream.spool
    size = stream.size
    spool.seek(0)
    if size > options.spool_bytes:  # spooled to disk: only then is the gate's limit worth a look
        from textclean.pipeline.gate import DEFAULT_MAX_CHARS

        if size > DEFAULT_MAX_CHARS:  # bytes >= characters: more characters than the gate reads
            while chunk := spool.read(_CHUNK):
                out.write(chunk)
            return
    raw = spool.read()
    try:
        text = clean_output(raw, stream, options)
    except Exception as exc:  # the output is never lost to a cleaning error
        print(f"textclean run: output left as it was ({type(exc).__name__}: {exc})", file=sys.stderr)
        text = raw
    out.write(text)


def _exec_in_place(argv: Sequence[str]) -> int:
    """Become the command: it gets the terminal, streams to it and talks with it as if run directly (an
    agent's interactive PTY, whose reader wants the output as it comes). Returns only when it cannot."""
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execvp(argv[0], list(argv))
    except OSError as exc:
        return _cannot_run(argv, exc)


def _cannot_run(argv: Sequence[str], exc: OSError) -> int:
    """Say why the command did not start; the shell's status for it (127: not found, 126: not runnable)."""
    name = argv[0] if argv else ""
    print(f"textclean run: cannot run {name}: {exc.strerror or exc}", file=sys.stderr)
    return 127 if exc.errno == errno.ENOENT else 126


def run(argv: Sequence[str], options: Options) -> int:
    """Run ``argv`` and write its cleaned output; the exit status for textclean to return."""
    if options.tty_passthrough and _isatty(1):
        return _exec_in_place(argv)
    try:
        raw_file = open(options.raw_path, "wb") if options.raw_path else None  # noqa: SIM115
    except OSError as exc:
        print(f"textclean run: cannot write {options.raw_path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return _follow(argv, options, raw_file)


def _follow(argv: Sequence[str], options: Options, raw_file: BinaryIO | None) -> int:
    """Each stream written cleaned as it settles (``textclean.Stream``): through pipes for no terminal,
    through a pty for a fresh terminal of its size."""
    from textclean.integrations.follow import Follower, warm_up

    signals = _Signals()
    signals.install()
    sinks: dict[int, Follower] = {}
    cancel_warm_up = warm_up()
    try:
        try:
            process, streams = _spawn(argv, options, signals)
        except OSError as exc:
            return _cannot_run(argv, exc)
        outs = [sys.stdout.buffer, sys.stderr.buffer]
        sinks = {fd: Follower(_Quiet(out), min_tokens=options.min_tokens, tokenizer=options.tokenizer,
                              **_display(captured))
                 for (fd, captured), out in zip(streams.items(), outs, strict=False)}
        for stream in streams.values():
            stream.spool.close()  # nothing is spooled: each stream goes out as it settles
        status = _pump(process, streams, signals, raw_file, sinks)
    finally:
        cancel_warm_up()
        signals.restore()
        for sink in sinks.values():
            sink.close()
        if raw_file is not None:
            raw_file.close()
    return status


def _display(captured: Captured) -> dict[str, Any]:
    """The display keywords of a captured stream: a pty's size (a fresh terminal), else none (no terminal)."""
    if captured.columns is None:
        return {}
    return {"columns": captured.columns, "rows": captured.rows, "fresh": captured.fresh}


class _Quiet:
    """A binary output that stops writing, silently, once its reader is gone (``head``)."""

    def __init__(self, out: IO[bytes]) -> None:
        self._out: IO[bytes] | None = out

    def write(self, data: bytes) -> int:
        if self._out is not None:
            try:
                self._out.write(data)
            except BrokenPipeError:
                self._out = None
        return len(data)

    def flush(self) -> None:
        if self._out is not None:
            try:
                self._out.flush()
            except BrokenPipeError:
                self._out = None


def _size(value: str) -> tuple[int, int]:
    import argparse

    from textclean.pipeline.gate import MAX_SIZE, MIN_SIZE

    columns, sep, rows = value.lower().partition("x")
    if not (sep and columns.isdigit() and rows.isdigit()
            and MIN_SIZE <= int(columns) <= MAX_SIZE and MIN_SIZE <= int(rows) <= MAX_SIZE):
        raise argparse.ArgumentTypeError(
            f"expected COLUMNSxROWS such as 100x30, each from {MIN_SIZE} to {MAX_SIZE}, not {value!r}")
    return int(columns), int(rows)


def _non_negative(value: str) -> int:
    import argparse

    if not value.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, not {value!r}")
    return int(value)


def run_main(argv: Sequence[str]) -> int:
    """Entry point of ``textclean run``; ``argv`` excludes the subcommand name."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="textclean run",
        description=(
            "Run CMD and write its output cleaned (exit status: CMD's, 128+N when signal N ended it). "
            "Without --pty stdout and stderr are captured through pipes and each is cleaned to its own "
            "stream as it settles (a line once it ends); with --pty CMD draws on a new terminal, whose "
            "output is cleaned to stdout once CMD ends."
        ),
        epilog="Example: textclean run -- pytest -x; textclean run --pty --size 120x40 -- pip install .",
    )
    parser.add_argument("--pty", action="store_true",
                        help="run CMD in a new pseudo-terminal (progress bars and colours as a person sees them)")
    parser.add_argument("--one-stream", action="store_true",
                        help="CMD's stdout and stderr on one pipe, in the order written, cleaned as one to stdout")
    parser.add_argument("--tty-passthrough", action="store_true",
                        help="when stdout is a terminal, run CMD on it directly, uncaptured (an interactive session)")
    parser.add_argument("--size", type=_size, default=None, metavar="COLUMNSxROWS",
                        help="the pty's size (default: this terminal's size, else 80x24); implies --pty")
    parser.add_argument("--raw", metavar="FILE", help="also write the exact bytes CMD wrote to FILE")
    parser.add_argument("--min-tokens", type=_non_negative, default=None, metavar="N",
                        help="leave outputs of fewer tokens as they are (default: the gate's, 50)")
    parser.add_argument("--tokenizer", default=None, metavar="ENCODING",
                        help="encoding to count tokens in (default cl100k_base, offline)")
    parser.add_argument("command", nargs=argparse.REMAINDER, metavar="CMD [ARG...]",
                        help="the command and its arguments (after '--' when it starts with '-')")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given (textclean run [OPTIONS] -- CMD [ARG...])")
    options = Options(pty=args.pty or args.size is not None, one_stream=args.one_stream,
                      tty_passthrough=args.tty_passthrough, size=args.size,
                      raw_path=args.raw, min_tokens=args.min_tokens, tokenizer=args.tokenizer)
    return run(command, options)
