"""Issue 15 item 1: after the overview's "Refresh (bypass cache)" the Explore panels show the fresh lists at once
(wired by ``ConnectionTab._wire``: ``EraSection.cacheRefreshed`` -> ``Explore.show_fresh``), listed from the results
just cached, without another request.

Against tests/servers/quiet_lists.py (a real stdio process, 2026-07-28): its lists are cacheable for an hour and
its ``add_quietly`` adds a tool, a prompt and a resource without any list_changed, so without the bypassing refresh
the panels keep showing the cached lists (the demo cannot show this: its changing lists have ``ttlMs: 0`` and
``toggle_tool`` announces its changes).
"""

from __future__ import annotations

import sys
from pathlib import Path

from guikit import AsyncRunner, MakeWindow, connect_tab, wire_rows
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from inspector.protocol.versions import Era
from inspector.store.profiles import Profile, ProfileStore, StdioSettings
from inspector.ui.window.connection_tab import ConnectionTab

QUIET_LISTS = Path(__file__).resolve().parent.parent / "servers" / "quiet_lists.py"


def _tools(tab: ConnectionTab) -> list[str]:
    return [entry.name for entry in tab.tools.browser.model.entries()]


def _prompts(tab: ConnectionTab) -> list[str]:
    return [entry.name for entry in tab.prompts.browser.model.entries()]


def _resources(tab: ConnectionTab) -> list[str]:
    return [str(entry.get("uri")) for entry in tab.resources.resources_model.entries()]


def _sent(tab: ConnectionTab, method: str) -> int:
    return len(wire_rows(tab.controller, "request", "out", method))


def test_a_bypassing_refresh_shows_quiet_changes_in_every_list_at_once(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, qtmodeltester: ModelTester
) -> None:
    profile = store.create(
        Profile(name="quiet lists", stdio=StdioSettings(command=sys.executable, args=[str(QUIET_LISTS)]))
    )
    tab = connect_tab(make_window(), qasync_loop, profile.id)
    conn = tab.controller.connection
    assert conn is not None and conn.era is Era.MODERN
    qasync_loop.wait_until(lambda: _prompts(tab) == ["base_prompt"] and _resources(tab) == ["quiet://base"])
    assert _tools(tab) == ["add_quietly", "echo"]
    section = tab.overview.era_section
    section.update_cache()
    cached = {entry.cached.method for entry in conn.cache.entries()}
    assert {"tools/list", "prompts/list", "resources/list", "resources/templates/list"} <= cached

    # the server changes without a word; the panels' own refreshes are answered from the (fresh) cache
    result = qasync_loop.run(conn.call_tool("add_quietly", {}))
    assert "added quiet_1" in result["content"][0]["text"]
    refreshed: list[str] = []
    tab.tools.refreshed.connect(refreshed.append)
    tab.prompts.refreshed.connect(refreshed.append)
    sent_before = {m: _sent(tab, m) for m in ("tools/list", "prompts/list", "resources/list")}
    assert all(count >= 1 for count in sent_before.values()), sent_before
    tab.tools.refresh("manual")
    qasync_loop.wait_until(lambda: refreshed == ["manual"])
    assert _tools(tab) == ["add_quietly", "echo"]
    assert _sent(tab, "tools/list") == sent_before["tools/list"], "the manual refresh was not answered from the cache"
    refreshed.clear()

    # Refresh (bypass cache): each list asked once more, and every panel shows the new entries right after
    assert section.refresh_button.isEnabled()
    section.refresh_button.click()
    qasync_loop.wait_until(lambda: not section.refreshing and "Asked the server again" in section.cache_status.text())
    qasync_loop.wait_until(lambda: sorted(refreshed) == ["fresh", "fresh"], timeout=5)
    assert _tools(tab) == ["add_quietly", "echo", "quiet_1"]
    assert _prompts(tab) == ["base_prompt", "quiet_prompt_1"]
    qasync_loop.wait_until(lambda: _resources(tab) == ["quiet://base", "quiet://1"], timeout=5)
    assert "bypassing the cache" in tab.tools.browser.note_label.text()
    assert "bypassing the cache" in tab.prompts.browser.note_label.text()
    # the panels listed from what the refresh just cached: one request per list (the refresh's own), no more
    qtbot.wait(200)
    assert {m: _sent(tab, m) for m in sent_before} == {m: n + 1 for m, n in sent_before.items()}
    qtmodeltester.check(tab.tools.browser.model)
    qtmodeltester.check(tab.resources.resources_model)

    # a change after the refresh is not seen until the next bypassing one (the cache is fresh again)
    qasync_loop.run(conn.call_tool("add_quietly", {}))
    section.refresh_button.click()
    qasync_loop.wait_until(lambda: "quiet_2" in _tools(tab), timeout=10)
    assert _prompts(tab)[-1] == "quiet_prompt_2"
    qasync_loop.wait_until(lambda: _resources(tab)[-1] == "quiet://2", timeout=5)


def test_no_refresh_signal_for_a_connection_that_ended(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore
) -> None:
    """After the connection ended, the section's Refresh does nothing and the panels keep the last lists."""
    profile = store.create(
        Profile(name="quiet lists", stdio=StdioSettings(command=sys.executable, args=[str(QUIET_LISTS)]))
    )
    tab = connect_tab(make_window(), qasync_loop, profile.id)
    section = tab.overview.era_section
    heard: list[list[str]] = []
    section.cacheRefreshed.connect(heard.append)
    section.refresh_button.click()
    qasync_loop.wait_until(lambda: heard != [], timeout=10)
    assert "tools/list" in heard[0] and "server/discover" in heard[0]
    assert len(heard[0]) == len(set(heard[0]))
    qasync_loop.run(tab.controller.aclose())
    qasync_loop.wait_until(lambda: not section.refresh_button.isEnabled(), timeout=5)  # the next tick sees it
    section.refresh()
    qtbot.wait(100)
    assert len(heard) == 1 and not section.refreshing
    assert _tools(tab) == ["add_quietly", "echo"]
