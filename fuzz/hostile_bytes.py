"""Hostile bytes through clean() (red team, session 14): random streams of invalid UTF-8, NUL, C1,
escape fragments and BS/CR runs (as bytes and as str), checking nothing raises and a refusal is the
very same object; then megabyte runs of each hostile unit timed at 1, 2 and 4 MB (about 2x a step
when linear).

    PYTHONPATH=$PWD python fuzz/hostile_bytes.py [--calls 2000] [--mb 1]
"""

from __future__ import annotations

import argparse
import random
import time

import textclean

_UNITS = [b"\x00", b"\x00" * 7, b"\x80", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc2\x9b",
          b"\xc2\x9b31m", b"\xc2\x9d0;t\xc2\x9c", b"\xc2\x85", b"\xc2\x90q\xc2\x9c", b"\x1b", b"\x1b[", b"\x1b[31m",
          b"\x1b[K", b"\x1b[2K", b"\x1b[A", b"\x1b]", b"\x1bP", b"\x1b\x00", b"\x1b[\x00m", b"\x1b[3\x80m", b"\r",
          b"\b", b"\b" * 9, b"\r\n", b"\n", b"\x7f", b"\x07", b"\x18", b"\x1a", b"\x1b[H\x1b[2J", b"\x1b[3J",
          b"\x1b[?1049h", b"\x1b[?1049l", b"word", b"\xe4\xb8\xad", b"\xe2\x94\x80", b"e\xcc\x81", b"\t",
          b"\x1b[" + b"9" * 70 + b"m", b"\x1b]8;;\x00\x07", b"\x1bc"]

MEGA = {
    "nul": b"\x00",
    "nul_sgr": b"\x00\x1b[m",
    "sgr_nul_text": b"\x1b[31m\x00x\x1b[0m",
    "c1_csi": b"\xc2\x9b31m",
    "invalid": b"\xff\xfe\x80",
    "lone_lead": b"\xc3",
    "esc_runs": b"\x1b",
    "bs_run_text": b"ab\b\b\b",
    "cr_text": b"progress 10%\r",
    "el_cr": b"\x1b[2K\rx",
    "cuu_el_row": b"row\r\n\x1b[A\x1b[2Krow2\r\n",
    "overstrike": b"_\bx",
    "spinner": b"|\b/\b-\b\\\b",
    "osc_unterminated": b"\x1b]0;",
    "dcs_unterminated": b"\x1bP",
    "long_csi_params": b"\x1b[" + b"1;" * 100,
}


_BENIGN = [b"\x1b[32mok\x1b[0m line\r\n", b"\r[===   ] 30%", b"\r\x1b[2K[=====] 50%", b"\x1b[2A\x1b[2Krow\r\n",
           b"abc\b\b\bxyz", b"_\bu_\bn", b"|\b/\b-\b", b"plain words here\r\n", b"\x1b[1;34mbold\x1b[m ",
           b"\x1b]0;title\x07", b"\x1b[?25l", b"\r\n"]


def hostile(rng: random.Random) -> bytes:
    """Every other stream is mostly benign progress output with a hostile unit now and then (so the
    deeper paths run before the first odd byte refuses it)."""
    if rng.random() < 0.5:
        return b"".join(rng.choice(_UNITS) for _ in range(rng.randint(1, 400)))
    return b"".join(rng.choice(_UNITS) if rng.random() < 0.03 else rng.choice(_BENIGN)
                    for _ in range(rng.randint(1, 300)))


def call(data: bytes | str, columns: int | None, rows: int | None) -> textclean.Result:
    kwargs = {} if columns is None else {"columns": columns, "rows": rows}
    return textclean.clean(data, min_tokens=0, **kwargs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    sizes = [(None, None), (80, 24), (40, 10)]
    raised = other = adopted = 0
    started = time.perf_counter()
    for i in range(args.calls):
        data = hostile(rng)
        columns, rows = sizes[i % 3]
        for value in (data, data.decode("utf-8", "surrogateescape")):
            try:
                result = call(value, columns, rows)
            except Exception as exc:  # noqa: BLE001 - a crash is the finding
                raised += 1
                print("RAISED", type(exc).__name__, exc, repr(value)[:300], columns, flush=True)
                continue
            if result.applied:
                adopted += 1
                if type(result.text) is not type(value):
                    other += 1
                    print("TYPE", repr(value)[:200], flush=True)
            elif result.text is not value:
                other += 1
                print("NOT SAME OBJECT", repr(value)[:200], flush=True)
    print(f"{2 * args.calls} calls in {time.perf_counter() - started:.1f} s: adopted={adopted} raised={raised} "
          f"other={other}", flush=True)
    if args.mb <= 0:
        return
    for name, unit in MEGA.items():
        times = []
        for scale in (1, 2, 4):
            n = int(args.mb * scale * (1 << 20))
            data = (unit * (n // len(unit) + 1))[:n]
            t = time.perf_counter()
            try:
                result = call(data, None, None)
                reason = result.reason
            except Exception as exc:  # noqa: BLE001
                reason = f"RAISED {type(exc).__name__}: {exc}"
            times.append(time.perf_counter() - t)
        print(f"{name:18s} {args.mb:g}/{2 * args.mb:g}/{4 * args.mb:g} MB: "
              + " ".join(f"{s:.2f}s" for s in times)
              + f"  ratios {times[1] / max(times[0], 1e-9):.1f} {times[2] / max(times[1], 1e-9):.1f}  {reason}",
              flush=True)


if __name__ == "__main__":
    main()
