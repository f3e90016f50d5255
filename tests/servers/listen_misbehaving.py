"""A stdio 2026-07-28 server whose ``subscriptions/listen`` misbehaves on purpose (stdlib only).

Run as ``python tests/servers/listen_misbehaving.py --mode MODE[,MODE...]``. It answers ``server/discover``
(2026-07-28 only; tools, prompts and resources with ``listChanged``, resources with ``subscribe``),
``resources/list`` (``keep://a``, ``drop://b``), ``resources/templates/list``, ``tools/list`` and
``prompts/list`` (empty), ``resources/read`` (a line of text) and ``subscriptions/listen``: the stream is
acknowledged with ``notifications/subscriptions/acknowledged`` and stays open until the client cancels it
(``notifications/cancelled``), then it is answered. Anything else is -32601. It exits on stdin EOF and never
runs longer than ``--max-lifetime`` seconds (default 600).

Modes (no ``--mode``: the acknowledgement is what was asked):

==============  ==========================================================================================
ack-less        the acknowledgement leaves out ``resourcesListChanged`` and every URI not starting with
                ``keep://`` (asked, not acknowledged)
ack-more        the acknowledgement adds ``promptsListChanged`` and the URI ``extra://unasked`` to streams
                that did not ask for them (acknowledged, not asked)
end-once        the first listen stream is ended (answered) 1 s after its acknowledgement (the client
                should listen again)
updates         every 0.2 s, ``notifications/resources/updated`` for each acknowledged URI, on its stream
==============  ==========================================================================================
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from typing import Any

MODES = ("ack-less", "ack-more", "end-once", "updates")
VERSION = "2026-07-28"
SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId"
RESOURCES = [
    {"uri": "keep://a", "name": "a", "mimeType": "text/plain"},
    {"uri": "drop://b", "name": "b", "mimeType": "text/plain"},
]


class Server:
    def __init__(self, modes: set[str]) -> None:
        self.modes = modes
        self.lock = threading.Lock()
        self.streams: dict[Any, dict[str, Any]] = {}
        """Open listen streams: request id -> acknowledged filter."""
        self.ended_once = False

    def send(self, message: Any) -> None:
        data = json.dumps(message).encode() + b"\n"
        with self.lock:
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()

    def reply(self, req_id: Any, result: dict[str, Any]) -> None:
        self.send({"jsonrpc": "2.0", "id": req_id, "result": {"resultType": "complete", **result}})

    def run(self) -> int:
        if "updates" in self.modes:
            threading.Thread(target=self.tick, daemon=True).start()
        for line in sys.stdin.buffer:
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if isinstance(msg, dict):
                self.dispatch(msg)
        return 0

    def dispatch(self, msg: dict[str, Any]) -> None:
        method = msg.get("method")
        params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
        assert isinstance(params, dict)
        if method == "notifications/cancelled":
            rid = params.get("requestId")
            with self.lock:
                open_ = self.streams.pop(rid, None)
            if open_ is not None:
                self.reply(rid, {})
            return
        if not isinstance(method, str) or "id" not in msg:
            return
        rid = msg["id"]
        if method == "server/discover":
            caps = {
                "tools": {"listChanged": True},
                "prompts": {"listChanged": True},
                "resources": {"listChanged": True, "subscribe": True},
            }
            self.reply(rid, {"supportedVersions": [VERSION], "capabilities": caps, "instructions": "listen tests"})
        elif method == "resources/list":
            self.reply(rid, {"resources": RESOURCES})
        elif method == "resources/templates/list":
            self.reply(rid, {"resourceTemplates": []})
        elif method == "tools/list":
            self.reply(rid, {"tools": []})
        elif method == "prompts/list":
            self.reply(rid, {"prompts": []})
        elif method == "resources/read":
            uri = params.get("uri")
            self.reply(rid, {"contents": [{"uri": uri, "mimeType": "text/plain", "text": f"{uri} at {time.time()}"}]})
        elif method == "subscriptions/listen":
            self.listen(rid, params)
        else:
            self.send(
                {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": f"Method not found: {method}"}}
            )

    def listen(self, rid: Any, params: dict[str, Any]) -> None:
        asked = params.get("notifications") if isinstance(params.get("notifications"), dict) else {}
        assert isinstance(asked, dict)
        ack = dict(asked)
        if "ack-less" in self.modes:
            ack.pop("resourcesListChanged", None)
            if "resourceSubscriptions" in ack:
                ack["resourceSubscriptions"] = [u for u in ack["resourceSubscriptions"] if u.startswith("keep://")]
        if "ack-more" in self.modes:
            if "promptsListChanged" not in asked:
                ack["promptsListChanged"] = True
            if "resourceSubscriptions" in asked:
                ack["resourceSubscriptions"] = [*ack.get("resourceSubscriptions", []), "extra://unasked"]
        with self.lock:
            self.streams[rid] = ack
        notification = {"_meta": {SUBSCRIPTION_ID: rid}, "notifications": ack}
        self.send({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": notification})
        if "end-once" in self.modes and not self.ended_once:
            self.ended_once = True
            threading.Timer(1.0, self.end, (rid,)).start()

    def end(self, rid: Any) -> None:
        with self.lock:
            open_ = self.streams.pop(rid, None)
        if open_ is not None:
            self.reply(rid, {})

    def tick(self) -> None:
        while True:
            time.sleep(0.2)
            with self.lock:
                streams = list(self.streams.items())
            for rid, ack in streams:
                for uri in ack.get("resourceSubscriptions", []):
                    params = {"_meta": {SUBSCRIPTION_ID: rid}, "uri": uri}
                    self.send({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": params})


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="")
    parser.add_argument("--max-lifetime", type=float, default=600.0)
    args = parser.parse_args()
    modes = {m for m in args.mode.split(",") if m}
    unknown = modes - set(MODES)
    if unknown:
        parser.error(f"unknown mode(s): {', '.join(sorted(unknown))}; known: {', '.join(MODES)}")
    timer = threading.Timer(args.max_lifetime, os._exit, (4,))
    timer.daemon = True
    timer.start()
    return Server(modes).run()


if __name__ == "__main__":
    sys.exit(main())
