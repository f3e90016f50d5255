"""The log's JSON helpers: pretty text with line spans and JSON paths; lazy enumeration of big payloads."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from inspector.content.format import break_long_lines
from inspector.content.jsonscan import SMALL, JsonSyntaxError, LazyJson, PrettyStream
from inspector.content.jsontext import nearest_span, render_json
from inspector.content.jsontree import JsonNode
from inspector.protocol.jsonpath import format_path, parse_path

SAMPLES: list[Any] = [
    {"a": 1, "b": [1, 2, {"c": 'x"y\\'}], "d": {}, "e": [], "f": None, "g": True, "h": -1.5e3, "é": "ü\n"},
    [],
    {},
    "just a string",
    12,
    [[[]], [{}]],
    {"big": ["x" * 70_000, {"k": list(range(20_000))}], "after": 1},
]


@pytest.mark.parametrize("value", SAMPLES, ids=range(len(SAMPLES)))
def test_render_json_matches_json_dumps(value: Any) -> None:
    rendered = render_json(value, max_string=10**9)
    assert rendered.text == json.dumps(value, indent=2, ensure_ascii=False)
    lines = rendered.text.split("\n")
    assert rendered.spans[()] == (0, len(lines) - 1)


def test_render_json_spans_and_cut_strings() -> None:
    value = {"result": {"tools": [{"name": "a"}, {"name": "b", "inputSchema": "oops"}]}, "s": "y" * 50}
    rendered = render_json(value, max_string=10)
    lines = rendered.text.split("\n")
    first, last = rendered.spans[("result", "tools", 1)]
    assert lines[first].strip() == "{" and lines[last].strip() == "}"
    (line, _) = rendered.spans[("result", "tools", 1, "inputSchema")]
    assert lines[line].strip() == '"inputSchema": "oops"'
    assert rendered.cut_strings == 1 and "⟨40 more characters⟩" in lines[rendered.spans[("s",)][0]]


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("$", ()),
        ("$.result.tools[0].inputSchema", ("result", "tools", 0, "inputSchema")),
        ("$['odd key'][3]", ("odd key", 3)),
        ('$["q\\"uote"].x', ('q"uote', "x")),
        ("$.a-b", ("a-b",)),
    ],
)
def test_parse_path(text: str, path: tuple[str | int, ...]) -> None:
    assert parse_path(text) == path


def test_parse_path_rejects_and_round_trips() -> None:
    for bad in ("result.x", "$[", "$x", "$.a b"):
        with pytest.raises(ValueError):
            parse_path(bad)
    for path in [("result", "tools", 0, "inputSchema"), ("odd key", 2), ()]:
        assert parse_path(format_path(path)) == path
    spans: dict[tuple[str | int, ...], tuple[int, int]] = {(): (0, 9), ("a",): (1, 3)}
    assert nearest_span(spans, ("a", "b", 0)) == (("a",), (1, 3))
    assert nearest_span({}, ("a",)) is None


def _walk(doc: LazyJson, node: JsonNode) -> Any:
    while not node.complete:
        new = doc.expand(node, 1000)
        if not new and node.pending is not None:
            while not doc.scan(time.perf_counter() + 1):
                pass
    if node.type == "object":
        return {c.key: _walk(doc, c) for c in node.children}
    if node.type == "array":
        return [_walk(doc, c) for c in node.children]
    source = doc.source(node)
    assert source is not None
    return json.loads(source)


@pytest.mark.parametrize("value", SAMPLES, ids=range(len(SAMPLES)))
@pytest.mark.parametrize("indent", [None, 2])
def test_lazy_json_enumerates_every_value(value: Any, indent: int | None) -> None:
    text = json.dumps(value, indent=indent)
    doc = LazyJson(text)
    assert _walk(doc, doc.root) == value
    stream = PrettyStream(text, max_string=10**9)
    out = ""
    while not stream.done:
        out += stream.step(time.perf_counter() + 1)
    assert out == json.dumps(value, indent=2)


def test_big_children_wait_for_the_scan() -> None:
    text = json.dumps({"a": 1, "big": ["z" * 10] * (SMALL // 10), "next": True})
    doc = LazyJson(text)
    first = doc.expand(doc.root, 100)
    assert [c.key for c in first] == ["a", "big"] and doc.root.pending is first[1]
    assert doc.expand(doc.root, 100) == []  # still waiting
    while not doc.scan(time.perf_counter() + 1):
        pass
    assert [c.key for c in doc.expand(doc.root, 100)] == ["next"] and doc.root.complete
    assert first[1].end is not None and doc.source(first[1]) == json.dumps(["z" * 10] * (SMALL // 10))
    assert doc.preview(doc.root.children[2]) == "true"


def test_string_preview_decodes_and_cuts() -> None:
    doc = LazyJson(json.dumps(["line1\nline2 \u00e9", "q" * 500]))
    short, long = doc.expand(doc.root, 10)
    assert doc.preview(short) == '"line1⏎line2 é"'
    assert doc.preview(long, limit=20) == '"' + "q" * 20 + "…"


@pytest.mark.parametrize("bad", ['{"a":1,}', '{"a" 1}', "[1 2]", '{"a":1', "[1,2", '{"a":"x}', "[}"])
def test_malformed_payloads_raise(bad: str) -> None:
    doc = LazyJson(bad)
    with pytest.raises(JsonSyntaxError):
        _walk(doc, doc.root)
        if doc.error:
            raise JsonSyntaxError(doc.error)


def test_break_long_lines() -> None:
    assert break_long_lines("ab\nc", 3) == ("ab\nc", False)
    assert break_long_lines("abc\n\nabcdefgh", 3) == ("abc\n\nabc\ndef\ngh", True)
