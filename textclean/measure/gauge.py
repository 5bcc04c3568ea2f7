"""Measure one tool output: the gate's verdict, the tokens before and after, each transform's share.

A recording's outputs carry the terminal size (and whether the output starts on a new terminal); the
gate gets them as ``columns=``/``rows=``/``fresh=`` (a recording's output whose size changed midway,
as a terminal of unknown size). Outputs of agent logs (tool output that came through pipes) are
cleaned as written for no terminal. ``ToolOutput.display`` names which.
"""

from __future__ import annotations

import hashlib
import re
from typing import NamedTuple

from textclean.pipeline.clean import strip_escapes_only
from textclean.pipeline.gate import TextClean
from textclean.pipeline.probe import has_terminal_noise
from textclean.pipeline.result import NON_TEXT_BLOCKS, Result
from textclean.pipeline.tokens import token_counter

from .outputs import ToolOutput

APPLIED = "applied"
ERROR_PREFIX = "error: "

# Runs of two or more blank lines (empty or spaces/tabs, CRLF or LF), for the blank-line reference.
_BLANK_RUN = re.compile(r"\n(?:[ \t]*\r*\n){2,}")


def collapse_blank_runs(text: str) -> str:
    """Each run of two or more blank lines made one empty line (measured for reference, never applied)."""
    return _BLANK_RUN.sub("\n\n", text)


def text_hash(output: ToolOutput) -> bytes:
    """The identity of an output for deduplication: its text, its kind and (when gated) its size.

    The display is part of it: the same text at two sizes may be judged differently, and every engine
    must find the same record for the same identity.
    """
    digest = hashlib.sha1(output.text.encode("utf-8", "surrogatepass"))
    if output.non_text_blocks:
        digest.update(b"\0non-text")
    if output.on_a_terminal:
        digest.update(f"\0{output.columns}x{output.rows}{'f' if output.fresh else ''}".encode())
    return digest.digest()


class OutputRecord(NamedTuple):
    """The measurement of one distinct output (small: no text)."""

    label: str
    noisy: bool
    reason: str  # APPLIED or a gate reason
    detail: str | None
    tokens_before: int
    tokens_after: int
    escape_tokens: float
    cr_tokens: float
    backspace_tokens: float
    multiline_tokens: float
    blank_run_tokens: int

    @property
    def fired(self) -> bool:
        return self.reason == APPLIED

    @property
    def saved(self) -> int:
        return self.tokens_before - self.tokens_after


class Measurer:
    """Gates outputs and measures what each transform took away."""

    def __init__(self, min_tokens: int, tokenizer: str | None = None) -> None:
        self.min_tokens = min_tokens
        self.tokenizer = tokenizer
        self.gate = TextClean(min_tokens=min_tokens, tokenizer=tokenizer)
        self.count = token_counter(tokenizer)

    def _clean(self, output: ToolOutput) -> Result[str]:
        return self.gate.clean(output.text, columns=output.columns, rows=output.rows,
                               terminal=output.on_a_terminal, fresh=output.fresh)

    def measure(self, output: ToolOutput) -> tuple[OutputRecord, str | None]:
        """The record, and the cleaned text when the gate fired (for excerpts)."""
        try:
            return self._measure(output)
        except Exception as error:  # a bug met on one output of a user's logs must not lose the report
            reason = f"{ERROR_PREFIX}{type(error).__name__}"
            return OutputRecord(output.label, False, reason, str(error), 0, 0, 0.0, 0.0, 0.0, 0.0, 0), None

    def _measure(self, output: ToolOutput) -> tuple[OutputRecord, str | None]:
        text = output.text
        noisy = has_terminal_noise(text)
        if output.non_text_blocks:
            n = self.count(text)
            record = OutputRecord(output.label, noisy, NON_TEXT_BLOCKS, None, n, n, 0.0, 0.0, 0.0, 0.0, 0)
            return record, None
        result = self._clean(output)
        before, after = result.tokens_before, result.tokens_after
        final = result.text
        blank = 0
        if before >= self.min_tokens and _BLANK_RUN.search(final):
            # `after` counts `final` whether or not the gate fired (refused: tokens_after == tokens_before).
            blank = after - self.count(collapse_blank_runs(final))
        if not result.applied:
            reason = result.reason or ""
            return OutputRecord(
                output.label, noisy, reason, result.detail, before, after, 0.0, 0.0, 0.0, 0.0, blank
            ), None
        saved = before - after
        escape = min(max(before - self.count(strip_escapes_only(text)), 0), saved)
        rest = saved - escape
        removed = result.removed
        redraw_chars = removed.cr_chars + removed.backspace_chars + removed.multiline_chars
        if redraw_chars:
            cr = rest * removed.cr_chars / redraw_chars
            bs = rest * removed.backspace_chars / redraw_chars
            ml = rest * removed.multiline_chars / redraw_chars
        else:
            escape, cr, bs, ml = saved, 0.0, 0.0, 0.0
        record = OutputRecord(output.label, noisy, APPLIED, None, before, after, escape, cr, bs, ml, blank)
        return record, final
