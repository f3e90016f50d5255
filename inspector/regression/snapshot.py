"""Surface snapshots: one JSON document of everything a server offers, in an order that diffs cleanly in git.

A snapshot (``SNAPSHOT_FORMAT``, version ``SNAPSHOT_VERSION``; shape in docs/INTERFACES.md) holds the era and
protocol version, the server's info, instructions and capabilities, and every tool, resource, resource template
and prompt as the server listed them (all pages), each list sorted by name (resources by ``uri``, templates by
``uriTemplate``). :func:`dump_snapshot` writes it with sorted keys and two-space indentation, so the same
server gives byte-identical files.

:func:`take_snapshot` asks a connected :class:`~inspector.client.connection.Connection` (either era);
:func:`inspector.regression.snapshot_recording.snapshot_from_recording` builds one from a recording;
:func:`load_surface` reads either kind of file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from inspector.client.connection import Connection
from inspector.protocol.versions import Era

__all__ = [
    "LISTS",
    "SNAPSHOT_FORMAT",
    "SNAPSHOT_VERSION",
    "SnapshotError",
    "build_snapshot",
    "dump_snapshot",
    "load_surface",
    "take_snapshot",
]

SNAPSHOT_FORMAT: Final = "mcp-inspect/surface-snapshot"
SNAPSHOT_VERSION: Final = 1
LISTS: Final = (
    ("tools", "name", "tools", "tools/list"),
    ("resources", "uri", "resources", "resources/list"),
    ("resourceTemplates", "uriTemplate", "resources", "resources/templates/list"),
    ("prompts", "name", "prompts", "prompts/list"),
)
"""(snapshot key and list result key, the key items are sorted by, the capability, the list method)."""
SQLITE_MAGIC: Final = b"SQLite format 3\x00"


class SnapshotError(Exception):
    """A file that is neither a snapshot nor a recording, or cannot be read: one line saying why."""


def build_snapshot(
    *,
    era: Era | str,
    protocol_version: str,
    server_info: dict[str, Any],
    capabilities: dict[str, Any],
    instructions: str | None,
    lists: dict[str, list[Any]],
) -> dict[str, Any]:
    """A snapshot from what a session established and its listed items (``lists`` keyed as in ``LISTS``)."""
    snapshot: dict[str, Any] = {
        "format": SNAPSHOT_FORMAT,
        "version": SNAPSHOT_VERSION,
        "era": str(Era(era).value) if isinstance(era, Era) else str(era),
        "protocolVersion": protocol_version,
        "serverInfo": dict(server_info),
        "instructions": instructions,
        "capabilities": dict(capabilities),
    }
    for key, sort_key, _capability, _method in LISTS:
        items = [item for item in lists.get(key, []) if isinstance(item, dict)]
        snapshot[key] = sorted(items, key=lambda item, k=sort_key: (str(item.get(k, "")), _text(item)))  # type: ignore[misc]
    return snapshot


async def take_snapshot(conn: Connection) -> dict[str, Any]:
    """The surface of the server behind the open ``conn``: every list its capabilities declare, all pages."""
    server = conn.server
    if server is None:
        raise SnapshotError("the connection is not open")
    capabilities = server.capabilities or {}
    listers = {
        "tools": conn.list_tools,
        "resources": conn.list_resources,
        "resourceTemplates": conn.list_resource_templates,
        "prompts": conn.list_prompts,
    }
    lists: dict[str, list[Any]] = {}
    for key, _sort_key, capability, _method in LISTS:
        if capability not in capabilities:
            continue
        result = await listers[key](fresh=True)
        items = result.get(key) if isinstance(result, dict) else None
        lists[key] = list(items) if isinstance(items, list) else []
    return build_snapshot(
        era=conn.era,
        protocol_version=server.protocol_version,
        server_info=server.server_info,
        capabilities=capabilities,
        instructions=server.instructions,
        lists=lists,
    )


def dump_snapshot(snapshot: dict[str, Any]) -> str:
    """The snapshot as stable text: sorted keys, two-space indentation, UTF-8 characters kept, one final newline."""
    return json.dumps(snapshot, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def load_surface(path: Path | str) -> dict[str, Any]:
    """A snapshot file, or a recording file turned into a snapshot. Raises SnapshotError (one line) otherwise."""
    file = Path(path)
    try:
        with file.open("rb") as handle:
            head = handle.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise SnapshotError(f"cannot read {file}: {exc.strerror or exc}") from None
    if head == SQLITE_MAGIC:
        from inspector.regression.snapshot_recording import snapshot_from_recording

        return snapshot_from_recording(file)
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise SnapshotError(f"{file} is neither a snapshot (JSON) nor a recording (SQLite): {exc}") from None
    if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
        raise SnapshotError(f'{file} is not a surface snapshot (no "format": "{SNAPSHOT_FORMAT}")')
    version = data.get("version")
    if not isinstance(version, int) or version > SNAPSHOT_VERSION:
        raise SnapshotError(f"{file}: snapshot version {version!r} is not supported (up to {SNAPSHOT_VERSION})")
    return data


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)
