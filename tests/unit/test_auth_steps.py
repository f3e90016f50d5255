"""inspector.auth: step recording and masking, the browser opener, the conformance context, headless errors."""

from __future__ import annotations

import json
import webbrowser

import httpx2
import pytest
from mcp.client.auth import OAuthFlowError
from test_auth_world import run

from inspector.auth import CONFORMANCE_CIMD_URL, conformance_settings
from inspector.auth.browser import open_in_browser
from inspector.auth.headless import HeadlessAuthorizer
from inspector.auth.steps import (
    MASK,
    AuthStep,
    AuthStepKind,
    StepRecorder,
    StepStatus,
    classify_request,
    exchange_of,
    mask_headers,
    mask_url,
)

# -- masking ---------------------------------------------------------------------------------------


def test_mask_headers_keeps_the_scheme_and_hides_credentials() -> None:
    masked = dict(
        mask_headers(
            [
                ("Authorization", "Bearer abc.def"),
                ("authorization", "Basic dXNlcjpwYXNz"),
                ("Cookie", "a=b"),
                ("X-Api-Key", "k"),
                ("Mcp-Session-Id", "sid"),
                ("Content-Type", "application/json"),
                ("Location", "http://127.0.0.1:5/cb?code=secret-code&state=s"),
            ]
        )
    )
    assert masked["authorization"] == f"Basic {MASK}"
    assert masked["Cookie"] == MASK and masked["X-Api-Key"] == MASK and masked["Mcp-Session-Id"] == MASK
    assert masked["Content-Type"] == "application/json"
    assert "secret-code" not in masked["Location"] and "state=s" in masked["Location"]


def test_mask_url() -> None:
    assert mask_url("https://a.test/x?state=1") == "https://a.test/x?state=1"
    masked = mask_url("https://a.test/cb?code=abc&refresh_token=r&iss=https%3A%2F%2Fas")
    assert "abc" not in masked and "=r" not in masked and "iss=https%3A%2F%2Fas" in masked


def test_classify_requests() -> None:
    original = httpx2.Request("POST", "https://mcp.test/mcp", json={})
    assert classify_request(original, original) == AuthStepKind.CHALLENGE
    assert classify_request(httpx2.Request("GET", "https://a/.well-known/x"), original) == AuthStepKind.DISCOVERY
    assert (
        classify_request(httpx2.Request("POST", "https://a/register", json={}), original) == AuthStepKind.REGISTRATION
    )
    token = httpx2.Request("POST", "https://a/token", data={"grant_type": "authorization_code", "code": "c"})
    refresh = httpx2.Request("POST", "https://a/token", data={"grant_type": "refresh_token"})
    assert classify_request(token, original) == AuthStepKind.TOKEN
    assert classify_request(refresh, original) == AuthStepKind.REFRESH


def test_recorder_groups_exchanges_and_reemits_the_same_index() -> None:
    seen: list[AuthStep] = []
    recorder = StepRecorder(seen.append, describe=lambda kind: (f"described {kind}", {"k": "v"}))
    request = httpx2.Request("GET", "https://a/.well-known/oauth-protected-resource")
    exchange = exchange_of(request, httpx2.Response(200), 0.01)
    recorder.add(AuthStepKind.DISCOVERY, exchange)
    recorder.add(AuthStepKind.DISCOVERY, exchange)
    recorder.add(AuthStepKind.TOKEN, exchange)
    recorder.fail("token refused")
    steps = recorder.steps
    assert [s.kind for s in steps] == [AuthStepKind.DISCOVERY, AuthStepKind.TOKEN]
    assert len(steps[0].exchanges) == 2 and steps[0].status == StepStatus.OK
    assert steps[0].summary == "described discovery" and steps[0].details == {"k": "v"}
    assert steps[1].status == StepStatus.FAILED and steps[1].error == "token refused"
    assert {s.index for s in seen} == {0, 1} and seen[-1] == steps[1]
    assert json.loads(json.dumps(steps[1].to_json()))["exchanges"][0]["status"] == 200


# -- browser ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    ["file:///etc/passwd", "javascript:alert(1)", "ftp://x.test/", "https://", "https://a.test/\nx", "mailto:a@b"],
)
def test_only_http_urls_are_opened(url: str) -> None:
    opened: list[str] = []

    def opener(u: str) -> bool:
        opened.append(u)
        return True

    with pytest.raises(ValueError):
        open_in_browser(url, opener=opener)
    assert opened == []


def test_the_opener_is_injectable_and_failures_are_reported() -> None:
    opened: list[str] = []

    def opener(u: str) -> bool:
        opened.append(u)
        return True

    assert open_in_browser("https://as.test/authorize?x=1", opener=opener)
    assert opened == ["https://as.test/authorize?x=1"]
    assert not open_in_browser("http://127.0.0.1:1/", opener=lambda u: False)

    def broken(_: str) -> bool:
        raise webbrowser.Error("no browser")

    assert not open_in_browser("http://127.0.0.1:1/", opener=broken)


# -- conformance context ---------------------------------------------------------------------------


def test_conformance_settings() -> None:
    assert conformance_settings({}) is None
    plain = conformance_settings({"MCP_CONFORMANCE_SCENARIO": "auth/basic-cimd"})
    assert plain is not None and plain.client_id is None and plain.cimd_url == CONFORMANCE_CIMD_URL
    context = {"name": "auth/pre-registration", "client_id": "pre", "client_secret": "sec", "issuer": "http://x:1"}
    settings = conformance_settings(
        {
            "MCP_CONFORMANCE_SCENARIO": "auth/pre-registration",
            "MCP_CONFORMANCE_PROTOCOL_VERSION": "2025-11-25",
            "MCP_CONFORMANCE_CONTEXT": json.dumps(context),
        }
    )
    assert settings is not None
    assert settings.oauth_options() == {
        "client_id": "pre",
        "client_secret": "sec",
        "issuer": "http://x:1",
        "cimd_url": CONFORMANCE_CIMD_URL,
    }
    assert settings.protocol_version == "2025-11-25" and settings.context["name"] == "auth/pre-registration"
    with pytest.raises(ValueError):
        conformance_settings({"MCP_CONFORMANCE_CONTEXT": "[1]"})
    with pytest.raises(ValueError):
        conformance_settings({"MCP_CONFORMANCE_CONTEXT": "{"})


# -- headless authorization ------------------------------------------------------------------------


def _headless(handler: httpx2.MockTransport) -> HeadlessAuthorizer:
    return HeadlessAuthorizer(
        "http://127.0.0.1:9/callback", client_factory=lambda: httpx2.AsyncClient(transport=handler)
    )


def test_headless_reads_code_state_iss_from_location_without_following_it() -> None:
    requested: list[str] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        requested.append(str(request.url))
        if request.url.path == "/authorize":
            return httpx2.Response(302, headers={"Location": "/login?next=1"})
        return httpx2.Response(
            303, headers={"Location": "http://127.0.0.1:9/callback?code=c1&state=s1&iss=https%3A%2F%2Fa"}
        )

    authorizer = _headless(httpx2.MockTransport(handler))

    async def go() -> tuple[str, str | None, str | None]:
        await authorizer.redirect_handler("https://as.test/authorize?state=s1")
        result = await authorizer.callback_handler()
        return result.code, result.state, result.iss

    assert run(go) == ("c1", "s1", "https://a")
    assert requested == ["https://as.test/authorize?state=s1", "https://as.test/login?next=1"]  # never the callback


@pytest.mark.parametrize(
    ("response", "message"),
    [
        (httpx2.Response(200, html="<form>log in</form>"), "needs a person"),
        (httpx2.Response(400, json={"error": "invalid_scope", "error_description": "nope"}), "invalid_scope"),
        (httpx2.Response(302, headers={"Location": "http://127.0.0.1:9/callback?error=access_denied"}), "refused"),
        (httpx2.Response(302, headers={"Location": "http://127.0.0.1:9/callback?state=s"}), "no authorization code"),
        (httpx2.Response(302, headers={"Location": "myapp://x"}), "non-http"),
    ],
)
def test_headless_errors(response: httpx2.Response, message: str) -> None:
    authorizer = _headless(httpx2.MockTransport(lambda request: response))
    with pytest.raises(OAuthFlowError, match=message):
        run(lambda: authorizer.redirect_handler("https://as.test/authorize"))


def test_headless_gives_up_after_too_many_redirects() -> None:
    loop = httpx2.MockTransport(lambda request: httpx2.Response(302, headers={"Location": "/again"}))
    authorizer = _headless(loop)
    with pytest.raises(OAuthFlowError, match="more than"):
        run(lambda: authorizer.redirect_handler("https://as.test/authorize"))
    with pytest.raises(OAuthFlowError):
        run(authorizer.callback_handler)
