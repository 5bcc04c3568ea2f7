"""A scripted stand-in for the Anthropic Messages API, for running the real Claude Code headless.

It listens on 127.0.0.1 only (a free port). The prompt names the case and the command: a user message
holding ``CASE <id> RUN <base64 of the command>`` (or ``CASE <id> CALL <tool> <base64 of its JSON
input>``). The first turn of a conversation that offers the tool is answered with one ``tool_use`` of
Bash running that command (or of that tool); the turn that brings its
``tool_result`` back is recorded (by case id) and answered with a short text, which ends the run. Any
other request (a title, a side query) gets a short text. Answers stream as server-sent events when the
request asks for ``stream`` and come as one JSON body otherwise.

A background command, read while it runs (Claude Code 2.1.332): the prompt ``CASE <id> BACKGROUND <base64
of the command> GATE <base64 of a path>`` has the model run the command with ``run_in_background``. Its
result names the file the host writes the command's output to; once that file holds a line end the model
reads it (``Read``), then the mock creates the gate file, which the command waits for, and ends the
turn. When the host's notification that the command ended arrives, the model reads the file again, and
the run ends. ``background(case)`` is every tool result of that conversation in order, then the notification.

Bounded: it serves at most ``max_requests`` requests, reads bodies of at most 8 MiB, and stops by itself
``lifetime`` seconds after it starts (a daemon thread, so it never outlives the test process either).
"""

from __future__ import annotations

import base64
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

_PROMPT = re.compile(r"CASE (\S+) (?:RUN (\S+)|CALL (\S+) (\S+))")
_BACKGROUND = re.compile(r"CASE (\S+) BACKGROUND (\S+) GATE (\S+)")
_OUTPUT_FILE = re.compile(r"Output is being written to: (\S+?\.output)")
_NOTIFICATION = "<task-notification>"
_MAX_BODY = 8 << 20
#: How long the model waits for a background command's first line (seconds).
_FIRST_LINE_WAIT = 60.0


@dataclass
class ToolResult:
    """One ``tool_result`` block as Claude Code sent it to the model."""

    case: str
    text: str
    is_error: bool


@dataclass
class _State:
    results: dict[str, list[ToolResult]] = field(default_factory=dict)
    requests: int = 0
    background: dict[str, list[ToolResult]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(block.get("text", "") for block in content if isinstance(block, dict))
    return ""


def _case_of(messages: list[Any]) -> tuple[str, str, dict[str, Any]] | None:
    """The case id, the tool to call and its input, from the prompt."""
    for message in messages:
        if message.get("role") != "user":
            continue
        match = _PROMPT.search(_text_of(message.get("content")))
        if match and match.group(2):
            command = base64.b64decode(match.group(2)).decode()
            return match.group(1), "Bash", {"command": command, "description": "run it"}
        if match:
            return match.group(1), match.group(3), json.loads(base64.b64decode(match.group(4)))
    return None


def _tool_results(case: str, messages: list[Any]) -> list[ToolResult]:
    found = []
    for message in messages:
        content = message.get("content")
        if message.get("role") != "user" or not isinstance(content, list):
            continue
        for block in content:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                found.append(ToolResult(case, _text_of(block.get("content")), bool(block.get("is_error"))))
    return found


def _background_case(messages: list[Any]) -> tuple[str, str, str] | None:
    """The case id, the command and the gate's path of a background prompt."""
    for message in messages:
        match = _BACKGROUND.search(_text_of(message.get("content"))) if message.get("role") == "user" else None
        if match:
            command, gate = (base64.b64decode(match.group(n)).decode() for n in (2, 3))
            return match.group(1), command, gate
    return None


def _background_turn(case: str, command: str, gate: str, messages: list[Any]) -> tuple[list[ToolResult], Any]:
    """What the conversation brought back so far, and the next ``tool_use`` (None: a text ends the turn)."""
    results = _tool_results(case, messages)
    notices = [block["text"] for message in messages if message.get("role") == "user"
               and isinstance(message.get("content"), list) for block in message["content"]
               if isinstance(block, dict) and block.get("type") == "text" and _NOTIFICATION in block.get("text", "")]
    notified = bool(notices)
    results.extend(ToolResult(case, notice, False) for notice in notices[:1])
    output = _OUTPUT_FILE.search(results[0].text) if results else None
    if not results:
        return results, {"name": "Bash", "input": {"command": command, "description": "run it",
                                                   "run_in_background": True}}
    if output is None:  # refused, or it ran in the foreground after all
        return results, None
    if len(results) == 1:
        path = Path(output.group(1))
        deadline = time.monotonic() + _FIRST_LINE_WAIT
        while time.monotonic() < deadline and b"\n" not in (path.read_bytes() if path.exists() else b""):
            time.sleep(0.05)
        return results, {"name": "Read", "input": {"file_path": str(path)}}
    if len(results) == 2:
        Path(gate).touch()  # the command goes on
        return results, None
    if notified and len(results) == 3:
        return results, {"name": "Read", "input": {"file_path": output.group(1)}}
    return results, None


def _message(model: str, content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
    return {"id": "msg_mock", "type": "message", "role": "assistant", "model": model, "content": content,
            "stop_reason": stop, "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 10}}


def _events(message: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    start = {**message, "content": [], "stop_reason": None}
    events: list[tuple[str, dict[str, Any]]] = [("message_start", {"type": "message_start", "message": start})]
    for index, block in enumerate(message["content"]):
        if block["type"] == "tool_use":
            events.append(("content_block_start", {"type": "content_block_start", "index": index,
                                                   "content_block": {**block, "input": {}}}))
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            events.append(("content_block_start", {"type": "content_block_start", "index": index,
                                                   "content_block": {"type": "text", "text": ""}}))
            delta = {"type": "text_delta", "text": block["text"]}
        events.append(("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}))
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    events.append(("message_delta", {"type": "message_delta",
                                     "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                                     "usage": {"output_tokens": 10}}))
    events.append(("message_stop", {"type": "message_stop"}))
    return events


class MockAnthropic:
    """The server; ``url`` is its base URL, ``results(case)`` the tool results recorded for a case."""

    def __init__(self, *, max_requests: int = 2000, lifetime: float = 600.0) -> None:
        self._state = _State()
        state = self._state
        limit = max_requests

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
                pass

            def _send(self, status: int, body: bytes, kind: str = "application/json") -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:  # noqa: N802 (the base class's name)
                self._send(404, b'{"type":"error","error":{"type":"not_found_error","message":"mock"}}')

            def do_HEAD(self) -> None:  # noqa: N802
                self._send(200, b"")

            def do_POST(self) -> None:  # noqa: N802
                with state.lock:
                    state.requests += 1
                    over = state.requests > limit
                length = int(self.headers.get("Content-Length") or 0)
                if over or length > _MAX_BODY:
                    self._send(529, b'{"type":"error","error":{"type":"overloaded_error","message":"mock"}}')
                    return
                try:
                    request = json.loads(self.rfile.read(length))
                except ValueError:
                    self._send(400, b'{"type":"error","error":{"type":"invalid_request_error","message":"mock"}}')
                    return
                if "count_tokens" in self.path:
                    self._send(200, b'{"input_tokens": 10}')
                    return
                self._answer(request)

            def _answer(self, request: dict[str, Any]) -> None:
                model = str(request.get("model", "mock"))
                messages = request.get("messages") or []
                case = _case_of(messages)
                tools = [tool.get("name") for tool in request.get("tools") or [] if isinstance(tool, dict)]
                background = _background_case(messages) if "Bash" in tools else None
                if background is not None:
                    results, call = _background_turn(*background, messages)
                    with state.lock:
                        state.background[background[0]] = results
                    turn = len(results)
                    message = (_message(model, [{"type": "text", "text": "waiting"}], "end_turn") if call is None
                               else _message(model, [{"type": "tool_use", "id": f"toolu_{background[0]}_{turn}",
                                                      **call}], "tool_use"))
                elif case is not None and case[1] in tools:
                    results = _tool_results(case[0], messages)
                    if results:
                        with state.lock:
                            state.results.setdefault(case[0], []).extend(results)
                        message = _message(model, [{"type": "text", "text": "done"}], "end_turn")
                    else:
                        message = _message(model, [{"type": "tool_use", "id": f"toolu_{case[0]}", "name": case[1],
                                                    "input": case[2]}], "tool_use")
                else:
                    message = _message(model, [{"type": "text", "text": "ok"}], "end_turn")
                if not request.get("stream"):
                    self._send(200, json.dumps(message).encode())
                    return
                body = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in _events(message))
                self._send(200, body.encode(), "text/event-stream")

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._timer = threading.Timer(lifetime, self.stop)
        self._timer.daemon = True

    def start(self) -> MockAnthropic:
        self._thread.start()
        self._timer.start()
        return self

    def stop(self) -> None:
        self._timer.cancel()
        self._server.shutdown()
        self._server.server_close()

    def background(self, case: str) -> list[ToolResult]:
        with self._state.lock:
            return list(self._state.background.get(case, []))

    def results(self, case: str) -> list[ToolResult]:
        with self._state.lock:
            return list(self._state.results.get(case, []))


def prompt(case: str, command: str) -> str:
    """The prompt that has the mock run the Bash ``command`` for ``case``."""
    return f"CASE {case} RUN {base64.b64encode(command.encode()).decode()}"


def background_prompt(case: str, command: str, gate: str) -> str:
    """The prompt that has the mock run ``command`` in the background and read it while it waits for ``gate``."""
    encoded = (base64.b64encode(text.encode()).decode() for text in (command, gate))
    return f"CASE {case} BACKGROUND {next(encoded)} GATE {next(encoded)}"


def call_prompt(case: str, tool: str, tool_input: dict[str, Any]) -> str:
    """The prompt that has the mock call ``tool`` (an MCP tool, say) with ``tool_input`` for ``case``."""
    return f"CASE {case} CALL {tool} {base64.b64encode(json.dumps(tool_input).encode()).decode()}"
