"""Pieces shared by the explore panels: the header of a selected tool/prompt, and ``TaskSet`` for the asyncio
work a panel starts from its slots (tasks on the running qasync loop, referenced until done, errors reported
to a callback instead of leaking as "Task exception was never retrieved")."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from inspector.content.catalog import CatalogEntry
from inspector.ui.explore.common.icons import entry_icon
from inspector.ui.widgets.style import Banner, badge_label, monospace_font, tones

__all__ = ["EntryHeader", "EntryPage", "TaskSet", "alive", "clock_text"]

DESCRIPTION_CHARS = 700


def alive(obj: QObject | None) -> bool:
    """The Qt object still exists (a task finishing after its widget was deleted must not touch it)."""
    return obj is not None and shiboken6.isValid(obj)


def clock_text() -> str:
    return time.strftime("%H:%M:%S")


class TaskSet:
    """Asyncio tasks started by one widget. ``spawn`` keeps a reference until the task ends; an exception
    escaping the coroutine goes to ``on_error`` (never unhandled). ``cancel_all`` on teardown."""

    def __init__(self, on_error: Callable[[BaseException], None]) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self._on_error = on_error

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_event_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            self._on_error(error)

    def cancel_all(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    def __len__(self) -> int:
        return len(self._tasks)


class EntryHeader(QWidget):
    """Icon, title, name, badges and description of the selected tool or prompt."""

    def __init__(self, entry: CatalogEntry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        t = tones(self)
        self.icon_label = QLabel(self)
        self.icon_label.setFixedSize(32, 32)
        pixmap = entry_icon(entry, 32)
        if pixmap is not None:
            self.icon_label.setPixmap(pixmap)
        else:
            self.icon_label.setText((entry.label[:1] or "?").upper())
            self.icon_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self.icon_label.setStyleSheet(
                f"background: {t.badge_bg}; color: {t.muted}; border-radius: 8px; font-weight: 700; font-size: 15px;"
            )
        self.title_label = QLabel(entry.label or "(unnamed)", self)
        self.title_label.setTextFormat(Qt.TextFormat.PlainText)
        title_font = QFont(self.title_label.font())
        title_font.setBold(True)
        title_font.setPointSizeF(title_font.pointSizeF() * 1.25)
        self.title_label.setFont(title_font)
        self.title_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.name_label = QLabel(entry.name, self)
        self.name_label.setTextFormat(Qt.TextFormat.PlainText)
        self.name_label.setFont(monospace_font())
        self.name_label.setStyleSheet(f"color: {t.muted};")
        self.name_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.name_label.setVisible(entry.label != entry.name)
        self.badges = [badge_label(b.text, b.kind, b.tooltip, self) for b in entry.badges]

        title_row = QHBoxLayout()
        title_row.setSpacing(8)
        title_row.addWidget(self.title_label)
        title_row.addWidget(self.name_label)
        for badge in self.badges:
            title_row.addWidget(badge)
        title_row.addStretch(1)

        text = entry.description.strip()
        shown = text if len(text) <= DESCRIPTION_CHARS else text[: DESCRIPTION_CHARS - 1] + "…"
        self.description_label = QLabel(shown or "No description.", self)
        self.description_label.setTextFormat(Qt.TextFormat.PlainText)
        self.description_label.setWordWrap(True)
        self.description_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.description_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        if shown != text:
            self.description_label.setToolTip(text[:5000])
        if not text:
            self.description_label.setStyleSheet(f"color: {t.muted}; font-style: italic;")

        column = QVBoxLayout()
        column.setSpacing(3)
        column.addLayout(title_row)
        column.addWidget(self.description_label)
        if entry.problems:
            self.problems_banner: Banner | None = Banner(
                "warning", "The server's definition is malformed", entry.problems, self
            )
            column.addWidget(self.problems_banner)
        else:
            self.problems_banner = None
        column.addStretch(1)

        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        row = QHBoxLayout(self)
        row.setContentsMargins(12, 10, 12, 6)
        row.setSpacing(10)
        row.addWidget(self.icon_label, 0, Qt.AlignmentFlag.AlignTop)
        row.addLayout(column, 1)


class EntryPage(QWidget):
    """Base of the page shown for one selected tool or prompt."""

    readResourceRequested = Signal(str)
    openUrlRequested = Signal(str)
    openFileRequested = Signal(str)

    def __init__(self, entry: CatalogEntry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.entry = entry
        self.stale = False
        """The server no longer lists this entry (or changed it) while the page was busy."""

    @property
    def running(self) -> bool:
        """A request of this page is in flight (the page must not be dropped)."""
        return False

    def shutdown(self) -> None:
        """Cancel whatever the page is doing (it is going away)."""
