"""Counts add up across cuts: the gate counts the candidate as the input's count less the blocks that
changed, and that count equals a whole count on every real capture, both encodings, both backends."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from textclean.pipeline import clean as cleaner
from textclean.pipeline import grammar, tokens
from textclean.pipeline.gate import TextClean
from textclean.pipeline.tokens import Counter, count_pair, shared_blocks, tiktoken_encoding

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CORPORA_GLOBS = ("pyte_captured/*.input", "alacritty/*/alacritty.recording")

try:
    tokens._bpe_openai_bindings()
    BACKENDS: tuple[str, ...] = ("tiktoken", "bpe-openai")
except ImportError:
    BACKENDS = ("tiktoken",)
COUNTERS = [(encoding, backend) for encoding in tokens.OFFLINE_ENCODINGS for backend in BACKENDS]


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8", "surrogateescape")  # binary: a bare CR stays a CR


def _candidates(raw: str) -> list[str]:
    """The cleaner's candidate where it makes one, and a bare strip of the escape sequences (any
    candidate must add up, adopted or not)."""
    out = [grammar.ESCAPE_SEQUENCE.sub("", raw)]
    try:
        out.append(cleaner.candidate(raw).text)
    except cleaner.Refused:
        pass
    return out


@pytest.fixture(params=["as shipped", "eager"])
def matching(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The gate's thresholds, or none: every plain run is matched, however short or rare."""
    if request.param == "eager":
        monkeypatch.setattr(tokens, "_MIN_BLOCK", 1)
        monkeypatch.setattr(tokens, "_PROBE_CHARS", 1 << 40)
        monkeypatch.setattr(tokens, "_MAX_NOISE_PER_LINE", float("inf"))
    return str(request.param)


def _check_pairs(texts: list[tuple[str, str]], encoding: str, backend: str) -> int:
    count = Counter(encoding, backend)
    reference = tiktoken_encoding(encoding).encode_ordinary
    shared = 0
    for label, raw in texts:
        for candidate in _candidates(raw):
            before, after = count_pair(count, raw, candidate)
            assert (before, after) == (len(reference(raw)), len(reference(candidate))), label
            shared += bool(shared_blocks(raw, candidate))
    return shared


@pytest.mark.parametrize(("encoding", "backend"), COUNTERS)
def test_additive_count_is_exact_on_every_committed_capture(encoding: str, backend: str, matching: str) -> None:
    texts = [(str(p.relative_to(FIXTURES)), _read(p)) for p in sorted(FIXTURES.glob("**/*.raw"))]
    assert len(texts) >= 30
    used = _check_pairs(texts, encoding, backend)
    assert used >= (20 if matching == "eager" else 1)  # blocks really used, not only whole counts


@pytest.mark.parametrize(("encoding", "backend"), COUNTERS)
def test_additive_count_is_exact_on_the_corpora_recordings(
    corpora_root: Path, encoding: str, backend: str, matching: str,
) -> None:
    paths = [p for pattern in CORPORA_GLOBS for p in sorted(corpora_root.glob(pattern))]
    assert paths
    assert _check_pairs([(str(p), _read(p)) for p in paths], encoding, backend) >= 5


# Lines built to sit on the edges of a cut: '/' after punctuation and LF (o200k_base takes "}\n/" as
# one piece), leading spaces, blank lines, CRs, escapes, lone surrogates, no final LF.
_LINE = st.one_of(
    st.text(alphabet=st.sampled_from("ab }/;:.\t\r\x1b[0m'é😀\udcc3\u3000"), max_size=12),
    st.sampled_from(["}", "/", "//x", " x", "\x1b[31mred\x1b[0m", "'ll", "123", "", "\r\n", "x\ry"]),
)
_ACTION = st.sampled_from(["keep", "keep", "keep", "strip", "drop", "edit"])


@pytest.mark.usefixtures("matching")
@given(st.sampled_from(COUNTERS), st.lists(st.tuples(_LINE, _ACTION), max_size=30), st.booleans())
@example(("o200k_base", "tiktoken"), [("x}", "keep"), ("/usr", "keep"), ("y\x1b[m", "strip")], False)
@example(("cl100k_base", "tiktoken"), [(" a", "keep"), ("b", "drop"), (" c", "keep")], True)
def test_additive_count_is_exact_on_generated_pairs(
    counter: tuple[str, str], lines: list[tuple[str, str]], final_newline: bool,
) -> None:
    raw_lines, clean_lines = [], []
    for line, action in lines:
        raw_lines.append(line)
        if action == "keep":
            clean_lines.append(line)
        elif action == "strip":
            clean_lines.append(grammar.ESCAPE_SEQUENCE.sub("", line))
        elif action == "edit":
            clean_lines.append(line[::-1])
    raw = "\n".join(raw_lines) + ("\n" if final_newline else "")
    candidate = "\n".join(clean_lines) + ("\n" if final_newline else "")
    encoding, backend = counter
    reference = tiktoken_encoding(encoding).encode_ordinary
    assert count_pair(Counter(encoding, backend), raw, candidate) == (len(reference(raw)), len(reference(candidate)))
    for raw_at, clean_at, length in shared_blocks(raw, candidate):
        assert raw[raw_at : raw_at + length] == candidate[clean_at : clean_at + length]


def test_a_slash_after_a_line_feed_is_no_cut() -> None:
    """o200k_base counts "}\\n/" as one piece: chunks and blocks are never cut there."""
    enc = tiktoken_encoding("o200k_base")
    assert len(enc.encode_ordinary("x}\n/")) < len(enc.encode_ordinary("x}\n")) + len(enc.encode_ordinary("/"))
    assert not tokens.is_cut("x}\n/", 3) and tokens.is_cut("x}\ny", 3) and not tokens.is_cut("x}\n y", 3)
    text = ("x}\n/" * 700_000)[:-1]  # over 2 MB: counted in chunks
    for backend in BACKENDS:
        assert Counter("o200k_base", backend)(text) == len(enc.encode_ordinary(text))


def test_long_whitespace_runs_add_up() -> None:
    """A run tiktoken cannot take whole is counted in pieces, the same pieces whole or in blocks."""
    plain = "".join(f"line {i} of plain output\n" for i in range(3000))
    raw = plain + "\x1b[1mbold\x1b[0m" + " " * 1_100_000 + "end\n" + plain
    candidate = plain + "bold" + " " * 1_100_000 + "end\n" + plain
    for backend in BACKENDS:
        count = Counter("cl100k_base", backend)
        assert shared_blocks(raw, candidate)
        assert count_pair(count, raw, candidate) == (count(raw), count(candidate))


def test_the_gate_counts_by_blocks_what_a_whole_count_gives() -> None:
    plain = "".join(f"2026-11-30 INFO worker {i} done in {i % 97} ms\n" for i in range(2000))
    text = plain + "".join(f"\rdownloading {p}%" for p in range(100)) + "\n" + plain
    for encoding, backend in COUNTERS:
        count = Counter(encoding, backend)
        result = TextClean(tokenizer=count).clean(text)
        assert result.applied
        assert (result.tokens_before, result.tokens_after) == (count(text), count(result.text))
        assert shared_blocks(text, result.text)
    given = TextClean().clean(text, tokens_before=123_456)  # a caller's count: the candidate is counted whole
    assert given.tokens_after == Counter("cl100k_base")(given.text)
