"""The engine keeps the tools it drops for an invalid ``x-mcp-header`` (``DiscoverRules.dropped_tools``), so the
window can list them struck through; a later valid listing of the same name takes one out again."""

from __future__ import annotations

import itertools
from typing import Any

from sessionkit import FakeClock, frame, ok

from inspector.protocol.eras import DiscoverRules
from inspector.protocol.events import HandshakeCompleted
from inspector.protocol.session import ClientSession, SessionOffer, new_session
from inspector.protocol.versions import MODERN_VERSION

DISCOVERED = {"resultType": "complete", "supportedVersions": [MODERN_VERSION], "capabilities": {"tools": {}}}
BAD = {"name": "bad", "inputSchema": {"type": "object", "properties": {"n": {"type": "number", "x-mcp-header": "N"}}}}
GOOD = {"name": "good", "inputSchema": {"type": "object", "properties": {"s": {"type": "string", "x-mcp-header": "S"}}}}


def opened(*, http: bool = True) -> ClientSession:
    s = new_session(
        SessionOffer(MODERN_VERSION, {}, {"name": "t", "version": "1"}),
        id_generator=itertools.count(1),
        clock=FakeClock(),
    )
    s.header_rules = http
    rid = s.start()
    s.pop_outgoing()
    rec = s.receive_frame(frame(ok(rid, DISCOVERED)))
    assert any(isinstance(e, HandshakeCompleted) for e in rec.events)
    return s


def listing(s: ClientSession, tools: list[dict[str, Any]]) -> None:
    rid = s.send_request("tools/list")
    s.pop_outgoing()
    s.receive_frame(frame(ok(rid, {"resultType": "complete", "tools": tools})))


def test_a_dropped_tool_is_kept_with_its_definition_and_reason_until_listed_valid() -> None:
    s = opened()
    rules = s.rules
    assert isinstance(rules, DiscoverRules)
    listing(s, [BAD, GOOD])
    [gone] = rules.dropped_tools.values()
    assert gone.name == "bad" and gone.tool == BAD and gone.index == 0
    assert gone.problems and 'type "number"' in gone.problems[0]
    fixed = {
        "name": "bad",
        "inputSchema": {"type": "object", "properties": {"n": {"type": "integer", "x-mcp-header": "N"}}},
    }
    listing(s, [fixed, GOOD])
    assert rules.dropped_tools == {}


def test_nothing_is_dropped_where_headers_do_not_travel() -> None:
    s = opened(http=False)
    listing(s, [BAD])
    assert isinstance(s.rules, DiscoverRules) and s.rules.dropped_tools == {}
