"""Where the inspector keeps its files: profiles in the config dir, recordings in the data dir.

Both roots follow the platform conventions (via platformdirs) unless an environment variable
points elsewhere: ``MCP_INSPECTOR_CONFIG_DIR`` and ``MCP_INSPECTOR_DATA_DIR`` (tests set them to a
temporary directory). Directories are created on first use.

Asking for a directory never fails: ``config_dir()`` / ``data_dir()`` / ``recordings_dir()`` try to
create it and return the path either way. A directory that cannot be created or written shows up
where something is written there, as :class:`UnwritableDirectory` (an ``OSError`` whose text names the
directory and the system's reason: ``cannot write /x/y: Permission denied``), and up front through
:func:`storage_problems`, which the window and its start-up line use to say what is kept in memory only.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

import platformdirs

__all__ = [
    "APP_NAME",
    "CONFIG_DIR_ENV",
    "DATA_DIR_ENV",
    "UnwritableDirectory",
    "check_writable",
    "config_dir",
    "data_dir",
    "describe_os_error",
    "ensure_directory",
    "recordings_dir",
    "storage_problems",
]

APP_NAME = "mcp-inspector-desktop"
CONFIG_DIR_ENV = "MCP_INSPECTOR_CONFIG_DIR"
DATA_DIR_ENV = "MCP_INSPECTOR_DATA_DIR"


class UnwritableDirectory(OSError):
    """A directory the inspector needs to write into cannot be created or written.

    ``errno`` / ``strerror`` are the system's; ``directory`` is the directory (not the file in it).
    """

    def __init__(self, directory: Path, cause: OSError) -> None:
        super().__init__(cause.errno, cause.strerror or str(cause), str(directory))
        self.directory = directory
        self.cause = cause

    def __str__(self) -> str:
        return f"cannot write {self.directory}: {self.strerror}"


def describe_os_error(exc: OSError) -> str:
    """One line for a failed file operation: the directory and reason for :class:`UnwritableDirectory`,
    else the system's reason and the path it concerns (``Permission denied: /x/y.json``)."""
    if isinstance(exc, UnwritableDirectory):
        return str(exc)
    reason = exc.strerror or str(exc) or type(exc).__name__
    return f"{reason}: {exc.filename}" if exc.filename else reason


def _override(variable: str) -> Path | None:
    value = os.environ.get(variable, "").strip()
    if not value:
        return None
    return Path(value).expanduser()


def ensure_directory(path: Path) -> Path:
    """Create ``path`` (and its parents) if needed; :class:`UnwritableDirectory` when that fails."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UnwritableDirectory(path, exc) from exc
    return path


def _ensure(path: Path) -> Path:
    """Best effort: a directory that cannot be created is reported where it is written to."""
    with contextlib.suppress(OSError):
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


def check_writable(directory: Path) -> UnwritableDirectory | None:
    """Why files cannot be created in ``directory`` (created if missing), or None when they can.

    Creates and removes a probe file: permission bits do not tell (root, read-only mounts, /proc).
    """
    try:
        ensure_directory(directory)
        fd, probe = tempfile.mkstemp(prefix=".write-check-", dir=directory)
    except UnwritableDirectory as exc:
        return exc
    except OSError as exc:
        return UnwritableDirectory(directory, exc)
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
    return None


def storage_problems() -> list[str]:
    """One line per directory that cannot be written, saying what is kept in memory only (empty: all fine)."""
    problems: list[str] = []
    config = check_writable(config_dir())
    if config is not None:
        problems.append(f"profile and settings changes kept in memory only: {config}")
    recordings = check_writable(recordings_dir())
    if recordings is not None:
        problems.append(f"recording kept in memory only: {recordings}")
    return problems
