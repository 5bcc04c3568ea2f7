"""The LiteLLM proxy hook, driven through LiteLLM's own proxy hook machinery (ProxyLogging.pre_call_hook).

LiteLLM's proxy is large (hundreds of MB with its extras), so it is not in the ``test`` extra: .ci/run
installs ``.[litellm]`` plus ``litellm[proxy]`` in a venv of its own and runs this file there.
"""

from __future__ import annotations

import asyncio
import copy
import os
from pathlib import Path

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # offline: no fetch of the price list
proxy_utils = pytest.importorskip("litellm.proxy.utils", reason="LiteLLM proxy not installed (.ci/run tests it)")

import litellm  # noqa: E402
from litellm.caching.caching import DualCache  # noqa: E402
from litellm.proxy._types import UserAPIKeyAuth  # noqa: E402
from litellm.proxy.types_utils.utils import get_instance_fn  # noqa: E402

from textclean import clean  # noqa: E402
from textclean.integrations.litellm import TextCleanHook, proxy_handler_instance  # noqa: E402

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CONFIG_LINE = "textclean.integrations.litellm.proxy_handler_instance"


def _capture(name: str) -> str:
    return (FIXTURES / f"{name}.raw").read_bytes().decode("utf-8", "surrogateescape")


def _pre_call(hook: TextCleanHook, data: dict, call_type: str = "completion") -> dict:
    litellm.callbacks = [hook]
    try:
        logging = proxy_utils.ProxyLogging(user_api_key_cache=DualCache())
        return asyncio.run(
            logging.pre_call_hook(user_api_key_dict=UserAPIKeyAuth(api_key="sk-test"), data=data, call_type=call_type)
        )
    finally:
        litellm.callbacks = []


def test_config_yaml_names_the_ready_instance(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(f"litellm_settings:\n  callbacks: {CONFIG_LINE}\n")
    assert get_instance_fn(CONFIG_LINE, config_file_path=str(config)) is proxy_handler_instance


def test_chat_request_tool_outputs_are_cleaned_and_recorded() -> None:
    noisy, plain = _capture("grep_color"), "all tests passed\n"
    messages = [
        {"role": "user", "content": "search"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function",
                                                                 "function": {"name": "sh", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": noisy},
        {"role": "tool", "tool_call_id": "c2", "content": plain},
    ]
    data = {"model": "gpt-4o", "messages": copy.deepcopy(messages), "metadata": {"user_api_key": "x"}}
    out = _pre_call(TextCleanHook(), data)
    assert out["messages"][2]["content"] == clean(noisy).text != noisy
    assert out["messages"][:2] == messages[:2] and out["messages"][3] == messages[3]
    recorded = out["metadata"]["textclean"]
    assert recorded["tool_outputs"] == 2 and recorded["applied"] == 1
    assert recorded["tokens_saved"] == clean(noisy).tokens_saved > 0
    assert recorded["reasons"] == {"below_min_tokens": 1}
    assert out["metadata"]["user_api_key"] == "x"


def test_anthropic_and_responses_requests() -> None:
    noisy = _capture("cr_progress")
    anthropic = {"model": "claude", "messages": [
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": noisy}]},
    ], "litellm_metadata": {}}
    out = _pre_call(TextCleanHook(), anthropic, "anthropic_messages")
    assert out["messages"][0]["content"][0]["content"] == clean(noisy).text
    assert out["litellm_metadata"]["textclean"]["applied"] == 1
    responses = {"model": "gpt-5", "input": [{"type": "function_call_output", "call_id": "c", "output": noisy}]}
    out = _pre_call(TextCleanHook(), responses, "aresponses")
    assert out["input"][0]["output"] == clean(noisy).text
    assert out["metadata"]["textclean"]["applied"] == 1


def test_a_request_without_tool_outputs_is_untouched() -> None:
    data = {"model": "gpt-4o", "messages": [{"role": "user", "content": "\x1b[31mhi\x1b[m" * 100}]}
    before = copy.deepcopy(data)
    assert _pre_call(TextCleanHook(), data) == before


def test_the_hook_cleans_for_no_terminal_unless_told_a_size() -> None:
    """Tool outputs through a proxy came through pipes unless the hook is told of a terminal."""
    wide = "[" + "=" * 120 + ">] 50%\r[" + "=" * 121 + "] 100%\n" + "\x1b[32mok\x1b[0m\n" * 30
    request = {"model": "gpt-4o", "messages": [{"role": "tool", "tool_call_id": "c", "content": wide}]}
    out = _pre_call(TextCleanHook(), copy.deepcopy(request))
    recorded = out["metadata"]["textclean"]
    assert recorded["display"] == "no terminal"
    expected = clean(wide, terminal=False)
    assert out["messages"][0]["content"] == (expected.text if expected.applied else wide)
    sized = _pre_call(TextCleanHook(columns=80, rows=24), copy.deepcopy(request))
    assert sized["metadata"]["textclean"]["display"] == "terminal 80x24"
    assert sized["messages"][0]["content"] == clean(wide, columns=80, rows=24).text
    unknown = _pre_call(TextCleanHook(terminal=True), copy.deepcopy(request))
    assert unknown["metadata"]["textclean"]["display"] == "terminal of unknown size"
    with pytest.raises(ValueError, match="no columns or rows"):
        TextCleanHook(columns=80, rows=24, terminal=False)
