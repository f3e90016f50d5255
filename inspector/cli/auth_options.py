"""The CLI's OAuth grant options: which grant, keys and assertions, DPoP, the enterprise IdP (URL targets).

Parsed here without loading the OAuth engine (``--help`` stays fast); :func:`grant_options` builds the
engine's :class:`inspector.auth.GrantOptions` from them, reading the files they name, when a connection needs it.
Secrets never come from the command line: keys and JWTs from files, the IdP client secret from
``$MCP_INSPECT_IDP_CLIENT_SECRET``.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal

from inspector.cli.errors import UsageError
from inspector.protocol.sizes import format_size

if TYPE_CHECKING:
    from inspector.auth import GrantOptions

__all__ = [
    "AUTH_OPTIONS",
    "GRANTS",
    "IDP_CLIENT_SECRET_ENV",
    "AuthCliOptions",
    "add_auth_arguments",
    "given_auth_flags",
    "grant_options",
    "parse_auth_options",
]

IDP_CLIENT_SECRET_ENV: Final = "MCP_INSPECT_IDP_CLIENT_SECRET"
GRANTS: Final = ("auto", "authorization-code", "client-credentials", "jwt-bearer", "enterprise")
DPOP_MODES: Final = ("auto", "always", "off")
_MAX_KEY_BYTES: Final = 64 * 1024

AUTH_OPTIONS: Final[dict[str, Literal["one"]]] = {
    "--issuer": "one",
    "--grant": "one",
    "--client-key": "one",
    "--client-key-alg": "one",
    "--assertion-file": "one",
    "--dpop": "one",
    "--id-token-file": "one",
    "--idp-issuer": "one",
    "--idp-token-endpoint": "one",
    "--idp-client-id": "one",
}
"""The options below and their arity, for the CLI's own argv splitting."""

ENVIRONMENT_HELP: Final = f"  {IDP_CLIENT_SECRET_ENV}  the client secret of --idp-client-id at the enterprise IdP"


@dataclass(frozen=True, slots=True)
class AuthCliOptions:
    issuer: str | None = None
    grant: str = "auto"
    client_key: str | None = None
    client_key_alg: str | None = None
    assertion_file: str | None = None
    dpop: str = "auto"
    id_token_file: str | None = None
    idp_issuer: str | None = None
    idp_token_endpoint: str | None = None
    idp_client_id: str | None = None

    @property
    def any_grant_setting(self) -> bool:
        """Whether anything beyond the defaults asks for the grant engine."""
        files_and_idp = (
            self.client_key,
            self.assertion_file,
            self.id_token_file,
            self.idp_issuer,
            self.idp_token_endpoint,
            self.idp_client_id,
        )
        return self.grant != "auto" or self.dpop != "auto" or any(value is not None for value in files_and_idp)


def add_auth_arguments(group: argparse._ArgumentGroup) -> None:
    group.add_argument(
        "--issuer",
        metavar="URL",
        help="the authorization server --client-id is registered at (its credentials are never sent to another one)",
    )
    group.add_argument(
        "--grant",
        metavar="GRANT",
        help=f"how to get tokens: {', '.join(GRANTS)} (default auto: authorization code; client credentials when the "
        "authorization server offers only that to a client with a secret or key; jwt-bearer with --assertion-file; "
        "enterprise with --id-token-file)",
    )
    group.add_argument(
        "--client-key", metavar="PEM-FILE", help="private key of --client-id: authenticate with private_key_jwt"
    )
    group.add_argument("--client-key-alg", metavar="ALG", help="its signing algorithm (default: from the key)")
    group.add_argument(
        "--assertion-file",
        metavar="FILE",
        help="JWT for the jwt-bearer grant (workload identity); read again for every token request",
    )
    group.add_argument(
        "--dpop",
        metavar="MODE",
        help="DPoP-bound tokens: auto (when the authorization server supports them; default), always, off",
    )
    group.add_argument(
        "--id-token-file",
        metavar="FILE",
        help="enterprise-managed authorization: your ID token from the enterprise IdP, exchanged there for an ID-JAG",
    )
    group.add_argument("--idp-issuer", metavar="URL", help="the enterprise IdP (its token endpoint is discovered)")
    group.add_argument("--idp-token-endpoint", metavar="URL", help="the enterprise IdP's token endpoint")
    group.add_argument(
        "--idp-client-id", metavar="ID", help=f"this client at the IdP (secret: ${IDP_CLIENT_SECRET_ENV})"
    )


def given_auth_flags(ns: argparse.Namespace) -> list[str]:
    """The options of this module given on the command line (they are for URL targets only)."""
    return [flag for flag in AUTH_OPTIONS if getattr(ns, flag[2:].replace("-", "_"), None) is not None]


def _url(value: str | None, flag: str) -> str | None:
    if value is None:
        return None
    text = value.strip()
    if not text.lower().startswith(("https://", "http://")):
        raise UsageError(f"{flag} must be an https:// URL (http:// only on loopback), not {value!r}")
    return text


def parse_auth_options(ns: argparse.Namespace) -> AuthCliOptions:
    grant = (ns.grant or "auto").strip().lower().replace("_", "-")
    if grant == "code":
        grant = "authorization-code"
    if grant not in GRANTS:
        raise UsageError(f"--grant must be one of {', '.join(GRANTS)}, not {ns.grant!r}")
    dpop = (ns.dpop or "auto").strip().lower()
    if dpop not in DPOP_MODES:
        raise UsageError(f"--dpop must be one of {', '.join(DPOP_MODES)}, not {ns.dpop!r}")
    if ns.client_key is not None and ns.client_id is None:
        raise UsageError("--client-key needs the --client-id it belongs to")
    if ns.client_key is not None and ns.client_secret is not None:
        raise UsageError("--client-key and --client-secret: a client authenticates with one of them")
    if ns.client_key_alg is not None and ns.client_key is None:
        raise UsageError("--client-key-alg needs --client-key")
    if ns.issuer is not None and ns.client_id is None:
        raise UsageError("--issuer names the authorization server of --client-id; give --client-id too")
    idp_given = any(v is not None for v in (ns.idp_issuer, ns.idp_token_endpoint, ns.idp_client_id))
    if idp_given and ns.id_token_file is None:
        raise UsageError("the --idp-* options need --id-token-file (your ID token from that IdP)")
    if ns.id_token_file is not None and ns.idp_issuer is None and ns.idp_token_endpoint is None:
        raise UsageError("--id-token-file needs the IdP: --idp-issuer or --idp-token-endpoint")
    return AuthCliOptions(
        issuer=_url(ns.issuer, "--issuer"),
        grant=grant,
        client_key=ns.client_key,
        client_key_alg=ns.client_key_alg,
        assertion_file=ns.assertion_file,
        dpop=dpop,
        id_token_file=ns.id_token_file,
        idp_issuer=_url(ns.idp_issuer, "--idp-issuer"),
        idp_token_endpoint=_url(ns.idp_token_endpoint, "--idp-token-endpoint"),
        idp_client_id=ns.idp_client_id,
    )


def _read_key(path: str) -> bytes:
    try:
        with Path(path).open("rb") as handle:
            data = handle.read(_MAX_KEY_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"--client-key: cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > _MAX_KEY_BYTES:
        raise UsageError(f"--client-key: {path} is larger than {format_size(_MAX_KEY_BYTES)}, not a PEM key")
    return data


def grant_options(opts: AuthCliOptions, environ: Mapping[str, str] | None = None) -> GrantOptions | None:
    """The engine's grant settings for these options (None: all defaults). UsageError for unusable files or
    settings (loads :mod:`inspector.auth`)."""
    if not opts.any_grant_setting:
        return None
    from inspector.auth import AssertionSource, ClientKey, DPoPMode, EnterpriseOptions, Grant, GrantOptions

    env = os.environ if environ is None else environ
    client_key = None
    if opts.client_key is not None:
        try:
            client_key = ClientKey.from_pem(_read_key(opts.client_key), opts.client_key_alg)
        except ValueError as exc:
            raise UsageError(f"--client-key {opts.client_key}: {exc}") from None
    try:
        assertion = AssertionSource(path=opts.assertion_file) if opts.assertion_file is not None else None
        enterprise = None
        if opts.id_token_file is not None:
            enterprise = EnterpriseOptions(
                id_token=AssertionSource(path=opts.id_token_file),
                idp_issuer=opts.idp_issuer,
                idp_token_endpoint=opts.idp_token_endpoint,
                idp_client_id=opts.idp_client_id,
                idp_client_secret=env.get(IDP_CLIENT_SECRET_ENV) or None,
            )
        return GrantOptions(
            grant=Grant.parse(opts.grant),
            client_key=client_key,
            assertion=assertion,
            enterprise=enterprise,
            dpop=DPoPMode(opts.dpop),
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
