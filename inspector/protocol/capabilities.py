"""Capability gating both ways: which declared capability each method needs."""

from __future__ import annotations

from typing import Any, Final

from inspector.protocol.versions import at_least

__all__ = [
    "client_capability_for",
    "has_capability",
    "notification_capability",
    "server_capability_for",
]

# client -> server requests: the server capability (dotted path) they need
_SERVER_CAPS: Final[dict[str, str]] = {
    "tools/list": "tools",
    "tools/call": "tools",
    "resources/list": "resources",
    "resources/read": "resources",
    "resources/templates/list": "resources",
    "resources/subscribe": "resources.subscribe",
    "resources/unsubscribe": "resources.subscribe",
    "prompts/list": "prompts",
    "prompts/get": "prompts",
    "logging/setLevel": "logging",
    "completion/complete": "completions",
}

# server -> client requests: the client capability they need
_CLIENT_CAPS: Final[dict[str, str]] = {
    "sampling/createMessage": "sampling",
    "elicitation/create": "elicitation",
    "elicitation/request": "elicitation",
    "roots/list": "roots",
}

# server -> client notifications that only make sense under a declared server capability
_NOTIFICATION_CAPS: Final[dict[str, str]] = {
    "notifications/tools/list_changed": "tools.listChanged",
    "notifications/resources/list_changed": "resources.listChanged",
    "notifications/prompts/list_changed": "prompts.listChanged",
    "notifications/resources/updated": "resources.subscribe",
    "notifications/message": "logging",
}


def has_capability(capabilities: dict[str, Any] | None, path: str) -> bool:
    """True when the dotted path is declared: an object for the top level, a true flag below it."""
    node: Any = capabilities or {}
    parts = path.split(".")
    for i, part in enumerate(parts):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
        if i == len(parts) - 1:
            return node is not None and node is not False
    return True


def server_capability_for(method: str, version: str) -> str | None:
    """The server capability a client request needs under ``version`` (None: no gate)."""
    cap = _SERVER_CAPS.get(method)
    if cap == "completions" and not at_least(version, "2025-03-26"):
        return None  # 2024-11-05 had completion/complete without a capability
    return cap


def client_capability_for(method: str) -> str | None:
    return _CLIENT_CAPS.get(method)


def notification_capability(method: str) -> str | None:
    return _NOTIFICATION_CAPS.get(method)
