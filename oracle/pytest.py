"""Assertions for other projects' tests: ``from oracle.pytest import assert_lossless, assert_agrees``."""

from __future__ import annotations

from typing import Any

from .lossless import check_lossless
from .render import render

__all__ = ["assert_agrees", "assert_lossless"]


def assert_lossless(
    raw: bytes | str, candidate: bytes | str, *, columns: int | None = None, rows: int | None = None,
    terminal: bool | None = None, fresh: bool | None = None,
) -> None:
    """Fail unless ``candidate`` keeps every line a terminal ever showed for ``raw``, in order, on the
    display named as ``textclean.clean`` names it: ``terminal=False`` (no terminal), a terminal of
    ``columns`` x ``rows`` or of unknown size, ``fresh`` (a new terminal, or with ``False`` one in use)."""
    __tracebackhide__ = True
    result = check_lossless(raw, candidate, columns=columns, rows=rows, terminal=terminal, fresh=fresh)
    if not result.ok:
        raise AssertionError(result.describe())


def assert_agrees(
    raw: bytes | str, candidate: bytes | str, *, columns: int | None = None, rows: int | None = None,
    terminal: bool | None = None, fresh: bool | None = None,
) -> None:
    """Fail unless a terminal shows the same informative lines for ``raw`` and ``candidate`` (the
    display named as in :func:`assert_lossless`)."""
    __tracebackhide__ = True
    args: dict[str, Any] = {"columns": columns, "rows": rows, "terminal": terminal, "fresh": fresh}
    expected = render(raw, **args).informative
    got = render(candidate, **args).informative
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
