"""The surface-level rules of inspector.regression.surface_diff (tools, prompts, resources, templates,
capabilities, annotations), the diff report shapes, and snapshots built from hand-made recordings (pages,
re-listings, both eras)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.protocol.wire import Direction, Kind, WireMessage
from inspector.regression.changes import Change, ChangeKind
from inspector.regression.diff_report import diff_json, diff_text
from inspector.regression.snapshot import SnapshotError, build_snapshot, dump_snapshot, load_surface
from inspector.regression.snapshot_recording import snapshot_from_recording
from inspector.regression.surface_diff import diff_surfaces
from inspector.store.recording import Recording


def surface(**lists: Any) -> dict[str, Any]:
    capabilities = lists.pop("capabilities", {"tools": {}, "resources": {}, "prompts": {}})
    return build_snapshot(
        era="handshake",
        protocol_version="2025-11-25",
        server_info=lists.pop("server_info", {"name": "s", "version": "1"}),
        capabilities=capabilities,
        instructions=lists.pop("instructions", None),
        lists=lists,
    )


def tool(name: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "inputSchema": {"type": "object", "properties": {}}, **extra}


def found(changes: list[Change]) -> list[tuple[str, str]]:
    return [(c.kind.value, c.path) for c in changes]


SURFACE_ROWS: list[tuple[str, dict[str, Any], dict[str, Any], list[tuple[str, str]]]] = [
    ("tool removed", {"tools": [tool("a"), tool("b")]}, {"tools": [tool("a")]}, [("breaking", '$.tools["b"]')]),
    ("tool added", {"tools": [tool("a")]}, {"tools": [tool("a"), tool("b")]}, [("compatible", '$.tools["b"]')]),
    ("prompt removed", {"prompts": [{"name": "p"}]}, {"prompts": []}, [("breaking", '$.prompts["p"]')]),
    (
        "resource removed",
        {"resources": [{"uri": "x://1", "name": "one"}]},
        {"resources": []},
        [("breaking", '$.resources["x://1"]')],
    ),
    (
        "template removed",
        {"resourceTemplates": [{"uriTemplate": "x://{id}", "name": "t"}]},
        {"resourceTemplates": []},
        [("breaking", '$.resourceTemplates["x://{id}"]')],
    ),
    (
        "resource added",
        {"resources": []},
        {"resources": [{"uri": "x://2", "name": "two"}]},
        [("compatible", '$.resources["x://2"]')],
    ),
    (
        "resource renamed (name) is cosmetic",
        {"resources": [{"uri": "x://1", "name": "one"}]},
        {"resources": [{"uri": "x://1", "name": "uno"}]},
        [("cosmetic", '$.resources["x://1"].name')],
    ),
    (
        "resource mimeType changed",
        {"resources": [{"uri": "x://1", "name": "a", "mimeType": "text/plain"}]},
        {"resources": [{"uri": "x://1", "name": "a", "mimeType": "text/markdown"}]},
        [("compatible", '$.resources["x://1"].mimeType')],
    ),
    (
        "capability removed",
        {"capabilities": {"tools": {}, "logging": {}}},
        {"capabilities": {"tools": {}}},
        [("breaking", "$.capabilities.logging")],
    ),
    (
        "capability flag turned off",
        {"capabilities": {"resources": {"subscribe": True}}},
        {"capabilities": {"resources": {"subscribe": False}}},
        [("breaking", "$.capabilities.resources.subscribe")],
    ),
    (
        "capability flag removed",
        {"capabilities": {"tools": {"listChanged": True}}},
        {"capabilities": {"tools": {}}},
        [("breaking", "$.capabilities.tools.listChanged")],
    ),
    (
        "capability added",
        {"capabilities": {"tools": {}}},
        {"capabilities": {"tools": {}, "completions": {}}},
        [("compatible", "$.capabilities.completions")],
    ),
    (
        "prompt: required argument added",
        {"prompts": [{"name": "p", "arguments": [{"name": "a"}]}]},
        {"prompts": [{"name": "p", "arguments": [{"name": "a"}, {"name": "b", "required": True}]}]},
        [("breaking", '$.prompts["p"].arguments["b"]')],
    ),
    (
        "prompt: optional argument added",
        {"prompts": [{"name": "p", "arguments": []}]},
        {"prompts": [{"name": "p", "arguments": [{"name": "b"}]}]},
        [("compatible", '$.prompts["p"].arguments["b"]')],
    ),
    (
        "prompt: argument made required",
        {"prompts": [{"name": "p", "arguments": [{"name": "a"}]}]},
        {"prompts": [{"name": "p", "arguments": [{"name": "a", "required": True}]}]},
        [("breaking", '$.prompts["p"].arguments["a"].required')],
    ),
    (
        "prompt: argument removed",
        {"prompts": [{"name": "p", "arguments": [{"name": "a"}]}]},
        {"prompts": [{"name": "p", "arguments": []}]},
        [("breaking", '$.prompts["p"].arguments["a"]')],
    ),
    (
        "prompt: argument description",
        {"prompts": [{"name": "p", "arguments": [{"name": "a", "description": "x"}]}]},
        {"prompts": [{"name": "p", "arguments": [{"name": "a", "description": "y"}]}]},
        [("cosmetic", '$.prompts["p"].arguments["a"].description')],
    ),
    (
        "prompt: arguments reordered",
        {"prompts": [{"name": "p", "arguments": [{"name": "a"}, {"name": "b"}]}]},
        {"prompts": [{"name": "p", "arguments": [{"name": "b"}, {"name": "a"}]}]},
        [("cosmetic", '$.prompts["p"].arguments')],
    ),
    (
        "tool turned destructive",
        {"tools": [tool("t", annotations={"readOnlyHint": False, "destructiveHint": False})]},
        {"tools": [tool("t", annotations={"readOnlyHint": False, "destructiveHint": True})]},
        [("breaking", '$.tools["t"].annotations.destructiveHint')],
    ),
    (
        "read-only hint dropped: destructive by default",
        {"tools": [tool("t", annotations={"readOnlyHint": True})]},
        {"tools": [tool("t")]},
        [("breaking", '$.tools["t"].annotations.readOnlyHint')],
    ),
    (
        "no longer destructive",
        {"tools": [tool("t", annotations={"destructiveHint": True})]},
        {"tools": [tool("t", annotations={"readOnlyHint": True})]},
        [("compatible", '$.tools["t"].annotations')],
    ),
    (
        "idempotentHint changed",
        {"tools": [tool("t", annotations={"readOnlyHint": True, "idempotentHint": True})]},
        {"tools": [tool("t", annotations={"readOnlyHint": True, "idempotentHint": False})]},
        [("compatible", '$.tools["t"].annotations.idempotentHint')],
    ),
    (
        "tool title and icons",
        {"tools": [tool("t", title="A", icons=[{"src": "a"}])]},
        {"tools": [tool("t", title="B", icons=[{"src": "b"}])]},
        [("cosmetic", '$.tools["t"].icons'), ("cosmetic", '$.tools["t"].title')],
    ),
    (
        "outputSchema dropped",
        {"tools": [tool("t", outputSchema={"type": "object"})]},
        {"tools": [tool("t")]},
        [("breaking", '$.tools["t"].outputSchema')],
    ),
    (
        "outputSchema added",
        {"tools": [tool("t")]},
        {"tools": [tool("t", outputSchema={"type": "object"})]},
        [("compatible", '$.tools["t"].outputSchema')],
    ),
    (
        "task support required",
        {"tools": [tool("t", execution={"taskSupport": "optional"})]},
        {"tools": [tool("t", execution={"taskSupport": "required"})]},
        [("breaking", '$.tools["t"].execution.taskSupport')],
    ),
    (
        "task support dropped",
        {"tools": [tool("t", execution={"taskSupport": "optional"})]},
        {"tools": [tool("t")]},
        [("breaking", '$.tools["t"].execution.taskSupport')],
    ),
    (
        "task support offered",
        {"tools": [tool("t")]},
        {"tools": [tool("t", execution={"taskSupport": "optional"})]},
        [("compatible", '$.tools["t"].execution.taskSupport')],
    ),
    (
        "server info and instructions",
        {"server_info": {"name": "s", "version": "1"}, "instructions": "a"},
        {"server_info": {"name": "s", "version": "2"}, "instructions": "b"},
        [("cosmetic", "$.instructions"), ("cosmetic", "$.serverInfo.version")],
    ),
]


@pytest.mark.parametrize(("old", "new", "expected"), [r[1:] for r in SURFACE_ROWS], ids=[r[0] for r in SURFACE_ROWS])
def test_surface_rule(old: dict[str, Any], new: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    assert sorted(found(diff_surfaces(surface(**old), surface(**new)))) == sorted(expected)


def test_rename_is_named_and_breaking_comes_first() -> None:
    old = surface(tools=[tool("echo", description="say it")])
    new = surface(tools=[tool("say", description="say it"), tool("other")])
    changes = diff_surfaces(old, new)
    assert changes[0].kind is ChangeKind.BREAKING
    assert changes[0].reason == 'tool "echo" removed (renamed to "say"?)'
    assert [c.kind for c in changes] == [ChangeKind.BREAKING, ChangeKind.COMPATIBLE, ChangeKind.COMPATIBLE]


def test_a_list_one_side_does_not_know_is_not_compared() -> None:
    old = surface(tools=[tool("a")], prompts=[{"name": "p"}])
    new = surface(tools=[tool("a")])
    del new["prompts"]
    assert diff_surfaces(old, new) == []


def test_reports() -> None:
    changes = diff_surfaces(surface(tools=[tool("a", title="x")]), surface(tools=[tool("b")]))
    text = diff_text(changes)
    assert text.splitlines()[0] == 'breaking    $.tools["a"]  tool "a" removed'
    assert text.splitlines()[-1] == "1 breaking, 1 compatible, 0 cosmetic"
    assert diff_text([]) == "no changes\n"
    document = diff_json(changes, "old.json", "new.json")
    assert document["summary"] == {"breaking": 1, "compatible": 1, "cosmetic": 0, "total": 2}
    assert document["changes"][0] == {
        "kind": "breaking",
        "path": '$.tools["a"]',
        "reason": 'tool "a" removed',
        "old": tool("a", title="x"),
        "new": None,
    }
    assert Change.from_json(document["changes"][1]) == changes[1]


def test_snapshot_text_is_stable_and_sorted(tmp_path: Path) -> None:
    one = surface(tools=[tool("b"), tool("a")], resources=[{"uri": "z://", "name": "z"}, {"uri": "a://", "name": "a"}])
    two = surface(tools=[tool("a"), tool("b")], resources=[{"uri": "a://", "name": "a"}, {"uri": "z://", "name": "z"}])
    assert dump_snapshot(one) == dump_snapshot(two)
    assert [t["name"] for t in one["tools"]] == ["a", "b"]
    path = tmp_path / "s.json"
    path.write_text(dump_snapshot(one), encoding="utf-8")
    assert load_surface(path) == json.loads(dump_snapshot(one))
    path.write_text(json.dumps({**one, "version": 99}), encoding="utf-8")
    with pytest.raises(SnapshotError, match="version 99"):
        load_surface(path)


# ---------------------------------------------------------------------- snapshots from recordings


class _Writer:
    def __init__(self, rec: Recording) -> None:
        self.rec = rec
        self.next_id = 1

    def exchange(self, method: str, params: dict[str, Any] | None, result: Any, *, error: bool = False) -> None:
        rid = self.next_id
        self.next_id += 1
        request: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            request["params"] = params
        self.rec.record_message(WireMessage(Direction.OUT, json.dumps(request).encode(), Kind.REQUEST, method, rid))
        if error:
            answer = {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "no"}}
            self.rec.record_message(WireMessage(Direction.IN, json.dumps(answer).encode(), Kind.ERROR, method, rid))
            return
        answer = {"jsonrpc": "2.0", "id": rid, "result": result}
        self.rec.record_message(WireMessage(Direction.IN, json.dumps(answer).encode(), Kind.RESPONSE, method, rid))


def _recording(tmp_path: Path, fill: Any) -> Path:
    rec = Recording.create(tmp_path, label="snap")
    try:
        fill(_Writer(rec))
    finally:
        rec.close()
    return rec.path


def test_recording_pages_and_relistings(tmp_path: Path) -> None:
    def fill(w: _Writer) -> None:
        w.exchange("server/discover", {}, None, error=True)  # auto's first try, refused
        w.exchange("initialize", {"protocolVersion": "2025-11-25"}, {
            "protocolVersion": "2025-11-25", "serverInfo": {"name": "paged", "version": "1"},
            "capabilities": {"tools": {}}, "instructions": "hi"})  # fmt: skip
        w.exchange("tools/list", None, {"tools": [tool("old")]})  # an earlier listing, replaced below
        w.exchange("tools/list", {}, {"tools": [tool("c"), tool("a")], "nextCursor": "p2"})
        w.exchange("tools/list", {"cursor": "p2"}, {"tools": [tool("b")]})

    snapshot = snapshot_from_recording(_recording(tmp_path, fill))
    assert snapshot["era"] == "handshake" and snapshot["protocolVersion"] == "2025-11-25"
    assert snapshot["serverInfo"] == {"name": "paged", "version": "1"} and snapshot["instructions"] == "hi"
    assert [t["name"] for t in snapshot["tools"]] == ["a", "b", "c"]
    assert snapshot["recordedLists"] == ["tools"]
    assert "prompts" not in snapshot and "resources" not in snapshot


def test_recording_of_the_modern_era(tmp_path: Path) -> None:
    def fill(w: _Writer) -> None:
        w.exchange(
            "server/discover",
            {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}},
            {"supportedVersions": ["2026-07-28"], "capabilities": {"prompts": {}},
             "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "modern", "version": "2"}}},
        )  # fmt: skip
        w.exchange("prompts/list", {"_meta": {}}, {"prompts": [{"name": "p"}], "resultType": "complete"})

    snapshot = snapshot_from_recording(_recording(tmp_path, fill))
    assert snapshot["era"] == "modern" and snapshot["protocolVersion"] == "2026-07-28"
    assert snapshot["serverInfo"]["name"] == "modern"
    assert snapshot["prompts"] == [{"name": "p"}]


def test_recording_without_an_opening(tmp_path: Path) -> None:
    path = _recording(tmp_path, lambda w: w.exchange("ping", None, {}))
    with pytest.raises(SnapshotError, match="no answer to initialize or server/discover"):
        load_surface(path)
