"""From a saved profile to what the connection controller needs, and the built-in demo profile.

``connection_settings`` takes a profile whose secrets are resolved (``ProfileStore.resolve_secrets``)
and returns a ``ConnectionSettings`` whose transport factory starts the server with the profile's
command, arguments, environment (secret values included, in memory only) and working directory.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, Final

from inspector.client.handlers import HeadlessHandlers
from inspector.protocol.session import Timeouts
from inspector.store.profiles import Profile, StdioSettings
from inspector.store.recording import Redactor
from inspector.transports.base import Transport
from inspector.transports.stdio import StdioTransport
from inspector.ui.controller import ConnectionSettings

__all__ = [
    "DEMO_PROFILE_ID",
    "ProfileNotConnectable",
    "connection_settings",
    "demo_profile",
    "is_demo",
    "secret_redactor",
]

DEMO_PROFILE_ID: Final = "builtin:demo"
"""The demo profile is never saved; this id marks it in the window state (open tabs)."""


class ProfileNotConnectable(Exception):
    """The profile cannot be used to connect yet (one line for the user)."""


def demo_profile() -> Profile:
    """The bundled demo server, run with this very interpreter."""
    return Profile(
        name="Demo server",
        id=DEMO_PROFILE_ID,
        stdio=StdioSettings(command=sys.executable, args=["-m", "inspector.demo"]),
    )


def is_demo(profile_id: str) -> bool:
    return profile_id == DEMO_PROFILE_ID


MASK: Final = b"********"
MIN_SECRET_LENGTH: Final = 3
"""Shorter secret values are not masked in recordings (they would mask unrelated text everywhere)."""


def secret_redactor(profile: Profile) -> Redactor | None:
    """A function masking the profile's secret values (as typed and JSON-escaped) in recorded payloads."""
    needles: set[bytes] = set()
    for slot in profile.secret_slots():
        if slot.value is not None and len(slot.value) >= MIN_SECRET_LENGTH:
            needles.add(slot.value.encode("utf-8"))
            needles.add(json.dumps(slot.value, ensure_ascii=True)[1:-1].encode("ascii"))
            needles.add(json.dumps(slot.value, ensure_ascii=False)[1:-1].encode("utf-8"))
    if not needles:
        return None
    ordered = sorted(needles, key=len, reverse=True)

    def redact(data: bytes) -> bytes:
        for needle in ordered:
            if needle in data:
                data = data.replace(needle, MASK)
        return data

    return redact


def _stdio_factory(settings: StdioSettings, env: dict[str, str]) -> Callable[[], Transport]:
    command, args, cwd = settings.command, list(settings.args), settings.cwd or None

    def factory() -> Transport:
        return StdioTransport(command, args, env=env, cwd=cwd)

    return factory


def connection_settings(profile: Profile) -> ConnectionSettings:
    """ConnectionSettings for a profile with its secrets resolved; ProfileNotConnectable if it cannot be used."""
    if profile.transport != "stdio":
        raise ProfileNotConnectable(
            f'"{profile.name}" uses {profile.transport.upper()}; remote servers are not supported yet'
        )
    if not profile.stdio.command.strip():
        raise ProfileNotConnectable(f'"{profile.name}" has no command to run')
    missing = profile.unresolved_secrets()
    if missing:
        raise ProfileNotConnectable(
            f'"{profile.name}" needs a value for {", ".join(missing)} (edit the profile to enter it)'
        )
    env = {var.name: var.value or "" for var in profile.stdio.env if var.name}
    t = profile.timeouts
    timeouts = Timeouts(request=t.request, reset_on_progress=t.reset_on_progress, max_total=t.max_total)
    roots: list[dict[str, Any]] = [
        {"uri": root.uri, **({"name": root.name} if root.name else {})} for root in profile.roots
    ]
    auto = profile.sampling_auto_reply
    handlers = HeadlessHandlers(roots=roots, sampling_text=auto.text) if auto.enabled and auto.text else None
    if handlers is None:
        handlers = HeadlessHandlers(roots=roots)
    return ConnectionSettings(
        label=profile.name,
        transport_factory=_stdio_factory(profile.stdio, env),
        protocol_version=profile.protocol_version,
        capabilities=profile.client_capabilities(profile.protocol_version),
        timeouts=timeouts,
        handlers=handlers,
    )
