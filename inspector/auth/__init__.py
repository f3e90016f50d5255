"""inspector.auth: OAuth 2.1 for remote MCP servers, built on the ``mcp`` SDK's ``OAuthClientProvider``.

Public API: :func:`build_oauth_auth`, :func:`bearer_auth`, :func:`clear_stored_authorization`,
:class:`AuthStep` (and its kinds/statuses), :class:`KeyringTokenStorage`, the index of servers with stored tokens
(:class:`StoredServerIndex`), :func:`revoke_stored_grant` (RFC 7009), :class:`InteractionRefused`,
:func:`conformance_settings`, and the grant settings :class:`GrantOptions` (:class:`Grant`, :class:`ClientKey`,
:class:`AssertionSource`, :class:`EnterpriseOptions`, :class:`DPoPMode`).
"""

from inspector.auth.assertions import AssertionSource, ClientKey
from inspector.auth.conformance import CONFORMANCE_CIMD_URL, ConformanceSettings, conformance_settings
from inspector.auth.dpop import DPoPMode
from inspector.auth.enterprise import EnterpriseOptions
from inspector.auth.flow import (
    BearerAuth,
    bearer_auth,
    build_oauth_auth,
    clear_stored_authorization,
    registered_loopback_redirect,
)
from inspector.auth.grants import Grant, GrantOptions
from inspector.auth.no_interaction import InteractionRefused, interaction_refused
from inspector.auth.provider import InspectorOAuthProvider
from inspector.auth.revocation import RevocationOutcome, revoke_stored_grant
from inspector.auth.steps import AuthStep, AuthStepKind, HttpExchange, StepStatus
from inspector.auth.storage import KeyringTokenStorage
from inspector.auth.stored_index import StoredServerIndex, default_server_index

__all__ = [
    "CONFORMANCE_CIMD_URL",
    "AssertionSource",
    "AuthStep",
    "AuthStepKind",
    "BearerAuth",
    "ClientKey",
    "ConformanceSettings",
    "DPoPMode",
    "EnterpriseOptions",
    "Grant",
    "GrantOptions",
    "HttpExchange",
    "InspectorOAuthProvider",
    "InteractionRefused",
    "KeyringTokenStorage",
    "RevocationOutcome",
    "StepStatus",
    "StoredServerIndex",
    "bearer_auth",
    "build_oauth_auth",
    "clear_stored_authorization",
    "conformance_settings",
    "default_server_index",
    "interaction_refused",
    "registered_loopback_redirect",
    "revoke_stored_grant",
]
