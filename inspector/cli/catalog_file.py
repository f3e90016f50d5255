"""mcpServers files on disk: the writable server catalog and read-only session configs.

The catalog is the official inspector's ``~/.mcp-inspector/mcp.json`` (or ``--catalog PATH``, or
``$MCP_CATALOG_PATH``): one JSON object with an ``mcpServers`` object of named entries. Reading it creates it
when it is missing (``{"mcpServers": {}}``, mode 0600), as the official CLI does. A ``--config`` file is read
only: it must exist and is never written.

Writing replaces the file atomically (a temp file in the same directory, fsync, rename) with mode 0600.
Everything this module does not change is kept: keys next to ``mcpServers``, every other entry exactly as it
was read, unknown keys inside the entry being changed. The JSON is written indented by two spaces; what counts
is the content, not the formatting (comments are not JSON and are not accepted).

Every problem is a :class:`~inspector.cli.errors.UsageError` (exit 1) naming the file, and for a syntax error
the line and column.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from inspector.cli.errors import CliFailure, UsageError

__all__ = [
    "CATALOG_ENV",
    "CLIENT_CONFIG_ENV",
    "EMPTY_CATALOG",
    "CatalogDocument",
    "catalog_path",
    "client_config_path",
    "default_catalog_path",
    "home_dir",
    "load_json_file",
    "read_catalog",
    "read_config",
    "write_catalog",
]

CATALOG_ENV: Final = "MCP_CATALOG_PATH"
CLIENT_CONFIG_ENV: Final = "MCP_CLIENT_CONFIG_PATH"
EMPTY_CATALOG: Final = '{\n  "mcpServers": {}\n}\n'
"""What a catalog that did not exist starts as."""

SERVERS_KEY: Final = "mcpServers"
_ALIAS_KEY: Final = "servers"  # VS Code's spelling, accepted when reading a --config file


def home_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$HOME`` (``%USERPROFILE%``), as the official inspector finds ``~/.mcp-inspector``."""
    env = os.environ if environ is None else environ
    return Path(env.get("HOME") or env.get("USERPROFILE") or ".")


def default_catalog_path(environ: Mapping[str, str] | None = None) -> Path:
    """``$MCP_CATALOG_PATH``, else ``~/.mcp-inspector/mcp.json`` (absolute)."""
    env = os.environ if environ is None else environ
    chosen = (env.get(CATALOG_ENV) or "").strip()
    return Path(os.path.abspath(chosen)) if chosen else Path(os.path.abspath(home_dir(env) / ".mcp-inspector/mcp.json"))


def catalog_path(option: str | None, environ: Mapping[str, str] | None = None) -> Path:
    """The catalog a command works on: ``--catalog`` (an empty one counts as not given), else the default."""
    given = (option or "").strip()
    return Path(os.path.abspath(given)) if given else default_catalog_path(environ)


def client_config_path(option: str | None, environ: Mapping[str, str] | None = None) -> Path:
    """``--client-config``, else ``$MCP_CLIENT_CONFIG_PATH``, else ``~/.mcp-inspector/storage/client.json``."""
    env = os.environ if environ is None else environ
    given = (option or "").strip() or (env.get(CLIENT_CONFIG_ENV) or "").strip()
    if given:
        return Path(os.path.abspath(given))
    return Path(os.path.abspath(home_dir(env) / ".mcp-inspector/storage/client.json"))


def load_json_file(path: str | Path, what: str = "config file") -> Any:
    """Read and parse a JSON file; errors say which file and where."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UsageError(f"{what} not found: {path}") from None
    except IsADirectoryError:
        raise UsageError(f"{what} is a directory: {path}") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise UsageError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
    except RecursionError:
        raise UsageError(f"{path}: invalid JSON: nested too deeply") from None


@dataclass
class CatalogDocument:
    """One mcpServers file as read: the whole JSON object (unknown keys included) and where it lives."""

    path: Path
    data: dict[str, Any]
    writable: bool = True

    @property
    def servers(self) -> dict[str, Any]:
        """The entries by name: the ``mcpServers`` object (of a read-only config, ``servers`` of a VS Code file
        too), as it is in the file; change it through :meth:`set_entry`."""
        for key in (SERVERS_KEY,) if self.writable else (SERVERS_KEY, _ALIAS_KEY):
            value = self.data.get(key)
            if isinstance(value, dict):
                return value
        return {}

    def names(self) -> list[str]:
        """Entry names in file order (entries that are not objects are skipped, as the official does)."""
        return [name for name, value in self.servers.items() if isinstance(value, dict)]

    def entry(self, name: str) -> dict[str, Any] | None:
        value = self.servers.get(name)
        return value if isinstance(value, dict) else None

    def set_entry(self, name: str, entry: dict[str, Any], *, replacing: str | None = None) -> None:
        """Add ``name`` at the end, or put it where ``replacing`` (default: ``name``) was, keeping the order."""
        servers = self.data.get(SERVERS_KEY)
        if not isinstance(servers, dict):
            servers = {}
        old = replacing if replacing is not None else name
        if old in servers:
            servers = {
                (name if key == old else key): (entry if key == old else value) for key, value in servers.items()
            }
        else:
            servers = {**servers, name: entry}
        self.data[SERVERS_KEY] = servers

    def remove_entry(self, name: str) -> None:
        servers = self.data.get(SERVERS_KEY)
        if isinstance(servers, dict):
            self.data[SERVERS_KEY] = {key: value for key, value in servers.items() if key != name}


def _document(data: Any, path: Path, *, writable: bool) -> CatalogDocument:
    if not isinstance(data, dict):
        raise UsageError(f'{path}: the top level must be a JSON object with "{SERVERS_KEY}"')
    for key in (SERVERS_KEY, _ALIAS_KEY):
        if key in data:
            if key == _ALIAS_KEY and writable:
                continue  # a catalog is the official's format: only mcpServers holds its entries
            if not isinstance(data[key], dict):
                raise UsageError(f'{path}: "{key}" must be an object of server entries')
            return CatalogDocument(path, data, writable)
    if writable:
        return CatalogDocument(path, data, writable)
    raise UsageError(f'{path}: no "{SERVERS_KEY}" object')


def read_config(path: str | Path) -> CatalogDocument:
    """A read-only session config (``--config``): it must exist; ``servers`` (VS Code) is accepted too."""
    resolved = Path(os.path.abspath(path))
    return _document(load_json_file(resolved), resolved, writable=False)


def read_catalog(path: Path, *, create: bool = True, for_write: bool = False) -> CatalogDocument:
    """The writable catalog at ``path``. A missing file is created empty when ``create`` (reads, as the
    official), else it reads as an empty catalog and only the next write creates it. A file without
    ``mcpServers`` is an error to read from; a write adds the key (keeping the others)."""
    if not path.exists() and not path.is_symlink():
        if create:
            _seed(path)
        return CatalogDocument(path, {SERVERS_KEY: {}}, True)
    document = _document(load_json_file(path, "catalog"), path, writable=True)
    if SERVERS_KEY not in document.data and not for_write:
        raise UsageError(f'{path}: no "{SERVERS_KEY}" object (a catalog holds its servers in "{SERVERS_KEY}")')
    return document


def _seed(path: Path) -> None:
    from inspector.store.profiles import atomic_write_text

    try:
        atomic_write_text(path, EMPTY_CATALOG, mode=0o600)
    except OSError as exc:
        raise _write_failure(path, exc) from None


def write_catalog(document: CatalogDocument) -> None:
    """Replace the catalog file with ``document`` (atomic, mode 0600)."""
    from inspector.store.profiles import atomic_write_text

    assert document.writable, "a --config file is never written"
    text = json.dumps(document.data, indent=2, ensure_ascii=False) + "\n"
    try:
        atomic_write_text(document.path, text, mode=0o600)
    except OSError as exc:
        raise _write_failure(document.path, exc) from None


def _write_failure(path: Path, exc: OSError) -> CliFailure:
    from inspector.store.paths import describe_os_error

    return CliFailure("error", f"cannot write the catalog {path}: {describe_os_error(exc)}")
