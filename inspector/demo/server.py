"""The bundled demo MCP server: builds an ``MCPServer`` that exercises every feature an inspector shows.

``build_server()`` returns the configured server; ``run_stdio`` / ``run_http`` / ``run_sse`` serve it (the first
two in one protocol era or both, see :mod:`inspector.demo.eras`). The server is built on the official SDK's
``MCPServer``; the few things ``MCPServer`` 2.3.0 has no API for are added on its low-level ``Server`` (see
``_install_lowlevel_handlers``) or as middleware (2025-11-25 tasks, :mod:`inspector.demo.tasks_legacy`).
"""

import socket
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
from mcp.server.caching import CacheableMethod, CacheHint
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
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
    SubscriptionsListenRequestParams,
    UnsubscribeRequestParams,
)
from starlette.types import ASGIApp

import inspector
from inspector.demo.era_http import EraGate
from inspector.demo.eras import DEFAULT_ERA, Era, lowlevel_of, serve_stdio
from inspector.demo.listen import DemoListen
from inspector.demo.media import icon
from inspector.demo.mrtr import register_mrtr
from inspector.demo.prompts import complete_prompt, register_prompts
from inspector.demo.resources import complete_template, register_resources
from inspector.demo.state import CLOCK_URI, DemoState, connection_of, print_to_stderr
from inspector.demo.tasks_extension import DemoTasksExtension
from inspector.demo.tasks_legacy import LegacyTasks
from inspector.demo.tools_basic import build_static_tools, register_basic_tools
from inspector.demo.tools_content import register_content_tools
from inspector.demo.tools_headers import build_header_tools, register_header_tools
from inspector.demo.tools_interactive import register_interactive_tools
from inspector.demo.tools_tasks import build_task_tools
from inspector.demo.variant_changed import DEFAULT_VARIANT, Variant, apply_variant

__all__ = ["CACHE_HINTS", "INSTRUCTIONS", "SERVER_NAME", "build_server", "run_http", "run_sse", "run_stdio"]

SERVER_NAME = "inspector-demo"
LOOPBACK = "127.0.0.1"

INSTRUCTIONS = """\
# Inspector demo server

A server built to be **inspected**: every MCP feature has a small, deterministic example. It speaks the
handshake era (2025-11-25 and older) and 2026-07-28; `--era legacy|modern|both` limits it to one.

* **Tools** — `echo` and `add` (fast basics), `get_weather` (outputSchema + structuredContent),
  `bad_structured` (structuredContent that violates its outputSchema), `business_error` (isError),
  `protocol_error` (JSON-RPC error), `create_event` / `validate_order` (rich input schemas),
  `get_image`, `get_audio`, `get_resource_link`, `get_embedded_resource`, `mixed_content`,
  `slow` (progress + cancellation), `log_levels`, `sample`, `elicit_form`, `list_roots`,
  `toggle_tool` (list_changed), `write_file` / `delete_file`, `large_result`.
* **Input from the client** — `sample`, `elicit_form`, `list_roots` (one request each), `ask_twice` (two
  rounds), `ask_all_at_once` (three requests in one round), `retry_with_state` (requestState only), the
  prompt `greet_me` and the secrets `demo://files/vault/…`: server requests in the handshake era,
  `input_required` results (MRTR) in 2026-07-28.
* **Tasks** — `task_slow` (optional: a task or inline), `task_needs_input` (asks for approval while running),
  `task_cancellable`: 2025-11-25 tasks (`params.task`, `tasks/get|result|list|cancel`,
  `notifications/tasks/status`) and the `io.modelcontextprotocol/tasks` extension (`resultType: "task"`,
  `tasks/get|update|cancel`).
* **HTTP headers** — `route_query` mirrors `region`, `priority`, `verbose` into `Mcp-Param-*` headers;
  `bad_header_tool` has an invalid `x-mcp-header` (on a number) that clients must drop.
* **Resources** — text, markdown, JSON, PNG and WAV; templates `demo://users/{user_id}/profile`,
  `demo://files/{+path}` (files under `vault/` ask before they are revealed), `demo://colors/{name}.png`,
  `demo://search{?q,limit}` with completions; `demo://clock` changes every few seconds — subscribe to it
  (`resources/subscribe`, or `subscriptions/listen`, which acknowledges only `demo://clock` and
  `demo://files/…` URIs and no `taskIds`).
* **Prompts** — `greeting`, `code_review` (multi-message, embedded resource, image), `describe_media`,
  `greet_me`.
* **Caching (2026-07-28)** — `server/discover` and `resources/templates/list` are cacheable (`ttlMs`, public);
  the lists that `toggle_tool` changes are `ttlMs: 0`.

Nothing here touches the network or your files: the file system is in memory.
"""

CACHE_HINTS: dict[CacheableMethod, CacheHint] = {
    "server/discover": CacheHint(ttl_ms=60_000, scope="public"),
    "resources/templates/list": CacheHint(ttl_ms=3_600_000, scope="public"),
    "tools/list": CacheHint(ttl_ms=0, scope="private"),
    "prompts/list": CacheHint(ttl_ms=0, scope="private"),
    "resources/list": CacheHint(ttl_ms=0, scope="private"),
    "resources/read": CacheHint(ttl_ms=0, scope="private"),
}
"""``ttlMs``/``cacheScope`` per cacheable method: static lists may be cached, changing ones are always stale."""


def build_server(
    *,
    clock_interval: float = 2.0,
    stderr: Callable[[str], None] = print_to_stderr,
    variant: Variant = DEFAULT_VARIANT,
) -> MCPServer[DemoState]:
    """A fresh, fully registered demo server (state is per server instance); ``stderr`` takes its stderr lines;
    ``variant="changed"`` is the deliberately changed build (:mod:`inspector.demo.variant_changed`)."""
    state = DemoState(clock_interval=clock_interval, stderr=stderr)
    jobs = build_task_tools()

    @asynccontextmanager
    async def lifespan(_app: MCPServer[DemoState]) -> AsyncIterator[DemoState]:
        async with anyio.create_task_group() as group:
            state.tasks.task_group = group
            group.start_soon(_tick_clock, state)
            try:
                yield state
            finally:
                state.tasks.task_group = None
                group.cancel_scope.cancel()

    server: MCPServer[DemoState] = MCPServer(
        SERVER_NAME,
        title="Inspector Demo Server",
        description="Exercises every MCP feature an inspector can show",
        instructions=INSTRUCTIONS,
        website_url="https://modelcontextprotocol.io",
        icons=icon("server", themed=True),
        version=inspector.__version__,
        tools=[*build_static_tools(), *build_header_tools(), *(job.tool for job in jobs.values())],
        extensions=[DemoTasksExtension(jobs, state.tasks)],
        cache_hints=CACHE_HINTS,
        log_level="WARNING",
        lifespan=lifespan,
        subscriptions=state.bus,
        middleware=[LegacyTasks(jobs, state.tasks), _advertise_list_changed],
    )
    register_basic_tools(server)
    register_content_tools(server)
    register_interactive_tools(server, state)
    register_header_tools(server)
    register_mrtr(server)
    register_resources(server, state)
    register_prompts(server)
    _install_lowlevel_handlers(server, state)
    apply_variant(server, variant)
    return server


async def _tick_clock(state: DemoState) -> None:
    """Advance the clock and tell subscribers: resources/subscribe (handshake era) and the listen bus (2026)."""
    while True:
        await anyio.sleep(state.clock_interval)
        state.clock_ticks += 1
        await state.subscriptions.notify_updated(CLOCK_URI)
        await state.bus.publish(ResourceUpdated(uri=CLOCK_URI))


def _install_lowlevel_handlers(server: MCPServer[Any], state: DemoState) -> None:
    """Handlers MCPServer 2.3.0 does not offer: resources/(un)subscribe, logging/setLevel, completion, roots,
    and a ``subscriptions/listen`` whose acknowledgement can be a subset (:mod:`inspector.demo.listen`).

    Registering ``resources/subscribe`` also makes the server advertise ``resources.subscribe: true`` and
    ``logging/setLevel`` makes it advertise ``logging``. (MCPServer's ``completion()`` decorator works too, but
    is untyped; the low-level registration is equivalent.)
    """
    lowlevel = lowlevel_of(server)

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
    lowlevel.add_request_handler("subscriptions/listen", SubscriptionsListenRequestParams, DemoListen(state.bus))


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


async def run_stdio(server: MCPServer[Any], *, era: Era = DEFAULT_ERA) -> None:
    """Serve stdio in ``era`` (``both``: the SDK's dual-era loop)."""
    await serve_stdio(server, era)


def _listen(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((LOOPBACK, port))
    sock.listen(128)
    return sock


async def _serve(app: ASGIApp, port: int, path: str) -> None:
    import uvicorn

    sock = _listen(port)
    actual = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=2)
    # The socket is already listening, so clients that connect before uvicorn starts wait in the backlog.
    print(f"listening on http://{LOOPBACK}:{actual}{path}", file=sys.stderr, flush=True)
    await uvicorn.Server(config).serve(sockets=[sock])


async def run_http(
    server: MCPServer[Any],
    port: int = 0,
    *,
    json_response: bool = False,
    stateless: bool = False,
    era: Era = DEFAULT_ERA,
) -> None:
    """Serve Streamable HTTP at ``http://127.0.0.1:PORT/mcp`` (loopback only; port 0 picks a free one) in ``era``."""
    app = server.streamable_http_app(host=LOOPBACK, json_response=json_response, stateless_http=stateless)
    await _serve(EraGate(app, era), port, "/mcp")


async def run_sse(server: MCPServer[Any], port: int = 0) -> None:
    """Serve the legacy HTTP+SSE transport at ``http://127.0.0.1:PORT/sse`` (loopback only)."""
    await _serve(server.sse_app(host=LOOPBACK), port, "/sse")
