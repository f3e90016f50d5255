"""Export profiles as an mcpServers JSON file, secrets left out.

Shape (what Claude Desktop, Cursor and the official inspector read)::

    {
      "mcpServers": {
        "weather": {"type": "stdio", "command": "uvx", "args": ["weather-mcp"],
                    "env": {"UNITS": "metric"}},
        "remote": {"type": "http", "url": "https://example.com/mcp", "headers": {"X-Tenant": "acme"},
                   "oauth": {"clientId": "inspector", "scopes": ["read"]}}
      },
      "_omittedSecrets": {
        "weather": {"env": ["API_KEY"]},
        "remote": {"headers": ["Authorization"], "auth": ["client_secret"]}
      }
    }

Secrets: a secret env variable or header is left out entirely (not written with an empty value, which
would override a variable the target client might set by other means); a bearer token or OAuth client
secret likewise. Everything left out is listed by name under the top-level ``"_omittedSecrets"`` key
(present only when something was omitted; clients ignore keys they do not know), so whoever uses the
file knows what to fill in. Secret values are never read for an export.

The official inspector's own per-server fields are written when set: ``roots``, ``requestTimeout``
(milliseconds, when not the 60 s default) and ``oauth`` (``clientId``, ``scopes``). Servers with the
same name get `` (2)``, `` (3)``... suffixes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

from inspector.store.profiles import Profile, atomic_write_text

__all__ = ["OMITTED_SECRETS_KEY", "export_json", "export_profiles", "write_export"]

OMITTED_SECRETS_KEY: Final = "_omittedSecrets"
_DEFAULT_REQUEST_TIMEOUT: Final = 60.0


def _unique_name(name: str, taken: set[str]) -> str:
    base = name.strip() or "server"
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base} ({n})"
    taken.add(candidate)
    return candidate


def _server_entry(profile: Profile) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """The mcpServers entry of one profile and the names of the secrets left out of it."""
    omitted: dict[str, list[str]] = {}
    entry: dict[str, Any] = {"type": profile.transport}
    if profile.transport == "stdio":
        stdio = profile.stdio
        entry["command"] = stdio.command
        entry["args"] = list(stdio.args)
        env = {var.name: var.value or "" for var in stdio.env if not var.secret}
        if env:
            entry["env"] = env
        secret_env = [var.name for var in stdio.env if var.secret]
        if secret_env:
            omitted["env"] = secret_env
        if stdio.cwd:
            entry["cwd"] = stdio.cwd
    else:
        http = profile.http
        entry["url"] = http.url
        headers = {header.name: header.value or "" for header in http.headers if not header.secret}
        if headers:
            entry["headers"] = headers
        secret_headers = [header.name for header in http.headers if header.secret]
        if secret_headers:
            omitted["headers"] = secret_headers
        auth = profile.auth
        if auth.mode == "bearer":
            omitted["auth"] = ["bearer_token"]
        elif auth.mode == "oauth":
            oauth: dict[str, Any] = {}
            if auth.client_id or auth.cimd_url:
                oauth["clientId"] = auth.client_id or auth.cimd_url
            if auth.scopes:
                oauth["scopes"] = list(auth.scopes)
            if oauth:
                entry["oauth"] = oauth
            if auth.client_secret or "auth/client_secret" in profile.stored_secrets:
                omitted["auth"] = ["client_secret"]
    if profile.roots:
        entry["roots"] = [{"uri": root.uri, **({"name": root.name} if root.name else {})} for root in profile.roots]
    request = profile.timeouts.request
    if request is not None and request != _DEFAULT_REQUEST_TIMEOUT:
        entry["requestTimeout"] = round(request * 1000)
    return entry, omitted


def export_profiles(profiles: Iterable[Profile]) -> dict[str, Any]:
    """The export document for these profiles, in order (see the module docstring)."""
    servers: dict[str, Any] = {}
    omitted_all: dict[str, Any] = {}
    taken: set[str] = set()
    for profile in profiles:
        name = _unique_name(profile.name, taken)
        entry, omitted = _server_entry(profile)
        servers[name] = entry
        if omitted:
            omitted_all[name] = omitted
    document: dict[str, Any] = {"mcpServers": servers}
    if omitted_all:
        document[OMITTED_SECRETS_KEY] = omitted_all
    return document


def export_json(profiles: Iterable[Profile]) -> str:
    """The export document as indented JSON text (ending with a newline)."""
    return json.dumps(export_profiles(profiles), indent=2, ensure_ascii=False) + "\n"


def write_export(path: Path, profiles: Iterable[Profile]) -> dict[str, Any]:
    """Write the export to ``path`` atomically; returns the document written."""
    document = export_profiles(profiles)
    atomic_write_text(path, json.dumps(document, indent=2, ensure_ascii=False) + "\n", mode=0o644)
    return document
