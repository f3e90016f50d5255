"""The parts of a profile (stdio, HTTP, auth, timeouts, capabilities, roots, auto-reply) and their JSON.

Package-internal: the public names live in :mod:`inspector.store.profiles`, whose docstring
describes the file format.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeVar, get_args

from inspector.store.profiles.json_values import (
    ProfileFormatError,
    at,
    extra_keys,
    iter_objects,
    json_type,
    read_bool,
    read_choice,
    read_name,
    read_object_list,
    read_optional_string,
    read_seconds,
    read_section,
    read_string,
    read_string_list,
)

__all__ = [
    "AUTH_MODES",
    "AUTH_SECRETS",
    "TRANSPORTS",
    "AuthMode",
    "AuthSettings",
    "ClientCapabilitySwitches",
    "EnvVar",
    "Header",
    "HttpSettings",
    "Root",
    "SamplingAutoReply",
    "SecretKind",
    "SecretSlot",
    "StdioSettings",
    "TimeoutSettings",
    "TransportKind",
    "auth_from_json",
    "auto_reply_from_json",
    "capabilities_from_json",
    "http_from_json",
    "named_to_json",
    "roots_from_json",
    "stdio_from_json",
    "timeouts_from_json",
]

TransportKind = Literal["stdio", "http", "sse"]
AuthMode = Literal["none", "bearer", "oauth"]
SecretKind = Literal["env", "header", "auth"]
TRANSPORTS: Final[tuple[TransportKind, ...]] = get_args(TransportKind)
AUTH_MODES: Final[tuple[AuthMode, ...]] = get_args(AuthMode)

AUTH_SECRETS: Final = ("bearer_token", "client_secret")
"""The secret fields of :class:`AuthSettings`."""


# -- the model ---------------------------------------------------------------------------------------


@dataclass
class EnvVar:
    """One environment variable for a stdio server (set over the inherited environment)."""

    name: str
    value: str | None = ""
    """None: a secret held by the secret store and not loaded."""
    secret: bool = False


@dataclass
class Header:
    """One HTTP header sent with every request to an HTTP/SSE server."""

    name: str
    value: str | None = ""
    """None: a secret held by the secret store and not loaded."""
    secret: bool = False


@dataclass
class Root:
    """A root offered to the server through ``roots/list``."""

    uri: str
    name: str | None = None


@dataclass
class StdioSettings:
    command: str = ""
    args: list[str] = field(default_factory=list)
    env: list[EnvVar] = field(default_factory=list)
    cwd: str = ""
    """Working directory ("": the inspector's own)."""
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class HttpSettings:
    """Streamable HTTP and legacy SSE."""

    url: str = ""
    headers: list[Header] = field(default_factory=list)
    ca_bundle: str = ""
    """A PEM file trusted in addition to the system store ("": none)."""
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class AuthSettings:
    mode: AuthMode = "none"
    bearer_token: str | None = None
    """Secret. None: not loaded (or none); "" clears a stored token."""
    client_id: str = ""
    """Pre-registered OAuth client id ("": use a CIMD URL or dynamic registration)."""
    client_secret: str | None = None
    """Secret. None: not loaded (or none); "" clears a stored secret."""
    cimd_url: str = ""
    """Client ID Metadata Document URL, used as the client id when set."""
    scopes: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class TimeoutSettings:
    request: float | None = 60.0
    """Seconds a request may wait for its answer (None: forever)."""
    reset_on_progress: bool = True
    """A progress notification restarts the ``request`` period."""
    max_total: float | None = None
    """Hard cap in seconds, progress or not (None: no cap)."""
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class ClientCapabilitySwitches:
    """What the client declares it can do (see :meth:`Profile.client_capabilities`)."""

    sampling: bool = True
    sampling_tools: bool = False
    elicitation_form: bool = True
    elicitation_url: bool = True
    roots: bool = True
    roots_list_changed: bool = True
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class SamplingAutoReply:
    """Answer every ``sampling/createMessage`` with a canned text, for repeated testing."""

    enabled: bool = False
    text: str = ""
    model: str = "mcp-inspector-auto-reply"
    stop_reason: str = "endTurn"
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SecretSlot:
    """One secret of a profile: where it is stored and, when loaded, its value."""

    kind: SecretKind
    name: str
    value: str | None

    @property
    def key(self) -> str:
        """The key relative to the profile: ``<kind>/<name>``."""
        return f"{self.kind}/{self.name}"

    @property
    def label(self) -> str:
        return {"env": "environment variable", "header": "header", "auth": "setting"}[self.kind] + f" {self.name}"


# -- JSON ------------------------------------------------------------------------------------------------

_Named = TypeVar("_Named", EnvVar, Header)


def named_to_json(name: str, value: str | None, secret: bool) -> dict[str, Any]:
    """An env variable or header for the file: a secret one without its value."""
    if secret:
        return {"name": name, "secret": True}
    return {"name": name, "value": value or ""}


def _named_list(
    obj: dict[str, Any],
    key: str,
    where: str,
    make: Callable[[str, str | None, bool], _Named],
    kind: SecretKind,
    stored: set[str],
) -> list[_Named]:
    """The env variables or headers in ``obj[key]``; the slot key of each secret one goes to ``stored``."""
    items: list[_Named] = []
    for item_where, item in read_object_list(obj, key, where):
        name = read_name(item, "name", item_where)
        secret = read_bool(item, "secret", item_where, default=False)
        value = read_optional_string(item, "value", item_where)
        if not secret and value is None:
            value = ""
        items.append(make(name, value, secret))
        if secret:
            stored.add(f"{kind}/{name}")
    return items


def stdio_from_json(value: Any, where: str, stored: set[str]) -> StdioSettings:
    obj = read_section(value, where)
    env = _named_list(obj, "env", where, EnvVar, "env", stored)
    return StdioSettings(
        command=read_string(obj, "command", where, default=""),
        args=read_string_list(obj, "args", where),
        env=env,
        cwd=read_string(obj, "cwd", where, default=""),
        extra=extra_keys(obj, {"command", "args", "env", "cwd"}),
    )


def http_from_json(value: Any, where: str, stored: set[str]) -> HttpSettings:
    obj = read_section(value, where)
    headers = _named_list(obj, "headers", where, Header, "header", stored)
    return HttpSettings(
        url=read_string(obj, "url", where, default=""),
        headers=headers,
        ca_bundle=read_string(obj, "ca_bundle", where, default=""),
        extra=extra_keys(obj, {"url", "headers", "ca_bundle"}),
    )


def _auth_secret_from_json(obj: dict[str, Any], key: str, where: str, stored: set[str]) -> str | None:
    """null/absent: none; {"secret": true}: in the secret store; a string: a plain value to move there."""
    value = obj.get(key)
    if value is None or isinstance(value, str):
        return value or None
    if isinstance(value, dict) and value.get("secret") is True:
        stored.add(f"auth/{key}")
        return None
    raise ProfileFormatError(at(where, key), f'expected {{"secret": true}} or null, got {json_type(value)}')


def auth_from_json(value: Any, where: str, stored: set[str]) -> AuthSettings:
    obj = read_section(value, where)
    mode = read_choice(obj, "mode", where, AUTH_MODES, default="none")
    return AuthSettings(
        mode=mode,
        bearer_token=_auth_secret_from_json(obj, "bearer_token", where, stored),
        client_id=read_string(obj, "client_id", where, default=""),
        client_secret=_auth_secret_from_json(obj, "client_secret", where, stored),
        cimd_url=read_string(obj, "cimd_url", where, default=""),
        scopes=read_string_list(obj, "scopes", where),
        extra=extra_keys(obj, {"mode", "bearer_token", "client_id", "client_secret", "cimd_url", "scopes"}),
    )


def timeouts_from_json(value: Any, where: str) -> TimeoutSettings:
    obj = read_section(value, where)
    return TimeoutSettings(
        request=read_seconds(obj, "request", where, default=60.0),
        reset_on_progress=read_bool(obj, "reset_on_progress", where, default=True),
        max_total=read_seconds(obj, "max_total", where, default=None),
        extra=extra_keys(obj, {"request", "reset_on_progress", "max_total"}),
    )


def capabilities_from_json(value: Any, where: str) -> ClientCapabilitySwitches:
    obj = read_section(value, where)
    defaults = ClientCapabilitySwitches()
    names = ("sampling", "sampling_tools", "elicitation_form", "elicitation_url", "roots", "roots_list_changed")
    flags = {name: read_bool(obj, name, where, default=getattr(defaults, name)) for name in names}
    return ClientCapabilitySwitches(**flags, extra=extra_keys(obj, names))


def roots_from_json(value: Any, where: str) -> list[Root]:
    return [
        Root(uri=read_name(item, "uri", item_where), name=read_optional_string(item, "name", item_where))
        for item_where, item in iter_objects(value, where)
    ]


def auto_reply_from_json(value: Any, where: str) -> SamplingAutoReply:
    obj = read_section(value, where)
    defaults = SamplingAutoReply()
    return SamplingAutoReply(
        enabled=read_bool(obj, "enabled", where, default=False),
        text=read_string(obj, "text", where, default=""),
        model=read_string(obj, "model", where, default=defaults.model),
        stop_reason=read_string(obj, "stop_reason", where, default=defaults.stop_reason),
        extra=extra_keys(obj, {"enabled", "text", "model", "stop_reason"}),
    )
