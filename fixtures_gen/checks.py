"""Judge a capture the way the test suite does: oracle rendering, cleaner verdict, losslessness, tokens.

Shared by the corpus tests, the live-capture tests and :mod:`fixtures_gen.savings`, so a team that
builds its own fixture set can run the very same checks on it. Imports textclean and the oracle
lazily: capturing needs neither.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textclean.pipeline.result import GATE_REASONS, NON_TEXT_BLOCKS

# The gate reasons design.md documents, in gate order (message integration adds the last).
DOCUMENTED_REASONS = (*GATE_REASONS, NON_TEXT_BLOCKS)

#: What a capture records about itself (``NAME.json``, design.md "Fixtures"); the catalogue adds ``name``.
CAPTURE_METADATA_KEYS = frozenset(
    {"argv", "columns", "lines", "term", "env", "exit_code", "program_version", "sha256", "captured"}
)


@dataclass(frozen=True)
class Fixture:
    name: str
    raw: bytes
    metadata: dict[str, Any]

    @property
    def text(self) -> str:
        return self.raw.decode("utf-8", errors="surrogateescape")


@dataclass(frozen=True)
class Verdict:
    """What the cleaner did with a capture, and what the oracle says about it."""

    adopted: bool
    reason: str | None
    detail: str | None
    cleaned: str
    agrees: bool
    lossless: bool
    missing: str | None
    tokens_before: int
    tokens_after: int
    tokens_ideal: int


def load_fixtures(directory: Path) -> list[Fixture]:
    """Every ``NAME.raw`` with its ``NAME.json`` in ``directory``, sorted by name."""
    fixtures = []
    for raw_path in sorted(directory.glob("*.raw")):
        with open(raw_path, "rb") as handle:
            raw = handle.read()
        metadata = json.loads(raw_path.with_suffix(".json").read_text())
        fixtures.append(Fixture(raw_path.stem, raw, metadata))
    return fixtures


def public_gate_reasons() -> set[str]:
    """textclean's public gate reasons (``GATE_REASONS``, else the upper-case constants)."""
    import textclean

    if hasattr(textclean, "GATE_REASONS"):
        return set(textclean.GATE_REASONS)
    found = {
        getattr(textclean, name.upper()) for name in DOCUMENTED_REASONS if hasattr(textclean, name.upper())
    }
    return found or set(DOCUMENTED_REASONS)


def count_tokens(text: str) -> int:
    """Tokens as textclean counts them (its default tokenizer), measured through ``clean`` itself."""
    from textclean import clean

    return clean(text, min_tokens=0).tokens_before


def judge(text: str) -> Verdict:
    """Render ``text`` with the oracle, clean it with ``min_tokens=0``, and compare the two."""
    import oracle
    from textclean import clean

    ideal = "\n".join(oracle.informative_lines(text))
    result = clean(text, min_tokens=0)
    lossless = oracle.check_lossless(text, result.text)
    return Verdict(
        adopted=result.applied,
        reason=result.reason,
        detail=result.detail,
        cleaned=result.text,
        agrees=bool(oracle.agrees(text, result.text)),
        lossless=bool(lossless.ok),
        missing=lossless.missing,
        tokens_before=result.tokens_before,
        tokens_after=result.tokens_after,
        tokens_ideal=count_tokens(ideal),
    )


def problems(verdict: Verdict) -> list[str]:
    """What is wrong with a verdict by the corpus contract (empty when it holds)."""
    found = []
    if not verdict.lossless:
        found.append(f"cleaned text fails check_lossless; first missing line: {verdict.missing!r}")
    if verdict.adopted and not verdict.agrees:
        found.append("adopted a result that does not agree with the oracle")
    if not verdict.adopted and verdict.reason not in public_gate_reasons():
        found.append(f"refused with {verdict.reason!r}, not a public gate reason")
    return found
