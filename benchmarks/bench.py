"""``python -m benchmarks.bench``: how fast the gate is, as ratios to simple baselines, in one run.

Every number is a best-of-N wall-clock time (``time.perf_counter``, garbage collector off) taken in
this one process, and every comparison is a ratio of two such times on the same input, so the
machine's speed cancels out. Printed: the detail of each measurement, then one table of ratios with
the goal next to each and PASS/MISS.

* Inert path: ``clean()`` on text with nothing to clean (plain log lines; CRLF log lines), with and
  without ``tokens_before``, against a bare ``'\\x1b' in s``. Goal: within 2x.
* Clean+verify (``cleaner.candidate`` then ``verify.first_difference``) on ANSI-heavy inputs, against
  a port of chalk's ansi-regex 6.1.0 (:data:`ANSI_REGEX`) stripping the same input. Goal: <= 1x.
* The full gate against one ``encode_ordinary`` of the input. Goal: <= 1.5x.
* Pathological inputs (hostile or degenerate), each against plain text of the same size, and the growth
  ``t(4S) / 4 t(S)`` that shows whether the cost stays linear. Goal for the growth: <= 1.5.
* The oracle's throughput, and the gate's peak memory (``tracemalloc``) on a 50 MB line.
* ``textclean hook claude-code`` as an agent runs it (a new process fed one PostToolUse event), against
  a bare ``python -c pass``: on a clean 11 KB log (goal <= 3x) and on the 11 KB noisy pip capture
  (goal <= 6x). Best of interleaved runs of each, with bytecode caches as an installed package has
  them (``PYTHONDONTWRITEBYTECODE`` is dropped for these processes: the warm-up run writes them).

``--quick`` runs everything on small inputs in a few seconds (a smoke run: its ratios are noisy);
``--no-big`` skips the 50 MB memory run; ``--only SECTION`` (repeatable) runs some sections only.
"""

from __future__ import annotations

import argparse
import gc
import glob
import json
import os
import platform
import random
import re
import resource
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tiktoken

import textclean
from benchmarks import floor
from textclean.build import build
from textclean.measure.sources import decode
from textclean.pipeline import clean as cleaner
from textclean.pipeline import grammar, tokens, verify
from textclean.pipeline.errors import BackendError
from textclean.pipeline.gate import TextClean
from textclean.pipeline.tokens import DEFAULT_ENCODING

# A port of chalk/ansi-regex 6.1.0 (index.js, 2024-09: OSC ended by BEL, ESC \ or U+009C), the
# pattern behind strip-ansi. Kept as in the JavaScript, two alternatives joined by '|', with two
# changes for Python's `re`: `[[` is written `[\[` (same set, avoids re's nested-set warning) and
# re.ASCII makes `\d` mean [0-9] as in JavaScript. (6.2.0 later replaced the OSC part by a
# generic ESC ] ... ST.)
ANSI_REGEX = re.compile(
    "|".join(
        (
            r"[\u001B\u009B][\[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d\/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d\/#&.:=?%@~_]*)*)?(?:\u0007|\u001B\u005C|\u009C))",  # noqa: E501
            r"(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-nq-uy=><~]))",
        )
    ),
    re.ASCII,
)

SLOW_RUN = 1.0  # seconds
KB = 1024
MB = 1024 * 1024
ORACLE_LABEL = "oracle throughput (oracle.render on fixtures)"
ORACLE_PYTE_LABEL = "oracle.render / pyte ByteStream, time per byte (log text)"
CAPTURE_TIMEOUT_LABEL = "pty capture timing out after 1 s, background child killed (wall)"
CAPTURE_BACKGROUND_LABEL = "pty capture, a background child holding the pty (wall)"
PEAK_MEMORY_LABEL = "peak memory / input size, one 50 MB line (tracemalloc)"
DEFAULT_FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"


def strip_ansi(text: str) -> str:
    """What strip-ansi does with :data:`ANSI_REGEX`."""
    return ANSI_REGEX.sub("", text)


# --- timing --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Budget:
    repeat: int  # best of this many timed runs
    min_seconds: float  # loops per run grow until one run takes this long


def best_time(fn: Callable[[], object], budget: Budget) -> float:
    """Seconds per call of ``fn``: the best of ``budget.repeat`` runs of enough loops to be measurable."""
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        loops = 1
        while True:
            elapsed = _run(fn, loops)
            if elapsed >= budget.min_seconds or loops >= 1 << 22:
                break
            loops = loops * 10 if elapsed < budget.min_seconds / 10 else loops * 2
        best = elapsed / loops
        for run in range(1, budget.repeat):
            if run >= 2 and elapsed > SLOW_RUN:  # calls of seconds vary little: two are enough
                break
            elapsed = _run(fn, loops)
            best = min(best, elapsed / loops)
        return best
    finally:
        if gc_was_enabled:
            gc.enable()


def _run(fn: Callable[[], object], loops: int) -> float:
    start = time.perf_counter()
    for _ in range(loops):
        fn()
    return time.perf_counter() - start


# --- inputs --------------------------------------------------------------------------------------

_LEVELS = ("INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR")
_SGR = {"INFO": "32", "DEBUG": "2", "WARN": "33", "ERROR": "1;31"}


def log_lines(size: int, *, colour: bool = False, crlf: bool = False, seed: int = 0) -> str:
    """Deterministic log-like text, whole lines, ``size`` characters or a line more (SGR, or CRLF)."""
    rng = random.Random(seed)
    end = "\r\n" if crlf else "\n"
    parts: list[str] = []
    total = 0
    i = 0
    while total < size:
        level = _LEVELS[rng.randrange(len(_LEVELS))]
        stamp = f"2026-11-30T14:{i // 60 % 60:02d}:{i % 60:02d}.{rng.randrange(1000):03d}Z"
        rest = (
            f"worker-{rng.randrange(8)} GET /api/v1/items/{rng.randrange(10**6)} "
            f"status={rng.choice((200, 200, 201, 304, 404, 500))} in {rng.randrange(1, 900)}ms"
        )
        if colour:
            line = f"\x1b[2m{stamp}\x1b[0m \x1b[{_SGR[level]}m{level:<5}\x1b[0m {rest}{end}"
        else:
            line = f"{stamp} {level:<5} {rest}{end}"
        parts.append(line)
        total += len(line)
        i += 1
    return "".join(parts)


def _repeat_to(unit: str, size: int, prefix: str = "", suffix: str = "") -> str:
    """``unit`` repeated (whole units, then spaces) between ``prefix`` and ``suffix``, ``size`` chars."""
    body = size - len(prefix) - len(suffix)
    count = body // len(unit)
    return prefix + unit * count + " " * (body - count * len(unit)) + suffix


def _counted_pages(size: int) -> str:
    """Pages of 30 characters (a 7-digit counter), as many as fit in ``size`` (at least one)."""
    page = "\x1b[H\x1b[2Jabc{:07d}\rX\r\n\x1b[3;5HY\r\n"
    return "".join(page.format(count) for count in range(max(size // len(page.format(0)), 1)))


def _coloured_words(size: int) -> str:
    return _repeat_to("\x1b[1;32mok\x1b[0m \x1b[33mbuild\x1b[0m step ", size)


def _nested_cursor_up(size: int, layers: int = 5) -> str:
    """Frames that redraw a block of ``layers`` lines from ever deeper (cursor up 1..layers, then down)."""
    frames = ["".join(f"layer {i}: waiting\n" for i in range(1, layers + 1))]
    total = len(frames[0])
    step = 0
    while total < size:
        depth = step % layers + 1
        frame = f"\x1b[{depth}A\rlayer {layers + 1 - depth}: {step % 100:3d}%\x1b[K\x1b[{depth}B\r"
        frames.append(frame)
        total += len(frame)
        step += 1
    return "".join(frames)


def _cursor_up_staircase(size: int) -> str:
    """23 lines, then cursor up one row at a time to the top and back down, over and over: every move
    reaches as deep as a 24-row screen allows."""
    block = "".join(f"row {i:02d}\n" for i in range(23))
    up = "".join(f"\x1b[A\rrow {22 - i:02d}*" for i in range(23))
    down = "\n" * 23
    return block + _repeat_to(up + down, size - len(block))


_INTERMEDIATES = "".join(chr(c) for c in range(0x21, 0x30))  # ECMA-48 intermediate bytes (and spaces)

# The pathological inputs, each a function of the size in characters.
PATHOLOGICAL: dict[str, Callable[[int], str]] = {
    "CSI of semicolons, unterminated": lambda n: _repeat_to(";", n, prefix="\x1b["),
    "CSI of digits, unterminated": lambda n: _repeat_to("9", n, prefix="\x1b["),
    "CSI of digits, then CUF": lambda n: _repeat_to("9", n, prefix="ab\x1b[", suffix="Cx"),
    "CSI of intermediates, unterminated": lambda n: _repeat_to(_INTERMEDIATES, n, prefix="\x1b[1"),
    "ESC of intermediates, unterminated": lambda n: _repeat_to(_INTERMEDIATES, n, prefix="\x1b"),
    "ESC ] a repeated": lambda n: _repeat_to("\x1b]a", n),
    "unterminated OSC": lambda n: _repeat_to("x", n, prefix="\x1b]0;"),
    "unterminated DCS": lambda n: _repeat_to("x", n, prefix="\x1bP"),
    "unterminated APC": lambda n: _repeat_to("x", n, prefix="\x1b_"),
    "ESC repeated": lambda n: "\x1b" * n,
    "CR repeated": lambda n: _repeat_to("\r", n, prefix="progress", suffix="x"),
    "BS repeated": lambda n: _repeat_to("\b", n, prefix="abc", suffix="x"),
    "millions of short lines": lambda n: _repeat_to("x\n", n, prefix="\x1b[1m"),
    "one long coloured line": _coloured_words,
    "nested cursor-up": _nested_cursor_up,
    "nested cursor-up, 23 layers": lambda n: _nested_cursor_up(n, layers=23),
    "cursor-up staircase, 23 rows deep": _cursor_up_staircase,
    # Issue 12's: combining marks piled on one cell (was quadratic), and families that cost several
    # times coloured text at 16 MB.
    "combining marks on one cell, then CR": lambda n: _repeat_to("\u0301", n, prefix="a", suffix="\rb\n"),
    "a CR repeated": lambda n: _repeat_to("a\r", n),
    "CHA on a long line": lambda n: _repeat_to("\x1b[40Gy", n, prefix="x" * 100),
    "short redrawn lines": lambda n: _repeat_to("ab\rcd\n", n),
    "tab runs": lambda n: _repeat_to("a\t", n, suffix="\rX\n"),
    # Were tests/test_gate.py's timed test: coloured frames redrawn by CR on one line.
    "coloured frames redrawn by CR": lambda n: _repeat_to("\x1b[31mx\x1b[0m\r", n, suffix="\n"),
}

#: Issue 23's shapes at a known 80x24 (each cleaned and verified at that size): one long line wrapping
#: (was quadratic in the cleaner's screen model), REP chains, many small pages. Goal: at most 1 s per MB,
#: and the cost per MB at 8 MB within 1.5x the cost at 1 MB.
SIZED_SHAPES: dict[str, Callable[[int], str]] = {
    "one long line wrapping, then CR": lambda n: "\x1b[H\x1b[2J" + "x" * max(n - 16, 1) + "\rY\r\n",
    "REP chains": lambda n: _repeat_to("a\x1b[70b\r\n", n, prefix="\x1b[H\x1b[2J"),
    "many small pages": lambda n: _repeat_to("\x1b[H\x1b[2Jabc\rX\r\n\x1b[3;5HY\r\n", n),
    # The same pages with a frame counter: no page repeats the one before it, so the walk of an identical
    # page that both models reuse never applies.
    "many small pages, each different": _counted_pages,
}

_CSI = "\x1b["
#: Were tests/test_verify.py's timed tests: inputs cheap to write that could be expensive to model.
#: The first group is handled in runs or refused early; the second is one Python-level token every
#: few characters, which must stay linear but cannot be as cheap as plain text.
VERIFIER_CHEAP: dict[str, Callable[[int], str]] = {
    "unterminated CSI parameters": lambda size: "x" + _CSI + ";" * size,
    "CR run": lambda size: "progress" + "\r" * size + "done\n",
    "BS run": lambda size: "progress" + "\b" * size + "X\n",
    "CUU run": lambda size: "row\n" * 30 + (_CSI + "A") * (size // 3),
    "C1 string introducers": lambda size: "\x9d" * size,
    "OSC with C1 payload": lambda size: "\x1b]" + "a\x9d" * (size // 2),
    "huge cursor jumps": lambda size: ("x" + _CSI + "999999G" + _CSI + "1K") * (size // 14),
}
VERIFIER_DENSE: dict[str, Callable[[int], str]] = {
    "CUU/CUD pairs": lambda size: "row\n" * 30 + (_CSI + "A" + _CSI + "B") * (size // 6),
    "CR frames on one long line": lambda size: "x" * 1000 + "\rshort frame" * (size // 12),
    "overstrike": lambda size: "N\bN" * (size // 3),
    "SGR soup": lambda size: (_CSI + "1m" + "a") * (size // 5),
    "erase at a far column": lambda size: "x" * 100000 + ("\ry" + _CSI + "99999G" + _CSI + "1K") * (size // 14),
    "tabs": lambda size: "a\t" * (size // 2),
    "far moves on a long row": lambda size: "x" * 100000 + "\r" + (_CSI + "85G") * (size // 5) + "y",
}

#: Were tests/test_grammar.py's timed test: hostile units for the grammar's one substitution.
GRAMMAR_UNITS: dict[str, str] = {
    "endless parameters": "\x1b[" + ";" * 1000,
    "OSC starts": "\x1b]a",
    "truncated CSI": "\x1b[1",
    "ESC run": "\x1b",
    "unterminated APC": "\x1b_" + "x" * 100,
    "endless intermediates": "\x1b[" + " " * 500,
}

#: The one-line pathological input, measured once at full size (it is over the default ``max_chars``).
LONG_LINE = 50 * MB


def load_fixtures(directory: Path) -> list[tuple[str, str]]:
    out = []
    for path in sorted(glob.glob(os.path.join(directory, "*.raw"))):
        with open(path, "rb") as f:
            out.append((Path(path).stem, decode(f.read())))
    return out


def ansi_heavy(fixtures: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Fixtures the cleaner resolves whose escape sequences are at least 5% of their characters."""
    chosen = []
    for name, text in fixtures:
        try:
            proposal = cleaner.candidate(text)
        except cleaner.Refused:
            continue
        if text and proposal.removed.escape_chars >= 0.05 * len(text):
            chosen.append((name, text))
    return chosen


# --- report --------------------------------------------------------------------------------------


@dataclass
class Ratio:
    label: str
    value: float
    goal: float | None  # the ratio must be <= goal; None: for information
    unit: str = "x"
    skipped: bool = False

    def row(self) -> str:
        if self.skipped:
            return f"{self.label:<78} {'skipped':>12}"
        value = f"{self.value:.2f}{self.unit}" if self.value < 1000 else f"{self.value:.3g}{self.unit}"
        if self.goal is None:
            return f"{self.label:<78} {value:>12}  (info)"
        verdict = "PASS" if self.value <= self.goal else "MISS"
        return f"{self.label:<78} {value:>12}  <= {self.goal:<5g}  {verdict}"


class Bench:
    def __init__(self, quick: bool, out: Callable[[str], None]) -> None:
        self.quick = quick
        self.budget = Budget(repeat=3, min_seconds=0.002) if quick else Budget(repeat=5, min_seconds=0.05)
        self.out = out
        self.gate = TextClean()
        self.encoding = tokens.tiktoken_encoding(DEFAULT_ENCODING)
        self.ratios: list[Ratio] = []

    def time(self, fn: Callable[[], object]) -> float:
        return best_time(fn, self.budget)

    def _time_gate(self, text: str) -> float:
        return self.time(lambda: self.gate.clean(text))

    def _time_gate_capped(self, text: str, cap: float) -> float:
        """Like :meth:`_time_gate`, but one call only when one call already takes longer than ``cap``."""
        start = time.perf_counter()
        self.gate.clean(text)
        once = time.perf_counter() - start
        return once if once > cap else self._time_gate(text)

    def inert_path(self) -> None:
        sizes = (4 * KB, 64 * KB) if self.quick else (4 * KB, 64 * KB, 1 * MB)
        self.out("inert path: clean() on text with nothing to clean, against `'\\x1b' in s`")
        for crlf in (False, True):
            for size in sizes:
                text = log_lines(size, crlf=crlf)
                tokens = len(self.encoding.encode_ordinary(text))
                bare = self.time(lambda text=text: "\x1b" in text)
                given = self.time(lambda text=text, n=tokens: self.gate.clean(text, tokens_before=n))
                counted = self.time(lambda text=text: self.gate.clean(text))
                kind = "CRLF" if crlf else "LF  "
                self.out(
                    f"  {kind} {_size(size):>7}: bare {_us(bare)}, tokens_before given {_us(given)} "
                    f"({given / bare:.2f}x), counted by the gate {_us(counted)} ({counted / bare:.2f}x)"
                )
                label = f"inert path, {kind.strip()} {_size(size)}"
                self.ratios.append(Ratio(f"{label}, tokens_before given", given / bare, 2.0))
                self.ratios.append(Ratio(f"{label}, tokens_before not given", counted / bare, 2.0))

    def clean_verify_and_gate(self, fixtures: list[tuple[str, str]]) -> None:
        size = 64 * KB if self.quick else 1 * MB
        generated = [("generated", log_lines(size, colour=True))]
        inputs = [("fixtures (ANSI-heavy, all together)", ansi_heavy(fixtures))]
        inputs.append((f"generated coloured log {_size(size)}", generated))
        self.out("clean+verify against the ansi-regex 6.1.0 port; full gate against one encode_ordinary")
        for label, group in inputs:
            if not group:
                self.out(f"  {label}: none (no committed fixture is resolved and ANSI-heavy)")
                continue
            texts = [text for _, text in group]
            chars = sum(len(t) for t in texts)
            regex = self.time(lambda texts=texts: [strip_ansi(t) for t in texts])
            clean_verify = self.time(lambda texts=texts: [_clean_and_verify(t) for t in texts])
            gate = self.time(lambda texts=texts: [self.gate.clean(t) for t in texts])
            encode = self.time(lambda texts=texts: [self.encoding.encode_ordinary(t) for t in texts])
            self.out(
                f"  {label} ({len(texts)} inputs, {_size(chars)}): regex {_ms(regex)}, "
                f"clean+verify {_ms(clean_verify)}, full gate {_ms(gate)}, encode_ordinary {_ms(encode)}"
            )
            self.ratios.append(Ratio(f"clean+verify / ansi-regex port, {label}", clean_verify / regex, 1.0))
            self.ratios.append(Ratio(f"full gate / one encode_ordinary, {label}", gate / encode, 1.5))
        # Text with only SGR and CRLF pays nothing for the redraw machinery: the cleaner's
        # candidate costs what one substitution of the inert sequences costs.
        sgr_crlf = log_lines(size, colour=True, crlf=True)
        substitution = self.time(lambda: grammar.APPEND_ONLY_INERT.subn("", sgr_crlf))
        candidate = self.time(lambda: cleaner.candidate(sgr_crlf))
        self.out(
            f"  SGR + CRLF log {_size(len(sgr_crlf))}: cleaner.candidate {_ms(candidate)}, "
            f"one regex substitution of the inert sequences {_ms(substitution)}"
        )
        self.ratios.append(
            Ratio("fast path: candidate / one substitution, SGR + CRLF text", candidate / substitution, 1.2)
        )

    def sessions(self, fixtures: list[tuple[str, str]], directory: Path) -> None:
        """Whole recorded sessions (at their recorded size) against single commands' output, per byte:
        a session must cost no more per byte than one command's output."""
        recorded = []
        for path in sorted(glob.glob(os.path.join(directory, "sessions", "*.raw"))):
            with open(Path(path).with_suffix(".json"), encoding="utf-8") as f:
                meta = json.load(f)
            with open(path, "rb") as f:
                recorded.append((decode(f.read()), meta.get("columns"), meta.get("lines")))
        if not recorded or not fixtures:
            self.out("  whole recorded sessions: none found")
            return
        commands = [text for _, text in fixtures]
        session_chars = sum(len(t) for t, _, _ in recorded)
        command_chars = sum(len(t) for t in commands)
        session = self.time(lambda: [self.gate.clean(t, columns=c, rows=r) for t, c, r in recorded])
        command = self.time(lambda: [self.gate.clean(t) for t in commands])
        applied = sum(self.gate.clean(t, columns=c, rows=r).applied for t, c, r in recorded)
        self.out(
            f"  {len(recorded)} whole recorded sessions ({_size(session_chars)}, {applied} adopted): full gate "
            f"{_ms(session)}; {len(commands)} single-command captures ({_size(command_chars)}): {_ms(command)}"
        )
        per_byte = (session / session_chars) / (command / command_chars)
        label = "full gate per byte: whole recorded sessions / single-command captures"
        self.ratios.append(Ratio(label, per_byte, 1.0))

    def pathological(self, megabytes: int = 4, cap: float = 5.0, families: list[str] | None = None) -> None:
        large = 16 * KB if self.quick else megabytes * MB
        sizes = [size for size in (large // 4**k for k in range(5, -1, -1)) if size >= KB]
        # One call only past `cap`, and no larger size after it: a quadratic case must not stall the run.
        cap = 0.5 if self.quick else cap
        self.out(f"pathological inputs, up to {_size(large)} (sizes x4 apart; stops after a call over "
                 f"{cap:g} s): gate time against coloured log text of the same size, and the growth "
                 f"t(4S) / 4 t(S) over the last two sizes")
        # The reference is coloured log text, which takes the whole path (strip, verify, two counts):
        # uncoloured text is refused in microseconds as no_terminal_noise, a useless yardstick here.
        reference: dict[int, float] = {}
        worst_ratio = (0.0, "")
        worst_growth = (0.0, "")
        worst_own_growth = (0.0, "")
        for name, make in PATHOLOGICAL.items():
            if families and name not in families:
                continue
            reason = self.gate.clean(make(sizes[0])).reason or "applied"
            times: list[tuple[int, float]] = []
            for size in sizes:
                times.append((size, self._time_gate_capped(make(size), cap)))
                if times[-1][1] > cap:
                    break
            size, seconds = times[-1]
            if size not in reference:
                reference[size] = self._time_gate(log_lines(size, colour=True))
            ratio = seconds / reference[size]
            growth = seconds / (4 * times[-2][1]) if len(times) > 1 else float("inf")
            stopped = "" if size == large else " (stopped: too slow)"
            text = make(size)
            start = time.perf_counter()
            self.encoding.encode_ordinary(text)
            encode = time.perf_counter() - start
            # textclean's own work (cleaner + verifier) without the token counts, whose BPE is
            # superlinear in the length of a piece without spaces (openai/tiktoken#195).
            own = growth_own = float("nan")
            if len(times) > 1:
                own = self.time(lambda text=text: _clean_and_verify(text))
                smaller = make(times[-2][0])
                growth_own = own / (4 * self.time(lambda text=smaller: _clean_and_verify(text)))
                worst_own_growth = max(worst_own_growth, (growth_own, name))
            self.out(f"  {name:<34} {_ms(seconds)} at {_size(size)}{stopped} ({ratio:.2f}x reference; "
                     f"one encode_ordinary {_ms(encode)}), growth {growth:.2f}; clean+verify alone "
                     f"{_ms(own)}, growth {growth_own:.2f}; gate: {reason}")
            worst_ratio = max(worst_ratio, (ratio, name))
            worst_growth = max(worst_growth, (growth, name))
        if large not in reference:
            reference[large] = self._time_gate(log_lines(large, colour=True))
        ref_growth = reference[large] / (4 * self._time_gate(log_lines(large // 4, colour=True)))
        self.out(f"  {'coloured log text (reference)':<34} {_ms(reference[large])} at {_size(large)}, "
                 f"growth {ref_growth:.2f}")
        if not families:
            ratio = self._one_long_line(256 * KB if self.quick else LONG_LINE)
            worst_ratio = max(worst_ratio, (ratio, "one 50 MB line"))
        self.ratios.append(Ratio(f"pathological, largest ratio to coloured text ({worst_ratio[1]})",
                                 worst_ratio[0], None))
        self.ratios.append(Ratio(f"pathological, largest growth t(4S)/4t(S) ({worst_growth[1]})",
                                 worst_growth[0], 1.5))
        self.ratios.append(Ratio(f"pathological, largest growth of clean+verify alone ({worst_own_growth[1]})",
                                 worst_own_growth[0], 1.5))

    def grammar_growth(self) -> None:
        """``grammar.ESCAPE_SEQUENCE.sub`` on hostile units: the growth t(2S) / 2 t(S) (goal <= 1.5)
        and the cost against plain text of the same size (info)."""
        size = 64 * KB if self.quick else 2 * MB
        plain = _repeat_to("plain log line with words\n", size)
        t_plain = self.time(lambda: grammar.ESCAPE_SEQUENCE.sub("", plain))
        worst_growth, worst_ratio = (0.0, ""), (0.0, "")
        self.out(f"grammar: ESCAPE_SEQUENCE.sub on {_size(size)} of hostile units, and on twice that")
        for name, unit in GRAMMAR_UNITS.items():
            hostile = (unit * (size // len(unit) + 1))[:size]
            double = hostile + hostile
            once = self.time(lambda text=hostile: grammar.ESCAPE_SEQUENCE.sub("", text))
            twice = self.time(lambda text=double: grammar.ESCAPE_SEQUENCE.sub("", text))
            self.out(f"  {name:<24} {_ms(once)} ({once / t_plain:.2f}x plain text), growth {twice / (2 * once):.2f}")
            worst_growth = max(worst_growth, (twice / (2 * once), name))
            worst_ratio = max(worst_ratio, (once / t_plain, name))
        self.ratios.append(Ratio(f"grammar, largest ratio to plain text ({worst_ratio[1]})", worst_ratio[0], None))
        self.ratios.append(Ratio(f"grammar, largest growth t(2S)/2t(S) ({worst_growth[1]})", worst_growth[0], 1.5))

    def verifier_growth(self) -> None:
        """``verify.terminal_lines`` alone on :data:`VERIFIER_CHEAP` (1 MB) and :data:`VERIFIER_DENSE`
        (256 KB), and on twice that: the growth t(2S) / 2 t(S) (goal <= 1.5), and the cheap group
        against plain text of the same size (info)."""
        scale = 16 if self.quick else 1
        plain = _repeat_to("an ordinary line of tool output, nothing to redraw here at all\n", 2 * MB // scale)

        def lines(text: str) -> None:
            try:
                verify.terminal_lines(text)
            except verify.Refusal:
                pass

        t_plain = self.time(lambda: lines(plain))
        worst_growth, worst_ratio = (0.0, ""), (0.0, "")
        self.out("verifier: terminal_lines on pathological input, and on twice that")
        for group, size in ((VERIFIER_CHEAP, MB // scale), (VERIFIER_DENSE, MB // 4 // scale)):
            for name, make in group.items():
                small, large = make(size), make(2 * size)
                once = self.time(lambda text=small: lines(text))
                twice = self.time(lambda text=large: lines(text))
                self.out(f"  {name:<30} {_ms(once)} at {_size(len(small))}, growth {twice / (2 * once):.2f}")
                worst_growth = max(worst_growth, (twice / (2 * once), name))
                if group is VERIFIER_CHEAP:
                    worst_ratio = max(worst_ratio, (twice / t_plain, name))
        self.ratios.append(Ratio(f"verifier, cheap group, largest ratio to plain text ({worst_ratio[1]})",
                                 worst_ratio[0], None))
        self.ratios.append(Ratio(f"verifier, largest growth t(2S)/2t(S) ({worst_growth[1]})", worst_growth[0], 1.5))

    def pathological_once(self, megabytes: int, families: list[str] | None) -> None:
        """Each family (default: all) timed by one gate call at ``megabytes``, against one call on
        coloured log text of the same size: the figure the README states for 16 MB."""
        size = 16 * KB if self.quick else megabytes * MB
        reference = _once(lambda: self.gate.clean(log_lines(size, colour=True)))
        self.out(f"pathological inputs at {_size(size)}, one gate call each; coloured log text: {_ms(reference)}")
        worst = (0.0, "")
        for name, make in PATHOLOGICAL.items():
            if families and name not in families:
                continue
            text = make(size)
            seconds = _once(lambda text=text: self.gate.clean(text))
            self.out(f"  {name:<38} {_ms(seconds)} ({seconds / reference:.2f}x coloured text)")
            worst = max(worst, (seconds / reference, name))
        self.ratios.append(Ratio(f"pathological at {_size(size)}, largest ratio to coloured text ({worst[1]})",
                                 worst[0], None))

    def _one_long_line(self, size: int) -> float:
        """One coloured line of ``size`` characters, no newline, against coloured log text of that size,
        each timed once (at 50 MB a run takes seconds), through a gate whose ``max_chars`` admits it."""
        gate = TextClean(max_chars=2 * size)
        timings = []
        for label, text in (("one long line", _coloured_words(size)), ("reference", log_lines(size, colour=True))):
            start = time.perf_counter()
            result = gate.clean(text)
            timings.append(time.perf_counter() - start)
            if label == "one long line":
                reason = result.reason or "applied"
            del text, result
        ratio = timings[0] / timings[1]
        self.out(f"  {'one ' + _size(size) + ' line':<34} {_ms(timings[0])} once, coloured log text "
                 f"{_ms(timings[1])} once ({ratio:.2f}x reference), gate (max_chars={_size(2 * size)}): {reason}")
        return ratio

    def oracle_throughput(self, fixtures: list[tuple[str, str]]) -> None:
        try:
            from oracle import render
        except ImportError as error:  # the oracle is an optional extra (pyte)
            self.out(f"oracle throughput: skipped ({error})")
            self.ratios.append(Ratio(ORACLE_LABEL, 0.0, None, skipped=True))
            return
        budget_chars = 64 * KB if self.quick else 1 * MB
        texts, chars = [], 0
        for _, text in sorted(fixtures, key=lambda item: len(item[1])):
            if chars + len(text) > budget_chars:
                break
            texts.append(text)
            chars += len(text)
        if not texts:
            texts = [log_lines(16 * KB, colour=True)]
            chars = len(texts[0])
        seconds = best_time(lambda: [render(t) for t in texts], Budget(self.budget.repeat, 0.0))
        mb_per_s = chars / MB / seconds
        self.out(f"oracle throughput: oracle.render on {len(texts)} inputs, {_size(chars)} in {_ms(seconds)}")
        self.ratios.append(Ratio(ORACLE_LABEL, mb_per_s, None, " MB/s"))
        self.oracle_against_pyte(render)

    def oracle_against_pyte(self, render: Callable[[bytes], object]) -> None:
        """Was tests/test_oracle_fixes.py's timed test: pyte's Stream parses one character at a time,
        the oracle must judge megabytes in seconds (at least 3x pyte's throughput)."""
        try:
            import pyte
        except ImportError as error:
            self.out(f"oracle against pyte: skipped ({error})")
            self.ratios.append(Ratio(ORACLE_PYTE_LABEL, 0.0, None, skipped=True))
            return
        lines = 800 if self.quick else 8000
        data = b"".join(
            b"\x1b[32m%6d\x1b[0m some log text with words and \x1b[1mbold\x1b[m parts\n" % i
            + (b"progress 10%\rprogress 50%\r\x1b[Kprogress 100%\n" if i % 5 == 0 else b"")
            for i in range(lines)
        )
        sample = data[: len(data) // 8]
        budget = Budget(self.budget.repeat, 0.0)
        ours = best_time(lambda: render(data), budget) / len(data)

        def feed() -> None:
            pyte.ByteStream(pyte.HistoryScreen(80, 24, history=100000)).feed(sample)

        theirs = best_time(feed, budget) / len(sample)
        self.out(f"oracle against pyte: {1 / MB / ours:.2f} MB/s against pyte's "
                 f"{1 / MB / theirs:.2f} MB/s (ByteStream into an 80x24 HistoryScreen)")
        self.ratios.append(Ratio(ORACLE_PYTE_LABEL, ours / theirs, 0.33))

    def pty_captures(self) -> None:
        """Were tests/test_fixtures_gen.py's wall-clock limits: a capture that times out kills its process
        group at once, and a background child holding the pty does not hold up the capture."""
        from fixtures_gen import capture

        cases = (
            (CAPTURE_TIMEOUT_LABEL, ["sh", "-c", "sleep 100 & sleep 100"], 1.0, 10.0),
            (CAPTURE_BACKGROUND_LABEL, ["sh", "-c", "sleep 30 & echo done"], 20.0, 5.0),
        )
        for label, argv, timeout, goal in cases:
            started = time.perf_counter()
            result = capture(argv, timeout=timeout, version_argv=())
            seconds = time.perf_counter() - started
            self.out(f"pty capture {argv[-1]!r}: {seconds:.2f} s, timed out: {result.timed_out}")
            self.ratios.append(Ratio(label, seconds, goal, " s"))

    def peak_memory(self) -> None:
        size = 50 * MB
        text = _coloured_words(size)
        gate = TextClean(max_chars=64 * MB)  # the default max_chars (32 MiB) would refuse it unread
        rss_before = _max_rss()
        tracemalloc.start()
        start = time.perf_counter()
        result = gate.clean(text)
        seconds = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        rss_growth = _max_rss() - rss_before
        self.out(f"peak memory: one {_size(size)} coloured line, gate with max_chars=64 MB: "
                 f"{peak / MB:.0f} MB traced at peak (Python allocations), the process's peak RSS grew "
                 f"{rss_growth / MB:.0f} MB (all allocations, tiktoken's included); {seconds:.1f} s under "
                 f"tracemalloc, gate: {result.reason or 'applied'}")
        self.ratios.append(Ratio(PEAK_MEMORY_LABEL, peak / size, None))


# --- the speed issue's table (issue 13) and the counting backends (issue 17) -----------------------

#: Real program output beside the committed captures: pyte's captured sessions and alacritty's
#: recorded ref tests, read from the shared corpora when present (TEXTCLEAN_CORPORA).
CORPORA_GLOBS = ("pyte_captured/*.input", "alacritty/*/alacritty.recording")
SMALL = 8 * KB
ISSUE13_LABELS = {
    "clean": "clean+verify (tokenizer len) / ansi-regex re.sub",
    "given": "full gate, tokens_before given / one encode_ordinary",
    "counted": "full gate, tokens_before not given / one encode_ordinary",
    "crlf": "inert path, fresh 1 MB CRLF text / '\\x1b' in s",
    "lf": "inert path, fresh 1 MB LF text / '\\x1b' in s",
    "memory": "peak memory / input, 16 MB of adopted captures",
}


def load_real_captures(fixtures: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The committed captures plus the corpora's real program output (when TEXTCLEAN_CORPORA is set)."""
    out = list(fixtures)
    corpora = os.environ.get("TEXTCLEAN_CORPORA")
    if corpora and os.path.isdir(corpora):
        for pattern in CORPORA_GLOBS:
            for path in sorted(glob.glob(os.path.join(corpora, pattern))):
                with open(path, "rb") as f:
                    out.append((os.path.relpath(path, corpora), decode(f.read())))
    return out


def adopted_captures(captures: list[tuple[str, str]]) -> list[str]:
    """Captures the gate adopts, alone and after other output (so that joined they are adopted too)."""
    gate = TextClean()
    return [text for _, text in captures if gate.clean(text).applied and gate.clean("x\n" * 30 + text).applied]


def adopted_text(captures: list[tuple[str, str]], size: int) -> str:
    """:func:`adopted_captures` joined by LF and repeated to ``size`` characters (whole captures)."""
    adopted = adopted_captures(captures)
    parts, total = [], 0
    while total < size:
        for text in adopted:
            parts.append(text if text.endswith("\n") else text + "\n")
            total += len(parts[-1])
            if total >= size:
                break
    return "".join(parts)


def interleaved(fns: dict[str, Callable[[], object]], budget: Budget, rounds: int) -> list[dict[str, float]]:
    """Per-call seconds of each function, ``rounds`` times, the functions taking turns within a round."""
    loops = {name: _loops_for(fn, budget.min_seconds) for name, fn in fns.items()}
    out = []
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(rounds):
            out.append({name: _run(fn, loops[name]) / loops[name] for name, fn in fns.items()})
    finally:
        if gc_was_enabled:
            gc.enable()
    return out


def _loops_for(fn: Callable[[], object], min_seconds: float) -> int:
    loops = 1
    while True:
        elapsed = _run(fn, loops)
        if elapsed >= min_seconds or loops >= 1 << 20:
            return loops
        loops = loops * 10 if elapsed < min_seconds / 10 else loops * 2


def median_ratio(runs: list[dict[str, float]], top: str, bottom: str) -> float:
    return statistics.median(run[top] / run[bottom] for run in runs)


def _fresh_copies(text: str, count: int) -> list[str]:
    """``count`` distinct str objects equal to ``text``: no cached UTF-8 form, no shared state."""
    return [text[:-1] + text[-1] for _ in range(count)]


class Issue13:
    """The speed issue's six ratios, medians of interleaved rounds, and the counting backends."""

    def __init__(self, bench: Bench, captures: list[tuple[str, str]]) -> None:
        self.bench = bench
        self.out = bench.out
        self.captures = captures
        self.rounds = 3 if bench.quick else 7
        self.budget = Budget(1, 0.002 if bench.quick else 0.05)
        self.reference = tokens.tiktoken_encoding(DEFAULT_ENCODING)
        self.backends = _installed_backends()

    def _groups(self) -> list[tuple[str, list[str]]]:
        texts = [text for _, text in self.captures]
        adopted = adopted_captures(self.captures)
        big = adopted_text(self.captures, 64 * KB if self.bench.quick else MB)
        return [
            (f"all {len(texts)} real captures", texts),
            (f"{len(adopted)} adopted captures, one call each", adopted),
            (f"adopted captures joined, {_size(len(big))}", [big]),
        ]

    def ratios(self) -> None:
        self.out(f"issue 13 table: medians of {self.rounds} interleaved rounds on real captures "
                 f"({len(self.captures)}: the fixtures{' + corpora' if len(self.captures) > 40 else ''})")
        by_len = TextClean(tokenizer=len)
        for label, texts in self._groups():
            counts = [len(self.reference.encode_ordinary(t)) for t in texts]
            fns: dict[str, Callable[[], object]] = {
                "regex": lambda texts=texts: [strip_ansi(t) for t in texts],
                "encode": lambda texts=texts: [self.reference.encode_ordinary(t) for t in texts],
                "clean": lambda texts=texts: [by_len.clean(t) for t in texts],
            }
            for name, gate in self._gates().items():
                fns[f"given {name}"] = lambda texts=texts, gate=gate, counts=counts: [
                    gate.clean(t, tokens_before=n) for t, n in zip(texts, counts, strict=True)]
                fns[f"counted {name}"] = lambda texts=texts, gate=gate: [gate.clean(t) for t in texts]
            runs = interleaved(fns, self.budget, self.rounds)
            chars = sum(len(t) for t in texts)
            medians = {name: statistics.median(run[name] for run in runs) for name in fns}
            self.out(f"  {label} ({_size(chars)}): " + ", ".join(f"{n} {_ms(t)}" for n, t in medians.items()))
            self._ratio("clean", label, median_ratio(runs, "clean", "regex"), 3.0)
            if label.startswith("all"):  # most are refused unread: the gate rows are for adopted text
                continue
            for name in self._gates():
                self._ratio("given", f"{label}, {name}", median_ratio(runs, f"given {name}", "encode"), 1.3)
                self._ratio("counted", f"{label}, {name}", median_ratio(runs, f"counted {name}", "encode"), 2.2)
        self._inert()

    def _gates(self) -> dict[str, TextClean]:
        return {name: TextClean(tokenizer=tokens.Counter(DEFAULT_ENCODING, name)) for name in self.backends}

    def _ratio(self, key: str, detail: str, value: float, goal: float, unit: str = "x") -> None:
        self.bench.ratios.append(Ratio(f"{ISSUE13_LABELS[key]}, {detail}", value, goal, unit))

    def _inert(self) -> None:
        size = 64 * KB if self.bench.quick else MB
        gate = TextClean()
        for key, crlf, goal in (("crlf", True, 3.0), ("lf", False, 2.0)):
            text = log_lines(size, crlf=crlf)
            runs = []
            for _ in range(self.rounds):
                # Each call on a str never seen before, so nothing cached on the object helps it.
                base, subject = _fresh_copies(text, 20), _fresh_copies(text, 20)
                start = time.perf_counter()
                for s in base:
                    _ = "\x1b" in s
                bare = (time.perf_counter() - start) / len(base)
                start = time.perf_counter()
                for s in subject:
                    gate.clean(s)
                runs.append({"bare": bare, "gate": (time.perf_counter() - start) / len(subject)})
                del base, subject
            ratio = median_ratio(runs, "gate", "bare")
            self.out(f"  inert {key.upper()} {_size(len(text))}: `'\\x1b' in s` "
                     f"{_us(statistics.median(r['bare'] for r in runs))}, clean() "
                     f"{_us(statistics.median(r['gate'] for r in runs))} ({ratio:.2f}x)")
            self._ratio(key, f"{_size(len(text))}", ratio, goal)

    def memory(self, label: str | None = None) -> None:
        size = MB if self.bench.quick else 16 * MB
        text = adopted_text(self.captures, size)
        gate = TextClean()
        size = len(text.encode("utf-8", "surrogateescape"))  # the capture's bytes (the str may be UCS-4)
        tracemalloc.start()
        result = gate.clean(text)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        self.out(f"  peak memory: {_size(size)} of adopted captures ({sys.getsizeof(text) / MB:.1f} MB as a str), "
                 f"{peak / MB:.1f} MB traced at peak beyond the input (gate: {result.reason or 'applied'}, "
                 f"counter {gate._count!r})")
        if label is not None:
            self.bench.ratios.append(Ratio(label, peak / size, 4.0))
            return
        self._ratio("memory", f"{_size(size)}", peak / size, 4.0)

    def batch(self) -> None:
        """clean_many (threads where the counter releases the GIL) against clean() one text at a time."""
        texts = adopted_captures(self.captures) * (1 if self.bench.quick else 4)
        fns: dict[str, Callable[[], object]] = {}
        for name in self.backends:
            gate = TextClean(tokenizer=tokens.Counter(DEFAULT_ENCODING, name))
            fns[f"serial {name}"] = lambda gate=gate: [gate.clean(t) for t in texts]
            fns[f"clean_many {name}"] = lambda gate=gate: gate.clean_many(texts)
        runs = interleaved(fns, self.budget, self.rounds)
        for name in self.backends:
            ratio = median_ratio(runs, f"clean_many {name}", f"serial {name}")
            self.out(f"  clean_many / serial clean(), {len(texts)} adopted captures, {name}: {ratio:.2f}x "
                     f"({os.cpu_count()} CPUs)")
            self.bench.ratios.append(Ratio(f"clean_many / one clean() at a time, adopted captures, {name}",
                                           ratio, None))

    def counting(self) -> None:
        texts = [text for _, text in self.captures]
        big = adopted_text(self.captures, 64 * KB if self.bench.quick else 4 * MB)
        chars = sum(len(t) for t in texts)
        self.out(f"token counting: MB/s per backend and encoding (captures one call each, {_size(chars)}; "
                 f"one {_size(len(big))} text; count_many over the captures)")
        for encoding in tokens.OFFLINE_ENCODINGS:
            counters = {name: tokens.Counter(encoding, name) for name in self.backends}
            fns: dict[str, Callable[[], object]] = {}
            for name, counter in counters.items():
                fns[f"{name} captures"] = lambda c=counter: [c(t) for t in texts]
                fns[f"{name} big"] = lambda c=counter: c(big)
                fns[f"{name} count_many"] = lambda c=counter: c.many(texts)
            runs = interleaved(fns, self.budget, self.rounds)
            for name in counters:
                per = {kind: statistics.median(r[f"{name} {kind}"] for r in runs)
                       for kind in ("captures", "big", "count_many")}
                self.out(f"  {encoding} {name}: captures {chars / MB / per['captures']:.1f} MB/s, "
                         f"big {len(big) / MB / per['big']:.1f} MB/s, count_many "
                         f"{chars / MB / per['count_many']:.1f} MB/s")
                self.bench.ratios.append(Ratio(f"counting MB/s, {encoding}, {name}, real captures",
                                               chars / MB / per["captures"], None, " MB/s"))
            if len(counters) > 1:
                speedup = median_ratio(runs, "tiktoken captures", "bpe-openai captures")
                self.bench.ratios.append(Ratio(f"counting speed-up bpe-openai / tiktoken, {encoding}",
                                               speedup, None))


# --- issue 27's table: captures and sessions at 160x40 against a bare ansi-regex strip ------------

ISSUE27_LABELS = {
    "captures": "issue 27: clean+verify (len) / ansi-regex, committed captures x{n}",
    "sessions": "issue 27: clean+verify (len) / ansi-regex, sessions at 160x40",
    "unsized": "issue 27: clean+verify (len) / ansi-regex, those sessions, no size",
    "floor captures": "issue 27: two floor walks (benchmarks/floor.py) / ansi-regex, captures x{n}",
    "floor sessions": "issue 27: two floor walks (benchmarks/floor.py) / ansi-regex, sessions at 160x40",
    "gate captures": "issue 27: gate, tokens_before given / one encode, captures x{n}",
    "gate sessions": "issue 27: gate, tokens_before given / one encode, sessions at 160x40",
    "inert": "issue 27: clean() on inert {size} text / one encode",
    "memory": "issue 27: peak memory / input, adopted captures ({size})",
    "rate": "issue 27: clean() (len) at 80x24, s/MB at {size}",
    "growth": "issue 27: clean() (len) at 80x24, s/MB growth {size}",
}
#: Issue 23's two linear-but-slow families, measured through ``clean()`` (issue 27's rows).
ISSUE27_SHAPES = ("REP chains", "many small pages", "many small pages, each different")


def tb_sessions(directory: Path, material: Path | None = None) -> list[tuple[str, str, int, int]]:
    """Sessions recorded at 160x40 the way Terminal-Bench records them: the committed ``session_tb_*``
    recordings and the ``*_160x40`` progress captures; with ``material``, every ``.cast`` under it
    recorded at 160x40 (local recordings that are not committed)."""
    from fixtures_gen.checks import load_fixtures, load_sessions
    from oracle.asciicast import read_asciicast

    out = [(s.name, s.text, s.columns, s.rows) for s in load_sessions(directory / "sessions")
           if s.name.startswith("session_tb_")]
    out += [(f.name, f.text, 160, 40) for f in load_fixtures(directory / "progress") if f.name.endswith("_160x40")]
    if material is not None:
        for path in sorted(material.rglob("*.cast")):
            try:
                recording = read_asciicast(path.read_bytes())
            except (ValueError, UnicodeDecodeError, json.JSONDecodeError, KeyError):
                continue
            if (recording.columns, recording.rows) == (160, 40):
                out.append((path.stem, recording.output, 160, 40))
    return out


def issue27(bench: Bench, fixtures: list[tuple[str, str]], directory: Path, material: Path | None) -> None:
    """Issue 27's rows, each a median of interleaved rounds in this one run."""
    rounds = 3 if bench.quick else 7
    budget = Budget(1, 0.002 if bench.quick else 0.05)
    encoding = tokens.tiktoken_encoding(DEFAULT_ENCODING)
    by_len = TextClean(tokenizer=len)
    gate = TextClean()
    captures = [text for _, text in fixtures] * (1 if bench.quick else 5)
    sessions = tb_sessions(directory, material)
    if bench.quick:
        sessions = sessions[:3]
    bench.out(f"issue 27: {len(fixtures)} committed captures x{len(captures) // max(len(fixtures), 1)}, "
              f"{len(sessions)} sessions at 160x40 ({_size(sum(len(t) for _, t, _, _ in sessions))}"
              f"{', local material included' if material else ''}); medians of {rounds} interleaved rounds")
    counts = [len(encoding.encode_ordinary(t)) for t in captures]
    session_counts = [len(encoding.encode_ordinary(t)) for _, t, _, _ in sessions]
    fns: dict[str, Callable[[], object]] = {
        "regex captures": lambda: [strip_ansi(t) for t in captures],
        "clean captures": lambda: [by_len.clean(t) for t in captures],
        "encode captures": lambda: [encoding.encode_ordinary(t) for t in captures],
        "floor captures": lambda: [(floor.walk(t), floor.walk(t)) for t in captures],
        "gate captures": lambda: [gate.clean(t, tokens_before=n) for t, n in zip(captures, counts, strict=True)],
        "regex sessions": lambda: [strip_ansi(t) for _, t, _, _ in sessions],
        "clean sessions": lambda: [by_len.clean(t, columns=c, rows=r) for _, t, c, r in sessions],
        "unsized sessions": lambda: [by_len.clean(t, terminal=True) for _, t, _, _ in sessions],
        "encode sessions": lambda: [encoding.encode_ordinary(t) for _, t, _, _ in sessions],
        "floor sessions": lambda: [(floor.walk(t, r), floor.walk(t, r)) for _, t, _, r in sessions],
        "gate sessions": lambda: [gate.clean(t, tokens_before=n, columns=c, rows=r)
                                  for (_, t, c, r), n in zip(sessions, session_counts, strict=True)],
    }
    runs = interleaved(fns, budget, rounds)
    medians = {name: statistics.median(run[name] for run in runs) for name in fns}
    bench.out("  " + ", ".join(f"{name} {_ms(t)}" for name, t in medians.items()))
    adopted = sum(by_len.clean(t, columns=c, rows=r).applied for _, t, c, r in sessions)
    bench.out(f"  sessions adopted at 160x40: {adopted} of {len(sessions)}")
    for key, top, bottom, goal in (
        ("captures", "clean captures", "regex captures", 3.0),
        ("sessions", "clean sessions", "regex sessions", 3.0),
        ("unsized", "unsized sessions", "regex sessions", None),
        ("floor captures", "floor captures", "regex captures", None),
        ("floor sessions", "floor sessions", "regex sessions", None),
        ("gate captures", "gate captures", "encode captures", 1.3),
        ("gate sessions", "gate sessions", "encode sessions", 1.5),
    ):
        label = ISSUE27_LABELS[key].format(n=len(captures) // max(len(fixtures), 1))
        bench.ratios.append(Ratio(label, median_ratio(runs, top, bottom), goal))
    inert = log_lines(64 * KB if bench.quick else MB)
    inert_runs = interleaved({"clean": lambda: gate.clean(inert), "encode": lambda: encoding.encode_ordinary(inert)},
                             budget, rounds)
    bench.ratios.append(Ratio(ISSUE27_LABELS["inert"].format(size=_size(len(inert))),
                              median_ratio(inert_runs, "clean", "encode"), 0.1))
    # the committed captures alone: joined with the corpora's, a scroll region makes the gate refuse
    Issue13(bench, fixtures).memory(
        label=ISSUE27_LABELS["memory"].format(size="1 MB" if bench.quick else "16 MB"))
    sizes = (16 * KB, 128 * KB) if bench.quick else (MB, 8 * MB)
    shape_gate = TextClean(tokenizer=len, min_tokens=0)
    for name in ISSUE27_SHAPES:
        rates = []
        for size in sizes:
            text = SIZED_SHAPES[name](size)
            seconds = _once(lambda text=text: shape_gate.clean(text, columns=80, rows=24))
            rates.append(seconds / (len(text) / MB))
        bench.out(f"  {name} through clean() at 80x24: {rates[0]:.2f} s/MB at {_size(sizes[0])}, "
                  f"{rates[1]:.2f} s/MB at {_size(sizes[1])}")
        rate = ISSUE27_LABELS["rate"].format(size=_size(sizes[1]))
        growth = ISSUE27_LABELS["growth"].format(size=f"{_size(sizes[1])} / {_size(sizes[0])}")
        bench.ratios.append(Ratio(f"{rate} ({name})", rates[1], 1.0, unit=" s/MB"))
        bench.ratios.append(Ratio(f"{growth} ({name})", rates[1] / rates[0], 1.5))


HOOK_LABELS = {
    "clean": "hook latency / python -c pass, clean Bash output (11 KB log)",
    "noisy": "hook latency / python -c pass, noisy pip output (pip_download, 11 KB)",
}
REPOSITORY = Path(__file__).resolve().parent.parent


def _hook_event(stdout: str) -> bytes:
    """A Claude Code PostToolUse event for a Bash call that printed ``stdout``."""
    return json.dumps({
        "session_id": "bench", "transcript_path": "/tmp/bench.jsonl", "cwd": str(REPOSITORY),
        "permission_mode": "default", "hook_event_name": "PostToolUse", "tool_name": "Bash",
        "tool_input": {"command": "pip download demo-weights"},
        "tool_response": {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False},
        "tool_use_id": "toolu_bench",
    }).encode()


def hook_latency(bench: Bench, fixtures: Path) -> None:
    """The hook's wall-clock time per call, a new process each, against ``python -c pass``."""
    import subprocess

    pip = (fixtures / "pip_download.raw").read_bytes().decode("utf-8", "surrogateescape")
    plain = log_lines(len(pip))
    events = {"clean": _hook_event(plain), "noisy": _hook_event(pip)}
    hook = [sys.executable, "-m", "textclean", "hook", "claude-code"]
    commands: dict[str, tuple[list[str], bytes]] = {
        "pass": ([sys.executable, "-c", "pass"], b""),
        **{name: (hook, event) for name, event in events.items()},
    }
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    # the hook runs from beside the package this process imported, so that ``-m textclean`` finds the
    # same build (the repository's source, or an installed compiled one: benchmarks/builds.py)
    cwd = Path(textclean.__file__).resolve().parent.parent
    answers = {}
    for name, (argv, stdin) in commands.items():  # one warm-up each, and what each one answers
        answers[name] = subprocess.run(argv, input=stdin, capture_output=True, cwd=cwd, env=env,
                                       check=True).stdout
    if answers["clean"] or b"updatedToolOutput" not in answers["noisy"]:
        raise RuntimeError("the hook did not answer as expected: the rows would time something else")
    rounds = 5 if bench.quick else 25
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, (argv, stdin) in commands.items():
            start = time.perf_counter()
            subprocess.run(argv, input=stdin, capture_output=True, cwd=cwd, env=env, check=True)
            times[name].append(time.perf_counter() - start)
    best = {name: min(values) for name, values in times.items()}
    medians = {name: statistics.median(values) for name, values in times.items()}
    bench.out(f"hook latency, best (median) of {rounds} interleaved runs: " + ", ".join(
        f"{name} {_ms(best[name])} ({_ms(medians[name])})" for name in commands)
        + f"; inputs {_size(len(plain))} plain, {_size(len(pip))} pip")
    for name, goal in (("clean", 3.0), ("noisy", 6.0)):
        bench.ratios.append(Ratio(HOOK_LABELS[name], best[name] / best["pass"], goal))


def _installed_backends() -> list[str]:
    names = ["tiktoken"]
    try:
        tokens.Counter(DEFAULT_ENCODING, "bpe-openai")
        names.append("bpe-openai")
    except (ImportError, BackendError):  # not installed (the fast extra)
        pass
    return names


def _once(fn: Callable[[], object]) -> float:
    gc.disable()
    try:
        start = time.perf_counter()
        fn()
        return time.perf_counter() - start
    finally:
        gc.enable()


def _max_rss() -> int:
    """The process's peak resident set so far, in bytes (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * KB


def _clean_and_verify(text: str, **display: Any) -> None:
    try:
        proposal = cleaner.candidate(text, **display)
    except cleaner.Refused:
        return
    verify.first_difference(text, proposal.text, **display)


def sized_shapes(bench: Bench) -> None:
    """Issue 23's shapes at 80x24: clean+verify seconds per MB at 1 and 8 MB (one call each)."""
    sizes = (16 * KB, 128 * KB) if bench.quick else (MB, 8 * MB)
    bench.out(f"issue 23's shapes at 80x24, clean+verify once at {_size(sizes[0])} and {_size(sizes[1])}")
    worst_rate, worst_growth = (0.0, ""), (0.0, "")
    for name, make in SIZED_SHAPES.items():
        rates = []
        for size in sizes:
            text = make(size)
            seconds = _once(lambda text=text: _clean_and_verify(text, columns=80, rows=24))
            rates.append(seconds / (len(text) / MB))
        growth = rates[1] / rates[0]
        bench.out(f"  {name:<34} {rates[0]:.2f} s/MB at {_size(sizes[0])}, {rates[1]:.2f} s/MB at "
                  f"{_size(sizes[1])} (growth {growth:.2f})")
        worst_rate = max(worst_rate, (rates[1], name))
        worst_growth = max(worst_growth, (growth, name))
    bench.ratios.append(Ratio(f"issue 23 shapes at 80x24, worst s/MB ({worst_rate[1]})", worst_rate[0], 1.0,
                              unit=" s/MB"))
    bench.ratios.append(Ratio(f"issue 23 shapes, worst growth per MB 8 MB / 1 MB ({worst_growth[1]})",
                              worst_growth[0], 1.5))


Workload = list[tuple[str, str | None, dict[str, Any]]]


def _verifier_workloads(directory: Path, size: int) -> dict[str, Workload]:
    """The committed captures (no terminal; a terminal of unknown size), the recordings (at their size
    and at an unknown one), a generated coloured log of ``size`` and as many small pages that each differ
    (issue 23's, at 80x24), each text with the cleaner's candidate where it makes one (else None)."""
    groups: dict[str, list[tuple[str, dict[str, Any]]]] = {"captures": [], "recordings": []}
    for path in sorted(directory.glob("*.raw")):
        text = decode(path.read_bytes())
        groups["captures"] += [(text, {"terminal": False}), (text, {"terminal": True})]
    for sub in ("sessions", "pages", "progress"):
        for path in sorted((directory / sub).glob("*.raw")):
            meta = json.loads(path.with_suffix(".json").read_text())
            text = decode(path.read_bytes())
            groups["recordings"] += [(text, {"columns": meta.get("columns"), "rows": meta.get("lines")}),
                                     (text, {"terminal": True})]
    groups["coloured log"] = [(log_lines(size, colour=True), {"terminal": False})]
    groups["pages that differ"] = [(_counted_pages(size), {"columns": 80, "rows": 24})]
    out: dict[str, Workload] = {}
    for name, inputs in groups.items():
        out[name] = []
        for text, display in inputs:
            try:
                candidate: str | None = cleaner.candidate(text, **display).text
            except cleaner.Refused:
                candidate = None
            out[name].append((text, candidate, display))
    return out


def _verify_all(workload: Workload, shortcuts: verify.Shortcuts) -> None:
    for text, candidate, display in workload:
        display = {"terminal": True, **display}
        if candidate is not None:
            verify.first_difference(text, candidate, shortcuts=shortcuts, **display)
        else:
            try:
                verify.terminal_lines(text, shortcuts=shortcuts, **display)
            except verify.Refusal:
                pass


def fast_paths(bench: Bench, directory: Path) -> None:
    """Each of the verifier's shortcuts (``verify.Shortcuts``) against the verifier without it, on the
    committed captures, the recordings, a generated coloured log and small pages that differ
    (first_difference of the cleaner's candidate, else terminal_lines): a ratio above 1 is what the
    shortcut saves there; the walk (no shortcut) against all of them. CPU time of this process (the
    machine is shared: wall time is noise here), the settings taking turns within each round, the
    median of the rounds' ratios."""
    settings = {"every": verify.ALL, "the walk": verify.WALK}
    settings.update({f"no {name}": verify.ALL._replace(**{name: False}) for name in verify.Shortcuts._fields})
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for group, workload in _verifier_workloads(directory, 64 * KB if bench.quick else 512 * KB).items():
            runs: list[dict[str, float]] = []
            start = time.process_time()
            _verify_all(workload, verify.ALL)  # warm: caches filled, and how many loops make 50 ms
            loops = 1 if bench.quick else max(1, round(0.05 / max(time.process_time() - start, 1e-6)))
            for _ in range(3 if bench.quick else 11):
                run = {}
                for label, shortcuts in settings.items():
                    start = time.process_time()
                    for _ in range(loops):
                        _verify_all(workload, shortcuts)
                    run[label] = (time.process_time() - start) / loops
                runs.append(run)
            every = statistics.median(run["every"] for run in runs)
            chars = sum(len(text) for text, _, _ in workload)
            bench.out(f"verifier shortcuts, {group} ({len(workload)} texts, {_size(chars)}): all {_ms(every)} CPU; "
                      "without each, the CPU time over that:")
            bench.out("  " + ", ".join(f"{label} {median_ratio(runs, label, 'every'):.2f}x"
                                       for label in settings if label != "every"))
            for label in settings:
                if label != "every":
                    name = "no shortcut (the walk)" if label == "the walk" else label
                    bench.ratios.append(Ratio(f"verifier, {group}: {name} / every shortcut (CPU)",
                                              median_ratio(runs, label, "every"), None))
    finally:
        if gc_was_enabled:
            gc.enable()


def _load() -> str:
    try:
        return " ".join(f"{n:.2f}" for n in os.getloadavg())
    except OSError:
        return "unknown"


def _size(chars: int) -> str:
    return f"{chars / MB:g} MB" if chars >= MB else f"{chars / KB:.4g} KB"


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:.2f} us"


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms"


SECTIONS = ("issue27", "issue13", "counting", "inert", "clean", "grammar", "verifier", "pathological",
            "pathological-once", "oracle", "captures", "memory", "hook", "sized", "shortcuts")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small inputs, few repeats (a smoke run)")
    parser.add_argument("--no-big", action="store_true", help="skip the 50 MB peak-memory run")
    parser.add_argument("--fixtures", type=Path, default=DEFAULT_FIXTURES, help="directory of *.raw captures")
    parser.add_argument("--only", choices=SECTIONS, action="append", help="run only these sections")
    parser.add_argument("--pathological-mb", type=int, default=4, help="largest pathological input (MB)")
    parser.add_argument("--cap", type=float, default=5.0, help="pathological: stop after a call this slow (s)")
    parser.add_argument("--material", type=Path, default=None,
                        help="issue 27: also every .cast recorded at 160x40 under this directory (not committed)")
    parser.add_argument("--family", action="append", choices=list(PATHOLOGICAL), help="pathological: only these")
    parser.add_argument("--json", type=Path, default=None, help="also write the table of ratios to this file")
    args = parser.parse_args(argv)
    sections = set(args.only or SECTIONS)

    def out(line: str) -> None:
        print(line, flush=True)

    fixtures = load_fixtures(args.fixtures)
    mode = "quick" if args.quick else "full"
    out(f"textclean bench ({mode}), {build()} build from {Path(textclean.__file__).parent}: "
        f"Python {platform.python_version()}, tiktoken {tiktoken.__version__}, "
        f"{os.cpu_count()} CPUs, load average {_load()}, {len(fixtures)} fixtures from {args.fixtures}, "
        f"token backends {', '.join(_installed_backends())}")
    bench = Bench(args.quick, out)
    captures = load_real_captures(fixtures)
    issue13 = Issue13(bench, captures)
    if "issue27" in sections:
        issue27(bench, fixtures, args.fixtures, args.material)
    if "issue13" in sections:
        issue13.ratios()
        issue13.memory()
    if "counting" in sections:
        issue13.counting()
        issue13.batch()
    if "inert" in sections:
        bench.inert_path()
    if "clean" in sections:
        bench.clean_verify_and_gate(fixtures)
        bench.sessions(fixtures, args.fixtures)
    if "grammar" in sections:
        bench.grammar_growth()
    if "verifier" in sections:
        bench.verifier_growth()
    if "pathological" in sections:
        bench.pathological(args.pathological_mb, args.cap, args.family)
    if "pathological-once" in sections and args.only:  # opt-in: minutes at 16 MB
        bench.pathological_once(args.pathological_mb, args.family)
    if "oracle" in sections:
        bench.oracle_throughput(fixtures)
    if "captures" in sections:
        bench.pty_captures()
    if "memory" in sections:
        if "issue13" not in sections:  # issue 13's memory row on its own: --only memory
            issue13.memory()
        if args.quick or args.no_big:
            out("peak memory: skipped (--quick / --no-big)")
            bench.ratios.append(Ratio(PEAK_MEMORY_LABEL, 0.0, None, skipped=True))
        else:
            bench.peak_memory()
    if "hook" in sections:
        hook_latency(bench, args.fixtures)
    if "sized" in sections:
        sized_shapes(bench)
    if "shortcuts" in sections:
        fast_paths(bench, args.fixtures)
    out("")
    out(f"load average at the end: {_load()} (a busy machine makes every ratio noisier)")
    out(f"{'ratio':<78} {'value':>12}  goal")
    for ratio in bench.ratios:
        out(ratio.row())
    if args.json is not None:
        args.json.write_text(json.dumps({"build": build(), "ratios": [
            {"label": r.label, "value": r.value, "goal": r.goal, "skipped": r.skipped} for r in bench.ratios]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
