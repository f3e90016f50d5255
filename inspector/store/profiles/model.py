"""The :class:`Profile` dataclass: what it declares, where its secrets are, and its JSON object.

Package-internal: the public names live in :mod:`inspector.store.profiles`, whose docstring
describes the file format and how secrets are handled.
"""

from __future__ import annotations

import copy
import uuid
from dataclasses import dataclass, field
from typing import Any, Final, Literal, get_args

from inspector.protocol.limits import DEFAULT_LIMITS, Limits
from inspector.protocol.versions import DEFAULT_VERSION, KNOWN_VERSIONS, at_least
from inspector.store.profiles.json_values import (
    ProfileFormatError,
    at,
    extra_keys,
    read_choice,
    read_object,
    read_section,
    read_string,
)
from inspector.store.profiles.sections import (
    AUTH_SECRETS,
    TRANSPORTS,
    AuthSettings,
    ClientCapabilitySwitches,
    HttpSettings,
    Root,
    SamplingAutoReply,
    SecretSlot,
    StdioSettings,
    TimeoutSettings,
    TransportKind,
    auth_from_json,
    auto_reply_from_json,
    capabilities_from_json,
    http_from_json,
    named_to_json,
    roots_from_json,
    stdio_from_json,
    timeouts_from_json,
)

__all__ = ["Profile", "new_id"]

_PLACEHOLDER: Final[dict[str, Any]] = {"secret": True}


def new_id() -> str:
    """A fresh profile id."""
    return str(uuid.uuid4())


ProtocolEra = Literal["legacy", "modern", "auto"]
PROTOCOL_ERAS: Final[tuple[ProtocolEra, ...]] = get_args(ProtocolEra)


@dataclass
class Profile:
    """Everything needed to connect to one server, and how the client presents itself."""

    name: str
    transport: TransportKind = "stdio"
    id: str = field(default_factory=new_id)
    stdio: StdioSettings = field(default_factory=StdioSettings)
    http: HttpSettings = field(default_factory=HttpSettings)
    auth: AuthSettings = field(default_factory=AuthSettings)
    timeouts: TimeoutSettings = field(default_factory=TimeoutSettings)
    protocol_version: str = DEFAULT_VERSION
    protocol_era: ProtocolEra = "auto"
    """``legacy`` | ``modern`` | ``auto`` (see :class:`inspector.protocol.versions.EraChoice`)."""
    capabilities: ClientCapabilitySwitches = field(default_factory=ClientCapabilitySwitches)
    roots: list[Root] = field(default_factory=list)
    sampling_auto_reply: SamplingAutoReply = field(default_factory=SamplingAutoReply)
    limits: dict[str, int] = field(default_factory=dict)
    """Overrides of the bounds on what is read from the server (name -> value, see
    :class:`inspector.protocol.limits.Limits`); the defaults apply to the rest."""
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
        version = protocol_version or DEFAULT_VERSION
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
        for name in AUTH_SECRETS:
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
        elif kind == "auth" and name in AUTH_SECRETS:
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
                "env": [named_to_json(v.name, v.value, v.secret) for v in s.env],
                "cwd": s.cwd,
            },
            "http": {
                **h.extra,
                "url": h.url,
                "headers": [named_to_json(x.name, x.value, x.secret) for x in h.headers],
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
            "protocol_era": self.protocol_era,
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
        if self.limits:
            data["limits"] = dict(self.limits)
        return {**self.extra, **data}

    def effective_limits(self) -> Limits:
        """The defaults with this profile's ``limits`` applied (raises ValueError for a bad override)."""
        return DEFAULT_LIMITS.overridden(self.limits)

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
        obj = read_object(data, where)
        known = {
            "id", "name", "transport", "stdio", "http", "auth", "timeouts", "protocol_version", "protocol_era",
            "capabilities", "roots", "sampling_auto_reply", "limits",
        }  # fmt: skip
        profile_id = read_string(obj, "id", where, default="")
        if not profile_id.strip():
            profile_id = new_id()
        transport = read_choice(obj, "transport", where, TRANSPORTS, default="stdio")
        profile = cls(
            name=read_string(obj, "name", where, default=""),
            transport=transport,
            id=profile_id,
            protocol_version=read_string(obj, "protocol_version", where, default=DEFAULT_VERSION) or DEFAULT_VERSION,
            protocol_era=read_choice(obj, "protocol_era", where, PROTOCOL_ERAS, default="auto"),
            extra=extra_keys(obj, known),
        )
        stored: set[str] = set()
        profile.stdio = stdio_from_json(obj.get("stdio"), at(where, "stdio"), stored)
        profile.http = http_from_json(obj.get("http"), at(where, "http"), stored)
        profile.auth = auth_from_json(obj.get("auth"), at(where, "auth"), stored)
        profile.timeouts = timeouts_from_json(obj.get("timeouts"), at(where, "timeouts"))
        profile.capabilities = capabilities_from_json(obj.get("capabilities"), at(where, "capabilities"))
        profile.roots = roots_from_json(obj.get("roots"), at(where, "roots"))
        profile.sampling_auto_reply = auto_reply_from_json(
            obj.get("sampling_auto_reply"), at(where, "sampling_auto_reply")
        )
        profile.limits = _limits_from_json(obj.get("limits"), at(where, "limits"))
        profile.stored_secrets = stored
        return profile


def _limits_from_json(value: Any, where: str) -> dict[str, int]:
    """``{"message_bytes": "64MiB", ...}`` -> ``{"message_bytes": 67108864}``; a bad name or value names itself."""
    obj = read_section(value, where)
    try:
        chosen = DEFAULT_LIMITS.overridden(obj)
    except ValueError as exc:
        raise ProfileFormatError(where, str(exc)) from None
    names = (str(name).strip().replace("-", "_") for name in obj)  # as Limits.overridden spells them
    return {name: getattr(chosen, name) for name in names}


def _version_at_least(version: str, minimum: str) -> bool:
    """By the registry's order (never as strings); an unknown (future) version counts as newer."""
    return version not in KNOWN_VERSIONS or at_least(version, minimum)
