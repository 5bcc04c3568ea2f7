"""Where the host tests find the real agent binaries: ``tests/hosts/node_modules/.bin`` (``.ci/run`` installs
them from npm at the versions ``tests/hosts/package.json`` pins).

A test that needs one skips with the reason when it is absent, unless ``TEXTCLEAN_REQUIRE_HOSTS`` is set
(``.ci/run`` sets it): there a missing binary fails the test instead of skipping it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

NODE_BIN = Path(__file__).resolve().parent / "hosts" / "node_modules" / ".bin"


def host_binary(name: str) -> Path:
    """The path of ``claude`` or ``codex``; skips (or fails under TEXTCLEAN_REQUIRE_HOSTS) when not installed."""
    path = NODE_BIN / name
    if path.exists():
        return path
    reason = f"{name} is not installed: run `cd tests/hosts && npm install` (bash .ci/run does)"
    if os.environ.get("TEXTCLEAN_REQUIRE_HOSTS"):
        pytest.fail(reason)
    pytest.skip(reason)
