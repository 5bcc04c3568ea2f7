"""``textclean --version`` names the build that runs: ``(pure)`` from the source tree and an installed pure
wheel, ``(compiled)`` from a mypyc wheel. A run against a compiled build sets TEXTCLEAN_EXPECT_BUILD=compiled,
so a wheel that silently fell back to the pure modules fails here."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES

import textclean
from textclean.build import build_of

EXPECTED = os.environ.get("TEXTCLEAN_EXPECT_BUILD", "pure")


def test_version_names_the_build_that_runs():
    proc = subprocess.run([sys.executable, "-m", "textclean", "--version"], capture_output=True, check=True)
    assert proc.stdout.decode().split() == ["textclean", textclean.__version__, f"({EXPECTED})"]


def test_every_pipeline_module_is_of_that_build():
    """The pipeline's modules are of the build, but the two setup.py leaves pure: the ``str`` subclasses and
    the gate (whose own checks name a wrong argument)."""
    import textclean.pipeline.clean.screen
    import textclean.pipeline.gate
    import textclean.pipeline.result
    import textclean.pipeline.verify.state

    for module in (textclean.pipeline.result, textclean.pipeline.clean.screen, textclean.pipeline.verify.state):
        assert build_of(module.__file__) == EXPECTED, module.__file__
    for module in (textclean.pipeline.str_kinds, textclean.pipeline.gate):
        assert build_of(module.__file__) == "pure", module.__file__


def test_an_extension_module_file_reads_as_compiled():
    assert build_of(f"/x/textclean/pipeline/clean/__init__{EXTENSION_SUFFIXES[0]}") == "compiled"
    assert build_of("/x/textclean/pipeline/clean/__init__.py") == "pure"


def test_the_verifier_state_names_every_attribute_of_its_model():
    """Replays key and copy the model's state by ``STATE_FIELDS`` (a compiled class has no ``vars()``): a
    new attribute left out of it would let a page replay from a state that differs in it."""
    from textclean.pipeline.verify.paging import Model
    from textclean.pipeline.verify.state import STATE_FIELDS

    model = Model("a\x1b[H\x1b[2Jb", 80, 24, True, None, True)
    model.run()
    if EXPECTED == "pure":
        assert sorted(vars(model)) == sorted(STATE_FIELDS)
    assert set(model.fields()) == set(STATE_FIELDS) and len(STATE_FIELDS) == len(set(STATE_FIELDS))


def test_the_compiled_code_lies_inside_the_package():
    """mypyc puts every compiled module's code in one shared library, by default a top-level module named
    by a hash, beside textclean/ in the wheel; setup.py names its group so it is ``textclean.pipeline__mypyc``.
    The pure build loads none."""
    import sys

    import textclean.pipeline.clean  # noqa: F401 (loads the shared library in the compiled build)

    libraries = sorted(name for name in sys.modules if name.split(".")[-1].endswith("__mypyc"))
    assert libraries == (["textclean.pipeline__mypyc"] if EXPECTED == "compiled" else [])
