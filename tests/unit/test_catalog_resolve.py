"""--server NAME for a run: an entry of --config, --catalog or the default catalog, else a saved profile."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from keyringkit import MemoryKeyring

from inspector.cli.args import CliOptions
from inspector.cli.auth_options import AuthCliOptions
from inspector.cli.client_config import load_client_config
from inspector.cli.config import prepare_server
from inspector.cli.errors import UsageError
from inspector.store.profiles import AuthSettings, EnvVar, HttpSettings, Profile, ProfileStore, StdioSettings

SERVICE = "mcp-inspector-desktop"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MCP_INSPECTOR_CONFIG_DIR", str(tmp_path / "config"))
    for name in ("MCP_CATALOG_PATH", "MCP_CLIENT_CONFIG_PATH", "MCP_INSPECTOR_SECRET_STORE"):
        monkeypatch.delenv(name, raising=False)
    yield home


def catalog(home: Path, servers: dict[str, Any]) -> Path:
    path = home / ".mcp-inspector" / "mcp.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    return path


def run_opts(**kw: Any) -> CliOptions:
    o = CliOptions(method="tools/list")
    for key, value in kw.items():
        setattr(o, key, value)
    return o


def test_stdio_entry_of_the_default_catalog_with_keyring_placeholders(
    home: Path, memory_keyring: MemoryKeyring, tmp_path: Path
) -> None:
    path = catalog(home, {"s": {"type": "stdio", "command": "srv", "args": ["-v"], "env": {"K": "", "P": "plain"}}})
    memory_keyring.passwords[(SERVICE, f"catalog/{path}/s/env/K")] = "secret"
    spec = prepare_server(run_opts(server="s", env={"X": "1"}, cwd=str(tmp_path)))
    assert spec is not None
    assert (spec.command, spec.args, spec.name, spec.cwd) == ("srv", ("-v",), "s", str(tmp_path))
    assert spec.env == {"K": "secret", "P": "plain", "X": "1"}


def test_the_only_entry_needs_no_name_and_a_missing_catalog_is_created(home: Path) -> None:
    with pytest.raises(UsageError, match='"mcpServers" is empty'):
        prepare_server(run_opts())
    assert (home / ".mcp-inspector" / "mcp.json").exists()  # created empty, as the official
    catalog(home, {"only": {"command": "x"}})
    spec = prepare_server(run_opts())
    assert spec is not None and spec.name == "only"
    catalog(home, {"a": {"command": "x"}, "b": {"command": "y"}})
    with pytest.raises(UsageError, match=r"choose one with --server \(a, b\)"):
        prepare_server(run_opts())


def test_placeholders_fall_back_to_the_official_secrets_file(home: Path) -> None:
    catalog(home, {"s": {"type": "stdio", "command": "srv", "env": {"K": ""}}})
    secrets = {"version": 1, "encryption": "none", "secrets": {"s:env:K": "from-official"}}
    (home / ".mcp-inspector" / "secrets.json").write_text(json.dumps(secrets), encoding="utf-8")
    spec = prepare_server(run_opts(server="s"))
    assert spec is not None and spec.env == {"K": "from-official"}
    # an encrypted file is not read; an unknown value stays empty (as the official)
    secrets["encryption"] = "aes-256-gcm"
    (home / ".mcp-inspector" / "secrets.json").write_text(json.dumps(secrets), encoding="utf-8")
    spec = prepare_server(run_opts(server="s"))
    assert spec is not None and spec.env == {"K": ""}


def test_http_entry_fills_the_url_and_settings(
    home: Path, memory_keyring: MemoryKeyring, capsys: pytest.CaptureFixture[str]
) -> None:
    entry = {
        "type": "streamable-http",
        "url": "https://h.example/mcp",
        "headers": {"Authorization": "", "X-Region": "eu", "Cookie": ""},
        "protocolEra": "modern",
        "connectionTimeout": 0,
        "requestTimeout": 5000,
        "metadata": {"a": 1, "b": 2},
        "oauth": {"clientId": "cid", "scopes": "read write"},
    }
    path = catalog(home, {"w": entry})
    memory_keyring.passwords[(SERVICE, f"catalog/{path}/w/header/Authorization")] = "Bearer t"
    memory_keyring.passwords[(SERVICE, f"catalog/{path}/w/oauth/clientSecret")] = "cs"
    o = run_opts(server="w", metadata={"b": 3})
    assert prepare_server(o) is None
    assert (o.url, o.target, o.transport) == ("https://h.example/mcp", ["https://h.example/mcp"], "http")
    assert o.headers == [("Authorization", "Bearer t"), ("X-Region", "eu")]
    assert "Cookie is empty and the keyring holds no value; not sent" in capsys.readouterr().err
    assert (o.protocol_era, o.connect_timeout, o.timeout) == ("modern", None, 5.0)
    assert o.metadata == {"a": 1, "b": 3}
    assert (o.client_id, o.client_secret, o.scopes) == ("cid", "cs", ["read", "write"])


def test_the_command_line_wins_over_the_entry(home: Path) -> None:
    catalog(
        home, {"w": {"type": "sse", "url": "http://127.0.0.1:1/sse", "headers": {"A": "1"}, "protocolEra": "modern"}}
    )
    o = run_opts(server="w", headers=[("B", "2")], protocol_era="legacy", protocol_era_given=True, timeout=9.0)
    assert prepare_server(o) is None
    assert o.headers == [("B", "2")]  # --header replaces the entry's headers, as the official
    assert (o.protocol_era, o.transport, o.timeout) == ("legacy", "sse", 9.0)
    # a 2026-07-28 --protocol-version implies the modern era over a file's legacy
    catalog(home, {"w": {"type": "sse", "url": "http://127.0.0.1:1/sse", "protocolEra": "legacy"}})
    o = run_opts(server="w", protocol_version="2026-07-28", protocol_era="modern")
    prepare_server(o)
    assert o.protocol_era == "modern"


def test_stdio_only_options_on_an_http_entry(home: Path) -> None:
    catalog(home, {"w": {"type": "http", "url": "http://127.0.0.1:1/mcp"}})
    with pytest.raises(UsageError, match="-e apply to stdio servers; 'w' is streamable-http"):
        prepare_server(run_opts(server="w", env={"K": "V"}))


def test_a_profile_is_used_when_the_catalog_has_no_such_entry(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = ProfileStore()
    store.create(
        Profile(name="weather", stdio=StdioSettings(command="uvx", args=["w"], env=[EnvVar("KEY", "s3", True)]))
    )
    store.create(
        Profile(
            name="remote",
            transport="http",
            http=HttpSettings(url="https://p.example/mcp"),
            auth=AuthSettings(mode="bearer", bearer_token="tok"),
            protocol_era="legacy",
        )
    )
    spec = prepare_server(run_opts(server="Weather"))  # (found by name regardless of case, as the window's store)
    assert spec is not None and (spec.command, spec.args, spec.env) == ("uvx", ("w",), {"KEY": "s3"})
    o = run_opts(server="remote")
    assert prepare_server(o) is None
    assert (o.url, o.headers, o.protocol_era) == ("https://p.example/mcp", [("Authorization", "Bearer tok")], "legacy")
    # a catalog entry of the same name wins, and the CLI says so
    catalog(home, {"weather": {"command": "other"}})
    spec = prepare_server(run_opts(server="weather"))
    assert spec is not None and spec.command == "other"
    assert "the catalog entry is used; a saved profile has the same name" in capsys.readouterr().err
    # none at all: both kinds of names are offered
    with pytest.raises(UsageError, match="defined: weather; saved profiles: weather, remote"):
        prepare_server(run_opts(server="nope"))


def test_a_profile_whose_secret_is_not_in_the_keyring(home: Path, memory_keyring: MemoryKeyring) -> None:
    ProfileStore().create(Profile(name="p", stdio=StdioSettings(command="x", env=[EnvVar("KEY", "v", True)])))
    memory_keyring.passwords.clear()
    with pytest.raises(UsageError, match="needs its environment variable KEY from the keyring"):
        prepare_server(run_opts(server="p"))


def test_config_files_are_read_only_and_offer_no_profiles(home: Path, tmp_path: Path) -> None:
    ProfileStore().create(Profile(name="p", stdio=StdioSettings(command="x")))
    missing = tmp_path / "none.json"
    with pytest.raises(UsageError, match="config file not found"):
        prepare_server(run_opts(config=str(missing), server="a"))
    assert not missing.exists()
    config = tmp_path / "c.json"
    config.write_text('{"mcpServers": {"a": {"command": "x"}}}', encoding="utf-8")
    with pytest.raises(UsageError) as info:
        prepare_server(run_opts(config=str(config), server="p"))
    assert "no server named 'p'; defined: a" in info.value.message and "profiles" not in info.value.message


def test_client_config_cimd_and_enterprise_idp(home: Path, tmp_path: Path) -> None:
    client = tmp_path / "client.json"
    client.write_text(
        json.dumps(
            {
                "cimd": {"enabled": True, "clientMetadataUrl": "https://c.example/client.json"},
                "enterpriseManagedAuth": {"idp": {"issuer": "https://idp.example", "clientId": "me"}},
            }
        ),
        encoding="utf-8",
    )
    o = CliOptions(method="tools/list", target=["https://h.example/mcp"], url="https://h.example/mcp")
    o.client_config = str(client)
    o.oauth = AuthCliOptions(id_token_file="tok.jwt")
    assert prepare_server(o) is None
    assert o.client_metadata_url == "https://c.example/client.json"
    assert (o.oauth.idp_issuer, o.oauth.idp_client_id) == ("https://idp.example", "me")
    # the command line wins
    o = CliOptions(method="tools/list", target=["https://h.example/mcp"], url="https://h.example/mcp", client_id="mine")
    o.client_config = str(client)
    prepare_server(o)
    assert o.client_metadata_url is None


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ("nope", "invalid JSON"),
        ('{"cimd": {"enabled": "yes", "clientMetadataUrl": "x"}}', "cimd.enabled must be true or false"),
        ('{"cimd": {"enabled": true, "clientMetadataUrl": "https://c.example/"}}', "with a path"),
        ('{"enterpriseManagedAuth": {"idp": {"issuer": "ftp://x", "clientId": "a"}}}', "issuer must be an http"),
        ('{"enterpriseManagedAuth": {"idp": {"issuer": "https://x"}}}', "clientId must be a string"),
    ],
)
def test_a_bad_client_config_is_a_usage_error_even_for_stdio(
    home: Path, tmp_path: Path, data: str, fragment: str
) -> None:
    client = tmp_path / "client.json"
    client.write_text(data, encoding="utf-8")
    with pytest.raises(UsageError, match=fragment):
        load_client_config(client)
    o = CliOptions(method="tools/list", target=["node", "x"], client_config=str(client))
    with pytest.raises(UsageError, match=fragment):
        prepare_server(o)


def test_a_disabled_cimd_is_not_checked_or_used(tmp_path: Path) -> None:
    client = tmp_path / "client.json"
    client.write_text('{"cimd": {"enabled": false, "clientMetadataUrl": ""}}', encoding="utf-8")
    assert load_client_config(client).cimd_url is None
    assert load_client_config(tmp_path / "absent.json").cimd_url is None
