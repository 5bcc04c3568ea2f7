import secrets
import sys
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))  # benchmarks/ and fuzz/ are not installed

import hypothesis_profiles  # noqa: E402 (tests/ is on the path only from here)

hypothesis_profiles.register()
settings.load_profile(hypothesis_profiles.PROFILE)


@pytest.hookimpl(tryfirst=True)  # before hypothesis's plugin reads --hypothesis-seed
def pytest_configure(config: pytest.Config) -> None:
    """Under the ``red`` profile a run without ``--hypothesis-seed`` gets a new one, printed in the header."""
    if hypothesis_profiles.PROFILE == hypothesis_profiles.RED and config.getoption("hypothesis_seed") is None:
        config.option.hypothesis_seed = str(secrets.randbits(64))


def pytest_report_header(config: pytest.Config) -> str | None:
    if hypothesis_profiles.PROFILE != hypothesis_profiles.RED:
        return None
    seed = config.getoption("hypothesis_seed")
    return f"red exploration, seed {seed}: replay with TEXTCLEAN_HYPOTHESIS_PROFILE=red --hypothesis-seed={seed}"


@pytest.fixture(scope="session")
def corpora_root() -> Path:
    """The peer emulators' suites (``../shared/corpora`` or ``$TEXTCLEAN_CORPORA``); skips when absent."""
    from oracle import corpora

    root = corpora.locate()
    if root is None:
        pytest.skip("peer suites not found: ../shared/corpora beside the repository (or $TEXTCLEAN_CORPORA)")
    return root



def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``pure_only`` tests count calls through a monkeypatch spy (or plant a bug the same way): compiled code
    calls its own functions directly, past the spy, so against the compiled build they skip, saying why."""
    from textclean.build import build

    if build() != "compiled":
        return
    for item in items:
        marker = item.get_closest_marker("pure_only")
        if marker is not None:
            why = marker.kwargs.get("reason", "compiled code calls past a monkeypatch spy")
            item.add_marker(pytest.mark.skip(reason=f"pure build only: {why}"))
