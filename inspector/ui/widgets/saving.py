"""Saving payloads to files the user picks, and temporary files for opening with the system's applications."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget

__all__ = ["ask_save_path", "save_payload", "write_temp_file"]


def ask_save_path(parent: QWidget | None, suggested_name: str, title: str = "Save as") -> Path | None:
    """Ask where to save (the platform dialog); None when the user cancels."""
    start = str(Path.home() / suggested_name)
    path, _selected = QFileDialog.getSaveFileName(parent, title, start, "All files (*)")
    return Path(path) if path else None


def save_payload(parent: QWidget | None, data: bytes | str, suggested_name: str) -> Path | None:
    """Ask for a path and write ``data`` there (text as UTF-8). None when cancelled; OSError when it fails."""
    path = ask_save_path(parent, suggested_name)
    if path is None:
        return None
    payload = data.encode("utf-8") if isinstance(data, str) else data
    path.write_bytes(payload)
    return path


def write_temp_file(data: bytes, suffix: str, prefix: str = "mcp-inspector-") -> Path:
    """Write ``data`` to a new private temporary file (kept for the system application to read) and return it."""
    handle, name = tempfile.mkstemp(suffix=suffix, prefix=prefix)
    with os.fdopen(handle, "wb") as stream:
        stream.write(data)
    return Path(name)
