"""Reading a pasted mcpServers snippet (``inspector.store.snippets``): the shapes people copy, and where it breaks."""

from __future__ import annotations

import pytest

from inspector.store.snippets import parse_snippet

GOOD = """{
  "mcpServers": {
    "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
               "env": {"GITHUB_TOKEN": "t"}},
    "remote": {"url": "https://example.com/sse"},
  }
}"""


def test_a_whole_file() -> None:
    snippet = parse_snippet(GOOD)
    assert snippet.line is None and snippet.result.ok
    assert [e.name for e in snippet.result.entries] == ["github", "remote"]
    github, remote = snippet.result.entries
    assert github.profile.stdio.env[0].secret
    assert remote.profile.transport == "sse"


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ('{"time": {"command": "uvx", "args": ["mcp-server-time"]}}', ["time"]),
        ('"time": {"command": "uvx"},\n"git": {"command": "uvx", "args": ["mcp-server-git"]}', ["time", "git"]),
        ('{"command": "uvx", "args": ["mcp-server-time"]}', ["server"]),
        ('{"servers": {"a": {"type": "http", "url": "https://x/mcp"}}}', ["a"]),
        ('{"mcp": {"servers": {"a": {"type": "stdio", "command": "a"}}}}', ["a"]),
    ],
)
def test_the_parts_people_copy(text: str, names: list[str]) -> None:
    snippet = parse_snippet(text)
    assert snippet.result.ok, snippet.result.errors
    assert [e.name for e in snippet.result.entries] == names


def test_malformed_json_names_line_and_column() -> None:
    snippet = parse_snippet('{\n  "mcpServers": {\n    "x": {"command" "a"}\n  }\n}')
    assert (snippet.line, snippet.column) == (3, 21)
    assert not snippet.result.entries
    assert "line 3, column 21" in snippet.result.errors[0]


def test_a_fragment_with_an_error_points_into_the_text_as_pasted() -> None:
    snippet = parse_snippet('"a": {"command": "x"},\n"b": {"command": }')
    assert (snippet.line, snippet.column) == (1, 4)  # the original text's error, not the wrapped one's
    assert snippet.result.errors


def test_blank_and_wrong_shapes() -> None:
    assert parse_snippet("  \n").empty
    wrong = parse_snippet('{"mcpServers": {"a": {"command": 3}}}')
    assert not wrong.result.entries and "mcpServers.a.command: expected a string" in wrong.result.errors[0]
    listed = parse_snippet("[1, 2]")
    assert "must be a JSON object" in listed.result.errors[0] and listed.line is None
