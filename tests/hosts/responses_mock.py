"""A scripted OpenAI Responses API on 127.0.0.1, for running Codex headless in tests.

The first turn answers with one function call that runs a given shell command through the shell tool
Codex offers in its request (``exec_command`` with ``cmd`` in Codex 0.171; ``shell_command`` and
``shell`` as older versions named it); every later turn answers with a short assistant message. With
``poll_arguments``, a turn whose last output says the command still runs ("Process running with session
ID N", Codex's unified exec past ``yield_time_ms``) polls it instead: ``write_stdin`` with that
``session_id`` and empty ``chars``, until the output says it exited. Every
request body is kept, so a test reads exactly what the model was sent back: the ``function_call_output``
of that call.

Bounded: it answers at most ``max_requests`` requests (later ones get HTTP 400, which Codex does not
retry) and shuts itself down after ``lifetime`` seconds even if nobody stops it.

Run by hand: ``python tests/hosts/responses_mock.py -- 'ls -la'`` prints its ``base_url``, serves until Ctrl-C
or ``--lifetime``, then prints what came back.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CALL_ID = "call_textclean_1"
#: Shell tools by name, and how each takes a command line.
SHELL_TOOLS: dict[str, Any] = {
    "exec_command": lambda command: {"cmd": command},
    "shell_command": lambda command: {"command": command},
    "shell": lambda command: {"command": ["bash", "-lc", command]},
}
#: What Codex's unified exec says when a command is still running after ``yield_time_ms``.
RUNNING = re.compile(r"Process running with session ID (\d+)")
_USAGE = {"input_tokens": 0, "input_tokens_details": None, "output_tokens": 0,
          "output_tokens_details": None, "total_tokens": 0}


def sse(events: list[dict[str, Any]]) -> bytes:
    """Server-sent events, one per JSON object, named by its ``type``."""
    return "".join(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n" for event in events).encode()


def _response(response_id: str, item: dict[str, Any]) -> bytes:
    return sse([
        {"type": "response.created", "response": {"id": response_id}},
        {"type": "response.output_item.done", "item": item},
        {"type": "response.completed", "response": {"id": response_id, "usage": _USAGE}},
    ])


def tool_names(body: dict[str, Any]) -> list[str]:
    """The names of the function tools a request offers."""
    return [tool["name"] for tool in body.get("tools", []) if isinstance(tool, dict) and "name" in tool]


def call_outputs(body: dict[str, Any], call_id: str = CALL_ID) -> Iterator[str]:
    """The outputs a request carries back for ``call_id`` (as text)."""
    for item in body.get("input", []):
        if isinstance(item, dict) and item.get("type") == "function_call_output" and item.get("call_id") == call_id:
            output = item.get("output")
            if isinstance(output, str):
                yield output
            elif isinstance(output, list):  # content items
                yield "".join(part.get("text", "") for part in output if isinstance(part, dict))
            else:
                yield json.dumps(output)


class ResponsesMock:
    """The mock server; use as a context manager. ``base_url`` goes into Codex's provider config."""

    def __init__(self, command: str, *, extra_arguments: dict[str, Any] | None = None, max_requests: int = 6,
                 lifetime: float = 120.0, poll_arguments: dict[str, Any] | None = None,
                 on_poll: Callable[[], None] | None = None) -> None:
        self.command = command
        self.extra_arguments = extra_arguments or {}
        # Not None: while the last output says the command is still running, the model polls it with
        # ``write_stdin`` (empty ``chars``, these arguments besides), one call per turn.
        self.poll_arguments = poll_arguments
        self.on_poll = on_poll  # called as the model reads a running command's output, before it polls
        self.max_requests = max_requests
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        mock = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                pass

            def do_GET(self) -> None:  # /models and the like: nothing here
                self._send(404, b'{"error": {"message": "not found"}}', "application/json")

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    self._send(400, b'{"error": {"message": "not JSON"}}', "application/json")
                    return
                status, payload = mock._answer(self.path, body)
                self._send(status, payload, "text/event-stream" if status == 200 else "application/json")

            def _send(self, status: int, payload: bytes, content_type: str) -> None:
                self.send_response(status)
                self.send_header("content-type", content_type)
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._timer = threading.Timer(lifetime, self._server.shutdown)
        self._timer.daemon = True

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def _answer(self, path: str, body: dict[str, Any]) -> tuple[int, bytes]:
        with self._lock:
            self.requests.append(body)
            number = len(self.requests)
        if number > self.max_requests or not path.endswith("/responses"):
            return 400, b'{"error": {"message": "the mock answers no more"}}'
        poll = self._poll(body) if self.poll_arguments is not None else None
        if poll is not None:
            return 200, _response(f"resp_{number}", poll)
        if any(True for _ in call_outputs(body)) or number > 1:
            return 200, _response(f"resp_{number}", {
                "type": "message", "role": "assistant", "id": f"msg_{number}",
                "content": [{"type": "output_text", "text": "done"}]})
        names = tool_names(body)
        tool = next((name for name in SHELL_TOOLS if name in names), None)
        if tool is None:
            return 200, _response("resp_1", {
                "type": "message", "role": "assistant", "id": "msg_1",
                "content": [{"type": "output_text", "text": f"no shell tool among {names}"}]})
        arguments = json.dumps({**SHELL_TOOLS[tool](self.command), **self.extra_arguments})
        return 200, _response("resp_1", {"type": "function_call", "call_id": CALL_ID, "name": tool,
                                         "arguments": arguments})

    def _poll(self, body: dict[str, Any]) -> dict[str, Any] | None:
        """The next ``write_stdin`` call when the last call's output says its command still runs."""
        calls = [item for item in body.get("input", [])
                 if isinstance(item, dict) and item.get("type") == "function_call"]
        if not calls:
            return None
        last = calls[-1]["call_id"]
        running = next((RUNNING.search(output) for output in call_outputs(body, last)), None)
        if running is None:
            return None
        if self.on_poll is not None:
            self.on_poll()
        arguments = {"session_id": int(running.group(1)), "chars": "", **(self.poll_arguments or {})}
        return {"type": "function_call", "call_id": f"{CALL_ID}_poll{len(calls)}", "name": "write_stdin",
                "arguments": json.dumps(arguments)}

    @property
    def polls(self) -> list[str]:
        """What the model read from the call and each poll after it, in order (from the last request)."""
        with self._lock:
            body = self.requests[-1] if self.requests else {}
        ids = [item["call_id"] for item in body.get("input", [])
               if isinstance(item, dict) and item.get("type") == "function_call"]
        return [output for call_id in ids for output in call_outputs(body, call_id)]

    @property
    def outputs(self) -> list[str]:
        """What came back for the call, in every request that carried it (the first is what the model read)."""
        with self._lock:
            return [output for body in self.requests for output in call_outputs(body)]

    @property
    def tools(self) -> list[str]:
        with self._lock:
            return tool_names(self.requests[0]) if self.requests else []

    def __enter__(self) -> ResponsesMock:
        self._thread.start()
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def main() -> None:
    import argparse
    import time

    parser = argparse.ArgumentParser(description="Serve a scripted Responses API until Ctrl-C or --lifetime.")
    parser.add_argument("--lifetime", type=float, default=120.0)
    parser.add_argument("command", help="the shell command the first turn runs")
    args = parser.parse_args()
    with ResponsesMock(args.command, lifetime=args.lifetime) as mock:
        print(f"base_url = {mock.base_url!r}", flush=True)
        try:
            deadline = time.monotonic() + args.lifetime
            while time.monotonic() < deadline:
                time.sleep(0.2)
        except KeyboardInterrupt:
            pass
        print(json.dumps(mock.outputs, indent=1))


if __name__ == "__main__":
    main()
