"""RFC 6570 templates for resource template forms: variables, expansion, preview, completion pieces."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.content.templates import (
    CompletionResult,
    TemplateError,
    TemplateVariable,
    UriTemplate,
    completion_context,
    parse_completion,
    template_reference,
)


@pytest.mark.parametrize(
    ("template", "variables"),
    [
        ("demo://users/{user_id}/profile", [TemplateVariable("user_id")]),
        ("demo://files/{+path}", [TemplateVariable("path", "+")]),
        ("demo://search{?q,limit}", [TemplateVariable("q", "?"), TemplateVariable("limit", "?")]),
        ("demo://colors/{name}.png", [TemplateVariable("name")]),
        (
            "x://{/seg*}{;p:3}{#frag}{.ext}{&more}",
            [
                TemplateVariable("seg", "/", explode=True),
                TemplateVariable("p", ";", prefix=3),
                TemplateVariable("frag", "#"),
                TemplateVariable("ext", "."),
                TemplateVariable("more", "&"),
            ],
        ),
        ("x://{a}/{a}/{b}", [TemplateVariable("a"), TemplateVariable("b")]),
        ("x://static", []),
    ],
)
def test_variables(template: str, variables: list[TemplateVariable]) -> None:
    parsed = UriTemplate(template)
    assert list(parsed.variables) == variables
    assert parsed.names == [v.name for v in variables]


def test_required_and_hints() -> None:
    t = UriTemplate("x://{a}/{+b}{?c}{/d*}{;e:2}")
    assert [v.name for v in t.variables if v.required] == ["a", "b"]
    hints = {v.name: v.hint for v in t.variables}
    assert "percent-encoded" in hints["a"]
    assert "kept as typed" in hints["b"]
    assert "query parameter" in hints["c"]
    assert "separated by commas" in hints["d"]
    assert "first 2 characters" in hints["e"]


@pytest.mark.parametrize(
    ("template", "values", "expanded"),
    [
        ("demo://users/{user_id}/profile", {"user_id": "ada"}, "demo://users/ada/profile"),
        ("demo://users/{user_id}/profile", {"user_id": "a b/c"}, "demo://users/a%20b%2Fc/profile"),
        ("demo://files/{+path}", {"path": "notes/todo.txt"}, "demo://files/notes/todo.txt"),
        ("demo://files/{+path}", {"path": "a b?c#d"}, "demo://files/a%20b?c#d"),
        ("demo://search{?q,limit}", {"q": "hello world", "limit": "5"}, "demo://search?q=hello%20world&limit=5"),
        ("demo://search{?q,limit}", {"limit": "5"}, "demo://search?limit=5"),
        ("demo://search{?q,limit}", {"q": "", "limit": ""}, "demo://search"),
        ("x://base{/seg*}", {"seg": "a, b,c"}, "x://base/a/b/c"),
        ("x://base{;p:3}", {"p": "abcdef"}, "x://base;p=abc"),
        ("x://doc{#frag}", {"frag": "sec 1"}, "x://doc#sec%201"),
        ("x://static", {}, "x://static"),
    ],
)
def test_expand(template: str, values: dict[str, str], expanded: str) -> None:
    assert UriTemplate(template).expand(values) == expanded


def test_preview_keeps_unfilled_required_variables_visible() -> None:
    t = UriTemplate("demo://users/{user_id}/profile")
    assert t.preview({}) == "demo://users/{user_id}/profile"
    assert t.missing({}) == ["user_id"] and not t.is_complete({"user_id": ""})
    assert t.preview({"user_id": "ada"}) == "demo://users/ada/profile" and t.is_complete({"user_id": "ada"})
    q = UriTemplate("demo://search{?q,limit}")
    assert q.preview({}) == "demo://search" and q.is_complete({})
    assert q.preview({"q": "x"}) == "demo://search?q=x"
    both = UriTemplate("x://{a}/{b}{?c}")
    assert both.preview({"b": "2", "c": "3"}) == "x://{a}/2?c=3"
    assert both.missing({"b": "2"}) == ["a"]


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("x://{a", "unclosed"),
        ("x://a}", "unmatched"),
        ("x://{}", "empty expression"),
        ("x://{{a}}", "nested"),
        ("x://{a:zz}", "invalid literal"),
        ("x://{,}", "empty name"),
    ],
)
def test_invalid_templates(template: str, message: str) -> None:
    with pytest.raises(TemplateError, match=message):
        UriTemplate(template)


def test_completion_request_pieces() -> None:
    assert template_reference("demo://users/{user_id}/profile") == {
        "type": "ref/resource",
        "uri": "demo://users/{user_id}/profile",
    }
    assert completion_context({"q": "x", "limit": "5", "empty": ""}, exclude="q") == {"arguments": {"limit": "5"}}
    assert completion_context({"q": "x"}, exclude="q") is None


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        ({"completion": {"values": ["ada", "alan"]}}, CompletionResult(("ada", "alan"))),
        (
            {"completion": {"values": ["a"], "total": 12, "hasMore": True}},
            CompletionResult(("a",), total=12, has_more=True),
        ),
        (
            {"completion": {"values": ["a", 3, None]}},
            CompletionResult(("a",), problem="some completion values are not strings (ignored)"),
        ),
        ({"completion": {"values": [], "total": True}}, CompletionResult(())),
        ({}, CompletionResult(problem='the result has no "completion" object')),
        ({"completion": {"values": "ada"}}, CompletionResult(problem='"completion.values" is not an array')),
        (None, CompletionResult(problem='the result has no "completion" object')),
    ],
)
def test_parse_completion(result: Any, expected: CompletionResult) -> None:
    assert parse_completion(result) == expected
