"""DPoP (RFC 9449): proof-of-possession for access tokens, as the MCP DPoP extension (SEP-1932) uses it.

A :class:`DPoPSigner` holds one key pair for the life of one OAuth provider (one MCP server connection): the
token request carries a proof of that key, so the authorization server binds the token to it (``cnf.jkt``),
and every request to the MCP server then carries ``Authorization: DPoP <token>`` plus a fresh proof (new
``jti``, the request's ``htm``/``htu``, ``iat``, the token hash ``ath``). Servers may demand a nonce: a
``use_dpop_nonce`` error (400 JSON from the token endpoint, 401 ``WWW-Authenticate: DPoP`` from the MCP server)
with a ``DPoP-Nonce`` header; the nonce is remembered per origin, put in the next proofs, and the refused
request is sent once more. Any later ``DPoP-Nonce`` header replaces the remembered one (RFC 9449 section 8.2).

When DPoP is used (:class:`DPoPMode`): ``auto`` - when the authorization server advertises
``dpop_signing_alg_values_supported`` with an algorithm we sign, or the MCP server demands it (its challenge
uses the ``DPoP`` scheme, or its resource metadata says ``dpop_bound_access_tokens_required``); ``always``;
``off``. Nothing here does I/O.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Iterable
from enum import StrEnum
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

import httpx2
import jwt

from inspector.auth.jwk import ALGORITHMS, PrivateKey, b64url, generate_key, public_jwk, thumbprint

__all__ = [
    "DPOP_HEADER",
    "NONCE_HEADER",
    "DPoPMode",
    "DPoPSigner",
    "access_token_hash",
    "choose_algorithm",
    "htu_of",
    "is_resource_request",
    "nonce_challenge",
    "origin_of",
    "wanted_algorithm",
]

DPOP_HEADER: Final = "DPoP"
NONCE_HEADER: Final = "DPoP-Nonce"
PROOF_TYPE: Final = "dpop+jwt"
_MAX_NONCE: Final = 1024
"""A nonce longer than this (or not visible ASCII) is not remembered: it could not go back in a header."""


class DPoPMode(StrEnum):
    AUTO = "auto"
    ALWAYS = "always"
    OFF = "off"


def choose_algorithm(advertised: Iterable[str] | None) -> str | None:
    """The first of our algorithms the server lists; ES256 when it lists none at all (None: none in common)."""
    if advertised is None:
        return ALGORITHMS[0]
    offered = {str(name) for name in advertised}
    return next((name for name in ALGORITHMS if name in offered), None)


def wanted_algorithm(mode: DPoPMode, advertised: object, *, demanded: bool) -> str | None:
    """The algorithm to prove possession with at a token endpoint, or None for no DPoP.

    ``advertised`` is the authorization server's ``dpop_signing_alg_values_supported`` as it arrived (anything
    but a list: not advertised); ``demanded``: the MCP server asked for DPoP. ValueError when DPoP is needed
    (``always``, or demanded) but the server lists no algorithm we sign."""
    if mode is DPoPMode.OFF:
        return None
    listed = [str(name) for name in advertised] if isinstance(advertised, list) else None
    if mode is DPoPMode.AUTO and listed is None and not demanded:
        return None
    algorithm = choose_algorithm(listed)
    if algorithm is None and (mode is DPoPMode.ALWAYS or demanded):
        raise ValueError(
            "the authorization server signs DPoP proofs with none of the algorithms this client supports "
            f"(it lists {', '.join(listed or []) or 'none'})"
        )
    return algorithm


def htu_of(url: str | httpx2.URL) -> str:
    """The proof's ``htu``: the request URI without query and fragment (RFC 9449 section 4.2)."""
    parts = urlsplit(str(url))
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path or "/", "", ""))


def origin_of(url: str | httpx2.URL) -> str:
    parts = urlsplit(str(url))
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def access_token_hash(token: str) -> str:
    """The proof's ``ath``: base64url SHA-256 of the access token's ASCII (RFC 9449 section 4.2)."""
    return b64url(hashlib.sha256(token.encode("ascii")).digest())


def _usable_nonce(value: str | None) -> str | None:
    if not value or len(value) > _MAX_NONCE or not all(0x21 <= ord(ch) <= 0x7E for ch in value):
        return None
    return value


def _json_error(body: bytes) -> str | None:
    try:
        value: Any = json.loads(body)
    except ValueError:
        return None
    error = value.get("error") if isinstance(value, dict) else None
    return error if isinstance(error, str) else None


def nonce_challenge(response: httpx2.Response, body: bytes | None = None) -> str | None:
    """The nonce a ``use_dpop_nonce`` answer asks for (None: the answer is no such challenge).

    The token endpoint answers 400 with a JSON ``error`` (RFC 9449 section 8); a resource server answers 401
    with ``WWW-Authenticate: DPoP error="use_dpop_nonce"`` (section 9). Both carry ``DPoP-Nonce``."""
    nonce = _usable_nonce(response.headers.get(NONCE_HEADER))
    if nonce is None:
        return None
    if response.status_code == 401:
        challenge = response.headers.get("www-authenticate", "")
        return nonce if "use_dpop_nonce" in challenge else None
    if response.status_code == 400 and body is not None:
        return nonce if _json_error(body) == "use_dpop_nonce" else None
    return None


class DPoPSigner:
    """One DPoP key pair and the nonces servers gave us; signs proofs (see the module docstring)."""

    def __init__(self, algorithm: str = "ES256", *, key: PrivateKey | None = None) -> None:
        self.algorithm = algorithm
        self._key = key if key is not None else generate_key(algorithm)
        self.jwk: Final = public_jwk(self._key)
        self.jkt: Final = thumbprint(self.jwk)
        """The key's thumbprint: what a bound token's ``cnf.jkt`` names."""
        self._nonces: dict[str, str] = {}

    def __repr__(self) -> str:
        return f"DPoPSigner({self.algorithm}, jkt={self.jkt})"

    # -- nonces ------------------------------------------------------------------------------------
    # Nonces are kept per origin and per role: what a token endpoint asked for is not what the resource
    # server at the same origin asked for (a proof for a resource carries ``ath``, one for a token request not).

    @staticmethod
    def _slot(url: str | httpx2.URL, resource: bool) -> str:
        return f"{'resource' if resource else 'token'} {origin_of(url)}"

    def nonce_for(self, url: str | httpx2.URL, *, resource: bool) -> str | None:
        return self._nonces.get(self._slot(url, resource))

    def remember_nonce(self, url: str | httpx2.URL, nonce: str | None, *, resource: bool) -> bool:
        """Keep ``nonce`` for the origin of ``url``; False when it is unusable (nothing kept)."""
        usable = _usable_nonce(nonce)
        if usable is None:
            return False
        self._nonces[self._slot(url, resource)] = usable
        return True

    def notice(self, response: httpx2.Response) -> None:
        """Remember the ``DPoP-Nonce`` of any answer to a request we signed (a server may rotate it any time)."""
        request = response.request
        nonce = response.headers.get(NONCE_HEADER)
        if nonce is not None and DPOP_HEADER in request.headers:
            self.remember_nonce(request.url, nonce, resource=is_resource_request(request))

    # -- proofs ------------------------------------------------------------------------------------

    def proof(
        self,
        method: str,
        url: str | httpx2.URL,
        *,
        access_token: str | None = None,
        nonce: str | None = None,
        now: float | None = None,
    ) -> str:
        """A new proof JWT for one request: ``ath`` when it presents ``access_token``; ``nonce`` defaults to the
        one remembered for the request's origin and role."""
        claims: dict[str, Any] = {
            "jti": secrets.token_urlsafe(18),
            "htm": method.upper(),
            "htu": htu_of(url),
            "iat": int(time.time() if now is None else now),
        }
        if access_token is not None:
            claims["ath"] = access_token_hash(access_token)
        chosen = nonce if nonce is not None else self.nonce_for(url, resource=access_token is not None)
        if chosen is not None:
            claims["nonce"] = chosen
        headers = {"typ": PROOF_TYPE, "alg": self.algorithm, "jwk": dict(self.jwk)}
        return jwt.encode(claims, self._key, algorithm=self.algorithm, headers=headers)

    def sign(self, request: httpx2.Request, *, access_token: str | None = None) -> httpx2.Request:
        """Put a fresh proof for ``request`` in its ``DPoP`` header (replacing any earlier one)."""
        request.headers[DPOP_HEADER] = self.proof(request.method, request.url, access_token=access_token)
        return request


def is_resource_request(request: httpx2.Request) -> bool:
    """Whether ``request`` presents a DPoP-bound access token (else it is a token request)."""
    return request.headers.get("authorization", "")[:5].lower() == "dpop "
