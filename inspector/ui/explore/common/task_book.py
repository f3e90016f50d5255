"""Tool calls run as tasks, kept for the session: the one ``TaskBook`` of a connection tab, and the Tools page's
"Run as task" toggle.

``TaskBook(parent)`` (built by the Explore area, shared by the Tools panel and the Tasks panel) runs a tool call as a
task with the engine's ``TaskRunner`` (both flavours: 2025-11-25 asks with ``params.task``; 2026-07-28 declares the
``io.modelcontextprotocol/tasks`` extension for that call and its ``tasks/*`` requests only) and keeps a
``TaskRecord`` per task: every snapshot the runner reported, and how it ended (result, JSON-RPC error, cancelled,
failed in the client). Records are never dropped while the tab lives (finished tasks stay listed; a reconnect keeps
them). ``refresh(connection)`` merges ``tasks/list`` (2025-11-25, where the server declared ``tasks.list``);
``cancel(record)`` sends ``tasks/cancel``. Signals: ``taskAdded(record)``, ``taskChanged(record)``.

The server's input requests while a task runs go through the connection's handlers: the usual sampling, elicitation
and roots dialogs.

``task_support_offer(tool, connection)`` says how the toggle shows for a tool (``TaskOffer``): hidden when the tool
forbids tasks (or says nothing in 2025-11-25), a free choice for ``optional`` (and, in 2026-07-28, for any tool of a
server that declared the extension: the server decides per call), always on for ``required``.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QCheckBox, QWidget

from inspector.client.connection import Connection
from inspector.client.errors import ClientError, RemoteError, RequestTimeout, message_of
from inspector.client.tasks import (
    TaskCancelled,
    TaskRunner,
    TaskUpdate,
    cancel_task,
    list_tasks,
)
from inspector.protocol.envelope import declaring_extensions
from inspector.protocol.tasks import (
    TASKS_EXTENSION,
    Flavour,
    TaskState,
    flavour_for,
    server_allows_tool_tasks,
)
from inspector.ui.explore.common.gating import NOT_CONNECTED, capability_gap, method_gap

__all__ = [
    "TaskBook",
    "TaskOffer",
    "TaskOutcome",
    "TaskRecord",
    "TaskToggle",
    "flavour_of",
    "list_gap",
    "progress_of",
    "task_support_offer",
]


class TaskOutcome(StrEnum):
    STARTING = "starting"
    """Asked for; no task handle yet."""
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"
    """The task failed (its JSON-RPC error is kept)."""
    CANCELLED = "cancelled"
    ERROR = "error"
    """The client could not follow it (connection lost, an unusable handle, timed out)."""
    INLINE = "inline"
    """The server answered with the tool's result at once, without a task."""
    LISTED = "listed"
    """Known from ``tasks/list`` only (not started from this window, or from an earlier connection)."""


@dataclass(eq=False)
class TaskRecord:
    """One task the window knows of; see the module docstring."""

    seq: int
    tool: str
    arguments: dict[str, Any] | None
    flavour: Flavour | None
    output_schema: dict[str, Any] | None = None
    started: float = field(default_factory=time.time)
    outcome: TaskOutcome = TaskOutcome.STARTING
    state: TaskState | None = None
    updates: list[TaskUpdate] = field(default_factory=list)
    result: dict[str, Any] | None = None
    """The final ``CallToolResult`` (completed, or answered inline)."""
    error: tuple[int, str, Any] | None = None
    """The JSON-RPC error (code, message, data) the call or the task ended with."""
    problem: str | None = None
    """Why it ended without a result or error (cancelled, timed out, connection lost...)."""
    finished: float | None = None
    runner: TaskRunner | None = field(default=None, repr=False)
    connection: Connection | None = field(default=None, repr=False)

    @property
    def task_id(self) -> str | None:
        return self.state.task_id if self.state is not None else None

    @property
    def live(self) -> bool:
        return self.outcome in (TaskOutcome.STARTING, TaskOutcome.RUNNING)

    @property
    def status(self) -> str:
        """The task's status as the server last said, else what the window knows."""
        if self.state is not None and self.state.status is not None:
            return self.state.status
        return self.outcome.value

    @property
    def last_note(self) -> str | None:
        for update in reversed(self.updates):
            if update.note:
                return update.note
        return None


@dataclass(frozen=True, slots=True)
class TaskOffer:
    """How "Run as task" shows for one tool."""

    visible: bool
    enabled: bool = False
    checked: bool = False
    reason: str = ""
    """The tooltip: why it is on, off or disabled."""


def flavour_of(connection: Connection | None) -> Flavour | None:
    if connection is None or connection.server is None:
        return None
    return flavour_for(connection.server.protocol_version)


def _support(tool: Mapping[str, Any]) -> str | None:
    execution = tool.get("execution")
    support = execution.get("taskSupport") if isinstance(execution, dict) else None
    return support if support in ("required", "optional", "forbidden") else None


def task_support_offer(tool: Mapping[str, Any], connection: Connection | None) -> TaskOffer:
    """See the module docstring."""
    flavour = flavour_of(connection)
    if flavour is None or connection is None or connection.server is None:
        return TaskOffer(False)
    support = _support(tool)
    allows = server_allows_tool_tasks(connection.server.capabilities, flavour)
    if support == "forbidden" or (support is None and flavour is Flavour.AUGMENTED):
        return TaskOffer(False)
    if not allows:
        needs = "tasks.requests.tools.call" if flavour is Flavour.AUGMENTED else f"the {TASKS_EXTENSION} extension"
        return TaskOffer(True, False, False, f"The server did not declare {needs}: it cannot run this tool as a task.")
    if support == "required":
        return TaskOffer(True, False, True, "This tool requires a task (execution.taskSupport: required).")
    if flavour is Flavour.EXTENSION:
        return TaskOffer(
            True,
            True,
            False,
            f"Declare the {TASKS_EXTENSION} extension on this call (MCP 2026-07-28): the server may answer with a"
            " task, which is followed in the Tasks tab.",
        )
    return TaskOffer(True, True, False, "Call the tool as a task (params.task); it is followed in the Tasks tab.")


def list_gap(connection: Connection | None) -> str | None:
    """Why ``tasks/list`` cannot be asked (None: it can), in the gating's words (the era knows 2026-07-28 has none)."""
    server = connection.server if connection is not None else None
    if server is None:
        return NOT_CONNECTED
    if flavour_for(server.protocol_version) is None:
        return f"MCP {server.protocol_version} has no tasks (they arrived in 2025-11-25)"
    return method_gap(server, "tasks/list") or capability_gap(server, "tasks.list")


_FRACTION = re.compile(r"(\d+(?:\.\d+)?)\s*s?\s*(?:/|of)\s*(\d+(?:\.\d+)?)")
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*%")


def progress_of(record: TaskRecord) -> str:
    """The progress a status message states ("step 2/4", "1.5s of 5s", "40%"), else what is known."""
    if record.outcome is TaskOutcome.COMPLETED or (record.state is not None and record.state.status == "completed"):
        return "100%"
    message = record.state.status_message if record.state is not None else None
    if message:
        fraction = _FRACTION.search(message)
        if fraction is not None and float(fraction.group(2)) > 0:
            done, total = float(fraction.group(1)), float(fraction.group(2))
            return f"{fraction.group(1)}/{fraction.group(2)} ({min(100.0, 100 * done / total):.0f}%)"
        percent = _PERCENT.search(message)
        if percent is not None:
            return f"{float(percent.group(1)):.0f}%"
    return "—"


class TaskBook(QObject):
    """The tasks of one connection tab; see the module docstring."""

    taskAdded = Signal(object)
    taskChanged = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.records: list[TaskRecord] = []
        self._seq = itertools.count(1)

    def find(self, task_id: str) -> TaskRecord | None:
        return next((r for r in self.records if r.task_id == task_id), None)

    def _add(self, record: TaskRecord) -> TaskRecord:
        self.records.append(record)
        self.taskAdded.emit(record)
        return record

    def _changed(self, record: TaskRecord) -> None:
        self.taskChanged.emit(record)

    async def run_tool(
        self,
        connection: Connection,
        name: str,
        arguments: dict[str, Any] | None,
        *,
        output_schema: dict[str, Any] | None = None,
        on_update: Any = None,
    ) -> Any:
        """Call ``name`` as a task and return its final result (what a direct call returns); what the runner
        raises is raised again after the record says how it ended. ``on_update(record, update)``: each snapshot."""
        flavour = flavour_of(connection)
        record = TaskRecord(next(self._seq), name, arguments, flavour, output_schema, connection=connection)
        runner = TaskRunner(connection, on_update=lambda update: self._on_update(record, update, on_update))
        record.runner = runner
        self._add(record)
        try:
            if flavour is Flavour.EXTENSION:
                with declaring_extensions({TASKS_EXTENSION: {}}):
                    result = await runner.call_tool(name, arguments)
            else:
                result = await runner.call_tool(name, arguments)
        except TaskCancelled as exc:
            self._end(record, TaskOutcome.CANCELLED, problem=message_of(exc))
            raise
        except RemoteError as exc:  # TaskFailed, or the call refused before any task
            code = exc.code if exc.code is not None else 0
            failed = TaskOutcome.FAILED if record.state is not None else TaskOutcome.ERROR
            record.error = (code, exc.message, exc.data)
            self._end(record, failed)
            raise
        except RequestTimeout as exc:
            self._end(record, TaskOutcome.ERROR, problem=f"Timed out: {message_of(exc)}")
            raise
        except ClientError as exc:
            self._end(record, TaskOutcome.ERROR, problem=message_of(exc))
            raise
        except (
            asyncio.CancelledError
        ):  # cancelled here (the page's Cancel, the tab closing): the runner sent tasks/cancel
            self._end(record, TaskOutcome.CANCELLED, problem="The call following the task was cancelled.")
            raise
        record.result = result if isinstance(result, dict) else None
        self._end(record, TaskOutcome.COMPLETED if record.state is not None else TaskOutcome.INLINE)
        return result

    def _on_update(self, record: TaskRecord, update: TaskUpdate, forward: Any) -> None:
        record.state = update.task
        record.updates.append(update)
        del record.updates[:-500]
        if record.outcome is TaskOutcome.STARTING:
            record.outcome = TaskOutcome.RUNNING
        self._changed(record)
        if forward is not None:
            forward(record, update)

    def _end(self, record: TaskRecord, outcome: TaskOutcome, *, problem: str | None = None) -> None:
        record.outcome = outcome
        record.problem = problem
        record.finished = time.time()
        self._changed(record)

    async def cancel(self, record: TaskRecord) -> None:
        """``tasks/cancel`` for the record's task (through its runner while one follows it)."""
        if record.runner is not None and record.live:
            await record.runner.cancel()
            return
        connection = record.connection
        if connection is None or record.task_id is None:
            raise ClientError("this task cannot be cancelled from here (no connection it belongs to)")
        state = await cancel_task(connection, record.task_id)
        if state is not None:
            record.state = state
        self._changed(record)

    async def refresh(self, connection: Connection) -> int:
        """Merge ``tasks/list`` into the records; returns how many tasks the server listed."""
        states = await list_tasks(connection)
        for state in states:
            record = self.find(state.task_id)
            if record is None:
                record = TaskRecord(next(self._seq), "", None, Flavour.AUGMENTED, connection=connection)
                record.outcome = TaskOutcome.LISTED
                record.state = state
                self._add(record)
            elif not record.live:
                record.state = state
                self._changed(record)
        return len(states)


class TaskToggle(QCheckBox):
    """The Tools page's "Run as task" check box (shown per ``task_support_offer``)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Run as task", parent)
        self.offer = TaskOffer(False)
        self._chosen = False
        self.hide()
        self.toggled.connect(self._remember)

    def _remember(self, checked: bool) -> None:
        if self.offer.enabled:
            self._chosen = checked

    def update_for(self, tool: Mapping[str, Any], connection: Connection | None) -> None:
        offer = self.offer = task_support_offer(tool, connection)
        self.setVisible(offer.visible)
        self.setEnabled(offer.enabled)
        self.blockSignals(True)
        self.setChecked(offer.checked or (offer.enabled and self._chosen))
        self.blockSignals(False)
        self.setToolTip(offer.reason)

    @property
    def wanted(self) -> bool:
        """Run the next call as a task."""
        return self.offer.visible and self.isChecked() and (self.offer.enabled or self.offer.checked)
