"""The command palette (Ctrl+K / Ctrl+Shift+P): a frameless overlay at the top of the window, a search field over a
ranked, fuzzy list of every action of the window and every tool, resource, template, prompt and panel of the current
connection.

The entries are collected each time it opens (``palette_entries``), so actions added anywhere in the window appear
by themselves. Typing filters and ranks (``inspector.content.fuzzy``); Up/Down/PageUp/PageDown move; Enter runs the
current entry and closes; Esc closes. A disabled entry is shown greyed out and refused (the note says why).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, QObject, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QKeyEvent, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QFrame,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from inspector.content.fuzzy import rank
from inspector.ui.window.palette_entries import PaletteEntry

__all__ = ["CommandPalette", "PaletteModel"]

Index = QModelIndex | QPersistentModelIndex
COLUMNS: Final = ("Name", "Kind", "Shortcut")
ENTRY_ROLE: Final = Qt.ItemDataRole.UserRole + 1
MAX_ROWS: Final = 500


class PaletteModel(QAbstractTableModel):
    """The palette's rows: ``set_entries`` then ``set_query`` (ranked best first); disabled entries are greyed out
    (the palette's disabled text colour) and their accessible text says "(disabled)"."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._all: list[PaletteEntry] = []
        self._shown: list[PaletteEntry] = []
        self._query = ""

    def set_entries(self, entries: list[PaletteEntry]) -> None:
        self._all = list(entries)
        self._apply()

    def set_query(self, text: str) -> None:
        self._query = text
        self._apply()

    def _apply(self) -> None:
        self.beginResetModel()
        self._shown = rank(self._query, self._all, lambda e: e.text, also=lambda e: e.context)[:MAX_ROWS]
        self.endResetModel()

    def entry(self, row: int) -> PaletteEntry | None:
        return self._shown[row] if 0 <= row < len(self._shown) else None

    def entries(self) -> list[PaletteEntry]:
        return list(self._shown)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._shown)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation is Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section] if 0 <= section < len(COLUMNS) else None
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        entry = self.entry(index.row()) if index.isValid() else None
        if entry is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (entry.title, entry.kind, entry.shortcut)[column] if 0 <= column < len(COLUMNS) else None
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [entry.detail, entry.group, "" if entry.enabled else f"Disabled: {entry.why_disabled}"]
            return "\n".join(line for line in lines if line) or None
        if role == Qt.ItemDataRole.AccessibleTextRole:
            state = "" if entry.enabled else " (disabled)"
            keys = f", {entry.shortcut}" if entry.shortcut else ""
            return f"{entry.title}, {entry.kind}{keys}{state}" if column == 0 else None
        if role == Qt.ItemDataRole.ForegroundRole and not entry.enabled:
            return QGuiApplication.palette().brush(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        if role == ENTRY_ROLE:
            return entry
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        """Every row can be current (a disabled one is greyed out by its foreground, and says why when run)."""
        if self.entry(index.row()) is None or not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren


class CommandPalette(QFrame):
    """``open_with(entries)`` shows it over ``parent`` (a window); ``run_current()`` is Enter's."""

    ran = Signal(object)
    """A ``PaletteEntry`` was run."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)  # a frameless overlay inside the window (no window of its own to place or grab)
        self.setObjectName("commandPalette")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setFrameShadow(QFrame.Shadow.Raised)
        self.setAutoFillBackground(True)
        self.hide()
        self.setAccessibleName("Command palette")
        self.model = PaletteModel(self)
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Type a command, tool, resource or prompt…")
        self.search.setAccessibleName("Search commands, tools, resources and prompts")
        self.search.setClearButtonEnabled(True)
        self.view = QTreeView(self)
        self.view.setModel(self.model)
        self.view.setAccessibleName("Matching commands")
        self.view.setRootIsDecorated(False)
        self.view.setUniformRowHeights(True)
        self.view.setAllColumnsShowFocus(True)
        self.view.setItemsExpandable(False)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the search field keeps the keys; arrows move the list
        header = self.view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self.note.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(6)
        layout.addWidget(self.search)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.note)
        self.search.textChanged.connect(self._on_query)
        self.search.installEventFilter(self)
        self.view.activated.connect(lambda index: self.run_row(index.row()))
        self.view.clicked.connect(lambda index: self.run_row(index.row()))
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_focus_changed)

    # -- opening -----------------------------------------------------------------------------------------------

    def open_with(self, entries: list[PaletteEntry]) -> None:
        self.model.set_entries(entries)
        self.search.clear()
        self._on_query("")
        window = self.parentWidget()
        if window is not None:
            width = max(420, min(760, int(window.width() * 0.6)))
            height = max(260, min(460, int(window.height() * 0.6)))
            self.setGeometry((window.width() - width) // 2, 48, width, height)
        self.show()
        self.raise_()
        self.search.setFocus(Qt.FocusReason.PopupFocusReason)

    def _on_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        """Focus moved elsewhere (a click outside, another window): the palette closes, like a popup."""
        if self.isVisible() and new is not None and new is not self and not self.isAncestorOf(new):
            self.hide()

    # -- moving and running --------------------------------------------------------------------------------

    def current_row(self) -> int:
        index = self.view.currentIndex()
        return index.row() if index.isValid() else -1

    def current_entry(self) -> PaletteEntry | None:
        return self.model.entry(self.current_row())

    def step(self, rows_down: int) -> None:
        rows = self.model.rowCount()
        if not rows:
            return
        row = self.current_row()
        row = max(0, min(rows - 1, (row if row >= 0 else 0) + rows_down))
        self.view.setCurrentIndex(self.model.index(row, 0))

    def run_current(self) -> bool:
        return self.run_row(self.current_row())

    def run_row(self, row: int) -> bool:
        """Run the entry at ``row`` (closing the palette first); a disabled one is refused: False."""
        entry = self.model.entry(row)
        if entry is None:
            return False
        if not entry.enabled:
            self._say(f"“{entry.title}” is disabled{': ' + entry.why_disabled if entry.why_disabled else ''}.")
            return False
        self.hide()
        run: Callable[[], None] = entry.run
        QTimer.singleShot(0, run)  # after the popup let go of the keyboard
        self.ran.emit(entry)
        return True

    def _say(self, text: str) -> None:
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def _on_query(self, text: str) -> None:
        self.model.set_query(text)
        self._say("" if self.model.rowCount() else "Nothing matches.")
        first = next((r for r in range(self.model.rowCount()) if (e := self.model.entry(r)) and e.enabled), 0)
        if self.model.rowCount():
            self.view.setCurrentIndex(self.model.index(first, 0))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.search and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            key = event.key()
            page = max(1, self.view.height() // max(1, self.view.sizeHintForRow(0)) - 1)
            steps = {Qt.Key.Key_Down: 1, Qt.Key.Key_Up: -1, Qt.Key.Key_PageDown: page, Qt.Key.Key_PageUp: -page}
            if key in steps:
                self.step(steps[Qt.Key(key)])
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.run_current()
                return True
            if key == Qt.Key.Key_Escape:
                self.hide()
                return True
        return super().eventFilter(watched, event)
