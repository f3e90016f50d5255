"""A keyring and config dir shared by a test and the processes it starts, and a login made the window's way.

:class:`SharedStore` is a throw-away "OS keyring" (:mod:`filekeyring`) plus config dir: :meth:`SharedStore.env`
is the environment a CLI subprocess needs to use them. :func:`login_like_the_window` obtains a token for a
server in a separate process exactly as the window does (``build_oauth_auth(url)``: the process-wide store, so
the keyring and the index of stored servers), only without a browser (``auto_approve``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from filekeyring import FileKeyring, subprocess_env

__all__ = ["SharedStore", "login_like_the_window"]

_LOGIN = """
import asyncio, sys
import httpx2
from inspector.auth import build_oauth_auth

async def main(url):
    auth = build_oauth_auth(url, auto_approve=True)  # the default storage: the keyring, as the window's
    params = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "window", "version": "1"}}
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}
    headers = {"Accept": "application/json, text/event-stream"}
    async with httpx2.AsyncClient(auth=auth, timeout=30) as client:
        response = await client.post(url, json=body, headers=headers)
        assert response.status_code == 200, response.text

asyncio.run(main(sys.argv[1]))
"""


@dataclass(frozen=True)
class SharedStore:
    """A keyring file and a config dir under ``root``."""

    root: Path

    @property
    def keyring_file(self) -> Path:
        return self.root / "keyring.json"

    @property
    def config_dir(self) -> Path:
        return self.root / "config"

    def env(self) -> dict[str, str]:
        return subprocess_env(self.keyring_file, self.config_dir)

    def keyring(self) -> FileKeyring:
        return FileKeyring(self.keyring_file)

    def stored_keys(self) -> list[str]:
        return self.keyring().usernames("mcp-inspector-desktop") if self.keyring_file.exists() else []

    def tokens(self, resource: str) -> dict[str, Any] | None:
        raw = self.keyring().get_password("mcp-inspector-desktop", f"oauth/{resource}/tokens")
        return None if raw is None else dict(json.loads(raw)["token"])

    def indexed(self) -> list[str]:
        path = self.config_dir / "oauth-servers.json"
        return list(json.loads(path.read_text())["servers"]) if path.exists() else []


def login_like_the_window(url: str, store: SharedStore, timeout: float = 60) -> None:
    """Log in to ``url`` in another process the way the window does (the token lands in ``store``)."""
    env = {**os.environ, **store.env()}
    proc = subprocess.run(
        [sys.executable, "-c", _LOGIN, url],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
