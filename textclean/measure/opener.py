"""Where ``measure`` reads bytes from: local paths, ``-`` (standard input) and fsspec URLs.

URLs (``s3://bucket/logs/``, ``gs://…``, ``memory://…``) need the optional ``fsspec`` package (the
``dask`` extra installs it) plus the filesystem's own package (``s3fs``, ``gcsfs``). Everything is
read in binary mode: text mode would turn a bare ``\\r`` into ``\\n``.
"""

from __future__ import annotations

import importlib
import io
import os
import re
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any

STDIN = "-"
_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://")
_stdin_bytes: bytes | None = None


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
        raise PathError("reading URLs needs fsspec: pip install 'textclean[dask]'") from None
    return fsspec


def stdin_bytes() -> bytes:
    """Standard input, read once (detection and reading both open it)."""
    global _stdin_bytes
    if _stdin_bytes is None:
        _stdin_bytes = sys.stdin.buffer.read()
    return _stdin_bytes


def open_binary(path: str) -> IO[bytes]:
    """The file (or standard input, or URL) opened for reading bytes."""
    if path == STDIN:
        return io.BytesIO(stdin_bytes())
    if is_url(path):
        handle: IO[bytes] = _fsspec().open(path, "rb").open()
        return handle
    return open(_local(path), "rb")


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


def _expand_url(url: str) -> Iterator[str]:
    fs, root = _fsspec().core.url_to_fs(url)
    if not fs.isdir(root):
        yield url
        return
    for found in sorted(fs.find(root)):
        if not any(part.startswith(".") for part in found[len(root):].split("/")):
            yield fs.unstrip_protocol(found)


def expand_paths(paths: Iterable[str]) -> Iterator[str]:
    """Files named, and the files under directories named (sorted, hidden entries skipped)."""
    for path in paths:
        if is_url(path):
            yield from _expand_url(path)
        elif path != STDIN and os.path.isdir(_local(path)):
            for root, dirs, files in os.walk(_local(path)):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(files):
                    if not name.startswith("."):
                        yield os.path.join(root, name)
        else:
            yield path
