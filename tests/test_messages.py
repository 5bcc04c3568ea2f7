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
