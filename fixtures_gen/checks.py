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

    @property
    def columns(self) -> int | None:
        """The capture's terminal width (its metadata), passed to ``clean`` so that it is known."""
        return self.metadata.get("columns")

    @property
    def rows(self) -> int | None:
        return self.metadata.get("lines")


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


@dataclass(frozen=True)
class Session:
    """A whole-session capture (``tests/fixtures/sessions``): the terminal's bytes and its size."""

    name: str
    path: Path  # NAME.raw, or NAME.cast (asciicast v2: the output events are the bytes)
    raw: bytes
    columns: int
    rows: int
    metadata: dict[str, Any]

    @property
    def text(self) -> str:
        return self.raw.decode("utf-8", errors="surrogateescape")


def load_sessions(directory: Path) -> list[Session]:
    """Every ``NAME.raw`` or ``NAME.cast`` with its ``NAME.json`` in ``directory``, sorted by name."""
    from oracle.asciicast import read_asciicast

    sessions = []
    for path in sorted([*directory.glob("*.raw"), *directory.glob("*.cast")]):
        with open(path, "rb") as handle:
            data = handle.read()
        metadata = json.loads(path.with_suffix(".json").read_text())
        columns, rows = metadata["columns"], metadata["lines"]
        if path.suffix == ".cast":
            recording = read_asciicast(data)
            data, columns, rows = recording.output.encode("utf-8", "surrogateescape"), recording.columns, recording.rows
        sessions.append(Session(path.stem, path, data, columns, rows, metadata))
    return sessions


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


def judge(text: str, *, columns: int | None = None, rows: int | None = None,
          terminal: bool | None = None) -> Verdict:
    """Render ``text`` with the oracle, clean it with ``min_tokens=0`` (told the capture's size
    where known), and compare the two at that size. ``terminal=False``: as text written for no
    terminal (a pipe, a log: logical lines), cleaned and rendered so (no size)."""
    import oracle

    if terminal is False:
        columns = rows = None
    shown: dict[str, Any] = {"terminal": False} if terminal is False else {"columns": columns, "rows": rows}
    ideal = "\n".join(oracle.informative_lines(text, **shown))
    result, _ = clean_at_size(text, columns, rows, terminal)
    lossless = oracle.check_lossless(text, result.text, **shown)
    return Verdict(
        adopted=result.applied,
        reason=result.reason,
        detail=result.detail,
        cleaned=result.text,
        agrees=oracle.informative_lines(text, **shown) == oracle.informative_lines(result.text, **shown),
        lossless=bool(lossless.ok),
        missing=lossless.missing,
        tokens_before=result.tokens_before,
        tokens_after=result.tokens_after,
        tokens_ideal=count_tokens(ideal),
    )


def clean_at_size(text: str, columns: int | None, rows: int | None,
                  terminal: bool | None = None) -> tuple[Any, bool]:
    """``textclean.clean(text, min_tokens=0)``, told the terminal's size when its signature takes
    one (or ``terminal=False``, no terminal); returns (result, whether the size was passed)."""
    import inspect

    from textclean import clean

    takes = set(inspect.signature(clean).parameters)
    if terminal is False and "terminal" in takes:
        return clean(text, min_tokens=0, terminal=False), False
    sized = columns is not None and {"columns", "rows"} <= takes
    size = {"columns": columns, "rows": rows} if sized else {}
    return clean(text, min_tokens=0, **size), sized


def judge_session(session: Session) -> Verdict:
    """Like :func:`judge` for a whole session at its recorded size: the ideal is the oracle's
    :func:`oracle.ideal_lines` (cleared pages included), losslessness is checked at that size."""
    import oracle

    size = {"columns": session.columns, "rows": session.rows}
    text = session.text
    ideal = oracle.ideal_lines(text, **size)
    result, _ = clean_at_size(text, session.columns, session.rows)
    lossless = oracle.check_lossless(text, result.text, **size)
    return Verdict(
        adopted=result.applied,
        reason=result.reason,
        detail=result.detail,
        cleaned=result.text,
        agrees=oracle.ideal_lines(result.text, **size) == ideal,
        lossless=bool(lossless.ok),
        missing=lossless.missing,
        tokens_before=result.tokens_before,
        tokens_after=result.tokens_after,
        tokens_ideal=count_tokens("\n".join(ideal)),
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
