"""The one JSON path notation: written by ``format_path``, read back by ``parse_path``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from inspector.protocol.jsonpath import format_path, parse_path


@pytest.mark.parametrize(
    ("parts", "root", "text"),
    [
        ((), "$", "$"),
        (("result", "tools", 0, "inputSchema"), "$", "$.result.tools[0].inputSchema"),
        (("with space", 'q"uote'), "$", '$["with space"]["q\\"uote"]'),
        (("my-ext",), "$.result.capabilities.experimental", '$.result.capabilities.experimental["my-ext"]'),
        (("città", "0", "$ref"), "$", '$["città"]["0"]["$ref"]'),
        (("address", "city"), "", "address.city"),
        (("items", 0, "name"), "", "items[0].name"),
        ((3,), "", "[3]"),
        ((), "", ""),
    ],
)
def test_format_and_parse(parts: tuple[str | int, ...], root: str, text: str) -> None:
    assert format_path(parts, root) == text
    assert parse_path(text, root) == parts


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("$['odd key'][3]", ("odd key", 3)),  # single quotes, as older recordings hold
        ("$.a-b", ("a-b",)),  # a dotted name the engine did not write, still read
        ("$.items[-1]", ("items", -1)),
    ],
)
def test_lenient_reading(text: str, parts: tuple[str | int, ...]) -> None:
    assert parse_path(text) == parts


@pytest.mark.parametrize(
    ("text", "root"),
    [("result.x", "$"), ("$[", "$"), ("$x", "$"), ("$.a b", "$"), (".a", ""), ("a..b", ""), ("a[x]", ""), ("[0]b", "")],
)
def test_refuses(text: str, root: str) -> None:
    with pytest.raises(ValueError):
        parse_path(text, root)


PARTS = st.lists(st.one_of(st.integers(0, 10**6), st.text(max_size=8)), max_size=6)


@given(PARTS, st.sampled_from(["$", ""]))
def test_round_trip(parts: list[str | int], root: str) -> None:
    assert parse_path(format_path(parts, root), root) == tuple(parts)
