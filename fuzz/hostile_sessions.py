"""Time clean() on megabytes of hostile whole-session input (clears, CUP storms, regions, alternate
screens, deeply wrapped lines), at two lengths, to show each stays linear and never raises.

    PYTHONPATH=$PWD python fuzz/hostile_sessions.py [--mb 1]

Prints, per input and size: seconds at N and 2N MB, their ratio (about 2 when linear), the gate's
reason. Not a test (no timing in tests, BRIEF.md); the bounded no-raise check is in
tests/test_red_team_tmux.py.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import textclean

ESC = "\x1b"
CSI = ESC + "["


def _repeat(unit: str) -> Callable[[int], str]:
    return lambda n: unit * (n // len(unit) + 1)


HOSTILE: dict[str, Callable[[int], str]] = {
    "clears": _repeat("x\r\n" + CSI + "2J"),
    "clear_home_runs": _repeat(CSI + "H" + CSI + "2J" + CSI + "3J"),
    "ris_runs": _repeat(ESC + "c" + "ab\r\n"),
    "ed0_at_home": _repeat(CSI + "H" + CSI + "Jrow\r\n"),
    "cup_storm": lambda n: "".join(f"{CSI}{i % 24 + 1};{i % 80 + 1}H{chr(97 + i % 26)}" for i in range(n // 9)),
    "cup_far": _repeat(CSI + "9999;9999H" + "z" + CSI + "1;1H" + "a"),
    "vpa_storm": _repeat(CSI + "20d" + "v" + CSI + "1d" + "w"),
    "region_runs": _repeat(CSI + "5;20r" + CSI + "r"),
    "region_scroll": lambda n: CSI + "2;23r" + CSI + "23;1H" + ("line\n" * (n // 5)) + CSI + "r",
    "ri_at_top": lambda n: CSI + "1;1H" + (ESC + "M" + "t") * (n // 3),
    "alt_toggles": _repeat(CSI + "?1049h" + "alt" + CSI + "?1049l" + "main\r\n"),
    "alt47_toggles": _repeat(CSI + "?47h" + "a" + CSI + "?47l"),
    "wrapped_line_cuu": lambda n: "w" * n + CSI + "5A" + "X\r\n",
    "wrapped_line_cr": lambda n: "w" * n + "\rX\r\n",
    "wide_wrapped": lambda n: "\u4e2d" * (n // 3) + CSI + "A" + "X\r\n",
    "il_dl_storm": _repeat(CSI + "3L" + "i" + CSI + "2M" + "d\r\n"),
    "ich_dch_storm": _repeat("abc" + CSI + "5@" + CSI + "3P"),
    "rep_huge": _repeat("x" + CSI + "65535b\r\n"),
    "su_sd_storm": _repeat(CSI + "5S" + CSI + "5T" + "s\r\n"),
    "progress_tall": lambda n: "".join(f"t{i}\r\n" for i in range(40)) + (CSI + "40A" + "".join(
        f"{CSI}2Kt{i}\r\n" for i in range(40))) * (n // 300),
    "decsc_decrc": _repeat(ESC + "7" + CSI + "10;10Hx" + ESC + "8" + "y"),
    "origin_mode": _repeat(CSI + "3;10r" + CSI + "?6h" + CSI + "1;1Hq" + CSI + "?6l" + CSI + "r"),
    "osc_then_clear": _repeat(ESC + "]0;t" + "\x07" + CSI + "2J" + "o\r\n"),
}

SIZES: list[tuple[int | None, int | None]] = [(None, None), (80, 24), (200, 50)]


def time_one(text: str, columns: int | None, rows: int | None) -> tuple[float, textclean.Result]:
    kwargs = {} if columns is None else {"columns": columns, "rows": rows}
    started = time.perf_counter()
    result = textclean.clean(text, min_tokens=0, **kwargs)
    return time.perf_counter() - started, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--only")
    args = parser.parse_args()
    n = int(args.mb * 1_000_000)
    print(f"{'input':18s} {'size':8s} {'t(N)':>7s} {'t(2N)':>7s} {'ratio':>5s}  reason")
    for name, make in HOSTILE.items():
        if args.only and args.only not in name:
            continue
        small, big = make(n), make(2 * n)  # whole units: a cut sequence is another input
        for columns, rows in SIZES:
            try:
                t1, r1 = time_one(small, columns, rows)
                t2, _r2 = time_one(big, columns, rows)
            except Exception as exc:  # noqa: BLE001 - a raise is the finding
                print(f"{name:18s} {columns}x{rows}: RAISED {type(exc).__name__}: {exc}")
                continue
            size = "unknown" if columns is None else f"{columns}x{rows}"
            why = "adopted" if r1.applied else f"{r1.reason}: {(r1.detail or '')[:50]}"
            print(f"{name:18s} {size:8s} {t1:7.2f} {t2:7.2f} {t2 / max(t1, 1e-6):5.1f}  {why}", flush=True)


if __name__ == "__main__":
    main()
