"""OAuth for 2026-07-28 end to end against tests/servers/oauth_server.py (+ oauth_extensions.py), 127.0.0.1.

* client registrations bound to their authorization server: the protected-resource metadata switches the MCP
  server to another authorization server and back; the client registers at the new one, never shows it the
  old client id, and on the way back reuses the registration stored for the first one;
* DPoP: bound tokens, ``Authorization: DPoP`` and a fresh proof per request, nonces at both servers, refresh
  with the same key, the algorithm from the metadata, DPoP demanded by the resource server only, ``off``;
* client credentials (secret, ``private_key_jwt``), jwt-bearer with a rotating workload JWT file,
  enterprise-managed authorization (ID token -> ID-JAG at the IdP -> jwt-bearer), refusals not retried;
* the CLI with the grant flags.

The server checks every proof and assertion itself (PyJWT, its own thumbprint code), so a test passes only
when the server accepted what the client sent.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from keyringkit import MemoryKeyring
from mcp.client.auth import OAuthFlowError, OAuthTokenError
from servers.oauth_extensions import IDP_CLIENT_ID, ExtensionOptions
from servers.oauth_server import READ, RunningServer, ServerOptions, running_server
from test_oauth import McpHttp, run

from inspector.auth import (
    AssertionSource,
    AuthStepKind,
    ClientKey,
    DPoPMode,
    EnterpriseOptions,
    Grant,
    GrantOptions,
    InspectorOAuthProvider,
    build_oauth_auth,
)


def _events(server: RunningServer, path: str) -> list[dict[str, Any]]:
    return [event for event in server.events if event["path"] == path]


def _whoami(server: RunningServer, auth: InspectorOAuthProvider, calls: int = 1) -> list[dict[str, Any]]:
    async def go() -> list[dict[str, Any]]:
        async with McpHttp(server.mcp_url, auth) as mcp:
            return [json.loads(await mcp.call_tool("whoami")) for _ in range(calls)]

    return run(go)


def _key_pair() -> tuple[ec.EllipticCurvePrivateKey, str, bytes]:
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return key, public.decode(), private


def _dpop_server(**options: Any) -> Any:
    ext = {key: options.pop(key) for key in list(options) if key in ExtensionOptions.__dataclass_fields__}
    return running_server(ServerOptions(extensions=ExtensionOptions(**ext), **options))


# ------------------------------------------------------------------------------- authorization server change


def test_registrations_follow_the_authorization_server_and_are_reused_when_it_comes_back(
    memory_keyring: MemoryKeyring,
) -> None:
    with running_server() as a, running_server() as b:
        auth = build_oauth_auth(a.mcp_url, auto_approve=True)
        first = _whoami(a, auth)[0]
        a_client = first["client_id"]

        # the MCP server moves to b: its metadata names b, it accepts b's tokens only
        a.layer.options.prm_overrides = {"authorization_servers": [b.base_url]}
        a.provider.trusted = [b.provider]
        second = _whoami(a, auth)[0]
        b_client = second["client_id"]
        assert len(_events(b, "/register")) == 1 and b_client != a_client
        seen_at_b = [e["query"].get("client_id") for e in _events(b, "/authorize")]
        seen_at_b += [e["form"].get("client_id") for e in _events(b, "/token")]
        assert a_client not in seen_at_b and set(seen_at_b) == {b_client}
        notice = [s for s in auth.steps if s.kind == AuthStepKind.NOTICE and "changed" in s.summary]
        assert notice and notice[0].details["previous_issuer"].rstrip("/") == a.base_url

        # and back to a: the registration stored for a is used again (no new registration anywhere)
        a.layer.options.prm_overrides = {}
        a.provider.trusted = [a.provider]
        third = _whoami(a, auth)[0]
        assert third["client_id"] == a_client
        assert len(_events(a, "/register")) == 1 and len(_events(b, "/register")) == 1
        assert [e["query"]["client_id"] for e in _events(a, "/authorize")] == [a_client, a_client]

        # a new session (a restart) loads the registration of the server its tokens came from
        restarted = build_oauth_auth(a.mcp_url, auto_approve=True)
        assert _whoami(a, restarted)[0]["client_id"] == a_client
        assert len(_events(a, "/register")) == 1


def test_a_preregistered_client_of_another_authorization_server_is_refused() -> None:
    clients: dict[str, tuple[str | None, str]] = {"app": ("app-secret", "client_secret_basic")}
    with running_server(ServerOptions(preregistered=clients)) as a, running_server(ServerOptions()) as b:
        a.layer.options.prm_overrides = {"authorization_servers": [b.base_url]}
        auth = build_oauth_auth(
            a.mcp_url, auto_approve=True, client_id="app", client_secret="app-secret", issuer=a.base_url
        )
        with pytest.raises(OAuthFlowError, match="belongs to the authorization server"):
            _whoami(a, auth)
        assert [e for e in b.events if e["path"] in ("/register", "/authorize", "/token")] == []


# ---------------------------------------------------------------------------------------------------- DPoP


def test_dpop_bound_tokens_with_a_fresh_proof_on_every_request() -> None:
    with _dpop_server(dpop_algs=["ES256"]) as server:
        auth = build_oauth_auth(server.mcp_url, auto_approve=True)
        who = _whoami(server, auth, calls=3)
        assert who[0]["scopes"] == [READ]
        ext = server.layer.ext
        assert ext.problems == []
        assert auth.dpop is not None and auth.dpop.algorithm == "ES256"
        token = auth.context.current_tokens
        assert token is not None and ext.bindings[token.access_token] == auth.dpop.jkt
        token_request = _events(server, "/token")[0]
        assert token_request["dpop"] and token_request["form"]["grant_type"] == "authorization_code"
        resource_proofs = [p for p in ext.proofs if p["htu"] == server.mcp_url]
        assert len(resource_proofs) >= 5 and all(p["ath"] and p["jkt"] == auth.dpop.jkt for p in resource_proofs)
        assert len(ext.jtis) == len(ext.proofs)  # every proof was new
        token_step = next(s for s in auth.steps if s.kind == AuthStepKind.TOKEN)
        assert token_step.details["token_type"] == "DPoP"


def test_dpop_nonces_from_the_token_endpoint_and_the_mcp_server() -> None:
    with _dpop_server(dpop_algs=["ES256"], as_nonce="as-nonce-1", rs_nonce="rs-nonce-1") as server:
        auth = build_oauth_auth(server.mcp_url, auto_approve=True)
        _whoami(server, auth, calls=2)
        ext = server.layer.ext
        assert ext.problems == ["use_dpop_nonce: a nonce is required"] * 2  # one challenge from each server
        tokens = _events(server, "/token")
        assert len(tokens) == 2  # asked once more, with the nonce
        nonces = {p["htu"]: p["nonce"] for p in ext.proofs}
        assert nonces == {f"{server.base_url}/token": "as-nonce-1", server.mcp_url: "rs-nonce-1"}


def test_a_dpop_bound_token_is_refreshed_with_the_same_key() -> None:
    with _dpop_server(dpop_algs=["ES256"], access_token_ttl=1) as server:
        auth = build_oauth_auth(server.mcp_url, auto_approve=True)

        async def go() -> None:
            async with McpHttp(server.mcp_url, auth) as mcp:
                await mcp.call_tool("whoami")
                time.sleep(1.3)
                await mcp.call_tool("whoami")

        run(go)
        grants = [e["form"]["grant_type"] for e in _events(server, "/token")]
        assert grants == ["authorization_code", "refresh_token"]
        assert server.layer.ext.problems == []  # the server refuses a refresh proven with another key


def test_dpop_uses_an_algorithm_the_authorization_server_lists() -> None:
    with _dpop_server(dpop_algs=["RS256", "PS256"]) as server:
        auth = build_oauth_auth(server.mcp_url, auto_approve=True)
        _whoami(server, auth)
        assert auth.dpop is not None and auth.dpop.algorithm == "RS256"
        assert server.layer.ext.problems == []


def test_dpop_demanded_by_the_mcp_server_alone() -> None:
    overrides = {"dpop_signing_alg_values_supported": None}  # the authorization server does not advertise it
    with _dpop_server(dpop_algs=["ES256"], dpop_required=True, metadata_overrides=overrides) as server:
        auth = build_oauth_auth(server.mcp_url, auto_approve=True)
        assert _whoami(server, auth)[0]["scopes"] == [READ]
        assert auth.dpop is not None and server.layer.ext.problems == []


def test_dpop_off_gets_bearer_tokens() -> None:
    with _dpop_server(dpop_algs=["ES256"]) as server:
        auth = build_oauth_auth(server.mcp_url, auto_approve=True, grant=GrantOptions(dpop=DPoPMode.OFF))
        _whoami(server, auth)
        assert auth.dpop is None and server.layer.ext.proofs == [] and server.layer.ext.bindings == {}
        assert _events(server, "/token")[0]["dpop"] is None


# --------------------------------------------------------------------------------------- client credentials


def test_client_credentials_with_a_secret_when_the_server_offers_nothing_else() -> None:
    options = ServerOptions(
        preregistered={"svc": ("svc-secret", "client_secret_basic")},
        metadata_overrides={"grant_types_supported": ["client_credentials"]},
        extensions=ExtensionOptions(client_credentials=True),
    )
    with running_server(options) as server:
        auth = build_oauth_auth(server.mcp_url, client_id="svc", client_secret="svc-secret")  # no browser needed
        assert _whoami(server, auth)[0] == {"client_id": "svc", "scopes": [READ]}
        assert _events(server, "/authorize") == []
        token = _events(server, "/token")[0]
        assert token["form"]["grant_type"] == "client_credentials" and token["authorization"].startswith("Basic ")
        assert token["form"]["resource"] == server.mcp_url and "client_secret" not in token["form"]


def test_client_credentials_with_private_key_jwt_and_dpop() -> None:
    _, public, private = _key_pair()
    options = ServerOptions(
        extensions=ExtensionOptions(client_credentials=True, client_keys={"svc-key": public}, dpop_algs=["ES256"])
    )
    with running_server(options) as server:
        grant = GrantOptions(grant=Grant.CLIENT_CREDENTIALS, client_key=ClientKey.from_pem(private))
        auth = build_oauth_auth(server.mcp_url, client_id="svc-key", grant=grant)
        assert _whoami(server, auth, calls=2)[0]["client_id"] == "svc-key"
        form = _events(server, "/token")[0]["form"]
        assert form["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
        assert "client_secret" not in form
        assert server.layer.ext.problems == [] and auth.dpop is not None
        assert auth.context.current_tokens is not None
        assert auth.context.current_tokens.access_token in server.layer.ext.bindings


def test_refused_client_credentials_are_not_sent_again() -> None:
    options = ServerOptions(
        preregistered={"svc": ("svc-secret", "client_secret_basic")},
        extensions=ExtensionOptions(client_credentials=True),
    )
    with running_server(options) as server:
        grant = GrantOptions(grant=Grant.CLIENT_CREDENTIALS)
        auth = build_oauth_auth(server.mcp_url, client_id="svc", client_secret="wrong", grant=grant)
        with pytest.raises(OAuthTokenError, match="invalid_client"):
            _whoami(server, auth)
        with pytest.raises(OAuthTokenError, match="not asking again"):
            _whoami(server, auth)
        assert len(_events(server, "/token")) == 1


# ----------------------------------------------------------------------------------------------- jwt-bearer


def _workload_jwt(key: ec.EllipticCurvePrivateKey, audience: str, subject: str, ttl: int = 300) -> str:
    now = int(time.time())
    claims = {"iss": "https://workload.example", "sub": subject, "aud": audience, "iat": now, "exp": now + ttl}
    return jwt.encode(claims, key, algorithm="ES256")


def test_jwt_bearer_with_a_workload_identity_file_read_again_for_each_token(tmp_path: Path) -> None:
    key, public, _ = _key_pair()
    options = ServerOptions(dcr=False, extensions=ExtensionOptions(assertion_keys={"https://workload.example": public}))
    with running_server(options) as server:
        path = tmp_path / "workload-token"
        path.write_text(_workload_jwt(key, server.base_url, "job-1"))
        grant = GrantOptions(assertion=AssertionSource(path=str(path)))
        auth = build_oauth_auth(server.mcp_url, client_id="workload-client", grant=grant)
        assert _whoami(server, auth)[0]["client_id"] == "workload:job-1"

        path.write_text(_workload_jwt(key, server.base_url, "job-2"))  # rotated under the running client
        server.provider.expire_all()
        assert _whoami(server, auth)[0]["client_id"] == "workload:job-2"
        forms = [e["form"] for e in _events(server, "/token")]
        assert [f["grant_type"] for f in forms] == ["urn:ietf:params:oauth:grant-type:jwt-bearer"] * 2
        assert _events(server, "/authorize") == [] and _events(server, "/register") == []


def test_a_refused_workload_assertion_is_reported_and_not_retried(tmp_path: Path) -> None:
    key, public, _ = _key_pair()
    options = ServerOptions(dcr=False, extensions=ExtensionOptions(assertion_keys={"https://workload.example": public}))
    with running_server(options) as server:
        path = tmp_path / "workload-token"
        path.write_text(_workload_jwt(key, "https://wrong.example", "job-1"))
        auth = build_oauth_auth(
            server.mcp_url, client_id="w", grant=GrantOptions(assertion=AssertionSource(path=str(path)))
        )
        with pytest.raises(OAuthTokenError, match="invalid_grant"):
            _whoami(server, auth)
        with pytest.raises(OAuthTokenError, match="not asking again"):
            _whoami(server, auth)
        assert len(_events(server, "/token")) == 1
        assert not any(e["form"].get("grant_type") == "authorization_code" for e in _events(server, "/token"))


# ------------------------------------------------------------------------------ enterprise-managed (SEP-990)


@pytest.mark.parametrize("discover", [True, False])
def test_enterprise_managed_authorization(discover: bool) -> None:
    options = ServerOptions(
        dcr=False,
        preregistered={"enterprise-app": ("ent-secret", "client_secret_basic")},
        extensions=ExtensionOptions(idp=True, jag_client_id="enterprise-app"),
    )
    with running_server(options) as server:
        ext = server.layer.ext
        enterprise = EnterpriseOptions(
            id_token=AssertionSource(text=ext.id_token("alice@example.com")),
            idp_issuer=ext.idp_issuer if discover else None,
            idp_token_endpoint=None if discover else f"{ext.idp_issuer}/token",
            idp_client_id=IDP_CLIENT_ID,
        )
        auth = build_oauth_auth(
            server.mcp_url,
            client_id="enterprise-app",
            client_secret="ent-secret",
            grant=GrantOptions(enterprise=enterprise),
        )
        assert _whoami(server, auth)[0]["client_id"] == "enterprise-app"
        exchange = _events(server, "/idp/token")[0]["form"]
        assert exchange["audience"] == server.base_url and exchange["resource"] == server.mcp_url
        assert exchange["subject_token_type"] == "urn:ietf:params:oauth:token-type:id_token"
        token = _events(server, "/token")[0]
        assert token["form"]["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer"
        assert token["authorization"].startswith("Basic ")
        assert _events(server, "/authorize") == [] and ext.problems == []
        assert bool(_events(server, "/idp/.well-known/openid-configuration")) is discover
        kinds = [step.kind for step in auth.steps]
        assert kinds.index(AuthStepKind.TOKEN_EXCHANGE) < kinds.index(AuthStepKind.TOKEN)


def test_enterprise_id_token_refused_by_the_idp() -> None:
    options = ServerOptions(
        dcr=False,
        preregistered={"enterprise-app": ("ent-secret", "client_secret_basic")},
        extensions=ExtensionOptions(idp=True),
    )
    with running_server(options) as server:
        ext = server.layer.ext
        enterprise = EnterpriseOptions(
            id_token=AssertionSource(text=ext.id_token(ttl=-60)), idp_issuer=ext.idp_issuer, idp_client_id=IDP_CLIENT_ID
        )
        auth = build_oauth_auth(
            server.mcp_url,
            client_id="enterprise-app",
            client_secret="ent-secret",
            grant=GrantOptions(enterprise=enterprise),
        )
        with pytest.raises(OAuthTokenError, match="the IdP refused the token exchange"):
            _whoami(server, auth)
        assert _events(server, "/token") == []


# ----------------------------------------------------------------------------------------------------- CLI


def test_cli_client_credentials_with_a_private_key_and_dpop(tmp_path: Path) -> None:
    _, public, private = _key_pair()
    pem = tmp_path / "svc.pem"
    pem.write_bytes(private)
    options = ServerOptions(
        metadata_overrides={"grant_types_supported": ["client_credentials"]},
        extensions=ExtensionOptions(client_credentials=True, client_keys={"svc-key": public}, dpop_algs=["ES256"]),
    )
    with running_server(options) as server:
        argv = [sys.executable, "-m", "inspector", "--cli", server.mcp_url, "--method", "tools/call"]
        argv += ["--tool-name", "whoami", "--client-id", "svc-key", "--client-key", str(pem), "--format", "json"]
        result = subprocess.run(argv, capture_output=True, text=True, timeout=90)
        assert result.returncode == 0, result.stderr
        assert '\\"client_id\\": \\"svc-key\\"' in result.stdout or '"client_id": "svc-key"' in result.stdout
        assert _events(server, "/token")[0]["form"]["grant_type"] == "client_credentials"
        assert server.layer.ext.bindings and server.layer.ext.problems == []


def test_cli_refuses_an_unreadable_key_before_connecting(tmp_path: Path) -> None:
    with running_server() as server:
        argv = [sys.executable, "-m", "inspector", "--cli", server.mcp_url, "--method", "tools/list"]
        argv += ["--client-id", "c", "--client-key", str(tmp_path / "missing.pem")]
        result = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        assert result.returncode == 1, result.stderr  # invalid usage (1, as the official CLI)
        assert "cannot read" in result.stderr and "Traceback" not in result.stderr
        assert server.events == []
