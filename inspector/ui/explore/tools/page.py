"""``ToolPage``: one tool of the tools panel — its header, argument form, argument history, Run, and the result.

Run validates the form first (``SchemaForm.errors()``; nothing is sent while there are errors), records the
arguments in the tool's history, then calls the tool as an asyncio task with the profile's request timeout and
a progress callback. Cancel cancels that task: the Connection sends notifications/cancelled. Outcomes:
a result (``isError`` or not) and JSON-RPC errors go to the ``ToolResultView``; a cancelled or timed-out call
shows as cancelled; anything else the client could not complete (connection lost, invalid answer) shows in a
banner above the result, since no result and no JSON-RPC error exist for it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.client.connection import Connection
from inspector.client.errors import ClientError, RemoteError, RequestCancelled, RequestTimeout
from inspector.client.rounds import RoundNote, watching_rounds
from inspector.client.tasks import TaskCancelled
from inspector.content.catalog import CatalogEntry
from inspector.content.plural import plural
from inspector.protocol.jsonrpc import URL_ELICITATION_REQUIRED
from inspector.schema import FieldError
from inspector.store.history import ArgumentHistory, HistoryEntry
from inspector.ui.connection.controller import UrlRequiredExplainer
from inspector.ui.explore.catalog.model import HistoryModel
from inspector.ui.explore.catalog.split_memory import SplitMemory, fit_split
from inspector.ui.explore.common.gating import set_gated
from inspector.ui.explore.common.panel_tasks import PanelTasks
from inspector.ui.explore.common.support import EntryHeader, EntryPage, alive
from inspector.ui.explore.common.task_book import TaskBook, TaskToggle
from inspector.ui.schema_form import SchemaForm
from inspector.ui.viewers import ResultState, ToolResultView, forward_content_signals
from inspector.ui.viewers.progress_panel import gave_up
from inspector.ui.widgets.banner import Banner
from inspector.ui.widgets.mark_label import MarkLabel
from inspector.ui.widgets.style import tones
from inspector.ui.widgets.theme import make_primary, themed_style

__all__ = ["CallContext", "HistoryPane", "ToolPage"]

CallContext = Callable[[], tuple[Connection | None, float | None]]
"""Returns the live connection (None when not connected) and the per-call timeout (profile seconds)."""


class HistoryPane(QWidget):
    """The tool's past argument sets with Recall (fill the form), Re-run, Delete and Clear."""

    recallRequested = Signal(object)
    rerunRequested = Signal(object)

    def __init__(self, history: ArgumentHistory, tool: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.history = history
        self.tool = tool
        self.model = HistoryModel(self)
        self.view = QListView(self)
        self.view.setModel(self.model)
        self.view.setUniformItemSizes(True)
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionMode(QListView.SelectionMode.SingleSelection)
        self.empty_label = QLabel("No calls yet. Every Run is remembered here, per server and tool.", self)
        themed_style(self.empty_label, lambda t: f"color: {t.muted};")
        self.empty_label.setWordWrap(True)
        self.save_note = MarkLabel(parent=self)
        """Why the history could not be written to disk (it is kept for the session)."""
        self.save_note.setWordWrap(True)
        self.save_note.hide()
        self.recall_button = QPushButton("Recall", self)
        self.recall_button.setToolTip("Fill the form with the selected arguments")
        self.rerun_button = QPushButton("Re-run", self)
        self.rerun_button.setToolTip("Fill the form with the selected arguments and run the tool again")
        self.delete_button = QPushButton("Delete", self)
        self.clear_button = QPushButton("Clear all", self)
        buttons = QHBoxLayout()
        for button in (self.recall_button, self.rerun_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.delete_button)
        buttons.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        layout.addWidget(self.empty_label)
        layout.addWidget(self.save_note)
        layout.addWidget(self.view, 1)
        layout.addLayout(buttons)
        self.recall_button.clicked.connect(lambda: self._emit(self.recallRequested))
        self.rerun_button.clicked.connect(lambda: self._emit(self.rerunRequested))
        self.view.doubleClicked.connect(lambda _index: self._emit(self.recallRequested))
        self.delete_button.clicked.connect(self._delete)
        self.clear_button.clicked.connect(self._clear)
        self.view.selectionModel().selectionChanged.connect(self._update_buttons)
        self.reload()

    def reload(self) -> None:
        self.model.set_entries(self.history.entries(self.tool))
        if self.model.rowCount():
            self.view.setCurrentIndex(self.model.index(0, 0))
        self.empty_label.setVisible(self.model.rowCount() == 0)
        problem = self.history.save_error
        if problem:
            self.save_note.setText(f"{problem[0].upper()}{problem[1:]}")
        self.save_note.setVisible(bool(problem))
        self._update_buttons()

    def selected(self) -> HistoryEntry | None:
        index = self.view.currentIndex()
        return self.model.entry(index.row()) if index.isValid() else None

    def select(self, row: int) -> None:
        self.view.setCurrentIndex(self.model.index(row, 0))

    def _emit(self, signal: Any) -> None:
        entry = self.selected()
        if entry is not None:
            signal.emit(entry)

    def _delete(self) -> None:
        entry = self.selected()
        if entry is not None:
            self.history.remove(self.tool, entry)
            self.reload()

    def _clear(self) -> None:
        self.history.clear(self.tool)
        self.reload()

    def _update_buttons(self) -> None:
        has = self.selected() is not None
        for button in (self.recall_button, self.delete_button):
            button.setEnabled(has)
        if self.rerun_button.property("gateReason") in (None, ""):
            self.rerun_button.setEnabled(has)
        self.clear_button.setEnabled(self.model.rowCount() > 0)


class ToolPage(EntryPage):
    """Everything about one tool; see the module docstring."""

    MAX_FORM_SHARE = 0.6
    """The form's share of the page's height at most, when it is fitted (the result keeps the rest)."""
    MAX_FORM_SHARE_BEFORE_RUN = 0.8
    """... while there is no result yet (only the placeholder below the form)."""
    PROBLEM_ROWS = 4
    """Validation problems listed without scrolling."""

    callFinished = Signal(str)
    """The call ended; the argument is the result view's state (success, tool-error, protocol-error, ...)."""
    relisted = Signal()
    """The tools were listed again (for "Retry after re-listing"); the panel refreshes its list."""
    saveRequested = Signal(str, object)
    """"Save to collection": ``tools/call`` and its params (the form's arguments as they are now)."""

    def __init__(
        self,
        entry: CatalogEntry,
        history: ArgumentHistory,
        context: CallContext,
        parent: QWidget | None = None,
        *,
        explain_url_required: Callable[[], UrlRequiredExplainer | None] = lambda: None,
        split: SplitMemory | None = None,
        task_book: TaskBook | None = None,
    ) -> None:
        super().__init__(entry, parent)
        self.task_book = task_book
        """Where "Run as task" calls go (the tab's Tasks panel lists them); None: no toggle."""
        self.split_memory = split if split is not None else SplitMemory()
        """The form/result split the user chose (shared by the panel's pages); ``fit_split`` when there is none."""
        self._explain_url_required = explain_url_required
        self.history = history
        self._context = context
        self._task: asyncio.Task[None] | None = None
        self._history_entry: HistoryEntry | None = None
        """The history entry of the call in flight (its outcome is added when it ends)."""
        self._timed_out = False
        self._round: RoundNote | None = None
        """The round of a multi-round-trip call (2026-07-28) the last call reached (None: one round)."""
        self._tasks = PanelTasks(self, self._internal_error)

        # containers first: filling a splitter that already holds them avoids a size recalculation per child
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setChildrenCollapsible(False)
        top = QWidget(self.splitter)
        self.inputs_box = top
        """The splitter's upper part: header, argument tabs, Run, the problems."""
        self.result_box = QWidget(self.splitter)
        self.splitter.addWidget(top)
        self.splitter.addWidget(self.result_box)
        # the form keeps the height it was given, the result takes whatever the window grows by
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.split_memory.attach(self.splitter)
        self._split_pending = True
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)

        self.header = EntryHeader(entry, top)
        self.inputs = QTabWidget(top)
        self.inputs.setDocumentMode(True)
        self.form_box = QWidget(self.inputs)
        self._form_layout = QVBoxLayout(self.form_box)
        self._form_layout.setContentsMargins(0, 0, 0, 0)
        self._form: SchemaForm | None = None
        self.history_pane = HistoryPane(history, entry.name, self.inputs)
        self.inputs.addTab(self.form_box, "Arguments")
        self.inputs.addTab(self.history_pane, "History")
        self._update_history_tab()

        t = tones(self)
        self.run_button = QPushButton("Run", top)
        self.run_button.setObjectName("runButton")
        self.run_button.setDefault(True)
        self.run_button.setMinimumWidth(96)
        self.run_button.setToolTip(f"Validate the arguments and call {entry.name} (Ctrl+Enter)")
        make_primary(self.run_button)
        self.task_toggle = TaskToggle(top)
        self.timeout_label = QLabel(top)
        themed_style(self.timeout_label, lambda t: f"color: {t.muted};")
        self.validation_label = QLabel(top)
        themed_style(self.validation_label, lambda t: f"color: {t.error_fg};")
        self.validation_label.setWordWrap(True)
        self.validation_label.hide()
        self.send_anyway_button = QPushButton("Send anyway", top)
        self.send_anyway_button.setToolTip(
            "Call the tool with these arguments although they break its inputSchema (to test the server's own"
            " validation)"
        )
        self.send_anyway_button.hide()
        self.save_call_button = QPushButton("Save to collection", top)
        self.save_call_button.setToolTip("Save this call (with the arguments in the form) to the Collections tab")
        self.problems_list = QListWidget(top)
        """Every validation problem of the last Run; clicking one goes to its field."""
        self.problems_list.setObjectName("problemsList")
        themed_style(self.problems_list, lambda t: f"QListWidget#problemsList {{ color: {t.error_fg}; }}")
        self.problems_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.problems_list.setWordWrap(True)
        self.problems_list.hide()
        run_row = QHBoxLayout()
        run_row.setContentsMargins(12, 4, 12, 8)
        run_row.addWidget(self.run_button)
        run_row.addWidget(self.task_toggle)
        run_row.addWidget(self.validation_label, 1)
        run_row.addWidget(self.send_anyway_button)
        run_row.addStretch(0)
        run_row.addWidget(self.save_call_button)
        run_row.addWidget(self.timeout_label)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.setSpacing(2)
        top_layout.addWidget(self.header)
        self.dropped_banner: Banner | None = None
        """Why a tool the client dropped (invalid x-mcp-header) cannot be run (None for usable tools)."""
        if entry.unavailable:
            self.dropped_banner = Banner(
                "error",
                "This tool cannot be run",
                [
                    entry.unavailable,
                    "The client leaves such a tool out of tools/list; it is shown here so you can see why.",
                ],
                top,
            )
            top_layout.addWidget(self.dropped_banner)
        top_layout.addWidget(self.inputs, 1)
        top_layout.addLayout(run_row)
        problems_row = QHBoxLayout()
        problems_row.setContentsMargins(12, 0, 12, 8)
        problems_row.addWidget(self.problems_list)
        top_layout.addLayout(problems_row)

        self.failure_banner: Banner | None = None
        self._result_view: ToolResultView | None = None
        self.result_placeholder = QLabel("Press Run to call the tool; the result shows here.", self.result_box)
        self.result_placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.result_placeholder.setStyleSheet(
            f"color: {t.muted}; border: 1px dashed {t.card_border}; border-radius: 8px;"
        )
        self._result_layout = QVBoxLayout(self.result_box)
        self._result_layout.setContentsMargins(8, 0, 8, 8)
        self._result_layout.addWidget(self.result_placeholder, 1)

        self.run_button.clicked.connect(self.run)
        self.send_anyway_button.clicked.connect(self.send_anyway)
        self.save_call_button.clicked.connect(self.save_to_collection)
        self.problems_list.itemActivated.connect(self._go_to_problem)
        self.problems_list.itemClicked.connect(self._go_to_problem)
        self.history_pane.recallRequested.connect(self.recall)
        self.history_pane.rerunRequested.connect(self.rerun)
        self.run_shortcut = QShortcut(self)
        self.run_shortcut.setKeys([QKeySequence("Ctrl+Return"), QKeySequence("Ctrl+Enter")])
        self.run_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.run_shortcut.activated.connect(self.run)
        self.run_shortcut.setWhatsThis("Run the tool (on its page)")  # listed in Help → Keyboard shortcuts
        self.update_timeout()
        # the form is built on the next turn of the event loop: selecting a tool shows its page at once
        QTimer.singleShot(0, self, self._build_form)

    def _build_form(self) -> None:
        _ = self.form

    @property
    def form(self) -> SchemaForm:
        """The argument form (built on first use; the page schedules that right after it is created)."""
        if self._form is None:
            form = SchemaForm(self.entry.input_schema, self.form_box)
            form.valueChanged.connect(self.validation_label.hide)
            self._form_layout.addWidget(form)
            self._form = form
            if self.isVisible():
                QTimer.singleShot(0, self, self._apply_split)
        return self._form

    @property
    def result_view(self) -> ToolResultView:
        """The result view, built on first use (most selected tools are never run)."""
        if self._result_view is None:
            view = ToolResultView(self.entry.name, parent=self.result_box)
            forward_content_signals(view, self)
            view.cancelRequested.connect(self.cancel)
            view.retryAfterRelistingRequested.connect(self.retry_after_relisting)
            self._result_layout.addWidget(view, 1)
            self.result_placeholder.hide()
            self._result_view = view
        return self._result_view

    # -- state -------------------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def set_unavailable(self, reason: str | None) -> None:
        """Gate Run and Re-run (not connected, no tools capability); None enables them. A tool the client dropped
        (``entry.unavailable``) stays gated with that reason."""
        if self.entry.unavailable:
            reason = f"Cannot be run: {self.entry.unavailable}"
        set_gated(self.run_button, reason)
        set_gated(self.history_pane.rerun_button, reason)
        if reason is None:
            self.history_pane.rerun_button.setEnabled(self.history_pane.selected() is not None)
        self.update_timeout()
        self.update_task_toggle()

    def update_task_toggle(self) -> None:
        """Show "Run as task" as the tool's execution.taskSupport and the server allow."""
        if self.task_book is not None:
            self.task_toggle.update_for(self.entry.raw, self._context()[0])

    def update_timeout(self) -> None:
        _conn, timeout = self._context()
        text = f"Timeout {timeout:g} s" if timeout else "No timeout"
        self.timeout_label.setText(text + " · from the profile")
        self.timeout_label.setToolTip(
            "The per-request timeout of this server's profile; progress notifications restart it."
        )

    # -- commands ----------------------------------------------------------------------------------------

    def run(self) -> bool:
        """Validate and call the tool; False (with the reason shown) when nothing was sent."""
        if self.running or not self.run_button.isEnabled():
            return False
        self.update_timeout()
        problems = self.form.problems()
        if problems:
            self._show_problems(problems)
            return False
        return self._send()

    def save_to_collection(self) -> bool:
        """Emit ``saveRequested`` with the form's arguments (valid or not: a collection may test the server's own
        validation); False when the raw JSON does not parse."""
        try:
            arguments = self.form.value()
        except ValueError as exc:
            self.validation_label.setText(f"Nothing to save: {exc}")
            self.validation_label.show()
            return False
        self.saveRequested.emit("tools/call", {"name": self.entry.name, "arguments": arguments})
        return True

    def send_anyway(self) -> bool:
        """Call the tool with the form's value although it breaks the inputSchema (False: nothing sent)."""
        if self.running or not self.run_button.isEnabled():
            return False
        self.update_timeout()
        return self._send()

    def _send(self) -> bool:
        try:
            arguments = self.form.value()
        except ValueError as exc:  # raw JSON that does not parse: there is nothing to send
            self.validation_label.setText(f"Nothing to send: {exc}")
            self.validation_label.show()
            return False
        connection, timeout = self._context()  # the panel's live_connection
        if connection is None:
            self.validation_label.setText("Not connected.")
            self.validation_label.show()
            return False
        self.update_task_toggle()
        as_task = self.task_book is not None and self.task_toggle.wanted
        self._hide_problems()
        self._history_entry = self.history.record(self.entry.name, arguments, self.entry.input_schema)
        self._timed_out = False
        self.history_pane.reload()
        self._update_history_tab()
        self._clear_failure()
        first = self._result_view is None
        self.result_view.set_running()
        if first:
            self._apply_split()  # the result takes its room now
        self.run_button.setEnabled(False)
        self._task = self._tasks.spawn(self._call(connection, arguments, timeout, as_task=as_task))
        return True

    def cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()

    def retry_after_relisting(self) -> None:
        """After a -32020 (header mismatch): list the tools again, bypassing the cache (their ``x-mcp-header``
        annotations may have changed, and with them the headers a call carries), then run the call again."""
        connection, _timeout = self._context()
        if connection is None or self.running:
            return
        self._tasks.spawn(self._relist_and_run(connection))

    async def _relist_and_run(self, connection: Connection) -> None:
        try:
            await connection.list_tools(fresh=True)
        except ClientError as exc:
            if alive(self):
                self._show_failure("Listing the tools again failed", str(exc))
            return
        if alive(self):
            self.relisted.emit()
            self.run()

    def recall(self, entry: HistoryEntry) -> None:
        """Fill the form with a past argument set."""
        self.form.set_value(entry.arguments)
        self.inputs.setCurrentWidget(self.form_box)

    def rerun(self, entry: HistoryEntry) -> None:
        self.recall(entry)
        self.run()

    def shutdown(self) -> None:
        """Stop a running call (the page is going away)."""
        self._tasks.cancel_all()

    # -- the call ----------------------------------------------------------------------------------------

    async def _call(
        self, connection: Connection, arguments: Any, timeout: float | None, *, as_task: bool = False
    ) -> None:
        args = arguments if isinstance(arguments, dict) else None
        view = self.result_view
        show: Callable[[], None]
        unwatch = connection.watch_person(self._on_person)
        if connection.asking_a_person:
            self._on_person(True)
        self._round = None
        try:
            with watching_rounds(self._on_round):
                result = await self._invoke(connection, args, timeout, as_task)
        except asyncio.CancelledError:
            show = partial(view.set_cancelled, "notifications/cancelled was sent to the server.")
        except RemoteError as exc:
            show = partial(view.set_protocol_error, exc.code if exc.code is not None else 0, exc.message, exc.data)
            if exc.code == URL_ELICITATION_REQUIRED:
                self._explain_url_elicitation(exc)
        except RequestTimeout as exc:
            show = partial(view.set_cancelled, f"Timed out: {exc}. notifications/cancelled was sent to the server.")
            self._timed_out = True
        except RequestCancelled as exc:
            show = partial(view.set_cancelled, str(exc))
        except ClientError as exc:
            title, lines = gave_up(self._round, str(exc)) or ("The call did not complete", [str(exc)])
            show = partial(self._show_failure, title, *lines)
        else:
            if isinstance(result, dict):
                show = partial(view.set_result, result, self.entry.output_schema)
            else:
                show = partial(self._show_failure, "The server's answer is not a tool result", repr(result)[:500])
        finally:
            unwatch()
        self._finish(show)

    async def _invoke(
        self, connection: Connection, args: dict[str, Any] | None, timeout: float | None, as_task: bool
    ) -> Any:
        """The call itself: direct, or as a task through the tab's ``TaskBook`` (the Tasks panel lists it)."""
        if not as_task or self.task_book is None:
            return await connection.call_tool(self.entry.name, args, on_progress=self._on_progress, timeout=timeout)
        try:
            return await self.task_book.run_tool(
                connection, self.entry.name, args, output_schema=self.entry.output_schema,
                on_update=lambda _record, update: self._on_progress(0, None, f"Task {update.task.describe()}"),
            )  # fmt: skip
        except TaskCancelled as exc:
            raise RequestCancelled(str(exc)) from exc

    def _explain_url_elicitation(self, exc: RemoteError) -> None:
        """-32042: the server needs the user to visit a URL first; explain it and offer to retry afterwards."""
        if not alive(self):
            return
        explain = self._explain_url_required()
        if explain is None:
            self._show_failure("The server needs you to open a URL first (-32042)", exc.message)
            return
        explain(exc.data, self.window(), exc.message).retryRequested.connect(self.run)

    def _finish(self, show: Callable[[], None]) -> None:
        if not alive(self):
            return
        show()
        self.run_button.setEnabled(self.run_button.property("gateReason") in (None, ""))
        self._record_outcome()
        self.callFinished.emit(self.result_view.state().value)

    def outcome(self) -> str:
        """How the last call ended, as the history keeps it: ok, isError, error <code>, cancelled, timed out,
        failed (no result and no JSON-RPC error: the connection was lost, the answer was not a result)."""
        view = self.result_view
        state = view.state()
        if state is ResultState.SUCCESS:
            return "ok"
        if state is ResultState.TOOL_ERROR:
            return "isError"
        if state is ResultState.PROTOCOL_ERROR:
            code = view.result.get("code") if view.result is not None else None
            return f"error {code}"
        if state is ResultState.CANCELLED:
            return "timed out" if self._timed_out else "cancelled"
        return "failed"

    def _record_outcome(self) -> None:
        entry, self._history_entry = self._history_entry, None
        if entry is None:
            return
        self.history.set_outcome(self.entry.name, entry, self.outcome(), self.result_view.duration())
        selected = self.history_pane.selected()
        self.history_pane.reload()
        if selected is not None and selected.key != entry.key:
            rows = [e.key for e in self.history.entries(self.entry.name)]
            if selected.key in rows:
                self.history_pane.select(rows.index(selected.key))

    def _on_person(self, waiting: bool) -> None:
        if alive(self):
            self.result_view.set_waiting_for_person(waiting)

    def _on_round(self, note: RoundNote) -> None:
        self._round = note
        if alive(self):
            self.result_view.set_round(note)

    def _on_progress(self, progress: float, total: float | None, message: str | None) -> None:
        if alive(self):
            self.result_view.set_progress(progress, total, message)

    def _internal_error(self, error: BaseException) -> None:
        if alive(self):
            self._show_failure("Internal error", f"{type(error).__name__}: {error}")
            self.run_button.setEnabled(True)

    def _show_failure(self, title: str, *details: str) -> None:
        self._clear_failure()
        self.result_view.clear()
        self.failure_banner = Banner("error", title, list(details), self.result_box)
        self._result_layout.insertWidget(0, self.failure_banner)

    def _clear_failure(self) -> None:
        if self.failure_banner is not None:
            self.failure_banner.hide()
            self.failure_banner.deleteLater()
            self.failure_banner = None

    # -- validation problems -----------------------------------------------------------------------------

    def _show_problems(self, problems: list[FieldError]) -> None:
        """List every problem (each one goes to its field when clicked) and offer Send anyway."""
        self.validation_label.setText(f"Fix {plural(len(problems), 'problem')} before running:")
        self.validation_label.show()
        self.problems_list.clear()
        for problem in problems:
            item = QListWidgetItem(f"• {problem}", self.problems_list)
            item.setData(Qt.ItemDataRole.UserRole, problem.path_str)
            item.setToolTip("Go to the field" if problem.path else "The arguments as a whole")
        rows = min(len(problems), self.PROBLEM_ROWS)
        row_h = max(self.problems_list.sizeHintForRow(0), self.fontMetrics().height() + 4)
        self.problems_list.setFixedHeight(rows * row_h + 2 * self.problems_list.frameWidth() + 4)
        self.problems_list.show()
        self.send_anyway_button.show()
        self.inputs.setCurrentWidget(self.form_box)
        self._apply_split()

    def _hide_problems(self) -> None:
        self.validation_label.hide()
        shown = self.problems_list.isVisibleTo(self)
        self.problems_list.hide()
        self.problems_list.clear()
        self.send_anyway_button.hide()
        if shown:
            self._apply_split()

    def _go_to_problem(self, item: QListWidgetItem) -> None:
        self.inputs.setCurrentWidget(self.form_box)
        self.form.focus_field(str(item.data(Qt.ItemDataRole.UserRole) or ""))

    # -- the form/result split ---------------------------------------------------------------------------

    def fitting_height(self) -> int:
        """The height the inputs need to show whole: header, tabs, every field, the Run row, the problems."""
        top = self.inputs_box
        layout = top.layout()
        spacing = layout.spacing() if layout is not None else 0
        width = max(200, top.width())
        header = self.header.heightForWidth(width) if self.header.hasHeightForWidth() else -1
        header = header if header > 0 else self.header.sizeHint().height()
        form = self.form.fitting_height() if self._form is not None else 120
        tabs = self.inputs.tabBar().sizeHint().height()
        run = self.run_button.sizeHint().height() + 12
        problems = self.problems_list.height() + 8 if self.problems_list.isVisibleTo(self) else 0
        return header + tabs + form + run + problems + 3 * spacing + 4

    def fit_split(self) -> None:
        """The form takes what it needs (at most ``MAX_FORM_SHARE`` of the page once there is a result), the
        result the rest."""
        share = self.MAX_FORM_SHARE if self._result_view is not None else self.MAX_FORM_SHARE_BEFORE_RUN
        fit_split(self.splitter, self.fitting_height(), share, self.inputs_box.minimumSizeHint().height())

    def _apply_split(self) -> None:
        """The split the user chose (on any page of the panel), else the fitted one."""
        self.split_memory.apply_or_fit(self, self.splitter, self.fit_split)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, self, self._apply_split)  # once the page has its size

    def _update_history_tab(self) -> None:
        count = self.history_pane.model.rowCount()
        self.inputs.setTabText(self.inputs.indexOf(self.history_pane), f"History ({count})" if count else "History")
