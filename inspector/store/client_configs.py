"""Where other MCP clients keep their server lists on this machine, and which of those files exist.

The window's empty state lists what :func:`find_client_configs` finds (path and number of servers) and imports a
file through :mod:`inspector.store.imports`. Looked for, per platform:

- Claude Desktop: ``claude_desktop_config.json`` in ``$XDG_CONFIG_HOME/Claude`` (Linux, ``~/.config`` by
  default), ``~/Library/Application Support/Claude`` (macOS), ``%APPDATA%\\Claude`` (Windows);
- VS Code: the user ``mcp.json`` and ``settings.json`` (its ``"mcp"`` object) under ``Code/User`` in the same
  folders, and the workspace ``.vscode/mcp.json`` of the current directory;
- Cursor: ``~/.cursor/mcp.json`` and the project's ``.cursor/mcp.json``;
- Claude Code: ``~/.claude.json`` (``mcpServers`` and ``projects.*.mcpServers``) and the project's ``.mcp.json``.

``HOME`` (``USERPROFILE`` on Windows), ``XDG_CONFIG_HOME`` and ``APPDATA`` are honoured, so tests point them at a
temporary folder. Files that hold more than MCP servers (VS Code's ``settings.json``, ``~/.claude.json``) are
listed only when they hold some; the MCP files are listed when they exist, with their errors if they do not parse.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from inspector.store.imports import ImportResult, import_file

__all__ = ["CLIENT_LABELS", "ClientConfig", "ClientName", "FoundConfig", "candidate_configs", "find_client_configs"]

ClientName = Literal["claude", "vscode", "cursor", "claude-code"]
Scope = Literal["user", "project"]

CLIENT_LABELS: Final[dict[str, str]] = {
    "claude": "Claude Desktop",
    "vscode": "VS Code",
    "cursor": "Cursor",
    "claude-code": "Claude Code",
}


@dataclass(frozen=True)
class ClientConfig:
    """A place a client keeps servers (the file may not exist)."""

    client: ClientName
    path: Path
    scope: Scope = "user"
    shared: bool = False
    """The file holds the client's other settings too: listed only when it has servers."""

    @property
    def label(self) -> str:
        return CLIENT_LABELS[self.client] + (" (this folder)" if self.scope == "project" else "")


@dataclass(frozen=True)
class FoundConfig:
    """A config file that exists, read."""

    config: ClientConfig
    result: ImportResult

    @property
    def path(self) -> Path:
        return self.config.path

    @property
    def label(self) -> str:
        return self.config.label

    @property
    def count(self) -> int:
        """How many servers the file holds."""
        return len(self.result.entries)


def _home(env: Mapping[str, str], platform: str) -> Path:
    key = "USERPROFILE" if platform == "win32" else "HOME"
    value = env.get(key) or env.get("HOME")
    return Path(value) if value else Path.home()


def _app_dirs(env: Mapping[str, str], platform: str, home: Path) -> Path:
    """The folder the desktop apps (Claude, Code) keep their settings in."""
    if platform == "darwin":
        return home / "Library" / "Application Support"
    if platform == "win32":
        appdata = env.get("APPDATA")
        return Path(appdata) if appdata else home / "AppData" / "Roaming"
    xdg = env.get("XDG_CONFIG_HOME")
    return Path(xdg) if xdg else home / ".config"


def _current_folder(home: Path) -> Path:
    try:
        return Path.cwd()
    except OSError:  # the current folder was deleted: no project files then
        return home


def candidate_configs(
    cwd: Path | None = None, *, env: Mapping[str, str] | None = None, platform: str | None = None
) -> list[ClientConfig]:
    """Every place looked at, in the order shown (user files first, then the current folder's)."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    home = _home(env, platform)
    apps = _app_dirs(env, platform, home)
    folder = cwd if cwd is not None else _current_folder(home)
    code_user = apps / "Code" / "User"
    places = [
        ClientConfig("claude", apps / "Claude" / "claude_desktop_config.json"),
        ClientConfig("vscode", code_user / "mcp.json"),
        ClientConfig("vscode", code_user / "settings.json", shared=True),
        ClientConfig("cursor", home / ".cursor" / "mcp.json"),
        ClientConfig("claude-code", home / ".claude.json", shared=True),
        ClientConfig("vscode", folder / ".vscode" / "mcp.json", "project"),
        ClientConfig("cursor", folder / ".cursor" / "mcp.json", "project"),
        ClientConfig("claude-code", folder / ".mcp.json", "project"),
    ]
    unique: list[ClientConfig] = []
    seen: set[Path] = set()
    for place in places:  # the current folder may be the home folder: ~/.cursor/mcp.json once
        key = place.path.absolute()
        if key not in seen:
            seen.add(key)
            unique.append(place)
    return unique


def find_client_configs(
    cwd: Path | None = None, *, env: Mapping[str, str] | None = None, platform: str | None = None
) -> list[FoundConfig]:
    """The config files that exist, each read (never raises; a bad file carries its errors)."""
    found: list[FoundConfig] = []
    for config in candidate_configs(cwd, env=env, platform=platform):
        if not config.path.is_file():
            continue
        result = import_file(config.path, format=config.client)
        if config.shared and not result.entries:
            continue  # settings without MCP servers: nothing to offer
        found.append(FoundConfig(config, result))
    return found
