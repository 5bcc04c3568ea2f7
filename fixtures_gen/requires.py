"""A repository command that lacks a module an install line brings says so in one line and exits 2."""

from __future__ import annotations

import importlib.util
import sys


def require(command: str, module: str, install: str) -> None:
    """Exit 2 with ``COMMAND needs MODULE: INSTALL`` on stderr when ``module`` cannot be imported."""
    if importlib.util.find_spec(module) is None:
        print(f"{command} needs {module}: {install}", file=sys.stderr)
        raise SystemExit(2)
