"""The fast cleaner: one regex pass for the common case, the row model where lines are redrawn.

:func:`candidate` proposes a cleaned text and says what it removed; it never decides whether the
proposal is adopted (that is the gate's job, after the independent verifier has checked it).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple, NoReturn

from .. import grammar
from ..model import MIN_COLUMNS, SCREEN_LINES
from ..probe import REDRAWING_CR, c1_control_offset
from ..result import MALFORMED_ESCAPE, UNSUPPORTED_CONTROL, Removed
from . import assemble, breaks, dispatch, feed, swallow, walk
from .assemble import Segment as Segment  # (the API: a candidate's pages)
from .cut_finder import CutFinder as CutFinder  # (the API: where a stream may be cut)
from .line import (
    INERT_MARK,
    NOT_TEXT,
    ONE_CELL_TEXT,
    PENDING_ZWJ,
    LineModel,
    Stripped,
    Unresolved,
)
from .string_path import overlay_line, without_inert

# SGR with plain parameters: what most of a coloured text's sequences are (one literal-prefix pattern).
_SGR_ONLY = grammar.SGR_ONLY
# After the inert sequences are gone, anything here means some line is redrawn or out of scope:
# ESC, C0 controls other than HT and LF, DEL, and a CR that is neither part of a line ending nor last.
# Two patterns, because `re` scans for a lone character class far faster than for an alternation.
_RESIDUAL_CONTROL_CHAR = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# The same class as bytes to delete around it: on a long text, deleting every other byte of its UTF-8 is
# ~20x faster than the regex scan (which is faster where a control comes early in a short text).
_NOT_RESIDUAL_BYTES = bytes(b for b in range(256) if _RESIDUAL_CONTROL_CHAR.match(chr(b)) is None)
_SCAN_AS_BYTES = 4096
_ENCODE_SLICE = 1 << 16
# A CR followed by a character no substitution removes (sequences start with ESC; C1 is refused), or
# by EL 2 (which no substitution removes): the whole-text substitution would leave a redraw.
_CR_BEFORE_TEXT = grammar.CR_BEFORE_TEXT
_AUTOWRAP_OFF = grammar.AUTOWRAP_OFF
_TOKEN = grammar.SEQUENCE_OR_CONTROL  # the slow path's tokens within one line
_CR_REDRAWS = grammar.CR_REDRAWS
# The token path's steps (_feed_runs): a run of text and inert sequences between two other tokens
# (group 1), a run of backspaces (group 2), or one other token. Text excludes C1 (a C1 text goes
# token by token): then every character of a line is in exactly one match.
_RUN = re.compile(
    rf"((?:[^\x00-\x1f\x7f-\x9f]+|{grammar.INERT_SEQUENCE.pattern})+)|(\x08+)|{_TOKEN.pattern}"
)
_SWALLOWING_STRING = swallow.SWALLOWING_STRING


class Refused(Exception):
    """The cleaner does not resolve this input; ``reason`` is a gate reason, ``detail`` says where."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


class TerminalsDisagree(Refused):
    """A redraw that depends on what terminals disagree on (a string's end, a parameter's range): no
    model may resolve it, the page model included."""


@dataclass(frozen=True)
class Candidate:
    text: str
    removed: Removed
    #: For a text resolved page by page (sessions): one segment per page, cleaned or kept.
    segments: tuple[Segment, ...] | None = None

    @property
    def pages_kept(self) -> int:
        return 0 if self.segments is None else sum(s.text is None for s in self.segments)

    @property
    def pages_cleaned(self) -> int:
        return 0 if self.segments is None else sum(s.text is not None for s in self.segments)


def _past_min_columns(text: str, start: int) -> bool:
    """Whether the line at ``start`` or one after it may take more than :data:`MIN_COLUMNS` cells (escapes removed;
    a non-ASCII character counted as two)."""
    start = max(text.rfind("\n", 0, start), text.rfind("\r", 0, start)) + 1  # the row it is on
    for line in re.split("[\r\n]", text[start:]):
        if len(line) > MIN_COLUMNS // 2:
            shown = grammar.ESCAPE_SEQUENCE.sub("", line)
            if len(shown) > MIN_COLUMNS or (len(shown) > MIN_COLUMNS // 2 and not shown.isascii()):
                return True
    return False


def _append_only(columns: int | None) -> re.Pattern[str]:
    """What appending leaves inert: EL 0 too, unless the width is known (then EL at the pending-wrap
    column decides where the next character goes, and tmux and xterm differ: the models decide)."""
    return grammar.APPEND_ONLY_INERT if columns is None else grammar.INERT_SEQUENCE


def _has_residual_control(text: str) -> bool:
    if len(text) < _SCAN_AS_BYTES:
        if _RESIDUAL_CONTROL_CHAR.search(text) is not None:
            return True
    elif text.isascii():
        if text.encode("ascii").translate(None, _NOT_RESIDUAL_BYTES):
            return True  # a byte of _RESIDUAL_CONTROL_CHAR (every other byte deleted)
    else:
        # a slice at a time: the encoder reserves up to 4 bytes per character of what it encodes
        for start in range(0, len(text), _ENCODE_SLICE):
            data = text[start : start + _ENCODE_SLICE].encode("utf-8", "surrogatepass")
            if data.translate(None, _NOT_RESIDUAL_BYTES):
                return True  # as above (UTF-8 has no byte of the class inside a character)
    return "\r" in text and REDRAWING_CR.search(text) is not None


# The whole-text substitution is tried on a long text's first lines first: where they keep a control,
# so does the whole (no sequence holds an LF, so the prefix's substitution is the whole's prefix).
_PREFIX_CHARS = 1 << 12


def _prefix_has_residual_control(text: str, inert: re.Pattern[str]) -> bool:
    cut = text.find("\n", _PREFIX_CHARS) if len(text) > 4 * _PREFIX_CHARS else -1
    return cut >= 0 and _has_residual_control(without_inert(inert, text[: cut + 1])[0])


def strip_escapes_only(text: str) -> str:
    """Every complete escape sequence removed and nothing else (what stripping alone would give)."""
    return grammar.ESCAPE_SEQUENCE.sub("", text)


def candidate(text: str, *, columns: int | None = None, rows: int | None = None, terminal: bool = True,
              fresh: bool = False, keep: Collection[int] | None = None) -> Candidate:
    """Propose the cleaned text, or raise :class:`Refused`.

    ``columns`` / ``rows``: the terminal's size where known (None: at least 80 x 24, no wrapping).
    ``terminal=False``: no terminal (logical lines, no right margin); ``fresh``: a new terminal.
    ``keep``: the text is resolved page by page (no other path tried), the pages of these indices kept
    as their raw bytes whatever the model says (the gate's second try, on the verifier's word).
    """
    c1 = c1_control_offset(text)
    if c1 is not None:
        raise Refused(
            UNSUPPORTED_CONTROL,
            f"C1 control U+{ord(text[c1]):04X} at offset {c1} (terminals disagree on C1 in UTF-8)",
        )
    if not terminal:
        columns = rows = None
        fresh = False
    autowrap_off = _AUTOWRAP_OFF.search(text) if "\x1b" in text and terminal else None
    if autowrap_off is not None and columns is None and _past_min_columns(text, autowrap_off.start()):
        # an unknown width is at least 80 columns: with autowrap off, an 80-column terminal writes
        # everything past its margin over the last column
        raise Refused(UNSUPPORTED_CONTROL, f"DECAWM off (autowrap) at offset {autowrap_off.start()}, then a row "
                      f"that may pass column {MIN_COLUMNS} of a screen of unknown width")
    if columns is not None and autowrap_off is not None:
        # DECAWM off matters where the width is known: past the margin a terminal overwrites the last
        # column. The screen model refuses it (the inert table drops it where no width is assumed).
        raise Refused(UNSUPPORTED_CONTROL, f"DECAWM off (autowrap) on a screen of {columns} columns")
    swallowing = _SWALLOWING_STRING.search(text) if "\x1b" in text else None
    if swallowing is not None:
        swallowed = swallow.joined_by_swallowing(text)
        if swallowed is None and terminal:
            swallowed = swallow.swallowed_text(text)
        if swallowed is not None:
            raise TerminalsDisagree(UNSUPPORTED_CONTROL, swallowed)
    # With a backspace or a CR before text, the whole-text substitution would leave that control: skip it.
    if keep is None and "\b" not in text and ("\r" not in text or _CR_BEFORE_TEXT.search(text) is None) and (
            not _prefix_has_residual_control(text, _append_only(columns))):
        stripped, count = without_inert(_append_only(columns), text)
        if not _has_residual_control(stripped):  # nothing is redrawn: wrapping changes no line
            return Candidate(stripped, Removed(escape_sequences=count, escape_chars=len(text) - len(stripped)))
        del stripped  # not kept alive beside the row model
    pending = PENDING_ZWJ.search(text) if "\u200d" in text else None
    if pending is not None:
        # a redraw may erase or move the joiner's row; tmux still shows the joiner before the next
        # non-ASCII character, which a candidate without it (or with it elsewhere) does not
        raise Refused(UNSUPPORTED_CONTROL, f"zero-width joiner at offset {pending.start()} followed by "
                      f"an ASCII character, then a redraw (tmux shows it again at offset {pending.end() - 1})")
    if keep is not None:
        return _resolve_kept(text, columns, rows, keep, terminal=terminal, fresh=fresh)
    if swallowing is None and breaks.has_break(text) and _row_model_refuses(text):
        try:
            return _resolve_pages(text, columns, rows, None, terminal=terminal, fresh=fresh)
        except _RowRefusalNeeded:
            pass  # no page cleaned: the row model's own refusal is the answer, as below
    try:
        return _resolve_redraws(text, columns, rows, checked=True, swallowing=swallowing, terminal=terminal)
    except Refused as refusal:
        if ("\x1b" not in text and columns is None and not fresh) or isinstance(refusal, TerminalsDisagree):
            raise
        return _resolve_pages(text, columns, rows, refusal, terminal=terminal, fresh=fresh)


class _RowRefusalNeeded(Exception):
    """The page models cleaned no page: the row model's refusal stands (it was not run)."""


def _row_model_refuses(text: str) -> bool:
    """Whether the row model refuses ``text`` (a text with ESC and no swallowing string), and never as
    :class:`TerminalsDisagree`: ED or CUP / HVP home after the first LF (the screen is no longer
    untouched, and it resolves neither), with no CSI before it long enough to have a disputed
    parameter. Then the page models take the text without the row model's pass."""
    first_line_end = text.find("\n")
    if first_line_end < 0:
        return False
    clear = next((m.start() for m in grammar.BREAK_CANDIDATE.finditer(text, first_line_end)
                  if grammar.clears_or_homes(grammar.parse(m.group()))), None)
    return clear is not None and grammar.LONG_CSI.search(text, 0, clear) is None


def _resolve_pages(text: str, columns: int | None, rows: int | None, refusal: Refused | None, *,
                   terminal: bool = True, fresh: bool = False) -> Candidate:
    """The screen model, page by page (:mod:`walk`); the row model's refusal stands when no page
    gets cleaned (None: not known yet, :class:`_RowRefusalNeeded` is raised instead)."""
    try:
        segments = walk.resolve(text, columns=columns, rows=rows, terminal=terminal, fresh=fresh)
    except assemble.WholeRefusal as whole:
        if len(whole.segments) == 1 or all(s.text is None for s in whole.segments):
            if refusal is None:
                raise _RowRefusalNeeded from None
            raise refusal from None
        raise Refused(whole.reason, whole.detail) from None
    if refusal is None and not any(s.text is not None and s.text for s in segments):
        raise _RowRefusalNeeded
    return from_segments(text, segments, refusal)


def _resolve_kept(text: str, columns: int | None, rows: int | None, keep: Collection[int], *,
                  terminal: bool, fresh: bool) -> Candidate:
    """Page by page with the pages in ``keep`` kept raw; a whole refusal is a :class:`Refused`."""
    try:
        segments = walk.resolve(text, columns=columns, rows=rows, keep=keep, terminal=terminal, fresh=fresh)
    except assemble.WholeRefusal as whole:
        raise Refused(whole.reason, whole.detail) from None
    return from_segments(text, segments)


def joined(text: str, segments: Sequence[Segment]) -> str:
    """The candidate's text from ``segments``, pages of ``text`` in order: cleaned pages as their text,
    kept pages as their raw bytes (the gate checks a prefix of a candidate with it)."""
    return assemble.assemble(text, list(segments))


def from_segments(text: str, segments: list[Segment], refusal: Refused | None = None) -> Candidate:
    """A candidate from per-page segments; :class:`Refused` when none is cleaned."""
    if not any(s.text is not None and s.text for s in segments):
        first = next((s for s in segments if s.text is None), None)
        if refusal is not None:
            raise refusal
        raise Refused(UNSUPPORTED_CONTROL, (first.why if first is not None else None) or "no page to clean")
    sequences = sequence_chars = 0
    redraws = [0] * 6
    for segment in segments:  # (one loop: a session of small pages has a segment a page)
        if segment.text is not None:
            sequences += segment.sequences
            sequence_chars += segment.sequence_chars
            for kind, count in enumerate(segment.redraws):
                redraws[kind] += count
    removed = Removed(sequences, sequence_chars, *redraws)
    return Candidate(assemble.assemble(text, segments), removed, tuple(segments))


def _resolve_redraws(text: str, columns: int | None = None, rows: int | None = None, *,
                     fast: bool = True, checked: bool = False, swallowing: re.Match[str] | None = None,
                     terminal: bool = True) -> Candidate:
    """Feed the text to the row model line by line; a line written once, left to right, onto a fresh
    row takes the one-regex path (with ``fast``, a block of such lines one substitution), a fresh row
    redrawn by CR, EL and backspaces the string path, any other line is fed a run at a time
    (:func:`_feed_runs`). ``fast=False``: every line the one-regex path does not take is fed one token
    at a time (the reference the fast paths are tested against)."""
    model = LineModel(len(text), screen_lines=rows or SCREEN_LINES, columns=columns, terminal=terminal)
    runs = fast and (checked or c1_control_offset(text) is None)  # C1: token by token
    tally = Stripped()
    offset = 0
    if not checked:  # candidate() has looked for C1 and for a swallowing string (``swallowing``)
        swallowing = _SWALLOWING_STRING.search(text)
    swallowed_from = len(text) if swallowing is None else swallowing.start()
    # blocks pay where there are lines to batch (a short text is cheaper line by line)
    blocks = _Blocks(text, _append_only(columns)) if fast and text.count("\n") >= _BLOCK_LINES else None
    try:
        while True:
            if blocks is not None and model.at_fresh_row():
                batch: list[tuple[str, str]] = []  # lines of one-cell characters short of any margin
                for line_start, shown, ending, sequences, removed in blocks.lines(offset):
                    tally.sequences += sequences
                    tally.chars += removed
                    if (shown.isascii() or ONE_CELL_TEXT.fullmatch(shown)) and len(shown) < (columns or len(shown) + 1):
                        batch.append((shown, ending))
                        continue
                    model.append_lines(batch)
                    batch = []
                    offset = line_start  # for a refusal's detail
                    model.write(shown)
                    model.line_feed(ending)
                if batch:
                    model.append_lines(batch)
                offset = blocks.stopped
            end = text.find("\n", offset)
            more = end >= 0
            piece = text[offset:end] if more else text[offset:]
            body = piece.rstrip("\r")
            ending = piece[len(body) :] + ("\n" if more else "")
            fresh = model.at_fresh_row()
            # EL 2 is never removed: the substitution would leave it (fast or not, the same outcome)
            if fresh and "\b" not in body and ("\r" not in body or _CR_REDRAWS.search(body) is None) and (
                    not fast or "\x1b[2K" not in body):
                stripped, count = without_inert(_append_only(columns), body)
                if not _has_residual_control(stripped):
                    tally.sequences += count
                    tally.chars += len(body) - len(stripped)
                    model.write(stripped)
                    body = ""
            if body:
                if offset + len(piece) > swallowed_from:
                    assert swallowing is not None  # swallowed_from is inside the text only after one
                    raise TerminalsDisagree(
                        UNSUPPORTED_CONTROL,
                        f"redraw after {grammar.describe(grammar.parse(swallowing.group()))} at offset "
                        f"{swallowed_from}, a string tmux does not end there (it swallows what follows)",
                    )
                if not (fast and fresh and overlay_line(model, body, tally)):
                    (_feed_runs if runs else _feed_tokens)(model, body, offset, tally)
            if not more:
                if ending:
                    model.end_of_text(ending)
                break
            model.line_feed(ending)
            offset = end + 1
    except Unresolved as exc:
        raise Refused(UNSUPPORTED_CONTROL, f"{exc} (in the line at offset {offset})") from None
    return Candidate(model.render(), _account(model, tally.sequences, tally.chars))


_BLOCK_LINES = 16
_CHUNK_CHARS = 1 << 16


class _Blocks:
    """Runs of whole lines each written once onto a fresh row (the one-regex path, line by line),
    substituted in one pass: up to the next line that holds a backspace, a CR before text or EL 2.
    A line whose stripped text still holds a control ends what :meth:`lines` gives; the lines after
    it are given from the same pass when asked (at a fresh row). Each character is substituted here
    at most once (``next_try``: where a block may begin that no pass has covered)."""

    def __init__(self, text: str, inert: re.Pattern[str]) -> None:
        self.text, self.inert = text, inert
        self.next_try = 0
        self.stopped = 0
        # the next backspace, EL 2 and CR before text at or after where each was last looked for
        self.found = [-1, -1, -1]
        self.starts: dict[int, int] = {}  # a line's offset: its index in the pass below
        self.lines_raw: list[str] = []
        self.lines_marked: list[str] = []
        self.pass_end = -1  # the LF that ends the last pass's lines
        self.chunk_end = 0  # where the lines substituted so far end (past their LF)

    def _trouble(self, start: int) -> int:
        """Where the next line that is no block's begins its trouble (each search moves forward only)."""
        text, found = self.text, self.found
        for index, needle in enumerate(("\b", "\x1b[2K")):
            if found[index] < start:
                at = text.find(needle, start)
                found[index] = len(text) if at < 0 else at
        if found[2] < start:
            cr = _CR_REDRAWS.search(text, start) if "\r" in text else None
            found[2] = len(text) if cr is None else cr.start()
        return min(found)

    def _pass(self, start: int) -> None:
        text = self.text
        last = text.rfind("\n", start, self._trouble(start))
        self.next_try = max(last + 1, start + 1)
        self.starts = {}
        self.pass_end = -1  # nothing of this pass to substitute
        if last < start or text.find(INERT_MARK, start, last) >= 0:
            return
        self.pass_end = last
        self._chunk(start)

    def _chunk(self, start: int) -> None:
        """Substitute the pass's lines from ``start`` (a line's start) a chunk at a time: a row model
        that refuses early has not paid for the whole text (the lines are the same: no sequence holds
        an LF)."""
        text, last = self.text, self.pass_end
        if last - start > _CHUNK_CHARS:
            cut = text.find("\n", start + _CHUNK_CHARS, last)
            if cut >= 0:
                last = cut
        self.lines_raw = text[start:last].split("\n")
        self.lines_marked = without_inert(self.inert, text[start:last], INERT_MARK)[0].split("\n")
        self.chunk_end = last + 1
        self.starts = {}
        at = start
        for index, line in enumerate(self.lines_raw):
            self.starts[at] = index
            at += len(line) + 1

    def lines(self, start: int) -> Iterator[tuple[int, str, str, int, int]]:
        """From ``start`` (a line's start, at a fresh row): each line's offset, stripped text, line
        ending, sequences and characters removed; then ``stopped`` is where the next line starts."""
        self.stopped = start
        while True:
            first = self.starts.get(start)
            if first is None:
                if start >= self.next_try:
                    self._pass(start)
                elif self.chunk_end <= start <= self.pass_end:
                    self._chunk(start)
                else:
                    return
                first = self.starts.get(start)
                if first is None:
                    return
            at = start
            raw, marked = self.lines_raw, self.lines_marked
            for index in range(first, len(raw)):
                line, shown = raw[index], marked[index]
                sequences = shown.count(INERT_MARK)
                if sequences:
                    shown = shown.replace(INERT_MARK, "")
                body = len(line.rstrip("\r"))
                if body < len(line):
                    shown = shown[: len(shown) - (len(line) - body)]  # the CRs that end the line, not its text
                if _has_residual_control(shown):
                    return
                yield at, shown, line[body:] + "\n", sequences, body - len(shown)
                at += len(line) + 1
                self.stopped = at
            if self.chunk_end > self.pass_end:
                return
            start = at  # the pass's next chunk


def _feed_tokens(model: LineModel, body: str, offset: int, tally: Stripped) -> None:
    """One line without its ending: text runs and controls, in order."""
    pos = 0
    for m in _TOKEN.finditer(body):
        start = m.start()
        if start > pos:
            model.write(body[pos:start])
        pos = m.end()
        _feed_token(model, m.group(), offset + start, tally)
    if pos < len(body):
        model.write(body[pos:])


def _feed_runs(model: LineModel, body: str, offset: int, tally: Stripped) -> None:
    """:func:`_feed_tokens` a run at a time (``body`` holds no C1 control): text and the inert
    sequences between it written as one string where the row is appended to (the same cells as
    writing each piece), and a run of backspaces as one move."""
    if "\x1b" in body:  # text between SGR alone (a row of a multi-row display) is one run: no scan for tokens
        pieces = _SGR_ONLY.split(body)
        text = "".join(pieces)
        if NOT_TEXT.search(text) is None:
            if text and not model.write_pieces(pieces, text):
                _feed_tokens(model, body, offset, tally)
                return
            tally.sequences += len(pieces) - 1
            tally.chars += len(body) - len(text)
            return
    for m in _RUN.finditer(body):
        run = m.group(1)
        if run is not None:
            if "\x1b" not in run and "\x07" not in run:
                model.write(run)  # text alone: one piece
            elif not _write_run(model, run, tally):
                _feed_tokens(model, run, offset + m.start(), tally)
        elif m.group(2) is not None:
            model.backspaces(m.end() - m.start())
        else:
            _feed_token(model, m.group(), offset + m.start(), tally)


def _write_run(model: LineModel, run: str, tally: Stripped) -> bool:
    """Text and inert sequences: the text between them written as one string where that is the same as
    writing each piece (:meth:`LineModel.write_pieces`); False: nothing done."""
    pieces = _SGR_ONLY.split(run)
    text = "".join(pieces)
    if "\x1b" in text or "\x07" in text:  # not SGR alone (see string_path.without_inert)
        pieces = grammar.INERT_SEQUENCE.split(run)
        text = "".join(pieces)
    if text and not model.write_pieces(pieces, text):
        return False
    tally.sequences += len(pieces) - 1
    tally.chars += len(run) - len(text)
    return True


def _feed_token(model: LineModel, token: str, at: int, tally: Stripped) -> None:
    """One complete sequence or control character at offset ``at`` of the text."""
    first = token[0]
    if first == "\x1b":
        if len(token) == 1:
            raise Refused(MALFORMED_ESCAPE, f"ESC that starts no complete sequence at offset {at}")
        tally.sequences += 1
        tally.chars += len(token)
        act = _ACTS.get(token)
        if act is not None:
            act(model)
        elif not _inert(token):
            _apply(model, token, at)
    elif first in _CONTROL_ACTS:
        control = _CONTROL_ACTS[first]
        if control is None:  # removed as a sequence (BEL)
            tally.sequences += 1
            tally.chars += 1
        else:
            control(model, token)
    else:
        raise Refused(UNSUPPORTED_CONTROL, f"control U+{ord(first):04X} at offset {at}")


_inert = feed.inert_cached
_CONTROL_ACTS = dispatch.control_acts(LineModel)


_Act = Callable[[LineModel], object]


class _Plan(NamedTuple):
    """What a sequence that is not inert does, decided once per distinct sequence."""

    seq: grammar.Sequence
    disputed: str | None  # why terminals disagree on it, or None
    clears: bool  # ED, or CUP / HVP home
    act: _Act | None  # None: refused


def _plan(token: str) -> _Plan:
    """The table's calls for the sequence (:mod:`dispatch`), bound to the row model: None where it has
    no handler for them (ED, CUP, IL ...: the screen model's)."""
    decoded = dispatch.decode(grammar.parse(token))
    return _Plan(decoded.seq, decoded.disputed, grammar.clears_or_homes(decoded.seq),
                 dispatch.act_for(LineModel, decoded.calls))


_PLAN_CACHED_LENGTH = 32  # longer sequences are rare and are not kept alive by the cache
_PLAN_CACHE_SIZE = 1024
_cached_plan = functools.lru_cache(maxsize=_PLAN_CACHE_SIZE)(_plan)
_ACTS: dict[str, _Act] = {}  # a sequence that only acts (planned before): its act


def _apply(model: LineModel, token: str, offset: int) -> None:
    """Act on one sequence that is not inert, or refuse it."""
    seq, disputed, clears, act = _cached_plan(token) if len(token) <= _PLAN_CACHED_LENGTH else _plan(token)
    if disputed is not None:
        raise TerminalsDisagree(UNSUPPORTED_CONTROL, f"{grammar.describe(seq)} at offset {offset}: {disputed}")
    if clears and model.untouched():
        return  # "clear, then print": before the output begins there is nothing on screen to lose
    if act is None:
        _refuse(seq, offset)
    if not clears and len(_ACTS) < _PLAN_CACHE_SIZE and len(token) <= _PLAN_CACHED_LENGTH:
        _ACTS[token] = act  # no dispute, no exception for an untouched screen: the act alone, next time
    act(model)


def _refuse(seq: grammar.Sequence, offset: int) -> NoReturn:
    raise Refused(UNSUPPORTED_CONTROL, f"{grammar.describe(seq)} at offset {offset}")


def _account(model: LineModel, sequences: int, sequence_chars: int) -> Removed:
    redraws = model.redraws()
    return Removed(
        escape_sequences=sequences,
        escape_chars=sequence_chars,
        cr_redraws=redraws["cr"].rows,
        cr_chars=redraws["cr"].chars,
        backspace_redraws=redraws["bs"].rows,
        backspace_chars=redraws["bs"].chars,
        multiline_redraws=redraws["multiline"].rows,
        multiline_chars=redraws["multiline"].chars,
    )
