"""The contract ``clean`` keeps on any input, checked by ``tests/test_fuzz.py`` and the atheris
harness ``fuzz/fuzz_clean.py`` alike.

* no exception;
* a refusal returns the very object passed in, with a gate reason;
* an adoption is strictly fewer tokens and keeps every line the terminal showed (the oracle);
* ``clean`` is idempotent;
* text that came from bytes (lone surrogates U+DC80-U+DCFF only): the adopted text encoded back is
  bytes that decode to the same text, and keeps every line the terminal showed for the raw bytes.
"""

from __future__ import annotations

import re

import oracle
from textclean import GATE_REASONS, TextClean

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def lost_lines(raw: str | bytes, candidate: str | bytes) -> str | None:
    """None when ``candidate`` keeps every line the terminal showed for ``raw``, else what is missing."""
    verdict = oracle.check_lossless(raw, candidate)
    return None if verdict.ok else verdict.describe()


def check(gate: TextClean, text: str) -> None:
    """Clean ``text`` and assert the contract (AssertionError says what broke)."""
    result = gate.clean(text)
    if not result.applied:
        assert result.text is text, "a refusal must return the very object passed in"
        assert result.reason in GATE_REASONS, result.reason
        return
    assert result.reason is None
    assert result.tokens_after < result.tokens_before, (result.tokens_after, result.tokens_before)
    again = gate.clean(result.text)
    assert again.text == result.text, f"not idempotent on {text!r}: {result.text!r} -> {again.text!r}"
    loss = lost_lines(text, result.text)
    assert loss is None, f"lossy adoption of {text!r} as {result.text!r}: {loss}"
    if not all("\udc80" <= c <= "\udcff" for c in _LONE_SURROGATE.findall(text)):
        return  # not text decoded from bytes
    raw = text.encode("utf-8", "surrogateescape")
    out = result.text.encode("utf-8", "surrogateescape")
    assert out.decode("utf-8", "surrogateescape") == result.text, f"bytes join into a character: {out!r}"
    loss = lost_lines(raw, out)
    assert loss is None, f"lossy as bytes {raw!r} -> {out!r}: {loss}"
