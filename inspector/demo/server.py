"""The bundled demo MCP server: builds an ``MCPServer`` that exercises every feature an inspector shows.

``build_server()`` returns the configured server; ``run_stdio`` / ``run_http`` / ``run_sse`` serve it. The server
is built on the official SDK's ``MCPServer``; the few things ``MCPServer`` 2.3.0 has no API for are added on its
low-level ``Server`` (see ``_install_lowlevel_handlers``).
"""

import socket
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.server.mcpserver import MCPServer
from mcp.server.subscriptions import ResourceUpdated
from mcp_types import (
    CompleteRequestParams,
    CompleteResult,
    Completion,
    EmptyResult,
    NotificationParams,
    PromptReference,
    ResourceTemplateReference,
    SetLevelRequestParams,
    SubscribeRequestParams,
    UnsubscribeRequestParams,
)
from starlette.applications import Starlette

import inspector
from inspector.demo.media import icon
from inspector.demo.prompts import complete_prompt, register_prompts
from inspector.demo.resources import complete_template, register_resources
from inspector.demo.state import CLOCK_URI, DemoState, connection_of
from inspector.demo.tools_basic import build_static_tools, register_basic_tools
from inspector.demo.tools_content import register_content_tools
from inspector.demo.tools_interactive import register_interactive_tools

__all__ = ["SERVER_NAME", "build_server", "run_http", "run_sse", "run_stdio"]

SERVER_NAME = "inspector-demo"
LOOPBACK = "127.0.0.1"

INSTRUCTIONS = """\
# Inspector demo server

A server built to be **inspected**: every MCP feature has a small, deterministic example.

* **Tools** — `echo` and `add` (fast basics), `get_weather` (outputSchema + structuredContent),
  `bad_structured` (structuredContent that violates its outputSchema), `business_error` (isError),
  `protocol_error` (JSON-RPC error), `create_event` / `validate_order` (rich input schemas),
  `get_image`, `get_audio`, `get_resource_link`, `get_embedded_resource`, `mixed_content`,
  `slow` (progress + cancellation), `log_levels`, `sample`, `elicit_form`, `list_roots`,
  `toggle_tool` (list_changed), `write_file` / `delete_file`, `large_result`.
* **Resources** — text, markdown, JSON, PNG and WAV; templates `demo://users/{user_id}/profile`,
  `demo://files/{+path}`, `demo://colors/{name}.png`, `demo://search{?q,limit}` with completions;
  `demo://clock` changes every few seconds — subscribe to it.
* **Prompts** — `greeting`, `code_review` (multi-message, embedded resource, image), `describe_media`.

Nothing here touches the network or your files: the file system is in memory.
"""


def build_server(*, clock_interval: float = 2.0) -> MCPServer[DemoState]:
    """A fresh, fully registered demo server (state is per server instance)."""
    state = DemoState(clock_interval=clock_interval)

    @asynccontextmanager
    async def lifespan(_app: MCPServer[DemoState]) -> AsyncIterator[DemoState]:
        async with anyio.create_task_group() as group:
            group.start_soon(_tick_clock, state)
            try:
                yield state
            finally:
                group.cancel_scope.cancel()

    server: MCPServer[DemoState] = MCPServer(
        SERVER_NAME,
        title="Inspector Demo Server",
        description="Exercises every MCP feature an inspector can show",
        instructions=INSTRUCTIONS,
        website_url="https://modelcontextprotocol.io",
        icons=icon("server", themed=True),
        version=inspector.__version__,
        tools=build_static_tools(),
        log_level="WARNING",
        lifespan=lifespan,
        subscriptions=state.bus,
    )
    register_basic_tools(server)
    register_content_tools(server)
    register_interactive_tools(server, state)
    register_resources(server, state)
    register_prompts(server)
    _install_lowlevel_handlers(server, state)
    server.middleware.append(_advertise_list_changed)
    return server


async def _tick_clock(state: DemoState) -> None:
    """Advance the clock and tell subscribers: resources/subscribe (handshake era) and the listen bus (2026)."""
    while True:
        await anyio.sleep(state.clock_interval)
        state.clock_ticks += 1
        await state.subscriptions.notify_updated(CLOCK_URI)
        await state.bus.publish(ResourceUpdated(uri=CLOCK_URI))


def _lowlevel(server: MCPServer[Any]) -> Server[Any]:
    # MCPServer keeps its low-level Server private; the SDK's own Client reaches it the same way.
    lowlevel: Server[Any] = server._lowlevel_server
    return lowlevel


def _install_lowlevel_handlers(server: MCPServer[Any], state: DemoState) -> None:
    """Handlers MCPServer 2.3.0 does not offer: resources/(un)subscribe, logging/setLevel, completion, roots.

    Registering ``resources/subscribe`` also makes the server advertise ``resources.subscribe: true`` and
    ``logging/setLevel`` makes it advertise ``logging``. (MCPServer's ``completion()`` decorator works too, but
    is untyped; the low-level registration is equivalent.)
    """
    lowlevel = _lowlevel(server)

    async def subscribe(ctx: ServerRequestContext[Any, Any], params: SubscribeRequestParams) -> EmptyResult:
        state.subscriptions.subscribe(ctx.session, params.uri)
        return EmptyResult()

    async def unsubscribe(ctx: ServerRequestContext[Any, Any], params: UnsubscribeRequestParams) -> EmptyResult:
        state.subscriptions.unsubscribe(ctx.session, params.uri)
        return EmptyResult()

    async def set_level(ctx: ServerRequestContext[Any, Any], params: SetLevelRequestParams) -> EmptyResult:
        connection = connection_of(ctx.session)
        if connection is not None:
            connection.state["log_level"] = params.level
        return EmptyResult()

    async def complete(ctx: ServerRequestContext[Any, Any], params: CompleteRequestParams) -> CompleteResult:
        ref = params.ref
        context = params.context.arguments if params.context is not None else None
        values: list[str] = []
        if isinstance(ref, PromptReference):
            values = complete_prompt(ref.name, params.argument.name, params.argument.value, context)
        elif isinstance(ref, ResourceTemplateReference):
            values = complete_template(state, ref.uri, params.argument.name, params.argument.value)
        return CompleteResult(completion=Completion(values=values[:100], total=len(values), has_more=len(values) > 100))

    async def roots_changed(ctx: ServerRequestContext[Any, Any], params: NotificationParams) -> None:
        # Visible reaction for the inspector: a log entry on the connection's standalone channel.
        await ctx.session.send_log_message(
            "info", {"event": "roots/list_changed", "hint": "call list_roots to see them"}, "inspector-demo.roots"
        )

    lowlevel.add_request_handler("resources/subscribe", SubscribeRequestParams, subscribe)
    lowlevel.add_request_handler("resources/unsubscribe", UnsubscribeRequestParams, unsubscribe)
    lowlevel.add_request_handler("logging/setLevel", SetLevelRequestParams, set_level)
    lowlevel.add_request_handler("completion/complete", CompleteRequestParams, complete)
    lowlevel.add_notification_handler("notifications/roots/list_changed", NotificationParams, roots_changed)


async def _advertise_list_changed(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Set ``listChanged: true`` for tools, prompts and resources in the ``initialize`` result.

    The SDK derives those flags from ``NotificationOptions`` passed to ``create_initialization_options()``,
    which ``MCPServer``'s stdio and Streamable HTTP runners call without options (all false). ``toggle_tool``
    really sends the notifications, so the capability is rewritten on the way out.
    """
    result = await call_next(ctx)
    if ctx.method == "initialize" and isinstance(result, dict):
        capabilities = result.get("capabilities")
        if isinstance(capabilities, dict):
            for feature in ("tools", "prompts", "resources"):
                entry = capabilities.get(feature)
                if isinstance(entry, dict):
                    entry["listChanged"] = True
    return result


async def run_stdio(server: MCPServer[Any]) -> None:
    await server.run_stdio_async()


def _listen(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((LOOPBACK, port))
    sock.listen(128)
    return sock


async def _serve(app: Starlette, port: int, path: str) -> None:
    import uvicorn

    sock = _listen(port)
    actual = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=2)
    # The socket is already listening, so clients that connect before uvicorn starts wait in the backlog.
    print(f"listening on http://{LOOPBACK}:{actual}{path}", file=sys.stderr, flush=True)
    await uvicorn.Server(config).serve(sockets=[sock])


async def run_http(
    server: MCPServer[Any], port: int = 0, *, json_response: bool = False, stateless: bool = False
) -> None:
    """Serve Streamable HTTP at ``http://127.0.0.1:PORT/mcp`` (loopback only; port 0 picks a free one)."""
    app = server.streamable_http_app(host=LOOPBACK, json_response=json_response, stateless_http=stateless)
    await _serve(app, port, "/mcp")


async def run_sse(server: MCPServer[Any], port: int = 0) -> None:
    """Serve the legacy HTTP+SSE transport at ``http://127.0.0.1:PORT/sse`` (loopback only)."""
    await _serve(server.sse_app(host=LOOPBACK), port, "/sse")
