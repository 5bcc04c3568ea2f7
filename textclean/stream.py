"""``textclean.Stream``: clean output as it arrives, releasing each stretch once it is settled (issue 40).

For text written for **no terminal** (the default display: pipes, logs; logical lines, no wrap,
strings ended at BEL as a log viewer ends them) the stream is cut at *cut points*, line ends that the
cleaner's finder (``pipeline/clean/cut_finder.py``) and the verifier's own reading (``pipeline/verify/cut_check.py``)
both confirm: the state there is agreed and what follows cannot change the lines before (both read
rows redrawn only within themselves, a progress line's CR / EL frames, as written left to right where
their cells are what the cleaned text holds, so such a line goes out at its own line end). Each stretch
between two cut points goes through the gate on its own (clean, verify, strictly fewer tokens, else
the stretch exactly as it arrived). At a **terminal of a known size** (``columns`` and ``rows``, fresh
or not) both readings count rows at the width, reach back the screen's rows, and take a homing clear as
a cut point where it starts; a stretch after the first is cleaned as not fresh (rows written before it
are on the screen), one that starts at a homing clear keeps the clear in front of its cleaned text
(so the rows after it stand where the raw puts them; the first one too where the terminal is not
fresh: its rows written before the stream are the raw's until cleared), and a tail that starts at one can be cleaned
alone whatever follows (held to ``close()`` after a stop instead of going out raw). A terminal of
**unknown width** (``terminal=True`` alone) has no cut point: everything is held and released at
:meth:`Stream.close`, through the gate as one message (what :func:`textclean.clean` gives).

Where cut points stop: after a control that leaves state a later stretch would read (an absolute
position, a clear, a scroll region, a saved cursor, a mode, a malformed sequence...), cleaning a later
stretch on its own could misread it, so once anything was released the rest of the stream goes out
raw, as it arrives. Before any release the text is held and cleaned whole at ``close()``.

Memory: the stream holds only the unreleased tail, at most ``max_held`` characters (plus one chunk).
Past that bound with no cut point, the tail is released raw (exactly as it arrived) and the stream
stays raw up to the next cut point both sides confirm (none again once they stopped): raw bytes are
always lossless, and a stretch that does not start at a cut point is never cleaned alone.
"""

from __future__ import annotations

import codecs

from .pipeline import grammar
from .pipeline.clean import CutFinder
from .pipeline.gate import DEFAULT_MAX_CHARS, TextClean
from .pipeline.tokens import Tokenizer
from .pipeline.verify import CutCheck

__all__ = ["DEFAULT_MAX_HELD", "Stream"]

#: The unsettled tail a stream holds at most before it releases it raw (characters).
DEFAULT_MAX_HELD = 1 << 20


class Stream:
    """Clean a stream of output chunk by chunk: ``feed`` returns what became settled, ``close`` the rest.

    Chunks may be ``str`` or ``bytes`` and cut anywhere (inside a UTF-8 character, an escape sequence, a
    string). Bytes are decoded as :func:`textclean.clean` decodes them: invalid bytes travel as lone
    surrogates (``surrogateescape``); encode the released text with ``"utf-8", "surrogateescape"`` to
    get them back exactly. The display keywords are :func:`textclean.clean`'s; ``min_tokens`` (default
    0) applies to each stretch released, as to one message; ``max_held``: the bound on the held tail.
    """

    def __init__(
        self, *, columns: int | None = None, rows: int | None = None, terminal: bool | None = None,
        fresh: bool = False, min_tokens: int = 0, tokenizer: Tokenizer = None, max_held: int = DEFAULT_MAX_HELD,
    ) -> None:
        if max_held < 1:
            raise ValueError("max_held must be >= 1")
        self._gate = TextClean(min_tokens=min_tokens, tokenizer=tokenizer, columns=columns, rows=rows,
                               terminal=terminal, fresh=fresh, max_chars=max(DEFAULT_MAX_CHARS, max_held))
        shown = self._gate.display
        sized = shown.columns is not None and shown.rows is not None
        # cut points for no terminal, and at a terminal of a known size (an unknown width: held to close())
        self._cuts = not shown.terminal or sized
        size = {"columns": shown.columns, "rows": shown.rows} if shown.terminal and sized else {}
        self._finder = CutFinder(max_held, **size, in_place_rows=True)
        self._check = CutCheck(max_held, **size, in_place_rows=True)
        self._decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
        self._max_held = max_held
        self._held: list[str] = []  # the unreleased tail, in pieces
        self._held_chars = 0
        self._start = 0  # offset of the held tail in the whole text
        self._found: set[int] = set()  # cut points the cleaner's finder confirmed, not yet passed
        self._checked: set[int] = set()  # those the verifier's reading confirmed
        self._breaks: set[int] = set()  # cut points both readings give at a homing clear: a stretch starts there
        self._at_cut = True  # the held tail starts at a cut point (or the stream's start)
        self._released = False  # anything released yet
        self._raw = False  # everything from here on goes out raw, as it arrives
        self._closed = False

    def feed(self, chunk: str | bytes) -> str:
        """Take the next chunk; return the cleaned text of everything that became settled (maybe "")."""
        return self._take(self._decode(chunk, final=False))

    def close(self) -> str:
        """End the stream: return the rest, through the gate where it starts at a cut point."""
        if self._closed:
            return ""
        text = self._take(self._decode(b"", final=True))
        self._closed = True
        cleanable = not self._raw and self._at_cut and (not (self._released and self._stopped()) or self._at_break())
        tail = self._release(len(self._joined()))
        if not tail:
            return text
        if not cleanable:
            return text + tail
        return text + self._settle(tail)

    def abandon(self) -> str:
        """Everything fed and not yet released, exactly as it arrived (bytes cut inside a character as
        lone surrogates), and no cleaning from here on: what follows goes out as it is fed."""
        if self._closed:
            return ""
        rest = self._release(self._held_chars) + self._decoder.decode(b"", final=True)
        self._raw = True
        return rest

    def _decode(self, chunk: str | bytes, *, final: bool) -> str:
        if self._closed:
            raise ValueError("feed() after close()")
        if isinstance(chunk, str):
            return self._decoder.decode(b"", final=True) + chunk  # bytes left incomplete go first, as surrogates
        if isinstance(chunk, bytes | bytearray | memoryview):
            return self._decoder.decode(bytes(chunk), final=final)
        raise TypeError(f"feed() takes str or bytes, not {type(chunk).__name__}")

    def _stopped(self) -> bool:
        return self._finder.stopped is not None or self._check.ended is not None

    def _at_break(self) -> bool:
        """The held tail starts at a homing clear both readings gave as a cut point: whatever follows, it can
        be cleaned alone (its screen starts cleared, and nothing before it left state), so it is held."""
        return self._at_cut and self._start in self._breaks

    def _joined(self) -> str:
        if len(self._held) > 1:
            self._held[:] = ["".join(self._held)]
        return self._held[0] if self._held else ""

    def _release(self, count: int) -> str:
        """The first ``count`` held characters, taken off the tail."""
        held = self._joined()
        out, rest = held[:count], held[count:]
        self._held[:] = [rest] if rest else []
        self._held_chars = len(rest)
        self._start += count
        return out

    def _take(self, text: str) -> str:
        if self._raw:
            self._start += len(text)
            self._released = self._released or bool(text)
            return text
        if text:
            self._held.append(text)
            self._held_chars += len(text)
        out = []
        if self._cuts and text:
            try:
                self._found.update(self._finder.feed(text))
                self._checked.update(self._check.feed(text))
                self._breaks.update(set(self._finder.page_breaks) & set(self._check.clears))
                self._finder.page_breaks.clear()
                self._check.clears.clear()
            except Exception:  # a reading that fails finds no cut point: the tail stays as it came
                self._found, self._checked = set(), set()
                self._cuts = False
                self._at_cut = self._at_cut and not self._released
            # only offsets past what went out: a cut confirmed late (24 rows on) may lie in a raw release
            common = {offset for offset in self._found & self._checked if offset > self._start}
            if common and not self._at_cut:
                # the tail went out raw past the bound: raw up to the first cut point, cleaned from there
                first = min(common)
                out.append(self._release(first - self._start))
                self._at_cut = True
                common = {offset for offset in common if offset > first}
            if common:
                # up to the last cut point, in stretches that start at each page break on the way
                for cut in sorted({offset for offset in self._breaks if offset in common} | {max(common)}):
                    out.append(self._settle(self._release(cut - self._start)))
            self._breaks = {offset for offset in self._breaks if offset >= self._start}
            self._found = {offset for offset in self._found if offset > self._start}
            self._checked = {offset for offset in self._checked if offset > self._start}
            if self._released and self._stopped() and not self._at_break():
                # no cut point again, and the tail cannot be cleaned alone after what went out: raw from here
                out.append(self._release(self._held_chars))
                self._raw = True
        if self._held_chars > self._max_held:
            out.append(self._release(self._held_chars))
            self._at_cut = False
            if self._stopped() or not self._cuts:
                self._raw = True
        if out:
            self._released = True
        return "".join(out)

    def _settle(self, stretch: str) -> str:
        """A stretch between cut points through the gate: cleaned, or exactly as it arrived."""
        try:
            if self._start == len(stretch):  # the first stretch
                result = self._gate.clean(stretch)
            else:
                # a later one starts under rows already written: at a terminal it is cleaned as one that met
                # a terminal in use (a move above its first row is unresolvable, not a fresh top)
                result = self._gate.clean(stretch, fresh=False)
        except Exception:  # a failing gate (a tokenizer's error) leaves the stretch as it arrived
            return stretch
        if not result.applied:
            return stretch
        at = self._start - len(stretch)
        # at the stream's start too where the terminal is in use: its rows above are the raw's until cleared
        kept = at in self._breaks and (at > 0 or not self._gate.display.fresh)
        # a homing clear where the stretch starts (a cut point both readings give there): the cleaned stretch
        # keeps it in front, so the rows after it stand where the raw puts them (a later raw stretch may
        # address them)
        clear = grammar.HOMING_CLEAR.match(stretch) if kept else None
        if clear is not None and not result.text.startswith(clear.group()):
            return clear.group() + result.text
        return result.text
