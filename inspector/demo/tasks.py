"""A small in-memory task engine behind both task flavours the demo speaks.

* 2025-11-25 tasks (handshake era): ``tools/call`` with ``params.task``, ``CreateTaskResult``, ``tasks/get``,
  ``tasks/result``, ``tasks/list``, ``tasks/cancel``, ``notifications/tasks/status``
  (wire: :mod:`inspector.demo.tasks_legacy`).
* The ``io.modelcontextprotocol/tasks`` extension (2026-07-28): ``resultType: "task"``, ``tasks/get`` polling,
  ``tasks/update`` with ``inputResponses``, ``tasks/cancel`` (wire: :mod:`inspector.demo.tasks_extension`).

The SDK has types for these but no server implementation, so this is the part the demo adds itself. A task
runs a *job body* (``async (run) -> CallToolResult``) in the server's lifespan task group; the body reports
progress and asks the client for input through its :class:`TaskRun`. Task ids are random UUIDs; the store is
process-wide and bounded (``MAX_TASKS``), and a task is forgotten once its TTL has passed.
"""

import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, Literal

import anyio
import anyio.abc
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    CallToolResult,
    CreateMessageRequest,
    CreateMessageResult,
    ElicitRequest,
    ElicitResult,
    ErrorData,
    ListRootsRequest,
    ListRootsResult,
)
from pydantic import BaseModel

__all__ = [
    "DEFAULT_TTL_MS",
    "INPUT_TYPES",
    "MAX_TASKS",
    "MAX_TTL_MS",
    "POLL_INTERVAL_MS",
    "TERMINAL",
    "DemoTask",
    "JobBody",
    "PendingInput",
    "StatusListener",
    "TaskEra",
    "TaskRun",
    "TaskStatus",
    "TaskStore",
    "task_wire",
]

logger = logging.getLogger(__name__)

TaskEra = Literal["legacy", "modern"]
TaskStatus = Literal["working", "input_required", "completed", "failed", "cancelled"]
TERMINAL: Final[frozenset[str]] = frozenset({"completed", "failed", "cancelled"})

DEFAULT_TTL_MS: Final = 5 * 60 * 1000
MAX_TTL_MS: Final = 30 * 60 * 1000
POLL_INTERVAL_MS: Final = 200
MAX_TASKS: Final = 256


INPUT_TYPES: Final[dict[str, tuple[type[BaseModel], type[BaseModel]]]] = {
    "elicitation/create": (ElicitRequest, ElicitResult),
    "sampling/createMessage": (CreateMessageRequest, CreateMessageResult),
    "roots/list": (ListRootsRequest, ListRootsResult),
}
"""For each kind of input request a task may put to the client: its request and result models."""


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(eq=False)
class PendingInput:
    """One request the task put to the client (an ``inputRequests`` entry), and its answer once given."""

    key: str
    request: dict[str, Any]
    """Wire form: ``{"method": ..., "params": ...}``."""
    response: dict[str, Any] | None = None
    error: ErrorData | None = None
    claimed: bool = False
    """A 2025-11-25 ``tasks/result`` is sending it to the client right now."""
    answered: anyio.Event = field(default_factory=anyio.Event)


StatusListener = Callable[["DemoTask"], Awaitable[None]]


@dataclass(eq=False)
class DemoTask:
    task_id: str
    era: TaskEra
    tool: str
    ttl_ms: int | None
    poll_interval_ms: int = POLL_INTERVAL_MS
    created_at: datetime = field(default_factory=_now)
    last_updated_at: datetime = field(default_factory=_now)
    status: TaskStatus = "working"
    status_message: str | None = None
    result: dict[str, Any] | None = None
    """The tool's ``CallToolResult`` (wire form, version-neutral) once completed."""
    error: ErrorData | None = None
    inputs: dict[str, PendingInput] = field(default_factory=dict)
    listener: StatusListener | None = None
    scope: anyio.CancelScope | None = None
    _changed: anyio.Event = field(default_factory=anyio.Event)
    _expires: float | None = None

    @property
    def terminal(self) -> bool:
        return self.status in TERMINAL

    def outstanding(self) -> list[PendingInput]:
        return [pending for pending in self.inputs.values() if not pending.answered.is_set()]

    def expired(self, now: float) -> bool:
        return self._expires is not None and now >= self._expires

    async def update(self, status: TaskStatus, message: str | None) -> None:
        """Move to ``status`` (a terminal status is final) and tell whoever listens."""
        if self.terminal:
            return
        self.status = status
        self.status_message = message
        self.last_updated_at = _now()
        changed, self._changed = self._changed, anyio.Event()
        changed.set()
        if self.listener is not None:
            with anyio.move_on_after(2, shield=True):
                try:
                    await self.listener(self)
                except Exception:
                    logger.debug("task status listener failed", exc_info=True)

    async def wait_changed(self) -> None:
        await self._changed.wait()

    def answer(self, key: str, response: dict[str, Any]) -> bool:
        """Deliver the client's answer to the outstanding request ``key``; False when there is none."""
        pending = self.inputs.get(key)
        if pending is None or pending.answered.is_set():
            return False
        pending.response = response
        pending.answered.set()
        return True

    def refuse(self, key: str, error: ErrorData) -> None:
        pending = self.inputs.get(key)
        if pending is not None and not pending.answered.is_set():
            pending.error = error
            pending.answered.set()


class TaskRun:
    """What a job body sees of its task: report progress, ask the client, notice cancellation."""

    def __init__(self, task: DemoTask) -> None:
        self._task = task

    @property
    def task_id(self) -> str:
        return self._task.task_id

    async def progress(self, done: int, total: int, message: str) -> None:
        await self._task.update("working", message)

    async def ask(self, key: str, request: dict[str, Any], message: str) -> dict[str, Any]:
        """Put ``request`` to the client under ``key`` (unique over the task's life) and wait for the answer.

        The task is ``input_required`` meanwhile. Raises ``MCPError`` when the client refused.
        """
        task = self._task
        if key in task.inputs:
            raise ValueError(f"input key {key!r} was already used by this task")
        pending = PendingInput(key=key, request=request)
        task.inputs[key] = pending
        await task.update("input_required", message)
        await pending.answered.wait()
        if pending.error is not None:
            raise MCPError.from_error_data(pending.error)
        await task.update("working", "input received")
        assert pending.response is not None
        return pending.response


JobBody = Callable[[TaskRun], Awaitable[CallToolResult]]


class TaskStore:
    """Every task of this server process, and the task group their bodies run in."""

    def __init__(self) -> None:
        self._tasks: dict[str, DemoTask] = {}
        self.task_group: anyio.abc.TaskGroup | None = None
        """Set by the server's lifespan; bodies run here so they outlive the request that started them."""

    def start(
        self,
        era: TaskEra,
        tool: str,
        body: JobBody,
        *,
        ttl_ms: int | None = DEFAULT_TTL_MS,
        listener: StatusListener | None = None,
    ) -> DemoTask:
        """Create a task (retrievable at once) and start its body."""
        group = self.task_group
        if group is None:
            raise MCPError(code=INTERNAL_ERROR, message="The task engine is not running (no server lifespan)")
        self._purge()
        if len(self._tasks) >= MAX_TASKS:
            raise MCPError(code=INTERNAL_ERROR, message=f"Too many tasks (at most {MAX_TASKS} are kept)")
        task = DemoTask(task_id=str(uuid.uuid4()), era=era, tool=tool, ttl_ms=ttl_ms, listener=listener)
        if ttl_ms is not None:
            task._expires = time.monotonic() + ttl_ms / 1000
        self._tasks[task.task_id] = task
        group.start_soon(self._run, task, body)
        return task

    def get(self, task_id: str, era: TaskEra) -> DemoTask:
        """The task, or the -32602 error both task flavours answer for an unknown id."""
        self._purge()
        task = self._tasks.get(task_id)
        if task is None or task.era != era:
            raise MCPError(code=INVALID_PARAMS, message="Failed to retrieve task: Task not found", data=task_id)
        return task

    def list(self, era: TaskEra) -> list[DemoTask]:
        self._purge()
        return [task for task in self._tasks.values() if task.era == era]

    async def cancel(self, task: DemoTask, message: str = "The task was cancelled by request.") -> None:
        """Mark the task cancelled (before anything else can change it) and stop its body."""
        if task.terminal:
            return
        await task.update("cancelled", message)
        for pending in task.outstanding():
            pending.answered.set()
        if task.scope is not None:
            task.scope.cancel()

    async def _run(self, task: DemoTask, body: JobBody) -> None:
        with anyio.CancelScope() as scope:
            task.scope = scope
            try:
                result = await body(TaskRun(task))
            except MCPError as exc:
                task.error = exc.error
                await task.update("failed", exc.error.message)
            except Exception:
                logger.exception("task %s (%s) crashed", task.task_id, task.tool)
                task.error = ErrorData(code=INTERNAL_ERROR, message="Internal error")
                await task.update("failed", "Internal error")
            else:
                if not task.terminal:
                    task.result = result.model_dump(by_alias=True, mode="json", exclude_none=True)
                    await task.update("completed", "The tool reported an error" if result.is_error else "Done")

    def _purge(self) -> None:
        now = time.monotonic()
        for task_id, task in list(self._tasks.items()):
            if task.expired(now):
                if task.scope is not None:
                    task.scope.cancel()
                del self._tasks[task_id]
        if len(self._tasks) >= MAX_TASKS:
            # Forget the oldest finished tasks first.
            for task in sorted((t for t in self._tasks.values() if t.terminal), key=lambda t: t.last_updated_at):
                if len(self._tasks) < MAX_TASKS:
                    break
                del self._tasks[task.task_id]


def task_wire(task: DemoTask) -> dict[str, Any]:
    """The ``Task`` fields both flavours share (timestamps as ISO 8601 UTC)."""
    wire: dict[str, Any] = {
        "taskId": task.task_id,
        "status": task.status,
        "createdAt": _iso(task.created_at),
        "lastUpdatedAt": _iso(task.last_updated_at),
    }
    if task.status_message is not None:
        wire["statusMessage"] = task.status_message
    return wire
