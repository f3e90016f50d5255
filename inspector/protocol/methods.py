"""Which methods each side may send, per protocol version (a cheap table: no mcp-types import).

The full shape checks live in ``validation`` (mcp-types, costly to import); this table is what the
session needs even with schema validation off: is this server request or notification one the
negotiated version knows at all? It is also the one place for the method lists and the logging levels
the window and the CLI both use.
"""

from __future__ import annotations

from typing import Final

from inspector.protocol.versions import at_least

__all__ = ["LIST_METHODS", "LOG_LEVELS", "is_known_server_notification", "is_known_server_request"]

LOG_LEVELS: Final = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
"""The ``LoggingLevel`` values of MCP (RFC 5424 severities), least severe first."""

LIST_METHODS: Final = ("tools/list", "resources/list", "resources/templates/list", "prompts/list")
"""The paginated list requests of the catalog a server offers."""

_SERVER_REQUESTS: Final[dict[str, str]] = {
    # method -> first version that has it
    "ping": "2024-11-05",
    "sampling/createMessage": "2024-11-05",
    "roots/list": "2024-11-05",
    "elicitation/create": "2025-06-18",
}
_LAST: Final[dict[str, str]] = {
    # method -> last version that has it (2026-07-28 replaced server requests by input_required results)
    "ping": "2025-11-25",
    "sampling/createMessage": "2025-11-25",
    "roots/list": "2025-11-25",
    "elicitation/create": "2025-11-25",
    "notifications/elicitation/complete": "2025-11-25",
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
    "notifications/subscriptions/acknowledged": "2026-07-28",
    "notifications/tasks": "2026-07-28",  # the io.modelcontextprotocol/tasks extension's status notification
}


def _within(method: str, version: str, since: str | None) -> bool:
    if since is None or not at_least(version, since):
        return False
    last = _LAST.get(method)
    return last is None or at_least(last, version)


def is_known_server_request(method: str, version: str) -> bool:
    return _within(method, version, _SERVER_REQUESTS.get(method))


def is_known_server_notification(method: str, version: str) -> bool:
    return _within(method, version, _SERVER_NOTIFICATIONS.get(method))
