"""Where the inspector keeps its files: profiles in the config dir, recordings in the data dir.

Both roots follow the platform conventions (via platformdirs) unless an environment variable
points elsewhere: ``MCP_INSPECTOR_CONFIG_DIR`` and ``MCP_INSPECTOR_DATA_DIR`` (tests set them to a
temporary directory). Directories are created on first use.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

__all__ = ["APP_NAME", "CONFIG_DIR_ENV", "DATA_DIR_ENV", "config_dir", "data_dir", "recordings_dir"]

APP_NAME = "mcp-inspector-desktop"
CONFIG_DIR_ENV = "MCP_INSPECTOR_CONFIG_DIR"
DATA_DIR_ENV = "MCP_INSPECTOR_DATA_DIR"


def _override(variable: str) -> Path | None:
    value = os.environ.get(variable, "").strip()
    if not value:
        return None
    return Path(value).expanduser()


def _ensure(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def config_dir() -> Path:
    """Profiles and settings. ``$MCP_INSPECTOR_CONFIG_DIR`` wins over the platform default."""
    path = _override(CONFIG_DIR_ENV) or platformdirs.user_config_path(APP_NAME, appauthor=False)
    return _ensure(path)


def data_dir() -> Path:
    """Data the inspector produces. ``$MCP_INSPECTOR_DATA_DIR`` wins over the platform default."""
    path = _override(DATA_DIR_ENV) or platformdirs.user_data_path(APP_NAME, appauthor=False)
    return _ensure(path)


def recordings_dir() -> Path:
    """One SQLite file per session lives here."""
    return _ensure(data_dir() / "recordings")
