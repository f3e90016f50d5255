"""The client-side cache of cacheable results (2026-07-28 ``ttlMs`` / ``cacheScope``), sans-I/O.

Results of ``server/discover``, ``tools/list``, ``prompts/list``, ``resources/list``,
``resources/templates/list`` and ``resources/read`` carry ``ttlMs`` (how long the result stays fresh
after it was received) and ``cacheScope`` (``public``: shareable; ``private``: only within the same
authorization context). The key is the method and its params without ``_meta``, compared canonically
(key order never matters; each page of a list is its own entry, keyed by its cursor). A result is
fresh while ``now < received + ttlMs``; ``ttlMs`` 0, absent, negative or not a number means "do not
cache". Interim ``input_required`` results and answers to MRTR retries (params with ``inputResponses``
or ``requestState``) are never cached. ``notifications/*/list_changed`` and ``resources/updated``
invalidate what they say changed (:func:`invalidation_for`).

The clock is injectable (seconds, monotonic); the size is bounded by an LRU bound.
"""

from __future__ import annotations

import json
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from inspector.protocol.methods import LIST_METHODS

__all__ = [
    "CACHEABLE_METHODS",
    "CacheEntry",
    "CacheScope",
    "CachedResult",
    "Invalidation",
    "ResultCache",
    "cache_key",
    "invalidation_for",
    "ttl_of",
]

CacheScope = Literal["public", "private"]

CACHEABLE_METHODS: Final = frozenset({"server/discover", *LIST_METHODS, "resources/read"})
_MRTR_PARAMS: Final = ("inputResponses", "requestState")

_INVALIDATES: Final[Mapping[str, tuple[str, ...]]] = {
    "notifications/tools/list_changed": ("tools/list",),
    "notifications/prompts/list_changed": ("prompts/list",),
    # templates are part of the resources list as far as notifications go (there is no own notification)
    "notifications/resources/list_changed": ("resources/list", "resources/templates/list"),
}


def _canonical_params(params: Mapping[str, Any] | None) -> dict[str, Any]:
    """The params that identify a result: without ``_meta`` and without top-level nulls (``cursor: null``)."""
    if not isinstance(params, Mapping):
        return {}
    return {key: value for key, value in params.items() if key != "_meta" and value is not None}


def cache_key(method: str, params: Mapping[str, Any] | None) -> tuple[str, str]:
    """(method, canonical JSON of the identifying params): equal for equal requests whatever the key order."""
    text = json.dumps(_canonical_params(params), sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=repr)
    return method, text


def ttl_of(result: Mapping[str, Any]) -> float:
    """``ttlMs`` as the spec reads it: absent, negative, not a finite number (or a boolean) -> 0."""
    ttl = result.get("ttlMs")
    if isinstance(ttl, bool) or not isinstance(ttl, int | float):
        return 0.0
    ttl = float(ttl)
    return ttl if math.isfinite(ttl) and ttl > 0 else 0.0


def _scope_of(result: Mapping[str, Any]) -> CacheScope | None:
    scope = result.get("cacheScope")
    return scope if scope in ("public", "private") else None  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class CachedResult:
    """One stored result and what the server said about caching it."""

    method: str
    params: dict[str, Any]
    """The identifying params (no ``_meta``)."""
    result: dict[str, Any]
    ttl_ms: float
    scope: CacheScope | None
    """As the server declared it; None when absent or not one of the two values (treated as private)."""
    received_at: float
    """Clock seconds when the result was stored."""

    @property
    def expires_at(self) -> float:
        return self.received_at + self.ttl_ms / 1000.0

    def fresh_at(self, now: float) -> bool:
        return now < self.expires_at

    @property
    def private(self) -> bool:
        """Bound to the authorization context it was fetched in (``private``, or no valid scope)."""
        return self.scope != "public"

    @property
    def uri(self) -> str | None:
        uri = self.params.get("uri")
        return uri if self.method == "resources/read" and isinstance(uri, str) else None


@dataclass(frozen=True, slots=True)
class CacheEntry:
    """A stored result as shown to people: is it still fresh, and for how long."""

    cached: CachedResult
    fresh: bool
    remaining_ms: float
    """Milliseconds of freshness left (0 once stale)."""


@dataclass(frozen=True, slots=True)
class Invalidation:
    """What a notification makes stale: every entry of ``method`` or, with ``uri``, the reads of that resource."""

    method: str
    uri: str | None = None


def invalidation_for(notification_method: str, params: Mapping[str, Any] | None) -> tuple[Invalidation, ...]:
    """What a server notification invalidates (nothing for notifications that say nothing about results).

    ``notifications/resources/updated`` names a uri, which may be a sub-resource of the one that was
    read: the reads of that uri and of the resources above it go. Without a usable uri every read goes.
    """
    methods = _INVALIDATES.get(notification_method)
    if methods is not None:
        return tuple(Invalidation(method) for method in methods)
    if notification_method == "notifications/resources/updated":
        uri = params.get("uri") if isinstance(params, Mapping) else None
        return (Invalidation("resources/read", uri if isinstance(uri, str) else None),)
    return ()


def _covers(cached_uri: str, updated_uri: str) -> bool:
    """True when an update of ``updated_uri`` concerns a read of ``cached_uri`` (the same, or a resource below it)."""
    if cached_uri == updated_uri:
        return True
    if not updated_uri.startswith(cached_uri):
        return False
    return cached_uri.endswith("/") or updated_uri[len(cached_uri)] in "/?#"


class ResultCache:
    """Fresh results by request, bounded (least recently used entries go first).

    ``clock`` returns seconds (``time.monotonic`` by default); ``max_entries`` bounds the number of
    entries held, fresh or stale.
    """

    def __init__(self, max_entries: int = 256, clock: Callable[[], float] = time.monotonic) -> None:
        if max_entries < 1:
            raise ValueError("max_entries must be at least 1")
        self._max = max_entries
        self._clock = clock
        self._entries: OrderedDict[tuple[str, str], CachedResult] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def max_entries(self) -> int:
        return self._max

    def get(self, method: str, params: Mapping[str, Any] | None, *, allow_stale: bool = False) -> CachedResult | None:
        """The stored result of this request while it is fresh (or stale too, with ``allow_stale``: the spec
        lets a client fall back on a stale result when re-fetching fails)."""
        key = cache_key(method, params)
        cached = self._entries.get(key)
        if cached is None:
            return None
        if not allow_stale and not cached.fresh_at(self._clock()):
            return None
        self._entries.move_to_end(key)
        return cached

    def put(self, method: str, params: Mapping[str, Any] | None, result: Any) -> CachedResult | None:
        """Store a result when it may be cached; returns the entry, or None when it was not stored.

        Not stored: methods without caching, results that are not objects or are ``input_required``,
        answers to MRTR retries, ``ttlMs`` of 0 (or absent, negative, not a number). A result that may
        not be stored replaces nothing but drops an older entry of the same request (it is newer).
        """
        key = cache_key(method, params)
        ttl = ttl_of(result) if isinstance(result, Mapping) else 0.0
        cacheable = (
            method in CACHEABLE_METHODS
            and isinstance(result, dict)
            and result.get("resultType", "complete") == "complete"
            and not (isinstance(params, Mapping) and any(name in params for name in _MRTR_PARAMS))
            and ttl > 0
        )
        if not cacheable:
            if not (isinstance(result, Mapping) and result.get("resultType") == "input_required"):
                self._entries.pop(key, None)
            return None
        assert isinstance(result, dict)
        cached = CachedResult(method, _canonical_params(params), result, ttl, _scope_of(result), self._clock())
        self._entries[key] = cached
        self._entries.move_to_end(key)
        while len(self._entries) > self._max:
            self._entries.popitem(last=False)
        return cached

    def invalidate(self, method: str | None = None, uri: str | None = None) -> int:
        """Drop entries: of ``method`` (every method when None); with ``uri``, only the reads it concerns.

        Returns how many went.
        """
        doomed = [
            key
            for key, cached in self._entries.items()
            if (method is None or cached.method == method)
            and (uri is None or (cached.uri is not None and _covers(cached.uri, uri)))
        ]
        for key in doomed:
            del self._entries[key]
        return len(doomed)

    def on_notification(self, notification_method: str, params: Mapping[str, Any] | None) -> int:
        """Apply what a server notification invalidates; returns how many entries went."""
        return sum(self.invalidate(inv.method, inv.uri) for inv in invalidation_for(notification_method, params))

    def entries(self) -> list[CacheEntry]:
        """Every held entry, least recently used first, with its freshness now."""
        now = self._clock()
        return [
            CacheEntry(cached, cached.fresh_at(now), max(0.0, (cached.expires_at - now) * 1000.0))
            for cached in self._entries.values()
        ]

    def purge_stale(self) -> int:
        """Drop the entries that are no longer fresh; returns how many went."""
        now = self._clock()
        doomed = [key for key, cached in self._entries.items() if not cached.fresh_at(now)]
        for key in doomed:
            del self._entries[key]
        return len(doomed)

    def clear(self, *, private_only: bool = False) -> int:
        """Drop everything, or (``private_only``, e.g. when the access token changes) what is bound to the
        authorization context. Returns how many went."""
        if not private_only:
            count = len(self._entries)
            self._entries.clear()
            return count
        doomed = [key for key, cached in self._entries.items() if cached.private]
        for key in doomed:
            del self._entries[key]
        return len(doomed)
