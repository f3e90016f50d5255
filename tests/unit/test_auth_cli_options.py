"""The CLI's OAuth grant flags (inspector.cli.auth_options via parse_args) and the GrantOptions they build."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from inspector.auth import DPoPMode, Grant
from inspector.cli.args import parse_args
from inspector.cli.auth_options import IDP_CLIENT_SECRET_ENV, grant_options
from inspector.cli.errors import UsageError

URL = "https://mcp.example/mcp"


def _usage(argv: list[str]) -> str:
    with pytest.raises(UsageError) as info:
        parse_args(argv)
    return info.value.message


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["python", "s.py", "--method", "ping", "--grant", "client-credentials"], "is for HTTP targets"),
        ([URL, "--method", "ping", "--grant", "password"], "--grant must be one of"),
        ([URL, "--method", "ping", "--dpop", "sometimes"], "--dpop must be one of"),
        ([URL, "--method", "ping", "--client-key", "k.pem"], "needs the --client-id"),
        ([URL, "--method", "ping", "--client-id", "c", "--client-secret", "s", "--client-key", "k"], "one of them"),
        ([URL, "--method", "ping", "--client-key-alg", "ES256"], "needs --client-key"),
        ([URL, "--method", "ping", "--issuer", "https://as"], "give --client-id too"),
        ([URL, "--method", "ping", "--client-id", "c", "--issuer", "ftp://as"], "--issuer must be an https"),
        ([URL, "--method", "ping", "--idp-issuer", "https://idp"], "need --id-token-file"),
        ([URL, "--method", "ping", "--id-token-file", "t"], "--idp-issuer or --idp-token-endpoint"),
    ],
)
def test_usage_errors(argv: list[str], message: str) -> None:
    assert message in _usage(argv)


def test_defaults_build_no_grant_options() -> None:
    opts = parse_args([URL, "--method", "ping"])
    assert not opts.oauth.any_grant_setting and grant_options(opts.oauth) is None


def test_flags_build_grant_options(tmp_path: Path) -> None:
    key = ec.generate_private_key(ec.SECP384R1())
    pem = tmp_path / "client.pem"
    pem.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    token = tmp_path / "id-token"
    token.write_text("a.b.c")
    argv = [URL, "--method", "ping", "--client-id", "app", "--client-key", str(pem), "--issuer", "https://as.example"]
    argv += ["--grant", "client_credentials", "--dpop", "always", "--id-token-file", str(token)]
    argv += ["--idp-issuer", "https://idp.example", "--idp-client-id", "idp-app"]
    opts = parse_args(argv)
    assert opts.oauth.issuer == "https://as.example"
    options = grant_options(opts.oauth, {IDP_CLIENT_SECRET_ENV: "idp-secret"})
    assert options is not None
    assert options.grant is Grant.CLIENT_CREDENTIALS and options.dpop is DPoPMode.ALWAYS
    assert options.client_key is not None and options.client_key.algorithm == "ES384"
    assert options.enterprise is not None and options.enterprise.id_token.read() == "a.b.c"
    assert options.enterprise.idp_client_secret == "idp-secret"


def test_an_unusable_key_file_is_a_usage_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pem"
    bad.write_text("not a key")
    opts = parse_args([URL, "--method", "ping", "--client-id", "c", "--client-key", str(bad)])
    with pytest.raises(UsageError, match=r"--client-key .*bad\.pem: not a usable PEM private key"):
        grant_options(opts.oauth)
    missing = parse_args([URL, "--method", "ping", "--client-id", "c", "--client-key", str(tmp_path / "none")])
    with pytest.raises(UsageError, match="cannot read"):
        grant_options(missing.oauth)
