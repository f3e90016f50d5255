"""The catalog file layer: where catalogs are; creating, reading; atomic 0600 writes that keep what they leave."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from inspector.cli.catalog_file import (
    EMPTY_CATALOG,
    CatalogDocument,
    catalog_path,
    client_config_path,
    default_catalog_path,
    read_catalog,
    read_config,
    write_catalog,
)
from inspector.cli.errors import CliFailure, UsageError


def test_default_paths_follow_home_and_the_environment(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path)}
    assert default_catalog_path(env) == tmp_path / ".mcp-inspector" / "mcp.json"
    assert client_config_path(None, env) == tmp_path / ".mcp-inspector" / "storage" / "client.json"
    env["MCP_CATALOG_PATH"] = str(tmp_path / "elsewhere.json")
    env["MCP_CLIENT_CONFIG_PATH"] = str(tmp_path / "c.json")
    assert default_catalog_path(env) == tmp_path / "elsewhere.json"
    assert client_config_path(None, env) == tmp_path / "c.json"
    # the option wins; an empty one counts as not given (as the official's `--catalog ""`)
    assert catalog_path(str(tmp_path / "opt.json"), env) == tmp_path / "opt.json"
    assert catalog_path("  ", env) == tmp_path / "elsewhere.json"
    assert client_config_path(str(tmp_path / "x.json"), env) == tmp_path / "x.json"


def test_relative_paths_are_made_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert catalog_path("sub/c.json", {}) == tmp_path / "sub" / "c.json"


def test_reading_a_missing_catalog_creates_it_empty_and_private(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "dir" / "mcp.json"
    document = read_catalog(path)
    assert document.servers == {} and document.names() == []
    assert path.read_text(encoding="utf-8") == EMPTY_CATALOG
    assert json.loads(EMPTY_CATALOG) == {"mcpServers": {}}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_write_only_read_does_not_create_the_file(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    document = read_catalog(path, create=False, for_write=True)
    assert not path.exists()
    document.set_entry("a", {"type": "stdio", "command": "x"})
    write_catalog(document)
    assert json.loads(path.read_text()) == {"mcpServers": {"a": {"type": "stdio", "command": "x"}}}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_writing_keeps_unknown_keys_and_other_entries_as_they_were(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    original: dict[str, Any] = {
        "$schema": "x",
        "mcpServers": {
            "hand": {"command": "node", "args": ["a.js"], "custom": {"deep": [1, 2]}, "disabled": True},
            "web": {"url": "http://127.0.0.1:1/mcp"},
        },
        "inputs": [{"id": "k"}],
    }
    path.write_text(json.dumps(original), encoding="utf-8")
    os.chmod(path, 0o644)
    document = read_catalog(path)
    document.set_entry("new", {"type": "stdio", "command": "y"})
    write_catalog(document)
    written = json.loads(path.read_text())
    assert written == {**original, "mcpServers": {**original["mcpServers"], "new": {"type": "stdio", "command": "y"}}}
    assert list(written["mcpServers"]) == ["hand", "web", "new"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # written private even when it was not
    assert not [p for p in tmp_path.iterdir() if p.name != "mcp.json"]  # no temp file left


def test_renaming_keeps_the_position_and_removing_drops_one(tmp_path: Path) -> None:
    document = CatalogDocument(tmp_path / "c.json", {"mcpServers": {"a": {}, "b": {}, "c": {}}})
    document.set_entry("b2", {"command": "z"}, replacing="b")
    assert list(document.servers) == ["a", "b2", "c"] and document.servers["b2"] == {"command": "z"}
    document.remove_entry("a")
    assert list(document.servers) == ["b2", "c"]
    document.remove_entry("missing")  # (nothing to do)
    assert list(document.servers) == ["b2", "c"]


def test_a_file_without_mcpservers_gets_it_on_write_but_cannot_be_read(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text('{"servers": {"vs": {"command": "code"}}, "other": 1}', encoding="utf-8")
    with pytest.raises(UsageError, match='no "mcpServers" object'):
        read_catalog(path)
    document = read_catalog(path, for_write=True)
    assert document.servers == {}  # "servers" is not the catalog's key
    document.set_entry("a", {"command": "x"})
    write_catalog(document)
    assert json.loads(path.read_text()) == {
        "servers": {"vs": {"command": "code"}},
        "other": 1,
        "mcpServers": {"a": {"command": "x"}},
    }


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("not json", ":1:1: invalid JSON"),
        ('{\n  "mcpServers": {,}\n}', ":2:18: invalid JSON"),
        ("[1]", "top level must be a JSON object"),
        ('{"mcpServers": []}', '"mcpServers" must be an object'),
    ],
)
def test_unreadable_catalogs_name_the_file(tmp_path: Path, content: str, fragment: str) -> None:
    path = tmp_path / "c.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(UsageError) as info:
        read_catalog(path)
    assert fragment in info.value.message and str(path) in info.value.message
    assert path.read_text(encoding="utf-8") == content  # never rewritten


def test_a_config_file_is_read_only_and_must_exist(tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    with pytest.raises(UsageError, match="config file not found"):
        read_config(missing)
    assert not missing.exists()  # never created
    path = tmp_path / "vscode.json"
    path.write_text('{"servers": {"s": {"type": "stdio", "command": "x"}}}', encoding="utf-8")
    document = read_config(path)
    assert document.names() == ["s"] and not document.writable
    with pytest.raises(AssertionError):
        write_catalog(document)


def test_non_object_entries_are_not_names(tmp_path: Path) -> None:
    document = CatalogDocument(tmp_path / "c.json", {"mcpServers": {"a": {"command": "x"}, "b": "junk"}})
    assert document.names() == ["a"]
    assert document.entry("b") is None and document.entry("a") == {"command": "x"}


def test_an_unwritable_directory_is_one_clear_failure(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("", encoding="utf-8")
    document = CatalogDocument(blocked / "mcp.json", {"mcpServers": {}})
    with pytest.raises(CliFailure) as info:
        write_catalog(document)
    assert info.value.exit_code == 1
    assert "cannot write the catalog" in info.value.message and str(blocked) in info.value.message
