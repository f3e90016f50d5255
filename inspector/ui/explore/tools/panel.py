"""The Tools panel: the server's tools (searchable, with annotation badges and ``data:`` icons) beside the
selected tool's page (form, argument history, Run, result). Refresh, gating and pages: ``CatalogPanel``.

The argument history is per server (``server_key``, the profile id) and per tool, in the config dir.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QWidget

from inspector.client.connection import Connection
from inspector.content.catalog import CatalogEntry, parse_tools
from inspector.store.history import ArgumentHistory
from inspector.ui.connection.controller import ConnectionController
from inspector.ui.explore.catalog.panel import CatalogPanel
from inspector.ui.explore.catalog.split_memory import SplitMemory
from inspector.ui.explore.common.panel_tasks import live_connection
from inspector.ui.explore.tools.page import ToolPage

__all__ = ["ToolsPanel"]


class ToolsPanel(CatalogPanel[ToolPage]):
    noun = "tool"
    capability = "tools"
    list_changed = "notifications/tools/list_changed"

    def __init__(
        self,
        controller: ConnectionController,
        parent: QWidget | None = None,
        *,
        server_key: str,
        history_dir: Path | None = None,
    ) -> None:
        self.history = ArgumentHistory(server_key, history_dir)
        self.result_split = SplitMemory()
        """The form/result split the user dragged on any tool's page (the connection tab saves it)."""
        super().__init__(controller, parent)

    async def fetch(self, connection: Connection) -> list[CatalogEntry]:
        result = await connection.list_tools()
        return parse_tools(result.get("tools") if isinstance(result, dict) else None)

    def make_page(self, entry: CatalogEntry) -> ToolPage:
        return ToolPage(
            entry,
            self.history,
            self._call_context,
            self.stack,
            explain_url_required=lambda: self.controller.settings.explain_url_required,
            split=self.result_split,
        )

    def gate_page(self, page: ToolPage) -> None:
        page.set_unavailable(self.gate)

    def select_tool(self, name: str) -> ToolPage | None:
        return self.select(name)

    def _call_context(self) -> tuple[Connection | None, float | None]:
        return live_connection(self.controller), self.controller.settings.timeouts.request
