"""Real recordings of real sessions, made headlessly, for the replay tests (tests/*/test_*replay*.py)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from inspector.cli.run import client_capabilities
from inspector.client.connection import Connection
from inspector.client.handlers import HeadlessHandlers, ServerRequestHandlers
from inspector.protocol.versions import MODERN_VERSION
from inspector.store.recording import Recording
from inspector.transports.base import Transport
from inspector.transports.stdio import StdioTransport

Session = Callable[[Connection], Awaitable[None]]

LEGACY_VERSION = "2025-11-25"


def demo_command(era: str = "legacy", variant: str = "standard") -> list[str]:
    """The bundled demo server as a stdio process."""
    command = [sys.executable, "-m", "inspector.demo", "--era", era]
    if variant != "standard":
        command += ["--variant", variant]
    return command


def stdio(command: list[str]) -> StdioTransport:
    return StdioTransport(command[0], command[1:])


def era_args(era: str) -> list[str]:
    """The CLI flags that open a session of ``era`` (legacy / modern)."""
    return ["--protocol-era", era] if era == "legacy" else ["--protocol-era", "modern"]


async def record_async(
    transport: Transport,
    directory: Path,
    session: Session,
    *,
    era: str = "legacy",
    handlers: ServerRequestHandlers | None = None,
) -> Path:
    """Run ``session`` on a connection to ``transport`` recorded into a new file in ``directory``; its path."""
    version = MODERN_VERSION if era == "modern" else LEGACY_VERSION
    rec = Recording.create(directory, label=f"replay-{era}")
    conn = Connection(
        transport,
        protocol_version=version,
        protocol_era="modern" if era == "modern" else "legacy",
        capabilities=client_capabilities(version),
        handlers=handlers or HeadlessHandlers(),
        recorder=rec,
    )
    try:
        async with conn:
            await session(conn)
    finally:
        rec.close()
    return rec.path


def record(
    transport: Transport,
    directory: Path,
    session: Session,
    *,
    era: str = "legacy",
    handlers: ServerRequestHandlers | None = None,
) -> Path:
    return asyncio.run(record_async(transport, directory, session, era=era, handlers=handlers))


class FixedAnswers(HeadlessHandlers):
    """Answers no headless run would give, so a replay that does not reuse them cannot match."""

    def __init__(self, name: str = "Grace Hopper", sampled: str = "recorded sampling answer") -> None:
        super().__init__(sampling_text=sampled)
        self.name = name

    async def elicit(self, params: dict[str, Any]) -> dict[str, Any]:
        schema = params.get("requestedSchema") or {}
        props = schema.get("properties") or {}
        if "name" in props:
            return {"action": "accept", "content": {"name": self.name}}
        if "correct" in props:
            return {"action": "accept", "content": {"correct": True}}
        return await super().elicit(params)
