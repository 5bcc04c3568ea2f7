"""Assertions for other projects' tests: ``from oracle.pytest import assert_lossless, assert_agrees``."""

from __future__ import annotations

from .lossless import check_lossless
from .render import render

__all__ = ["assert_agrees", "assert_lossless"]


def assert_lossless(raw: bytes | str, candidate: bytes | str) -> None:
    """Fail unless ``candidate`` keeps every line a terminal ever showed for ``raw``, in order."""
    __tracebackhide__ = True
    result = check_lossless(raw, candidate)
    if not result.ok:
        raise AssertionError(result.describe())


def assert_agrees(raw: bytes | str, candidate: bytes | str) -> None:
    """Fail unless a terminal shows the same informative lines for ``raw`` and ``candidate``."""
    __tracebackhide__ = True
    expected = render(raw).informative
    got = render(candidate).informative
    if expected == got:
        return
    for index, (want, have) in enumerate(zip(expected, got, strict=False)):
        if want != have:
            raise AssertionError(
                f"line {index + 1} differs: the terminal shows {want!r} for the raw output, "
                f"{have!r} for the candidate"
            )
    if len(expected) > len(got):
        raise AssertionError(
            f"line {len(got) + 1} missing from the candidate: the terminal shows {expected[len(got)]!r} "
            f"({len(expected)} lines for the raw output, {len(got)} for the candidate)"
        )
    raise AssertionError(
        f"the candidate shows {len(got) - len(expected)} extra line(s), first {got[len(expected)]!r}"
    )
