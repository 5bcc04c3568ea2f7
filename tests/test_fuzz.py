"""Whatever a program prints, or an attacker makes it print, ``clean`` returns, never raises
and never loses content.

Hypothesis over arbitrary ``str`` (all of Unicode, lone surrogates as ``surrogateescape`` makes them,
NUL, C0 and C1 controls) mixed with real escape ingredients, and over arbitrary bytes through the
command line. The contract checked on every input:

* no exception;
* a refusal returns the very object passed in (the CLI: the very bytes read);
* an adoption is strictly fewer tokens and keeps every line the terminal showed (the oracle);
* ``clean`` is idempotent;
* bytes: the adopted output decodes back to the adopted text, so undecodable bytes stay exactly the
  bytes they were and never join into a character a terminal did not show.

The contract is ``fuzz/contract.py``, which the atheris harness ``fuzz/fuzz_clean.py`` checks too.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from unittest import mock

import pytest
import strategies
from hypothesis import example, given
from hypothesis import strategies as st

import oracle
from benchmarks.bench import PATHOLOGICAL
from fuzz.contract import check as check_contract
from fuzz.contract import lost_lines
from oracle.errors import OracleError
from oracle.screen import OracleScreen
from textclean import TOO_LARGE, TextClean, cli
from textclean.pipeline import clean as cleaner

ESC = "\x1b"
CSI = ESC + "["

# Gates that reach the cleaner on the smallest inputs; counting characters adopts whenever anything
# is removed, which exercises adoption far more often than a real tokenizer does.
GATES = {
    "cl100k": TextClean(min_tokens=0),
    "chars": TextClean(min_tokens=0, tokenizer=len),
}

ANY_CHAR = st.characters(exclude_categories=())  # every code point, lone surrogates included
SURROGATE_ESCAPE = st.characters(min_codepoint=0xDC80, max_codepoint=0xDCFF)
CONTROL = st.one_of(st.characters(max_codepoint=0x1F), st.characters(min_codepoint=0x7F, max_codepoint=0x9F))
_NUMBER = st.one_of(st.integers(0, 30), st.integers(0, 10**12)).map(str)
CURSOR = st.one_of(
    st.tuples(st.one_of(st.just(""), _NUMBER), st.sampled_from("ABCDEFGKXaes`uJHdfrL@PST")).map(
        lambda p: f"{CSI}{p[0]}{p[1]}"
    ),
    st.sampled_from([ESC + "7", ESC + "8", ESC + "M", ESC + "c", ESC + "D", ESC + "E", CSI + "?1049h"]),
)
# Prefixes of sequences, as a truncated or hostile stream leaves them.
FRAGMENT = st.sampled_from(
    [ESC, CSI, CSI + "1;", ESC + "]", ESC + "]0;", ESC + "P", ESC + "_", ESC + "^", ESC + "X", ESC + "\\",
     ESC + "(", ESC + " ", "\x9b", "\x9d", "\x9c", "\x90", "\x07", "\x18", "\x1a", "\r", "\b", "\n", "\t",
     "\r\n", "\x00", "\x7f"]
)
PIECE = st.one_of(
    st.text(ANY_CHAR, max_size=6),
    SURROGATE_ESCAPE,
    CONTROL,
    FRAGMENT,
    CURSOR,
    strategies.text_runs(max_size=8),
    strategies.inert_sequences(),
    strategies.redraw_frames(),
    strategies.backspaces(),
    strategies.erase_line(),
    strategies.line_endings(),
)
HOSTILE_TEXT = st.lists(PIECE, max_size=24).map("".join)
# Parameters past Python's 4300-digit int() limit (clean() raised ValueError on them).
HUGE_SGR = CSI + "9" * 4301 + "m"
HUGE_MOVES = [CSI + "9" * 4301 + "C", CSI + "1;" + "0" * 4400 + "1A", CSI + "?" + "7" * 5000 + "h"]
HUGE_PARAMETER = st.sampled_from([*HUGE_MOVES, HUGE_SGR])

_BYTE_PIECE = st.one_of(
    st.binary(max_size=8),
    PIECE.map(lambda s: s.encode("utf-8", "surrogatepass")),
    st.sampled_from([b"\xc3", b"\xa9", b"\xe2\x82", b"\xac", b"\xff", b"\xfe", b"\xf0\x9f", b"\xc0\x80",
                     b"\xed\xa0\x80", b"\xc2\x9b", b"\x1b[31m", b"\x1b[m", b"\r"]),
)
HOSTILE_BYTES = st.lists(_BYTE_PIECE, max_size=24).map(b"".join)

_UNDECODABLE = re.compile("[\udc80-\udcff]")


# --- clean() on arbitrary str ---------------------------------------------------------------------


@given(HOSTILE_TEXT, st.sampled_from(sorted(GATES)))
@example("\udcc3\x1b[31m\udca9" + " word" * 60 + "\n", "cl100k")  # bytes would join into "é"
@example("\udce2\udc82\x1b[m\udcac\n", "chars")  # ... into "€"
@example("\r\nB\udcff\x1b7\udcff\x1bM\udcff_\b\udcff&\n", "chars")  # atheris: row above written later
@example("\nB\x1bMA\n", "chars")
@example("abcdefghij\x1b7\rX\x1b8klmnopqrst\n", "chars")  # atheris: the judge's screen was too narrow
@example("\x1b7line\x1b8LI\x1b7lin\x1b8e\x1b8LIM\nM\n", "chars")  # atheris: DECRC twice
@example("\x00\x1b[31mx\x1b[0m\n", "chars")
@example("\x9b31mred\x9b0m\n", "chars")
@example("ab\x1b[99999C\tcd\n", "chars")
def test_clean_keeps_its_contract_on_any_text(text: str, gate: str) -> None:
    check_contract(GATES[gate], text)


@given(st.lists(st.one_of(PIECE, HUGE_PARAMETER), max_size=12).map("".join), st.sampled_from(sorted(GATES)))
def test_clean_keeps_its_contract_with_parameters_of_thousands_of_digits(text: str, gate: str) -> None:
    try:
        check_contract(GATES[gate], text)
    except OracleError as error:  # the judge's own gap, see test_oracle_reads_parameters_of_thousands_of_digits
        assert isinstance(error.cause, ValueError) and error.sequence is not None, error
        # The judge cannot read the number; the gate is still judged: a cursor move or mode with such a
        # parameter is refused (tmux ignores it, xterm clamps it), and a huge SGR changes no character,
        # so the terminal shows for the text what it shows with that SGR made small.
        result = GATES[gate].clean(text)
        if any(move in text for move in HUGE_MOVES):
            assert (result.applied, result.text) == (False, text)
        elif result.applied:
            assert lost_lines(text.replace(HUGE_SGR, CSI + "9m"), result.text) is None


def test_oracle_reads_parameters_of_thousands_of_digits() -> None:
    assert oracle.render("ab\r\x1b[" + "9" * 4301 + "Cx\n").lines


def test_parameters_of_thousands_of_digits_never_raise() -> None:
    for text in ("ab\x1b[" + "9" * 5000 + "Ccd\n", "ab\x1b[1;" + "0" * 5000 + "Dcd\n", "\x1b[" + "9" * 5000 + "mx\n"):
        result = TextClean(min_tokens=0).clean(text)
        assert result.applied or result.text is text
        try:
            oracle.render(text)
        except OracleError as error:  # the oracle may not act on it, but must say where it failed
            assert error.sequence is not None and error.sequence.startswith("\x1b[") and error.offset == 2


@given(st.text(ANY_CHAR, max_size=40), st.sampled_from(sorted(GATES)))
def test_clean_keeps_its_contract_on_any_code_points(text: str, gate: str) -> None:
    check_contract(GATES[gate], text)


@given(st.lists(st.one_of(SURROGATE_ESCAPE, FRAGMENT, CURSOR, strategies.sgr(), st.sampled_from("ab\u00e9")),
                max_size=30).map("".join))
def test_clean_keeps_its_contract_on_undecodable_bytes_between_sequences(text: str) -> None:
    check_contract(GATES["chars"], text)


@given(HOSTILE_TEXT, st.integers(0, 64))
def test_text_over_max_chars_is_refused_unread(text: str, max_chars: int) -> None:
    result = TextClean(min_tokens=0, tokenizer=len, max_chars=max_chars).clean(text)
    if len(text) > max_chars:
        assert result.reason == TOO_LARGE and result.text is text
    else:
        assert result.reason != TOO_LARGE


def test_undecodable_bytes_never_join_into_a_character() -> None:
    raw = b"\xc3\x1b[31m\xa9" + b" word" * 60 + b"\n"
    text = raw.decode("utf-8", "surrogateescape")
    result = TextClean(min_tokens=0).clean(text)
    # Adopting "\udcc3\udca9 word..." would write b"\xc3\xa9", an "é" where the terminal showed two U+FFFD.
    assert not result.applied and result.reason == "content_would_change"
    assert result.text is text
    # Bytes that stay apart (or were adjacent already) do not stop an adoption.
    apart = "\udcc3 \x1b[31m\udca9\udcff" + " word" * 60 + "\n"
    assert TextClean(min_tokens=0).clean(apart).applied


def test_huge_cursor_forward_is_refused_by_the_cleaner_not_padded() -> None:
    # atheris: with 99999999 the cleaner built a 100M-cell row (16 s, 1.6 GB) before the verifier refused.
    with pytest.raises(cleaner.Refused):
        cleaner.candidate("ab\x1b[9999999Ccd\n")
    with pytest.raises(cleaner.Refused):
        cleaner.candidate("ab\x1b[9999999C\tcd\n")
    assert cleaner.candidate("ab\x1b[50Ccd\n").text == "ab" + " " * 50 + "cd\n"
    with pytest.raises(cleaner.Refused):  # past column 80 into empty cells: where it lands depends on the width
        cleaner.candidate("ab\x1b[500Ccd\n")


def test_a_million_spaces_do_not_crash_the_token_count() -> None:
    # tiktoken panics (pyo3 PanicException, a BaseException) on a run of ~1M whitespace characters
    # followed by a non-space; atheris reached it through a candidate ("\x1b[999999C" then text).
    text = "\x1b[1m" + " " * 1_000_000 + "x\n"
    result = TextClean(min_tokens=0).clean(text)
    assert result.applied and result.text == " " * 1_000_000 + "x\n"
    raw = bytes.fromhex("07ffffffffffff5f0842ff1b37744920") + b"\x1b[999999Ct\x1b7-i\r\nL\x1b8I;7&M\n\n"
    check_contract(GATES["cl100k"], raw.decode("utf-8", "surrogateescape"))


def test_cursor_restore_after_the_screen_scrolled_is_not_adopted() -> None:
    # Even the oracle (24 rows, starting at the top) scrolls here; a terminal whose cursor starts on its
    # last row scrolls at every new row, so "a\n\x1b7b\nc\n\x1b8X\n" already loses "b" there.
    text = "l\n" * 20 + "S\x1b7" + "\nx" * 5 + "\x1b8R\n"
    check_contract(GATES["chars"], text)


def test_oracle_restores_the_saved_cursor_more_than_once() -> None:
    assert oracle.render("ab\x1b7cd\x1b8X\x1b8Y\n").lines == ["abYd"]


def test_oracle_screen_is_wide_enough_after_a_cursor_restore() -> None:
    raw = "abcdefghij\x1b7\rX\x1b8klmnopqrst\n"
    assert oracle.render(raw).lines == ["Xbcdefghijklmnopqrst"]


def test_check_lossless_accepts_screen_order_for_a_row_written_later_above() -> None:
    raw = "\nB\x1bMA\n"  # row 0 stays empty until RI moves up to it
    assert oracle.render(raw).lines == [" A", "B"]
    assert oracle.agrees(raw, " A\nB")
    assert oracle.check_lossless(raw, " A\nB").ok


# --- the command line on arbitrary bytes ------------------------------------------------------------


def run_cli(data: bytes) -> tuple[int, bytes, str]:
    """``textclean --min-tokens 0 --explain`` in this process: exit code, stdout bytes, stderr."""
    stdin = io.TextIOWrapper(io.BytesIO(data))
    stdout = io.TextIOWrapper(io.BytesIO())
    stderr = io.StringIO()
    with mock.patch.object(sys, "stdin", stdin), mock.patch.object(sys, "stdout", stdout), \
            mock.patch.object(sys, "stderr", stderr):
        code = cli.main(["--min-tokens", "0", "--explain"])
    return code, stdout.buffer.getvalue(), stderr.getvalue()


def assert_cli_contract(data: bytes, code: int, out: bytes, err: str) -> None:
    assert code == 0, err
    if "textclean: refused: " in err:
        assert out == data
        return
    assert "textclean: applied" in err, err
    text = data.decode("utf-8", "surrogateescape")
    cleaned = out.decode("utf-8", "surrogateescape")
    assert cleaned.encode("utf-8", "surrogateescape") == out
    # Every undecodable byte in the output stands for itself: decoding the output finds it again, and
    # the output's undecodable bytes are a subsequence of the input's (none invented).
    assert _is_subsequence(_UNDECODABLE.findall(cleaned), _UNDECODABLE.findall(text))
    assert cleaned == GATES["cl100k"].clean(text).text
    assert lost_lines(data, out) is None, (data, out)


def _is_subsequence(part: list[str], whole: list[str]) -> bool:
    it = iter(whole)
    return all(any(c == w for w in it) for c in part)


@given(HOSTILE_BYTES)
@example(b"\xc3\x1b[31m\xa9" + b" word" * 60 + b"\n")
@example(b"\xe2\x82\x1b[m\xac \x1b[1mbold\x1b[0m" * 20 + b"\n")
@example(bytes(range(256)))
@example(b"\xed\xa0\x80\x1b[31mlone surrogate encoded\x1b[0m\n" * 10)
def test_cli_keeps_its_contract_on_any_bytes(data: bytes) -> None:
    assert_cli_contract(data, *run_cli(data))


def test_cli_subprocess_on_hostile_bytes() -> None:
    """The real entry point, once per input, on inputs the in-process test also covers."""
    inputs = [
        bytes(range(256)) * 4,
        b"\xc3\x1b[31m\xa9" + b" word" * 60 + b"\n",
        b"\x1b[31m\xff\xfe\x00\x1b[0m ok\n" * 30,
        b"\x1b]0;" + b"x" * 10000,
    ]
    for data in inputs:
        proc = subprocess.run([sys.executable, "-m", "textclean", "--min-tokens", "0", "--explain"],
                              input=data, capture_output=True, timeout=120)
        assert b"Traceback" not in proc.stderr
        assert_cli_contract(data, proc.returncode, proc.stdout, proc.stderr.decode())


# --- linear time on pathological input ----------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
def test_pathological_input_keeps_its_answer_as_it_grows(name: str) -> None:
    # The time it costs (growth t(4S)/4t(S) <= 1.5, against coloured log text) is a row of
    # `python -m benchmarks.bench --only pathological`; here: the same answer at 16 KB and 128 KB.
    gate = TextClean()
    small, large = gate.clean(PATHOLOGICAL[name](16 * 1024)), gate.clean(PATHOLOGICAL[name](128 * 1024))
    assert (small.applied, small.reason) == (large.applied, large.reason), name


# --- the oracle never gives a silent wrong answer ---------------------------------------------------


@given(st.one_of(HOSTILE_TEXT, st.text(ANY_CHAR, max_size=40), HOSTILE_BYTES))
def test_oracle_renders_any_input(data: str | bytes) -> None:
    rendering = oracle.render(data)
    assert all(isinstance(line, str) for line in rendering.shown)


def test_a_pyte_failure_is_an_oracle_error_naming_the_sequence() -> None:
    def choke(*args: object, **kwargs: object) -> None:
        raise IndexError("list index out of range")

    with mock.patch.object(OracleScreen, "erase_in_display", choke):
        with pytest.raises(OracleError) as caught:
            oracle.render("ab\x1b[2Jcd\n")
        with pytest.raises(OracleError):
            oracle.check_lossless("ab\x1b[2Jcd\n", "abcd\n")
    error = caught.value
    assert (error.sequence, error.offset) == ("\x1b[2J", 2)
    assert isinstance(error.cause, IndexError)
    assert "'\\x1b[2J' at character offset 2" in str(error) and "IndexError" in str(error)
