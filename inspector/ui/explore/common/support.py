"""Pieces shared by the explore panels: the header of a selected tool/prompt and the base of its page. The
asyncio work of panels and pages goes through ``inspector.ui.explore.common.panel_tasks.PanelTasks``."""

from __future__ import annotations

import time

import shiboken6
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from inspector.content.catalog import CatalogEntry
from inspector.ui.explore.common.icons import entry_icon
from inspector.ui.widgets.banner import Banner
from inspector.ui.widgets.markdown import MarkdownLabel
from inspector.ui.widgets.style import badge_label, tones
from inspector.ui.widgets.theme import follow_font, themed_style

__all__ = ["EntryHeader", "EntryPage", "alive", "clock_text"]

DESCRIPTION_CHARS = 700


def alive(obj: QObject | None) -> bool:
    """The Qt object still exists (a task finishing after its widget was deleted must not touch it)."""
    return obj is not None and shiboken6.isValid(obj)


def clock_text() -> str:
    return time.strftime("%H:%M:%S")


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
        follow_font(self.title_label, "heading")
        self.title_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.name_label = QLabel(entry.name, self)
        self.name_label.setTextFormat(Qt.TextFormat.PlainText)
        follow_font(self.name_label, "mono")
        themed_style(self.name_label, lambda t: f"color: {t.muted};")
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
        self.description_label: QLabel | MarkdownLabel
        """The description as Markdown (rendered safely: nothing loaded, links open on click only)."""
        if text:
            self.description_label = MarkdownLabel(shown, self)
        else:
            self.description_label = QLabel("No description.", self)
            themed_style(self.description_label, lambda t: f"color: {t.muted}; font-style: italic;")
        if shown != text:
            self.description_label.setToolTip(text[:5000])

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
