"""inspector.auth.storage: tokens and registrations in the keyring per server, never in a file."""

from __future__ import annotations

import json
import time
from pathlib import Path

import keyring.backends.null
from keyringkit import MemoryKeyring
from mcp.shared.auth import OAuthClientInformationFull, OAuthMetadata, OAuthToken
from pydantic import AnyUrl
from test_auth_world import run

from inspector.auth.storage import KeyringTokenStorage, clear_stored_authorization, storage_key
from inspector.store.secrets import SERVICE_NAME, SecretStore

URL = "https://MCP.Example.com/mcp"
CLIENT = OAuthClientInformationFull(
    client_id="c1", client_secret="sec-1", redirect_uris=[AnyUrl("http://127.0.0.1:1/cb")]
)
TOKEN = OAuthToken(access_token="access-secret-value", refresh_token="refresh-secret-value", expires_in=60, scope="a b")


def _files_containing(root: Path, needle: str) -> list[Path]:
    if not root.exists():
        return []
    return [p for p in root.rglob("*") if p.is_file() and needle.encode() in p.read_bytes()]


def test_round_trip_in_the_keyring_and_nothing_on_disk(
    memory_keyring: MemoryKeyring, session_dirs: dict[str, Path]
) -> None:
    storage = KeyringTokenStorage(URL, secrets=SecretStore())
    assert storage.persistent and storage.message is None

    async def go() -> tuple[OAuthToken | None, OAuthClientInformationFull | None]:
        await storage.set_client_info(CLIENT)
        await storage.set_tokens(TOKEN)
        again = KeyringTokenStorage(URL, secrets=SecretStore())
        return await again.get_tokens(), await again.get_client_info()

    tokens, client = run(go)
    assert tokens is not None and tokens.access_token == TOKEN.access_token and tokens.refresh_token
    assert client is not None and client.client_secret == "sec-1"
    keys = {username for service, username in memory_keyring.passwords if service == SERVICE_NAME}
    assert keys == {"oauth/https://mcp.example.com/mcp/tokens", "oauth/https://mcp.example.com/mcp/client"}
    expires_at = storage.expires_at()
    assert expires_at is not None and time.time() < expires_at <= time.time() + 61
    for root in session_dirs.values():
        for needle in ("access-secret-value", "refresh-secret-value", "sec-1"):
            assert _files_containing(root, needle) == []


def test_server_metadata_is_kept_with_the_tokens(memory_keyring: MemoryKeyring) -> None:
    storage = KeyringTokenStorage(URL, secrets=SecretStore())
    storage.server_metadata = OAuthMetadata.model_validate(
        {
            "issuer": "https://as.test",
            "authorization_endpoint": "https://as.test/a",
            "token_endpoint": "https://as.test/t",
        }
    )
    run(lambda: storage.set_tokens(TOKEN))
    restored = KeyringTokenStorage(URL, secrets=SecretStore()).stored_server_metadata()
    assert restored is not None and str(restored.token_endpoint) == "https://as.test/t"


def test_preregistered_client_wins_and_foreign_tokens_are_ignored(memory_keyring: MemoryKeyring) -> None:
    storage = KeyringTokenStorage(URL, secrets=SecretStore())

    async def store() -> None:
        await storage.set_client_info(CLIENT)
        await storage.set_tokens(TOKEN)

    run(store)
    mine = OAuthClientInformationFull(client_id="configured", redirect_uris=[AnyUrl("http://127.0.0.1:2/cb")])
    pre = KeyringTokenStorage(URL, secrets=SecretStore(), preregistered=mine)
    assert run(pre.get_client_info) is mine
    assert run(pre.get_tokens) is None  # issued to c1, not to the configured client
    run(lambda: pre.set_tokens(TOKEN))
    assert run(pre.get_tokens) is not None


def test_clear_stored_authorization(memory_keyring: MemoryKeyring) -> None:
    storage = KeyringTokenStorage(URL, secrets=SecretStore())

    async def store() -> None:
        await storage.set_client_info(CLIENT)
        await storage.set_tokens(TOKEN)

    run(store)
    other = KeyringTokenStorage("https://other.test/mcp", secrets=SecretStore())
    run(lambda: other.set_tokens(TOKEN))
    clear_stored_authorization(URL, secrets=SecretStore())
    assert run(storage.get_tokens) is None and run(storage.get_client_info) is None
    assert run(other.get_tokens) is not None
    clear_stored_authorization(URL, secrets=SecretStore())  # nothing stored is fine


def test_without_a_keyring_tokens_live_in_memory_and_the_user_is_told(session_dirs: dict[str, Path]) -> None:
    secrets = SecretStore(keyring.backends.null.Keyring())
    storage = KeyringTokenStorage(URL, secrets=secrets)
    run(lambda: storage.set_tokens(TOKEN))
    assert not storage.persistent
    assert storage.message is not None and "session only" in storage.message
    fetched = run(storage.get_tokens)
    assert fetched is not None and fetched.access_token == TOKEN.access_token
    for root in session_dirs.values():
        assert _files_containing(root, "access-secret-value") == []


def test_unreadable_records_are_ignored(memory_keyring: MemoryKeyring) -> None:
    secrets = SecretStore()
    secrets.set(storage_key(URL, "tokens"), "{not json")
    secrets.set(storage_key(URL, "client"), json.dumps({"no": "client_id"}))
    storage = KeyringTokenStorage(URL, secrets=secrets)
    assert run(storage.get_tokens) is None
    assert run(storage.get_client_info) is None
    assert storage.expires_at() is None and storage.stored_server_metadata() is None
