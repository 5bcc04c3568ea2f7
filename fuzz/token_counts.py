"""Compare every adopted result's token counts with a whole count (red team, session 14).

    PYTHONPATH=$PWD python fuzz/token_counts.py [--count 60] [--big 4]

For streams from tests/tmux_families.FAMILIES (and ``--big`` generated texts of 0.3-3 MB, past the
128K-character chunks and 64K surrogate pieces), cleaned with each encoding (cl100k_base, o200k_base)
and each backend installed (tiktoken, bpe-openai): an adopted result's ``tokens_before`` and
``tokens_after`` must equal tiktoken's ``encode_ordinary`` of the whole text (lone surrogates replaced
as tiktoken replaces them), and ``tokens_after < tokens_before``. Prints counts and any mismatch.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import textclean  # noqa: E402
from tests import tmux_families  # noqa: E402
from textclean.pipeline import tokens  # noqa: E402

ENCODINGS = ("cl100k_base", "o200k_base")


def backends() -> list[str]:
    names = ["tiktoken"]
    try:
        tokens.backend_for("cl100k_base", "bpe-openai")
        names.append("bpe-openai")
    except Exception:  # noqa: BLE001 - not installed
        pass
    return names


def whole(encoding: str, text: str) -> int:
    return len(tokens.tiktoken_encoding(encoding).encode_ordinary(text))


def big_texts(rng: random.Random, n: int) -> list[str]:
    out = []
    for _i in range(n):
        size = rng.choice([300_000, 600_000, 1_200_000, 3_000_000])
        parts, total = [], 0
        while total < size:
            k = rng.random()
            if k < 0.3:
                s = f"\x1b[32m{rng.randint(0, 10**6)} ok\x1b[0m line {total}\r\n"
            elif k < 0.5:
                s = "".join(f"\r[{'=' * j}{' ' * (20 - j)}] {j * 5}%" for j in range(0, 21, 4)) + "\r\n"
            elif k < 0.6:
                s = " " * rng.choice([1, 100, 70_000]) + "x\n"  # whitespace runs past tiktoken's limit
            elif k < 0.7:
                s = "\udc80\udcff mixed \ud83d\ude00 pair " + "\n"  # lone surrogates, a pair as two code points
            elif k < 0.8:
                s = "}\n/" + "path/to/file\n"  # o200k's piece across LF
            else:
                s = "plain log line with words " * rng.randint(1, 5) + "\n"
            parts.append(s)
            total += len(s)
        out.append("".join(parts))
    return out


_PLAIN = ["  indented code line {}\n", "}\n", "/usr/lib/x\n", "\n", "  \n", "x = {'a': 1}\n", "'s contraction\n",
          "123456789 numbers\n", "\t\ttabbed\n", "word " * 30 + "\n", "\u4e2d\u6587 text\n", "emoji \U0001F600\n",
          "\r\n", " leading space\n", "\u00a0nbsp\n", "end}\n/path\n"]


def shared_texts(rng: random.Random, n: int) -> list[str]:
    """Mostly plain lines (shared with the candidate: PairCount counts around shared blocks), cut points
    next to '}', '/', spaces and tabs, and a progress line now and then."""
    out = []
    for _ in range(n):
        size = rng.choice([2_000, 20_000, 150_000, 400_000])
        parts, total = [], 0
        while total < size:
            if rng.random() < 0.02:
                s = "".join(f"\r[{'#' * j}] {j}" for j in range(5)) + "\r\n"
            else:
                s = rng.choice(_PLAIN).replace("{}", str(rng.randint(0, 99)))
            parts.append(s)
            total += len(s)
        out.append("".join(parts))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--big", type=int, default=4)
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    texts: list[tuple[str, str, int | None, int | None]] = []
    for family, gen in tmux_families.FAMILIES.items():
        for _ in range(args.count):
            columns, rows = rng.choice(tmux_families.SIZES)
            raw = gen(rng, columns, rows).decode("utf-8", "surrogateescape")
            texts.append((family, raw, columns, rows))
    texts += [("big", t, None, None) for t in big_texts(rng, args.big)]
    texts += [("shared", t, None, None) for t in shared_texts(rng, 3 * args.big)]
    bad = 0
    for backend in backends():
        for encoding in ENCODINGS:
            counter = tokens.Counter(encoding, backend)
            adopted = checked = 0
            for family, raw, columns, rows in texts:
                kwargs = {} if columns is None else {"columns": columns, "rows": rows}
                result = textclean.clean(raw, min_tokens=0, tokenizer=counter, **kwargs)
                checked += 1
                if not result.applied:
                    continue
                adopted += 1
                before, after = whole(encoding, raw), whole(encoding, result.text)
                if (result.tokens_before, result.tokens_after) != (before, after) or after >= before:
                    bad += 1
                    print(f"MISMATCH {backend} {encoding} {family} len={len(raw)}: reported "
                          f"{result.tokens_before}->{result.tokens_after}, whole {before}->{after}", flush=True)
            print(f"{backend:10s} {encoding:12s} texts={checked} adopted={adopted}", flush=True)
    raise SystemExit(1 if bad else 0)


if __name__ == "__main__":
    main()
