"""Coverage-guided fuzzing of ``textclean.clean`` with atheris (see ``fuzz/README.md``).

Each input is one byte of mode, then a payload. The mode picks how the payload becomes a ``str``
(UTF-8 with ``surrogateescape`` as the CLI decodes it, Latin-1 so that every C0/C1 control is one
byte away, or UTF-32 so that any code point, lone surrogates included, is reachable) and the gate's
settings. The invariants are ``fuzz/contract.py``'s, the same as ``tests/test_fuzz.py``'s: no
exception, a refusal returns the very object, an adoption is smaller, lossless by the oracle (as
text and, for UTF-8 input, as the bytes the CLI would write) and idempotent.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

with atheris.instrument_imports(include=["textclean", "oracle"]):
    from textclean import TextClean

from fuzz.contract import check as check_contract  # noqa: E402

_GATES = (
    TextClean(min_tokens=0),
    TextClean(min_tokens=0, tokenizer=len),  # adopts whenever characters are removed
    TextClean(min_tokens=50),
    TextClean(min_tokens=0, max_chars=64),
)


def decode(mode: int, payload: bytes) -> str:
    kind = mode % 3
    if kind == 0:
        return payload.decode("utf-8", "surrogateescape")
    if kind == 1:
        return payload.decode("latin-1")
    usable = len(payload) - len(payload) % 4
    return "".join(chr(int.from_bytes(payload[i : i + 4], "little") % 0x110000) for i in range(0, usable, 4))


def check(data: bytes) -> None:
    if data:
        check_contract(_GATES[(data[0] // 3) % len(_GATES)], decode(data[0], data[1:]))


def main() -> None:
    atheris.Setup(sys.argv, check)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
