"""2025-11-25 tasks on the wire (handshake era), over the engine in :mod:`inspector.demo.tasks`.

* ``initialize`` advertises ``tasks: {list, cancel, requests.tools.call}``; ``tools/list`` gives the task tools
  ``execution.taskSupport``.
* ``tools/call`` with ``params.task`` on a task tool answers ``CreateTaskResult`` at once; on any other tool
  -32601; a ``required`` tool called without ``params.task`` -32601 (the 2025-11-25 rules).
* ``tasks/get`` and ``tasks/cancel`` answer the ``Task``; ``tasks/list`` pages them; ``tasks/result`` blocks
  until the task ends and, while it waits, sends the task's pending requests (``elicitation/create`` with the
  ``io.modelcontextprotocol/related-task`` ``_meta``) on its own response stream, as the spec suggests.
* ``notifications/tasks/status`` goes to the connection that created the task on every status change.

The middleware short-circuits task-augmented calls: a ``CreateTaskResult`` is not a ``CallToolResult``, so it
must not reach the SDK's per-version result sieve.
"""

from collections.abc import Mapping
from typing import Any, Final

import anyio
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.session import ServerSession
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp_types import (
    INVALID_PARAMS,
    METHOD_NOT_FOUND,
    CancelTaskRequestParams,
    ErrorData,
    GetTaskPayloadRequestParams,
    GetTaskRequestParams,
    PaginatedRequestParams,
    TaskStatusNotificationParams,
)
from mcp_types.methods import serialize_server_result

from inspector.demo.state import connection_of
from inspector.demo.tasks import (
    DEFAULT_TTL_MS,
    INPUT_TYPES,
    MAX_TTL_MS,
    DemoTask,
    PendingInput,
    StatusListener,
    TaskStore,
    task_wire,
)
from inspector.demo.tools_tasks import Job

__all__ = [
    "RELATED_TASK_META_KEY",
    "TASKS_VERSION",
    "LegacyTasks",
    "legacy_cancel",
    "legacy_get",
    "legacy_list",
    "legacy_result",
    "legacy_wire",
]

TASKS_VERSION: Final = "2025-11-25"
"""The only handshake-era version that has tasks."""

RELATED_TASK_META_KEY: Final = "io.modelcontextprotocol/related-task"
IMMEDIATE_RESPONSE_META_KEY: Final = "io.modelcontextprotocol/model-immediate-response"
PAGE_SIZE: Final = 20

_CAPABILITY: Final[dict[str, Any]] = {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}


def legacy_wire(task: DemoTask) -> dict[str, Any]:
    return {**task_wire(task), "ttl": task.ttl_ms, "pollInterval": task.poll_interval_ms}


class LegacyTasks:
    """Server middleware: the 2025-11-25 task surface of ``initialize``, ``tools/list`` and ``tools/call``."""

    def __init__(self, jobs: dict[str, Job], store: TaskStore) -> None:
        self._jobs = jobs
        self._store = store

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method == "initialize":
            result = await call_next(ctx)
            if isinstance(result, dict) and result.get("protocolVersion") == TASKS_VERSION:
                capabilities = result.get("capabilities")
                if isinstance(capabilities, dict):
                    capabilities["tasks"] = _CAPABILITY
            return result
        if ctx.protocol_version != TASKS_VERSION:
            return await call_next(ctx)
        if ctx.method == "tools/list":
            result = await call_next(ctx)
            for tool in result.get("tools", []) if isinstance(result, dict) else []:
                job = self._jobs.get(str(tool.get("name"))) if isinstance(tool, dict) else None
                if job is not None:
                    tool["execution"] = {"taskSupport": job.task_support}
            return result
        if ctx.method != "tools/call" or not _initialized(ctx.session):
            return await call_next(ctx)
        params = ctx.params or {}
        name = params.get("name")
        job = self._jobs.get(name) if isinstance(name, str) else None
        task = params.get("task")
        if task is None:
            if job is not None and job.task_support == "required":
                raise MCPError(
                    code=METHOD_NOT_FOUND,
                    message=f"Tool {name!r} requires task-augmented execution (params.task)",
                    data=name,
                )
            return await call_next(ctx)
        if job is None:
            raise MCPError(code=METHOD_NOT_FOUND, message=f"Tool {name!r} does not support tasks", data=name)
        return await self._create(ctx, job, params, task)

    async def _create(
        self, ctx: ServerRequestContext[Any, Any], job: Job, params: Mapping[str, Any], task: Any
    ) -> dict[str, Any]:
        if not isinstance(task, dict):
            raise MCPError(code=INVALID_PARAMS, message="params.task must be an object")
        arguments = params.get("arguments") or {}
        if not isinstance(arguments, dict):
            raise MCPError(code=INVALID_PARAMS, message="params.arguments must be an object")
        body = job.prepare(arguments)
        refused = job.missing_capability(ctx.session)
        if refused is not None:
            dumped = refused.model_dump(by_alias=True, mode="json", exclude_none=True)
            return serialize_server_result("tools/call", TASKS_VERSION, dumped)
        ttl = task.get("ttl")
        ttl_ms = min(ttl, MAX_TTL_MS) if isinstance(ttl, int) and not isinstance(ttl, bool) and ttl > 0 else None
        created = self._store.start(
            "legacy", job.name, body, ttl_ms=ttl_ms or DEFAULT_TTL_MS, listener=_status_notifier(ctx.session)
        )
        immediate = f"Started {job.name} as task {created.task_id}; poll tasks/get, then fetch tasks/result."
        return {"task": legacy_wire(created), "_meta": {IMMEDIATE_RESPONSE_META_KEY: immediate}}


def _initialized(session: ServerSession) -> bool:
    connection = connection_of(session)
    return connection is None or connection.initialize_accepted


def _status_notifier(session: ServerSession) -> StatusListener | None:
    """Sends ``notifications/tasks/status`` on the creating connection's standalone channel (best effort)."""
    connection = connection_of(session)
    if connection is None:
        return None

    async def notify(task: DemoTask) -> None:
        # Checked against the 2025-11-25 model so a malformed notification fails here, not in a client.
        params = TaskStatusNotificationParams.model_validate(legacy_wire(task))
        await connection.notify(
            "notifications/tasks/status", params.model_dump(by_alias=True, mode="json", exclude_none=True)
        )

    return notify


# --- the tasks/* methods ----------------------------------------------------------------------------------


def legacy_get(store: TaskStore, params: GetTaskRequestParams) -> dict[str, Any]:
    return legacy_wire(store.get(params.task_id, "legacy"))


def legacy_list(store: TaskStore, params: PaginatedRequestParams) -> dict[str, Any]:
    tasks = store.list("legacy")
    start = 0
    if params.cursor is not None:
        if not params.cursor.isdigit() or int(params.cursor) > len(tasks):
            raise MCPError(code=INVALID_PARAMS, message="Invalid cursor", data=params.cursor)
        start = int(params.cursor)
    page = tasks[start : start + PAGE_SIZE]
    result: dict[str, Any] = {"tasks": [legacy_wire(task) for task in page]}
    if start + PAGE_SIZE < len(tasks):
        result["nextCursor"] = str(start + PAGE_SIZE)
    return result


async def legacy_cancel(store: TaskStore, params: CancelTaskRequestParams) -> dict[str, Any]:
    task = store.get(params.task_id, "legacy")
    if task.terminal:
        raise MCPError(
            code=INVALID_PARAMS, message=f"Cannot cancel task: it is already {task.status}", data=task.task_id
        )
    await store.cancel(task)
    return legacy_wire(task)


async def legacy_result(
    store: TaskStore, ctx: ServerRequestContext[Any, Any], params: GetTaskPayloadRequestParams
) -> dict[str, Any]:
    """Wait for the task to end, relaying its pending requests to the client meanwhile; then its outcome."""
    task = store.get(params.task_id, "legacy")
    related = {RELATED_TASK_META_KEY: {"taskId": task.task_id}}
    while not task.terminal:
        for pending in task.outstanding():
            if not pending.claimed:
                pending.claimed = True
                await _relay(ctx, task, pending, related)
        if not task.terminal and not any(not p.claimed for p in task.outstanding()):
            await task.wait_changed()
    if task.status == "completed" and task.result is not None:
        result = serialize_server_result("tools/call", TASKS_VERSION, task.result)
        result["_meta"] = {**(result.get("_meta") or {}), **related}
        return result
    if task.error is not None:
        raise MCPError.from_error_data(task.error)
    raise MCPError(code=INVALID_PARAMS, message="The task was cancelled before it produced a result", data=task.task_id)


async def _relay(
    ctx: ServerRequestContext[Any, Any], task: DemoTask, pending: PendingInput, related: dict[str, Any]
) -> None:
    """Send one pending request to the client on this ``tasks/result`` stream and hand the task the answer."""
    method = pending.request.get("method")
    request_type, result_type = INPUT_TYPES[str(method)]
    params = {**(pending.request.get("params") or {}), "_meta": related}
    request = request_type.model_validate({"method": method, "params": params})
    try:
        answer = await ctx.session.send_request(
            request,  # type: ignore[arg-type]
            result_type,
            metadata=ServerMessageMetadata(related_request_id=ctx.request_id),
        )
    except MCPError as exc:
        task.refuse(pending.key, exc.error)
        return
    except anyio.get_cancelled_exc_class():
        pending.claimed = False  # the client went away: the next tasks/result asks again
        raise
    except Exception as exc:
        task.refuse(pending.key, ErrorData(code=INVALID_PARAMS, message=f"Invalid answer from the client: {exc}"))
        return
    task.answer(pending.key, answer.model_dump(by_alias=True, mode="json", exclude_none=True))
