"""Qt adapters for resource and template lists: a flat list model over the raw dicts, a search proxy, a
two-line delegate (title above, URI below) and the list page (search field + view). The list view stays
virtual: uniform row sizes, no widgets per row."""

from __future__ import annotations

from typing import Any, Final

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QSize,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import (
    QLabel,
    QLineEdit,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from inspector.ui.widgets.style import tones
from inspector.ui.widgets.theme import scaled_font, theme_manager, themed_style

__all__ = [
    "EntryRole",
    "ResourceFilterProxy",
    "ResourceListModel",
    "ResourceListPage",
    "SearchRole",
    "SecondaryRole",
    "TwoLineDelegate",
    "UriRole",
]

UriRole: Final = Qt.ItemDataRole.UserRole + 1
EntryRole: Final = Qt.ItemDataRole.UserRole + 2
SecondaryRole: Final = Qt.ItemDataRole.UserRole + 3
SearchRole: Final = Qt.ItemDataRole.UserRole + 4

_Index = QModelIndex | QPersistentModelIndex


def _text(entry: dict[str, Any], key: str) -> str:
    value = entry.get(key)
    return value if isinstance(value, str) else ""


class ResourceListModel(QAbstractListModel):
    """Rows of ``resources/list`` (``uri_key="uri"``) or ``resources/templates/list`` (``"uriTemplate"``)."""

    def __init__(self, uri_key: str = "uri", parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.uri_key = uri_key
        self._entries: list[dict[str, Any]] = []

    def set_entries(self, entries: list[Any]) -> None:
        self.beginResetModel()
        self._entries = [e for e in entries if isinstance(e, dict)]
        self.endResetModel()

    def entries(self) -> list[dict[str, Any]]:
        return list(self._entries)

    def entry(self, row: int) -> dict[str, Any] | None:
        return self._entries[row] if 0 <= row < len(self._entries) else None

    def row_of(self, uri: str) -> int:
        return next((i for i, e in enumerate(self._entries) if e.get(self.uri_key) == uri), -1)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._entries)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.parent().isValid() or not 0 <= index.row() < len(self._entries):
            return None
        entry = self._entries[index.row()]
        uri = _text(entry, self.uri_key)
        if role == Qt.ItemDataRole.DisplayRole:
            return _text(entry, "title") or _text(entry, "name") or uri or "(unnamed)"
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [uri or "(no URI)"]
            if description := _text(entry, "description"):
                lines.append(description)
            if mime := _text(entry, "mimeType"):
                lines.append(f"mimeType: {mime}")
            return "\n".join(lines)
        if role == UriRole:
            return uri
        if role == SecondaryRole:
            mime = _text(entry, "mimeType")
            return f"{uri}  ·  {mime}" if mime else uri
        if role == SearchRole:
            return " ".join(_text(entry, k) for k in ("title", "name", self.uri_key, "description", "mimeType"))
        if role == EntryRole:
            return entry
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren


class ResourceFilterProxy(QSortFilterProxyModel):
    """Case-insensitive search over title, name, URI, description and mimeType."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setFilterRole(SearchRole)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)

    def set_search(self, text: str) -> None:
        self.setFilterFixedString(text.strip())


class TwoLineDelegate(QStyledItemDelegate):
    """Paints the title on the first line and the URI (with mimeType) in a muted, smaller font below it."""

    PADDING: Final = 4

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._muted = QColor(tones(None).muted)
        theme_manager().changed.connect(self._retheme)

    def _retheme(self) -> None:
        self._muted = QColor(tones(None).muted)

    def _fonts(self, option: QStyleOptionViewItem) -> tuple[QFont, QFont]:
        base: QFont = option.font  # type: ignore[attr-defined]
        title = QFont(base)
        title.setWeight(QFont.Weight.DemiBold)
        return title, scaled_font("fine", base)

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        title, small = self._fonts(option)
        height = QFontMetrics(title).height() + QFontMetrics(small).height() + 3 * self.PADDING
        return QSize(200, height)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""  # type: ignore[attr-defined]
        widget: QWidget | None = opt.widget  # type: ignore[attr-defined]
        style = widget.style() if widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect: QRect = opt.rect  # type: ignore[attr-defined]
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)  # type: ignore[attr-defined]
        palette: QPalette = opt.palette  # type: ignore[attr-defined]
        main_colour = palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        muted = main_colour if selected else self._muted
        title_font, small_font = self._fonts(opt)
        pad = self.PADDING
        inner = rect.adjusted(pad + 2, pad, -pad, -pad)
        painter.save()
        painter.setFont(title_font)
        painter.setPen(main_colour)
        line = painter.fontMetrics().height()
        title = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        elided = painter.fontMetrics().elidedText(title, Qt.TextElideMode.ElideRight, inner.width())
        painter.drawText(QRect(inner.left(), inner.top(), inner.width(), line), Qt.AlignmentFlag.AlignLeft, elided)
        painter.setFont(small_font)
        painter.setPen(muted)
        secondary = str(index.data(SecondaryRole) or "")
        elided = painter.fontMetrics().elidedText(secondary, Qt.TextElideMode.ElideMiddle, inner.width())
        top = inner.top() + line + pad // 2
        painter.drawText(
            QRect(inner.left(), top, inner.width(), painter.fontMetrics().height()), Qt.AlignmentFlag.AlignLeft, elided
        )
        painter.restore()


class ResourceListPage(QWidget):
    """A search field over a virtual list view, with an error line."""

    def __init__(self, model: ResourceListModel, placeholder: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.proxy = ResourceFilterProxy(self)
        self.proxy.setSourceModel(model)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.setSpacing(4)
        self.search = QLineEdit(self)
        self.search.setPlaceholderText(placeholder)
        self.search.setAccessibleName(placeholder)
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.proxy.set_search)
        self.view = QListView(self)
        self.view.setModel(self.proxy)
        self.view.setAccessibleName(placeholder.removeprefix("Filter ").capitalize())
        self.view.setUniformItemSizes(True)
        self.view.setItemDelegate(TwoLineDelegate(self.view))
        self.view.setAlternatingRowColors(True)
        self.error_label = QLabel(self)
        self.error_label.setWordWrap(True)
        themed_style(self.error_label, lambda t: f"color: {t.error_fg};")
        self.error_label.hide()
        layout.addWidget(self.search)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.error_label)

    def apply_result(self, result: Any, key: str) -> None:
        """Show a list result (``key`` names its array), or the error that came instead; keeps the selection."""
        selected = self.selected_entry()
        if isinstance(result, BaseException):
            self.model.set_entries([])
            self.error_label.setText(f"Could not list {key}: {result}")
            self.error_label.show()
            return
        self.error_label.hide()
        entries = result.get(key) if isinstance(result, dict) else None
        self.model.set_entries(entries if isinstance(entries, list) else [])
        if selected is not None:
            self.select_uri(str(selected.get(self.model.uri_key, "")))

    def selected_entry(self) -> dict[str, Any] | None:
        rows = self.view.selectionModel().selectedRows()
        entry = rows[0].data(EntryRole) if rows else None
        return entry if isinstance(entry, dict) else None

    def select_uri(self, uri: str) -> bool:
        row = self.model.row_of(uri)
        if row < 0:
            return False
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        if index.isValid():
            self.view.setCurrentIndex(index)
        return index.isValid()
