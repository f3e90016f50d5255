"""Item views for profiles: the sidebar's list model and delegate, the editor's environment and roots tables.

``ProfileListModel`` is a thin Qt adapter over ``ProfileStore``: every change goes through the store
(which saves at once) and is announced with the matching model signals. Reordering works by drag and
drop (``moveRows``, which ``QListView``'s internal move uses) and through ``move_by``.
"""

from __future__ import annotations

import shlex
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from inspector.content.era_summary import CHOICE_LABELS
from inspector.protocol.limits import DEFAULT_LIMITS, Limits, limit_docs
from inspector.protocol.sizes import format_size, parse_size
from inspector.protocol.versions import EraChoice
from inspector.store.profiles import EnvVar, Profile, ProfileStore, Root
from inspector.store.secrets import KEYRING_STORED_HINT
from inspector.ui.widgets.theme import scaled_font

__all__ = [
    "DESCRIPTION_ROLE",
    "PROFILE_ID_ROLE",
    "EnvTable",
    "ProfileDelegate",
    "ProfileListModel",
    "RootsTable",
]

PROFILE_ID_ROLE = Qt.ItemDataRole.UserRole + 1
DESCRIPTION_ROLE = Qt.ItemDataRole.UserRole + 2
_Index = QModelIndex | QPersistentModelIndex


def _describe(profile: Profile) -> str:
    if profile.transport == "stdio":
        return shlex.join([profile.stdio.command, *profile.stdio.args]) if profile.stdio.command else "(no command)"
    return f"{profile.transport}: {profile.http.url}"


class ProfileListModel(QAbstractListModel):
    """The store's profiles, in the user's order."""

    def __init__(self, store: ProfileStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self._profiles = store.list_profiles()

    # -- reading ---------------------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._profiles)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._profiles):
            return None
        profile = self._profiles[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return profile.name
        if role == Qt.ItemDataRole.ToolTipRole:
            era = CHOICE_LABELS[EraChoice(profile.protocol_era)]
            return f"{profile.name}\n{_describe(profile)}\nProtocol era: {era}"
        if role == PROFILE_ID_ROLE:
            return profile.id
        if role == DESCRIPTION_ROLE:
            return _describe(profile)
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        base = Qt.ItemFlag.ItemIsDropEnabled  # dropping between rows
        if not index.isValid():
            return base
        return base | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction

    def profile_at(self, row: int) -> Profile:
        return self._profiles[row].copy()

    def row_of(self, profile_id: str) -> int:
        for row, profile in enumerate(self._profiles):
            if profile.id == profile_id:
                return row
        return -1

    def profiles(self) -> list[Profile]:
        return [p.copy() for p in self._profiles]

    # -- changing (through the store) ------------------------------------------------------------

    def create(self, profile: Profile) -> Profile:
        row = len(self._profiles)
        stored = self.store.create(profile)
        self.beginInsertRows(QModelIndex(), row, row)
        self._profiles = self.store.list_profiles()
        self.endInsertRows()
        return stored

    def update(self, profile: Profile) -> Profile:
        stored = self.store.update(profile)
        row = self.row_of(profile.id)
        self._profiles[row] = stored.copy()
        index = self.index(row, 0)
        self.dataChanged.emit(index, index)
        return stored

    def duplicate(self, profile_id: str) -> Profile:
        row = self.row_of(profile_id) + 1
        clone = self.store.duplicate(profile_id)
        self.beginInsertRows(QModelIndex(), row, row)
        self._profiles = self.store.list_profiles()
        self.endInsertRows()
        return clone

    def delete(self, profile_id: str) -> None:
        row = self.row_of(profile_id)
        self.store.delete(profile_id)
        self.beginRemoveRows(QModelIndex(), row, row)
        self._profiles = self.store.list_profiles()
        self.endRemoveRows()

    def moveRows(self, source_parent: _Index, source_row: int, count: int, dest_parent: _Index, dest_row: int) -> bool:
        if source_parent.isValid() or dest_parent.isValid() or count < 1:
            return False
        if source_row < 0 or source_row + count > len(self._profiles) or not 0 <= dest_row <= len(self._profiles):
            return False
        if source_row <= dest_row <= source_row + count:
            return False  # onto itself: nothing to do (and beginMoveRows would refuse)
        ids = [p.id for p in self._profiles]
        moving = ids[source_row : source_row + count]
        rest = ids[:source_row] + ids[source_row + count :]
        at = dest_row if dest_row < source_row else dest_row - count
        new_order = rest[:at] + moving + rest[at:]
        if not self.beginMoveRows(QModelIndex(), source_row, source_row + count - 1, QModelIndex(), dest_row):
            return False
        try:
            self.store.reorder(new_order)
        finally:
            self._profiles = self.store.list_profiles()
            self.endMoveRows()
        return True

    def move_by(self, profile_id: str, delta: int) -> bool:
        """Move one row up (-1) or down (+1)."""
        row = self.row_of(profile_id)
        target = row + delta
        if row < 0 or not 0 <= target < len(self._profiles):
            return False
        return self.moveRows(QModelIndex(), row, 1, QModelIndex(), target + 1 if delta > 0 else target)


class ProfileDelegate(QStyledItemDelegate):
    """Two lines per profile: the name, and the command (or URL) in a smaller, muted font."""

    PAD = 6

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        metrics = option.fontMetrics
        return QSize(option.rect.width(), metrics.height() * 2 + self.PAD * 2)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        active = bool(opt.state & QStyle.StateFlag.State_Active)
        group = QPalette.ColorGroup.Active if active else QPalette.ColorGroup.Inactive
        text_role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        rect = opt.rect.adjusted(self.PAD + 2, self.PAD, -self.PAD, -self.PAD)
        line = opt.fontMetrics.height()
        painter.save()
        name_font = QFont(opt.font)
        name_font.setBold(True)
        painter.setFont(name_font)
        painter.setPen(opt.palette.color(group, text_role))
        name = QFontMetrics(name_font).elidedText(str(index.data() or ""), Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(rect.x(), rect.y(), rect.width(), line, Qt.AlignmentFlag.AlignVCenter, name)
        detail_font = scaled_font("caption", opt.font)
        painter.setFont(detail_font)
        muted = opt.palette.color(group, text_role)
        if not selected:  # two thirds of the way from the background to the text colour
            base = opt.palette.color(group, QPalette.ColorRole.Base)
            muted = QColor(
                (base.red() + 2 * muted.red()) // 3,
                (base.green() + 2 * muted.green()) // 3,
                (base.blue() + 2 * muted.blue()) // 3,
            )
        painter.setPen(muted)
        detail = QFontMetrics(detail_font).elidedText(
            str(index.data(DESCRIPTION_ROLE) or ""), Qt.TextElideMode.ElideMiddle, rect.width()
        )
        painter.drawText(rect.x(), rect.y() + line, rect.width(), line, Qt.AlignmentFlag.AlignVCenter, detail)
        painter.restore()


class EnvTable(QTableWidget):
    """Name / value / secret rows; a secret's value is masked."""

    stored_hint = KEYRING_STORED_HINT
    """The placeholder of a stored secret's value (the dialog sets its ``SecretStore.stored_hint``)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, 3, parent)
        self.setHorizontalHeaderLabels(["Variable", "Value", "Secret"])
        header = self.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.setColumnWidth(0, 240)
        self.verticalHeader().setVisible(False)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)

    def add_row(self, name: str = "", value: str | None = "", secret: bool = False, stored: bool = False) -> int:
        row = self.rowCount()
        self.insertRow(row)
        name_edit = QLineEdit(name)
        name_edit.setPlaceholderText("NAME")
        value_edit = QLineEdit(value or "")
        if value is None:
            value_edit.setPlaceholderText(self.stored_hint if stored else "not set")
        secret_box = QCheckBox()
        secret_box.setToolTip("A secret: its value is kept out of the profiles file")
        secret_box.toggled.connect(lambda on: value_edit.setEchoMode(self._echo(on)))
        secret_box.setChecked(secret)
        value_edit.setEchoMode(self._echo(secret))
        holder = QWidget()
        box_layout = QHBoxLayout(holder)
        box_layout.setContentsMargins(0, 0, 0, 0)
        box_layout.addWidget(secret_box, 0, Qt.AlignmentFlag.AlignCenter)
        self.setCellWidget(row, 0, name_edit)
        self.setCellWidget(row, 1, value_edit)
        self.setCellWidget(row, 2, holder)
        holder.setProperty("checkbox", secret_box)
        value_edit.setProperty("unloaded", value is None)
        return row

    @staticmethod
    def _echo(secret: bool) -> QLineEdit.EchoMode:
        return QLineEdit.EchoMode.Password if secret else QLineEdit.EchoMode.Normal

    def name_edit(self, row: int) -> QLineEdit:
        widget = self.cellWidget(row, 0)
        assert isinstance(widget, QLineEdit)
        return widget

    def value_edit(self, row: int) -> QLineEdit:
        widget = self.cellWidget(row, 1)
        assert isinstance(widget, QLineEdit)
        return widget

    def secret_box(self, row: int) -> QCheckBox:
        box = self.cellWidget(row, 2).property("checkbox")
        assert isinstance(box, QCheckBox)
        return box

    def remove_selected(self) -> None:
        rows = sorted({index.row() for index in self.selectedIndexes()} | {self.currentRow()}, reverse=True)
        for row in rows:
            if 0 <= row < self.rowCount():
                self.removeRow(row)

    def variables(self) -> list[EnvVar]:
        result: list[EnvVar] = []
        for row in range(self.rowCount()):
            name = self.name_edit(row).text().strip()
            if not name:
                continue
            edit = self.value_edit(row)
            secret = self.secret_box(row).isChecked()
            value: str | None = edit.text()
            if not value and edit.property("unloaded"):
                value = None  # keep what is stored
            result.append(EnvVar(name=name, value=value, secret=secret))
        return result


class RootsTable(QTableWidget):
    """URI / name rows offered to the server through roots/list."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, 2, parent)
        self.setHorizontalHeaderLabels(["URI", "Name"])
        self.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        self.setColumnWidth(1, 160)
        self.verticalHeader().setVisible(False)

    def add_root(self, uri: str = "file:///", name: str = "") -> int:
        row = self.rowCount()
        self.insertRow(row)
        self.setItem(row, 0, QTableWidgetItem(uri))
        self.setItem(row, 1, QTableWidgetItem(name))
        return row

    def roots(self) -> list[Root]:
        result: list[Root] = []
        for row in range(self.rowCount()):
            uri_item, name_item = self.item(row, 0), self.item(row, 1)
            uri = uri_item.text().strip() if uri_item else ""
            name = name_item.text().strip() if name_item else ""
            if uri:
                result.append(Root(uri=uri, name=name or None))
        return result


class LimitsTable(QTableWidget):
    """One row per bound on what is read from the server (``inspector.protocol.limits``): name, value, default.

    The value column is editable (sizes take KB/MB/GB or KiB/MiB/GiB); a value equal to the default is not an
    override. Each name's tooltip is the limit's documentation.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(len(Limits.names()), 3, parent)
        self.setHorizontalHeaderLabels(["Limit", "Value", "Default"])
        self.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.verticalHeader().setVisible(False)
        docs = limit_docs()
        for row, name in enumerate(Limits.names()):
            label = QTableWidgetItem(name)
            label.setFlags(label.flags() & ~Qt.ItemFlag.ItemIsEditable)
            label.setToolTip(docs.get(name, ""))
            default = QTableWidgetItem(self.shown(name, getattr(DEFAULT_LIMITS, name)))
            default.setFlags(default.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.setItem(row, 0, label)
            self.setItem(row, 1, QTableWidgetItem(default.text()))
            self.setItem(row, 2, default)

    @staticmethod
    def shown(name: str, value: int) -> str:
        """A size in whole KiB/MiB/GiB when it is one (so reading it back gives the same number), else the number."""
        if not name.endswith("_bytes"):
            return str(value)
        text = format_size(value)
        return text if not text.endswith(" B") and parse_size(text) == value else str(value)

    def set_overrides(self, overrides: dict[str, int]) -> None:
        for row, name in enumerate(Limits.names()):
            value = overrides.get(name, getattr(DEFAULT_LIMITS, name))
            item = self.item(row, 1)
            if item is not None:
                item.setText(self.shown(name, value))

    def overrides(self) -> dict[str, int]:
        """The values that differ from the defaults; raises ValueError naming a bad one."""
        given: dict[str, str] = {}
        for row, name in enumerate(Limits.names()):
            item = self.item(row, 1)
            text = item.text().strip() if item is not None else ""
            if text:
                given[name] = text.replace(" ", "")
        chosen = DEFAULT_LIMITS.overridden(given)
        return {
            name: getattr(chosen, name)
            for name in Limits.names()
            if getattr(chosen, name) != getattr(DEFAULT_LIMITS, name)
        }
