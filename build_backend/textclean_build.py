"""textclean's build backend: setuptools' own, deciding which build a wheel is (issue 39).

* A wheel (``pip install .`` from a clone, ``pip install`` of the sdist, ``python -m build``) is compiled
  with mypyc where it can be: Linux, CPython 3.10-3.13 (the builds CI tests), and a C compiler that
  compiles a file including ``Python.h`` (probed in a fraction of a second before mypy is fetched).
  Anywhere else it is the pure package. A compile that fails all the same falls back to the pure package
  (``setup.py``), with a warning in the build's log.
* An editable install (``pip install -e .``) and the sdist are always pure: an editable install runs the
  source it points at.
* ``TEXTCLEAN_COMPILE=1`` asks for the compiled build (a failure is an error); ``TEXTCLEAN_COMPILE=0``
  for the pure one (``.ci/packages``' one wheel for every Python, ``py3-none-any``).

The decision reaches ``setup.py`` as ``TEXTCLEAN_COMPILE`` (``1``, ``0``, or ``auto``: compile, fall
back on failure).
"""

from __future__ import annotations

import os
import platform
import sys
import sysconfig
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from setuptools import build_meta as _setuptools

#: What the compiled build needs at build time besides setuptools: mypyc ships with mypy.
COMPILER_REQUIRES = ["mypy>=1.10"]
#: Where the compiled build is made without being asked: the platform and Pythons its wheels are tested on.
AUTO_PLATFORMS = ("linux",)
AUTO_VERSIONS = ((3, 10), (3, 11), (3, 12), (3, 13))


def compiler_present() -> bool:
    """Whether a C compiler here compiles a file that includes this Python's ``Python.h``."""
    try:
        from setuptools._distutils.ccompiler import new_compiler
        from setuptools._distutils.sysconfig import customize_compiler
    except ImportError:
        return False
    include = sysconfig.get_paths()["include"]
    if not os.path.exists(os.path.join(include, "Python.h")):
        return False
    with tempfile.TemporaryDirectory() as scratch:
        source = os.path.join(scratch, "probe.c")
        with open(source, "w") as fh:
            fh.write("#include <Python.h>\nint textclean_probe(void) { return 0; }\n")
        compiler = new_compiler()
        customize_compiler(compiler)  # type: ignore[no-untyped-call]
        try:
            compiler.compile([source], output_dir=scratch, include_dirs=[include])
        except Exception:  # CompileError, a missing program (DistutilsExecError), anything: no compiler
            return False
    return True


def choice(environ: Mapping[str, str] = os.environ) -> str:
    """``1`` (compile), ``0`` (pure) or ``auto`` (compile, pure if that fails) for a wheel built here."""
    asked = environ.get("TEXTCLEAN_COMPILE", "")
    if asked in ("0", "1"):
        return asked
    if asked:
        raise ValueError(f"TEXTCLEAN_COMPILE={asked!r}: 1 (compiled), 0 (pure), or unset (compiled where it can be)")
    if (not sys.platform.startswith(AUTO_PLATFORMS) or platform.python_implementation() != "CPython"
            or sys.version_info[:2] not in AUTO_VERSIONS or not compiler_present()):
        return "0"
    return "auto"


@contextmanager
def _compile_set(value: str) -> Iterator[None]:
    before = os.environ.get("TEXTCLEAN_COMPILE")
    os.environ["TEXTCLEAN_COMPILE"] = value
    try:
        yield
    finally:
        if before is None:
            del os.environ["TEXTCLEAN_COMPILE"]
        else:
            os.environ["TEXTCLEAN_COMPILE"] = before


# Only build_wheel compiles: every other hook runs setup.py pure (asking for the requirements, mypy is not
# there yet; the metadata is the same for both builds).


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    value = choice()
    with _compile_set("0"):
        requires = _setuptools.get_requires_for_build_wheel(config_settings)
    return requires + (COMPILER_REQUIRES if value != "0" else [])


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    with _compile_set("0"):
        return _setuptools.get_requires_for_build_editable(config_settings)


def get_requires_for_build_sdist(config_settings: dict[str, Any] | None = None) -> list[str]:
    with _compile_set("0"):
        return _setuptools.get_requires_for_build_sdist(config_settings)


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    with _compile_set("0"):
        return _setuptools.prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def prepare_metadata_for_build_editable(metadata_directory: str,
                                        config_settings: dict[str, Any] | None = None) -> str:
    with _compile_set("0"):
        return _setuptools.prepare_metadata_for_build_editable(metadata_directory, config_settings)


def build_wheel(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                metadata_directory: str | None = None) -> str:
    with _compile_set(choice()):
        return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                   metadata_directory: str | None = None) -> str:
    with _compile_set("0"):
        return _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    with _compile_set("0"):
        return _setuptools.build_sdist(sdist_directory, config_settings)
