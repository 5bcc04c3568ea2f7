"""Multi-bar progress displays whose rows fill the terminal's width exactly, at several window sizes
(issue 22): uv's (indicatif) download bars and tqdm's positioned bars pad each row to the width and
move up with ``CSI 1 A`` while the cursor stands at the pending-wrap position; rich stretched to the
window writes full rows and starts each redraw with CR; pip's bar from the package index.

Written to ``tests/fixtures/progress/`` (``Entry.subdir``), so the single-command table in the
README stays as it is. ``python -m fixtures_gen.pending_wrap tests/fixtures/progress/*.raw`` counts
the disputed shape in each. The uv and pip entries download real wheels from the package index
this machine is configured with: regenerating needs that network.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

from fixtures_gen import scripts
from fixtures_gen.catalogue import PYTHON, RICH_VERSION, TQDM_VERSION, Entry, Invocation, write_files

SUBDIR = "progress"
SIZES = ((80, 24), (120, 40), (160, 40))
# Pinned so that regenerating resolves the same wheels (numpy's and pandas' are large enough for a bar).
UV_PACKAGES = ("numpy==2.2.6", "pandas==2.2.3", "pygments==2.19.1")
PIP_PACKAGES = ("numpy==2.2.6", "pygments==2.19.1")
CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt"


def tls_env() -> dict[str, str]:
    """The system's CA bundle for uv (its own TLS roots do not include this machine's)."""
    bundle = os.environ.get("SSL_CERT_FILE") or (CA_BUNDLE if Path(CA_BUNDLE).is_file() else "")
    return {"SSL_CERT_FILE": bundle} if bundle else {}


def setup_uv_install(tmp: Path) -> Invocation:
    subprocess.run(["uv", "venv", "--quiet", "--python", PYTHON, str(tmp / "venv")], check=True, capture_output=True)
    argv = ["uv", "pip", "install", "--python", str(tmp / "venv" / "bin" / "python"), "--no-cache", *UV_PACKAGES]
    env = {"UV_CACHE_DIR": str(tmp / "uv-cache"), "UV_PYTHON_DOWNLOADS": "never", **tls_env()}
    return Invocation(argv, tmp, env)


def setup_pip_download_index(tmp: Path) -> Invocation:
    argv = [PYTHON, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "--progress-bar", "on"]
    argv += ["-d", "wheels", *PIP_PACKAGES]
    env = {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_CACHE_DIR": "1", "PIP_NO_INPUT": "1"}
    return Invocation(argv, tmp, env)


def _script(source: str) -> Callable[[Path], Invocation]:
    def setup(tmp: Path) -> Invocation:
        write_files(tmp, {"program.py": source})
        return Invocation([PYTHON, "program.py"], tmp, {"PYTHONUNBUFFERED": "1"})

    return setup


def _sized(name: str, description: str, sizes: tuple[tuple[int, int], ...], **kwargs: object) -> list[Entry]:
    return [
        Entry(f"{name}_{columns}x{lines}", f"{description} ({columns}x{lines})", columns=columns, lines=lines,
              subdir=SUBDIR, **kwargs)  # type: ignore[arg-type]
        for columns, lines in sizes
    ]  # fmt: skip


PROGRESS: list[Entry] = [
    *_sized(
        "uv_install",
        "uv pip install of three pinned wheels from the index: indicatif bars padded to the width, CUU at the margin",
        SIZES, setup=setup_uv_install, programs=("uv",), version=("uv", "--version"), timeout=180.0,
    ),
    *_sized(
        "tqdm_positions",
        "three tqdm bars at position=0..2 told the window's width: full rows, CUU at the margin",
        SIZES, setup=_script(scripts.TQDM_POSITIONS), modules=("tqdm",), version=TQDM_VERSION,
    ),
    *_sized(
        "rich_expanded",
        "rich.progress with four tasks, expand=True: full-width rows redrawn with CR, EL and CUU",
        ((80, 24), (160, 40)), setup=_script(scripts.RICH_EXPANDED), modules=("rich",), version=RICH_VERSION,
    ),
    *_sized(
        "pip_download_index",
        "pip download of two pinned wheels from the configured index: pip's rich bar",
        ((120, 40),), setup=setup_pip_download_index, modules=("pip",),
        version=("python", "-m", "pip", "--version"), timeout=180.0,
    ),
]  # fmt: skip
