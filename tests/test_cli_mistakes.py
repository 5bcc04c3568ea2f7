"""A documented mistake in the environment or an option: one line on stderr, never a traceback, and the
main command's input still comes through unchanged."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from textclean.pipeline import tokens
from textclean.pipeline.errors import BackendError, TokenizerError

CAPTURE = Path(__file__).resolve().parent / "fixtures" / "grep_color.raw"


def _run(*args: str, env: dict[str, str] | None = None, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "textclean", *args], input=stdin, capture_output=True,
                          timeout=120, env={**os.environ, **(env or {})})


def _one_line(proc: subprocess.CompletedProcess[bytes]) -> str:
    lines = proc.stderr.decode().splitlines()
    assert len(lines) == 1 and "Traceback" not in lines[0], lines
    return lines[0]


def test_a_mistyped_backend_passes_every_input_through_in_one_line(tmp_path) -> None:
    raw = CAPTURE.read_bytes()
    proc = _run(str(CAPTURE), "-", env={"TEXTCLEAN_TOKEN_BACKEND": "bogus"}, stdin=raw[:100])
    assert proc.stdout == raw + raw[:100]  # as it came, like a refusal
    assert proc.returncode == 2
    line = _one_line(proc)
    assert "TEXTCLEAN_TOKEN_BACKEND" in line and "'bogus'" in line and "unchanged" in line, line


def test_a_mistyped_backend_is_one_line_in_measure_and_the_hook() -> None:
    measure = _run("measure", str(CAPTURE), env={"TEXTCLEAN_TOKEN_BACKEND": "tiktokn"})
    assert measure.returncode == 2 and "'tiktokn'" in _one_line(measure)
    event = {"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "grep"},
             "tool_response": {"stdout": CAPTURE.read_text(errors="surrogateescape"), "stderr": ""}}
    hook = _run("hook", "claude-code", env={"TEXTCLEAN_TOKEN_BACKEND": "tiktokn"},
                stdin=json.dumps(event).encode())
    assert hook.stdout == b"" and "'tiktokn'" in _one_line(hook)  # the tool call left as it was


def test_bpe_openai_forced_where_it_is_missing_names_the_extra(monkeypatch) -> None:
    def missing() -> None:
        raise ImportError("No module named 'bpe_openai'")

    monkeypatch.setattr(tokens, "_bpe_openai_bindings", missing)
    tokens.backend_for.cache_clear()
    try:
        with pytest.raises(BackendError, match=r"pip install 'textclean-lossless\[fast\]'"):
            tokens.backend_for("cl100k_base", "bpe-openai")
    finally:
        tokens.backend_for.cache_clear()
    assert issubclass(BackendError, TokenizerError) and issubclass(BackendError, ValueError)  # callers catch it


def test_an_unusable_dask_scheduler_is_one_line() -> None:
    pytest.importorskip("distributed")
    proc = _run("measure", str(CAPTURE), "--engine", "dask", "--scheduler", "not-an-address")
    assert proc.returncode == 2
    assert "cannot reach the Dask scheduler not-an-address" in _one_line(proc)
