"""Logs in the shapes other agents write, built from the committed real captures.

Each writer follows its project's documented schema (written here, not copied from any project's
files) and returns the texts of the tool outputs the file holds, in order, so tests derive every
expected count from the inputs. Names are deliberately unhelpful where the issue says real files
are (a trajectory without ``.traj``, a recording named ``.json``): formats are told by content.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

try:
    import pytest
except ModuleNotFoundError:  # run as a script without pytest: one line, no traceback
    if __name__ != "__main__":
        raise
    print("python tests/agent_samples.py needs pytest: pip install pytest", file=sys.stderr)
    raise SystemExit(2) from None

from textclean.measure.sources import ReadStats, ToolOutput, read_file
from textclean.pipeline.grammar import BEL, CSI, OSC

PROMPT = "$ "


@pytest.fixture(scope="module", name="texts")
def texts_fixture() -> list[str]:
    """``texts``: the committed captures' texts, in order, the tool outputs transcripts are built from
    (a test module imports ``texts_fixture`` to use it)."""
    from agent_logs import captures

    return [text for _, text in captures()]


def read_outputs(path: Path) -> tuple[list[ToolOutput], ReadStats]:
    """Every tool output :func:`read_file` finds in ``path``, and what reading it counted."""
    stats = ReadStats()
    return list(read_file(str(path), stats)), stats


def _dump(path: Path, value: object) -> None:
    path.write_text(json.dumps(value, indent=1), encoding="utf-8", errors="surrogatepass")


def _dump_lines(path: Path, values: list[object]) -> None:
    path.write_text("\n".join(json.dumps(v) for v in values) + "\n", encoding="utf-8", errors="surrogatepass")


def write_mini_swe_agent(path: Path, texts: list[str], tool_calls: bool = False) -> list[str]:
    """mini-swe-agent ``.traj.json``: ``info``, OpenAI-style ``messages``, ``trajectory_format``.

    Text-based models get each output as a user message (``<returncode>…<output>…``) after the
    assistant's command; tool-calling models (v2) as ``role: "tool"`` messages.
    """
    messages: list[dict] = [
        {"role": "system", "content": "You are a helpful assistant that can interact with a computer."},
        {"role": "user", "content": "Please solve this issue: the build fails."},
    ]
    expected: list[str] = []
    for i, text in enumerate(texts):
        if tool_calls:
            messages.append({"role": "assistant", "content": "", "tool_calls": [
                {"id": f"call_{i}", "type": "function",
                 "function": {"name": "bash", "arguments": "{\"command\": \"make\"}"}}
            ]})
            messages.append({"role": "tool", "tool_call_id": f"call_{i}", "content": text,
                             "extra": {"returncode": 0}})
            expected.append(text)
        else:
            messages.append({"role": "assistant", "content": "THOUGHT: build it.\n\n```bash\nmake\n```"})
            observation = f"<returncode>0</returncode>\n<output>\n{text}</output>"
            messages.append({"role": "user", "content": observation})
            expected.append(observation)
    messages.append({"role": "assistant", "content": "```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```"})
    document = {
        "info": {
            "exit_status": "Submitted", "submission": "diff --git a/x b/x\n",
            "model_stats": {"instance_cost": 0.12, "api_calls": len(texts) + 1},
            "mini_version": "2.0.0" if tool_calls else "1.9.0",
            "config": {"agent": {"step_limit": 250}, "model": {"model_name": "claude-sonnet-4-5"}},
        },
        "messages": messages,
        "trajectory_format": "mini-swe-agent-1.1" if tool_calls else "mini-swe-agent-1",
    }
    _dump(path, document)
    return expected


def write_mini_swe_agent_list(path: Path, texts: list[str]) -> list[str]:
    """mini-swe-agent's bare trajectory (its ``tests/test_data/*.traj.json``): a JSON list of messages,
    each command's output a user message of ``<returncode>`` and ``<output>``; an output too long for
    the template comes as ``<warning>``, ``<output_head>``, ``<elided_chars>`` and ``<output_tail>``; the
    submission's diff is the last observation, and an empty user turn ends the run."""
    messages: list[dict] = [
        {"role": "system", "content": "You are a helpful assistant that can interact with a computer.\n\n"
                                      "Your response must contain exactly ONE bash code block with ONE command."},
        {"role": "user", "content": "Please solve this issue: the tests fail on CI.\n\n## Recommended Workflow\n"
                                    "1. Analyze the codebase by finding and reading relevant files\n"},
    ]
    expected: list[str] = []
    for i, text in enumerate(texts):
        messages.append({"role": "assistant",
                         "content": f"THOUGHT: run step {i}.\n\n```mswea_bash_command\nmake step{i}\n```"})
        if i == len(texts) - 1 and len(text) > 200:
            observation = (
                f"<returncode>{i % 2}</returncode>\n<warning>\nThe output of your last command was too long.\n"
                f"Please try a different command that produces less output.\n</warning><output_head>\n"
                f"{text[:100]}\n</output_head>\n<elided_chars>\n{len(text) - 200} characters elided\n"
                f"</elided_chars>\n<output_tail>\n{text[-100:]}\n</output_tail>"
            )
        else:
            observation = f"<returncode>{i % 2}</returncode>\n<output>\n{text}</output>"
        messages.append({"role": "user", "content": observation})
        expected.append(observation)
    diff = "diff --git a/src/util.py b/src/util.py\n--- a/src/util.py\n+++ b/src/util.py\n@@ -6 +6 @@\n-x\n+y\n"
    messages.append({"role": "assistant", "content": "Done.\n\n```mswea_bash_command\n"
                                                     "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff\n```"})
    messages.append({"role": "user", "content": diff})
    expected.append(diff)
    messages.append({"role": "assistant", "content": "Submitted."})
    messages.append({"role": "user", "content": ""})
    _dump(path, messages)
    return expected


def write_openhands(path: Path, texts: list[str]) -> list[str]:
    """OpenHands (V0) event trajectory: a JSON list of action and observation events."""
    events: list[dict] = [
        {"id": 0, "timestamp": "2025-11-30T10:00:00", "source": "user", "message": "Fix the build",
         "action": "message", "args": {"content": "Fix the build", "image_urls": None, "wait_for_response": False}},
        {"id": 1, "timestamp": "2025-11-30T10:00:01", "source": "environment", "message": "",
         "observation": "agent_state_changed", "content": "", "extras": {"agent_state": "running"}},
    ]
    for i, text in enumerate(texts):
        action_id = 2 + 2 * i
        events.append({
            "id": action_id, "timestamp": "2025-11-30T10:00:02", "source": "agent",
            "message": "Running command: make", "action": "run",
            "args": {"command": "make", "is_input": False, "thought": "Build it.", "blocking": False,
                     "hidden": False, "confirmation_state": "confirmed"},
            "timeout": 120, "tool_call_metadata": {"function_name": "execute_bash", "tool_call_id": f"toolu_{i}"},
        })
        events.append({
            "id": action_id + 1, "timestamp": "2025-11-30T10:00:05", "source": "agent",
            "message": "Command `make` executed with exit code 0.", "cause": action_id,
            "observation": "run", "content": text,
            "extras": {"command": "make", "metadata": {"exit_code": 0, "pid": -1, "username": "root",
                                                       "hostname": "sandbox", "working_dir": "/workspace",
                                                       "prefix": "", "suffix": "\n[The command completed.]"},
                       "hidden": False},
            "success": True,
        })
    events.append({"id": 99, "timestamp": "2025-11-30T10:01:00", "source": "agent", "message": "Done",
                   "action": "finish", "args": {"final_thought": "Fixed.", "outputs": {}}})
    _dump(path, events)
    return list(texts)


def write_codex(path: Path, texts: list[str]) -> list[str]:
    """Codex CLI rollout ``.jsonl``: ``{"timestamp", "type", "payload"}`` records.

    Tool outputs are ``response_item`` payloads of type ``function_call_output`` (the output string a
    JSON ``{"output", "metadata"}`` in older CLIs) or ``custom_tool_call_output``; ``event_msg``
    records repeat them (``exec_command_end``) and must not be counted twice.
    """
    stamp = "2025-11-30T10:00:00.000Z"
    records: list[dict] = [
        {"timestamp": stamp, "type": "session_meta", "payload": {
            "id": "0199a000-0000-7000-8000-000000000000", "timestamp": stamp, "cwd": "/work",
            "originator": "codex_cli_rs",
            "cli_version": "0.46.0", "instructions": None, "source": "cli", "model_provider": "openai"}},
        {"timestamp": stamp, "type": "turn_context", "payload": {
            "cwd": "/work", "approval_policy": "on-request", "sandbox_policy": {"mode": "workspace-write"},
            "model": "gpt-5-codex", "summary": "auto"}},
        {"timestamp": stamp, "type": "response_item", "payload": {
            "type": "message", "role": "user", "content": [{"type": "input_text", "text": "fix the build"}]}},
    ]
    for i, text in enumerate(texts):
        call = f"call_{i}"
        records.append({"timestamp": stamp, "type": "response_item", "payload": {
            "type": "function_call", "name": "shell", "arguments": "{\"command\":[\"bash\",\"-lc\",\"make\"]}",
            "call_id": call}})
        if i % 2:
            output: dict = {"type": "custom_tool_call_output", "call_id": call, "output": text}
        else:
            wrapped = json.dumps({"output": text, "metadata": {"exit_code": 0, "duration_seconds": 1.2}})
            output = {"type": "function_call_output", "call_id": call, "output": wrapped}
        records.append({"timestamp": stamp, "type": "response_item", "payload": output})
        records.append({"timestamp": stamp, "type": "event_msg", "payload": {
            "type": "exec_command_end", "call_id": call, "stdout": text, "stderr": "", "aggregated_output": text,
            "exit_code": 0, "duration": {"secs": 1, "nanos": 0}, "formatted_output": text}})
    records.append({"timestamp": stamp, "type": "response_item", "payload": {
        "type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Fixed."}]}})
    _dump_lines(path, records)
    return list(texts)


def write_swe_agent_function_calling(path: Path, texts: list[str]) -> list[str]:
    """SWE-agent trajectory of a function-calling model: observations are ``role: "tool"`` turns of
    ``history`` (content as text parts), marked ``message_type: "observation"``; no steps."""
    history: list[dict] = [
        {"role": "system", "content": "SETTING: You are an autonomous programmer.", "agent": "main",
         "message_type": "system_prompt"},
        {"role": "user", "content": [{"type": "text", "text": "<uploaded_files>/repo</uploaded_files> fix it"}],
         "agent": "main", "message_type": "observation"},
    ]
    for i, text in enumerate(texts):
        history.append({"role": "assistant", "content": "Let me build.", "thought": "Let me build.",
                        "action": "make", "agent": "main", "message_type": "action",
                        "tool_calls": [{"id": f"call_{i}", "type": "function",
                                        "function": {"name": "bash", "arguments": "{\"command\": \"make\"}"}}]})
        history.append({"role": "tool", "content": [{"type": "text", "text": text}], "agent": "main",
                        "message_type": "observation", "tool_call_ids": [f"call_{i}"]})
    document = {"history": history, "info": {"exit_status": "submitted", "swe_agent_version": "1.1.0"},
                "replay_config": "{}", "environment": "main"}
    _dump(path, document)
    return list(texts)


def write_recording_with_input(path: Path, outputs: list[str]) -> list[str]:
    """asciicast v2 of a shell session where each command is typed (``"i"`` events, Enter ends it).

    Returns the expected outputs: what each command printed plus the next prompt and typed echo.
    """
    header = {"version": 2, "width": 100, "height": 30, "timestamp": 1764500000,
              "env": {"SHELL": "/bin/bash", "TERM": "xterm-256color"}}
    events: list[list] = [[0.0, "o", PROMPT]]
    t = 0.1
    expected: list[str] = []
    current = PROMPT
    for i, text in enumerate(outputs):
        command = f"run {i}"
        for ch in command:
            events += [[t, "i", ch], [t + 0.01, "o", ch]]
            t += 0.02
            current += ch
        events.append([t, "i", "\r"])
        expected.append(current)
        events.append([t + 0.01, "o", "\r\n"])
        current = "\r\n"
        for start in range(0, len(text), 113):
            events.append([t + 0.02, "o", text[start:start + 113]])
        events.append([t + 0.03, "o", PROMPT])
        current += text + PROMPT
        t += 0.5
    expected.append(current)
    _dump_lines(path, [header, *events])
    return expected


def prompt_session(outputs: list[str], marker: str) -> tuple[str, list[str]]:
    """A shell session's output stream with ``marker`` before each prompt, and its commands' outputs."""
    pieces = []
    for i, text in enumerate(outputs):
        pieces.append(f"{marker}{PROMPT}run {i}\r\n{text}")
    pieces.append(f"{marker}{PROMPT}")
    return "".join(pieces), pieces


def write_recording_with_prompts(path: Path, outputs: list[str], marker: str, version: int = 3) -> list[str]:
    """asciicast (v3 by default) without input events, a prompt marker before each prompt."""
    stream, expected = prompt_session(outputs, marker)
    if version == 3:
        header: dict = {"version": 3, "term": {"cols": 100, "rows": 30, "type": "xterm-256color"}}
    else:
        header = {"version": 2, "width": 100, "height": 30}
    lines = [json.dumps(header)]
    if version == 3:
        lines.append("# the session follows")
    # Events cut at fixed widths, so markers straddle events as they do in real recordings.
    lines += [json.dumps([0.01, "o", stream[i:i + 61]]) for i in range(0, len(stream), 61)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    return expected


OSC_133_PROMPT = f"{OSC}133;A{BEL}"
BASH_PROMPT = f"{CSI}?2004h"


def write_samples(root: Path) -> None:
    """One log of every format ``measure`` reads, from the committed captures (the README's run).

    ``python tests/agent_samples.py DIR`` writes them.
    """
    from agent_logs import (
        captures,
        write_anthropic_json,
        write_cast_v1,
        write_claude_code,
        write_openai_jsonl,
        write_traj,
    )

    root.mkdir(parents=True, exist_ok=True)
    texts = [text for _, text in captures()]
    write_claude_code(root / "claude-session.jsonl", texts[:8])
    write_openai_jsonl(root / "openai-chat.jsonl", texts[8:14])
    write_anthropic_json(root / "anthropic-request.json", texts[14:18])
    write_traj(root / "astropy__astropy-14182", texts[18:22])
    write_swe_agent_function_calling(root / "swe-agent-fc.json", texts[22:26])
    write_mini_swe_agent(root / "django__django-11099.traj.json", texts[26:30])
    write_mini_swe_agent(root / "toolcalls.traj.json", texts[29:33], tool_calls=True)
    write_mini_swe_agent_list(root / "local.traj.json", texts[14:17])
    write_openhands(root / "openhands-trajectory.json", texts[0:5])
    write_codex(root / "rollout-2025-11-30T10-00-00.jsonl", texts[5:12])
    write_cast_v1(root / "demo-v1.json", texts[12])
    write_recording_with_input(root / "typed-session.cast", texts[20:26])
    write_recording_with_prompts(root / "bash-session.cast", texts[26:33], BASH_PROMPT, 2)
    write_recording_with_prompts(root / "osc133-session.cast", texts[0:6], OSC_133_PROMPT, 3)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    write_samples(Path(sys.argv[1]))
