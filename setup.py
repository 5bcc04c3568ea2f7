"""The compiled build: with TEXTCLEAN_COMPILE=1, ``python -m build --wheel`` compiles textclean.pipeline with
mypyc into a platform wheel for the Python that builds it. Without it (the default, the editable install,
the sdist, .ci/packages' one wheel for every Python) the package is pure Python and needs no mypy.
Everything else about the package is in pyproject.toml.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup

COMPILE = os.environ.get("TEXTCLEAN_COMPILE") == "1"
#: The pipeline's modules mypyc leaves pure: it compiles no subclass of ``str``; and the gate, the public
#: entry, whose own checks name a wrong argument (compiled, its annotations would refuse it first with
#: mypyc's message: a bytearray text, a str size).
PURE = {"textclean/pipeline/str_kinds.py", "textclean/pipeline/gate.py"}


def compiled_modules() -> list:
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []  # asking for the build requirements: setup_requires names mypy, the backend installs it
    paths = sorted(p.as_posix() for p in Path("textclean/pipeline").rglob("*.py") if p.as_posix() not in PURE)
    # The build environment holds no runtime dependency (tiktoken, wcwidth): their objects compile as Any.
    # mypyc puts the code of every module in one shared library, by default a top-level `<hash>__mypyc`
    # beside textclean/; named after the group, it is textclean/pipeline__mypyc and the wheel holds textclean alone.
    return mypycify([*paths, "--ignore-missing-imports"], opt_level="3", group_name="textclean.pipeline")


setup(
    setup_requires=["mypy>=1.10"] if COMPILE else [],
    ext_modules=compiled_modules() if COMPILE else [],
)
