"""Settings the official conformance harness hands to the client under test.

``@modelcontextprotocol/conformance`` (0.2.0-alpha.12) runs ``<command> <server-url>`` with:

* ``MCP_CONFORMANCE_SCENARIO`` - the scenario name (always set);
* ``MCP_CONFORMANCE_PROTOCOL_VERSION`` - the spec version asked for (always set, e.g. ``2025-11-25``);
* ``MCP_CONFORMANCE_CONTEXT`` - only for scenarios that need it: a JSON object ``{"name": <scenario>,
  ...}``. For ``auth/pre-registration`` it is ``{"name", "client_id", "client_secret", "issuer"}`` (the
  issuer the credentials belong to). The auth extension scenarios add: ``private_key_pem`` and
  ``signing_algorithm`` (the client's key for ``private_key_jwt``); ``valid_jwt`` (a workload identity JWT for
  the jwt-bearer grant; ``wrong_audience_jwt`` and ``expired_jwt`` are spares the harness does not expect to be
  used); ``idp_id_token``, ``idp_issuer``, ``idp_token_endpoint``, ``idp_client_id`` (enterprise-managed
  authorization: the user's ID token and the enterprise IdP).

:meth:`ConformanceSettings.grant_options` turns those keys into the same :class:`GrantOptions` the CLI flags
build; nothing else about a scenario is known here. DPoP needs no key: it follows the authorization server's
metadata, as it does for any server.

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

from inspector.auth.assertions import AssertionSource, ClientKey
from inspector.auth.enterprise import EnterpriseOptions
from inspector.auth.grants import GrantOptions
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

    def grant_options(self) -> GrantOptions | None:
        """The grant settings the context carries (None: none). ValueError for a key or URL that is unusable."""
        context = self.context
        key_pem = _text(context.get("private_key_pem"))
        client_key = ClientKey.from_pem(key_pem, _text(context.get("signing_algorithm"))) if key_pem else None
        jwt = _text(context.get("valid_jwt"))
        assertion = AssertionSource(text=jwt) if jwt else None
        id_token = _text(context.get("idp_id_token"))
        enterprise = None
        if id_token:
            enterprise = EnterpriseOptions(
                id_token=AssertionSource(text=id_token),
                idp_issuer=_text(context.get("idp_issuer")),
                idp_token_endpoint=_text(context.get("idp_token_endpoint")),
                idp_client_id=_text(context.get("idp_client_id")),
                idp_client_secret=_text(context.get("idp_client_secret")),
            )
        if client_key is None and assertion is None and enterprise is None:
            return None
        return GrantOptions(client_key=client_key, assertion=assertion, enterprise=enterprise)


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
