"""``ExplorePanel``: the one design every Explore panel (Tools, Prompts, Resources, Utilities) implements.

An abstract ``QWidget`` base (not a ``typing.Protocol``: the panels must be widgets, the content signals are Qt
signals that a Protocol cannot declare, and ``isinstance`` against the base is exact). Qt's metaclass does not mix
with ``abc.ABCMeta``, so the hooks raise ``NotImplementedError`` until a panel implements them.

* Construction: ``Panel(controller, parent=None, *, <panel-specific keyword-only options>)``. A panel only keeps
  the controller to *read* its plain state; it never connects to the controller's signals itself.
* Hooks, wired by the connection tab (``ConnectionTab._wire``, the one place a tab's signals are connected):
  ``on_state(state: ConnectionState)`` — the controller's ``stateChanged`` (re-gate; on connect, list again), also
  called once with the current state when wired; ``on_notification(event)`` — every server notification
  (list_changed, updates, log messages); ``shutdown()`` — the tab is closing: cancel running work.
* Signals for content actions, connected by the tab to the Explore area: ``readResourceRequested(uri)`` (a
  resource link was clicked), ``openUrlRequested(url)``, ``openFileRequested(path)``, ``saveCallRequested(method,
  params)`` ("Save to collection" on a page).

Whether there is a live connection is asked with ``panel_tasks.live_connection``; asyncio work goes through
``panel_tasks.PanelTasks``.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget

from inspector.protocol.events import NotificationReceived
from inspector.ui.connection.controller import ConnectionController, ConnectionState

__all__ = ["ExplorePanel"]


class ExplorePanel(QWidget):
    """Base of the Explore panels; see the module docstring."""

    readResourceRequested = Signal(str)
    openUrlRequested = Signal(str)
    openFileRequested = Signal(str)
    saveCallRequested = Signal(str, object)
    """"Save to collection": a request's method and params (a dict, or None), for the tab's Collections panel."""

    def __init__(self, controller: ConnectionController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller

    def on_state(self, state: ConnectionState) -> None:
        """The connection's state changed (or the panel was just wired): re-gate, list again on connect."""
        raise NotImplementedError

    def on_notification(self, event: NotificationReceived) -> None:
        """A server notification arrived."""
        raise NotImplementedError

    def shutdown(self) -> None:
        """The tab is closing: stop every request this panel started."""
        raise NotImplementedError
