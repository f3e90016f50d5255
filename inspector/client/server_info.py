"""What a connection knows of the server once its session is open (the handshake's or server/discover's answer)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.protocol.session import ClientSession
from inspector.protocol.versions import Era

__all__ = ["ServerInfo", "server_info_of"]


@dataclass(frozen=True, slots=True)
class ServerInfo:
    """What the handshake established."""

    protocol_version: str
    server_info: dict[str, Any]
    capabilities: dict[str, Any]
    instructions: str | None
    result: dict[str, Any]
    elapsed: float
    """Seconds from starting the transport to the end of the handshake."""
    era: Era = Era.HANDSHAKE
    era_reason: str = ""
    """Why this era: what was asked for, and in ``auto`` what the server's answer to server/discover was."""


def server_info_of(session: ClientSession, result: dict[str, Any], elapsed: float, era_reason: str) -> ServerInfo:
    """What ``session`` (just opened, with ``result``) established."""
    s = session
    return ServerInfo(
        s.protocol_version, s.server_info, s.server_capabilities, s.instructions, result, elapsed, s.era, era_reason
    )
