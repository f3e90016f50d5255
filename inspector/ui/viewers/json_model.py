"""``JsonTreeModel``: the read-only Qt item model of every JSON tree (Key / Value / Type / Size columns).

Its rows are ``JsonNode``s from one ``JsonSource`` (``inspector.content.jsontree``): a parsed value
(``JsonTreeModel(value)``, the viewers) or a payload text scanned lazily (``JsonTreeModel(driver=...)``, the
message log, for payloads too big to parse). Children are enumerated ``BATCH`` at a time through
``canFetchMore``/``fetchMore``; a parsed value's first batch is there unasked. For a scanned text the bracket
scan that finds the ends of big containers runs in time slices driven by ``JsonScanDriver``, and a node waiting
for it (``pending``) is resumed as soon as the scan passes the child it waits on. Paths can be marked as
erroneous (e.g. outputSchema violations): those rows are painted in the error colour, the messages in the
tooltip.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont

from inspector.content.jsonscan import JsonSyntaxError, LazyJson
from inspector.content.jsontree import JsonNode, JsonSource, ParsedJson
from inspector.content.text import shorten
from inspector.protocol.jsonpath import JsonPath, format_path
from inspector.protocol.sizes import format_size
from inspector.ui.widgets.style import DARK, LIGHT, tones

__all__ = ["JsonScanDriver", "JsonTreeModel"]

SLICE: Final = 0.012
"""Seconds of work per turn of the event loop."""
_Index = QModelIndex | QPersistentModelIndex


class JsonScanDriver(QObject):
    """Runs ``LazyJson.scan`` in slices on the GUI thread; shared by every view of one document."""

    progressed = Signal(float)
    finished = Signal()

    def __init__(self, doc: LazyJson, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._step)

    def start(self) -> None:
        if not self.doc.scan_done:
            self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def _step(self) -> None:
        done = self.doc.scan(time.perf_counter() + SLICE)
        self.progressed.emit(self.doc.progress())
        if done:
            self._timer.stop()
            self.finished.emit()


class JsonTreeModel(QAbstractItemModel):
    """Rows are object members / array items.

    Over a parsed value, the root container's children are the top-level rows and a scalar root is one row
    labelled ``(value)``. Over a scanned text, the one top-level row is the document's root (``root_index``;
    views show its children). ``PATH_ROLE`` gives a row's JSONPath (``$.a[0]``), ``VALUE_ROLE`` its Python value.
    """

    KEY_COLUMN = 0
    VALUE_COLUMN = 1
    TYPE_COLUMN = 2
    SIZE_COLUMN = 3
    PATH_ROLE = Qt.ItemDataRole.UserRole + 1
    VALUE_ROLE = Qt.ItemDataRole.UserRole + 2
    HEADERS = ("Key", "Value", "Type", "Size")
    BATCH = 200
    """Rows of one container enumerated at a time."""

    failed = Signal(str)
    """The scanned payload is not well-formed JSON."""

    def __init__(
        self,
        value: Any = None,
        parent: QObject | None = None,
        *,
        dark: bool | None = None,
        driver: JsonScanDriver | None = None,
    ) -> None:
        super().__init__(parent)
        self._dark = dark
        """None: the application's theme when painted (a theme change recolours the open trees)."""
        self.driver = driver
        self._errors: dict[str, list[str]] = {}
        self._waiting: set[JsonNode] = set()
        self._inserting = False
        self._source: JsonSource
        self._previous: JsonSource | None = None
        self._top: JsonNode
        if driver is not None:
            self._use(driver.doc)
            driver.progressed.connect(self._resume_waiting)
            driver.finished.connect(self._resume_waiting)
        else:
            self._use(ParsedJson(value))

    def _use(self, source: JsonSource) -> None:
        self._source = source
        root = source.root
        if root.is_container and source.cheap:
            self._top = root
        else:  # a holder whose one child is the root
            self._top = JsonNode(None, 0, None, -1, "array")
            self._top.children.append(root)
            self._top.complete = True
            root.parent = self._top

    # --- public API -----------------------------------------------------------------------------------------

    @property
    def doc(self) -> LazyJson:
        """The scanned document (only for a model made with a ``driver``)."""
        assert self.driver is not None, "a model over a parsed value has no scanned document"
        return self.driver.doc

    def set_value(self, value: Any) -> None:
        """Show another parsed value."""
        self.beginResetModel()
        self._waiting.clear()
        self._previous = self._source  # the old nodes outlive any index a view still holds during the reset
        self._use(ParsedJson(value))
        self.endResetModel()

    def value(self) -> Any:
        """The parsed value shown (None for a scanned text)."""
        return self._source.root.value

    def set_error_paths(self, errors: dict[str, list[str]]) -> None:
        """Mark rows whose path is a key of ``errors`` (messages shown in their tooltip)."""
        self._errors = {path: list(messages) for path, messages in errors.items()}
        if self.rowCount() > 0:
            last = self.index(self.rowCount() - 1, self.columnCount() - 1)
            self.dataChanged.emit(self.index(0, 0), last)
            self._emit_changed_below(QModelIndex())

    def error_paths(self) -> dict[str, list[str]]:
        return dict(self._errors)

    def node(self, index: _Index) -> JsonNode:
        """The node behind an index (the invisible top for an invalid one)."""
        if not index.isValid():
            return self._top
        node = index.internalPointer()
        assert isinstance(node, JsonNode)
        return node

    def root_index(self) -> QModelIndex:
        """The index whose children are the document's top value's members (invalid when those are top rows)."""
        root = self._source.root
        return QModelIndex() if root is self._top else self.index(0, 0)

    def index_of(self, node: JsonNode) -> QModelIndex:
        if node is self._top:
            return QModelIndex()
        return self.createIndex(node.row, 0, node)

    def fetch_all_until(self, node: JsonNode, predicate: Callable[[JsonNode], bool], budget: float = 0.05) -> bool:
        """Enumerate children of ``node`` until one satisfies ``predicate`` (within ``budget`` seconds)."""
        deadline = time.perf_counter() + budget
        self._first_batch(node)
        while not any(predicate(c) for c in node.children):
            if node.complete or node.pending is not None or time.perf_counter() > deadline:
                return False
            self._fetch(node, self.BATCH, deadline)
        return True

    def index_for_path(self, path: JsonPath) -> tuple[QModelIndex, JsonPath]:
        """The deepest node on ``path`` that can be reached now, and the part of the path it covers."""
        node = self._source.root
        reached: list[str | int] = []
        for part in path:
            if not node.is_container:
                break
            self.fetch_all_until(node, lambda c, p=part: c.key == p)  # type: ignore[misc]
            found = next((c for c in node.children if c.key == part), None)
            if found is None:
                break
            node = found
            reached.append(part)
        return self.index_of(node), tuple(reached)

    # --- enumeration ----------------------------------------------------------------------------------------

    def _first_batch(self, node: JsonNode) -> None:
        """A cheap source's first batch, made before anyone has seen the node's row count (so no signals)."""
        if self._source.cheap and not node.children and not node.complete:
            self._source.expand(node, self.BATCH)

    def _fetch(self, node: JsonNode, limit: int, deadline: float | None) -> None:
        if node.complete or self._inserting:
            return
        was_pending = node.pending
        before = len(node.children)
        try:
            new = self._source.expand(node, limit, deadline)
        except JsonSyntaxError as exc:
            node.complete = True
            node.pending = None
            self._waiting.discard(node)
            if self.driver is not None:
                self.doc.error = self.doc.error or str(exc)
            self.failed.emit(str(exc))
            return
        if new:
            # expand() appended them already: take them back to announce the insertion properly.
            del node.children[before:]
            self._inserting = True
            try:
                self.beginInsertRows(self.index_of(node), before, before + len(new) - 1)
                node.children.extend(new)
                self.endInsertRows()
            finally:
                self._inserting = False
        if node.pending is not None:
            self._waiting.add(node)
        else:
            self._waiting.discard(node)
        changed = [n for n in (was_pending, node if node.complete else None) if n is not None]
        for n in changed:
            if n is not self._top:
                self.dataChanged.emit(self.createIndex(n.row, 1, n), self.createIndex(n.row, self.SIZE_COLUMN, n))

    def _resume_waiting(self, *_: object) -> None:
        if self.driver is None:
            return
        doc = self.doc
        for node in list(self._waiting):
            pending = node.pending
            if pending is None:
                self._waiting.discard(node)
            elif pending.start in doc.big or doc.scan_done:
                self._fetch(node, self.BATCH, time.perf_counter() + SLICE)

    # --- Qt model API ---------------------------------------------------------------------------------------

    def index(self, row: int, column: int, parent: _Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if not 0 <= column < len(self.HEADERS) or (parent.isValid() and parent.column() != 0):
            return QModelIndex()
        node = self.node(parent)
        self._first_batch(node)
        if not 0 <= row < len(node.children):
            return QModelIndex()
        return self.createIndex(row, column, node.children[row])

    def parent(self, child: _Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not child.isValid():
            return QModelIndex()
        owner = self.node(child).parent
        if owner is None or owner is self._top:
            return QModelIndex()
        return self.createIndex(owner.row, 0, owner)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() and parent.column() != 0:
            return 0
        node = self.node(parent)
        self._first_batch(node)
        return len(node.children)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return len(self.HEADERS)

    def hasChildren(self, parent: _Index = QModelIndex()) -> bool:  # noqa: B008
        if parent.isValid() and parent.column() != 0:
            return False
        node = self.node(parent)
        return bool(node.children) or self._source.has_children(node)

    def canFetchMore(self, parent: _Index) -> bool:
        if parent.isValid() and parent.column() != 0:
            return False
        node = self.node(parent)
        self._first_batch(node)
        return node.is_container and not node.complete and node.pending is None and not self._inserting

    def fetchMore(self, parent: _Index) -> None:
        if not self.canFetchMore(parent):
            return
        self._fetch(self.node(parent), self.BATCH, time.perf_counter() + SLICE)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            if 0 <= section < len(self.HEADERS):
                return self.HEADERS[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node = self.node(index)
        column = index.column()
        errors = self._errors.get(format_path(node.path())) if self._errors else None
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.KEY_COLUMN:
                return node.key_label
            if column == self.VALUE_COLUMN:
                return self._source.summary(node)
            if column == self.TYPE_COLUMN:
                return node.type
            size = self._source.size(node)
            if size is not None:
                return format_size(size)
            return "…" if self.driver is not None else ""
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = format_path(node.path())
            if not node.is_container:
                shown = node.value if isinstance(node.value, str) else self._source.summary(node)
                tip += "\n" + shorten(shown, 2000)
            if errors:
                tip += "\n\n" + "\n".join(f"✗ {message}" for message in errors)
            return tip
        if role == Qt.ItemDataRole.ForegroundRole:
            t = tones() if self._dark is None else DARK if self._dark else LIGHT
            if errors:
                return QColor(t.error_fg)
            if column == self.VALUE_COLUMN:
                return QColor(t.json_tokens.get(node.type, t.json_tokens["null"]))
            if column in (self.TYPE_COLUMN, self.SIZE_COLUMN):
                return QColor(t.json_tokens["type"])
            return None
        if role == Qt.ItemDataRole.FontRole:
            if errors or (column == self.KEY_COLUMN and node.is_container):
                font = QFont()
                font.setBold(True)
                return font
            return None
        if role == Qt.ItemDataRole.TextAlignmentRole and column == self.SIZE_COLUMN:
            return Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        if role == self.PATH_ROLE:
            return format_path(node.path())
        if role == self.VALUE_ROLE:
            return self._source.value(node)
        return None

    def _emit_changed_below(self, parent: QModelIndex) -> None:
        for row in range(self.rowCount(parent)):
            child = self.index(row, 0, parent)
            count = self.rowCount(child)
            if count:
                self.dataChanged.emit(self.index(0, 0, child), self.index(count - 1, self.columnCount() - 1, child))
                self._emit_changed_below(child)
