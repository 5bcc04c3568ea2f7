"""The LiteLLM proxy hook, driven through LiteLLM's own proxy hook machinery (ProxyLogging.pre_call_hook).

LiteLLM's proxy is large (hundreds of MB with its extras), so it is not in the ``test`` extra: .ci/run
installs ``.[litellm]`` plus ``litellm[proxy]`` in a venv of its own and runs this file there.
"""

from __future__ import annotations

import asyncio
import copy
import http.server
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
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


def _readme_config() -> str:
    """The LiteLLM config.yaml of docs/integration.md, as written."""
    readme = (Path(__file__).resolve().parent.parent / "docs" / "integration.md").read_text(encoding="utf-8")
    blocks = readme.split("```yaml\n")[1:]
    config = next(block.split("```")[0] for block in blocks if CONFIG_LINE in block)
    assert "general_settings:" in config and "master_key:" in config
    return config


class _Upstream(http.server.BaseHTTPRequestHandler):
    """A stand-in for the model's API on 127.0.0.1: records each request, answers one chat completion."""

    received: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _Upstream.received.append(body)
        answer = json.dumps({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": body.get("model", "gpt-4o"),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args: object) -> None:
        pass


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(url: str, key: str, body: dict) -> tuple[int, dict]:
    request = urllib.request.Request(url, json.dumps(body).encode(), method="POST", headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {key}"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, {"error": error.read().decode(errors="replace")}


def test_the_readme_config_runs_a_real_proxy_that_cleans(tmp_path: Path) -> None:
    """docs/integration.md's config.yaml as written, in a real ``litellm`` proxy process on 127.0.0.1 (offline,
    as the docs say: LITELLM_LOCAL_MODEL_COST_MAP=True), its model pointed at a local stand-in."""
    executable = shutil.which("litellm", path=str(Path(sys.executable).parent)) or shutil.which("litellm")
    if executable is None:
        pytest.skip("the litellm command (litellm[proxy]) is not installed")
    (tmp_path / "config.yaml").write_text(_readme_config())
    upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Upstream)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    port, key = _free_port(), "sk-" + secrets.token_hex(24)
    env = dict(os.environ, LITELLM_MASTER_KEY=key, LITELLM_LOCAL_MODEL_COST_MAP="True",
               OPENAI_API_KEY="sk-upstream", OPENAI_API_BASE=f"http://127.0.0.1:{upstream.server_port}/v1",
               NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost")
    log = (tmp_path / "proxy.log").open("wb")
    proxy = subprocess.Popen([executable, "--config", "config.yaml", "--host", "127.0.0.1", "--port", str(port)],
                             cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proxy.poll() is None, (tmp_path / "proxy.log").read_text(errors="replace")[-3000:]
            assert time.monotonic() < deadline, "the proxy did not come up in 120 s"
            try:
                with urllib.request.urlopen(f"{base}/health/liveliness", timeout=5) as response:
                    if response.status == 200:
                        break
            except OSError:
                time.sleep(0.5)
        noisy = _capture("grep_color")
        messages = [
            {"role": "user", "content": "search"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "sh", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": noisy},
        ]
        status, _ = _post(f"{base}/v1/chat/completions", "sk-not-the-key", {"model": "gpt-4o", "messages": messages})
        assert status in (400, 401, 403) and not _Upstream.received  # the master key guards the proxy
        status, answer = _post(f"{base}/v1/chat/completions", key, {"model": "gpt-4o", "messages": messages})
        assert status == 200, answer
        assert answer["choices"][0]["message"]["content"] == "ok"
        sent = _Upstream.received[-1]["messages"]
        assert sent[2]["content"] == clean(noisy).text != noisy  # what reached the model was cleaned
        assert sent[0]["content"] == "search"
    finally:
        proxy.terminate()
        try:
            proxy.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proxy.kill()
            proxy.wait()
        log.close()
        upstream.shutdown()


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
