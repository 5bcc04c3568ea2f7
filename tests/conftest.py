import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))  # benchmarks/ and fuzz/ are not installed

settings.register_profile("ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "thorough", max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@pytest.fixture(scope="session")
def corpora_root() -> Path:
    """The peer emulators' suites (``../shared/corpora`` or ``$TEXTCLEAN_CORPORA``); skips when absent."""
    from oracle import corpora

    root = corpora.locate()
    if root is None:
        pytest.skip("peer suites not found: ../shared/corpora beside the repository (or $TEXTCLEAN_CORPORA)")
    return root


settings.load_profile(os.environ.get("TEXTCLEAN_HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
