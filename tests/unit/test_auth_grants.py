"""inspector.auth.grants, .assertions, .jwk, .enterprise forms and the harness context mapping: pure logic."""

from __future__ import annotations

import json
import time
from pathlib import Path

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

from inspector.auth import conformance_settings
from inspector.auth.assertions import JWT_BEARER_GRANT, AssertionSource, ClientKey
from inspector.auth.dpop import DPoPMode
from inspector.auth.enterprise import ID_JAG_TOKEN_TYPE, ID_TOKEN_TYPE, EnterpriseOptions, token_exchange_form
from inspector.auth.flow import build_oauth_auth
from inspector.auth.grants import EXTENSION_IDS, Grant, GrantOptions, choose_grant, declared_extensions, grant_form
from inspector.auth.jwk import check_algorithm, default_algorithm, load_private_key

JWT_TEXT = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3In0.c2ln"
ENTERPRISE = EnterpriseOptions(id_token=AssertionSource(text=JWT_TEXT), idp_issuer="https://idp.example")


def _pem(key: ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey | ed25519.Ed25519PrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


@pytest.mark.parametrize(
    ("options", "confidential", "supported", "expected"),
    [
        (GrantOptions(), False, None, Grant.AUTHORIZATION_CODE),
        (GrantOptions(), True, ["authorization_code", "client_credentials"], Grant.AUTHORIZATION_CODE),
        (GrantOptions(), True, ["client_credentials"], Grant.CLIENT_CREDENTIALS),
        (GrantOptions(), False, ["client_credentials"], Grant.AUTHORIZATION_CODE),  # a public client cannot
        (GrantOptions(), True, [JWT_BEARER_GRANT], Grant.AUTHORIZATION_CODE),  # nothing configured for it
        (GrantOptions(assertion=AssertionSource(text=JWT_TEXT)), False, None, Grant.JWT_BEARER),
        (GrantOptions(enterprise=ENTERPRISE), True, ["client_credentials"], Grant.ENTERPRISE),
        (GrantOptions(grant=Grant.CLIENT_CREDENTIALS), True, ["authorization_code"], Grant.CLIENT_CREDENTIALS),
        (GrantOptions(grant=Grant.AUTHORIZATION_CODE), True, ["client_credentials"], Grant.AUTHORIZATION_CODE),
    ],
)
def test_choose_grant(options: GrantOptions, confidential: bool, supported: list[str] | None, expected: Grant) -> None:
    grant, why = choose_grant(options, confidential=confidential, grant_types_supported=supported)
    assert grant is expected and why


@pytest.mark.parametrize(
    ("text", "grant"),
    [
        ("client-credentials", Grant.CLIENT_CREDENTIALS),
        ("CLIENT_CREDENTIALS", Grant.CLIENT_CREDENTIALS),
        ("code", Grant.AUTHORIZATION_CODE),
        ("jwt-bearer", Grant.JWT_BEARER),
        ("token-exchange", Grant.ENTERPRISE),
        ("auto", Grant.AUTO),
    ],
)
def test_grant_parse(text: str, grant: Grant) -> None:
    assert Grant.parse(text) is grant


def test_grant_parse_lists_the_names() -> None:
    with pytest.raises(ValueError, match="client-credentials"):
        Grant.parse("password")


def test_grant_forms() -> None:
    assert grant_form(Grant.CLIENT_CREDENTIALS, client_id="c", resource="https://r/mcp", scope="a b") == {
        "grant_type": "client_credentials",
        "client_id": "c",
        "resource": "https://r/mcp",
        "scope": "a b",
    }
    assert grant_form(Grant.JWT_BEARER, client_id=None, resource=None, scope=None, assertion="x.y.z") == {
        "grant_type": JWT_BEARER_GRANT,
        "assertion": "x.y.z",
    }
    with pytest.raises(ValueError, match="assertion"):
        grant_form(Grant.ENTERPRISE, client_id="c", resource=None, scope=None)
    with pytest.raises(ValueError):
        grant_form(Grant.AUTHORIZATION_CODE, client_id="c", resource=None, scope=None)


def test_token_exchange_form() -> None:
    form = token_exchange_form(
        "id.tok.en", audience="https://as", resource="https://r/mcp", scope="s", client_id="idp-c", with_secret=False
    )
    assert form == {
        "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange",
        "requested_token_type": ID_JAG_TOKEN_TYPE,
        "subject_token": "id.tok.en",
        "subject_token_type": ID_TOKEN_TYPE,
        "audience": "https://as",
        "resource": "https://r/mcp",
        "scope": "s",
        "client_id": "idp-c",
    }
    assert "client_id" not in token_exchange_form(
        "a.b.c", audience="x", resource="y", scope=None, client_id="idp-c", with_secret=True
    )


@pytest.mark.parametrize(
    ("key", "algorithm"),
    [
        (ec.generate_private_key(ec.SECP256R1()), "ES256"),
        (ec.generate_private_key(ec.SECP384R1()), "ES384"),
        (ed25519.Ed25519PrivateKey.generate(), "EdDSA"),
        (rsa.generate_private_key(public_exponent=65537, key_size=2048), "RS256"),
    ],
)
def test_client_assertion_claims_and_signature(
    key: ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey | ed25519.Ed25519PrivateKey, algorithm: str
) -> None:
    client_key = ClientKey.from_pem(_pem(key))
    assert client_key.algorithm == algorithm
    now = time.time()
    one = client_key.assertion("my-client", "https://as.example")
    two = client_key.assertion("my-client", "https://as.example")
    claims = jwt.decode(one, key.public_key(), algorithms=[algorithm], audience="https://as.example")
    assert claims["iss"] == claims["sub"] == "my-client"
    assert abs(claims["iat"] - now) < 5 and claims["exp"] - claims["iat"] == 300
    assert claims["jti"] != jwt.decode(two, options={"verify_signature": False})["jti"]
    with pytest.raises(jwt.InvalidAudienceError):
        jwt.decode(one, key.public_key(), algorithms=[algorithm], audience="https://other.example")


def test_client_key_errors() -> None:
    with pytest.raises(ValueError, match="PEM private key"):
        ClientKey.from_pem(b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
    rsa_pem = _pem(rsa.generate_private_key(public_exponent=65537, key_size=2048))
    assert ClientKey.from_pem(rsa_pem, "PS256").algorithm == "PS256"
    with pytest.raises(ValueError, match="cannot sign ES256"):
        ClientKey.from_pem(rsa_pem, "ES256")
    with pytest.raises(ValueError, match="unsupported"):
        ClientKey.from_pem(rsa_pem, "HS256")


def test_key_algorithms() -> None:
    key = load_private_key(_pem(ec.generate_private_key(ec.SECP521R1())))
    assert default_algorithm(key) == "ES512"
    assert check_algorithm(key, "ES512") == "ES512"
    with pytest.raises(ValueError):
        check_algorithm(key, "ES256")


def test_an_assertion_file_is_read_again_for_every_use(tmp_path: Path) -> None:
    path = tmp_path / "token"
    source = AssertionSource(path=str(path))
    with pytest.raises(ValueError, match="cannot read"):
        source.read()
    path.write_text("a.b.c\n")
    assert source.read() == "a.b.c"
    path.write_text("d.e.f")
    assert source.read() == "d.e.f"
    path.write_text("not a jwt")
    with pytest.raises(ValueError, match="not a JWT"):
        source.read()
    path.write_bytes(b"a" * 70_000)
    with pytest.raises(ValueError, match="larger"):
        source.read()
    with pytest.raises(ValueError):
        AssertionSource()
    with pytest.raises(ValueError):
        AssertionSource(text="a.b.c", path=str(path))


def test_enterprise_options_need_the_idp_and_loopback_or_https() -> None:
    with pytest.raises(ValueError, match="issuer or token endpoint"):
        EnterpriseOptions(id_token=AssertionSource(text=JWT_TEXT))
    with pytest.raises(ValueError, match="https"):
        EnterpriseOptions(id_token=AssertionSource(text=JWT_TEXT), idp_issuer="http://idp.example")
    with pytest.raises(ValueError, match="client id"):
        EnterpriseOptions(id_token=AssertionSource(text=JWT_TEXT), idp_issuer="https://i", idp_client_secret="s")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"grant": GrantOptions(assertion=AssertionSource(text=JWT_TEXT))}, "client id"),
        ({"grant": GrantOptions(grant=Grant.CLIENT_CREDENTIALS), "client_id": "c"}, "secret or private key"),
        ({"grant": GrantOptions(grant=Grant.JWT_BEARER), "client_id": "c"}, "JWT assertion"),
        ({"grant": GrantOptions(grant=Grant.ENTERPRISE), "client_id": "c"}, "IdP"),
        (
            {"grant": GrantOptions(client_key=ClientKey.from_pem(_pem(ec.generate_private_key(ec.SECP256R1()))))},
            "client id",
        ),
        ({"issuer": "http://as.example", "client_id": "c"}, "https"),
    ],
)
def test_build_refuses_grants_without_what_they_need(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build_oauth_auth("https://mcp.example/mcp", auto_approve=True, **kwargs)  # type: ignore[arg-type]


def test_harness_context_becomes_grant_options() -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    context = {
        "name": "whatever",
        "client_id": "c",
        "private_key_pem": _pem(key).decode(),
        "signing_algorithm": "ES256",
        "valid_jwt": JWT_TEXT,
        "idp_id_token": JWT_TEXT,
        "idp_issuer": "http://localhost:9000",
        "idp_token_endpoint": "http://localhost:9000/token",
        "idp_client_id": "idp-c",
    }
    settings = conformance_settings({"MCP_CONFORMANCE_CONTEXT": json.dumps(context)})
    assert settings is not None
    options = settings.grant_options()
    assert options is not None and options.grant is Grant.AUTO and options.dpop is DPoPMode.AUTO
    assert options.client_key is not None and options.client_key.algorithm == "ES256"
    assert options.assertion is not None and options.assertion.read() == JWT_TEXT
    assert options.enterprise is not None and options.enterprise.idp_client_id == "idp-c"
    plain = conformance_settings({"MCP_CONFORMANCE_CONTEXT": json.dumps({"client_id": "c", "client_secret": "s"})})
    assert plain is not None and plain.grant_options() is None


@pytest.mark.parametrize(
    ("options", "confidential", "expected"),
    [
        (GrantOptions(dpop=DPoPMode.OFF), False, set()),
        (GrantOptions(), False, {"dpop"}),
        (GrantOptions(dpop=DPoPMode.OFF), True, {"client_credentials"}),
        (GrantOptions(grant=Grant.AUTHORIZATION_CODE, dpop=DPoPMode.OFF), True, set()),
        (GrantOptions(enterprise=ENTERPRISE, dpop=DPoPMode.OFF), False, {"enterprise"}),
        (GrantOptions(assertion=AssertionSource(text=JWT_TEXT)), False, {"workload_identity", "dpop"}),
    ],
)
def test_declared_extensions(options: GrantOptions, confidential: bool, expected: set[str]) -> None:
    assert declared_extensions(options, confidential=confidential) == {EXTENSION_IDS[name] for name in expected}
