"""The shape of one mcpServers entry, as the official inspector reads and writes it.

An entry is the server's launch or connection config (``type``, ``command``/``args``/``env``/``cwd`` or
``url``) plus the inspector's own fields next to it (``headers``, ``protocolEra``, ``connectionTimeout``,
``oauth``, ... : :data:`INSPECTOR_FIELDS`). ``type`` is ``stdio``, ``sse`` or ``streamable-http`` (``http``
is read as ``streamable-http``; an entry without one is stdio, or remote when it has a ``url`` and no
``command``). This module builds entries from the command line, summarises them for ``servers/list``, and
describes them for ``servers/show`` with every secret-looking value redacted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final
from urllib.parse import urlsplit

from inspector.cli.errors import UsageError
from inspector.demo.command import demo_command
from inspector.protocol.methods import LOG_LEVELS

__all__ = [
    "DEFAULT_ERA",
    "INSPECTOR_FIELDS",
    "PROTOCOL_ERAS",
    "REDACTED",
    "config_part",
    "demo_target",
    "entry_type",
    "inspector_part",
    "is_sensitive_header",
    "is_valid_name",
    "sanitize_config",
    "sanitize_settings",
    "settings_view",
    "summary",
    "target_config",
    "with_inspector_fields",
]

INSPECTOR_FIELDS: Final = (
    "headers",
    "metadata",
    "connectionTimeout",
    "requestTimeout",
    "taskTtl",
    "autoRefreshOnListChanged",
    "paginatedLists",
    "suppressNotificationStream",
    "advertisedExtensions",
    "protocolEra",
    "elicitCapability",
    "modernLogLevel",
    "maxFetchRequests",
    "skillCatalogMaxSkills",
    "skillCatalogMaxBytes",
    "oauth",
    "roots",
)
"""The inspector's fields of an entry, in the order the official writes them (after the server config)."""

PROTOCOL_ERAS: Final = ("legacy", "auto", "modern")
DEFAULT_ERA: Final = "legacy"
"""The era an entry without ``protocolEra`` means to the official inspector (so it is not written)."""
REDACTED: Final = "[redacted]"
REMOTE_TYPES: Final = ("streamable-http", "sse")

_TYPE_ALIASES: Final = {
    "stdio": "stdio",
    "sse": "sse",
    "http": "streamable-http",
    "streamable-http": "streamable-http",
    "streamablehttp": "streamable-http",
    "streamable_http": "streamable-http",
}
_SENSITIVE_PARTS: Final = ("auth", "cookie", "secret", "token", "password", "api-key", "apikey")
_SECRET_WORDS: Final = ("KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "AUTH", "CREDENTIAL", "COOKIE", "SESSION")
_NAME_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
_DEFAULTS: Final = {
    "connectionTimeout": 30000,
    "requestTimeout": 0,
    "taskTtl": 60000,
    "autoRefreshOnListChanged": False,
    "paginatedLists": False,
    "maxFetchRequests": 1000,
}
_LOG_LEVELS: Final = ("off", *LOG_LEVELS)
_ELICIT: Final = ("off", "url", "form", "both")


def is_valid_name(name: str) -> bool:
    """Entry names the catalog accepts: letters, digits, ``-`` and ``_`` (as the official)."""
    return bool(name) and name != "__proto__" and all(ch in _NAME_CHARS for ch in name)


def is_sensitive_header(name: str) -> bool:
    """A header (or metadata key) whose value is a secret: what the official redacts (auth, cookie, secret,
    token, password, api-key) and what our profiles keep in the keyring (KEY, SESSION, CREDENTIAL, ...)."""
    lowered = name.lower()
    return any(part in lowered for part in _SENSITIVE_PARTS) or any(word in name.upper() for word in _SECRET_WORDS)


def entry_type(entry: Mapping[str, Any]) -> str:
    """``stdio``, ``sse`` or ``streamable-http``."""
    kind = entry.get("type", entry.get("transport"))
    if isinstance(kind, str):
        return _TYPE_ALIASES.get(kind.strip().lower(), "stdio")
    url = entry.get("url", entry.get("serverUrl"))
    if isinstance(url, str) and url and not entry.get("command"):
        return "sse" if urlsplit(url).path.rstrip("/").endswith("/sse") else "streamable-http"
    return "stdio"


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ("" if value is None else str(value))


def summary(name: str, entry: Mapping[str, Any]) -> dict[str, Any]:
    """``{"name", "type", "detail"}``: the command line of a stdio server, the URL of a remote one."""
    kind = entry_type(entry)
    if kind in REMOTE_TYPES:
        return {"name": name, "type": kind, "detail": _text(entry.get("url", entry.get("serverUrl", "")))}
    args = entry.get("args")
    words = [_text(arg) for arg in args] if isinstance(args, list) else []
    return {"name": name, "type": "stdio", "detail": " ".join([_text(entry.get("command")), *words])}


def config_part(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The server config of an entry: everything but the inspector's fields, ``type`` normalised (kept in
    place when the entry had one, else added last)."""
    out = {key: value for key, value in entry.items() if key not in INSPECTOR_FIELDS}
    out["type"] = entry_type(entry)
    return out


def inspector_part(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The inspector's fields of an entry, in the official order."""
    return {key: entry[key] for key in INSPECTOR_FIELDS if key in entry}


def with_inspector_fields(config: Mapping[str, Any], fields: Mapping[str, Any]) -> dict[str, Any]:
    """An entry: the server config, then the inspector's fields in the official order."""
    out = {key: value for key, value in config.items() if key not in INSPECTOR_FIELDS}
    for key in INSPECTOR_FIELDS:
        if key in fields:
            out[key] = fields[key]
    return out


def demo_target() -> list[str]:
    """The bundled demo server as a command line (``--demo``)."""
    return demo_command()


def target_config(
    target: Sequence[str],
    *,
    transport: str | None,
    env: Mapping[str, str],
    cwd: str | None,
) -> dict[str, Any]:
    """The server config of a command line's server: ``{"type": "stdio", "command", "args", "env", "cwd"}`` or
    ``{"type": "streamable-http" | "sse", "url"}``. ``transport`` is ``stdio``, ``http`` or ``sse`` (or None:
    from the URL's path, ``/mcp`` or ``/sse``, as the official). The env values are kept here; the caller
    decides where they are stored."""
    first = target[0].strip() if target else ""
    if first.lower().startswith(("http://", "https://")):
        if len(target) > 1:
            raise UsageError(f"a URL takes no arguments, got {' '.join(target[1:])!r} after {first}")
        if transport == "stdio":
            raise UsageError(f"--transport stdio needs a server command, not a URL ({first})")
        if transport in ("http", "sse"):
            kind = "streamable-http" if transport == "http" else "sse"
        else:
            path = urlsplit(first).path
            if path.endswith("/mcp"):
                kind = "streamable-http"
            elif path.endswith("/sse"):
                kind = "sse"
            else:
                raise UsageError(
                    f"cannot tell the transport of {first} from its path (not /mcp or /sse): "
                    "give --transport http or --transport sse"
                )
        stdio_only = [flag for flag, given in (("-e", bool(env)), ("--cwd", bool((cwd or "").strip()))) if given]
        if stdio_only:
            raise UsageError(f"{' and '.join(stdio_only)} apply to stdio servers; this target is {kind}")
        return {"type": kind, "url": first}
    if not target or not target[0]:
        raise UsageError("a server command or URL is needed")
    if transport not in (None, "stdio"):
        raise UsageError(f"--transport {transport} is for URLs; a server command runs over stdio")
    config: dict[str, Any] = {"type": "stdio", "command": target[0]}
    if len(target) > 1:
        config["args"] = list(target[1:])
    if env:
        config["env"] = dict(env)
    if cwd is not None and cwd.strip():
        config["cwd"] = cwd.strip()
    return config


# -- servers/show --------------------------------------------------------------------------------------------


def _pairs(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        return [{"key": key, "value": item} for key, item in value.items()]
    return []


def _metadata(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):  # an older spelling: [{"key": ..., "value": ...}]
        return {
            item["key"]: item.get("value")
            for item in value
            if isinstance(item, dict) and isinstance(item.get("key"), str)
        }
    return {}


def _same_kind(value: Any, default: Any) -> bool:
    if isinstance(default, bool):
        return isinstance(value, bool)
    return isinstance(value, int | float) and not isinstance(value, bool) and value >= 0


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def settings_view(entry: Mapping[str, Any]) -> dict[str, Any] | None:
    """The inspector's settings of an entry, every default filled in (None when the entry has none): what
    ``servers/show`` prints as ``settings``."""
    stdio = entry_type(entry) == "stdio"
    env = entry.get("env") if stdio else None
    cwd = entry.get("cwd") if stdio else None
    if not any(key in entry for key in INSPECTOR_FIELDS) and env is None and cwd is None:
        return None
    out: dict[str, Any] = {
        "headers": _pairs(entry.get("headers")),
        "env": _pairs(env),
        "metadata": _metadata(entry.get("metadata")),
    }
    for key, default in _DEFAULTS.items():
        value = entry.get(key)
        out[key] = value if _same_kind(value, default) else default
    out["roots"] = entry.get("roots") if isinstance(entry.get("roots"), list) else []
    for key in ("skillCatalogMaxSkills", "skillCatalogMaxBytes"):
        if _positive_int(entry.get(key)):
            out[key] = entry[key]
    if entry.get("suppressNotificationStream") is True:
        out["suppressNotificationStream"] = True
    for key, allowed in (
        ("protocolEra", PROTOCOL_ERAS),
        ("elicitCapability", _ELICIT),
        ("modernLogLevel", _LOG_LEVELS),
    ):
        if entry.get(key) in allowed:
            out[key] = entry[key]
    extensions = entry.get("advertisedExtensions")
    if isinstance(extensions, dict) and extensions:
        out["advertisedExtensions"] = dict(extensions)
    _oauth_view(entry.get("oauth"), out)
    if isinstance(cwd, str) and cwd:
        out["cwd"] = cwd
    return out


def _oauth_view(oauth: Any, out: dict[str, Any]) -> None:
    if not isinstance(oauth, dict):
        return
    for key, name in (("clientId", "oauthClientId"), ("clientSecret", "oauthClientSecret"), ("scopes", "oauthScopes")):
        if oauth.get(key):
            out[name] = oauth[key]
    params = oauth.get("authorizationParams")
    if isinstance(params, dict) and params:
        out["oauthAuthorizationParams"] = _pairs(params)
    for key, name in (("authorizationUrl", "oauthAuthorizationUrl"), ("tokenUrl", "oauthTokenUrl")):
        if isinstance(oauth.get(key), str) and oauth[key].strip():
            out[name] = oauth[key].strip()
    if oauth.get("onInsufficientScope"):
        out["oauthOnInsufficientScope"] = oauth["onInsufficientScope"]
    if oauth.get("enterpriseManaged") is True:
        out["enterpriseManaged"] = True
    if oauth.get("requestRefreshToken") is False:
        out["oauthRequestRefreshToken"] = False
    if oauth.get("revokeOnClear") is False:
        out["oauthRevokeOnClear"] = False


def _redact_meta(value: Any) -> Any:
    if isinstance(value, list):
        return [_redact_meta(item) for item in value]
    if isinstance(value, dict):
        return {key: REDACTED if is_sensitive_header(key) else _redact_meta(item) for key, item in value.items()}
    return value


def _redact_headers(headers: Any) -> Any:
    if isinstance(headers, dict):
        return {key: REDACTED if is_sensitive_header(str(key)) else value for key, value in headers.items()}
    if isinstance(headers, list):
        return [
            [item[0], REDACTED if is_sensitive_header(item[0]) else item[1], *item[2:]]
            if isinstance(item, list) and len(item) >= 2 and isinstance(item[0], str)
            else item
            for item in headers
        ]
    return headers


def sanitize_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """A server config to print: every env value and every secret-looking header redacted."""
    out = dict(config)
    if isinstance(config.get("env"), dict):
        out["env"] = dict.fromkeys(config["env"], REDACTED)
    for key in ("requestInit", "eventSourceInit"):
        init = config.get(key)
        if isinstance(init, dict) and "headers" in init:
            out[key] = {**init, "headers": _redact_headers(init["headers"])}
    if isinstance(config.get("headers"), dict):
        out["headers"] = _redact_headers(config["headers"])
    return out


def sanitize_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """Settings to print: secret-looking headers and metadata keys, every env value, the client secret redacted."""
    out = dict(settings)
    out["headers"] = [
        {"key": h.get("key"), "value": REDACTED if is_sensitive_header(str(h.get("key"))) else h.get("value")}
        for h in settings.get("headers", [])
        if isinstance(h, dict)
    ]
    out["metadata"] = _redact_meta(settings.get("metadata", {}))
    out["env"] = [{"key": e.get("key"), "value": REDACTED} for e in settings.get("env", []) if isinstance(e, dict)]
    if "oauthClientSecret" in settings:
        out["oauthClientSecret"] = REDACTED
    return out
