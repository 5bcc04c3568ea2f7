"""The compiled build: ``build_backend/textclean_build.py`` decides whether a wheel compiles
textclean.pipeline with mypyc and says so in ``TEXTCLEAN_COMPILE``: ``1`` (compile; a failure is an
error), ``auto`` (compile; the pure package where that fails), ``0`` or unset (pure: the editable install,
the sdist, ``.ci/packages``' one wheel for every Python). Everything else about the package is in
pyproject.toml.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

MODE = os.environ.get("TEXTCLEAN_COMPILE", "0")
#: The pipeline's modules mypyc leaves pure: it compiles no subclass of ``str``; and the gate, the public
#: entry, whose own checks name a wrong argument (compiled, its annotations would refuse it first with
#: mypyc's message: a bytearray text, a str size).
PURE = {"textclean/pipeline/str_kinds.py", "textclean/pipeline/gate.py"}


def _fall_back(why: str) -> None:
    print(f"textclean: the compiled build failed ({why}); building the pure package instead", file=sys.stderr)


def compiled_modules() -> list:
    if MODE not in ("1", "auto"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        if MODE == "1":
            raise SystemExit("TEXTCLEAN_COMPILE=1: the compiled build needs mypy (mypyc) where it is built") from None
        _fall_back("mypy is not installed where it builds")
        return []
    paths = sorted(p.as_posix() for p in Path("textclean/pipeline").rglob("*.py") if p.as_posix() not in PURE)
    # The build environment holds no runtime dependency (tiktoken, wcwidth): their objects compile as Any.
    # mypyc puts the code of every module in one shared library, by default a top-level `<hash>__mypyc`
    # beside textclean/; named after the group, it is textclean/pipeline__mypyc and the wheel holds textclean alone.
    try:
        return mypycify([*paths, "--ignore-missing-imports"], opt_level="3", group_name="textclean.pipeline")
    except (Exception, SystemExit) as error:  # mypy's own errors end in SystemExit
        if MODE == "1":
            raise
        _fall_back(f"mypyc: {error}")
        return []


class BuildExt(build_ext):
    """setuptools' build_ext; under ``auto`` a compile that fails leaves no extension module behind (a
    module's stub without the group's shared library would not import), and the package is pure."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # CompileError, LinkError, a missing program: whatever stops the compile
            if MODE != "auto":
                raise
            _fall_back(f"{type(error).__name__}: {error}")
            for extension in self.extensions:
                for path in (self.get_ext_fullpath(extension.name),):
                    if os.path.exists(path):
                        os.remove(path)
            self.extensions = []


setup(
    ext_modules=compiled_modules(),
    cmdclass={"build_ext": BuildExt},
    # each build in a folder of its own: a pure build after a compiled one must not pick up its .so files
    options={"build": {"build_base": os.path.join("build", "compiled" if MODE in ("1", "auto") else "pure")}},
)
