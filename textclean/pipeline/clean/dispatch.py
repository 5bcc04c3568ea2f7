"""The cleaner's one dispatch table: what a parsed sequence or a control character asks a model to do.

As pyte's stream calls ``screen.erase_in_display`` by name: a final byte (with its private marker) and
its parameters become the model method to call and its arguments (:func:`decode`), and a C0 control
its method (:data:`CONTROLS`). The line model and the screen model are the handlers; a model without
the method does not resolve the command (:func:`act_for` gives None: the caller refuses it with
``UNSUPPORTED_CONTROL``). What each rule reads and refuses is written here once for both models.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from operator import methodcaller
from typing import Any, NamedTuple

from .. import grammar
from ..grammar import Kind
from ..names import (
    CHA,
    CNL,
    CPL,
    CUB,
    CUD,
    CUF,
    CUP,
    CUU,
    DCH,
    DECAWM,
    DECOM,
    DECRC,
    DECSC,
    DECSTBM,
    DL,
    ECH,
    ED,
    EL,
    HPA,
    HVP,
    ICH,
    IL,
    IND,
    NEL,
    REP,
    RI,
    RM,
    SCORC,
    SCOSC,
    SD,
    SM,
    SU,
    VPA,
)
from .swallow import disputed_parameters


class Call(NamedTuple):
    """One call on a model: its method's name and arguments."""

    handler: str
    args: tuple[int | None, ...] = ()
    keywords: tuple[tuple[str, bool], ...] = ()


class Decoded(NamedTuple):
    """What one sequence asks of a model."""

    seq: grammar.Sequence
    disputed: str | None  # why terminals disagree on its parameters (every model refuses it), or None
    calls: tuple[Call, ...] | None  # () : it changes nothing shown; None: no rule takes it (refused)


# --- parameter rules: the parameters (plain decimal fields, ``numbers``) -> the calls, or None -------
_Rule = Callable[[grammar.Sequence, list[int]], tuple[Call, ...] | None]


def _single(handler: str, value: Callable[[int], int | None], *, others: tuple[int | None, ...] = (),
            keywords: tuple[tuple[str, bool], ...] = ()) -> _Rule:
    """One parameter (none: 0), given to ``value``; more than one is refused."""

    def rule(seq: grammar.Sequence, numbers: list[int]) -> tuple[Call, ...] | None:
        if len(numbers) != 1:
            return None
        return (Call(handler, (value(numbers[0]), *others), keywords),)

    return rule


def _count(n: int) -> int:
    return n or 1  # ECMA-48: 0 or absent is 1


def _column(n: int) -> int:
    return (n or 1) - 1


def _mode(n: int) -> int:
    return n  # EL / ED: 0 or absent is 0


def _negative_count(n: int) -> int:
    return -(n or 1)


def _position(seq: grammar.Sequence, numbers: list[int]) -> tuple[Call, ...] | None:
    """CUP / HVP: row and column, 0 or absent is 1; a third parameter is refused."""
    if len(numbers) > 2:
        return None
    row = numbers[0] or 1
    col = numbers[1] if len(numbers) > 1 and numbers[1] else 1
    return (Call("cursor_position", (row - 1, col - 1)),)


def _margins(seq: grammar.Sequence, numbers: list[int]) -> tuple[Call, ...] | None:
    """DECSTBM: top and bottom, 0 or absent top is 1, absent bottom the last row; a 0 bottom is refused
    (tmux reads it as row 1 and ignores the region, xterm as the last row)."""
    if len(numbers) > 2:
        return None
    fields = seq.params.split(";")
    if len(fields) > 1 and fields[1] and not numbers[1]:
        return None
    lower = numbers[1] if len(numbers) > 1 and numbers[1] else None
    return (Call("set_margins", ((numbers[0] or 1) - 1, None if lower is None else lower - 1)),)


def _parameterless(handler: str) -> _Rule:
    """No parameter at all (with one, ``CSI s`` is DECSLRM, ``CSI u`` not a restore)."""

    def rule(seq: grammar.Sequence, numbers: list[int]) -> tuple[Call, ...] | None:
        return None if seq.params else (Call(handler),)

    return rule


def _private_mode(seq: grammar.Sequence, numbers: list[int]) -> tuple[Call, ...] | None:
    """DECSET / DECRST of one mode the screen resolves: DECOM; DECAWM on (off is refused where the
    width is known, :func:`autowrap_off`). 1048 (save / restore the cursor) is refused: tmux 3.3a
    ignores it, xterm honours it."""
    if len(numbers) != 1:
        return None
    if numbers[0] == DECOM:
        return (Call("set_origin", (seq.final == SM,)),)
    if numbers[0] == DECAWM:
        return ()
    return None


_UP = (("to_column_zero", False),)
_UP_TO_COLUMN_ZERO = (("to_column_zero", True),)

#: CSI without a private marker or intermediates, by final byte (plain decimal parameters only).
CSI_RULES: dict[str, _Rule] = {
    CUU: _single("cursor_vertical", _negative_count, keywords=_UP),
    CUD: _single("cursor_vertical", _count, keywords=_UP),
    CNL: _single("cursor_vertical", _count, keywords=_UP_TO_COLUMN_ZERO),
    CPL: _single("cursor_vertical", _negative_count, keywords=_UP_TO_COLUMN_ZERO),
    CUF: _single("cursor_forward", _count),
    CUB: _single("cursor_back", _count),
    CHA: _single("cursor_to_column", _column),
    HPA: _single("cursor_to_column", _column),
    VPA: _single("cursor_position", _column, others=(None,)),
    CUP: _position,
    HVP: _position,
    EL: _single("erase_in_line", _mode),
    ED: _single("erase_in_display", _mode),
    ECH: _single("erase_characters", _count),
    IL: _single("insert_lines", _count),
    DL: _single("delete_lines", _count),
    ICH: _single("insert_characters", _count),
    DCH: _single("delete_characters", _count),
    SU: _single("scroll", _count, keywords=(("up", True),)),
    SD: _single("scroll", _count, keywords=(("up", False),)),
    REP: _single("repeat", _count),
    DECSTBM: _margins,
    SCOSC: _parameterless("save_cursor"),
    SCORC: _parameterless("restore_cursor"),
}
#: CSI with the private marker ``?``, by final byte.
PRIVATE_RULES: dict[str, _Rule] = {SM: _private_mode, RM: _private_mode}
#: Two-byte escapes, by final byte (HPR ``CSI a`` and VPR ``CSI e`` are in no table: xterm and pyte
#: move the cursor, tmux ignores them).
ESC_CALLS: dict[str, tuple[Call, ...]] = {
    DECSC: (Call("save_cursor"),),
    DECRC: (Call("restore_cursor"),),
    RI: (Call("reverse_index"),),
    IND: (Call("index"),),
    NEL: (Call("index"), Call("carriage_return")),
}


def decode(seq: grammar.Sequence) -> Decoded:
    """The calls ``seq`` (one complete sequence that is not inert) asks for. Parameters are read in
    their plain form only: decimal fields separated by ``;`` (a sub-parameter is refused)."""
    if seq.kind is Kind.CSI:
        disputed = disputed_parameters(seq.params)
        if grammar.harmless_mode_change(seq) or grammar.harmless_private_mode_change(seq):
            return Decoded(seq, disputed, ())
        rule = None
        if not seq.intermediates and _PLAIN_DECIMAL.fullmatch(seq.params) is not None:
            if not seq.private:
                rule = CSI_RULES.get(seq.final)
            elif seq.private == "?":
                rule = PRIVATE_RULES.get(seq.final)
        return Decoded(seq, disputed, None if rule is None else rule(seq, _numbers(seq)))
    if seq.kind is Kind.ESC2:
        return Decoded(seq, None, ESC_CALLS.get(seq.final))
    return Decoded(seq, None, None)


_PLAIN_DECIMAL = re.compile("[0-9;]*")


@functools.lru_cache(maxsize=4096)
def _numbers(seq: grammar.Sequence) -> list[int]:
    """``seq.numbers()``, once per distinct sequence (sessions repeat CUP and EL); the rules only read it."""
    return seq.numbers()


def autowrap_off(token: str) -> bool:
    """Whether ``token`` is a DECRST whose modes include DECAWM (refused where the width is known: past
    the margin a terminal overwrites the last column)."""
    if token[-1] != RM or not token.startswith("\x1b[?"):
        return False
    seq = grammar.parse(token)
    return seq.kind is Kind.CSI and seq.private == "?" and seq.final == RM and DECAWM in seq.numbers(-1)


#: The final byte of the one sequence after which a model still knows the character written last:
#: REP repeats only a character written right before it (terminals disagree on a second REP).
REPEATS = REP


# --- acts: the calls bound to a model class, once per distinct sequence ------------------------------
Act = Callable[[Any], object]


def no_call(model: object) -> None:
    """The act of a sequence that changes nothing shown but is not in the inert table (SM 34)."""


def act_for(model_class: type, calls: tuple[Call, ...] | None) -> Act | None:
    """The one act that makes ``calls`` on a model of ``model_class``; None where it is refused: no
    rule takes the sequence, or the model has no handler for one of its calls (the one place a model
    says it does not resolve a command)."""
    if calls is None or not all(hasattr(model_class, call.handler) for call in calls):
        return None
    if not calls:
        return no_call
    acts = [methodcaller(call.handler, *call.args, **dict(call.keywords)) for call in calls]
    if len(acts) == 1:
        return acts[0]

    def act(model: object) -> None:
        for each in acts:
            each(model)

    return act


# --- C0 controls -------------------------------------------------------------------------------------
class Control(NamedTuple):
    """What a C0 control does: its model method (given the run's length where ``counts``), or None for
    one that changes nothing shown and is removed as a sequence (BEL)."""

    mnemonic: str
    handler: str | None
    counts: bool = False


#: The C0 controls the models resolve within a line (LF ends the line: the feeders' own step). Every
#: other C0 control (and DEL) is refused.
CONTROLS: dict[str, Control] = {
    "\r": Control("CR", "carriage_return"),
    "\b": Control("BS", "backspaces", counts=True),  # a run of backspaces: one move
    "\t": Control("HT", "tab"),
    "\x07": Control("BEL", None),
}
ControlAct = Callable[[Any, str], object]


def control_acts(model_class: type) -> dict[str, ControlAct | None]:
    """Each C0 control a model of ``model_class`` resolves: its act on the model and the token; None:
    removed as a sequence, no call (BEL). A control not here is refused (the class has no handler)."""
    acts: dict[str, ControlAct | None] = {}
    for char, control in CONTROLS.items():
        if control.handler is None:
            acts[char] = None
        elif hasattr(model_class, control.handler):
            acts[char] = _with_count(control.handler) if control.counts else _without_count(control.handler)
    return acts


def _with_count(handler: str) -> ControlAct:
    return lambda model, token: getattr(model, handler)(len(token))


def _without_count(handler: str) -> ControlAct:
    return lambda model, token: getattr(model, handler)()
