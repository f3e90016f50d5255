"""The one banner for a server's JSON-RPC error, wherever a request can get one (a tool call, a prompt, a resource
read): the code and its name as the title, the server's message, what the code means read from its ``data``
(-32020 / -32021 / -32022 and the other codes with an MCP meaning, ``inspector.protocol.error_codes``), the data
itself, and a "Retry after re-listing" button where listing again can help (a -32020 on ``tools/call``)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QPushButton, QWidget

from inspector.protocol.error_codes import error_heading, explanation_lines, relisting_helps
from inspector.ui.widgets.banner import Banner

__all__ = ["RemoteErrorBanner"]

RELIST_TIP = (
    "List the tools again (bypassing the cache: their x-mcp-header annotations may have changed) "
    "and call the tool once more"
)


class RemoteErrorBanner(Banner):
    """``code``/``message``/``data``: the error as the server sent it; ``method``: the request it answered.

    ``with_data=False`` leaves the data out (for a view that shows it in full itself); ``extra`` lines go last.
    """

    retryAfterRelistingRequested = Signal()
    """The "Retry after re-listing" button was clicked (shown only where :func:`relisting_helps`)."""

    def __init__(
        self,
        code: int | None,
        message: str,
        data: Any,
        method: str | None,
        parent: QWidget | None = None,
        *,
        tone: str = "error",
        with_data: bool = True,
        extra: list[str] | None = None,
    ) -> None:
        lines = [message or "(no message)", *explanation_lines(code, message, data, method, with_data=with_data)]
        super().__init__(tone, error_heading(code), [*lines, *(extra or [])], parent)
        self.code = code
        self.data = data
        self.retry_relisting_button: QPushButton | None = None
        if relisting_helps(code, method):
            self.retry_relisting_button = QPushButton("Retry after re-listing", self)
            self.retry_relisting_button.setToolTip(RELIST_TIP)
            self.retry_relisting_button.clicked.connect(self.retryAfterRelistingRequested)
            self.body.addWidget(self.retry_relisting_button, 0, Qt.AlignmentFlag.AlignLeft)
