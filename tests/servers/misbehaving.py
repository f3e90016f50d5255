"""A stdio MCP server that misbehaves on purpose, for testing the inspector (stdlib only).

Run as ``python tests/servers/misbehaving.py --mode MODE[,MODE...] [--count N] [--size BYTES]``.

It reads newline-delimited JSON-RPC on stdin and, apart from the selected misbehaviour, behaves sanely:
``initialize`` echoes the client's protocolVersion when it is one of 2024-11-05, 2025-03-26, 2025-06-18,
2025-11-25 (otherwise answers 2025-11-25) and declares tools/resources/prompts/logging, serverInfo name
"misbehaving"; notifications are ignored; ``tools/list`` lists one tool ``t`` (object schema with a string
``text``); ``tools/call`` echoes the ``text`` argument; ``ping`` -> {}; ``resources/list``,
``resources/templates/list`` and ``prompts/list`` are empty; ``logging/setLevel`` -> {}; anything else is
-32601. It exits cleanly on stdin EOF and never runs longer than ``--max-lifetime`` seconds (default 600).

Modes (``--mode none`` or no ``--mode`` behaves well):

=========================  ==========================================================================
banner                     prints "Server starting..." (not JSON) on stdout before anything else
invalid-utf8               on tools/call: first a line of invalid UTF-8 bytes, then the normal answer
result-and-error           on tools/call: a response with both "result" and "error"
unknown-id                 on tools/call: first a response to an id nobody asked for, then the answer
duplicate-id               on tools/call: the answer twice (the second with different content)
id-type                    on tools/call: the id's type changed (3 -> "3", "7" -> 7, "a" -> "a-x")
invalid-tools-list         tools/list: entries missing name/inputSchema, inputSchema not an object
undeclared-sampling        on tools/call: sends sampling/createMessage (valid params), waits for the
                           client's answer and reports it (result or error JSON) in the tool result text
unknown-method-request     on tools/call: sends request "foo/bar", waits for the answer, reports it
flood                      on tools/call: --count (default 100000) notifications/message first
big-result                 on tools/call: one text content of --size bytes (default 50 MiB) on one line
deep-json                  on tools/call: a result holding JSON nested 200000 levels deep
crash                      on tools/call: "fatal: something broke" on stderr, exit status 3, no answer
silent                     never answers tools/call (keeps running and reading)
close-stdout               on tools/call: closes stdout (fd 1) but keeps running until stdin EOF
                           (at most 60 s)
batch                      on tools/call: the answer wrapped in a JSON array
bad-jsonrpc                on tools/call: the answer says "jsonrpc": "1.0"
notify-before-init         a notifications/message before the initialize answer
slow-init                  never answers initialize
ignore-discover            never answers server/discover (a legacy server that drops what comes before
                           initialize; every other mode answers it -32601 like any unknown method)
bad-version                initialize answers protocolVersion "1999-01-01"
sampling-then-cancel       on tools/call: sends sampling/createMessage, withdraws it with
                           notifications/cancelled after 0.5 s, then answers the call
elicit-alias               on tools/call: sends the non-standard "elicitation/request" (form mode, one
                           string field "name" with a default), waits for the answer, reports it
url-elicitation            on tools/call: sends elicitation/create in URL mode (elicitationId "el-1",
                           https://auth.example.com/consent), waits for the answer, sends
                           notifications/elicitation/complete when it was accepted, reports the answer
url-elicitation-required   on tools/call: answers with error -32042 carrying one URL elicitation
unknown-notification       on tools/call: first a notification "notifications/vendor/custom"
escapes                    every string the client may print carries terminal attacks (ESC sequences:
                           OSC title, clear screen, hidden text; C1 controls, DEL, bidi overrides):
                           serverInfo, a second tool ``evil`` (name, description, property), resources,
                           prompts, results; tools/call of an unknown tool answers an error whose message
                           has them; tools/call with text "crash" writes them on stderr and exits 3
lone-surrogate             tools/list descriptions, tool results and error messages hold lone surrogates
                           (JSON escapes "\\ud800", "\\udc80": valid JSON, not encodable as UTF-8)
=========================  ==========================================================================
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, NoReturn

MODES = (
    "banner",
    "invalid-utf8",
    "result-and-error",
    "unknown-id",
    "duplicate-id",
    "id-type",
    "invalid-tools-list",
    "undeclared-sampling",
    "unknown-method-request",
    "flood",
    "big-result",
    "deep-json",
    "crash",
    "silent",
    "close-stdout",
    "batch",
    "bad-jsonrpc",
    "notify-before-init",
    "slow-init",
    "ignore-discover",
    "bad-version",
    "sampling-then-cancel",
    "elicit-alias",
    "url-elicitation",
    "url-elicitation-required",
    "unknown-notification",
    "escapes",
    "lone-surrogate",
)
SUPPORTED_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
LATEST_VERSION = "2025-11-25"
DEEP_LEVELS = 200_000
FLOOD_BATCH = 5_000
CLOSE_STDOUT_MAX_SECONDS = 60.0
URL_ELICITATION = {
    "mode": "url",
    "message": "Sign in to Example to let the server read your calendar.",
    "url": "https://auth.example.com/consent?client=misbehaving",
    "elicitationId": "el-1",
}

EVIL = "\x1b]0;pwned\x07\x1b[2J\x1b[H\x1b[8mhidden\x1b[0m\x9b31m\x7f\u202egnp.exe\x07"
"""Terminal attacks: an OSC window title, clear screen + home, concealed text, a C1 CSI, DEL, a bidi override."""
SURROGATE = "\ud800"

TOOL = {
    "name": "t",
    "description": "Echoes its text argument.",
    "inputSchema": {
        "type": "object",
        "properties": {"text": {"type": "string", "description": "what to echo"}},
    },
}


def _exit_now(status: int) -> NoReturn:
    """Leave immediately (no interpreter teardown, which would trip over a closed stdout)."""
    try:
        sys.stderr.flush()
    finally:
        os._exit(status)


def _watchdog(seconds: float, status: int) -> None:
    def run() -> None:
        time.sleep(seconds)
        _exit_now(status)

    threading.Thread(target=run, name="watchdog", daemon=True).start()


class Server:
    def __init__(self, modes: set[str], count: int, size: int) -> None:
        self.modes = modes
        self.count = count
        self.size = size
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer
        self.stdout_closed = False
        self.next_server_id = 0

    # -------------------------------------------------------------- I/O

    def write(self, data: bytes) -> None:
        if self.stdout_closed:
            return
        try:
            self.stdout.write(data)
            self.stdout.flush()
        except (BrokenPipeError, OSError, ValueError):
            # The client is gone; stdin EOF will follow.
            self.stdout_closed = True

    def send(self, message: Any) -> None:
        self.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    def read_message(self) -> Any | None:
        """The next JSON value from stdin, or None at EOF. Parse errors are answered and skipped."""
        while True:
            line = self.stdin.readline()
            if not line:
                return None
            if not line.strip():
                continue
            try:
                return json.loads(line)
            except ValueError as exc:
                error = {"code": -32700, "message": f"Parse error: {exc}"}
                self.send({"jsonrpc": "2.0", "id": None, "error": error})

    # -------------------------------------------------------------- main loop

    def run(self) -> int:
        if "banner" in self.modes:
            self.write(b"Server starting...\n")
        while True:
            msg = self.read_message()
            if msg is None:
                return 0
            self.dispatch(msg)

    def dispatch(self, msg: Any) -> None:
        if isinstance(msg, list):  # a client batch: answer each request in turn
            for item in msg:
                self.dispatch(item)
            return
        if not isinstance(msg, dict):
            self.send({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}})
            return
        method = msg.get("method")
        if not isinstance(method, str):
            return  # a response (to nothing we are waiting for) or junk: ignore
        if "id" not in msg:
            return  # notifications (initialized, cancelled, ...) are never answered
        req_id = msg["id"]
        raw_params = msg.get("params")
        params: dict[str, Any] = raw_params if isinstance(raw_params, dict) else {}
        handlers: dict[str, Callable[[Any, dict[str, Any]], None]] = {
            "initialize": self.on_initialize,
            "ping": self.on_empty,
            "logging/setLevel": self.on_empty,
            "tools/list": self.on_tools_list,
            "tools/call": self.on_tools_call,
            "resources/list": self.on_resources_list,
            "resources/templates/list": self.on_templates_list,
            "prompts/list": self.on_prompts_list,
        }
        if method == "server/discover" and "ignore-discover" in self.modes:
            return
        handler = handlers.get(method)
        if handler is None:
            error = {"code": -32601, "message": f"Method not found: {method}"}
            self.send({"jsonrpc": "2.0", "id": req_id, "error": error})
            return
        handler(req_id, params)

    def reply(self, req_id: Any, result: Any) -> None:
        self.send({"jsonrpc": "2.0", "id": req_id, "result": result})

    def server_request(self, method: str, params: dict[str, Any]) -> Any:
        """Send a request to the client and wait for its response (other messages are handled meanwhile)."""
        self.next_server_id += 1
        sid = f"srv-{self.next_server_id}"
        self.send({"jsonrpc": "2.0", "id": sid, "method": method, "params": params})
        while True:
            msg = self.read_message()
            if msg is None:
                _exit_now(0)
            if isinstance(msg, dict) and "method" not in msg and msg.get("id") == sid:
                return msg
            self.dispatch(msg)

    def log_line(self, text: str) -> bytes:
        params = {"level": "info", "logger": "misbehaving", "data": text}
        return json.dumps({"jsonrpc": "2.0", "method": "notifications/message", "params": params}).encode() + b"\n"

    # -------------------------------------------------------------- handlers

    def on_initialize(self, req_id: Any, params: dict[str, Any]) -> None:
        if "notify-before-init" in self.modes:
            self.write(self.log_line("notification before initialize was answered"))
        if "slow-init" in self.modes:
            return
        requested = params.get("protocolVersion")
        version = requested if requested in SUPPORTED_VERSIONS else LATEST_VERSION
        if "bad-version" in self.modes:
            version = "1999-01-01"
        self.reply(
            req_id,
            {
                "protocolVersion": version,
                "capabilities": {
                    "tools": {"listChanged": False},
                    "resources": {"subscribe": False, "listChanged": False},
                    "prompts": {"listChanged": False},
                    "logging": {},
                },
                "serverInfo": {
                    "name": "misbehaving" + (EVIL if "escapes" in self.modes else ""),
                    "version": "0.1.0",
                },
                "instructions": "A server that misbehaves on purpose: " + (",".join(sorted(self.modes)) or "none"),
            },
        )

    def on_empty(self, req_id: Any, params: dict[str, Any]) -> None:
        self.reply(req_id, {})

    def on_resources_list(self, req_id: Any, params: dict[str, Any]) -> None:
        if "escapes" in self.modes:
            resource = {"uri": f"file:///{EVIL}", "name": f"r{EVIL}", "mimeType": f"text/plain{EVIL}"}
            self.reply(req_id, {"resources": [{**resource, "description": f"about {EVIL}"}]})
            return
        self.reply(req_id, {"resources": []})

    def on_templates_list(self, req_id: Any, params: dict[str, Any]) -> None:
        self.reply(req_id, {"resourceTemplates": []})

    def on_prompts_list(self, req_id: Any, params: dict[str, Any]) -> None:
        if "escapes" in self.modes:
            argument = {"name": f"a{EVIL}", "description": EVIL, "required": False}
            self.reply(req_id, {"prompts": [{"name": f"p{EVIL}", "description": EVIL, "arguments": [argument]}]})
            return
        self.reply(req_id, {"prompts": []})

    def on_tools_list(self, req_id: Any, params: dict[str, Any]) -> None:
        if "invalid-tools-list" in self.modes:
            tools: list[Any] = [
                {"description": "a tool without a name or an inputSchema"},
                {"name": "schema-not-object", "inputSchema": "not an object"},
                {"name": "no-schema"},
                {"name": 42, "inputSchema": {"type": "object"}},
            ]
            self.reply(req_id, {"tools": tools})
            return
        if "escapes" in self.modes:
            evil = {
                "name": f"evil{EVIL}",
                "description": f"{EVIL} and more",
                "inputSchema": {
                    "type": "object",
                    "properties": {f"x{EVIL}": {"type": "string", "description": EVIL, "enum": [EVIL]}},
                },
            }
            self.reply(req_id, {"tools": [TOOL, evil]})
            return
        if "lone-surrogate" in self.modes:
            self.reply(req_id, {"tools": [{**TOOL, "description": f"odd {SURROGATE} \udc80"}]})
            return
        self.reply(req_id, {"tools": [TOOL]})

    def text_result(self, text: str) -> dict[str, Any]:
        return {"content": [{"type": "text", "text": text}], "isError": False}

    def on_tools_call(self, req_id: Any, params: dict[str, Any]) -> None:
        modes = self.modes
        arguments = params.get("arguments")
        text = str(arguments.get("text", "")) if isinstance(arguments, dict) else ""
        result: dict[str, Any] = self.text_result(f"echo: {text}")

        if ("escapes" in modes or "lone-surrogate" in modes) and params.get("name") != "t":
            spoiled = EVIL if "escapes" in modes else SURROGATE
            error = {"code": -32602, "message": f"Unknown tool {params.get('name')!r}{spoiled}", "data": spoiled}
            self.send({"jsonrpc": "2.0", "id": req_id, "error": error})
            return
        if "escapes" in modes:
            if text == "crash":
                sys.stderr.write(f"fatal: {EVIL} broke\n")
                sys.stderr.flush()
                _exit_now(3)
            result = self.text_result(f"echo: {text} {EVIL}")
            result["content"].append({"type": "resource_link", "uri": f"file:///{EVIL}", "name": EVIL})
            result["structuredContent"] = {"evil": EVIL}
        if "lone-surrogate" in modes:
            result = self.text_result(f"echo: {text} {SURROGATE}")
            result["structuredContent"] = {"bad": SURROGATE}
        if "crash" in modes:
            sys.stderr.write("fatal: something broke\n")
            sys.stderr.flush()
            _exit_now(3)
        if "silent" in modes:
            return
        if "close-stdout" in modes:
            self.stdout.flush()
            os.close(1)
            self.stdout_closed = True
            _watchdog(CLOSE_STDOUT_MAX_SECONDS, 0)
            while self.stdin.readline():
                pass
            _exit_now(0)
        if "invalid-utf8" in modes:
            self.write(b"\xff\xfe not utf-8 \xc3\x28 \xa0\xa1\n")
        if "unknown-id" in modes:
            self.reply("no-such-request-987654", self.text_result("an answer to a request nobody sent"))
        if "flood" in modes:
            self.flood(self.count)
        if "undeclared-sampling" in modes:
            answer = self.server_request(
                "sampling/createMessage",
                {
                    "messages": [{"role": "user", "content": {"type": "text", "text": "Say hi"}}],
                    "maxTokens": 16,
                },
            )
            result = self.text_result("sampling/createMessage answer: " + self.summarize(answer))
        if "unknown-method-request" in modes:
            answer = self.server_request("foo/bar", {})
            result = self.text_result("foo/bar answer: " + self.summarize(answer))
        if "unknown-notification" in modes:
            self.send({"jsonrpc": "2.0", "method": "notifications/vendor/custom", "params": {"hello": "world"}})
        if "sampling-then-cancel" in modes:
            self.next_server_id += 1
            sid = f"srv-{self.next_server_id}"
            messages = [{"role": "user", "content": {"type": "text", "text": "Never mind"}}]
            request = {"messages": messages, "maxTokens": 16}
            self.send({"jsonrpc": "2.0", "id": sid, "method": "sampling/createMessage", "params": request})
            time.sleep(0.5)
            cancel = {"requestId": sid, "reason": "the server changed its mind"}
            self.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel})
            result = self.text_result(f"sampling request {sid} withdrawn")
        if "elicit-alias" in modes:
            schema = {"type": "object", "properties": {"name": {"type": "string", "default": "Grace"}}}
            answer = self.server_request("elicitation/request", {"message": "Your name?", "requestedSchema": schema})
            result = self.text_result("elicitation/request answer: " + self.summarize(answer))
        if "url-elicitation" in modes:
            answer = self.server_request("elicitation/create", dict(URL_ELICITATION))
            accepted = isinstance(answer, dict) and (answer.get("result") or {}).get("action") == "accept"
            if accepted:
                done = {"elicitationId": URL_ELICITATION["elicitationId"]}
                self.send({"jsonrpc": "2.0", "method": "notifications/elicitation/complete", "params": done})
            result = self.text_result("url elicitation answer: " + self.summarize(answer))
        if "url-elicitation-required" in modes:
            data = {"elicitations": [URL_ELICITATION]}
            error = {"code": -32042, "message": "This request needs you to sign in first.", "data": data}
            self.send({"jsonrpc": "2.0", "id": req_id, "error": error})
            return
        if "big-result" in modes:
            self.write(
                b'{"jsonrpc":"2.0","id":'
                + json.dumps(req_id).encode()
                + b',"result":{"content":[{"type":"text","text":"'
                + b"x" * self.size
                + b'"}],"isError":false}}\n'
            )
            return
        if "deep-json" in modes:
            self.write(
                b'{"jsonrpc":"2.0","id":'
                + json.dumps(req_id).encode()
                + b',"result":{"content":[{"type":"text","text":"x"}],"deep":'
                + b"[" * DEEP_LEVELS
                + b"]" * DEEP_LEVELS
                + b"}}\n"
            )
            return

        response: dict[str, Any] = {"jsonrpc": "2.0", "id": req_id, "result": result}
        if "id-type" in modes:
            response["id"] = self.other_id_type(req_id)
        if "bad-jsonrpc" in modes:
            response["jsonrpc"] = "1.0"
        if "result-and-error" in modes:
            response["error"] = {"code": -32603, "message": "an error next to a result"}
        if "batch" in modes:
            self.send([response])
        else:
            self.send(response)
        if "duplicate-id" in modes:
            self.send({**response, "result": self.text_result(f"second answer: {text}")})

    # -------------------------------------------------------------- helpers

    def flood(self, count: int) -> None:
        head = b'{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"'
        tail = b'"}}\n'
        for start in range(0, count, FLOOD_BATCH):
            stop = min(count, start + FLOOD_BATCH)
            self.write(b"".join(head + b"message %d" % i + tail for i in range(start, stop)))
            if self.stdout_closed:
                return

    @staticmethod
    def summarize(answer: Any) -> str:
        if isinstance(answer, dict) and "error" in answer:
            return "error " + json.dumps(answer["error"], sort_keys=True)
        if isinstance(answer, dict) and "result" in answer:
            return "result " + json.dumps(answer["result"], sort_keys=True)
        return "unexpected " + json.dumps(answer, sort_keys=True)

    @staticmethod
    def other_id_type(req_id: Any) -> Any:
        if isinstance(req_id, bool):
            return str(req_id).lower()
        if isinstance(req_id, int):
            return str(req_id)
        if isinstance(req_id, str) and req_id.isdigit():
            return int(req_id)
        return f"{req_id}-x"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="A stdio MCP server that misbehaves on purpose.")
    parser.add_argument("--mode", default="", help="comma-separated misbehaviours: " + ", ".join(MODES))
    parser.add_argument("--count", type=int, default=100_000, help="notifications sent by the flood mode")
    parser.add_argument("--size", type=int, default=50 * 1024 * 1024, help="text size for the big-result mode")
    parser.add_argument("--max-lifetime", type=float, default=600.0, help="exit after this many seconds anyway")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    modes = {m.strip() for m in args.mode.split(",") if m.strip() and m.strip() != "none"}
    unknown = sorted(modes - set(MODES))
    if unknown:
        sys.stderr.write(f"unknown mode(s): {', '.join(unknown)}; known: {', '.join(MODES)}\n")
        return 2
    if args.max_lifetime > 0:
        _watchdog(args.max_lifetime, 0)
    server = Server(modes, max(0, args.count), max(0, args.size))
    status = server.run()
    if server.stdout_closed:
        _exit_now(status)  # nothing can be flushed to a closed stdout; skip the teardown that would try
    return status


if __name__ == "__main__":
    sys.exit(main())
