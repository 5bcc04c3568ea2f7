"""``textclean run --pty --size WxH`` on generated progress programs: what it prints, judged by live tmux
against the bytes the program wrote (recorded with --raw) at that size, in a new window (fresh).
Session 22's red team: finding F22 (tests/test_red_team_tmux.py)."""
from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import tmux_families_red as fam  # noqa: E402
from tests import tmux_judge  # noqa: E402

Family = Callable[[random.Random, int, int], bytes]
FAMILIES: list[Family] = [fam.progress, fam.dispute, fam.fresh_first_page, fam.pages]
SIZES = [(40, 10), (80, 24), (120, 40), (160, 40)]


def main() -> None:
    run_programs(int(sys.argv[1]), int(sys.argv[2]), FAMILIES, SIZES)


def run_programs(count: int, seed: int, families: list[Family], sizes: list[tuple[int, int]]) -> None:
    """``count`` programs, each one of ``families`` at one of ``sizes`` (drawn from ``seed``), through
    ``textclean run --pty``; the lossy ones printed."""
    rng = random.Random(seed)
    cases = []
    tmp = Path(tempfile.mkdtemp())
    for i in range(count):
        columns, rows = rng.choice(sizes)
        data = rng.choice(families)(rng, columns, rows).replace(b"\r\n", b"\n")
        src = tmp / f"p{i}.bin"
        src.write_bytes(data)
        code = (f"import os\nd=open({str(src)!r},'rb').read()\nfor k in range(0,len(d),37):\n"
                "    os.write(1,d[k:k+37])\n")
        raw = tmp / f"r{i}.raw"
        out = subprocess.run([sys.executable, "-m", "textclean", "run", "--pty", "--size", f"{columns}x{rows}",
                              "--raw", str(raw), "--min-tokens", "0", "--", sys.executable, "-c", code],
                             capture_output=True, timeout=60)
        raw_bytes = raw.read_bytes()
        # What a terminal running the program receives: its pty adds CR before LF (onlcr), run's does not.
        case = tmux_judge.Case(raw_bytes.replace(b"\n", b"\r\n"), columns, rows, "run", [(columns, rows)], fresh=True,
                               candidate=out.stdout)
        case.keeps_more_after_bel = False
        cases.append((case, out.stdout != raw_bytes, out.returncode))
    with tmux_judge.server() as srv:
        tmux_judge.judge([c for c, _, _ in cases], srv)
    cleaned = sum(changed for _, changed, _ in cases)
    bad = [c for c, changed, _ in cases if changed and c.problems]
    print(f"run --pty: programs={len(cases)} cleaned={cleaned} lossy={len(bad)} "
          f"nonzero_exit={sum(rc != 0 for _, _, rc in cases)}")
    for c in bad:
        print("  LOSS", json.dumps({"raw": repr(c.raw), "size": [c.columns, c.rows], "out": repr(c.candidate),
                                    "problems": c.problems})[:600])


if __name__ == "__main__":
    main()
