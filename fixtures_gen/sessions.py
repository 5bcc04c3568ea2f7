"""Whole terminal sessions: an interactive shell, full-screen programs and pagers driven by keys,
a scroll-region progress display and asciinema recordings, each at a fixed window size.

Written to ``tests/fixtures/sessions/`` (``Entry.subdir``) so the single-command corpus and its
README table stay as they are. Every entry types its keys through the pty (``Step``) once the
output shows what a person would wait for; the metadata records the keys and the window size.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from fixtures_gen import scripts
from fixtures_gen.catalogue import (
    GIT_IDENTITY,
    MAN_PAGE,
    PYTEST_SUITE,
    PYTHON,
    Entry,
    Invocation,
    _start_server,
    build_wheel,
    incompressible,
    make_git_repo,
    write_files,
)
from fixtures_gen.pty_capture import Step

SUBDIR = "sessions"
PROMPT = rb"\$ $"  # the shell's PS1, at the end of the output: the previous command has finished
RICH_VERSION = ("python", "-c", "import importlib.metadata as m; print(m.version('rich'))")


def _bin_dir(tmp: Path) -> Path:
    """``python`` and ``pip`` as a user's shell finds them (this interpreter), first on PATH."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "python").symlink_to(PYTHON)
    (bin_dir / "pip").write_text(f'#!/bin/sh\nexec "{PYTHON}" -m pip "$@"\n')
    (bin_dir / "pip").chmod(0o755)
    return bin_dir


def _path(tmp: Path) -> str:
    return f"{_bin_dir(tmp)}:{os.environ.get('PATH', os.defpath)}"


def _typed(*commands: str, settle: float = 0.4) -> list[Step]:
    """Each command typed at a fresh prompt (Enter as the terminal sends it: CR)."""
    return [Step(command.encode() + b"\r", PROMPT, settle) for command in commands]


SHELL_ENV = {
    "PS1": "$ ",
    "INPUTRC": "/dev/null",  # readline's defaults: bracketed paste on, as bash 5.1+ ships it
    "HISTFILE": "/dev/null",
    "GIT_PAGER": "cat",
    "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    "PIP_NO_CACHE_DIR": "1",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    "TZ": "UTC",
}


def setup_bash_session(tmp: Path) -> Invocation:
    wheel_name = "demo_weights-1.0-py3-none-any.whl"
    wheel = build_wheel("demo_weights", "1.0", incompressible(1 << 20, 11))
    index = f'<html><body><a href="/files/{wheel_name}">{wheel_name}</a></body></html>\n'.encode()
    server = _start_server({"/simple/demo-weights/": index, f"/files/{wheel_name}": wheel}, chunk_size=32 << 10,
                           chunk_delay=0.03)  # fmt: skip
    write_files(tmp / "shop", PYTEST_SUITE)
    write_files(tmp, {"convert.py": scripts.RICH_MANY_TASKS})
    repo, _ = make_git_repo(tmp)
    write_files(repo, {"hello.py": "def greet(name: str) -> str:\n    return f'Hello, {name}!'\n"})
    env = {**SHELL_ENV, **GIT_IDENTITY, "PATH": _path(tmp), "PIP_INDEX_URL": f"{server.url}/simple/"}
    env["GIT_PAGER"] = "cat"
    steps = _typed(
        "clear",
        "pip install --target site demo-weights",
        "python convert.py",
        "cd shop && python -m pytest -p no:cacheprovider; cd ..",
        "cd hello && git log --oneline && git diff; cd ..",
        "exit",
    )
    return Invocation(["bash", "--norc", "--noprofile", "-i"], tmp, env, cleanup=server.stop, steps=steps)


def _log_line(index: int) -> str:
    message = "ERROR disk quota exceeded" if index % 37 == 0 else f"INFO request served in {index % 9} ms"
    return f"{index:04d} {message}\n"


PAGER_TEXT = "".join(_log_line(index) for index in range(1, 201))


def setup_less(tmp: Path) -> Invocation:
    write_files(tmp, {"server.log": PAGER_TEXT})
    steps = [Step(b" ", rb"server\.log", 0.5), *(Step(key, None, 0.5) for key in (b" ", b"b", b"/ERROR\r", b"G", b"q"))]
    env = {"LESSHISTFILE": "-", "LESS": ""}
    return Invocation(["less", "server.log"], tmp, env, steps=steps)


def setup_vim(tmp: Path) -> Invocation:
    write_files(tmp, {"server.log": PAGER_TEXT})
    steps = [
        Step(b"G", rb"server\.log", settle=0.6),
        Step(b"gg", None),
        Step(b"/ERROR\r", None),
        Step(b"dd", None),
        Step(b"Onew first line\x1b", None),
        Step(b":wq\r", None),
    ]
    return Invocation(["vim", "-u", "NONE", "-i", "NONE", "-N", "server.log"], tmp, {}, steps=steps)


def setup_man_pager(tmp: Path) -> Invocation:
    write_files(tmp, {"fetcher.1": MAN_PAGE})
    env = {"MANPAGER": "less", "PAGER": "less", "LESSHISTFILE": "-", "MANWIDTH": "80"}
    steps = [Step(b" ", rb"line \d+", 0.5), Step(b"q", None, 0.5)]
    return Invocation(["man", "-l", "fetcher.1"], tmp, env, steps=steps)


def setup_top(tmp: Path) -> Invocation:
    # top's own configuration file would change its layout: HOME is the empty temp directory.
    return Invocation(["top", "-d", "0.3", "-n", "4"], tmp, {})


def setup_apt_fancy(tmp: Path) -> Invocation:
    write_files(tmp, {"apt_install.py": scripts.APT_FANCY_PROGRESS})
    return Invocation([PYTHON, "apt_install.py"], tmp, {})


def setup_asciinema(tmp: Path) -> Invocation:
    write_files(tmp, {"fetch.py": scripts.CAST_PROGRESS})
    command = f"sh -c 'clear; echo downloading; {PYTHON} fetch.py; ls'"
    argv = ["asciinema", "rec", "--quiet", "--overwrite", "--title", "fetch shards", "-c", command, "fetch.cast"]
    return Invocation(argv, tmp, {"SHELL": "/bin/sh"}, artifact="fetch.cast")


def setup_asciinema_shell(tmp: Path) -> Invocation:
    write_files(tmp, {"fetch.py": scripts.CAST_PROGRESS})
    argv = ["asciinema", "rec", "--quiet", "--overwrite", "-c", "bash --norc --noprofile -i", "shell.cast"]
    env = {**SHELL_ENV, "PATH": _path(tmp), "SHELL": "/bin/bash"}
    steps = _typed("clear", "python fetch.py", "ls", "exit")
    return Invocation(argv, tmp, env, steps=steps, artifact="shell.cast")


# Terminal-Bench's shape: an interactive bash in a 160x40 terminal recorded by asciinema, the agent's
# commands typed at a root prompt in the task's /app.
TB_PROMPT = "root@7f3e9c2a1b4d:/app# "
TB_EXPECT = rb"/app# $"


def _tb_typed(*commands: str) -> list[Step]:
    return [Step(command.encode() + b"\r", TB_EXPECT, 0.5) for command in commands]


def _tb_recording(tmp: Path, steps: list[Step], extra_env: dict[str, str]) -> Invocation:
    argv = ["asciinema", "rec", "--quiet", "--overwrite", "-c", "bash --norc --noprofile -i", "agent.cast"]
    env = {**SHELL_ENV, "PS1": TB_PROMPT, "PATH": _path(tmp), "SHELL": "/bin/bash", **extra_env}
    return Invocation(argv, tmp, env, steps=steps, artifact="agent.cast")


def setup_tb_uv(tmp: Path) -> Invocation:
    from fixtures_gen.progress import UV_PACKAGES, tls_env

    subprocess.run(["uv", "venv", "--quiet", "--python", PYTHON, str(tmp / "venv")], check=True, capture_output=True)
    write_files(tmp / "tests", PYTEST_SUITE)
    write_files(tmp, {"fetch_shards.py": scripts.TQDM_POSITIONS})
    steps = _tb_typed(
        "clear",
        f"uv pip install --python venv/bin/python --no-cache {' '.join(UV_PACKAGES[:2])}",
        "python -m pytest --color=yes -p no:cacheprovider tests",
        "python fetch_shards.py",
        "exit",
    )
    env = {"UV_CACHE_DIR": str(tmp / "uv-cache"), "UV_PYTHON_DOWNLOADS": "never", **tls_env()}
    return _tb_recording(tmp, steps, env)


def setup_tb_apt(tmp: Path) -> Invocation:
    from fixtures_gen.progress import PIP_PACKAGES

    write_files(tmp, {"apt_install.py": scripts.APT_FANCY_PROGRESS, "convert.py": scripts.RICH_EXPANDED})
    steps = _tb_typed(
        "clear",
        f"pip download --no-deps --only-binary :all: -d wheels {' '.join(PIP_PACKAGES)}",
        "python apt_install.py",
        "python convert.py",
        "ls --color=auto -la wheels",
        "exit",
    )
    return _tb_recording(tmp, steps, {"PIP_NO_INPUT": "1"})


SESSIONS = [
    Entry(
        "session_bash",
        "interactive bash: clear, pip install from a loopback index, rich with 30 tasks, pytest, git",
        setup_bash_session, ("bash", "git"), ("rich",), ("bash", "--version"), columns=120, lines=40,
        timeout=90.0, subdir=SUBDIR,
    ),
    Entry("session_less", "less on a 200-line log: pages, back, search, end, quit", setup_less, ("less",),
          columns=80, lines=24, subdir=SUBDIR),
    Entry("session_vim", "vim -u NONE: jump, search, delete a line, insert one, :wq", setup_vim, ("vim",),
          columns=80, lines=24, subdir=SUBDIR),
    Entry("session_man", "man -l in less: one page down, quit", setup_man_pager, ("man", "groff", "less"),
          columns=80, lines=16, subdir=SUBDIR),
    Entry("session_top", "top -d 0.3 -n 4: four frames", setup_top, ("top",), version=("top", "-v"), columns=100,
          lines=30, subdir=SUBDIR),
    Entry("session_apt_fancy", "apt's fancy dpkg progress: DECSTBM region, status line on the last row",
          setup_apt_fancy, version=("python", "--version"), columns=80, lines=24, subdir=SUBDIR),
    Entry("session_asciinema", "asciinema rec of sh: clear, a tqdm bar, ls (asciicast v2)", setup_asciinema,
          ("asciinema",), ("tqdm",), columns=80, lines=24, subdir=SUBDIR),
    Entry("session_asciinema_shell", "asciinema rec of interactive bash: clear, a tqdm bar, ls, exit",
          setup_asciinema_shell, ("asciinema", "bash"), ("tqdm",), columns=100, lines=30, subdir=SUBDIR),
    Entry("session_tb_uv", "Terminal-Bench-style asciinema rec of bash at 160x40: clear, uv pip install, pytest, "
          "three tqdm bars", setup_tb_uv, ("asciinema", "bash", "uv"), ("tqdm", "pytest"), ("asciinema", "--version"),
          columns=160, lines=40, timeout=240.0, subdir=SUBDIR),
    Entry("session_tb_apt", "Terminal-Bench-style asciinema rec of bash at 160x40: clear, pip download, apt's dpkg "
          "region progress, rich stretched to the width, ls", setup_tb_apt, ("asciinema", "bash"), ("rich",),
          ("asciinema", "--version"), columns=160, lines=40, timeout=240.0, subdir=SUBDIR),
]  # fmt: skip
