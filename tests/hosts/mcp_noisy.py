"""A stdio MCP server with one tool, ``emit``, whose text result is terminal noise (colours and ``\\r``
progress); ``{"fail": true}`` returns it as an error result (``isError``). For the host tests: Claude
Code starts it from ``--mcp-config``. Stops when its stdin closes."""

from __future__ import annotations

import json
import sys
from typing import Any

NOISE = "".join(f"\x1b[32mok\x1b[0m item {n} 10%\r100%\n" for n in range(12))
_TOOL = {"name": "emit", "description": "emit noisy text",
         "inputSchema": {"type": "object", "properties": {"fail": {"type": "boolean"}}}}


def _answer(request: dict[str, Any]) -> dict[str, Any] | None:
    method, ident = request.get("method"), request.get("id")
    if ident is None:
        return None  # a notification
    if method == "initialize":
        result: dict[str, Any] = {"protocolVersion": request.get("params", {}).get("protocolVersion", "2025-06-18"),
                                  "capabilities": {"tools": {}}, "serverInfo": {"name": "noisy", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": [_TOOL]}
    elif method == "tools/call":
        fail = bool(request.get("params", {}).get("arguments", {}).get("fail"))
        result = {"content": [{"type": "text", "text": "MCPRAN\n" + NOISE}], "isError": fail}
    else:
        return {"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": f"no method {method}"}}
    return {"jsonrpc": "2.0", "id": ident, "result": result}


def main() -> None:
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError:
            continue
        answer = _answer(request) if isinstance(request, dict) else None
        if answer is not None:
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
