"""``textclean measure PATH…``: what the gate would save on a corpus of agent logs and captures.

Files are read by :mod:`.sources` (format told by content), each file mapped to a partial report
(:func:`.partial.measure_file`) and the partials merged (:mod:`.engines`: serial, a process pool, or
Dask). Outputs are deduplicated by text: the distinct totals count each text once, the "all outputs"
totals count every repetition (what an agent would actually have been sent). Printed as a table,
``--per-file`` rows, ``--json``, and ``--html FILE`` (:mod:`.page`).
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
import time
from collections import Counter
from typing import Any, TextIO

from textclean.pipeline.gate import DEFAULT_MIN_TOKENS
from textclean.pipeline.tokens import TokenizerError, token_counter

from .detect import FORMATS, UNKNOWN
from .engines import ENGINES, Options, run_dask, run_pool, run_serial
from .gauge import collapse_blank_runs
from .opener import STDIN, PathError, check_path, expand_paths
from .partial import Partial, errors

__all__ = ["collapse_blank_runs", "measure_main", "measure_paths", "summarize"]

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
FOOTNOTE_DISTINCT = (
    "Distinct outputs count each text once (a log that repeats an output pays for it once here); all "
    "outputs count every occurrence, which is closer to what the agent was sent."
)


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def summarize(partial: Partial, min_tokens: int) -> dict[str, Any]:
    """The report of a merged partial, as ``--json`` prints it (every number the table and page show)."""
    records = list(partial.records.values())
    fired = [r for r in records if r.fired]
    before = sum(r.tokens_before for r in records)
    after = sum(r.tokens_after for r in records)
    saved = before - after
    touched_before = sum(r.tokens_before for r in fired)
    reasons = Counter(r.reason for r in records)
    rows = partial.rows
    formats = Counter(row.format for row in rows)
    by_format: dict[str, dict[str, int]] = {}
    for row in rows:
        entry = by_format.setdefault(row.format, {"files": 0, "outputs": 0, "fired": 0, "tokens_before": 0,
                                                  "tokens_after": 0, "tokens_saved": 0})
        entry["files"] += 1
        entry["outputs"] += row.outputs
        entry["fired"] += row.fired
        entry["tokens_before"] += row.tokens_before
        entry["tokens_after"] += row.tokens_after
        entry["tokens_saved"] += row.tokens_before - row.tokens_after
    displays: dict[str, dict[str, int]] = {}
    for row in rows:
        per_format = displays.setdefault(row.format, {})
        for display, n in row.displays.items():
            per_format[display] = per_format.get(display, 0) + n
    all_before = sum(row.tokens_before for row in rows)
    all_after = sum(row.tokens_after for row in rows)
    refusal_details: dict[str, str] = {}
    for r in records:
        if not r.fired and r.detail and r.reason not in refusal_details:
            refusal_details[r.reason] = r.detail
    return {
        "min_tokens": min_tokens,
        "files": len(rows),
        "formats": dict(sorted(formats.items())),
        "unknown_files": [row.path for row in rows if row.format == UNKNOWN],
        "unreadable_files": partial.stats.unreadable_files,
        "malformed_records": partial.stats.malformed,
        "preamble_lines": partial.stats.preamble_lines,
        "preamble_files": partial.stats.preamble_files,
        "outputs_seen": sum(row.outputs for row in rows),
        "outputs_unique": len(records),
        "outputs_with_terminal_noise": sum(r.noisy for r in records),
        "outputs_fired": len(fired),
        "tokens_before": before,
        "tokens_after": after,
        "tokens_saved": saved,
        "touched_tokens_before": touched_before,
        "touched_tokens_after": sum(r.tokens_after for r in fired),
        "touched_share_removed": _share(saved, touched_before),
        "all_outputs": {
            "outputs": sum(row.outputs for row in rows),
            "fired": sum(row.fired for row in rows),
            "tokens_before": all_before,
            "tokens_after": all_after,
            "tokens_saved": all_before - all_after,
        },
        "saved_by_transform": {
            "escape_sequences": round(sum(r.escape_tokens for r in fired)),
            "cr_redraws": round(sum(r.cr_tokens for r in fired)),
            "backspace": round(sum(r.backspace_tokens for r in fired)),
            "multiline_redraws": round(sum(r.multiline_tokens for r in fired)),
        },
        "saved_by_format": by_format,
        "displays_by_format": {fmt: dict(sorted(d.items())) for fmt, d in sorted(displays.items()) if d},
        "blank_line_runs_reference": sum(r.blank_run_tokens for r in records),
        "gate_reasons": dict(reasons.most_common()),
        "refusal_details": refusal_details,
        "largest_savings": [
            {"saved": s.saved, "tokens_before": s.tokens_before, "tokens_after": s.tokens_after,
             "source": s.label, "before_excerpt": s.before, "after_excerpt": s.after}
            for s in partial.top
        ],
        "per_file": [row._asdict() for row in rows],
        "notes": {"attribution": FOOTNOTE_ATTRIBUTION, "blank_line_runs": FOOTNOTE_BLANK,
                  "distinct": FOOTNOTE_DISTINCT},
    }


# --- progress ------------------------------------------------------------------------------------


class Progress:
    """A one-line progress bar on a stream, redrawn at most ten times a second."""

    def __init__(self, stream: TextIO, total_files: int, enabled: bool) -> None:
        self.stream = stream
        self.total = total_files
        self.enabled = enabled
        self.last = 0.0
        self.files = 0
        self.outputs = 0

    def __call__(self, partial: Partial) -> None:
        self.files += len(partial.rows)
        self.outputs += sum(row.outputs for row in partial.rows)
        self.update()

    def update(self, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self.last < 0.1:
            return
        self.last = now
        width = 30
        filled = width * self.files // self.total if self.total else width
        bar = "#" * filled + "." * (width - filled)
        self.stream.write(f"\r[{bar}] {self.files}/{self.total} files, {self.outputs} outputs")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.update(force=True)
            self.stream.write("\n")
            self.stream.flush()


def measure_paths(
    paths: list[str],
    *,
    min_tokens: int = DEFAULT_MIN_TOKENS,
    tokenizer: str | None = None,
    jobs: int = 1,
    fmt: str | None = None,
    engine: str | None = None,
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> Partial:
    """Measure every file under ``paths`` on the chosen engine; the merged partial report."""
    options = Options(min_tokens=min_tokens, tokenizer=tokenizer, fmt=fmt)
    files = expand_paths(paths)
    engine = engine or ("dask" if scheduler else "pool" if jobs > 1 else "serial")
    if STDIN in paths:
        engine = "serial"  # standard input is only readable here
    if engine == "dask":
        return run_dask(files, options, jobs, scheduler)
    if engine == "pool" and jobs > 1:
        return run_pool(files, options, jobs, progress)
    return run_serial(files, options, progress)


# --- text report ---------------------------------------------------------------------------------


def _pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def format_report(report: dict[str, Any]) -> str:
    r = report
    saved = r["tokens_saved"]
    every = r["all_outputs"]
    formats = ", ".join(f"{n} {fmt}" for fmt, n in r["formats"].items())
    transforms = r["saved_by_transform"]
    lines = [
        f"files read             {r['files']:>12,}  ({formats}; {r['unreadable_files']} unreadable)",
        f"malformed records      {r['malformed_records']:>12,}  (skipped)",
        *([f"preamble lines         {r['preamble_lines']:>12,}  (skipped: non-JSON lines before the records of "
           f"{r['preamble_files']} JSON-lines {'log' if r['preamble_files'] == 1 else 'logs'})"]
          if r.get("preamble_lines") else []),
        f"outputs seen           {r['outputs_seen']:>12,}",
        f"  distinct (by text)   {r['outputs_unique']:>12,}",
        f"  with terminal noise  {r['outputs_with_terminal_noise']:>12,}",
        f"  fired                {r['outputs_fired']:>12,}  (gate at --min-tokens {r['min_tokens']})",
        f"tokens before -> after {r['tokens_before']:>12,} -> {r['tokens_after']:,}  "
        f"(-{saved:,}, {_pct(saved, r['tokens_before'])} of all distinct outputs) [3]",
        f"  all outputs          {every['tokens_before']:>12,} -> {every['tokens_after']:,}  "
        f"(-{every['tokens_saved']:,}, {_pct(every['tokens_saved'], every['tokens_before'])}; "
        f"{every['outputs']:,} outputs, {every['fired']:,} fired, repeats included)",
        f"touched mass           {r['touched_tokens_before']:>12,} -> {r['touched_tokens_after']:,}  "
        f"({_pct(saved, r['touched_tokens_before'])} of the fired outputs' tokens removed)",
        "tokens saved by transform [1]",
        f"  escape sequences     {transforms['escape_sequences']:>12,}",
        f"  \\r redraws           {transforms['cr_redraws']:>12,}",
        f"  backspace            {transforms['backspace']:>12,}",
        f"  multi-line redraws   {transforms['multiline_redraws']:>12,}",
        f"  (blank-line runs [2] {r['blank_line_runs_reference']:>12,}  measured, not applied)",
        "gate reasons",
    ]
    widest = max(r["gate_reasons"].values(), default=0)
    for reason, n in r["gate_reasons"].items():
        bar = "#" * max(1, round(30 * n / widest))
        lines.append(f"  {reason:<20} {n:>12,}  {bar}")
    lines.extend(_display_lines(r.get("displays_by_format", {})))
    lines.append("largest savings")
    for item in r["largest_savings"]:
        counts = f"({item['tokens_before']:,} -> {item['tokens_after']:,})"
        lines.append(f"  {item['saved']:>10,}  {counts}  {item['source']}")
    if not r["largest_savings"]:
        lines.append("  (none fired)")
    if r["unknown_files"]:
        lines.append(f"unknown shape (no reader knows it; not measured): {len(r['unknown_files'])} files")
        lines.extend(f"  {path}" for path in r["unknown_files"][:10])
        if len(r["unknown_files"]) > 10:
            lines.append(f"  ... and {len(r['unknown_files']) - 10} more (--json lists all)")
    for n, note in ((1, FOOTNOTE_ATTRIBUTION), (2, FOOTNOTE_BLANK), (3, FOOTNOTE_DISTINCT)):
        lines.extend(textwrap.wrap(f"[{n}] {note}", 100, subsequent_indent="    "))
    return "\n".join(lines) + "\n"


def _display_lines(displays: dict[str, dict[str, int]]) -> list[str]:
    """Which display each format's outputs were cleaned for (textclean.clean's terminal=/size/fresh)."""
    if not displays:
        return []
    lines = ["cleaned for (display per format)"]
    for fmt, counts in displays.items():
        shown = ", ".join(f"{n:,} {display}" for display, n in counts.items())
        lines.append(f"  {fmt:<20} {shown}")
    return lines


def format_per_file(report: dict[str, Any]) -> str:
    """One line per file: format, outputs, fired, tokens before -> after, malformed records skipped, the
    top refusal and its detail."""
    lines = [
        f"{'format':<15} {'outputs':>8} {'fired':>6} {'tokens before':>14} {'after':>12} {'malformed':>9}  "
        "top refusal  path"
    ]
    for row in report["per_file"]:
        refusal = "-"
        if row["top_refusal"]:
            refusal = f"{row['top_refusal']} x{row['top_refusal_outputs']}" if row["top_refusal_outputs"] else \
                row["top_refusal"]
            if row["top_refusal_detail"]:
                refusal += f" ({row['top_refusal_detail']})"
        lines.append(
            f"{row['format']:<15} {row['outputs']:>8,} {row['fired']:>6,} {row['tokens_before']:>14,} "
            f"{row['tokens_after']:>12,} {row['malformed']:>9,}  {refusal}  {row['path']}"
        )
    return "\n".join(lines) + "\n"


# --- command line --------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="textclean measure",
        description="Measure what textclean would save on agent logs, recordings and raw captures "
        "(format told by content; '-' reads standard input; fsspec URLs with the dask extra).",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files, directories, '-' or URLs")
    parser.add_argument(
        "--min-tokens", type=int, default=DEFAULT_MIN_TOKENS,
        help=f"the gate's threshold (default {DEFAULT_MIN_TOKENS})",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    parser.add_argument("--per-file", action="store_true", help="print one row per file after the table")
    parser.add_argument("--html", metavar="FILE", help="also write a self-contained HTML report to FILE")
    parser.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--engine", choices=ENGINES, default=None,
        help="serial, pool (--jobs processes) or dask (a bag over the files); default: serial, pool "
        "when --jobs > 1, dask when --scheduler is given",
    )
    parser.add_argument("--scheduler", metavar="ADDRESS", help="a dask.distributed scheduler (tcp://host:8786)")
    parser.add_argument("--progress", action="store_true", help="show the progress bar even off a tty")
    parser.add_argument("--timing", action="store_true", help="print files/s and the engine on stderr")
    parser.add_argument(
        "--tokenizer", default=None,
        help="encoding: cl100k_base or o200k_base (offline), or another tiktoken name (default cl100k_base)",
    )
    parser.add_argument(
        "--format", dest="fmt", choices=FORMATS, default=None, help="force one format instead of detecting"
    )
    return parser


def _fail(message: str) -> int:
    print(f"textclean measure: {message}", file=sys.stderr)
    return 2


def measure_main(argv: list[str]) -> int:
    """Entry point of ``textclean measure``; ``argv`` excludes the subcommand name."""
    args = build_parser().parse_args(argv)
    if args.min_tokens < 0:
        return _fail(f"--min-tokens must be >= 0, not {args.min_tokens}")
    if args.jobs < 1:
        return _fail(f"--jobs must be >= 1, not {args.jobs}")
    try:
        for path in args.paths:
            check_path(path)
    except PathError as error:
        return _fail(str(error))
    if args.scheduler and args.engine not in (None, "dask"):
        return _fail("--scheduler needs --engine dask")
    try:
        token_counter(args.tokenizer)  # here, before any worker loads it
    except TokenizerError as error:
        return _fail(str(error))
    show = args.progress or sys.stderr.isatty()
    def skipped(path: str, reason: str) -> None:
        print(f"textclean measure: skipped {path}: {reason}", file=sys.stderr)

    total = sum(1 for _ in expand_paths(args.paths, skipped))
    if total == 0:
        print(f"textclean measure: found no files under {' '.join(args.paths)}", file=sys.stderr)
        return 1
    progress = Progress(sys.stderr, total, True) if show else None
    started = time.perf_counter()
    try:
        partial = measure_paths(
            args.paths, min_tokens=args.min_tokens, tokenizer=args.tokenizer, jobs=args.jobs, fmt=args.fmt,
            engine=args.engine, scheduler=args.scheduler, progress=progress,
        )
    except (RuntimeError, PathError) as error:
        return _fail(str(error))
    elapsed = time.perf_counter() - started
    if args.timing:
        engine = args.engine or ("dask" if args.scheduler else "pool" if args.jobs > 1 else "serial")
        print(f"textclean measure: {total} files in {elapsed:.2f} s ({total / elapsed:.1f} files/s) on {engine}, "
              f"--jobs {args.jobs}", file=sys.stderr)
    if progress:
        progress.files, progress.outputs = len(partial.rows), sum(row.outputs for row in partial.rows)
        progress.close()
    for unreadable in partial.stats.unreadable:
        print(f"textclean measure: skipped {unreadable} (unreadable)", file=sys.stderr)
    for record in errors(partial):
        print(f"textclean measure: {record.reason} on {record.label}", file=sys.stderr)
    report = summarize(partial, args.min_tokens)
    if args.json:
        sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=True) + "\n")
    else:
        sys.stdout.write(format_report(report))
        if args.per_file:
            sys.stdout.write(format_per_file(report))
    if args.html:
        from .page import render_page

        try:
            with open(args.html, "w", encoding="utf-8") as out:
                out.write(render_page(report))
        except OSError as error:
            return _fail(f"cannot write {args.html}: {error.strerror or error}")
    return 0


def main() -> None:
    raise SystemExit(measure_main(sys.argv[1:]))


if __name__ == "__main__":
    main()

