"""Interactive authorization: the system browser plus the loopback callback."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from urllib.parse import parse_qsl, urlsplit

from mcp.client.auth import OAuthFlowError
from mcp.shared.auth import AuthorizationCodeResult

from inspector.auth.browser import BrowserOpener, open_in_browser
from inspector.auth.callback import LoopbackCallback, listen_host
from inspector.auth.steps import AuthStepKind, StepRecorder, mask_url
from inspector.auth.urls import check_oauth_url
from inspector.transports.base import message_of

__all__ = ["BrowserAuthorizer"]


class BrowserAuthorizer:
    """The SDK's redirect and callback handlers for a person at a browser.

    Each authorization opens a fresh :class:`LoopbackCallback` on the redirect URI's port (so a
    registered redirect URI keeps working) and closes it when the redirect arrived or the wait ended.
    """

    def __init__(
        self,
        redirect_uri: str,
        *,
        opener: BrowserOpener | None = None,
        timeout: float = 300.0,
        recorder: StepRecorder | None = None,
        person_waits: Callable[[], AbstractContextManager[None]] | None = None,
    ) -> None:
        """``person_waits``: a context the wait for the person's redirect runs in (the CLI pauses its connect
        deadline there: the time a person takes to log in is not the server's)."""
        self._person_waits = person_waits or nullcontext
        try:
            parts = urlsplit(redirect_uri)
            port = parts.port
        except ValueError:
            parts, port = None, None
        host = listen_host(parts.hostname or "") if parts is not None and parts.scheme == "http" else None
        if parts is None or host is None:
            raise ValueError(
                f"an interactive redirect URI must be http://127.0.0.1:<port>/<path> (or localhost, [::1]), "
                f"not {redirect_uri}"
            )
        self.redirect_uri = redirect_uri
        self._host = host
        self._port = 80 if port is None else port
        self._path = parts.path or "/"
        self._opener = opener
        self._timeout = timeout
        self._recorder = recorder
        self._callback: LoopbackCallback | None = None

    async def redirect_handler(self, authorization_url: str) -> None:
        await self.close()
        callback = LoopbackCallback(host=self._host, port=self._port, path=self._path, timeout=self._timeout)
        try:
            await callback.start()
        except OSError as exc:
            raise OAuthFlowError(
                f"cannot receive the authorization redirect on port {self._port} ({message_of(exc)}); "
                "close whatever uses it or clear the stored authorization"
            ) from exc
        self._callback = callback
        state = dict(parse_qsl(urlsplit(authorization_url).query)).get("state")
        if state:
            callback.expect_state(state)
        recorder = self._recorder
        if recorder is not None:
            recorder.begin(
                AuthStepKind.AUTHORIZATION,
                "Waiting for authorization in the browser",
                {"authorization_url": mask_url(authorization_url), "redirect_uri": self.redirect_uri},
            )
        try:
            check_oauth_url(authorization_url, "the authorization URL")  # never open what breaks the rule
            opened = open_in_browser(authorization_url, opener=self._opener)
        except ValueError as exc:
            await self.close()
            raise OAuthFlowError(f"refusing to authorize: {message_of(exc)}") from exc
        if not opened and recorder is not None:
            recorder.update(
                summary="Open the authorization URL in a browser to continue",
                details={"browser": "could not be opened"},
            )

    async def callback_handler(self) -> AuthorizationCodeResult:
        callback = self._callback
        if callback is None:
            raise OAuthFlowError("no authorization in progress")
        try:
            with self._person_waits():
                result = await callback.wait()
        finally:
            await self.close()
        if self._recorder is not None:
            self._recorder.update(details={"iss": result.iss or "(not sent)", "state": "matches"})
        assert result.code is not None  # wait() raises for a redirect without a code
        return AuthorizationCodeResult(code=result.code, state=result.state, iss=result.iss)

    async def close(self) -> None:
        callback, self._callback = self._callback, None
        if callback is not None:
            await callback.close()
