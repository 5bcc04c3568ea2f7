"""Which build an install makes (issue 39): the build backend (``build_backend/textclean_build.py``) asks for
mypy and compiles a wheel where a C compiler compiles against ``Python.h``, and builds the pure package for an
editable install, the sdist, a machine without a compiler, and ``TEXTCLEAN_COMPILE=0``. Called through the
standard PEP 517 hook caller, as pip and ``python -m build`` call it, with the compiler taken away by ``CC``
(a program that does not exist, or one that fails). The compile itself, and the fall-back to the pure
package when it fails after the probe, are ``.ci/compiled``'s (minutes each)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import tomllib
from build.env import DefaultIsolatedEnv
from pyproject_hooks import BuildBackendHookCaller, default_subprocess_runner

ROOT = Path(__file__).resolve().parent.parent
SYSTEM = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]
sys.path.insert(0, str(ROOT / SYSTEM["backend-path"][0]))
import textclean_build  # noqa: E402


@pytest.fixture(scope="module")
def python(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An isolated build environment holding what pyproject.toml's build-system requires, as pip makes one."""
    with DefaultIsolatedEnv() as env:
        env.install(SYSTEM["requires"])
        yield env.python_executable


def _hooks(source: Path, python: str, **environ: str) -> BuildBackendHookCaller:
    def runner(cmd, cwd=None, extra_environ=None):  # type: ignore[no-untyped-def]
        default_subprocess_runner(cmd, cwd, {**(extra_environ or {}), **environ})

    return BuildBackendHookCaller(str(source), SYSTEM["build-backend"], backend_path=SYSTEM["backend-path"],
                                  runner=runner, python_executable=python)


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the tracked files (the hooks write egg-info and build folders where they run)."""
    copy = tmp_path_factory.mktemp("source") / "textclean"
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.decode()
    for name in filter(None, listed.split("\0")):
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, copy / name)
    return copy


def _failing_compiler(folder: Path) -> str:
    program = folder / "cc-that-fails"
    program.write_text("#!/bin/sh\necho 'no C compiler here (a test)' >&2\nexit 1\n")
    program.chmod(0o755)
    return str(program)


def _mypy(requires: list[str]) -> bool:
    return any(r.split(">")[0].split("=")[0].strip() == "mypy" for r in requires)


def test_no_compiler_no_mypy_and_a_pure_wheel(source: Path, python: str, tmp_path: Path) -> None:
    hooks = _hooks(source, python, CC=_failing_compiler(tmp_path), TEXTCLEAN_COMPILE="")
    assert not _mypy(hooks.get_requires_for_build_wheel())
    wheel = hooks.build_wheel(str(tmp_path))
    assert wheel.endswith("-py3-none-any.whl"), wheel
    names = zipfile.ZipFile(tmp_path / wheel).namelist()
    assert "textclean/pipeline/gate.py" in names and not any(n.endswith(".so") for n in names)


def test_the_compiled_build_asks_for_mypy_where_a_compiler_is(source: Path, python: str, tmp_path: Path) -> None:
    if not textclean_build.compiler_present():
        pytest.skip("no C compiler compiles against this Python's headers here")
    assert _mypy(_hooks(source, python, TEXTCLEAN_COMPILE="").get_requires_for_build_wheel())
    asked = _hooks(source, python, TEXTCLEAN_COMPILE="1", CC=_failing_compiler(tmp_path))
    assert _mypy(asked.get_requires_for_build_wheel())
    assert not _mypy(_hooks(source, python, TEXTCLEAN_COMPILE="0").get_requires_for_build_wheel())


def test_editable_and_sdist_are_pure_whatever_is_asked(source: Path, python: str, tmp_path: Path) -> None:
    hooks = _hooks(source, python, TEXTCLEAN_COMPILE="1")
    assert not _mypy(hooks.get_requires_for_build_editable())
    assert not _mypy(hooks.get_requires_for_build_sdist())
    sdist = hooks.build_sdist(str(tmp_path))
    assert sdist.endswith(".tar.gz")


def test_choice() -> None:
    """The decision itself: asked for, or made from the compiler and the platform."""
    assert textclean_build.choice({"TEXTCLEAN_COMPILE": "1"}) == "1"
    assert textclean_build.choice({"TEXTCLEAN_COMPILE": "0"}) == "0"
    with pytest.raises(ValueError, match="TEXTCLEAN_COMPILE='yes'"):
        textclean_build.choice({"TEXTCLEAN_COMPILE": "yes"})


def test_a_missing_or_failing_compiler_is_no_compiler(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for cc in ("/nonexistent/cc", _failing_compiler(tmp_path)):
        monkeypatch.setenv("CC", cc)
        assert not textclean_build.compiler_present()
        assert textclean_build.choice({}) == "0"

