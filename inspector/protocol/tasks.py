"""Tasks, sans-I/O: the shapes of both flavours, the status lifecycle, and what the client sends next.

Two flavours of the same idea (a tool call answered with a handle the client follows to the result):

- ``AUGMENTED``, MCP 2025-11-25 (experimental core feature). The client asks for a task by adding
  ``params.task`` (optionally ``{"ttl": ms}``) to ``tools/call`` -- only when the server declared
  ``tasks.requests.tools.call`` and the tool's ``execution.taskSupport`` is ``required`` or ``optional``. The
  answer is ``CreateTaskResult`` (``{"task": Task}``). The client polls ``tasks/get`` every ``pollInterval``
  ms and, once the task is terminal or ``input_required``, calls the blocking ``tasks/result``: while it is
  open the server sends its own requests (elicitation, sampling) for the task, and it returns exactly what
  the call would have returned. ``tasks/list`` and ``tasks/cancel`` (which answers with the Task) are gated
  by ``tasks.list`` / ``tasks.cancel``. Status notifications: ``notifications/tasks/status``.
- ``EXTENSION``, MCP 2026-07-28 (the ``io.modelcontextprotocol/tasks`` extension). The client declares the
  extension in its per-request capabilities; the server decides per request and answers ``tools/call`` with
  ``resultType: "task"`` and the Task fields inline (``ttlMs``, ``pollIntervalMs``). ``tasks/get`` carries the
  final ``result`` or ``error`` inline, or ``inputRequests`` while ``input_required``, which the client answers
  with ``tasks/update`` (``inputResponses``, same keys). ``tasks/update`` and ``tasks/cancel`` answer with an
  empty acknowledgement. No ``tasks/result``, no ``tasks/list``. Status notifications: ``notifications/tasks``.

Everything read from a server becomes a :class:`TaskState` plus diagnostics; nothing here raises on what a
server sent. :class:`TaskTracker` follows one task: it checks each observed state against the lifecycle (a
terminal task must never change) and says what to do next (:data:`NextStep`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any, Final

from inspector.protocol.capabilities import has_capability
from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode, Severity
from inspector.protocol.jsonpath import format_path
from inspector.protocol.mrtr import INPUT_METHODS, InputCall, result_type
from inspector.protocol.versions import Era, at_least, era_of

__all__ = [
    "ALLOWED_TRANSITIONS",
    "DEFAULT_POLL_INTERVAL",
    "MAX_POLL_INTERVAL",
    "MIN_POLL_INTERVAL",
    "RELATED_TASK_KEY",
    "STATUSES",
    "STATUS_NOTIFICATIONS",
    "TASKS_EXTENSION",
    "TASK_SUPPORT_VALUES",
    "TERMINAL_STATUSES",
    "Answer",
    "Cancelled",
    "Complete",
    "Fail",
    "FetchResult",
    "Flavour",
    "NextStep",
    "Poll",
    "TaskState",
    "TaskTracker",
    "ToolTaskPlan",
    "augmented_call_params",
    "capability_for",
    "check_ack",
    "check_related_task",
    "extension_declared",
    "flavour_for",
    "is_create_task_result",
    "parse_create_task_result",
    "parse_status_notification",
    "parse_task",
    "parse_task_list",
    "plan_tool_call",
    "server_allows_tool_tasks",
    "task_id_params",
    "tool_task_support",
    "transition_allowed",
    "update_params",
    "with_extension",
]

TASKS_EXTENSION: Final = "io.modelcontextprotocol/tasks"
"""The 2026-07-28 extension identifier (in ``capabilities.extensions``)."""
RELATED_TASK_KEY: Final = "io.modelcontextprotocol/related-task"
"""``_meta`` key tying a message to its task (2025-11-25; ``tasks/result`` MUST carry it)."""

STATUSES: Final = ("working", "input_required", "completed", "failed", "cancelled")
TERMINAL_STATUSES: Final = frozenset({"completed", "failed", "cancelled"})
ALLOWED_TRANSITIONS: Final[Mapping[str, frozenset[str]]] = {
    # the same status again is an update (a new statusMessage), not a transition
    "working": frozenset({"working", "input_required", "completed", "failed", "cancelled"}),
    "input_required": frozenset({"input_required", "working", "completed", "failed", "cancelled"}),
    "completed": frozenset({"completed"}),
    "failed": frozenset({"failed"}),
    "cancelled": frozenset({"cancelled"}),
}
TASK_SUPPORT_VALUES: Final = ("required", "optional", "forbidden")

DEFAULT_POLL_INTERVAL: Final = 1.0
"""Seconds between polls when the server suggests no interval."""
MIN_POLL_INTERVAL: Final = 0.1
"""Never poll faster than this, whatever the server suggests (0 ms would be a busy loop)."""
MAX_POLL_INTERVAL: Final = 30.0
"""Never wait longer than this between polls (a status notification wakes the client sooner anyway)."""


class Flavour(StrEnum):
    AUGMENTED = "2025-11-25"
    """``params.task`` on the request, ``tasks/result`` for the outcome."""
    EXTENSION = "2026-07-28"
    """The ``io.modelcontextprotocol/tasks`` extension: ``resultType: "task"``, ``tasks/update``."""


STATUS_NOTIFICATIONS: Final[Mapping[Flavour, str]] = {
    Flavour.AUGMENTED: "notifications/tasks/status",
    Flavour.EXTENSION: "notifications/tasks",
}

_TTL_KEY: Final = {Flavour.AUGMENTED: "ttl", Flavour.EXTENSION: "ttlMs"}
_POLL_KEY: Final = {Flavour.AUGMENTED: "pollInterval", Flavour.EXTENSION: "pollIntervalMs"}


def flavour_for(version: str) -> Flavour | None:
    """The task flavour of a negotiated protocol version (None: the version has no tasks)."""
    if era_of(version) is Era.MODERN:
        return Flavour.EXTENSION
    return Flavour.AUGMENTED if at_least(version, "2025-11-25") else None


# --- capabilities and tool-level negotiation -----------------------------------------------------


def extension_declared(capabilities: Mapping[str, Any] | None) -> bool:
    """``capabilities.extensions["io.modelcontextprotocol/tasks"]`` is an object (client or server side)."""
    extensions = (capabilities or {}).get("extensions")
    return isinstance(extensions, dict) and isinstance(extensions.get(TASKS_EXTENSION), dict)


def with_extension(capabilities: Mapping[str, Any] | None) -> dict[str, Any]:
    """A copy of client capabilities that declares the tasks extension (2026-07-28)."""
    out = dict(capabilities or {})
    extensions = out.get("extensions")
    extensions = dict(extensions) if isinstance(extensions, dict) else {}
    extensions.setdefault(TASKS_EXTENSION, {})
    out["extensions"] = extensions
    return out


def server_allows_tool_tasks(capabilities: Mapping[str, Any] | None, flavour: Flavour) -> bool:
    """Whether a ``tools/call`` may become a task: ``tasks.requests.tools.call`` (2025-11-25), or the
    extension in the server's capabilities (2026-07-28)."""
    if flavour is Flavour.EXTENSION:
        return extension_declared(capabilities)
    return has_capability(dict(capabilities or {}), "tasks.requests.tools.call")


def capability_for(method: str, flavour: Flavour) -> str | None:
    """The server capability (dotted path) a task method needs; None: no gate beyond the flavour's own."""
    if flavour is Flavour.EXTENSION:
        return None
    return {"tasks/list": "tasks.list", "tasks/cancel": "tasks.cancel"}.get(method, "tasks")


def tool_task_support(tool: Mapping[str, Any] | None) -> tuple[str, list[Diagnostic]]:
    """``execution.taskSupport`` of a tools/list entry: ``forbidden`` when absent; a bad value is reported and
    read as ``forbidden`` (the spec's default)."""
    diags: list[Diagnostic] = []
    execution = (tool or {}).get("execution")
    if execution is None:
        return "forbidden", diags
    if not isinstance(execution, dict):
        diags.append(Diagnostic(DiagnosticCode.SCHEMA, "execution must be an object", path="$.execution"))
        return "forbidden", diags
    support = execution.get("taskSupport")
    if support is None:
        return "forbidden", diags
    if support not in TASK_SUPPORT_VALUES:
        diags.append(
            Diagnostic(
                DiagnosticCode.SCHEMA,
                f"execution.taskSupport {support!r} is not one of {', '.join(TASK_SUPPORT_VALUES)}; read as forbidden",
                path="$.execution.taskSupport",
            )
        )
        return "forbidden", diags
    return str(support), diags


@dataclass(frozen=True, slots=True)
class ToolTaskPlan:
    """How to call one tool: as a task, or as a plain request (whose answer may still be a task in 2026)."""

    flavour: Flavour | None
    support: str
    """``execution.taskSupport`` (2025-11-25; ``forbidden`` when absent)."""
    server_allows: bool
    """The server declared the capability (``tasks.requests.tools.call``, or the extension)."""
    as_task: bool
    """2025-11-25: send ``params.task``. Always False in 2026-07-28: the server decides."""
    diagnostics: tuple[Diagnostic, ...] = ()


def plan_tool_call(
    tool: Mapping[str, Any] | None,
    server_capabilities: Mapping[str, Any] | None,
    version: str,
    *,
    prefer_task: bool = False,
) -> ToolTaskPlan:
    """Tool-level negotiation. 2025-11-25: a task when the server declared ``tasks.requests.tools.call`` and
    the tool says ``required`` (or ``optional`` and ``prefer_task``); without the capability a task MUST NOT
    be used, so a tool that requires one is reported. 2026-07-28: never asked for; followed when returned."""
    flavour = flavour_for(version)
    support, diags = tool_task_support(tool)
    if flavour is None:
        return ToolTaskPlan(None, support, False, False, tuple(diags))
    allows = server_allows_tool_tasks(server_capabilities, flavour)
    if flavour is Flavour.EXTENSION:
        return ToolTaskPlan(flavour, support, allows, False, tuple(diags))
    as_task = allows and (support == "required" or (support == "optional" and prefer_task))
    if support == "required" and not allows:
        name = (tool or {}).get("name")
        diags.append(
            Diagnostic(
                DiagnosticCode.UNDECLARED_CAPABILITY,
                f"tool {name!r} requires task-augmented execution, but the server did not declare "
                "tasks.requests.tools.call; it is called as a plain request",
                Severity.WARNING,
                "$.execution.taskSupport",
            )
        )
    return ToolTaskPlan(flavour, support, allows, as_task, tuple(diags))


# --- what the client sends ------------------------------------------------------------------------


def augmented_call_params(
    name: str, arguments: Mapping[str, Any] | None = None, *, ttl_ms: int | None = None
) -> dict[str, Any]:
    """2025-11-25: ``tools/call`` params asking for a task (``task.ttl`` only when given)."""
    params: dict[str, Any] = {"name": name}
    if arguments is not None:
        params["arguments"] = dict(arguments)
    params["task"] = {} if ttl_ms is None else {"ttl": ttl_ms}
    return params


def task_id_params(task_id: str) -> dict[str, Any]:
    """Params of ``tasks/get``, ``tasks/result`` and ``tasks/cancel``."""
    return {"taskId": task_id}


def update_params(task_id: str, responses: Mapping[str, Any]) -> dict[str, Any]:
    """2026-07-28: ``tasks/update`` answering ``inputRequests`` under their keys."""
    return {"taskId": task_id, "inputResponses": dict(responses)}


# --- what the server sends ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TaskState:
    """One snapshot of a task as the server described it."""

    task_id: str
    status: str | None
    """One of :data:`STATUSES`; None when the server sent something else (reported)."""
    status_message: str | None = None
    created_at: str | None = None
    last_updated_at: str | None = None
    ttl_ms: float | None = None
    """Retention from creation in ms; None: unlimited (or not said)."""
    poll_interval_ms: float | None = None
    input_calls: tuple[InputCall, ...] = ()
    """2026-07-28, ``input_required``: the server's requests to answer with ``tasks/update``."""
    result: dict[str, Any] | None = None
    """2026-07-28, ``completed``: what the call would have returned."""
    error: dict[str, Any] | None = None
    """2026-07-28, ``failed``: the JSON-RPC error (``code``, ``message``, ``data``)."""
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def terminal(self) -> bool:
        return self.status in TERMINAL_STATUSES

    def describe(self) -> str:
        """``working: Gathering sources...`` (status, and the server's message when it gave one)."""
        status = self.status or "unknown status"
        return f"{status}: {self.status_message}" if self.status_message else status


def _bad(diags: list[Diagnostic], message: str, path: str, severity: Severity = Severity.VIOLATION) -> None:
    diags.append(Diagnostic(DiagnosticCode.SCHEMA, message, severity, path))


def _timestamp(value: Any, key: str, path: str, what: str, diags: list[Diagnostic]) -> str | None:
    if key not in value:
        _bad(diags, f"{what}: {key} is missing (an ISO 8601 timestamp is required)", f"{path}.{key}")
        return None
    text = value[key]
    if not isinstance(text, str):
        _bad(diags, f"{what}: {key} must be a string", f"{path}.{key}")
        return None
    try:
        datetime.fromisoformat(text)
    except ValueError:
        _bad(diags, f"{what}: {key} {text[:40]!r} is not an ISO 8601 timestamp", f"{path}.{key}", Severity.WARNING)
    return text


def _millis(
    value: Any, key: str, path: str, what: str, diags: list[Diagnostic], *, required: bool, integer: bool
) -> float | None:
    if key not in value:
        if required:
            _bad(diags, f"{what}: {key} is missing (a number of milliseconds, or null for unlimited)", f"{path}.{key}")
        return None
    number = value[key]
    if number is None:
        if not required:  # pollInterval is optional but never null
            _bad(diags, f"{what}: {key} must be a number of milliseconds, not null", f"{path}.{key}")
        return None
    ok = isinstance(number, int | float) and not isinstance(number, bool) and math.isfinite(number) and number >= 0
    if not ok:
        _bad(diags, f"{what}: {key} must be a non-negative number of milliseconds", f"{path}.{key}")
        return None
    if integer and not float(number).is_integer():
        _bad(diags, f"{what}: {key} must be an integer number of milliseconds", f"{path}.{key}")
    return float(number)


def _input_calls(value: Any, path: str, what: str, diags: list[Diagnostic]) -> tuple[InputCall, ...]:
    requests = value.get("inputRequests")
    where = f"{path}.inputRequests"
    if requests is None:
        _bad(diags, f"{what}: an input_required task must carry inputRequests", where)
        return ()
    if not isinstance(requests, dict):
        _bad(diags, f"{what}: inputRequests must be an object mapping keys to requests", where)
        return ()
    calls: list[InputCall] = []
    for key, entry in requests.items():
        at = format_path([key], root=where)
        if not isinstance(entry, dict):
            _bad(diags, f"{what}: an input request must be an object with method and params", at)
            continue
        method = entry.get("method")
        if method not in INPUT_METHODS:
            _bad(diags, f"{what}: input request method {method!r} is not one of {', '.join(sorted(INPUT_METHODS))}", at)
            continue
        params = entry.get("params", {})
        if not isinstance(params, dict):
            _bad(diags, f"{what}: input request params must be an object", f"{at}.params")
            continue
        calls.append(InputCall(str(key), str(method), params))
    return tuple(calls)


def _error_object(value: Any, path: str, what: str, diags: list[Diagnostic]) -> dict[str, Any] | None:
    error = value.get("error")
    where = f"{path}.error"
    if not isinstance(error, dict):
        _bad(diags, f"{what}: a failed task must carry the JSON-RPC error as an object", where)
        return None
    code = error.get("code")
    if not isinstance(code, int) or isinstance(code, bool):
        _bad(diags, f"{what}: error.code must be an integer", f"{where}.code")
    if not isinstance(error.get("message"), str):
        _bad(diags, f"{what}: error.message must be a string", f"{where}.message")
    return error


def parse_task(
    value: Any, flavour: Flavour, *, path: str = "$.result", what: str = "task"
) -> tuple[TaskState | None, list[Diagnostic]]:
    """A Task (2025-11-25) or DetailedTask (2026-07-28) object. None when it has no usable ``taskId``."""
    diags: list[Diagnostic] = []
    if not isinstance(value, dict):
        _bad(diags, f"{what} must be an object", path)
        return None, diags
    task_id = value.get("taskId")
    if not isinstance(task_id, str) or not task_id:
        problem = "is missing" if task_id is None else "must be a non-empty string"
        _bad(diags, f"{what}: taskId {problem}", f"{path}.taskId")
        return None, diags
    status = value.get("status")
    if status not in STATUSES:
        _bad(diags, f"{what}: status {status!r} is not one of {', '.join(STATUSES)}", f"{path}.status")
        status = None
    message = value.get("statusMessage")
    if message is not None and not isinstance(message, str):
        _bad(diags, f"{what}: statusMessage must be a string", f"{path}.statusMessage")
        message = None
    created = _timestamp(value, "createdAt", path, what, diags)
    updated = _timestamp(value, "lastUpdatedAt", path, what, diags)
    ttl_key, poll_key = _TTL_KEY[flavour], _POLL_KEY[flavour]
    other = Flavour.EXTENSION if flavour is Flavour.AUGMENTED else Flavour.AUGMENTED
    for key, ours in ((_TTL_KEY[other], ttl_key), (_POLL_KEY[other], poll_key)):
        if key in value and ours not in value:
            _bad(diags, f"{what}: {key} is the {other.value} name; {flavour.value} calls it {ours}", f"{path}.{key}")
    integer = flavour is Flavour.EXTENSION
    ttl = _millis(value, ttl_key, path, what, diags, required=True, integer=integer)
    poll = _millis(value, poll_key, path, what, diags, required=False, integer=integer)
    calls: tuple[InputCall, ...] = ()
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    if flavour is Flavour.EXTENSION:
        if status == "input_required":
            calls = _input_calls(value, path, what, diags)
        elif status == "completed":
            found = value.get("result")
            if isinstance(found, dict):
                result = found
            else:
                _bad(diags, f"{what}: a completed task must carry its result as an object", f"{path}.result")
        elif status == "failed":
            error = _error_object(value, path, what, diags)
    state = TaskState(task_id, status, message, created, updated, ttl, poll, calls, result, error, value)
    return state, diags


def is_create_task_result(result: Any, flavour: Flavour) -> bool:
    """Whether a ``tools/call`` answer is a task handle rather than the tool's result."""
    if not isinstance(result, dict):
        return False
    if flavour is Flavour.EXTENSION:
        return result_type(result) == "task"
    return isinstance(result.get("task"), dict) and "content" not in result


def parse_create_task_result(result: Any, flavour: Flavour) -> tuple[TaskState | None, list[Diagnostic]]:
    """``CreateTaskResult``: ``{"task": Task}`` (2025-11-25) or ``resultType: "task"`` + Task (2026-07-28)."""
    what = "CreateTaskResult"
    if flavour is Flavour.AUGMENTED:
        if not isinstance(result, dict) or "task" not in result:
            return None, [Diagnostic(DiagnosticCode.SCHEMA, f"{what}: task is missing", path="$.result.task")]
        return parse_task(result["task"], flavour, path="$.result.task", what=what)
    state, diags = parse_task(result, flavour, path="$.result", what=what)
    if isinstance(result, dict) and result_type(result) != "task":
        _bad(diags, f'{what}: resultType must be "task"', "$.result.resultType")
    return state, diags


def parse_task_list(result: Any) -> tuple[list[TaskState], list[Diagnostic]]:
    """A ``tasks/list`` page (2025-11-25): the tasks that could be read, and what was wrong."""
    diags: list[Diagnostic] = []
    tasks = result.get("tasks") if isinstance(result, dict) else None
    if not isinstance(tasks, list):
        _bad(diags, "tasks/list result: tasks must be a list", "$.result.tasks")
        return [], diags
    states: list[TaskState] = []
    for i, entry in enumerate(tasks):
        state, found = parse_task(entry, Flavour.AUGMENTED, path=f"$.result.tasks[{i}]", what="tasks/list entry")
        diags.extend(found)
        if state is not None:
            states.append(state)
    return states, diags


def parse_status_notification(method: str, params: Any, flavour: Flavour) -> tuple[TaskState | None, list[Diagnostic]]:
    """A task status notification of ``flavour``; (None, []) for any other notification."""
    if method != STATUS_NOTIFICATIONS[flavour]:
        return None, []
    return parse_task(params, flavour, path="$.params", what=method)


def check_ack(result: Any, method: str) -> list[Diagnostic]:
    """2026-07-28: ``tasks/update`` and ``tasks/cancel`` answer with an (empty) complete result."""
    if not isinstance(result, dict):
        return [Diagnostic(DiagnosticCode.SCHEMA, f"{method} result must be an object", path="$.result")]
    kind = result_type(result)
    if kind != "complete":
        message = f'{method} result: resultType must be "complete", not {kind!r}'
        return [Diagnostic(DiagnosticCode.SCHEMA, message, path="$.result.resultType")]
    return []


def check_related_task(result: Any, task_id: str) -> list[Diagnostic]:
    """2025-11-25: a ``tasks/result`` answer MUST name its task in ``_meta["io.modelcontextprotocol/related-task"]``."""
    meta = result.get("_meta") if isinstance(result, dict) else None
    related = meta.get(RELATED_TASK_KEY) if isinstance(meta, dict) else None
    path = format_path(["result", "_meta", RELATED_TASK_KEY])
    if not isinstance(related, dict):
        return [Diagnostic(DiagnosticCode.SCHEMA, f"tasks/result result: _meta lacks {RELATED_TASK_KEY}", path=path)]
    if related.get("taskId") != task_id:
        return [
            Diagnostic(
                DiagnosticCode.SCHEMA,
                f"tasks/result result names task {related.get('taskId')!r}, not the requested {task_id!r}",
                path=f"{path}.taskId",
            )
        ]
    return []


def transition_allowed(old: str, new: str) -> bool:
    """The lifecycle: working <-> input_required, either of them -> terminal, terminal -> itself only."""
    return new in ALLOWED_TRANSITIONS.get(old, frozenset())


# --- following one task ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Poll:
    """Send ``tasks/get`` after ``delay`` seconds (sooner when a status notification arrives)."""

    delay: float


@dataclass(frozen=True, slots=True)
class FetchResult:
    """2025-11-25: open ``tasks/result`` (it blocks until the task is terminal; the server's requests for an
    ``input_required`` task arrive while it is open). Keep polling meanwhile."""


@dataclass(frozen=True, slots=True)
class Answer:
    """2026-07-28: answer these input requests (not answered before) and send them with ``tasks/update``."""

    calls: tuple[InputCall, ...]


@dataclass(frozen=True, slots=True)
class Complete:
    """2026-07-28: the task completed; ``result`` is what the call would have returned."""

    result: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Fail:
    """The task failed: ``error`` is its JSON-RPC error when the server gave one."""

    message: str
    error: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Cancelled:
    message: str | None = None


NextStep = Poll | FetchResult | Answer | Complete | Fail | Cancelled


def _clamp_interval(ms: float | None, default: float) -> float:
    if ms is None:
        return default
    return min(MAX_POLL_INTERVAL, max(MIN_POLL_INTERVAL, ms / 1000.0))


class TaskTracker:
    """The client's view of one task: every observed state checked against the lifecycle, and the next step."""

    def __init__(self, flavour: Flavour, initial: TaskState, *, default_poll: float = DEFAULT_POLL_INTERVAL) -> None:
        self.flavour = flavour
        self.state = initial
        self.default_poll = default_poll
        self.statuses: list[str] = [initial.status] if initial.status is not None else []
        """Every status the task was seen in, in order, repeats collapsed."""
        self.answered: set[str] = set()
        """2026-07-28: input request keys answered already (never answered twice)."""
        self.result_requested = False
        """2025-11-25: ``tasks/result`` was opened."""
        self.changed = False
        """The last :meth:`observe` saw something move (status, message, update time, input requests)."""

    @property
    def task_id(self) -> str:
        return self.state.task_id

    @property
    def status(self) -> str | None:
        return self.state.status

    @property
    def poll_interval(self) -> float:
        """Seconds until the next poll: the server's suggestion, bounded."""
        return _clamp_interval(self.state.poll_interval_ms, self.default_poll)

    def observe(self, state: TaskState, *, source: str = "tasks/get", path: str = "$.result") -> list[Diagnostic]:
        """Take a snapshot; returns what is wrong with it. Changes nothing for a snapshot of another task or
        a terminal task changing state (each with a diagnostic; the terminal state is kept), nor for one
        older than the current (by ``lastUpdatedAt``: overtaken on the way, not wrong). ``changed`` says
        whether anything observable moved."""
        self.changed = False
        if state.task_id != self.task_id:
            return [
                Diagnostic(
                    DiagnosticCode.SCHEMA,
                    f"{source} describes task {state.task_id!r}, not {self.task_id!r}",
                    path=f"{path}.taskId",
                )
            ]
        if _older(state.last_updated_at, self.state.last_updated_at):
            return []  # a snapshot that was overtaken on the way (a poll answered before a newer notification)
        old = self.state.status
        new = state.status
        if new is None:  # a bad status (already reported): keep the last known one, take the rest
            state = replace(state, status=old)
            new = old
        if old is not None and new is not None and not transition_allowed(old, new):
            return [
                Diagnostic(
                    DiagnosticCode.SCHEMA,
                    f"{source}: task {self.task_id!r} was {old}, a terminal status, and is now {new}; "
                    f"a terminal task must not change (kept {old})",
                    path=f"{path}.status",
                )
            ]
        before = self.state
        self.state = state
        if new is not None and (not self.statuses or self.statuses[-1] != new):
            self.statuses.append(new)
        self.changed = (before.status, before.status_message, before.last_updated_at, before.input_calls) != (
            state.status,
            state.status_message,
            state.last_updated_at,
            state.input_calls,
        )
        return []

    def mark_answered(self, keys: Sequence[str]) -> None:
        self.answered.update(keys)

    def next_step(self) -> NextStep:
        state = self.state
        status = state.status
        if self.flavour is Flavour.AUGMENTED:
            if status == "cancelled":
                return Cancelled(state.status_message)
            if status in ("completed", "failed", "input_required") and not self.result_requested:
                return FetchResult()
            return Poll(self.poll_interval)
        if status == "completed":
            return Complete(state.result if state.result is not None else {})
        if status == "failed":
            error = state.error
            message = error.get("message") if isinstance(error, dict) else None
            text = message if isinstance(message, str) else state.status_message or "the task failed"
            return Fail(text, error)
        if status == "cancelled":
            return Cancelled(state.status_message)
        if status == "input_required":
            new = tuple(call for call in state.input_calls if call.key not in self.answered)
            if new:
                return Answer(new)
        return Poll(self.poll_interval)


def _older(candidate: str | None, current: str | None) -> bool:
    """``candidate`` is strictly before ``current`` (False when either is not a comparable timestamp)."""
    if candidate is None or current is None:
        return False
    try:
        return datetime.fromisoformat(candidate) < datetime.fromisoformat(current)
    except (TypeError, ValueError):  # unparsable, or naive vs aware
        return False
