"""inspector.auth.dpop and inspector.auth.jwk: DPoP proofs (RFC 9449) checked with PyJWT and cryptography."""

from __future__ import annotations

import base64
import hashlib
import json
import time
from typing import Any

import httpx2
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.auth.dpop import (
    DPoPMode,
    DPoPSigner,
    access_token_hash,
    choose_algorithm,
    htu_of,
    nonce_challenge,
    wanted_algorithm,
)
from inspector.auth.jwk import ALGORITHMS, thumbprint

PRIVATE_MEMBERS = ("d", "p", "q", "dp", "dq", "qi")
SIGNER = DPoPSigner()


def _verify(proof: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(header, claims) after checking the proof the way a server does: with the public key in its own header."""
    header = jwt.get_unverified_header(proof)
    assert header["typ"] == "dpop+jwt"
    jwk = header["jwk"]
    assert not any(member in jwk for member in PRIVATE_MEMBERS)
    key = jwt.PyJWK(jwk, header["alg"]).key
    claims = jwt.decode(proof, key, algorithms=[header["alg"]])
    return header, claims


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_a_proof_verifies_with_its_own_public_key_and_has_the_request_claims(algorithm: str) -> None:
    signer = DPoPSigner(algorithm)
    before = int(time.time())
    proof = signer.proof("post", "https://AS.example/token?x=1#frag")
    header, claims = _verify(proof)
    assert header["alg"] == algorithm
    assert claims["htm"] == "POST"
    assert claims["htu"] == "https://as.example/token"  # no query, no fragment (RFC 9449 section 4.2)
    assert before <= claims["iat"] <= int(time.time())
    assert isinstance(claims["jti"], str) and len(claims["jti"]) >= 16
    assert "ath" not in claims and "nonce" not in claims
    assert thumbprint(header["jwk"]) == signer.jkt


def test_a_proof_for_a_resource_carries_the_token_hash() -> None:
    signer = DPoPSigner()
    _, claims = _verify(signer.proof("GET", "https://mcp.example/mcp", access_token="tok-123"))
    expected = base64.urlsafe_b64encode(hashlib.sha256(b"tok-123").digest()).rstrip(b"=").decode()
    assert claims["ath"] == expected == access_token_hash("tok-123")
    assert claims["htm"] == "GET"


def test_every_proof_is_fresh() -> None:
    signer = DPoPSigner()
    jtis = {_verify(signer.proof("POST", "https://mcp.example/mcp"))[1]["jti"] for _ in range(50)}
    assert len(jtis) == 50


def test_the_key_stays_the_same_for_the_session_and_differs_between_sessions() -> None:
    one, two = DPoPSigner(), DPoPSigner()
    first = _verify(one.proof("POST", "https://a/x"))[0]["jwk"]
    again = _verify(one.proof("POST", "https://a/y"))[0]["jwk"]
    assert first == again and thumbprint(first) == one.jkt
    assert one.jkt != two.jkt


def test_a_proof_signed_by_another_key_does_not_verify_against_the_header_key() -> None:
    signer = DPoPSigner()
    other = DPoPSigner()
    forged_header = jwt.get_unverified_header(other.proof("POST", "https://a/x"))
    token = signer.proof("POST", "https://a/x")
    with pytest.raises(jwt.InvalidSignatureError):
        jwt.decode(token, jwt.PyJWK(forged_header["jwk"], "ES256").key, algorithms=["ES256"])


def test_rfc7638_thumbprint_example() -> None:
    # RFC 7638 section 3.1
    jwk = {
        "kty": "RSA",
        "n": "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCi"
        "FV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnY"
        "b9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0L"
        "s1jF44-csFCur-kEgU8awapJzKnqDKgw",
        "e": "AQAB",
        "alg": "RS256",
        "kid": "2011-04-29",
    }
    assert thumbprint(jwk) == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"


def test_an_ec_key_jwk_pads_coordinates_to_the_curve_size() -> None:
    for _ in range(20):  # some keys have leading zero bytes in x or y
        key = ec.generate_private_key(ec.SECP256R1())
        signer = DPoPSigner("ES256", key=key)
        for coordinate in ("x", "y"):
            raw = base64.urlsafe_b64decode(signer.jwk[coordinate] + "==")
            assert len(raw) == 32
        numbers = key.public_key().public_numbers()
        assert int.from_bytes(base64.urlsafe_b64decode(signer.jwk["x"] + "=="), "big") == numbers.x


def test_nonces_are_kept_per_origin_and_role() -> None:
    signer = DPoPSigner()
    assert signer.remember_nonce("https://as.example/token", "as-nonce", resource=False)
    assert signer.remember_nonce("https://as.example/mcp", "rs-nonce", resource=True)
    assert not signer.remember_nonce("https://as.example/token", "bad nonce\r\n", resource=False)
    _, token_claims = _verify(signer.proof("POST", "https://as.example/token"))
    _, resource_claims = _verify(signer.proof("POST", "https://as.example/mcp", access_token="t"))
    _, elsewhere = _verify(signer.proof("POST", "https://other.example/token"))
    assert token_claims["nonce"] == "as-nonce" and resource_claims["nonce"] == "rs-nonce"
    assert "nonce" not in elsewhere


def test_notice_remembers_a_rotated_nonce_from_any_answer_to_a_signed_request() -> None:
    signer = DPoPSigner()
    request = signer.sign(
        httpx2.Request("POST", "https://mcp.example/mcp", headers={"Authorization": "DPoP t"}), access_token="t"
    )
    signer.notice(httpx2.Response(200, headers={"DPoP-Nonce": "n2"}, request=request))
    assert signer.nonce_for("https://mcp.example/x", resource=True) == "n2"
    unsigned = httpx2.Request("POST", "https://mcp.example/mcp")
    signer.notice(httpx2.Response(200, headers={"DPoP-Nonce": "n3"}, request=unsigned))
    assert signer.nonce_for("https://mcp.example/x", resource=True) == "n2"


def _response(status: int, headers: dict[str, str], body: Any = None) -> tuple[httpx2.Response, bytes]:
    content = json.dumps(body).encode() if body is not None else b""
    return httpx2.Response(status, headers=headers, content=content), content


@pytest.mark.parametrize(
    ("status", "headers", "body", "expected"),
    [
        (400, {"DPoP-Nonce": "n1"}, {"error": "use_dpop_nonce"}, "n1"),
        (400, {"DPoP-Nonce": "n1"}, {"error": "invalid_dpop_proof"}, None),
        (400, {}, {"error": "use_dpop_nonce"}, None),
        (401, {"DPoP-Nonce": "n2", "WWW-Authenticate": 'DPoP error="use_dpop_nonce"'}, None, "n2"),
        (401, {"DPoP-Nonce": "n2", "WWW-Authenticate": 'DPoP error="invalid_token"'}, None, None),
        (200, {"DPoP-Nonce": "n3"}, {"access_token": "x"}, None),
        (400, {"DPoP-Nonce": "has space"}, {"error": "use_dpop_nonce"}, None),
        (400, {"DPoP-Nonce": "n1"}, "not json", None),
    ],
)
def test_nonce_challenge(status: int, headers: dict[str, str], body: Any, expected: str | None) -> None:
    response, content = _response(status, headers, body)
    assert nonce_challenge(response, content) == expected


@pytest.mark.parametrize(
    ("advertised", "expected"),
    [
        (None, "ES256"),
        (["ES256"], "ES256"),
        (["RS256", "ES384"], "ES384"),
        (["PS256"], "PS256"),
        (["EdDSA", "RS256"], "EdDSA"),
        (["HS256", "none"], None),
        ([], None),
    ],
)
def test_choose_algorithm(advertised: list[str] | None, expected: str | None) -> None:
    assert choose_algorithm(advertised) == expected


@pytest.mark.parametrize(
    ("url", "htu"),
    [
        ("https://Mcp.Example.com/mcp?session=1", "https://mcp.example.com/mcp"),
        ("http://127.0.0.1:8080/mcp#x", "http://127.0.0.1:8080/mcp"),
        ("https://example.com", "https://example.com/"),
        ("HTTPS://example.com/a/b/", "https://example.com/a/b/"),
    ],
)
def test_htu(url: str, htu: str) -> None:
    assert htu_of(url) == htu


@settings(max_examples=40, deadline=None)
@given(
    method=st.sampled_from(["GET", "POST", "DELETE"]),
    path=st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_/", max_size=30),
    token=st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=80),
)
def test_any_request_gets_a_proof_that_verifies_with_matching_claims(method: str, path: str, token: str) -> None:
    url = f"https://mcp.example/{path}?q=1"
    _, claims = _verify(SIGNER.proof(method, url, access_token=token))
    assert claims["htm"] == method and claims["htu"] == f"https://mcp.example/{path}"
    assert claims["ath"] == base64.urlsafe_b64encode(hashlib.sha256(token.encode()).digest()).rstrip(b"=").decode()


@pytest.mark.parametrize(
    ("mode", "advertised", "demanded", "expected"),
    [
        (DPoPMode.AUTO, None, False, None),
        (DPoPMode.AUTO, ["ES256"], False, "ES256"),
        (DPoPMode.AUTO, "ES256", False, None),  # not a list: not advertised
        (DPoPMode.AUTO, None, True, "ES256"),
        (DPoPMode.AUTO, ["HS256"], False, None),
        (DPoPMode.AUTO, ["HS256"], True, ValueError),
        (DPoPMode.ALWAYS, None, False, "ES256"),
        (DPoPMode.ALWAYS, [], False, ValueError),
        (DPoPMode.OFF, ["ES256"], True, None),
    ],
)
def test_wanted_algorithm(mode: DPoPMode, advertised: object, demanded: bool, expected: object) -> None:
    if expected is ValueError:
        with pytest.raises(ValueError, match="none of the algorithms"):
            wanted_algorithm(mode, advertised, demanded=demanded)
    else:
        assert wanted_algorithm(mode, advertised, demanded=demanded) == expected
