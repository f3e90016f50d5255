"""SecretStore: the OS keyring when it works, session memory (never a file) when it does not."""

from __future__ import annotations

import keyring
import keyring.backend
import keyring.backends.fail
import keyring.backends.null
import keyring.errors
import pytest

from inspector.store.secrets import SERVICE_NAME, SESSION_ONLY_MESSAGE, SecretStore


class DictKeyring(keyring.backend.KeyringBackend):
    """An in-memory keyring backend owned by these tests."""

    priority = -5  # never chosen by keyring's own backend detection

    def __init__(self) -> None:
        super().__init__()
        self.passwords: dict[tuple[str, str], str] = {}
        self.calls: list[str] = []

    def get_password(self, service: str, username: str) -> str | None:
        self.calls.append("get")
        return self.passwords.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.calls.append("set")
        self.passwords[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.calls.append("delete")
        try:
            del self.passwords[(service, username)]
        except KeyError:
            raise keyring.errors.PasswordDeleteError(username) from None


class LockedKeyring(DictKeyring):
    """Raises on every use, like a locked collection or a dead D-Bus."""

    def get_password(self, service: str, username: str) -> str | None:
        raise keyring.errors.KeyringLocked("collection is locked")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise keyring.errors.KeyringLocked("collection is locked")


class ReadOnlyKeyring(DictKeyring):
    """Answers reads but fails to store."""

    def set_password(self, service: str, username: str, password: str) -> None:
        raise keyring.errors.PasswordSetError("cannot store")


def test_keyring_backend_round_trip() -> None:
    backend = DictKeyring()
    store = SecretStore(backend)
    assert store.available and store.persistent
    assert store.message is None and store.reason is None
    store.set("profile/1/env/API_KEY", "s3cr3t")
    assert backend.passwords[(SERVICE_NAME, "profile/1/env/API_KEY")] == "s3cr3t"
    assert store.get("profile/1/env/API_KEY") == "s3cr3t"
    assert store.get("profile/1/env/OTHER") is None
    store.delete("profile/1/env/API_KEY")
    assert store.get("profile/1/env/API_KEY") is None
    store.delete("profile/1/env/API_KEY")  # deleting what is not there is fine


def test_copy() -> None:
    store = SecretStore(DictKeyring())
    store.set("a", "value")
    assert store.copy("a", "b") is True
    assert store.get("b") == "value"
    assert store.copy("missing", "c") is False
    assert store.get("c") is None


def test_custom_service_name() -> None:
    backend = DictKeyring()
    SecretStore(backend, service="other-app").set("k", "v")
    assert backend.passwords == {("other-app", "k"): "v"}


@pytest.mark.parametrize(
    "backend",
    [keyring.backends.null.Keyring(), keyring.backends.fail.Keyring(), LockedKeyring()],
    ids=["null", "fail", "locked"],
)
def test_no_keyring_keeps_secrets_for_the_session(backend: keyring.backend.KeyringBackend) -> None:
    store = SecretStore(backend)
    assert not store.available
    assert not store.persistent
    assert store.message is not None and store.message.startswith(SESSION_ONLY_MESSAGE)
    assert store.reason
    store.set("k", "v")
    assert store.get("k") == "v"
    assert store.copy("k", "k2") and store.get("k2") == "v"
    store.delete("k")
    assert store.get("k") is None
    # a new process (a new store) does not see them: nothing was persisted anywhere
    assert SecretStore(backend).get("k2") is None


def test_backend_failing_later_switches_to_memory() -> None:
    backend = ReadOnlyKeyring()
    store = SecretStore(backend)
    assert store.available  # reads work, so the probe passes
    store.set("k", "v")  # the write fails: memory from now on
    assert not store.persistent
    assert store.message is not None and "PasswordSetError" in store.message
    assert store.get("k") == "v"
    assert backend.passwords == {}


def test_default_backend_is_the_process_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = DictKeyring()
    monkeypatch.setattr(keyring, "get_keyring", lambda: backend)
    store = SecretStore()
    store.set("x", "y")
    assert backend.passwords == {(SERVICE_NAME, "x"): "y"}
    assert "DictKeyring" in store.backend_name


def test_broken_keyring_configuration_is_not_fatal(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom() -> keyring.backend.KeyringBackend:
        raise RuntimeError("bad keyringrc")

    monkeypatch.setattr(keyring, "get_keyring", boom)
    store = SecretStore()
    assert not store.available
    assert store.message is not None and "bad keyringrc" in store.message
    store.set("a", "b")
    assert store.get("a") == "b"
    assert store.backend_name == "none"
