"""``mcp-inspect --cli --probe``: exercise everything a server offers and report it as one JSON document.

The probe connects (full schema validation on), lists tools, resources, resource templates and prompts (all
pages), calls every tool with arguments synthesised from its ``inputSchema``
(:mod:`inspector.schema.synthesize`), reads every listed resource and gets every prompt (required arguments
completed with ``completion/complete`` when the server offers completions, else a sample string). The
server's own requests are answered headlessly: elicitation accepted with the schema's defaults, sampling
with a fixed reply, roots with an empty list. What the server did not declare is skipped and noted. Each
step is bounded by ``--timeout``.

Exit status: 0 when the server never violated the protocol (tool errors and JSON-RPC errors are not
violations), 6 when it did (the code of ``--strict``); when the connection failed, the code of that failure
(4 unreachable or ``--connect-timeout``, 3 authorization required, else 1), 1 when it was lost.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import json
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final

from inspector.cli.args import CliOptions
from inspector.cli.errors import CliFailure
from inspector.cli.failures import connect_timed_out
from inspector.cli.output import Reporter, explain_failure
from inspector.cli.probe_report import ProbeReport, Step
from inspector.cli.run import connection_for, failure_from
from inspector.client.connection import Connection, ServerInfo
from inspector.client.errors import (
    CapabilityNotDeclared,
    ClientError,
    ConnectionLost,
    NotConnected,
    RemoteError,
    RequestTimeout,
    message_of,
)
from inspector.client.handlers import HandlerError, HeadlessHandlers
from inspector.client.output_check import output_schema_diagnostic
from inspector.client.tasks import TaskUpdate, call_tool_as_declared
from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode
from inspector.protocol.error_codes import explain_error
from inspector.protocol.pagination import Paginator
from inspector.protocol.versions import at_least
from inspector.schema.synthesize import NO_HINT, Hint, Path, synthesize_arguments
from inspector.transports.base import Transport

__all__ = [
    "PROMPT_ARGUMENT_SAMPLE",
    "RESULT_TEXT_LIMIT",
    "RecordingHandlers",
    "prompt_argument_sample",
    "result_text",
    "run_probe",
    "schema_argument_hint",
]

PROMPT_ARGUMENT_SAMPLE: Final = "example"
"""What a required prompt argument of no recognisable type gets when completion offers nothing."""
RESULT_TEXT_LIMIT: Final = 500
"""Characters of an ``isError`` result's text kept in the report."""

_INTEGER_WORDS: Final = re.compile(
    r"\b(integer|int|whole number|count|how many|number of|id|index|port|year|limit|size|seconds|minutes|steps|"
    r"quantity)\b"
)
_NUMBER_WORDS: Final = re.compile(r"\b(number|numeric|float|decimal|temperature|ratio|percent|price)\b")
_BOOLEAN_WORDS: Final = re.compile(r"\b(boolean|bool|true|false|flag|enabled?|disabled?)\b")
_YES_NO: Final = re.compile(r"\byes\b.*\bno\b|\bno\b.*\byes\b")


def _words(text: str) -> str:
    """camelCase and snake_case split into lower-case words (``resourceId`` -> ``resource id``)."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text).replace("_", " ").replace("-", " ")
    return spaced.lower()


def prompt_argument_sample(argument: Mapping[str, Any]) -> tuple[str, str | None]:
    """A value for a required prompt argument that completion gave nothing for, typed by what its name and
    description say (prompt arguments carry no schema: "ID of the resource" wants "1", not "example"); and
    why that type (None for the plain string sample)."""
    name = _words(str(argument.get("name") or ""))
    description = _words(str(argument.get("description") or ""))
    for text, where in ((description, "description"), (name, "name")):
        if _YES_NO.search(text):
            return "yes", f"its {where} asks for yes or no"
        if _BOOLEAN_WORDS.search(text):
            return "true", f"its {where} suggests a boolean"
        if _INTEGER_WORDS.search(text) or _NUMBER_WORDS.search(text):
            return "1", f"its {where} suggests a number"
    return PROMPT_ARGUMENT_SAMPLE, None


def result_text(result: Mapping[str, Any], limit: int = RESULT_TEXT_LIMIT) -> str | None:
    """The text blocks of a tool result, joined and cut at ``limit`` characters (None when it has no text)."""
    content = result.get("content")
    blocks = content if isinstance(content, list) else []
    texts = [b["text"] for b in blocks if isinstance(b, Mapping) and isinstance(b.get("text"), str)]
    if not texts:
        return None
    text = "\n".join(texts)
    if len(text) > limit:
        return f"{text[:limit]}… ({len(text) - limit} more characters)"
    return text


_LISTS: Final = (
    ("tools/list", "tools", "tools"),
    ("resources/list", "resources", "resources"),
    ("resources/templates/list", "resourceTemplates", "resources"),
    ("prompts/list", "prompts", "prompts"),
)


class RecordingHandlers:
    """Headless answers to the server's requests, noting each one in the step that is running."""

    def __init__(self, inner: HeadlessHandlers | None = None) -> None:
        self.inner = inner or HeadlessHandlers()
        self.log: list[dict[str, Any]] | None = None

    def _note(self, entry: dict[str, Any]) -> None:
        if self.log is not None:
            self.log.append(entry)

    async def _answer(
        self, method: str, call: Callable[[], Awaitable[dict[str, Any]]], summary: Callable[[dict[str, Any]], Any]
    ) -> dict[str, Any]:
        try:
            result = await call()
        except HandlerError as exc:
            self._note({"method": method, "error": {"code": exc.code, "message": exc.message}})
            raise
        self._note({"method": method, **summary(result)})
        return result

    async def create_message(self, params: dict[str, Any]) -> dict[str, Any]:
        return await self._answer(
            "sampling/createMessage", lambda: self.inner.create_message(params), lambda r: {"answer": "fixed reply"}
        )

    async def elicit(self, params: dict[str, Any]) -> dict[str, Any]:
        def summary(result: dict[str, Any]) -> dict[str, Any]:
            out: dict[str, Any] = {"action": result.get("action")}
            if "content" in result:
                out["content"] = result["content"]
            return out

        return await self._answer("elicitation/create", lambda: self.inner.elicit(params), summary)

    async def list_roots(self, params: dict[str, Any]) -> dict[str, Any]:
        return await self._answer(
            "roots/list", lambda: self.inner.list_roots(params), lambda r: {"roots": len(r.get("roots", []))}
        )


def _is_free_form_object(node: Mapping[str, Any]) -> bool:
    if node.get("type", "object") != "object":
        return False
    return not any(key in node for key in ("properties", "required", "default", "examples", "const", "enum"))


HEADER_PROBE_VALUE = "probe ✓ value"
"""What the probe puts in a free string argument mirrored into an ``Mcp-Param-*`` header (2026-07-28): it has
a space and a non-ASCII character, so the client must send it ``=?base64?...?=`` and the server must decode it."""
_CONSTRAINED: Final = ("enum", "const", "format", "pattern", "maxLength", "minLength", "default", "examples")


def header_argument_hint(path: Path, node: Mapping[str, Any]) -> Any:
    """:data:`HEADER_PROBE_VALUE` for a top-level, unconstrained string property annotated ``x-mcp-header``."""
    if len(path) != 1 or "x-mcp-header" not in node or node.get("type") != "string":
        return NO_HINT
    if any(key in node for key in _CONSTRAINED):
        return NO_HINT
    return HEADER_PROBE_VALUE


def argument_hint(tool: Mapping[str, Any], tools: list[Mapping[str, Any]]) -> Hint:
    """The probe's hints, in order: a real JSON Schema for schema-holding arguments, then header values."""
    schema_hint = schema_argument_hint(tool, tools)

    def hint(path: Path, node: Mapping[str, Any]) -> Any:
        value = schema_hint(path, node)
        return header_argument_hint(path, node) if value is NO_HINT else value

    return hint


def schema_argument_hint(tool: Mapping[str, Any], tools: list[Mapping[str, Any]]) -> Hint:
    """A hint that fills a free-form object argument meant to hold a JSON Schema with a real one.

    An argument qualifies when it is a top-level ``type: object`` with no declared properties and its name
    ends in ``schema`` or its description mentions a schema. It gets the ``inputSchema`` of the tool its
    description names, else the largest ``inputSchema`` of the other tools, verbatim: the server's own
    schemas round-trip through the client, which shows they were kept exactly as received.
    """
    others = [t for t in tools if t is not tool and isinstance(t.get("inputSchema"), Mapping)]

    def hint(path: Path, node: Mapping[str, Any]) -> Any:
        if len(path) != 1 or not isinstance(path[0], str) or not others or not _is_free_form_object(node):
            return NO_HINT
        description: str = node["description"] if isinstance(node.get("description"), str) else ""
        if not (path[0].lower().endswith("schema") or "schema" in description.lower()):
            return NO_HINT
        named = [
            t
            for t in others
            if isinstance(t.get("name"), str) and re.search(rf"\b{re.escape(t['name'])}\b", description)
        ]
        chosen = named[0] if named else max(others, key=lambda t: len(json.dumps(t["inputSchema"], default=repr)))
        return copy.deepcopy(chosen["inputSchema"])

    return hint


def _output_diagnostics(name: str, result: dict[str, Any], schema: dict[str, Any]) -> list[Diagnostic]:
    """A tool that declares an outputSchema MUST return structuredContent conforming to it (the connection's own
    check, ``inspector.client.output_check``, flags direct answers; this covers results fetched as tasks)."""
    from inspector.content.validation import validate_tool_result

    return [output_schema_diagnostic(name, issue) for issue in validate_tool_result(result, schema)]


def _task_note(updates: list[TaskUpdate]) -> str:
    """``ran as task 5f1c...: working -> input_required -> working -> completed`` (repeats collapsed)."""
    statuses: list[str] = []
    for update in updates:
        status = update.task.status
        if status is not None and (not statuses or statuses[-1] != status):
            statuses.append(status)
    notes = [update.note for update in updates if update.note is not None]
    text = f"ran as task {updates[0].task.task_id}: {' -> '.join(statuses) or 'no valid status'}"
    return text + (f" ({'; '.join(notes)})" if notes else "")


class _Prober:
    def __init__(self, conn: Connection, handlers: RecordingHandlers, report: ProbeReport, timeout: float) -> None:
        self.conn = conn
        self.handlers = handlers
        self.report = report
        self.timeout = timeout
        self._seen = 0
        self.lost: str | None = None

    def _take_diagnostics(self, step: Step) -> None:
        step.diagnostics.extend(self.conn.diagnostics[self._seen :])
        self._seen = len(self.conn.diagnostics)

    def between(self) -> None:
        """Diagnostics that arrived while no step was running belong to the report itself."""
        self.report.diagnostics.extend(self.conn.diagnostics[self._seen :])
        self._seen = len(self.conn.diagnostics)

    def skip(self, method: str, note: str, name: str | None = None) -> None:
        self.report.steps.append(Step(method, name, outcome="skipped", notes=[note]))

    async def step(self, step: Step, action: Callable[[], Awaitable[Any]]) -> Any:
        """Run one step, bounded by the timeout; returns its result, or None when it failed."""
        if self.lost is not None:
            step.outcome = "skipped"
            step.notes.append(f"not run: {self.lost}")
            self.report.steps.append(step)
            return None
        self.report.steps.append(step)
        self.between()
        self.handlers.log = step.server_requests
        started = time.monotonic()
        result: Any = None
        try:
            async with asyncio.timeout(self.timeout):
                result = await action()
        except TimeoutError:
            step.fail(f"no answer within {self.timeout:g} s (--timeout)")
        except RemoteError as exc:
            step.fail(exc.message, exc.code, explain_error(exc.code, exc.message, exc.data, exc.method or step.method))
        except RequestTimeout as exc:
            step.fail(f"{message_of(exc)} (--timeout {self.timeout:g} s)")
        except CapabilityNotDeclared as exc:
            step.outcome, step.notes = "skipped", [*step.notes, message_of(exc)]
        except ClientError as exc:
            step.fail(failure_from(exc, self.conn).message)
            if isinstance(exc, ConnectionLost | NotConnected) or not self.conn.is_open:
                self.lost = f"the connection was lost ({step.error_message})"
        finally:
            step.duration = time.monotonic() - started
            self.handlers.log = None
        self._take_diagnostics(step)
        return result

    async def list_all(self, method: str, key: str) -> list[Any]:
        step = Step(method)
        pager = Paginator(key)

        async def pages() -> None:
            while not pager.done:
                pager.add_page(await self.conn.request(method, pager.next_params()))

        await self.step(step, pages)
        self.conn.diagnostics.extend(pager.diagnostics)
        step.diagnostics.extend(pager.diagnostics)
        self._seen = len(self.conn.diagnostics)
        items = pager.merged().get(key, [])
        step.count, step.pages = (len(items), pager.pages) if step.outcome == "ok" else (None, None)
        return items if step.outcome == "ok" else []

    async def call_tools(self, tools: list[Any]) -> None:
        entries = [t for t in tools if isinstance(t, Mapping)]
        for tool in entries:
            name = tool.get("name")
            if not isinstance(name, str):
                self.skip("tools/call", "a tool without a string name cannot be called")
                continue
            synthesis = synthesize_arguments(tool.get("inputSchema"), hint=argument_hint(tool, entries))
            step = Step("tools/call", name, arguments=synthesis.value)
            annotations = tool.get("annotations")
            if isinstance(annotations, Mapping) and annotations.get("destructiveHint") is True:
                step.notes.append("called although annotated destructiveHint: true")
            step.notes.extend(synthesis.notes)
            step.notes.extend(f"synthesised arguments do not validate: {error}" for error in synthesis.errors)
            updates: list[TaskUpdate] = []
            call = functools.partial(
                call_tool_as_declared, self.conn, name, synthesis.value, tool=tool, on_update=updates.append
            )
            result = await self.step(step, call)
            if updates:
                step.notes.append(_task_note(updates))
            if isinstance(result, Mapping) and result.get("isError") is True:
                step.outcome = "isError"
                step.result_text = result_text(result)
            elif isinstance(result, dict) and isinstance(tool.get("outputSchema"), dict):
                if not any(d.code is DiagnosticCode.OUTPUT_SCHEMA for d in step.diagnostics):  # not found already
                    step.diagnostics.extend(_output_diagnostics(name, result, tool["outputSchema"]))

    async def read_resources(self, resources: list[Any]) -> None:
        for resource in resources:
            uri = resource.get("uri") if isinstance(resource, Mapping) else None
            if not isinstance(uri, str):
                self.skip("resources/read", "a resource without a string uri cannot be read")
                continue
            await self.step(Step("resources/read", uri), functools.partial(self.conn.read_resource, uri))

    async def prompt_arguments(
        self, prompt: str, arguments: Any, completions: bool
    ) -> tuple[dict[str, str], list[str]]:
        """Values for the required arguments (completion's first offer, else a typed sample) and notes saying
        which samples were sent and why."""
        values: dict[str, str] = {}
        notes: list[str] = []
        for argument in arguments if isinstance(arguments, list) else []:
            if not isinstance(argument, Mapping) or not argument.get("required"):
                continue
            arg = argument.get("name")
            if not isinstance(arg, str):
                continue
            context = {"arguments": dict(values)} if values and self._context_ok() else None
            sample, why = prompt_argument_sample(argument)
            values[arg] = sample
            if completions:
                ref = {"type": "ref/prompt", "name": prompt}
                result = await self.step(
                    Step("completion/complete", f"{prompt}:{arg}"),
                    functools.partial(self.conn.complete, ref, {"name": arg, "value": ""}, context),
                )
                offered = result.get("completion", {}).get("values") if isinstance(result, Mapping) else None
                if isinstance(offered, list) and offered and isinstance(offered[0], str):
                    values[arg] = offered[0]
                    continue
            if why is not None:
                notes.append(f"{arg}: sent {sample!r} ({why}; no completion offered)")
        return values, notes

    def _context_ok(self) -> bool:
        server = self.conn.server
        return server is not None and at_least(server.protocol_version, "2025-06-18")

    async def get_prompts(self, prompts: list[Any], completions: bool) -> None:
        for prompt in prompts:
            name = prompt.get("name") if isinstance(prompt, Mapping) else None
            if not isinstance(name, str):
                self.skip("prompts/get", "a prompt without a string name cannot be got")
                continue
            arguments, notes = await self.prompt_arguments(name, prompt.get("arguments"), completions)
            step = Step("prompts/get", name, arguments=dict(arguments) if arguments else None, notes=notes)
            await self.step(step, functools.partial(self.conn.get_prompt, name, arguments or None))

    async def run(self, capabilities: Mapping[str, Any]) -> None:
        found: dict[str, list[Any]] = {}
        for method, key, capability in _LISTS:
            if capability not in capabilities:
                self.skip(method, f"the server did not declare the '{capability}' capability")
                continue
            found[method] = await self.list_all(method, key)
            if method == "tools/list":
                from inspector.protocol.schema_portability import schema_findings

                self.report.schema = schema_findings(found[method])
                await self.call_tools(found[method])
            elif method == "resources/list":
                await self.read_resources(found[method])
            elif method == "resources/templates/list" and found[method]:
                self.report.steps[-1].notes.append("templates are listed, not expanded or read")
        if "prompts/list" in found:
            await self.get_prompts(found["prompts/list"], "completions" in capabilities)


def _transport_kind(opts: CliOptions) -> str:
    if opts.url is None:
        return "stdio"
    from inspector.transports.select import transport_name_for

    return transport_name_for(opts.url, opts.transport)


def _server_json(conn: Connection) -> dict[str, Any] | None:
    info = conn.server
    if info is None:
        return None
    out: dict[str, Any] = {
        "name": info.server_info.get("name"),
        "version": info.server_info.get("version"),
    }
    if "title" in info.server_info:
        out["title"] = info.server_info["title"]
    out["protocolVersion"] = info.protocol_version
    out["era"] = {"chosen": info.era.value, "asked": conn.protocol_era.value, "why": info.era_reason}
    out["capabilities"] = info.capabilities
    if info.instructions is not None:
        out["instructions"] = info.instructions
    return out


async def run_probe(opts: CliOptions, target: str, reporter: Reporter, transport: Transport) -> int:
    """Probe the server behind ``transport``; print the report; return the exit code."""
    handlers = RecordingHandlers()
    conn = connection_for(opts, transport, handlers=handlers, validate=True, reporter=reporter)
    report = ProbeReport(target=target, transport=_transport_kind(opts), protocol_version_offered=opts.protocol_version)
    prober = _Prober(conn, handlers, report, opts.timeout)
    initialize = Step("initialize")
    report.steps.append(initialize)
    started = time.monotonic()
    info: ServerInfo | None = None
    failure: CliFailure | None = None
    bound, by_connect_timeout = opts.timeout, False
    if opts.connect_timeout is not None and opts.connect_timeout < opts.timeout:
        bound, by_connect_timeout = opts.connect_timeout, True
    try:
        try:
            async with asyncio.timeout(bound):
                info = await conn.connect()
        except TimeoutError:
            failure = (
                connect_timed_out(bound)
                if by_connect_timeout
                else CliFailure("connection", f"no answer to initialize within {opts.timeout:g} s (--timeout)")
            )
        except ClientError as exc:
            failure = failure_from(exc, conn)
        if failure is not None:
            # a server that refused the opening request: its code and what it means (-32022 on server/discover)
            initialize.fail(failure.message, failure.code, explain_failure(failure))
            report.failure_exit_code = int(failure.exit_code)
        initialize.duration = time.monotonic() - started
        prober._take_diagnostics(initialize)
        if info is None:
            report.connection_failed = True
        else:
            report.server = _server_json(conn)
            await prober.run(info.capabilities)
            report.connection_failed = prober.lost is not None
    finally:
        try:
            await conn.close()
        except Exception:  # closing must never mask the report
            pass
        prober.between()
    if getattr(transport, "fell_back", False) is True:
        report.transport = "sse (fallback from http)"
    document = report.to_json()
    reporter.document(document)
    if report.connection_failed:
        reporter.failure(failure or CliFailure("connection", prober.lost or "the connection failed"))
    return report.exit_code()
