"""``python -m benchmarks.sessions_saving``: how much of a terminal's saving whole recordings get.

For each session recording at the size it was recorded at (issue 22's measure): ``textclean.clean(raw,
min_tokens=0, columns=C, rows=R)`` (and with ``fresh=True`` where ``clean`` takes it), then

* adopted, or the gate's reason; tokens before and after (textclean's tokenizer, cl100k);
* the ideal: the tokens of the lines a terminal shows at that size (``oracle.ideal_lines``, the
  yardstick ``fixtures_gen.savings`` uses for sessions), and the share of the ideal saving achieved,
  ``sum(before - after) / sum(before - ideal)``, in all and per kind;
* lines lost, judged by a live tmux at that size (``tests/tmux_judge.py``: every line tmux shows for
  the raw bytes, and before each clear, is in what it shows for the candidate, in order);
* why pages were kept (or the message refused): ``Result.detail`` with offsets and numbers blanked,
  tallied.

``--per-command`` splits the material recordings into one output per command, as ``textclean
measure`` does (``--min-tokens 50`` is measure's threshold): the share of the ideal per command, where
the ideal of an output below the threshold still counts.

``--rewrite-cuu-cr`` is issue 22's experiment: every ``CSI n A`` directly followed by CR is written as
``CR CSI n A`` (the state every terminal agrees on) before cleaning; the ideal, the judge and the
tokens before stay those of the recording as it was.

``--no-size`` measures single-command captures (``tests/fixtures/*.raw`` and
``tests/fixtures/progress/*.raw``) cleaned without a size (issue 28's measure): the ideal is the
oracle's informative lines of an unwrapped rendering, and tmux judges as for no terminal (at its
widest, 10,000 columns, the strings a log viewer ends at BEL removed; ``--judge-sizes`` for others).

Recordings: ``tests/fixtures/sessions`` and ``tests/fixtures/pages`` (kind ``captured``),
``tests/fixtures/progress`` (``progress``), the peer suites through ``oracle.corpora`` (``peer-SUITE``),
and every ``.cast`` under ``--material`` (default ``../material`` beside the repository; kind from a
``MANIFEST.json`` there: ``tb-tests`` for Terminal-Bench's test sessions, ``tb-agent`` for its agent
sessions, else ``material``). Each recording is bounded by ``--timeout`` seconds; one that runs over is
reported as such, never waited for. Run from the repository root; it is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import inspect
import json
import re
import signal
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # tmux_judge lives with the tests

import oracle  # noqa: E402
import textclean  # noqa: E402
from textclean.pipeline.tokens import token_counter  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"
DEFAULT_MATERIAL = ROOT.parent / "material"
COUNT = token_counter(None)


def _takes_fresh() -> bool:
    try:
        return "fresh" in inspect.signature(textclean.clean).parameters
    except ValueError:  # a mypyc-compiled clean() keeps no signature: every compiled build takes fresh
        return True


TAKES_FRESH = _takes_fresh()


@dataclass
class Recording:
    name: str
    kind: str
    text: str
    columns: int | None
    rows: int | None
    fresh_start: bool = False  # the recording starts with its terminal (an asciicast)


@dataclass
class Run:
    """One ``clean`` of a recording (plain, or with ``fresh=True``)."""

    adopted: bool
    reason: str | None
    detail: str | None
    after: int
    pages_cleaned: int
    pages_kept: int
    seconds: float
    lost: str | None = None  # the first line tmux shows that the candidate lost
    judged: bool = False


@dataclass
class Row:
    name: str
    kind: str
    size: str
    before: int
    ideal: int
    runs: dict[str, Run] = field(default_factory=dict)
    error: str | None = None  # timed out, or raised


class TimedOut(Exception):
    pass


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: object) -> None:
        raise TimedOut(f"over {seconds:g}s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# ----------------------------------------------------------------------------------------- recordings


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def captured_sessions() -> list[Recording]:
    from fixtures_gen.checks import load_sessions

    out = [
        Recording(s.name, "captured", s.text, s.columns, s.rows, s.path.suffix == ".cast")
        for s in load_sessions(FIXTURES / "sessions")
    ]
    for path in sorted((FIXTURES / "pages").glob("*.raw")):
        meta = json.loads(path.with_suffix(".json").read_text())
        out.append(Recording(path.stem, "captured", _decode(path.read_bytes()), meta["columns"], meta["lines"]))
    return out


def single_commands(directory: Path, kind: str, sized: bool) -> list[Recording]:
    from fixtures_gen.checks import load_fixtures

    return [
        Recording(f.name, kind, f.text, f.columns if sized else None, f.rows if sized else None)
        for f in load_fixtures(directory)
    ]


def peer_recordings() -> list[Recording]:
    from oracle import corpora

    root = corpora.locate(ROOT)
    if root is None:
        return []
    out = []
    for suite, cases in ((name, reader(root)) for name, reader in corpora.SUITES.items()):
        for case in cases:
            out.append(Recording(f"{suite}/{case.name}", f"peer-{suite}", _decode(case.data), case.columns, case.lines))
    return out


def material(directory: Path) -> list[Recording]:
    from oracle.asciicast import read_asciicast

    if not directory.is_dir():
        return []
    kinds: dict[str, str] = {}
    for manifest in directory.rglob("MANIFEST.json"):
        for item in json.loads(manifest.read_text()):
            kinds[str(manifest.parent / item["file"])] = f"tb-{item['kind']}"
    out = []
    for path in sorted(directory.rglob("*.cast")):
        try:
            recording = read_asciicast(path.read_bytes())
        except (ValueError, UnicodeDecodeError, json.JSONDecodeError, KeyError):
            continue  # not asciicast v2: outside this measure
        kind = kinds.get(str(path), "material")
        name = str(path.relative_to(directory))
        out.append(Recording(name, kind, recording.output, recording.columns, recording.rows, True))
    return out


def per_command(recordings: Sequence[Recording], directory: Path) -> list[Recording]:
    """Each material recording split into one output per command, as ``textclean measure`` splits it
    (its first output on a new terminal, the others on the terminal as the one before left it)."""
    from textclean.measure.outputs import ReadStats
    from textclean.measure.recordings import read_recording, split_commands

    out = []
    for recording in recordings:
        if not recording.kind.startswith(("tb-", "material")):
            continue
        cast = read_recording(str(directory / recording.name), ReadStats())
        if cast is None:
            continue
        for n, command in enumerate(split_commands(cast)):
            columns, rows = command.size if command.size else (None, None)
            out.append(Recording(f"{recording.name}:cmd {n}", f"{recording.kind}-cmd", command.text, columns, rows,
                                 n == 0))
    return out


# -------------------------------------------------------------------------------------------- measure


def _size(recording: Recording) -> dict[str, int]:
    if recording.columns is None:
        return {}
    return {"columns": recording.columns, "rows": recording.rows or 24}


def ideal_tokens(recording: Recording) -> int:
    if recording.columns is None:
        lines = oracle.informative_lines(recording.text)
    else:
        lines = oracle.ideal_lines(recording.text, columns=recording.columns, rows=recording.rows)
    return COUNT("\n".join(lines))


_CUU_THEN_CR = re.compile(r"(\x1b\[[0-9]*A)\r")


def rewrite_cuu_cr(text: str) -> str:
    """``CSI n A CR`` as ``CR CSI n A``: the same final state wherever the wrap is not pending, and
    where it is, the one every terminal agrees on (column 0, n rows up)."""
    return _CUU_THEN_CR.sub(lambda m: "\r" + m.group(1), text)


REWRITE = False
PER_COMMAND = False  # recordings split per command: only a recording's first command meets a new terminal
MIN_TOKENS = 0


def clean_once(recording: Recording, fresh: bool) -> tuple[Run, Any]:
    extra: dict[str, Any] = {"fresh": True} if fresh and (recording.fresh_start or not PER_COMMAND) else {}
    text = rewrite_cuu_cr(recording.text) if REWRITE else recording.text
    started = time.perf_counter()
    result = textclean.clean(text, min_tokens=MIN_TOKENS, **_size(recording), **extra)
    seconds = time.perf_counter() - started
    after = result.tokens_after if result.applied else result.tokens_before
    run = Run(result.applied, result.reason, result.detail, after, result.pages_cleaned, result.pages_kept, seconds)
    return run, result


def measure(recording: Recording, timeout: float) -> tuple[Row, dict[str, str]]:
    """The row for one recording, and the adopted candidates by run name (for the tmux judge)."""
    size = f"{recording.columns}x{recording.rows}" if recording.columns else "none"
    row = Row(recording.name, recording.kind, size, COUNT(recording.text), 0)
    candidates: dict[str, str] = {}
    try:
        with deadline(timeout):
            row.ideal = ideal_tokens(recording)
            modes = ["plain", "fresh"] if TAKES_FRESH and recording.columns is not None else ["plain"]
            for mode in modes:
                run, result = clean_once(recording, mode == "fresh")
                row.runs[mode] = run
                if run.adopted:
                    candidates[mode] = result.text
    except TimedOut as exc:
        row.error = f"timed out ({exc})"
    except Exception as exc:  # noqa: BLE001 - a crash is reported, not fatal to the measure
        row.error = f"{type(exc).__name__}: {exc}"
    return row, candidates


def judge(rows: Sequence[Row], recordings: Sequence[Recording], candidates: Sequence[dict[str, str]],
          batch: int, unsized: Sequence[tuple[int, int]] = ()) -> None:
    """Every adopted candidate judged by a live tmux at its recording's size; an output without one was
    cleaned for no terminal and is judged so (tmux at its widest, BEL-ended strings removed), at
    ``unsized`` where given."""
    import tmux_judge

    if not tmux_judge.available():
        return
    plan = []
    for row, recording, chosen in zip(rows, recordings, candidates, strict=True):
        for mode, text in chosen.items():
            sizes = [(recording.columns, recording.rows or 24)] if recording.columns else list(unsized)
            case = tmux_judge.Case(tmux_judge.encode(recording.text), recording.columns, recording.rows,
                                   recording.kind, sizes, candidate=tmux_judge.encode(text),
                                   terminal=recording.columns is not None)
            plan.append((row.runs[mode], case))
    with tmux_judge.server() as srv:
        for at in range(0, len(plan), batch):
            chunk = plan[at : at + batch]
            tmux_judge.judge([case for _, case in chunk], srv)
            for run, case in chunk:
                run.judged = True
                lost = [p for p in case.problems if "not in the candidate" in p or "lost" in p]
                run.lost = lost[0] if lost else None


# -------------------------------------------------------------------------------------------- report

_NUMBERS = re.compile(r"\d+")


def reason_key(run: Run) -> str:
    """What kept a page (or refused the message), numbers blanked so that like reasons tally."""
    text = run.detail or run.reason or ""
    if "kept because " in text:
        text = text.split("kept because ", 1)[1]
    text = text.split(" (page at offset")[0]
    return _NUMBERS.sub("N", text)[:140]


def share(saved: int, possible: int) -> str:
    return f"{100 * saved / possible:.1f}%" if possible > 0 else "-"


def summarise(rows: Sequence[Row], mode: str) -> dict[str, Any]:
    done = [row for row in rows if mode in row.runs]
    by_kind: dict[str, list[Row]] = defaultdict(list)
    for row in done:
        by_kind[row.kind].append(row)

    def totals(group: Sequence[Row]) -> dict[str, Any]:
        before = sum(r.before for r in group)
        after = sum(r.runs[mode].after for r in group)
        ideal = sum(r.ideal for r in group)
        possible = sum(max(0, r.before - r.ideal) for r in group)
        adopted = sum(r.runs[mode].adopted for r in group)
        lost = sum(r.runs[mode].lost is not None for r in group)
        return {
            "recordings": len(group), "adopted": adopted, "before": before, "after": after, "ideal": ideal,
            "saved": before - after, "possible": possible, "share_of_ideal": share(before - after, possible),
            "with_pages_kept": sum(r.runs[mode].adopted and r.runs[mode].pages_kept > 0 for r in group),
            "judged": sum(r.runs[mode].judged for r in group), "lossy": lost,
        }  # fmt: skip

    reasons = Counter(reason_key(r.runs[mode]) for r in done if not r.runs[mode].adopted or r.runs[mode].pages_kept)
    return {
        "mode": mode,
        "all": totals(done),
        "sessions (no peer suites)": totals([r for r in done if not r.kind.startswith("peer-")]),
        "kinds": {kind: totals(group) for kind, group in sorted(by_kind.items())},
        "kept_or_refused_because": reasons.most_common(),
        "errors": [f"{row.name}: {row.error}" for row in rows if row.error],
    }


def table(rows: Sequence[Row], mode: str) -> str:
    lines = [
        "| recording | kind | size | gate | pages c/k | before | after | ideal | of ideal | tmux |",
        "| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for row in rows:
        run = row.runs.get(mode)
        if run is None:
            lines.append(f"| {row.name} | {row.kind} | {row.size} | {row.error} | | {row.before} | | {row.ideal} | | |")
            continue
        gate = "adopted" if run.adopted else run.reason
        verdict = ("LOST " + run.lost[:60]) if run.lost else ("ok" if run.judged else "-")
        lines.append(
            f"| {row.name} | {row.kind} | {row.size} | {gate} | {run.pages_cleaned}/{run.pages_kept} | {row.before} "
            f"| {run.after} | {row.ideal} | {share(row.before - run.after, row.before - row.ideal)} | {verdict} |"
        )
    return "\n".join(lines)


def print_summary(summary: dict[str, Any]) -> None:
    def line(name: str, t: dict[str, Any]) -> str:
        return (f"  {name:<16} {t['adopted']:>4}/{t['recordings']:<4} adopted  tokens {t['before']:>9} -> "
                f"{t['after']:>9} (ideal {t['ideal']:>8})  {t['share_of_ideal']:>6} of the ideal saving  "
                f"pages kept in {t['with_pages_kept']}  lossy {t['lossy']}/{t['judged']} judged")  # fmt: skip

    print(f"\n## {summary['mode']}")
    print(line("all", summary["all"]))
    print(line("no peer suites", summary["sessions (no peer suites)"]))
    for kind, totals in summary["kinds"].items():
        print(line(kind, totals))
    print("  kept or refused because:")
    for reason, n in summary["kept_or_refused_because"]:
        print(f"    {n:>4}  {reason}")
    for error in summary["errors"]:
        print(f"  error: {error}")


def collect(args: argparse.Namespace) -> list[Recording]:
    if args.no_size:
        found = single_commands(FIXTURES, "single", sized=False)
        found += single_commands(FIXTURES / "progress", "progress", sized=False)
    else:
        found = captured_sessions() + single_commands(FIXTURES / "progress", "progress", sized=True)
        if not args.no_peers:
            found += peer_recordings()
        found += material(args.material)
        if args.per_command:
            found = per_command(found, args.material)
    if args.kind:
        found = [r for r in found if any(r.kind.startswith(k) for k in args.kind)]
    if args.match:
        found = [r for r in found if args.match in r.name]
    return found[: args.limit] if args.limit else found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.sessions_saving", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-size", action="store_true", help="single-command captures, cleaned without a size")
    parser.add_argument("--material", type=Path, default=DEFAULT_MATERIAL, help=f"more .cast ({DEFAULT_MATERIAL})")
    parser.add_argument("--no-peers", action="store_true", help="leave out the peer suites")
    parser.add_argument("--kind", action="append", help="only kinds starting with this (repeatable)")
    parser.add_argument("--match", help="only recordings whose name contains this")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per recording (default 60)")
    parser.add_argument("--rewrite-cuu-cr", action="store_true", help="issue 22's experiment (see above)")
    parser.add_argument("--per-command", action="store_true",
                        help="the material split per command, as `textclean measure` splits it")
    parser.add_argument("--min-tokens", type=int, default=0, help="the gate's threshold (measure's is 50)")
    parser.add_argument("--no-tmux", action="store_true", help="skip the live tmux judge")
    parser.add_argument("--judge-sizes", default="",
                        help="tmux sizes for recordings without one (default: as for no terminal, 10000 columns)")
    parser.add_argument("--batch", type=int, default=20, help="recordings per tmux batch")
    parser.add_argument("--table", action="store_true", help="print the per-recording table")
    parser.add_argument("--json", type=Path, help="write rows and summaries as JSON to this file ('-': stdout)")
    args = parser.parse_args(argv)

    global REWRITE, PER_COMMAND, MIN_TOKENS
    REWRITE = args.rewrite_cuu_cr
    PER_COMMAND = args.per_command
    MIN_TOKENS = args.min_tokens
    recordings = collect(args)
    rows, candidates = [], []
    for recording in recordings:
        row, chosen = measure(recording, args.timeout)
        rows.append(row)
        candidates.append(chosen)
        print(f"measured {len(rows)}/{len(recordings)} {recording.name}", file=sys.stderr, flush=True)
    if not args.no_tmux:
        unsized = [tuple(int(n) for n in size.split("x")) for size in args.judge_sizes.split(",") if size]
        judge(rows, recordings, candidates, args.batch, unsized)  # type: ignore[arg-type]
    modes = ["plain", "fresh"] if TAKES_FRESH and not args.no_size else ["plain"]
    summaries = [summarise(rows, mode) for mode in modes]
    if args.json:
        payload = json.dumps({"rows": [asdict(row) for row in rows], "summaries": summaries}, indent=1)
        if str(args.json) == "-":
            print(payload)
            return 0
        args.json.write_text(payload + "\n")
    if args.table:
        for mode in modes:
            print(f"\n### {mode}\n")
            print(table(rows, mode))
    print(f"textclean {textclean.__version__} from {Path(textclean.__file__).parent}; "
          f"{'no size' if args.no_size else 'at each recording size'}; fresh={'yes' if TAKES_FRESH else 'not taken'}"
          f"{'; CSI A CR rewritten as CR CSI A' if REWRITE else ''}")
    for summary in summaries:
        print_summary(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
