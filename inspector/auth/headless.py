"""Authorization without a browser (``--auto-approve``): for authorization servers that approve at once.

The authorization URL is requested *without following redirects*; when the answer redirects to our
redirect URI, ``code``, ``state`` and ``iss`` are taken from its ``Location`` header. Redirects elsewhere
(say, to a login page of the same server) are followed a few times while they stay http(s); a page that
needs a person (200 HTML) ends the attempt with an error that says so. Nothing listens on the redirect URI.
"""

from __future__ import annotations

import ssl
import time
from collections.abc import Callable
from typing import Final
from urllib.parse import parse_qsl, urljoin, urlsplit

import httpx2
from mcp.client.auth import OAuthFlowError
from mcp.shared.auth import AuthorizationCodeResult

from inspector.auth.steps import AuthStepKind, StepRecorder, exchange_of, mask_url
from inspector.auth.urls import check_oauth_url
from inspector.protocol.limits import DEFAULT_LIMITS, Limits
from inspector.transports.base import message_of
from inspector.transports.http_common import bounded

__all__ = ["HeadlessAuthorizer"]

_MAX_REDIRECTS: Final = 5


def _same_endpoint(location: str, redirect_uri: str) -> bool:
    a, b = urlsplit(location), urlsplit(redirect_uri)
    return (a.scheme.lower(), a.hostname, a.port, a.path or "/") == (
        b.scheme.lower(),
        b.hostname,
        b.port,
        b.path or "/",
    )


class HeadlessAuthorizer:
    """The SDK's redirect and callback handlers for auto-approving authorization servers."""

    def __init__(
        self,
        redirect_uri: str,
        *,
        verify: ssl.SSLContext | bool = True,
        timeout: float = 30.0,
        recorder: StepRecorder | None = None,
        client_factory: Callable[[], httpx2.AsyncClient] | None = None,
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        self.redirect_uri = redirect_uri
        self._verify = verify
        self._timeout = timeout
        self._recorder = recorder
        self._client_factory = client_factory
        self._limits = limits
        self._result: AuthorizationCodeResult | None = None

    def _client(self) -> httpx2.AsyncClient:
        if self._client_factory is not None:
            return self._client_factory()
        client = httpx2.AsyncClient(verify=self._verify, timeout=self._timeout, follow_redirects=False)
        return bounded(client, self._limits)  # what an authorization server answers is bounded too

    async def redirect_handler(self, authorization_url: str) -> None:
        """Request ``authorization_url`` and keep the code from the redirect back to us."""
        self._result = None
        recorder = self._recorder
        if recorder is not None:
            recorder.begin(
                AuthStepKind.AUTHORIZATION,
                "Authorization request (auto-approve, no browser)",
                {"authorization_url": mask_url(authorization_url), "redirect_uri": self.redirect_uri},
            )
        self._result = await self._follow(authorization_url)

    async def callback_handler(self) -> AuthorizationCodeResult:
        if self._result is None:
            raise OAuthFlowError("no authorization response: the authorization URL was never requested")
        result, self._result = self._result, None
        return result

    async def _follow(self, url: str) -> AuthorizationCodeResult:
        async with self._client() as client:
            what = "the authorization URL"
            for _ in range(_MAX_REDIRECTS + 1):
                try:
                    check_oauth_url(url, what)  # nothing is fetched that breaks the rule
                except ValueError as exc:
                    raise OAuthFlowError(f"refusing to authorize: {message_of(exc)}") from None
                what = "the authorization server's redirect to"
                request = client.build_request("GET", url)
                started = time.monotonic()
                response = await client.send(request, follow_redirects=False)
                elapsed = time.monotonic() - started
                await response.aread()
                if self._recorder is not None:
                    self._recorder.add(AuthStepKind.AUTHORIZATION, exchange_of(request, response, elapsed))
                location = response.headers.get("location")
                if not response.is_redirect or not location:
                    raise OAuthFlowError(self._not_redirected(response))
                target = urljoin(url, location)
                if _same_endpoint(target, self.redirect_uri):
                    return self._parse(target)
                if urlsplit(target).scheme.lower() not in ("http", "https"):
                    raise OAuthFlowError(f"the authorization server redirected to a non-http URL: {mask_url(target)}")
                url = target
        raise OAuthFlowError(f"the authorization server redirected more than {_MAX_REDIRECTS} times")

    @staticmethod
    def _not_redirected(response: httpx2.Response) -> str:
        kind = response.headers.get("content-type", "no content type").split(";")[0]
        detail = ""
        if "json" in kind:
            try:
                body = response.json()
            except ValueError:
                body = None
            if isinstance(body, dict) and "error" in body:
                detail = f" ({body.get('error')}: {body.get('error_description') or ''})".replace(": )", ")")
        hint = " - it needs a person; authorize without --auto-approve" if response.status_code == 200 else ""
        return (
            f"the authorization server answered {response.status_code} {kind}{detail} instead of redirecting back{hint}"
        )

    def _parse(self, location: str) -> AuthorizationCodeResult:
        query = dict(parse_qsl(urlsplit(location).query, keep_blank_values=True))
        if query.get("error"):
            description = query.get("error_description")
            raise OAuthFlowError(
                f"authorization refused: {query['error']}" + (f": {description}" if description else "")
            )
        code = query.get("code")
        if not code:
            raise OAuthFlowError("the redirect back carries no authorization code")
        if self._recorder is not None:
            details = {"state": "returned" if "state" in query else "missing"}
            if "iss" in query:
                details["iss"] = query["iss"]
            self._recorder.update(details=details)
        return AuthorizationCodeResult(code=code, state=query.get("state"), iss=query.get("iss"))
