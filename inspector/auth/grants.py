"""Which OAuth grant obtains the access token, and the token request of each grant other than the SDK's own.

* ``authorization_code`` - the user authorizes in a browser (or ``--auto-approve``); the SDK's flow.
* ``client_credentials`` - the client acts for itself (OAuth Client Credentials extension, SEP-1046),
  authenticated with its secret (``client_secret_basic``/``_post``) or a ``private_key_jwt`` assertion.
* ``jwt_bearer`` - a JWT issued by someone the authorization server trusts is the grant (RFC 7523 section 2.1):
  workload identity federation (SEP-1933).
* ``enterprise`` - enterprise-managed authorization (SEP-990): the user's ID token is exchanged at the
  enterprise IdP for an ID-JAG (RFC 8693, :mod:`inspector.auth.enterprise`), which is then the assertion of a
  jwt-bearer grant at the MCP server's authorization server.

:func:`choose_grant` decides ``auto``: what the user configured says it (an ID token: enterprise; a workload
assertion: jwt-bearer), else the authorization server's ``grant_types_supported`` does - a confidential client
uses client credentials at a server that offers them and no authorization code. Pure logic, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Final

from inspector.auth.assertions import JWT_BEARER_GRANT, AssertionSource, ClientKey
from inspector.auth.dpop import DPoPMode

if TYPE_CHECKING:
    from inspector.auth.enterprise import EnterpriseOptions

__all__ = ["EXTENSION_IDS", "GRANT_TYPE", "Grant", "GrantOptions", "choose_grant", "declared_extensions", "grant_form"]


class Grant(StrEnum):
    AUTO = "auto"
    AUTHORIZATION_CODE = "authorization_code"
    CLIENT_CREDENTIALS = "client_credentials"
    JWT_BEARER = "jwt_bearer"
    ENTERPRISE = "enterprise"

    @classmethod
    def parse(cls, text: str) -> Grant:
        """``client-credentials``, ``client_credentials``, ``jwt-bearer``, ``code``...; ValueError listing them."""
        name = text.strip().lower().replace("-", "_")
        name = {"code": "authorization_code", "token_exchange": "enterprise"}.get(name, name)
        try:
            return cls(name)
        except ValueError:
            names = ", ".join(grant.value.replace("_", "-") for grant in cls)
            raise ValueError(f"unknown grant {text!r} (one of {names})") from None


GRANT_TYPE: Final[dict[Grant, str]] = {
    Grant.AUTHORIZATION_CODE: "authorization_code",
    Grant.CLIENT_CREDENTIALS: "client_credentials",
    Grant.JWT_BEARER: JWT_BEARER_GRANT,
    Grant.ENTERPRISE: JWT_BEARER_GRANT,
}
"""The ``grant_type`` each grant sends to the MCP server's authorization server."""

EXTENSION_IDS: Final = {
    "client_credentials": "io.modelcontextprotocol/oauth-client-credentials",
    "enterprise": "io.modelcontextprotocol/enterprise-managed-authorization",
    "workload_identity": "io.modelcontextprotocol/auth/wif",
    "dpop": "io.modelcontextprotocol/auth/dpop",
}
"""The auth extensions' identifiers (as the conformance suite names them) for ``clientCapabilities.extensions``."""


@dataclass(frozen=True)
class GrantOptions:
    """How to obtain tokens beyond the client id/secret: the grant, keys, assertions, DPoP."""

    grant: Grant = Grant.AUTO
    client_key: ClientKey | None = None
    """Authenticate the client with ``private_key_jwt`` (any grant's token requests)."""
    assertion: AssertionSource | None = None
    """The jwt-bearer grant's assertion (workload identity)."""
    enterprise: EnterpriseOptions | None = None
    dpop: DPoPMode = DPoPMode.AUTO

    @property
    def interactive(self) -> bool:
        """Whether the grant may need the authorization endpoint (so a redirect URI matters)."""
        return self.grant in (Grant.AUTO, Grant.AUTHORIZATION_CODE)


def choose_grant(
    options: GrantOptions, *, confidential: bool, grant_types_supported: Sequence[str] | None
) -> tuple[Grant, str]:
    """The grant to use now and why (for the Authorization view).

    ``confidential``: the client can authenticate (a secret or a private key). ``grant_types_supported``: the
    authorization server's metadata field (None: not advertised; RFC 8414 then means authorization code)."""
    if options.grant is not Grant.AUTO:
        return options.grant, "configured"
    if options.enterprise is not None:
        return Grant.ENTERPRISE, "an identity assertion for enterprise-managed authorization is configured"
    if options.assertion is not None:
        return Grant.JWT_BEARER, "a JWT assertion (workload identity) is configured"
    if grant_types_supported is None or "authorization_code" in grant_types_supported:
        return Grant.AUTHORIZATION_CODE, "the authorization server supports it"
    if confidential and "client_credentials" in grant_types_supported:
        return Grant.CLIENT_CREDENTIALS, "the authorization server offers client credentials, not authorization code"
    return Grant.AUTHORIZATION_CODE, (
        "the authorization server lists no grant this client can use ("
        + (", ".join(grant_types_supported) or "none")
        + "); trying authorization code"
    )


def grant_form(
    grant: Grant, *, client_id: str | None, resource: str | None, scope: str | None, assertion: str | None = None
) -> dict[str, str]:
    """The form of a client-credentials or jwt-bearer token request, before client authentication."""
    if grant is Grant.AUTHORIZATION_CODE or grant is Grant.AUTO:
        raise ValueError("the authorization code grant's token request is the SDK's")
    data = {"grant_type": GRANT_TYPE[grant]}
    if grant in (Grant.JWT_BEARER, Grant.ENTERPRISE):
        if not assertion:
            raise ValueError("the jwt-bearer grant needs an assertion")
        data["assertion"] = assertion
    if client_id:
        data["client_id"] = client_id
    if resource:
        data["resource"] = resource
    if scope:
        data["scope"] = scope
    return data


def declared_extensions(options: GrantOptions, *, confidential: bool) -> frozenset[str]:
    """The auth extensions this configuration can use, for the client to declare in the per-request
    ``io.modelcontextprotocol/clientCapabilities`` ``extensions`` (2026-07-28). ``confidential``: the client has
    a secret or a private key (so client credentials are possible)."""
    found: set[str] = set()
    grant = options.grant
    if grant is Grant.CLIENT_CREDENTIALS or (grant is Grant.AUTO and (confidential or options.client_key)):
        found.add(EXTENSION_IDS["client_credentials"])
    if grant is Grant.ENTERPRISE or (grant is Grant.AUTO and options.enterprise is not None):
        found.add(EXTENSION_IDS["enterprise"])
    if grant is Grant.JWT_BEARER or (grant is Grant.AUTO and options.assertion is not None):
        found.add(EXTENSION_IDS["workload_identity"])
    if options.dpop is not DPoPMode.OFF:
        found.add(EXTENSION_IDS["dpop"])
    return frozenset(found)
