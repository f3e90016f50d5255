"""The Explore area of a connection tab: Tools, Resources, Prompts and Utilities, as inner tabs.

The panel factories below are the one place that decides which widget shows each feature. Any panel may offer these
duck-typed hooks, which ``Explore`` wires for it (so plugging a panel in needs no other change):

* ``on_state(value: str)`` — the controller's ``stateChanged`` (re-evaluate gates, list again on connect);
* ``on_notification(event: NotificationReceived)`` — every server notification (list_changed, updates, logs);
* ``shutdown()`` — the tab is closing: cancel running work;
* signals ``readResourceRequested(str)``, ``openUrlRequested(str)``, ``openFileRequested(str)`` — content
  actions (a resource link clicked, a web link, a saved file to open);
* on the resources panel, ``open_resource(uri: str)`` — show and read that resource (a resource link clicked
  anywhere lands there; without it a small reader window shows the resource).

Tabs are gated on the server's capabilities (tools, resources, prompts) each time it connects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from inspector.client.errors import ClientError
from inspector.ui.connection.controller import ConnectionController, ConnectionState
from inspector.ui.explore.common.gating import capability_gap, gate_tab
from inspector.ui.explore.common.support import TaskSet, alive
from inspector.ui.explore.prompts.panel import PromptsPanel
from inspector.ui.explore.resources.panel import ResourcesPanel
from inspector.ui.explore.tools.panel import ToolsPanel
from inspector.ui.explore.utilities.panel import UtilitiesPanel
from inspector.ui.viewers import ResourceContentsView, open_local_file
from inspector.ui.widgets.desktop import open_web_url
from inspector.ui.widgets.style import Banner, monospace_font, tones

__all__ = [
    "Explore",
    "ResourceReader",
    "prompts_panel",
    "resources_panel",
    "tools_panel",
    "utilities_panel",
]

TAB_CAPABILITIES: Final[dict[str, str | None]] = {
    "Tools": "tools",
    "Resources": "resources",
    "Prompts": "prompts",
    "Utilities": None,
}
CONTENT_SIGNALS: Final = ("readResourceRequested", "openUrlRequested", "openFileRequested")


# -- factories (the lead points resources/utilities at the real panels) -------------------------------------


def tools_panel(controller: ConnectionController, server_key: str) -> ToolsPanel:
    return ToolsPanel(controller, server_key)


def prompts_panel(controller: ConnectionController) -> PromptsPanel:
    return PromptsPanel(controller)


def resources_panel(controller: ConnectionController) -> QWidget:
    """The Resources panel (resources, templates, reads, subscriptions)."""
    return ResourcesPanel(controller)


def utilities_panel(controller: ConnectionController) -> QWidget:
    """The Utilities panel (ping, logging level, server log)."""
    return UtilitiesPanel(controller)


def _open_url(url: str) -> None:
    open_web_url(url)  # http/https only


def _open_file(path: str) -> None:
    open_local_file(path)


# -- the area --------------------------------------------------------------------------------------------


class Explore:
    """Builds the explore panels, adds them to a connection tab's inner tabs, wires and gates them."""

    def __init__(self, controller: ConnectionController, server_key: str) -> None:
        self.controller = controller
        self.tools = tools_panel(controller, server_key)
        self.resources = resources_panel(controller)
        self.prompts = prompts_panel(controller)
        self.utilities = utilities_panel(controller)
        self.panels: dict[str, QWidget] = {
            "Tools": self.tools,
            "Resources": self.resources,
            "Prompts": self.prompts,
            "Utilities": self.utilities,
        }
        self.tabs: QTabWidget | None = None
        self.readers: list[ResourceReader] = []

    def add_to(self, tabs: QTabWidget, index: int) -> None:
        """Insert the panels as tabs starting at ``index``."""
        self.tabs = tabs
        for offset, (title, panel) in enumerate(self.panels.items()):
            tabs.insertTab(index + offset, panel, title)

    def wire(self) -> None:
        """Connect the controller's signals to each panel's hooks, and the content actions."""
        c = self.controller
        for panel in self.panels.values():
            hook: Any = getattr(panel, "on_state", None)
            if callable(hook):
                c.stateChanged.connect(hook)
            hook = getattr(panel, "on_notification", None)
            if callable(hook):
                c.notificationReceived.connect(hook)
            for name in CONTENT_SIGNALS:
                signal = getattr(panel, name, None)
                if signal is not None and hasattr(signal, "connect"):
                    signal.connect(self._content_slot(name))
        c.stateChanged.connect(self.apply_gates)

    def _content_slot(self, name: str) -> Callable[[str], None]:
        return {"readResourceRequested": self.open_resource, "openUrlRequested": _open_url,
                "openFileRequested": _open_file}[name]  # fmt: skip

    def apply_gates(self, value: str | None = None) -> None:
        """Tabs of capabilities the (newly) connected server did not declare are disabled, with the reason."""
        if self.tabs is None:
            return
        state = ConnectionState(value) if value is not None else self.controller.state
        if state is not ConnectionState.CONNECTED and state is not ConnectionState.IDLE:
            return  # keep what the last connection declared until the next one says otherwise
        for title, panel in self.panels.items():
            capability = TAB_CAPABILITIES[title]
            reason = None
            if capability is not None and state is ConnectionState.CONNECTED:
                reason = capability_gap(self.controller.server, capability)
            gate_tab(self.tabs, panel, reason)

    def open_resource(self, uri: str) -> None:
        """A resource link was clicked: the resources panel reads it, or a small reader window does."""
        opener: Any = getattr(self.resources, "open_resource", None)
        if callable(opener):
            if self.tabs is not None:
                self.tabs.setCurrentWidget(self.resources)
            opener(uri)
            return
        reader = ResourceReader(self.controller, uri)
        reader.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        reader.destroyed.connect(lambda _obj=None, r=reader: self.readers.remove(r) if r in self.readers else None)
        self.readers.append(reader)
        reader.show()

    def shutdown(self) -> None:
        for panel in self.panels.values():
            hook: Any = getattr(panel, "shutdown", None)
            if callable(hook):
                hook()
        for reader in list(self.readers):
            if alive(reader):
                reader.close()


class ResourceReader(QWidget):
    """A small window reading one resource (resources/read) and showing its contents."""

    finished = Signal(bool)

    def __init__(self, controller: ConnectionController, uri: str, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.uri = uri
        self.setWindowTitle(f"Resource — {uri}")
        self.resize(720, 520)
        self.uri_label = QLabel(uri, self)
        self.uri_label.setFont(monospace_font())
        self.uri_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status_label = QLabel("Reading…", self)
        self.status_label.setStyleSheet(f"color: {tones(self).muted};")
        self.view = ResourceContentsView(self)
        self.view.openUrlRequested.connect(open_web_url)
        self.view.openFileRequested.connect(open_local_file)
        self._layout = QVBoxLayout(self)
        self._layout.addWidget(self.uri_label)
        self._layout.addWidget(self.status_label)
        self._layout.addWidget(self.view, 1)
        self._tasks = TaskSet(lambda error: self._fail(f"internal error: {error}"))
        connection = controller.connection
        if connection is None or not connection.is_open:
            self._fail("not connected")
        elif capability_gap(controller.server, "resources") is not None:
            self._fail("the server did not declare the 'resources' capability")
        else:
            self._tasks.spawn(self._read(connection.read_resource(uri)))

    async def _read(self, pending: Any) -> None:
        try:
            result = await pending
        except ClientError as exc:
            self._fail(str(exc))
            return
        if alive(self):
            self.status_label.setText("resources/read")
            self.view.set_contents(result)
            self.finished.emit(True)

    def _fail(self, reason: str) -> None:
        if alive(self):
            self.status_label.hide()
            self._layout.insertWidget(1, Banner("error", "Could not read the resource", [reason], self))
            self.finished.emit(False)

    def closeEvent(self, event: Any) -> None:
        self._tasks.cancel_all()
        super().closeEvent(event)
