"""The MCP server's 401/403 challenges: how they are recorded, checked and when a step-up is allowed.

:class:`StepUpGate` limits step-up authorization: a 403 ``insufficient_scope`` for scopes the token already has,
or a second step-up for the same scopes, is returned as it is instead of re-authorizing again.
"""

from __future__ import annotations

import httpx2
from mcp.client.auth import OAuthFlowError
from mcp.client.auth.utils import extract_field_from_www_auth, extract_resource_metadata_from_www_auth

from inspector.auth.steps import AuthStepKind, StepRecorder, StepStatus, classify_request, exchange_of
from inspector.auth.urls import check_oauth_url
from inspector.transports.base import message_of

__all__ = [
    "MAX_STEP_UPS",
    "StepUpGate",
    "asks_for_dpop",
    "check_resource_metadata_url",
    "record_challenge",
    "record_nonce_challenge",
    "scope_set",
]

MAX_STEP_UPS = 1
"""Step-up authorizations per challenged scope set (after that the 403 is returned as it is)."""


def scope_set(scope: str | None) -> frozenset[str]:
    """The scopes of a space-separated scope string (none for None or empty)."""
    return frozenset(scope.split()) if scope else frozenset()


class StepUpGate:
    """Which 403 ``insufficient_scope`` answers start a step-up authorization (see the module docstring)."""

    def __init__(self, recorder: StepRecorder) -> None:
        self._recorder = recorder
        self._tried: dict[frozenset[str], int] = {}
        self.stepping_up = False
        """The flow under way is a step-up (its scopes add to those asked for before)."""

    def clear(self) -> None:
        """Forget the step-ups tried (the authorization was cleared)."""
        self._tried.clear()

    def admit(self, response: httpx2.Response, granted: str | None) -> bool:
        """Whether the flow may go on after the MCP server's first answer ``response`` to a request sent with a
        token granted the scopes ``granted``; False (noted in the recorder) when a step-up is refused."""
        if response.status_code != 403 or extract_field_from_www_auth(response, "error") != "insufficient_scope":
            return True
        challenged = scope_set(extract_field_from_www_auth(response, "scope"))
        if challenged and challenged <= scope_set(granted):
            self._refuse("Not re-authorizing: the token already has every scope the server asks for", challenged)
            return False
        if self._tried.get(challenged, 0) >= MAX_STEP_UPS:
            self._refuse("Not re-authorizing: step-up for these scopes was already tried", challenged)
            return False
        self._tried[challenged] = self._tried.get(challenged, 0) + 1
        self.stepping_up = True
        return True

    def _refuse(self, summary: str, challenged: frozenset[str]) -> None:
        self._recorder.note(AuthStepKind.CHALLENGE, summary, {"scope": " ".join(sorted(challenged))})


def asks_for_dpop(response: httpx2.Response) -> bool:
    """The challenge uses the ``DPoP`` scheme: the resource server accepts DPoP tokens (RFC 9449 section 7.1)."""
    return response.headers.get("www-authenticate", "").lstrip()[:5].lower() == "dpop "


def check_resource_metadata_url(response: httpx2.Response) -> None:
    """The challenge's ``resource_metadata`` URL (if any) obeys the OAuth URL rule, else OAuthFlowError."""
    url = extract_resource_metadata_from_www_auth(response)
    if url is not None:
        try:
            check_oauth_url(url, "the MCP server's WWW-Authenticate resource_metadata")
        except ValueError as exc:
            raise OAuthFlowError(f"refusing to authorize: {message_of(exc)}") from None


def record_challenge(
    recorder: StepRecorder, request: httpx2.Request, response: httpx2.Response, elapsed: float, *, retried: bool
) -> None:
    """Record the MCP server's 401/403 answer to ``request`` as a challenge step (failed when ``retried``: the
    server still refused the new token)."""
    details = {"www_authenticate": response.headers.get("www-authenticate", "(none)")}
    for name in ("error", "scope", "resource_metadata"):
        value = extract_field_from_www_auth(response, name)
        if value is not None:
            details[name] = value
    what = "insufficient scope" if details.get("error") == "insufficient_scope" else "authorization required"
    if retried:
        summary = f"The MCP server still answered {response.status_code} with the new token ({what})"
    else:
        summary = f"The MCP server answered {response.status_code} ({what})"
    recorder.begin(AuthStepKind.CHALLENGE, summary, details)
    recorder.add(AuthStepKind.CHALLENGE, exchange_of(request, response, elapsed))
    recorder.finish(StepStatus.FAILED if retried else StepStatus.INFO)


def record_nonce_challenge(
    recorder: StepRecorder,
    outgoing: httpx2.Request,
    request: httpx2.Request,
    response: httpx2.Response,
    elapsed: float,
) -> None:
    """Record a ``use_dpop_nonce`` answer to ``outgoing`` (the MCP request ``request`` itself, or a token
    request of its flow) before it is sent again with the nonce."""
    if outgoing is request:
        details = {"www_authenticate": response.headers.get("www-authenticate", "(none)")}
        recorder.begin(AuthStepKind.CHALLENGE, "The MCP server asked for a DPoP nonce; sending again with it", details)
        recorder.add(AuthStepKind.CHALLENGE, exchange_of(request, response, elapsed))
        recorder.finish(StepStatus.INFO)
        return
    kind = classify_request(outgoing, request)
    recorder.add(kind, exchange_of(outgoing, response, elapsed))
    recorder.update(details={"dpop_nonce": "asked for by the token endpoint; sent again with it"})
