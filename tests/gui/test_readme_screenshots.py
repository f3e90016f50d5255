"""The README's screenshots, taken from real demo connections (the built-in Demo server profile, in this process,
speaking 2026-07-28 as ``mcp-inspect --demo`` does) with the window at 1280x800, and checked for what they draw:
the expected widgets shown, holding the expected text, and painted (not blank) where they sit in the image.

Each PNG goes to the test's tmp dir and, when ``$INSPECTOR_SCREENSHOT_DIR`` is set, there too
(``INSPECTOR_SCREENSHOT_DIR=docs/screenshots`` refreshes the README's images). Saved without alpha, small.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from guikit import AsyncRunner, MakeWindow, connect_tab, tool_page, wait_dialog
from pixels import colours_in, distance, nearest, rgb
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from inspector.content.subscriptions import SubscriptionState
from inspector.protocol.wire import Kind
from inspector.store.profiles import HttpSettings, Profile, ProfileStore, StdioSettings
from inspector.store.recording.query import RecordFilter
from inspector.ui.explore.common.task_book import TaskOutcome
from inspector.ui.explore.tasks.model import COLUMNS as TASK_COLUMNS
from inspector.ui.log.model import Column
from inspector.ui.log.palette import SEVERITY_COLOURS
from inspector.ui.server_requests import GuiRequestHandlers, SamplingDialog
from inspector.ui.viewers import ResultState
from inspector.ui.viewers.diff_view import DiffView
from inspector.ui.widgets.style import tones
from inspector.ui.window.connection_tab import ConnectionTab
from inspector.ui.window.main_window import MainWindow

SIZE = (1280, 800)
SCREENSHOT_DIR_ENV = "INSPECTOR_SCREENSHOT_DIR"
MAX_BYTES = 250 * 1024


class Shot:
    """One grabbed screenshot: ``image`` as drawn (RGB), ``saved`` the PNG written (a palette of at most 256
    colours, no alpha: a fraction of the size), and where a widget sits in them."""

    def __init__(self, root: QWidget, pixmap: QPixmap, path: Path) -> None:
        self.root = root
        self.scale = pixmap.devicePixelRatio()
        self.image = pixmap.toImage().convertToFormat(QImage.Format.Format_RGB888)
        self.path = path
        self.saved = QImage(str(path))

    def rect_of(self, widget: QWidget) -> QRect:
        """``widget``'s area in the image (it must be a visible descendant of the grabbed root)."""
        assert widget.isVisible(), f"{widget!r} is not shown"
        assert widget is self.root or self.root.isAncestorOf(widget), f"{widget!r} is not in the screenshot"
        top_left = widget.mapTo(self.root, QPoint(0, 0))
        return QRect(
            round(top_left.x() * self.scale),
            round(top_left.y() * self.scale),
            round(widget.width() * self.scale),
            round(widget.height() * self.scale),
        )

    def drawn(self, widget: QWidget, at_least: int = 10) -> None:
        """``widget``'s area holds more than ``at_least`` colours (something was painted there, not a blank)."""
        count = len(colours_in(self.image, self.rect_of(widget), step=2))
        assert count > at_least, f"{widget.objectName() or type(widget).__name__}: only {count} colours drawn"


def _save(image: QImage, name: str, tmp_path: Path) -> Path:
    """Save with a palette (no alpha channel, no dithering) under tmp, and into ``$INSPECTOR_SCREENSHOT_DIR``."""
    flags = Qt.ImageConversionFlag.ThresholdDither | Qt.ImageConversionFlag.AvoidDither
    small = image.convertToFormat(QImage.Format.Format_Indexed8, flags)
    path = tmp_path / name
    assert small.save(str(path)), path
    target = os.environ.get(SCREENSHOT_DIR_ENV, "").strip()
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        assert small.save(str(Path(target) / name))
    return path


def _grab(root: QWidget, name: str, tmp_path: Path, qtbot: QtBot, pixmap: QPixmap | None = None) -> Shot:
    qtbot.wait(80)
    if pixmap is None:
        pixmap = root.grab()
    path = _save(pixmap.toImage().convertToFormat(QImage.Format.Format_RGB888), name, tmp_path)
    shot = Shot(root, pixmap, path)
    image, saved = shot.image, shot.saved
    assert (image.width(), image.height()) == (round(root.width() * shot.scale), round(root.height() * shot.scale))
    assert len(colours_in(image, image.rect(), step=3)) > 50, "the screenshot is (nearly) uniform"
    # the file: small, without alpha, and the picture drawn (sampled pixels within a few levels of it)
    assert path.stat().st_size < MAX_BYTES, f"{name} is {path.stat().st_size} bytes"
    assert not saved.hasAlphaChannel() and saved.size() == image.size()
    points = [(x, y) for y in range(0, image.height(), 7) for x in range(0, image.width(), 5)]
    off = sum(distance(rgb(saved.pixel(x, y)), QColor(image.pixel(x, y))) > 24 for x, y in points)
    assert off < len(points) * 0.02, f"{name}: {off} of {len(points)} sampled pixels differ from what was drawn"
    return shot


def _window(make_window: MakeWindow, qtbot: QtBot, store: ProfileStore) -> MainWindow:
    """The window at 1280x800 with a few saved profiles in its sidebar (not connected), as a user would have."""
    store.create(
        Profile(name="time (uvx mcp-server-time)", stdio=StdioSettings(command="uvx", args=["mcp-server-time"]))
    )
    store.create(
        Profile(name="notes (Streamable HTTP)", transport="http", http=HttpSettings(url="http://127.0.0.1:8000/mcp"))
    )
    window = make_window()
    window.resize(*SIZE)
    qtbot.waitUntil(lambda: (window.width(), window.height()) == SIZE)
    return window


def _demo(window: MainWindow, runner: AsyncRunner) -> ConnectionTab:
    tab = connect_tab(window, runner)
    server = tab.controller.server
    assert server is not None and server.protocol_version == "2026-07-28"
    return tab


def test_main_window(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, tmp_path: Path
) -> None:
    window = _window(make_window, qtbot, store)
    tab = _demo(window, qasync_loop)
    tab.inner_tabs.setCurrentWidget(tab.overview)
    assert "Connected" in window.status_label.text()
    assert "Inspector demo server" in tab.overview.instructions_view.toPlainText()
    assert window.profiles.view.model().rowCount() >= 2
    shot = _grab(window, "main-window.png", tmp_path, qtbot)
    shot.drawn(window.profiles.view)
    shot.drawn(tab.header)
    shot.drawn(tab.overview.instructions_view)
    assert tab.inner_tabs.tabBar().isVisible() and tab.inner_tabs.count() >= 6


def test_tool_form_and_result(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, tmp_path: Path
) -> None:
    window = _window(make_window, qtbot, store)
    tab = _demo(window, qasync_loop)
    page = tool_page(tab, "get_weather")
    qtbot.waitUntil(lambda: page.run_button.isEnabled())
    page.form.set_value({"city": "Amsterdam", "units": "metric"})
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: not page.running, timeout=20)
    view = page.result_view
    assert view.state() is ResultState.SUCCESS
    assert view.result is not None and view.result["structuredContent"]["city"] == "Amsterdam"
    assert view.schema_issues() == []
    shot = _grab(window, "tool-result.png", tmp_path, qtbot)
    shot.drawn(page.form)
    shot.drawn(view)
    shot.drawn(tab.tools.browser)


def test_resource_subscription(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, tmp_path: Path
) -> None:
    window = _window(make_window, qtbot, store)
    tab = _demo(window, qasync_loop)
    panel = tab.resources
    tab.inner_tabs.setCurrentWidget(panel)
    qasync_loop.wait_until(lambda: panel.resources_model.rowCount() >= 2)
    assert panel.resources_page.select_uri("demo://clock")
    qtbot.waitUntil(lambda: panel.subscribe_button.isEnabled())
    qtbot.mouseClick(panel.subscribe_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: panel.book.get("demo://clock") is not None, timeout=20)

    def changed() -> bool:
        sub = panel.book.get("demo://clock")
        return sub is not None and sub.previous_text is not None and sub.previous_text != sub.last_text

    qasync_loop.wait_until(changed, timeout=20)  # the clock ticked while subscribed
    sub = panel.book.get("demo://clock")
    assert sub is not None and sub.state is SubscriptionState.ACTIVE
    panel.show_subscription("demo://clock")
    diff = panel.contents_view.tabs.currentWidget()
    assert isinstance(diff, DiffView) and diff.diff.added >= 1 and diff.diff.removed >= 1
    shot = _grab(window, "resource-subscription.png", tmp_path, qtbot)
    shot.drawn(panel.subscriptions)
    shot.drawn(diff.editor)
    # the added and removed lines are drawn on their colours
    colours = colours_in(shot.image, shot.rect_of(diff.editor.viewport()))
    t = tones(diff)
    assert nearest(colours, QColor(t.added_bg)) <= 8, "no added line drawn"
    assert nearest(colours, QColor(t.removed_bg)) <= 8, "no removed line drawn"


def test_sampling_dialog(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, tmp_path: Path
) -> None:
    window = _window(make_window, qtbot, store)
    tab = _demo(window, qasync_loop)
    page = tool_page(tab, "sample")
    qtbot.waitUntil(lambda: page.run_button.isEnabled())
    page.form.set_value({"prompt": "Write a haiku about lighthouses", "max_tokens": 64})
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    handlers = tab.controller.settings.handlers
    assert isinstance(handlers, GuiRequestHandlers)
    dialog: SamplingDialog = wait_dialog(qasync_loop, handlers, SamplingDialog)
    dialog.reply.text_edit.setPlainText(
        "Beam sweeps the dark sea\nships count the seconds of light\nfog swallows the rest"
    )
    dialog.resize(900, 640)
    qtbot.wait(80)
    # the dialog over its window, as a person sees it
    picture = window.grab()
    painter = QPainter(picture)
    painter.fillRect(window.rect(), QColor(0, 0, 0, 90))  # the window behind the modal dialog, dimmed
    at = QPoint((window.width() - dialog.width()) // 2, (window.height() - dialog.height()) // 2)
    painter.drawPixmap(at, dialog.grab())
    painter.setPen(dialog.palette().color(QPalette.ColorRole.Mid))
    painter.drawRect(QRect(at, dialog.size()).adjusted(-1, -1, 0, 0))
    painter.end()
    shot = _grab(window, "sampling-dialog.png", tmp_path, qtbot, picture)
    inside = QRect(round(at.x() * shot.scale), round(at.y() * shot.scale),
                   round(dialog.width() * shot.scale), round(dialog.height() * shot.scale))  # fmt: skip
    assert len(colours_in(shot.image, inside, step=2)) > 50, "the dialog is not drawn"
    bubbles = dialog.transcript.message_widgets()
    assert [b.role for b in bubbles] == ["user"]
    assert dialog.approve_button.isVisible() and dialog.approve_button.isEnabled()
    qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: not page.running, timeout=20)
    assert page.result_view.state() is ResultState.SUCCESS
    assert page.result_view.result is not None
    assert "Beam sweeps the dark sea" in json.dumps(page.result_view.result)


def test_log_with_diagnostics(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, tmp_path: Path
) -> None:
    window = _window(make_window, qtbot, store)
    tab = _demo(window, qasync_loop)
    page = tool_page(tab, "bad_structured")
    qtbot.waitUntil(lambda: page.run_button.isEnabled())
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: not page.running, timeout=20)
    assert page.result_view.schema_issues()
    recording = tab.controller.recording
    assert recording is not None
    recording.flush()
    flagged = recording.rows(RecordFilter(diagnostics_only=True, methods=["tools/call"]), 0, 100)
    response = next(row for row in flagged if row.kind is Kind.RESPONSE)
    log = tab.log
    tab.inner_tabs.setCurrentWidget(log)
    log.refresh()
    qasync_loop.wait_until(lambda: log.model.settled, timeout=10)
    log.select_seq(response.seq)
    qtbot.waitUntil(lambda: log.detail.mode == "text")
    assert log.detail.diagnostics.topLevelItemCount() >= 1
    shot = _grab(window, "log-diagnostics.png", tmp_path, qtbot)
    shot.drawn(log.view)
    shot.drawn(log.detail.diagnostics)
    # the response's row carries the red diagnostics badge
    view = log.view
    row = log.model.row_of(response.seq)
    assert row is not None
    cell = view.visualRect(log.model.index(row, Column.DIAGNOSTICS))
    assert cell.isValid() and view.viewport().rect().intersects(cell), "the flagged row is not shown"
    top_left = view.viewport().mapTo(window, cell.topLeft())
    badge = QRect(round(top_left.x() * shot.scale), round(top_left.y() * shot.scale),
                  round(cell.width() * shot.scale), round(cell.height() * shot.scale))  # fmt: skip
    assert nearest(colours_in(shot.image, badge), QColor(SEVERITY_COLOURS["violation"])) <= 24, "no red badge"


def test_modern_era_overview(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, tmp_path: Path
) -> None:
    window = _window(make_window, qtbot, store)
    tab = _demo(window, qasync_loop)
    overview = tab.overview
    tab.inner_tabs.setCurrentWidget(overview)
    section = overview.era_section
    section.result_toggle.click()
    assert section.era_label.text() == "2026-07-28 (server/discover)"
    assert section.why_label.text().startswith("Automatic: server/discover answered with 2026-07-28")
    assert section.cache_tree.topLevelItemCount() >= 1
    shot = _grab(overview, "modern-overview.png", tmp_path, qtbot)  # the panel, as laid out in the 1280x800 window
    shot.drawn(section.era_label, at_least=2)
    shot.drawn(section.cache_tree)


def test_tasks(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, tmp_path: Path
) -> None:
    window = _window(make_window, qtbot, store)
    tab = _demo(window, qasync_loop)
    panel = tab.explore.tasks
    book = panel.book
    slow = tool_page(tab, "task_slow")
    qtbot.waitUntil(lambda: slow.run_button.isEnabled())
    slow.form.set_value({"seconds": 0.4, "steps": 2})
    slow.task_toggle.click()
    qtbot.mouseClick(slow.run_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: book.records and book.records[0].outcome is TaskOutcome.COMPLETED, timeout=20)
    counting = tool_page(tab, "task_cancellable")
    counting.form.set_value({"seconds": 60})
    if not counting.task_toggle.isChecked():
        counting.task_toggle.click()
    qtbot.mouseClick(counting.run_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: len(book.records) == 2 and book.records[1].task_id is not None, timeout=20)
    done, cancelled = book.records
    tab.inner_tabs.setCurrentWidget(panel)
    panel.select(cancelled)
    assert panel.cancel_selected()
    qasync_loop.wait_until(lambda: cancelled.outcome is TaskOutcome.CANCELLED, timeout=15)
    panel.select(done)
    assert panel.result_view.state() is ResultState.SUCCESS
    status = TASK_COLUMNS.index("Status")
    assert panel.model.index(0, status).data() == "completed"
    shot = _grab(window, "tasks.png", tmp_path, qtbot)
    shot.drawn(panel.table)
    shot.drawn(panel.updates_list)
