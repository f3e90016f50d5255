"""JSON path patterns: select values, match concrete paths, reject malformed patterns clearly."""

from __future__ import annotations

import pytest

from inspector.protocol.jsonpath import format_path
from inspector.protocol.jsonpath_query import JsonPathError, compile_pattern, matches, select

DOC = {
    "result": {
        "content": [
            {"type": "text", "text": "hello"},
            {"type": "image", "data": "AAA", "mimeType": "image/png"},
        ],
        "structuredContent": {"temperature": 21.5, "odd key": {"text": "deep"}, "0": "zero key"},
        "_meta": {"ts": 1, "progressToken": "p"},
        "isError": False,
    },
    "id": 7,
}

SELECT_CASES = [
    ("$", [("$", DOC)]),
    ("$.id", [("$.id", 7)]),
    ("$.result.isError", [("$.result.isError", False)]),
    ('$["result"]["isError"]', [("$.result.isError", False)]),
    ("$['result']['isError']", [("$.result.isError", False)]),
    ("$.result.content[0].text", [("$.result.content[0].text", "hello")]),
    ("$.result.content[1].type", [("$.result.content[1].type", "image")]),
    ("$.result.content[2]", []),
    ("$.result.missing", []),
    ("$.id.deeper", []),
    ("$.result.content[*].type", [("$.result.content[0].type", "text"), ("$.result.content[1].type", "image")]),
    ("$.result.content.*.type", [("$.result.content[0].type", "text"), ("$.result.content[1].type", "image")]),
    ('$.result.structuredContent["odd key"].text', [('$.result.structuredContent["odd key"].text', "deep")]),
    ('$.result.structuredContent["0"]', [('$.result.structuredContent["0"]', "zero key")]),
    ("$.result.structuredContent[0]", []),  # an index never selects an object's key
    ("$.result._meta.*", [("$.result._meta.ts", 1), ("$.result._meta.progressToken", "p")]),
    (
        "$..text",
        [
            ("$.result.content[0].text", "hello"),
            ('$.result.structuredContent["odd key"].text', "deep"),
        ],
    ),
    ("$..ts", [("$.result._meta.ts", 1)]),
    ("$..[1].mimeType", [("$.result.content[1].mimeType", "image/png")]),
    ('$..["odd key"].text', [('$.result.structuredContent["odd key"].text', "deep")]),
    ("$.result.content..type", [("$.result.content[0].type", "text"), ("$.result.content[1].type", "image")]),
    ("$..nothing", []),
    ("  $.id  ", [("$.id", 7)]),
]


@pytest.mark.parametrize(("pattern", "expected"), SELECT_CASES)
def test_select(pattern: str, expected: list[tuple[str, object]]) -> None:
    found = [(format_path(path), value) for path, value in select(DOC, pattern)]
    assert found == expected


def test_recursive_wildcard_visits_every_node_once_in_document_order() -> None:
    doc = {"a": {"b": [1, {"c": 2}]}, "d": 3}
    paths = [format_path(path) for path, _ in select(doc, "$..*")]
    assert paths == ["$.a", "$.d", "$.a.b", "$.a.b[0]", "$.a.b[1]", "$.a.b[1].c"]
    assert len(paths) == len(set(paths))


def test_wildcards_on_scalars_select_nothing() -> None:
    assert select(5, "$.*") == []
    assert select("text", "$[*]") == []
    assert select(None, "$..x") == []


MATCH_CASES = [
    ("$.result._meta", "$.result._meta", True),
    ("$.result._meta", "$.result._meta.ts", False),
    ("$.result.content[*].type", "$.result.content[3].type", True),
    ("$.result.content[*].type", "$.result.content[3].text", False),
    ("$.result.content[0]", '$.result.content["0"]', False),
    ('$.result["0"]', '$.result["0"]', True),
    ('$.result["0"]', "$.result[0]", False),
    ("$..progressToken", "$.params._meta.progressToken", True),
    ("$..progressToken", "$.progressToken", True),
    ("$..progressToken", "$.params._meta.progressToken.x", False),
    ("$..cursor", "$.result.nextCursor", False),
    ("$..*", "$.anything[2].deep", True),
    ("$..*", "$", False),
    ("$", "$", True),
    ("$.a..b.c", "$.a.x.y.b.c", True),
    ("$.a..b.c", "$.a.b.c", True),
    ("$.a..b.c", "$.a.c", False),
    ("$.*", "$.a", True),
    ("$.*", "$[4]", True),
    ("$.*", "$.a.b", False),
]


@pytest.mark.parametrize(("pattern", "path", "expected"), MATCH_CASES)
def test_matches(pattern: str, path: str, expected: bool) -> None:
    assert matches(pattern, path) is expected


def test_matches_takes_parts_too() -> None:
    assert matches("$.result.content[*].type", ("result", "content", 1, "type"))
    assert not matches("$.result.content[1].type", ("result", "content", "1", "type"))
    assert not matches("$.result.content[*].type", ("result", "content", 1, "text"))


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("$.result._meta", "$.result._meta.ts", True),
        ("$.result._meta", "$.result._meta", True),
        ("$.result._meta", "$.result", False),
        ("$..timestamp", "$.a.timestamp.sub[0]", True),
    ],
)
def test_matches_descendants(pattern: str, path: str, expected: bool) -> None:
    assert matches(pattern, path, descendants=True) is expected


def test_select_and_matches_agree() -> None:
    patterns = ["$..text", "$.result.content[*].type", "$..[1]", "$.result.*", "$..*"]
    for pattern in patterns:
        for path, _value in select(DOC, "$..*"):
            chosen = {p for p, _ in select(DOC, pattern)}
            assert (path in chosen) is matches(pattern, path), (pattern, format_path(path))


def test_is_concrete() -> None:
    assert compile_pattern('$.a[0]["b c"]').is_concrete
    assert not compile_pattern("$.a[*]").is_concrete
    assert not compile_pattern("$..a").is_concrete


@pytest.mark.parametrize(
    ("pattern", "fragment"),
    [
        ("", "starts with $"),
        ("result.x", "starts with $"),
        ("$.", "a name or '*' must follow '.'"),
        ("$..", "'..' must be followed"),
        ("$...a", "'..' must be followed"),
        ("$.a[", "unexpected '['"),
        ("$.a[x]", "unexpected '['"),
        ("$.a[-1]", "negative indices are not supported"),
        ("$.a b", "unexpected ' '"),
        ('$["unterminated]', "unexpected '['"),
        ("$.a]", "unexpected ']'"),
        ("$.a*", "unexpected '*'"),
        ("$['bad \\q escape']", "$['bad"),
    ],
)
def test_bad_patterns(pattern: str, fragment: str) -> None:
    with pytest.raises(JsonPathError) as caught:
        compile_pattern(pattern)
    message = str(caught.value)
    assert fragment in message
    assert "bad JSON path pattern" in message or "starts with" in message
    assert isinstance(caught.value, ValueError)


def test_bad_pattern_names_the_position() -> None:
    with pytest.raises(JsonPathError, match=r"at character 5"):
        compile_pattern("$.abc[x]")
