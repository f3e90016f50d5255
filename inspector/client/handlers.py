"""Answers to the server's own requests (sampling, elicitation, roots).

The GUI plugs dialogs in here; headless runs use ``HeadlessHandlers``, which answer at once
with predictable values so a CI run never waits for a person.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from inspector.protocol.diagnostics import Diagnostic
from inspector.protocol.jsonrpc import INTERNAL_ERROR
from inspector.protocol.wire import RequestId

__all__ = [
    "WITHDRAWN_BY_SERVER",
    "HandlerError",
    "HeadlessHandlers",
    "PersonHold",
    "RequestInfo",
    "ServerRequestHandlers",
    "asking_a_person",
    "current_request",
    "person_hold",
    "synthesize_elicitation_content",
    "withdrawn_by_server",
]


class HandlerError(Exception):
    """Raise from a handler to answer the server with a JSON-RPC error."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


@dataclass(frozen=True, slots=True)
class RequestInfo:
    """The server request a handler is answering: its id, the method as sent, and the diagnostics of its frame."""

    id: RequestId
    method: str
    """The standard name (``elicitation/request`` arrives as ``elicitation/create``)."""
    wire_method: str
    """The name as the server sent it."""
    diagnostics: tuple[Diagnostic, ...] = ()
    input_key: str | None = None
    """2026-07-28: the ``inputRequests`` key this answers (``id`` is then the id of the round that asked)."""
    asked_by: str | None = None
    """2026-07-28: the method of our request whose answer asked for this input (tools/call, ...)."""
    round: int | None = None
    """2026-07-28: the round of that request this input is for (2 after the first ``input_required``)."""
    subject: str | None = None
    """2026-07-28: what that request is about (the tool's or prompt's name, the resource's URI)."""

    @property
    def non_standard(self) -> bool:
        """The server used a non-standard alias of the method (e.g. ``elicitation/request``)."""
        return self.wire_method != self.method


current_request: ContextVar[RequestInfo | None] = ContextVar("current_request", default=None)
"""Set by the connection inside each handler task: the request being answered (None outside a handler)."""

PersonHold = Callable[[], AbstractContextManager[None]]
person_hold: ContextVar[PersonHold | None] = ContextVar("person_hold", default=None)
"""Set by the connection inside each handler task: holds its requests' timeouts (see :func:`asking_a_person`)."""

WITHDRAWN_BY_SERVER = "withdrawn by the server"
"""The message of the ``CancelledError`` a handler gets when the server cancelled its request
(``notifications/cancelled``); other cancellations (the connection ends) carry none."""


@contextmanager
def asking_a_person() -> Iterator[None]:
    """Wrap a handler's wait for a person's answer (a dialog): while it lasts, the timeouts of our requests on
    this connection are suspended (the server's answer to them waits for this one), and each pending request
    gets its full period again when it ends. Outside a handler task it does nothing."""
    hold = person_hold.get()
    if hold is None:
        yield
        return
    with hold():
        yield


def withdrawn_by_server(exc: BaseException) -> bool:
    """True for the cancellation of a handler whose request the server cancelled (not the connection ending)."""
    return WITHDRAWN_BY_SERVER in getattr(exc, "args", ())


class ServerRequestHandlers(Protocol):
    async def create_message(self, params: dict[str, Any]) -> dict[str, Any]: ...

    async def elicit(self, params: dict[str, Any]) -> dict[str, Any]: ...

    async def list_roots(self, params: dict[str, Any]) -> dict[str, Any]: ...


ElicitPolicy = Literal["accept", "decline", "cancel"]


class HeadlessHandlers:
    """Immediate, predictable answers for the CLI and for tests.

    - sampling: one assistant text message (``sampling_text``), model ``mcp-inspect-headless``;
    - elicitation: ``accept`` fills the form with the schema's defaults (minimal valid values where a
      required field has none); URL-mode elicitation is declined, since no one can open the page;
    - roots: the configured list.
    """

    def __init__(
        self,
        *,
        sampling_text: str = "This is an automatic reply from mcp-inspect (headless mode).",
        elicitation: ElicitPolicy = "accept",
        roots: Sequence[dict[str, Any]] = (),
    ) -> None:
        self.sampling_text = sampling_text
        self.elicitation: ElicitPolicy = elicitation
        self.roots = list(roots)

    async def create_message(self, params: dict[str, Any]) -> dict[str, Any]:
        return {
            "role": "assistant",
            "content": {"type": "text", "text": self.sampling_text},
            "model": "mcp-inspect-headless",
            "stopReason": "endTurn",
        }

    async def elicit(self, params: dict[str, Any]) -> dict[str, Any]:
        if self.elicitation != "accept":
            return {"action": self.elicitation}
        if params.get("mode") == "url":
            return {"action": "decline"}
        schema = params.get("requestedSchema")
        if not isinstance(schema, dict):
            raise HandlerError(INTERNAL_ERROR, "elicitation without a requestedSchema")
        return {"action": "accept", "content": synthesize_elicitation_content(schema)}

    async def list_roots(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"roots": list(self.roots)}


def synthesize_elicitation_content(schema: dict[str, Any]) -> dict[str, Any]:
    """Defaults where the schema gives them; for required fields without one, a minimal valid value."""
    props = schema.get("properties")
    required = schema.get("required") or []
    content: dict[str, Any] = {}
    if not isinstance(props, dict):
        return content
    for name, prop in props.items():
        if not isinstance(prop, dict):
            continue
        if "default" in prop:
            content[name] = prop["default"]
        elif name in required:
            content[name] = _minimal_value(prop)
    return content


def _minimal_value(prop: dict[str, Any]) -> Any:
    if isinstance(prop.get("enum"), list) and prop["enum"]:
        return prop["enum"][0]
    for key in ("oneOf", "anyOf"):
        options = prop.get(key)
        if isinstance(options, list) and options and isinstance(options[0], dict) and "const" in options[0]:
            return options[0]["const"]
    kind = prop.get("type")
    if kind == "boolean":
        return False
    if kind in ("number", "integer"):
        low = prop.get("minimum", prop.get("exclusiveMinimum"))
        if isinstance(low, int | float):
            return low + 1 if "minimum" not in prop else low
        return 0
    if kind == "array":
        items = prop.get("items")
        if isinstance(items, dict):
            values = items.get("enum") or [o.get("const") for o in items.get("anyOf", []) if isinstance(o, dict)]
            n = int(prop.get("minItems", 0))
            return list(values[:n]) if values else []
        return []
    fmt = prop.get("format")
    samples = {
        "email": "user@example.com",
        "uri": "https://example.com",
        "date": "2025-01-01",
        "date-time": "2025-01-01T00:00:00Z",
    }
    if fmt in samples:
        return samples[fmt]
    return "x" * int(prop.get("minLength", 0))
