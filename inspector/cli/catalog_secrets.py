"""Where the secret values of catalog entries live: the OS keyring, never the catalog file.

A secret value is written into the catalog as an empty string, the official inspector's own placeholder
for "held by a secret store": every ``env`` value of a stdio entry (the official treats them all as secrets)
and the value of every header whose name looks secret (``Authorization``, ``X-Api-Key``, ``Cookie``, ...:
:func:`~inspector.cli.catalog_entries.is_sensitive_header`; the official writes those in plaintext, we do
not). The value goes to our keyring (service ``mcp-inspector-desktop``) under
``catalog/<catalog path>/<entry>/<env|header|oauth>/<name>``.

Reading an empty placeholder back, our keyring is asked first, then the official inspector's secret store
(its keyring service ``mcp-inspector``, or its unencrypted secrets file ``~/.mcp-inspector/secrets.json``,
``$MCP_INSPECTOR_SECRET_FILE`` or ``$MCP_STORAGE_DIR/secrets.json``), so that entries the official CLI added
run here too. Nothing here writes to the official's store.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

from inspector.cli.catalog_entries import entry_type, is_sensitive_header
from inspector.store.secrets import SecretStore

__all__ = [
    "OFFICIAL_SERVICE",
    "CatalogSecrets",
    "Field",
    "official_secret",
    "secret_fields",
]

OFFICIAL_SERVICE: Final = "mcp-inspector"
_STORE_ENV: Final = "MCP_INSPECTOR_SECRET_STORE"
_FILE_ENV: Final = "MCP_INSPECTOR_SECRET_FILE"
_STORAGE_DIR_ENV: Final = "MCP_STORAGE_DIR"
_MAX_SECRETS_FILE: Final = 4 * 1024 * 1024

Field = tuple[str, str]
"""(kind, name): ``("env", "API_KEY")``, ``("header", "Authorization")``, ``("oauth", "clientSecret")``."""


def secret_fields(entry: Mapping[str, Any]) -> list[Field]:
    """The secrets an entry refers to: every env variable of a stdio entry, every secret-looking header, the
    OAuth client secret of an entry with ``oauth``."""
    fields: list[Field] = []
    env = entry.get("env")
    if entry_type(entry) == "stdio" and isinstance(env, dict):
        fields += [("env", str(key)) for key in env]
    headers = entry.get("headers")
    if isinstance(headers, dict):
        fields += [("header", str(key)) for key in headers if is_sensitive_header(str(key))]
    if isinstance(entry.get("oauth"), dict):  # (its client secret is kept out of the file altogether)
        fields.append(("oauth", "clientSecret"))
    return fields


def _official_field(kind: str, name: str) -> str | None:
    if kind == "env":
        return f"env:{name}"
    if kind == "oauth" and name == "clientSecret":
        return "oauth-client-secret"
    return None  # the official keeps headers in the file


def _secrets_file(environ: Mapping[str, str]) -> Path:
    override = (environ.get(_FILE_ENV) or "").strip()
    if override:
        return Path(override)
    storage = (environ.get(_STORAGE_DIR_ENV) or "").strip()
    if storage:
        return Path(storage) / "secrets.json"
    home = environ.get("HOME") or environ.get("USERPROFILE") or "."
    return Path(home) / ".mcp-inspector" / "secrets.json"


def _from_official_file(account: str, environ: Mapping[str, str]) -> str | None:
    path = _secrets_file(environ)
    try:
        with path.open("rb") as handle:
            raw = handle.read(_MAX_SECRETS_FILE + 1)
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError):
        return None
    if len(raw) > _MAX_SECRETS_FILE or not isinstance(data, dict) or data.get("encryption") != "none":
        return None  # an encrypted store needs the official's passphrase handling: not read here
    secrets = data.get("secrets")
    value = secrets.get(account) if isinstance(secrets, dict) else None
    return value if isinstance(value, str) else None


def official_secret(
    server: str,
    kind: str,
    name: str,
    *,
    environ: Mapping[str, str] | None = None,
    keyring_store: SecretStore | None = None,
) -> str | None:
    """The value the official inspector's secret store holds for one field of entry ``server`` (None: none)."""
    env = os.environ if environ is None else environ
    field = _official_field(kind, name)
    if field is None:
        return None
    account = f"{server}:{field}"
    choice = (env.get(_STORE_ENV) or "").strip().lower()
    if choice == "memory":
        return None
    if choice in ("", "keyring"):
        store = keyring_store if keyring_store is not None else SecretStore(service=OFFICIAL_SERVICE)
        value = store.get(account)
        if value:
            return value
    if choice in ("", "file"):
        return _from_official_file(account, env)
    return None


class CatalogSecrets:
    """The secrets of the entries of one catalog file, in our keyring."""

    def __init__(
        self,
        catalog: Path,
        store: SecretStore | None = None,
        *,
        official: bool = True,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.catalog = catalog
        self.store = store if store is not None else SecretStore()
        self._official = official
        self._environ = environ

    @property
    def persistent(self) -> bool:
        """Whether values put here outlive this process (an OS keyring answers)."""
        return self.store.persistent

    @property
    def reason(self) -> str | None:
        return self.store.reason

    def key(self, server: str, kind: str, name: str) -> str:
        return f"catalog/{self.catalog}/{server}/{kind}/{name}"

    def put(self, server: str, kind: str, name: str, value: str) -> None:
        self.store.set(self.key(server, kind, name), value)

    def get(self, server: str, kind: str, name: str) -> str | None:
        """Ours first, then (env values and the client secret) what the official inspector stored."""
        value = self.store.get(self.key(server, kind, name))
        if value is not None:
            return value
        if not self._official:
            return None
        return official_secret(server, kind, name, environ=self._environ)

    def delete(self, server: str, fields: Iterable[Field]) -> None:
        for kind, name in fields:
            self.store.delete(self.key(server, kind, name))

    def move(self, old: str, new: str, fields: Iterable[Field]) -> None:
        """Carry the values of ``fields`` from entry ``old`` to ``new`` (also those the official held)."""
        for kind, name in fields:
            value = self.get(old, kind, name)
            if value is not None:
                self.put(new, kind, name, value)
            self.store.delete(self.key(old, kind, name))
