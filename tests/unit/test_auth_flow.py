"""inspector.auth.flow / provider against a fake MCP + authorization server (httpx2.MockTransport)."""

from __future__ import annotations

import base64
import time
from urllib.parse import parse_qsl

import httpx2
import pytest
from mcp.client.auth import OAuthFlowError
from test_auth_world import MCP_URL, FakeWorld, call, fake_auth, run, s256

from inspector.auth import (
    AuthStepKind,
    KeyringTokenStorage,
    StepStatus,
    bearer_auth,
    build_oauth_auth,
    clear_stored_authorization,
)
from inspector.auth.steps import MASK
from inspector.store.secrets import SecretStore

PRM_PATH = "https://mcp.test/.well-known/oauth-protected-resource/mcp"
PRM_ROOT = "https://mcp.test/.well-known/oauth-protected-resource"


def _authorize_query(world: FakeWorld, index: int = 0) -> dict[str, str]:
    request = world.requests_to("/authorize")[index]
    return dict(parse_qsl(request.url.query.decode()))


def test_dynamic_registration_pkce_resource_and_steps() -> None:
    world = FakeWorld()
    auth, steps = fake_auth(world)
    response = run(lambda: call(world, auth))
    assert response.status_code == 200
    assert world.urls()[:4] == [
        MCP_URL,
        PRM_PATH,  # from WWW-Authenticate resource_metadata
        "https://auth.test/.well-known/oauth-authorization-server",
        "https://auth.test/register",
    ]
    query = _authorize_query(world)
    assert query["client_id"] == "dyn-client"
    assert query["code_challenge_method"] == "S256"
    assert query["resource"] == MCP_URL
    assert query["scope"] == "read"  # from the protected-resource metadata's scopes_supported
    token_form = world.form(world.requests_to("/token")[0])
    assert token_form["resource"] == MCP_URL
    assert s256(token_form["code_verifier"]) == query["code_challenge"]
    assert 43 <= len(token_form["code_verifier"]) <= 128
    kinds = [step.kind for step in auth.steps]
    assert kinds == [
        AuthStepKind.CHALLENGE,
        AuthStepKind.DISCOVERY,
        AuthStepKind.REGISTRATION,
        AuthStepKind.AUTHORIZATION,
        AuthStepKind.TOKEN,
    ]
    assert all(step.status in (StepStatus.OK, StepStatus.INFO) for step in auth.steps)
    discovery = auth.steps[1]
    assert discovery.details["issuer"] == "https://auth.test"
    assert [e.status for e in discovery.exchanges] == [200, 200]
    authorization = auth.steps[3]
    location = dict(authorization.exchanges[0].response_headers)["location"]
    code = world.form(world.requests_to("/token")[0])["code"]
    assert f"code={MASK}" in location and code not in location
    # every emitted version was seen by on_step, the last version of each index is the final one
    assert {s.index for s in steps} == set(range(len(auth.steps)))
    secret_headers = [
        value
        for step in auth.steps
        for e in step.exchanges
        for name, value in e.request_headers
        if name == "authorization"
    ]
    assert all(MASK in value for value in secret_headers)


def test_well_known_fallbacks_path_then_root() -> None:
    world = FakeWorld(www_resource_metadata=False, prm_url=PRM_ROOT)
    auth, _ = fake_auth(world)
    assert run(lambda: call(world, auth)).status_code == 200
    assert world.urls()[1:3] == [PRM_PATH, PRM_ROOT]


def test_authorization_server_metadata_in_spec_order_for_a_path_issuer() -> None:
    world = FakeWorld(
        issuer="https://auth.test/tenant1",
        as_metadata_url="https://auth.test/tenant1/.well-known/openid-configuration",
    )
    auth, _ = fake_auth(world)
    assert run(lambda: call(world, auth)).status_code == 200
    assert world.urls()[2:5] == [
        "https://auth.test/.well-known/oauth-authorization-server/tenant1",
        "https://auth.test/.well-known/openid-configuration/tenant1",
        "https://auth.test/tenant1/.well-known/openid-configuration",
    ]


def test_preregistered_client_skips_registration_and_uses_basic_auth() -> None:
    world = FakeWorld(dcr=False, auth_methods=["client_secret_basic"])
    auth, _ = fake_auth(world, client_id="my client", client_secret="s3cret:x", issuer="https://auth.test")
    assert run(lambda: call(world, auth)).status_code == 200
    assert world.requests_to("/register") == []
    assert _authorize_query(world)["client_id"] == "my client"
    token_request = world.requests_to("/token")[0]
    basic = token_request.headers["authorization"].removeprefix("Basic ")
    assert base64.b64decode(basic).decode() == "my%20client:s3cret%3Ax"
    assert "client_secret" not in world.form(token_request)


def test_preregistered_client_secret_post_when_only_post_is_supported() -> None:
    world = FakeWorld(dcr=False, auth_methods=["client_secret_post"])
    auth, _ = fake_auth(world, client_id="cid", client_secret="sec")
    assert run(lambda: call(world, auth)).status_code == 200
    form = world.form(world.requests_to("/token")[0])
    assert form["client_secret"] == "sec" and "authorization" not in world.requests_to("/token")[0].headers


def test_cimd_url_is_the_client_id_when_the_server_supports_it() -> None:
    world = FakeWorld(cimd=True)
    auth, _ = fake_auth(world, cimd_url="https://inspector.example/client.json")
    assert run(lambda: call(world, auth)).status_code == 200
    assert world.requests_to("/register") == []
    assert _authorize_query(world)["client_id"] == "https://inspector.example/client.json"


def test_cimd_url_is_ignored_without_server_support_and_must_be_https() -> None:
    world = FakeWorld(cimd=False)
    auth, _ = fake_auth(world, cimd_url="https://inspector.example/client.json")
    assert run(lambda: call(world, auth)).status_code == 200
    assert len(world.requests_to("/register")) == 1
    with pytest.raises(ValueError, match="HTTPS"):
        build_oauth_auth(MCP_URL, auto_approve=True, cimd_url="http://inspector.example/client.json")


@pytest.mark.parametrize("mode", ["wrong", "omit"])
def test_iss_mismatch_or_missing_is_rejected(mode: str) -> None:
    world = FakeWorld(iss_mode=mode)
    auth, _ = fake_auth(world)
    with pytest.raises(OAuthFlowError, match="iss"):
        run(lambda: call(world, auth))
    assert world.requests_to("/token") == []
    assert auth.steps[-1].status == StepStatus.FAILED
    assert auth.steps[-1].kind == AuthStepKind.AUTHORIZATION


def test_refuses_without_advertised_pkce_s256() -> None:
    world = FakeWorld(pkce_methods=None)
    auth, _ = fake_auth(world)
    with pytest.raises(OAuthFlowError, match="PKCE"):
        run(lambda: call(world, auth))
    assert world.requests_to("/authorize") == []


def test_scope_from_www_authenticate_wins_and_user_scopes_override() -> None:
    world = FakeWorld(www_scope="read extra")
    auth, _ = fake_auth(world)
    run(lambda: call(world, auth))
    assert _authorize_query(world)["scope"] == "read extra"

    clear_stored_authorization(MCP_URL)
    world = FakeWorld(www_scope="read")
    auth, _ = fake_auth(world, scopes=["read", "write"])
    run(lambda: call(world, auth))
    assert _authorize_query(world)["scope"] == "read write"
    registration = world.requests_to("/register")[0]
    assert "write" in registration.read().decode()


def test_step_up_on_insufficient_scope_requests_the_union() -> None:
    world = FakeWorld(step_up_scope="admin")
    auth, steps = fake_auth(world)
    response = run(lambda: call(world, auth))
    assert response.status_code == 403  # the retry after the first authorization is still short of admin

    async def again() -> httpx2.Response:
        return await call(world, auth)

    assert run(again).status_code == 200
    scopes = [set(_authorize_query(world, i)["scope"].split()) for i in range(2)]
    assert scopes == [{"read"}, {"read", "admin"}]
    assert any(s.kind == AuthStepKind.CHALLENGE and s.details.get("error") == "insufficient_scope" for s in steps)


def test_no_step_up_for_scopes_the_token_already_has() -> None:
    # like the conformance retry-limit scenario: the server refuses a scope the token was granted
    world = FakeWorld(step_up_scope="admin")
    auth, steps = fake_auth(world, scopes="read admin")

    async def many() -> list[int]:
        statuses = []
        for _ in range(4):
            statuses.append((await call(world, auth)).status_code)
            world.tokens = {token: {"read"} for token in world.tokens}  # the server "forgets" admin
        return statuses

    assert run(many) == [200, 403, 403, 403]
    assert len(world.requests_to("/authorize")) == 1
    assert any("already has every scope" in s.summary for s in steps)


def test_step_up_is_tried_once_per_scope_set() -> None:
    world = FakeWorld(step_up_scope="admin", grantable={"read"})
    auth, steps = fake_auth(world)

    async def many() -> list[int]:
        return [(await call(world, auth)).status_code for _ in range(4)]

    assert run(many) == [403, 403, 403, 403]
    assert len(world.requests_to("/authorize")) == 2  # the first authorization and one step-up
    assert any("already tried" in s.summary for s in steps)


def test_refresh_when_the_access_token_expired() -> None:
    world = FakeWorld(ttl=1)
    auth, _ = fake_auth(world)
    assert run(lambda: call(world, auth)).status_code == 200
    auth.context.token_expiry_time = time.time() - 1
    assert run(lambda: call(world, auth)).status_code == 200
    grants = [world.form(r)["grant_type"] for r in world.requests_to("/token")]
    assert grants == ["authorization_code", "refresh_token"]
    assert len(world.requests_to("/authorize")) == 1
    assert auth.steps[-1].kind == AuthStepKind.REFRESH and auth.steps[-1].status == StepStatus.OK


def test_a_401_for_a_sent_token_refreshes_before_authorizing_again() -> None:
    world = FakeWorld(ttl=None)
    auth, _ = fake_auth(world)
    assert run(lambda: call(world, auth)).status_code == 200
    world.tokens.clear()  # the server revoked the access token
    assert run(lambda: call(world, auth)).status_code == 200
    grants = [world.form(r)["grant_type"] for r in world.requests_to("/token")]
    assert grants == ["authorization_code", "refresh_token"]
    assert len(world.requests_to("/authorize")) == 1


def test_restart_restores_expiry_and_server_metadata_then_refreshes(memory_keyring: object) -> None:
    world = FakeWorld()
    secrets = SecretStore()
    first, _ = fake_auth(world, storage=KeyringTokenStorage(MCP_URL, secrets=secrets))
    assert run(lambda: call(world, first)).status_code == 200
    storage = KeyringTokenStorage(MCP_URL, secrets=secrets)
    assert storage.expires_at() is not None and storage.stored_server_metadata() is not None

    # a new process, later: the stored access token has expired
    record_key = "oauth/https://mcp.test/mcp/tokens"
    import json

    record = json.loads(secrets.get(record_key) or "{}")
    record["expires_at"] = time.time() - 5
    secrets.set(record_key, json.dumps(record))
    second, _ = fake_auth(world, storage=KeyringTokenStorage(MCP_URL, secrets=secrets))
    world.log.clear()
    assert run(lambda: call(world, second)).status_code == 200
    assert world.urls()[0] == "https://auth.test/token"  # refreshed first, at the stored token endpoint
    assert world.form(world.log[0])["grant_type"] == "refresh_token"
    assert world.requests_to("/authorize") == []


def test_forget_and_unknown_failures_are_recorded() -> None:
    world = FakeWorld()
    auth, _ = fake_auth(world, storage=KeyringTokenStorage(MCP_URL, secrets=SecretStore()))
    assert run(lambda: call(world, auth)).status_code == 200
    auth.forget()
    assert auth.context.current_tokens is None
    world.log.clear()
    assert run(lambda: call(world, auth)).status_code == 200
    assert len(world.requests_to("/authorize")) == 1


def test_on_step_errors_do_not_break_the_flow() -> None:
    world = FakeWorld()

    def broken(_: object) -> None:
        raise RuntimeError("boom")

    auth = build_oauth_auth(MCP_URL, auto_approve=True, on_step=broken)
    from inspector.auth.headless import HeadlessAuthorizer

    redirect = str(auth.context.client_metadata.redirect_uris[0])  # type: ignore[index]
    authorizer = HeadlessAuthorizer(redirect, recorder=auth.recorder, client_factory=world.client)
    auth.context.redirect_handler = authorizer.redirect_handler
    auth.context.callback_handler = authorizer.callback_handler
    assert run(lambda: call(world, auth)).status_code == 200


def test_bearer_auth_sets_the_header_and_hides_the_token() -> None:
    seen: list[str] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        seen.append(request.headers["authorization"])
        return httpx2.Response(200)

    auth = bearer_auth("tok-123")

    async def go() -> None:
        async with httpx2.AsyncClient(transport=httpx2.MockTransport(handler), auth=auth) as client:
            await client.get("https://x.test/")

    run(go)
    assert seen == ["Bearer tok-123"]
    assert "tok-123" not in repr(auth)
    with pytest.raises(ValueError):
        bearer_auth("a\r\nInjected: 1")
    with pytest.raises(ValueError):
        bearer_auth("  ")


def test_server_url_must_be_http() -> None:
    with pytest.raises(ValueError):
        build_oauth_auth("stdio://x")
    with pytest.raises(ValueError, match="client id"):
        build_oauth_auth(MCP_URL, client_secret="orphan")
    with pytest.raises(ValueError, match="redirect URI"):
        build_oauth_auth(MCP_URL, redirect_uri="https://app.example/cb")


def test_refresh_refused_falls_back_to_a_new_authorization() -> None:
    world = FakeWorld()
    auth, _ = fake_auth(world)
    assert run(lambda: call(world, auth)).status_code == 200
    world.refresh_tokens.clear()  # the authorization server forgot the refresh token
    auth.context.token_expiry_time = time.time() - 1
    assert run(lambda: call(world, auth)).status_code == 200
    grants = [world.form(r)["grant_type"] for r in world.requests_to("/token")]
    assert grants == ["authorization_code", "refresh_token", "authorization_code"]
    refresh = next(s for s in auth.steps if s.kind == AuthStepKind.REFRESH)
    assert refresh.status == StepStatus.FAILED and refresh.summary == "Refresh refused"
