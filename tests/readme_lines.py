"""Run every shell line of the README, in order, as a new user would: from a fresh clone, each install
line in a fresh virtual environment. ``python tests/readme_lines.py`` (``.ci/packages`` runs it).

What counts as a line, and what it must do:

* `` ```sh `` blocks: each line that is not blank or a comment is a command; it must exit 0.
* `` ```console `` blocks: a line starting with ``$ `` is a command; the lines after it, up to the next
  ``$ `` or the block's end, are exactly what it prints (stdout and stderr together; a CR before a line
  end is not shown, as a terminal does not show it). A last line ``...`` means "starts with these lines".
* A line whose comment starts ``# not run:`` is not run (it needs what CI cannot have: a user's logs, a
  package index entry that does not exist yet, or it is this very run); the reason is printed.

A command starting ``pip install`` makes a fresh virtual environment and installs into it with uv
(``uv pip install``, the same requirements, resolved the same way, faster); the commands after it run
in that environment until the next install line. Commands run in the clone the README's own
``git clone`` line makes; ``https://github.com/OWNER/textclean`` (the README's placeholder for where the
repository lives) is this repository, copied with its working-tree files and committed in a temporary
folder, so the clone and pip's ``git+`` lines read what is being tested: nothing of the project comes
from the network. Dependencies come from the package index or uv's cache (``UV_OFFLINE=1``: the cache
alone, once a run has filled it). The installs build the pure package (``TEXTCLEAN_COMPILE=0``): where a C
compiler is, a user's ``pip install .`` compiles the pipeline with mypyc, minutes for each of the README's
install lines; ``.ci/compiled`` installs from a clone as the README says and checks that build. Exit 1 when
a line fails.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = "https://github.com/OWNER/textclean"
NOT_RUN = re.compile(r"#\s*not run:\s*(.*)$")
TIMEOUT = 600


@dataclass
class Line:
    command: str
    expected: list[str] | None  # a console block's output lines; None: exit 0 is enough
    skip: str | None  # why it is not run


def readme_lines(text: str) -> list[Line]:
    """The README's shell lines, in order (see the module docstring)."""
    lines: list[Line] = []
    kind: str | None = None
    for raw in text.splitlines():
        if kind is None:
            if raw.strip() in ("```sh", "```console"):
                kind = raw.strip()[3:]
            continue
        if raw.strip() == "```":
            kind = None
            continue
        not_run = NOT_RUN.search(raw)
        if kind == "sh":
            if raw.strip() and not raw.lstrip().startswith("#"):
                lines.append(Line(raw.strip(), None, not_run.group(1) if not_run else None))
        elif raw.startswith("$ "):
            lines.append(Line(raw[2:].strip(), [], not_run.group(1) if not_run else None))
        elif lines and lines[-1].expected is not None:
            lines[-1].expected.append(raw)
    return lines


def fresh_repository(folder: Path) -> Path:
    """This repository's tracked files as they are in the working tree, committed in a new repository."""
    repo = folder / "textclean"
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in listed.decode().split("\0"):
        source = ROOT / name
        if name and (source.is_file() or source.is_symlink()):
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, repo / name, follow_symlinks=False)
    git = ["git", "-c", "user.name=readme", "-c", "user.email=readme@127.0.0.1", "-c", "commit.gpgsign=false"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "the tree under test"]):
        subprocess.run([*git, *args], cwd=repo, check=True, capture_output=True)
    return repo


def matches(output: str, expected: list[str]) -> bool:
    shown = [line.removesuffix("\r") for line in output.split("\n")]
    if shown and shown[-1] == "":
        shown.pop()
    if expected and expected[-1] == "...":
        return shown[: len(expected) - 1] == expected[:-1]
    return shown == expected


def main() -> int:
    import uv

    uv_bin = uv.find_uv_bin()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="readme-lines-") as tmp:
        work = Path(tmp)
        source = fresh_repository(work / "source")
        (work / "user").mkdir()
        env = dict(os.environ)
        for name in ("PYTHONPATH", "VIRTUAL_ENV"):
            env.pop(name, None)
        env["TEXTCLEAN_COMPILE"] = "0"
        venvs = 0
        failed = 0
        for line in readme_lines((source / "README.md").read_text(encoding="utf-8")):
            if line.skip is not None:
                print(f"not run ({line.skip}): {line.command}")
                continue
            command = line.command.replace(PLACEHOLDER, f"file://{source}")
            if command.startswith("pip install "):
                venvs += 1
                venv = work / f"venv-{venvs}"
                subprocess.run([uv_bin, "venv", "--quiet", "--python", sys.executable, str(venv)], check=True)
                env = {**env, "VIRTUAL_ENV": str(venv), "PATH": f"{venv}/bin{os.pathsep}{env['PATH']}"}
            clone = work / "user" / "textclean"
            cwd = clone if clone.is_dir() else work / "user"
            script = f'pip() {{ "{uv_bin}" pip "$@"; }}\n{command}\n'  # pip install: uv pip install
            begun = time.monotonic()
            proc = subprocess.run(["bash", "-o", "pipefail", "-c", script], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT)
            output = proc.stdout.decode("utf-8", "replace")
            ok = proc.returncode == 0 and (line.expected is None or matches(output, line.expected))
            print(f"{'ok  ' if ok else 'FAIL'} {time.monotonic() - begun:5.1f}s  {line.command}")
            if not ok:
                failed += 1
                print(f"  exit {proc.returncode}; printed:\n{output}")
                if line.expected is not None:
                    print("  the README shows:\n" + "\n".join(line.expected))
    print(f"README lines: {failed} failed, {venvs} fresh environments, {time.monotonic() - started:.0f}s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
