"""DPoP in one OAuth provider's flow (RFC 9449): the key, the token bound to it, and where proofs go.

:class:`DPoPBinding` holds the session's :class:`~inspector.auth.dpop.DPoPSigner` once DPoP is used and the
access token bound to it. It puts a proof on token requests when the authorization server supports DPoP (or
the MCP server demands it, see :class:`~inspector.auth.dpop.DPoPMode`), ``Authorization: DPoP`` plus a fresh
proof on every MCP request with the bound token, and builds the one retry with the server's nonce on
``use_dpop_nonce``.
"""

from __future__ import annotations

import httpx2
from mcp.client.auth import OAuthFlowError

from inspector.auth.dpop import DPOP_HEADER, DPoPMode, DPoPSigner, nonce_challenge, wanted_algorithm
from inspector.auth.forms import as_bearer_answer
from inspector.auth.steps import classify_request
from inspector.auth.token_endpoint import TOKEN_KINDS
from inspector.transports.base import message_of

__all__ = ["DPoPBinding"]


class DPoPBinding:
    """The DPoP state of one provider (see the module docstring)."""

    def __init__(self) -> None:
        self.signer: DPoPSigner | None = None
        """The DPoP key of this session, once DPoP is used."""
        self.token: str | None = None
        """The access token that is bound to :attr:`signer` (sent with the DPoP scheme)."""
        self.demanded = False
        """The MCP server asked for DPoP (a ``DPoP`` challenge, or ``dpop_bound_access_tokens_required``)."""

    def token_signer(self, mode: DPoPMode, advertised: object) -> DPoPSigner | None:
        """The DPoP key to prove possession of at the token endpoint now (None: no DPoP), see :class:`DPoPMode`;
        ``advertised`` is the authorization server's ``dpop_signing_alg_values_supported`` as it arrived."""
        if mode is not DPoPMode.OFF and self.signer is not None and self.token is not None:
            return self.signer  # the refresh of a bound token is bound to the same key (RFC 9449 section 5)
        try:
            algorithm = wanted_algorithm(mode, advertised, demanded=self.demanded)
        except ValueError as exc:
            raise OAuthFlowError(f"DPoP: {message_of(exc)}") from None
        if algorithm is None:
            return None
        if self.signer is None or (isinstance(advertised, list) and self.signer.algorithm not in advertised):
            self.signer = DPoPSigner(algorithm)
        return self.signer

    def sign_token_request(self, request: httpx2.Request, mode: DPoPMode, advertised: object) -> None:
        """Put a proof on the token request ``request`` when DPoP is used, else make sure it carries none."""
        signer = self.token_signer(mode, advertised)
        if signer is not None:
            signer.sign(request)
        else:
            request.headers.pop(DPOP_HEADER, None)

    def authorize(self, request: httpx2.Request, token: str | None) -> bool:
        """Send the bound access token ``token`` on the MCP request ``request`` with the DPoP scheme and a fresh
        proof (True); for any other token the request carries no proof (False: the caller sends it as Bearer)."""
        if token and self.signer is not None and token == self.token:
            request.headers["Authorization"] = f"DPoP {token}"  # RFC 9449 section 7.1
            self.signer.sign(request, access_token=token)
            return True
        request.headers.pop(DPOP_HEADER, None)
        return False

    async def retry(
        self, outgoing: httpx2.Request, request: httpx2.Request, response: httpx2.Response
    ) -> httpx2.Request | None:
        """The request to send again when ``response`` is a ``use_dpop_nonce`` challenge to a proof we sent on
        ``outgoing`` (the MCP request ``request`` or a token request of its flow): the same request with a new
        proof carrying the nonce; else None. Every answer's nonce is remembered."""
        signer = self.signer
        if signer is None or DPOP_HEADER not in outgoing.headers:
            return None
        signer.notice(response)
        if outgoing is request:
            token = self.token
            if response.status_code != 401 or token is None or nonce_challenge(response) is None:
                return None
            return signer.sign(request, access_token=token)
        if response.status_code != 400 or classify_request(outgoing, request) not in TOKEN_KINDS:
            return None
        if nonce_challenge(response, await response.aread()) is None:
            return None
        return signer.sign(outgoing)

    def read_answer(self, response: httpx2.Response, body: bytes) -> tuple[httpx2.Response, bool]:
        """The token answer as the SDK reads it, and whether its token is DPoP-bound (kept aside: the SDK's model
        knows only Bearer). A bound token answering a request without our proof is refused."""
        readable, token_type = as_bearer_answer(response, body)
        bound = token_type is not None and token_type.lower() == "dpop"
        if bound and (self.signer is None or DPOP_HEADER not in response.request.headers):
            raise OAuthFlowError("the authorization server issued a DPoP-bound token to a request without a DPoP proof")
        return readable, bound

    def thumbprint(self, bound: bool) -> str | None:
        """The key's thumbprint to store with a token (None when the token is not bound)."""
        return self.signer.jkt if bound and self.signer is not None else None
