"""A 2026-07-28 server over stdio that never stops asking: every ``tools/call`` and ``prompts/get`` is answered
``resultType: "input_required"``, round after round, with a ``requestState`` that grows by one round each
time (the client must give up at its round limit).

Run as ``python tests/servers/endless_input.py [--ask roots|elicit]``: what each round asks for (``roots``,
the default, is answered by the client without a person; ``elicit`` asks a form elicitation each round). It
speaks only the modern era (``server/discover``; ``initialize`` is refused with -32601), exits on stdin EOF and
never runs longer than ``--max-lifetime`` seconds (default 600). stdlib only.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from typing import Any

VERSION = "2026-07-28"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
TOOL = {
    "name": "loop",
    "description": "Asks for input forever.",
    "inputSchema": {"type": "object", "properties": {}},
}
PROMPT = {"name": "loop_prompt", "description": "Asks for input forever."}
ASKS = {
    "roots": {"method": "roots/list", "params": {}},
    "elicit": {
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": "Once more?",
            "requestedSchema": {"type": "object", "properties": {"again": {"type": "boolean"}}},
        },
    },
}


def _send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def _result(rid: Any, result: dict[str, Any]) -> None:
    _send({"jsonrpc": "2.0", "id": rid, "result": result})


def _error(rid: Any, code: int, message: str) -> None:
    _send({"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}})


def _input_required(params: dict[str, Any], ask: str) -> dict[str, Any]:
    state = params.get("requestState")
    rounds = json.loads(state)["rounds"] + 1 if isinstance(state, str) else 1
    return {
        "resultType": "input_required",
        "inputRequests": {f"ask-{rounds}": ASKS[ask]},
        "requestState": json.dumps({"rounds": rounds, "padding": "x" * 32 * rounds}),
    }


def handle(message: dict[str, Any], ask: str) -> None:
    rid, method = message.get("id"), message.get("method")
    if rid is None or not isinstance(method, str):
        return  # notifications and responses
    raw_params = message.get("params")
    params: dict[str, Any] = raw_params if isinstance(raw_params, dict) else {}
    if method == "server/discover":
        _result(
            rid,
            {
                "resultType": "complete",
                "supportedVersions": [VERSION],
                "capabilities": {"tools": {}, "prompts": {}},
                "instructions": "A server that never stops asking for input.",
                "_meta": {SERVER_INFO_KEY: {"name": "endless-input", "version": "1"}},
            },
        )
    elif method == "tools/list":
        _result(rid, {"resultType": "complete", "tools": [TOOL]})
    elif method == "prompts/list":
        _result(rid, {"resultType": "complete", "prompts": [PROMPT]})
    elif method in ("tools/call", "prompts/get"):
        _result(rid, _input_required(params, ask))
    else:
        _error(rid, -32601, f"Method not found: {method}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ask", choices=sorted(ASKS), default="roots")
    parser.add_argument("--max-lifetime", type=float, default=600.0)
    args = parser.parse_args()

    def watchdog() -> None:
        time.sleep(args.max_lifetime)
        os._exit(2)

    threading.Thread(target=watchdog, daemon=True).start()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict):
            handle(message, args.ask)


if __name__ == "__main__":
    main()
