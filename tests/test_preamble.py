"""Banner lines before a JSON-lines log (a harness prints them before the agent's stream): the log is
found after them, read exactly, and the report says how many lines it skipped."""

from __future__ import annotations

import json

import pytest
from agent_logs import write_claude_code
from agent_samples import (
    read_outputs,
    texts_fixture,  # noqa: F401  (the texts fixture)
    write_codex,
)

from textclean.measure import sources
from textclean.measure.detect import PREAMBLE_LINES, detect
from textclean.measure.report import measure_main

BANNER = "Claude Code 2.0.14 (--output-format stream-json)\nworking directory: /app  model: claude-sonnet-4-5\n"


def _with_banner(path, banner: str = BANNER) -> None:
    path.write_bytes(banner.encode() + path.read_bytes())


def _stream_json(path, texts: list[str]) -> list[str]:
    """``claude -p --output-format stream-json --verbose``: an init record, then assistant / user turns, a result."""
    events: list[dict] = [{"type": "system", "subtype": "init", "session_id": "s1", "tools": ["Bash"], "cwd": "/app"}]
    for i, text in enumerate(texts):
        events.append({"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": f"toolu_{i}", "name": "Bash", "input": {"command": "make"}}]}})
        events.append({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": text, "is_error": False}]}})
    events.append({"type": "result", "subtype": "success", "is_error": False, "num_turns": len(texts)})
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8", errors="surrogatepass")
    return texts


@pytest.mark.parametrize("writer", [write_claude_code, _stream_json, write_codex], ids=["claude-code", "stream-json",
                                                                                        "codex"])
def test_a_log_after_two_banner_lines_is_read_as_without_them(tmp_path, texts, writer) -> None:
    plain, bannered = tmp_path / "plain.log", tmp_path / "bannered.log"
    expected = writer(plain, texts[:7])
    bannered.write_bytes(plain.read_bytes())
    _with_banner(bannered)
    assert sources.detect_format(str(bannered)) == sources.RAW  # the first line alone says raw
    fmt = sources.detect_format(str(plain))
    assert detect(str(bannered)) == (fmt, 2)
    outputs, stats = read_outputs(bannered)
    assert [o.text for o in outputs] == expected and len(expected) >= 7
    assert (stats.preamble_lines, stats.preamble_files) == (2, 1)
    assert stats.malformed == read_outputs(plain)[1].malformed  # the banner is not counted malformed


def test_measure_names_the_lines_it_skipped(tmp_path, texts, capsys) -> None:
    log = tmp_path / "skillsbench-run.log"
    _stream_json(log, texts[:7])
    _with_banner(log)
    assert measure_main([str(log), "--min-tokens", "0"]) == 0
    out = capsys.readouterr().out
    assert "(1 claude-code;" in out
    said = "preamble lines                    2  (skipped: non-JSON lines before the records of 1 JSON-lines log)"
    assert said in out
    assert "outputs seen                      7" in out
    assert measure_main([str(log), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["preamble_lines"], report["preamble_files"], report["outputs_seen"]) == (2, 1, 7)


def test_a_capture_that_prints_json_of_no_log_shape_stays_raw(tmp_path, texts) -> None:
    path = tmp_path / "server.log"
    path.write_text(texts[0] + '{"level": "info", "msg": "listening"}\n{"level": "info", "msg": "ready"}\n',
                    encoding="utf-8", errors="surrogateescape")
    assert detect(str(path)) == (sources.RAW, 0)
    outputs, stats = read_outputs(path)
    assert [o.text for o in outputs] == [path.read_bytes().decode("utf-8", "surrogateescape")]
    assert stats.preamble_lines == 0


def test_a_preamble_longer_than_the_limit_is_a_raw_capture(tmp_path, texts) -> None:
    path = tmp_path / "long.log"
    write_claude_code(path, texts[:3])
    _with_banner(path, "banner line\n" * PREAMBLE_LINES)
    assert detect(str(path)) == (sources.RAW, 0)
    shorter = tmp_path / "short.log"
    write_claude_code(shorter, texts[:3])
    _with_banner(shorter, "banner line\n" * (PREAMBLE_LINES - 1))
    assert detect(str(shorter)) == (sources.CLAUDE_CODE, PREAMBLE_LINES - 1)
