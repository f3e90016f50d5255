"""The era of a connection in words (Qt-free): which era is in use and why, what each era choice means, and the
rows of the 2026-07-28 result cache (``ttlMs`` / ``cacheScope``, age, expiry) as the overview shows them."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from inspector.client.server_info import ServerInfo
from inspector.protocol.result_cache import CacheEntry
from inspector.protocol.versions import HANDSHAKE_VERSIONS, MODERN_VERSION, Era, EraChoice

__all__ = [
    "CHOICE_HELP",
    "CHOICE_LABELS",
    "CacheRow",
    "EraSummary",
    "cache_rows",
    "format_ms",
    "summarize_era",
]

HANDSHAKE_SPAN: Final = f"{HANDSHAKE_VERSIONS[0]}…{HANDSHAKE_VERSIONS[-1]}"

CHOICE_LABELS: Final[dict[EraChoice, str]] = {
    EraChoice.AUTO: "Automatic",
    EraChoice.LEGACY: f"{HANDSHAKE_SPAN} handshake",
    EraChoice.MODERN: MODERN_VERSION,
}
"""The profile editor's names of the era choices (in this order)."""

CHOICE_HELP: Final[dict[EraChoice, str]] = {
    EraChoice.AUTO: (
        f"Automatic: ask server/discover first ({MODERN_VERSION}); when the server does not answer it as a "
        f"{MODERN_VERSION} server (refused, an answer of another shape, no answer in time), fall back to the "
        "initialize handshake. The overview says which era was used and why."
    ),
    EraChoice.LEGACY: (
        f"The handshake era only ({HANDSHAKE_SPAN}): initialize + notifications/initialized, capabilities "
        "negotiated once; server/discover is never sent. The version offered is the one chosen below."
    ),
    EraChoice.MODERN: (
        f"{MODERN_VERSION} only: server/discover opens the session, every request carries its _meta envelope, "
        "input_required results are answered in rounds; no fallback to initialize (a server that does not speak "
        f"{MODERN_VERSION} fails to connect)."
    ),
}
"""What each choice does (the editor's tooltips)."""


@dataclass(frozen=True, slots=True)
class EraSummary:
    """The era in use, in words."""

    era: Era
    label: str
    """``2026-07-28 (server/discover)`` or ``handshake era, 2025-11-25 (initialize)``."""
    source: str
    """How the era was settled: ``discover`` (auto, answered), ``cache`` (auto, an earlier answer),
    ``fallback`` (auto fell back to initialize) or ``profile`` (the profile forced it)."""
    why: str
    """One sentence: why this era."""
    supported_versions: tuple[str, ...] | None
    """``supportedVersions`` of the discover answer (None: the handshake era has none)."""


def summarize_era(server: ServerInfo, choice: EraChoice | str, fallback: str | None = None) -> EraSummary:
    """Why ``server`` (just connected) speaks its era: ``choice`` is what the connection asked for (the profile's
    era), ``fallback`` what the engine recorded when ``auto`` fell back (``Opening.fallback``)."""
    choice = EraChoice(choice)
    modern = server.era is Era.MODERN
    label = (
        f"{server.protocol_version} (server/discover)"
        if modern
        else (f"handshake era, {server.protocol_version} (initialize)")
    )
    supported = _supported_versions(server.result) if modern else None
    if choice is not EraChoice.AUTO:
        what = f"{MODERN_VERSION} only" if choice is EraChoice.MODERN else f"the handshake era only ({HANDSHAKE_SPAN})"
        return EraSummary(server.era, label, "profile", f"Forced by the profile: {what}.", supported)
    if modern:
        if "earlier connection" in server.era_reason:
            why = f"Automatic: {server.era_reason.removeprefix('auto: ')}."
            return EraSummary(server.era, label, "cache", why, supported)
        why = f"Automatic: server/discover answered with {server.protocol_version}."
        return EraSummary(server.era, label, "discover", why, supported)
    reason = fallback or server.era_reason.removeprefix("auto: ") or "did not open a 2026-07-28 session"
    why = f"Automatic: fell back to the handshake (initialize) because server/discover {reason}."
    return EraSummary(server.era, label, "fallback", why, supported)


def _supported_versions(result: Any) -> tuple[str, ...]:
    listed = result.get("supportedVersions") if isinstance(result, dict) else None
    return tuple(v for v in listed if isinstance(v, str)) if isinstance(listed, list) else ()


def format_ms(ms: float) -> str:
    """A duration for people: ``850 ms``, ``42 s``, ``3 min 20 s``, ``1 h 5 min``."""
    if ms < 1000:
        return f"{ms:.0f} ms"
    seconds = round(ms / 1000)
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds} s" if seconds else f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


@dataclass(frozen=True, slots=True)
class CacheRow:
    """One cached result as the overview lists it."""

    method: str
    params: str
    """The identifying params as compact JSON ('' for none)."""
    ttl: str
    """``ttlMs`` as sent and in words: ``60000 (1 min)``."""
    scope: str
    """``public``, ``private``, or ``(none: private)``."""
    age: str
    expiry: str
    """``fresh for 59 s`` or ``stale``."""
    fresh: bool


def cache_rows(entries: Iterable[CacheEntry], now: float) -> list[CacheRow]:
    """Rows for the cache's entries (``ResultCache.entries()``) at clock time ``now`` (the cache's clock)."""
    rows = []
    for entry in entries:
        cached = entry.cached
        params = json.dumps(cached.params, sort_keys=True, ensure_ascii=False) if cached.params else ""
        ttl = f"{cached.ttl_ms:.0f} ({format_ms(cached.ttl_ms)})"
        scope = cached.scope or "(none: private)"
        age = format_ms(max(0.0, now - cached.received_at) * 1000)
        expiry = f"fresh for {format_ms(entry.remaining_ms)}" if entry.fresh else "stale"
        rows.append(CacheRow(cached.method, params, ttl, scope, age, expiry, entry.fresh))
    return rows
