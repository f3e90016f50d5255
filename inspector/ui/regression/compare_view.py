"""The "Compare with…" view: the classified changes between two surfaces, and the two sides of the selected one.

``CompareDialog(old, new, old_label, new_label)`` diffs two snapshots (``inspector.regression``), shows one row
per change (kind coloured by the theme's tones, a kind filter with counts) and, for the selected change, the
schema or item it is about on each side (:func:`inspector.regression.subject.subject_of`) in two JSON trees side
by side.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QItemSelection, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from inspector.regression.changes import KIND_ORDER, Change, ChangeKind
from inspector.regression.subject import subject_of
from inspector.regression.surface_diff import diff_surfaces
from inspector.ui.regression.compare_model import CHANGE_ROLE, KIND_TONES, ChangesModel, KindFilter
from inspector.ui.viewers.json_view import JsonTreeView
from inspector.ui.widgets.style import badge_label, section_label

__all__ = ["CompareDialog", "SidePane"]


class SidePane(QWidget):
    """One side of the selected change: which surface, what the value is, and the value as a JSON tree."""

    def __init__(self, surface: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = section_label(surface, self)
        self.subject = QLabel("", self)
        self.subject.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.tree = JsonTreeView(None, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.subject)
        layout.addWidget(self.tree, 1)
        self.value: Any = None

    def show_value(self, subject: str, value: Any) -> None:
        self.value = value
        self.subject.setText(subject if value is not None else f"{subject}: not on this side")
        self.tree.set_value(value)


class CompareDialog(QDialog):
    def __init__(
        self,
        old: dict[str, Any],
        new: dict[str, Any],
        old_label: str,
        new_label: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle(f"Compare {old_label} with {new_label}")
        self.resize(1200, 760)
        self.old, self.new = old, new
        self.changes: list[Change] = diff_surfaces(old, new)

        self.model = ChangesModel(self)
        self.model.set_changes(self.changes)
        self.proxy = KindFilter(self)
        self.proxy.setSourceModel(self.model)
        counts = self.model.counts()

        header = QHBoxLayout()
        self.verdict = QLabel(self._verdict(counts), self)
        header.addWidget(self.verdict, 1)
        self.badges: dict[ChangeKind, QLabel] = {}
        self.filters: dict[ChangeKind, QCheckBox] = {}
        for kind in KIND_ORDER:
            badge = badge_label(str(counts[kind]), KIND_TONES[kind], f"{counts[kind]} {kind.value}", self)
            box = QCheckBox(kind.value.capitalize(), self)
            box.setChecked(True)
            box.toggled.connect(lambda shown, k=kind: self.proxy.set_kind_shown(k, shown))
            header.addWidget(box)
            header.addWidget(badge)
            self.badges[kind], self.filters[kind] = badge, box

        self.table = QTableView(self)
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.setColumnWidth(0, 100)
        self.table.setColumnWidth(1, 460)
        self.table.selectionModel().selectionChanged.connect(self._selected)

        self.old_side = SidePane(f"Old: {old_label}", self)
        self.new_side = SidePane(f"New: {new_label}", self)
        self.reason = QLabel("Select a change to see both sides.", self)
        self.reason.setWordWrap(True)
        sides = QSplitter(Qt.Orientation.Horizontal, self)
        sides.addWidget(self.old_side)
        sides.addWidget(self.new_side)
        lower = QWidget(self)
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.addWidget(self.reason)
        lower_layout.addWidget(sides, 1)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self.table)
        splitter.addWidget(lower)
        splitter.setSizes([300, 420])

        layout = QVBoxLayout(self)
        layout.addLayout(header)
        layout.addWidget(splitter, 1)
        if self.changes:
            self.table.selectRow(0)

    @staticmethod
    def _verdict(counts: dict[ChangeKind, int]) -> str:
        total = sum(counts.values())
        if not total:
            return "No changes: the two surfaces are the same."
        if counts[ChangeKind.BREAKING]:
            return f"{counts[ChangeKind.BREAKING]} breaking of {total} changes."
        return f"Nothing breaks ({total} changes)."

    def visible_changes(self) -> list[Change]:
        """The rows the kind filter shows, in order."""
        rows = range(self.proxy.rowCount())
        return [self.proxy.index(row, 0).data(CHANGE_ROLE) for row in rows]

    def selected_change(self) -> Change | None:
        rows = self.table.selectionModel().selectedRows()
        return rows[0].data(CHANGE_ROLE) if rows else None

    def select_path(self, path: str) -> bool:
        """Select the first visible change at ``path``; whether there was one."""
        for row in range(self.proxy.rowCount()):
            change = self.proxy.index(row, 0).data(CHANGE_ROLE)
            if isinstance(change, Change) and change.path == path:
                self.table.selectRow(row)
                return True
        return False

    def _selected(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        change = self.selected_change()
        if change is None:
            return
        self.reason.setText(f"{change.kind.value}: {change.path} — {change.reason}")
        old_subject, old_value = subject_of(self.old, change.path)
        new_subject, new_value = subject_of(self.new, change.path)
        self.old_side.show_value(old_subject, old_value)
        self.new_side.show_value(new_subject, new_value)
