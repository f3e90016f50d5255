"""The window's side of "Compare with…" and "Save snapshot…" (Connection menu), for the current tab.

The current tab's connection is always the *new* side; the other side (*old*) is another live connection or a
snapshot / recording file (:mod:`inspector.ui.regression.compare_sources`). Snapshots of live connections are
taken on the connection itself (its list requests show in its log); the classified changes are shown by
:class:`inspector.ui.regression.compare_view.CompareDialog`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QFileDialog, QWidget

from inspector.client.errors import ClientError
from inspector.regression.snapshot import SnapshotError, dump_snapshot, load_surface, take_snapshot
from inspector.ui.connection.controller import ConnectionState, live_connection
from inspector.ui.regression.compare_sources import CompareChooser
from inspector.ui.regression.compare_view import CompareDialog
from inspector.ui.window.connection_tab import ConnectionTab

__all__ = ["CompareHookup", "tab_snapshot"]


async def tab_snapshot(tab: ConnectionTab) -> dict[str, Any]:
    """The surface snapshot of the server behind ``tab`` (SnapshotError when it is not connected)."""
    conn = live_connection(tab.controller)
    if conn is None:
        raise SnapshotError(f"{tab.title} is not connected")
    try:
        return await take_snapshot(conn)
    except ClientError as exc:
        raise SnapshotError(f"{tab.title}: {exc}") from None


class CompareHookup(QObject):
    """Opens the chooser, takes the snapshots, opens the compare view; reports problems through ``show_error``."""

    def __init__(
        self,
        window: QWidget,
        current: Callable[[], ConnectionTab | None],
        tabs: Callable[[], list[ConnectionTab]],
        show_error: Callable[[str], None],
    ) -> None:
        super().__init__(window)
        self.window = window
        self._current = current
        self._tabs = tabs
        self._show_error = show_error
        self.chooser: CompareChooser | None = None
        self.dialogs: list[CompareDialog] = []
        self.task: asyncio.Task[Any] | None = None
        """The last snapshot work started (tests wait for it)."""
        self.saved: list[Path] = []

    # -- Compare with… ---------------------------------------------------------------------------------------

    def ask_compare(self) -> CompareChooser | None:
        tab = self._current()
        if tab is None:
            self._show_error("Compare with…: open a connection first.")
            return None
        others = [t for t in self._tabs() if t is not tab and t.controller.state is ConnectionState.CONNECTED]
        if self.chooser is not None:
            self.chooser.deleteLater()
        chooser = CompareChooser(tab.title, [t.title for t in others], self.window)
        chooser.liveChosen.connect(lambda index: self.compare_live(tab, others[index]))
        chooser.fileChosen.connect(lambda path: self.compare_file(tab, path))
        self.chooser = chooser
        chooser.open()
        return chooser

    def compare_live(self, tab: ConnectionTab, other: ConnectionTab) -> asyncio.Task[Any]:
        async def work() -> None:
            old = await tab_snapshot(other)
            new = await tab_snapshot(tab)
            self._show(old, new, other.title, tab.title)

        return self._spawn(work())

    def compare_file(self, tab: ConnectionTab, path: str) -> asyncio.Task[Any]:
        async def work() -> None:
            old = load_surface(path)
            new = await tab_snapshot(tab)
            self._show(old, new, Path(path).name, tab.title)

        return self._spawn(work())

    def _show(self, old: dict[str, Any], new: dict[str, Any], old_label: str, new_label: str) -> None:
        dialog = CompareDialog(old, new, old_label, new_label, self.window)
        dialog.destroyed.connect(lambda _obj=None, d=dialog: self._forget(d))
        self.dialogs.append(dialog)
        dialog.open()

    def _forget(self, dialog: CompareDialog) -> None:
        if dialog in self.dialogs:
            self.dialogs.remove(dialog)

    # -- Save snapshot… --------------------------------------------------------------------------------------

    def ask_save_snapshot(self) -> QFileDialog | None:
        tab = self._current()
        if tab is None:
            self._show_error("Save snapshot…: open a connection first.")
            return None
        name = "".join(c if c.isalnum() or c in "-_." else "-" for c in tab.title).strip("-") or "server"
        dialog = QFileDialog(self.window, "Save surface snapshot", str(Path.home() / f"{name}.snapshot.json"))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilters(["Snapshots (*.json)", "All files (*)"])
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(lambda path: self.save_snapshot(tab, path))
        dialog.open()
        return dialog

    def save_snapshot(self, tab: ConnectionTab, path: str) -> asyncio.Task[Any]:
        async def work() -> None:
            text = dump_snapshot(await tab_snapshot(tab))
            target = Path(path)
            try:
                target.write_text(text, encoding="utf-8")
            except OSError as exc:
                raise SnapshotError(f"cannot write {target}: {exc.strerror or exc}") from None
            self.saved.append(target)

        return self._spawn(work())

    # -- running ---------------------------------------------------------------------------------------------

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[Any]:
        async def guarded() -> None:
            try:
                await work
            except SnapshotError as exc:
                self._show_error(str(exc))

        self.task = asyncio.get_event_loop().create_task(guarded())
        return self.task
