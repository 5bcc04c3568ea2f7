"""The escape grammar against a table of real codes, as programs emit them."""


import pytest

from benchmarks.bench import GRAMMAR_UNITS
from textclean.pipeline import grammar
from textclean.pipeline.grammar import Kind

# (sequence, family, inert?, where it comes from)
REAL_CODES = [
    ("\x1b[m", Kind.CSI, True, "grep --color: reset"),
    ("\x1b[01;31m", Kind.CSI, True, "grep --color: match"),
    ("\x1b[38;5;208m", Kind.CSI, True, "256-colour SGR"),
    ("\x1b[38;2;255;100;0m", Kind.CSI, True, "truecolor SGR, semicolons"),
    ("\x1b[38:2::255:100:0m", Kind.CSI, True, "truecolor SGR, ITU T.416 colons"),
    ("\x1b[4:3m", Kind.CSI, True, "curly underline (kitty, VTE)"),
    ("\x1b[>4;1m", Kind.CSI, True, "xterm modifyOtherKeys"),
    ("\x1b[?25l", Kind.CSI, True, "hide cursor (progress bars)"),
    ("\x1b[?25h", Kind.CSI, True, "show cursor"),
    ("\x1b[?2004h", Kind.CSI, True, "bracketed paste (bash 5.1 prompt)"),
    ("\x1b[?1h", Kind.CSI, True, "DECCKM (less, vim)"),
    ("\x1b[?2026h", Kind.CSI, True, "synchronized output"),
    ("\x1b[2 q", Kind.CSI, True, "DECSCUSR cursor style"),
    ("\x1b[22;0t", Kind.CSI, True, "push title (vim)"),
    ("\x1b[>c", Kind.CSI, True, "secondary DA query"),
    ("\x1b[6n", Kind.CSI, True, "cursor position report query"),
    ("\x1b[>1u", Kind.CSI, True, "kitty keyboard push"),
    ("\x1b]0;user@host: ~\x07", Kind.OSC, True, "xterm title, BEL-ended"),
    ("\x1b]2;title\x1b\\", Kind.OSC, True, "title, ST-ended"),
    ("\x1b]8;;https://example.com/\x1b\\", Kind.OSC, True, "OSC 8 hyperlink open (ls --hyperlink)"),
    ("\x1b]8;;\x1b\\", Kind.OSC, True, "OSC 8 hyperlink close"),
    ("\x1b]133;A\x07", Kind.OSC, True, "shell integration prompt mark"),
    ("\x1b]7;file://host/home\x07", Kind.OSC, True, "current directory (VTE)"),
    ("\x1bP$qm\x1b\\", Kind.DCS, True, "DECRQSS"),
    ("\x1bP+q544e\x1b\\", Kind.DCS, True, "XTGETTCAP"),
    ("\x1b_bk;t=1700000000000\x07", Kind.APC, True, "Buildkite timestamp, BEL-ended"),
    ("\x1b_Gi=1;AAAA\x1b\\", Kind.APC, True, "kitty graphics"),
    ("\x1b^privacy\x1b\\", Kind.PM, True, "privacy message"),
    ("\x1bXstring\x1b\\", Kind.SOS, True, "start of string"),
    ("\x1b(B", Kind.NF, True, "tput sgr0: designate ASCII"),
    ("\x1b)0", Kind.NF, True, "designate G1 line drawing"),
    ("\x1b%G", Kind.NF, True, "select UTF-8"),
    ("\x1b=", Kind.ESC2, True, "DECKPAM"),
    ("\x1b>", Kind.ESC2, True, "DECKPNM"),
    ("\x1b[31\x18", Kind.CANCELLED, True, "CSI cancelled by CAN"),
    ("\x1b]0;half\x1a", Kind.CANCELLED, True, "OSC cancelled by SUB"),
    # Not inert: they move the cursor or change what shows.
    ("\x1b[K", Kind.CSI, False, "EL (grep, progress bars)"),
    ("\x1b[2K", Kind.CSI, False, "EL 2"),
    ("\x1b[1G", Kind.CSI, False, "CHA"),
    ("\x1b[3A", Kind.CSI, False, "CUU (multi-bar progress)"),
    ("\x1b[2J", Kind.CSI, False, "ED (clear)"),
    ("\x1b[H", Kind.CSI, False, "CUP home"),
    ("\x1b[1;24r", Kind.CSI, False, "DECSTBM"),
    ("\x1b[?1049h", Kind.CSI, False, "alternate screen"),
    ("\x1b[4h", Kind.CSI, False, "IRM insert mode"),
    ("\x1b7", Kind.ESC2, False, "DECSC"),
    ("\x1b8", Kind.ESC2, False, "DECRC"),
    ("\x1bM", Kind.ESC2, False, "RI"),
    ("\x1bc", Kind.ESC2, False, "RIS"),
    ("\x1b(0", Kind.NF, False, "designate G0 line drawing: changes glyphs"),
    ("\x1b#8", Kind.NF, False, "DECALN"),
    ("\x9b31m", Kind.CSI, False, "C1 CSI (refused by the cleaner: terminals disagree)"),
    ("\x1b[200~", Kind.CSI, False, "bracketed paste start, echoed (final byte ~)"),
    ("\x1b[201~", Kind.CSI, False, "bracketed paste end, echoed"),
    ("\x1b[15~", Kind.CSI, False, "F5 key, echoed"),
    ("\x1b[2@", Kind.CSI, False, "ICH (final byte @)"),
]


@pytest.mark.parametrize("code,kind,inert,origin", REAL_CODES, ids=[c[3] for c in REAL_CODES])
def test_real_code_is_one_sequence_of_its_family(code, kind, inert, origin):
    assert grammar.ESCAPE_SEQUENCE.fullmatch(code)
    assert grammar.parse(code).kind is kind
    assert bool(grammar.INERT_SEQUENCE.fullmatch(code)) is inert


@pytest.mark.parametrize("code,kind,inert,origin", REAL_CODES, ids=[c[3] for c in REAL_CODES])
def test_real_code_between_text_leaves_the_text(code, kind, inert, origin):
    assert grammar.ESCAPE_SEQUENCE.sub("", f"before{code}after") == "beforeafter"


@pytest.mark.parametrize(
    "text",
    [
        "\x1b[31",  # truncated at end of input
        "\x1b[",
        "\x1b",
        "\x1b]0;title never ends",
        "\x1b]0;title\nnext line\x07",  # a newline inside a string: broken, not a title
        "\x1bPq#0;2;0;0;0",
        "\x1b_bk;t=1",
    ],
)
def test_incomplete_sequences_do_not_match(text):
    assert grammar.ESCAPE_SEQUENCE.search(text) is None or grammar.ESCAPE_SEQUENCE.search(text).end() <= 2


def test_interrupted_csi_does_not_swallow_the_next_sequence():
    text = "\x1b[31 \x1b[32mX"
    matches = [m.group() for m in grammar.ESCAPE_SEQUENCE.finditer(text)]
    assert matches == ["\x1b[32m"]


def test_unterminated_osc_does_not_reach_across_lines():
    text = "\x1b]0;title\nvisible line\n\x07"
    assert grammar.ESCAPE_SEQUENCE.search(text) is None


def test_parse_splits_csi_parts():
    seq = grammar.parse("\x1b[?1049h")
    assert (seq.private, seq.params, seq.intermediates, seq.final) == ("?", "1049", "", "h")
    seq = grammar.parse("\x1b[2 q")
    assert (seq.params, seq.intermediates, seq.final) == ("2", " ", "q")
    assert grammar.parse("\x1b[38:2::1:2:3;1m").numbers() == [38, 1]
    assert grammar.parse("\x1b[A").first(1) == 1
    assert grammar.parse("\x1b[0A").first(1) == 1
    assert grammar.parse("\x1b[5A").first(1) == 5


def test_parse_rejects_non_sequences():
    with pytest.raises(ValueError):
        grammar.parse("\x1b[31")


def test_describe_names_the_mnemonic():
    assert grammar.describe(grammar.parse("\x1b[2J")) == "CSI 2 J (ED)"
    assert grammar.describe(grammar.parse("\x1b[?1049h")) == "CSI ?1049 h (DECSET)"
    assert grammar.describe(grammar.parse("\x1bc")) == "ESC c (RIS)"


@pytest.mark.parametrize("name", sorted(GRAMMAR_UNITS))
def test_grammar_substitution_on_pathological_input(name: str) -> None:
    """Its speed (linear growth) is a row of ``python -m benchmarks.bench --only grammar``; here, what
    the substitution does with a run of the unit: every unit is the start of a sequence that never
    completes (no final byte, no string end), so nothing in the run is removed; complete sequences
    before it still go."""
    hostile = GRAMMAR_UNITS[name] * 50
    assert grammar.ESCAPE_SEQUENCE.sub("", hostile) == hostile
    assert grammar.ESCAPE_SEQUENCE.sub("", "ok \x1b[1mbold\x1b[0m " + hostile) == "ok bold " + hostile


# The prefilters the verifier searches with (issue 24: written here, once), against parse and match_at.
_PIECES = ["x", "\n", "\r", "\x1b", "\x1b[", "1", "0", ";", ":", "?", ">", " ", "$", "m", "H", "J", "K", "C", "b",
           "\x1b]0;t", "\x07", "\x1b\\", "\x1bP1", "\x1b(", "B", "\x1b7", "\x18", "\x9b", "\x9c", "é"]


def _streams(count: int = 4000, seed: int = 24) -> list[str]:
    import random

    rng = random.Random(seed)
    return ["".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 24))) for _ in range(count)]


def test_esc_sequences_splits_out_what_match_at_finds_at_each_esc() -> None:
    for text in _streams():
        pieces = grammar.ESC_SEQUENCES.split(text)
        at = 0
        for index, piece in enumerate(pieces):
            if index % 2:
                found = grammar.match_at(text, at)
                assert found is not None and found.group() == piece, repr(text)
            else:
                for escape in (i for i, char in enumerate(piece) if char == "\x1b"):
                    assert grammar.match_at(text, at + escape) is None, repr(text)
            at += len(piece)


@pytest.mark.parametrize("finals", ["H", "mKb", "JH"])
def test_csi_ending_in_finds_exactly_the_plain_csis_with_those_finals(finals: str) -> None:
    pattern = grammar.csi_ending_in(finals, subparameters="b" in finals)
    fields = set("0123456789;:" if "b" in finals else "0123456789;")
    for text in _streams():
        for found in pattern.finditer(text):
            seq = grammar.parse(found.group())
            assert seq.kind is Kind.CSI and seq.final in finals and not seq.private and not seq.intermediates
            assert set(seq.params) <= fields
        for start, end, family in grammar.scan(text):
            seq = grammar.parse(text[start:end])
            if (family == "csi" and text[start] == "\x1b" and seq.final in finals and not seq.private
                    and not seq.intermediates and set(seq.params) <= fields):
                assert pattern.match(text, start) is not None, repr(text)


def test_csi_ending_otherwise_finds_every_other_csi() -> None:
    pattern = grammar.csi_ending_otherwise("mK", unless_private_modes=(25,))
    for text in _streams():
        for start, end, family in grammar.scan(text):
            if family != "csi" or text[start] != "\x1b":
                continue
            seq = grammar.parse(text[start:end])
            cursor_shown_or_hidden = seq.private + seq.params == "?25" and seq.final in "hl"
            expected = seq.final not in "mK" and not cursor_shown_or_hidden
            assert (pattern.match(text, start) is not None) == expected, repr(text[start:end])


@pytest.mark.parametrize(("params", "above"), [
    ("2147483647", False), ("2147483648", True), ("02147483648", True), ("1;99999999999", True), ("1:3000000000", True),
    ("00000000000000001", False), ("", False), ("9" * 9, False), ("1?2147483648", False),
])
def test_above_range_reads_numbers(params: str, above: bool) -> None:
    assert grammar.above_range(params) is above


@pytest.mark.parametrize(("params", "numbers"), [
    ("01;01", [1, 1]), (";", [0, 0]), ("", [0]), ("0003", [3]), ("1:2", None), ("1?", None),
])
def test_decimal_reads_plain_fields_only(params: str, numbers: list[int] | None) -> None:
    assert grammar.parse(f"\x1b[{params}H").decimal() == numbers
