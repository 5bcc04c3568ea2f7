"""`textclean measure` on a corpus of every supported format, built from the committed captures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agent_logs import (
    captures,
    write_anthropic_json,
    write_cast_v1,
    write_cast_v2,
    write_claude_code,
    write_openai_jsonl,
    write_traj,
)

from textclean import clean
from textclean.measure import collapse_blank_runs, measure_main
from textclean.pipeline.tokens import count_tokens

MALFORMED = 2 + 2 + 0 + 1 + 1 + 0  # per writer: claude, openai, anthropic, traj, cast v2, cast v1


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[str, bool, tuple]]]:
    """A directory of agent logs and the (text, non_text_blocks, size) of every tool output in it.

    The size is a recording's (100x30), else () (not passed).
    """
    root = tmp_path_factory.mktemp("corpus")
    texts = [text for _, text in captures()]
    (root / "logs").mkdir()
    outputs: list[tuple[str, bool, tuple]] = []

    def add(expected: list[str], last_is_non_text: bool, size: tuple = ()) -> None:
        flags = [False] * len(expected)
        if last_is_non_text:
            flags[-1] = True
        outputs.extend((text, flag, size) for text, flag in zip(expected, flags, strict=True))

    add(write_claude_code(root / "logs" / "session.jsonl", texts), True)
    add(write_openai_jsonl(root / "chat.jsonl", texts), True)
    add(write_anthropic_json(root / "logs" / "request.json", texts[:5]), True)
    add(write_traj(root / "run.traj", texts[3:]), False)
    add(write_cast_v2(root / "build.cast", max(texts, key=len)), False, (("columns", 100), ("rows", 30)))
    add(write_cast_v1(root / "logs" / "old.cast", texts[-1]), False, (("columns", 100), ("rows", 30)))
    return root, outputs


def _run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert measure_main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_counts_derived_from_the_inputs(corpus, capsys) -> None:
    root, outputs = corpus
    report = _run_json(capsys, str(root))
    distinct = list(dict.fromkeys(outputs))
    gated = [clean(text, **dict(size)) for text, non_text, size in distinct if not non_text]

    assert report["files"] == 6
    assert report["malformed_records"] == MALFORMED
    assert report["outputs_seen"] == len(outputs)
    assert report["outputs_unique"] == len(distinct)
    assert report["outputs_fired"] == sum(r.applied for r in gated)
    assert report["outputs_fired"] > 0
    assert report["gate_reasons"]["non_text_blocks"] == sum(non_text for _, non_text, _ in distinct)
    assert report["tokens_before"] == sum(count_tokens(text) for text, _, _ in distinct)
    saved = sum(r.tokens_before - r.tokens_after for r in gated if r.applied)
    assert report["tokens_saved"] == saved
    assert report["touched_tokens_before"] == sum(r.tokens_before for r in gated if r.applied)
    assert abs(sum(report["saved_by_transform"].values()) - saved) <= 4  # each part rounded
    savings = [item["saved"] for item in report["largest_savings"]]
    assert savings == sorted(savings, reverse=True) and savings[0] == max(
        r.tokens_before - r.tokens_after for r in gated if r.applied
    )
    assert report["formats"] == {
        "claude-code": 1, "openai": 1, "anthropic": 1, "swe-agent": 1, "asciicast": 2
    }


def test_blank_line_reference_is_measured_not_applied(tmp_path, capsys) -> None:
    noisy = next(text for _, text in captures() if clean(text).applied)
    padded = noisy + "\n\n\n\n" + noisy
    (tmp_path / "padded.log").write_text(padded, encoding="utf-8", errors="surrogateescape")
    report = _run_json(capsys, str(tmp_path))
    cleaned = clean(padded).text
    assert report["blank_line_runs_reference"] == count_tokens(cleaned) - count_tokens(
        collapse_blank_runs(cleaned)
    )
    assert report["tokens_after"] == count_tokens(cleaned)  # the collapse was not applied
    assert collapse_blank_runs("a\n\n\n \nb\n\nc") == "a\n\nb\n\nc"


def test_jobs_give_the_same_report(corpus, capsys) -> None:
    root, _ = corpus
    one = _run_json(capsys, str(root))
    two = _run_json(capsys, str(root), "--jobs", "2")
    assert two == one


def test_table_and_progress(corpus, capsys) -> None:
    root, outputs = corpus
    assert measure_main([str(root), "--progress"]) == 0
    captured = capsys.readouterr()
    assert f"outputs seen           {len(outputs):>12,}" in captured.out
    for heading in ("fired", "touched mass", "escape sequences", "\\r redraws", "backspace",
                    "multi-line redraws", "blank-line runs", "gate reasons", "largest savings", "[1]"):
        assert heading in captured.out
    assert "6/6 files" in captured.err


def test_min_tokens_is_the_gate_threshold(corpus, capsys) -> None:
    root, outputs = corpus
    report = _run_json(capsys, str(root), "--min-tokens", "1000000")
    assert report["outputs_fired"] == 0
    assert report["gate_reasons"]["below_min_tokens"] == len(
        {(text, size) for text, non_text, size in outputs if not non_text}
    )


def test_cli_dispatches_measure(corpus, capsys) -> None:
    from textclean.cli import main

    root, outputs = corpus
    assert main(["measure", str(root), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["outputs_seen"] == len(outputs)


def test_an_exception_on_one_output_is_reported_not_fatal(tmp_path, capsys, monkeypatch) -> None:
    from textclean.measure import gauge

    def explode(self, output):
        raise RuntimeError("boom")

    (tmp_path / "a.raw").write_text("\x1b[31mred\x1b[0m\n" * 40)
    monkeypatch.setattr(gauge.Measurer, "_measure", explode)
    assert measure_main([str(tmp_path), "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["gate_reasons"] == {"error: RuntimeError": 1}
    assert f"error: RuntimeError on {tmp_path / 'a.raw'}" in captured.err
