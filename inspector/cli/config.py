"""Server configuration for the CLI: a command line, or an entry of an mcpServers-format JSON file.

The file format is the one Claude Desktop, Cursor and the official inspector use::

    {"mcpServers": {"NAME": {"command": "...", "args": ["..."], "env": {"K": "V"}, "cwd": "..."}}}

Every problem is a :class:`UsageError` naming the file and, for syntax errors, the line and column.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspector.cli.errors import UsageError

__all__ = ["ServerSpec", "demo_server", "load_config_file", "resolve_server", "server_from_config"]


@dataclass(frozen=True, slots=True)
class ServerSpec:
    """How to start one stdio server."""

    command: str
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    """Variables set over the inherited environment."""
    cwd: str | None = None
    name: str | None = None

    def describe(self) -> str:
        return " ".join([self.command, *self.args])


def demo_server() -> ServerSpec:
    """The bundled demo server, run with this same interpreter."""
    return ServerSpec(command=sys.executable, args=("-m", "inspector.demo"), name="demo")


def load_config_file(path: str) -> dict[str, Any]:
    """Read and parse a config file; errors say where."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UsageError(f"config file not found: {path}") from None
    except IsADirectoryError:
        raise UsageError(f"config file is a directory: {path}") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise UsageError(f"cannot read config file {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
    except RecursionError:
        raise UsageError(f"{path}: invalid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise UsageError(f'{path}: the top level must be a JSON object with "mcpServers"')
    return data


def _servers(data: dict[str, Any], path: str) -> dict[str, Any]:
    for key in ("mcpServers", "servers"):
        if key in data:
            servers = data[key]
            if not isinstance(servers, dict):
                raise UsageError(f'{path}: "{key}" must be an object of server entries')
            return servers
    raise UsageError(f'{path}: no "mcpServers" object')


def server_from_config(data: dict[str, Any], name: str | None, path: str) -> ServerSpec:
    """Pick and validate one entry. Without a name, a file with exactly one server is fine."""
    servers = _servers(data, path)
    if not servers:
        raise UsageError(f'{path}: "mcpServers" is empty')
    if name is None:
        if len(servers) != 1:
            raise UsageError(f"{path} defines several servers; choose one with --server ({', '.join(servers)})")
        name = next(iter(servers))
    if name not in servers:
        raise UsageError(f"{path}: no server named {name!r}; defined: {', '.join(servers)}")
    entry = servers[name]
    where = f"{path}: mcpServers.{name}"
    if not isinstance(entry, dict):
        raise UsageError(f"{where} must be an object")
    kind = entry.get("type", entry.get("transport"))
    if "url" in entry or kind in ("http", "sse", "streamable-http", "streamableHttp"):
        raise UsageError(f"{where}: HTTP targets are not supported yet; this version runs stdio servers only")
    if kind not in (None, "stdio"):
        raise UsageError(f"{where}.type: unknown server type {kind!r}")
    command = entry.get("command")
    if not isinstance(command, str) or not command:
        raise UsageError(f"{where}.command must be a non-empty string")
    args = entry.get("args", [])
    if not isinstance(args, list):
        raise UsageError(f"{where}.args must be an array of strings")
    for i, arg in enumerate(args):
        if not isinstance(arg, str):
            raise UsageError(f"{where}.args[{i}] must be a string, not {json.dumps(arg)}")
    env = entry.get("env", {})
    if env is None:
        env = {}
    if not isinstance(env, dict):
        raise UsageError(f"{where}.env must be an object of strings")
    for key, value in env.items():
        if not isinstance(value, str):
            raise UsageError(f"{where}.env.{key} must be a string, not {json.dumps(value)}")
    cwd = entry.get("cwd")
    if cwd is not None and not isinstance(cwd, str):
        raise UsageError(f"{where}.cwd must be a string")
    if cwd is not None and not os.path.isabs(cwd):
        cwd = str(Path(path).resolve().parent / cwd)
    return ServerSpec(command=command, args=tuple(args), env=dict(env), cwd=cwd, name=name)


def resolve_server(
    *,
    target: list[str],
    config: str | None,
    server: str | None,
    demo: bool,
    env: dict[str, str],
    cwd: str | None,
) -> ServerSpec:
    """The server to run from the command line: TARGET, --config/--server or --demo, with -e/--cwd on top."""
    if config is not None:
        spec = server_from_config(load_config_file(config), server, config)
    elif demo:
        spec = demo_server()
    elif target:
        spec = ServerSpec(command=target[0], args=tuple(target[1:]))
    else:
        raise UsageError("no server given")
    merged_env = {**spec.env, **env}
    chosen_cwd = cwd if cwd is not None else spec.cwd
    if chosen_cwd is not None and not os.path.isdir(chosen_cwd):
        raise UsageError(f"working directory does not exist: {chosen_cwd}")
    return ServerSpec(command=spec.command, args=spec.args, env=merged_env, cwd=chosen_cwd, name=spec.name)
