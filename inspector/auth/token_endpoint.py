"""What the inspector checks and adds at the authorization server's token endpoint.

:func:`check_token_body` refuses tokens that could not go in an ``Authorization`` header; :func:`final_refusal`
reads a refusal that sending the same credentials again cannot change (RFC 6749 section 5.2);
:func:`settle_token_auth_method` gives a client with a secret the way to send it; :func:`with_client_assertion`
adds the ``private_key_jwt`` client assertion to a token request.
"""

from __future__ import annotations

import json
from typing import Any

import httpx2
from mcp.client.auth import OAuthFlowError
from mcp.client.auth.oauth2 import OAuthContext

from inspector.auth.assertions import CLIENT_ASSERTION_TYPE, ClientKey
from inspector.auth.forms import form_of, with_form
from inspector.auth.metadata import short
from inspector.auth.steps import AuthStepKind
from inspector.transports.base import message_of

__all__ = [
    "FINAL_TOKEN_ERRORS",
    "TOKEN_KINDS",
    "check_token_body",
    "final_refusal",
    "settle_token_auth_method",
    "with_client_assertion",
]

TOKEN_KINDS = (AuthStepKind.TOKEN, AuthStepKind.REFRESH)
"""The kinds of request sent to the token endpoint."""

FINAL_TOKEN_ERRORS = frozenset(
    {"invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type", "invalid_scope"}
)
"""Token endpoint errors (RFC 6749 section 5.2) that sending the same credentials again cannot change."""


def check_token_body(body: bytes, what: str, *, whole: bool = True) -> None:
    """The tokens of a token endpoint's JSON answer go into an ``Authorization`` header: each must be visible
    ASCII (RFC 6750 ``b64token``), else OAuthFlowError naming the field and the rule. With ``whole``, an
    answer that is not a JSON object with a non-empty ``access_token`` is refused too (a refresh answer like
    that is left to the SDK, which then authorizes again)."""
    try:
        value = json.loads(body)
    except ValueError as exc:
        if not whole:
            return
        raise OAuthFlowError(f"the {what} is not JSON ({short(message_of(exc))})") from None
    if not isinstance(value, dict):
        if not whole:
            return
        raise OAuthFlowError(f"the {what} is not a JSON object")
    if whole and (not isinstance(value.get("access_token"), str) or not value["access_token"]):
        raise OAuthFlowError(f"the {what} has no access_token (a non-empty string)")
    for name in ("access_token", "refresh_token", "token_type"):
        token = value.get(name)
        if not isinstance(token, str):
            continue
        bad = next(((i, ch) for i, ch in enumerate(token) if not 0x21 <= ord(ch) <= 0x7E), None)
        if bad is not None:
            raise OAuthFlowError(
                f"refusing the {what}: its {name} holds U+{ord(bad[1]):04X} at position {bad[0]}; a bearer token "
                "must be visible ASCII (RFC 6750), it could not be sent in an Authorization header"
            )


def final_refusal(body: bytes) -> str | None:
    """The refusal in a token endpoint's error answer when it is final (one of :data:`FINAL_TOKEN_ERRORS`):
    ``error: error_description``, or the error alone; None for any other answer."""
    try:
        value: Any = json.loads(body)
    except ValueError:
        return None
    error = value.get("error") if isinstance(value, dict) else None
    if error not in FINAL_TOKEN_ERRORS:
        return None
    described = value.get("error_description")
    return f"{error}: {described}" if isinstance(described, str) and described else str(error)


def settle_token_auth_method(ctx: OAuthContext) -> None:
    """Give a client with a secret but no token endpoint auth method one the server supports."""
    info = ctx.client_info
    if info is None or info.token_endpoint_auth_method is not None or not info.client_secret:
        return
    metadata = ctx.oauth_metadata
    supported = metadata.token_endpoint_auth_methods_supported if metadata is not None else None
    if supported is None:
        method = "client_secret_basic"  # RFC 8414 section 2: the default
    elif "client_secret_basic" in supported:
        method = "client_secret_basic"
    elif "client_secret_post" in supported:
        method = "client_secret_post"
    else:
        return
    ctx.client_info = info.model_copy(update={"token_endpoint_auth_method": method})


def with_client_assertion(
    request: httpx2.Request, ctx: OAuthContext, key: ClientKey | None, audience: str
) -> httpx2.Request:
    """The token request ``request`` with the ``private_key_jwt`` client assertion for ``audience`` (the
    authorization server's issuer) when the client authenticates so and the request has none yet."""
    info = ctx.client_info
    if key is None or info is None or info.token_endpoint_auth_method != "private_key_jwt":
        return request
    if "client_assertion" in form_of(request):
        return request
    assertion = key.assertion(info.client_id, audience)
    return with_form(request, {"client_assertion_type": CLIENT_ASSERTION_TYPE, "client_assertion": assertion})
