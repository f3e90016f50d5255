"""The Explore area of a connection tab: Tools, Resources, Prompts, Utilities and Tasks, as inner tabs.

``Explore`` is the one place that decides which panel shows each feature. Every panel is an ``ExplorePanel``
(``inspector.ui.explore.common.panel``): built as ``Panel(controller, parent=None, *, options)``, with the hooks
``on_state``, ``on_notification`` and ``shutdown`` and the content signals ``readResourceRequested``,
``openUrlRequested`` and ``openFileRequested``. The connection tab wires them (``ConnectionTab._wire``), to the
controller and to this area's content actions (``open_resource``, ``open_url``, ``open_file``).

The area owns the tab's ``TaskBook`` (``task_book``): the Tools panel's "Run as task" calls go there and the Tasks
panel lists them, so tasks outlive switching panels and stay listed for the session.

Tabs are gated on the server's capabilities (tools, resources, prompts) each time it connects (``apply_gates``).
After the overview's bypassing refresh, ``show_fresh(methods)`` has the panels of those lists list again at once.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtWidgets import QTabWidget

from inspector.ui.connection.controller import ConnectionController, ConnectionState
from inspector.ui.explore.common.gating import capability_gap, gate_tab
from inspector.ui.explore.common.panel import ExplorePanel
from inspector.ui.explore.common.task_book import TaskBook
from inspector.ui.explore.prompts.panel import PromptsPanel
from inspector.ui.explore.resources.panel import ResourcesPanel
from inspector.ui.explore.tasks.panel import TasksPanel
from inspector.ui.explore.tools.panel import ToolsPanel
from inspector.ui.explore.utilities.panel import UtilitiesPanel
from inspector.ui.viewers import open_local_file
from inspector.ui.widgets.desktop import open_web_url

__all__ = ["TAB_CAPABILITIES", "Explore"]

TAB_CAPABILITIES: Final[dict[str, str | None]] = {
    "Tools": "tools",
    "Resources": "resources",
    "Prompts": "prompts",
    "Utilities": None,
    "Tasks": None,
}


class Explore:
    """Builds the explore panels, adds them to a connection tab's inner tabs, gates them, and carries out their
    content actions."""

    def __init__(self, controller: ConnectionController, server_key: str) -> None:
        self.controller = controller
        self.task_book = TaskBook(controller)
        self.tools = ToolsPanel(controller, server_key=server_key, task_book=self.task_book)
        self.resources = ResourcesPanel(controller)
        self.prompts = PromptsPanel(controller)
        self.utilities = UtilitiesPanel(controller)
        self.tasks = TasksPanel(controller, book=self.task_book)
        self.panels: dict[str, ExplorePanel] = {
            "Tools": self.tools,
            "Resources": self.resources,
            "Prompts": self.prompts,
            "Utilities": self.utilities,
            "Tasks": self.tasks,
        }
        self.tabs: QTabWidget | None = None

    def add_to(self, tabs: QTabWidget, index: int) -> None:
        """Insert the panels as tabs starting at ``index``."""
        self.tabs = tabs
        for offset, (title, panel) in enumerate(self.panels.items()):
            tabs.insertTab(index + offset, panel, title)

    def apply_gates(self, state: ConnectionState | None = None) -> None:
        """Tabs of capabilities the (newly) connected server did not declare are disabled, with the reason."""
        if self.tabs is None:
            return
        state = self.controller.state if state is None else state
        if state is not ConnectionState.CONNECTED and state is not ConnectionState.IDLE:
            return  # keep what the last connection declared until the next one says otherwise
        for title, panel in self.panels.items():
            capability = TAB_CAPABILITIES[title]
            reason = None
            if capability is not None and state is ConnectionState.CONNECTED:
                reason = capability_gap(self.controller.server, capability)
            gate_tab(self.tabs, panel, reason)

    def show_fresh(self, methods: list[str]) -> None:
        """The overview's "Refresh (bypass cache)" asked the server again for ``methods``: the panels that list
        them list again at once, from the results just cached (no request is sent for those)."""
        asked = set(methods)
        if "tools/list" in asked:
            self.tools.refresh("fresh")
        if "prompts/list" in asked:
            self.prompts.refresh("fresh")
        if asked & {"resources/list", "resources/templates/list"}:
            self.resources.refresh()

    # -- content actions (the panels' signals, wired by the connection tab) ------------------------------

    def open_resource(self, uri: str) -> None:
        """A resource link was clicked: the Resources panel shows and reads it."""
        if self.tabs is not None:
            self.tabs.setCurrentWidget(self.resources)
        self.resources.open_resource(uri)

    @staticmethod
    def open_url(url: str) -> None:
        open_web_url(url)  # http/https only

    @staticmethod
    def open_file(path: str) -> None:
        open_local_file(path)

    def shutdown(self) -> None:
        for panel in self.panels.values():
            panel.shutdown()
