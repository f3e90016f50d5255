"""The Prompts panel: the server's prompts beside the selected prompt's page (argument form with completion,
"Get", chat transcript). Refresh, gating and pages: ``CatalogPanel``; completion is gated separately on the
``completions`` capability (``method_gap``: the engine's rule for completion/complete)."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from inspector.client.connection import Connection
from inspector.content.catalog import CatalogEntry, parse_prompts
from inspector.ui.connection.controller import ConnectionController
from inspector.ui.explore.catalog.panel import CatalogPanel
from inspector.ui.explore.catalog.split_memory import SplitMemory
from inspector.ui.explore.common.gating import method_gap
from inspector.ui.explore.common.panel_tasks import live_connection
from inspector.ui.explore.prompts.page import PromptPage

__all__ = ["PromptsPanel"]


class PromptsPanel(CatalogPanel[PromptPage]):
    noun = "prompt"
    capability = "prompts"
    list_changed = "notifications/prompts/list_changed"

    def __init__(self, controller: ConnectionController, parent: QWidget | None = None) -> None:
        self.result_split = SplitMemory()
        """The form/transcript split the user dragged on any prompt's page (the connection tab saves it)."""
        super().__init__(controller, parent)

    async def fetch(self, connection: Connection) -> list[CatalogEntry]:
        result = await connection.list_prompts()
        return parse_prompts(result.get("prompts") if isinstance(result, dict) else None)

    def make_page(self, entry: CatalogEntry) -> PromptPage:
        page = PromptPage(entry, self._connection, self.stack, split=self.result_split)
        page.saveRequested.connect(self.saveCallRequested)
        return page

    def gate_page(self, page: PromptPage) -> None:
        page.set_unavailable(self.gate, self.completion_gap())

    def completion_gap(self) -> str | None:
        """Why argument autocomplete is off (None: on)."""
        return method_gap(self.controller.server, "completion/complete")

    def select_prompt(self, name: str) -> PromptPage | None:
        return self.select(name)

    def _connection(self) -> Connection | None:
        return live_connection(self.controller)
