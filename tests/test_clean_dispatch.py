"""The cleaner's dispatch table alone (issue 38), as libvterm tests its parser layer: every CSI / ESC /
C0 the grammar knows, with parameter variants (defaults, 0, large, private markers, sub-parameters,
intermediates), gives the handler calls the table says, or a refusal; and each model is a handler
that refuses, in one place, a command it has no method for."""

from __future__ import annotations

import itertools

import pytest

from textclean.pipeline import grammar
from textclean.pipeline.clean import dispatch
from textclean.pipeline.clean.dispatch import Call, act_for, decode
from textclean.pipeline.clean.line import LineModel
from textclean.pipeline.clean.screen import ScreenModel
from textclean.pipeline.names import SCORC, SCOSC

_UP = (("to_column_zero", False),)
_ZERO = (("to_column_zero", True),)


def _calls(token: str) -> tuple[Call, ...] | None:
    return decode(grammar.parse(token)).calls


# token -> the calls the table yields (None: refused by the table itself)
EXPECTED: dict[str, tuple[Call, ...] | None] = {
    # cursor moves: absent and 0 are 1, a large count passes as it is
    "\x1b[A": (Call("cursor_vertical", (-1,), _UP),),
    "\x1b[0A": (Call("cursor_vertical", (-1,), _UP),),
    "\x1b[7A": (Call("cursor_vertical", (-7,), _UP),),
    "\x1b[B": (Call("cursor_vertical", (1,), _UP),),
    "\x1b[65535B": (Call("cursor_vertical", (65535,), _UP),),
    "\x1b[3E": (Call("cursor_vertical", (3,), _ZERO),),
    "\x1b[F": (Call("cursor_vertical", (-1,), _ZERO),),
    "\x1b[C": (Call("cursor_forward", (1,)),),
    "\x1b[0C": (Call("cursor_forward", (1,)),),
    "\x1b[12D": (Call("cursor_back", (12,)),),
    "\x1b[G": (Call("cursor_to_column", (0,)),),
    "\x1b[40G": (Call("cursor_to_column", (39,)),),
    "\x1b[0`": (Call("cursor_to_column", (0,)),),
    "\x1b[5d": (Call("cursor_position", (4, None)),),
    "\x1b[H": (Call("cursor_position", (0, 0)),),
    "\x1b[;H": (Call("cursor_position", (0, 0)),),
    "\x1b[0;0H": (Call("cursor_position", (0, 0)),),
    "\x1b[01;01H": (Call("cursor_position", (0, 0)),),
    "\x1b[3;H": (Call("cursor_position", (2, 0)),),
    "\x1b[;7f": (Call("cursor_position", (0, 6)),),
    "\x1b[3;4;5H": None,  # a third parameter
    "\x1b[1:2H": None,  # a sub-parameter
    # erases: absent is mode 0
    "\x1b[K": (Call("erase_in_line", (0,)),),
    "\x1b[2K": (Call("erase_in_line", (2,)),),
    "\x1b[1;2K": None,
    "\x1b[J": (Call("erase_in_display", (0,)),),
    "\x1b[3J": (Call("erase_in_display", (3,)),),
    "\x1b[X": (Call("erase_characters", (1,)),),
    "\x1b[0X": (Call("erase_characters", (1,)),),
    # edits and scrolling
    "\x1b[2L": (Call("insert_lines", (2,)),),
    "\x1b[M": (Call("delete_lines", (1,)),),
    "\x1b[@": (Call("insert_characters", (1,)),),
    "\x1b[4P": (Call("delete_characters", (4,)),),
    "\x1b[S": (Call("scroll", (1,), (("up", True),)),),
    "\x1b[2T": (Call("scroll", (2,), (("up", False),)),),
    "\x1b[3b": (Call("repeat", (3,)),),
    "\x1b[0b": (Call("repeat", (1,)),),
    # margins: a 0 bottom is refused, an absent one is the last row
    "\x1b[r": (Call("set_margins", (0, None)),),
    "\x1b[2;10r": (Call("set_margins", (1, 9)),),
    "\x1b[2;r": (Call("set_margins", (1, None)),),
    "\x1b[2;0r": None,
    "\x1b[1;2;3r": None,
    # save / restore: parameterless only (CSI 1;80 s is DECSLRM)
    "\x1b[s": (Call("save_cursor"),),
    "\x1b[u": (Call("restore_cursor"),),
    "\x1b[1;80s": None,
    "\x1b[1u": None,
    # private markers and intermediates: only DECSET / DECRST of DECOM and DECAWM
    "\x1b[?6h": (Call("set_origin", (True,)),),
    "\x1b[?6l": (Call("set_origin", (False,)),),
    "\x1b[?1048h": None,
    "\x1b[?1049h": None,
    "\x1b[?6;1049h": None,
    "\x1b[?25l": (),  # harmless: changes nothing shown
    "\x1b[?025h": (),
    "\x1b[34h": (),
    "\x1b[4h": None,  # IRM
    "\x1b[>5A": None,
    "\x1b[?5A": None,
    "\x1b[=1K": None,
    "\x1b[5 A": None,
    "\x1b[2$K": None,
    "\x1b[>1u": None,  # kitty keyboard
    "\x1b[a": None,  # HPR: xterm and pyte move, tmux ignores it
    "\x1b[e": None,  # VPR
    "\x1b[I": None,  # CHT
    "\x1b[Z": None,  # CBT
    "\x1b[c": None,  # DA
    "\x1b[6n": None,  # DSR
    "\x1b[!p": None,  # DECSTR
    "\x1b[3g": None,  # TBC
    # two-byte escapes
    "\x1b7": (Call("save_cursor"),),
    "\x1b8": (Call("restore_cursor"),),
    "\x1bM": (Call("reverse_index"),),
    "\x1bD": (Call("index"),),
    "\x1bE": (Call("index"), Call("carriage_return")),
    "\x1bc": None,  # RIS
    "\x1bH": None,  # HTS
    "\x1b6": None,  # DECBI
    "\x1b=": None,  # DECKPAM (inert: never decoded on the way, refused by the table alone)
    # nF escapes and strings: no call
    "\x1b#8": None,
    "\x1b(0": None,
    "\x1b]0;title\x07": None,
    "\x1bPq#0\x1b\\": None,
    # 8-bit CSI: the same rule as its 7-bit spelling
    "\x9b2K": (Call("erase_in_line", (2,)),),
}


@pytest.mark.parametrize("token", list(EXPECTED), ids=repr)
def test_the_table_gives_each_sequence_its_calls(token: str) -> None:
    assert _calls(token) == EXPECTED[token]


@pytest.mark.parametrize("params", ["1" * grammar.PARAMETER_BYTES_LIMIT, "99999999999", "1;4294967296"])
@pytest.mark.parametrize("final", ["A", "H", "K", "m", "h"])
def test_a_parameter_terminals_read_differently_is_disputed_whatever_the_rule(params: str, final: str) -> None:
    assert decode(grammar.parse(f"\x1b[{params}{final}")).disputed is not None


def test_an_ordinary_parameter_is_not_disputed() -> None:
    assert decode(grammar.parse("\x1b[2147483647A")).disputed is None
    assert decode(grammar.parse("\x1b[65535;65535H")).disputed is None


# The line model resolves a line's moves and erases; the screen model every call the table makes.
LINE_RESOLVES = {"cursor_vertical", "cursor_forward", "cursor_back", "cursor_to_column", "erase_in_line",
                 "erase_characters", "save_cursor", "restore_cursor", "reverse_index", "carriage_return"}


def test_every_handler_the_table_names_is_a_screen_model_method() -> None:
    named = {call.handler for calls in EXPECTED.values() if calls for call in calls}
    named |= {call.handler for rule_calls in dispatch.ESC_CALLS.values() for call in rule_calls}
    named |= {control.handler for control in dispatch.CONTROLS.values() if control.handler}
    assert all(callable(getattr(ScreenModel, name, None)) for name in named), named
    assert named > LINE_RESOLVES


@pytest.mark.parametrize("token", [t for t, calls in EXPECTED.items() if calls], ids=repr)
def test_a_model_without_the_handler_refuses_in_one_place(token: str) -> None:
    calls = _calls(token)
    assert calls is not None
    line_act = act_for(LineModel, calls)
    assert (line_act is not None) == all(call.handler in LINE_RESOLVES for call in calls)
    assert act_for(ScreenModel, calls) is not None
    assert act_for(LineModel, None) is None


class _Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[object, ...], dict[str, object]]] = []

    def __getattr__(self, name: str) -> object:
        return lambda *args, **kwargs: self.calls.append((name, args, kwargs))


class _ControlRecorder(_Recorder):
    """The C0 handlers as methods of the class (control acts are the class's functions)."""

    def carriage_return(self) -> None:
        self.calls.append(("carriage_return", (), {}))

    def backspaces(self, n: int) -> None:
        self.calls.append(("backspaces", (n,), {}))

    def tab(self) -> None:
        self.calls.append(("tab", (), {}))


def test_an_act_makes_the_calls_in_order() -> None:
    act = act_for(ScreenModel, _calls("\x1bE"))
    assert act is not None
    recorder = _Recorder()
    act(recorder)
    assert recorder.calls == [("index", (), {}), ("carriage_return", (), {})]
    act = act_for(ScreenModel, _calls("\x1b[2T"))
    assert act is not None
    act(recorder)
    assert recorder.calls[-1] == ("scroll", (2,), {"up": False})
    assert act_for(ScreenModel, _calls("\x1b[?25l")) is dispatch.no_call


@pytest.mark.parametrize("char", [chr(c) for c in range(0x20)] + ["\x7f"], ids=lambda c: f"U+{ord(c):04X}")
def test_the_c0_table(char: str) -> None:
    expected = {"\r": ("carriage_return", ()), "\b": ("backspaces", (1,)), "\t": ("tab", ()), "\x07": None}
    if char not in expected:
        assert char not in dispatch.CONTROLS  # refused (LF is the line's end, never fed as a token)
        return
    assert char in dispatch.control_acts(LineModel)
    act = dispatch.control_acts(_ControlRecorder)[char]
    if expected[char] is None:
        assert act is None and dispatch.CONTROLS[char].mnemonic == "BEL"
        return
    assert act is not None
    recorder = _ControlRecorder()
    act(recorder, char)
    assert recorder.calls == [(*expected[char], {})]  # type: ignore[misc]


def test_a_run_of_backspaces_is_one_call() -> None:
    act = dispatch.control_acts(_ControlRecorder)["\b"]
    assert act is not None
    recorder = _ControlRecorder()
    act(recorder, "\b\b\b")
    assert recorder.calls == [("backspaces", (3,), {})]


def test_autowrap_off_is_read_in_any_mode_list() -> None:
    assert dispatch.autowrap_off("\x1b[?7l")
    assert dispatch.autowrap_off("\x1b[?25;7l")
    assert dispatch.autowrap_off("\x1b[?007l")
    assert not dispatch.autowrap_off("\x1b[?7h")
    assert not dispatch.autowrap_off("\x1b[7l")
    assert not dispatch.autowrap_off("\x1b[?70l")
    assert not dispatch.autowrap_off("\x1b[K")


# --- every sequence the grammar knows, with parameter variants -----------------------------------
_PARAMS = ["", "0", "1", "5", "6", "7", "25", "99", "1048", "65535", "2147483647", "4294967296", "1;2", "0;0",
           ";5", "5;", "2;0", "1;2;3", "1:2", "2:3;1", "6;25", "01;01", "1" * grammar.PARAMETER_BYTES_LIMIT]
_PRIVATE = ["", "?", ">", "=", "<"]
_INTERMEDIATES = ["", " ", "$", "!", "'"]


def every_sequence() -> list[str]:
    """Every CSI final with each parameter variant, private marker and intermediate; every two-byte
    escape; some nF escapes and strings; every 8-bit CSI final with a few parameters."""
    tokens = [f"\x1b[{private}{params}{inter}{chr(final)}"
              for final, params, private, inter in itertools.product(range(0x40, 0x7F), _PARAMS, _PRIVATE,
                                                                     _INTERMEDIATES)]
    tokens += [f"\x9b{params}{chr(final)}" for final in range(0x40, 0x7F) for params in ("", "2", "1;2")]
    tokens += [f"\x1b{chr(final)}" for final in range(0x30, 0x7F) if final not in b"[]PX^_"]
    tokens += ["\x1b(B", "\x1b#8", "\x1b%G", "\x1b ~", "\x1b]0;t\x07", "\x1b]8;;x\x1b\\", "\x1bPq\x1b\\"]
    return [t for t in tokens if grammar.ESCAPE_SEQUENCE.fullmatch(t)]


def test_every_sequence_covers_the_grammar() -> None:
    tokens = every_sequence()
    assert len(tokens) > 30_000
    kinds = {grammar.parse(t).kind for t in tokens}
    assert {grammar.Kind.CSI, grammar.Kind.ESC2, grammar.Kind.NF, grammar.Kind.OSC} <= kinds


def test_every_sequence_decodes_to_screen_model_calls_or_a_refusal() -> None:
    """The table over every sequence above: calls only for a two-byte escape or a CSI without
    intermediates or sub-parameters, marked ``?`` at most; each a screen model method; the 8-bit CSI
    as its 7-bit spelling; an absent parameter as 0 (but SCOSC / SCORC, which take none)."""
    decoded_some = 0
    for token in every_sequence():
        seq = grammar.parse(token)
        decoded = decode(seq)
        if decoded.calls:
            decoded_some += 1
            assert all(callable(getattr(ScreenModel, call.handler, None)) for call in decoded.calls), token
            assert seq.kind is grammar.Kind.ESC2 or (
                seq.kind is grammar.Kind.CSI and not seq.intermediates and seq.private in ("", "?")
                and ":" not in seq.params), token
        if seq.kind is grammar.Kind.CSI and token.startswith("\x1b["):
            assert decode(grammar.parse("\x9b" + token[2:])).calls == decoded.calls, token
            if not seq.params and not seq.intermediates and seq.final not in (SCOSC, SCORC):  # parameterless
                with_zero = f"\x1b[{seq.private}0{seq.final}"
                assert decode(grammar.parse(with_zero)).calls == decoded.calls, token
    assert decoded_some > 100


def test_the_screen_models_reverse_index_is_its_own() -> None:
    """RI is LineModel.reverse_index (up one row) for the row model only: the screen model scrolls its
    region at the top margin, so its own method must come first in its MRO (a split into classes that
    puts LineModel first would silently lose the scroll)."""
    assert ScreenModel.reverse_index is not LineModel.reverse_index
