"""The token requests of the grants other than authorization code, and the credentials not to send again.

:class:`GrantRequests` chooses the grant of each authorization (:func:`~inspector.auth.grants.choose_grant`),
builds the token request of a client-credentials, jwt-bearer or enterprise grant (the enterprise one after
obtaining an ID-JAG, :mod:`inspector.auth.enterprise`), and remembers the credentials the authorization server
refused for good, so the same ones are not sent again.
"""

from __future__ import annotations

import hashlib

import httpx2
from mcp.client.auth import OAuthFlowError, OAuthTokenError
from mcp.client.auth.oauth2 import OAuthContext

from inspector.auth.enterprise import IdJagExchange
from inspector.auth.grants import Grant, GrantOptions, choose_grant, grant_form
from inspector.auth.steps import AuthStepKind, StepRecorder
from inspector.auth.token_endpoint import final_refusal, settle_token_auth_method
from inspector.transports.base import message_of

__all__ = ["GrantRequests"]


class GrantRequests:
    """The grant of one provider's authorizations (see the module docstring)."""

    def __init__(self, options: GrantOptions, *, recorder: StepRecorder, id_jag: IdJagExchange | None) -> None:
        self._options = options
        self._recorder = recorder
        self._id_jag = id_jag
        self.used: tuple[Grant, str] | None = None
        """The grant of the latest authorization and why it was chosen."""
        self._pending: str | None = None
        """The fingerprint of the credentials in the token request awaiting its answer."""
        self._refused: dict[str, str] = {}
        """Credentials fingerprint -> the authorization server's final refusal of them (not sent again)."""

    def clear(self) -> None:
        """Forget the refusals (the authorization was cleared)."""
        self._refused.clear()

    def choose(self, ctx: OAuthContext) -> tuple[Grant, str]:
        """The grant of the authorization starting now and why (remembered as :attr:`used`)."""
        metadata = ctx.oauth_metadata
        info = ctx.client_info
        confidential = info is not None and (bool(info.client_secret) or self._options.client_key is not None)
        supported = metadata.grant_types_supported if metadata is not None else None
        self.used = choose_grant(self._options, confidential=confidential, grant_types_supported=supported)
        self._pending = None
        return self.used

    def _fingerprint(self, ctx: OAuthContext, grant: Grant, secret_input: str | None, token_endpoint: str) -> str:
        info = ctx.client_info
        key = self._options.client_key
        parts = [
            grant.value,
            info.client_id if info is not None else "",
            (info.client_secret or "") if info is not None else "",
            key.algorithm if key is not None else "",
            secret_input or "",
            ctx.client_metadata.scope or "",
            token_endpoint,
        ]
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()

    async def request(
        self, ctx: OAuthContext, grant: Grant, why: str, *, token_endpoint: str, audience: str
    ) -> httpx2.Request:
        """The token request of a client-credentials, jwt-bearer or enterprise grant (see :mod:`.grants`);
        ``audience`` is the authorization server's issuer identifier (the audience of an ID-JAG)."""
        info = ctx.client_info
        label = grant.value.replace("_", " ")
        if info is None:
            raise OAuthFlowError(f"the {label} grant needs a client id (this client is not registered there)")
        if grant is Grant.CLIENT_CREDENTIALS and not info.client_secret and self._options.client_key is None:
            raise OAuthFlowError("the client credentials grant needs the client's secret or private key")
        resource = ctx.get_resource_url() if ctx.should_include_resource_param(ctx.protocol_version) else None
        scope = ctx.client_metadata.scope
        source = self._options.assertion if grant is Grant.JWT_BEARER else None
        if grant is Grant.ENTERPRISE:
            source = self._options.enterprise.id_token if self._options.enterprise is not None else None
        secret_input: str | None = None
        if grant in (Grant.JWT_BEARER, Grant.ENTERPRISE):
            if source is None:
                what = "a JWT assertion" if grant is Grant.JWT_BEARER else "the enterprise IdP and an ID token"
                raise OAuthFlowError(f"the {label} grant needs {what}")
            try:
                secret_input = source.read()
            except ValueError as exc:
                raise OAuthFlowError(f"the {label} grant: {message_of(exc)}") from None
        fingerprint = self._fingerprint(ctx, grant, secret_input, token_endpoint)
        refused = self._refused.get(fingerprint)
        if refused is not None:
            raise OAuthTokenError(f"not asking again with the credentials that were refused: {refused}")
        assertion = secret_input
        if grant is Grant.ENTERPRISE:
            assert self._id_jag is not None
            try:
                assertion = await self._id_jag.id_jag(
                    audience=audience, resource=resource or ctx.get_resource_url(), scope=scope
                )
            except OAuthTokenError as exc:
                self._refused[fingerprint] = message_of(exc)
                raise
        self._recorder.begin(AuthStepKind.TOKEN, f"Token request ({label} grant)", {"grant": grant.value, "why": why})
        data = grant_form(grant, client_id=info.client_id, resource=resource, scope=scope, assertion=assertion)
        settle_token_auth_method(ctx)
        data, headers = ctx.prepare_token_auth(data, {"Content-Type": "application/x-www-form-urlencoded"})
        self._pending = fingerprint
        return httpx2.Request("POST", token_endpoint, data=data, headers=headers)

    def accepted(self) -> None:
        """The token endpoint issued tokens for the request awaiting its answer."""
        self._pending = None

    def refused(self, body: bytes) -> None:
        """The token endpoint refused the request awaiting its answer (``body``: its answer); a final refusal of
        a grant's credentials is remembered so they are not sent again."""
        fingerprint, self._pending = self._pending, None
        if fingerprint is None:
            return
        refusal = final_refusal(body)
        if refusal is not None:
            self._refused[fingerprint] = refusal
