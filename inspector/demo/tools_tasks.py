"""Demo tools that run as tasks: a slow one, one that needs input while running, one to cancel.

Each is an ordinary ``MCPServer`` tool (listed, schema-validated) plus a *job body* the task engine runs.

========================  ===========  =========================================================================
tool                      taskSupport  what the task does
========================  ===========  =========================================================================
``task_slow``             optional     reports ``step i/n`` a few times and finishes; called without a task it
                                       runs inline, with progress notifications
``task_needs_input``      required     asks for an approval (form elicitation) while running, then finishes;
                                       needs the client's elicitation capability
``task_cancellable``      required     counts for up to ``seconds``, reporting as it goes; cancel it
========================  ===========  =========================================================================

A *required* tool called the plain way is refused: -32601 in the handshake era (2025-11-25 rule), -32021
(missing the ``io.modelcontextprotocol/tasks`` capability) in the modern era.
"""

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Protocol

import anyio
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.tools import Tool
from mcp.server.session import ServerSession
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    CallToolResult,
    ClientCapabilities,
    ElicitationCapability,
    ElicitResult,
    TextContent,
    ToolAnnotations,
)
from pydantic import Field, ValidationError

from inspector.demo.media import icon
from inspector.demo.tasks import JobBody

__all__ = ["APPROVAL_KEY", "Job", "JobControl", "TaskSupport", "build_task_tools"]

TaskSupport = Literal["optional", "required"]

APPROVAL_KEY = "approval"
"""The ``inputRequests`` key ``task_needs_input`` asks under."""

APPROVAL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "approve": {"type": "boolean", "title": "Approve", "description": "Go ahead?", "default": False},
        "note": {"type": "string", "title": "Note", "maxLength": 200},
    },
    "required": ["approve"],
}


class JobControl(Protocol):
    """What a job body may do, whether it runs as a task or inline."""

    async def progress(self, done: int, total: int, message: str) -> None: ...

    async def ask(self, key: str, request: dict[str, Any], message: str) -> dict[str, Any]: ...


def _text(text: str, *, is_error: bool = False) -> CallToolResult:
    return CallToolResult(content=[TextContent(text=text)], is_error=is_error)


# --- job bodies ------------------------------------------------------------------------------------------


async def slow_steps(run: JobControl, seconds: float, steps: int) -> CallToolResult:
    for done in range(1, steps + 1):
        await anyio.sleep(seconds / steps)
        await run.progress(done, steps, f"step {done}/{steps}")
    return _text(f"Finished {steps} steps in about {seconds:g}s")


async def needs_approval(run: JobControl, message: str) -> CallToolResult:
    await run.progress(0, 2, "preparing")
    await anyio.sleep(0.2)
    request = {
        "method": "elicitation/create",
        "params": {"mode": "form", "message": message, "requestedSchema": APPROVAL_SCHEMA},
    }
    answer = ElicitResult.model_validate(await run.ask(APPROVAL_KEY, request, "waiting for approval"))
    await run.progress(1, 2, f"approval answered: {answer.action}")
    await anyio.sleep(0.2)
    approved = answer.action == "accept" and bool((answer.content or {}).get("approve"))
    outcome = {"approved": approved, "answer": answer.model_dump(by_alias=True, mode="json", exclude_none=True)}
    return _text(json.dumps(outcome))


async def count_until_cancelled(run: JobControl, seconds: float) -> CallToolResult:
    ticks = max(1, round(seconds / 0.25))
    for tick in range(1, ticks + 1):
        await anyio.sleep(0.25)
        if tick % 2 == 0 or tick == ticks:
            await run.progress(tick, ticks, f"{tick * 0.25:g}s of {seconds:g}s")
    return _text(f"Not cancelled: counted to {seconds:g}s")


# --- the tools -------------------------------------------------------------------------------------------


class _InlineRun:
    """A job body run inside the ``tools/call`` itself: progress becomes ``notifications/progress``."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx

    async def progress(self, done: int, total: int, message: str) -> None:
        await self._ctx.report_progress(done, total, message)

    async def ask(self, key: str, request: dict[str, Any], message: str) -> dict[str, Any]:
        raise MCPError(code=INVALID_REQUEST, message="This job asks for input only when it runs as a task")


def _task_only(name: str) -> MCPError:
    return MCPError(code=INVALID_REQUEST, message=f"{name} runs only as a task", data=name)


Seconds = Annotated[float, Field(ge=0.1, le=60, description="How long the job runs")]


async def task_slow(
    ctx: Context,
    seconds: Seconds = 2.0,
    steps: Annotated[int, Field(ge=1, le=20, description="Status updates along the way")] = 4,
) -> CallToolResult:
    """A slow job: reports 'step i/n' a few times and finishes. taskSupport optional (a task if the client
    can take one, else inline with progress notifications)."""
    return await slow_steps(_InlineRun(ctx), seconds, steps)


async def task_needs_input(
    message: Annotated[str, Field(description="What the approval form asks")] = "Deploy the demo to production?",
) -> CallToolResult:
    """A job that needs the user's approval (form elicitation) while it runs. taskSupport required."""
    raise _task_only("task_needs_input")


async def task_cancellable(
    seconds: Annotated[float, Field(ge=1, le=300, description="How long it counts unless cancelled")] = 5.0,
) -> CallToolResult:
    """A long job that reports as it counts; cancel it with tasks/cancel. taskSupport required."""
    raise _task_only("task_cancellable")


@dataclass(frozen=True)
class Job:
    """A task-capable tool: its listing, its task support and how to build its body from arguments."""

    tool: Tool
    task_support: TaskSupport
    body: Callable[..., Any]
    """``async (run, **arguments) -> CallToolResult``."""
    needs: tuple[ClientCapabilities, str] | None = None
    """A client capability the job cannot run without, and its name."""

    @property
    def name(self) -> str:
        return self.tool.name

    def prepare(self, arguments: dict[str, Any]) -> JobBody:
        """The job body for these arguments, validated against the tool's schema (-32602 when invalid)."""
        try:
            model = self.tool.fn_metadata.arg_model.model_validate(arguments)
        except ValidationError as exc:
            fields = sorted({".".join(str(part) for part in err["loc"]) for err in exc.errors()})
            raise MCPError(
                code=INVALID_PARAMS, message=f"Invalid arguments for {self.name}", data={"fields": fields}
            ) from None
        kwargs = model.model_dump_one_level()

        async def body(run: JobControl) -> CallToolResult:
            result: CallToolResult = await self.body(run, **kwargs)
            return result

        return body

    def missing_capability(self, session: ServerSession) -> CallToolResult | None:
        """An isError result when the client lacks what the job needs, else None."""
        if self.needs is None:
            return None
        capability, label = self.needs
        if session.check_client_capability(capability):
            return None
        return _text(f"{self.name} needs the client's '{label}' capability, which it did not declare.", is_error=True)


def _tool(fn: Callable[..., Any], title: str, read_only: bool) -> Tool:
    return Tool.from_function(
        fn,
        title=title,
        annotations=ToolAnnotations(read_only_hint=read_only, open_world_hint=False),
        icons=icon("tool"),
        meta={"inspector.demo/category": "tasks"},
        structured_output=False,
    )


def build_task_tools() -> dict[str, Job]:
    """The task-capable tools, by name (fresh ``Tool`` objects per server)."""
    jobs = [
        Job(_tool(task_slow, "Slow job (task optional)", True), "optional", slow_steps),
        Job(
            _tool(task_needs_input, "Job that needs approval (task required)", False),
            "required",
            needs_approval,
            needs=(ClientCapabilities(elicitation=ElicitationCapability()), "elicitation"),
        ),
        Job(_tool(task_cancellable, "Cancellable job (task required)", True), "required", count_until_cancelled),
    ]
    return {job.name: job for job in jobs}
