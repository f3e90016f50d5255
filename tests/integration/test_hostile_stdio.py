"""A stdio server attacking memory: lines and stderr lines that never end, a 300 MB notification.

Every case ends in bounded time with bounded memory: the framer keeps at most ``message_bytes`` of a line and
drops the rest as it arrives, a stderr line is cut at ``stderr_line_bytes``, and the breach is a diagnostic
naming the limit. Peak memory is measured on the real CLI process (``tests/memkit.py``).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest
from memkit import run_measured

from inspector.client.connection import Connection
from inspector.client.errors import InvalidResponse, RequestTimeout
from inspector.protocol.diagnostics import DiagnosticCode
from inspector.protocol.limits import DEFAULT_LIMITS, Limits, MiB
from inspector.protocol.session import Timeouts
from inspector.transports.base import StderrLine, TransportEvent
from inspector.transports.stdio import StdioTransport

SERVER = str(Path(__file__).resolve().parents[1] / "servers" / "hostile_stdio.py")
HEADROOM_MB = 300
"""What the process may use above the limit that was hit (interpreter, buffers, the head kept)."""


def run(coro: Awaitable[Any], limit: float = 90) -> Any:
    async def bounded() -> Any:
        return await asyncio.wait_for(coro, limit)

    return asyncio.run(bounded())


def cli(mode: str, *options: str, size: int | None = None, timeout: float = 120) -> Any:
    server = [sys.executable, SERVER, "--mode", mode, *(["--size", str(size)] if size else [])]
    argv = [
        sys.executable,
        "-m",
        "inspector",
        "--cli",
        "--method",
        "tools/call",
        "--tool-name",
        "t",
        "--format",
        "human",
    ]
    argv += options
    return run_measured([*argv, "--", *server], timeout=timeout)


def transport(mode: str, limits: Limits, size: int | None = None) -> StdioTransport:
    args = [SERVER, "--mode", mode, *(["--size", str(size)] if size else [])]
    return StdioTransport(sys.executable, args, limits=limits)


def test_endless_line_default_limit_fails_the_call_with_the_limit_named() -> None:
    result = cli("endless-line")
    assert result.returncode != 0, result.stdout
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip() and not line.startswith("Protocol: ")]
    assert len(lines) == 1, result.stderr  # (after the count line of the protocol violation)
    assert "message_bytes = 256 MiB" in lines[0] and "more than 256 MiB" in lines[0], lines[0]
    assert result.peak_rss_mb < DEFAULT_LIMITS.message_bytes / MiB + HEADROOM_MB, result.peak_rss_mb
    assert result.elapsed < 60


def test_endless_line_with_a_smaller_limit_from_the_command_line() -> None:
    result = cli("endless-line", "--limit", "message_bytes=1MiB")
    assert result.returncode != 0
    assert "message_bytes = 1 MiB" in result.stderr, result.stderr
    assert result.peak_rss_mb < 1 + HEADROOM_MB
    assert result.elapsed < 30


def test_big_notification_is_dropped_and_the_call_still_answers() -> None:
    result = cli("big-notification", "--format", "json")
    assert result.returncode == 0, result.stderr
    assert '"ok"' in result.stdout
    assert result.peak_rss_mb < DEFAULT_LIMITS.message_bytes / MiB + HEADROOM_MB, result.peak_rss_mb


def test_endless_stderr_line_is_cut_and_the_call_answers() -> None:
    result = cli("endless-stderr", "--format", "json", size=2 << 30)
    assert result.returncode == 0, result.stderr
    assert '"ok"' in result.stdout
    assert result.peak_rss_mb < HEADROOM_MB, result.peak_rss_mb


def test_connection_fails_the_answer_at_once_and_keeps_the_diagnostic() -> None:
    limits = DEFAULT_LIMITS.replace(message_bytes=256 * 1024)

    async def body() -> None:
        conn = Connection(transport("endless-line", limits, size=64 * MiB), timeouts=Timeouts(request=30))
        async with conn:
            loop = asyncio.get_running_loop()
            started = loop.time()
            with pytest.raises(InvalidResponse) as caught:
                await conn.call_tool("t", {})
            assert loop.time() - started < 10
            assert "message_bytes = 256 KiB" in str(caught.value)
            assert DiagnosticCode.LIMIT_EXCEEDED in {d.code for d in conn.diagnostics}
            # the rest of the line is dropped as it arrives; once it ended, the session answers again
            assert await conn.ping() is not None

    run(body())


def test_oversized_line_without_an_id_times_out_but_is_logged() -> None:
    limits = DEFAULT_LIMITS.replace(message_bytes=64 * 1024)

    async def body() -> None:
        conn = Connection(transport("endless-no-id", limits), timeouts=Timeouts(request=2))
        async with conn:
            with pytest.raises(RequestTimeout):
                await conn.call_tool("t", {})
            found = [d for d in conn.diagnostics if d.code is DiagnosticCode.LIMIT_EXCEEDED]
            assert len(found) == 1, found
            assert "limit message_bytes = 64 KiB" in found[0].message

    run(body())


def test_big_notification_over_the_limit_leaves_the_session_usable() -> None:
    limits = DEFAULT_LIMITS.replace(message_bytes=1 * MiB)

    async def body() -> None:
        conn = Connection(transport("big-notification", limits, size=8 * MiB), timeouts=Timeouts(request=30))
        async with conn:
            result = await conn.call_tool("t", {})
            assert result["content"][0]["text"] == "ok"
            found = [d for d in conn.diagnostics if d.code is DiagnosticCode.LIMIT_EXCEEDED]
            assert len(found) == 1 and "a message of more than 1 MiB" in found[0].message

    run(body())


def test_stderr_line_is_cut_at_its_limit() -> None:
    limits = DEFAULT_LIMITS.replace(stderr_line_bytes=4096)
    lines: list[str] = []

    def seen(event: TransportEvent) -> None:
        if isinstance(event, StderrLine):
            lines.append(event.line)

    async def body() -> None:
        conn = Connection(
            transport("endless-stderr", limits, size=64 * MiB), on_transport_event=seen, timeouts=Timeouts(request=30)
        )
        async with conn:
            await conn.call_tool("t", {})
            await asyncio.sleep(0.5)

    run(body())
    flood = [line for line in lines if line.startswith("stderr flood")]
    assert len(flood) == 1, [line[:80] for line in lines]
    assert len(flood[0]) < 4096 + 200
    assert "stderr_line_bytes = 4 KiB" in flood[0] and "the rest of the line was dropped" in flood[0]


def test_cli_timeout_names_the_dropped_message() -> None:
    result = cli("endless-no-id", "--limit", "message_bytes=64KiB", "--timeout", "2")
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.strip() and not line.startswith("Protocol: ")]
    assert len(lines) == 1, result.stderr  # (after the count line of the protocol violation)
    assert "timed out" in lines[0] and "meanwhile the server sent a message of more than 64 KiB" in lines[0]
    assert "limit message_bytes = 64 KiB" in lines[0]
