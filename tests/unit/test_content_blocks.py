"""inspector.content.blocks / transcript / jsontree: classification, shape problems, badges, base64, sizes."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from inspector.content.blocks import (
    BlockKind,
    InvalidBase64Error,
    annotation_badges,
    as_block_list,
    block_problems,
    classify_block,
    decode_base64,
    decoded_size,
)
from inspector.content.jsontree import JsonNode, ParsedJson, json_kind, json_summary
from inspector.content.transcript import normalize_messages, role_label
from inspector.protocol.jsonpath import format_path


@pytest.mark.parametrize(
    ("block", "kind"),
    [
        ({"type": "text", "text": "hi"}, BlockKind.TEXT),
        ({"type": "image", "data": "AA==", "mimeType": "image/png"}, BlockKind.IMAGE),
        ({"type": "audio", "data": "AA==", "mimeType": "audio/wav"}, BlockKind.AUDIO),
        ({"type": "resource_link", "uri": "demo://x", "name": "x"}, BlockKind.RESOURCE_LINK),
        ({"type": "resource", "resource": {"uri": "demo://x", "text": "t"}}, BlockKind.RESOURCE),
        ({"type": "tool_use", "id": "1", "name": "f", "input": {}}, BlockKind.TOOL_USE),
        ({"type": "tool_result", "toolUseId": "1", "content": []}, BlockKind.TOOL_RESULT),
        ({"type": "video", "data": "AA=="}, BlockKind.UNKNOWN),
        ({"type": "unknown"}, BlockKind.UNKNOWN),
        ({"text": "no type"}, BlockKind.UNKNOWN),
        ("just a string", BlockKind.UNKNOWN),
        (None, BlockKind.UNKNOWN),
    ],
)
def test_classify_block(block: Any, kind: BlockKind) -> None:
    assert classify_block(block) is kind


def test_well_formed_blocks_have_no_problems() -> None:
    assert block_problems({"type": "text", "text": "hi"}) == []
    assert block_problems({"type": "resource", "resource": {"uri": "a://b", "blob": "AA=="}}) == []


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        ({"type": "text"}, 'missing required field "text"'),
        ({"type": "text", "text": 5}, '"text" should be a string, got number'),
        ({"type": "image", "data": "AA=="}, 'missing required field "mimeType"'),
        ({"type": "resource", "resource": {"uri": "a://b"}}, 'embedded resource has neither "text" nor "blob"'),
        ({"type": "resource", "resource": {"text": "x"}}, 'embedded resource has no string "uri"'),
        ({"type": "tool_use", "id": "1", "name": "f", "input": []}, '"input" should be an object, got array'),
        ({"type": "video"}, "unknown content type 'video'"),
        ({"data": 1}, 'content block has no "type"'),
        ([1, 2], "content block is a array, not an object"),
    ],
)
def test_block_problems_are_readable(block: Any, expected: str) -> None:
    assert expected in block_problems(block)


def test_as_block_list_accepts_single_block_list_and_none() -> None:
    block = {"type": "text", "text": "x"}
    assert as_block_list(block) == [block]
    assert as_block_list([block, block]) == [block, block]
    assert as_block_list(None) == []


def test_annotation_badges() -> None:
    badges = annotation_badges({"audience": ["user", "assistant"], "priority": 0.5, "lastModified": "2025-01-01"})
    assert [b.text for b in badges] == ["for user, assistant", "priority 0.5", "modified 2025-01-01"]
    assert [b.kind for b in badges] == ["audience", "priority", "modified"]
    assert annotation_badges(None) == []
    assert annotation_badges({}) == []


def test_annotation_badges_flag_bad_values() -> None:
    badges = annotation_badges({"priority": 3, "audience": "user", "custom": 1})
    kinds = {b.text: b.kind for b in badges}
    assert kinds["priority 3"] == "warning"
    assert kinds["audience 'user'"] == "warning"
    assert kinds["custom: 1"] == "other"
    assert "out of range" in next(b.tooltip for b in badges if b.text == "priority 3")


def test_decode_base64_valid_with_whitespace() -> None:
    data = bytes(range(50))
    encoded = base64.b64encode(data).decode()
    assert decode_base64(encoded[:20] + "\n" + encoded[20:]) == data


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ("not base64!!", "character '!' at position 10"),
        ("", "empty"),
        (42, "should be a string"),
        ("ab-_", "base64url"),
        ("abc", "invalid base64"),
    ],
)
def test_decode_base64_errors_are_explained(data: Any, fragment: str) -> None:
    with pytest.raises(InvalidBase64Error, match=None) as info:
        decode_base64(data)
    assert fragment in str(info.value)


def test_decoded_size_matches_real_decoding() -> None:
    for n in range(0, 40):
        encoded = base64.b64encode(bytes(n)).decode()
        assert decoded_size(encoded) == n


def test_parsed_json_enumerates_children_in_batches_with_paths() -> None:
    doc = ParsedJson({"a": [1, {"b c": None}], "x": "y", "n": 2.5, "odd": object()})
    root = doc.root
    assert isinstance(root, JsonNode) and root.is_container and doc.has_children(root)
    first = doc.expand(root, 1)
    assert [c.key for c in first] == ["a"] and not root.complete
    a = first[0]
    assert (a.key, a.type, doc.summary(a), format_path(a.path()), a.key_label) == (
        "a",
        "array",
        "[2 items]",
        "$.a",
        "a",
    )
    assert [c.key for c in doc.expand(root, 10)] == ["x", "n", "odd"] and root.complete
    assert doc.expand(root, 10) == [] and len(root.children) == 4
    assert [c.type for c in root.children[1:]] == ["string", "number", "string"]  # no container without children
    doc.expand(a, 10)
    obj = a.children[1]
    assert obj.key_label == "[1]" and doc.value(obj) == {"b c": None}
    doc.expand(obj, 10)
    inner = obj.children[0]
    assert format_path(inner.path()) == '$.a[1]["b c"]' and inner.type == "null" and not doc.has_children(inner)
    assert doc.size(inner) is None and doc.summary(inner) == "null"
    scalar = ParsedJson(3).root
    assert scalar.type == "integer" and scalar.complete and scalar.key_label == "(value)"


def test_json_summary_and_kind() -> None:
    assert json_summary({"a": 1}) == "{1 key}"
    assert json_summary("x" * 500).endswith("…")
    assert json_summary("line\nbreak") == '"line\\nbreak"'
    assert [json_kind(v) for v in (1, 1.5, True, None, "s", [], {})] == [
        "integer", "number", "boolean", "null", "string", "array", "object",
    ]  # fmt: skip


def test_normalize_messages() -> None:
    messages = normalize_messages(
        [
            {"role": "user", "content": {"type": "text", "text": "hi"}},
            {"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
            {"role": "robot", "content": []},
            "nonsense",
        ]
    )
    assert [len(m.blocks) for m in messages] == [1, 2, 0, 1]
    assert messages[0].is_user and messages[1].is_assistant
    assert messages[2].problems and "robot" in messages[2].problems[0]
    assert messages[3].problems == ["message 3 is not an object"]
    assert normalize_messages({"not": "a list"})[0].problems
    assert role_label("assistant") == "Assistant"
