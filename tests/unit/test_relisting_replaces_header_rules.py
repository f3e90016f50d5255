"""A tools/list listing replaces what the engine knows of each tool's ``x-mcp-header`` annotations (issue 15 item 4):
a tool re-listed without its annotations sends no ``Mcp-Param-*`` any more, a complete listing forgets the tools
(and the dropped tools) it no longer holds, and a paginated listing never loses the tools of its other pages."""

from __future__ import annotations

import itertools
from typing import Any

from sessionkit import FakeClock, frame, ok

from inspector.protocol.eras import DiscoverRules
from inspector.protocol.events import HandshakeCompleted
from inspector.protocol.session import ClientSession, SessionOffer, new_session
from inspector.protocol.versions import MODERN_VERSION

DISCOVERED = {"resultType": "complete", "supportedVersions": [MODERN_VERSION], "capabilities": {"tools": {}}}


def annotated(name: str, header: str = "Region") -> dict[str, Any]:
    return {
        "name": name,
        "inputSchema": {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": header}}},
    }


def plain(name: str) -> dict[str, Any]:
    return {"name": name, "inputSchema": {"type": "object", "properties": {"region": {"type": "string"}}}}


def broken(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "inputSchema": {"type": "object", "properties": {"n": {"type": "number", "x-mcp-header": "N"}}},
    }


def opened() -> ClientSession:
    s = new_session(
        SessionOffer(MODERN_VERSION, {}, {"name": "t", "version": "1"}),
        id_generator=itertools.count(1),
        clock=FakeClock(),
    )
    s.header_rules = True
    rid = s.start()
    s.pop_outgoing()
    rec = s.receive_frame(frame(ok(rid, DISCOVERED)))
    assert any(isinstance(e, HandshakeCompleted) for e in rec.events)
    return s


def page(
    s: ClientSession, tools: list[dict[str, Any]], cursor: str | None = None, next_cursor: str | None = None
) -> None:
    rid = s.send_request("tools/list", {"cursor": cursor} if cursor is not None else None)
    s.pop_outgoing()
    result: dict[str, Any] = {"resultType": "complete", "tools": tools}
    if next_cursor is not None:
        result["nextCursor"] = next_cursor
    s.receive_frame(frame(ok(rid, result)))


def call_headers(s: ClientSession, name: str) -> dict[str, str]:
    s.send_request("tools/call", {"name": name, "arguments": {"region": "eu"}})
    [wire] = s.pop_outgoing()
    return {k: v for k, v in wire.headers.items() if k.startswith("Mcp-Param-")}


def rules(s: ClientSession) -> DiscoverRules:
    assert isinstance(s.rules, DiscoverRules)
    return s.rules


def test_a_tool_re_listed_without_its_annotation_sends_no_param_header_any_more() -> None:
    s = opened()
    page(s, [annotated("route")])
    assert call_headers(s, "route") == {"Mcp-Param-Region": "eu"}
    page(s, [plain("route")])
    assert call_headers(s, "route") == {}
    page(s, [annotated("route", "Zone")])  # renamed: only the new header
    assert call_headers(s, "route") == {"Mcp-Param-Zone": "eu"}


def test_a_complete_listing_forgets_tools_and_dropped_tools_it_no_longer_holds() -> None:
    s = opened()
    page(s, [annotated("route"), broken("bad")])
    assert set(rules(s).dropped_tools) == {"bad"} and set(rules(s).tool_headers) == {"route"}
    page(s, [plain("other")])
    assert rules(s).dropped_tools == {} and rules(s).tool_headers == {}
    assert call_headers(s, "route") == {}


def test_a_paginated_listing_keeps_the_tools_of_its_other_pages() -> None:
    s = opened()
    page(s, [annotated("a"), broken("bad")], next_cursor="p2")
    page(s, [annotated("b")], cursor="p2", next_cursor="p3")
    page(s, [plain("c")], cursor="p3")
    assert set(rules(s).tool_headers) == {"a", "b"} and set(rules(s).dropped_tools) == {"bad"}
    assert call_headers(s, "a") == {"Mcp-Param-Region": "eu"}
    # a second listing, page by page: until it ends, nothing on pages not yet seen is forgotten
    page(s, [plain("c")], next_cursor="q2")
    assert set(rules(s).tool_headers) == {"a", "b"} and set(rules(s).dropped_tools) == {"bad"}
    page(s, [annotated("b")], cursor="q2")  # the end: a and bad are no longer listed
    assert set(rules(s).tool_headers) == {"b"} and rules(s).dropped_tools == {}
    assert call_headers(s, "a") == {}


def test_a_page_of_no_listing_followed_only_updates_its_own_tools() -> None:
    s = opened()
    page(s, [annotated("a"), annotated("b")])
    page(s, [plain("b")], cursor="from-elsewhere")  # e.g. a raw request with a cursor: no end of a listing
    assert set(rules(s).tool_headers) == {"a"}
    assert call_headers(s, "a") == {"Mcp-Param-Region": "eu"} and call_headers(s, "b") == {}


def test_interleaved_listings_each_end_with_what_their_own_pages_held() -> None:
    s = opened()
    page(s, [annotated("a")], next_cursor="x2")
    page(s, [annotated("b")], next_cursor="y2")  # a second listing starts before the first ends
    page(s, [annotated("c")], cursor="x2")  # the first ends: it held a and c, not b
    assert set(rules(s).tool_headers) == {"a", "c"}
    page(s, [annotated("d")], cursor="y2")  # the second ends: b and d
    assert set(rules(s).tool_headers) == {"b", "d"}
