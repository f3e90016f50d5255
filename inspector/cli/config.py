"""Where the CLI's server comes from: a command line, the demo, or a named entry of a file or of our profiles.

``--server NAME`` names an entry of ``--config FILE`` (a read-only session file), of ``--catalog FILE``, or,
with neither, of the default catalog (``$MCP_CATALOG_PATH`` or ``~/.mcp-inspector/mcp.json``, created empty if
missing, as the official inspector). Without ``--server`` a file with exactly one entry is fine. When the
catalog has no entry of that name, a saved connection profile of the window with that name (or id) is used
(a catalog entry wins over a profile of the same name). The file format is the one Claude Desktop, Cursor and
the official inspector use::

    {"mcpServers": {"NAME": {"command": "...", "args": ["..."], "env": {"K": "V"}, "cwd": "..."},
                    "WEB": {"type": "streamable-http", "url": "https://.../mcp", "headers": {"X": "1"},
                            "protocolEra": "modern", "connectionTimeout": 30000}}}

An entry's ``protocolEra``, ``headers``, ``connectionTimeout``/``requestTimeout`` (ms), ``metadata`` and
``oauth`` (``clientId``, ``clientSecret``, ``scopes``) apply unless the command line says otherwise
(``--protocol-era`` > file > default; ``--header`` replaces the entry's headers, as the official). Empty env
values and secret headers are placeholders for values held in the keyring (:mod:`inspector.cli.catalog_secrets`).

Every problem is a :class:`UsageError` naming the file and, for syntax errors, the line and column.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspector.cli.catalog_entries import PROTOCOL_ERAS, REMOTE_TYPES, entry_type
from inspector.cli.catalog_file import CatalogDocument, catalog_path, load_json_file, read_catalog, read_config
from inspector.cli.errors import UsageError
from inspector.demo.command import demo_command

if TYPE_CHECKING:
    from inspector.cli.args import CliOptions
    from inspector.cli.catalog_secrets import CatalogSecrets
    from inspector.protocol.limits import Limits

__all__ = [
    "ServerSpec",
    "ServerTarget",
    "demo_server",
    "find_server",
    "load_config_file",
    "prepare_server",
    "resolve_server",
    "server_from_config",
]


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


@dataclass
class ServerTarget:
    """A named server: how to start it (``stdio``) or reach it (``url``), and the settings that go with it."""

    name: str
    source: str
    """``catalog``, ``config`` or ``profile``."""
    stdio: ServerSpec | None = None
    url: str | None = None
    transport: str | None = None
    """``http`` or ``sse`` for a URL."""
    headers: list[tuple[str, str]] = field(default_factory=list)
    protocol_era: str | None = None
    protocol_version: str | None = None
    connect_timeout: float | None = None
    connect_timeout_given: bool = False
    request_timeout: float | None = None
    request_timeout_given: bool = False
    metadata: dict[str, Any] = field(default_factory=dict)
    client_id: str | None = None
    client_secret: str | None = None
    cimd_url: str | None = None
    scopes: list[str] = field(default_factory=list)
    limits: Limits | None = None
    warnings: list[str] = field(default_factory=list)
    """Lines for stderr (a shadowed profile, a secret placeholder with no value, ...)."""


def demo_server() -> ServerSpec:
    """The bundled demo server, run with this same interpreter."""
    command, *args = demo_command()
    return ServerSpec(command=command, args=tuple(args), name="demo")


def load_config_file(path: str) -> dict[str, Any]:
    """Read and parse a config file; errors say where."""
    data = load_json_file(path)
    if not isinstance(data, dict):
        raise UsageError(f'{path}: the top level must be a JSON object with "mcpServers"')
    return data


# -- one entry ------------------------------------------------------------------------------------------------


def _stdio_spec(entry: dict[str, Any], name: str, where: str) -> ServerSpec:
    command = entry.get("command")
    if not isinstance(command, str) or not command:
        raise UsageError(f"{where}.command must be a non-empty string")
    args = entry.get("args", [])
    if args is None:
        args = []
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
    return ServerSpec(command=command, args=tuple(args), env=dict(env), cwd=cwd or None, name=name)


def _pick(document: CatalogDocument, name: str | None) -> tuple[str, Any]:
    servers = document.servers
    path = document.path
    if name is None:
        if not servers:
            raise UsageError(
                f'{path}: "mcpServers" is empty; add a server (--method servers/add --server NAME COMMAND...) '
                "or name one with --server"
            )
        if len(servers) != 1:
            raise UsageError(f"{path} defines several servers; choose one with --server ({', '.join(servers)})")
        name = next(iter(servers))
    if name not in servers:
        return name, None
    return name, servers[name]


def server_from_config(data: dict[str, Any], name: str | None, path: str) -> ServerSpec:
    """Pick and validate one stdio entry. Without a name, a file with exactly one server is fine."""
    document = CatalogDocument(Path(path), data, writable=False)
    if not any(isinstance(data.get(key), dict) for key in ("mcpServers", "servers")):
        for key in ("mcpServers", "servers"):
            if key in data:
                raise UsageError(f'{path}: "{key}" must be an object of server entries')
        raise UsageError(f'{path}: no "mcpServers" object')
    chosen, entry = _pick(document, name)
    if entry is None:
        raise UsageError(f"{path}: no server named {chosen!r}; defined: {', '.join(document.servers)}")
    target = _entry_target(chosen, entry, "config", str(path), None)
    if target.stdio is None:
        raise UsageError(f"{path}: mcpServers.{chosen} is an HTTP server (give it with --server, not this way)")
    return target.stdio


def _secret(secrets: CatalogSecrets | None, name: str, kind: str, key: str) -> str | None:
    return secrets.get(name, kind, key) if secrets is not None else None


def _entry_target(name: str, entry: Any, source: str, path: str, secrets: CatalogSecrets | None) -> ServerTarget:
    """A file entry as a target, its secret placeholders filled from the keyring."""
    where = f"{path}: mcpServers.{name}"
    if not isinstance(entry, dict):
        raise UsageError(f"{where} must be an object")
    target = ServerTarget(name=name, source=source)
    kind = entry_type(entry)
    if kind in REMOTE_TYPES:
        url = entry.get("url", entry.get("serverUrl"))
        if not isinstance(url, str) or not url.strip().lower().startswith(("http://", "https://")):
            raise UsageError(f"{where}.url must be an http:// or https:// URL")
        target.url = url.strip()
        target.transport = "http" if kind == "streamable-http" else "sse"
        headers = entry.get("headers", {})
        if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
            raise UsageError(f"{where}.headers must be an object of strings")
        for header, value in headers.items():
            if value == "":
                held = _secret(secrets, name, "header", header)
                if held is None:
                    target.warnings.append(
                        f"{where}.headers.{header} is empty and the keyring holds no value; not sent"
                    )
                    continue
                value = held
            target.headers.append((header, value))
    else:
        spec = _stdio_spec(entry, name, where)
        env = {key: (value or _secret(secrets, name, "env", key) or "") for key, value in spec.env.items()}
        target.stdio = ServerSpec(command=spec.command, args=spec.args, env=env, cwd=spec.cwd, name=name)
    _entry_settings(entry, target, where, secrets)
    return target


def _entry_settings(entry: dict[str, Any], target: ServerTarget, where: str, secrets: CatalogSecrets | None) -> None:
    era = entry.get("protocolEra")
    if era is not None:
        if era not in PROTOCOL_ERAS:
            raise UsageError(f"{where}.protocolEra must be legacy, auto or modern, not {json.dumps(era)}")
        target.protocol_era = era
    for key, attr in (("connectionTimeout", "connect_timeout"), ("requestTimeout", "request_timeout")):
        value = entry.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise UsageError(f"{where}.{key} must be a number of milliseconds (0 or more)")
        if key == "requestTimeout" and value == 0:
            continue  # 0: the default
        setattr(target, attr, value / 1000 if value else None)
        setattr(target, f"{attr}_given", True)
    metadata = entry.get("metadata")
    if isinstance(metadata, dict):
        target.metadata = dict(metadata)
    oauth = entry.get("oauth")
    if isinstance(oauth, dict) and target.url is not None:
        if isinstance(oauth.get("clientId"), str) and oauth["clientId"]:
            target.client_id = oauth["clientId"]
            secret = oauth.get("clientSecret")
            if not isinstance(secret, str) or not secret:
                secret = _secret(secrets, target.name, "oauth", "clientSecret")
            target.client_secret = secret or None
        scopes = oauth.get("scopes")
        if isinstance(scopes, str):
            target.scopes = scopes.split()


# -- finding a named server -----------------------------------------------------------------------------------


def _profile_names(store: Any) -> list[str]:
    return [profile.name for profile in store.list_profiles()]


def find_server(opts: CliOptions) -> ServerTarget:
    """The server ``--server`` names (or the only one) in --config, --catalog or the default catalog, else among
    the saved profiles (catalogs only). UsageError when there is none."""
    from inspector.cli.catalog_secrets import CatalogSecrets
    from inspector.cli.profile_servers import load_profiles, profile_target

    name = (opts.server or "").strip() or None
    config = (opts.config or "").strip()
    if config:
        document = read_config(config)
        source = "config"
    else:
        document = read_catalog(catalog_path(opts.catalog))
        source = "catalog"
    secrets = CatalogSecrets(document.path)
    if name is None:
        chosen, entry = _pick(document, None)
        return _entry_target(chosen, entry, source, str(document.path), secrets)
    if name in document.servers:
        target = _entry_target(name, document.servers[name], source, str(document.path), secrets)
        if source == "catalog":
            store = load_profiles()
            if store.find(name) is not None:
                target.warnings.append(
                    f"--server {name}: the catalog entry is used; a saved profile has the same name "
                    "(rename one of them to reach the other)"
                )
        return target
    defined = ", ".join(document.names()) or "none"
    if source == "catalog":
        store = load_profiles()
        profile = store.find(name)
        if profile is not None:
            return profile_target(store, profile)
        names = _profile_names(store)
        if names:
            defined += f"; saved profiles: {', '.join(names)}"
    raise UsageError(f"{document.path}: no server named {name!r}; defined: {defined}")


# -- applying it to the command line --------------------------------------------------------------------------


def _chosen_cwd(cwd: str | None) -> str | None:
    if cwd is not None and not os.path.isdir(cwd):
        raise UsageError(f"working directory does not exist: {cwd}")
    return cwd


def _apply(opts: CliOptions, target: ServerTarget) -> ServerSpec | None:
    """Put the target's settings into ``opts`` where the command line left them open; the stdio spec or None."""
    from inspector.cli.parser import DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_PROTOCOL_VERSION, DEFAULT_TIMEOUT
    from inspector.protocol.limits import DEFAULT_LIMITS
    from inspector.protocol.versions import KNOWN_VERSIONS, MODERN_VERSIONS

    version_given = opts.protocol_version != DEFAULT_PROTOCOL_VERSION
    if target.protocol_version in KNOWN_VERSIONS and not version_given and not opts.protocol_era_given:
        opts.protocol_version = target.protocol_version
    if target.protocol_era is not None and not opts.protocol_era_given:
        if not (opts.protocol_version in MODERN_VERSIONS and target.protocol_era == "legacy"):
            opts.protocol_era = target.protocol_era  # type: ignore[assignment]
    if opts.protocol_version in MODERN_VERSIONS:
        opts.protocol_era = "modern"
    if target.connect_timeout_given and opts.connect_timeout == DEFAULT_CONNECT_TIMEOUT_MS / 1000:
        opts.connect_timeout = target.connect_timeout
    if target.request_timeout_given and opts.timeout == DEFAULT_TIMEOUT and target.request_timeout is not None:
        opts.timeout = target.request_timeout
    if target.metadata:
        opts.metadata = {**target.metadata, **opts.metadata}
    if target.limits is not None and opts.limits == DEFAULT_LIMITS:
        opts.limits = target.limits
    if target.stdio is not None:
        if opts.transport not in (None, "stdio"):
            raise UsageError(f"--transport {opts.transport}: {target.name!r} is a stdio server")
        spec = target.stdio
        merged = {**spec.env, **opts.env}
        cwd = _chosen_cwd(opts.cwd if opts.cwd is not None else spec.cwd)
        return ServerSpec(command=spec.command, args=spec.args, env=merged, cwd=cwd, name=spec.name)
    assert target.url is not None
    stdio_only = [flag for flag, given in (("-e", bool(opts.env)), ("--cwd", opts.cwd is not None)) if given]
    if stdio_only:
        kind = "streamable-http" if target.transport == "http" else "sse"
        raise UsageError(f"{' and '.join(stdio_only)} apply to stdio servers; {target.name!r} is {kind}")
    opts.url = target.url
    opts.target = [target.url]
    if opts.transport in (None, "stdio"):
        opts.transport = target.transport
    if not opts.headers:  # --header replaces the entry's headers (as the official)
        opts.headers = list(target.headers)
    if opts.client_id is None and target.client_id is not None:
        opts.client_id, opts.client_secret = target.client_id, target.client_secret
    if opts.client_metadata_url is None and opts.client_id is None and target.cimd_url:
        opts.client_metadata_url = target.cimd_url
    if not opts.scopes and target.scopes:
        opts.scopes = list(target.scopes)
    return None


def _warn(opts: CliOptions, lines: list[str]) -> None:
    if opts.quiet or opts.format == "json" or not lines:
        return
    from inspector.cli.terminal import escape_line, write

    for line in lines:
        write(sys.stderr, f"warning: {escape_line(line)}\n")


def prepare_server(opts: CliOptions) -> ServerSpec | None:
    """The server of a run that connects: the stdio server to start, or None when ``opts.url`` (with
    ``opts.transport``, ``opts.headers`` and the OAuth options) now says where it is. Named servers (--server,
    --config, the catalog, profiles) have their settings applied to ``opts``; the client config (client.json)
    is read and applied to HTTP servers."""
    from inspector.cli.client_config import apply_client_config

    if opts.url is not None:
        apply_client_config(opts)
        return None
    if opts.demo or opts.target:
        apply_client_config(opts)
        return resolve_server(target=opts.target, config=None, server=None, demo=opts.demo, env=opts.env, cwd=opts.cwd)
    target = find_server(opts)
    spec = _apply(opts, target)
    apply_client_config(opts)
    _warn(opts, target.warnings)
    return spec


def resolve_server(
    *,
    target: list[str],
    config: str | None,
    server: str | None,
    demo: bool,
    env: Mapping[str, str],
    cwd: str | None,
) -> ServerSpec:
    """The stdio server of a command line: TARGET, --config/--server or --demo, with -e/--cwd on top."""
    if config is not None:
        spec = server_from_config(load_config_file(config), server, config)
    elif demo:
        spec = demo_server()
    elif target:
        spec = ServerSpec(command=target[0], args=tuple(target[1:]))
    else:
        raise UsageError("no server given")
    merged_env = {**spec.env, **env}
    chosen_cwd = _chosen_cwd(cwd if cwd is not None else spec.cwd)
    return ServerSpec(command=spec.command, args=spec.args, env=merged_env, cwd=chosen_cwd, name=spec.name)
