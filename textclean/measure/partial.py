"""The map and the merge: :func:`measure_file` turns one file into a :class:`Partial` report, and
:func:`merge` combines partial reports (associative, so any engine may group the files as it likes).

A partial report holds one :class:`FileRow` per file (all of its outputs, repeats included), the
record of each distinct output (by text digest; the first file in path order wins, so a merge keeps
its left side's record), and the largest savings with before/after excerpts. Merging partials of
consecutive runs of files in order gives exactly the report of one serial pass.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from .detect import UNKNOWN, detect
from .gauge import ERROR_PREFIX, Measurer, OutputRecord, text_hash
from .outputs import ReadStats, ToolOutput
from .sources import FORMATS, read_file

TOP_SAVINGS = 10
EXCERPT_CHARS = 1200
EXCERPT_LINES = 16
UNREADABLE = "unreadable"


class FileRow(NamedTuple):
    """One file: its format, every output it held (repeats included), the top refusal reason."""

    path: str
    format: str
    outputs: int
    fired: int
    tokens_before: int
    tokens_after: int
    malformed: int
    top_refusal: str | None  # the most common gate reason among its refused outputs
    top_refusal_outputs: int
    top_refusal_detail: str | None  # the first such output's detail
    displays: dict[str, int]  # outputs per display they were cleaned for (ToolOutput.display)


class Saving(NamedTuple):
    """A fired output among the largest savings, with the start of its text before and after."""

    saved: int
    order: tuple[int, int]  # (file index, output index): ties go to the first seen
    digest: bytes
    label: str
    tokens_before: int
    tokens_after: int
    before: str
    after: str


def excerpt(text: str) -> str:
    """The first lines of a text, capped in characters (a redrawn line can be megabytes)."""
    lines = text.split("\n", EXCERPT_LINES)
    head = "\n".join(lines[:EXCERPT_LINES])
    return head[:EXCERPT_CHARS]


def _rank(saving: Saving) -> tuple[int, tuple[int, int]]:
    return -saving.saved, saving.order


def top_savings(savings: Iterable[Saving]) -> list[Saving]:
    """The :data:`TOP_SAVINGS` largest, each distinct output once (at its first sighting)."""
    best: dict[bytes, Saving] = {}
    for saving in savings:
        kept = best.get(saving.digest)
        if kept is None or saving.order < kept.order:
            best[saving.digest] = saving
    return sorted(best.values(), key=_rank)[:TOP_SAVINGS]


@dataclass
class Partial:
    """A mergeable report over some files (see the module docstring)."""

    rows: list[FileRow] = field(default_factory=list)
    records: dict[bytes, OutputRecord] = field(default_factory=dict)
    top: list[Saving] = field(default_factory=list)
    stats: ReadStats = field(default_factory=ReadStats)

    def merge_from(self, other: Partial) -> None:
        """Add ``other`` (files that come after this one's) to this report."""
        self.rows.extend(other.rows)
        for digest, record in other.records.items():
            self.records.setdefault(digest, record)
        self.top = top_savings([*self.top, *other.top])
        self.stats.merge(other.stats)


def merge(*partials: Partial) -> Partial:
    """One report of several, in order; the inputs are left as they were."""
    out = Partial()
    for partial in partials:
        out.merge_from(partial)
    return out


def merge_all(partials: Iterable[Partial]) -> Partial:
    return merge(*partials)


def _top_refusal(reasons: Counter[str], details: dict[str, str | None]) -> tuple[str | None, int, str | None]:
    if not reasons:
        return None, 0, None
    reason, n = reasons.most_common(1)[0]
    return reason, n, details.get(reason)


def measure_file(
    path: str,
    measurer: Measurer,
    *,
    index: int = 0,
    fmt: str | None = None,
    known: dict[bytes, OutputRecord] | None = None,
) -> Partial:
    """The partial report of one file (``index``: its place in the run, for ordering ties).

    ``known`` holds records already measured (by an earlier file of the same run): an output found
    there is not gated again, since the same text always measures the same.
    """
    stats = ReadStats()
    preamble = 0
    try:
        detected, preamble = (fmt, 0) if fmt else detect(path)
    except (OSError, EOFError):  # read_file meets it again and records why
        detected = UNREADABLE
    partial = Partial(stats=stats)
    outputs = fired = before = after = 0
    reasons: Counter[str] = Counter()
    displays: Counter[str] = Counter()
    details: dict[str, str | None] = {}
    candidates: list[Saving] = []
    output: ToolOutput
    for n, output in enumerate(read_file(path, stats, detected if detected in FORMATS else None, preamble)):
        outputs += 1
        displays[output.display] += 1
        digest = text_hash(output)
        record = partial.records.get(digest) or (known.get(digest) if known is not None else None)
        cleaned = None
        if record is None:
            record, cleaned = measurer.measure(output)
        partial.records.setdefault(digest, record)
        before += record.tokens_before
        after += record.tokens_after
        if record.fired:
            fired += 1
            if cleaned is not None:
                candidates.append(Saving(
                    record.saved, (index, n), digest, record.label, record.tokens_before, record.tokens_after,
                    excerpt(output.text), excerpt(cleaned),
                ))
                if len(candidates) > 4 * TOP_SAVINGS:
                    candidates = top_savings(candidates)
        else:
            reasons[record.reason] += 1
            details.setdefault(record.reason, record.detail)
    if stats.unreadable_files:
        detected = UNREADABLE
    top, top_n, top_detail = _top_refusal(reasons, details)
    if detected == UNKNOWN:
        top, top_detail = "unknown_shape", "JSON no reader knows, or broken JSON"
    partial.rows.append(FileRow(path, detected, outputs, fired, before, after, stats.malformed, top, top_n, top_detail,
                                dict(displays)))
    partial.top = top_savings(candidates)
    return partial


def errors(partial: Partial) -> list[OutputRecord]:
    """Outputs whose measurement raised (reported on stderr, never fatal)."""
    return [r for r in partial.records.values() if r.reason.startswith(ERROR_PREFIX)]
