"""Which methods each side may send, per protocol version (a cheap table: no mcp-types import).

The full shape checks live in ``validation`` (mcp-types, costly to import); this table is what the
session needs even with schema validation off: is this server request or notification one the
negotiated version knows at all?
"""

from __future__ import annotations

from typing import Final

from inspector.protocol.versions import at_least

__all__ = ["is_known_server_notification", "is_known_server_request"]

_SERVER_REQUESTS: Final[dict[str, str]] = {
    # method -> first version that has it
    "ping": "2024-11-05",
    "sampling/createMessage": "2024-11-05",
    "roots/list": "2024-11-05",
    "elicitation/create": "2025-06-18",
}

_SERVER_NOTIFICATIONS: Final[dict[str, str]] = {
    "notifications/cancelled": "2024-11-05",
    "notifications/progress": "2024-11-05",
    "notifications/message": "2024-11-05",
    "notifications/resources/updated": "2024-11-05",
    "notifications/resources/list_changed": "2024-11-05",
    "notifications/tools/list_changed": "2024-11-05",
    "notifications/prompts/list_changed": "2024-11-05",
    "notifications/elicitation/complete": "2025-11-25",
    "notifications/tasks/status": "2025-11-25",
}


def is_known_server_request(method: str, version: str) -> bool:
    since = _SERVER_REQUESTS.get(method)
    return since is not None and at_least(version, since)


def is_known_server_notification(method: str, version: str) -> bool:
    since = _SERVER_NOTIFICATIONS.get(method)
    return since is not None and at_least(version, since)
