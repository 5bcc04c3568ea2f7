"""``python -m benchmarks.stream``: the stream's promises (issue 40), measured in one run.

* **Memory and cost** on a generated stream of progress frames (pip / tqdm / cargo-style bars redrawn
  by CR, uv-style multi-row blocks redrawn by CUU + EL, interleaved with ordinary lines), fed to
  :class:`textclean.Stream` as bytes in chunks of 1-8 KB cut anywhere, for no terminal and at a
  terminal size (80x24). Each run is its own process, so its peak RSS (``VmHWM`` in
  ``/proc/self/status``) is its own; it is sampled after the material is made (0 %), then at 10 %, 50 %
  and 100 % of the input, so growth shows. The CPU seconds (``time.process_time``) of the stream's
  ``feed`` / ``close`` per MB are set against one-shot :func:`textclean.clean` per MB on a slice
  (``--slice``, 16 MB) of the same material, and the stream on that same slice, in one process.
  Goals: the peak at 100 % within 8 MB of the peak at 10 % (constant memory), and the stream's CPU per
  MB at most ``clean()``'s.
* **Latency** of ``textclean run -- CMD`` (pipes) and ``cmd | textclean -f``: a child writes lines
  through a pipe, each carrying the ``time.monotonic()`` of its line end (a clock shared by every
  process on the machine); this process reads textclean's stdout and notes when each line arrives.
  Patterns: a plain line every 50 ms (written ahead of the stream); a coloured line (SGR) every 50 ms
  (through the stream); bursts of 40 lines then a pause; a progress line redrawn by CR + EL frames
  every 20 ms, ended by LF every ~200 ms. ``textclean -f`` is started and answers a first line before
  the child writes, so its start-up is not counted. p50 / p99 / max; goal: every line within 100 ms.

``--size MB`` (default 64; the full measure is ``--size 1024``), ``--lines N`` (per latency
pattern, default 60), ``--only memory|latency``,
``--json`` prints one JSON object (the fields) instead of the table. Timings are CPU seconds or
latencies within this run: compare them as ratios, never across runs (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import selectors
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MB = 1024 * 1024
POOL_MB = 4  # the material is a pool this big, cycled (the stream sees it as one long run)
MEMORY_GROWTH_GOAL_KB = 8 * 1024
LATENCY_GOAL_MS = 100.0
ROOT = Path(__file__).resolve().parent.parent
DISPLAYS: dict[str, dict[str, Any]] = {
    "no terminal": {},
    "terminal 80x24": {"columns": 80, "rows": 24},
}

# --- material ------------------------------------------------------------------------------------

_PACKAGES = ("numpy", "requests", "serde_json", "tokio", "pydantic-core", "urllib3", "libc", "syn")


def _pip_bar(rng: random.Random) -> str:
    name, total = rng.choice(_PACKAGES), rng.randint(2, 90)
    out = [f"Downloading {name}-{rng.randint(1, 9)}.{rng.randint(0, 30)}.0-py3-none-any.whl ({total}.0 MB)\n"]
    for step in range(0, 41, rng.choice((2, 4, 8))):
        done = total * step / 40
        out.append(f"\r   \x1b[38;5;197m{'━' * step}\x1b[0m\x1b[38;5;237m{'━' * (40 - step)}\x1b[0m "
                   f"\x1b[32m{done:.1f}/{total}.0 MB\x1b[0m \x1b[31m{rng.uniform(1, 40):.1f} MB/s\x1b[0m "
                   f"eta \x1b[36m0:00:{40 - step:02d}\x1b[0m")
    out.append("\n")
    return "".join(out)


def _tqdm(rng: random.Random) -> str:
    total = rng.randint(50, 400)
    out = []
    for n in range(0, total + 1, max(1, total // rng.randint(10, 40))):
        filled = 10 * n // total
        out.append(f"\r{100 * n // total:3d}%|{'█' * filled}{' ' * (10 - filled)}| {n}/{total} "
                   f"[00:{n // 30:02d}<00:{(total - n) // 30:02d}, {rng.uniform(10, 90):.2f}it/s]")
    out.append("\n")
    return "".join(out)


def _cargo(rng: random.Random) -> str:
    total, out = rng.randint(20, 200), []
    for n in range(rng.randint(3, 12)):
        name = rng.choice(_PACKAGES)
        out.append(f"\x1b[K   \x1b[1m\x1b[32mCompiling\x1b[0m {name} v0.{n}.{rng.randint(0, 9)}\n")
        width = 25 * n // 12
        out.append(f"\x1b[K    \x1b[1m\x1b[36mBuilding\x1b[0m [{'=' * width}>{' ' * (24 - width)}] "
                   f"{n}/{total}: {name}\r")
    out.append(f"\x1b[K    \x1b[1m\x1b[32mFinished\x1b[0m `dev` profile in {rng.uniform(1, 60):.2f}s\n")
    return "".join(out)


def _uv_block(rng: random.Random) -> str:
    rows = rng.randint(2, 5)
    names = [rng.choice(_PACKAGES) for _ in range(rows)]
    out = ["Resolved 42 packages in 301ms\n"]
    out.extend(f"{name} {'-' * 30} 0 B/1.0 MiB\n" for name in names)
    for frame in range(1, rng.randint(4, 16)):
        out.append(f"\x1b[{rows}A")
        for name in names:
            done = min(30, frame * rng.randint(1, 6))
            out.append(f"\r\x1b[2K{name} {'=' * done}{'-' * (30 - done)} {done * 35} KiB/1.0 MiB\n")
    out.append(f"\x1b[{rows}A")
    out.extend("\r\x1b[2K\n" for _ in names)
    out.append(f"\x1b[{rows}AInstalled {rows} packages in 12ms\n")
    return "".join(out)


def _plain(rng: random.Random) -> str:
    return "".join(f"{rng.choice(('INFO', 'WARN', 'DEBUG'))} {rng.choice(_PACKAGES)}: step {rng.randint(1, 9999)} "
                   f"took {rng.uniform(0, 9):.3f}s\n" for _ in range(rng.randint(1, 30)))


def material(size: int, seed: int = 40) -> bytes:
    """About ``size`` bytes of progress frames and ordinary lines (UTF-8), ending at a line end."""
    rng = random.Random(seed)
    kinds = (_pip_bar, _tqdm, _cargo, _uv_block, _plain, _plain)
    parts, total = [], 0
    while total < size:
        part = rng.choice(kinds)(rng).encode()
        parts.append(part)
        total += len(part)
    return b"".join(parts)


def chunks(pool: bytes, size: int, seed: int = 41) -> Iterator[bytes]:
    """``size`` bytes of ``pool`` cycled, in chunks of 1-8 KB cut anywhere (inside a character too)."""
    rng, view, at, left = random.Random(seed), memoryview(pool), 0, size
    while left > 0:
        n = min(rng.randint(1024, 8192), left, len(pool) - at)
        yield bytes(view[at:at + n])
        at, left = (at + n) % len(pool), left - n


def peak_kb() -> int:
    """This process's peak resident set (VmHWM), in kB."""
    with open("/proc/self/status", "rb") as status:
        for line in status:
            if line.startswith(b"VmHWM:"):
                return int(line.split()[1])
    return 0


# --- memory and cost (each in its own process) ---------------------------------------------------


def run_stream(size: int, display: str) -> dict[str, Any]:
    """One stream over ``size`` bytes: peaks at 0/10/50/100 %, CPU seconds in feed/close, output size."""
    from textclean import Stream

    pool = material(POOL_MB * MB)
    stream = Stream(**DISPLAYS[display])
    peaks = {"0": peak_kb()}
    marks = [(size // 10, "10"), (size // 2, "50")]
    fed = out = 0
    cpu = 0.0
    clock = time.process_time
    for chunk in chunks(pool, size):
        start = clock()
        released = stream.feed(chunk)
        cpu += clock() - start
        out += len(released.encode("utf-8", "surrogateescape"))
        fed += len(chunk)
        while marks and fed >= marks[0][0]:
            peaks[marks.pop(0)[1]] = peak_kb()
    start = clock()
    rest = stream.close()
    cpu += clock() - start
    out += len(rest.encode("utf-8", "surrogateescape"))
    peaks["100"] = peak_kb()
    return {"display": display, "mb": size / MB, "peak_kb": peaks, "cpu_s": cpu,
            "cpu_s_per_mb": cpu / (size / MB), "out_bytes": out, "in_bytes": size}


def run_slice(size: int) -> dict[str, Any]:
    """``clean()`` once on ``size`` bytes of the material, and the stream (no terminal) on the same bytes."""
    from textclean import Stream, clean

    pool = material(POOL_MB * MB)
    data = b"".join(chunks(pool, size))
    data = data[:data.rfind(b"\n") + 1]  # a message ends at a line end, not inside a sequence
    size = len(data)
    text = data.decode("utf-8", "surrogateescape")
    clock = time.process_time
    start = clock()
    result = clean(text)
    clean_cpu = clock() - start
    stream = Stream()
    out = 0
    pieces = [data[at:at + 4096] for at in range(0, size, 4096)]
    start = clock()
    for chunk in pieces:
        out += len(stream.feed(chunk))
    out += len(stream.close())
    stream_cpu = clock() - start
    mb = size / MB
    return {"mb": mb, "clean_cpu_s_per_mb": clean_cpu / mb, "clean_applied": result.applied,
            "clean_out_chars": len(result.text), "clean_reason": str(getattr(result, "reason", "")),
            "stream_cpu_s_per_mb": stream_cpu / mb, "stream_out_chars": out, "in_chars": len(text)}


def _child(args: list[str]) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, "-m", "benchmarks.stream", *args], capture_output=True, text=True,
                          cwd=ROOT, env=_env(), check=False)
    if proc.returncode != 0:
        raise SystemExit(f"benchmarks.stream {' '.join(args)} failed:\n{proc.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(ROOT), env.get("PYTHONPATH"))))
    return env


def memory(size: int, slice_size: int) -> dict[str, Any]:
    streams = [_child(["--child-stream", display, "--size-bytes", str(size)]) for display in DISPLAYS]
    one_shot = _child(["--child-slice", "--size-bytes", str(slice_size)])
    return {"streams": streams, "slice": one_shot}


# --- latency -------------------------------------------------------------------------------------

# The child: writes lines on fd 1, each ending " t=<monotonic at its line end>\n".
CHILD = r"""
import os, sys, time
pattern, lines = sys.argv[1], int(sys.argv[2])
def put(text):
    os.write(1, text.encode())
time.sleep(0.5)
if pattern == "steady":
    for n in range(lines):
        put(f"line {n} of a steady writer t={time.monotonic():.6f}\n")
        time.sleep(0.05)
elif pattern == "colour":
    for n in range(lines):
        put(f"\x1b[32mok\x1b[0m line {n} of a coloured writer t={time.monotonic():.6f}\n")
        time.sleep(0.05)
elif pattern == "burst":
    for b in range(max(1, lines // 10)):
        for n in range(40):
            put(f"burst {b} line {n} t={time.monotonic():.6f}\n")
        time.sleep(0.4)
elif pattern == "progress":
    for n in range(lines // 2):
        for f in range(0, 100, 10):
            put(f"\r\x1b[Kitem {n}: {f:3d}% [{'#' * (f // 10)}{' ' * (10 - f // 10)}]")
            time.sleep(0.02)
        put(f"\r\x1b[Kitem {n}: done t={time.monotonic():.6f}\n")
"""
PATTERNS = ("steady", "colour", "burst", "progress")


def _read_lines(proc: subprocess.Popen[bytes], until: bytes | None = None) -> list[float]:
    """Latencies (ms) of each line carrying a ``t=`` stamp, as it arrives on ``proc``'s stdout (to its
    end, or to a line equal to ``until``)."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    selector = selectors.DefaultSelector()
    selector.register(fd, selectors.EVENT_READ)
    buffer, latencies = b"", []
    while True:
        selector.select()
        data = os.read(fd, 65536)
        now = time.monotonic()
        if not data:
            break
        buffer += data
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            at = line.rfind(b" t=")
            if at >= 0:
                latencies.append((now - float(line[at + 3:].split()[0].decode())) * 1000)
            if line == until:
                selector.close()
                return latencies
    selector.close()
    proc.wait()
    return latencies


def latency_run(mode: str, pattern: str, lines: int = 60) -> list[float]:
    child = [sys.executable, "-c", CHILD, pattern, str(lines)]
    textclean = [sys.executable, "-m", "textclean"]
    if mode == "run":
        proc = subprocess.Popen([*textclean, "run", "--", *child], stdout=subprocess.PIPE, env=_env(), cwd=ROOT)
        return _read_lines(proc)
    # textclean -f first, read until it answers, so its start-up is not counted; then the child writes into it
    proc = subprocess.Popen([*textclean, "-f"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=_env(), cwd=ROOT)
    assert proc.stdin is not None
    proc.stdin.write(b"ready\n")
    proc.stdin.flush()
    _read_lines(proc, until=b"ready")
    writer = subprocess.Popen(child, stdout=proc.stdin, env=_env(), cwd=ROOT)
    proc.stdin.close()
    latencies = _read_lines(proc)
    writer.wait()
    return latencies


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def latency(lines: int) -> list[dict[str, Any]]:
    rows = []
    for mode in ("run", "follow"):
        for pattern in PATTERNS:
            values = latency_run(mode, pattern, lines)
            rows.append({"mode": mode, "pattern": pattern, "lines": len(values),
                         "p50_ms": _percentile(values, 0.5) if values else None,
                         "p99_ms": _percentile(values, 0.99) if values else None,
                         "max_ms": max(values) if values else None})
    return rows


# --- report --------------------------------------------------------------------------------------


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def report(result: dict[str, Any]) -> None:
    if "memory" in result:
        one = result["memory"]["slice"]
        print(f"material: progress frames and ordinary lines, {POOL_MB} MB pool cycled, chunks of 1-8 KB")
        print(f"clean() on a {one['mb']:.0f} MB slice: {one['clean_cpu_s_per_mb'] * 1000:.1f} ms CPU/MB "
              f"(applied {one['clean_applied']}, {one['in_chars']} -> {one['clean_out_chars']} chars); "
              f"the stream on the same slice: {one['stream_cpu_s_per_mb'] * 1000:.1f} ms CPU/MB "
              f"({one['stream_out_chars']} chars out)")
        for row in result["memory"]["streams"]:
            peaks = row["peak_kb"]
            growth = peaks["100"] - peaks["10"]
            ratio = row["cpu_s_per_mb"] / one["clean_cpu_s_per_mb"]
            print(f"stream, {row['display']}, {row['mb']:.0f} MB: peak RSS kB at 0/10/50/100 % "
                  f"{peaks['0']}/{peaks['10']}/{peaks['50']}/{peaks['100']} (growth 10->100 % {growth} kB, "
                  f"goal <= {MEMORY_GROWTH_GOAL_KB}: {_verdict(growth <= MEMORY_GROWTH_GOAL_KB)}); "
                  f"{row['cpu_s_per_mb'] * 1000:.1f} ms CPU/MB = {ratio:.2f}x clean() "
                  f"(goal <= 1: {_verdict(ratio <= 1)}); out/in bytes {row['out_bytes'] / row['in_bytes']:.3f}")
    for row in result.get("latency", []):
        if row["lines"] == 0:
            print(f"latency, {row['mode']}, {row['pattern']}: no line arrived stamped: MISS")
            continue
        print(f"latency, textclean {'run' if row['mode'] == 'run' else '-f'}, {row['pattern']}: {row['lines']} lines, "
              f"p50 {row['p50_ms']:.1f} ms, p99 {row['p99_ms']:.1f} ms, max {row['max_ms']:.1f} ms "
              f"(goal <= {LATENCY_GOAL_MS:.0f}: {_verdict(row['max_ms'] <= LATENCY_GOAL_MS)})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.stream", description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=float, default=64, help="MB of stream for the memory runs (default 64)")
    parser.add_argument("--slice", type=float, default=16, help="MB of the same material for clean() (default 16)")
    parser.add_argument("--lines", type=int, default=60,
                        help="lines per latency pattern (default 60: 6 bursts of 40, 30 progress lines)")
    parser.add_argument("--only", choices=("memory", "latency"), action="append")
    parser.add_argument("--json", action="store_true", help="print the fields as one JSON object")
    parser.add_argument("--child-stream", choices=tuple(DISPLAYS), help=argparse.SUPPRESS)
    parser.add_argument("--child-slice", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--size-bytes", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child_stream:
        print(json.dumps(run_stream(args.size_bytes, args.child_stream)))
        return 0
    if args.child_slice:
        print(json.dumps(run_slice(args.size_bytes)))
        return 0
    if args.size <= 0 or args.slice <= 0 or args.lines < 2:
        parser.error("--size and --slice must be > 0, --lines at least 2")
    sections = args.only or ["memory", "latency"]
    result: dict[str, Any] = {}
    if "memory" in sections:
        result["memory"] = memory(int(args.size * MB), int(min(args.slice, args.size) * MB))
    if "latency" in sections:
        result["latency"] = latency(args.lines)
    if args.json:
        print(json.dumps(result))
    else:
        report(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
