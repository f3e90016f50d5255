"""The window's saved connection profiles as servers of the CLI: ``servers/list`` shows them, ``--server NAME``
connects to them.

Profiles live in ``profiles.json`` of our config dir with their secrets (secret env values and headers, the
bearer token, the OAuth client secret) in the keyring (:mod:`inspector.store.profiles`). The CLI only reads
them: ``servers/add``/``edit``/``remove`` work on the catalog, never on profiles. A catalog entry with the
same name as a profile wins; the profile is then listed as ``"shadowed": true``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from inspector.cli.catalog_entries import REDACTED, is_sensitive_header

if TYPE_CHECKING:
    from inspector.cli.config import ServerTarget
    from inspector.store.profiles import Profile, ProfileStore

__all__ = ["SOURCE", "load_profiles", "profile_config", "profile_show", "profile_summary", "profile_target"]

SOURCE: Final = "profile"
_TYPES: Final = {"stdio": "stdio", "http": "streamable-http", "sse": "sse"}


def load_profiles() -> ProfileStore:
    """The saved profiles (an unreadable file reads as none; the store says why in ``load_warnings``)."""
    from inspector.store.profiles import ProfileStore

    return ProfileStore()


def profile_summary(profile: Profile, *, shadowed: bool = False) -> dict[str, Any]:
    """A ``servers/list`` row: the official's ``name``/``type``/``detail`` plus ``source`` and ``profileId``."""
    kind = _TYPES.get(profile.transport, "stdio")
    if kind == "stdio":
        detail = " ".join([profile.stdio.command, *profile.stdio.args])
    else:
        detail = profile.http.url
    row: dict[str, Any] = {"name": profile.name, "type": kind, "detail": detail, "source": SOURCE}
    row["profileId"] = profile.id
    if shadowed:
        row["shadowed"] = True
    return row


def profile_config(profile: Profile) -> dict[str, Any]:
    """The profile as an mcpServers entry, secret values redacted (for ``servers/show``)."""
    kind = _TYPES.get(profile.transport, "stdio")
    if kind == "stdio":
        config: dict[str, Any] = {"type": "stdio", "command": profile.stdio.command}
        if profile.stdio.args:
            config["args"] = list(profile.stdio.args)
        if profile.stdio.env:
            config["env"] = {var.name: REDACTED if var.secret else (var.value or "") for var in profile.stdio.env}
        if profile.stdio.cwd:
            config["cwd"] = profile.stdio.cwd
        return config
    config = {"type": kind, "url": profile.http.url}
    if profile.http.headers:
        config["headers"] = {
            h.name: REDACTED if h.secret or is_sensitive_header(h.name) else (h.value or "")
            for h in profile.http.headers
        }
    return config


def profile_show(profile: Profile, *, shadowed: bool = False) -> dict[str, Any]:
    """``servers/show`` of a profile: the row, its config, and what else the CLI takes from it."""
    out = profile_summary(profile, shadowed=shadowed)
    out["config"] = profile_config(profile)
    out["profile"] = {
        "protocolVersion": profile.protocol_version,
        "protocolEra": profile.protocol_era,
        "auth": profile.auth.mode,
        "requestTimeout": profile.timeouts.request,
    }
    return out


def profile_target(store: ProfileStore, profile: Profile) -> ServerTarget:
    """How to reach a profile's server, its secrets fetched from the keyring. UsageError when one is missing."""
    from inspector.cli.config import ServerSpec, ServerTarget
    from inspector.cli.errors import UsageError

    resolved = store.resolve_secrets(profile)
    missing = resolved.unresolved_secrets()
    if missing:
        why = store.secrets.message or "it is not stored there"
        raise UsageError(
            f"saved profile {profile.name!r} needs its {', '.join(missing)} from the keyring, which does not hold "
            f"it ({why}); set it in the window's profile editor"
        )
    target = ServerTarget(name=profile.name, source=SOURCE)
    if resolved.transport == "stdio":
        env = {var.name: var.value or "" for var in resolved.stdio.env}
        target.stdio = ServerSpec(
            command=resolved.stdio.command,
            args=tuple(resolved.stdio.args),
            env=env,
            cwd=resolved.stdio.cwd or None,
            name=profile.name,
        )
        if not resolved.stdio.command:
            raise UsageError(f"saved profile {profile.name!r} has no command")
    else:
        if not resolved.http.url:
            raise UsageError(f"saved profile {profile.name!r} has no URL")
        target.url = resolved.http.url
        target.transport = resolved.transport
        target.headers = [(h.name, h.value or "") for h in resolved.http.headers]
        auth = resolved.auth
        if auth.mode == "bearer" and auth.bearer_token:
            target.headers.append(("Authorization", f"Bearer {auth.bearer_token}"))
        elif auth.mode == "oauth":
            target.client_id = auth.client_id or None
            target.client_secret = auth.client_secret or None
            target.cimd_url = auth.cimd_url or None
            target.scopes = list(auth.scopes)
        if resolved.http.ca_bundle:
            target.warnings.append(
                f"saved profile {profile.name!r}: its CA bundle ({resolved.http.ca_bundle}) is not used by --cli"
            )
    target.protocol_era = resolved.protocol_era
    target.protocol_version = resolved.protocol_version
    target.request_timeout = resolved.timeouts.request
    target.request_timeout_given = True
    if resolved.limits:
        target.limits = resolved.effective_limits()
    return target
