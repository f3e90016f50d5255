"""``CatalogPanel``: what the Tools and Prompts panels share — a searchable list (``ListBrowser``) beside the
selected entry's page, automatic refresh, and capability gating.

The list refreshes by itself on connect and on the feature's ``notifications/*/list_changed`` (coalesced by a
single-shot timer, so a flood costs one request), and says so in a note ("Tool list changed — refreshed
12:01:03"). A refresh asked for while one runs is done once more afterwards; an answer from a connection that
has since been replaced is dropped. Pages are built when an entry is first selected and kept (a running call
survives switching entries); at most ``MAX_PAGES`` idle pages are kept, least recently shown first out.
Gating: when the server did not declare the panel's capability, the list is disabled with a tooltip saying so
and the page area explains it; while not connected the pages' actions are disabled ("Not connected").
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Final, Generic, TypeVar

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QSplitter, QStackedWidget, QVBoxLayout, QWidget

from inspector.client.connection import Connection
from inspector.client.errors import ClientError
from inspector.content.catalog import CatalogEntry
from inspector.protocol.events import NotificationReceived
from inspector.ui.connection.controller import ConnectionController, ConnectionState
from inspector.ui.explore.catalog.list_browser import ListBrowser
from inspector.ui.explore.common.gating import NOT_CONNECTED, capability_gap, set_gated
from inspector.ui.explore.common.panel import ExplorePanel
from inspector.ui.explore.common.panel_tasks import PanelTasks, describe_failure, failure_line, live_connection
from inspector.ui.explore.common.support import EntryPage, alive, clock_text
from inspector.ui.widgets.theme import font_size_css, themed_style
from inspector.ui.widgets.timers import coalescer

__all__ = ["MAX_PAGES", "CatalogPanel"]

MAX_PAGES: Final = 40


P = TypeVar("P", bound=EntryPage)


class CatalogPanel(ExplorePanel, Generic[P]):
    """Subclasses set ``noun``, ``capability``, ``list_changed`` and implement ``fetch``, ``make_page`` and
    ``gate_page``."""

    refreshed = Signal(str)
    """The list was (re)loaded; the argument is why: ``connect``, ``changed``, ``manual`` or ``fresh`` (the overview's
    bypassing refresh just asked the server again: listed from the fresh cache)."""

    COALESCE_MS = 100
    noun = "entry"
    capability = ""
    list_changed = ""

    def __init__(self, controller: ConnectionController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent)
        self.pages: OrderedDict[str, P] = OrderedDict()
        self._tasks = PanelTasks(self, lambda error: self.browser.show_note(describe_failure(error), "error"))
        self._refreshing = False
        self._again: str | None = None
        self._listed_from: Connection | None = None
        self.gate: str | None = NOT_CONNECTED

        self.browser = ListBrowser(self.noun, self)
        self.placeholder = QLabel(self)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        themed_style(self.placeholder, lambda t: f"color: {t.muted}; font-size: {font_size_css('placeholder')};")
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.placeholder)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.browser)
        self.splitter.addWidget(self.stack)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([340, 900])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)

        self._changed_timer = coalescer(self, self.COALESCE_MS, lambda: self.refresh("changed"))
        self.browser.currentChanged.connect(self._show_entry)
        self.browser.refreshRequested.connect(lambda: self.refresh("manual"))
        self._show_placeholder()

    # -- what subclasses provide -------------------------------------------------------------------------

    async def fetch(self, connection: Connection) -> list[CatalogEntry]:
        raise NotImplementedError

    def make_page(self, entry: CatalogEntry) -> P:
        raise NotImplementedError

    def gate_page(self, page: P) -> None:
        raise NotImplementedError

    # -- controller events (wired by the connection tab) --------------------------------------------------

    def on_state(self, state: ConnectionState) -> None:
        """Re-evaluate the gates; on connect, list the entries."""
        connected = live_connection(self.controller) is not None
        self.gate = capability_gap(self.controller.server, self.capability) if connected else NOT_CONNECTED
        missing = connected and self.gate is not None
        set_gated(self.browser, self.gate if missing else None)
        for page in self.pages.values():
            self.gate_page(page)
        if connected and self.gate is None:
            self.refresh("connect")
        elif missing:
            self.browser.set_entries([])
            self.browser.show_note("")
        elif state in (ConnectionState.CLOSED, ConnectionState.EXITED, ConnectionState.FAILED):
            if self.browser.model.total():
                self.browser.show_note("Not connected — the list is from the last connection.", "muted")
        self._show_placeholder()

    def on_notification(self, event: NotificationReceived) -> None:
        if event.method == self.list_changed and self.gate is None:
            self._changed_timer.start()

    # -- commands ----------------------------------------------------------------------------------------

    def refresh(self, reason: str = "manual") -> None:
        """List the entries again (a refresh already running is followed by one more)."""
        if self._refreshing:
            self._again = reason
            return
        connection = live_connection(self.controller)
        if connection is None or self.gate is not None:
            return
        self._refreshing = True
        self._tasks.spawn(self._refresh(connection, reason))

    def select(self, name: str) -> P | None:
        """Select ``name`` in the list (clearing a filter that hides it); its page, or None."""
        if not self.browser.select(name):
            self.browser.filter_edit.clear()
            self.browser.apply_filter()
            if not self.browser.select(name):
                return None
        return self.current_page()

    def current_page(self) -> P | None:
        widget = self.stack.currentWidget()
        for page in self.pages.values():
            if page is widget:
                return page
        return None

    def shutdown(self) -> None:
        """Cancel running work (the tab is closing)."""
        self._tasks.cancel_all()
        for page in self.pages.values():
            page.shutdown()

    # -- internals ---------------------------------------------------------------------------------------

    async def _refresh(self, connection: Connection, reason: str) -> None:
        entries: list[CatalogEntry] | None = None
        try:
            entries = await self.fetch(connection)
        except ClientError as exc:
            if alive(self) and connection is self.controller.connection:
                # a server's refusal with what it means (-32021/-32022 ... read from its data)
                self.browser.show_note(f"Could not list the {self.noun}s: {failure_line(exc)}", "error")
        finally:
            self._refreshing = False
        if not alive(self):
            return
        if entries is not None and connection is self.controller.connection:
            self._apply(entries, reason)
        again, self._again = self._again, None
        if again is not None:
            self.refresh(again)

    def _apply(self, entries: list[CatalogEntry], reason: str) -> None:
        by_name = {e.name: e for e in entries}
        for name, page in list(self.pages.items()):
            fresh = by_name.get(name)
            if fresh is not None and fresh.signature() == page.entry.signature():
                continue
            if page.running:
                page.stale = True
            else:
                self._drop(name)
        self._listed_from = self.controller.connection
        self.browser.set_entries(entries)
        count = len(entries)
        if reason == "changed":
            noun = self.noun.capitalize()
            self.browser.show_note(f"{noun} list changed — refreshed {clock_text()} ({count} {self.noun}s)")
        elif reason == "manual":
            self.browser.show_note(f"Refreshed {clock_text()}", "muted")
        elif reason == "fresh":
            self.browser.show_note(f"Refreshed {clock_text()}, bypassing the cache (the overview's Refresh)", "muted")
        else:
            self.browser.show_note("")
        if self.browser.current() is None:
            self._show_placeholder()
        self.refreshed.emit(reason)

    def _show_entry(self, entry: CatalogEntry | None) -> None:
        if entry is None:
            self._show_placeholder()
            return
        page = self.pages.get(entry.name)
        if page is not None and page.stale and not page.running:
            self._drop(entry.name)
            page = None
        if page is None:
            page = self.make_page(entry)
            page.readResourceRequested.connect(self.readResourceRequested)
            page.openUrlRequested.connect(self.openUrlRequested)
            page.openFileRequested.connect(self.openFileRequested)
            self.gate_page(page)
            self.pages[entry.name] = page
            self.stack.addWidget(page)
        self.pages.move_to_end(entry.name)
        self.stack.setCurrentWidget(page)
        self._evict()

    def _drop(self, name: str) -> None:
        page = self.pages.pop(name, None)
        if page is not None:
            page.shutdown()
            self.stack.removeWidget(page)
            page.deleteLater()

    def _evict(self) -> None:
        current = self.stack.currentWidget()
        idle = [n for n, page in self.pages.items() if not page.running and page is not current]
        for name in idle[: max(0, len(self.pages) - MAX_PAGES)]:
            self._drop(name)

    def _show_placeholder(self) -> None:
        if self.current_page() is not None and self.browser.current() is not None:
            return
        state = self.controller.state
        connected = live_connection(self.controller) is not None
        if connected and self.gate is not None:
            text = f"{self.gate}.\n\nThis server offers no {self.noun}s."
        elif state is ConnectionState.CONNECTING:
            text = "Connecting…"
        elif self.browser.model.total():
            text = f"Select a {self.noun} on the left."
        elif connected:
            text = f"The server lists no {self.noun}s." if self._listed_from is not None else f"Listing {self.noun}s…"
        else:
            text = f"Not connected.\n\nConnect to list the server's {self.noun}s."
        self.placeholder.setText(text)
        self.stack.setCurrentWidget(self.placeholder)
