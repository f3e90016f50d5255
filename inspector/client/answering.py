"""Answering the server: its requests (handshake era) and the input its ``input_required`` results ask for (2026-07-28).

Both go through the same :class:`~inspector.client.handlers.ServerRequestHandlers` (``create_message``,
``elicit``, ``list_roots``), with :data:`~inspector.client.handlers.current_request` saying what is being
answered, so the window's dialogs and the CLI's automatic answers work the same in both eras:

* a server request is answered with the handler's result, or a JSON-RPC error (``HandlerError``'s, or
  -32603 for a broken handler or a result that cannot be sent); withdrawn by the server, its task is cancelled;
* an ``InputRequested`` round is answered one input after another (an input whose handler fails is left out,
  with a note; the server decides), then the logical request goes on under a new id (``retry_with_input``).

Each answer runs as a supervised task of the connection (``AnswerHost.spawn``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from inspector.client.errors import InvalidResponse, NotConnected, describe_exception, message_of
from inspector.client.handlers import (
    WITHDRAWN_BY_SERVER,
    HandlerError,
    RequestInfo,
    ServerRequestHandlers,
    current_request,
    person_hold,
)
from inspector.client.outstanding import Outstanding
from inspector.client.rounds import RoundNote
from inspector.protocol import session as _session
from inspector.protocol.events import InputRequested, RequestReceived
from inspector.protocol.jsonrpc import INTERNAL_ERROR
from inspector.protocol.session import ClientSession
from inspector.protocol.wire import RequestId, WireMessage

__all__ = ["AnswerHost", "Answering"]


class AnswerHost(Protocol):
    """What answering needs of the connection."""

    session: ClientSession
    handlers: ServerRequestHandlers
    outstanding: Outstanding

    @property
    def ending(self) -> bool: ...

    def spawn(self, coro: Coroutine[Any, Any, None], what: str) -> asyncio.Task[None]: ...

    def pump(self) -> None: ...

    def note(self, message: str) -> None: ...


class Answering:
    def __init__(self, host: AnswerHost) -> None:
        self._host = host
        self._requests: dict[RequestId, asyncio.Task[None]] = {}
        self._inputs: dict[RequestId, asyncio.Task[None]] = {}
        self.asking = 0
        """How many handlers wait for a person now (``asking_a_person``)."""
        self._watchers: list[Callable[[bool], None]] = []

    def cancel_all(self) -> None:
        """The connection ends (or its session does): every answer in progress stops."""
        for task in [*self._requests.values(), *self._inputs.values()]:
            task.cancel()

    def withdrawn(self, rid: RequestId) -> None:
        """The server withdrew its request ``rid``: stop answering it."""
        task = self._requests.pop(rid, None)
        if task is not None:
            task.cancel(WITHDRAWN_BY_SERVER)

    @contextmanager
    def holding_deadlines(self) -> Iterator[None]:
        """While a person answers (``asking_a_person``): the session's request timeouts are suspended."""
        host = self._host
        session = host.session
        session.hold_deadlines()
        host.pump()  # re-arms the deadline timer
        self._asking(+1)
        try:
            yield
        finally:
            session.release_deadlines()
            if not host.ending and session is host.session:
                host.pump()
            self._asking(-1)

    def watch_person(self, callback: Callable[[bool], None]) -> Callable[[], None]:
        """Call ``callback(True)`` when a person starts being asked (none was), ``callback(False)`` when the last
        one answered; returns the function that stops watching."""
        self._watchers.append(callback)

        def unwatch() -> None:
            if callback in self._watchers:
                self._watchers.remove(callback)

        return unwatch

    def _asking(self, delta: int) -> None:
        before = self.asking > 0
        self.asking = max(0, self.asking + delta)
        now = self.asking > 0
        if now != before:
            for callback in list(self._watchers):
                callback(now)

    def stop_input(self, rid: RequestId) -> None:
        """The caller gave up the logical request now at ``rid``: stop answering its input."""
        task = self._inputs.pop(rid, None)
        if task is not None:
            task.cancel()

    async def call(self, method: str, wire_method: str, params: dict[str, Any]) -> dict[str, Any]:
        """The handler of ``method`` (a server request, or an input request of a multi-round-trip request)."""
        handlers = self._host.handlers
        if method == "sampling/createMessage":
            return await handlers.create_message(params)
        if method == "elicitation/create":
            return await handlers.elicit(params)
        if method == "roots/list":
            return await handlers.list_roots(params)
        raise HandlerError(-32601, f"Method not found: {wire_method}")

    # ------------------------------------------------------------------ server requests

    def request(self, ev: RequestReceived, wire: WireMessage | None = None) -> None:
        diagnostics = tuple(wire.diagnostics) if wire is not None else ev.diagnostics
        info = RequestInfo(ev.id, ev.method, ev.wire_method, diagnostics)
        what = f"answering the server's {ev.wire_method} request"
        self._requests[ev.id] = self._host.spawn(self._run_request(ev, info), what)

    async def _run_request(self, ev: RequestReceived, info: RequestInfo) -> None:
        current_request.set(info)
        person_hold.set(self.holding_deadlines)
        try:
            result = await self.call(ev.method, ev.wire_method, ev.params or {})
        except asyncio.CancelledError:
            self._requests.pop(ev.id, None)
            return
        except HandlerError as exc:
            self._respond(ev.id, error=(exc.code, exc.message, exc.data))
            return
        except Exception as exc:  # a broken handler answers the server, never kills the session
            self._respond(ev.id, error=(INTERNAL_ERROR, f"client handler failed: {describe_exception(exc)}", None))
            return
        try:
            self._respond(ev.id, result=result)
        except (TypeError, ValueError) as exc:  # a result that cannot be sent (not JSON): the server hears why
            self._respond(ev.id, error=(INTERNAL_ERROR, f"client handler failed: {describe_exception(exc)}", None))

    def _respond(
        self, rid: RequestId, *, result: dict[str, Any] | None = None, error: tuple[int, str, Any] | None = None
    ) -> None:
        self._requests.pop(rid, None)
        session = self._host.session
        if not session.is_answerable(rid) or self._host.ending:
            return
        if error is not None:
            session.respond_error(rid, *error)
        else:
            session.respond(rid, result or {})
        self._host.pump()

    # ------------------------------------------------------------------ multi-round-trip requests

    def input(self, ev: InputRequested) -> None:
        what = f"answering the input {ev.method} needs (round {ev.round})"
        self._tell_round(ev, ev.request_id, sent=False)
        self._inputs[ev.request_id] = self._host.spawn(self._run_input(ev), what)

    async def _run_input(self, ev: InputRequested) -> None:
        """Answer each input request through the handlers, then send the next round (a new id)."""
        host = self._host
        responses: dict[str, Any] = {}
        person_hold.set(self.holding_deadlines)
        try:
            for call in ev.calls:
                current_request.set(
                    RequestInfo(
                        ev.request_id,
                        call.method,
                        call.method,
                        ev.diagnostics,
                        call.key,
                        ev.method,
                        ev.round + 1,
                        ev.subject,
                    )
                )
                try:
                    responses[call.key] = await self.call(call.method, call.method, call.params)
                except HandlerError as exc:
                    host.note(f"{ev.method}: input {call.key!r} ({call.method}) not answered: {exc.message}")
                except Exception as exc:  # a broken handler leaves the input out; the server decides
                    host.note(f"{ev.method}: input {call.key!r} ({call.method}) failed: {describe_exception(exc)}")
        except asyncio.CancelledError:
            self._inputs.pop(ev.request_id, None)
            return
        self._inputs.pop(ev.request_id, None)
        session = host.session
        if not session.waiting_for_input(ev.request_id) or host.ending:
            return  # cancelled meanwhile, or the connection is gone
        if ev.request_id not in host.outstanding:
            session.cancel(ev.request_id)  # nobody waits for it any more
            return
        try:
            rid = session.retry_with_input(ev.request_id, responses)
        except (TypeError, ValueError) as exc:  # an answer that cannot be sent (not JSON)
            session.cancel(ev.request_id)
            why = f"{ev.method}: an input answer cannot be sent: {describe_exception(exc)}"
            host.outstanding.fail(ev.request_id, InvalidResponse(why))
            return
        except _session.LocalProtocolError as exc:
            host.outstanding.fail(ev.request_id, NotConnected(message_of(exc)))
            return
        host.outstanding.move(ev.request_id, rid)
        host.pump()
        self._tell_round(ev, rid, sent=True)

    def _tell_round(self, ev: InputRequested, rid: RequestId, *, sent: bool) -> None:
        """Whoever follows the rounds of this request (``rounds.watching_rounds``) hears of the next one."""
        watcher = self._host.outstanding.round_watcher(rid)
        if watcher is not None:
            inputs = tuple(call.method for call in ev.calls)
            watcher(RoundNote(ev.method, ev.subject, ev.round + 1, inputs, sent))
