"""Ask a real terminal: feed bytes to a private tmux server and read back what it shows.

Used by ``tests/test_oracle_tmux.py`` to check the oracle against tmux, and by the red team's judge
(``tests/tmux_judge.py``). Each server is private (its own socket in a temporary directory, its own
configuration, never the user's) and is always killed on exit, SIGTERM included. Several streams can
share one server: each gets a window of its own, sized before the bytes arrive, fed by ``cat``
through the pane's pty (so LF gets ``onlcr``, like LNM).
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .logview import without_bel_ended_strings

HISTORY_LIMIT = 5_000_000
MAX_COLUMNS = 10000  # tmux's largest window
#: How the judge shows text written for no terminal: tmux at its widest, so that no line shorter than
#: this wraps (a longer one does: a CR on it returns to its last wrapped row, not to its start).
NO_TERMINAL_COLUMNS = MAX_COLUMNS
SETTLE_SECONDS = 0.2  # after cat exits, for tmux to drain the pty before we capture
BATCH = 40  # windows open at once

# tmux's defaults, ``scroll-on-clear`` included (on since 3.3: a cleared screen goes into the
# history), which the oracle's tmux flavour models; no status line. Window sizes are set with
# ``resize-window`` (``set -g window-size manual`` crashes tmux 3.3a when no client is attached).
_CONFIG = f"""\
set -g history-limit {HISTORY_LIMIT}
set -g status off
set -g escape-time 0
set -gw automatic-rename off
set -gw allow-rename off
set -gw aggressive-resize off
"""


def available() -> bool:
    return shutil.which("tmux") is not None


def version() -> str:
    return subprocess.run(["tmux", "-V"], capture_output=True, text=True, check=True).stdout.strip()


@dataclass(frozen=True)
class Capture:
    """What tmux shows for one stream: history + screen, right-trimmed, trailing blank rows dropped."""

    lines: list[str]
    columns: int
    rows: int
    # ``show_many(held=True)`` on the alternate screen: the index in ``lines`` of the main screen's first
    # row (the history is before it, the alternate screen after the main screen); None otherwise
    held_from: int | None = None


class TmuxServer:
    """A private tmux server; use :func:`server` to get one that is always killed."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.socket = directory / "socket"
        config = directory / "tmux.conf"
        config.write_text(_CONFIG)
        self._windows = 0
        self._run("-f", str(config), "new-session", "-d", "-s", "oracle", "-x", "80", "-y", "24")

    def _run(self, *args: str) -> str:
        result = subprocess.run(["tmux", "-S", str(self.socket), *args], capture_output=True, timeout=300)
        if result.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)} failed: {result.stderr.decode(errors='replace').strip()}")
        return result.stdout.decode("utf-8", "replace")

    def show_many(self, streams: Sequence[tuple[bytes, int, int]], *, join_wrapped: bool = False,
                  held: bool = False) -> list[Capture]:
        """Feed each ``(data, columns, lines)`` to a window of its own; capture them all.
        ``join_wrapped``: rows tmux wrapped are joined into one line (``capture-pane -J``).
        ``held``: a stream that ends on the alternate screen also shows the main screen held under it
        (``capture-pane -a``), between the history and the alternate screen: what the terminal shows
        again when the alternate screen is left, as a program's exit does."""
        captures: list[Capture] = []
        for at in range(0, len(streams), BATCH):
            captures.extend(self._show_batch(streams[at : at + BATCH], join_wrapped, held))
        return captures

    def _show_batch(self, streams: Sequence[tuple[bytes, int, int]], join_wrapped: bool,
                    held: bool = False) -> list[Capture]:
        started = []
        for data, columns, lines in streams:
            self._windows += 1
            name = f"w{self._windows}"
            path = self.directory / f"{name}.raw"
            path.write_bytes(data)
            # The pane waits until its window has the right size before the bytes arrive.
            command = (
                f"tmux -S {self.socket} wait-for go-{name}; stty -echo; cat {path}; "
                f"sleep {SETTLE_SECONDS}; tmux -S {self.socket} wait-for -S {name}; exec sleep 100000"
            )
            target = f"oracle:{name}"
            self._run(
                "new-window", "-d", "-t", "oracle:", "-n", name, command, ";",
                "resize-window", "-t", target, "-x", str(min(columns, MAX_COLUMNS)), "-y", str(lines), ";",
                "wait-for", "-S", f"go-{name}",
            )  # fmt: skip
            started.append((name, path, columns, lines))
        captures = []
        for name, path, columns, lines in started:
            self._run("wait-for", name)
            if held:
                shown, held_from = self._held_capture(name, join_wrapped)
                captures.append(Capture(shown, columns, lines, held_from))
            else:
                captures.append(Capture(self._stable_capture(name, join_wrapped), columns, lines))
            self._run("kill-window", "-t", f"oracle:{name}")
            path.unlink()
        return captures

    def show(self, data: bytes, columns: int, lines: int) -> Capture:
        return self.show_many([(data, columns, lines)])[0]

    def show_no_terminal(self, data: bytes, lines: int = 24) -> Capture:
        """What a log viewer shows for ``data``, as tmux draws it: see :func:`no_terminal`."""
        return self.show_many([no_terminal(data, lines)], join_wrapped=True)[0]

    def _held_parts(self, target: str, join: tuple[str, ...]) -> tuple[str, str, str] | None:
        """On the alternate screen: the history, the main screen the alternate one hides, and the
        alternate screen, each as ``capture-pane -p`` prints it; None on the main screen."""
        alternate, history = self._run("display-message", "-p", "-t", target,
                                       "#{alternate_on} #{history_size}").split()
        if alternate != "1":
            return None
        before = self._run("capture-pane", "-p", *join, "-S", "-", "-E", "-1", "-t", target) if history != "0" else ""
        main = self._run("capture-pane", "-a", "-p", *join, "-S", "-", "-E", "-", "-t", target)
        shown = self._run("capture-pane", "-p", *join, "-S", "0", "-E", "-", "-t", target)
        return before, main, shown

    def _held_capture(self, name: str, join_wrapped: bool) -> tuple[list[str], int | None]:
        """:meth:`_stable_capture` with the main screen held under an alternate screen (``show_many``'s
        ``held``), and the index of its first row."""
        target = f"oracle:{name}"
        join = ("-J",) if join_wrapped else ()
        previous: tuple[str, str, str] | None = None
        for _ in range(20):
            parts = self._held_parts(target, join)
            if parts is None:
                return self._stable_capture(name, join_wrapped), None
            if parts == previous:
                break
            previous = parts
            time.sleep(0.05)
        before, main, shown = (_rows(part) for part in parts)
        return _trimmed(before + main + shown), len(before)

    def _stable_capture(self, name: str, join_wrapped: bool) -> list[str]:
        previous = None
        join = ("-J",) if join_wrapped else ()
        for _ in range(20):
            out = self._run("capture-pane", "-p", *join, "-S", "-", "-E", "-", "-t", f"oracle:{name}")
            if out == previous:
                break
            previous = out
            time.sleep(0.05)
        return _trimmed(_rows(out))


def _rows(out: str) -> list[str]:
    """``capture-pane -p``'s rows, right-trimmed (it ends each with a line end)."""
    lines = out.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline after the last row
    return [line.rstrip(" ") for line in lines]


def _trimmed(lines: list[str]) -> list[str]:
    """``lines`` without the blank rows at the end."""
    while lines and not lines[-1]:
        lines.pop()
    return lines


def no_terminal(data: bytes, lines: int = 24) -> tuple[bytes, int, int]:
    """The job (bytes, columns, lines) that shows ``data`` as text written for no terminal: the strings
    a log viewer ends at BEL removed (tmux would read DCS, SOS, PM and APC on to ST), in a window of
    :data:`NO_TERMINAL_COLUMNS` columns, where lines do not wrap."""
    return without_bel_ended_strings(data), NO_TERMINAL_COLUMNS, lines


def _terminate(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


@contextmanager
def server() -> Iterator[TmuxServer]:
    """A private tmux server in a temporary directory, killed on exit whatever happens (a SIGTERM to
    the main thread included)."""
    with tempfile.TemporaryDirectory(prefix="oracle-tmux-") as directory:
        socket = Path(directory) / "socket"
        main = threading.current_thread() is threading.main_thread()
        previous = signal.getsignal(signal.SIGTERM) if main else None
        if main:
            signal.signal(signal.SIGTERM, _terminate)
        try:
            yield TmuxServer(Path(directory))
        finally:
            if main:
                signal.signal(signal.SIGTERM, previous)
            if socket.exists():
                subprocess.run(["tmux", "-S", str(socket), "kill-server"], capture_output=True, timeout=30)
