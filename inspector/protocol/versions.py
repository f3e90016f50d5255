"""Protocol versions and the two eras they belong to."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

__all__ = [
    "DEFAULT_VERSION",
    "HANDSHAKE_VERSIONS",
    "KNOWN_VERSIONS",
    "MODERN_VERSION",
    "MODERN_VERSIONS",
    "Era",
    "EraChoice",
    "at_least",
    "era_of",
]

HANDSHAKE_VERSIONS: Final[tuple[str, ...]] = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN_VERSIONS: Final[tuple[str, ...]] = ("2026-07-28",)
KNOWN_VERSIONS: Final[tuple[str, ...]] = HANDSHAKE_VERSIONS + MODERN_VERSIONS
DEFAULT_VERSION: Final = "2025-11-25"
"""The handshake-era version offered by default."""
MODERN_VERSION: Final = "2026-07-28"
"""The modern version offered by default."""


class Era(StrEnum):
    HANDSHAKE = "handshake"
    """initialize + notifications/initialized, capabilities negotiated once."""
    MODERN = "modern"
    """server/discover, per-request _meta envelope, input_required results."""


def era_of(version: str) -> Era:
    if version in MODERN_VERSIONS:
        return Era.MODERN
    if version in HANDSHAKE_VERSIONS:
        return Era.HANDSHAKE
    raise ValueError(f"unknown protocol version {version!r}; known: {', '.join(KNOWN_VERSIONS)}")


def at_least(version: str, minimum: str) -> bool:
    """Order by position in the registry, never by string comparison."""
    return KNOWN_VERSIONS.index(version) >= KNOWN_VERSIONS.index(minimum)


class EraChoice(StrEnum):
    """Which era a connection speaks (``--protocol-era``, stored per profile)."""

    LEGACY = "legacy"
    """The handshake era only (initialize)."""
    MODERN = "modern"
    """2026-07-28 only (server/discover)."""
    AUTO = "auto"
    """server/discover first; initialize when the answer is not a valid modern one or does not come."""
