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
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListView,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.client.connection import Connection
from inspector.client.errors import ClientError, RemoteError, RequestCancelled, RequestTimeout
from inspector.content.catalog import CatalogEntry
from inspector.protocol.jsonrpc import URL_ELICITATION_REQUIRED
from inspector.store.history import ArgumentHistory, HistoryEntry
from inspector.ui.connection.controller import UrlRequiredExplainer
from inspector.ui.explore.catalog.model import HistoryModel
from inspector.ui.explore.common.gating import set_gated
from inspector.ui.explore.common.support import EntryHeader, EntryPage, TaskSet, alive
from inspector.ui.schema_form import SchemaForm
from inspector.ui.viewers import ToolResultView, forward_content_signals
from inspector.ui.widgets.style import Banner, tones

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
        self.empty_label.setStyleSheet(f"color: {tones(self).muted};")
        self.empty_label.setWordWrap(True)
        self.save_note = QLabel(self)
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
            self.save_note.setText(f"⚠ {problem[0].upper()}{problem[1:]}")
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

    callFinished = Signal(str)
    """The call ended; the argument is the result view's state (success, tool-error, protocol-error, ...)."""

    def __init__(
        self,
        entry: CatalogEntry,
        history: ArgumentHistory,
        context: CallContext,
        parent: QWidget | None = None,
        *,
        explain_url_required: Callable[[], UrlRequiredExplainer | None] = lambda: None,
    ) -> None:
        super().__init__(entry, parent)
        self._explain_url_required = explain_url_required
        self.history = history
        self._context = context
        self._task: asyncio.Task[None] | None = None
        self._tasks = TaskSet(self._internal_error)

        # containers first: filling a splitter that already holds them avoids a size recalculation per child
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setChildrenCollapsible(False)
        top = QWidget(self.splitter)
        self.result_box = QWidget(self.splitter)
        self.splitter.addWidget(top)
        self.splitter.addWidget(self.result_box)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
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
        self.run_button.setStyleSheet(
            f"QPushButton#runButton {{ background: {t.accent}; color: white; font-weight: 600; border: none;"
            " border-radius: 5px; padding: 5px 16px; }"
            " QPushButton#runButton:disabled { background: #9aa4ae; }"
        )
        self.timeout_label = QLabel(top)
        self.timeout_label.setStyleSheet(f"color: {t.muted};")
        self.validation_label = QLabel(top)
        self.validation_label.setStyleSheet(f"color: {t.error_fg};")
        self.validation_label.setWordWrap(True)
        self.validation_label.hide()
        run_row = QHBoxLayout()
        run_row.setContentsMargins(12, 4, 12, 8)
        run_row.addWidget(self.run_button)
        run_row.addWidget(self.validation_label, 1)
        run_row.addStretch(0)
        run_row.addWidget(self.timeout_label)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.setSpacing(2)
        top_layout.addWidget(self.header)
        top_layout.addWidget(self.inputs, 1)
        top_layout.addLayout(run_row)

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
        self.history_pane.recallRequested.connect(self.recall)
        self.history_pane.rerunRequested.connect(self.rerun)
        shortcut = QShortcut(QKeySequence("Ctrl+Return"), self)
        shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        shortcut.activated.connect(self.run)
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
        return self._form

    @property
    def result_view(self) -> ToolResultView:
        """The result view, built on first use (most selected tools are never run)."""
        if self._result_view is None:
            view = ToolResultView(self.entry.name, parent=self.result_box)
            forward_content_signals(view, self)
            view.cancelRequested.connect(self.cancel)
            self._result_layout.addWidget(view, 1)
            self.result_placeholder.hide()
            self._result_view = view
        return self._result_view

    # -- state -------------------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def set_unavailable(self, reason: str | None) -> None:
        """Gate Run and Re-run (not connected, no tools capability); None enables them."""
        set_gated(self.run_button, reason)
        set_gated(self.history_pane.rerun_button, reason)
        if reason is None:
            self.history_pane.rerun_button.setEnabled(self.history_pane.selected() is not None)
        self.update_timeout()

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
        errors = self.form.errors()
        if errors:
            count = len(errors)
            self.validation_label.setText(f"Fix {count} problem{'s' * (count != 1)} before running: {errors[0]}")
            self.validation_label.show()
            self.inputs.setCurrentWidget(self.form_box)
            return False
        connection, timeout = self._context()
        if connection is None or not connection.is_open:
            self.validation_label.setText("Not connected.")
            self.validation_label.show()
            return False
        self.validation_label.hide()
        arguments = self.form.value()
        self.history.record(self.entry.name, arguments, self.entry.input_schema)
        self.history_pane.reload()
        self._update_history_tab()
        self._clear_failure()
        self.result_view.set_running()
        self.run_button.setEnabled(False)
        self._task = self._tasks.spawn(self._call(connection, arguments, timeout))
        return True

    def cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()

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

    async def _call(self, connection: Connection, arguments: Any, timeout: float | None) -> None:
        args = arguments if isinstance(arguments, dict) else None
        view = self.result_view
        show: Callable[[], None]
        try:
            result = await connection.call_tool(self.entry.name, args, on_progress=self._on_progress, timeout=timeout)
        except asyncio.CancelledError:
            show = partial(view.set_cancelled, "notifications/cancelled was sent to the server.")
        except RemoteError as exc:
            show = partial(view.set_protocol_error, exc.code if exc.code is not None else 0, exc.message, exc.data)
            if exc.code == URL_ELICITATION_REQUIRED:
                self._explain_url_elicitation(exc)
        except RequestTimeout as exc:
            show = partial(view.set_cancelled, f"Timed out: {exc}. notifications/cancelled was sent to the server.")
        except RequestCancelled as exc:
            show = partial(view.set_cancelled, str(exc))
        except ClientError as exc:
            show = partial(self._show_failure, "The call did not complete", str(exc))
        else:
            if isinstance(result, dict):
                show = partial(view.set_result, result, self.entry.output_schema)
            else:
                show = partial(self._show_failure, "The server's answer is not a tool result", repr(result)[:500])
        self._finish(show)

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
        self.callFinished.emit(self.result_view.state().value)

    def _on_progress(self, progress: float, total: float | None, message: str | None) -> None:
        if alive(self):
            self.result_view.set_progress(progress, total, message)

    def _internal_error(self, error: BaseException) -> None:
        if alive(self):
            self._show_failure("Internal error", f"{type(error).__name__}: {error}")
            self.run_button.setEnabled(True)

    def _show_failure(self, title: str, detail: str) -> None:
        self._clear_failure()
        self.result_view.clear()
        self.failure_banner = Banner("error", title, [detail], self.result_box)
        self._result_layout.insertWidget(0, self.failure_banner)

    def _clear_failure(self) -> None:
        if self.failure_banner is not None:
            self.failure_banner.hide()
            self.failure_banner.deleteLater()
            self.failure_banner = None

    def _update_history_tab(self) -> None:
        count = self.history_pane.model.rowCount()
        self.inputs.setTabText(self.inputs.indexOf(self.history_pane), f"History ({count})" if count else "History")
