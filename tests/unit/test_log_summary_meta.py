"""The log's Summary column shows a ``_meta`` object as ``"_meta":{…}``: 2026-07-28 requests open their params
with the protocol's envelope, which otherwise filled every request's summary with the same text."""

from __future__ import annotations

import json

import pytest

from inspector.store.recording.cells import PREVIEW_BYTES, summary

ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "mcp-inspector-desktop", "version": "0.1.0"},
    "io.modelcontextprotocol/clientCapabilities": {"sampling": {}, "elicitation": {"form": {}, "url": {}}},
}


def frame(method: str, params: dict[str, object]) -> bytes:
    """The head of a request as the log reads it (its first ``PREVIEW_BYTES``)."""
    raw = json.dumps({"jsonrpc": "2.0", "id": 7, "method": method, "params": params}, separators=(",", ":"))
    return raw.encode()[:PREVIEW_BYTES]


def test_a_list_request_is_its_envelope_collapsed() -> None:
    raw = frame("tools/list", {"_meta": ENVELOPE})
    assert summary("request", raw) == '"params":{"_meta":{…}}'


def test_what_follows_the_envelope_stays() -> None:
    envelope = {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}
    raw = frame("tools/list", {"_meta": envelope, "cursor": "page-2"})
    assert len(raw) < PREVIEW_BYTES
    assert summary("request", raw) == '"params":{"_meta":{…},"cursor":"page-2"}'


def test_an_envelope_cut_off_by_the_preview() -> None:
    big = {**ENVELOPE, "io.modelcontextprotocol/pad": "x" * PREVIEW_BYTES}
    head = frame("prompts/list", {"_meta": big})
    assert len(head) == PREVIEW_BYTES
    assert summary("request", head) == '"params":{"_meta":{…'


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ('say "_meta":{ hi', r'"params":{"name":"echo","arguments":{"message":"say \"_meta\":{ hi"},"_meta":{…}}'),
        (
            "braces } ] { in a string",
            '"params":{"name":"echo","arguments":{"message":"braces } ] { in a string"},"_meta":{…}}',
        ),
    ],
)
def test_strings_are_left_alone(text: str, shown: str) -> None:
    raw = frame("tools/call", {"name": "echo", "arguments": {"message": text}, "_meta": {"a": {"b": "}"}}})
    assert summary("request", raw) == shown


def test_nested_values_inside_the_meta_are_skipped_whole() -> None:
    raw = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"_meta": {"a": [1, {"b": "]"}]}, "tools": []}})
    assert summary("response", raw) == '"result": {"_meta": {"a": [1, {"b": "]"}]}, "tools": []}'  # spaced: no key
    compact = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"_meta": {"a": [1, {"b": "]"}]}, "tools": []}},
                         separators=(",", ":"))  # fmt: skip
    assert summary("response", compact) == '"result":{"_meta":{…},"tools":[]}'


def test_frames_without_meta_are_unchanged() -> None:
    raw = frame("tools/call", {"name": "echo", "arguments": {"message": "hello world"}})
    assert summary("request", raw) == '"params":{"name":"echo","arguments":{"message":"hello world"}}'
