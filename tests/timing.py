"""The one timing helper of the test suite (speed proper is measured by ``python -m benchmarks.bench``).

Tests that guard against quadratic blow-ups compare two timings taken in the same run; the best of a
few runs is the least disturbed by the other work on the shared machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable


def best_seconds(
    function: Callable[[], object],
    *,
    repeat: int = 3,
    clock: Callable[[], float] = time.perf_counter,
    expected: tuple[type[BaseException], ...] = (),
) -> float:
    """The shortest of ``repeat`` runs of ``function`` by ``clock``; exceptions in ``expected`` are part
    of the run (a refusal is an answer)."""
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        try:
            function()
        except expected:
            pass
        best = min(best, clock() - start)
    return best
