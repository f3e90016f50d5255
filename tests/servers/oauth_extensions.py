"""The auth extensions of tests/servers/oauth_server.py: what the SDK's authorization server does not do.

* DPoP (RFC 9449) at the token endpoint and at ``/mcp``: proofs are checked here with PyJWT and this module's
  own RFC 7638 thumbprint (nothing from ``inspector``): ``typ``, an asymmetric ``alg``, a public ``jwk`` only,
  signature, ``htm``/``htu``/``iat``, unique ``jti``, ``ath`` and ``cnf``-style binding (token -> key
  thumbprint), and optional nonces (``use_dpop_nonce`` answers with ``DPoP-Nonce``). A bound token presented
  as ``Bearer`` is refused; a good ``DPoP`` request reaches the SDK app as ``Bearer`` (the SDK knows no DPoP).
* the client credentials grant (secret by Basic or form, or a ``private_key_jwt`` assertion checked against
  the client's registered public key, ``aud`` = the issuer);
* the jwt-bearer grant: a workload JWT signed by a trusted issuer's key, or an ID-JAG
  (``typ: oauth-id-jag+jwt``) signed by the built-in enterprise IdP;
* the enterprise IdP at ``<base>/idp``: OIDC metadata and an RFC 8693 token exchange of an ID token it
  issued (:meth:`Extensions.id_token`) for an ID-JAG.

Every check that fails is answered the way a real server would (400/401 with an OAuth error) and kept in
:attr:`Extensions.problems`; :attr:`Extensions.proofs` records each DPoP proof that was accepted.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import parse_qsl, unquote, urlsplit

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

if TYPE_CHECKING:
    from servers.oauth_server import Provider

JWT_BEARER: Final = "urn:ietf:params:oauth:grant-type:jwt-bearer"
TOKEN_EXCHANGE: Final = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_TOKEN_TYPE: Final = "urn:ietf:params:oauth:token-type:id_token"
ID_JAG_TYPE: Final = "urn:ietf:params:oauth:token-type:id-jag"
ASSERTION_TYPE: Final = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
IDP_CLIENT_ID: Final = "idp-client-of-inspector"
ASYMMETRIC: Final = ("ES256", "ES384", "ES512", "EdDSA", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512")


@dataclass
class ExtensionOptions:
    dpop_algs: list[str] | None = None
    """Advertise ``dpop_signing_alg_values_supported`` and check/bind DPoP proofs (None: no DPoP at all)."""
    dpop_required: bool = False
    """``/mcp`` refuses tokens that are not DPoP-bound (and challenges with the DPoP scheme)."""
    as_nonce: str | None = None
    rs_nonce: str | None = None
    client_credentials: bool = False
    client_keys: dict[str, str] = field(default_factory=dict)
    """client_id -> public key PEM (``private_key_jwt``)."""
    assertion_keys: dict[str, str] = field(default_factory=dict)
    """Trusted workload-identity issuer -> public key PEM (jwt-bearer grant)."""
    idp: bool = False
    jag_client_id: str = "enterprise-app"
    """The MCP authorization server client an ID-JAG is issued for."""


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwk_thumbprint(jwk: dict[str, Any]) -> str:
    """RFC 7638, written out independently of the client under test."""
    required = {"EC": ("crv", "kty", "x", "y"), "OKP": ("crv", "kty", "x"), "RSA": ("e", "kty", "n")}[jwk["kty"]]
    canonical = json.dumps({k: jwk[k] for k in required}, sort_keys=True, separators=(",", ":"))
    return _b64url(hashlib.sha256(canonical.encode()).digest())


class Problem(Exception):
    def __init__(self, error: str, description: str, status: int = 400) -> None:
        super().__init__(description)
        self.error, self.description, self.status = error, description, status


def _basic(header: str) -> tuple[str, str] | None:
    if not header.lower().startswith("basic "):
        return None
    try:
        client_id, _, secret = base64.b64decode(header[6:]).decode().partition(":")
    except ValueError:
        return None
    return unquote(client_id), unquote(secret)


class Extensions:
    def __init__(self, base_url: str, provider: Provider, options: ExtensionOptions) -> None:
        self.base_url = base_url
        self.provider = provider
        self.options = options
        self.bindings: dict[str, str] = {}
        """access or refresh token -> the thumbprint of the DPoP key it is bound to."""
        self.jtis: set[str] = set()
        self.proofs: list[dict[str, Any]] = []
        self.problems: list[str] = []
        self._idp_key = ec.generate_private_key(ec.SECP256R1())
        self.idp_issuer = f"{base_url}/idp"

    # -- metadata ----------------------------------------------------------------------------------

    def metadata(self, metadata: dict[str, Any]) -> dict[str, Any]:
        opts = self.options
        grants = list(metadata.get("grant_types_supported", []))
        if opts.client_credentials:
            grants.append("client_credentials")
        if opts.assertion_keys or opts.idp:
            grants.append(JWT_BEARER)
        metadata["grant_types_supported"] = grants
        if opts.client_keys:
            metadata["token_endpoint_auth_methods_supported"] = [
                *metadata["token_endpoint_auth_methods_supported"],
                "private_key_jwt",
            ]
            metadata["token_endpoint_auth_signing_alg_values_supported"] = ["ES256", "RS256", "EdDSA"]
        if opts.dpop_algs is not None:
            metadata["dpop_signing_alg_values_supported"] = opts.dpop_algs
        if opts.idp:
            metadata["authorization_grant_profiles_supported"] = ["urn:ietf:params:oauth:grant-profile:id-jag"]
        return metadata

    def idp_metadata(self) -> dict[str, Any]:
        return {
            "issuer": self.idp_issuer,
            "token_endpoint": f"{self.idp_issuer}/token",
            "grant_types_supported": [TOKEN_EXCHANGE],
        }

    # -- tokens the tests hand to the client ---------------------------------------------------------

    def id_token(self, subject: str = "alice@example.com", *, audience: str = IDP_CLIENT_ID, ttl: int = 600) -> str:
        now = int(time.time())
        claims = {"iss": self.idp_issuer, "sub": subject, "aud": audience, "iat": now, "exp": now + ttl}
        return jwt.encode(claims, self._idp_key, algorithm="ES256")

    # -- DPoP ----------------------------------------------------------------------------------------

    def check_proof(self, proof: str | None, method: str, url: str, *, token: str | None, nonce: str | None) -> str:
        """The proof's key thumbprint when ``proof`` is a valid proof for this request; Problem otherwise."""
        if not proof or "," in proof:
            raise Problem("invalid_dpop_proof", "missing or multiple DPoP proofs")
        try:
            header = jwt.get_unverified_header(proof)
        except jwt.PyJWTError as exc:
            raise Problem("invalid_dpop_proof", f"not a JWT: {exc}") from None
        jwk = header.get("jwk")
        if header.get("typ") != "dpop+jwt" or header.get("alg") not in ASYMMETRIC or not isinstance(jwk, dict):
            raise Problem("invalid_dpop_proof", f"bad header {header}")
        if any(private in jwk for private in ("d", "p", "q", "dp", "dq", "qi")):
            raise Problem("invalid_dpop_proof", "the jwk holds a private key")
        try:
            claims = jwt.decode(proof, jwt.PyJWK(jwk, header["alg"]).key, algorithms=[header["alg"]])
        except jwt.PyJWTError as exc:
            raise Problem("invalid_dpop_proof", f"signature: {exc}") from None
        parts = urlsplit(url)
        expected_htu = f"{parts.scheme}://{parts.netloc}{parts.path}"
        if claims.get("htm") != method or claims.get("htu") != expected_htu:
            raise Problem("invalid_dpop_proof", f"htm/htu {claims.get('htm')} {claims.get('htu')} != {expected_htu}")
        if not isinstance(claims.get("iat"), int) or abs(time.time() - claims["iat"]) > 60:
            raise Problem("invalid_dpop_proof", "iat")
        jti = claims.get("jti")
        if not isinstance(jti, str) or jti in self.jtis:
            raise Problem("invalid_dpop_proof", "jti missing or replayed")
        if token is not None:
            expected = _b64url(hashlib.sha256(token.encode()).digest())
            if claims.get("ath") != expected:
                raise Problem("invalid_dpop_proof", "ath does not match the token")
        elif "ath" in claims:
            raise Problem("invalid_dpop_proof", "ath on a token request")
        if nonce is not None and claims.get("nonce") != nonce:
            raise Problem("use_dpop_nonce", "a nonce is required", 401 if token is not None else 400)
        self.jtis.add(jti)
        thumbprint = jwk_thumbprint(jwk)
        self.proofs.append(
            {
                "htm": method,
                "htu": expected_htu,
                "ath": token is not None,
                "jkt": thumbprint,
                "nonce": claims.get("nonce"),
            }
        )
        return thumbprint

    def token_proof(self, headers: dict[str, str], url: str) -> str | None:
        """The key a token request proves (None: no proof, or no DPoP here); Problem for a bad proof."""
        if self.options.dpop_algs is None or "dpop" not in headers:
            return None
        return self.check_proof(headers["dpop"], "POST", url, token=None, nonce=self.options.as_nonce)

    def bind(self, answer: dict[str, Any], jkt: str | None) -> dict[str, Any]:
        if jkt is None:
            return answer
        for name in ("access_token", "refresh_token"):
            if isinstance(answer.get(name), str):
                self.bindings[answer[name]] = jkt
        return {**answer, "token_type": "DPoP"}

    def resource_request(self, method: str, url: str, headers: dict[str, str]) -> str | None:
        """The ``Authorization`` header to hand the SDK app for this ``/mcp`` request; Problem when refused."""
        auth = headers.get("authorization", "")
        scheme, _, token = auth.partition(" ")
        token = token.strip()
        if scheme.lower() == "dpop":
            jkt = self.bindings.get(token)
            if jkt is None:
                raise Problem("invalid_token", "DPoP scheme with a token that is not DPoP-bound", 401)
            if self.check_proof(headers.get("dpop"), method, url, token=token, nonce=self.options.rs_nonce) != jkt:
                raise Problem("invalid_token", "the proof's key is not the token's", 401)
            return f"Bearer {token}"
        if scheme.lower() == "bearer" and token in self.bindings:
            raise Problem("invalid_token", "a DPoP-bound token presented as a bearer token", 401)
        if scheme.lower() == "bearer" and self.options.dpop_required:
            raise Problem("invalid_token", "this resource takes DPoP-bound tokens only", 401)
        return None

    # -- grants --------------------------------------------------------------------------------------

    def _verify(
        self, token: str, key_pem: str | Any, *, audience: str | list[str], issuer: str | None = None
    ) -> dict[str, Any]:
        key: Any = serialization.load_pem_public_key(key_pem.encode()) if isinstance(key_pem, str) else key_pem
        try:
            header = jwt.get_unverified_header(token)
            claims: dict[str, Any] = jwt.decode(
                token,
                key,
                algorithms=[header.get("alg", "none")],
                audience=audience,
                issuer=issuer,
                options={"require": ["exp", "aud"]},
            )
        except jwt.PyJWTError as exc:
            raise Problem("invalid_grant", f"assertion: {exc}") from None
        return claims

    def _issuer_audiences(self) -> list[str]:
        return [self.base_url, f"{self.base_url}/"]

    def authenticate(self, form: dict[str, str], headers: dict[str, str]) -> str:
        """The authenticated client's id (secret by Basic or form, or private_key_jwt); Problem otherwise."""
        pair = _basic(headers.get("authorization", ""))
        clients = self.provider.options.preregistered
        if pair is not None:
            client_id, secret = pair
            if clients.get(client_id, (None, ""))[0] != secret or not secret:
                raise Problem("invalid_client", "bad client credentials", 401)
            return client_id
        if form.get("client_assertion_type") == ASSERTION_TYPE:
            assertion = form.get("client_assertion", "")
            try:
                unverified = jwt.decode(assertion, options={"verify_signature": False})
            except jwt.PyJWTError as exc:
                raise Problem("invalid_client", f"client assertion: {exc}", 401) from None
            issuer = str(unverified.get("iss", ""))
            key = self.options.client_keys.get(issuer)
            if key is None or unverified.get("sub") != issuer:
                raise Problem("invalid_client", "unknown client or iss != sub", 401)
            claims = self._verify(assertion, key, audience=self._issuer_audiences())
            if claims.get("jti") in self.jtis:
                raise Problem("invalid_client", "client assertion replayed", 401)
            self.jtis.add(claims.get("jti", ""))
            return issuer
        client_id, secret = form.get("client_id") or "", form.get("client_secret")
        if client_id in clients and secret is not None and clients[client_id][0] == secret:
            return client_id
        if client_id in clients and clients[client_id][1] == "none" and secret is None:
            return client_id
        raise Problem("invalid_client", "no client authentication", 401)

    def _scopes(self, form: dict[str, str]) -> list[str]:
        from servers.oauth_server import ALL_SCOPES, READ

        scopes = form.get("scope", "").split() or [READ]
        if not set(scopes) <= set(ALL_SCOPES):
            raise Problem("invalid_scope", f"unknown scopes {scopes}")
        return scopes

    def grant(self, form: dict[str, str], headers: dict[str, str]) -> tuple[str, list[str]]:
        """(client id, scopes) for a client-credentials or jwt-bearer request; Problem when refused."""
        grant = form.get("grant_type")
        if grant == "client_credentials" and self.options.client_credentials:
            return self.authenticate(form, headers), self._scopes(form)
        if grant != JWT_BEARER:
            raise Problem("unsupported_grant_type", f"{grant} is not supported here")
        assertion = form.get("assertion", "")
        try:
            header = jwt.get_unverified_header(assertion)
            unverified = jwt.decode(assertion, options={"verify_signature": False})
        except jwt.PyJWTError as exc:
            raise Problem("invalid_grant", f"assertion: {exc}") from None
        if header.get("typ") == "oauth-id-jag+jwt":
            if not self.options.idp:
                raise Problem("invalid_grant", "no trusted IdP")
            client_id = self.authenticate(form, headers)
            claims = self._verify(
                assertion, self._idp_key.public_key(), audience=self._issuer_audiences(), issuer=self.idp_issuer
            )
            if claims.get("client_id") != client_id:
                raise Problem("invalid_grant", f"the ID-JAG is for {claims.get('client_id')}, not {client_id}")
            if claims.get("resource") != f"{self.base_url}/mcp":
                raise Problem("invalid_grant", f"the ID-JAG is for {claims.get('resource')}")
            return client_id, self._scopes(form)
        key = self.options.assertion_keys.get(str(unverified.get("iss")))
        if key is None:
            raise Problem("invalid_grant", f"untrusted assertion issuer {unverified.get('iss')}")
        claims = self._verify(assertion, key, audience=self._issuer_audiences())
        return f"workload:{claims.get('sub')}", self._scopes(form)

    def token_exchange(self, form: dict[str, str]) -> dict[str, Any]:
        """The IdP's RFC 8693 answer: an ID-JAG for the ID token in ``form``; Problem when refused."""
        if form.get("grant_type") != TOKEN_EXCHANGE:
            raise Problem("unsupported_grant_type", "token exchange only")
        for name, expected in (("requested_token_type", ID_JAG_TYPE), ("subject_token_type", ID_TOKEN_TYPE)):
            if form.get(name) != expected:
                raise Problem("invalid_request", f"{name} must be {expected}")
        if form.get("client_id") != IDP_CLIENT_ID:
            raise Problem("invalid_client", "unknown IdP client", 401)
        for name in ("audience", "resource"):
            if not form.get(name):
                raise Problem("invalid_request", f"{name} is missing")
        try:
            claims = jwt.decode(
                form.get("subject_token", ""),
                self._idp_key.public_key(),
                algorithms=["ES256"],
                audience=IDP_CLIENT_ID,
                issuer=self.idp_issuer,
            )
        except jwt.PyJWTError as exc:
            raise Problem("invalid_grant", f"ID token: {exc}") from None
        now = int(time.time())
        jag = {
            "iss": self.idp_issuer,
            "sub": claims["sub"],
            "aud": form["audience"],
            "resource": form["resource"],
            "client_id": self.options.jag_client_id,
            "jti": secrets.token_urlsafe(12),
            "iat": now,
            "exp": now + 300,
        }
        if form.get("scope"):
            jag["scope"] = form["scope"]
        token = jwt.encode(jag, self._idp_key, algorithm="ES256", headers={"typ": "oauth-id-jag+jwt"})
        return {"access_token": token, "issued_token_type": ID_JAG_TYPE, "token_type": "N_A", "expires_in": 300}


def form_of(body: bytes) -> dict[str, str]:
    return dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
