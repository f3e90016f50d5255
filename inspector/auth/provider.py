"""The SDK's ``OAuthClientProvider`` with what an inspector needs on top.

The SDK does discovery (``WWW-Authenticate`` ``resource_metadata``, then the path and root well-known
URLs; authorization-server metadata in the spec's order), CIMD or dynamic registration, PKCE S256, the
``resource`` parameter, state and RFC 9207 ``iss`` checks, scope selection, step-up on 403
``insufficient_scope`` (with the SEP-2350 scope union) and refresh before expiry. This subclass adds:

* every step and its HTTP exchanges recorded for the Authorization view (:class:`StepRecorder`; the summaries
  from :mod:`inspector.auth.step_descriptions`);
* a limit on step-up (:mod:`inspector.auth.challenges`): a 403 for scopes the token already has, or a second
  step-up for the same scopes, is returned as it is instead of re-authorizing again;
* a 401 for a token we sent triggers one refresh (when we have a refresh token) before a full flow;
* the token expiry and authorization-server metadata restored from storage, so a restart refreshes;
* PKCE support checked in the metadata (absent ``code_challenge_methods_supported`` with S256: refuse);
* user-chosen scopes (requested instead of the server's choice; added to on step-up and registration);
* the token endpoint auth method of a client without one chosen from the server's metadata;
* the OAuth URL rule (:mod:`inspector.auth.urls`) on the challenge's ``resource_metadata``, on the URL fields
  of each metadata document as it arrives, on the endpoints before authorizing and on every request of the
  flow before it is sent;
* tokens that cannot go in an ``Authorization`` header refused before they are stored
  (:mod:`inspector.auth.token_endpoint`);
* when the SDK fell back to default endpoints at the MCP server's origin and that failed, an error saying
  what was wrong with the metadata (:mod:`inspector.auth.metadata`, :mod:`inspector.auth.discovery_watch`), or
  that there is no registration_endpoint;
* a flow lock any task may release (see :mod:`inspector.auth.flow_lock`);
* client registrations bound to their authorization server's issuer (:mod:`inspector.auth.registration`,
  :mod:`inspector.auth.storage`): when the protected-resource metadata names another server, the registration
  stored for that one is used or the client registers there, and a pre-registered client bound to another
  issuer is refused, never sent there;
* grants other than authorization code (:mod:`inspector.auth.grants`, :mod:`inspector.auth.grant_requests`):
  client credentials, jwt-bearer (workload identity) and enterprise-managed authorization (an ID-JAG from the
  enterprise IdP, :mod:`inspector.auth.enterprise`); ``private_key_jwt`` client authentication on every token
  request; a grant the authorization server refused is not retried with the same credentials;
* DPoP (:mod:`inspector.auth.dpop`, :mod:`inspector.auth.dpop_binding`): a proof on token requests when the
  authorization server supports it (or the MCP server demands it), ``Authorization: DPoP`` plus a fresh proof
  on every MCP request with a bound token, and one retry with the server's nonce on ``use_dpop_nonce``.
"""

from __future__ import annotations

import ssl
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from typing import Literal, cast

import anyio
import httpx2
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider, OAuthFlowError, TokenStorage
from mcp.client.auth.utils import union_scopes
from mcp.shared.auth import OAuthClientMetadata

from inspector.auth.challenges import MAX_STEP_UPS as MAX_STEP_UPS
from inspector.auth.challenges import (
    StepUpGate,
    asks_for_dpop,
    check_resource_metadata_url,
    record_challenge,
    record_nonce_challenge,
)
from inspector.auth.discovery_watch import DiscoveryWatch
from inspector.auth.dpop import DPoPSigner
from inspector.auth.dpop_binding import DPoPBinding
from inspector.auth.enterprise import IdJagExchange
from inspector.auth.flow_lock import FlowLock
from inspector.auth.grant_requests import GrantRequests
from inspector.auth.grants import Grant, GrantOptions, declared_extensions
from inspector.auth.registration import bind_registration, with_user_scopes
from inspector.auth.step_descriptions import describe_step
from inspector.auth.steps import AuthStep, AuthStepKind, StepRecorder, StepStatus, classify_request, exchange_of
from inspector.auth.storage import KeyringTokenStorage
from inspector.auth.token_endpoint import TOKEN_KINDS, settle_token_auth_method, with_client_assertion
from inspector.auth.token_endpoint import check_token_body as check_token_body
from inspector.auth.urls import check_oauth_url
from inspector.protocol.limits import DEFAULT_LIMITS, Limits
from inspector.transports.base import message_of

__all__ = ["InspectorOAuthProvider"]

_Action = Literal["continue", "stop", "refresh"]
_FlowLock = FlowLock
"""The former name of :class:`~inspector.auth.flow_lock.FlowLock`."""


class InspectorOAuthProvider(OAuthClientProvider):
    """An ``httpx2.Auth`` for one MCP server; build it with :func:`inspector.auth.flow.build_oauth_auth`."""

    def __init__(
        self,
        server_url: str,
        client_metadata: OAuthClientMetadata,
        storage: TokenStorage,
        *,
        recorder: StepRecorder,
        redirect_handler: Callable[[str], Awaitable[None]] | None = None,
        callback_handler: Callable[[], Awaitable[AuthorizationCodeResult]] | None = None,
        client_metadata_url: str | None = None,
        user_scopes: str | None = None,
        grant: GrantOptions | None = None,
        client_issuer: str | None = None,
        verify: ssl.SSLContext | bool = True,
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        super().__init__(
            server_url,
            client_metadata,
            storage,
            redirect_handler=redirect_handler,
            callback_handler=callback_handler,
            client_metadata_url=client_metadata_url,
        )
        self.recorder = recorder
        recorder.describe = self._describe
        self.storage = storage
        self.user_scopes = user_scopes
        self._keyring = storage if isinstance(storage, KeyringTokenStorage) else None
        self._step_up = StepUpGate(recorder)
        self._watch = DiscoveryWatch()
        """What discovery answered in this flow and where the SDK fell back to its default endpoints."""
        self.context.lock = cast(anyio.Lock, FlowLock())
        self._storage_noticed = False
        self.grant = grant if grant is not None else GrantOptions()
        self.client_issuer = client_issuer
        """The authorization server the configured (pre-registered) client belongs to (None: not said)."""
        id_jag = (
            IdJagExchange(self.grant.enterprise, recorder=recorder, verify=verify, limits=limits)
            if self.grant.enterprise is not None
            else None
        )
        self._grants = GrantRequests(self.grant, recorder=recorder, id_jag=id_jag)
        self._dpop = DPoPBinding()

    # -- public extras -----------------------------------------------------------------------------

    @property
    def steps(self) -> list[AuthStep]:
        """Every step so far (latest version of each)."""
        return list(self.recorder.steps)

    @property
    def dpop(self) -> DPoPSigner | None:
        """The DPoP key of this session, once DPoP is used."""
        return self._dpop.signer

    @property
    def declared_extensions(self) -> frozenset[str]:
        """The auth extension ids to declare in ``clientCapabilities.extensions`` (see :mod:`.grants`)."""
        info = self.context.client_info
        confidential = self.grant.client_key is not None or (info is not None and bool(info.client_secret))
        return declared_extensions(self.grant, confidential=confidential)

    def forget(self) -> None:
        """Drop the tokens and registration held in memory and in storage ("clear stored authorization")."""
        self.context.clear_tokens()
        self.context.client_info = None
        self.context.oauth_metadata = None
        self.context.protected_resource_metadata = None
        self._initialized = False
        self._step_up.clear()
        self._dpop.token = None
        self._grants.clear()
        if self._keyring is not None:
            self._keyring.clear()

    # -- the flow ----------------------------------------------------------------------------------

    async def async_auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        refreshed = False
        while True:
            inner = super().async_auth_flow(request)
            restart = False
            first = True
            try:
                outgoing = await inner.__anext__()
                if outgoing is not request:  # a refresh before the request
                    outgoing = self._adjust(outgoing, request)
                while True:
                    started = time.monotonic()
                    response = yield outgoing
                    elapsed = time.monotonic() - started
                    retry = await self._dpop.retry(outgoing, request, response)
                    if retry is not None:  # use_dpop_nonce: once more with the server's nonce
                        record_nonce_challenge(self.recorder, outgoing, request, response, elapsed)
                        started = time.monotonic()
                        response = yield retry
                        elapsed = time.monotonic() - started
                        if self._dpop.signer is not None:
                            self._dpop.signer.notice(response)
                    if outgoing is request:
                        if response.status_code in (401, 403):
                            record_challenge(self.recorder, request, response, elapsed, retried=not first)
                        if first:
                            first = False
                            action = self._first_answer(request, response, refreshed)
                            if action == "stop":
                                return
                            if action == "refresh":
                                restart = refreshed = True
                                break
                            self._check_challenge(response)
                    else:
                        kind = classify_request(outgoing, request)
                        self.recorder.add(kind, exchange_of(outgoing, response, elapsed))
                        if kind is AuthStepKind.DISCOVERY and await self._watch.observe(outgoing, response):
                            self._dpop.demanded = True
                    try:
                        outgoing = await inner.asend(response)
                    except StopAsyncIteration:
                        break
                    if outgoing is not request:
                        outgoing = self._adjust(outgoing, request)
            except Exception as exc:
                explained = self._watch.explain(exc, self.context)
                self.recorder.fail(message_of(explained))
                if explained is exc:
                    raise
                raise explained from exc
            finally:
                await inner.aclose()
            if not restart:
                self.recorder.finish()
                return

    def _check_challenge(self, response: httpx2.Response) -> None:
        """A new flow starts with the MCP server's challenge: its ``resource_metadata`` URL obeys the rule."""
        self._watch.reset()
        if response.status_code not in (401, 403):
            return
        if asks_for_dpop(response):
            self._dpop.demanded = True  # RFC 9449 section 7.1: the resource server accepts DPoP tokens
        check_resource_metadata_url(response)

    def _first_answer(self, request: httpx2.Request, response: httpx2.Response, refreshed: bool) -> _Action:
        """What to do with the server's first answer to ``request`` in this flow."""
        self._step_up.stepping_up = False
        if response.status_code == 401:
            sent_token = request.headers.get("authorization", "").lower().startswith(("bearer ", "dpop "))
            if sent_token and not refreshed and self.context.can_refresh_token():
                self.context.token_expiry_time = 1.0  # expired: the SDK refreshes before resending
                return "refresh"
            return "continue"
        tokens = self.context.current_tokens
        if not self._step_up.admit(response, tokens.scope if tokens is not None else None):
            return "stop"
        return "continue"

    def _adjust(self, request: httpx2.Request, original: httpx2.Request) -> httpx2.Request:
        """Every request of the flow is checked against the OAuth URL rule before it is sent; a registration
        request also asks for the user's scopes (so the server lets us request them)."""
        kind = classify_request(request, original)
        try:
            check_oauth_url(str(request.url), f"the OAuth {kind.value} request's URL")
        except ValueError as exc:
            raise OAuthFlowError(f"refusing to continue authorization: {message_of(exc)}") from None
        self._watch.note_request(kind, str(request.url), self.context.oauth_metadata)
        if kind in TOKEN_KINDS:
            return self._adjust_token_request(request)
        return with_user_scopes(request, self.user_scopes)

    def _issuer_id(self) -> str:
        """The authorization server's issuer identifier exactly as its metadata states it (the audience of
        client assertions and ID-JAGs); the token endpoint when there is no metadata."""
        return self._watch.issuer_id(self.context.oauth_metadata, self._get_token_endpoint())

    def _adjust_token_request(self, request: httpx2.Request) -> httpx2.Request:
        """A token request gets the ``private_key_jwt`` client assertion (when the client authenticates so) and a
        DPoP proof (when DPoP is used)."""
        request = with_client_assertion(request, self.context, self.grant.client_key, self._issuer_id())
        advertised = self._watch.asm_field("dpop_signing_alg_values_supported")
        self._dpop.sign_token_request(request, self.grant.dpop, advertised)
        return request

    def _add_auth_header(self, request: httpx2.Request) -> None:
        tokens = self.context.current_tokens
        if not self._dpop.authorize(request, tokens.access_token if tokens is not None else None):
            super()._add_auth_header(request)

    def _expected_issuer(self) -> str:
        issuer = super()._expected_issuer()
        # before the SDK decides whether to reuse the registration it holds
        if bind_registration(
            self.context, issuer, client_issuer=self.client_issuer, store=self._keyring, recorder=self.recorder
        ):
            self._dpop.token = None
        return issuer

    # -- SDK hooks ---------------------------------------------------------------------------------

    async def _initialize(self) -> None:
        await super()._initialize()
        store = self._keyring
        tokens = self.context.current_tokens
        if store is not None and tokens is not None:
            self.context.token_expiry_time = store.expires_at()
            if self.context.oauth_metadata is None:
                self.context.oauth_metadata = store.stored_server_metadata()
            binding = store.stored_token_binding()
            signer = self._dpop.signer
            if binding is not None and signer is not None and signer.jkt == binding:
                self._dpop.token = tokens.access_token
            elif binding is not None:
                self.context.clear_tokens()  # bound to a DPoP key of an earlier session, which is gone
                self.recorder.note(
                    AuthStepKind.NOTICE, "The stored token is bound to the DPoP key of an earlier session: not used"
                )

    async def _perform_authorization(self) -> httpx2.Request:
        metadata = self.context.oauth_metadata
        self._watch.check_endpoints(self.context)
        if self.user_scopes:
            current = self.context.client_metadata.scope
            self.context.client_metadata.scope = (
                union_scopes(self.user_scopes, current) if self._step_up.stepping_up else self.user_scopes
            )
        grant, why = self._grants.choose(self.context)
        if grant is not Grant.AUTHORIZATION_CODE:
            return await self._grants.request(
                self.context, grant, why, token_endpoint=self._get_token_endpoint(), audience=self._issuer_id()
            )
        if metadata is not None and "S256" not in (metadata.code_challenge_methods_supported or []):
            raise OAuthFlowError(
                "the authorization server does not advertise PKCE S256 support (code_challenge_methods_supported); "
                "refusing to authorize"
            )
        return await super()._perform_authorization()

    async def _exchange_token_authorization_code(self, auth_code: str, code_verifier: str) -> httpx2.Request:
        settle_token_auth_method(self.context)
        return await super()._exchange_token_authorization_code(auth_code, code_verifier)

    async def _refresh_token(self) -> httpx2.Request:
        settle_token_auth_method(self.context)
        return await super()._refresh_token()

    def _bind_answer(self, response: httpx2.Response, body: bytes) -> tuple[httpx2.Response, bool]:
        """The token answer as the SDK reads it, and whether its token is DPoP-bound; the binding goes to the
        keyring with the tokens."""
        readable, bound = self._dpop.read_answer(response, body)
        if self._keyring is not None:
            self._keyring.token_binding = self._dpop.thumbprint(bound)
        return readable, bound

    async def _handle_token_response(self, response: httpx2.Response) -> None:
        if self._keyring is not None:
            self._keyring.server_metadata = self.context.oauth_metadata
        bound = False
        if response.status_code in (200, 201):
            body = await response.aread()
            check_token_body(body, "token response")  # before anything is stored
            response, bound = self._bind_answer(response, body)
            self._grants.accepted()
        else:
            self._grants.refused(await response.aread())
        await super()._handle_token_response(response)
        tokens = self.context.current_tokens
        self._dpop.token = tokens.access_token if bound and tokens is not None else None
        self._notice_session_only()

    async def _handle_refresh_response(self, response: httpx2.Response) -> bool:
        if self._keyring is not None:
            self._keyring.server_metadata = self.context.oauth_metadata
        bound = False
        if response.status_code == 200:
            try:
                body = await response.aread()
                check_token_body(body, "refresh token response", whole=False)
                response, bound = self._bind_answer(response, body)
            except OAuthFlowError:
                self.context.clear_tokens()
                raise
        ok = await super()._handle_refresh_response(response)
        tokens = self.context.current_tokens
        self._dpop.token = tokens.access_token if ok and bound and tokens is not None else None
        if not ok and self.recorder.current is not None and self.recorder.current.kind == AuthStepKind.REFRESH:
            self.recorder.finish(StepStatus.FAILED, f"refresh refused (HTTP {response.status_code}); authorizing again")
        return ok

    def _notice_session_only(self) -> None:
        if self._storage_noticed or self._keyring is None or self._keyring.persistent:
            return
        self._storage_noticed = True
        self.recorder.note(AuthStepKind.NOTICE, self._keyring.message or "Tokens are kept for this session only")

    def _describe(self, kind: AuthStepKind) -> tuple[str, Mapping[str, str]]:
        used = self._grants.used
        return describe_step(
            kind,
            self.context,
            keyring=self._keyring,
            dpop=self._dpop.signer,
            dpop_token=self._dpop.token,
            grant=used[0] if used is not None else None,
        )
