"""Tool calls run as tasks over a :class:`~inspector.client.connection.Connection`, in both flavours.

:class:`TaskRunner` runs one ``tools/call`` as a task to its result: it creates the task (2025-11-25: asks for
one with ``params.task``; 2026-07-28: follows the ``resultType: "task"`` handle the server chose to return),
follows its status through status notifications and ``tasks/get`` polls at the server's interval (bounded
by :data:`~inspector.protocol.tasks.MIN_POLL_INTERVAL` / ``MAX_POLL_INTERVAL``), reports each snapshot to
``on_update``, and returns the final ``CallToolResult``. ``failed`` raises :class:`TaskFailed` (a
``RemoteError`` carrying the task's JSON-RPC error), ``cancelled`` :class:`TaskCancelled`, no sign of progress
within ``idle_timeout`` :class:`TaskTimeout`. :meth:`TaskRunner.cancel`, a timeout, or cancelling the
coroutine that awaits the call sends ``tasks/cancel`` to the server.

The server's needs while a task runs are answered by the connection's handlers (``connection.handlers``):
in 2025-11-25 they arrive as ordinary server requests while ``tasks/result`` is open; in 2026-07-28 they
are ``inputRequests`` of an ``input_required`` task, answered through the same handler interface and sent
with ``tasks/update`` (each key once).

What this module uses of the connection: ``request``, ``call_tool``, ``handlers``, ``server``, ``timeouts``,
``diagnostics`` (task diagnostics are added to it), ``session.protocol_version``, and -- through
:mod:`inspector.client.task_hub` -- the ``on_notification`` / ``on_message`` callbacks, which it wraps.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from inspector.client.errors import (
    CapabilityNotDeclared,
    ClientError,
    InvalidResponse,
    RemoteError,
    RequestTimeout,
    describe_exception,
    message_of,
)
from inspector.client.handlers import HandlerError, RequestInfo, ServerRequestHandlers, current_request
from inspector.client.listen import Subscription
from inspector.client.task_hub import hub_for
from inspector.protocol.capabilities import has_capability
from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode, Severity
from inspector.protocol.mrtr import InputCall
from inspector.protocol.pagination import Paginator
from inspector.protocol.tasks import (
    Answer,
    Cancelled,
    Complete,
    Fail,
    FetchResult,
    Flavour,
    Poll,
    TaskState,
    TaskTracker,
    augmented_call_params,
    capability_for,
    check_ack,
    check_related_task,
    flavour_for,
    is_create_task_result,
    parse_create_task_result,
    parse_status_notification,
    parse_task,
    parse_task_list,
    plan_tool_call,
    server_allows_tool_tasks,
    task_id_params,
    update_params,
)
from inspector.protocol.versions import Era

if TYPE_CHECKING:
    from inspector.client.connection import Connection

__all__ = [
    "TaskCancelled",
    "TaskFailed",
    "TaskRunner",
    "TaskTimeout",
    "TaskUpdate",
    "UnusableTask",
    "answer_input",
    "call_tool_as_declared",
    "cancel_task",
    "get_task",
    "list_tasks",
]

CANCEL_WAIT: Final = 5.0
LISTEN_ACK_TIMEOUT: Final = 5.0
"""Seconds to wait for the acknowledgement of a task's listen stream (polling runs meanwhile anyway)."""
"""Seconds to wait for the answer to ``tasks/cancel`` sent on the way out (a cancelled call, a timeout)."""


# --- errors ---------------------------------------------------------------------------------------


class TaskFailed(RemoteError):
    """The task ended ``failed``: ``code`` / ``message`` / ``data`` are its JSON-RPC error when known."""

    def __init__(self, task: TaskState, code: int | None, message: str, data: Any = None) -> None:
        super().__init__(code, f"task {task.task_id} failed: {message}", data, method="tools/call")
        self.task = task


class TaskCancelled(ClientError):
    """The task ended ``cancelled`` (``by_client``: we cancelled it)."""

    def __init__(self, task: TaskState, message: str, *, by_client: bool) -> None:
        super().__init__(message)
        self.task = task
        self.by_client = by_client


class TaskTimeout(RequestTimeout):
    """The task showed no progress within the idle timeout, or ran past the maximum total time (it was
    cancelled at the server)."""

    def __init__(self, task: TaskState, message: str) -> None:
        super().__init__(message)
        self.task = task


class UnusableTask(InvalidResponse):
    """The server answered with a task handle that cannot be followed (no usable ``taskId``)."""


@dataclass(frozen=True, slots=True)
class TaskUpdate:
    """One snapshot of the task, where it came from, and what was wrong with it."""

    task: TaskState
    source: str
    """``created``, ``tasks/get``, the status notification's method, ``tasks/cancel``, ``tasks/update``."""
    diagnostics: tuple[Diagnostic, ...] = ()
    note: str | None = None
    """What the client did or could not do (e.g. an input request its handler could not answer)."""


TaskCallback = Callable[[TaskUpdate], None]


# --- helpers --------------------------------------------------------------------------------------


def _flavour(conn: Connection) -> Flavour:
    version = conn.server.protocol_version if conn.server is not None else conn.session.protocol_version
    flavour = flavour_for(version)
    if flavour is None:
        raise ClientError(f"MCP {version} has no tasks (they arrived in 2025-11-25)")
    return flavour


def _capabilities(conn: Connection) -> dict[str, Any]:
    return conn.server.capabilities if conn.server is not None else {}


def _gate(conn: Connection, method: str, flavour: Flavour, forced: bool) -> None:
    cap = capability_for(method, flavour)
    if cap is not None and not forced and not has_capability(_capabilities(conn), cap):
        raise CapabilityNotDeclared(method, cap)


async def answer_input(handlers: ServerRequestHandlers, call: InputCall) -> dict[str, Any]:
    """Answer one input request through the handler of its method (the handlers of server requests).
    Inside a runner, ``current_request`` holds a ``RequestInfo`` whose ``id`` is the task id, ``input_key`` the
    request's key and ``asked_by`` ``tasks/get``."""
    if call.method == "elicitation/create":
        return await handlers.elicit(call.params)
    if call.method == "sampling/createMessage":
        return await handlers.create_message(call.params)
    if call.method == "roots/list":
        return await handlers.list_roots(call.params)
    raise HandlerError(-32601, f"Method not found: {call.method}")


async def get_task(conn: Connection, task_id: str) -> TaskState:
    """``tasks/get``: the task's current state (its diagnostics go to ``conn.diagnostics``)."""
    flavour = _flavour(conn)
    result = await conn.request("tasks/get", task_id_params(task_id))
    state, diags = parse_task(result, flavour, what="tasks/get result")
    if flavour is Flavour.EXTENSION:
        diags.extend(check_ack(result, "tasks/get"))
    conn.diagnostics.extend(diags)
    if state is None:
        raise UnusableTask(f"tasks/get: {diags[0].message if diags else 'no task in the answer'}")
    return state


async def list_tasks(conn: Connection, *, forced: bool = False) -> list[TaskState]:
    """``tasks/list``, every page (2025-11-25 only; needs ``tasks.list`` unless ``forced``)."""
    flavour = _flavour(conn)
    if flavour is Flavour.EXTENSION:
        raise ClientError("MCP 2026-07-28 has no tasks/list (the tasks extension removed it)")
    _gate(conn, "tasks/list", flavour, forced)
    pager = Paginator("tasks")
    states: list[TaskState] = []
    while not pager.done:
        page = await conn.request("tasks/list", pager.next_params(), forced=forced)
        found, diags = parse_task_list(page)
        conn.diagnostics.extend(diags)
        states.extend(found)
        pager.add_page(page)
    conn.diagnostics.extend(pager.diagnostics)
    return states


async def cancel_task(conn: Connection, task_id: str, *, forced: bool = False) -> TaskState | None:
    """``tasks/cancel``: the cancelled task (2025-11-25, needs ``tasks.cancel`` unless ``forced``), or None
    (2026-07-28 answers with an acknowledgement only; the task may still end otherwise)."""
    flavour = _flavour(conn)
    _gate(conn, "tasks/cancel", flavour, forced)
    result = await conn.request("tasks/cancel", task_id_params(task_id), forced=forced)
    if flavour is Flavour.EXTENSION:
        conn.diagnostics.extend(check_ack(result, "tasks/cancel"))
        return None
    state, diags = parse_task(result, flavour, what="tasks/cancel result")
    if state is not None and state.status not in (None, "cancelled"):
        diags.append(
            Diagnostic(
                DiagnosticCode.SCHEMA,
                f"tasks/cancel result: the task is {state.status}; after a cancellation it must be cancelled",
                path="$.result.status",
            )
        )
    conn.diagnostics.extend(diags)
    return state


# --- the runner -----------------------------------------------------------------------------------


class TaskRunner:
    """Runs one tool call as a task over ``conn`` (one runner per call).

    ``idle_timeout``: seconds the task may show no change (status, message, update time) before the runner
    gives up and cancels it; not counted while the task is ``input_required`` (then the client has the next
    move). None: the connection's request timeout; ``math.inf``: never. ``max_total``: seconds the whole call
    may take (None: no cap). ``ttl_ms``: the retention asked for in 2025-11-25 (None: the server's default).
    """

    def __init__(
        self,
        conn: Connection,
        *,
        on_update: TaskCallback | None = None,
        idle_timeout: float | None = None,
        max_total: float | None = None,
        ttl_ms: int | None = None,
        cancel_wait: float = CANCEL_WAIT,
    ) -> None:
        self.conn = conn
        self.on_update = on_update
        idle = conn.timeouts.request if idle_timeout is None else idle_timeout
        self.idle_timeout: float | None = None if idle is None or math.isinf(idle) else idle
        self.max_total = max_total
        self.ttl_ms = ttl_ms
        self.cancel_wait = cancel_wait
        self.tracker: TaskTracker | None = None
        self.updates: list[TaskUpdate] = []
        """Every snapshot reported so far (at most the last 1,000)."""
        self.cancel_sent = False
        self._flavour: Flavour | None = None
        self._wake = asyncio.Event()
        self._cancel_requested = False
        self._cancel_reason = "cancelled by the client"
        self._cancelled = False
        self._result: asyncio.Task[Any] | None = None
        self._started = 0.0
        self._last_change = 0.0

    @property
    def task_id(self) -> str | None:
        return self.tracker.task_id if self.tracker is not None else None

    @property
    def state(self) -> TaskState | None:
        return self.tracker.state if self.tracker is not None else None

    # -- public

    async def call_tool(self, name: str, arguments: dict[str, Any] | None = None, *, forced: bool = False) -> Any:
        """Call ``name`` as a task and return its final result.

        2025-11-25: sends ``params.task`` (needs ``tasks.requests.tools.call`` unless ``forced``); a server that
        answers with a plain result (it ignored the task) has that result returned. 2026-07-28: a plain call;
        a task handle in the answer is followed."""
        flavour = self._flavour = _flavour(self.conn)
        hub_for(self.conn)  # installed before the request goes out: it must see the request
        if flavour is Flavour.AUGMENTED:
            if not forced and not server_allows_tool_tasks(_capabilities(self.conn), flavour):
                raise CapabilityNotDeclared("tools/call as a task", "tasks.requests.tools.call")
            params = augmented_call_params(name, arguments, ttl_ms=self.ttl_ms)
            # No progress token: the session forgets it when the task handle arrives, and the task's
            # later progress would then be reported as progress for an unknown token.
            result = await self.conn.request("tools/call", params, forced=forced, progress=False)
        else:
            result = await self.conn.call_tool(name, arguments, forced=forced)
        if not is_create_task_result(result, flavour):
            return result
        return await self.follow_created(result)

    async def follow_created(self, result: Any) -> Any:
        """Follow the task a ``CreateTaskResult`` describes to its final result."""
        flavour = self._flavour or _flavour(self.conn)
        self._flavour = flavour
        state, diags = parse_create_task_result(result, flavour)
        if flavour is Flavour.EXTENSION and not server_allows_tool_tasks(_capabilities(self.conn), flavour):
            diags.append(
                Diagnostic(
                    DiagnosticCode.UNDECLARED_CAPABILITY,
                    "the server answered with a task but did not declare the io.modelcontextprotocol/tasks extension",
                    Severity.WARNING,
                    "$.result.resultType",
                )
            )
        self.conn.diagnostics.extend(diags)
        if state is None:
            first = diags[0].message if diags else "no task"
            raise UnusableTask(f"tools/call: the server answered with a task handle that cannot be followed: {first}")
        return await self.follow(state, diagnostics=tuple(diags))

    async def follow(self, created: TaskState, *, diagnostics: tuple[Diagnostic, ...] = ()) -> Any:
        """Follow a task (created by this runner, or one to resume by its state) to its final result."""
        self._flavour = self._flavour or _flavour(self.conn)
        self.tracker = TaskTracker(self._flavour, created)
        hub = hub_for(self.conn)
        hub.listen(created.task_id, self._on_status)
        stream = await self._listen_for(created) if self._flavour is Flavour.EXTENSION else None
        self._started = self._last_change = time.monotonic()
        self._emit(created, "created", diagnostics, progressed=True)
        late = hub.latest.get(created.task_id)
        if late is not None:  # arrived between the answer and now (the tracker ignores it when older)
            self._on_status(*late)
        try:
            return await self._follow()
        except asyncio.CancelledError:
            await self._cancel_at_server("the call awaiting the task was cancelled")
            raise
        except TaskTimeout:
            await self._cancel_at_server("timed out")
            raise
        finally:
            hub.unlisten(created.task_id, self._on_status)
            if stream is not None:
                await stream.close()
            await self._drop_result_task()

    async def _listen_for(self, created: TaskState) -> Subscription | None:
        """2026-07-28: ask for the task's ``notifications/tasks`` on a listen stream (they reach the hub like
        every notification); polling goes on either way, so a server that does not acknowledge the task id
        (or refuses, -32021) costs nothing but a note."""
        if self.conn.era is not Era.MODERN or not self.conn.is_open:
            return None
        sub = Subscription(self.conn, {"taskIds": [created.task_id]}, ack_timeout=LISTEN_ACK_TIMEOUT)
        try:
            await sub.open()
        except ClientError as exc:
            self.conn.note(
                f"task {created.task_id}: no status notifications over subscriptions/listen ({message_of(exc)})"
            )
            return None
        if "taskIds" in sub.refused:
            await sub.close()
            return None
        return sub

    async def cancel(self, reason: str = "cancelled by the client") -> None:
        """Cancel the task at the server (``tasks/cancel``); the call following it ends with
        :class:`TaskCancelled`. Before the task exists, it is cancelled as soon as it does. Raises what
        ``tasks/cancel`` raised (e.g. the task is already terminal: -32602)."""
        self._cancel_reason = reason
        if self.tracker is None:
            self._cancel_requested = True
            return
        await self._send_cancel()
        self._cancelled = True
        self._wake.set()

    # -- the loop

    async def _follow(self) -> Any:
        tracker = self.tracker
        assert tracker is not None
        if self._cancel_requested:
            await self.cancel(self._cancel_reason)
        while True:
            if self._cancelled:
                raise TaskCancelled(tracker.state, f"task {tracker.task_id}: {self._cancel_reason}", by_client=True)
            if self._result is not None and self._result.done():
                outcome = self._take_result()
                if outcome is not _AGAIN:
                    return outcome
                continue
            step = tracker.next_step()
            if isinstance(step, Complete):
                return step.result
            if isinstance(step, Fail):
                error = step.error or {}
                code = error.get("code")
                raise TaskFailed(
                    tracker.state, code if isinstance(code, int) else None, step.message, error.get("data")
                )
            if isinstance(step, Cancelled):
                text = f"task {tracker.task_id} was cancelled" + (f": {step.message}" if step.message else "")
                raise TaskCancelled(tracker.state, text, by_client=self.cancel_sent)
            if isinstance(step, Answer):
                await self._answer(step.calls)
                continue
            if isinstance(step, FetchResult):
                tracker.result_requested = True
                self._result = asyncio.get_running_loop().create_task(
                    self._fetch_result(tracker.task_id), name=f"tasks/result {tracker.task_id}"
                )
                self._result.add_done_callback(lambda _t: self._wake.set())
                continue
            assert isinstance(step, Poll)
            waiting_for_result = tracker.state.terminal and self._result is not None
            delay = self._bounded(None if waiting_for_result else step.delay)
            woken = await self._wait(delay)
            self._check_bounds()
            if not woken and not waiting_for_result:
                await self._poll()

    def _idle_counts(self) -> bool:
        tracker = self.tracker
        return self.idle_timeout is not None and tracker is not None and tracker.status != "input_required"

    def _bounded(self, delay: float | None) -> float | None:
        """``delay`` cut at the idle and total deadlines, so that the runner notices them on time."""
        now = time.monotonic()
        limits = [d for d in (delay,) if d is not None]
        if self.idle_timeout is not None and self._idle_counts():
            limits.append(max(0.0, self._last_change + self.idle_timeout - now))
        if self.max_total is not None:
            limits.append(max(0.0, self._started + self.max_total - now))
        return min(limits) if limits else None

    async def _wait(self, delay: float | None) -> bool:
        """Wait ``delay`` seconds or until woken (status notification, cancel, result); True when woken."""
        if not self._wake.is_set():
            try:
                async with asyncio.timeout(delay):
                    await self._wake.wait()
            except TimeoutError:
                return False
        self._wake.clear()
        return True

    def _check_bounds(self) -> None:
        tracker = self.tracker
        assert tracker is not None
        now = time.monotonic()
        state = tracker.state
        if self.max_total is not None and now - self._started >= self.max_total:
            raise TaskTimeout(
                state,
                f"task {tracker.task_id} exceeded the maximum total time of {self.max_total:g} s ({state.describe()})",
            )
        if not self._idle_counts():
            self._last_change = now  # the client has the next move: the idle period starts when it is made
        elif self.idle_timeout is not None and now - self._last_change >= self.idle_timeout:
            raise TaskTimeout(
                state,
                f"task {tracker.task_id} showed no progress for {self.idle_timeout:g} s (still {state.describe()})",
            )

    async def _poll(self) -> None:
        tracker = self.tracker
        assert tracker is not None and self._flavour is not None
        result = await self.conn.request("tasks/get", task_id_params(tracker.task_id))
        state, diags = parse_task(result, self._flavour, what="tasks/get result")
        if self._flavour is Flavour.EXTENSION:
            diags.extend(check_ack(result, "tasks/get"))
        if state is not None:
            diags.extend(tracker.observe(state, source="tasks/get"))
        self.conn.diagnostics.extend(diags)
        if state is not None and (tracker.changed or diags):
            self._emit(tracker.state, "tasks/get", tuple(diags), progressed=tracker.changed)

    def _on_status(self, method: str, params: Any) -> None:
        """A status notification for this task (called by the hub, inside the connection's callback)."""
        tracker = self.tracker
        if tracker is None or self._flavour is None:
            return
        state, diags = parse_status_notification(method, params, self._flavour)
        if state is not None:
            diags.extend(tracker.observe(state, source=method, path="$.params"))
        self.conn.diagnostics.extend(diags)
        if state is not None and (tracker.changed or diags):
            self._emit(tracker.state, method, tuple(diags), progressed=tracker.changed)
        self._wake.set()

    def _emit(
        self,
        state: TaskState,
        source: str,
        diagnostics: tuple[Diagnostic, ...],
        note: str | None = None,
        *,
        progressed: bool = False,
    ) -> None:
        if progressed:
            self._last_change = time.monotonic()
        update = TaskUpdate(state, source, diagnostics, note)
        self.updates.append(update)
        del self.updates[:-1000]
        if self.on_update is not None:
            self.on_update(update)

    # -- 2025-11-25: tasks/result

    async def _fetch_result(self, task_id: str) -> Any:
        return await self.conn.request("tasks/result", task_id_params(task_id))

    def _take_result(self) -> Any:
        task, self._result = self._result, None
        tracker = self.tracker
        assert task is not None and tracker is not None
        try:
            result = task.result()
        except RequestTimeout:
            if tracker.state.terminal:
                raise
            tracker.result_requested = False  # open it again: the task is still going
            return _AGAIN
        except RemoteError as exc:
            if tracker.state.status == "cancelled":
                raise TaskCancelled(
                    tracker.state, f"task {tracker.task_id} was cancelled", by_client=self.cancel_sent
                ) from None
            raise TaskFailed(tracker.state, exc.code, exc.message, exc.data) from None
        self.conn.diagnostics.extend(check_related_task(result, tracker.task_id))
        return result

    async def _drop_result_task(self) -> None:
        task, self._result = self._result, None
        if task is None:
            return
        if not task.done():
            task.cancel()
        try:
            await task
        except (asyncio.CancelledError, Exception):  # the call is over: what the fetch ended with is moot
            pass

    # -- 2026-07-28: tasks/update

    async def _answer(self, calls: tuple[InputCall, ...]) -> None:
        tracker = self.tracker
        assert tracker is not None
        responses: dict[str, Any] = {}
        failures: list[str] = []
        for call in calls:
            # what the handler is answering: the task (its id), the key, and that tasks/get asked for it
            info = RequestInfo(tracker.task_id, call.method, call.method, (), call.key, "tasks/get")
            token = current_request.set(info)
            try:
                responses[call.key] = await answer_input(self.conn.handlers, call)
            except HandlerError as exc:
                failures.append(f"{call.key!r} ({call.method}): {exc.message}")
            except Exception as exc:  # a broken handler: the task cannot go on without the answer
                failures.append(f"{call.key!r} ({call.method}): {describe_exception(exc)}")
            finally:
                current_request.reset(token)
        tracker.mark_answered([call.key for call in calls])
        if failures:
            reason = "could not answer the server's input request " + "; ".join(failures)
            self._emit(tracker.state, "tasks/update", (), note=reason)
            await self._cancel_at_server(reason)
            raise TaskCancelled(
                tracker.state, f"task {tracker.task_id}: {reason}; the task was cancelled", by_client=True
            )
        ack = await self.conn.request("tasks/update", update_params(tracker.task_id, responses))
        diags = check_ack(ack, "tasks/update")
        self.conn.diagnostics.extend(diags)
        keys = ", ".join(repr(k) for k in responses)
        self._emit(tracker.state, "tasks/update", tuple(diags), note=f"answered {keys}", progressed=True)

    # -- cancellation

    async def _send_cancel(self) -> None:
        tracker = self.tracker
        assert tracker is not None and self._flavour is not None
        self.cancel_sent = True
        state = await cancel_task(self.conn, tracker.task_id, forced=False)
        if state is not None:
            diags = tracker.observe(state, source="tasks/cancel")
            self.conn.diagnostics.extend(diags)
            self._emit(tracker.state, "tasks/cancel", tuple(diags))
        else:
            self._emit(tracker.state, "tasks/cancel", (), note="cancellation acknowledged")

    async def _cancel_at_server(self, reason: str) -> None:
        """Best effort on the way out: ``tasks/cancel`` unless the task is over, bounded by ``cancel_wait``."""
        tracker = self.tracker
        if tracker is None or tracker.state.terminal or self.cancel_sent:
            return
        try:
            async with asyncio.timeout(self.cancel_wait):
                await self._send_cancel()
        except CapabilityNotDeclared:
            self._emit(tracker.state, "tasks/cancel", (), note=f"{reason}; not cancelled: no tasks.cancel capability")
        except (ClientError, TimeoutError) as exc:
            self._emit(tracker.state, "tasks/cancel", (), note=f"{reason}; tasks/cancel failed: {message_of(exc)}")


_AGAIN: Final[Any] = object()


async def call_tool_as_declared(
    conn: Connection,
    name: str,
    arguments: dict[str, Any] | None = None,
    *,
    tool: Mapping[str, Any] | None = None,
    prefer_task: bool = False,
    forced: bool = False,
    on_update: TaskCallback | None = None,
    idle_timeout: float | None = None,
) -> Any:
    """Call a tool the way its declaration asks: as a task when 2025-11-25's tool-level negotiation says so
    (``tool`` is its tools/list entry; ``prefer_task`` takes ``optional`` as a yes), else as a plain request;
    a task handle in a 2026-07-28 answer is followed. Returns the final result."""
    version = conn.server.protocol_version if conn.server is not None else conn.session.protocol_version
    plan = plan_tool_call(tool, _capabilities(conn), version, prefer_task=prefer_task)
    conn.diagnostics.extend(plan.diagnostics)
    flavour = plan.flavour
    if flavour is None:
        return await conn.call_tool(name, arguments, forced=forced)
    if plan.as_task or flavour is Flavour.EXTENSION:
        runner = TaskRunner(conn, on_update=on_update, idle_timeout=idle_timeout)
        return await runner.call_tool(name, arguments, forced=forced)
    return await conn.call_tool(name, arguments, forced=forced)
