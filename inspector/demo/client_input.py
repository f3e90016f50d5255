"""Asking the client for input in whichever era the request speaks: a server request or an ``input_required``.

Handshake era (<= 2025-11-25): a server-to-client JSON-RPC request scoped to the current client request (so it
rides the same HTTP response stream). Modern era (2026-07-28): an ``InputRequiredResult`` the client answers by
retrying the request with ``inputResponses`` (multi round-trip requests, MRTR).
"""

import json
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import Context
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp_types import (
    CallToolResult,
    ClientCapabilities,
    CreateMessageRequest,
    ElicitRequest,
    InputRequiredResult,
    ListRootsRequest,
    TextContent,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, Field

__all__ = ["ClientRequest", "Force", "ask_client", "is_modern", "json_result", "undeclared"]

ClientRequest = CreateMessageRequest | ElicitRequest | ListRootsRequest
"""The requests a server may put to a client: sampling, elicitation, roots."""

_ResultT = TypeVar("_ResultT", bound=BaseModel)

Force = Annotated[
    bool,
    Field(description="Send even if the client did not declare the capability (a violation an inspector flags)"),
]


def is_modern(ctx: Context) -> bool:
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS


def json_result(payload: Any, *, is_error: bool = False) -> CallToolResult:
    return CallToolResult(content=[TextContent(text=json.dumps(payload, indent=2))], is_error=is_error)


async def ask_client(
    ctx: Context, key: str, request: ClientRequest, result_type: type[_ResultT]
) -> _ResultT | InputRequiredResult | CallToolResult:
    """The client's answer to ``request``, or what to return instead of the result for now.

    Modern era: the answer from the retry's ``inputResponses[key]``, else an ``InputRequiredResult`` asking for
    it. Handshake era: the answer to a real server request; a refusal (a JSON-RPC error from the client)
    becomes an isError result naming it.
    """
    if is_modern(ctx):
        answered = (ctx.input_responses or {}).get(key)
        if answered is not None:
            return result_type.model_validate(answered.model_dump(by_alias=True, mode="json", exclude_none=True))
        return InputRequiredResult(input_requests={key: request})
    request_ctx = ctx.request_context
    try:
        return await request_ctx.session.send_request(
            request, result_type, metadata=ServerMessageMetadata(related_request_id=request_ctx.request_id)
        )
    except MCPError as exc:
        return json_result({"client_error": {"code": exc.error.code, "message": exc.error.message}}, is_error=True)


def undeclared(ctx: Context, capability: ClientCapabilities, name: str, force: bool = False) -> CallToolResult | None:
    """An isError result when the client lacks ``capability`` (and ``force`` is off), else None."""
    if force or ctx.request_context.session.check_client_capability(capability):
        return None
    text = f"The client did not declare the '{name}' capability (pass force=true to send the request anyway)."
    return CallToolResult(content=[TextContent(text=text)], is_error=True)
