"""``ListBrowser``: the left side of the tools and prompts panels — a filter field (debounced by a single-shot
timer; Up/Down move through the list), the count, a refresh button, the virtualized list (uniform rows painted
by ``CatalogDelegate``) and a note line for what just happened."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QItemSelection, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QListView, QToolButton, QVBoxLayout, QWidget

from inspector.content.catalog import CatalogEntry
from inspector.content.plural import plural
from inspector.ui.explore.catalog.model import ENTRY_ROLE, CatalogDelegate, CatalogModel
from inspector.ui.widgets.theme import small_font_size, themed_style
from inspector.ui.widgets.timers import coalescer

__all__ = ["ListBrowser"]


class ListBrowser(QWidget):
    """Filter field, count, refresh button, the list, and a note line (shared by the tools and prompts panels)."""

    currentChanged = Signal(object)
    """The selected CatalogEntry, or None."""
    refreshRequested = Signal()

    FILTER_DELAY_MS = 60

    def __init__(self, noun: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.noun = noun
        self.model = CatalogModel(self)
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setPlaceholderText(f"Filter {noun}s (name, title, description)")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setAccessibleName(f"Filter the {noun}s")
        self.refresh_button = QToolButton(self)
        self.refresh_button.setText("⟳")
        self.refresh_button.setToolTip(f"List the {noun}s again")
        self.refresh_button.setAccessibleName(f"Refresh the {noun}s")
        self.refresh_button.setAutoRaise(True)
        self.count_label = QLabel(self)
        themed_style(self.count_label, lambda t: f"color: {t.muted};")
        self.view = QListView(self)
        self.view.setModel(self.model)
        self.view.setAccessibleName(f"{noun.capitalize()}s")
        self.view.setItemDelegate(CatalogDelegate(self.view))
        self.view.setUniformItemSizes(True)
        self.view.setSelectionMode(QListView.SelectionMode.SingleSelection)
        self.view.setVerticalScrollMode(QListView.ScrollMode.ScrollPerPixel)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.note_label = QLabel(self)
        self.note_label.setWordWrap(True)
        themed_style(self.note_label, lambda t: f"color: {t.info_fg}; font-size: {small_font_size()};")
        self.note_label.hide()
        top = QHBoxLayout()
        top.setSpacing(4)
        top.addWidget(self.filter_edit, 1)
        top.addWidget(self.refresh_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 0, 6)
        layout.setSpacing(4)
        layout.addLayout(top)
        layout.addWidget(self.count_label)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.note_label)

        self._filter_timer = coalescer(self, self.FILTER_DELAY_MS, self.apply_filter)
        self.filter_edit.textChanged.connect(lambda _text: self._filter_timer.start())
        self.filter_edit.installEventFilter(self)
        self.refresh_button.clicked.connect(self.refreshRequested)
        self.view.selectionModel().selectionChanged.connect(self._on_selection)
        self._update_count()

    def set_entries(self, entries: list[CatalogEntry]) -> None:
        """Replace the list, keeping the selected entry selected when it still exists."""
        current = self.current()
        name = current.name if current is not None else None
        self.model.set_entries(entries)
        self._update_count()
        if name is not None and not self.select(name):
            self.currentChanged.emit(None)

    def apply_filter(self) -> None:
        self._filter_timer.stop()
        current = self.current()
        self.model.set_filter(self.filter_edit.text())
        self._update_count()
        if current is not None:
            self.select(current.name)

    def current(self) -> CatalogEntry | None:
        index = self.view.currentIndex()
        entry = index.data(ENTRY_ROLE) if index.isValid() else None
        return entry if isinstance(entry, CatalogEntry) else None

    def select(self, name: str) -> bool:
        row = self.model.row_of(name)
        if row < 0:
            return False
        index = self.model.index(row, 0)
        self.view.setCurrentIndex(index)
        self.view.scrollTo(index)
        return True

    def show_note(self, text: str, tone: str = "info") -> None:
        themed_style(
            self.note_label,
            lambda t: (
                f"color: { ({'info': t.info_fg, 'error': t.error_fg, 'muted': t.muted}.get(tone, t.info_fg)) };"
                f" font-size: {small_font_size()};"
            ),
        )
        self.note_label.setText(text)
        self.note_label.setVisible(bool(text))

    def _update_count(self) -> None:
        total, shown = self.model.total(), self.model.rowCount()
        counted = plural(total, self.noun)
        self.count_label.setText(counted if shown == total else f"{shown} of {counted}")

    def _on_selection(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        self.currentChanged.emit(self.current())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Up/Down in the filter field move through the list."""
        if watched is self.filter_edit and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            if event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down) and self.model.rowCount():
                row = self.view.currentIndex().row()
                step = 1 if event.key() == Qt.Key.Key_Down else -1
                row = max(0, min(self.model.rowCount() - 1, row + step if row >= 0 else 0))
                self.view.setCurrentIndex(self.model.index(row, 0))
                return True
        return super().eventFilter(watched, event)
