"""Where ``measure`` reads bytes from: local paths, ``-`` (standard input) and fsspec URLs.

URLs (``s3://bucket/logs/``, ``gs://…``, ``memory://…``, ``zip://name::archive.zip``) need the optional
``fsspec`` package (the ``dask`` extra installs it) plus the filesystem's own package (``s3fs``,
``gcsfs``). Compressed files are decompressed as they are read: the compression is inferred from the
name by fsspec where it is installed, else ``.gz``, ``.bz2`` and ``.xz`` by the standard library.
Only regular files are read (a FIFO would block forever); whatever a directory walk passes over is
named through the ``skipped`` callback with the reason. Everything is read in binary mode: text mode
would turn a bare ``\\r`` into ``\\n``.
"""

from __future__ import annotations

import bz2
import contextlib
import functools
import gzip
import importlib
import io
import lzma
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

STDIN = "-"
_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://")
_stdin_bytes: bytes | None = None
# Without fsspec: the compressions the standard library reads, by file name suffix.
_STDLIB_COMPRESSION: dict[str, Callable[[str], IO[bytes]]] = {
    ".gz": lambda path: gzip.open(path, "rb"),  # type: ignore[dict-item,return-value]  # a GzipFile reads bytes
    ".bz2": lambda path: bz2.open(path, "rb"),
    ".xz": lambda path: lzma.open(path, "rb"),
}
#: ``skipped(path, reason)``: called for each file a walk passes over.
Skipped = Callable[[str, str], None]


class PathError(Exception):
    """A path given on the command line that cannot be read: the message is one line for stderr."""


def is_url(path: str) -> bool:
    return bool(_URL.match(path)) and not path.startswith("file://")


def _local(path: str) -> str:
    return path[len("file://"):] if path.startswith("file://") else path


def _fsspec() -> Any:
    try:
        fsspec = importlib.import_module("fsspec")
    except ImportError:
        raise PathError("reading URLs needs fsspec: pip install 'textclean-lossless[dask]' "
                        "(from a clone: pip install '.[dask]')") from None
    return fsspec


def stdin_bytes() -> bytes:
    """Standard input, read once (detection and reading both open it)."""
    global _stdin_bytes
    if _stdin_bytes is None:
        _stdin_bytes = sys.stdin.buffer.read()
    return _stdin_bytes


@functools.lru_cache(maxsize=1)
def _optional_fsspec() -> Any:
    """fsspec, or ``None``: looked for once, not at every file."""
    try:
        return importlib.import_module("fsspec")
    except ImportError:
        return None


@contextlib.contextmanager
def open_binary(path: str) -> Iterator[IO[bytes]]:
    """The file (or standard input, or URL) opened for reading bytes, decompressed if its name says so.

    A context manager: fsspec's file objects (a member of a zip archive, a decompressing stream) live
    only while the ``OpenFile`` that made them is open."""
    if path == STDIN:
        yield io.BytesIO(stdin_bytes())
        return
    if is_url(path):
        with _fsspec().open(path, "rb", compression="infer") as handle:
            yield handle
        return
    local = _local(path)
    fsspec = _optional_fsspec()
    if fsspec is not None and fsspec.utils.infer_compression(local) is not None:
        with fsspec.open(local, "rb", compression="infer") as handle:
            yield handle
        return
    opener = _STDLIB_COMPRESSION.get(os.path.splitext(local)[1].lower()) if fsspec is None else None
    with (opener(local) if opener else open(local, "rb")) as handle:
        yield handle


def not_regular(path: str) -> str | None:
    """Why a local path is not read (a dangling link, a FIFO, a device, a socket), or ``None``."""
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        if os.path.islink(path):
            return f"dangling symbolic link to {os.readlink(path)}"
        return f"cannot stat: {error.strerror or error}"
    if stat.S_ISREG(mode):
        return None
    kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a directory" if stat.S_ISDIR(mode)
            else "not a regular file")
    return f"{kind}, not a regular file (pipe it to 'textclean measure -' instead)" if kind != "a directory" else kind


def check_path(path: str) -> None:
    """Raise :class:`PathError` when a named path does not exist."""
    if path == STDIN:
        return
    if is_url(path):
        try:
            fs, root = _fsspec().core.url_to_fs(path)
            exists = fs.exists(root)
        except (ImportError, ValueError, OSError) as error:
            raise PathError(f"cannot open {path}: {error}") from None
    else:
        exists = os.path.exists(_local(path))
    if not exists:
        raise PathError(f"no such file or directory: {path}")


def _expand_url(url: str, skipped: Skipped | None) -> Iterator[str]:
    fs, root = _fsspec().core.url_to_fs(url)
    if not fs.isdir(root):
        yield url
        return
    # a chained URL (zip://logs::archive.zip): each file found keeps the chain after its own part
    chain = url[url.index("::"):] if "::" in url else ""
    reported: set[str] = set()
    for found in sorted(fs.find(root)):
        parts = found[len(root):].split("/")
        hidden = next((i for i, part in enumerate(parts) if part.startswith(".")), None)
        if hidden is None:
            yield fs.unstrip_protocol(found) + chain
            continue
        top = root + "/".join(parts[: hidden + 1])  # a hidden folder is named once, not each file in it
        if skipped is not None and top not in reported:
            reported.add(top)
            skipped(fs.unstrip_protocol(top) + ("/" if hidden < len(parts) - 1 else "") + chain, HIDDEN)


HIDDEN = "hidden (a name starting with '.'): name it to read it"


def expand_paths(paths: Iterable[str], skipped: Skipped | None = None) -> Iterator[str]:
    """Files named, and the files under directories named (sorted, hidden entries skipped).

    Only regular files (or symbolic links to them) are yielded; each other file, and each hidden file
    or folder under a directory, is passed to ``skipped`` with the reason."""
    for path in paths:
        if is_url(path):
            yield from _expand_url(path, skipped)
        elif path != STDIN and os.path.isdir(_local(path)):
            for root, dirs, files in os.walk(_local(path)):
                if skipped is not None:
                    for name in sorted(d for d in dirs if d.startswith(".")):
                        skipped(os.path.join(root, name) + os.sep, HIDDEN)
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(files):
                    if not name.startswith("."):
                        yield from _regular(os.path.join(root, name), skipped)
                    elif skipped is not None:
                        skipped(os.path.join(root, name), HIDDEN)
        elif path != STDIN:
            yield from _regular(path, skipped)
        else:
            yield path


def _regular(path: str, skipped: Skipped | None) -> Iterator[str]:
    reason = not_regular(_local(path))
    if reason is None and path.lower().endswith(".zip"):  # fsspec would read its first member alone
        reason = f"a zip archive: name its members as zip://MEMBER::{path} (or zip://FOLDER::{path})"
    if reason is None:
        yield path
    elif skipped is not None:
        skipped(path, reason)
