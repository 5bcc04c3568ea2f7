"""Comparing a candidate's lines with the lines a terminal shows (the verifier's messages)."""

from __future__ import annotations

import re

from ..grammar import CR, LF


def clip(text: str, limit: int = 60) -> str:
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def candidate_lines(candidate: str) -> list[str]:
    lines = (line.rstrip(CR) for line in candidate.split(LF))
    return [line for line in lines if line.strip(" \t")]


_JOINED_LIMIT = 1 << 20  # characters: larger candidates are read line by line (no copies of them)
_WHITESPACE_LINE = re.compile(LF + "[ \t]+(?=" + LF + "|\\Z)")  # a line of spaces and tabs, after the first


def same_lines(expected: list[str], candidate: str, joined: bool = True) -> bool:
    """``candidate_lines(candidate) == expected``, reading the candidate line by line (no list).

    First by whole strings where every CR of the candidate ends a line (CR LF, whose CR the reading
    strips) and no line holds only spaces and tabs: its informative lines are then its non-empty
    ones, which joined are the candidate with CR LF made LF, runs of LF made one and stripped at both
    ends; lists of LF-free lines are equal exactly when joined with LF they are
    (tests/test_verify_fast_path.py compares with the line by line reading)."""
    text = candidate
    joining = joined and len(candidate) <= _JOINED_LIMIT  # copies of the candidate: memory
    if joining and CR in text and text.count(CR) == text.count(CR + LF):
        text = text.replace(CR + LF, LF)
    if (joining and CR not in text and not text.startswith((" ", "\t"))
            and _WHITESPACE_LINE.search(text) is None):
        whole = LF.join(expected)
        # an empty expected line leaves an empty join, or LF at an end or twice: never equal then
        if whole and whole.count(LF) == len(expected) - 1:
            text = text.strip(LF)
            if LF + LF in text:  # blank lines between: the non-empty ones (a pattern for runs scans slowly)
                text = LF.join(filter(None, text.split(LF)))
            if text == whole:
                return True
    del text
    want = iter(expected)
    start = 0
    while True:
        end = candidate.find(LF, start)
        line = (candidate[start:] if end < 0 else candidate[start:end]).rstrip(CR)
        if line.strip(" \t") and next(want, None) != line:
            return False
        if end < 0:
            return next(want, None) is None
        start = end + 1


def line_difference(expected: list[str], got: list[str]) -> str | None:
    if got == expected:
        return None
    for index, (want, have) in enumerate(zip(expected, got, strict=False)):
        if want != have:
            number = index + 1
            if index + 1 < len(expected) and expected[index + 1] == have:
                return f"line {number}: missing {clip(want)}"
            if index + 1 < len(got) and got[index + 1] == want:
                return f"line {number}: unexpected extra line {clip(have)}"
            return f"line {number}: expected {clip(want)}, got {clip(have)}"
    number = min(len(expected), len(got)) + 1
    if len(got) < len(expected):
        return f"line {number}: missing {clip(expected[number - 1])} (candidate ends early)"
    return f"line {number}: unexpected extra line {clip(got[number - 1])} (expected the end)"


