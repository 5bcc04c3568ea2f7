"""The command both host tests read while it runs (Claude Code's background task file, Codex's polls): a
noisy first line and a progress bar, then it waits for the file ``go-on`` in its working directory (the mock
model writes it once it read the output: no timing), then more noise, and a failing status (3). Copied beside
the host's project as ``polled.py`` and run there."""

import os
import sys
import time


def main() -> int:
    print("\x1b[1mfirst line\x1b[0m of the build")
    for step in range(0, 101, 2):
        sys.stdout.write(f"\r\x1b[36mprogress\x1b[0m [{'=' * (step // 5):<20}] {step:3d}% step_{step:03d}")
        sys.stdout.flush()
    print()
    sys.stdout.flush()
    for _ in range(1200):  # at most a minute
        if os.path.exists("go-on"):
            break
        time.sleep(0.05)
    for name in ("parser", "lexer"):
        sys.stdout.write(f"\r\x1b[33mchecking\x1b[0m {name}\r\x1b[2K\x1b[32mok\x1b[0m {name}\n")
    print("\x1b[1mresult: 2 passed\x1b[0m")
    return 3


if __name__ == "__main__":
    sys.exit(main())
