"""clean_messages: only tool outputs change; everything else, key order included, stays byte for byte."""

from __future__ import annotations

import copy
import json

import pytest
from agent_logs import anthropic_messages, captures, openai_messages

from textclean import TextClean, clean
from textclean.integrations.messages import NON_TEXT_BLOCKS, clean_messages


@pytest.fixture(scope="module")
def texts() -> list[str]:
    return [text for _, text in captures()]


def _dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=True)


def _is_openai_tool(message: dict) -> bool:
    return message.get("role") == "tool"


def test_openai_only_tool_outputs_change(texts: list[str]) -> None:
    messages, _ = openai_messages(texts)
    before = copy.deepcopy(messages)
    new, report = clean_messages(messages, format="openai")

    assert _dump(messages) == _dump(before)  # the input is not mutated
    assert len(new) == len(messages)
    for old, cleaned in zip(messages, new, strict=True):
        if not _is_openai_tool(old):
            assert cleaned is old
            continue
        assert list(cleaned) == list(old)  # key order
        assert {k: v for k, v in cleaned.items() if k != "content"} == {
            k: v for k, v in old.items() if k != "content"
        }
        content = old["content"]
        if isinstance(content, str):
            assert cleaned["content"] == clean(content).text
        elif all(part["type"] == "text" for part in content):
            assert [list(p) for p in cleaned["content"]] == [list(p) for p in content]
            assert [p["text"] for p in cleaned["content"]] == [clean(p["text"]).text for p in content]
        else:  # an image part: left whole
            assert cleaned is old
            assert _dump(cleaned) == _dump(old)

    string_outputs = sum(isinstance(m.get("content"), str) for m in messages if _is_openai_tool(m))
    assert len(report.outputs) == string_outputs + 2 + 1  # the two text parts, the image message
    assert report.reasons[NON_TEXT_BLOCKS] == 1
    expected_applied = sum(clean(t).applied for t in texts) + clean(texts[0]).applied
    assert report.applied == expected_applied
    assert report.applied > 0
    assert report.tokens_saved == sum(
        r.result.tokens_before - r.result.tokens_after for r in report.outputs if r.applied
    )


def test_anthropic_only_tool_results_change(texts: list[str]) -> None:
    messages, _ = anthropic_messages(texts)
    before = copy.deepcopy(messages)
    new, report = clean_messages(messages, format="anthropic")

    assert _dump(messages) == _dump(before)
    for old, cleaned in zip(messages, new, strict=True):
        blocks = old["content"] if isinstance(old["content"], list) else []
        results = [b for b in blocks if b.get("type") == "tool_result"]
        if not results:
            assert cleaned is old
            continue
        assert list(cleaned) == list(old)
        assert cleaned["role"] == old["role"]
        for old_block, new_block in zip(old["content"], cleaned["content"], strict=True):
            if old_block["type"] != "tool_result":
                assert new_block is old_block
                continue
            assert list(new_block) == list(old_block)
            content = old_block["content"]
            if isinstance(content, str):
                assert new_block["content"] == clean(content).text
            elif all(b["type"] == "text" for b in content):
                assert [b["text"] for b in new_block["content"]] == [clean(b["text"]).text for b in content]
            else:
                assert new_block is old_block and _dump(new_block) == _dump(old_block)

    assert report.reasons[NON_TEXT_BLOCKS] == 1
    assert report.applied == sum(clean(t).applied for t in texts)
    non_text = [o for o in report.outputs if o.reason == NON_TEXT_BLOCKS]
    assert non_text[0].message_index == len(messages) - 2 and non_text[0].result is None


def test_nothing_to_clean_returns_the_same_messages(texts: list[str]) -> None:
    messages = [
        {"role": "user", "content": "hi"},
        {"role": "tool", "tool_call_id": "c", "content": "plain output\n" * 40},
    ]
    new, report = clean_messages(messages)
    assert all(a is b for a, b in zip(new, messages, strict=True))
    assert report.applied == 0 and report.reasons == {"no_terminal_noise": 1}


def test_non_text_blocks_left_whole_even_when_text_would_clean(texts: list[str]) -> None:
    noisy = next(t for t in texts if clean(t).applied)
    message = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": [
        {"type": "text", "text": noisy},
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "x"}},
    ]}]}
    new, report = clean_messages([message], format="anthropic")
    assert new[0] is message
    assert [o.reason for o in report.outputs] == [NON_TEXT_BLOCKS]


def test_a_configured_cleaner_is_used(texts: list[str]) -> None:
    noisy = next(t for t in texts if clean(t).applied)
    messages = [{"role": "tool", "tool_call_id": "c", "content": noisy}]
    new, report = clean_messages(messages, cleaner=TextClean(min_tokens=10**9))
    assert new[0] is messages[0]
    assert report.reasons == {"below_min_tokens": 1}


def test_unknown_format_is_an_error() -> None:
    with pytest.raises(ValueError):
        clean_messages([], format="gemini")  # type: ignore[arg-type]


def _responses_input(texts: list[str]) -> list[dict]:
    """Responses API input items: a user message, then function and custom tool calls with their outputs."""
    items: list[dict] = [{"role": "user", "content": [{"type": "input_text", "text": "build it"}]}]
    for i, text in enumerate(texts):
        kind = "function_call_output" if i % 2 == 0 else "custom_tool_call_output"
        items.append({"type": kind.removesuffix("_output"), "call_id": f"call_{i}", "name": "shell", "arguments": "{}"})
        output: object = text if i != 1 else [{"type": "input_text", "text": text}]
        items.append({"type": kind, "call_id": f"call_{i}", "output": output})
    return items


def test_responses_api_items_are_detected_and_cleaned(texts: list[str]) -> None:
    items = _responses_input(texts)
    before = copy.deepcopy(items)
    new, report = clean_messages(items)
    assert _dump(items) == _dump(before)
    assert len(report.outputs) == len(texts)
    assert {o.format for o in report.outputs} == {"responses"}
    assert report.applied == sum(clean(t).applied for t in texts) > 0
    for old, cleaned in zip(items, new, strict=True):
        if old.get("type") not in ("function_call_output", "custom_tool_call_output"):
            assert cleaned is old
            continue
        output = old["output"]
        if isinstance(output, str):
            assert cleaned["output"] == clean(output).text
        else:
            assert cleaned["output"][0]["text"] == clean(output[0]["text"]).text
        assert list(cleaned) == list(old)
    assert clean_messages(items, format="responses")[0] == new


def test_mixed_shapes_are_each_detected(texts: list[str]) -> None:
    text = next(t for t in texts if clean(t).applied)
    messages = [
        {"role": "tool", "tool_call_id": "a", "content": text},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "b", "content": text}]},
        {"type": "function_call_output", "call_id": "c", "output": text},
    ]
    new, report = clean_messages(messages)
    assert [o.format for o in report.outputs] == ["openai", "anthropic", "responses"]
    assert report.applied == 3 and not report.warnings
    assert new[0]["content"] == new[1]["content"][0]["content"] == new[2]["output"] == clean(text).text


def test_an_explicit_format_that_matches_nothing_says_so(texts: list[str]) -> None:
    messages, _ = anthropic_messages(texts)
    new, report = clean_messages(messages, format="openai")
    assert report.outputs == [] and all(a is b for a, b in zip(new, messages, strict=True))
    assert len(report.warnings) == 1 and "anthropic" in report.warnings[0]
    assert clean_messages([{"role": "user", "content": "hi"}], format="openai")[1].warnings == []


def test_a_text_part_without_a_string_is_a_non_text_part_here_and_in_measure(tmp_path, texts: list[str]) -> None:
    from textclean.measure.sources import ReadStats, read_file

    text = next(t for t in texts if clean(t).applied)
    parts = [{"type": "text", "text": text}, {"type": "text", "text": None}]
    message = {"role": "tool", "tool_call_id": "a", "content": parts}
    new, report = clean_messages([message])
    assert new[0] is message and report.reasons[NON_TEXT_BLOCKS] == 1
    path = tmp_path / "chat.json"
    path.write_text(json.dumps([message]))
    outputs = list(read_file(str(path), ReadStats()))
    assert [o.non_text_blocks for o in outputs] == [True]  # measure counts what clean_messages leaves whole


# --- The display the tool outputs were written for (issue 28 item 3) -----------------------------------------

WIDE_PROGRESS = "[" + "=" * 120 + ">] 50%\r[" + "=" * 121 + "] 100%\n" + "\x1b[32mok\x1b[0m\n" * 30


def _one_tool_output(text: str) -> list[dict]:
    return [{"role": "tool", "tool_call_id": "c", "content": text}]


def test_tool_outputs_are_cleaned_for_no_terminal_by_default() -> None:
    messages = _one_tool_output(WIDE_PROGRESS)
    new, report = clean_messages(messages)
    assert report.display == "no terminal"
    expected = clean(WIDE_PROGRESS, terminal=False)
    assert new[0]["content"] == (expected.text if expected.applied else WIDE_PROGRESS)
    assert [o.reason for o in report.outputs] == [expected.reason]


def test_a_harness_that_knows_the_terminal_passes_its_size() -> None:
    """At 80 columns the first frame wrapped: its first row stays, which no terminal never shows."""
    messages = _one_tool_output(WIDE_PROGRESS)
    new, report = clean_messages(messages, columns=80, rows=24)
    assert report.display == "terminal 80x24"
    sized = clean(WIDE_PROGRESS, columns=80, rows=24)
    assert sized.applied and new[0]["content"] == sized.text
    assert new[0]["content"] != clean_messages(messages)[0][0]["content"]
    _, unknown = clean_messages(messages, terminal=True)
    assert unknown.display == "terminal of unknown size"
    _, fresh = clean_messages(messages, columns=100, rows=30, fresh=True)
    assert fresh.display == "new terminal 100x30"
    with pytest.raises(ValueError, match="no columns or rows"):
        clean_messages(messages, columns=80, rows=24, terminal=False)
