"""The fast cleaner: one regex pass for the common case, the row model where lines are redrawn.

:func:`candidate` proposes a cleaned text and says what it removed; it never decides whether the
proposal is adopted (that is the gate's job, after the independent verifier has checked it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import grammar
from .grammar import Kind
from .redraw import LineModel, Unresolved
from .result import MALFORMED_ESCAPE, UNSUPPORTED_CONTROL, Removed

# After the inert sequences are gone, anything here means some line is redrawn or out of scope:
# ESC, C0 controls other than HT and LF, DEL, and a CR that is neither part of a line ending nor last.
_RESIDUAL_CONTROL = re.compile(r"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]|\r(?=[^\r\n])")
_C1_CONTROL = re.compile(f"[{grammar.C1_RANGE}]")
# The slow path's tokens: a complete sequence, a line ending (CRs then LF), CRs ending the text, or
# one control character. Everything between two tokens is text to write.
_TOKEN = re.compile(rf"{grammar.ESCAPE_SEQUENCE.pattern}|\r*\n|\r+\Z|[\x00-\x1f\x7f]")


class Refused(Exception):
    """The cleaner does not resolve this input; ``reason`` is a gate reason, ``detail`` says where."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True)
class Candidate:
    text: str
    removed: Removed


def strip_escapes_only(text: str) -> str:
    """Every complete escape sequence removed and nothing else (what stripping alone would give)."""
    return grammar.ESCAPE_SEQUENCE.sub("", text)


def candidate(text: str) -> Candidate:
    """Propose the cleaned text, or raise :class:`Refused`."""
    c1 = _C1_CONTROL.search(text)
    if c1 is not None:
        raise Refused(
            UNSUPPORTED_CONTROL,
            f"C1 control U+{ord(c1.group()):04X} at offset {c1.start()} (terminals disagree on C1 in UTF-8)",
        )
    stripped, count = grammar.APPEND_ONLY_INERT.subn("", text)
    if _RESIDUAL_CONTROL.search(stripped) is None:
        return Candidate(stripped, Removed(escape_sequences=count, escape_chars=len(text) - len(stripped)))
    return _resolve_redraws(text)


def _resolve_redraws(text: str) -> Candidate:
    model = LineModel()
    sequences = 0
    sequence_chars = 0
    pos = 0
    try:
        for m in _TOKEN.finditer(text):
            start = m.start()
            if start > pos:
                model.write(text[pos:start])
            pos = m.end()
            token = m.group()
            first = token[0]
            if first == "\x1b":
                if len(token) == 1:
                    raise Refused(MALFORMED_ESCAPE, f"ESC that starts no complete sequence at offset {start}")
                sequences += 1
                sequence_chars += len(token)
                if grammar.INERT_SEQUENCE.fullmatch(token) is None:
                    _apply(model, grammar.parse(token), start)
            elif token[-1] == "\n":
                model.line_feed(token)
            elif first == "\r":
                if pos == len(text):
                    model.end_of_text(token)
                else:
                    model.carriage_return()
            elif first == "\b":
                model.backspace()
            elif first == "\t":
                model.tab()
            elif first == "\x07":
                sequences += 1
                sequence_chars += 1
            else:
                raise Refused(UNSUPPORTED_CONTROL, f"control U+{ord(first):04X} at offset {start}")
        if pos < len(text):
            model.write(text[pos:])
    except Unresolved as exc:
        raise Refused(UNSUPPORTED_CONTROL, f"{exc} (near offset {pos})") from None
    return Candidate(model.render(), _account(model, sequences, sequence_chars))


def _apply(model: LineModel, seq: grammar.Sequence, offset: int) -> None:
    """Act on one sequence that is not inert, or refuse it."""
    if seq.kind is Kind.CSI and not seq.private and not seq.intermediates:
        final = seq.final
        if final == "K":
            model.erase_in_line(seq.numbers()[0])
        elif final == "X":
            model.erase_characters(seq.first(1))
        elif final in "G`":
            model.cursor_to_column(seq.first(1) - 1)
        elif final in "Ca":
            model.cursor_forward(seq.first(1))
        elif final == "D":
            model.cursor_back(seq.first(1))
        elif final == "A":
            model.cursor_vertical(-seq.first(1), to_column_zero=False)
        elif final in "Be":
            model.cursor_vertical(seq.first(1), to_column_zero=False)
        elif final == "E":
            model.cursor_vertical(seq.first(1), to_column_zero=True)
        elif final == "F":
            model.cursor_vertical(-seq.first(1), to_column_zero=True)
        elif final == "s" and not seq.params:
            model.save_cursor()
        elif final == "u" and not seq.params:
            model.restore_cursor()
        else:
            _refuse(seq, offset)
    elif seq.kind is Kind.ESC2 and seq.final in "78M":
        if seq.final == "7":
            model.save_cursor()
        elif seq.final == "8":
            model.restore_cursor()
        else:
            model.cursor_vertical(-1, to_column_zero=False)
    else:
        _refuse(seq, offset)


def _refuse(seq: grammar.Sequence, offset: int) -> None:
    raise Refused(UNSUPPORTED_CONTROL, f"{grammar.describe(seq)} at offset {offset}")


def _account(model: LineModel, sequences: int, sequence_chars: int) -> Removed:
    redraws = {"cr": [0, 0], "bs": [0, 0], "multiline": [0, 0]}
    for row in model.rows:
        if row.kind:
            tally = redraws[row.kind]
            tally[0] += 1
            tally[1] += row.dropped()
    return Removed(
        escape_sequences=sequences,
        escape_chars=sequence_chars,
        cr_redraws=redraws["cr"][0],
        cr_chars=redraws["cr"][1],
        backspace_redraws=redraws["bs"][0],
        backspace_chars=redraws["bs"][1],
        multiline_redraws=redraws["multiline"][0],
        multiline_chars=redraws["multiline"][1],
    )
