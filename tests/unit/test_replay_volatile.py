"""The replay's structural diff and the volatile values it recognises by itself."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.protocol.jsonpath_query import compile_pattern
from inspector.regression.structural import MISSING, Difference, compare
from inspector.regression.volatile import looks_like_timestamp, volatile_reason


def _paths(diff: list[Difference]) -> list[tuple[str, str]]:
    return [(d.path, d.change) for d in diff]


def test_scalars_objects_and_arrays() -> None:
    old = {"result": {"a": 1, "b": [1, 2, 3], "c": {"x": True}, "gone": "y"}}
    new = {"result": {"a": 1.0, "b": [1, 5], "c": {"x": 1}, "new": None}}
    assert _paths(compare(old, new)) == [
        ("$.result.b[1]", "changed"),
        ("$.result.b[2]", "removed"),
        ("$.result.c.x", "changed"),  # true is not 1
        ("$.result.gone", "removed"),
        ("$.result.new", "added"),
    ]
    assert compare(old, old) == []


def test_named_items_are_matched_by_name() -> None:
    old = {"tools": [{"name": "a", "v": 1}, {"name": "b", "v": 1}, {"name": "c", "v": 1}]}
    new = {"tools": [{"name": "a", "v": 1}, {"name": "x", "v": 1}, {"name": "c", "v": 2}, {"name": "b", "v": 1}]}
    diff = compare(old, new)
    assert _paths(diff) == [("$.tools[2].v", "changed"), ("$.tools[1]", "added")]
    assert diff[1].new == {"name": "x", "v": 1} and diff[1].old is MISSING
    removed = compare(new, old)
    assert ("$.tools[1]", "removed") in _paths(removed)


def test_difference_json() -> None:
    (changed,) = compare({"k": "3"}, {"k": "1 + 2 = 3"})
    assert changed.to_json() == {"path": "$.k", "change": "changed", "old": "3", "new": "1 + 2 = 3"}
    (added,) = compare({}, {"odd key": [1]})
    assert added.to_json() == {"path": '$["odd key"]', "change": "added", "new": [1]}


@pytest.mark.parametrize(
    ("parts", "old", "new", "reason"),
    [
        (("result", "nextCursor"), "abc", "def", "cursor"),
        (("result", "task", "taskId"), "t-1", "t-2", "task id"),
        (("result", "task", "createdAt"), "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "timestamp"),
        (("result", "_meta", "generatedAt"), 1_767_000_000, 1_767_000_050, "timestamp in _meta"),
        (("result", "_meta", "when"), "2026-12-03T17:00:00.123+01:00", "2026-12-03T18:00:00Z", "timestamp in _meta"),
        (("result", "_meta", "vendor", "requestId"), "r1", "r2", "id in _meta"),
        (("result", "_meta", "x"), "0b0e9a3c-1111-4c6e-9a3c-0b0e9a3c1111", "1c1e9a3c-2222-4c6e-9a3c-0b0e9a3c2222",
         "id in _meta"),
        (("result", "_meta", "io.modelcontextprotocol/related-task"), {"taskId": "a"}, {"taskId": "b"}, "task id"),
        (("result", "_meta", "traceparent"), "00-a-b-01", "00-c-d-01", "trace context"),
    ],
)  # fmt: skip
def test_volatile(parts: tuple[Any, ...], old: Any, new: Any, reason: str) -> None:
    assert volatile_reason(parts, old, new) == reason


@pytest.mark.parametrize(
    ("parts", "old", "new"),
    [
        (("result", "content", 0, "text"), "3", "1 + 2 = 3"),
        (("result", "content", 0, "text"), "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"),  # not in _meta
        (("result", "_meta", "colour"), "red", "blue"),
        # a tool's input property named cursor is a schema, not a cursor
        (("result", "tools", 0, "inputSchema", "properties", "cursor"), {"type": "string"}, {"type": "integer"}),
        (("result", "resultType"), "complete", "task"),
    ],
)
def test_not_volatile(parts: tuple[Any, ...], old: Any, new: Any) -> None:
    assert volatile_reason(parts, old, new) is None


def test_presence_is_never_volatile_but_the_era_envelope_is_when_the_eras_differ() -> None:
    assert volatile_reason(("result", "nextCursor"), MISSING, "abc", presence=True) is None
    assert volatile_reason(("result", "resultType"), MISSING, "complete", presence=True) is None
    for key in ("resultType", "ttlMs", "cacheScope", "_meta"):
        assert volatile_reason(("result", key), MISSING, "x", presence=True, eras_differ=True) is not None
    assert volatile_reason(("result", "content"), MISSING, [], presence=True, eras_differ=True) is None


def test_timestamps() -> None:
    assert looks_like_timestamp("2026-12-03")
    assert looks_like_timestamp("2026-12-03T17:00:00Z")
    assert looks_like_timestamp(1_767_000_000_000)
    assert not looks_like_timestamp("3")
    assert not looks_like_timestamp(42)
    assert not looks_like_timestamp(True)


def test_skip_leaves_out_a_subtree() -> None:
    pattern = compile_pattern("$..text")
    seen: list[tuple[Any, ...]] = []

    def skip(parts: tuple[Any, ...], old: Any, new: Any) -> bool:
        seen.append(parts)
        return pattern.matches(parts, descendants=True)

    old = {"result": {"content": [{"type": "text", "text": "a"}], "n": 1}}
    new = {"result": {"content": [{"type": "text", "text": "b"}], "n": 2}}
    assert _paths(compare(old, new, skip=skip)) == [("$.result.n", "changed")]
    assert ("result", "content", 0, "text") in seen
