"""Imports of mcpServers-style files (Claude Desktop, Cursor, VS Code, the official inspector) and export."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from keyringkit import MemoryKeyring

from inspector.store.export import OMITTED_SECRETS_KEY, export_json, export_profiles, write_export
from inspector.store.imports import (
    ImportEntry,
    ImportResult,
    detect_format,
    import_file,
    known_locations,
    looks_secret,
    parse_config,
    strip_jsonc,
)
from inspector.store.profiles import (
    AuthSettings,
    EnvVar,
    Header,
    HttpSettings,
    Profile,
    ProfileStore,
    Root,
    StdioSettings,
)
from inspector.store.secrets import SecretStore


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def by_name(result: ImportResult) -> dict[str, ImportEntry]:
    return {entry.name: entry for entry in result.entries}


# -- Claude Desktop ----------------------------------------------------------------------------------------


CLAUDE = """
{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"]
    },
    "github": {
      "command": "docker",
      "args": ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
      "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_plain_in_file", "LOG_LEVEL": "info"}
    },
    "remote": {"type": "http", "url": "https://mcp.example.com/mcp"}
  },
  "globalShortcut": "Ctrl+Space"
}
"""


def test_claude_desktop(tmp_path: Path) -> None:
    result = import_file(write(tmp_path / "Claude" / "claude_desktop_config.json", CLAUDE))
    assert result.ok, result.errors
    assert result.format == "claude"
    entries = by_name(result)
    assert list(entries) == ["filesystem", "github", "remote"]
    fs = entries["filesystem"].profile
    assert fs.transport == "stdio" and fs.stdio.command == "npx"
    assert fs.stdio.args == ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"]
    gh = entries["github"]
    assert gh.profile.stdio.env == [
        EnvVar("GITHUB_PERSONAL_ACCESS_TOKEN", "ghp_plain_in_file", secret=True),
        EnvVar("LOG_LEVEL", "info", secret=False),
    ]
    assert any("GITHUB_PERSONAL_ACCESS_TOKEN" in w and "keyring" in w for w in gh.warnings)
    assert gh.summary.startswith("stdio: docker run -i --rm")
    assert "(2 env vars, 1 secret)" in gh.summary
    remote = entries["remote"].profile
    assert remote.transport == "http" and remote.http.url == "https://mcp.example.com/mcp"
    assert all(entry.selected for entry in result.entries)


def test_imported_secrets_go_to_the_keyring_not_the_profiles_file(tmp_path: Path) -> None:
    result = import_file(write(tmp_path / "claude_desktop_config.json", CLAUDE))
    backend = MemoryKeyring()
    store = ProfileStore(tmp_path / "cfg" / "profiles.json", SecretStore(backend))
    for profile in result.selected_profiles():
        store.create(profile)
    assert b"ghp_plain_in_file" not in store.path.read_bytes()
    assert "ghp_plain_in_file" in backend.passwords.values()
    github = store.find("github")
    assert github is not None
    assert store.resolve_secrets(github).stdio.env[0].value == "ghp_plain_in_file"


# -- Cursor ---------------------------------------------------------------------------------------------------


CURSOR = """
{
  "mcpServers": {
    "linear": {"url": "https://mcp.linear.app/sse"},
    "docs": {
      "url": "https://docs.example.com/mcp",
      "headers": {"Authorization": "Bearer abc123", "X-Tenant": "acme"}
    },
    "local": {"command": "uvx", "args": ["mcp-server-time"], "envFile": ".env", "disabled": true}
  }
}
"""


def test_cursor(tmp_path: Path) -> None:
    result = import_file(write(tmp_path / "project" / ".cursor" / "mcp.json", CURSOR))
    assert result.ok, result.errors
    assert result.format == "cursor"
    entries = by_name(result)
    linear = entries["linear"]
    assert linear.profile.transport == "sse"
    assert any("legacy SSE assumed" in w for w in linear.warnings)
    docs = entries["docs"]
    assert docs.profile.transport == "http"
    assert docs.profile.http.headers == [
        Header("Authorization", "Bearer abc123", secret=True),
        Header("X-Tenant", "acme", secret=False),
    ]
    assert docs.summary == "http: https://docs.example.com/mcp (2 headers)"
    local = entries["local"]
    assert local.selected is False
    assert local.env_file == ".env"
    assert any("envFile" in w for w in local.warnings)


# -- VS Code ---------------------------------------------------------------------------------------------------


VSCODE = """
// VS Code allows comments
{
  "inputs": [
    {"type": "promptString", "id": "perplexity-key", "description": "Perplexity API Key", "password": true},
    {"type": "promptString", "id": "region", "description": "Region"},
  ],
  "servers": {
    "Perplexity": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "server-perplexity-ask", "--region", "${input:region}"],
      "env": {"PERPLEXITY_API_KEY": "${input:perplexity-key}", "CONFIG": "${workspaceFolder}/conf.json"},
      "envFile": "${workspaceFolder}/.env", /* noted, not read */
    },
    "fetch": {"type": "http", "url": "https://api.example.com/mcp", "headers": {"X-Key": "${input:missing}"}},
    "events": {"type": "sse", "url": "http://localhost:3001/sse"},
  },
}
"""


def test_vscode(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    result = import_file(write(workspace / ".vscode" / "mcp.json", VSCODE))
    assert result.ok, result.errors
    assert result.format == "vscode"
    assert [i.id for i in result.inputs] == ["perplexity-key", "region"]
    entries = by_name(result)
    pplx = entries["Perplexity"]
    env = {v.name: v for v in pplx.profile.stdio.env}
    # the reference is kept and marked as needing input; a password input makes the variable secret
    assert env["PERPLEXITY_API_KEY"].value == "${input:perplexity-key}"
    assert env["PERPLEXITY_API_KEY"].secret is True
    assert env["CONFIG"].value == f"{workspace.resolve()}/conf.json"
    assert pplx.profile.stdio.args[-1] == "${input:region}"
    needs = {(n.kind, n.name, n.input_id, n.password) for n in pplx.needs_input}
    assert needs == {("arg", "3", "region", False), ("env", "PERPLEXITY_API_KEY", "perplexity-key", True)}
    assert any("needs input before connecting" in w for w in pplx.warnings)
    assert pplx.env_file == "${workspaceFolder}/.env"
    fetch = entries["fetch"]
    assert fetch.profile.transport == "http"
    assert fetch.profile.http.headers[0].secret is True  # X-Key looks like a secret
    assert any('"missing"' in w and "does not declare" in w for w in fetch.warnings)
    assert entries["events"].profile.transport == "sse"


def test_vscode_settings_json_with_mcp_section(tmp_path: Path) -> None:
    text = '{"editor.fontSize": 14, "mcp": {"servers": {"time": {"command": "uvx", "args": ["mcp-server-time"]}}}}'
    result = import_file(write(tmp_path / "settings.json", text))
    assert result.ok, result.errors
    assert result.format == "vscode"
    assert [e.name for e in result.entries] == ["time"]


# -- the official inspector's catalog ---------------------------------------------------------------------------


INSPECTOR = """
{
  "mcpServers": {
    "everything-server-default": {
      "type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]
    },
    "my-server": {
      "type": "stdio", "command": "node", "args": ["build/index.js"], "env": {"API_KEY": "k"}, "cwd": "srv"
    },
    "my-modern-server": {
      "type": "streamable-http",
      "url": "https://api.example.com/mcp",
      "protocolEra": "modern",
      "roots": [{"uri": "file:///Users/me/project", "name": "project"}],
      "requestTimeout": 15000,
      "oauth": {"clientId": "inspector", "clientSecret": "oauth-secret", "scopes": ["read", "write"]}
    }
  }
}
"""


def test_inspector_catalog(tmp_path: Path) -> None:
    result = import_file(write(tmp_path / ".mcp-inspector" / "mcp.json", INSPECTOR))
    assert result.ok, result.errors
    assert result.format == "inspector"
    entries = by_name(result)
    assert entries["everything-server-default"].profile.stdio.command == "npx"
    mine = entries["my-server"].profile
    assert mine.stdio.env == [EnvVar("API_KEY", "k", secret=True)]
    assert mine.stdio.cwd == str((tmp_path / ".mcp-inspector").resolve() / "srv")
    modern = entries["my-modern-server"]
    p = modern.profile
    assert p.transport == "http"
    assert p.roots == [Root("file:///Users/me/project", "project")]
    assert p.timeouts.request == 15.0
    assert p.auth == AuthSettings(
        mode="oauth", client_id="inspector", client_secret="oauth-secret", scopes=["read", "write"]
    )
    assert any("protocolEra" in w for w in modern.warnings)  # listed as ignored


# -- errors ------------------------------------------------------------------------------------------------------


def test_malformed_json_gives_line_and_column(tmp_path: Path) -> None:
    path = write(
        tmp_path / "claude_desktop_config.json", '{\n  "mcpServers": {\n    "a": {"command": "x",}\n    "b": 1\n}'
    )
    result = import_file(path)
    assert result.entries == []
    (error,) = result.errors
    assert error.startswith(f"{path}:4:5:")
    assert "line 4, column 5" in error


def test_malformed_after_comment_keeps_positions() -> None:
    text = '// comment with "quotes" and {braces}\n/* block\n comment */ {"servers": {"a": {"command": "x"}} oops}'
    column = text.splitlines()[2].index("oops") + 1
    (error,) = parse_config(text, source="mcp.json").errors
    assert f"line 3, column {column}" in error
    assert error.startswith(f"mcp.json:3:{column}:")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[]", "the top level must be a JSON object, not a list"),
        ('{"other": {}}', 'no "mcpServers" object at the top level'),
        ('{"mcpServers": []}', "mcpServers: expected an object of servers, got a list"),
        ('{"mcpServers": {}}', "mcpServers is empty"),
        ('{"mcpServers": {"a": "npx"}}', "mcpServers.a: expected an object, got a string"),
        (
            '{"mcpServers": {"a": {"command": "x", "args": ["ok", 2]}}}',
            "mcpServers.a.args[1]: expected a string, got a number",
        ),
        ('{"mcpServers": {"a": {"command": "x", "args": "one two"}}}', "mcpServers.a.args: expected a list of strings"),
        (
            '{"mcpServers": {"a": {"command": "x", "env": {"K": 1}}}}',
            "mcpServers.a.env.K: expected a string, got a number",
        ),
        ('{"mcpServers": {"a": {"command": "x", "env": ["K=1"]}}}', "mcpServers.a.env: expected an object of strings"),
        ('{"mcpServers": {"a": {"command": 5}}}', "mcpServers.a.command: expected a string, got a number"),
        ('{"mcpServers": {"a": {"args": []}}}', 'mcpServers.a: needs a "command" (stdio server) or a "url"'),
        ('{"mcpServers": {"a": {"type": "ws", "url": "ws://x"}}}', "mcpServers.a.type: unknown transport 'ws'"),
        ('{"mcpServers": {"a": {"type": "http"}}}', 'mcpServers.a.url: a http server needs a non-empty "url"'),
        ('{"mcpServers": {"a": {"url": "ftp://x/mcp"}}}', "mcpServers.a.url: must be an http:// or https:// URL"),
        (
            '{"mcpServers": {"a": {"url": "https://x", "headers": {"A": 1}}}}',
            "mcpServers.a.headers.A: expected a string",
        ),
        (
            '{"mcpServers": {"a": {"command": "x", "roots": [{"name": "n"}]}}}',
            "mcpServers.a.roots[0].uri: a root needs",
        ),
        (
            '{"mcpServers": {"a": {"command": "x", "requestTimeout": "5s"}}}',
            "mcpServers.a.requestTimeout: expected a positive",
        ),
        (
            '{"servers": {"a": {"command": "x"}}, "inputs": {"id": "x"}}',
            "inputs: expected a list of inputs, got an object",
        ),
        (
            '{"servers": {"a": {"command": "x"}}, "inputs": [{"type": "promptString"}]}',
            "inputs[0].id: expected a non-empty",
        ),
    ],
)
def test_wrong_shapes_name_the_key(text: str, expected: str) -> None:
    result = parse_config(text, source="f.json")
    assert result.errors, result
    assert any(expected in error for error in result.errors), result.errors
    assert all(error.startswith("f.json: ") for error in result.errors)


def test_one_bad_entry_does_not_stop_the_others() -> None:
    text = (
        '{"mcpServers": {"good": {"command": "x"}, "bad": {"command": "y", "args": [1]}, "also": {"url": "https://e"}}}'
    )
    result = parse_config(text, source="f.json")
    assert [e.name for e in result.entries] == ["good", "also"]
    assert result.errors == ["f.json: mcpServers.bad.args[0]: expected a string, got a number"]


def test_file_problems(tmp_path: Path) -> None:
    assert "file not found" in import_file(tmp_path / "nope.json").errors[0]
    assert "is a directory" in import_file(tmp_path).errors[0]
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\xfa")
    assert "not UTF-8" in import_file(binary).errors[0]


# -- helpers -----------------------------------------------------------------------------------------------------


def test_strip_jsonc_keeps_strings_and_positions() -> None:
    text = '{"url": "https://x/y", // c\n "a": [1, 2,], /* x\n y */ "s": "/* not a comment */",}'
    stripped = strip_jsonc(text)
    assert len(stripped) == len(text) and stripped.count("\n") == text.count("\n")
    assert json.loads(stripped) == {"url": "https://x/y", "a": [1, 2], "s": "/* not a comment */"}
    assert strip_jsonc('{"a": "x\\"//y"}') == '{"a": "x\\"//y"}'


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        ("API_KEY", True),
        ("GITHUB_TOKEN", True),
        ("client_secret", True),
        ("DB_PASSWORD", True),
        ("Authorization", True),
        ("X-Api-Key", True),
        ("LOG_LEVEL", False),
        ("PATH", False),
        ("X-Tenant", False),
    ],
)
def test_looks_secret(name: str, secret: bool) -> None:
    assert looks_secret(name) is secret


def test_detect_format() -> None:
    assert detect_format({"servers": {}}) == "vscode"
    assert detect_format({"mcpServers": {}}, Path("/x/claude_desktop_config.json")) == "claude"
    assert detect_format({"mcpServers": {}}, Path("/p/.cursor/mcp.json")) == "cursor"
    assert detect_format({"mcpServers": {}}, Path("/h/.mcp-inspector/mcp.json")) == "inspector"
    assert detect_format({"mcpServers": {}}, Path("/p/.mcp.json")) == "mcpServers"


def test_explicit_format_is_lenient_about_the_key() -> None:
    result = parse_config('{"mcpServers": {"a": {"command": "x"}}}', format="vscode")
    assert result.ok and result.format == "vscode"


def test_known_locations() -> None:
    kinds = [kind for kind, _ in known_locations()]
    assert kinds == ["claude", "cursor", "vscode", "inspector"]


# -- export ---------------------------------------------------------------------------------------------------------


def exportable() -> list[Profile]:
    stdio = Profile(
        name="weather",
        stdio=StdioSettings(
            command="uvx",
            args=["weather-mcp"],
            env=[EnvVar("UNITS", "metric"), EnvVar("API_KEY", "export-s3cr3t", secret=True)],
            cwd="/srv",
        ),
        roots=[Root("file:///data", "data"), Root("file:///tmp")],
    )
    remote = Profile(
        name="remote",
        transport="http",
        http=HttpSettings(
            url="https://example.com/mcp",
            headers=[Header("X-Tenant", "acme"), Header("Authorization", "Bearer hdr-s3cr3t", secret=True)],
        ),
        auth=AuthSettings(mode="oauth", client_id="inspector", client_secret="oauth-s3cr3t", scopes=["read"]),
    )
    remote.timeouts.request = 12.5
    bearer = Profile(
        name="weather",
        transport="sse",
        http=HttpSettings(url="http://localhost:3001/sse"),
        auth=AuthSettings(mode="bearer", bearer_token="bearer-s3cr3t"),
    )
    return [stdio, remote, bearer]


def test_export_omits_secrets_and_lists_them() -> None:
    document = export_profiles(exportable())
    text = json.dumps(document)
    for secret in ("export-s3cr3t", "hdr-s3cr3t", "oauth-s3cr3t", "bearer-s3cr3t"):
        assert secret not in text
    servers = document["mcpServers"]
    assert list(servers) == ["weather", "remote", "weather (2)"]
    assert servers["weather"] == {
        "type": "stdio",
        "command": "uvx",
        "args": ["weather-mcp"],
        "env": {"UNITS": "metric"},
        "cwd": "/srv",
        "roots": [{"uri": "file:///data", "name": "data"}, {"uri": "file:///tmp"}],
    }
    assert servers["remote"] == {
        "type": "http",
        "url": "https://example.com/mcp",
        "headers": {"X-Tenant": "acme"},
        "oauth": {"clientId": "inspector", "scopes": ["read"]},
        "requestTimeout": 12500,
    }
    assert servers["weather (2)"] == {"type": "sse", "url": "http://localhost:3001/sse"}
    assert document[OMITTED_SECRETS_KEY] == {
        "weather": {"env": ["API_KEY"]},
        "remote": {"headers": ["Authorization"], "auth": ["client_secret"]},
        "weather (2)": {"auth": ["bearer_token"]},
    }


def test_export_without_secrets_has_no_omitted_key() -> None:
    document = export_profiles([Profile(name="plain", stdio=StdioSettings(command="x"))])
    assert OMITTED_SECRETS_KEY not in document
    assert document == {"mcpServers": {"plain": {"type": "stdio", "command": "x", "args": []}}}


def test_export_of_stored_profiles_and_reimport(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path / "cfg" / "profiles.json", SecretStore(MemoryKeyring()))
    for profile in exportable():
        store.create(profile)
    target = tmp_path / "out" / "mcp.json"
    write_export(target, store.list_profiles())
    raw = target.read_text()
    assert raw == export_json(store.list_profiles())
    for secret in ("export-s3cr3t", "hdr-s3cr3t", "oauth-s3cr3t", "bearer-s3cr3t"):
        assert secret not in raw
    # the client secret was stored (placeholder in memory), so its omission is still listed
    assert json.loads(raw)[OMITTED_SECRETS_KEY]["remote"]["auth"] == ["client_secret"]
    back = by_name(import_file(target))
    assert back["weather"].profile.stdio.args == ["weather-mcp"]
    assert back["weather"].profile.roots == [Root("file:///data", "data"), Root("file:///tmp")]
    assert back["remote"].profile.timeouts.request == 12.5
    assert back["weather (2)"].profile.transport == "sse"
