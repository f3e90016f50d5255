"""A keyring backend shared by a test and the processes it starts: a JSON file, so secrets outlive one process.

A child Python process uses it with ``PYTHON_KEYRING_BACKEND=filekeyring.FileKeyring``, ``PYTHONPATH`` holding
this directory and ``MCP_TEST_KEYRING_FILE`` naming the file: :func:`subprocess_env` (with a config dir too) or
:func:`keyring_env` build that environment. The test itself reads the same file with ``FileKeyring(path)``.
Only for tests: the file holds the secrets in plaintext in a temporary directory, never the user's keyring.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import keyring.backend
import keyring.errors

__all__ = ["FILE_ENV", "FileKeyring", "keyring_env", "stored", "subprocess_env"]

FILE_ENV = "MCP_TEST_KEYRING_FILE"


def _env_path() -> Path:
    value = os.environ.get(FILE_ENV)
    if not value:
        raise keyring.errors.KeyringError(f"{FILE_ENV} is not set")
    return Path(value)


class FileKeyring(keyring.backend.KeyringBackend):
    """``service\\0username -> password`` in a JSON file: ``path``, else ``$MCP_TEST_KEYRING_FILE``."""

    priority = 1

    def __init__(self, path: Path | None = None) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self._file = path

    @property
    def file(self) -> Path:
        return self._file if self._file is not None else _env_path()

    def _load(self) -> dict[str, str]:
        try:
            data = json.loads(self.file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        return {str(k): str(v) for k, v in data.items()}

    def _save(self, data: dict[str, str]) -> None:
        self.file.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.file.with_name(self.file.name + ".tmp")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, self.file)

    def get_password(self, service: str, username: str) -> str | None:
        return self._load().get(f"{service}\0{username}")

    def set_password(self, service: str, username: str, password: str) -> None:
        data = self._load()
        data[f"{service}\0{username}"] = password
        self._save(data)

    def delete_password(self, service: str, username: str) -> None:
        data = self._load()
        if data.pop(f"{service}\0{username}", None) is None:
            raise keyring.errors.PasswordDeleteError(username)
        self._save(data)

    def usernames(self, service: str) -> list[str]:
        """Every username stored for ``service``."""
        return [key.partition("\0")[2] for key in self._load() if key.partition("\0")[0] == service]

    def items(self) -> dict[tuple[str, str], str]:
        """Everything stored: ``(service, username) -> password``."""
        out: dict[tuple[str, str], str] = {}
        for key, value in self._load().items():
            service, _, username = key.partition("\0")
            out[(service, username)] = value
        return out


def keyring_env(file: Path) -> dict[str, str]:
    """The environment that makes a child Python process use ``file`` as its keyring."""
    here = str(Path(__file__).resolve().parent)
    path = os.environ.get("PYTHONPATH", "")
    return {
        "PYTHON_KEYRING_BACKEND": "filekeyring.FileKeyring",
        "PYTHONPATH": here + (os.pathsep + path if path else ""),
        FILE_ENV: str(file),
    }


def subprocess_env(keyring_file: Path, config_dir: Path) -> dict[str, str]:
    """:func:`keyring_env` plus our config dir (profiles, the index of stored servers) at ``config_dir``."""
    return {**keyring_env(keyring_file), "MCP_INSPECTOR_CONFIG_DIR": str(config_dir)}


def stored(file: Path) -> dict[tuple[str, str], str]:
    """What the keyring file holds: ``(service, username) -> password``."""
    return FileKeyring(file).items()
