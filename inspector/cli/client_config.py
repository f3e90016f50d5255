"""The install-level client config of the official inspector: ``~/.mcp-inspector/storage/client.json``.

``--client-config PATH`` (else ``$MCP_CLIENT_CONFIG_PATH``) names another one. The file is read when the CLI
connects to a server (not for ``servers/*`` and the other offline commands); a missing file is fine, a file
that is not JSON or not the right shape is a usage error (exit 1), as with the official CLI. It is never
written. What is used from it, for HTTP servers only, and only where the command line says nothing:

- ``cimd``: ``{"enabled": true, "clientMetadataUrl": "https://..."}`` - the Client ID Metadata Document URL
  to identify this client by (as ``--client-metadata-url``), unless ``--client-id`` names a client.
- ``enterpriseManagedAuth``: ``{"enabled": true?, "idp": {"issuer": URL, "clientId": ID}}`` - the enterprise
  IdP for enterprise-managed authorization (as ``--idp-issuer`` and ``--idp-client-id``), used when
  ``--id-token-file`` gives the ID token. ``idp.clientSecret`` is not read: give it in
  ``$MCP_INSPECT_IDP_CLIENT_SECRET``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from inspector.cli.catalog_file import client_config_path, load_json_file
from inspector.cli.errors import UsageError

if TYPE_CHECKING:
    from inspector.cli.args import CliOptions

__all__ = ["ClientConfig", "apply_client_config", "load_client_config"]


@dataclass(frozen=True)
class ClientConfig:
    """What the CLI takes from client.json (None: not set or not enabled)."""

    cimd_url: str | None = None
    idp_issuer: str | None = None
    idp_client_id: str | None = None


def _object(value: Any, where: str, path: Path) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise UsageError(f"{path}: {where} must be an object")
    return value


def _bool(obj: dict[str, Any], key: str, where: str, path: Path, *, required: bool) -> bool | None:
    value = obj.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, bool):
        raise UsageError(f"{path}: {where}.{key} must be true or false")
    return value


def _string(obj: dict[str, Any], key: str, where: str, path: Path, *, required: bool) -> str | None:
    value = obj.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise UsageError(f"{path}: {where}.{key} must be a string")
    return value


def _http_url(value: str, where: str, path: Path) -> str:
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError(f"{path}: {where} must be an http:// or https:// URL, not {value!r}")
    return value.strip()


def load_client_config(path: Path) -> ClientConfig:
    """Read and check client.json (a missing file: nothing set)."""
    if not path.exists():
        return ClientConfig()
    data = _object(load_json_file(path, "client config"), "the top level", path)
    cimd_url = idp_issuer = idp_client_id = None
    if "cimd" in data:
        cimd = _object(data["cimd"], "cimd", path)
        enabled = _bool(cimd, "enabled", "cimd", path, required=True)
        url = _string(cimd, "clientMetadataUrl", "cimd", path, required=True) or ""
        if enabled:
            parts = urlsplit(url.strip())
            if parts.scheme != "https" or not parts.netloc or parts.path in ("", "/"):
                raise UsageError(
                    f"{path}: cimd.clientMetadataUrl must be an https:// URL with a path "
                    f"(like https://example.com/oauth/client.json), not {url!r}"
                )
            cimd_url = url.strip()
    if "enterpriseManagedAuth" in data:
        ema = _object(data["enterpriseManagedAuth"], "enterpriseManagedAuth", path)
        enabled = _bool(ema, "enabled", "enterpriseManagedAuth", path, required=False)
        idp = _object(ema.get("idp"), "enterpriseManagedAuth.idp", path)
        issuer = _http_url(
            _string(idp, "issuer", "enterpriseManagedAuth.idp", path, required=True) or "",
            "enterpriseManagedAuth.idp.issuer",
            path,
        )
        client_id = _string(idp, "clientId", "enterpriseManagedAuth.idp", path, required=True) or ""
        if not client_id:
            raise UsageError(f"{path}: enterpriseManagedAuth.idp.clientId must not be empty")
        _string(idp, "clientSecret", "enterpriseManagedAuth.idp", path, required=False)
        if enabled is not False:
            idp_issuer, idp_client_id = issuer, client_id
    return ClientConfig(cimd_url=cimd_url, idp_issuer=idp_issuer, idp_client_id=idp_client_id)


def apply_client_config(opts: CliOptions) -> ClientConfig:
    """Read the client config of this run and fill in what the command line left open (HTTP servers only)."""
    config = load_client_config(client_config_path(opts.client_config))
    if opts.url is None:
        return config
    if config.cimd_url and opts.client_metadata_url is None and opts.client_id is None:
        opts.client_metadata_url = config.cimd_url
    grant = opts.oauth
    if config.idp_issuer and grant.id_token_file is not None and grant.idp_issuer is None:
        if grant.idp_token_endpoint is None:
            grant = dataclasses.replace(grant, idp_issuer=config.idp_issuer)
        if grant.idp_client_id is None:
            grant = dataclasses.replace(grant, idp_client_id=config.idp_client_id)
        opts.oauth = grant
    return config
