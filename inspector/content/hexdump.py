"""Hex dumps of binary payloads: offset, hex bytes and printable ASCII per line."""

from __future__ import annotations

__all__ = ["HEX_PREVIEW_LIMIT", "hex_dump", "hex_line"]

HEX_PREVIEW_LIMIT = 64 * 1024
"""Bytes shown in a hex view before the user asks for more (or saves the file)."""

_PRINTABLE = bytes(range(0x20, 0x7F))
_ASCII_TABLE = bytes(b if b in _PRINTABLE else ord(".") for b in range(256))


def hex_line(chunk: bytes, offset: int, width: int = 16) -> str:
    """One dump line: ``00000010  48 65 6c 6c 6f 2c 20 77  6f 72 6c 64 21 0a        |Hello, world!.|``."""
    half = width // 2
    left = " ".join(f"{b:02x}" for b in chunk[:half])
    right = " ".join(f"{b:02x}" for b in chunk[half:width])
    hex_part = f"{left:<{half * 3 - 1}}  {right:<{(width - half) * 3 - 1}}"
    return f"{offset:08x}  {hex_part}  |{chunk.translate(_ASCII_TABLE).decode('ascii')}|"


def hex_dump(data: bytes, *, start: int = 0, limit: int | None = None, width: int = 16) -> str:
    """Dump ``data[start:start + limit]`` (everything when ``limit`` is None); offsets count from 0 of ``data``."""
    if width < 2:
        raise ValueError("width must be at least 2")
    end = len(data) if limit is None else min(len(data), start + limit)
    view = memoryview(data)
    lines = [hex_line(bytes(view[pos : min(pos + width, end)]), pos, width) for pos in range(start, end, width)]
    return "\n".join(lines)
