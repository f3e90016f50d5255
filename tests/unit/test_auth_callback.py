"""inspector.auth.callback: the one-shot loopback receiver of the authorization redirect."""

from __future__ import annotations

import asyncio

import pytest
from mcp.client.auth import OAuthFlowError
from test_auth_world import run

from inspector.auth.callback import CallbackResult, LoopbackCallback, free_loopback_port


async def _get(port: int, target: str, method: str = "GET") -> tuple[int, str]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    await writer.drain()
    data = await reader.read()
    writer.close()
    head, _, body = data.decode().partition("\r\n\r\n")
    return int(head.split(" ")[1]), body


def test_binds_loopback_only_on_a_random_port() -> None:
    async def go() -> tuple[list[tuple[str, int]], list[int]]:
        async with LoopbackCallback() as a, LoopbackCallback() as b:
            assert a._server is not None and b._server is not None
            names = [sock.getsockname() for cb in (a, b) for sock in cb._server.sockets]  # type: ignore[union-attr]
            return names, [a.port or 0, b.port or 0]

    names, ports = run(go)
    assert all(host == "127.0.0.1" for host, _ in names)
    assert ports[0] != ports[1] and all(port > 0 for port in ports)


def test_state_mismatch_is_rejected_and_the_right_state_accepted_once() -> None:
    async def go() -> tuple[list[int], CallbackResult, int]:
        callback = LoopbackCallback(timeout=10)
        await callback.start()
        assert callback.port is not None
        port = callback.port
        assert callback.redirect_uri == f"http://127.0.0.1:{port}/callback"
        callback.expect_state("good-state")
        waiter = asyncio.create_task(callback.wait())
        statuses = [
            (await _get(port, "/callback?code=c&state=bad-state"))[0],
            (await _get(port, "/callback?code=c"))[0],
            (await _get(port, "/elsewhere?code=c&state=good-state"))[0],
            (await _get(port, "/callback?code=c&state=good-state", method="POST"))[0],
        ]
        assert not waiter.done()
        status, body = await _get(port, "/callback?code=the-code&state=good-state&iss=https%3A%2F%2Fas.test")
        statuses.append(status)
        assert "close this window" in body
        result = await waiter
        return statuses, result, callback.rejected

    statuses, result, rejected = run(go)
    assert statuses == [400, 400, 404, 405, 200]
    assert result == CallbackResult(code="the-code", state="good-state", iss="https://as.test")
    assert rejected == 4


def test_closed_after_use() -> None:
    async def go() -> None:
        callback = LoopbackCallback(timeout=10)
        await callback.start()
        port = callback.port
        assert port is not None
        callback.expect_state("s")
        waiter = asyncio.create_task(callback.wait())
        await _get(port, "/callback?code=c&state=s")
        await waiter
        assert not callback.listening
        with pytest.raises(OSError):
            await asyncio.open_connection("127.0.0.1", port)

    run(go)


def test_timeout_closes_the_listener() -> None:
    async def go() -> None:
        callback = LoopbackCallback(timeout=0.2)
        await callback.start()
        port = callback.port
        assert port is not None
        with pytest.raises(TimeoutError):
            await callback.wait()
        with pytest.raises(OSError):
            await asyncio.open_connection("127.0.0.1", port)

    run(go)


def test_error_redirect_raises() -> None:
    async def go() -> None:
        callback = LoopbackCallback(timeout=5)
        await callback.start()
        assert callback.port is not None
        callback.expect_state("s")
        waiter = asyncio.create_task(callback.wait())
        status, _ = await _get(callback.port, "/callback?error=access_denied&error_description=no&state=s")
        assert status == 200
        with pytest.raises(OAuthFlowError, match="access_denied: no"):
            await waiter

    run(go)


def test_given_port_and_path() -> None:
    port = free_loopback_port()

    async def go() -> str:
        async with LoopbackCallback(port=port, path="/cb") as callback:
            return callback.redirect_uri

    assert run(go) == f"http://127.0.0.1:{port}/cb"
    with pytest.raises(ValueError):
        LoopbackCallback(path="cb")
    with pytest.raises(RuntimeError):
        _ = LoopbackCallback().redirect_uri
