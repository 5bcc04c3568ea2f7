"""``textclean measure PATH…``: what the gate would save on a corpus of agent logs and captures.

Files are read one at a time by :mod:`textclean.measure.sources` (format detected per file). Outputs are
deduplicated by exact text, keeping only a SHA-1 per distinct text, so memory stays flat however many
files are read. Each distinct output goes through the gate once; the totals, the attribution of the
saving to each transform, the gate reasons and the largest savings are printed (``--json`` for
machines). ``--jobs N`` reads files in N spawned processes (one file per task).
"""

from __future__ import annotations

import argparse
import hashlib
import heapq
import itertools
import json
import multiprocessing
import re
import sys
import textwrap
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TextIO

from textclean.integrations.content import NON_TEXT_BLOCKS
from textclean.pipeline.cleaner import strip_escapes_only
from textclean.pipeline.gate import DEFAULT_MIN_TOKENS, TextClean
from textclean.pipeline.probe import has_terminal_noise
from textclean.pipeline.tokens import token_counter

from .sources import FORMATS, ReadStats, ToolOutput, detect_format, expand_paths, read_file

APPLIED = "applied"
TOP_SAVINGS = 10

# Runs of two or more blank lines (empty or spaces/tabs, CRLF or LF), for the blank-line reference.
_BLANK_RUN = re.compile(r"\n(?:[ \t]*\r*\n){2,}")

FOOTNOTE_ATTRIBUTION = (
    "Attribution per fired output: escape sequences = tokens(input) - tokens(strip_escapes_only(input)), "
    "capped at the output's saving; the rest of the saving is split between \\r redraws, backspace and "
    "multi-line redraws in proportion to the characters each removed (Result.removed.cr_chars, "
    "backspace_chars, multiline_chars), or goes to escape sequences when no redraw removed any. Token "
    "counts are not additive across transforms, so this is an estimate of each transform's share; the "
    "total is exact."
)
FOOTNOTE_BLANK = (
    "Blank-line runs: tokens saved by collapsing each run of two or more blank lines into one, measured "
    "on each gated output's final text (cleaned when fired, else the original); never applied."
)


def collapse_blank_runs(text: str) -> str:
    """Each run of two or more blank lines made one empty line (measured for reference, never applied)."""
    return _BLANK_RUN.sub("\n\n", text)


def text_hash(output: ToolOutput) -> bytes:
    digest = hashlib.sha1(output.text.encode("utf-8", "surrogatepass"))
    if output.non_text_blocks:
        digest.update(b"\0non-text")
    return digest.digest()


class OutputRecord(NamedTuple):
    """The measurement of one distinct output (small: no text)."""

    digest: bytes
    label: str
    noisy: bool
    reason: str  # APPLIED or a gate reason
    tokens_before: int
    tokens_after: int
    escape_tokens: float
    cr_tokens: float
    backspace_tokens: float
    multiline_tokens: float
    blank_run_tokens: int


@dataclass
class Tally:
    """The aggregate of many :class:`OutputRecord`; what ``measure`` prints."""

    min_tokens: int
    files: int = 0
    skipped_files: int = 0
    unreadable_files: int = 0
    malformed: int = 0
    outputs_seen: int = 0
    unique: int = 0
    noisy: int = 0
    fired: int = 0
    tokens_before: int = 0
    tokens_after: int = 0
    touched_before: int = 0
    touched_after: int = 0
    escape_tokens: float = 0.0
    cr_tokens: float = 0.0
    backspace_tokens: float = 0.0
    multiline_tokens: float = 0.0
    blank_run_tokens: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    top: list[tuple[int, int, str, int, int]] = field(default_factory=list)  # heap of the largest savings
    formats: Counter[str] = field(default_factory=Counter)

    def add_stats(self, stats: ReadStats) -> None:
        self.files += stats.files
        self.skipped_files += stats.skipped_files
        self.unreadable_files += stats.unreadable_files
        self.malformed += stats.malformed

    def add(self, r: OutputRecord) -> None:
        self.unique += 1
        self.noisy += r.noisy
        self.reasons[r.reason] += 1
        self.tokens_before += r.tokens_before
        self.tokens_after += r.tokens_after
        self.blank_run_tokens += r.blank_run_tokens
        if r.reason != APPLIED:
            return
        self.fired += 1
        self.touched_before += r.tokens_before
        self.touched_after += r.tokens_after
        self.escape_tokens += r.escape_tokens
        self.cr_tokens += r.cr_tokens
        self.backspace_tokens += r.backspace_tokens
        self.multiline_tokens += r.multiline_tokens
        saved = r.tokens_before - r.tokens_after
        # (saved, -unique) orders ties by first seen; the heap keeps the TOP_SAVINGS largest.
        item = (saved, -self.unique, r.label, r.tokens_before, r.tokens_after)
        if len(self.top) < TOP_SAVINGS:
            heapq.heappush(self.top, item)
        else:
            heapq.heappushpop(self.top, item)

    def largest_savings(self) -> list[dict[str, Any]]:
        return [
            {"saved": s, "tokens_before": b, "tokens_after": a, "source": label}
            for s, _, label, b, a in sorted(self.top, reverse=True)
        ]

    def as_dict(self) -> dict[str, Any]:
        saved = self.tokens_before - self.tokens_after
        return {
            "min_tokens": self.min_tokens,
            "files": self.files,
            "formats": dict(self.formats),
            "skipped_files": self.skipped_files,
            "unreadable_files": self.unreadable_files,
            "malformed_records": self.malformed,
            "outputs_seen": self.outputs_seen,
            "outputs_unique": self.unique,
            "outputs_with_terminal_noise": self.noisy,
            "outputs_fired": self.fired,
            "tokens_before": self.tokens_before,
            "tokens_after": self.tokens_after,
            "tokens_saved": saved,
            "touched_tokens_before": self.touched_before,
            "touched_tokens_after": self.touched_after,
            "touched_share_removed": _share(saved, self.touched_before),
            "saved_by_transform": {
                "escape_sequences": round(self.escape_tokens),
                "cr_redraws": round(self.cr_tokens),
                "backspace": round(self.backspace_tokens),
                "multiline_redraws": round(self.multiline_tokens),
            },
            "blank_line_runs_reference": self.blank_run_tokens,
            "gate_reasons": dict(self.reasons.most_common()),
            "largest_savings": self.largest_savings(),
            "notes": {"attribution": FOOTNOTE_ATTRIBUTION, "blank_line_runs": FOOTNOTE_BLANK},
        }


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


class Measurer:
    """Gates outputs and measures what each transform took away."""

    def __init__(self, min_tokens: int, tokenizer: str | None = None) -> None:
        self.min_tokens = min_tokens
        self.gate = TextClean(min_tokens=min_tokens, tokenizer=tokenizer)
        self.count = token_counter(tokenizer)

    def measure(self, output: ToolOutput, digest: bytes) -> OutputRecord:
        try:
            return self._measure(output, digest)
        except Exception as error:  # a bug met on one output of a user's logs must not lose the report
            reason = f"error: {type(error).__name__}"
            return OutputRecord(digest, output.label, False, reason, 0, 0, 0.0, 0.0, 0.0, 0.0, 0)

    def _measure(self, output: ToolOutput, digest: bytes) -> OutputRecord:
        text = output.text
        noisy = has_terminal_noise(text)
        if output.non_text_blocks:
            n = self.count(text)
            return OutputRecord(digest, output.label, noisy, NON_TEXT_BLOCKS, n, n, 0.0, 0.0, 0.0, 0.0, 0)
        result = self.gate.clean(text)
        before, after = result.tokens_before, result.tokens_after
        final = result.text
        blank = 0
        if before >= self.min_tokens and _BLANK_RUN.search(final):
            # `after` counts `final` whether or not the gate fired (refused: tokens_after == tokens_before).
            blank = after - self.count(collapse_blank_runs(final))
        if not result.applied:
            return OutputRecord(
                digest, output.label, noisy, result.reason or "", before, after, 0.0, 0.0, 0.0, 0.0, blank
            )
        saved = before - after
        escape = min(max(before - self.count(strip_escapes_only(text)), 0), saved)
        rest = saved - escape
        removed = result.removed
        redraw_chars = removed.cr_chars + removed.backspace_chars + removed.multiline_chars
        if redraw_chars:
            cr = rest * removed.cr_chars / redraw_chars
            bs = rest * removed.backspace_chars / redraw_chars
            ml = rest * removed.multiline_chars / redraw_chars
        else:
            escape, cr, bs, ml = saved, 0.0, 0.0, 0.0
        return OutputRecord(digest, output.label, noisy, APPLIED, before, after, escape, cr, bs, ml, blank)


@dataclass
class FileMeasurement:
    """One file's contribution: reader stats, how many outputs it held, its distinct outputs' records."""

    stats: ReadStats
    fmt: str
    outputs_seen: int
    records: list[OutputRecord]


def measure_file(
    path: str, measurer: Measurer, seen: set[bytes], fmt: str | None = None
) -> FileMeasurement:
    """Measure the outputs of one file whose digest is not in ``seen`` (and add theirs to it)."""
    stats = ReadStats()
    try:
        detected = fmt or detect_format(path)
    except OSError:
        detected = "unreadable"
    records: list[OutputRecord] = []
    count = 0
    for output in read_file(path, stats, detected if detected in FORMATS else None):
        count += 1
        digest = text_hash(output)
        if digest in seen:
            continue
        seen.add(digest)
        records.append(measurer.measure(output, digest))
    return FileMeasurement(stats, detected, count, records)


# --- parallel workers (spawn-safe: module-level state set by the pool initializer) --------------

_worker_measurer: Measurer | None = None
_worker_format: str | None = None


def _init_worker(min_tokens: int, tokenizer: str | None, fmt: str | None) -> None:
    global _worker_measurer, _worker_format
    _worker_measurer = Measurer(min_tokens, tokenizer)
    _worker_format = fmt


def _measure_in_worker(path: str) -> FileMeasurement:
    assert _worker_measurer is not None
    # Deduplicated within the file here; across files by the parent.
    return measure_file(path, _worker_measurer, set(), _worker_format)


def iter_file_measurements(
    paths: Iterable[str],
    *,
    min_tokens: int,
    tokenizer: str | None,
    jobs: int,
    fmt: str | None,
    seen: set[bytes],
) -> Iterator[FileMeasurement]:
    if jobs <= 1:
        measurer = Measurer(min_tokens, tokenizer)
        for path in paths:
            yield measure_file(path, measurer, seen, fmt)
        return
    context = multiprocessing.get_context("spawn")
    with context.Pool(jobs, initializer=_init_worker, initargs=(min_tokens, tokenizer, fmt)) as pool:
        # A bounded window of files in flight, so neither queued paths nor finished results pile up.
        window = iter(paths)
        while batch := list(itertools.islice(window, jobs * 4)):
            yield from pool.imap(_measure_in_worker, batch, chunksize=1)


# --- progress ------------------------------------------------------------------------------------


class Progress:
    """A one-line progress bar on a stream, redrawn at most ten times a second."""

    def __init__(self, stream: TextIO, total_files: int, enabled: bool) -> None:
        self.stream = stream
        self.total = total_files
        self.enabled = enabled
        self.last = 0.0

    def update(self, files: int, outputs: int, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self.last < 0.1:
            return
        self.last = now
        width = 30
        filled = width * files // self.total if self.total else width
        bar = "#" * filled + "." * (width - filled)
        self.stream.write(f"\r[{bar}] {files}/{self.total} files, {outputs} outputs")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


def measure_paths(
    paths: list[str],
    *,
    min_tokens: int = DEFAULT_MIN_TOKENS,
    tokenizer: str | None = None,
    jobs: int = 1,
    fmt: str | None = None,
    progress: Progress | None = None,
) -> Tally:
    """Measure every file under ``paths`` and return the aggregate."""
    tally = Tally(min_tokens=min_tokens)
    seen: set[bytes] = set()
    files = iter_file_measurements(
        expand_paths(paths), min_tokens=min_tokens, tokenizer=tokenizer, jobs=jobs, fmt=fmt, seen=seen
    )
    for done, fm in enumerate(files, 1):
        tally.add_stats(fm.stats)
        tally.formats[fm.fmt] += 1
        tally.outputs_seen += fm.outputs_seen
        for record in fm.records:
            if jobs > 1:
                if record.digest in seen:
                    continue
                seen.add(record.digest)
            tally.add(record)
            if record.reason.startswith("error"):
                print(f"textclean measure: {record.reason} on {record.label}", file=sys.stderr)
        if progress:
            progress.update(done, tally.outputs_seen)
    if progress:
        progress.update(tally.files, tally.outputs_seen, force=True)
        progress.close()
    return tally


# --- report --------------------------------------------------------------------------------------


def _pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def format_report(tally: Tally) -> str:
    t = tally
    saved = t.tokens_before - t.tokens_after
    lines = [
        f"files read             {t.files:>12,}  ("
        + ", ".join(f"{n} {fmt}" for fmt, n in sorted(t.formats.items()))
        + f"; {t.skipped_files} skipped, {t.unreadable_files} unreadable)",
        f"malformed records      {t.malformed:>12,}  (skipped)",
        f"outputs seen           {t.outputs_seen:>12,}",
        f"  distinct (by text)   {t.unique:>12,}",
        f"  with terminal noise  {t.noisy:>12,}",
        f"  fired                {t.fired:>12,}  (gate at --min-tokens {t.min_tokens})",
        f"tokens before -> after {t.tokens_before:>12,} -> {t.tokens_after:,}  "
        f"(-{saved:,}, {_pct(saved, t.tokens_before)} of all distinct outputs)",
        f"touched mass           {t.touched_before:>12,} -> {t.touched_after:,}  "
        f"({_pct(saved, t.touched_before)} of the fired outputs' tokens removed)",
        "tokens saved by transform [1]",
        f"  escape sequences     {round(t.escape_tokens):>12,}",
        f"  \\r redraws           {round(t.cr_tokens):>12,}",
        f"  backspace            {round(t.backspace_tokens):>12,}",
        f"  multi-line redraws   {round(t.multiline_tokens):>12,}",
        f"  (blank-line runs [2] {t.blank_run_tokens:>12,}  measured, not applied)",
        "gate reasons",
    ]
    widest = max(t.reasons.values(), default=0)
    for reason, n in t.reasons.most_common():
        bar = "#" * max(1, round(30 * n / widest))
        lines.append(f"  {reason:<20} {n:>12,}  {bar}")
    lines.append("largest savings")
    for item in t.largest_savings():
        counts = f"({item['tokens_before']:,} -> {item['tokens_after']:,})"
        lines.append(f"  {item['saved']:>10,}  {counts}  {item['source']}")
    if not t.top:
        lines.append("  (none fired)")
    lines.extend(textwrap.wrap(f"[1] {FOOTNOTE_ATTRIBUTION}", 100, subsequent_indent="    "))
    lines.extend(textwrap.wrap(f"[2] {FOOTNOTE_BLANK}", 100, subsequent_indent="    "))
    return "\n".join(lines) + "\n"


# --- command line --------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="textclean measure",
        description="Measure what textclean would save on agent logs, recordings and raw captures.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or directories")
    parser.add_argument(
        "--min-tokens", type=int, default=DEFAULT_MIN_TOKENS,
        help=f"the gate's threshold (default {DEFAULT_MIN_TOKENS})",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    parser.add_argument("--jobs", "-j", type=int, default=1, help="processes reading files (default 1)")
    parser.add_argument("--progress", action="store_true", help="show the progress bar even off a tty")
    parser.add_argument(
        "--tokenizer", default=None,
        help="encoding: cl100k_base or o200k_base (offline), or another tiktoken name (default cl100k_base)",
    )
    parser.add_argument(
        "--format", dest="fmt", choices=FORMATS, default=None, help="force one format instead of detecting"
    )
    return parser


def measure_main(argv: list[str]) -> int:
    """Entry point of ``textclean measure``; ``argv`` excludes the subcommand name."""
    args = build_parser().parse_args(argv)
    show = args.progress or sys.stderr.isatty()
    progress = Progress(sys.stderr, sum(1 for _ in expand_paths(args.paths)), show) if show else None
    tally = measure_paths(
        args.paths,
        min_tokens=args.min_tokens,
        tokenizer=args.tokenizer,
        jobs=max(1, args.jobs),
        fmt=args.fmt,
        progress=progress,
    )
    if args.json:
        sys.stdout.write(json.dumps(tally.as_dict(), indent=2) + "\n")
    else:
        sys.stdout.write(format_report(tally))
    return 0


def main() -> None:
    raise SystemExit(measure_main(sys.argv[1:]))


if __name__ == "__main__":
    main()
