"""The real programs fixtures_gen captures, each with the temp-dir setup it needs.

An entry's ``setup(tmpdir)`` writes fixed inputs (file contents, git dates, crate sources) so that
regenerating gives similar bytes, and returns the :class:`Invocation` to run in the pty. An entry
whose program is missing reports why through :meth:`Entry.available` and is skipped, never faked.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import lzma
import os
import random
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from fixtures_gen import scripts
from fixtures_gen.pty_capture import Capture, Step, capture
from fixtures_gen.servers import LoopbackServer

PYTHON = sys.executable
# How the catalogue asks Python libraries for their version (the metadata of captures that use them).
TQDM_VERSION = ("python", "-m", "tqdm", "--version")
RICH_VERSION = ("python", "-c", "import importlib.metadata as m; print(m.version('rich'))")
FIXED_MTIME = 1_700_000_000  # 2023-11-14T22:13:20Z, for every file an entry lists


@dataclass
class Invocation:
    """What to run in the pty, and what to undo afterwards (a server to stop)."""

    argv: list[str]
    cwd: Path
    env: dict[str, str] = field(default_factory=dict)
    cleanup: Callable[[], None] | None = None
    steps: list[Step] = field(default_factory=list)  # keys typed into an interactive session
    # A file the program writes (relative to cwd) that is the fixture instead of the terminal's bytes
    # (asciinema's recording); its suffix names the fixture's.
    artifact: str | None = None


@dataclass(frozen=True)
class Entry:
    name: str
    description: str
    setup: Callable[[Path], Invocation]
    programs: tuple[str, ...] = ()
    modules: tuple[str, ...] = ()
    version: tuple[str, ...] | None = None
    columns: int = 100
    lines: int = 30
    timeout: float = 60.0
    subdir: str = ""  # where under the fixture directory it goes ("sessions" for whole sessions)

    def available(self) -> tuple[bool, str]:
        """(True, "") when every program and module the entry needs is here, else (False, why)."""
        for program in self.programs:
            if find_program(program) is None:
                return False, f"{program} not found on PATH"
        for module in self.modules:
            if importlib.util.find_spec(module) is None:
                return False, f"Python module {module} not installed (pip install -e '.[fixtures]' in the repository)"
        return True, ""

    def version_argv(self) -> list[str] | None:
        if self.version is not None:
            return [_resolve(self.version[0]), *self.version[1:]]
        if self.programs:
            return [_resolve(self.programs[0]), "--version"]
        return None


def find_program(name: str) -> str | None:
    """``name`` on PATH, or in ~/.cargo/bin (where rustup puts cargo without touching PATH)."""
    found = shutil.which(name)
    if found is None:
        candidate = Path.home() / ".cargo" / "bin" / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            found = str(candidate)
    return found


def _resolve(arg: str) -> str:
    return PYTHON if arg == "python" else (find_program(arg) or arg)


def write_files(root: Path, files: Mapping[str, str]) -> None:
    """Write ``files`` (relative path -> text) under ``root`` with a fixed mtime."""
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        os.utime(path, (FIXED_MTIME, FIXED_MTIME))


# ---------------------------------------------------------------------------------------------- grep

GREP_FILES = {
    "src/app.py": (
        "import logging\n\nlog = logging.getLogger(__name__)\n\n\n"
        "def load(path):\n    # TODO: stream instead of reading it all\n    with open(path) as f:\n"
        "        return f.read()\n\n\ndef main():\n    try:\n        load('config.toml')\n"
        "    except OSError as error:\n        log.error('cannot load config: %s', error)\n"
    ),
    "src/util.py": (
        "def retry(fn, attempts=3):\n    last_error = None\n    for _ in range(attempts):\n"
        "        try:\n            return fn()\n        except Exception as error:  # TODO: narrow\n"
        "            last_error = error\n    raise last_error\n"
    ),
    "docs/notes.md": (
        "# Notes\n\n- TODO: document the retry policy\n- errors are logged, never swallowed\n"
        "- unicode check: naïve café résumé — ✓\n"
    ),
    "README.md": "demo project\n",
}


def setup_grep(tmp: Path) -> Invocation:
    write_files(tmp, GREP_FILES)
    return Invocation(["grep", "--color=always", "-rn", "-E", "TODO|error", "src", "docs"], tmp)


# ------------------------------------------------------------------------------------------------ ls


def setup_clear_then_ls(tmp: Path) -> Invocation:
    # The habit of scripts and watch loops: clear the screen, then print. ED/CUP are out of scope.
    invocation = setup_ls(tmp)
    invocation.argv = ["sh", "-c", "clear; ls --color=always -la"]
    return invocation


def setup_ls(tmp: Path) -> Invocation:
    root = tmp / "project"
    write_files(
        root,
        {
            "README.md": "# project\n",
            "build.sh": "#!/bin/sh\necho build\n",
            "data/sample.csv": "a,b\n1,2\n",
            "dist/project-1.0.tar.gz": "not really gzip\n",
            "notes.txt": "x" * 2048,
        },
    )
    (root / "build.sh").chmod(0o755)
    (root / "latest").symlink_to("dist/project-1.0.tar.gz")
    (root / "broken").symlink_to("missing-target")
    (root / ".hidden").write_text("secret\n")
    for path in [root / ".hidden", root / "data", root / "dist", root, tmp]:  # tmp is ".."
        os.utime(path, (FIXED_MTIME, FIXED_MTIME))
    for link in [root / "latest", root / "broken"]:
        os.utime(link, (FIXED_MTIME, FIXED_MTIME), follow_symlinks=False)
    return Invocation(["ls", "--color=always", "-la"], root, {"TZ": "UTC"})


# ----------------------------------------------------------------------------------------------- git

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "Ada Example",
    "GIT_AUTHOR_EMAIL": "ada@example.com",
    "GIT_COMMITTER_NAME": "Ada Example",
    "GIT_COMMITTER_EMAIL": "ada@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_PAGER": "cat",
    "PAGER": "cat",
    "TZ": "UTC",
}

GIT_HISTORY = [
    (
        "2024-01-02T10:00:00Z",
        "Add greeting module",
        {"hello.py": "def greet(name):\n    return 'Hello, ' + name\n", "README.md": "# hello\n"},
    ),
    (
        "2024-01-03T11:30:00Z",
        "Use f-strings and add a farewell",
        {
            "hello.py": (
                "def greet(name):\n    return f'Hello, {name}!'\n\n\n"
                "def farewell(name):\n    return f'Goodbye, {name}.'\n"
            )
        },
    ),
    (
        "2024-01-05T09:15:00Z",
        "Document usage",
        {"README.md": "# hello\n\nUsage:\n\n    from hello import greet\n    greet('world')\n"},
    ),
]


def _git(repo: Path, env: Mapping[str, str], *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, env=dict(env), check=True, capture_output=True)


def make_git_repo(tmp: Path) -> tuple[Path, dict[str, str]]:
    repo = tmp / "hello"
    repo.mkdir()
    env = {**GIT_IDENTITY, "HOME": str(tmp), "PATH": os.environ.get("PATH", os.defpath)}
    _git(repo, env, "init", "-q", "-b", "main")
    for date, message, files in GIT_HISTORY:
        write_files(repo, files)
        _git(repo, env, "add", ".")
        _git(
            repo, {**env, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}, "commit", "-q", "-m", message
        )
    return repo, env


def setup_git_log(tmp: Path) -> Invocation:
    repo, _ = make_git_repo(tmp)
    return Invocation(["git", "log", "-p", "--color=always"], repo, dict(GIT_IDENTITY))


def setup_git_log_pager(tmp: Path) -> Invocation:
    repo, _ = make_git_repo(tmp)
    # No GIT_PAGER: git pipes through less with LESS=FRX, which quits at once because the log fits.
    env = {key: value for key, value in GIT_IDENTITY.items() if not key.endswith("PAGER")}
    return Invocation(["git", "log", "--stat"], repo, env)


def fast_import_stream(commits: int, files: int) -> bytes:
    """A git fast-import stream: ``commits`` commits rewriting ``files`` files of fixed pseudo-random text."""
    rng = random.Random(5)
    parts = []
    for index in range(commits):
        message = f"change {index}".encode()
        data = (f"file {index}\n" + "".join(f"{rng.random()}\n" for _ in range(200))).encode()
        parts += [
            b"commit refs/heads/main\n",
            f"committer Ada Example <ada@example.com> {FIXED_MTIME + 60 * index} +0000\n".encode(),
            f"data {len(message)}\n".encode() + message + b"\n",
            f"M 644 inline data/file{index % files}.txt\ndata {len(data)}\n".encode() + data + b"\n",
        ]
    return b"".join(parts)


def setup_git_clone(tmp: Path) -> Invocation:
    source = tmp / "upstream"
    source.mkdir()
    env = {**GIT_IDENTITY, "HOME": str(tmp), "PATH": os.environ.get("PATH", os.defpath)}
    _git(source, env, "init", "-q", "-b", "main")
    stream = fast_import_stream(commits=400, files=50)
    subprocess.run(["git", "fast-import", "--quiet"], cwd=source, env=env, input=stream, check=True)
    # --no-local makes git pack and send objects as over a network, with its \r progress counters.
    return Invocation(
        ["git", "clone", "--progress", "--no-local", str(source), "clone"], tmp, dict(GIT_IDENTITY)
    )


def setup_git_diff(tmp: Path) -> Invocation:
    repo, _ = make_git_repo(tmp)
    write_files(
        repo,
        {
            "hello.py": (
                "def greet(name: str) -> str:\n    return f'Hello, {name}!'\n\n\n"
                "def farewell(name: str) -> str:\n    return f'See you, {name}.'\n"
            ),
            "README.md": "# hello\n\nUsage:\n\n    from hello import greet, farewell\n    greet('world')\n",
        },
    )
    return Invocation(["git", "diff", "--color=always"], repo, dict(GIT_IDENTITY))


# ---------------------------------------------------------------------------------------------- diff

DIFF_OLD = "".join(f"setting_{i} = {i}\n" for i in range(12)) + "mode = 'fast'\nretries = 3\n"
DIFF_NEW = (
    "".join(f"setting_{i} = {i}\n" for i in range(12) if i != 4).replace("setting_7 = 7", "setting_7 = 70")
    + "mode = 'safe'\nretries = 3\ntimeout = 30\n"
)


def setup_diff(tmp: Path) -> Invocation:
    write_files(tmp, {"config.old": DIFF_OLD, "config.new": DIFF_NEW})
    return Invocation(["diff", "--color=always", "-u", "config.old", "config.new"], tmp, {"TZ": "UTC"})


# ----------------------------------------------------------------------------------------------- gcc

BAD_C = """#include <stdio.h>

struct point { int x, y; };

int area(struct point p) {
    int unused = 0;
    return p.x * p.y
}

int main(void) {
    struct point p = {2, 3};
    printf("%s\\n", area(p));
    return undefined_function(p);
}
"""


def setup_gcc(tmp: Path) -> Invocation:
    write_files(tmp, {"shapes.c": BAD_C})
    return Invocation(["gcc", "-fdiagnostics-color=always", "-Wall", "-c", "shapes.c", "-o", "shapes.o"], tmp)


# -------------------------------------------------------------------------------------------- pytest

PYTEST_SUITE = {
    "pytest.ini": "[pytest]\n",
    "test_orders.py": """import pytest


def total(items):
    return sum(price * qty for price, qty in items)


def test_total_of_empty_order():
    assert total([]) == 0


def test_total_applies_quantities():
    assert total([(2.5, 2), (1.0, 3)]) == 7.5


def test_order_summary_matches():
    summary = {"items": 3, "total": 8.0, "currency": "EUR", "status": "paid"}
    assert summary == {"items": 3, "total": 8.5, "currency": "EUR", "status": "open"}


def test_parse_quantity():
    assert int("three") == 3


@pytest.mark.skip(reason="needs the payment sandbox")
def test_refund():
    pass


@pytest.mark.parametrize("qty", [1, 2, -1])
def test_quantity_is_positive(qty):
    assert qty > 0, f"quantity {qty} must be positive"
""",
}


def _setup_pytest(tmp: Path, *extra: str) -> Invocation:
    write_files(tmp, PYTEST_SUITE)
    argv = [PYTHON, "-m", "pytest", "--color=yes", "-p", "no:cacheprovider", *extra]
    # No third-party plugins: the header would otherwise list whatever this machine has installed.
    env = {"PYTHONDONTWRITEBYTECODE": "1", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    return Invocation(argv, tmp, env)


def setup_pytest(tmp: Path) -> Invocation:
    return _setup_pytest(tmp)


def setup_pytest_verbose(tmp: Path) -> Invocation:
    return _setup_pytest(tmp, "-v")


# ------------------------------------------------------------------------------------ ruff and node

LINT_ME = (
    "import os, sys\nimport json\n\n\n"
    "def ratio(a, b):\n    unused = 1\n    return a / b if b != None else 0\n"
)

NODE_TESTS = """const test = require('node:test');
const assert = require('node:assert');

test('adds numbers', () => { assert.strictEqual(1 + 2, 3); });
test('formats totals', () => {
  assert.deepStrictEqual({ total: 8, currency: 'EUR' }, { total: 8.5, currency: 'EUR' });
});
test.describe('parsing', () => {
  test('parses ints', () => { assert.strictEqual(parseInt('42', 10), 42); });
  test('rejects words', () => { assert.strictEqual(Number('three'), 3); });
});
"""


def setup_ruff(tmp: Path) -> Invocation:
    write_files(tmp, {"lint_me.py": LINT_ME})
    return Invocation(["ruff", "check", "--isolated", "--no-cache", "--select", "E,F,I", "lint_me.py"], tmp)


def setup_node_test(tmp: Path) -> Invocation:
    write_files(tmp, {"math.test.js": NODE_TESTS})
    return Invocation(["node", "--test"], tmp)


# --------------------------------------------------------------------------------------------- cargo

CARGO_TOML = '[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n{deps}'

CRATE_BROKEN_LIB = """pub struct Counter {
    count: u32,
}

impl Counter {
    pub fn new() -> Self {
        let unused_limit = 10;
        Counter { count: 0 }
    }

    pub fn bump(&mut self) -> u32 {
        self.count += 1;
        self.count
    }

    pub fn label(&self) -> String {
        self.count
    }
}
"""

CRATE_TESTED_LIB = """pub fn parse_port(text: &str) -> Option<u16> {
    let trimmed = text.trim();
    let unused_default = 8080;
    trimmed.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_plain_port() {
        assert_eq!(parse_port("443"), Some(443));
    }

    #[test]
    fn parses_port_with_prefix() {
        assert_eq!(parse_port(":8080"), Some(8080));
    }

    #[test]
    fn rejects_out_of_range() {
        assert_eq!(parse_port("70000"), None);
    }
}
"""

WORKSPACE_CRATES = ["config", "storage", "network", "render", "plugins", "cli"]


def _cargo_env(tmp: Path) -> dict[str, str]:
    cargo = find_program("cargo")
    cargo_dir = str(Path(cargo).parent) if cargo else ""
    env = {
        "PATH": os.pathsep.join(p for p in [cargo_dir, os.environ.get("PATH", os.defpath)] if p),
        "CARGO_HOME": str(tmp / ".cargo-home"),
        "CARGO_TARGET_DIR": str(tmp / "target"),
        "CARGO_NET_OFFLINE": "true",
        "CARGO_INCREMENTAL": "0",
    }
    # rustup's proxy looks up its toolchains under RUSTUP_HOME, which defaults to the real ~/.rustup.
    rustup_home = os.environ.get("RUSTUP_HOME") or str(Path.home() / ".rustup")
    if Path(rustup_home).is_dir():
        env["RUSTUP_HOME"] = rustup_home
    return env


def _write_crate(root: Path, name: str, lib: str, deps: str = "") -> None:
    write_files(root, {"Cargo.toml": CARGO_TOML.format(name=name, deps=deps), "src/lib.rs": lib})


def setup_cargo_build(tmp: Path) -> Invocation:
    _write_crate(tmp / "counter", "counter", CRATE_BROKEN_LIB)
    return Invocation(["cargo", "build", "--color=always"], tmp / "counter", _cargo_env(tmp))


def setup_cargo_test(tmp: Path) -> Invocation:
    _write_crate(tmp / "ports", "ports", CRATE_TESTED_LIB)
    return Invocation(["cargo", "test", "--color=always"], tmp / "ports", _cargo_env(tmp))


def _workspace_lib(index: int, name: str) -> str:
    # Enough generic code per crate that each takes a noticeable moment, so cargo's status bar shows.
    body = "\n".join(
        f"pub fn {name}_step_{i}<T: Clone + std::fmt::Debug>(items: &[T]) -> Vec<String> {{\n"
        f'    items.iter().cycle().take({i + 3}).map(|x| format!("{{:?}}", x.clone())).collect()\n}}\n'
        for i in range(40)
    )
    warning = "pub fn noisy() { let shadowed = 1; }\n" if index % 2 else ""
    return body + warning


def setup_cargo_workspace(tmp: Path) -> Invocation:
    root = tmp / "workspace"
    members = ", ".join(f'"{name}"' for name in WORKSPACE_CRATES)
    write_files(root, {"Cargo.toml": f'[workspace]\nresolver = "2"\nmembers = [{members}]\n'})
    previous: str | None = None
    for index, name in enumerate(WORKSPACE_CRATES):
        deps = f'{previous} = {{ path = "../{previous}" }}\n' if previous else ""
        _write_crate(root / name, name, _workspace_lib(index, name), deps)
        previous = name
    return Invocation(["cargo", "build", "--color=always"], root, _cargo_env(tmp))


# ------------------------------------------------------------------------------ Python-driven output


def _python_script(source: str) -> Callable[[Path], Invocation]:
    """The setup of an entry that runs one of :mod:`fixtures_gen.scripts` as ``program.py``."""

    def setup(tmp: Path) -> Invocation:
        write_files(tmp, {"program.py": source})
        return Invocation([PYTHON, "program.py"], tmp, {"PYTHONUNBUFFERED": "1"})

    return setup


# ---------------------------------------------------------------------------------------- downloads


def incompressible(size: int, seed: int) -> bytes:
    return random.Random(seed).randbytes(size)


def _start_server(files: Mapping[str, bytes], *, chunk_size: int, chunk_delay: float) -> LoopbackServer:
    return LoopbackServer(files, chunk_size=chunk_size, chunk_delay=chunk_delay).start()


def _setup_curl(tmp: Path, *flags: str) -> Invocation:
    # 3 MiB at ~1 MiB/s: long enough for curl's once-a-second meter to redraw a few times.
    server = _start_server(
        {"/dataset.tar": incompressible(3 << 20, 1)}, chunk_size=64 << 10, chunk_delay=0.06
    )
    argv = ["curl", *flags, "-o", "dataset.tar", f"{server.url}/dataset.tar"]
    return Invocation(argv, tmp, cleanup=server.stop)


def setup_wget_bar(tmp: Path) -> Invocation:
    server = _start_server(
        {"/dataset.tar": incompressible(3 << 20, 3)}, chunk_size=64 << 10, chunk_delay=0.05
    )
    argv = ["wget", "--progress=bar", "-O", "dataset.tar", f"{server.url}/dataset.tar"]
    return Invocation(argv, tmp, {"TZ": "UTC"}, cleanup=server.stop)


def setup_curl_meter(tmp: Path) -> Invocation:
    return _setup_curl(tmp)


def setup_curl_bar(tmp: Path) -> Invocation:
    return _setup_curl(tmp, "--progress-bar")


def build_wheel(name: str, version: str, payload: bytes) -> bytes:
    """A minimal valid wheel whose size is mostly ``payload`` (pip shows a bar above 512 KiB)."""
    dist_info = f"{name}-{version}.dist-info"
    files = {
        f"{name}/__init__.py": b"",
        f"{name}/blob.bin": payload,
        f"{dist_info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode(),
        f"{dist_info}/WHEEL": (
            b"Wheel-Version: 1.0\nGenerator: fixtures_gen\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        ),
    }
    record = "".join(f"{path},,\n" for path in [*files, f"{dist_info}/RECORD"])
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for path, data in files.items():
            archive.writestr(zipfile.ZipInfo(path, date_time=(2024, 1, 1, 0, 0, 0)), data)
        archive.writestr(zipfile.ZipInfo(f"{dist_info}/RECORD", date_time=(2024, 1, 1, 0, 0, 0)), record)
    return buffer.getvalue()


def setup_pip_download(tmp: Path) -> Invocation:
    wheel_name = "demo_weights-1.0-py3-none-any.whl"
    wheel = build_wheel("demo_weights", "1.0", incompressible(2 << 20, 2))
    index = f'<html><body><a href="/files/{wheel_name}">{wheel_name}</a></body></html>\n'.encode()
    files = {"/simple/demo-weights/": index, f"/files/{wheel_name}": wheel}
    server = _start_server(files, chunk_size=32 << 10, chunk_delay=0.04)
    argv = [PYTHON, "-m", "pip", "download", "--no-deps", "--progress-bar", "on", "-d", "wheels"]
    argv += ["--index-url", f"{server.url}/simple/", "demo-weights"]
    env = {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_CACHE_DIR": "1", "PIP_NO_INPUT": "1"}
    return Invocation(argv, tmp, env, cleanup=server.stop)


# ------------------------------------------------------------------------------ apt from a loopback repo

APT_CONF = """Dir::Etc::SourceList "{root}/sources.list";
Dir::Etc::SourceParts "{root}/empty";
Dir::Etc::Parts "{root}/empty";
Dir::Etc::PreferencesParts "{root}/empty";
Dir::Etc::Preferences "{root}/empty/none";
Dir::State::Lists "{root}/lists";
Dir::State::status "{root}/status";
Dir::Cache "{root}/cache";
Debug::NoLocking "true";
APT::Sandbox::User "root";
Acquire::Languages "none";
"""


def build_deb(root: Path, name: str, payload: bytes) -> bytes:
    """A .deb of ``payload`` built by dpkg-deb (uncompressed, so its size shows in the progress line)."""
    tree = root / "deb-tree"
    write_files(
        tree,
        {
            "DEBIAN/control": f"Package: {name}\nVersion: 1.0\nArchitecture: all\n"
            "Maintainer: Ada Example <ada@example.com>\nDescription: demo data\n"
        },
    )
    (tree / "usr/share" / name).mkdir(parents=True)
    (tree / "usr/share" / name / "blob.bin").write_bytes(payload)
    deb = root / f"{name}_1.0_all.deb"
    env = {**os.environ, "SOURCE_DATE_EPOCH": str(FIXED_MTIME)}
    subprocess.run(
        ["dpkg-deb", "-Znone", "--build", str(tree), str(deb)], env=env, check=True, capture_output=True
    )
    return deb.read_bytes()


def packages_index(name: str, deb: bytes) -> bytes:
    stanza = (
        f"Package: {name}\nVersion: 1.0\nArchitecture: all\nMaintainer: Ada Example <ada@example.com>\n"
        f"Filename: ./{name}_1.0_all.deb\nSize: {len(deb)}\nSHA256: {hashlib.sha256(deb).hexdigest()}\n"
        "Description: demo data\n\n"
    )
    return lzma.compress(stanza.encode())


def setup_apt_download(tmp: Path) -> Invocation:
    # Every apt directory points into tmp (APT_CONFIG), so nothing of the system's apt state is touched.
    state = tmp / "apt"
    for directory in ["empty", "lists/partial", "cache/archives/partial", "downloads"]:
        (state / directory).mkdir(parents=True)
    (state / "status").write_text("")
    (state / "apt.conf").write_text(APT_CONF.format(root=state))
    deb = build_deb(state, "demo-data", incompressible(2_000_000, 4))
    files = {"/Packages.xz": packages_index("demo-data", deb), "/demo-data_1.0_all.deb": deb}
    server = _start_server(files, chunk_size=32 << 10, chunk_delay=0.04)
    (state / "sources.list").write_text(f"deb [trusted=yes] {server.url}/ ./\n")
    argv = ["sh", "-c", "apt-get update && apt-get download demo-data"]
    return Invocation(argv, state / "downloads", {"APT_CONFIG": str(state / "apt.conf")}, cleanup=server.stop)


# ---------------------------------------------------------------------------------- pip's spinner

SPINNER_PACKAGE = {
    "pyproject.toml": (
        '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n'
        '[project]\nname = "spinner-demo"\nversion = "1.0"\n'
    ),
    "spinner_demo/__init__.py": "VALUE = 1\n",
    # A build that logs for a moment (as a C extension's would): pip turns its spinner once per line.
    "setup.py": (
        "import time\n\nfrom setuptools import setup\n\n"
        "for step in range(10):\n    print(f'compiling module {step}', flush=True)\n    time.sleep(0.15)\n"
        "setup()\n"
    ),
}


def setup_pip_spinner(tmp: Path) -> Invocation:
    write_files(tmp / "spinner-demo", SPINNER_PACKAGE)
    argv = [PYTHON, "-m", "pip", "install", "--no-index", "--no-build-isolation", "--no-deps"]
    argv += ["--target", "installed", "./spinner-demo"]
    env = {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_CACHE_DIR": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    return Invocation(argv, tmp, env)


# ---------------------------------------------------------------------------------------- npm's spinner

NPM_PROJECT = {
    "package.json": '{"name": "app", "version": "1.0.0", "private": true}\n',
    "vendor/left-pad-demo/package.json": (
        '{"name": "left-pad-demo", "version": "1.0.0",'
        ' "scripts": {"postinstall": "node -e \\"setTimeout(() => {}, 1500)\\""}}\n'
    ),
    "vendor/left-pad-demo/index.js": "module.exports = (s, n) => String(s).padStart(n);\n",
}


def setup_npm_spinner(tmp: Path) -> Invocation:
    write_files(tmp / "app", NPM_PROJECT)
    argv = ["npm", "install", "--offline", "--no-audit", "--no-fund", "./vendor/left-pad-demo"]
    env = {"npm_config_cache": str(tmp / "npm-cache"), "npm_config_update_notifier": "false"}
    return Invocation(argv, tmp / "app", env)


# --------------------------------------------------------------------------------------- man/groff

MAN_PAGE = r""".TH FETCHER 1 "2024-01-01" "fetcher 1.0" "User Commands"
.SH NAME
fetcher \- download files with retries
.SH SYNOPSIS
.B fetcher
[\fB\-r\fR \fIretries\fR]
[\fB\-o\fR \fIfile\fR]
.I url
.SH DESCRIPTION
.B fetcher
downloads
.I url
and writes it to
.IR file ,
retrying on transient errors.
.SH OPTIONS
.TP
.BI \-r " retries"
Try at most \fIretries\fR times (default 3).
.TP
.BI \-o " file"
Write to \fIfile\fR instead of standard output.
.SH EXIT STATUS
.B 0
on success,
.B 1
when every attempt failed.
"""


def setup_man_overstrike(tmp: Path) -> Invocation:
    write_files(tmp, {"fetcher.1": MAN_PAGE})
    # GROFF_NO_SGR makes grotty use the old overstrike forms: bold X\bX, underline _\bX.
    env = {"MANPAGER": "cat", "PAGER": "cat", "GROFF_NO_SGR": "1", "MANWIDTH": "80"}
    return Invocation(["man", "-l", "fetcher.1"], tmp, env)


def setup_man_sgr(tmp: Path) -> Invocation:
    write_files(tmp, {"fetcher.1": MAN_PAGE})
    # Debian's grotty defaults to overstrike; GROFF_SGR asks for the SGR forms other systems default to.
    env = {"MANPAGER": "cat", "PAGER": "cat", "GROFF_SGR": "1", "MANWIDTH": "80"}
    return Invocation(["man", "-l", "fetcher.1"], tmp, env)


# -------------------------------------------------------------------------------------------- ninja

NINJA_SOURCES = {
    "parse.c": "int parse(const char *s) { int n = 0; while (*s) n = n * 10 + (*s++ - '0'); return n; }\n",
    "render.c": '#include <stdio.h>\nvoid render(int n) { int unused; printf("%d\\n", n); }\n',
    "store.c": (
        "static int cache[64];\nint store(int k, int v) { int old = cache[k]; cache[k] = v; return old; }\n"
    ),
    "main.c": (
        'int parse(const char *);\nvoid render(int);\nint main(void) { render(parse("42")); return 0; }\n'
    ),
    "build.ninja": (
        "cflags = -Wall -O1 -fdiagnostics-color=always\n"
        "rule cc\n  command = gcc $cflags -c $in -o $out && sleep 0.3\n  description = CC $out\n"
        "rule link\n  command = gcc $in -o $out\n  description = LINK $out\n"
        "build parse.o: cc parse.c\nbuild render.o: cc render.c\nbuild store.o: cc store.c\n"
        "build main.o: cc main.c\nbuild app: link parse.o render.o store.o main.o\n"
    ),
}


def setup_ninja(tmp: Path) -> Invocation:
    write_files(tmp, NINJA_SOURCES)
    return Invocation(["ninja", "-j", "2"], tmp)


# ------------------------------------------------------------------------------------------ entries

CATALOGUE: list[Entry] = [
    Entry("grep_color", "grep --color=always -rn over a small source tree", setup_grep, ("grep",)),
    Entry("ls_color", "ls --color=always -la: dirs, executable, symlinks, a broken link", setup_ls, ("ls",)),
    Entry(
        "clear_then_ls",
        "sh -c 'clear; ls --color=always -la': a clear before any output, which hides nothing of it",
        setup_clear_then_ls,
        ("clear", "ls"),
        version=("ls", "--version"),
    ),
    Entry("git_log_patch", "git log -p --color=always over three commits", setup_git_log, ("git",)),
    Entry(
        "git_log_pager",
        "git log --stat through git's default pager (less -FRX; the log fits, so it quits)",
        setup_git_log_pager,
        ("git", "less"),
    ),
    Entry(
        "git_clone_progress",
        "git clone --progress --no-local: remote counters redrawn with \\r and EL",
        setup_git_clone,
        ("git",),
    ),
    Entry("git_diff", "git diff --color=always of working-tree edits", setup_git_diff, ("git",)),
    Entry("diff_unified", "diff --color=always -u of two config files", setup_diff, ("diff",)),
    Entry("gcc_errors", "gcc -fdiagnostics-color=always: a warning and errors", setup_gcc, ("gcc",)),
    Entry(
        "pytest_failures",
        "pytest --color=yes with failures",
        setup_pytest,
        modules=("pytest",),
        version=("python", "-m", "pytest", "--version"),
    ),
    Entry(
        "pytest_failures_verbose",
        "pytest --color=yes -v with failures",
        setup_pytest_verbose,
        modules=("pytest",),
        version=("python", "-m", "pytest", "--version"),
    ),
    Entry("ruff_check", "ruff check: lint findings with fixes, colour", setup_ruff, ("ruff",)),
    Entry("node_test", "node --test: spec reporter with a failing assertion", setup_node_test, ("node",)),
    Entry("cargo_build_error", "cargo build: a warning and a type error", setup_cargo_build, ("cargo",)),
    Entry("cargo_test_failure", "cargo test: a warning and a failing test", setup_cargo_test, ("cargo",)),
    Entry(
        "cargo_build_workspace",
        "cargo build of six path crates: status bar above the log",
        setup_cargo_workspace,
        ("cargo",),
        timeout=300.0,
    ),
    Entry(
        "ninja_build",
        "ninja: smart-terminal status line above compiler warnings",
        setup_ninja,
        ("ninja", "gcc"),
    ),
    Entry(
        "cr_progress",
        "Python \\r progress writer, longer and shorter frames, no erase",
        _python_script(scripts.CR_PROGRESS),
        version=("python", "--version"),
    ),
    Entry(
        "tqdm_single",
        "tqdm: one bar",
        _python_script(scripts.TQDM_SINGLE),
        modules=("tqdm",),
        version=TQDM_VERSION,
    ),
    Entry(
        "tqdm_nested",
        "tqdm: nested bars with position= and tqdm.write",
        _python_script(scripts.TQDM_NESTED),
        modules=("tqdm",),
        version=TQDM_VERSION,
    ),
    Entry(
        "rich_progress",
        "rich.progress with three tasks and log lines above",
        _python_script(scripts.RICH_PROGRESS),
        modules=("rich",),
        version=RICH_VERSION,
    ),
    Entry(
        "tqdm_wide",
        "tqdm with a CJK (double-width) description",
        _python_script(scripts.TQDM_WIDE),
        modules=("tqdm",),
        version=TQDM_VERSION,
    ),
    Entry(
        "rich_status_emoji",
        "rich status with a wide-emoji spinner and VS16 emoji in the messages",
        _python_script(scripts.RICH_STATUS_EMOJI),
        modules=("rich",),
        version=RICH_VERSION,
    ),
    Entry(
        "rich_status",
        "rich console.status spinner with log lines",
        _python_script(scripts.RICH_STATUS),
        modules=("rich",),
        version=RICH_VERSION,
    ),
    Entry(
        "curl_meter", "curl's progress meter, loopback download", setup_curl_meter, ("curl",), timeout=60.0
    ),
    Entry(
        "apt_download",
        "apt-get update && apt-get download from a loopback repo: status line above the log",
        setup_apt_download,
        ("apt-get", "dpkg-deb"),
        version=("apt-get", "--version"),
    ),
    Entry("wget_bar", "wget's progress bar, loopback download", setup_wget_bar, ("wget",)),
    Entry("curl_bar", "curl --progress-bar, loopback download", setup_curl_bar, ("curl",), timeout=60.0),
    Entry(
        "pip_download",
        "pip download progress bar from a loopback index",
        setup_pip_download,
        modules=("pip",),
        version=("python", "-m", "pip", "--version"),
    ),
    Entry(
        "pip_spinner",
        "pip install of a local project: \\b spinner while building",
        setup_pip_spinner,
        modules=("pip", "setuptools", "wheel"),
        version=("python", "-m", "pip", "--version"),
    ),
    Entry(
        "man_overstrike",
        "man -l with GROFF_NO_SGR: X\\bX bold, _\\bX underline",
        setup_man_overstrike,
        ("man", "groff"),
    ),
    Entry("npm_spinner", "npm install (offline, local package): CHA+EL spinner", setup_npm_spinner, ("npm",)),
    Entry("man_sgr", "man -l with grotty's SGR output", setup_man_sgr, ("man", "groff")),
]

BY_NAME: dict[str, Entry] = {entry.name: entry for entry in CATALOGUE}


def capture_entry(entry: Entry, tmp: Path) -> Capture:
    """Set ``entry`` up in ``tmp``, run it in a pty, undo the setup; temp paths in metadata become <tmp>."""
    invocation = entry.setup(tmp)
    try:
        result = capture(
            invocation.argv,
            cwd=invocation.cwd,
            env=invocation.env,
            columns=entry.columns,
            lines=entry.lines,
            timeout=entry.timeout,
            version_argv=entry.version_argv() or (),
            steps=invocation.steps,
        )
        if invocation.artifact is not None and not result.timed_out:
            artifact = invocation.cwd / invocation.artifact
            result.raw = artifact.read_bytes()
            result.metadata["format"] = artifact.suffix.lstrip(".")
            result.metadata["sha256"] = hashlib.sha256(result.raw).hexdigest()
    finally:
        if invocation.cleanup is not None:
            invocation.cleanup()
    result.metadata = {"name": entry.name, "description": entry.description, **result.metadata}
    result.metadata["argv"] = [_hide_tmp(arg, tmp) for arg in result.metadata["argv"]]
    # PATH is the machine's own; everything else the entry set is part of how the bytes came about.
    env = {key: _hide_tmp(value, tmp) for key, value in result.metadata["env"].items() if key != "PATH"}
    result.metadata["env"] = env
    return result


def _hide_tmp(value: str, tmp: Path) -> str:
    return value.replace(str(tmp), "<tmp>")
