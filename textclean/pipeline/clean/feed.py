"""Feeding one page to the screen model: its lines, their tokens, the plain lines appended at once, and
each sequence or control dispatched to the model's calls (or refused).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from .. import grammar
from ..model import MIN_COLUMNS
from ..result import UNSUPPORTED_CONTROL
from .assemble import WholeRefusal
from .dispatch import REPEATS, act_for, autowrap_off, control_acts, decode, no_call
from .line import INERT_MARK, ONE_CELL_TEXT, Stripped, Unresolved
from .screen import ScreenModel
from .string_path import overlay_line

_TOKEN = grammar.SEQUENCE_OR_CONTROL
_TOKEN_OR_BACKSPACES = re.compile(rf"\x08\x08+|{_TOKEN.pattern}")  # a run of backspaces is one move


# --- feeding one page -------------------------------------------------------------------------------
def _feed(model: ScreenModel, text: str, start: int, end: int, tally: Stripped, tokens: re.Pattern[str],
          fast: bool = False) -> None:
    """Each line of ``text[start:end]`` to the model, a token at a time; with ``fast``, a plain line
    (:func:`_plain`) as one :meth:`~ScreenModel.append_line` where the model takes it so."""
    if fast and end - start < _SHORT_PAGE_CHARS:
        _feed_short(model, text, start, end, tally)
        return
    chunk = text[start:end]
    pieces = chunk.split("\n")
    last = len(pieces) - 1
    marking = fast and last > 0 and INERT_MARK not in chunk
    del chunk
    marked: list[str] = []  # lines block_start.. with their inert sequences and EL 0 marked
    width = model.width
    previous_raw: str | None = None  # the last line given to _plain, and what it gave
    previous: tuple[str, str, int, int, int] | None = None
    block_start = 0
    offset = start
    index = 0
    while index <= last:
        if marking and index < last:
            raw = pieces[index]
            if raw != previous_raw:
                if _NEVER_PLAIN.search(raw, 0, len(raw.rstrip("\r"))) is not None:
                    previous_raw, previous = raw, None  # a control no marking removes: walked, not marked
                else:
                    if index - block_start >= len(marked):
                        block_start, stop = index, min(last, index + _MARK_LINES)
                        chars = sum(len(pieces[i]) + 1 for i in range(index, stop)) - 1
                        marked = grammar.APPEND_ONLY_INERT.sub(INERT_MARK, text[offset : offset + chars]).split("\n")
                    previous_raw, previous = raw, _plain(raw, marked[index - block_start], width)
            marking_here = previous is not None
        else:
            marking_here = False
        if marking_here:  # a plain line: it and the plain lines after it appended at once
            first = index
            batch: list[tuple[str, str, int, int, int]] = []
            size = 1  # lines tried at once: doubled while every one is taken
            while index < last:
                if index - block_start >= len(marked):
                    # the next lines, marked a block at a time (a page refused early is not marked
                    # to its end); no sequence holds an LF, so the block has the same lines
                    block_start, stop = index, min(last, index + _MARK_LINES)
                    chars = sum(len(pieces[i]) + 1 for i in range(index, stop)) - 1
                    marked = grammar.APPEND_ONLY_INERT.sub(INERT_MARK, text[offset : offset + chars]).split("\n")
                budget = model.pad_budget
                stop = min(last, block_start + len(marked), index + size)
                batch.clear()
                for at in range(index, stop):
                    raw = pieces[at]
                    if raw != previous_raw:  # a repeated line (a bar, a rule): the same plain form
                        previous_raw, previous = raw, _plain(raw, marked[at - block_start], width)
                    if previous is None or previous[4] > budget:
                        break
                    budget -= previous[4]
                    batch.append(previous)
                taken = model.append_plain(batch)
                charged = 0
                for line in batch[:taken] if taken < len(batch) else batch:
                    charged += line[4]
                    tally.sequences += line[2]
                    tally.chars += line[3]
                if charged:
                    model._charge(charged)  # as REP charges the cells it repeats
                for at in range(index, index + taken):
                    offset += len(pieces[at]) + 1
                index += taken
                if index < stop:  # a line not plain, past the budget, or not taken
                    break
                size = min(2 * size, _MARK_LINES)
            if index > first:
                model.last_char = _last_char(pieces, first, index, model.last_char)
                continue
        piece = pieces[index]
        body = piece.rstrip("\r")
        piece_end = offset + len(piece)
        if body and not (fast and len(body) >= _OVERLAY_MIN_CHARS and _overlaid(model, body, tally)):
            _feed_line(model, body, offset, tally, tokens)
        if piece_end < end:
            model.line_feed(piece[len(body) :] + "\n")
        elif len(piece) > len(body):
            model.carriage_return()
        offset = piece_end + 1
        index += 1


# A line's end (the CRs before its LF: the ending the row records), the CRs that end the page's text,
# or one token of a line.
_PAGE_SPLIT = re.compile(rf"(\r*\n|\r+\Z|{_TOKEN_OR_BACKSPACES.pattern})").split


def _feed_short(model: ScreenModel, text: str, start: int, end: int, tally: Stripped) -> None:
    """:func:`_feed` (``fast``) of a page shorter than a line the string path takes, in one pass over its
    tokens and line ends: what walking each line gives, where batching lines or a line's coloured runs
    would not pay for their set-up (a session of small pages). Each line end is the line feed ``_feed``
    gives it (the CRs before its LF its ending), CRs that end the text one carriage return; the tokens
    between are walked as :func:`_walk_tokens` walks them (no line is long enough for the string path).
    (Split, not matched: a match object per token cost more than the page's walk.)"""
    pieces = _PAGE_SPLIT(text[start:end])  # text, token, text, ..., text
    at = start
    write = model.write
    for piece, token in zip(pieces[::2], pieces[1::2], strict=False):  # (texts: one more)
        if piece:
            write(piece)
            at += len(piece)
        last = token[-1]
        if last == "\n":
            model.line_feed(token)
        elif last == "\r":
            if at + len(token) != end:
                model.last_char = None  # a CR within a line: _feed_token's
            # (else CRs at the end: one token, tried before a CR alone; one carriage return, as _feed's)
            model.carriage_return()
        else:
            act = _ACTS.get(token)
            if act is None:
                _feed_token(model, token, at, tally)
            else:  # what _feed_token does for a sequence planned before (none is REP or DECRST)
                model.last_char = None
                tally.sequences += 1
                tally.chars += len(token)
                act(model)
        at += len(token)
    if pieces[-1]:
        write(pieces[-1])


_MARK_LINES = 256
# A CR before the line's end, a backspace or a tab (no inert sequence holds a C0 control), or a cursor
# move or erase other than EL (never inert, and its ESC starts no longer sequence): marking leaves it,
# and a plain line has none, so the line is not plain whatever its other sequences are.
_NEVER_PLAIN = re.compile(rf"[\r\x08\t]|{grammar.MOVE_OR_ERASE_NOT_EL.pattern}")
# A plain line once its inert sequences and EL 0 are marked: one-cell characters and marks, nothing else.
_PLAIN = re.compile(ONE_CELL_TEXT.pattern[0] + INERT_MARK + ONE_CELL_TEXT.pattern[1:])
# DECRST of a mode list holding 7 (DECAWM): refused at a known width (_feed_line)
_DECAWM_OFF = grammar.AUTOWRAP_OFF


# REP right after a printable ASCII character of the same line (no sequence between: each one left
# unmarked here is not inert, and REP repeats only a character written right before it)
_REP_AFTER_CHARACTER = grammar.REP_AFTER_CHARACTER


@functools.lru_cache(maxsize=256)
def _expand_repeats(marked: str) -> tuple[str, int, int, int] | None:
    """``marked`` with each REP after a character written out, the REPs, their characters and the
    cells they repeat; None unless the line is then plain. (Cached: a bar's lines repeat.)"""
    repeats = repeat_chars = repeated = 0
    pieces: list[str] = []
    pos = 0
    for m in _REP_AFTER_CHARACTER.finditer(marked):
        count = int(m.group(2) or 1) or 1  # 0 or none: once
        pieces.append(marked[pos : m.start()])
        pieces.append(m.group(1) * (1 + count))
        pos = m.end()
        repeats += 1
        repeat_chars += m.end() - m.start() - 1
        repeated += count
    if not repeats:
        return None
    pieces.append(marked[pos:])
    expanded = "".join(pieces)
    if _PLAIN.fullmatch(expanded) is None:
        return None
    return expanded, repeats, repeat_chars, repeated


def _plain(raw: str, marked: str, width: int | None) -> tuple[str, str, int, int, int] | None:
    """A line (without its LF; ``marked``: its inert sequences and EL 0 as :data:`INERT_MARK`) that
    the walk would only write and line-feed, from the first column of an empty row: its text, line
    ending, and the sequences and their characters removed; or None. Every ESC and control of it
    starts one marked sequence (none is left once they are marked), so the walk's tokens are those
    sequences and the text between them. EL 0 right after the text erases nothing: it only refuses
    at or past the 80th column of an unknown width (or decides a pending wrap at a known one),
    hence a bound on the last one's column."""
    body = len(raw)
    if raw and raw[-1] == "\r":
        body = len(raw.rstrip("\r"))
        marked = marked[: len(marked) - (len(raw) - body)]  # the same CRs end the marked line
    repeated = repeats = repeat_chars = 0
    if _PLAIN.fullmatch(marked) is None:
        if "\x1b[" not in marked or "b" not in marked:
            return None
        # a line of text and REP (a padded bar, a rule): the repeats written out, as the walk writes them
        expanded = _expand_repeats(marked)
        if expanded is None:
            return None
        marked, repeats, repeat_chars, repeated = expanded
    sequences = marked.count(INERT_MARK)
    shown = marked.replace(INERT_MARK, "") if sequences else marked
    if width is not None and (len(shown) > width or (sequences and _DECAWM_OFF.search(raw) is not None)):
        return None  # it would wrap; DECAWM off is refused
    if repeats and width is None and len(shown) > MIN_COLUMNS:
        return None  # REP past a margin: the walk decides (ScreenModel.repeat)
    if sequences and "K" in raw:
        erase = max(raw.rfind("\x1b[K"), raw.rfind("\x1b[0K"))
        if erase >= 0 and len(grammar.APPEND_ONLY_INERT.sub("", raw[:erase])) >= (width or MIN_COLUMNS):
            return None
    return shown, raw[body:] + "\n", sequences + repeats, body - len(shown) + repeated, repeated


_UNSET = object()


def _last_char(pieces: list[str], first: int, stop: int, before: str | None) -> str | None:
    """What REP repeats after lines ``pieces[first:stop]`` as the walk leaves it: the last character
    written, unless a sequence after it reset it (every sequence, REP too: terminals disagree on a
    second REP)."""
    for index in range(stop - 1, first - 1, -1):
        body = pieces[index].rstrip("\r")
        found: object = _UNSET
        pos = 0
        for m in _TOKEN.finditer(body):
            if m.start() > pos:
                found = body[m.start() - 1]
            pos = m.end()
            found = None
        if pos < len(body):
            found = body[-1]
        if found is not _UNSET:
            return found  # type: ignore[return-value]
    return before


# Sessions repeat a few sequences thousands of times (SGR, CUP, EL): each is parsed and classified once.
parse_cached = functools.lru_cache(maxsize=4096)(grammar.parse)


@functools.lru_cache(maxsize=4096)
def inert_cached(token: str) -> bool:
    """Whether ``token`` (one complete sequence) is inert: :data:`grammar.INERT_SEQUENCE` in full."""
    return grammar.INERT_SEQUENCE.fullmatch(token) is not None


_parse = parse_cached


_inert = inert_cached


#: A shorter line costs the walk less than the string path's set-up.
_OVERLAY_MIN_CHARS = 96
#: A page of fewer characters is fed by :func:`_feed_short`: no line of it is long enough for the string
#: path, and a run of CRs in it (which the split's line ends try at each CR) stays short.
_SHORT_PAGE_CHARS = _OVERLAY_MIN_CHARS


def _overlaid(model: ScreenModel, body: str, tally: Stripped) -> bool:
    """A line redrawn by CR and EL alone (progress frames) from the first column of an empty last row,
    resolved on strings as the row model's string path resolves it (:func:`string_path.overlay_line`): the same
    cells, cursor, tallies, work and character for REP as :func:`_feed_line`; False: walk it. (A harmless
    private mode, rich's ``CSI ? 25 l``, is inert there as in the walk; DECAWM off the walk refuses.)"""
    if len(body) < _OVERLAY_MIN_CHARS or "\r" not in body or "\b" in body or not model.overlay_ready() \
            or ("\x1b[?" in body and _DECAWM_OFF.search(body) is not None):
        return False
    return overlay_line(model, body, tally)


def _feed_line(model: ScreenModel, body: str, offset: int, tally: Stripped, tokens: re.Pattern[str]) -> None:
    if tokens is _TOKEN_OR_BACKSPACES and "m" in body and "\x1b[" in body and (
            body.isascii() or _C1.search(body) is None):  # a lone C1 is text to the walk, not a run's
        _feed_runs(model, body, offset, tally)
    else:
        _walk_tokens(model, body, offset, tally, tokens)


def _walk_tokens(model: ScreenModel, body: str, offset: int, tally: Stripped, tokens: re.Pattern[str]) -> None:
    pos = 0
    acts = _ACTS
    for m in tokens.finditer(body):
        token_start = m.start()
        if token_start > pos:
            model.write(body[pos:token_start])
        pos = m.end()
        token = m.group()
        act = acts.get(token)
        if act is None:
            _feed_token(model, token, offset + token_start, tally)
        else:  # what _feed_token does for a sequence planned before (none is REP or DECRST)
            model.last_char = None
            tally.sequences += 1
            tally.chars += len(token)
            act(model)
    if pos < len(body):
        model.write(body[pos:])


_C1 = re.compile("[\x80-\x9f]")
# The run path's steps: text and SGR between two other tokens (group 1), or one other token (every
# character but C1 is in one match).
_SGR_RUN = re.compile(rf"((?:[^\x00-\x1f\x7f-\x9f]+|{grammar.SGR_ONLY.pattern})+)|{_TOKEN_OR_BACKSPACES.pattern}")


def _feed_runs(model: ScreenModel, body: str, offset: int, tally: Stripped) -> None:
    """:func:`_feed_line` a run at a time: text and the SGR between it appended as one string where
    :meth:`ScreenModel.append_run` says that is the same as writing each piece (a coloured row)."""
    acts = _ACTS
    for m in _SGR_RUN.finditer(body):
        run = m.group(1)
        if run is None:
            token = m.group()
            act = acts.get(token)
            if act is None:
                _feed_token(model, token, offset + m.start(), tally)
            else:  # _walk_tokens' shortcut
                model.last_char = None
                tally.sequences += 1
                tally.chars += len(token)
                act(model)
        elif "\x1b" not in run:
            model.write(run)
        else:
            pieces = _SGR_ONLY_SPLIT(run)
            text = "".join(pieces)
            if text and model.append_run(pieces, text):
                tally.sequences += len(pieces) - 1
                tally.chars += len(run) - len(text)
            else:
                _walk_tokens(model, run, offset + m.start(), tally, _TOKEN)


_SGR_ONLY_SPLIT = grammar.SGR_ONLY.split


def _feed_token(model: ScreenModel, token: str, at: int, tally: Stripped) -> None:
    """One sequence or control at offset ``at`` of the text."""
    first = token[0]
    if token[-1] != REPEATS:
        model.last_char = None  # REP repeats only a character written right before it
    if first == "\x1b":
        if len(token) == 1:
            raise Unresolved(f"ESC that starts no complete sequence at offset {at}")
        tally.sequences += 1
        tally.chars += len(token)
        if model.width is not None and autowrap_off(token):
            raise Unresolved("DECAWM off on a screen of known width")
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
        raise Unresolved(f"control U+{ord(first):04X} at offset {at}")


_CONTROL_ACTS = control_acts(ScreenModel)

# A sequence whose act is all it does (no dispute, no refusal, not REP: REP keeps the character it
# repeats): its act, decided once per distinct sequence (sessions repeat CUP and EL thousands of times).
_Act = Callable[[ScreenModel], object]
_ACTS: dict[str, _Act] = {}
_ACTS_SIZE = 4096
_ACT_LENGTH = 32  # longer sequences are rare and are not kept alive by the table or the cache


def _plan(token: str) -> tuple[grammar.Sequence, str | None, _Act | None]:
    """The table's calls for the sequence (:mod:`dispatch`), bound to the screen model: the parsed
    sequence, why terminals disagree on it (or None), and the act (None: refused)."""
    decoded = decode(_parse(token))
    return decoded.seq, decoded.disputed, act_for(ScreenModel, decoded.calls)


_cached_plan = functools.lru_cache(maxsize=_ACTS_SIZE)(_plan)


def _apply(model: ScreenModel, token: str, offset: int) -> None:
    """Act on one sequence that is not inert, or raise :class:`Unresolved` (:class:`WholeRefusal` where
    terminals disagree on its parameters)."""
    seq, disputed, act = _cached_plan(token) if len(token) <= _ACT_LENGTH else _plan(token)
    if disputed is not None:
        raise WholeRefusal(UNSUPPORTED_CONTROL, f"{grammar.describe(seq)} at offset {offset}: {disputed}", [])
    if act is None:
        _refuse(seq, offset)
        return
    if act is not no_call and token[-1] != REPEATS and len(_ACTS) < _ACTS_SIZE and len(token) <= _ACT_LENGTH:
        _ACTS[token] = act
    act(model)


def _refuse(seq: grammar.Sequence, offset: int) -> None:
    raise Unresolved(f"{grammar.describe(seq)} at offset {offset}")
