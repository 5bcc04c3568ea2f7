"""``textclean run --pty --size WxH`` (issue 40: it streams through the Stream at the pty's size) on programs
that write ``fuzz/red41_edges.py``'s sized families (page breaks, modes at wraps, marks at the margin, line
ends) in 37-byte writes: what it prints, judged by live tmux against the bytes the program wrote (recorded
with --raw) at that size, in a new window (fresh). ``fuzz/run_pty_progress.py`` with other programs.

    PYTHONPATH=$PWD python fuzz/red41_run_pty.py COUNT SEED"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import red41_edges  # noqa: E402
import run_pty_progress  # noqa: E402

SIZES = [(10, 4), (20, 6), (40, 10), (80, 24)]


def main() -> None:
    run_pty_progress.run_programs(int(sys.argv[1]), int(sys.argv[2]), list(red41_edges.NEW_SIZED.values()), SIZES)


if __name__ == "__main__":
    main()
