"""Issue 15 item 1, the era in the window: the overview says which era is in use and why (discover answered, fell
back because ..., forced by the profile), lists supportedVersions, the opening result and the 2026-07-28 result
cache with "Refresh (bypass cache)"; the profile editor's era setting; era-aware gating in the Utilities panel.

Against the demo in this process in its three modes (``--era legacy|modern|both``), and once as a real stdio
process with ``--era modern``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from guikit import AsyncRunner, MakeWindow, connect_tab, wire_rows
from pixels import colours_in, distance
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from inspector.client.server_info import ServerInfo
from inspector.content.utilities import LogEntry
from inspector.protocol.envelope import LOG_LEVEL_KEY
from inspector.protocol.methods import LOG_LEVELS
from inspector.protocol.versions import Era
from inspector.store.profiles import Profile, ProfileStore, StdioSettings
from inspector.ui.connection.era_view import CACHE_HEADERS, choice_of_reason
from inspector.ui.connection.overview import OverviewPanel
from inspector.ui.explore.common.gating import method_gap
from inspector.ui.explore.utilities.server_log import ServerLogView
from inspector.ui.profiles.dialog import ProfileDialog
from inspector.ui.profiles.views import ProfileListModel
from inspector.ui.widgets.style import tones
from inspector.ui.window.connection_tab import ConnectionTab
from inspector.ui.window.main_window import MainWindow


def _demo_profile(store: ProfileStore, demo_era: str, protocol_era: str = "auto") -> Profile:
    """A saved profile running ``python -m inspector.demo --era demo_era`` (in memory unless ``demo_process``)."""
    return store.create(
        Profile(
            name=f"demo {demo_era} ({protocol_era})",
            stdio=StdioSettings(command=sys.executable, args=["-m", "inspector.demo", "--era", demo_era]),
            protocol_era=protocol_era,  # type: ignore[arg-type]
        )
    )


def _connect(window: MainWindow, runner: AsyncRunner, profile: Profile) -> ConnectionTab:
    tab = connect_tab(window, runner, profile.id)
    tab.inner_tabs.setCurrentWidget(tab.overview)
    return tab


def _cache_rows(tab: ConnectionTab) -> dict[str, list[str]]:
    tree = tab.overview.era_section.cache_tree
    rows = {}
    for i in range(tree.topLevelItemCount()):
        item = tree.topLevelItem(i)
        assert item is not None
        rows[item.text(0)] = [item.text(c) for c in range(len(CACHE_HEADERS))]
    return rows


@pytest.mark.parametrize(
    ("demo_era", "era", "label", "why"),
    [
        ("legacy", Era.HANDSHAKE, "handshake era, 2025-11-25 (initialize)",
         "Automatic: fell back to the handshake (initialize) because server/discover was refused"),
        ("modern", Era.MODERN, "2026-07-28 (server/discover)", "Automatic: server/discover answered with 2026-07-28"),
        ("both", Era.MODERN, "2026-07-28 (server/discover)", "Automatic: server/discover answered with 2026-07-28"),
    ],
)  # fmt: skip
def test_overview_says_the_era_and_why(
    make_window: MakeWindow,
    qasync_loop: AsyncRunner,
    store: ProfileStore,
    demo_era: str,
    era: Era,
    label: str,
    why: str,
) -> None:
    window = make_window()
    tab = _connect(window, qasync_loop, _demo_profile(store, demo_era))
    section = tab.overview.era_section
    conn = tab.controller.connection
    assert conn is not None and conn.era is era
    assert section.era_label.text() == label
    assert section.why_label.text().startswith(why), section.why_label.text()
    assert section.era_label.property("tone") == ("info" if era is Era.MODERN else "neutral")
    assert "Inspector demo server" in tab.overview.instructions_view.toPlainText()
    # the opening result, collapsed until asked for
    assert not section.result_view.isVisibleTo(tab.overview)
    section.result_toggle.click()
    assert section.result_view.isVisibleTo(tab.overview)
    shown = section.result_view.json_model.value()
    assert shown == tab.controller.server.result if tab.controller.server else False
    if era is Era.MODERN:
        assert conn.opening.fallback is None
        assert section.result_toggle.text() == "server/discover result"
        assert "supportedVersions" in shown and section.supported_label.text() == (
            f"supportedVersions: {', '.join(shown['supportedVersions'])}"
        )
        assert "2026-07-28" in section.supported_label.text()
        rows = _cache_rows(tab)
        assert rows["server/discover"][2:4] == ["60000 (1 min)", "public"], rows
        assert rows["server/discover"][5].startswith("fresh for ")
        assert section.refresh_button.isEnabled()
    else:
        # the engine recorded why auto fell back; the overview says it in words
        assert conn.opening.fallback is not None and "refused" in conn.opening.fallback
        assert conn.opening.fallback in section.why_label.text()
        assert section.result_toggle.text() == "initialize result" and "protocolVersion" in shown
        assert "supportedVersions: —" in section.supported_label.text()
        assert _cache_rows(tab) == {} and "not cached in the handshake era" in section.cache_status.text()
        assert not section.refresh_button.isEnabled()


@pytest.mark.parametrize(("protocol_era", "label"), [("legacy", "handshake era, 2025-11-25 (initialize)"),
                                                     ("modern", "2026-07-28 (server/discover)")])  # fmt: skip
def test_a_forced_era_says_the_profile_forced_it(
    make_window: MakeWindow, qasync_loop: AsyncRunner, store: ProfileStore, protocol_era: str, label: str
) -> None:
    window = make_window()
    tab = _connect(window, qasync_loop, _demo_profile(store, "both", protocol_era))
    section = tab.overview.era_section
    assert section.era_label.text() == label
    assert section.why_label.text().startswith("Forced by the profile: ")
    assert ("2026-07-28 only" in section.why_label.text()) is (protocol_era == "modern")


def test_refresh_bypasses_the_cache(make_window: MakeWindow, qasync_loop: AsyncRunner, store: ProfileStore) -> None:
    window = make_window()
    tab = _connect(window, qasync_loop, _demo_profile(store, "modern"))
    section = tab.overview.era_section
    conn = tab.controller.connection
    assert conn is not None
    qasync_loop.run(conn.list_resource_templates())  # the demo marks it cacheable for an hour, public
    section.update_cache()
    assert _cache_rows(tab)["resources/templates/list"][2:4] == ["3600000 (1 h)", "public"]
    before = {e.cached.method: e.cached.received_at for e in conn.cache.entries()}
    sent_before = len(wire_rows(tab.controller, "request", "out", "resources/templates/list"))
    # without bypassing, asking again is answered from the cache: nothing is sent
    qasync_loop.run(conn.list_resource_templates())
    assert len(wire_rows(tab.controller, "request", "out", "resources/templates/list")) == sent_before

    assert section.refresh_button.isEnabled()
    section.refresh_button.click()
    qasync_loop.wait_until(lambda: not section.refreshing and "Asked the server again" in section.cache_status.text())
    after = {e.cached.method: e.cached.received_at for e in conn.cache.entries()}
    assert after["resources/templates/list"] > before["resources/templates/list"]
    assert after["server/discover"] > before["server/discover"]
    assert (
        "resources/templates/list" in section.cache_status.text() and "server/discover" in section.cache_status.text()
    )
    qasync_loop.wait_until(
        lambda: len(wire_rows(tab.controller, "request", "out", "resources/templates/list")) == sent_before + 1
    )
    assert section.refresh_button.isEnabled()


def test_utilities_know_the_modern_era(make_window: MakeWindow, qasync_loop: AsyncRunner, store: ProfileStore) -> None:
    window = make_window()
    tab = _connect(window, qasync_loop, _demo_profile(store, "modern"))
    panel = tab.utilities
    conn = tab.controller.connection
    assert conn is not None and conn.era is Era.MODERN
    panel.refresh()
    assert panel.ping_button.isEnabled() and "ping does not exist in 2026-07-28" in panel.ping_button.toolTip()
    assert panel.level_combo.isEnabled()
    assert "logging/setLevel does not exist in 2026-07-28" in panel.level_combo.toolTip()
    assert LOG_LEVEL_KEY in panel.level_combo.toolTip()
    assert "every request asks for debug" in panel.level_status.text()
    assert method_gap(tab.controller.server, "tasks/list") == (
        "tasks/list does not exist in 2026-07-28 (the era this server speaks)"
    )
    assert method_gap(tab.controller.server, "resources/subscribe") is None  # done over subscriptions/listen

    panel.set_level("warning")
    qasync_loop.wait_until(lambda: panel.applied_level == "warning")
    assert "_meta" in panel.level_status.text() and "no logging/setLevel" in panel.level_status.text()
    assert conn.session.log_level == "warning"
    assert wire_rows(tab.controller, "request", "out", "logging/setLevel") == []
    qasync_loop.run(conn.call_tool("echo", {"message": "with a level"}))
    qasync_loop.wait_until(lambda: wire_rows(tab.controller, "request", "out", "tools/call"))
    sent = json.loads(wire_rows(tab.controller, "request", "out", "tools/call")[-1].raw)
    assert sent["params"]["_meta"][LOG_LEVEL_KEY] == "warning"
    # the server honours the level a request asks for: only warning and above arrive in the server log
    log = panel.server_log
    qasync_loop.run(conn.call_tool("log_levels", {"message": "modern level"}))
    above = list(LOG_LEVELS[LOG_LEVELS.index("warning") :])
    qasync_loop.wait_until(lambda: log.model.pending == 0 and len(_entries(log, "modern level")) == len(above))
    assert [e.level for e in _entries(log, "modern level")] == above


def _entries(log: ServerLogView, text: str) -> list[LogEntry]:
    return [e for e in log.model.entries if text in e.text]


def test_utilities_in_the_handshake_era(make_window: MakeWindow, qasync_loop: AsyncRunner, store: ProfileStore) -> None:
    window = make_window()
    tab = _connect(window, qasync_loop, _demo_profile(store, "legacy"))
    panel = tab.utilities
    panel.refresh()
    assert "does not exist" not in panel.ping_button.toolTip() and "ping" in panel.ping_button.toolTip()
    assert "does not exist" not in panel.level_combo.toolTip()
    panel.set_level("error")
    qasync_loop.wait_until(lambda: panel.applied_level == "error")
    assert len(wire_rows(tab.controller, "request", "out", "logging/setLevel")) == 1
    assert method_gap(tab.controller.server, "tasks/list") is None  # the server declares tasks


def test_profile_editor_era_round_trips(qtbot: QtBot) -> None:
    for stored, label in (("auto", "Automatic"), ("legacy", "2024-11-05…2025-11-25 handshake"),
                          ("modern", "2026-07-28")):  # fmt: skip
        dialog = ProfileDialog(Profile(name="p", stdio=StdioSettings(command="x"), protocol_era=stored))  # type: ignore[arg-type]
        qtbot.addWidget(dialog)
        combo = dialog.era_combo
        assert [combo.itemText(i) for i in range(combo.count())] == [
            "Automatic", "2024-11-05…2025-11-25 handshake", "2026-07-28",
        ]  # fmt: skip
        assert combo.currentText() == label and dialog.profile().protocol_era == stored
        tips = [str(combo.itemData(i, Qt.ItemDataRole.ToolTipRole)) for i in range(combo.count())]
        assert "fall back to the" in tips[0] and "initialize" in tips[1] and "server/discover" in tips[2]
        assert combo.toolTip() == tips[combo.currentIndex()]
        assert dialog.version_combo.isEnabled() is (stored != "modern")
        # choose every other era: saved as chosen, and the tooltip follows
        for index, value in enumerate(("auto", "legacy", "modern")):
            combo.setCurrentIndex(index)
            assert dialog.profile().protocol_era == value and combo.toolTip() == tips[index]
            assert dialog.version_combo.isEnabled() is (value != "modern")


def test_profile_list_tooltip_names_the_era(store: ProfileStore) -> None:
    _demo_profile(store, "both", "modern")
    model = ProfileListModel(store)
    tip = str(model.data(model.index(0, 0), Qt.ItemDataRole.ToolTipRole))
    assert tip.endswith("Protocol era: 2026-07-28"), tip


def test_choice_of_reason_reads_what_the_engine_recorded(qtbot: QtBot) -> None:
    assert choice_of_reason("legacy asked for (initialize)") == "legacy"
    assert choice_of_reason("modern asked for (server/discover)") == "modern"
    assert choice_of_reason("auto: the server answered server/discover with 2026-07-28") == "auto"
    assert choice_of_reason("") == "auto"
    panel = OverviewPanel()
    qtbot.addWidget(panel)
    server = ServerInfo("2025-06-18", {"name": "s"}, {}, None, {"protocolVersion": "2025-06-18"}, 0.1,
                        Era.HANDSHAKE, "legacy asked for (initialize)")  # fmt: skip
    panel.show_server(server, {})
    assert (
        panel.era_section.why_label.text() == "Forced by the profile: the handshake era only (2024-11-05…2025-11-25)."
    )
    assert not panel.era_section.refresh_button.isEnabled()


def test_screenshot_of_the_era_overview(
    make_window: MakeWindow, qasync_loop: AsyncRunner, store: ProfileStore, qtbot: QtBot, tmp_path: Path
) -> None:
    """What the overview draws: the era label as an info pill (its background colour fills most of it), the why
    line and the cache table filled, and an image that is not uniform."""
    window = make_window()
    window.resize(1400, 900)
    tab = _connect(window, qasync_loop, _demo_profile(store, "both"))
    overview = tab.overview
    section = overview.era_section
    section.result_toggle.click()
    qtbot.wait(50)
    assert section.era_label.isVisible() and section.why_label.isVisible() and section.cache_tree.isVisible()
    assert section.cache_tree.topLevelItemCount() >= 1
    path = tmp_path / "era_overview.png"
    shot = overview.grab()
    assert shot.save(str(path))
    image = QImage(str(path))
    scale = shot.devicePixelRatio()
    assert len(colours_in(image, image.rect())) > 50, "the screenshot is (nearly) uniform"

    label = section.era_label
    top_left = label.mapTo(overview, QPoint(0, 0))
    rect = QRect(round(top_left.x() * scale), round(top_left.y() * scale),
                 round(label.width() * scale), round(label.height() * scale))  # fmt: skip
    colours = colours_in(image, rect)
    pill = QColor(tones(label).info_bg)
    near = sum(count for rgb, count in colours.items() if distance(rgb, pill) <= 6)
    assert near > colours.total() * 0.4, "the era label is not drawn as an info pill"
    text = QColor(tones(label).info_fg)
    assert any(distance(rgb, text) <= 40 for rgb in colours), "the era label's text is not in the info colour"
    # the words drawn are the ones the widgets hold
    assert label.text() == "2026-07-28 (server/discover)"
    assert section.why_label.text().startswith("Automatic: server/discover answered with 2026-07-28")


@pytest.mark.demo_process
def test_stdio_demo_process_in_the_modern_era(
    make_window: MakeWindow, qasync_loop: AsyncRunner, store: ProfileStore
) -> None:
    """A real ``python -m inspector.demo --era modern`` process over stdio."""
    window = make_window()
    tab = _connect(window, qasync_loop, _demo_profile(store, "modern"))
    conn = tab.controller.connection
    assert conn is not None
    described = conn.transport.describe()
    assert "inspector.demo" in described and "--era modern" in described and "in memory" not in described
    section = tab.overview.era_section
    assert section.era_label.text() == "2026-07-28 (server/discover)"
    assert section.why_label.text().startswith("Automatic: server/discover answered with 2026-07-28")
    assert "server/discover" in _cache_rows(tab)
    panel = tab.utilities
    panel.refresh()
    assert "ping does not exist in 2026-07-28" in panel.ping_button.toolTip()
    panel.ping()
    qasync_loop.wait_until(lambda: panel.history.samples)
    assert panel.history.samples[-1].rtt is not None
    assert wire_rows(tab.controller, "request", "out", "ping") == []
