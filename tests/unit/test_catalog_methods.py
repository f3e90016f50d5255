"""servers/list, show, add, edit, remove in-process: the file they leave, the keyring, the refusals."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import keyring.backends.null
import pytest
from keyringkit import MemoryKeyring

from inspector.cli.args import CliOptions
from inspector.cli.catalog import check_catalog, collation_key, run_catalog_method
from inspector.cli.errors import UsageError
from inspector.store.profiles import EnvVar, Header, HttpSettings, Profile, ProfileStore, StdioSettings

SERVICE = "mcp-inspector-desktop"


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MCP_INSPECTOR_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("MCP_CATALOG_PATH", raising=False)
    monkeypatch.delenv("MCP_INSPECTOR_SECRET_STORE", raising=False)
    yield


def opts(catalog: Path | None, method: str, *target: str, **kw: Any) -> CliOptions:
    o = CliOptions(target=list(target), method=method, catalog=None if catalog is None else str(catalog))
    for key, value in kw.items():
        setattr(o, key, value)
    if target and target[0].startswith("http"):
        o.url = target[0]
    return o


def run(o: CliOptions, capsys: pytest.CaptureFixture[str]) -> Any:
    assert run_catalog_method(o) == 0
    return json.loads(capsys.readouterr().out)


def content(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_add_list_show_edit_rename_remove(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cat = tmp_path / "mcp.json"
    result = run(opts(cat, "servers/add", "python", "-m", "srv", server="b", cwd="/tmp"), capsys)
    assert result == {"ok": True, "action": "added", "server": "b", "catalog": str(cat)}
    run(opts(cat, "servers/add", "https://h.example/mcp", server="A", headers=[("X-Trace", "1")]), capsys)
    run(
        opts(cat, "servers/add", "http://127.0.0.1:9/sse", server="_s", protocol_era="modern", protocol_era_given=True),
        capsys,
    )
    assert content(cat) == {
        "mcpServers": {
            "b": {"type": "stdio", "command": "python", "args": ["-m", "srv"], "cwd": "/tmp"},
            "A": {"type": "streamable-http", "url": "https://h.example/mcp", "headers": {"X-Trace": "1"}},
            "_s": {"type": "sse", "url": "http://127.0.0.1:9/sse", "protocolEra": "modern"},
        }
    }
    listed = run(opts(cat, "servers/list"), capsys)
    assert listed == {
        "servers": [
            {"name": "_s", "type": "sse", "detail": "http://127.0.0.1:9/sse"},
            {"name": "A", "type": "streamable-http", "detail": "https://h.example/mcp"},
            {"name": "b", "type": "stdio", "detail": "python -m srv"},
        ]
    }
    shown = run(opts(cat, "servers/show", server="b"), capsys)
    assert shown["config"] == {"type": "stdio", "command": "python", "args": ["-m", "srv"], "cwd": "/tmp"}
    assert shown["settings"]["cwd"] == "/tmp" and shown["settings"]["connectionTimeout"] == 30000
    assert run(opts(cat, "servers/show", server="_s"), capsys)["settings"]["protocolEra"] == "modern"
    run(opts(cat, "servers/add", "bare", server="bare"), capsys)
    assert "settings" not in run(opts(cat, "servers/show", server="bare"), capsys)  # nothing but the command
    run(opts(cat, "servers/remove", server="bare"), capsys)

    edited = run(opts(cat, "servers/edit", server="b", rename="b2", cwd="/var"), capsys)
    assert edited == {"ok": True, "action": "updated", "server": "b2", "previousName": "b", "catalog": str(cat)}
    assert list(content(cat)["mcpServers"]) == ["b2", "A", "_s"]  # renamed in place
    assert content(cat)["mcpServers"]["b2"]["cwd"] == "/var"
    run(opts(cat, "servers/edit", server="_s", protocol_era="legacy", protocol_era_given=True), capsys)
    assert "protocolEra" not in content(cat)["mcpServers"]["_s"]  # legacy is what no protocolEra means
    # a new command replaces the server config; the inspector's fields stay
    run(opts(cat, "servers/edit", "node", "x.js", server="A"), capsys)
    assert content(cat)["mcpServers"]["A"] == {
        "type": "stdio",
        "command": "node",
        "args": ["x.js"],
        "headers": {"X-Trace": "1"},
    }
    removed = run(opts(cat, "servers/remove", server="A"), capsys)
    assert removed == {"ok": True, "action": "removed", "server": "A", "catalog": str(cat)}
    assert list(content(cat)["mcpServers"]) == ["b2", "_s"]


def test_env_values_go_to_the_keyring_and_the_file_gets_placeholders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], memory_keyring: MemoryKeyring
) -> None:
    cat = tmp_path / "mcp.json"
    run(opts(cat, "servers/add", "srv", server="s", env={"API_KEY": "k-123", "MODE": "fast"}), capsys)
    assert content(cat)["mcpServers"]["s"]["env"] == {"API_KEY": "", "MODE": ""}
    assert "k-123" not in cat.read_text() and "fast" not in cat.read_text()
    key = f"catalog/{cat}/s/env/API_KEY"
    assert memory_keyring.passwords[(SERVICE, key)] == "k-123"
    # edit merges -e over the stored ones
    run(opts(cat, "servers/edit", server="s", env={"MODE": "slow", "NEW": "1"}), capsys)
    assert content(cat)["mcpServers"]["s"]["env"] == {"API_KEY": "", "MODE": "", "NEW": ""}
    assert memory_keyring.passwords[(SERVICE, f"catalog/{cat}/s/env/MODE")] == "slow"
    assert memory_keyring.passwords[(SERVICE, key)] == "k-123"
    # a rename carries them, a remove deletes them
    run(opts(cat, "servers/edit", server="s", rename="t"), capsys)
    assert (SERVICE, key) not in memory_keyring.passwords
    assert memory_keyring.passwords[(SERVICE, f"catalog/{cat}/t/env/API_KEY")] == "k-123"
    run(opts(cat, "servers/remove", server="t"), capsys)
    assert not [k for k in memory_keyring.passwords if k[1].startswith("catalog/")]


def test_secret_headers_go_to_the_keyring_plain_ones_stay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], memory_keyring: MemoryKeyring
) -> None:
    cat = tmp_path / "mcp.json"
    headers = [("Authorization", "Bearer tok"), ("X-Api-Key", "abc"), ("X-Region", "eu")]
    run(opts(cat, "servers/add", "https://h.example/mcp", server="w", headers=headers), capsys)
    assert content(cat)["mcpServers"]["w"]["headers"] == {"Authorization": "", "X-Api-Key": "", "X-Region": "eu"}
    assert memory_keyring.passwords[(SERVICE, f"catalog/{cat}/w/header/Authorization")] == "Bearer tok"
    shown = run(opts(cat, "servers/show", server="w"), capsys)
    assert shown["settings"]["headers"] == [
        {"key": "Authorization", "value": "[redacted]"},
        {"key": "X-Api-Key", "value": "[redacted]"},
        {"key": "X-Region", "value": "eu"},
    ]
    # --header on edit replaces the headers; the ones that went are deleted from the keyring
    run(opts(cat, "servers/edit", server="w", headers=[("X-Region", "us")]), capsys)
    assert content(cat)["mcpServers"]["w"]["headers"] == {"X-Region": "us"}
    assert (SERVICE, f"catalog/{cat}/w/header/Authorization") not in memory_keyring.passwords


def test_without_a_keyring_secrets_are_refused_and_nothing_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cat = tmp_path / "mcp.json"
    run(opts(cat, "servers/add", "srv", server="s"), capsys)
    before = cat.read_text()
    keyring.set_keyring(keyring.backends.null.Keyring())  # type: ignore[no-untyped-call]
    for o in (
        opts(cat, "servers/add", "srv", server="t", env={"K": "V"}),
        opts(cat, "servers/add", "https://h.example/mcp", server="u", headers=[("Authorization", "Bearer x")]),
        opts(cat, "servers/edit", server="s", env={"K": "V"}),
    ):
        with pytest.raises(UsageError, match="keeps secrets only in the keyring") as info:
            run_catalog_method(o)
        assert "nothing was changed" in info.value.message and "V" not in info.value.message
    assert cat.read_text() == before
    # what needs no secret still works
    run(opts(cat, "servers/add", "https://h.example/mcp", server="u", headers=[("X-Region", "eu")]), capsys)


def test_edit_moves_plaintext_secrets_of_the_entry_it_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], memory_keyring: MemoryKeyring
) -> None:
    cat = tmp_path / "mcp.json"
    hand = {"mcpServers": {"s": {"command": "x", "env": {"TOKEN": "plain"}}, "o": {"command": "y", "env": {"A": "1"}}}}
    cat.write_text(json.dumps(hand), encoding="utf-8")
    run(opts(cat, "servers/edit", server="s", cwd="/tmp"), capsys)
    data = content(cat)["mcpServers"]
    assert data["s"]["env"] == {"TOKEN": ""} and data["o"] == {"command": "y", "env": {"A": "1"}}
    assert memory_keyring.passwords[(SERVICE, f"catalog/{cat}/s/env/TOKEN")] == "plain"


@pytest.mark.parametrize(
    ("method", "target", "kw", "fragment"),
    [
        ("servers/add", (), {"server": "a"}, "needs the server"),
        ("servers/add", ("x",), {}, "needs --server NAME"),
        ("servers/add", ("x",), {"server": "a b"}, "invalid server name"),
        ("servers/add", ("x",), {"server": "a", "config": "c.json"}, "read-only session file"),
        ("servers/add", ("http://h/other",), {"server": "a"}, "cannot tell the transport"),
        ("servers/add", ("http://h/mcp",), {"server": "a", "cwd": "/tmp"}, "--cwd apply to stdio servers"),
        ("servers/add", ("x",), {"server": "a", "transport": "sse"}, "is for URLs"),
        ("servers/add", ("http://h/mcp",), {"server": "a", "transport": "stdio"}, "needs a server command"),
        ("servers/add", ("x",), {"server": "dup"}, "already exists"),
        ("servers/edit", (), {"server": "dup"}, "needs something to change"),
        ("servers/edit", (), {"server": "dup", "rename": "dup"}, "needs something to change"),
        ("servers/edit", (), {"server": "dup", "rename": " "}, "non-empty name"),
        ("servers/edit", (), {"server": "dup", "rename": "x y"}, "invalid new name"),
        ("servers/edit", (), {"server": "dup", "rename": "web"}, "already exists"),
        ("servers/edit", (), {"server": "dup", "transport": "sse"}, "needs something to change"),
        ("servers/edit", (), {"server": "dup", "transport": "sse", "cwd": "/t"}, "needs the new command or URL"),
        ("servers/edit", (), {"server": "web", "cwd": "/tmp"}, "'web' is streamable-http"),
        ("servers/edit", (), {"server": "nope", "cwd": "/tmp"}, "no server named 'nope'"),
        ("servers/remove", (), {"server": "nope"}, "no server named 'nope'"),
        ("servers/remove", ("x",), {"server": "dup", "cwd": "/t"}, "drop a command or URL, --cwd"),
        ("servers/show", (), {}, "needs --server NAME"),
        ("servers/show", (), {"server": "nope"}, "no server named 'nope'"),
        ("servers/list", (), {"rename": "x"}, "--rename is only used with --method servers/edit"),
    ],
)
def test_refusals(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    method: str,
    target: tuple[str, ...],
    kw: dict[str, Any],
    fragment: str,
) -> None:
    cat = tmp_path / "mcp.json"
    cat.write_text(
        json.dumps(
            {"mcpServers": {"dup": {"type": "stdio", "command": "x"}, "web": {"type": "http", "url": "http://h/mcp"}}}
        ),
        encoding="utf-8",
    )
    before = cat.read_text()
    with pytest.raises(UsageError) as info:
        run_catalog_method(opts(cat, method, *target, **kw))
    assert fragment in info.value.message
    assert info.value.exit_code == 1
    assert cat.read_text() == before


def test_check_catalog_rules() -> None:
    check_catalog(CliOptions(method="servers/add", catalog="c.json", target=["x"]))
    for o, fragment in (
        (CliOptions(method="servers/list", catalog="a", config="b"), "cannot be combined"),
        (CliOptions(method="tools/list", catalog="a", target=["node", "x"]), "--catalog cannot be combined"),
        (CliOptions(method="tools/list", config="a", url="http://h/mcp", target=["http://h/mcp"]), "--config cannot"),
        (CliOptions(method="tools/list", catalog="a", demo=True), "--catalog cannot be combined"),
        (CliOptions(method="servers/show", rename="x"), "--rename is only used"),
        (CliOptions(method="servers/list", relogin=True), "--relogin cannot be combined"),
    ):
        with pytest.raises(UsageError, match=fragment):
            check_catalog(o)


def test_profiles_are_listed_shown_and_shadowed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = ProfileStore()
    weather = store.create(
        Profile(name="weather", stdio=StdioSettings(command="uvx", args=["w"], env=[EnvVar("KEY", "s", True)]))
    )
    store.create(Profile(name="dup", transport="http", http=HttpSettings(url="https://p.example/mcp")))
    cat = tmp_path / "mcp.json"
    run(opts(cat, "servers/add", "x", server="dup"), capsys)
    listed = run(opts(cat, "servers/list"), capsys)["servers"]
    assert listed == [
        {"name": "dup", "type": "stdio", "detail": "x"},
        {
            "name": "dup",
            "type": "streamable-http",
            "detail": "https://p.example/mcp",
            "source": "profile",
            "profileId": listed[1]["profileId"],
            "shadowed": True,
        },
        {"name": "weather", "type": "stdio", "detail": "uvx w", "source": "profile", "profileId": weather.id},
    ]
    shown = run(opts(cat, "servers/show", server="weather"), capsys)
    assert shown["config"]["env"] == {"KEY": "[redacted]"} and shown["source"] == "profile"
    assert run(opts(cat, "servers/show", server="dup"), capsys)["type"] == "stdio"  # the catalog wins
    # --config is served as-is: no profiles
    assert run(opts(None, "servers/list", config=str(cat)), capsys)["servers"] == [
        {"name": "dup", "type": "stdio", "detail": "x"}
    ]
    # profiles are not catalog entries
    with pytest.raises(UsageError, match="saved profile of the window"):
        run_catalog_method(opts(cat, "servers/remove", server="weather"))


def test_list_sorts_like_the_official() -> None:
    names = ["b", "B", "a", "_x", "-y", "9", "A", "ab"]
    assert sorted(names, key=collation_key) == ["_x", "-y", "9", "a", "A", "ab", "b", "B"]


def test_ad_hoc_server_is_listed_as_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(opts(None, "servers/list", "node", "a.js"), capsys) == {
        "servers": [{"name": "default", "type": "stdio", "detail": "node a.js"}]
    }


def test_human_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cat = tmp_path / "mcp.json"
    assert run_catalog_method(opts(cat, "servers/add", "x", "--y", server="a", format="human")) == 0
    assert capsys.readouterr().out == f"added a in {cat}\n"
    assert run_catalog_method(opts(cat, "servers/list", format="human")) == 0
    assert capsys.readouterr().out == "a  stdio  x --y\n"
    assert run_catalog_method(opts(cat, "servers/list", format="json")) == 0
    assert json.loads(capsys.readouterr().out) == {
        "result": {"servers": [{"name": "a", "type": "stdio", "detail": "x --y"}]}
    }


def test_demo_is_a_target(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    cat = tmp_path / "mcp.json"
    run(opts(cat, "servers/add", server="demo", demo=True), capsys)
    entry = content(cat)["mcpServers"]["demo"]
    assert entry == {"type": "stdio", "command": sys.executable, "args": ["-m", "inspector.demo"]}


def test_show_applies_command_line_overrides(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cat = tmp_path / "mcp.json"
    cat.write_text(json.dumps({"mcpServers": {"w": {"type": "sse", "url": "http://h/sse", "headers": {"A": "1"}}}}))
    shown = run(opts(cat, "servers/show", server="w", headers=[("Cookie", "c")]), capsys)
    assert shown["settings"]["headers"] == [{"key": "Cookie", "value": "[redacted]"}]


def test_profile_with_secret_header_is_shown_redacted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ProfileStore().create(
        Profile(
            name="p",
            transport="sse",
            http=HttpSettings(url="http://h/sse", headers=[Header("X-Plain", "v"), Header("Auth", "s", True)]),
        )
    )
    shown = run(opts(tmp_path / "mcp.json", "servers/show", server="p"), capsys)
    assert shown["config"] == {"type": "sse", "url": "http://h/sse", "headers": {"X-Plain": "v", "Auth": "[redacted]"}}
