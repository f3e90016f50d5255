"""A screenshot of the Tasks panel, checked for what it draws: one row per task with its status in the status's
colour (completed green, cancelled amber), the selected row highlighted, and the selected task's result in the
result view below (the same view a direct call uses)."""

from __future__ import annotations

from pathlib import Path

from guikit import AsyncRunner, MakeWindow, connect_tab, demo_profile, tool_page
from pixels import colours_in, distance, nearest, saved_grab
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QPalette
from pytestqt.qtbot import QtBot

from inspector.store.profiles import ProfileStore
from inspector.ui.explore.common.task_book import TaskOutcome
from inspector.ui.explore.tasks.model import COLUMNS
from inspector.ui.explore.tasks.panel import TasksPanel
from inspector.ui.viewers import ResultState
from inspector.ui.widgets.theme_colours import LIGHT

GREEN = QColor(LIGHT.ok_fg)  # the light theme's (the window's theme follows the system: light when it says nothing)
AMBER = QColor(LIGHT.warning_fg)


def test_screenshot(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, store: ProfileStore, tmp_path: Path
) -> None:
    profile = store.create(demo_profile("demo (tasks)", "both"))
    window = make_window()
    window.resize(1200, 820)
    tab = connect_tab(window, qasync_loop, profile.id)
    panel: TasksPanel = tab.explore.tasks
    book = panel.book

    slow = tool_page(tab, "task_slow")
    qtbot.waitUntil(lambda: slow.run_button.isEnabled())
    slow.form.set_value({"seconds": 0.4, "steps": 2})
    slow.task_toggle.click()
    qtbot.mouseClick(slow.run_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: book.records and book.records[0].outcome is TaskOutcome.COMPLETED, timeout=20)
    counting = tool_page(tab, "task_cancellable")
    counting.form.set_value({"seconds": 60})
    qtbot.mouseClick(counting.run_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: len(book.records) == 2 and book.records[1].task_id is not None, timeout=20)
    done, cancelled = book.records
    tab.inner_tabs.setCurrentWidget(panel)
    panel.select(cancelled)
    assert panel.cancel_selected()
    qasync_loop.wait_until(lambda: cancelled.outcome is TaskOutcome.CANCELLED, timeout=15)
    panel.select(done)
    assert panel.result_view.state() is ResultState.SUCCESS
    qtbot.wait(50)

    image, scale = saved_grab(panel, tmp_path / "tasks_panel.png")
    assert (image.width(), image.height()) == (round(panel.width() * scale), round(panel.height() * scale))
    assert len(colours_in(image, image.rect())) > 50, "the screenshot is (nearly) uniform"

    view, model = panel.table, panel.model
    viewport = view.viewport()

    def cell(row: int, column: str) -> QRect:
        rect = view.visualRect(model.index(row, COLUMNS.index(column)))
        assert rect.isValid() and viewport.rect().intersects(rect), f"row {row} {column} is not shown"
        top_left = viewport.mapTo(panel, rect.topLeft())
        return QRect(
            round(top_left.x() * scale),
            round(top_left.y() * scale),
            round(rect.width() * scale),
            round(rect.height() * scale),
        )

    def widget_rect(widget: object) -> QRect:
        from PySide6.QtWidgets import QWidget

        assert isinstance(widget, QWidget)
        top_left = widget.mapTo(panel, widget.rect().topLeft())
        return QRect(
            round(top_left.x() * scale),
            round(top_left.y() * scale),
            round(widget.width() * scale),
            round(widget.height() * scale),
        )

    # each task's status in its colour; the selected (completed) row in the highlight
    assert nearest(colours_in(image, cell(1, "Status")), AMBER) <= 40, "the cancelled status is not amber"
    palette = view.palette()
    group = QPalette.ColorGroup.Active if view.isActiveWindow() else QPalette.ColorGroup.Inactive
    highlight = palette.color(group, QPalette.ColorRole.Highlight)
    selected = colours_in(image, cell(0, "Tool"))
    dominant, count = selected.most_common(1)[0]
    assert distance(dominant, highlight) <= 2 and count > selected.total() * 0.5, "the selected row is not highlighted"
    unselected = colours_in(image, cell(1, "Tool"))
    assert distance(unselected.most_common(1)[0][0], highlight) > 20, "the other row is highlighted too"
    assert model.index(0, COLUMNS.index("Status")).data() == "completed"
    assert model.index(0, COLUMNS.index("Status")).data(Qt.ItemDataRole.ForegroundRole) == GREEN
    # the result view below: the content of the completed task, drawn (not blank)
    content = panel.result_view.content_view
    assert content is not None and content.isVisible()
    assert len(colours_in(image, widget_rect(content))) > 10, "the result's content is not drawn"
    assert panel.result_view.result is not None
    assert panel.result_view.result["content"][0]["text"] == "Finished 2 steps in about 0.4s"
    updates = widget_rect(panel.updates_list)
    assert len(colours_in(image, updates)) > 10, "the updates list is empty"
    assert panel.updates_list.count() >= 2
