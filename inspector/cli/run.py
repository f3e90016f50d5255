"""The run path of ``mcp-inspect --cli``: connect, call one method (or ``--load``), report, exit code.

Imported only once the command line is valid, so that ``--help`` and usage errors stay instant;
the engine (client, session, transports) is imported here, not at the top of ``main``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from inspector import __version__
from inspector.cli.args import CliOptions
from inspector.cli.coerce import coerce_tool_args
from inspector.cli.connect_deadline import connect_deadline
from inspector.cli.errors import CliFailure, UsageError
from inspector.cli.failures import failure_from
from inspector.cli.output import Reporter
from inspector.cli.output_file import write_result_file
from inspector.cli.strict import conclude, document_extras, emit_result, lint_result
from inspector.client.connection import Connection
from inspector.client.errors import (
    CapabilityNotDeclared,
    ClientError,
    ConnectionLost,
    NotConnected,
    RemoteError,
    message_of,
)
from inspector.client.handlers import HeadlessHandlers, ServerRequestHandlers
from inspector.client.server_info import ServerInfo
from inspector.client.tasks import TaskUpdate, call_tool_as_declared
from inspector.protocol.pagination import Paginator
from inspector.protocol.schema_portability import SchemaFinding
from inspector.protocol.session import Timeouts
from inspector.protocol.tasks import Flavour, flavour_for, server_allows_tool_tasks, with_extension
from inspector.protocol.versions import Era, at_least
from inspector.transports.base import StderrLine, Transport, TransportEvent

__all__ = ["client_capabilities", "connection_for", "failure_from", "initialize_result", "run_method", "run_overview"]

_LIST_KEYS = {
    "tools/list": "tools",
    "resources/list": "resources",
    "resources/templates/list": "resourceTemplates",
    "prompts/list": "prompts",
}


# --- errors -> failures (inspector.cli.failures) ------------------------------------------------------

_failure_from = failure_from


# --- the methods --------------------------------------------------------------------------------------


async def _maybe_forced(
    send: Callable[[bool], Awaitable[Any]], method: str, reporter: Reporter, forced: list[bool]
) -> Any:
    """Send; when the server did not declare the capability, say so and send anyway (as the official CLI)."""
    if forced[0]:
        return await send(True)
    try:
        return await send(False)
    except CapabilityNotDeclared as exc:
        reporter.warn(f"{message_of(exc)}; sending {method} anyway")
        forced[0] = True
        return await send(True)


async def _list(conn: Connection, method: str, reporter: Reporter) -> dict[str, Any]:
    pager = Paginator(_LIST_KEYS[method])
    forced = [False]
    while not pager.done:
        params = pager.next_params()
        page = await _maybe_forced(
            lambda f, p=params: conn.request(method, p, forced=f),  # type: ignore[misc]
            method,
            reporter,
            forced,
        )
        pager.add_page(page)
    conn.diagnostics.extend(pager.diagnostics)
    return pager.merged()


def _find_tool(tools: list[dict[str, Any]], name: str | None) -> dict[str, Any] | None:
    for tool in tools:
        if tool.get("name") == name:
            return tool
    return None


async def _listed_tools(conn: Connection, reporter: Reporter, seen: dict[str, Any]) -> list[dict[str, Any]]:
    """The server's tools (all pages), listed once per run (kept in ``seen["tools"]``)."""
    if "tools" not in seen:
        entries = (await _list(conn, "tools/list", reporter)).get("tools")
        seen["tools"] = [t for t in entries if isinstance(t, dict)] if isinstance(entries, list) else []
    tools: list[dict[str, Any]] = seen["tools"]
    return tools


def _not_found(name: str | None, answered: CliFailure | None = None) -> CliFailure:
    """``tool_not_found``; ``answered``: what the call answered, when it was made (the envelope's ``cause``,
    and in full as ``failure``)."""
    message = f"tool {name!r} is not in the server's tools/list"
    if answered is None:
        return CliFailure("tool_not_found", message)
    extra = {"cause": answered.message, "failure": answered.to_json()}
    return CliFailure("tool_not_found", message, extra=extra, line=f"error: {message} (the call: {answered.message})")


async def _tool_arguments(
    conn: Connection, opts: CliOptions, reporter: Reporter, seen: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """The call's arguments; ``--tool-arg`` values are typed by the tool's ``inputSchema`` (listed for that,
    into ``seen["tools"]``; a tool that is not listed is ``tool_not_found``, as the official CLI)."""
    arguments: dict[str, Any] | None = dict(opts.tool_args_json) if opts.tool_args_json is not None else None
    if not opts.tool_arg_pairs:
        return arguments
    schema: dict[str, Any] | None = None
    try:
        tools = await _listed_tools(conn, reporter, {} if seen is None else seen)
    except RemoteError as exc:
        reporter.warn(f"tools/list failed ({exc.message}); --tool-arg values are sent as strings")
    else:
        tool = _find_tool(tools, opts.tool_name)
        if tool is None:
            raise _not_found(opts.tool_name)
        found = tool.get("inputSchema")
        schema = found if isinstance(found, dict) else None
    coerced, warnings = coerce_tool_args(opts.tool_arg_pairs, schema)
    for warning in warnings:
        reporter.warn(warning)
    return {**(arguments or {}), **coerced}


async def _task_declaration(
    conn: Connection, name: str, reporter: Reporter, seen: dict[str, Any] | None
) -> dict[str, Any] | None:
    """The tool's tools/list entry when it decides how to call it: a 2025-11-25 server that takes tools/call as
    a task (``execution.taskSupport``). Listed only then (and only once)."""
    seen = {} if seen is None else seen
    if "tools" not in seen:
        server = conn.server
        if server is None or flavour_for(server.protocol_version) is not Flavour.AUGMENTED:
            return None
        if not server_allows_tool_tasks(server.capabilities, Flavour.AUGMENTED):
            return None
        try:
            await _listed_tools(conn, reporter, seen)
        except RemoteError as exc:
            reporter.warn(f"tools/list failed ({exc.message}); {name!r} is called without a task")
            return None
    tool = _find_tool(seen["tools"], name)
    if tool is None:
        raise _not_found(name)
    return tool


async def _check_listed(conn: Connection, name: str, seen: dict[str, Any], answered: CliFailure) -> None:
    """After a failed call: a tool the server does not list is ``tool_not_found`` (the official CLI lists the
    tools before every call; we list only when the call failed), with what the call answered as ``cause``.
    A listing that fails changes nothing."""
    if "tools" in seen:
        return  # listed before the call, and it was there
    try:
        tools = await _listed_tools(conn, Reporter(format="json", quiet=True), seen)
    except ClientError:
        return
    if _find_tool(tools, name) is None:
        raise _not_found(name, answered)


def _task_printer(reporter: Reporter) -> Callable[[TaskUpdate], None]:
    """Human format: one line on stderr per status the task moves to (and per note), e.g.
    ``task 5f1c...: working: Analyzing content...``."""
    last: list[str] = []

    def show(update: TaskUpdate) -> None:
        line = f"task {update.task.task_id}: {update.task.describe()}"
        if update.note is not None:
            line += f" ({update.note})"
        if not last or last[0] != line:
            last[:] = [line]
            reporter.status(line)

    return show


async def _call_tool(
    conn: Connection,
    name: str,
    arguments: dict[str, Any] | None,
    reporter: Reporter,
    seen: dict[str, Any] | None = None,
    meta: dict[str, Any] | None = None,
) -> Any:
    """``tools/call`` as the tool's declaration asks: as a task when it requires one (2025-11-25), followed
    to its result when the server answers with a task (2026-07-28); else a plain call. ``meta``
    (``--tool-metadata``) goes into ``params._meta`` of the requests made for this call, over ``--metadata``."""
    tool = await _task_declaration(conn, name, reporter, seen)
    show = _task_printer(reporter)
    forced = [False]
    general = conn.request_meta
    if meta:
        conn.request_meta = {**general, **meta}
    try:
        return await _maybe_forced(
            lambda f: call_tool_as_declared(conn, name, arguments, tool=tool, forced=f, on_update=show),
            "tools/call",
            reporter,
            forced,
        )
    finally:
        conn.request_meta = general


def initialize_result(info: ServerInfo) -> dict[str, Any]:
    """``--method initialize``: what the opening established, in the official CLI's shape (``serverInfo``,
    ``protocolVersion``, ``capabilities``, ``instructions`` when given), plus ``era``: ``handshake``
    (an initialize answer) or ``modern`` (2026-07-28: built from the server/discover answer)."""
    out: dict[str, Any] = {
        "serverInfo": info.server_info,
        "protocolVersion": info.protocol_version,
        "capabilities": info.capabilities,
    }
    if info.instructions is not None:
        out["instructions"] = info.instructions
    out["era"] = info.era.value
    return out


async def _tools_call(conn: Connection, opts: CliOptions, reporter: Reporter) -> Any:
    name = opts.tool_name
    assert name is not None
    seen: dict[str, Any] = {}
    arguments = await _tool_arguments(conn, opts, reporter, seen)
    try:
        result = await _call_tool(conn, name, arguments, reporter, seen, opts.tool_metadata)
    except RemoteError as exc:
        await _check_listed(conn, name, seen, failure_from(exc, conn))
        raise
    answered = _tool_failure(result, name)
    if answered is not None:
        await _check_listed(conn, name, seen, answered)
    return result


async def _dispatch(conn: Connection, opts: CliOptions, reporter: Reporter) -> Any:
    method = opts.method
    assert method is not None
    if method in _LIST_KEYS:
        return await _list(conn, method, reporter)
    if method == "tools/call":
        return await _tools_call(conn, opts, reporter)
    if method == "initialize":
        assert conn.server is not None
        return initialize_result(conn.server)
    if method == "ping":  # the era's own way (2026-07-28 has no ping: a server/discover round trip)
        return await conn.ping()
    if method == "logging/setLevel" and conn.era is Era.MODERN:  # rides in every later request's _meta
        return await conn.set_logging_level(str(opts.log_level))
    params: dict[str, Any] | None
    if method == "resources/read":
        params = {"uri": opts.uri}
    elif method == "prompts/get":
        params = {"name": opts.prompt_name}
        if opts.prompt_args:
            params["arguments"] = dict(opts.prompt_args)
    elif method == "logging/setLevel":
        params = {"level": opts.log_level}
    else:
        params = None
    forced = [False]
    return await _maybe_forced(lambda f: conn.request(method, params, forced=f), method, reporter, forced)


def _tool_failure(result: Any, name: str | None = None) -> CliFailure | None:
    if not isinstance(result, dict) or result.get("isError") is not True:
        return None
    text = ""
    content = result.get("content")
    for item in content if isinstance(content, list) else []:
        if isinstance(item, dict) and item.get("type") == "text" and isinstance(item.get("text"), str):
            text = item["text"].strip().splitlines()[0] if item["text"].strip() else ""
            break
    who = f"tool {name!r}" if name is not None else "the tool"
    message = f"{who} returned isError: true" + (f": {text[:300]}" if text else "")
    return CliFailure("tool", message)


async def _run_load(conn: Connection, opts: CliOptions, reporter: Reporter) -> CliFailure | None:
    """``--load``: list the tools (all pages; a tool that is not listed is ``tool_not_found``, as the official
    CLI), then call it over and over within the bounds (:mod:`inspector.cli.load`) and print the summary.

    Calls that fail or return ``isError`` are counted in the summary and the exit status is 0, as the
    official CLI's. A lost connection stops the run early: the summary is printed, then that failure."""
    from inspector.cli.load import render_human, run_load, summarize
    from inspector.cli.load_options import bounds_of

    assert opts.tool_name is not None
    name = opts.tool_name
    seen: dict[str, Any] = {}
    tool: dict[str, Any] | None = None
    try:
        tool = _find_tool(await _listed_tools(conn, reporter, seen), name)
    except RemoteError as exc:
        reporter.warn(f"tools/list failed ({exc.message}); calling {name!r} without finding it listed")
    else:
        if tool is None:
            raise _not_found(name)
    arguments = await _tool_arguments(conn, opts, reporter, seen)
    forced = conn.server is not None and "tools" not in conn.server.capabilities
    general = conn.request_meta
    if opts.tool_metadata:  # set once for the whole run: the calls overlap
        conn.request_meta = {**general, **opts.tool_metadata}
    try:
        run = await run_load(
            lambda: call_tool_as_declared(conn, name, arguments, tool=tool, forced=forced),
            tool=name,
            bounds=bounds_of(opts),
            is_fatal=lambda exc: isinstance(exc, ConnectionLost | NotConnected),
            describe=lambda exc: exc.message if isinstance(exc, RemoteError) else message_of(exc),
        )
    finally:
        conn.request_meta = general
    summary = summarize(run)
    if reporter.format == "human":
        reporter.text(render_human(summary) + "\n")
    else:
        reporter.raw_json(summary)
    if run.fatal is not None:
        return _failure_from(run.fatal, conn)
    return None


# --- entry points ----------------------------------------------------------------------------------------


def client_capabilities(version: str) -> dict[str, Any]:
    """What the headless handlers can answer, as the given protocol version spells it."""
    caps: dict[str, Any] = {"roots": {}, "sampling": {}}
    if at_least(version, "2025-11-25"):
        caps["elicitation"] = {"form": {}}
        # tool calls answered with a task are followed (2026-07-28 extension; inert in the handshake era)
        caps = with_extension(caps)
    elif at_least(version, "2025-06-18"):
        caps["elicitation"] = {}
    return caps


def _with_auth_extensions(caps: dict[str, Any], opts: CliOptions) -> dict[str, Any]:
    """The authorization extensions the grant flags make usable, declared in ``capabilities.extensions``
    (2026-07-28; e.g. ``io.modelcontextprotocol/oauth-client-credentials``). Only for URL targets with grant
    flags: nothing is imported otherwise."""
    if opts.url is None or not opts.oauth.any_grant_setting:
        return caps
    from inspector.auth.grants import declared_extensions
    from inspector.cli.auth_options import grant_options

    grant = grant_options(opts.oauth)
    if grant is None:
        return caps
    ids = declared_extensions(grant, confidential=bool(opts.client_secret) or grant.client_key is not None)
    if not ids:
        return caps
    extensions = dict(caps.get("extensions") or {})
    extensions.update({ext: {} for ext in sorted(ids)})
    return {**caps, "extensions": extensions}


def _stderr_tap(reporter: Reporter | None) -> Callable[[TransportEvent], None] | None:
    """A stdio server's stderr lines passed through to ours (as the official CLI), unless --quiet."""
    if reporter is None or reporter.quiet:
        return None

    def tap(event: TransportEvent) -> None:
        if isinstance(event, StderrLine):
            reporter.server_stderr(event.line)

    return tap


def connection_for(
    opts: CliOptions,
    transport: Transport,
    *,
    handlers: ServerRequestHandlers | None = None,
    validate: bool | None = None,
    reporter: Reporter | None = None,
) -> Connection:
    """The CLI's connection: headless handlers, ``--timeout``, ``--metadata`` in every request's ``_meta``,
    schema validation as ``validate`` says, and the server's stderr passed to ``reporter`` (if given)."""
    try:
        return Connection(
            transport,
            protocol_version=opts.protocol_version,
            protocol_era=opts.protocol_era,
            capabilities=_with_auth_extensions(client_capabilities(opts.protocol_version), opts),
            client_info={"name": "mcp-inspect", "version": __version__},
            handlers=handlers or HeadlessHandlers(),
            timeouts=Timeouts(request=opts.timeout),
            # Schema validation (mcp-types) costs ~0.4 s of start-up: one-shot runs do the envelope, id and
            # capability checks always, and the full schema check when --strict asks for diagnostics.
            validate=opts.strict if validate is None else validate,
            limits=opts.limits,
            request_meta=opts.metadata,
            on_transport_event=_stderr_tap(reporter),
        )
    except ValueError as exc:
        raise UsageError(f"--protocol-version: {message_of(exc)}") from None


async def open_connection(conn: Connection, opts: CliOptions) -> ServerInfo:
    """Connect (transport, then initialize or server/discover), bounded by ``--connect-timeout``
    (:mod:`inspector.cli.connect_deadline`: time spent logging in does not count)."""
    async with connect_deadline(opts.connect_timeout):
        return await conn.connect()


def _emit(reporter: Reporter, opts: CliOptions, result: Any, lint: list[SchemaFinding] | None) -> None:
    """The result: to ``--output`` (and what was written, on stderr or as ``{"output": ...}``), else stdout."""
    method = opts.method or ""
    if opts.output_path is None:
        emit_result(reporter, opts, method, result, lint)
        return
    reporter.wrote(write_result_file(result, method, opts.output_path, opts.output_format), document_extras(opts, lint))


async def _close(conn: Connection) -> None:
    try:
        await conn.close()
    except Exception:  # closing must never mask the outcome
        pass


def _finish(
    conn: Connection,
    opts: CliOptions,
    reporter: Reporter,
    failure: CliFailure | None,
    lint: list[SchemaFinding] | None = None,
) -> int:
    """The outcome on stderr and the exit code: the --strict report (schema findings of a tools/list result,
    the connection's protocol violations; exit 6) or, without --strict, a count line per kind."""
    return conclude(reporter, opts, failure, conn.violations, lint)


async def run_method(opts: CliOptions, target: str, reporter: Reporter, transport: Transport) -> int:
    """Run the command line's method (or --load) against the server; print; return the exit code."""
    conn = connection_for(opts, transport, reporter=reporter)
    failure: CliFailure | None = None
    lint: list[SchemaFinding] | None = None
    try:
        await open_connection(conn, opts)
        if opts.load:
            failure = await _run_load(conn, opts, reporter)
        else:
            result = await _dispatch(conn, opts, reporter)
            lint = lint_result(opts, opts.method, result)
            _emit(reporter, opts, result, lint)
            if opts.method == "tools/call":
                failure = _tool_failure(result, opts.tool_name)
    except CliFailure as exc:
        failure = exc
    except ClientError as exc:
        failure = _failure_from(exc, conn)
    finally:
        await _close(conn)
    return _finish(conn, opts, reporter, failure, lint)


async def run_overview(opts: CliOptions, target: str, reporter: Reporter, transport: Transport) -> int:
    """Connect and list everything the server offers (``mcp-inspect --demo`` until the window exists)."""
    conn = connection_for(opts, transport, reporter=reporter)
    failure: CliFailure | None = None
    try:
        info = await open_connection(conn, opts)
        name = info.server_info.get("name", "?")
        version = info.server_info.get("version", "?")
        reporter.text(f"{name} {version} (protocol {info.protocol_version}, {info.era_reason}, {target})\n")
        for method, capability in (
            ("tools/list", "tools"),
            ("resources/list", "resources"),
            ("resources/templates/list", "resources"),
            ("prompts/list", "prompts"),
        ):
            if capability not in info.capabilities:
                continue
            reporter.text(f"\n== {method}\n")
            reporter.result(method, await _list(conn, method, reporter))
    except CliFailure as exc:
        failure = exc
    except ClientError as exc:
        failure = _failure_from(exc, conn)
    finally:
        await _close(conn)
    return _finish(conn, opts, reporter, failure)
