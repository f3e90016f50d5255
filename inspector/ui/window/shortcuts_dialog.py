"""Help → Keyboard shortcuts: every action of the window that has a shortcut, grouped by menu (or panel), searchable;
then the panels' own shortcuts that say what they do (a ``QShortcut`` with a ``whatsThis``: a page's Ctrl+Enter).

Generated from the actions each time it is shown (``palette_entries.window_actions``), never from a hand list: an
action added anywhere in the window, with a shortcut, is listed by itself.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
)

from inspector.content.fuzzy import fuzzy_score
from inspector.content.plural import plural
from inspector.ui.window.palette_entries import FoundAction, FoundShortcut, window_actions, window_shortcuts

__all__ = ["ShortcutsDialog"]


class ShortcutsDialog(QDialog):
    """``reload()`` re-reads the window's actions; ``filter(text)`` shows the matching ones (``search`` types it)."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.window_ = window
        self.setWindowTitle("Keyboard shortcuts")
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search shortcuts (command or key)")
        self.search.setAccessibleName("Search keyboard shortcuts")
        self.search.setClearButtonEnabled(True)
        self.tree = QTreeWidget(self)
        self.tree.setAccessibleName("Keyboard shortcuts")
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["Command", "Shortcut"])
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.count_label = QLabel(self)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.count_label)
        layout.addWidget(buttons)
        self.search.textChanged.connect(self.filter)
        self.resize(620, 560)
        self.found: list[FoundAction] = []
        self.found_shortcuts: list[FoundShortcut] = []

    def reload(self) -> None:
        """List the window's actions that have a shortcut, grouped (menus in their order, then panels)."""
        self.found = [item for item in window_actions(self.window_) if item.shortcut]
        self.found_shortcuts = window_shortcuts(self.window_)
        self.tree.clear()
        groups: dict[str, QTreeWidgetItem] = {}
        rows: list[tuple[str, str, str, str]] = [
            (item.group, item.text, item.shortcut, item.action.toolTip()) for item in self.found
        ]
        rows += [(item.group, item.text, item.shortcut, "") for item in self.found_shortcuts]
        for group_name, text, keys, tip in rows:
            group = groups.get(group_name)
            if group is None:
                group = groups[group_name] = QTreeWidgetItem(self.tree, [group_name])
                font = group.font(0)
                font.setBold(True)
                group.setFont(0, font)
                group.setFlags(Qt.ItemFlag.ItemIsEnabled)
            row = QTreeWidgetItem(group, [text, keys])
            if tip and tip != text:
                row.setToolTip(0, tip)
        self.tree.expandAll()
        self.filter(self.search.text())

    def _groups(self) -> list[tuple[QTreeWidgetItem, list[QTreeWidgetItem]]]:
        found = []
        for g in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(g)
            if group is not None:
                rows = [group.child(c) for c in range(group.childCount())]
                found.append((group, [row for row in rows if row is not None]))
        return found

    def filter(self, text: str) -> None:
        shown = 0
        for group, rows in self._groups():
            visible = 0
            for row in rows:
                haystack = f"{row.text(0)} {row.text(1)} {group.text(0)}"
                match = not text.strip() or fuzzy_score(text, haystack) is not None
                row.setHidden(not match)
                visible += match
            group.setHidden(visible == 0)
            shown += visible
        self.count_label.setText(plural(shown, "shortcut"))

    def rows(self) -> list[tuple[str, str, str]]:
        """(group, command, shortcut) of every row shown."""
        found = []
        for group, rows in self._groups():
            if group.isHidden():
                continue
            for row in rows:
                if not row.isHidden():
                    found.append((group.text(0), row.text(0), row.text(1)))
        return found
