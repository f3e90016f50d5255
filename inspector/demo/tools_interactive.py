"""Demo tools that talk back to the client: progress, logging, sampling, elicitation, roots, list changes."""

import time
from typing import Annotated, Any, get_args

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.prompts.base import Prompt
from mcp.server.mcpserver.resources import TextResource
from mcp_types import (
    CallToolResult,
    ClientCapabilities,
    CreateMessageRequest,
    CreateMessageRequestParams,
    CreateMessageResult,
    ElicitationCapability,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
    ListRootsRequest,
    ListRootsResult,
    LoggingLevel,
    ModelHint,
    ModelPreferences,
    PromptListChangedNotification,
    ResourceListChangedNotification,
    RootsCapability,
    SamplingCapability,
    SamplingMessage,
    ServerNotification,
    TextContent,
    ToolAnnotations,
    ToolListChangedNotification,
)
from pydantic import Field

from inspector.demo.client_input import Force, ask_client, is_modern, json_result, undeclared
from inspector.demo.media import icon
from inspector.demo.state import DemoState, connection_of

__all__ = ["ELICIT_SCHEMA", "LOG_LEVELS", "register_interactive_tools"]

LOG_LEVELS: tuple[LoggingLevel, ...] = get_args(LoggingLevel)
"""debug, info, notice, warning, error, critical, alert, emergency (RFC 5424 order)."""

BONUS_TOOL = "bonus_tool"
BONUS_PROMPT = "bonus_prompt"
BONUS_RESOURCE = "demo://bonus"

ELICIT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {
            "type": "string",
            "title": "Name",
            "description": "What should we call you?",
            "minLength": 1,
            "maxLength": 60,
            "default": "Ada Lovelace",
        },
        "email": {"type": "string", "title": "E-mail", "format": "email", "default": "ada@example.com"},
        "birthday": {"type": "string", "title": "Birthday", "format": "date", "default": "1815-12-10"},
        "age": {"type": "integer", "title": "Age", "minimum": 0, "maximum": 150, "default": 36},
        "rating": {
            "type": "number",
            "title": "How useful is this inspector?",
            "minimum": 0,
            "maximum": 5,
            "default": 4.5,
        },
        "subscribe": {"type": "boolean", "title": "Subscribe to the newsletter", "default": True},
        "color": {
            "type": "string",
            "title": "Favourite colour",
            "oneOf": [
                {"const": "red", "title": "Red"},
                {"const": "green", "title": "Green"},
                {"const": "blue", "title": "Blue"},
            ],
            "default": "blue",
        },
        "size": {"type": "string", "title": "T-shirt size", "enum": ["S", "M", "L", "XL"], "default": "M"},
        "topics": {
            "type": "array",
            "title": "Topics you like",
            "items": {
                "anyOf": [
                    {"const": "tools", "title": "Tools"},
                    {"const": "resources", "title": "Resources"},
                    {"const": "prompts", "title": "Prompts"},
                ]
            },
            "minItems": 1,
            "default": ["tools"],
        },
    },
    "required": ["name", "email"],
}
"""A form-mode requestedSchema with every primitive kind, titled and untitled enums, and defaults everywhere."""


async def _send_list_changed(ctx: Context, notification: ServerNotification) -> None:
    if is_modern(ctx):
        # 2026-07-28: change notifications only travel on subscriptions/listen streams, fed by the bus.
        if isinstance(notification, ToolListChangedNotification):
            await ctx.notify_tools_changed()
        elif isinstance(notification, PromptListChangedNotification):
            await ctx.notify_prompts_changed()
        else:
            await ctx.notify_resources_changed()
        return
    request_ctx = ctx.request_context
    await request_ctx.session.send_notification(notification, related_request_id=request_ctx.request_id)


def register_interactive_tools(server: MCPServer[Any], state: DemoState) -> None:
    @server.tool(title="Slow operation with progress", annotations=ToolAnnotations(read_only_hint=True))
    async def slow(
        ctx: Context,
        seconds: Annotated[float, Field(ge=0, le=3600, description="Total duration")] = 5.0,
        steps: Annotated[int, Field(ge=1, le=10_000, description="Number of progress notifications")] = 10,
    ) -> str:
        """Sleeps in steps, sending notifications/progress with a message after each; stops early when cancelled."""
        started = time.monotonic()
        done = 0
        try:
            for done in range(1, steps + 1):
                await anyio.sleep(seconds / steps)
                await ctx.report_progress(done, steps, f"step {done}/{steps}")
        except anyio.get_cancelled_exc_class():
            state.stderr(f"inspector-demo: slow cancelled after {done - 1}/{steps} steps")
            raise
        return f"Finished {steps} steps in {time.monotonic() - started:.2f}s"

    @server.tool(title="Log at every level", annotations=ToolAnnotations(read_only_hint=True))
    async def log_levels(
        ctx: Context,
        message: Annotated[str, Field(description="Text included in every log entry")] = "hello from the demo",
    ) -> str:
        """Sends one notifications/message per level, debug to emergency (honours logging/setLevel)."""
        connection = connection_of(ctx.request_context.session)
        minimum = connection.state.get("log_level", "debug") if connection is not None else "debug"
        floor = LOG_LEVELS.index(minimum) if minimum in LOG_LEVELS else 0
        sent: list[str] = []
        for index, level in enumerate(LOG_LEVELS):
            if index < floor:
                continue
            # Alternate plain strings and structured data: both are valid `data` payloads.
            data: Any = f"[{level}] {message}" if index % 2 == 0 else {"level": level, "message": message, "n": index}
            await ctx.log(level, data, logger_name="inspector-demo.levels")
            sent.append(level)
        skipped = [level for level in LOG_LEVELS if level not in sent]
        return f"sent: {', '.join(sent)}" + (
            f"; below the '{minimum}' threshold: {', '.join(skipped)}" if skipped else ""
        )

    @server.tool(title="Ask the client's LLM (sampling)", annotations=ToolAnnotations(open_world_hint=True))
    async def sample(
        ctx: Context,
        prompt: Annotated[str, Field(description="User message to sample")] = "Write a haiku about inspectors.",
        max_tokens: Annotated[int, Field(ge=1, le=100_000)] = 200,
        system_prompt: str | None = "You are a concise assistant.",
        temperature: Annotated[float | None, Field(ge=0, le=2)] = None,
        force: Force = False,
    ) -> CallToolResult | InputRequiredResult:
        """Sends sampling/createMessage to the client and returns what it answered."""
        if refused := undeclared(ctx, ClientCapabilities(sampling=SamplingCapability()), "sampling", force):
            return refused
        request = CreateMessageRequest(
            params=CreateMessageRequestParams(
                messages=[SamplingMessage(role="user", content=TextContent(text=prompt))],
                max_tokens=max_tokens,
                system_prompt=system_prompt,
                temperature=temperature,
                model_preferences=ModelPreferences(
                    hints=[ModelHint(name="claude")], intelligence_priority=0.8, speed_priority=0.5
                ),
                metadata={"origin": "inspector-demo"},
            )
        )
        answer = await ask_client(ctx, "sample", request, CreateMessageResult)
        if isinstance(answer, InputRequiredResult | CallToolResult):
            return answer
        return json_result(answer.model_dump(by_alias=True, mode="json", exclude_none=True))

    @server.tool(title="Ask the user (form elicitation)", annotations=ToolAnnotations(read_only_hint=True))
    async def elicit_form(
        ctx: Context,
        message: Annotated[str, Field(description="Text shown above the form")] = "Tell us a bit about yourself",
        force: Force = False,
    ) -> CallToolResult | InputRequiredResult:
        """Sends elicitation/create (form mode) with strings, numbers, booleans, enums and defaults."""
        if refused := undeclared(ctx, ClientCapabilities(elicitation=ElicitationCapability()), "elicitation", force):
            return refused
        request = ElicitRequest(params=ElicitRequestFormParams(message=message, requested_schema=ELICIT_SCHEMA))
        answer = await ask_client(ctx, "form", request, ElicitResult)
        if isinstance(answer, InputRequiredResult | CallToolResult):
            return answer
        return json_result(answer.model_dump(by_alias=True, mode="json", exclude_none=True))

    @server.tool(title="Ask for the client's roots", annotations=ToolAnnotations(read_only_hint=True))
    async def list_roots(ctx: Context, force: Force = False) -> CallToolResult | InputRequiredResult:
        """Sends roots/list to the client and returns the roots it reported."""
        if refused := undeclared(ctx, ClientCapabilities(roots=RootsCapability()), "roots", force):
            return refused
        answer = await ask_client(ctx, "roots", ListRootsRequest(), ListRootsResult)
        if isinstance(answer, InputRequiredResult | CallToolResult):
            return answer
        return json_result(answer.model_dump(by_alias=True, mode="json", exclude_none=True))

    async def bonus_tool(text: Annotated[str, Field(description="Anything")] = "surprise") -> str:
        """A tool that only exists after toggle_tool added it."""
        return f"bonus: {text[::-1]}"

    async def bonus_prompt(topic: Annotated[str, Field(description="Topic of the bonus prompt")]) -> str:
        """A prompt that only exists after toggle_tool added it."""
        return f"Tell me something surprising about {topic}."

    @server.tool(
        title="Add or remove the bonus tool",
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False),
    )
    async def toggle_tool(
        ctx: Context,
        enabled: Annotated[bool | None, Field(description="Force on/off; null flips the current state")] = None,
    ) -> str:
        """Adds or removes `bonus_tool`, `bonus_prompt` and `demo://bonus`, sending the list_changed notifications."""
        target = (not state.bonus_enabled) if enabled is None else enabled
        if target == state.bonus_enabled:
            return f"{BONUS_TOOL} is already {'enabled' if target else 'disabled'}; nothing changed"
        mcp = ctx.mcp_server
        if target:
            mcp.add_tool(bonus_tool, name=BONUS_TOOL, title="Bonus tool", icons=icon("tool"))
            mcp.add_prompt(Prompt.from_function(bonus_prompt, name=BONUS_PROMPT, title="Bonus prompt"))
            mcp.add_resource(
                TextResource(uri=BONUS_RESOURCE, name="bonus", title="Bonus resource", text="You found it!\n")
            )
        else:
            mcp.remove_tool(BONUS_TOOL)
            mcp.remove_prompt(BONUS_PROMPT)
            _remove_resource(mcp, BONUS_RESOURCE)
        state.bonus_enabled = target
        await _send_list_changed(ctx, ToolListChangedNotification())
        await _send_list_changed(ctx, PromptListChangedNotification())
        await _send_list_changed(ctx, ResourceListChangedNotification())
        verb = "added" if target else "removed"
        return f"{verb} {BONUS_TOOL}, {BONUS_PROMPT} and {BONUS_RESOURCE}; sent tools/prompts/resources list_changed"


def _remove_resource(server: MCPServer[Any], uri: str) -> None:
    # MCPServer 2.3.0 has add_resource() but no remove_resource(); reach into its resource manager.
    resources: dict[str, Any] | None = getattr(getattr(server, "_resource_manager", None), "_resources", None)
    if resources is not None:
        resources.pop(uri, None)
