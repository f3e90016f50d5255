"""Saved connection profiles: plain dataclasses, a JSON file in the config dir, secrets in the keyring.

File: ``config_dir()/profiles.json``, written atomically (temp file in the same directory, fsync,
``os.replace``)::

    {
      "version": 1,
      "profiles": [
        {
          "id": "0b9d6c1e-5a0f-4c52-9f55-8c2f3d7e4a11",
          "name": "weather (stdio)",
          "transport": "stdio",                      // "stdio" | "http" | "sse"
          "stdio": {"command": "uvx", "args": ["weather-mcp"], "cwd": "",
                    "env": [{"name": "UNITS", "value": "metric"},
                            {"name": "API_KEY", "secret": true}]},      // value in the keyring
          "http": {"url": "", "ca_bundle": "",
                   "headers": [{"name": "Authorization", "secret": true}]},
          "auth": {"mode": "none", "bearer_token": null, "client_id": "",
                   "client_secret": null, "cimd_url": "", "scopes": []},
          "timeouts": {"request": 60.0, "reset_on_progress": true, "max_total": null},
          "protocol_version": "2025-11-25",
          "capabilities": {"sampling": true, "sampling_tools": false, "elicitation_form": true,
                           "elicitation_url": true, "roots": true, "roots_list_changed": true},
          "roots": [{"uri": "file:///home/me/project", "name": "project"}],
          "sampling_auto_reply": {"enabled": false, "text": "", "model": "mcp-inspector-auto-reply",
                                  "stop_reason": "endTurn"}
        }
      ]
    }

Secret values never appear in the file. A secret env variable or header is written as
``{"name": ..., "secret": true}``; a stored bearer token or client secret as ``{"secret": true}``
(``null`` when there is none). The values live in the keyring (:class:`SecretStore`, service
``mcp-inspector-desktop``) under ``profile/<id>/<kind>/<name>`` with kind ``env``, ``header`` or
``auth`` (names ``bearer_token`` and ``client_secret``).

In memory a secret's value is a ``str`` when known and ``None`` when it is held by the secret store
and not loaded: profiles handed out by :class:`ProfileStore` carry ``None`` for every secret;
:meth:`ProfileStore.resolve_secrets` returns a copy with the values filled in (for connecting or
editing). Passing a profile with ``None`` secrets back to :meth:`ProfileStore.update` keeps what is
stored; an empty string clears a bearer token or client secret.

Unknown keys (at the top level, in a profile and in its sections) are kept and written back.
A file that is not JSON or not the right shape is moved aside to ``profiles.json.corrupt-<time>``;
a profile entry of the wrong shape is dropped alone (the original file is copied aside first).
Either way ``ProfileStore.load_warnings`` says what happened, in words for the user.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import shutil
import tempfile
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, cast, get_args

from inspector.protocol.versions import DEFAULT_VERSION
from inspector.store.paths import config_dir
from inspector.store.secrets import SecretStore

__all__ = [
    "AUTH_MODES",
    "FORMAT_VERSION",
    "PROFILES_FILENAME",
    "TRANSPORTS",
    "AuthMode",
    "AuthSettings",
    "ClientCapabilitySwitches",
    "EnvVar",
    "Header",
    "HttpSettings",
    "Profile",
    "ProfileFormatError",
    "ProfileStore",
    "Root",
    "SamplingAutoReply",
    "SecretSlot",
    "StdioSettings",
    "TimeoutSettings",
    "TransportKind",
    "atomic_write_text",
    "secret_key",
]

FORMAT_VERSION: Final = 1
PROFILES_FILENAME: Final = "profiles.json"

TransportKind = Literal["stdio", "http", "sse"]
AuthMode = Literal["none", "bearer", "oauth"]
SecretKind = Literal["env", "header", "auth"]
TRANSPORTS: Final[tuple[TransportKind, ...]] = get_args(TransportKind)
AUTH_MODES: Final[tuple[AuthMode, ...]] = get_args(AuthMode)

_AUTH_SECRETS: Final = ("bearer_token", "client_secret")
_PLACEHOLDER: Final[dict[str, Any]] = {"secret": True}


def secret_key(profile_id: str, kind: str, name: str) -> str:
    """The secret store key of one secret of one profile."""
    return f"profile/{profile_id}/{kind}/{name}"


class ProfileFormatError(ValueError):
    """A profile (or a part of one) in JSON does not have the expected shape."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}" if where else problem)
        self.where = where
        self.problem = problem


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


def _new_id() -> str:
    return str(uuid.uuid4())


@dataclass
class Profile:
    """Everything needed to connect to one server, and how the client presents itself."""

    name: str
    transport: TransportKind = "stdio"
    id: str = field(default_factory=_new_id)
    stdio: StdioSettings = field(default_factory=StdioSettings)
    http: HttpSettings = field(default_factory=HttpSettings)
    auth: AuthSettings = field(default_factory=AuthSettings)
    timeouts: TimeoutSettings = field(default_factory=TimeoutSettings)
    protocol_version: str = DEFAULT_VERSION
    capabilities: ClientCapabilitySwitches = field(default_factory=ClientCapabilitySwitches)
    roots: list[Root] = field(default_factory=list)
    sampling_auto_reply: SamplingAutoReply = field(default_factory=SamplingAutoReply)
    extra: dict[str, Any] = field(default_factory=dict)
    """Keys of the profile object this version does not know; written back unchanged."""
    stored_secrets: set[str] = field(default_factory=set, compare=False, repr=False)
    """Slot keys (``<kind>/<name>``) the file says have a value in the secret store."""

    # -- behaviour -------------------------------------------------------------------------------

    def client_capabilities(self, protocol_version: str | None = None) -> dict[str, Any]:
        """The ClientCapabilities object to declare, from the switches.

        Without ``protocol_version`` the result is exactly what the switches say (2025-11-25 shape).
        With one, parts that version does not define are left out: ``sampling.tools`` and the
        ``elicitation.form``/``url`` sub-objects before 2025-11-25 (a bare ``elicitation: {}`` meant
        form mode), elicitation altogether before 2025-06-18.
        """
        caps = self.capabilities
        version = protocol_version or "2025-11-25"
        modern_shapes = _version_at_least(version, "2025-11-25")
        result: dict[str, Any] = {}
        if caps.sampling:
            sampling: dict[str, Any] = {}
            if caps.sampling_tools and modern_shapes:
                sampling["tools"] = {}
            result["sampling"] = sampling
        if (caps.elicitation_form or caps.elicitation_url) and _version_at_least(version, "2025-06-18"):
            if modern_shapes:
                elicitation: dict[str, Any] = {}
                if caps.elicitation_form:
                    elicitation["form"] = {}
                if caps.elicitation_url:
                    elicitation["url"] = {}
                result["elicitation"] = elicitation
            elif caps.elicitation_form:
                result["elicitation"] = {}
        if caps.roots:
            result["roots"] = {"listChanged": True} if caps.roots_list_changed else {}
        return result

    def secret_slots(self) -> list[SecretSlot]:
        """Every secret of this profile (env, headers, bearer token, client secret) and its value."""
        slots: list[SecretSlot] = [SecretSlot("env", v.name, v.value) for v in self.stdio.env if v.secret]
        slots += [SecretSlot("header", h.name, h.value) for h in self.http.headers if h.secret]
        for name in _AUTH_SECRETS:
            value: str | None = getattr(self.auth, name)
            if value is not None or f"auth/{name}" in self.stored_secrets:
                slots.append(SecretSlot("auth", name, value))
        return slots

    def set_secret(self, kind: str, name: str, value: str | None) -> None:
        """Put a secret's value into the matching field (unknown slots are ignored)."""
        if kind == "env":
            for var in self.stdio.env:
                if var.secret and var.name == name:
                    var.value = value
        elif kind == "header":
            for header in self.http.headers:
                if header.secret and header.name == name:
                    header.value = value
        elif kind == "auth" and name in _AUTH_SECRETS:
            setattr(self.auth, name, value)

    def unresolved_secrets(self) -> list[str]:
        """What still needs a value before connecting with this profile's transport: secret env vars
        (stdio) or headers (HTTP/SSE) not loaded, the bearer token in bearer mode, and a stored OAuth
        client secret not loaded."""
        if self.transport == "stdio":
            return [f"environment variable {v.name}" for v in self.stdio.env if v.secret and v.value is None]
        missing = [f"header {h.name}" for h in self.http.headers if h.secret and h.value is None]
        if self.auth.mode == "bearer" and not self.auth.bearer_token:
            missing.append("bearer token")
        secret_stored = "auth/client_secret" in self.stored_secrets
        if self.auth.mode == "oauth" and self.auth.client_secret is None and secret_stored:
            missing.append("OAuth client secret")
        return missing

    def without_secret_values(self) -> Profile:
        """A copy with every secret value set to None (what the store hands out)."""
        clone = self.copy()
        for slot in clone.secret_slots():
            clone.set_secret(slot.kind, slot.name, None)
        return clone

    def copy(self) -> Profile:
        return copy.deepcopy(self)

    # -- JSON ------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The JSON object for the profiles file. Never contains a secret value."""
        s, h, a, t, c, r = self.stdio, self.http, self.auth, self.timeouts, self.capabilities, self.sampling_auto_reply
        data: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "transport": self.transport,
            "stdio": {
                **s.extra,
                "command": s.command,
                "args": list(s.args),
                "env": [_named_to_json(v.name, v.value, v.secret) for v in s.env],
                "cwd": s.cwd,
            },
            "http": {
                **h.extra,
                "url": h.url,
                "headers": [_named_to_json(x.name, x.value, x.secret) for x in h.headers],
                "ca_bundle": h.ca_bundle,
            },
            "auth": {
                **a.extra,
                "mode": a.mode,
                "bearer_token": self._auth_placeholder("bearer_token"),
                "client_id": a.client_id,
                "client_secret": self._auth_placeholder("client_secret"),
                "cimd_url": a.cimd_url,
                "scopes": list(a.scopes),
            },
            "timeouts": {
                **t.extra,
                "request": t.request,
                "reset_on_progress": t.reset_on_progress,
                "max_total": t.max_total,
            },
            "protocol_version": self.protocol_version,
            "capabilities": {
                **c.extra,
                "sampling": c.sampling,
                "sampling_tools": c.sampling_tools,
                "elicitation_form": c.elicitation_form,
                "elicitation_url": c.elicitation_url,
                "roots": c.roots,
                "roots_list_changed": c.roots_list_changed,
            },
            "roots": [{"uri": root.uri, "name": root.name} for root in self.roots],
            "sampling_auto_reply": {
                **r.extra,
                "enabled": r.enabled,
                "text": r.text,
                "model": r.model,
                "stop_reason": r.stop_reason,
            },
        }
        return {**self.extra, **data}

    def _auth_placeholder(self, name: str) -> dict[str, Any] | None:
        value: str | None = getattr(self.auth, name)
        if value or (value is None and f"auth/{name}" in self.stored_secrets):
            return dict(_PLACEHOLDER)
        return None

    @classmethod
    def from_json(cls, data: Any, where: str = "") -> Profile:
        """Build a profile from its JSON object; :class:`ProfileFormatError` names the bad key.

        Missing keys take their defaults. A secret given with a plain value (a hand-edited file) keeps
        the value, so that :class:`ProfileStore` can move it into the secret store.
        """
        obj = _object(data, where)
        known = {
            "id", "name", "transport", "stdio", "http", "auth", "timeouts", "protocol_version",
            "capabilities", "roots", "sampling_auto_reply",
        }  # fmt: skip
        profile_id = _string(obj, "id", where, default="")
        if not profile_id.strip():
            profile_id = _new_id()
        transport = _string(obj, "transport", where, default="stdio")
        if transport not in TRANSPORTS:
            choices = ", ".join(TRANSPORTS)
            raise ProfileFormatError(_at(where, "transport"), f"must be one of {choices}, not {transport!r}")
        profile = cls(
            name=_string(obj, "name", where, default=""),
            transport=transport,
            id=profile_id,
            protocol_version=_string(obj, "protocol_version", where, default=DEFAULT_VERSION) or DEFAULT_VERSION,
            extra={k: v for k, v in obj.items() if k not in known},
        )
        stored: set[str] = set()
        profile.stdio = _stdio_from_json(obj.get("stdio"), _at(where, "stdio"), stored)
        profile.http = _http_from_json(obj.get("http"), _at(where, "http"), stored)
        profile.auth = _auth_from_json(obj.get("auth"), _at(where, "auth"), stored)
        profile.timeouts = _timeouts_from_json(obj.get("timeouts"), _at(where, "timeouts"))
        profile.capabilities = _capabilities_from_json(obj.get("capabilities"), _at(where, "capabilities"))
        profile.roots = _roots_from_json(obj.get("roots"), _at(where, "roots"))
        profile.sampling_auto_reply = _auto_reply_from_json(
            obj.get("sampling_auto_reply"), _at(where, "sampling_auto_reply")
        )
        profile.stored_secrets = stored
        return profile


def _version_at_least(version: str, minimum: str) -> bool:
    """Dates compare as strings; an unknown (future) version counts as newer."""
    return version >= minimum


# -- JSON helpers --------------------------------------------------------------------------------------


def _at(where: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else key


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ProfileFormatError(where, f"expected an object, got {_json_type(value)}")
    return value


def _section(value: Any, where: str) -> dict[str, Any]:
    """An optional section: missing or null is an empty object."""
    return {} if value is None else _object(value, where)


def _string(obj: dict[str, Any], key: str, where: str, *, default: str) -> str:
    value = obj.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str):
        raise ProfileFormatError(_at(where, key), f"expected a string, got {_json_type(value)}")
    return value


def _optional_string(obj: dict[str, Any], key: str, where: str) -> str | None:
    value = obj.get(key)
    if value is not None and not isinstance(value, str):
        raise ProfileFormatError(_at(where, key), f"expected a string or null, got {_json_type(value)}")
    return value


def _bool(obj: dict[str, Any], key: str, where: str, *, default: bool) -> bool:
    value = obj.get(key, default)
    if not isinstance(value, bool):
        raise ProfileFormatError(_at(where, key), f"expected true or false, got {_json_type(value)}")
    return value


def _seconds(obj: dict[str, Any], key: str, where: str, *, default: float | None) -> float | None:
    value = obj.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ProfileFormatError(_at(where, key), f"expected a number of seconds or null, got {_json_type(value)}")
    if value <= 0:
        raise ProfileFormatError(_at(where, key), f"must be more than 0 seconds, got {value}")
    return float(value)


def _string_list(obj: dict[str, Any], key: str, where: str) -> list[str]:
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ProfileFormatError(_at(where, key), f"expected a list of strings, got {_json_type(value)}")
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise ProfileFormatError(_at(_at(where, key), i), f"expected a string, got {_json_type(item)}")
    return list(value)


def _object_list(obj: dict[str, Any], key: str, where: str) -> list[tuple[str, dict[str, Any]]]:
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ProfileFormatError(_at(where, key), f"expected a list, got {_json_type(value)}")
    items = []
    for i, item in enumerate(value):
        item_where = _at(_at(where, key), i)
        items.append((item_where, _object(item, item_where)))
    return items


def _named_to_json(name: str, value: str | None, secret: bool) -> dict[str, Any]:
    if secret:
        return {"name": name, "secret": True}
    return {"name": name, "value": value or ""}


def _named_from_json(item: dict[str, Any], where: str) -> tuple[str, str | None, bool]:
    name = _string(item, "name", where, default="")
    if not name:
        raise ProfileFormatError(_at(where, "name"), "must be a non-empty string")
    secret = _bool(item, "secret", where, default=False)
    value = _optional_string(item, "value", where)
    if not secret and value is None:
        value = ""
    return name, value, secret


def _stdio_from_json(value: Any, where: str, stored: set[str]) -> StdioSettings:
    obj = _section(value, where)
    env: list[EnvVar] = []
    for item_where, item in _object_list(obj, "env", where):
        name, val, secret = _named_from_json(item, item_where)
        env.append(EnvVar(name, val, secret))
        if secret:
            stored.add(f"env/{name}")
    return StdioSettings(
        command=_string(obj, "command", where, default=""),
        args=_string_list(obj, "args", where),
        env=env,
        cwd=_string(obj, "cwd", where, default=""),
        extra={k: v for k, v in obj.items() if k not in {"command", "args", "env", "cwd"}},
    )


def _http_from_json(value: Any, where: str, stored: set[str]) -> HttpSettings:
    obj = _section(value, where)
    headers: list[Header] = []
    for item_where, item in _object_list(obj, "headers", where):
        name, val, secret = _named_from_json(item, item_where)
        headers.append(Header(name, val, secret))
        if secret:
            stored.add(f"header/{name}")
    return HttpSettings(
        url=_string(obj, "url", where, default=""),
        headers=headers,
        ca_bundle=_string(obj, "ca_bundle", where, default=""),
        extra={k: v for k, v in obj.items() if k not in {"url", "headers", "ca_bundle"}},
    )


def _auth_secret_from_json(obj: dict[str, Any], key: str, where: str, stored: set[str]) -> str | None:
    """null/absent: none; {"secret": true}: in the secret store; a string: a plain value to move there."""
    value = obj.get(key)
    if value is None or isinstance(value, str):
        return value or None
    if isinstance(value, dict) and value.get("secret") is True:
        stored.add(f"auth/{key}")
        return None
    raise ProfileFormatError(_at(where, key), f'expected {{"secret": true}} or null, got {_json_type(value)}')


def _auth_from_json(value: Any, where: str, stored: set[str]) -> AuthSettings:
    obj = _section(value, where)
    mode = _string(obj, "mode", where, default="none")
    if mode not in AUTH_MODES:
        raise ProfileFormatError(_at(where, "mode"), f"must be one of {', '.join(AUTH_MODES)}, not {mode!r}")
    known = {"mode", "bearer_token", "client_id", "client_secret", "cimd_url", "scopes"}
    return AuthSettings(
        mode=mode,
        bearer_token=_auth_secret_from_json(obj, "bearer_token", where, stored),
        client_id=_string(obj, "client_id", where, default=""),
        client_secret=_auth_secret_from_json(obj, "client_secret", where, stored),
        cimd_url=_string(obj, "cimd_url", where, default=""),
        scopes=_string_list(obj, "scopes", where),
        extra={k: v for k, v in obj.items() if k not in known},
    )


def _timeouts_from_json(value: Any, where: str) -> TimeoutSettings:
    obj = _section(value, where)
    return TimeoutSettings(
        request=_seconds(obj, "request", where, default=60.0),
        reset_on_progress=_bool(obj, "reset_on_progress", where, default=True),
        max_total=_seconds(obj, "max_total", where, default=None),
        extra={k: v for k, v in obj.items() if k not in {"request", "reset_on_progress", "max_total"}},
    )


def _capabilities_from_json(value: Any, where: str) -> ClientCapabilitySwitches:
    obj = _section(value, where)
    defaults = ClientCapabilitySwitches()
    names = ("sampling", "sampling_tools", "elicitation_form", "elicitation_url", "roots", "roots_list_changed")
    flags = {name: _bool(obj, name, where, default=getattr(defaults, name)) for name in names}
    return ClientCapabilitySwitches(**flags, extra={k: v for k, v in obj.items() if k not in names})


def _roots_from_json(value: Any, where: str) -> list[Root]:
    roots: list[Root] = []
    if value is None:
        return roots
    if not isinstance(value, list):
        raise ProfileFormatError(where, f"expected a list, got {_json_type(value)}")
    for i, entry in enumerate(value):
        item_where = _at(where, i)
        item = _object(entry, item_where)
        uri = _string(item, "uri", item_where, default="")
        if not uri:
            raise ProfileFormatError(_at(item_where, "uri"), "must be a non-empty string")
        roots.append(Root(uri=uri, name=_optional_string(item, "name", item_where)))
    return roots


def _auto_reply_from_json(value: Any, where: str) -> SamplingAutoReply:
    obj = _section(value, where)
    defaults = SamplingAutoReply()
    return SamplingAutoReply(
        enabled=_bool(obj, "enabled", where, default=False),
        text=_string(obj, "text", where, default=""),
        model=_string(obj, "model", where, default=defaults.model),
        stop_reason=_string(obj, "stop_reason", where, default=defaults.stop_reason),
        extra={k: v for k, v in obj.items() if k not in {"enabled", "text", "model", "stop_reason"}},
    )


# -- files -----------------------------------------------------------------------------------------------


def atomic_write_text(path: Path, text: str, *, mode: int | None = None) -> None:
    """Replace ``path`` with ``text`` so that a crash leaves either the old or the new file, whole.

    The text goes to a temp file in the same directory (mode 0600 unless ``mode`` is given), is
    flushed and fsynced, then ``os.replace`` swaps it in and the directory is fsynced. On any error
    the temp file is removed and the old file is untouched.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp_name, mode)
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
    _fsync_directory(path.parent)


def _fsync_directory(directory: Path) -> None:
    if os.name != "posix":
        return
    try:
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def _aside_path(path: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    candidate = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    return candidate


# -- the store ----------------------------------------------------------------------------------------------


class ProfileStore:
    """The ordered list of saved profiles, the file that holds them and the secrets that go with them.

    Every change (create, update, duplicate, delete, move, reorder) is saved at once; when saving
    fails the change is undone in memory and the ``OSError`` propagates. Profiles going in may carry
    secret values; profiles coming out never do (see :meth:`resolve_secrets`). All returned profiles
    are copies: change them, then pass them to :meth:`update`.
    """

    def __init__(self, path: Path | None = None, secrets: SecretStore | None = None) -> None:
        self.path = path if path is not None else config_dir() / PROFILES_FILENAME
        self.secrets = secrets if secrets is not None else SecretStore()
        self.load_warnings: list[str] = []
        self._profiles: list[Profile] = []
        self._file_extra: dict[str, Any] = {}
        self.load()

    # -- loading ---------------------------------------------------------------------------------

    def load(self) -> None:
        """(Re)read the file. Problems end up in ``load_warnings``; nothing here raises."""
        self.load_warnings = []
        self._profiles = []
        self._file_extra = {}
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return
        except OSError as exc:
            self._warn(f"The profiles file {self.path} could not be read ({exc.strerror or exc}); no profiles loaded.")
            return
        try:
            data = json.loads(raw.decode("utf-8-sig"))
        except UnicodeDecodeError as exc:
            self._set_aside(f"is not UTF-8 text (byte {exc.start})")
            return
        except json.JSONDecodeError as exc:
            self._set_aside(f"is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})")
            return
        except RecursionError:
            self._set_aside("is not valid JSON (nested too deeply)")
            return
        if not isinstance(data, dict):
            self._set_aside(f"does not hold a JSON object (it holds {_json_type(data)})")
            return
        entries = data.get("profiles", [])
        if not isinstance(entries, list):
            self._set_aside(f'has a "profiles" key that is {_json_type(entries)}, not a list')
            return
        version = data.get("version", FORMAT_VERSION)
        if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT_VERSION:
            self._warn(
                f"The profiles file {self.path} was written by a newer version of the app (format {version}); "
                f"fields this version does not know are kept, but saving writes format {FORMAT_VERSION}."
            )
        self._file_extra = {k: v for k, v in data.items() if k not in {"version", "profiles"}}
        self._load_entries(entries)

    def _load_entries(self, entries: list[Any]) -> None:
        dropped: list[str] = []
        seen: set[str] = set()
        migrate = False
        for index, entry in enumerate(entries):
            try:
                profile = Profile.from_json(entry, "")
            except ProfileFormatError as exc:
                label = f"#{index + 1}"
                if isinstance(entry, dict) and isinstance(entry.get("name"), str) and entry["name"]:
                    label += f' ("{entry["name"]}")'
                dropped.append(f"profile {label} was skipped: {exc}")
                continue
            if profile.id in seen:
                old_id, profile.id = profile.id, _new_id()
                self._warn(
                    f'Profile "{profile.name}" had the same id as another profile ({old_id}); it was given a new id '
                    "and its stored secrets need to be entered again."
                )
                migrate = True
            seen.add(profile.id)
            if self._adopt_plain_secrets(profile):
                migrate = True
            self._profiles.append(profile)
        if dropped:
            aside = self._copy_aside()
            where = f"The original file was copied to {aside}." if aside else "The original file could not be copied."
            self._warn(f"Some profiles in {self.path} could not be read: " + "; ".join(dropped) + f". {where}")
        if migrate:
            try:
                self.save()
            except OSError as exc:
                self._warn(f"The profiles file {self.path} could not be rewritten ({exc.strerror or exc}).")

    def _adopt_plain_secrets(self, profile: Profile) -> bool:
        """Move secret values found in the file (hand edits) into the secret store. True if any."""
        found = [slot for slot in profile.secret_slots() if slot.value]
        for slot in found:
            self.secrets.set(secret_key(profile.id, slot.kind, slot.name), slot.value or "")
            profile.stored_secrets.add(slot.key)
            profile.set_secret(slot.kind, slot.name, None)
        if found:
            names = ", ".join(slot.name for slot in found)
            self._warn(
                f'Profile "{profile.name}" had secret values written in the profiles file ({names}); '
                "they were moved to the secret store and removed from the file."
            )
        return bool(found)

    def _set_aside(self, problem: str) -> None:
        aside = _aside_path(self.path)
        try:
            os.replace(self.path, aside)
        except OSError as exc:
            self._warn(
                f"The profiles file {self.path} {problem}, and it could not be moved aside ({exc.strerror or exc}). "
                "No profiles were loaded; saving will replace it."
            )
            return
        self._warn(
            f"The profiles file {self.path} {problem}. It was moved to {aside} and the profile list starts empty."
        )

    def _copy_aside(self) -> Path | None:
        aside = _aside_path(self.path)
        try:
            shutil.copy2(self.path, aside)
        except OSError:
            return None
        return aside

    def _warn(self, message: str) -> None:
        self.load_warnings.append(message)

    # -- reading ---------------------------------------------------------------------------------

    def list_profiles(self) -> list[Profile]:
        """All profiles, in the user's order (copies, secret values not loaded)."""
        return [p.copy() for p in self._profiles]

    def __iter__(self) -> Iterator[Profile]:
        return iter(self.list_profiles())

    def __len__(self) -> int:
        return len(self._profiles)

    def __contains__(self, profile_id: object) -> bool:
        return any(p.id == profile_id for p in self._profiles)

    def ids(self) -> list[str]:
        return [p.id for p in self._profiles]

    def get(self, profile_id: str) -> Profile:
        """The profile with this id; KeyError if there is none."""
        return self._profiles[self._index(profile_id)].copy()

    def find(self, name_or_id: str) -> Profile | None:
        """By id, else by exact name, else by case-insensitive name (the first match)."""
        folded = name_or_id.casefold()
        for match in (
            [p for p in self._profiles if p.id == name_or_id],
            [p for p in self._profiles if p.name == name_or_id],
            [p for p in self._profiles if p.name.casefold() == folded],
        ):
            if match:
                return match[0].copy()
        return None

    def resolve_secrets(self, profile: Profile) -> Profile:
        """A copy of ``profile`` with every secret not loaded (None) fetched from the secret store.

        Secrets the store does not have stay None; ``Profile.unresolved_secrets()`` lists them.
        """
        resolved = profile.copy()
        for slot in resolved.secret_slots():
            if slot.value is None:
                value = self.secrets.get(secret_key(resolved.id, slot.kind, slot.name))
                if value is not None:
                    resolved.set_secret(slot.kind, slot.name, value)
        return resolved

    def _index(self, profile_id: str) -> int:
        for i, profile in enumerate(self._profiles):
            if profile.id == profile_id:
                return i
        raise KeyError(profile_id)

    # -- changing ----------------------------------------------------------------------------------

    def create(self, profile: Profile, index: int | None = None) -> Profile:
        """Add a profile (at the end, or at ``index``); its secrets go to the secret store."""
        new = profile.copy()
        if not new.id or new.id in self:
            new.id = _new_id()
        new.stored_secrets = set()
        stored, _ = self._commit_secrets(new, None)
        position = len(self._profiles) if index is None else max(0, min(index, len(self._profiles)))
        try:
            self._change(lambda profiles: profiles.insert(position, stored))
        except BaseException:
            self._forget_secrets(stored)
            raise
        return stored.copy()

    def update(self, profile: Profile) -> Profile:
        """Replace the saved profile with the same id; KeyError if it does not exist."""
        index = self._index(profile.id)
        old = self._profiles[index]
        stored, stale = self._commit_secrets(profile.copy(), old)

        def replace(profiles: list[Profile]) -> None:
            profiles[index] = stored

        self._change(replace)
        for key in stale:
            self.secrets.delete(key)
        return stored.copy()

    def duplicate(self, profile_id: str, name: str | None = None) -> Profile:
        """A copy with a new id right after the original; stored secrets are copied too."""
        index = self._index(profile_id)
        original = self._profiles[index]
        clone = original.copy()
        clone.id = _new_id()
        clone.name = name if name is not None else self._copy_name(original.name)
        clone.stored_secrets = set()
        for slot in original.secret_slots():
            source = secret_key(original.id, slot.kind, slot.name)
            if self.secrets.copy(source, secret_key(clone.id, slot.kind, slot.name)):
                clone.stored_secrets.add(slot.key)
        try:
            self._change(lambda profiles: profiles.insert(index + 1, clone))
        except BaseException:
            self._forget_secrets(clone)
            raise
        return clone.copy()

    def delete(self, profile_id: str) -> None:
        """Remove a profile and its secrets."""
        index = self._index(profile_id)
        victim = self._profiles[index]
        self._change(lambda profiles: profiles.pop(index))
        self._forget_secrets(victim)

    def _forget_secrets(self, profile: Profile) -> None:
        keys = {slot.key for slot in profile.secret_slots()} | profile.stored_secrets
        keys |= {f"auth/{name}" for name in _AUTH_SECRETS}
        for key in sorted(keys):
            kind, _, name = key.partition("/")
            self.secrets.delete(secret_key(profile.id, kind, name))

    def move(self, profile_id: str, index: int) -> None:
        """Move a profile to position ``index`` (clamped to the list)."""
        current = self._index(profile_id)

        def move(profiles: list[Profile]) -> None:
            profile = profiles.pop(current)
            profiles.insert(max(0, min(index, len(profiles))), profile)

        self._change(move)

    def reorder(self, ids: Iterable[str]) -> None:
        """Put the profiles in this order; ids not given keep their relative order at the end."""
        wanted = list(dict.fromkeys(ids))
        for profile_id in wanted:
            self._index(profile_id)
        rank = {profile_id: i for i, profile_id in enumerate(wanted)}

        def reorder(profiles: list[Profile]) -> None:
            profiles.sort(key=lambda p: rank.get(p.id, len(rank)))

        self._change(reorder)

    def save(self) -> None:
        """Write the file atomically."""
        document = {
            **self._file_extra,
            "version": FORMAT_VERSION,
            "profiles": [p.to_json() for p in self._profiles],
        }
        atomic_write_text(self.path, json.dumps(document, indent=2, ensure_ascii=False) + "\n")

    # -- internals ---------------------------------------------------------------------------------

    def _change(self, mutate: Callable[[list[Profile]], object]) -> None:
        before = list(self._profiles)
        mutate(self._profiles)
        try:
            self.save()
        except BaseException:
            self._profiles = before
            raise

    def _copy_name(self, name: str) -> str:
        names = {p.name for p in self._profiles}
        candidate = f"{name} (copy)"
        n = 1
        while candidate in names:
            n += 1
            candidate = f"{name} (copy {n})"
        return candidate

    def _commit_secrets(self, new: Profile, old: Profile | None) -> tuple[Profile, list[str]]:
        """Write ``new``'s known secret values to the secret store.

        Returns the profile to keep (secret values stripped, ``stored_secrets`` up to date) and the
        secret store keys that no longer belong to any slot (to delete once the file is saved).
        """
        old_stored = set(old.stored_secrets) if old is not None else set()
        # A secret turned plain without its value loaded keeps its stored value (now in the file).
        for kind, items in (("env", new.stdio.env), ("header", new.http.headers)):
            for item in cast(list[EnvVar | Header], items):
                if not item.secret and item.value is None:
                    previous = None
                    if f"{kind}/{item.name}" in old_stored:
                        previous = self.secrets.get(secret_key(new.id, kind, item.name))
                    item.value = previous or ""
        stored: set[str] = set()
        for slot in new.secret_slots():
            if slot.value is None:
                if slot.key in old_stored:
                    stored.add(slot.key)
            elif slot.kind == "auth" and slot.value == "":
                continue  # cleared
            else:
                self.secrets.set(secret_key(new.id, slot.kind, slot.name), slot.value)
                stored.add(slot.key)
        kept = new.without_secret_values()
        kept.stored_secrets = stored
        stale = [secret_key(new.id, *key.split("/", 1)) for key in sorted(old_stored - stored)]
        return kept, stale
