"""Saved connection profiles: plain dataclasses, a JSON file in the config dir, secrets in the keyring.

File: ``config_dir()/profiles.json``, written atomically (temp file in the same directory, fsync,
``os.replace``)::

    {
      "version": 1,
      "profiles": [
        {
          "id": "0b9d6c1e-5a0f-4c52-9f55-8c2f3d7e4a11",
          "name": "weather (stdio)",
          "transport": "stdio",                      // "stdio" | "http" | "sse"
          "stdio": {"command": "uvx", "args": ["weather-mcp"], "cwd": "",
                    "env": [{"name": "UNITS", "value": "metric"},
                            {"name": "API_KEY", "secret": true}]},      // value in the keyring
          "http": {"url": "", "ca_bundle": "",
                   "headers": [{"name": "Authorization", "secret": true}]},
          "auth": {"mode": "none", "bearer_token": null, "client_id": "",
                   "client_secret": null, "cimd_url": "", "scopes": []},
          "timeouts": {"request": 60.0, "reset_on_progress": true, "max_total": null},
          "protocol_version": "2025-11-25",
          "capabilities": {"sampling": true, "sampling_tools": false, "elicitation_form": true,
                           "elicitation_url": true, "roots": true, "roots_list_changed": true},
          "roots": [{"uri": "file:///home/me/project", "name": "project"}],
          "sampling_auto_reply": {"enabled": false, "text": "", "model": "mcp-inspector-auto-reply",
                                  "stop_reason": "endTurn"}
        }
      ]
    }

Secret values never appear in the file. A secret env variable or header is written as
``{"name": ..., "secret": true}``; a stored bearer token or client secret as ``{"secret": true}``
(``null`` when there is none). The values live in the keyring (:class:`SecretStore`, service
``mcp-inspector-desktop``) under ``profile/<id>/<kind>/<name>`` with kind ``env``, ``header`` or
``auth`` (names ``bearer_token`` and ``client_secret``).

In memory a secret's value is a ``str`` when known and ``None`` when it is held by the secret store
and not loaded: profiles handed out by :class:`ProfileStore` carry ``None`` for every secret;
:meth:`ProfileStore.resolve_secrets` returns a copy with the values filled in (for connecting or
editing). Passing a profile with ``None`` secrets back to :meth:`ProfileStore.update` keeps what is
stored; an empty string clears a bearer token or client secret.

Unknown keys (at the top level, in a profile and in its sections) are kept and written back.
A file that is not JSON or not the right shape is moved aside to ``profiles.json.corrupt-<time>``;
a profile entry of the wrong shape is dropped alone (the original file is copied aside first).
Either way ``ProfileStore.load_warnings`` says what happened, in words for the user.
"""

from __future__ import annotations

import os  # noqa: F401  (kept as ``inspector.store.profiles.os``: tests patch ``os.replace`` through it)

from inspector.store.profiles.json_values import ProfileFormatError
from inspector.store.profiles.model import Profile
from inspector.store.profiles.sections import (
    AUTH_MODES,
    TRANSPORTS,
    AuthMode,
    AuthSettings,
    ClientCapabilitySwitches,
    EnvVar,
    Header,
    HttpSettings,
    Root,
    SamplingAutoReply,
    SecretSlot,
    StdioSettings,
    TimeoutSettings,
    TransportKind,
)
from inspector.store.profiles.sections import SecretKind as SecretKind
from inspector.store.profiles.store import (
    FORMAT_VERSION,
    PROFILES_FILENAME,
    ProfileStore,
    atomic_write_text,
    secret_key,
)

# The code lives in json_values, sections, model and store (package-internal);
# this is the public module and re-exports their public names.
__all__ = [
    "AUTH_MODES",
    "FORMAT_VERSION",
    "PROFILES_FILENAME",
    "TRANSPORTS",
    "AuthMode",
    "AuthSettings",
    "ClientCapabilitySwitches",
    "EnvVar",
    "Header",
    "HttpSettings",
    "Profile",
    "ProfileFormatError",
    "ProfileStore",
    "Root",
    "SamplingAutoReply",
    "SecretSlot",
    "StdioSettings",
    "TimeoutSettings",
    "TransportKind",
    "atomic_write_text",
    "secret_key",
]
