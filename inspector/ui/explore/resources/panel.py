"""The Resources panel: resources and templates (all pages merged by the Connection), a template form with
server-side autocomplete, reads shown by the content viewers, and live subscriptions with diffs.

Everything goes through the controller's *current* connection, so the panel survives reconnects: on
``connected`` it re-gates its widgets by the declared capabilities, reloads the lists and subscribes again to
what was subscribed before. An ``ExplorePanel``: the connection tab wires ``on_state`` and ``on_notification``:
``resources/list_changed`` reloads the lists (with a visible note), ``resources/updated`` for a subscribed URI
re-reads it (coalescing bursts) and, when that resource is on screen, shows the new content and a diff.

In 2026-07-28 the Subscribe toggle goes through the engine's listen API (the URI joins the connection's
``subscriptions/listen`` stream for resource updates; a URI the server does not acknowledge fails), and the list
changes come on the engine's list-changes stream; the Subscriptions view's "Listen stream" tab follows both and
its Re-listen opens them again. The handshake era keeps ``resources/subscribe``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QSplitter, QTabWidget, QVBoxLayout, QWidget

from inspector.client.errors import ClientError
from inspector.client.rounds import RoundNote, watching_rounds
from inspector.content.subscriptions import SubscriptionBook, SubscriptionState, TextChange
from inspector.content.templates import CompletionResult, parse_completion, template_reference
from inspector.protocol.events import NotificationReceived
from inspector.protocol.versions import Era
from inspector.ui.connection.controller import ConnectionController, ConnectionState
from inspector.ui.explore.common.gating import era_note, method_gap
from inspector.ui.explore.common.panel import ExplorePanel
from inspector.ui.explore.common.panel_tasks import (
    PanelTasks,
    describe_failure,
    explanation_of,
    gate,
    live_connection,
    live_server,
    require_connection,
)
from inspector.ui.explore.resources.detail import ResourceDetail
from inspector.ui.explore.resources.model import ResourceListModel, ResourceListPage
from inspector.ui.explore.resources.subscriptions import SubscriptionsView
from inspector.ui.viewers.progress_panel import gave_up, round_status
from inspector.ui.widgets.banner import Banner
from inspector.ui.widgets.style import hbox
from inspector.ui.widgets.theme import themed_style

__all__ = ["ResourcesPanel"]

_SUBSCRIBE_TIP = "Get notifications/resources/updated when this resource changes (resources/subscribe)"


def _clock(at: float | None = None) -> str:
    return time.strftime("%H:%M:%S", time.localtime(at))


class _ReadRounds:
    """One read's rounds (2026-07-28: a server that answers ``input_required``): the status line says which
    round, and whether it waits for you (a dialog) or for the server, as the tool and prompt pages do."""

    def __init__(self, show: Callable[[str], None]) -> None:
        self._show = show
        self.note: RoundNote | None = None
        self._person = False

    def on_round(self, note: RoundNote) -> None:
        self.note = note
        self._show(round_status(note, person=self._person))

    def on_person(self, waiting: bool) -> None:
        self._person = waiting
        if self.note is not None and not self.note.sent:
            self._show(round_status(self.note, person=waiting))


class ResourcesPanel(ExplorePanel):
    """An ``ExplorePanel`` (wired by the connection tab); ``open_resource(uri)`` shows and reads a resource."""

    def __init__(self, controller: ConnectionController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent)
        self.book = SubscriptionBook()
        self.tasks = PanelTasks(self, lambda error: self._show_error(describe_failure(error)))
        self.current_uri: str | None = None
        """The URI whose content is on screen (or being read)."""
        self.last_result: Any = None
        self.updates_shown = 0
        self.read_round: RoundNote | None = None
        """The last round of the last read that took more than one (2026-07-28 ``input_required``), else None."""
        self._reread_again: set[str] = set()
        self._was_connected = False
        self._completion_note = ""

        self.resources_model = ResourceListModel("uri", self)
        self.templates_model = ResourceListModel("uriTemplate", self)
        self._build()

    # --- layout ---------------------------------------------------------------------------------------------

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(6)
        top = hbox(spacing=8)
        self.refresh_button = QPushButton("Refresh", self)
        self.refresh_button.clicked.connect(self.refresh)
        self.counts_label = QLabel(self)
        themed_style(self.counts_label, lambda t: f"color: {t.muted};")
        top.addWidget(self.refresh_button)
        top.addWidget(self.counts_label, 1)
        layout.addLayout(top)
        self.gate_banner = Banner("warning", "", [], self)
        self.gate_banner.hide()
        self.note_banner = Banner("info", "", [], self)
        self.note_banner.hide()
        layout.addWidget(self.gate_banner)
        layout.addWidget(self.note_banner)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        left = QSplitter(Qt.Orientation.Vertical, self.splitter)
        self.list_tabs = QTabWidget(left)
        self.list_tabs.setDocumentMode(True)
        self.resources_page = ResourceListPage(self.resources_model, "Filter resources", self.list_tabs)
        self.templates_page = ResourceListPage(self.templates_model, "Filter templates", self.list_tabs)
        self.list_tabs.addTab(self.resources_page, "Resources")
        self.list_tabs.addTab(self.templates_page, "Templates")
        self.subscriptions = SubscriptionsView(self.book, left)
        left.addWidget(self.list_tabs)
        left.addWidget(self.subscriptions)
        left.setStretchFactor(0, 3)
        left.setStretchFactor(1, 1)
        left.setSizes([520, 200])

        self.detail = ResourceDetail(self.splitter)
        right = self.detail
        self.header = self.detail.header
        self.template_form = self.detail.template_form
        self.read_button = self.detail.read_button
        self.subscribe_button = self.detail.subscribe_button
        self.status_label = self.detail.status_label
        self.error_banner = self.detail.error_banner
        self.contents_view = self.detail.contents_view
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setSizes([380, 620])
        layout.addWidget(self.splitter, 1)

        self.resources_page.view.selectionModel().selectionChanged.connect(self._on_resource_selected)
        self.templates_page.view.selectionModel().selectionChanged.connect(self._on_template_selected)
        self.template_form.readRequested.connect(self.read)
        self.read_button.clicked.connect(self._read_current)
        self.detail.save_call_button.clicked.connect(self.save_to_collection)
        self.subscribe_button.clicked.connect(self._on_subscribe_clicked)
        self.list_tabs.currentChanged.connect(self._on_tab_changed)
        self.subscriptions.showRequested.connect(self.show_subscription)
        self.subscriptions.unsubscribeRequested.connect(self.unsubscribe)
        self.subscriptions.listen.relistenRequested.connect(self.relisten)
        self.contents_view.openUrlRequested.connect(self.openUrlRequested)
        self.contents_view.openFileRequested.connect(self.openFileRequested)
        self._update_actions()

    # --- public API -----------------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Reload the resource and template lists (all pages)."""
        if method_gap(live_server(self.controller), "resources/list") is None:
            self.tasks.spawn(self._load_lists(), key="lists")

    def read(self, uri: str) -> None:
        if uri != self.current_uri:
            self.detail.reset()
            self.last_result = None
        self.current_uri = uri
        self.tasks.spawn(self._read(uri), key="read")

    def subscribe(self, uri: str) -> None:
        self.book.add(uri)
        self._update_actions()
        self.tasks.spawn(self._subscribe(uri), key=f"subscribe:{uri}")

    def unsubscribe(self, uri: str) -> None:
        self.tasks.spawn(self._unsubscribe(uri), key=f"subscribe:{uri}")

    def relisten(self) -> None:
        """2026-07-28: open the connection's listen streams again (the Listen stream tab's Re-listen)."""
        if self._listening_era():
            self.tasks.spawn(self._relisten(), key="relisten")

    def open_resource(self, uri: str) -> None:
        """Show and read ``uri`` (e.g. a resource link clicked elsewhere), listed or not."""
        self.detail.reset()
        self.current_uri = uri
        self._show_header_for(uri)
        self.read(uri)

    def shutdown(self) -> None:
        """The tab is closing: stop every request this panel started."""
        self.tasks.cancel_all()
        self.template_form.set_template(None)

    def show_subscription(self, uri: str) -> None:
        """Show the latest content of a subscribed URI, with the diff of its last update."""
        sub = self.book.get(uri)
        if sub is None:
            return
        self.current_uri = uri
        self._show_header_for(uri)
        if sub.last_result is None:
            self.read(uri)
            return
        self._display(uri, sub.last_result, None)
        if sub.previous_text is not None:
            self.detail.show_diff(TextChange(sub.previous_text, sub.last_text or ""), sub.update_count)
        self._update_actions()

    # --- connection state and gating ------------------------------------------------------------------------

    def on_state(self, state: ConnectionState) -> None:
        conn = live_connection(self.controller)
        connected = conn is not None
        self.subscriptions.listen.attach(conn)
        if connected:
            self.note_banner.hide()
            self.refresh()
            self._resubscribe()
        elif self._was_connected:
            self.tasks.cancel_all()
            self.book.mark_all_stale()
        self._was_connected = connected
        self._apply_gating()

    def _apply_gating(self) -> None:
        server = live_server(self.controller)
        gap = method_gap(server, "resources/list")
        self.gate_banner.title_label.setText(gap or "")
        self.gate_banner.setVisible(gap is not None)
        gate(self.refresh_button, gap, "Reload resources/list and resources/templates/list")
        for page in (self.resources_page, self.templates_page):
            page.setEnabled(gap is None)
        if gap is None:
            completion_gap = method_gap(server, "completion/complete")
            if completion_gap is not None:
                completion_gap = "No autocomplete: " + completion_gap[0].lower() + completion_gap[1:]
            self._completion_note = completion_gap or ""
        self._update_actions()

    def _update_actions(self) -> None:
        server = live_server(self.controller)
        read_gap = method_gap(server, "resources/read")
        if read_gap is None and self.current_uri is None:
            read_gap = "Select a resource first"
        gate(self.read_button, read_gap, "Read this resource again (resources/read)")
        sub_gap = method_gap(server, "resources/subscribe")
        if sub_gap is None and self.current_uri is None:
            sub_gap = "Select a resource (or read a template) first"
        subscribed = self.current_uri is not None and self.book.is_subscribed(self.current_uri)
        self.subscribe_button.setChecked(subscribed)
        self.subscribe_button.setText("Unsubscribe" if subscribed else "Subscribe")
        # 2026-07-28: what the toggle does instead of resources/(un)subscribe (the listen stream)
        sub_note, unsub_note = era_note(server, "resources/subscribe"), era_note(server, "resources/unsubscribe")
        tip = (unsub_note or "Stop receiving updates") if subscribed else (sub_note or _SUBSCRIBE_TIP)
        gate(self.subscribe_button, sub_gap, tip)
        unsub_gap = method_gap(server, "resources/unsubscribe")
        unsub_tip = unsub_note or "Send resources/unsubscribe for the selection"
        self.subscriptions.unsubscribe_button.setToolTip(unsub_gap or unsub_tip)

    def _listening_era(self) -> bool:
        """Whether subscriptions ride on subscriptions/listen (a live 2026-07-28 connection)."""
        conn = live_connection(self.controller)
        return conn is not None and conn.era is Era.MODERN

    # --- lists ----------------------------------------------------------------------------------------------

    async def _load_lists(self) -> None:
        conn = require_connection(self.controller)
        self.counts_label.setText("Loading…")
        results: list[Any] = await asyncio.gather(
            conn.list_resources(), conn.list_resource_templates(), return_exceptions=True
        )
        resources, templates = results
        for page, result, key in (
            (self.resources_page, resources, "resources"),
            (self.templates_page, templates, "resourceTemplates"),
        ):
            if isinstance(result, BaseException) and not isinstance(result, ClientError):
                raise result
            page.apply_result(result, key)
        n_res, n_tpl = self.resources_model.rowCount(), self.templates_model.rowCount()
        self.list_tabs.setTabText(0, f"Resources ({n_res:,})")
        self.list_tabs.setTabText(1, f"Templates ({n_tpl:,})")
        self.counts_label.setText(f"{n_res:,} resources · {n_tpl:,} templates · loaded {_clock()}")

    def _on_resource_selected(self, *_: object) -> None:
        entry = self.resources_page.selected_entry()
        if entry is None:
            return
        self.detail.show_template_form(False)
        self.header.set_entry(entry)
        uri = entry.get("uri")
        if isinstance(uri, str) and uri != self.current_uri:
            self.read(uri)
        self._update_actions()

    def _on_template_selected(self, *_: object) -> None:
        entry = self.templates_page.selected_entry()
        if entry is None:
            return
        self.header.set_entry(entry, template=True)
        self.detail.show_template_form(True)
        template = entry.get("uriTemplate")
        shown = self.template_form.template
        if shown is not None and shown.template == template:
            return  # back to the same template: keep what was typed
        completer = None if self._completion_note else self._complete
        self.template_form.set_template(
            template if isinstance(template, str) else "", completer=completer, completion_note=self._completion_note
        )
        self.current_uri = None
        self.detail.reset()
        self._update_actions()

    def _on_tab_changed(self, index: int) -> None:
        if self.list_tabs.widget(index) is self.templates_page:
            self._on_template_selected()
        else:
            self._on_resource_selected()

    async def _complete(
        self, template: str, argument: str, value: str, context: dict[str, Any] | None
    ) -> CompletionResult:
        conn = require_connection(self.controller)
        result = await conn.complete(template_reference(template), {"name": argument, "value": value}, context)
        return parse_completion(result)

    # --- reading --------------------------------------------------------------------------------------------

    def save_to_collection(self) -> bool:
        """Emit ``saveCallRequested`` for a resources/read of the shown URI (a template's, once expanded)."""
        uri = self.template_form.uri() if not self.template_form.isHidden() else self.current_uri
        if uri is None:
            self._set_status("Nothing to save: choose a resource (or fill in the template's variables) first.")
            return False
        self.saveCallRequested.emit("resources/read", {"uri": uri})
        return True

    def _read_current(self) -> None:
        if self.current_uri is not None:
            self.read(self.current_uri)

    async def _read(self, uri: str) -> None:
        self._set_status(f"Reading {uri}…")
        self._update_actions()
        started = time.monotonic()
        conn = require_connection(self.controller)
        self.read_round = None
        rounds = _ReadRounds(self._set_status)
        unwatch = conn.watch_person(rounds.on_person)
        try:
            with watching_rounds(rounds.on_round):
                result = await conn.read_resource(uri)
        except ClientError as exc:
            self.contents_view.clear()
            title, lines = gave_up(rounds.note, str(exc)) or (
                f"Could not read {uri}",
                [str(exc), *explanation_of(exc, "resources/read")],  # -32020/21/22 ... explained from their data
            )
            self._show_error(title, "\n".join(lines))
            self._set_status("")
            return
        finally:
            unwatch()
        self.read_round = rounds.note
        elapsed = (time.monotonic() - started) * 1000
        in_rounds = f" in {rounds.note.round} rounds" if rounds.note is not None else ""
        self._display(uri, result, f"Read{in_rounds} in {elapsed:.0f} ms at {_clock()}")
        if uri in self.book:
            self.book.record_read(uri, result)

    def _display(self, uri: str, result: Any, status: str | None) -> None:
        self.current_uri = uri
        self.last_result = result
        self.detail.show_contents(result)
        if status is not None:
            self._set_status(status)
        self._update_actions()

    # --- subscriptions --------------------------------------------------------------------------------------

    def _on_subscribe_clicked(self, checked: bool) -> None:
        uri = self.current_uri
        if uri is None:
            return
        if checked:
            self.subscribe(uri)
        else:
            self.unsubscribe(uri)

    async def _subscribe(self, uri: str) -> None:
        try:
            await require_connection(self.controller).subscribe_resource(uri)
        except ClientError as exc:
            self.book.mark_failed(uri, str(exc))
            self._show_error(f"Could not subscribe to {uri}", str(exc))
            self._update_actions()
            return
        self.book.mark_active(uri)
        self._set_status(f"Subscribed to {uri} at {_clock()}")
        if self.current_uri == uri and self.last_result is not None:
            self.book.record_read(uri, self.last_result)  # the baseline for the first diff
        self._update_actions()

    async def _unsubscribe(self, uri: str) -> None:
        sub = self.book.get(uri)
        if sub is None:
            return
        conn = live_connection(self.controller)
        # 2026-07-28: a URI the server did not acknowledge is still in the listen filter until it is left
        joined = conn is not None and conn.era is Era.MODERN and uri in conn.listening.uris
        if joined or sub.state in (SubscriptionState.ACTIVE, SubscriptionState.SUBSCRIBING):
            self.book.mark_unsubscribing(uri)
            try:
                await require_connection(self.controller).unsubscribe_resource(uri)
            except ClientError as exc:
                self.book.mark_failed(uri, f"unsubscribe failed: {exc}")
                self._show_error(f"Could not unsubscribe from {uri}", str(exc))
                self._update_actions()
                return
        self.book.remove(uri)
        self._set_status(f"Unsubscribed from {uri} at {_clock()}")
        self._update_actions()

    async def _relisten(self) -> None:
        conn = require_connection(self.controller)
        try:
            await conn.listening.relisten()
        except ClientError as exc:
            self._show_error("Could not listen again", str(exc))
        sub = conn.listening.resources
        refused = set(sub.refused.get("resourceSubscriptions", [])) if sub is not None else set(conn.listening.uris)
        for uri in conn.listening.uris:
            if uri not in self.book:
                continue
            if uri in refused:
                self.book.mark_failed(uri, f"the server did not acknowledge a subscription to {uri}")
            else:
                self.book.mark_active(uri)
        self._set_status(f"Listening again since {_clock()}")
        self._update_actions()

    def _resubscribe(self) -> None:
        gap = method_gap(live_server(self.controller), "resources/subscribe")
        for uri in self.book.stale():
            if gap is None:
                self.subscribe(uri)
            else:
                self.book.mark_failed(uri, gap)

    # --- notifications --------------------------------------------------------------------------------------

    def on_notification(self, event: NotificationReceived) -> None:
        if event.method == "notifications/resources/list_changed":
            self.note_banner.title_label.setText(
                f"The server changed its resource list at {_clock()} (notifications/resources/list_changed); "
                "the lists were reloaded."
            )
            self.note_banner.show()
            self.refresh()
        elif event.method == "notifications/resources/updated":
            uri = (event.params or {}).get("uri")
            if isinstance(uri, str) and self.book.record_notification(uri) is not None:
                if self.tasks.running(f"update:{uri}"):
                    self._reread_again.add(uri)
                else:
                    self.tasks.spawn(self._reread(uri), key=f"update:{uri}")

    async def _reread(self, uri: str) -> None:
        while True:
            self._reread_again.discard(uri)
            try:
                result = await require_connection(self.controller).read_resource(uri)
            except ClientError as exc:
                self.book.record_error(uri, f"re-read after an update failed: {exc}")
                return
            change = self.book.record_read(uri, result)
            sub = self.book.get(uri)
            if self.current_uri == uri and sub is not None:
                self.updates_shown += 1
                self._display(uri, result, f"Update {sub.update_count} at {_clock(sub.last_update)}")
                if change is not None:
                    self.detail.show_diff(change, sub.update_count)
            if uri not in self._reread_again:
                return

    # --- feedback -------------------------------------------------------------------------------------------

    def _show_header_for(self, uri: str) -> None:
        if self.resources_model.row_of(uri) >= 0:
            self.list_tabs.setCurrentWidget(self.resources_page)
            self.resources_page.select_uri(uri)
            return
        self.detail.show_template_form(False)
        self.header.set_uri(uri)

    def _set_status(self, text: str) -> None:
        self.detail.set_status(text)

    def _show_error(self, title: str, detail: str = "") -> None:
        self.detail.show_error(title, detail)
