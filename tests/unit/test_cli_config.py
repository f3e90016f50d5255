"""mcpServers-format config files for ``--config FILE --server NAME``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from inspector.cli.config import ServerSpec, demo_server, load_config_file, resolve_server, server_from_config
from inspector.cli.errors import UsageError


def write(tmp_path: Path, content: str, name: str = "mcp.json") -> str:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    return str(path)


def resolve(path: str, server: str | None = None, **kw: object) -> ServerSpec:
    args: dict[str, object] = {"target": [], "config": path, "server": server, "demo": False, "env": {}, "cwd": None}
    args.update(kw)
    return resolve_server(**args)  # type: ignore[arg-type]


def test_full_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "srv").mkdir()
    monkeypatch.chdir(tmp_path)
    config = {
        "mcpServers": {
            "time": {"command": "python", "args": ["-m", "mcp_server_time"], "env": {"TZ": "UTC"}, "cwd": "srv"},
            "other": {"command": "node"},
        }
    }
    path = write(tmp_path, json.dumps(config))
    spec = resolve(path, "time")
    assert spec.command == "python"
    assert spec.args == ("-m", "mcp_server_time")
    assert spec.env == {"TZ": "UTC"}
    assert spec.cwd == "srv"  # relative to the current directory, as the official CLI starts it
    assert spec.name == "time"
    assert spec.describe() == "python -m mcp_server_time"


def test_command_line_env_and_cwd_win(tmp_path: Path) -> None:
    path = write(tmp_path, json.dumps({"mcpServers": {"s": {"command": "x", "env": {"A": "1", "B": "2"}}}}))
    spec = resolve(path, "s", env={"B": "3", "C": "4"}, cwd=str(tmp_path))
    assert spec.env == {"A": "1", "B": "3", "C": "4"}
    assert spec.cwd == str(tmp_path)


def test_single_server_needs_no_name(tmp_path: Path) -> None:
    path = write(tmp_path, json.dumps({"mcpServers": {"only": {"command": "x"}}}))
    assert resolve(path).name == "only"


def test_vscode_servers_key_is_accepted(tmp_path: Path) -> None:
    path = write(tmp_path, json.dumps({"servers": {"s": {"type": "stdio", "command": "x"}}}))
    assert resolve(path, "s").command == "x"


@pytest.mark.parametrize(
    ("content", "server", "fragment"),
    [
        ('{\n  "mcpServers": {\n    "a": {"command": "x",}\n  }\n}', "a", ":3:26: invalid JSON"),
        ("{\n\n  oops\n}", None, ":3:3: invalid JSON"),
        ("", None, ":1:1: invalid JSON"),
        ("[1, 2]", None, "top level must be a JSON object"),
        ('{"other": {}}', None, 'no "mcpServers" object'),
        ('{"mcpServers": []}', None, "must be an object of server entries"),
        ('{"mcpServers": {}}', None, "is empty"),
        ('{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}}', None, "choose one with --server (a, b)"),
        ('{"mcpServers": {"a": {"command": "x"}}}', "zz", "no server named 'zz'; defined: a"),
        ('{"mcpServers": {"a": "x"}}', "a", "mcpServers.a must be an object"),
        ('{"mcpServers": {"a": {"args": []}}}', "a", "mcpServers.a.command must be a non-empty string"),
        ('{"mcpServers": {"a": {"command": "x", "args": "y"}}}', "a", "mcpServers.a.args must be an array"),
        ('{"mcpServers": {"a": {"command": "x", "args": ["y", 2]}}}', "a", "mcpServers.a.args[1] must be a string"),
        ('{"mcpServers": {"a": {"command": "x", "env": []}}}', "a", "mcpServers.a.env must be an object"),
        ('{"mcpServers": {"a": {"command": "x", "env": {"K": 1}}}}', "a", "mcpServers.a.env.K must be a string"),
        ('{"mcpServers": {"a": {"command": "x", "cwd": 1}}}', "a", "mcpServers.a.cwd must be a string"),
        ('{"mcpServers": {"a": {"url": "http://h/mcp"}}}', "a", "is an HTTP server (give it with --server"),
        ('{"mcpServers": {"a": {"type": "sse", "command": "x"}}}', "a", "mcpServers.a.url must be an http://"),
    ],
)
def test_errors_are_clear(tmp_path: Path, content: str, server: str | None, fragment: str) -> None:
    path = write(tmp_path, content)
    with pytest.raises(UsageError) as info:
        resolve(path, server)
    assert fragment in info.value.message
    assert path in info.value.message


def test_file_problems(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="config file not found"):
        load_config_file(str(tmp_path / "missing.json"))
    with pytest.raises(UsageError, match="is a directory"):
        load_config_file(str(tmp_path))
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"mcpServers": {"\xe9": {}}}')
    with pytest.raises(UsageError, match="not UTF-8"):
        load_config_file(str(bad))
    deep = write(tmp_path, "[" * 100_000 + "]" * 100_000, "deep.json")
    with pytest.raises(UsageError, match="invalid JSON"):
        load_config_file(deep)


def test_bom_is_tolerated(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b'\xef\xbb\xbf{"mcpServers": {"a": {"command": "x"}}}')
    assert server_from_config(load_config_file(str(path)), "a", str(path)).command == "x"


def test_target_and_demo(tmp_path: Path) -> None:
    spec = resolve_server(target=["node", "a.js", "-v"], config=None, server=None, demo=False, env={"K": "V"}, cwd=None)
    assert (spec.command, spec.args, spec.env, spec.cwd) == ("node", ("a.js", "-v"), {"K": "V"}, None)
    spec = resolve_server(target=[], config=None, server=None, demo=True, env={}, cwd=None)
    assert spec == demo_server()
    assert spec.command == sys.executable and spec.args == ("-m", "inspector.demo")
    with pytest.raises(UsageError, match="working directory does not exist"):
        resolve_server(target=["x"], config=None, server=None, demo=False, env={}, cwd=str(tmp_path / "nope"))


def test_an_unknown_type_runs_as_stdio_as_with_the_official(tmp_path: Path) -> None:
    path = write(tmp_path, '{"mcpServers": {"a": {"type": "ftp", "command": "x"}}}')
    assert resolve(path, "a").command == "x"
