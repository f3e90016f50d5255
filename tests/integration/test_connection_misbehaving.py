"""The Connection against a server that misbehaves on purpose: every case ends, with the right outcome."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from inspector.client.connection import Connection
from inspector.client.errors import ConnectFailed, ConnectionLost, InvalidResponse, RequestTimeout
from inspector.protocol.diagnostics import DiagnosticCode
from inspector.protocol.events import NotificationReceived
from inspector.protocol.session import Timeouts
from inspector.store.recording import Recording
from inspector.transports.stdio import StdioTransport

SERVER = str(Path(__file__).resolve().parents[1] / "servers" / "misbehaving.py")


def run(coro: Awaitable[Any], limit: float = 60) -> Any:
    async def bounded() -> Any:
        return await asyncio.wait_for(coro, limit)

    return asyncio.run(bounded())


def connection(mode: str, *extra: str, **kwargs: Any) -> Connection:
    transport = StdioTransport(sys.executable, [SERVER, "--mode", mode, *extra])
    kwargs.setdefault("timeouts", Timeouts(request=10))
    return Connection(transport, **kwargs)


def codes(conn: Connection) -> set[DiagnosticCode]:
    return {d.code for d in conn.diagnostics}


async def call_t(conn: Connection) -> Any:
    return await conn.call_tool("t", {"text": "hello"})


def with_conn(mode: str, body: Callable[[Connection], Awaitable[Any]], *extra: str, **kwargs: Any) -> Connection:
    async def main() -> Connection:
        conn = connection(mode, *extra, **kwargs)
        async with conn:
            await body(conn)
        return conn

    result: Connection = run(main())
    return result


def text_of(result: Any) -> str:
    return "".join(c.get("text", "") for c in result["content"])


def test_well_behaved_baseline() -> None:
    async def body(conn: Connection) -> None:
        assert conn.server is not None and conn.server.server_info["name"] == "misbehaving"
        assert text_of(await call_t(conn)) == "echo: hello"
        assert await conn.ping() == {}

    conn = with_conn("none", body)
    assert conn.violations == []


def test_banner_line_is_a_diagnostic_and_session_survives() -> None:
    async def body(conn: Connection) -> None:
        assert text_of(await call_t(conn)) == "echo: hello"

    conn = with_conn("banner", body)
    diag = next(d for d in conn.diagnostics if d.code is DiagnosticCode.INVALID_JSON)
    assert diag.raw == b"Server starting..."


def test_invalid_utf8() -> None:
    async def body(conn: Connection) -> None:
        assert text_of(await call_t(conn)) == "echo: hello"

    assert DiagnosticCode.INVALID_UTF8 in codes(with_conn("invalid-utf8", body))


def test_result_and_error_delivers_the_result_and_flags_it() -> None:
    async def body(conn: Connection) -> None:
        assert text_of(await call_t(conn)) == "echo: hello"
        assert await conn.ping() == {}

    assert DiagnosticCode.RESULT_AND_ERROR in codes(with_conn("result-and-error", body))


def test_unknown_id() -> None:
    async def body(conn: Connection) -> None:
        assert text_of(await call_t(conn)) == "echo: hello"

    assert DiagnosticCode.UNKNOWN_RESPONSE_ID in codes(with_conn("unknown-id", body))


def test_duplicate_response_first_wins() -> None:
    async def body(conn: Connection) -> None:
        first = await call_t(conn)
        await conn.ping()  # the duplicate precedes the ping's answer
        assert text_of(first) == "echo: hello"

    assert DiagnosticCode.DUPLICATE_RESPONSE in codes(with_conn("duplicate-id", body))


def test_id_type_mismatch_still_matched() -> None:
    async def body(conn: Connection) -> None:
        assert text_of(await call_t(conn)) == "echo: hello"

    assert DiagnosticCode.ID_TYPE_MISMATCH in codes(with_conn("id-type", body))


def test_invalid_tools_list_is_delivered_with_paths() -> None:
    seen: dict[str, Any] = {}

    async def body(conn: Connection) -> None:
        seen["tools"] = (await conn.list_tools())["tools"]

    conn = with_conn("invalid-tools-list", body)
    assert seen["tools"], "the invalid result is still delivered"
    paths = {d.path for d in conn.diagnostics if d.code is DiagnosticCode.SCHEMA}
    assert any(p and p.startswith("$.result.tools[") for p in paths), paths


def test_undeclared_sampling_is_refused_with_32601() -> None:
    async def body(conn: Connection) -> None:
        assert "-32601" in text_of(await call_t(conn))

    conn = with_conn("undeclared-sampling", body)
    assert DiagnosticCode.UNDECLARED_CAPABILITY in codes(conn)


def test_declared_sampling_is_answered_by_the_handler() -> None:
    async def body(conn: Connection) -> None:
        assert "automatic reply from mcp-inspect" in text_of(await call_t(conn))

    conn = with_conn("undeclared-sampling", body, capabilities={"sampling": {}})
    assert DiagnosticCode.UNDECLARED_CAPABILITY not in codes(conn)


def test_unknown_server_method_gets_method_not_found() -> None:
    async def body(conn: Connection) -> None:
        assert "-32601" in text_of(await call_t(conn))

    assert DiagnosticCode.UNKNOWN_METHOD in codes(with_conn("unknown-method-request", body))


def test_flood_of_100k_notifications_before_the_answer() -> None:
    got: list[NotificationReceived] = []

    async def body(conn: Connection) -> None:
        t0 = time.perf_counter()
        assert text_of(await call_t(conn)) == "echo: hello"
        print(f"100k notifications + answer in {time.perf_counter() - t0:.2f} s")

    conn = with_conn("flood", body, on_notification=got.append, timeouts=Timeouts(request=60))
    assert sum(1 for n in got if n.method == "notifications/message") == 100_000
    assert conn.violations == []


def test_a_flood_is_read_only_as_fast_as_it_is_recorded(tmp_path: Path) -> None:
    """While the recording's writer is stuck (another connection holds the file's write lock), the transport
    stops reading once ``backlog_rows`` wait; the server blocks on its pipe; all of it arrives afterwards."""
    recording = Recording.create(tmp_path, flush_rows=100, backlog_rows=2000)
    blocker = sqlite3.connect(recording.path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    stuck_at: list[int] = []

    async def body(conn: Connection) -> None:
        call = asyncio.ensure_future(call_t(conn))
        deadline = time.monotonic() + 20
        while not recording.backlogged:
            assert time.monotonic() < deadline and not call.done()
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.5)  # well under the writer's 5 s busy timeout
        stuck_at.append(recording.last_seq)
        assert not call.done()
        blocker.execute("ROLLBACK")
        assert text_of(await call) == "echo: hello"

    try:
        with_conn("flood", body, "--count", "100000", recorder=recording, timeouts=Timeouts(request=60))
        # one 1 MiB read past the mark at most (about 8,000 of these notifications), far from all 100,000
        assert 2000 <= stuck_at[0] < 12_000
        recording.flush()
        assert recording.write_error is None
        assert recording.count() >= 100_002  # handshake, the flood, the call and its answer
    finally:
        blocker.close()
        recording.close()


def test_50mb_result() -> None:
    async def body(conn: Connection) -> None:
        t0 = time.perf_counter()
        result = await call_t(conn)
        assert len(result["content"][0]["text"]) == 50 * 1024 * 1024
        print(f"50 MB result in {time.perf_counter() - t0:.2f} s")

    with_conn("big-result", body, timeouts=Timeouts(request=60))


def test_deep_json_fails_the_call_at_once() -> None:
    async def body(conn: Connection) -> None:
        t0 = time.perf_counter()
        with pytest.raises(InvalidResponse, match="nested too deeply"):
            await call_t(conn)
        assert time.perf_counter() - t0 < 5
        assert await conn.ping() == {}

    assert DiagnosticCode.JSON_TOO_DEEP in codes(with_conn("deep-json", body))


def test_crash_mid_request_reports_exit_status_and_stderr() -> None:
    async def body(conn: Connection) -> None:
        with pytest.raises(ConnectionLost) as info:
            await call_t(conn)
        text = str(info.value)
        assert "exit status 3" in text and "fatal: something broke" in text

    with_conn("crash", body)


def test_server_that_never_answers_times_out_and_is_cancelled() -> None:
    sent: list[bytes] = []

    async def body(conn: Connection) -> None:
        t0 = time.perf_counter()
        with pytest.raises(RequestTimeout):
            await conn.call_tool("t", {"text": "x"}, timeout=0.5)
        assert time.perf_counter() - t0 < 3
        assert await conn.ping() == {}

    with_conn("silent", body, on_message=lambda w: sent.append(w.raw))
    assert any(b"notifications/cancelled" in raw for raw in sent)


def test_closed_stdout_is_a_failed_connection_not_a_hang() -> None:
    async def body(conn: Connection) -> None:
        with pytest.raises(ConnectionLost, match="closed stdout"):
            await call_t(conn)

    with_conn("close-stdout", body)


def test_batch_answer_is_processed_with_a_diagnostic() -> None:
    async def body(conn: Connection) -> None:
        assert text_of(await call_t(conn)) == "echo: hello"

    assert DiagnosticCode.BATCH_UNSUPPORTED in codes(with_conn("batch", body))


def test_wrong_jsonrpc_version() -> None:
    async def body(conn: Connection) -> None:
        assert text_of(await call_t(conn)) == "echo: hello"

    assert DiagnosticCode.BAD_JSONRPC_VERSION in codes(with_conn("bad-jsonrpc", body))


def test_logging_before_initialize_is_tolerated() -> None:
    got: list[NotificationReceived] = []

    async def body(conn: Connection) -> None:
        await conn.ping()

    with_conn("notify-before-init", body, on_notification=got.append)
    assert any(n.method == "notifications/message" for n in got)


def test_initialize_that_never_answers_is_bounded() -> None:
    async def main() -> None:
        conn = connection("slow-init", timeouts=Timeouts(request=0.5))
        with pytest.raises(ConnectFailed, match="initialize"):
            await conn.connect()

    t0 = time.perf_counter()
    run(main())
    assert time.perf_counter() - t0 < 8


def test_unknown_protocol_version_fails_clearly() -> None:
    async def main() -> None:
        conn = connection("bad-version")
        with pytest.raises(ConnectFailed, match="1999-01-01"):
            await conn.connect()

    run(main())


@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])
def test_each_handshake_version_is_negotiated(version: str) -> None:
    async def body(conn: Connection) -> None:
        assert conn.server is not None and conn.server.protocol_version == version

    with_conn("none", body, protocol_version=version)


def test_missing_command_is_a_connect_failure() -> None:
    async def main() -> None:
        conn = Connection(StdioTransport("definitely-not-a-command-xyz"))
        with pytest.raises(ConnectFailed, match="not found"):
            await conn.connect()

    run(main())
