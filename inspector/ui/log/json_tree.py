"""A lazy tree model over a ``LazyJson`` document, for payloads too big to show as text.

Children are enumerated when a node is expanded (``fetchMore``), ``BATCH`` at a time; scrolling to
the end of an expanded node fetches the next batch. The bracket scan that finds the ends of big
containers runs in time slices driven by ``JsonScanDriver``; a node waiting for it (``pending``)
is resumed as soon as the scan passes the child it waits on.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase

from inspector.content.format import human_size
from inspector.content.jsonscan import JsonNode, JsonSyntaxError, LazyJson
from inspector.content.jsontext import JsonPath, format_path
from inspector.ui.log.palette import kind_colour

__all__ = ["BATCH", "JsonScanDriver", "JsonTreeModel"]

BATCH: Final = 200
SLICE: Final = 0.012
"""Seconds of work per turn of the event loop."""
_Index = QModelIndex | QPersistentModelIndex
_TYPE_KIND: Final = {"string": "response", "number": "invalid", "boolean": "notification", "null": "notification"}


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
    """Key | Value | Size rows of a lazily enumerated JSON document."""

    failed = Signal(str)
    """The payload is not well-formed JSON."""

    def __init__(self, driver: JsonScanDriver, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.driver = driver
        self.doc = driver.doc
        self._top = JsonNode(None, 0, None, -1, "object")
        self._top.children.append(self.doc.root)
        self._top.complete = True
        self.doc.root.parent = self._top
        self._waiting: set[JsonNode] = set()
        self._inserting = False
        self._mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        driver.progressed.connect(self._resume_waiting)
        driver.finished.connect(self._resume_waiting)

    # ------------------------------------------------------------------ helpers

    def node(self, index: _Index) -> JsonNode:
        if not index.isValid():
            return self._top
        node = index.internalPointer()
        assert isinstance(node, JsonNode)
        return node

    def root_index(self) -> QModelIndex:
        """The document's top value (views show its children)."""
        return self.index(0, 0)

    def index_of(self, node: JsonNode) -> QModelIndex:
        if node is self._top:
            return QModelIndex()
        return self.createIndex(node.row, 0, node)

    def _fetch(self, node: JsonNode, limit: int, deadline: float | None) -> None:
        if node.complete or self._inserting:
            return
        was_pending = node.pending
        before = len(node.children)
        try:
            new = self.doc.expand(node, limit, deadline)
        except JsonSyntaxError as exc:
            node.complete = True
            node.pending = None
            self._waiting.discard(node)
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
            if n.parent is not None:
                self.dataChanged.emit(self.createIndex(n.row, 1, n), self.createIndex(n.row, 2, n))

    def _resume_waiting(self, *_: object) -> None:
        for node in list(self._waiting):
            pending = node.pending
            if pending is None:
                self._waiting.discard(node)
            elif pending.start in self.doc.big or self.doc.scan_done:
                self._fetch(node, BATCH, time.perf_counter() + SLICE)

    def fetch_all_until(self, node: JsonNode, predicate: Callable[[JsonNode], bool], budget: float = 0.05) -> bool:
        """Enumerate children of ``node`` until one satisfies ``predicate`` (within ``budget`` seconds)."""
        deadline = time.perf_counter() + budget
        while not any(predicate(c) for c in node.children):
            if node.complete or node.pending is not None or time.perf_counter() > deadline:
                return False
            self._fetch(node, BATCH, deadline)
        return True

    def index_for_path(self, path: JsonPath) -> tuple[QModelIndex, JsonPath]:
        """The deepest node on ``path`` that can be reached now, and the part of the path it covers."""
        node = self.doc.root
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

    # ------------------------------------------------------------------ Qt model API

    def index(self, row: int, column: int, parent: _Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if column < 0 or column >= 3:
            return QModelIndex()
        node = self.node(parent)
        if not 0 <= row < len(node.children):
            return QModelIndex()
        return self.createIndex(row, column, node.children[row])

    def parent(self, index: _Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid():
            return QModelIndex()
        parent = self.node(index).parent
        if parent is None or parent is self._top:
            return QModelIndex()
        return self.createIndex(parent.row, 0, parent)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self.node(parent).children)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 3

    def hasChildren(self, parent: _Index = QModelIndex()) -> bool:  # noqa: B008
        if parent.isValid() and parent.column() != 0:
            return False
        node = self.node(parent)
        return node is self._top or self.doc.has_children(node)

    def canFetchMore(self, parent: _Index) -> bool:
        if parent.isValid() and parent.column() != 0:
            return False
        node = self.node(parent)
        return node.is_container and not node.complete and node.pending is None and not self._inserting

    def fetchMore(self, parent: _Index) -> None:
        if parent.isValid() and parent.column() != 0:
            return
        self._fetch(self.node(parent), BATCH, time.perf_counter() + SLICE)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < 3:
            return ("Key", "Value", "Size")[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node = self.node(index)
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                if node.key is None:
                    return "$"
                return f"[{node.key}]" if isinstance(node.key, int) else node.key
            if col == 1:
                return self._value_text(node)
            return human_size(node.end - node.start) if node.end is not None else "…"
        if role == Qt.ItemDataRole.ToolTipRole:
            return format_path(node.path())
        if role == Qt.ItemDataRole.ForegroundRole and col == 1 and node.type in _TYPE_KIND:
            return kind_colour(_TYPE_KIND[node.type])
        if role == Qt.ItemDataRole.FontRole and col == 1:
            return self._mono
        if role == Qt.ItemDataRole.TextAlignmentRole and col == 2:
            return Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        return None

    def _value_text(self, node: JsonNode) -> str:
        if node.is_container and not node.children and not self.doc.has_children(node):
            return "{}" if node.type == "object" else "[]"
        n = len(node.children)
        if node.type == "object":
            if node.complete:
                return f"{{{n:,} key{'s' if n != 1 else ''}}}"
            return f"{{{n:,}+ keys…}}" if n else "{…}"
        if node.type == "array":
            if node.complete:
                return f"[{n:,} item{'s' if n != 1 else ''}]"
            return f"[{n:,}+ items…]" if n else "[…]"
        return self.doc.preview(node)
