"""The ttlMs/cacheScope result cache (server/utilities/caching.mdx), with a fake clock."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from inspector.protocol.result_cache import (
    CACHEABLE_METHODS,
    Invalidation,
    ResultCache,
    cache_key,
    invalidation_for,
    ttl_of,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, ms: float) -> None:
        self.now += ms / 1000.0


def page(ttl: Any = 300_000, scope: Any = "public", **extra: Any) -> dict[str, Any]:
    result: dict[str, Any] = {"resultType": "complete", "tools": [], **extra}
    if ttl is not None:
        result["ttlMs"] = ttl
    if scope is not None:
        result["cacheScope"] = scope
    return result


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def cache(clock: Clock) -> ResultCache:
    return ResultCache(max_entries=8, clock=clock)


def test_fresh_until_ttl_then_stale(cache: ResultCache, clock: Clock) -> None:
    result = page(ttl=1000)
    stored = cache.put("tools/list", None, result)
    assert stored is not None and stored.result is result and stored.scope == "public"
    clock.advance(999.9)
    hit = cache.get("tools/list", None)
    assert hit is not None and hit.result is result
    clock.advance(0.1)  # now == received + ttl: stale (fresh only while now < received + ttlMs)
    assert cache.get("tools/list", None) is None
    stale = cache.get("tools/list", None, allow_stale=True)
    assert stale is not None and stale.result is result  # the spec allows it when re-fetching fails
    assert cache.purge_stale() == 1 and len(cache) == 0


@pytest.mark.parametrize(
    ("ttl", "stored"),
    [
        (1, True),
        (0.5, True),
        (300_000, True),
        (0, False),
        (None, False),  # absent: default 0
        (-5, False),  # negative: treated as 0
        ("1000", False),
        (True, False),
        (float("inf"), False),
        (float("nan"), False),
    ],
)
def test_which_ttls_are_stored(cache: ResultCache, ttl: Any, stored: bool) -> None:
    assert (cache.put("tools/list", None, page(ttl=ttl)) is not None) is stored
    assert (cache.get("tools/list", None) is not None) is stored


@pytest.mark.parametrize(("ttl", "expected"), [(5, 5.0), (0, 0.0), (-1, 0.0), (None, 0.0), (False, 0.0), (2.5, 2.5)])
def test_ttl_of(ttl: Any, expected: float) -> None:
    assert ttl_of({} if ttl is None else {"ttlMs": ttl}) == expected


@pytest.mark.parametrize("method", sorted(CACHEABLE_METHODS))
def test_cacheable_methods(cache: ResultCache, method: str) -> None:
    assert cache.put(method, {"uri": "file:///a"} if method == "resources/read" else None, page()) is not None


@pytest.mark.parametrize("method", ["tools/call", "prompts/get", "completion/complete", "subscriptions/listen"])
def test_other_methods_are_not_cached(cache: ResultCache, method: str) -> None:
    assert cache.put(method, {"name": "x"}, page()) is None
    assert cache.get(method, {"name": "x"}) is None


def test_interim_and_mrtr_results_are_not_cached(cache: ResultCache) -> None:
    assert cache.put("resources/read", {"uri": "u"}, page(resultType="input_required")) is None
    assert cache.put("resources/read", {"uri": "u", "requestState": "s"}, page()) is None
    assert cache.put("resources/read", {"uri": "u", "inputResponses": {}}, page()) is None
    assert cache.put("resources/read", {"uri": "u"}, ["not", "an", "object"]) is None
    assert len(cache) == 0


def test_params_compared_canonically_and_without_meta(cache: ResultCache) -> None:
    result = page()
    cache.put("resources/read", {"uri": "file:///a", "_meta": {"io.modelcontextprotocol/protocolVersion": "x"}}, result)
    hit = cache.get("resources/read", {"_meta": {"other": 1}, "uri": "file:///a"})
    assert hit is not None and hit.result is result and hit.params == {"uri": "file:///a"}
    assert cache.get("resources/read", {"uri": "file:///b"}) is None
    assert cache.get("tools/list", {"uri": "file:///a"}) is None  # the method is part of the key
    assert cache_key("m", {"a": {"x": 1, "y": 2}, "b": 1}) == cache_key("m", {"b": 1, "a": {"y": 2, "x": 1}})
    assert (
        cache_key("m", None) == cache_key("m", {}) == cache_key("m", {"_meta": {}}) == cache_key("m", {"cursor": None})
    )
    assert cache_key("m", {"a": [1, 2]}) != cache_key("m", {"a": [2, 1]})


@given(
    st.dictionaries(
        st.text(max_size=5),
        st.recursive(
            st.integers() | st.text(max_size=5),
            lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=3), c, max_size=3),
            max_leaves=8,
        ),
        max_size=5,
    )
)
def test_cache_key_ignores_key_order(params: dict[str, Any]) -> None:
    reordered = dict(reversed(list(params.items())))
    assert cache_key("m", params) == cache_key("m", reordered)


def test_each_page_is_its_own_entry(cache: ResultCache, clock: Clock) -> None:
    first, second = page(ttl=1000), page(ttl=5000)
    cache.put("tools/list", None, first)
    cache.put("tools/list", {"cursor": "p2"}, second)
    clock.advance(2000)
    assert cache.get("tools/list", None) is None
    hit = cache.get("tools/list", {"cursor": "p2"})
    assert hit is not None and hit.result is second


def test_a_newer_uncacheable_answer_drops_the_old_entry(cache: ResultCache) -> None:
    cache.put("tools/list", None, page())
    cache.put("tools/list", None, page(ttl=0))
    assert cache.get("tools/list", None, allow_stale=True) is None
    cache.put("resources/read", {"uri": "u"}, page())
    cache.put("resources/read", {"uri": "u"}, page(resultType="input_required"))  # interim: says nothing
    assert cache.get("resources/read", {"uri": "u"}) is not None


@pytest.mark.parametrize(
    ("scope", "noted", "private"),
    [
        ("public", "public", False),
        ("private", "private", True),
        (None, None, True),
        ("shared", None, True),
        (3, None, True),
    ],
)
def test_scope_noted(cache: ResultCache, scope: Any, noted: Any, private: bool) -> None:
    stored = cache.put("tools/list", None, page(scope=scope))
    assert stored is not None and stored.scope == noted and stored.private is private


def test_clear_private_only_keeps_public(cache: ResultCache) -> None:
    cache.put("tools/list", None, page(scope="public"))
    cache.put("resources/read", {"uri": "u"}, page(scope="private"))
    cache.put("prompts/list", None, page(scope=None))
    assert cache.clear(private_only=True) == 2
    assert [e.cached.method for e in cache.entries()] == ["tools/list"]
    assert cache.clear() == 1 and len(cache) == 0


def test_lru_bound(clock: Clock) -> None:
    cache = ResultCache(max_entries=3, clock=clock)
    for uri in "abc":
        cache.put("resources/read", {"uri": uri}, page())
    assert cache.get("resources/read", {"uri": "a"}) is not None  # a is now the most recently used
    cache.put("resources/read", {"uri": "d"}, page())
    assert [e.cached.uri for e in cache.entries()] == ["c", "a", "d"]
    assert cache.get("resources/read", {"uri": "b"}, allow_stale=True) is None
    assert len(cache) == 3 == cache.max_entries
    with pytest.raises(ValueError):
        ResultCache(max_entries=0)


def test_entries_for_display(cache: ResultCache, clock: Clock) -> None:
    cache.put("tools/list", None, page(ttl=1000))
    cache.put("prompts/list", None, page(ttl=10_000))
    clock.advance(2500)
    shown = {e.cached.method: e for e in cache.entries()}
    assert not shown["tools/list"].fresh and shown["tools/list"].remaining_ms == 0
    assert shown["prompts/list"].fresh and shown["prompts/list"].remaining_ms == pytest.approx(7500)


INVALIDATIONS = [
    ("notifications/tools/list_changed", None, (Invalidation("tools/list"),)),
    ("notifications/prompts/list_changed", {}, (Invalidation("prompts/list"),)),
    (
        "notifications/resources/list_changed",
        None,
        (Invalidation("resources/list"), Invalidation("resources/templates/list")),
    ),
    ("notifications/resources/updated", {"uri": "file:///a"}, (Invalidation("resources/read", "file:///a"),)),
    ("notifications/resources/updated", {"uri": 5}, (Invalidation("resources/read"),)),
    ("notifications/resources/updated", None, (Invalidation("resources/read"),)),
    ("notifications/message", {"level": "info"}, ()),
    ("notifications/progress", {}, ()),
    ("notifications/subscriptions/acknowledged", {}, ()),
]


@pytest.mark.parametrize(("method", "params", "expected"), INVALIDATIONS)
def test_invalidation_for(method: str, params: Any, expected: tuple[Invalidation, ...]) -> None:
    assert invalidation_for(method, params) == expected


def fill(cache: ResultCache) -> None:
    for method in ("server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list"):
        cache.put(method, None, page())
    cache.put("tools/list", {"cursor": "p2"}, page())
    for uri in (
        "file:///project/",
        "file:///project/config.json",
        "file:///projectx",
        "file:///other",
        "file:///project",
    ):
        cache.put("resources/read", {"uri": uri}, page())


def remaining(cache: ResultCache) -> set[tuple[str, str | None]]:
    return {(e.cached.method, e.cached.uri) for e in cache.entries()}


def test_list_changed_drops_every_page_of_that_list() -> None:
    cache = ResultCache(64, clock=Clock())
    fill(cache)
    assert cache.on_notification("notifications/tools/list_changed", None) == 2
    assert not any(method == "tools/list" for method, _ in remaining(cache))
    assert cache.on_notification("notifications/resources/list_changed", None) == 2
    assert ("server/discover", None) in remaining(cache) and ("prompts/list", None) in remaining(cache)
    assert cache.on_notification("notifications/message", {}) == 0


def test_resources_updated_drops_that_resource_and_the_ones_above_it() -> None:
    cache = ResultCache(64, clock=Clock())
    fill(cache)
    assert cache.on_notification("notifications/resources/updated", {"uri": "file:///project/config.json"}) == 3
    reads = {uri for method, uri in remaining(cache) if method == "resources/read"}
    assert reads == {"file:///projectx", "file:///other"}
    assert cache.on_notification("notifications/resources/updated", {}) == 2  # no uri: every read


def test_invalidate_directly() -> None:
    cache = ResultCache(64, clock=Clock())
    fill(cache)
    assert cache.invalidate("resources/read", "file:///other") == 1
    assert cache.invalidate("tools/list", "file:///other") == 0  # a uri only ever matches reads
    assert cache.invalidate("prompts/list") == 1
    held = len(cache)
    assert held > 0 and cache.invalidate() == held
    assert len(cache) == 0


# trimmed from the spec's examples (schema/2026-07-28/examples/*): ListToolsResult, ReadResourceResultResponse,
# DiscoverResult; and an InputRequiredResult, which carries no caching hints
SPEC_EXAMPLES: list[tuple[str, dict[str, Any] | None, dict[str, Any], float | None, str | None]] = [
    (
        "tools/list",
        {"cursor": "page-1"},
        {
            "resultType": "complete",
            "tools": [],
            "nextCursor": "next-page-cursor",
            "ttlMs": 300000,
            "cacheScope": "public",
        },
        300000,
        "public",
    ),
    (
        "resources/read",
        {"uri": "file:///project/src/main.rs"},
        {
            "resultType": "complete",
            "contents": [{"uri": "file:///project/src/main.rs", "mimeType": "text/x-rust", "text": "fn main() {}"}],
            "ttlMs": 60000,
            "cacheScope": "private",
        },
        60000,
        "private",
    ),
    (
        "server/discover",
        None,
        {
            "resultType": "complete",
            "supportedVersions": ["2026-07-28"],
            "capabilities": {},
            "ttlMs": 3600000,
            "cacheScope": "public",
        },
        3600000,
        "public",
    ),
    ("resources/read", {"uri": "file:///x"}, {"resultType": "input_required", "requestState": "abc"}, None, None),
]


@pytest.mark.parametrize(("method", "params", "result", "ttl", "scope"), SPEC_EXAMPLES)
def test_spec_examples(
    cache: ResultCache, clock: Clock, method: str, params: Any, result: dict[str, Any], ttl: float | None, scope: Any
) -> None:
    stored = cache.put(method, params, result)
    if ttl is None:
        assert stored is None and cache.get(method, params) is None
        return
    assert stored is not None and stored.ttl_ms == ttl and stored.scope == scope
    clock.advance(ttl - 1)
    assert cache.get(method, params) is stored
    clock.advance(1)
    assert cache.get(method, params) is None
