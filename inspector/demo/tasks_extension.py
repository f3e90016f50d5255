"""The ``io.modelcontextprotocol/tasks`` extension (2026-07-28) as an SDK ``Extension``, plus the ``tasks/*``
methods of 2025-11-25 (the same method names serve both eras; each handler answers in the request's era).

Modern era: a task tool called by a client that declares the extension in its per-request capabilities
answers ``{"resultType": "task", taskId, status, ..., ttlMs, pollIntervalMs}`` at once (the server decides:
the demo always makes one). ``tasks/get`` answers the detailed task (``inputRequests`` while
``input_required``, ``result`` once completed, ``error`` once failed); ``tasks/update`` delivers
``inputResponses`` (unknown or already answered keys are ignored); ``tasks/cancel`` acknowledges and cancels.
A client without the extension gets ``task_slow`` inline and -32021 for the task-only tools.
"""

from typing import Any, Final

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.extension import Extension, MethodBinding
from mcp.server.mcpserver.server import require_client_extension
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_PARAMS,
    CallToolRequestParams,
    CancelTaskRequestParams,
    GetTaskPayloadRequestParams,
    GetTaskRequestParams,
    PaginatedRequestParams,
    RequestParams,
)
from mcp_types.methods import serialize_server_result
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_MODERN_VERSION, MODERN_PROTOCOL_VERSIONS
from pydantic import Field, ValidationError

from inspector.demo.tasks import DEFAULT_TTL_MS, INPUT_TYPES, DemoTask, TaskStore, task_wire
from inspector.demo.tasks_legacy import legacy_cancel, legacy_get, legacy_list, legacy_result
from inspector.demo.tools_tasks import Job

__all__ = ["TASKS_EXTENSION", "DemoTasksExtension", "UpdateTaskRequestParams", "modern_wire"]

TASKS_EXTENSION: Final = "io.modelcontextprotocol/tasks"


class UpdateTaskRequestParams(RequestParams):
    """``tasks/update`` params: the task and answers to its outstanding ``inputRequests``."""

    task_id: str
    input_responses: dict[str, dict[str, Any]] = Field(default_factory=dict)


def modern_wire(task: DemoTask, *, detailed: bool = False) -> dict[str, Any]:
    """The extension's ``Task``; ``detailed`` adds what ``tasks/get`` carries for the current status."""
    wire = {**task_wire(task), "ttlMs": task.ttl_ms, "pollIntervalMs": task.poll_interval_ms}
    if not detailed:
        return wire
    if task.status == "input_required":
        wire["inputRequests"] = {pending.key: pending.request for pending in task.outstanding()}
    elif task.status == "completed" and task.result is not None:
        wire["result"] = serialize_server_result("tools/call", LATEST_MODERN_VERSION, task.result)
    elif task.status == "failed" and task.error is not None:
        wire["error"] = task.error.model_dump(by_alias=True, mode="json", exclude_none=True)
    return wire


def _is_modern(ctx: ServerRequestContext[Any, Any]) -> bool:
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS


class DemoTasksExtension(Extension):
    identifier = TASKS_EXTENSION

    def __init__(self, jobs: dict[str, Job], store: TaskStore) -> None:
        self._jobs = jobs
        self._store = store

    def methods(self) -> list[MethodBinding]:
        legacy = frozenset(HANDSHAKE_PROTOCOL_VERSIONS)
        return [
            MethodBinding("tasks/get", GetTaskRequestParams, self._get),
            MethodBinding("tasks/cancel", CancelTaskRequestParams, self._cancel),
            MethodBinding("tasks/update", UpdateTaskRequestParams, self._update, frozenset(MODERN_PROTOCOL_VERSIONS)),
            MethodBinding("tasks/result", GetTaskPayloadRequestParams, self._result, legacy),
            MethodBinding("tasks/list", PaginatedRequestParams, self._list, legacy),
        ]

    async def intercept_tool_call(
        self, params: CallToolRequestParams, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        job = self._jobs.get(params.name)
        if job is None or not _is_modern(ctx):
            return await call_next(ctx)  # handshake-era task calls are LegacyTasks' (a middleware)
        capabilities = ctx.session.client_capabilities
        if TASKS_EXTENSION not in ((capabilities.extensions or {}) if capabilities is not None else {}):
            if job.task_support == "required":
                require_client_extension(ctx, TASKS_EXTENSION)  # raises -32021
            return await call_next(ctx)
        body = job.prepare(params.arguments or {})
        refused = job.missing_capability(ctx.session)
        if refused is not None:
            return refused
        task = self._store.start("modern", job.name, body, ttl_ms=DEFAULT_TTL_MS)
        return {"resultType": "task", **modern_wire(task)}

    async def _get(self, ctx: ServerRequestContext[Any, Any], params: GetTaskRequestParams) -> HandlerResult:
        if not _is_modern(ctx):
            return legacy_get(self._store, params)
        return modern_wire(self._store.get(params.task_id, "modern"), detailed=True)

    async def _cancel(self, ctx: ServerRequestContext[Any, Any], params: CancelTaskRequestParams) -> HandlerResult:
        if not _is_modern(ctx):
            return await legacy_cancel(self._store, params)
        await self._store.cancel(self._store.get(params.task_id, "modern"))
        return {}

    async def _update(self, ctx: ServerRequestContext[Any, Any], params: UpdateTaskRequestParams) -> HandlerResult:
        task = self._store.get(params.task_id, "modern")
        outstanding = {pending.key: pending for pending in task.outstanding()}
        for key, response in params.input_responses.items():
            pending = outstanding.get(key)
            if pending is None:
                continue  # unknown or already answered: ignored, as the extension says
            _, result_type = INPUT_TYPES[str(pending.request.get("method"))]
            try:
                answer = result_type.model_validate(response)
            except ValidationError:
                raise MCPError(
                    code=INVALID_PARAMS, message=f"inputResponses[{key!r}] is not a valid answer", data=key
                ) from None
            task.answer(key, answer.model_dump(by_alias=True, mode="json", exclude_none=True))
        return {}

    async def _result(self, ctx: ServerRequestContext[Any, Any], params: GetTaskPayloadRequestParams) -> HandlerResult:
        return await legacy_result(self._store, ctx, params)

    async def _list(self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams) -> HandlerResult:
        return legacy_list(self._store, params)
