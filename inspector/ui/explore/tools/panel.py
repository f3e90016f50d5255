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
from inspector.ui.explore.common.task_book import TaskBook
from inspector.ui.explore.tools.page import ToolPage

__all__ = ["ToolsPanel", "dropped_entries"]


def dropped_entries(connection: Connection, listed: set[str]) -> list[CatalogEntry]:
    """The tools the client left out of tools/list for an invalid ``x-mcp-header`` annotation (2026-07-28 over
    HTTP), as entries marked ``unavailable`` with the reason: the list shows them struck through, not hidden."""
    entries: list[CatalogEntry] = []
    for gone in connection.dropped_tools:
        if gone.name is None or gone.name in listed:
            continue
        for entry in parse_tools([gone.tool]):
            entry.unavailable = "dropped by the client: invalid x-mcp-header annotation: " + "; ".join(gone.problems)
            entries.append(entry)
    return entries


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
        task_book: TaskBook | None = None,
    ) -> None:
        self.history = ArgumentHistory(server_key, history_dir)
        self.task_book = task_book
        """Where "Run as task" calls go (the Explore area's, which its Tasks panel lists); None: no toggle."""
        self.result_split = SplitMemory()
        """The form/result split the user dragged on any tool's page (the connection tab saves it)."""
        super().__init__(controller, parent)

    async def fetch(self, connection: Connection) -> list[CatalogEntry]:
        result = await connection.list_tools()
        entries = parse_tools(result.get("tools") if isinstance(result, dict) else None)
        return entries + dropped_entries(connection, {entry.name for entry in entries})

    def make_page(self, entry: CatalogEntry) -> ToolPage:
        page = ToolPage(
            entry,
            self.history,
            self._call_context,
            self.stack,
            explain_url_required=lambda: self.controller.settings.explain_url_required,
            split=self.result_split,
            task_book=self.task_book,
        )
        page.relisted.connect(lambda: self.refresh("manual"))
        page.saveRequested.connect(self.saveCallRequested)
        return page

    def gate_page(self, page: ToolPage) -> None:
        page.set_unavailable(self.gate)

    def select_tool(self, name: str) -> ToolPage | None:
        return self.select(name)

    def _call_context(self) -> tuple[Connection | None, float | None]:
        return live_connection(self.controller), self.controller.settings.timeouts.request
