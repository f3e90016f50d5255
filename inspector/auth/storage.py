"""OAuth tokens and client registrations per server, kept in the OS keyring (never in a file).

:class:`KeyringTokenStorage` is the SDK's ``TokenStorage`` for one MCP server. It keeps these secrets under
:data:`inspector.store.secrets.SERVICE_NAME`:

* ``oauth/<resource>/tokens`` - the token response, when the access token expires (an absolute time, so
  a restart knows whether to refresh), the client id it was issued to, the authorization server's
  metadata (public, but needed to refresh after a restart without rediscovering; its ``issuer`` says which
  registration the tokens belong to) and, for a DPoP-bound token, the thumbprint of the key it is bound to;
* ``oauth/<resource>/client/<issuer>`` - the client registration (dynamic registration or a CIMD URL) at the
  authorization server ``<issuer>``: registrations are keyed by the issuer that issued them (MCP 2026-07-28,
  client registration: credentials are bound to their authorization server, never presented to another, and
  the client registers again when the server's protected-resource metadata names a new one);
* ``oauth/<resource>/issuers`` - the issuers that have a registration stored, most recently used last;
* ``oauth/<resource>/client`` - a registration bound to no issuer (registered at the MCP server's origin
  for lack of metadata), and where earlier versions kept the one registration.

``<resource>`` is the server's canonical URL (RFC 8707: lower-case scheme and host, no fragment). With
no usable keyring, :class:`~inspector.store.secrets.SecretStore` keeps them in memory for the session
and :attr:`KeyringTokenStorage.message` says so. A pre-registered client (id and secret the user typed)
is passed in and never written here: the profile keeps its secret.

The keyring cannot be enumerated, so the storage of the process-wide store (the window's, the CLI's) also keeps
the index of servers that have tokens (:mod:`inspector.auth.stored_index`, URLs only) up to date:
``mcp-inspect --cli --list-stored-auth`` reads it.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any, Final

from mcp.client.auth.utils import issuers_match
from mcp.shared.auth import OAuthClientInformationFull, OAuthMetadata, OAuthToken
from mcp.shared.auth_utils import resource_url_from_server_url
from pydantic import ValidationError

from inspector.auth.stored_index import StoredServerIndex, default_server_index
from inspector.store.secrets import SecretStore

__all__ = [
    "KeyringTokenStorage",
    "clear_stored_authorization",
    "default_secret_store",
    "registration_key",
    "storage_key",
]

log = logging.getLogger(__name__)

_PREFIX: Final = "oauth"
_shared_store: SecretStore | None = None
_DEFAULT_INDEX: Final = StoredServerIndex(Path())
"""Stands for "the config dir's index when the secrets are the process-wide store" (resolved when used)."""


def default_secret_store() -> SecretStore:
    """The process-wide store for OAuth secrets (shared, so session-only memory is shared too)."""
    global _shared_store
    if _shared_store is None:
        _shared_store = SecretStore()
    return _shared_store


def storage_key(server_url: str, part: str) -> str:
    """The keyring key of one part (``tokens``, ``client``, ``issuers``) of a server's authorization."""
    return f"{_PREFIX}/{resource_url_from_server_url(server_url)}/{part}"


def registration_key(server_url: str, issuer: str) -> str:
    """The keyring key of the client registration at the authorization server ``issuer``."""
    return storage_key(server_url, f"client/{issuer}")


def _issuer_index(store: SecretStore, server_url: str) -> list[str]:
    raw = store.get(storage_key(server_url, "issuers"))
    try:
        value = json.loads(raw) if raw is not None else []
    except ValueError:
        return []
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _index_for(secrets: SecretStore | None, index: StoredServerIndex | None) -> StoredServerIndex | None:
    """The server index that goes with ``secrets``: the config dir's for the process-wide store (what the window
    and the CLI use), else only the one passed."""
    if index is not _DEFAULT_INDEX:
        return index
    return default_server_index() if secrets is None or secrets is _shared_store else None


def clear_stored_authorization(
    server_url: str, *, secrets: SecretStore | None = None, index: StoredServerIndex | None = _DEFAULT_INDEX
) -> None:
    """Forget the stored tokens and every client registration of ``server_url`` (nothing stored is fine), and
    take it off the index of servers with stored tokens (:mod:`inspector.auth.stored_index`)."""
    store = secrets if secrets is not None else default_secret_store()
    for issuer in _issuer_index(store, server_url):
        store.delete(registration_key(server_url, issuer))
    for part in ("tokens", "client", "issuers"):
        store.delete(storage_key(server_url, part))
    listed = _index_for(secrets, index)
    if listed is not None:
        listed.remove(server_url)


def _load_json(raw: str | None, what: str) -> dict[str, Any] | None:
    if raw is None:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        log.warning("ignoring unreadable stored OAuth %s", what)
        return None
    return value if isinstance(value, dict) else None


class KeyringTokenStorage:
    """The SDK's ``TokenStorage`` for one server, backed by :class:`SecretStore`.

    ``preregistered`` is a client the user configured (id, secret): :meth:`get_client_info` returns it
    instead of any stored registration, and stored tokens issued to another client are ignored.
    ``index`` lists the server while it has tokens in the OS keyring (default: the config dir's index when
    ``secrets`` is the process-wide store, else none).
    """

    def __init__(
        self,
        server_url: str,
        *,
        secrets: SecretStore | None = None,
        preregistered: OAuthClientInformationFull | None = None,
        index: StoredServerIndex | None = _DEFAULT_INDEX,
    ) -> None:
        self.server_url = server_url
        self._index = index
        self.secrets = secrets if secrets is not None else default_secret_store()
        self.preregistered = preregistered
        self.server_metadata: OAuthMetadata | None = None
        """Authorization-server metadata to store with the next tokens (set by the provider)."""
        self.token_binding: str | None = None
        """The DPoP key thumbprint the next tokens are bound to (set by the provider; None: bearer tokens)."""
        self._client_id: str | None = preregistered.client_id if preregistered is not None else None

    def use_client(self, client: OAuthClientInformationFull) -> None:
        """The provider now uses ``client`` (a stored registration): the next tokens are recorded as its."""
        self._client_id = client.client_id

    def use_preregistered(self, client: OAuthClientInformationFull | None) -> None:
        """Answer with ``client`` (a pre-registered client) instead of any stored registration."""
        self.preregistered = client
        if client is not None:
            self._client_id = client.client_id

    # -- what the user should know -----------------------------------------------------------------

    @property
    def persistent(self) -> bool:
        """True when tokens outlive this process (they are in the OS keyring)."""
        return self.secrets.persistent

    @property
    def message(self) -> str | None:
        """A sentence for the user when tokens are kept for this session only (None otherwise)."""
        return self.secrets.message

    # -- synchronous views (for set-up code and the GUI) ---------------------------------------------

    def _record(self) -> dict[str, Any] | None:
        return _load_json(self.secrets.get(storage_key(self.server_url, "tokens")), "tokens")

    def _load_client(self, key: str) -> OAuthClientInformationFull | None:
        data = _load_json(self.secrets.get(key), "client information")
        if data is None:
            return None
        try:
            return OAuthClientInformationFull.model_validate(data)
        except ValidationError:
            log.warning("ignoring invalid stored OAuth client information")
            return None

    def stored_issuers(self) -> list[str]:
        """The issuers a registration is stored for, most recently used last."""
        return _issuer_index(self.secrets, self.server_url)

    def registration_for(self, issuer: str) -> OAuthClientInformationFull | None:
        """The stored registration at the authorization server ``issuer`` (never one bound to another)."""
        for known in self.stored_issuers():
            if issuers_match(known, issuer):
                info = self._load_client(registration_key(self.server_url, known))
                if info is not None:
                    return info
        legacy = self._load_client(storage_key(self.server_url, "client"))
        if legacy is not None and legacy.issuer is not None and issuers_match(legacy.issuer, issuer):
            return legacy
        return None

    def current_issuer(self) -> str | None:
        """The authorization server of the stored tokens, else the one registered with last."""
        metadata = self.stored_server_metadata()
        if metadata is not None:
            return str(metadata.issuer)
        issuers = self.stored_issuers()
        return issuers[-1] if issuers else None

    def stored_client_info(self) -> OAuthClientInformationFull | None:
        """The stored registration for the current authorization server (see :meth:`current_issuer`), else the
        one bound to no issuer; never the pre-registered client. None: nothing stored."""
        issuer = self.current_issuer()
        if issuer is not None:
            info = self.registration_for(issuer)
            if info is not None:
                return info
        return self._load_client(storage_key(self.server_url, "client"))

    def stored_token_binding(self) -> str | None:
        """The DPoP key thumbprint the stored tokens are bound to (None: bearer tokens, or none stored)."""
        record = self._record()
        value = record.get("dpop_jkt") if record else None
        return value if isinstance(value, str) else None

    def expires_at(self) -> float | None:
        """When the stored access token expires (epoch seconds), or None (unknown or none stored)."""
        record = self._record()
        value = record.get("expires_at") if record else None
        return float(value) if isinstance(value, int | float) else None

    def stored_server_metadata(self) -> OAuthMetadata | None:
        """The authorization-server metadata stored with the tokens, or None."""
        record = self._record()
        data = record.get("server_metadata") if record else None
        if not isinstance(data, dict):
            return None
        try:
            return OAuthMetadata.model_validate(data)
        except ValidationError:
            return None

    @property
    def index(self) -> StoredServerIndex | None:
        """The index of servers with stored tokens this storage keeps up to date (None: none)."""
        if self._index is _DEFAULT_INDEX:
            self._index = default_server_index() if self.secrets is _shared_store else None
        return self._index

    def stored_tokens(self) -> OAuthToken | None:
        """The stored token response, whoever it was issued to (None: none stored, or unreadable)."""
        record = self._record()
        if record is None:
            return None
        try:
            return OAuthToken.model_validate(record.get("token"))
        except ValidationError:
            return None

    def has_stored_token(self) -> bool:
        """Whether an access token is stored for this server (expired or not)."""
        tokens = self.stored_tokens()
        return tokens is not None and bool(tokens.access_token)

    def clear(self) -> None:
        """Forget this server's stored tokens and registration."""
        clear_stored_authorization(self.server_url, secrets=self.secrets, index=self.index)

    # -- TokenStorage --------------------------------------------------------------------------------

    async def get_tokens(self) -> OAuthToken | None:
        record = self._record()
        if record is None:
            return None
        if self.preregistered is not None and record.get("client_id") != self.preregistered.client_id:
            return None  # issued to another client (e.g. an earlier dynamic registration)
        try:
            return OAuthToken.model_validate(record.get("token"))
        except ValidationError:
            log.warning("ignoring invalid stored OAuth tokens")
            return None

    async def set_tokens(self, tokens: OAuthToken) -> None:
        expires_at = time.time() + int(tokens.expires_in) if tokens.expires_in is not None else None
        record: dict[str, Any] = {
            "token": tokens.model_dump(mode="json", exclude_none=True),
            "expires_at": expires_at,
            "client_id": self._client_id,
            "stored_at": time.time(),
        }
        if self.server_metadata is not None:
            record["server_metadata"] = self.server_metadata.model_dump(mode="json", exclude_none=True)
        if self.token_binding is not None:
            record["dpop_jkt"] = self.token_binding
        self.secrets.set(storage_key(self.server_url, "tokens"), json.dumps(record, separators=(",", ":")))
        index = self.index
        if index is not None and self.secrets.persistent:  # session-only tokens are nobody else's to find
            index.add(self.server_url)

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        if self.preregistered is not None:
            return self.preregistered
        info = self.stored_client_info()
        if info is not None:
            self._client_id = info.client_id
        return info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self._client_id = client_info.client_id
        data = json.dumps(client_info.model_dump(mode="json", exclude_none=True), separators=(",", ":"))
        issuer = client_info.issuer
        if issuer is None:
            self.secrets.set(storage_key(self.server_url, "client"), data)
            return
        issuers = [known for known in self.stored_issuers() if not issuers_match(known, issuer)]
        for known in self.stored_issuers():
            if known != issuer and issuers_match(known, issuer):
                self.secrets.delete(registration_key(self.server_url, known))
        self.secrets.set(registration_key(self.server_url, issuer), data)
        self.secrets.set(storage_key(self.server_url, "issuers"), json.dumps([*issuers, issuer]))
        legacy = self._load_client(storage_key(self.server_url, "client"))
        if legacy is not None and legacy.issuer is not None and issuers_match(legacy.issuer, issuer):
            self.secrets.delete(storage_key(self.server_url, "client"))  # moved under its issuer
