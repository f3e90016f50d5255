"""The era in words (``inspector.content.era_summary``) and the engine's record of why ``auto`` fell back
(``Opening.fallback``), against the demo in this process."""

from __future__ import annotations

import asyncio

import pytest

from inspector.client.connection import Connection
from inspector.client.server_info import ServerInfo
from inspector.content.era_summary import CHOICE_HELP, CHOICE_LABELS, cache_rows, format_ms, summarize_era
from inspector.demo.in_memory import demo_transport
from inspector.protocol.result_cache import ResultCache
from inspector.protocol.versions import Era, EraChoice

pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")


def _modern(reason: str = "auto: the server answered server/discover with 2026-07-28") -> ServerInfo:
    result = {"supportedVersions": ["2026-07-28", 7], "capabilities": {}}
    return ServerInfo("2026-07-28", {}, {}, None, result, 0.1, Era.MODERN, reason)


def test_summaries_name_the_era_and_why() -> None:
    s = summarize_era(_modern(), "auto")
    assert (s.source, s.label, s.supported_versions) == ("discover", "2026-07-28 (server/discover)", ("2026-07-28",))
    assert s.why == "Automatic: server/discover answered with 2026-07-28."
    forced = summarize_era(_modern("modern asked for (server/discover)"), EraChoice.MODERN)
    assert forced.source == "profile" and forced.why == "Forced by the profile: 2026-07-28 only."
    legacy = ServerInfo("2025-06-18", {}, {}, None, {}, 0.1, Era.HANDSHAKE, "auto: server/discover x, so initialize")
    fell = summarize_era(legacy, "auto", "was refused (Method not found)")
    assert fell.source == "fallback" and fell.supported_versions is None
    assert fell.label == "handshake era, 2025-06-18 (initialize)"
    assert (
        fell.why
        == "Automatic: fell back to the handshake (initialize) because server/discover was refused (Method not found)."
    )
    cached = summarize_era(
        _modern("auto: server/discover answered from an earlier connection to http://h (fresh for 9 s)"), "auto"
    )
    assert cached.source == "cache" and "earlier connection" in cached.why
    assert list(CHOICE_LABELS) == [EraChoice.AUTO, EraChoice.LEGACY, EraChoice.MODERN]
    assert set(CHOICE_HELP) == set(EraChoice)


def test_durations_and_cache_rows() -> None:
    assert [format_ms(v) for v in (850, 42_000, 200_000, 3_600_000, 3_900_000)] == [
        "850 ms", "42 s", "3 min 20 s", "1 h", "1 h 5 min",
    ]  # fmt: skip
    now = [100.0]
    cache = ResultCache(clock=lambda: now[0])
    cache.put(
        "resources/templates/list", {"cursor": "p2"}, {"resourceTemplates": [], "ttlMs": 60_000, "cacheScope": "public"}
    )
    cache.put("server/discover", None, {"ttlMs": 1_000})
    now[0] = 102.0
    rows = {row.method: row for row in cache_rows(cache.entries(), now[0])}
    templates, discover = rows["resources/templates/list"], rows["server/discover"]
    assert (templates.params, templates.ttl, templates.scope) == ('{"cursor": "p2"}', "60000 (1 min)", "public")
    assert (templates.age, templates.expiry, templates.fresh) == ("2 s", "fresh for 58 s", True)
    assert (discover.params, discover.scope, discover.expiry, discover.fresh) == ("", "(none: private)", "stale", False)


@pytest.mark.parametrize(("demo_era", "fell_back"), [("legacy", True), ("both", False), ("modern", False)])
def test_the_engine_records_why_auto_fell_back(demo_era: str, fell_back: bool) -> None:
    async def scenario() -> tuple[ServerInfo, str | None]:
        async with Connection(demo_transport(demo_era)) as conn:  # type: ignore[arg-type]
            assert conn.server is not None
            return conn.server, conn.opening.fallback

    server, fallback = asyncio.run(scenario())
    assert (fallback is not None) is fell_back
    if fallback is not None:
        assert fallback.startswith("was refused") and fallback in server.era_reason
        assert fallback in summarize_era(server, "auto", fallback).why


def test_an_era_asked_for_records_no_fallback() -> None:
    async def scenario() -> str | None:
        async with Connection(demo_transport("both"), protocol_era="legacy") as conn:
            return conn.opening.fallback

    assert asyncio.run(scenario()) is None
