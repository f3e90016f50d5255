"""What the discovery of one OAuth flow found, and where the SDK fell back to its default endpoints.

:class:`DiscoveryWatch` records what each metadata URL answered (:class:`~inspector.auth.metadata.DiscoveryLog`),
applies the OAuth URL rule to each document as it arrives and to the endpoints before authorizing, keeps the
authorization-server metadata as it arrived (the SDK's model drops the fields it does not know), and turns the
SDK's error after a fallback to default endpoints at the MCP server's origin into one that says what was wrong
with the metadata, or that there is no ``registration_endpoint``.
"""

from __future__ import annotations

from typing import Any

import httpx2
from mcp.client.auth import OAuthFlowError, OAuthRegistrationError
from mcp.client.auth.oauth2 import OAuthContext
from mcp.shared.auth import OAuthMetadata

from inspector.auth.metadata import DiscoveryLog, Document, check_document_urls, document_of, short
from inspector.auth.steps import AuthStepKind
from inspector.auth.token_endpoint import TOKEN_KINDS
from inspector.auth.urls import check_oauth_url
from inspector.transports.base import message_of

__all__ = ["DiscoveryWatch"]


class DiscoveryWatch:
    """The discovery and fallbacks of the flow under way (see the module docstring)."""

    def __init__(self) -> None:
        self.log = DiscoveryLog()
        """What each metadata URL of this flow answered (for the error message when the flow fails)."""
        self.fallback_registration: str | None = None
        """The URL of a registration sent to the SDK's default endpoint (no ``registration_endpoint``)."""
        self.fallback: str | None = None
        """The first request of this flow sent to a default endpoint at the MCP server's origin (no metadata)."""
        self.asm_document: dict[str, Any] | None = None
        """The authorization-server metadata as it arrived (kept across flows, replaced when it arrives again)."""

    def reset(self) -> None:
        """A new flow starts: forget what the discovery of the previous one answered and where it fell back."""
        self.log.clear()
        self.fallback_registration = self.fallback = None

    async def observe(self, request: httpx2.Request, response: httpx2.Response) -> bool:
        """Remember what a metadata URL answered, and check the URL fields of a document as it arrives (before
        the SDK fetches or opens any of them). True when a protected-resource document requires DPoP-bound
        tokens (``dpop_bound_access_tokens_required``)."""
        document = document_of(request.url)
        body = await response.aread()
        self.log.record(document, response, body)
        if response.status_code != 200:
            return False
        try:
            value = check_document_urls(document, str(request.url), body)
        except ValueError as exc:
            raise OAuthFlowError(f"refusing to authorize: {message_of(exc)}") from None
        if value is None:
            return False
        if document is Document.ASM:
            self.asm_document = value
            return False
        return value.get("dpop_bound_access_tokens_required") is True

    def note_request(self, kind: AuthStepKind, url: str, metadata: OAuthMetadata | None) -> None:
        """Notice a request of the flow that goes to one of the SDK's default endpoints (``metadata`` is the
        authorization-server metadata the flow has, if any)."""
        if kind is AuthStepKind.REGISTRATION and (metadata is None or metadata.registration_endpoint is None):
            self.fallback_registration = url
        if self.fallback is None and (
            (kind is AuthStepKind.REGISTRATION and self.fallback_registration)
            or (kind in TOKEN_KINDS and metadata is None)
        ):
            self.fallback = url

    def check_endpoints(self, ctx: OAuthContext) -> None:
        """The authorization server's endpoints (from its metadata, or the SDK's defaults at the MCP server's
        origin when there was none) obey the OAuth URL rule, before the browser opens or anything is fetched."""
        metadata = ctx.oauth_metadata
        if metadata is None:
            base = ctx.get_authorization_base_url(ctx.server_url)
            fields = {"authorization_endpoint (default, no metadata)": f"{base}/authorize"}
            self.fallback = self.fallback or f"{base}/authorize"
            where = "the MCP server's"
        else:
            fields = {
                name: str(value)
                for name in ("issuer", "authorization_endpoint", "token_endpoint", "registration_endpoint")
                if (value := getattr(metadata, name, None)) is not None
            }
            where = "the authorization server's metadata field"
        for name, url in fields.items():
            try:
                check_oauth_url(url, f"{where} {name}")
            except ValueError as exc:
                raise OAuthFlowError(f"refusing to authorize: {message_of(exc)}") from None

    def issuer_id(self, metadata: OAuthMetadata | None, token_endpoint: str) -> str:
        """The authorization server's issuer identifier exactly as its metadata states it (the audience of
        client assertions and ID-JAGs); ``token_endpoint`` when there is no metadata."""
        document = self.asm_document or {}
        issuer = document.get("issuer")
        if isinstance(issuer, str) and issuer:
            return issuer
        return str(metadata.issuer) if metadata is not None else token_endpoint

    def asm_field(self, name: str) -> Any:
        """The field ``name`` of the authorization-server metadata as it arrived (None: absent)."""
        return (self.asm_document or {}).get(name)

    def explain(self, exc: Exception, ctx: OAuthContext) -> Exception:
        """The error to report for ``exc``: what was wrong with the metadata when the SDK went on with its
        default endpoints at the MCP server's origin; an SDK message cut to one line; else ``exc`` itself."""
        if not isinstance(exc, OAuthFlowError):
            return exc
        text = message_of(exc)
        cause = self.log.cause(
            have_prm=ctx.protected_resource_metadata is not None, have_asm=ctx.oauth_metadata is not None
        )
        if cause is not None:
            if self.fallback is None:
                return OAuthFlowError(f"{cause} ({short(text)})")
            return OAuthFlowError(
                f"{cause}; the SDK went on with default endpoints at the MCP server's origin "
                f"({short(self.fallback)}), and then: {short(text)}"
            )
        if isinstance(exc, OAuthRegistrationError) and self.fallback_registration and ctx.oauth_metadata:
            source = self.log.found.get(Document.ASM)
            where = f"{Document.ASM.value} ({source})" if source else Document.ASM.value
            return OAuthRegistrationError(
                f"{where} has no registration_endpoint: the authorization server offers no dynamic client "
                "registration; use a pre-registered client (client id and secret) or a client metadata URL "
                f"(CIMD) if it supports one (the fallback registration at {short(self.fallback_registration)} "
                f"failed: {short(text)})"
            )
        if short(text) != text:
            return type(exc)(short(text))
        return exc
