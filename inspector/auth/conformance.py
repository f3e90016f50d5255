"""Settings the official conformance harness hands to the client under test.

``@modelcontextprotocol/conformance`` (0.2.0-alpha.12) runs ``<command> <server-url>`` with:

* ``MCP_CONFORMANCE_SCENARIO`` - the scenario name (always set);
* ``MCP_CONFORMANCE_PROTOCOL_VERSION`` - the spec version asked for (always set, e.g. ``2025-11-25``);
* ``MCP_CONFORMANCE_CONTEXT`` - only for scenarios that need it: a JSON object ``{"name": <scenario>,
  ...}``. For ``auth/pre-registration`` it is ``{"name", "client_id", "client_secret", "issuer"}`` (the
  issuer the credentials belong to); the client-credentials extensions add ``private_key_pem``,
  ``signing_algorithm``; other extension scenarios carry other keys.

The harness's CIMD scenario gives no context: every conformance client uses the harness's fixed client
metadata URL, :data:`CONFORMANCE_CIMD_URL`, which is the default here whenever the harness is detected.
Nothing here looks at the scenario name.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from inspector.transports.base import message_of

__all__ = ["CONFORMANCE_CIMD_URL", "ConformanceSettings", "conformance_settings"]

CONFORMANCE_CIMD_URL: Final = "https://conformance-test.local/client-metadata.json"

SCENARIO_ENV: Final = "MCP_CONFORMANCE_SCENARIO"
CONTEXT_ENV: Final = "MCP_CONFORMANCE_CONTEXT"
VERSION_ENV: Final = "MCP_CONFORMANCE_PROTOCOL_VERSION"


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


@dataclass(frozen=True)
class ConformanceSettings:
    scenario: str | None
    protocol_version: str | None
    client_id: str | None = None
    client_secret: str | None = None
    issuer: str | None = None
    cimd_url: str = CONFORMANCE_CIMD_URL
    context: Mapping[str, Any] = field(default_factory=dict)
    """The whole context object (empty when the harness sent none)."""

    def oauth_options(self) -> dict[str, str | None]:
        """Keyword arguments for :func:`inspector.auth.flow.build_oauth_auth`."""
        return {
            "client_id": self.client_id,
            "client_secret": self.client_secret,
            "issuer": self.issuer,
            "cimd_url": self.cimd_url,
        }


def conformance_settings(environ: Mapping[str, str] | None = None) -> ConformanceSettings | None:
    """The harness's settings, or None when not running under the conformance harness.

    Raises ValueError when ``MCP_CONFORMANCE_CONTEXT`` is not a JSON object.
    """
    env = os.environ if environ is None else environ
    scenario = env.get(SCENARIO_ENV) or None
    raw = env.get(CONTEXT_ENV)
    if scenario is None and not raw:
        return None
    context: dict[str, Any] = {}
    if raw:
        try:
            parsed = json.loads(raw)
        except ValueError as exc:
            raise ValueError(f"{CONTEXT_ENV} is not valid JSON: {message_of(exc)}") from None
        if not isinstance(parsed, dict):
            raise ValueError(f"{CONTEXT_ENV} must be a JSON object")
        context = parsed
    return ConformanceSettings(
        scenario=scenario or _text(context.get("name")),
        protocol_version=env.get(VERSION_ENV) or None,
        client_id=_text(context.get("client_id")),
        client_secret=_text(context.get("client_secret")),
        issuer=_text(context.get("issuer")),
        cimd_url=_text(context.get("client_metadata_url")) or CONFORMANCE_CIMD_URL,
        context=context,
    )
