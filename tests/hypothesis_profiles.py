"""Example counts for slow properties, scaled by the active profile.

``tests/conftest.py`` registers and loads the ``dev`` / ``ci`` / ``thorough`` profiles
(``TEXTCLEAN_HYPOTHESIS_PROFILE``); fast properties take the profile's ``max_examples``. A property
that is slow per example (a live tmux) asks for :func:`scaled` examples instead, so that the
``thorough`` profile still runs more of it.
"""

from __future__ import annotations

import os

PROFILE = os.environ.get("TEXTCLEAN_HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev")
_FACTORS = {"dev": 0.5, "ci": 1.0, "thorough": 10.0}


def scaled(ci_examples: int) -> int:
    """``ci_examples`` under the ``ci`` profile, half under ``dev``, ten times under ``thorough``."""
    return max(5, round(ci_examples * _FACTORS.get(PROFILE, 1.0)))
