"""``textclean [FILE]``: clean one tool output, bytes in, bytes out.

Bytes that are not valid UTF-8 travel through as lone surrogates (``surrogateescape``) and come out
exactly as they went in.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .pipeline.gate import DEFAULT_MAX_CHARS, DEFAULT_MIN_TOKENS, clean
from .pipeline.tokens import DEFAULT_ENCODING, OFFLINE_ENCODINGS

_ENCODING = "utf-8"
_ERRORS = "surrogateescape"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="textclean",
        description=(
            "Remove terminal escape sequences and redraws from a tool output, losslessly. Writes the "
            "cleaned bytes to stdout, or the input unchanged when the gate refuses (exit 0 either way). "
            "'textclean measure PATH...' measures savings over transcripts."
        ),
    )
    parser.add_argument("file", nargs="?", help="file to clean (default: standard input)")
    parser.add_argument(
        "--min-tokens", type=int, default=DEFAULT_MIN_TOKENS, metavar="N",
        help=f"refuse outputs of fewer tokens (default {DEFAULT_MIN_TOKENS})",
    )
    parser.add_argument(
        "--max-chars", type=int, default=DEFAULT_MAX_CHARS, metavar="N",
        help=f"refuse (unchanged) inputs longer than N characters (default {DEFAULT_MAX_CHARS})",
    )
    parser.add_argument(
        "--tokenizer", default=None, metavar="ENCODING",
        help=f"encoding to count tokens in: {', '.join(OFFLINE_ENCODINGS)} (offline) or another tiktoken name "
             f"(default {DEFAULT_ENCODING})",
    )
    parser.add_argument("--explain", action="store_true", help="print the gate's verdict and token counts on stderr")
    return parser


def _read(path: str | None) -> bytes:
    if path is None or path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] == "measure":
        from .measure import measure_main

        return measure_main(args_list[1:])
    args = _parser().parse_args(args_list)
    if args.min_tokens < 0 or args.max_chars < 0:
        print("textclean: --min-tokens and --max-chars must be >= 0", file=sys.stderr)
        return 2
    try:
        raw = _read(args.file)
    except OSError as exc:
        print(f"textclean: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    text = raw.decode(_ENCODING, _ERRORS)
    result = clean(text, min_tokens=args.min_tokens, max_chars=args.max_chars, tokenizer=args.tokenizer)
    out = result.text.encode(_ENCODING, _ERRORS) if result.applied else raw
    try:
        sys.stdout.buffer.write(out)
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        return 0
    if args.explain:
        verdict = "applied" if result.applied else f"refused: {result.reason}"
        detail = f" ({result.detail})" if result.detail else ""
        print(
            f"textclean: {verdict}{detail}; tokens {result.tokens_before} -> {result.tokens_after}; "
            f"removed {result.removed}",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
