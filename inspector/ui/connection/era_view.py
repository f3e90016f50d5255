"""The overview's era section: the era in use and why, ``supportedVersions``, the opening result (collapsible JSON),
and the 2026-07-28 result cache (``ttlMs`` / ``cacheScope``, age, expiry) with "Refresh (bypass cache)".

The cache rows tick once a second while the section shows a 2026-07-28 connection; Refresh asks the server again
for every cached result (the lists re-listed page by page from the start, reads re-read, ``server/discover`` asked
again) with ``fresh=True``, so the new answers replace the cached ones. ``cacheRefreshed(methods)`` then names the
methods asked again (the connection tab has the Explore panels re-list from the fresh cache at once).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any, Final

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.client.connection import Connection, ServerInfo
from inspector.client.errors import ClientError
from inspector.content.era_summary import EraSummary, cache_rows, summarize_era
from inspector.protocol.versions import Era, EraChoice
from inspector.ui.connection.controller import ConnectionController, live_connection
from inspector.ui.viewers.json_view import JsonTreeView
from inspector.ui.widgets.style import Tones, tone_colors, tones
from inspector.ui.widgets.theme import themed_style

__all__ = ["CACHE_HEADERS", "EraSection", "choice_of_reason"]

CACHE_HEADERS: Final = ("Method", "Params", "ttlMs", "cacheScope", "Age", "Expires")
TICK_MS: Final = 1000
_REFRESH_TIP: Final = "Ask the server again for every cached result, bypassing the cache (the new answers are cached)"
_NO_CACHE: Final = "Results are not cached in the handshake era: ttlMs and cacheScope are 2026-07-28's."


def choice_of_reason(era_reason: str) -> EraChoice:
    """The era choice a ``ServerInfo.era_reason`` names (it starts with what was asked for); auto when unclear."""
    head = era_reason.split(" ", 1)[0].rstrip(":")
    return EraChoice(head) if head in {choice.value for choice in EraChoice} else EraChoice.AUTO


def _refresher(conn: Connection, method: str, params: dict[str, Any]) -> Callable[[], Coroutine[Any, Any, Any]] | None:
    """What asks the server again for one cached result, bypassing the cache (None: a method we do not re-ask)."""
    lists: dict[str, Callable[..., Coroutine[Any, Any, Any]]] = {
        "tools/list": conn.list_tools,
        "prompts/list": conn.list_prompts,
        "resources/list": conn.list_resources,
        "resources/templates/list": conn.list_resource_templates,
        "server/discover": conn.discover,
    }
    if method in lists:
        return lambda: lists[method](fresh=True)
    uri = params.get("uri")
    if method == "resources/read" and isinstance(uri, str):
        return lambda: conn.read_resource(uri, fresh=True)
    return None


class EraSection(QWidget):
    """See the module's docstring. ``show_server`` fills it; ``clear`` stops it (not connected)."""

    cacheRefreshed = Signal(list)
    """A bypassing refresh asked the server again: the methods (``tools/list``, ...) whose answers are fresh now
    (emitted after a partial failure too, with the ones that were asked)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller: ConnectionController | None = None
        self.connection: Connection | None = None
        """The connection shown (its cache stays listed, frozen, once it ends)."""
        self.summary: EraSummary | None = None
        self._refresh_task: asyncio.Task[None] | None = None
        self.era_label = QLabel()
        self.era_label.setObjectName("eraLabel")
        self.era_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.why_label = QLabel()
        self.why_label.setWordWrap(True)
        self.why_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.supported_label = QLabel()
        self.supported_label.setWordWrap(True)
        self.supported_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.result_toggle = QToolButton()
        self.result_toggle.setCheckable(True)
        self.result_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.result_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.result_toggle.setAutoRaise(True)
        self.result_toggle.toggled.connect(self._toggle_result)
        self.result_view = JsonTreeView(None, self, fit=True, max_height=260)
        self.result_view.hide()

        self.cache_title = QLabel("<b>Cached results</b> (ttlMs / cacheScope)")
        self.cache_tree = QTreeWidget()
        self.cache_tree.setAccessibleName("Cached results")
        self.cache_tree.setColumnCount(len(CACHE_HEADERS))
        self.cache_tree.setHeaderLabels(list(CACHE_HEADERS))
        self.cache_tree.setRootIsDecorated(False)
        self.cache_tree.setAlternatingRowColors(True)
        self.cache_tree.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.cache_tree.setMaximumHeight(140)
        self.cache_status = QLabel()
        self.cache_status.setWordWrap(True)
        self.refresh_button = QPushButton("Refresh (bypass cache)")
        self.refresh_button.setToolTip(_REFRESH_TIP)
        self.refresh_button.clicked.connect(self.refresh)
        cache_bar = QHBoxLayout()
        cache_bar.setContentsMargins(0, 0, 0, 0)
        cache_bar.addWidget(self.cache_status, 1)
        cache_bar.addWidget(self.refresh_button, 0, Qt.AlignmentFlag.AlignTop)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(QLabel("<b>Protocol era</b>"))
        layout.addWidget(self.era_label, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.why_label)
        layout.addWidget(self.supported_label)
        layout.addWidget(self.result_toggle, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.result_view)
        layout.addSpacing(4)
        layout.addWidget(self.cache_title)
        layout.addWidget(self.cache_tree)
        layout.addLayout(cache_bar)

        self._ticker = QTimer(self)
        self._ticker.setInterval(TICK_MS)
        self._ticker.timeout.connect(self.update_cache)

    # -- content ---------------------------------------------------------------------------------

    def show_server(self, server: ServerInfo, controller: ConnectionController | None = None) -> None:
        """Show ``server``'s era; with its ``controller``, also why (the connection's era choice, auto's fallback)
        and the connection's cache."""
        self._cancel_refresh()
        self.controller = controller
        connection = self.connection = live_connection(controller) if controller is not None else None
        choice = connection.protocol_era if connection is not None else choice_of_reason(server.era_reason)
        fallback = connection.opening.fallback if connection is not None else None
        summary = self.summary = summarize_era(server, choice, fallback)
        modern = summary.era is Era.MODERN
        tone = "info" if modern else "neutral"
        self.era_label.setText(summary.label)
        self.era_label.setProperty("tone", tone)

        def build(t: Tones) -> str:
            fg, bg, border = tone_colors(t, tone)
            return (
                f"QLabel#eraLabel {{ color: {fg}; background: {bg}; border: 1px solid {border}; border-radius: 8px;"
                " padding: 2px 8px; font-weight: 600; }"
            )

        themed_style(self.era_label, build)
        self.era_label.setToolTip(server.era_reason)
        self.why_label.setText(summary.why)
        self.why_label.setToolTip(f"What the engine recorded: {server.era_reason}")
        if summary.supported_versions is None:
            self.supported_label.setText("supportedVersions: — (the handshake era settles one version in initialize)")
        else:
            listed = ", ".join(summary.supported_versions) or "none"
            self.supported_label.setText(f"supportedVersions: {listed}")
        method = "server/discover" if modern else "initialize"
        self.result_toggle.setText(f"{method} result")
        self.result_toggle.setToolTip(f"Show or hide the server's answer to {method} as JSON")
        self.result_view.set_value(server.result)
        self.result_toggle.setChecked(False)
        self._toggle_result(False)
        self.refresh_button.setEnabled(modern and connection is not None)
        self.refresh_button.setToolTip(_REFRESH_TIP if modern else _NO_CACHE)
        if modern and connection is not None:
            self.cache_status.setText("")
            self._ticker.start()
        else:
            self._ticker.stop()
            self.cache_status.setText(_NO_CACHE if not modern else "")
        self.update_cache()

    def clear(self) -> None:
        """Not connected any more: stop ticking and refreshing."""
        self._ticker.stop()
        self._cancel_refresh()
        self.connection = self.controller = None

    def update_cache(self) -> None:
        """Re-read the connection's cache (ages and expiries move on)."""
        conn = self.connection
        self.cache_tree.clear()
        if conn is None or conn.era is not Era.MODERN:
            return
        if not self._live():  # the connection ended: what it cached stays listed, frozen
            self._ticker.stop()
            self.refresh_button.setEnabled(False)
        stale = QColor(tones(self).muted)
        for row in cache_rows(conn.cache.entries(), time.monotonic()):
            item = QTreeWidgetItem([row.method, row.params, row.ttl, row.scope, row.age, row.expiry])
            item.setToolTip(1, row.params)
            if not row.fresh:
                for column in range(len(CACHE_HEADERS)):
                    item.setForeground(column, stale)
            self.cache_tree.addTopLevelItem(item)
        if not self.cache_tree.topLevelItemCount() and not self.cache_status.text():
            self.cache_status.setText("Nothing cached: no result so far had a ttlMs above 0.")

    # -- refresh ---------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Ask the server again for every cached result (and server/discover), bypassing the cache."""
        conn = self.connection
        if conn is None or not self._live() or self.refreshing:
            return
        self._refresh_task = asyncio.get_event_loop().create_task(self._refresh(conn))

    @property
    def refreshing(self) -> bool:
        return self._refresh_task is not None and not self._refresh_task.done()

    async def _refresh(self, conn: Connection) -> None:
        self.refresh_button.setEnabled(False)
        self.cache_status.setText("Refreshing, bypassing the cache…")
        wanted: dict[tuple[str, str], Callable[[], Coroutine[Any, Any, Any]]] = {}
        for entry in conn.cache.entries():
            c = entry.cached
            key = (c.method, c.uri or "")
            ask = _refresher(conn, c.method, c.params)
            if ask is not None and key not in wanted:
                wanted[key] = ask
        wanted.setdefault(("server/discover", ""), lambda: conn.discover(fresh=True))
        done: list[str] = []
        methods: list[str] = []
        try:
            for (method, uri), ask in wanted.items():
                result = await ask()
                done.append(f"{method} {uri}".strip())
                methods.append(method)
                if method == "server/discover" and isinstance(result, dict):
                    self.result_view.set_value(result)
        except ClientError as exc:
            self.cache_status.setText(f"Refresh failed after {len(done)} of {len(wanted)}: {exc}")
        else:
            stamp = time.strftime("%H:%M:%S")
            self.cache_status.setText(f"Asked the server again at {stamp}, bypassing the cache: {', '.join(done)}")
        finally:
            self.refresh_button.setEnabled(self._live())
            self.update_cache()
        if methods and self._live():
            self.cacheRefreshed.emit(list(dict.fromkeys(methods)))

    def _live(self) -> bool:
        """The connection shown is still the controller's live one."""
        conn = self.connection
        return conn is not None and self.controller is not None and live_connection(self.controller) is conn

    def _cancel_refresh(self) -> None:
        if self._refresh_task is not None and not self._refresh_task.done():
            self._refresh_task.cancel()
        self._refresh_task = None

    def _toggle_result(self, shown: bool) -> None:
        self.result_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.result_view.setVisible(shown)
