"""Formats told by content: each agent's log shape, under names that do not tell, read exactly."""

from __future__ import annotations

import json

import pytest
from agent_logs import write_cast_v1, write_traj
from agent_samples import (
    read_outputs,
    texts_fixture,  # noqa: F401  (the texts fixture)
    write_codex,
    write_mini_swe_agent,
    write_mini_swe_agent_list,
    write_openhands,
    write_swe_agent_function_calling,
)

from textclean.measure import sources
from textclean.measure.sources import ReadStats, detect_format, read_file


@pytest.mark.parametrize(
    ("name", "writer", "fmt"),
    [
        ("run.traj.json", write_mini_swe_agent, sources.MINI_SWE_AGENT),
        ("run-toolcalls.traj.json", lambda p, t: write_mini_swe_agent(p, t, tool_calls=True), sources.MINI_SWE_AGENT),
        ("local.traj.json", write_mini_swe_agent_list, sources.MINI_SWE_AGENT),  # a bare list of messages
        ("trajectory.json", write_openhands, sources.OPENHANDS),
        ("rollout-2025-11-30T10-00-00-0199a000.jsonl", write_codex, sources.CODEX),
        ("astropy__astropy-12907.json", write_swe_agent_function_calling, sources.SWE_AGENT),
        ("astropy__astropy-14182", write_traj, sources.SWE_AGENT),  # a trajectory without .traj
        ("demo.json", lambda p, t: write_cast_v1(p, t[0]), sources.ASCIICAST),  # asciicast v1 named .json
    ],
)
def test_each_format_is_told_by_content_and_read_exactly(tmp_path, texts, name, writer, fmt) -> None:
    path = tmp_path / name
    expected = writer(path, texts[:5])
    assert detect_format(str(path)) == fmt
    outputs, stats = read_outputs(path)
    assert [o.text for o in outputs] == expected
    assert len(expected) >= 1 and stats.skipped_files == 0


def test_codex_is_not_read_as_claude_code(tmp_path, texts) -> None:
    """The issue's case: a rollout read as Claude Code found 0 outputs; each is found once."""
    path = tmp_path / "session.jsonl"
    expected = write_codex(path, texts)
    outputs, _ = read_outputs(path)
    assert len(outputs) == len(texts) == len(expected)  # event_msg copies not counted twice
    assert list(read_file(str(path), ReadStats(), sources.CLAUDE_CODE)) == []


def test_openhands_events_one_per_line_and_a_run_record(tmp_path, texts) -> None:
    events_path = tmp_path / "trajectory.json"
    expected = write_openhands(events_path, texts[:3])
    events = json.loads(events_path.read_text(encoding="utf-8", errors="surrogatepass"))
    lines = tmp_path / "events.jsonl"
    lines.write_text("\n".join(json.dumps(e) for e in events) + "\n", encoding="utf-8", errors="surrogatepass")
    output_jsonl = tmp_path / "output.jsonl"  # an evaluation run: one instance per line, its events in history
    output_jsonl.write_text(
        "\n".join(json.dumps({"instance_id": f"x-{n}", "history": events, "metrics": {}}) for n in range(2)) + "\n",
        encoding="utf-8", errors="surrogatepass",
    )
    for path, times in ((lines, 1), (output_jsonl, 2)):
        assert detect_format(str(path)) == sources.OPENHANDS
        assert [o.text for o in read_outputs(path)[0]] == expected * times


@pytest.mark.parametrize(
    "content",
    [
        {"name": "ls_color", "argv": ["ls"], "columns": 100},  # fixture metadata
        [{"id": 1, "value": 2}],
        {"messages": [{"role": "user", "content": "hi"}]},  # a chat with no tool output yet: nothing to tell
    ],
)
def test_json_of_no_known_shape_is_unknown_not_guessed(tmp_path, content) -> None:
    path = tmp_path / "thing.json"
    path.write_text(json.dumps(content))
    assert detect_format(str(path)) == sources.UNKNOWN
    outputs, stats = read_outputs(path)
    assert outputs == [] and stats.skipped_files == 1


def test_json_lines_of_no_known_shape_is_unknown(tmp_path) -> None:
    path = tmp_path / "metrics.jsonl"
    path.write_text('{"step": 1, "loss": 0.5}\n{"step": 2, "loss": 0.4}\n')
    assert detect_format(str(path)) == sources.UNKNOWN


def test_a_bare_chat_list_without_command_observations_is_not_mini_swe_agent(tmp_path, texts) -> None:
    from agent_logs import openai_messages

    messages, _ = openai_messages(texts[:3])
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(messages), encoding="utf-8", errors="surrogatepass")
    assert detect_format(str(path)) == sources.OPENAI
