"""A profile's declared capabilities follow the protocol version by the registry's order, never by string order."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.protocol.versions import DEFAULT_VERSION
from inspector.store.profiles import ClientCapabilitySwitches, Profile

FULL: dict[str, Any] = {
    "sampling": {"tools": {}},
    "elicitation": {"form": {}, "url": {}},
    "roots": {"listChanged": True},
}


@pytest.mark.parametrize(
    ("version", "declared"),
    [
        (None, FULL),
        (DEFAULT_VERSION, FULL),
        ("2026-07-28", FULL),
        ("2025-06-18", {"sampling": {}, "elicitation": {}, "roots": {"listChanged": True}}),
        ("2025-03-26", {"sampling": {}, "roots": {"listChanged": True}}),
        ("1.0-draft", FULL),  # unknown (newer): as strings it sorts before every date
        ("DRAFT", FULL),
    ],
)
def test_capabilities_by_version(version: str | None, declared: dict[str, Any]) -> None:
    profile = Profile(name="x", capabilities=ClientCapabilitySwitches(sampling_tools=True))
    assert profile.client_capabilities(version) == declared


def test_a_new_profile_offers_the_default_version() -> None:
    assert Profile(name="x").protocol_version == DEFAULT_VERSION
