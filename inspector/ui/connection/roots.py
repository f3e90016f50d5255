"""Roots: an editor (folder picker -> ``file://`` URI, names) and a per-connection panel that keeps it live.

``RootsEditor`` is a plain editor (usable in the profile dialog too): ``roots()`` / ``set_roots()``, ``edited``.
``ConnectionRootsPanel(controller)`` edits the roots a connection answers ``roots/list`` with; after each edit
(debounced), when connected and ``roots.listChanged`` was declared, it sends
``notifications/roots/list_changed`` so the server asks again. ``rootsEdited(list[Root])`` lets the window save
the new list to the profile.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.client.errors import ClientError
from inspector.protocol.capabilities import has_capability
from inspector.store.profiles.sections import Root
from inspector.ui.connection.controller import ConnectionController, ConnectionState, live_connection
from inspector.ui.widgets.theme import themed_style
from inspector.ui.widgets.timers import coalescer

__all__ = ["ConnectionRootsPanel", "RootsEditor", "RootsHolder", "folder_root"]


@runtime_checkable
class RootsHolder(Protocol):
    """Request handlers that answer ``roots/list`` from a list this panel edits (the window's handlers do)."""

    roots: list[dict[str, Any]]

    def set_roots(self, roots: Sequence[dict[str, Any]]) -> None: ...


def folder_root(path: str | Path) -> Root:
    """A root for a local folder: its ``file://`` URI and its name."""
    folder = Path(path).expanduser().resolve()
    return Root(uri=folder.as_uri(), name=folder.name or str(folder))


class RootsEditor(QWidget):
    """URI / name rows; ``add_folder_button`` opens a folder picker (``add_folder(path)`` is what it calls)."""

    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = QTableWidget(0, 2, self)
        self.table.setAccessibleName("Roots")
        self.table.setHorizontalHeaderLabels(["URI", "Name"])
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        self.table.setColumnWidth(1, 180)
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.add_folder_button = QPushButton("Add folder…", self)
        self.add_folder_button.setToolTip("Pick a local folder; it is offered as a file:// root")
        self.add_uri_button = QPushButton("Add URI", self)
        self.remove_button = QPushButton("Remove", self)
        self.folder_dialog: QFileDialog | None = None
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_folder_button)
        buttons.addWidget(self.add_uri_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        self.add_folder_button.clicked.connect(self.choose_folder)
        self.add_uri_button.clicked.connect(self._add_uri)
        self.remove_button.clicked.connect(self.remove_selected)
        self.table.itemChanged.connect(lambda _item: self.edited.emit())

    def roots(self) -> list[Root]:
        result: list[Root] = []
        for row in range(self.table.rowCount()):
            uri_item, name_item = self.table.item(row, 0), self.table.item(row, 1)
            uri = uri_item.text().strip() if uri_item else ""
            name = name_item.text().strip() if name_item else ""
            if uri:
                result.append(Root(uri=uri, name=name or None))
        return result

    def set_roots(self, roots: list[Root]) -> None:
        self.table.blockSignals(True)
        self.table.setRowCount(0)
        for root in roots:
            self._append(root.uri, root.name or "")
        self.table.blockSignals(False)

    def _append(self, uri: str, name: str) -> int:
        row = self.table.rowCount()
        self.table.insertRow(row)
        self.table.setItem(row, 0, QTableWidgetItem(uri))
        self.table.setItem(row, 1, QTableWidgetItem(name))
        return row

    def add_root(self, root: Root) -> None:
        self.table.blockSignals(True)
        self._append(root.uri, root.name or "")
        self.table.blockSignals(False)
        self.edited.emit()

    def add_folder(self, path: str) -> Root:
        root = folder_root(path)
        self.add_root(root)
        return root

    def choose_folder(self) -> QFileDialog:
        dialog = QFileDialog(self, "Add a folder as a root", str(Path.home()))
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(self.add_folder)
        self.folder_dialog = dialog
        dialog.open()
        return dialog

    def _add_uri(self) -> None:
        self.table.blockSignals(True)
        row = self._append("file:///", "")
        self.table.blockSignals(False)
        self.table.setCurrentCell(row, 0)
        item = self.table.item(row, 0)
        if item is not None:
            self.table.editItem(item)

    def remove_selected(self) -> None:
        rows = sorted({index.row() for index in self.table.selectedIndexes()}, reverse=True)
        if not rows and self.table.currentRow() >= 0:
            rows = [self.table.currentRow()]
        for row in rows:
            self.table.removeRow(row)
        if rows:
            self.edited.emit()


class ConnectionRootsPanel(QWidget):
    """The roots one connection offers, editable while connected (see the module docstring)."""

    rootsEdited = Signal(list)
    APPLY_DELAY_MS = 300

    def __init__(self, controller: ConnectionController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.notifications_sent = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self.intro = QLabel(self)
        self.intro.setWordWrap(True)
        self.set_saved(True)
        self.editor = RootsEditor(self)
        self.status_label = QLabel(self)
        self.status_label.setWordWrap(True)
        themed_style(self.status_label, lambda t: f"color: {t.muted};")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.intro)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.status_label)
        self._timer = coalescer(self, self.APPLY_DELAY_MS, self.apply)
        self.editor.edited.connect(self._timer.start)
        self.editor.set_roots(self._current_roots())
        self._update_status()

    def set_saved(self, saved: bool) -> None:
        """Whether edits are saved with the profile (``rootsEdited`` is saved by the window) or kept for this
        session only (a built-in profile that is never saved)."""
        where = "and are saved with the profile" if saved else "for this session only (this profile is not saved)"
        self.intro.setText(
            f"The folders and URIs this connection offers the server through roots/list. Edits apply at once {where}."
        )

    def handlers(self) -> RootsHolder | None:
        c = self.controller
        found = c.connection.handlers if c.connection is not None else c.settings.handlers
        return found if isinstance(found, RootsHolder) else None

    def _current_roots(self) -> list[Root]:
        h = self.handlers()
        raw = h.roots if h is not None else []
        return [Root(uri=str(r.get("uri", "")), name=r.get("name")) for r in raw if isinstance(r, dict)]

    def list_changed_declared(self) -> bool:
        return has_capability(self.controller.settings.capabilities, "roots.listChanged")

    def apply(self) -> None:
        """Answer roots/list from the edited list from now on, and tell the server when it may listen."""
        self._timer.stop()
        roots = self.editor.roots()
        payload: list[dict[str, Any]] = [{"uri": r.uri, **({"name": r.name} if r.name else {})} for r in roots]
        targets = {id(h): h for h in (self.handlers(), self._settings_handlers()) if h is not None}
        for handlers in targets.values():
            handlers.set_roots(payload)
        self.rootsEdited.emit(roots)
        if live_connection(self.controller) is not None and self.list_changed_declared():
            task = asyncio.get_event_loop().create_task(self._notify())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        else:
            self._update_status()

    def _settings_handlers(self) -> RootsHolder | None:
        found = self.controller.settings.handlers
        return found if isinstance(found, RootsHolder) else None

    async def _notify(self) -> None:
        conn = live_connection(self.controller)
        if conn is None:
            return
        try:
            await conn.send_roots_list_changed()
        except ClientError as exc:
            self.status_label.setText(f"Could not send notifications/roots/list_changed: {exc}")
            return
        self.notifications_sent += 1
        stamp = time.strftime("%H:%M:%S")
        self.status_label.setText(f"Sent notifications/roots/list_changed at {stamp}; the server may ask again.")

    def on_state(self, _state: ConnectionState) -> None:
        """The controller's ``stateChanged`` (wired by the connection tab)."""
        self._update_status()

    def _update_status(self) -> None:
        connected = live_connection(self.controller) is not None
        if not self.list_changed_declared():
            text = (
                "roots.listChanged is not declared: the server only sees edits when it sends roots/list again."
                if connected
                else "roots.listChanged is not declared in this profile's capabilities."
            )
        elif connected:
            text = "Edits are announced to the server with notifications/roots/list_changed."
        else:
            text = "Not connected: edits are used from the next connection on."
        self.status_label.setText(text)
