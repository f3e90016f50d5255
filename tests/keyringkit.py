"""An in-memory keyring backend for tests (no test touches the real keyring)."""

from __future__ import annotations

import keyring.backend
import keyring.errors

__all__ = ["MemoryKeyring"]


class MemoryKeyring(keyring.backend.KeyringBackend):
    """A dict-backed keyring; `passwords[(service, username)] = password`."""

    priority = 1

    def __init__(self) -> None:
        super().__init__()
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.passwords.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.passwords[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        try:
            del self.passwords[(service, username)]
        except KeyError:
            raise keyring.errors.PasswordDeleteError(f"no password for {service!r}/{username!r}") from None
