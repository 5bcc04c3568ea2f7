"""Which build of the pipeline runs: ``compiled`` (mypyc extension modules) or ``pure`` (the Python source,
the reference). ``textclean --version`` names it."""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES


def build_of(module_file: str) -> str:
    """``compiled`` when a module was loaded from an extension module's file, else ``pure``."""
    return "compiled" if module_file.endswith(tuple(EXTENSION_SUFFIXES)) else "pure"


def build() -> str:
    """The build of the running pipeline, told by the cleaner's package module."""
    from .pipeline import clean

    return build_of(clean.__file__ or "")
