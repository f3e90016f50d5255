"""Which servers have OAuth tokens in the keyring: an index of server URLs (never tokens) in the config dir.

A keyring cannot be enumerated, so ``mcp-inspect --cli --list-stored-auth`` could not otherwise say which
servers the window (or an earlier login) stored tokens for. :class:`~inspector.auth.storage.KeyringTokenStorage`
adds a server's canonical URL here when it stores tokens in the OS keyring and removes it when the server's
authorization is cleared. The file is ``oauth-servers.json`` in the config dir::

    {"version": 1, "servers": ["https://mcp.example.com/mcp", ...]}

It holds nothing secret: readers check the keyring for each URL (the index may be stale - a keyring edited by
hand, a crash between the two writes), and a missing or unreadable index means "none known". Writing it never
fails a token store: a config dir that cannot be written is logged and the tokens stay in the keyring anyway.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Final

from mcp.shared.auth_utils import resource_url_from_server_url

__all__ = ["INDEX_FILENAME", "StoredServerIndex", "default_server_index"]

log = logging.getLogger(__name__)

INDEX_FILENAME: Final = "oauth-servers.json"
_VERSION: Final = 1
_MAX_INDEX_BYTES: Final = 4 * 1024 * 1024


class StoredServerIndex:
    """The list of server URLs with stored OAuth tokens, in one small JSON file (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def servers(self) -> list[str]:
        """The canonical server URLs listed, sorted (empty when the file is missing or unreadable)."""
        try:
            with self.path.open("rb") as handle:
                raw = handle.read(_MAX_INDEX_BYTES + 1)
        except OSError:
            return []
        if len(raw) > _MAX_INDEX_BYTES:
            log.warning("ignoring %s: larger than %d bytes", self.path, _MAX_INDEX_BYTES)
            return []
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            log.warning("ignoring %s: not a JSON document", self.path)
            return []
        listed = data.get("servers") if isinstance(data, dict) else None
        if not isinstance(listed, list):
            return []
        return sorted({item for item in listed if isinstance(item, str) and item})

    def add(self, server_url: str) -> None:
        """List ``server_url`` (as its canonical form, the keyring key's)."""
        key = resource_url_from_server_url(server_url)
        known = self.servers()
        if key not in known:
            self._write([*known, key])

    def remove(self, server_url: str) -> None:
        """Stop listing ``server_url`` (not listed is fine)."""
        key = resource_url_from_server_url(server_url)
        known = self.servers()
        if key in known:
            self._write([url for url in known if url != key])

    def _write(self, servers: list[str]) -> None:
        from inspector.store.profiles.store import atomic_write_text

        document = {"version": _VERSION, "servers": sorted(set(servers))}
        try:
            atomic_write_text(self.path, json.dumps(document, indent=1) + "\n", mode=0o600)
        except OSError as exc:
            log.warning("could not update the index of stored OAuth servers %s: %s", self.path, exc)


def default_server_index() -> StoredServerIndex:
    """The index in the config dir (``$MCP_INSPECTOR_CONFIG_DIR`` or the platform's)."""
    from inspector.store.paths import config_dir

    return StoredServerIndex(config_dir() / INDEX_FILENAME)
