"""Cleaned output written as it settles: a :class:`~textclean.Stream` in front of a binary file
(``textclean --follow``, and ``textclean run`` through pipes).

Lines without terminal noise are written as they end, before the pipeline is even imported: after
such lines the cursor stands at the start of a new row and nothing they did lasts (no escape, no
redraw, no control but LF, TAB, BEL and CR LF), which makes the end of the last one a cut point where
the stream starts. Output with no noise at all is never decoded."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from textclean.pipeline.probe import bytes_have_terminal_noise

if TYPE_CHECKING:
    from textclean.pipeline.tokens import Tokenizer
    from textclean.stream import Stream

# C0 controls the probe does not call noise but a terminal acts on (SO / SI, VT, FF, NUL...): a line
# holding one is not written ahead of the stream.
_OTHER_CONTROL = re.compile(rb"[\x00-\x06\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]")


def warm_up(*, after: float = 0.1) -> Callable[[], None]:
    """Import the pipeline in a daemon thread once ``after`` seconds have passed; returns the call that
    cancels it. ``textclean run``: a command still running by then may print noise, and importing the
    pipeline when it does held its first noisy lines back by the import (0.5-1.5 s on a loaded
    machine); a quick command ends before and pays nothing. The tokenizer is not loaded here: its load
    holds the GIL (~0.2 s), which would hold back the plain lines written meanwhile."""
    timer = threading.Timer(after, _warm)
    timer.daemon = True
    timer.start()
    return timer.cancel


def _warm() -> None:
    try:
        import textclean.stream  # noqa: F401
    except Exception:  # only a head start: the same import fails again, handled, where the Follower needs it
        pass


class Output(Protocol):
    """Where a follower writes: a binary file's ``write`` and ``flush``."""

    def write(self, data: bytes, /) -> int: ...
    def flush(self) -> None: ...


class Follower:
    """Feed it bytes as they arrive (:meth:`write`), then :meth:`close`; it writes and flushes to ``out``
    what became settled.

    ``min_tokens`` (None: the gate's default): as for one message, noisy output of fewer tokens in all
    comes back exactly as it came: the stream's releases are held until the bytes it read reach that
    many tokens, then each is written at once (each stretch goes through the gate with no minimum of
    its own). The display keywords are :func:`textclean.clean`'s."""

    def __init__(self, out: Output, *, min_tokens: int | None = 0, tokenizer: Tokenizer = None,
                 **display: Any) -> None:
        self._out = out
        self._min_tokens = min_tokens
        self._tokenizer = tokenizer
        self._display = display
        self._line = b""  # the line not ended yet, while no noise came
        self._stream: Stream | None = None
        self._raw: list[bytes] | None = None  # what the stream read, while below min_tokens
        self._held: list[str] = []  # its releases meanwhile
        self._broken = False  # a cleaning error: everything from then on written as it comes
        self._wrote_ahead = False  # lines went out before the stream started: its screen is not blank

    def write(self, data: bytes) -> None:
        try:
            self._write(data)
        except Exception as exc:  # the output is never lost to a cleaning error: the rest as it came
            self._give_up(exc, data)

    def _give_up(self, exc: Exception, data: bytes) -> None:
        import sys

        print(f"textclean: output left as it was from here ({type(exc).__name__}: {exc})", file=sys.stderr)
        if self._stream is None:
            self._put(self._line + data)
            self._line = b""
        else:
            if self._raw is not None:  # nothing written of it yet: all of it, as it came
                rest, self._raw = b"".join(self._raw), None
            else:
                rest = self._stream.abandon().encode("utf-8", "surrogateescape")
            self._put(rest)
        self._broken = True

    def _write(self, data: bytes) -> None:
        if self._broken:
            self._put(data)
            return
        if self._stream is None:
            whole = self._line + data
            if not bytes_have_terminal_noise(whole) and _OTHER_CONTROL.search(whole) is None:
                end = whole.rfind(b"\n") + 1
                self._line = whole[end:]
                self._put(whole[:end])
                self._wrote_ahead = self._wrote_ahead or end > 0
                return
            self._start()
            data, self._line = whole, b""
        self._feed(data)

    def close(self) -> None:
        try:
            self._close()
        except Exception as exc:
            self._give_up(exc, b"")

    def _close(self) -> None:
        if self._broken:
            return
        if self._stream is None:
            self._put(self._line)
            self._line = b""
            return
        rest = self._stream.close()
        if self._raw is not None:  # fewer than min_tokens in all: exactly as it came
            self._put(b"".join(self._raw))
            self._raw = None
            return
        self._put(rest.encode("utf-8", "surrogateescape"))

    def _start(self) -> None:
        from textclean.stream import Stream

        if self._min_tokens is None:
            from textclean.pipeline.gate import DEFAULT_MIN_TOKENS

            self._min_tokens = DEFAULT_MIN_TOKENS
        display = dict(self._display)
        if self._wrote_ahead:
            display["fresh"] = False  # the rows written ahead are on the screen: a move up may reach them
        stream = Stream(tokenizer=self._tokenizer, **display)
        self._raw = [] if self._min_tokens > 0 else None
        self._stream = stream  # last: until here an error leaves the bytes with the line

    def _feed(self, data: bytes) -> None:
        assert self._stream is not None
        if self._raw is not None:
            self._raw.append(data)  # first: an error below still has every byte
        released = self._stream.feed(data)
        if self._raw is not None:
            from textclean.pipeline.tokens import token_counter

            self._held.append(released)
            seen = b"".join(self._raw).decode("utf-8", "surrogateescape")
            if token_counter(self._tokenizer)(seen) < (self._min_tokens or 0):
                return
            released, self._raw, self._held = "".join(self._held), None, []
        self._put(released.encode("utf-8", "surrogateescape"))

    def _put(self, data: bytes) -> None:
        if data:
            self._out.write(data)
            self._out.flush()
