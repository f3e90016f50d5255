"""The HTTP exchange view's header check: the ``Mcp-*`` headers a request carried, each with a verdict against its body.

Shown in the log's detail pane above the payload, for an HTTP exchange row (a POST carrying a request) and for an
outgoing request row carried over HTTP (its POST). One line per header: the verdict (✓ pass, ✗ fail, · nothing to
check against), the header, the value sent, the value the body calls for, and the rule in words; the rules are
the engine's (:mod:`inspector.content.header_check` on :mod:`inspector.protocol.mcp_headers`). The tools'
``x-mcp-header`` annotations come from the ``tools/list`` answers recorded before the request.
"""

from __future__ import annotations

import json
from typing import Any, Final

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from inspector.content.header_check import HeaderVerdict, check_headers, tool_params_from_pages
from inspector.content.plural import plural
from inspector.protocol.mcp_headers import HeaderParams
from inspector.protocol.wire import Direction, Kind
from inspector.store.recording import RecordFilter, Recording, RecordRow
from inspector.ui.widgets.style import tones

__all__ = ["HttpHeaderVerdicts", "exchange_and_request"]

MAX_ROWS: Final = 8
_MARKS: Final = {"pass": "✓ pass", "fail": "✗ fail", "info": "· note"}
_TOOLS_LIST_LIMIT: Final = 2000


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def exchange_and_request(rec: Recording, row: RecordRow) -> tuple[dict[str, Any], RecordRow] | None:
    """(the exchange's JSON summary, the request row it carried) for an HTTP POST row or an outgoing request row
    sent over HTTP; None for anything else (or when the other half is not recorded)."""
    if row.kind is Kind.HTTP:
        summary = _loads(row.raw)
        if not isinstance(summary, dict) or summary.get("method") != "POST":
            return None
        for carried in summary.get("carried_ids") or []:
            found = rec.logical_request_for_id(carried)
            for round_ in found.rounds if found is not None else ():
                if round_.request_id == carried and round_.request_seq < row.seq:
                    request = rec.get(round_.request_seq)
                    if request is not None and request.kind is Kind.REQUEST and request.direction is Direction.OUT:
                        return summary, request
        return None
    if row.kind is not Kind.REQUEST or row.direction is not Direction.OUT:
        return None
    for seq in rec.exchanges_for(row.seq):
        exchange = rec.get(seq)
        summary = _loads(exchange.raw) if exchange is not None else None
        if isinstance(summary, dict) and summary.get("method") == "POST":
            return summary, row
    return None


def _tool_params(rec: Recording, before: int) -> dict[str, HeaderParams]:
    listed = rec.rows(RecordFilter(kinds=[Kind.RESPONSE.value], methods=["tools/list"]), 0, _TOOLS_LIST_LIMIT)
    pages = [_loads(r.raw) for r in listed if r.seq < before]
    return tool_params_from_pages(page.get("result") for page in pages if isinstance(page, dict))


def _pairs(summary: dict[str, Any]) -> list[tuple[str, str]]:
    pairs = summary.get("request_headers") or []
    return [(str(p[0]), str(p[1])) for p in pairs if isinstance(p, list | tuple) and len(p) == 2]


class HttpHeaderVerdicts(QWidget):
    """See the module docstring. ``verdicts`` holds what is shown (tests read it)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.verdicts: list[HeaderVerdict] = []
        self.title = QLabel(self)
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setContentsMargins(6, 2, 6, 0)
        self.tree = QTreeWidget(self)
        self.tree.setAccessibleName("HTTP headers")
        self.tree.setHeaderLabels(["Verdict", "Header", "Sent", "From the body", "Rule"])
        self.tree.setRootIsDecorated(False)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.tree.header().setStretchLastSection(True)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 2)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.tree)
        self.hide()

    def clear(self) -> None:
        self.verdicts = []
        self.tree.clear()
        self.hide()

    def show_row(self, rec: Recording | None, row: RecordRow | None) -> list[HeaderVerdict]:
        """Check the headers of ``row``'s POST (see :func:`exchange_and_request`); hidden when there is none."""
        self.clear()
        if rec is None or row is None or rec.closed:
            return []
        found = exchange_and_request(rec, row)
        if found is None:
            return []
        summary, request = found
        body = _loads(request.raw)
        method = body.get("method") if isinstance(body, dict) else None
        tools = _tool_params(rec, request.seq) if method == "tools/call" else None
        self.show_verdicts(check_headers(body, _pairs(summary), tools), request.seq)
        return self.verdicts

    def show_verdicts(self, verdicts: list[HeaderVerdict], request_seq: int | None = None) -> None:
        self.verdicts = list(verdicts)
        self.tree.clear()
        if not verdicts:
            self.hide()
            return
        for verdict in verdicts:
            item = QTreeWidgetItem(
                [
                    _MARKS[verdict.status],
                    verdict.header,
                    "(not sent)" if verdict.sent is None else verdict.sent,
                    "(none)" if verdict.expected is None else verdict.expected,
                    verdict.rule,
                ]
            )
            t = tones()
            colour = QColor({"pass": t.ok_fg, "fail": t.error_fg}.get(verdict.status, t.muted))
            item.setForeground(0, colour)
            if verdict.status == "fail":
                item.setForeground(4, colour)
            for column in range(5):
                item.setToolTip(column, f"{verdict.header}: {verdict.rule}")
            self.tree.addTopLevelItem(item)
        for column in range(4):
            self.tree.resizeColumnToContents(column)
            self.tree.setColumnWidth(column, min(self.tree.columnWidth(column), 260))
        failed = sum(1 for v in verdicts if v.status == "fail")
        passed = sum(1 for v in verdicts if v.status == "pass")
        noted = len(verdicts) - failed - passed
        parts = [plural(passed, "pass", "passes")] if passed else []
        if failed:
            parts.append(f'<span style="color:{tones().error_fg}">{plural(failed, "failure")}</span>')
        if noted:
            parts.append(f"{plural(noted, 'note')} (nothing to check against)")
        where = f" (request #{request_seq})" if request_seq is not None else ""
        self.title.setText(f"<b>Mcp-* headers checked against the body</b>{where}: " + ", ".join(parts))
        rows = min(MAX_ROWS, len(verdicts))
        height = self.tree.header().sizeHint().height() + rows * max(self.tree.sizeHintForRow(0), 1) + 6
        self.tree.setFixedHeight(height)
        self.show()
