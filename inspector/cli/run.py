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
from inspector.cli.errors import CliFailure, UsageError
from inspector.cli.exitcodes import ExitCode
from inspector.cli.output import Reporter
from inspector.cli.terminal import escape_line, write
from inspector.client.connection import Connection
from inspector.client.errors import (
    CapabilityNotDeclared,
    ClientError,
    ConnectFailed,
    ConnectionLost,
    InvalidResponse,
    NotConnected,
    RemoteError,
    RequestCancelled,
    RequestTimeout,
    message_of,
)
from inspector.client.handlers import HeadlessHandlers, ServerRequestHandlers
from inspector.client.tasks import TaskCancelled, TaskFailed, TaskUpdate, call_tool_as_declared
from inspector.protocol.diagnostics import DiagnosticCode
from inspector.protocol.pagination import Paginator
from inspector.protocol.session import Timeouts
from inspector.protocol.tasks import Flavour, flavour_for, server_allows_tool_tasks, with_extension
from inspector.protocol.versions import Era, at_least
from inspector.transports.base import Transport, TransportClosed

__all__ = ["client_capabilities", "connection_for", "failure_from", "run_method", "run_overview"]

_LIST_KEYS = {
    "tools/list": "tools",
    "resources/list": "resources",
    "resources/templates/list": "resourceTemplates",
    "prompts/list": "prompts",
}


# --- errors -> failures -----------------------------------------------------------------------------


def _exit_text(closed: TransportClosed) -> str | None:
    if closed.signal is not None:
        return f"killed by signal {closed.signal}"
    if closed.exit_code is not None:
        return f"exit status {closed.exit_code}"
    return None


def _closed_line(closed: TransportClosed, stderr_tail: list[str]) -> str:
    """``server process exited (exit status 3); last stderr: fatal: something broke``."""
    status = _exit_text(closed)
    text = closed.reason + (f" ({status})" if status else "")
    tail = [line for line in (closed.stderr_tail or tuple(stderr_tail)) if line.strip()]
    if tail:
        text += f"; last stderr: {tail[-1].strip()[:300]}"
    return text


def _failure_from(exc: BaseException, conn: Connection | None) -> CliFailure:
    closed = conn.closed_event if conn is not None else None
    lost = closed is not None and not closed.expected
    if isinstance(exc, TaskFailed):
        extra = {"method": exc.method, "taskId": exc.task.task_id}
        code = f"error {exc.code}: " if exc.code is not None else ""
        return CliFailure(
            "protocol", exc.message, code=exc.code, data=exc.data, has_data=exc.data is not None, extra=extra,
            line=f"error: {exc.method} failed: {code}{exc.message}",
        )  # fmt: skip
    if isinstance(exc, TaskCancelled):
        return CliFailure("connection", message_of(exc), extra={"taskId": exc.task.task_id})
    if isinstance(exc, RemoteError):
        name = f"{exc.method} failed: " if exc.method else ""
        return CliFailure(
            "protocol",
            exc.message,
            code=exc.code,
            data=exc.data,
            has_data=exc.data is not None,
            extra={"method": exc.method} if exc.method else None,
            line=f"error: {name}server returned error {exc.code}: {exc.message}",
        )
    if isinstance(exc, RequestTimeout):
        dropped = _last_breach(conn)
        if dropped is not None:  # the answer may have been the message that broke a limit
            return CliFailure("connection", f"{message_of(exc)}; meanwhile the server sent {dropped}")
        return CliFailure("connection", f"{message_of(exc)} (use --timeout SECONDS to wait longer)")
    if isinstance(exc, InvalidResponse):
        return CliFailure("protocol", f"unusable response: {message_of(exc)}")
    if isinstance(exc, ConnectionLost | ConnectFailed | NotConnected) and lost and closed is not None:
        assert conn is not None
        prefix = "handshake failed: " if isinstance(exc, ConnectFailed) and conn.server is None else ""
        return CliFailure("connection", prefix + _closed_line(closed, list(conn.stderr_tail)))
    if isinstance(exc, RequestCancelled):
        return CliFailure("connection", f"request cancelled: {message_of(exc)}")
    return CliFailure("connection", message_of(exc))


failure_from = _failure_from


def _last_breach(conn: Connection | None) -> str | None:
    """The last message the session dropped for breaking a limit (``a message of more than ... (limit ...)``)."""
    if conn is None:
        return None
    for diagnostic in reversed(conn.diagnostics):
        if diagnostic.code is DiagnosticCode.LIMIT_EXCEEDED:
            return diagnostic.message.removesuffix("; the rest of it was dropped")
    return None


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


async def _tool_arguments(
    conn: Connection, opts: CliOptions, reporter: Reporter, seen: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """The call's arguments; ``seen["tool"]`` is the tool's tools/list entry when it was listed here."""
    arguments: dict[str, Any] | None = dict(opts.tool_args_json) if opts.tool_args_json is not None else None
    if not opts.tool_arg_pairs:
        return arguments
    schema: dict[str, Any] | None = None
    try:
        tools = await _list(conn, "tools/list", reporter)
    except RemoteError as exc:
        reporter.warn(f"tools/list failed ({exc.message}); --tool-arg values are sent as strings")
    else:
        entries = tools.get("tools")
        for tool in entries if isinstance(entries, list) else []:
            if isinstance(tool, dict) and tool.get("name") == opts.tool_name:
                if seen is not None:
                    seen["tool"] = tool
                found = tool.get("inputSchema")
                schema = found if isinstance(found, dict) else None
                break
        else:
            reporter.warn(f"tool {opts.tool_name!r} is not in tools/list; --tool-arg values are sent as strings")
    coerced, warnings = coerce_tool_args(opts.tool_arg_pairs, schema)
    for warning in warnings:
        reporter.warn(warning)
    return {**(arguments or {}), **coerced}


async def _task_declaration(
    conn: Connection, name: str, reporter: Reporter, seen: dict[str, Any] | None
) -> dict[str, Any] | None:
    """The tool's tools/list entry when it decides how to call it: a 2025-11-25 server that takes tools/call as
    a task (``execution.taskSupport``). Listed only then (and only once)."""
    if seen is not None and "tool" in seen:
        found: dict[str, Any] | None = seen["tool"]
        return found
    server = conn.server
    if server is None or flavour_for(server.protocol_version) is not Flavour.AUGMENTED:
        return None
    if not server_allows_tool_tasks(server.capabilities, Flavour.AUGMENTED):
        return None
    try:
        tools = await _list(conn, "tools/list", reporter)
    except RemoteError as exc:
        reporter.warn(f"tools/list failed ({exc.message}); {name!r} is called without a task")
        return None
    entries = tools.get("tools")
    for tool in entries if isinstance(entries, list) else []:
        if isinstance(tool, dict) and tool.get("name") == name:
            return tool
    return None


def _task_printer(reporter: Reporter) -> Callable[[TaskUpdate], None]:
    """Text format: one line on stderr per status the task moves to (and per note), e.g.
    ``task 5f1c...: working: Analyzing content...``."""
    last: list[str] = []

    def show(update: TaskUpdate) -> None:
        if reporter.format != "text":
            return
        line = f"task {update.task.task_id}: {update.task.describe()}"
        if update.note is not None:
            line += f" ({update.note})"
        if not last or last[0] != line:
            last[:] = [line]
            write(reporter.err, escape_line(line) + "\n")

    return show


async def _call_tool(
    conn: Connection,
    name: str,
    arguments: dict[str, Any] | None,
    reporter: Reporter,
    seen: dict[str, Any] | None = None,
) -> Any:
    """``tools/call`` as the tool's declaration asks: as a task when it requires one (2025-11-25), followed
    to its result when the server answers with a task (2026-07-28); else a plain call."""
    tool = await _task_declaration(conn, name, reporter, seen)
    show = _task_printer(reporter)
    forced = [False]
    return await _maybe_forced(
        lambda f: call_tool_as_declared(conn, name, arguments, tool=tool, forced=f, on_update=show),
        "tools/call",
        reporter,
        forced,
    )


async def _dispatch(conn: Connection, opts: CliOptions, reporter: Reporter) -> Any:
    method = opts.method
    assert method is not None
    if method in _LIST_KEYS:
        return await _list(conn, method, reporter)
    if method == "tools/call":
        assert opts.tool_name is not None
        seen: dict[str, Any] = {}
        arguments = await _tool_arguments(conn, opts, reporter, seen)
        return await _call_tool(conn, opts.tool_name, arguments, reporter, seen)
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


def _tool_failure(result: Any) -> CliFailure | None:
    if not isinstance(result, dict) or result.get("isError") is not True:
        return None
    text = ""
    content = result.get("content")
    for item in content if isinstance(content, list) else []:
        if isinstance(item, dict) and item.get("type") == "text" and isinstance(item.get("text"), str):
            text = item["text"].strip().splitlines()[0] if item["text"].strip() else ""
            break
    message = "tool returned isError: true" + (f": {text[:300]}" if text else "")
    return CliFailure("tool", message)


async def _run_load(conn: Connection, opts: CliOptions, reporter: Reporter) -> CliFailure | None:
    from inspector.cli.load import run_load, summarize

    assert opts.tool_name is not None
    name = opts.tool_name
    arguments = await _tool_arguments(conn, opts, reporter)
    forced = conn.server is not None and "tools" not in conn.server.capabilities
    if forced:
        reporter.warn("the server did not declare the 'tools' capability; calling the tool anyway")
    run = await run_load(
        lambda: conn.call_tool(name, arguments, forced=forced),
        tool=name,
        concurrency=opts.load_concurrency,
        requests=opts.load_requests,
        is_fatal=lambda exc: isinstance(exc, ConnectionLost | NotConnected),
    )
    reporter.raw_json(summarize(run))
    if run.fatal is not None:
        return _failure_from(run.fatal, conn)
    if run.errors:
        return CliFailure("protocol", f"{run.errors} of {run.requests} calls failed")
    if run.tool_errors:
        return CliFailure("tool", f"{run.tool_errors} of {run.requests} calls returned isError: true")
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


def connection_for(
    opts: CliOptions,
    transport: Transport,
    *,
    handlers: ServerRequestHandlers | None = None,
    validate: bool | None = None,
) -> Connection:
    """The CLI's connection: headless handlers, ``--timeout``, and schema validation as ``validate`` says."""
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
        )
    except ValueError as exc:
        raise UsageError(f"--protocol-version: {message_of(exc)}") from None


async def _close(conn: Connection) -> None:
    try:
        await conn.close()
    except Exception:  # closing must never mask the outcome
        pass


def _finish(conn: Connection, opts: CliOptions, reporter: Reporter, failure: CliFailure | None) -> int:
    violations = conn.violations
    if opts.strict and violations:
        reporter.violations(violations, failure)
        return ExitCode.VIOLATION
    if failure is not None:
        if violations and reporter.format == "text":
            n = len(violations)
            failure = CliFailure(
                failure.kind,
                failure.message,
                line=f"{failure.line()} (the server also violated the protocol {n} time{'s' if n != 1 else ''}; "
                "--strict shows how)",
            )
        reporter.failure(failure)
        return failure.exit_code
    if violations:
        n = len(violations)
        reporter.warn(f"server violated the protocol {n} time{'s' if n != 1 else ''}; run with --strict to see them")
    return ExitCode.SUCCESS


async def run_method(opts: CliOptions, target: str, reporter: Reporter, transport: Transport) -> int:
    """Run the command line's method (or --load) against the server; print; return the exit code."""
    conn = connection_for(opts, transport)
    failure: CliFailure | None = None
    try:
        await conn.connect()
        if opts.load:
            failure = await _run_load(conn, opts, reporter)
        else:
            result = await _dispatch(conn, opts, reporter)
            reporter.result(opts.method or "", result)
            if opts.method == "tools/call":
                failure = _tool_failure(result)
    except CliFailure as exc:
        failure = exc
    except ClientError as exc:
        failure = _failure_from(exc, conn)
    finally:
        await _close(conn)
    return _finish(conn, opts, reporter, failure)


async def run_overview(opts: CliOptions, target: str, reporter: Reporter, transport: Transport) -> int:
    """Connect and list everything the server offers (``mcp-inspect --demo`` until the window exists)."""
    conn = connection_for(opts, transport)
    failure: CliFailure | None = None
    try:
        info = await conn.connect()
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
