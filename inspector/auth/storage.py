"""OAuth tokens and client registrations per server, kept in the OS keyring (never in a file).

:class:`KeyringTokenStorage` is the SDK's ``TokenStorage`` for one MCP server. It keeps two secrets under
:data:`inspector.store.secrets.SERVICE_NAME`:

* ``oauth/<resource>/tokens`` - the token response, when the access token expires (an absolute time, so
  a restart knows whether to refresh), the client id it was issued to, and the authorization server's
  metadata (public, but needed to refresh after a restart without rediscovering);
* ``oauth/<resource>/client`` - the client information from dynamic registration or a CIMD URL.

``<resource>`` is the server's canonical URL (RFC 8707: lower-case scheme and host, no fragment). With
no usable keyring, :class:`~inspector.store.secrets.SecretStore` keeps them in memory for the session
and :attr:`KeyringTokenStorage.message` says so. A pre-registered client (id and secret the user typed)
is passed in and never written here: the profile keeps its secret.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any, Final

from mcp.shared.auth import OAuthClientInformationFull, OAuthMetadata, OAuthToken
from mcp.shared.auth_utils import resource_url_from_server_url
from pydantic import ValidationError

from inspector.store.secrets import SecretStore

__all__ = [
    "KeyringTokenStorage",
    "clear_stored_authorization",
    "default_secret_store",
    "storage_key",
]

log = logging.getLogger(__name__)

_PREFIX: Final = "oauth"
_shared_store: SecretStore | None = None


def default_secret_store() -> SecretStore:
    """The process-wide store for OAuth secrets (shared, so session-only memory is shared too)."""
    global _shared_store
    if _shared_store is None:
        _shared_store = SecretStore()
    return _shared_store


def storage_key(server_url: str, part: str) -> str:
    """The keyring key of one part (``tokens`` or ``client``) of a server's authorization."""
    return f"{_PREFIX}/{resource_url_from_server_url(server_url)}/{part}"


def clear_stored_authorization(server_url: str, *, secrets: SecretStore | None = None) -> None:
    """Forget the stored tokens and client registration of ``server_url`` (nothing stored is fine)."""
    store = secrets if secrets is not None else default_secret_store()
    for part in ("tokens", "client"):
        store.delete(storage_key(server_url, part))


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
    """

    def __init__(
        self,
        server_url: str,
        *,
        secrets: SecretStore | None = None,
        preregistered: OAuthClientInformationFull | None = None,
    ) -> None:
        self.server_url = server_url
        self.secrets = secrets if secrets is not None else default_secret_store()
        self.preregistered = preregistered
        self.server_metadata: OAuthMetadata | None = None
        """Authorization-server metadata to store with the next tokens (set by the provider)."""
        self._client_id: str | None = preregistered.client_id if preregistered is not None else None

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

    def stored_client_info(self) -> OAuthClientInformationFull | None:
        """The stored registration (not the pre-registered client), or None."""
        data = _load_json(self.secrets.get(storage_key(self.server_url, "client")), "client information")
        if data is None:
            return None
        try:
            return OAuthClientInformationFull.model_validate(data)
        except ValidationError:
            log.warning("ignoring invalid stored OAuth client information")
            return None

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

    def clear(self) -> None:
        """Forget this server's stored tokens and registration."""
        clear_stored_authorization(self.server_url, secrets=self.secrets)

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
        self.secrets.set(storage_key(self.server_url, "tokens"), json.dumps(record, separators=(",", ":")))

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        if self.preregistered is not None:
            return self.preregistered
        info = self.stored_client_info()
        if info is not None:
            self._client_id = info.client_id
        return info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self._client_id = client_info.client_id
        data = client_info.model_dump(mode="json", exclude_none=True)
        self.secrets.set(storage_key(self.server_url, "client"), json.dumps(data, separators=(",", ":")))
