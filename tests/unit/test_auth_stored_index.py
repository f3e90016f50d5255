"""inspector.auth.stored_index: the list of servers with tokens in the keyring (URLs only), kept by the storage."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import keyring.backends.null
import pytest
from keyringkit import MemoryKeyring
from mcp.shared.auth import OAuthMetadata, OAuthToken
from test_auth_world import run

from inspector.auth.revocation import revoke_stored_grant
from inspector.auth.storage import KeyringTokenStorage, clear_stored_authorization, default_secret_store
from inspector.auth.stored_index import INDEX_FILENAME, StoredServerIndex, default_server_index
from inspector.store.secrets import SecretStore

URL = "https://MCP.Example.com/mcp"
CANONICAL = "https://mcp.example.com/mcp"
TOKEN = OAuthToken(access_token="access-secret-value", refresh_token="refresh-secret-value", expires_in=60)


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MCP_INSPECTOR_CONFIG_DIR", str(tmp_path))
    return tmp_path


def test_index_adds_canonical_urls_once_and_removes_them(tmp_path: Path) -> None:
    index = StoredServerIndex(tmp_path / "sub" / INDEX_FILENAME)
    assert index.servers() == []
    index.add(URL)
    index.add(CANONICAL)
    index.add("http://127.0.0.1:9/mcp")
    assert index.servers() == ["http://127.0.0.1:9/mcp", CANONICAL]
    index.remove(URL)
    assert index.servers() == ["http://127.0.0.1:9/mcp"]
    index.remove(URL)  # not listed: fine
    assert json.loads(index.path.read_text())["servers"] == ["http://127.0.0.1:9/mcp"]


@pytest.mark.parametrize("content", [b"not json", b"[1, 2]", b'{"servers": "x"}', b"\xff\xfe"])
def test_an_unreadable_index_lists_nothing(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / INDEX_FILENAME
    path.write_bytes(content)
    index = StoredServerIndex(path)
    assert index.servers() == []
    index.add(URL)  # and is replaced by a good one
    assert index.servers() == [CANONICAL]


def test_the_shared_store_indexes_servers_with_tokens_and_forgets_them(
    config: Path, memory_keyring: MemoryKeyring
) -> None:
    storage = KeyringTokenStorage(URL)  # the process-wide store, as the window and the CLI use
    assert storage.secrets is default_secret_store() and not storage.has_stored_token()
    run(lambda: storage.set_tokens(TOKEN))
    assert storage.has_stored_token()
    assert default_server_index().servers() == [CANONICAL]
    text = (config / INDEX_FILENAME).read_text()
    assert "secret-value" not in text  # URLs only
    clear_stored_authorization(URL)  # the window's "clear stored authorization"
    assert default_server_index().servers() == [] and not KeyringTokenStorage(URL).has_stored_token()


def test_the_storage_clear_takes_the_server_off_the_index(config: Path, memory_keyring: MemoryKeyring) -> None:
    storage = KeyringTokenStorage(URL)
    run(lambda: storage.set_tokens(TOKEN))
    storage.clear()
    assert default_server_index().servers() == []


def test_a_store_of_its_own_is_not_indexed_unless_asked(config: Path, memory_keyring: MemoryKeyring) -> None:
    run(lambda: KeyringTokenStorage(URL, secrets=SecretStore()).set_tokens(TOKEN))
    assert not (config / INDEX_FILENAME).exists()
    own = StoredServerIndex(config / "own.json")
    run(lambda: KeyringTokenStorage(URL, secrets=SecretStore(), index=own).set_tokens(TOKEN))
    assert own.servers() == [CANONICAL]


def test_session_only_tokens_are_not_indexed(config: Path) -> None:
    own = StoredServerIndex(config / "own.json")
    storage = KeyringTokenStorage(URL, secrets=SecretStore(backend=keyring.backends.null.Keyring()), index=own)  # type: ignore[no-untyped-call]
    run(lambda: storage.set_tokens(TOKEN))
    assert storage.has_stored_token()  # for this session
    assert own.servers() == []  # nobody else could find them


def _stored(metadata: Mapping[str, object] | None) -> KeyringTokenStorage:
    storage = KeyringTokenStorage(URL, secrets=SecretStore(backend=MemoryKeyring()))
    if metadata is not None:
        storage.server_metadata = OAuthMetadata.model_validate(metadata)
    run(lambda: storage.set_tokens(TOKEN))
    return storage


AS = {"issuer": "https://as.test", "authorization_endpoint": "https://as.test/a", "token_endpoint": "https://as.test/t"}


def test_revocation_is_skipped_and_says_why() -> None:
    empty = KeyringTokenStorage(URL, secrets=SecretStore(backend=MemoryKeyring()))
    assert revoke_stored_grant(empty).detail == "no_tokens"
    assert revoke_stored_grant(_stored(None)).detail == "no_metadata"
    outcome = revoke_stored_grant(_stored(AS))
    assert (outcome.status, outcome.detail) == ("skipped", "no_endpoint")


def test_revocation_refuses_an_endpoint_that_breaks_the_url_rule() -> None:
    outcome = revoke_stored_grant(_stored({**AS, "revocation_endpoint": "http://as.test/revoke"}))
    assert outcome.status == "failed" and "https" in outcome.detail and outcome.endpoint == "http://as.test/revoke"
