"""Agent transcripts built from the committed real captures (tests/fixtures/*.raw), one per format.

Each builder writes a file and returns the texts of the tool outputs it holds, in order, so tests
derive every expected count from the inputs. Each file also holds what readers must skip: other
roles, tool calls, malformed lines (counted), and one tool output with an image block.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PNG_BASE64 = (  # a 1x1 PNG
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
IMAGE_BLOCK = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG_BASE64}}
MALFORMED_LINES = ['{"type": "user", "message": {"role": "user", "content": [', "not json at all"]


def captures() -> list[tuple[str, str]]:
    """``(name, text)`` of every committed capture, decoded losslessly."""
    out = []
    for path in sorted(FIXTURES.glob("*.raw")):
        out.append((path.stem, path.read_bytes().decode("utf-8", errors="surrogateescape")))
    assert out, "tests/fixtures/*.raw is empty"
    return out


def peer_recordings() -> list[str]:
    """The peer emulators' recorded inputs (``.input``, ``.in``, ``.recording`` anywhere under
    ``../shared/corpora`` or ``$TEXTCLEAN_CORPORA``), decoded losslessly; none when the suites are absent."""
    from oracle import corpora

    root = corpora.locate()
    if root is None:
        return []
    return [path.read_bytes().decode("utf-8", "surrogateescape") for path in sorted(root.rglob("*"))
            if path.is_file() and path.suffix in (".input", ".in", ".recording")]


NO_PEER_SUITES = "peer suites not found: ../shared/corpora beside the repository (or $TEXTCLEAN_CORPORA)"


def peer_params(values: Sequence[object], ids: Sequence[str]) -> list[object]:
    """Parameters over the peer suites' files, or one skipped with the reason when the suites are absent."""
    if values:
        return [pytest.param(value, id=name) for value, name in zip(values, ids, strict=True)]
    return [pytest.param(None, id="no-peer-suites", marks=pytest.mark.skip(reason=NO_PEER_SUITES))]


def _write_json_lines(path: Path, values: list[object], malformed: list[str]) -> None:
    lines = [json.dumps(v) for v in values]
    # Malformed lines go in the middle, so a reader must go on after them.
    middle = len(lines) // 2
    lines[middle:middle] = malformed
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")


def write_claude_code(path: Path, texts: list[str]) -> list[str]:
    """A Claude Code session: string tool results, one list-of-text-blocks result, one with an image."""
    events: list[object] = [{"type": "summary", "summary": "session", "leafUuid": "x"}]
    expected: list[str] = []
    for i, text in enumerate(texts):
        events.append({
            "type": "assistant",
            "message": {"role": "assistant", "content": [
                {"type": "text", "text": "Running it."},
                {"type": "tool_use", "id": f"toolu_{i}", "name": "Bash", "input": {"command": "make"}},
            ]},
        })
        if i == 0:  # a result given as a list of two text blocks: two outputs
            content: object = [{"type": "text", "text": text}, {"type": "text", "text": texts[-1]}]
            expected += [text, texts[-1]]
        else:
            content = text
            expected.append(text)
        events.append({
            "type": "user",
            "message": {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": content, "is_error": False},
            ]},
            "toolUseResult": {"stdout": "ignored"},
        })
    image_result = {"type": "tool_result", "tool_use_id": "toolu_img", "content": [
        {"type": "text", "text": texts[0]}, IMAGE_BLOCK,
    ]}
    events.append({"type": "user", "message": {"role": "user", "content": [image_result]}})
    expected.append(texts[0])  # counted as one output, left whole (non_text_blocks)
    _write_json_lines(path, events, MALFORMED_LINES)
    return expected


def openai_messages(texts: list[str]) -> tuple[list[dict], list[str]]:
    """An OpenAI chat: string tool messages, one with text parts, one with an image part."""
    messages: list[dict] = [
        {"role": "system", "content": "You are a coding agent."},
        {"role": "user", "content": "Build it and show me the output."},
    ]
    expected: list[str] = []
    for i, text in enumerate(texts):
        messages.append({
            "role": "assistant", "content": None,
            "tool_calls": [{"id": f"call_{i}", "type": "function",
                            "function": {"name": "shell", "arguments": "{\"cmd\": \"make\"}"}}],
        })
        if i == 1:
            messages.append({"role": "tool", "tool_call_id": f"call_{i}",
                             "content": [{"type": "text", "text": text}, {"type": "text", "text": texts[0]}]})
            expected += [text, texts[0]]
        else:
            messages.append({"tool_call_id": f"call_{i}", "role": "tool", "content": text})
            expected.append(text)
    messages.append({"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_img", "type": "function", "function": {"name": "screenshot", "arguments": "{}"}}]})
    messages.append({"role": "tool", "tool_call_id": "call_img", "content": [
        {"type": "text", "text": texts[-1]},
        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG_BASE64}"}},
    ]})
    expected.append(texts[-1])
    messages.append({"role": "assistant", "content": "Done: the build failed in two places."})
    return messages, expected


def anthropic_messages(texts: list[str]) -> tuple[list[dict], list[str]]:
    """An Anthropic chat: tool_result blocks (string and text-block content) and one with an image."""
    messages: list[dict] = [{"role": "user", "content": "Build it and show me the output."}]
    expected: list[str] = []
    for i, text in enumerate(texts):
        messages.append({"role": "assistant", "content": [
            {"type": "text", "text": "Running the build."},
            {"type": "tool_use", "id": f"toolu_{i}", "name": "shell", "input": {"cmd": "make"}},
        ]})
        content: object = [{"type": "text", "text": text}] if i == 2 else text
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": content},
            {"type": "text", "text": "What does this say?"},
        ]})
        expected.append(text)
    messages.append({"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_img", "name": "screenshot", "input": {}}]})
    image_result = {"type": "tool_result", "tool_use_id": "toolu_img", "content": [
        {"type": "text", "text": texts[-1]}, IMAGE_BLOCK,
    ]}
    messages.append({"role": "user", "content": [image_result]})
    expected.append(texts[-1])
    messages.append({"role": "assistant", "content": [{"type": "text", "text": "It failed."}]})
    return messages, expected


def write_openai_jsonl(path: Path, texts: list[str]) -> list[str]:
    messages, expected = openai_messages(texts)
    _write_json_lines(path, messages, MALFORMED_LINES)
    return expected


def write_anthropic_json(path: Path, texts: list[str]) -> list[str]:
    messages, expected = anthropic_messages(texts)
    document = {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": messages}
    path.write_text(json.dumps(document), encoding="utf-8", errors="surrogatepass")
    return expected


def write_traj(path: Path, texts: list[str]) -> list[str]:
    """A SWE-agent trajectory: one step per output, a step with no observation, one malformed step."""
    steps = [
        {"action": "make", "observation": text, "response": "Let me build.", "thought": "Build first.",
         "state": "{}", "execution_time": 0.5}
        for text in texts
    ]
    steps.insert(1, {"action": "submit", "observation": None, "response": "", "thought": ""})
    steps.insert(2, "not a step")
    document = {"environment": "swe_main", "trajectory": steps, "history": [], "info": {}}
    path.write_text(json.dumps(document), encoding="utf-8", errors="surrogatepass")
    return list(texts)


def write_cast_v2(path: Path, text: str, chunk: int = 97) -> list[str]:
    """An asciicast v2 recording of one capture, its text cut into output events of ``chunk`` chars."""
    lines = [json.dumps({"version": 2, "width": 100, "height": 30, "timestamp": 1764510000, "env": {
        "SHELL": "/bin/bash", "TERM": "xterm-256color"}})]
    events = [[0.1, "i", "make\r"]]
    for n, start in enumerate(range(0, len(text), chunk)):
        events.append([0.2 + n * 0.01, "o", text[start:start + chunk]])
    events.insert(3, [1.0, "r", "100x30"])
    lines += [json.dumps(e) for e in events]
    lines.insert(4, '[1.5, "o", "cut off')  # malformed
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    return [text]


def write_cast_v1(path: Path, text: str, chunk: int = 101) -> list[str]:
    frames = [[0.05, text[start:start + chunk]] for start in range(0, len(text), chunk)]
    document = {"version": 1, "width": 100, "height": 30, "duration": 1.0, "command": "make",
                "title": "", "env": {"TERM": "xterm-256color"}, "stdout": frames}
    path.write_text(json.dumps(document), encoding="utf-8", errors="surrogatepass")
    return [text]
