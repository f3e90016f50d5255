"""JWT assertions for the token endpoint (RFC 7523).

* :class:`ClientKey` - ``private_key_jwt`` client authentication (RFC 7523 section 2.2, OIDC Core 9): a JWT
  signed with the client's own private key, ``iss`` = ``sub`` = the client id, ``aud`` = the authorization
  server's issuer (draft-ietf-oauth-rfc7523bis: the issuer, not an endpoint URL), short-lived, unique ``jti``;
  sent as ``client_assertion`` with ``client_assertion_type`` jwt-bearer.
* :class:`AssertionSource` - a JWT someone else issued that *is* the grant (RFC 7523 section 2.1, the
  ``urn:ietf:params:oauth:grant-type:jwt-bearer`` grant): a workload identity token (Kubernetes service
  account token, a CI system's OIDC token, ...). Given as text or as a file that is read again for every
  token request, since such files are rotated under a running process.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import jwt

from inspector.auth.jwk import PrivateKey, check_algorithm, default_algorithm, load_private_key
from inspector.protocol.sizes import format_size

__all__ = [
    "CLIENT_ASSERTION_TYPE",
    "JWT_BEARER_GRANT",
    "AssertionSource",
    "ClientKey",
]

CLIENT_ASSERTION_TYPE: Final = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
JWT_BEARER_GRANT: Final = "urn:ietf:params:oauth:grant-type:jwt-bearer"
_MAX_ASSERTION_BYTES: Final = 64 * 1024


@dataclass(frozen=True)
class ClientKey:
    """A client's private key for ``private_key_jwt`` (build it with :meth:`from_pem`)."""

    key: PrivateKey = field(repr=False)
    algorithm: str
    lifetime: int = 300
    """Seconds an assertion is valid."""

    @classmethod
    def from_pem(cls, pem: str | bytes, algorithm: str | None = None, *, lifetime: int = 300) -> ClientKey:
        """ValueError when the PEM is no usable private key or cannot sign ``algorithm``."""
        key = load_private_key(pem)
        chosen = check_algorithm(key, algorithm) if algorithm else default_algorithm(key)
        return cls(key, chosen, lifetime)

    def assertion(self, client_id: str, audience: str, *, now: float | None = None) -> str:
        """A new signed client assertion for one token request."""
        issued = int(time.time() if now is None else now)
        claims = {
            "iss": client_id,
            "sub": client_id,
            "aud": audience,
            "iat": issued,
            "exp": issued + self.lifetime,
            "jti": secrets.token_urlsafe(18),
        }
        return jwt.encode(claims, self.key, algorithm=self.algorithm, headers={"typ": "JWT"})


def _looks_like_jwt(text: str) -> bool:
    parts = text.split(".")
    return len(parts) == 3 and all(parts[:2]) and all(ch.isalnum() or ch in "-_." for ch in text)


@dataclass(frozen=True)
class AssertionSource:
    """Where the jwt-bearer grant's assertion comes from: ``text``, or ``path`` (read on every use)."""

    text: str | None = field(default=None, repr=False)
    path: str | None = None

    def __post_init__(self) -> None:
        if (self.text is None) == (self.path is None):
            raise ValueError("an assertion is either text or a file, exactly one of them")

    def read(self) -> str:
        """The assertion now; ValueError naming the file and the problem when there is none usable."""
        where = "the assertion" if self.path is None else f"the assertion file {self.path}"
        if self.path is not None:
            try:
                with Path(self.path).open("rb") as handle:
                    raw = handle.read(_MAX_ASSERTION_BYTES + 1)
            except OSError as exc:
                raise ValueError(f"cannot read {where}: {exc.strerror or exc}") from None
            if len(raw) > _MAX_ASSERTION_BYTES:
                raise ValueError(f"{where} is larger than {format_size(_MAX_ASSERTION_BYTES)}: not a JWT")
            text = raw.decode("utf-8", "replace").strip()
        else:
            text = (self.text or "").strip()
        if not _looks_like_jwt(text):
            raise ValueError(f"{where} is not a JWT (three base64url parts separated by dots)")
        return text
