"""Asymmetric keys for signing JWTs: loading a PEM private key, the algorithm it signs with, its public JWK
(RFC 7517) and JWK thumbprint (RFC 7638).

Used for DPoP proofs (:mod:`inspector.auth.dpop`, a key generated per session) and for ``private_key_jwt``
client assertions (:mod:`inspector.auth.assertions`, the user's key). Only asymmetric algorithms: a JWS a
third party checks with the public key it was given.
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Final

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

__all__ = [
    "ALGORITHMS",
    "PrivateKey",
    "b64url",
    "check_algorithm",
    "default_algorithm",
    "generate_key",
    "load_private_key",
    "public_jwk",
    "thumbprint",
]

PrivateKey = ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey | ed25519.Ed25519PrivateKey

_CURVES: Final[dict[str, tuple[type[ec.EllipticCurve], str, int]]] = {
    "ES256": (ec.SECP256R1, "P-256", 32),
    "ES384": (ec.SECP384R1, "P-384", 48),
    "ES512": (ec.SECP521R1, "P-521", 66),
}
_RSA: Final = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512")
ALGORITHMS: Final[tuple[str, ...]] = ("ES256", "ES384", "ES512", "EdDSA", *_RSA)
"""The JWS algorithms we sign with, in the order we prefer them."""


def b64url(data: bytes) -> str:
    """Base64url without padding (RFC 7515 section 2)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _int_bytes(value: int, size: int | None = None) -> bytes:
    length = size if size is not None else max(1, (value.bit_length() + 7) // 8)
    return value.to_bytes(length, "big")


def generate_key(algorithm: str) -> PrivateKey:
    """A new private key for ``algorithm`` (one of :data:`ALGORITHMS`)."""
    if algorithm in _CURVES:
        return ec.generate_private_key(_CURVES[algorithm][0]())
    if algorithm == "EdDSA":
        return ed25519.Ed25519PrivateKey.generate()
    if algorithm in _RSA:
        return rsa.generate_private_key(public_exponent=65537, key_size=2048)
    raise ValueError(f"unsupported signing algorithm {algorithm!r} (supported: {', '.join(ALGORITHMS)})")


def load_private_key(pem: str | bytes, password: bytes | None = None) -> PrivateKey:
    """The private key in ``pem`` (PKCS#8, or traditional EC/RSA PEM); ValueError saying what is wrong."""
    data = pem.encode("utf-8") if isinstance(pem, str) else pem
    try:
        key = serialization.load_pem_private_key(data, password=password)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"not a usable PEM private key ({exc})") from None
    except Exception as exc:  # cryptography's UnsupportedAlgorithm and friends
        raise ValueError(f"not a usable PEM private key ({type(exc).__name__}: {exc})") from None
    if not isinstance(key, ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey | ed25519.Ed25519PrivateKey):
        raise ValueError(f"a {type(key).__name__} cannot sign JWTs here (use an EC P-256/384/521, RSA or Ed25519 key)")
    return key


def default_algorithm(key: PrivateKey) -> str:
    """The algorithm a key signs with unless told otherwise: ES256/384/512 by curve, EdDSA, or RS256."""
    if isinstance(key, ec.EllipticCurvePrivateKey):
        for algorithm, (curve, _, _) in _CURVES.items():
            if isinstance(key.curve, curve):
                return algorithm
        raise ValueError(f"unsupported elliptic curve {key.curve.name} (use P-256, P-384 or P-521)")
    if isinstance(key, ed25519.Ed25519PrivateKey):
        return "EdDSA"
    return "RS256"


def check_algorithm(key: PrivateKey, algorithm: str) -> str:
    """``algorithm`` when ``key`` can sign with it; ValueError otherwise."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unsupported signing algorithm {algorithm!r} (supported: {', '.join(ALGORITHMS)})")
    fits = (
        (algorithm in _CURVES and isinstance(key, ec.EllipticCurvePrivateKey) and default_algorithm(key) == algorithm)
        or (algorithm == "EdDSA" and isinstance(key, ed25519.Ed25519PrivateKey))
        or (algorithm in _RSA and isinstance(key, rsa.RSAPrivateKey))
    )
    if not fits:
        raise ValueError(f"a {default_algorithm(key)} key cannot sign {algorithm}")
    return algorithm


def public_jwk(key: PrivateKey) -> dict[str, str]:
    """The public half of ``key`` as a JWK with only its required members (never a private part)."""
    if isinstance(key, ec.EllipticCurvePrivateKey):
        numbers = key.public_key().public_numbers()
        _, crv, size = _CURVES[default_algorithm(key)]
        return {
            "kty": "EC",
            "crv": crv,
            "x": b64url(_int_bytes(numbers.x, size)),
            "y": b64url(_int_bytes(numbers.y, size)),
        }
    if isinstance(key, ed25519.Ed25519PrivateKey):
        raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        return {"kty": "OKP", "crv": "Ed25519", "x": b64url(raw)}
    rsa_numbers = key.public_key().public_numbers()
    return {"kty": "RSA", "n": b64url(_int_bytes(rsa_numbers.n)), "e": b64url(_int_bytes(rsa_numbers.e))}


_REQUIRED: Final = {"EC": ("crv", "kty", "x", "y"), "OKP": ("crv", "kty", "x"), "RSA": ("e", "kty", "n")}


def thumbprint(jwk: dict[str, str]) -> str:
    """The RFC 7638 SHA-256 thumbprint of a public JWK (base64url): its required members, sorted, compact."""
    members = _REQUIRED.get(jwk.get("kty", ""))
    if members is None:
        raise ValueError(f"no thumbprint for a JWK of kty {jwk.get('kty')!r}")
    canonical = json.dumps({name: jwk[name] for name in members}, separators=(",", ":"), sort_keys=True)
    return b64url(hashlib.sha256(canonical.encode("utf-8")).digest())
