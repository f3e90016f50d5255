"""Finding other clients' MCP config files (``inspector.store.client_configs``) and Claude Code's format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.store.client_configs import candidate_configs, find_client_configs
from inspector.store.imports import detect_format, import_file, parse_config


def write(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def servers(*names: str) -> dict[str, dict[str, object]]:
    return {name: {"command": "uvx", "args": [name]} for name in names}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    return folder


def linux_env(home: Path) -> dict[str, str]:
    return {"HOME": str(home), "XDG_CONFIG_HOME": str(home / "xdg")}


def test_every_client_on_linux_found_with_counts(home: Path, project: Path) -> None:
    xdg = home / "xdg"
    expected = {
        write(xdg / "Claude" / "claude_desktop_config.json", {"mcpServers": servers("a", "b")}): 2,
        write(xdg / "Code" / "User" / "mcp.json", {"servers": servers("c")}): 1,
        write(xdg / "Code" / "User" / "settings.json", '{"editor.fontSize": 13, // JSONC\n "mcp": {"servers": '
              + json.dumps(servers("d", "e", "f")) + "},}"): 3,
        write(home / ".cursor" / "mcp.json", {"mcpServers": servers("g")}): 1,
        write(home / ".claude.json", {"mcpServers": servers("h"), "projects": {
            "/work/app": {"mcpServers": servers("h", "i")}, "/work/empty": {"allowedTools": []}}}): 3,
        write(project / ".vscode" / "mcp.json", {"servers": servers("j")}): 1,
        write(project / ".cursor" / "mcp.json", {"mcpServers": servers("k", "l")}): 2,
        write(project / ".mcp.json", {"mcpServers": servers("m")}): 1,
    }  # fmt: skip
    found = find_client_configs(project, env=linux_env(home), platform="linux")
    assert {f.path: f.count for f in found} == expected
    assert [f.label for f in found] == [
        "Claude Desktop", "VS Code", "VS Code", "Cursor", "Claude Code",
        "VS Code (this folder)", "Cursor (this folder)", "Claude Code (this folder)",
    ]  # fmt: skip
    assert all(f.result.ok for f in found)


def test_nothing_found_in_an_empty_home(home: Path, project: Path) -> None:
    home.mkdir()
    assert find_client_configs(project, env=linux_env(home), platform="linux") == []


def test_settings_without_servers_are_not_listed_but_broken_mcp_files_are(home: Path, project: Path) -> None:
    write(home / "xdg" / "Code" / "User" / "settings.json", {"editor.fontSize": 13})
    write(home / ".claude.json", {"numStartups": 3, "projects": {"/x": {"mcpServers": {}}}})
    broken = write(home / ".cursor" / "mcp.json", '{"mcpServers": {\n  "a": {"command": "x",}\n  "b": 1}')
    found = find_client_configs(project, env=linux_env(home), platform="linux")
    assert [f.path for f in found] == [broken]
    assert found[0].count == 0
    assert "line 3, column 3" in found[0].result.errors[0]


def test_mac_and_windows_locations(home: Path, project: Path) -> None:
    mac = {c.path for c in candidate_configs(project, env={"HOME": str(home)}, platform="darwin")}
    support = home / "Library" / "Application Support"
    assert support / "Claude" / "claude_desktop_config.json" in mac
    assert support / "Code" / "User" / "mcp.json" in mac
    appdata = home / "Roaming"
    windows = candidate_configs(project, env={"USERPROFILE": str(home), "APPDATA": str(appdata)}, platform="win32")
    paths = {c.path for c in windows}
    assert appdata / "Claude" / "claude_desktop_config.json" in paths
    assert appdata / "Code" / "User" / "settings.json" in paths
    assert home / ".claude.json" in paths and home / ".cursor" / "mcp.json" in paths


def test_project_folder_that_is_home_is_listed_once(home: Path) -> None:
    write(home / ".cursor" / "mcp.json", {"mcpServers": servers("a")})
    found = find_client_configs(home, env=linux_env(home), platform="linux")
    assert [(f.label, f.count) for f in found] == [("Cursor", 1)]


# -- Claude Code's format -----------------------------------------------------------------------------------------


def test_claude_code_user_and_project_servers(tmp_path: Path) -> None:
    path = write(
        tmp_path / ".claude.json",
        {
            "mcpServers": {"search": {"type": "http", "url": "https://example.com/mcp", "headers": {"X-Api-Key": "k"}}},
            "projects": {
                "/work/app": {"mcpServers": {"search": {"type": "stdio", "command": "./srv", "cwd": "bin"}}},
                "/work/other": {"mcpServers": {"bad": {"type": "carrier-pigeon"}}},
            },
        },
    )
    assert detect_format({}, path) == "claude-code"
    result = import_file(path)
    assert result.format == "claude-code"
    names = [e.name for e in result.entries]
    assert names == ["search", "search (app)"]
    remote, local = result.entries
    assert remote.profile.transport == "http" and remote.profile.http.headers[0].secret
    assert local.profile.name == "search (app)" and local.profile.stdio.cwd == str(Path("/work/app").resolve() / "bin")
    assert local.warnings[0] == "from the project /work/app"
    assert len(result.errors) == 1 and 'projects["/work/other"].mcpServers.bad.type' in result.errors[0]


def test_claude_code_without_servers_says_so() -> None:
    result = parse_config('{"projects": {"/a": {"allowedTools": []}}}', format="claude-code")
    assert not result.entries and "no servers" in result.errors[0]
    wrong = parse_config('{"mcpServers": []}', format="claude-code")
    assert "mcpServers: expected an object of servers, got a list" in wrong.errors[0]


def test_project_mcp_json_read_as_claude_code(tmp_path: Path) -> None:
    path = write(tmp_path / ".mcp.json", {"mcpServers": {"db": {"command": "db-mcp", "env": {"DB_PASSWORD": "x"}}}})
    result = import_file(path, format="claude-code")
    assert result.format == "claude-code" and [e.name for e in result.entries] == ["db"]
    assert result.entries[0].profile.stdio.env[0].secret
