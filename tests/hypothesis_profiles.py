"""The hypothesis profiles, and example counts for slow properties scaled by the active one.

``tests/conftest.py`` registers them (:func:`register`) and loads :func:`active` before any test module
is imported: ``TEXTCLEAN_HYPOTHESIS_PROFILE`` names it, else ``ci`` when ``CI`` is set, else ``dev``.

* ``dev``, ``ci``, ``thorough``: the **gate** profiles (100, 300, 5000 examples). They derandomize
  (each property draws from a seed made of its own source) and read or write no example database, so a
  commit draws the same examples on every machine and every run, whatever ``PYTHONHASHSEED``.
  ``.ci/run`` runs ``ci`` whether or not ``CI`` is set.
* ``red``: **random exploration on purpose** (``fuzz/explore.py``, ``fuzz/README.md``): a new seed each
  run (``tests/conftest.py`` draws one and prints it; ``--hypothesis-seed=N`` replays it), every phase,
  every distinct bug reported, each falsifying example printed. It never gates a landing.

Fast properties take the profile's ``max_examples``. A property that is slow per example (a live tmux)
asks for :func:`scaled` examples instead, so that ``thorough`` and ``red`` still run more of it.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings

ENV = "TEXTCLEAN_HYPOTHESIS_PROFILE"
GATES = ("dev", "ci", "thorough")
RED = "red"
_FACTORS = {"dev": 0.5, "ci": 1.0, "thorough": 10.0, RED: 5.0}


def active() -> str:
    """The profile this run loads: ``$TEXTCLEAN_HYPOTHESIS_PROFILE``, else ``ci`` under ``CI``, else ``dev``."""
    return os.environ.get(ENV) or ("ci" if os.environ.get("CI") else "dev")


PROFILE = active()


def register() -> None:
    """Register the gate profiles and ``red``."""
    slow = [HealthCheck.too_slow]
    for name, examples in zip(GATES, (100, 300, 5000), strict=True):
        settings.register_profile(
            name, max_examples=examples, deadline=None, suppress_health_check=slow, derandomize=True, database=None
        )
    settings.register_profile(
        RED,
        max_examples=2000,
        deadline=None,
        suppress_health_check=slow,
        derandomize=False,
        database=None,  # a run is replayed by its seed, not by what an earlier run stored
        phases=tuple(Phase),
        report_multiple_bugs=True,
        print_blob=True,
    )


def scaled(ci_examples: int) -> int:
    """``ci_examples`` under ``ci``, half under ``dev``, five times under ``red``, ten under ``thorough``."""
    return max(5, round(ci_examples * _FACTORS.get(PROFILE, 1.0)))
