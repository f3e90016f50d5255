"""inspector.auth.storage: client registrations keyed by the issuer of the authorization server that issued them."""

from __future__ import annotations

import json

from keyringkit import MemoryKeyring
from mcp.shared.auth import OAuthClientInformationFull, OAuthMetadata, OAuthToken
from test_auth_world import run

from inspector.auth.storage import KeyringTokenStorage, clear_stored_authorization, registration_key, storage_key
from inspector.store.secrets import SERVICE_NAME, SecretStore

URL = "https://mcp.example/mcp"
AS1, AS2 = "https://as-one.example", "https://as-two.example/tenant"


def _client(client_id: str, issuer: str | None) -> OAuthClientInformationFull:
    return OAuthClientInformationFull(client_id=client_id, client_secret=f"{client_id}-secret", issuer=issuer)


def _metadata(issuer: str) -> OAuthMetadata:
    return OAuthMetadata.model_validate(
        {"issuer": issuer, "authorization_endpoint": f"{issuer}/a", "token_endpoint": f"{issuer}/t"}
    )


def _keys(keyring: MemoryKeyring) -> set[str]:
    return {name for service, name in keyring.passwords if service == SERVICE_NAME}


def test_registrations_at_two_servers_are_kept_apart_and_never_cross(memory_keyring: MemoryKeyring) -> None:
    storage = KeyringTokenStorage(URL, secrets=SecretStore())

    async def go() -> None:
        await storage.set_client_info(_client("one", AS1))
        await storage.set_client_info(_client("two", AS2))

    run(go)
    assert _keys(memory_keyring) == {
        registration_key(URL, AS1),
        registration_key(URL, AS2),
        storage_key(URL, "issuers"),
    }
    one, two = storage.registration_for(AS1), storage.registration_for(AS2)
    assert one is not None and one.client_id == "one"
    assert two is not None and two.client_id == "two"
    assert storage.registration_for("https://as-three.example") is None
    assert storage.registration_for(f"{AS1}/") is not None  # a root issuer with and without its slash
    assert storage.stored_issuers() == [AS1, AS2]
    assert storage.stored_client_info() is not None and storage.stored_client_info().client_id == "two"  # type: ignore[union-attr]


def test_the_registration_of_the_stored_tokens_server_is_the_one_loaded(memory_keyring: MemoryKeyring) -> None:
    storage = KeyringTokenStorage(URL, secrets=SecretStore())

    async def go() -> OAuthClientInformationFull | None:
        await storage.set_client_info(_client("one", AS1))
        await storage.set_client_info(_client("two", AS2))
        storage.server_metadata = _metadata(AS1)
        await storage.set_tokens(OAuthToken(access_token="at"))
        return await KeyringTokenStorage(URL, secrets=SecretStore()).get_client_info()

    loaded = run(go)
    assert loaded is not None and loaded.client_id == "one"


def test_a_registration_with_no_issuer_and_a_legacy_record(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    # what earlier versions wrote: the one registration under .../client, the SDK's issuer stamp inside
    legacy = _client("old", AS1).model_dump(mode="json", exclude_none=True)
    store.set(storage_key(URL, "client"), json.dumps(legacy))
    storage = KeyringTokenStorage(URL, secrets=store)
    found = storage.registration_for(AS1)
    assert found is not None and found.client_id == "old"
    assert storage.registration_for(AS2) is None

    run(lambda: storage.set_client_info(_client("new", AS1)))
    assert storage_key(URL, "client") not in _keys(memory_keyring)  # moved under its issuer
    again = storage.registration_for(AS1)
    assert again is not None and again.client_id == "new"

    run(lambda: storage.set_client_info(_client("unbound", None)))
    unbound = storage._load_client(storage_key(URL, "client"))
    assert unbound is not None and unbound.client_id == "unbound"
    assert storage.registration_for(AS2) is None  # a registration bound to no server is not offered for one


def test_clear_forgets_every_registration(memory_keyring: MemoryKeyring) -> None:
    storage = KeyringTokenStorage(URL, secrets=SecretStore())

    async def go() -> None:
        await storage.set_client_info(_client("one", AS1))
        await storage.set_client_info(_client("two", AS2))
        await storage.set_client_info(_client("unbound", None))
        await storage.set_tokens(OAuthToken(access_token="at"))

    run(go)
    clear_stored_authorization(URL)
    assert _keys(memory_keyring) == set()


def test_the_dpop_binding_is_stored_with_the_tokens(memory_keyring: MemoryKeyring) -> None:
    storage = KeyringTokenStorage(URL, secrets=SecretStore())
    storage.token_binding = "jkt-value"
    run(lambda: storage.set_tokens(OAuthToken(access_token="at")))
    assert KeyringTokenStorage(URL, secrets=SecretStore()).stored_token_binding() == "jkt-value"
    storage.token_binding = None
    run(lambda: storage.set_tokens(OAuthToken(access_token="at2")))
    assert storage.stored_token_binding() is None
