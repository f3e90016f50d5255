"""StdioTransport against real processes: small ``python -c`` scripts and tests/servers/misbehaving.py."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import signal
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from inspector.protocol.framing import LineFramer
from inspector.transports.base import (
    DataReceived,
    StderrLine,
    TransportClosed,
    TransportError,
    TransportEvent,
    TransportNote,
)
from inspector.transports.stdio import StdioTransport

MISBEHAVING = str(Path(__file__).resolve().parents[1] / "servers" / "misbehaving.py")
PY = sys.executable
T = TypeVar("T")

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
TOOLS_CALL = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "t", "arguments": {"text": "hi"}}}

# Echo every stdin line back on stdout as {"echo": <line>}; exit on EOF.
ECHO = """
import sys, json
for line in sys.stdin.buffer:
    sys.stdout.buffer.write(json.dumps({"echo": line.decode().rstrip("\\n")}).encode() + b"\\n")
    sys.stdout.buffer.flush()
"""


def run(coro_fn: Callable[[], Coroutine[Any, Any, T]], timeout: float = 30.0) -> T:
    """Run one test body in a fresh event loop, bounded; fail on leftover tasks."""

    loop_errors: list[dict[str, Any]] = []

    async def main() -> T:
        asyncio.get_running_loop().set_exception_handler(lambda _loop, context: loop_errors.append(context))
        result = await asyncio.wait_for(coro_fn(), timeout)
        await asyncio.sleep(0)
        leftover = [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()]
        assert not leftover, f"tasks left running: {leftover}"
        return result

    result = asyncio.run(main())
    assert not loop_errors, f"event loop errors: {loop_errors}"
    return result


def frame(message: Any) -> bytes:
    return json.dumps(message).encode()


def process_gone(pid: int) -> bool:
    """True when the process no longer runs (a zombie waiting for some other parent to reap it counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] == "Z"


class Recorder:
    """An event sink that keeps every event, frames stdout into lines and lets a test wait for things."""

    def __init__(self) -> None:
        self.events: list[TransportEvent] = []
        self.framer = LineFramer()
        self.lines: list[bytes] = []
        self._changed = asyncio.Event()

    def __call__(self, event: TransportEvent) -> None:
        assert not any(isinstance(e, TransportClosed) for e in self.events), f"event after TransportClosed: {event}"
        self.events.append(event)
        if isinstance(event, DataReceived):
            self.lines.extend(self.framer.feed(event.data))
        self._changed.set()

    async def wait_for(self, predicate: Callable[[], bool], timeout: float = 10.0) -> None:
        async def loop() -> None:
            while not predicate():
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(loop(), timeout)

    async def wait_lines(self, n: int, timeout: float = 10.0) -> list[bytes]:
        await self.wait_for(lambda: len(self.lines) >= n, timeout)
        return self.lines

    async def wait_closed(self, timeout: float = 10.0) -> TransportClosed:
        await self.wait_for(lambda: bool(self.events) and isinstance(self.events[-1], TransportClosed), timeout)
        return self.closed

    @property
    def closed(self) -> TransportClosed:
        closed = [e for e in self.events if isinstance(e, TransportClosed)]
        assert len(closed) == 1, f"expected exactly one TransportClosed, got {closed}"
        assert self.events[-1] is closed[0], "TransportClosed must be the last event"
        return closed[0]

    @property
    def stderr(self) -> list[str]:
        return [e.line for e in self.events if isinstance(e, StderrLine)]

    @property
    def notes(self) -> list[str]:
        return [e.message for e in self.events if isinstance(e, TransportNote)]


async def started(transport: StdioTransport) -> Recorder:
    rec = Recorder()
    await transport.start(rec)
    return rec


def python(script: str, **kwargs: Any) -> StdioTransport:
    return StdioTransport(PY, ["-c", script], **kwargs)


def misbehaving(mode: str, *extra: str, **kwargs: Any) -> StdioTransport:
    return StdioTransport(PY, [MISBEHAVING, "--mode", mode, *extra], **kwargs)


async def handshake(transport: StdioTransport, rec: Recorder) -> dict[str, Any]:
    await transport.send(frame(INITIALIZE))
    lines = await rec.wait_lines(1)
    init: dict[str, Any] = json.loads(lines[0])
    await transport.send(frame(INITIALIZED))
    return init


# ---------------------------------------------------------------------------------------------- basics


def test_send_receive_and_graceful_close() -> None:
    async def body() -> None:
        transport = python(ECHO)
        rec = await started(transport)
        assert rec.notes and rec.notes[0].startswith("started ") and f"(pid {transport.pid})" in rec.notes[0]
        await transport.send(b'{"a": 1}')
        await transport.send(b'{"b": "\xc3\xa9"}')
        lines = await rec.wait_lines(2)
        assert [json.loads(x)["echo"] for x in lines] == ['{"a": 1}', '{"b": "\u00e9"}']
        pid = transport.pid
        assert pid is not None
        await transport.close()
        closed = rec.closed
        assert closed.expected and closed.reason == "closed by client"
        assert closed.exit_code == 0 and closed.signal is None
        await transport.close()  # idempotent: no second TransportClosed
        assert rec.closed is closed
        assert process_gone(pid)
        with pytest.raises(TransportError):
            await transport.send(b"{}")

    run(body)


def test_concurrent_sends_are_not_interleaved() -> None:
    async def body() -> None:
        transport = python(ECHO)
        rec = await started(transport)
        payloads = [f"{i:03d}" * 20_000 for i in range(40)]  # 60 KB each, above the pipe buffer
        await asyncio.gather(*(transport.send(frame({"p": p})) for p in payloads))
        lines = await rec.wait_lines(len(payloads), timeout=20)
        got = sorted(json.loads(json.loads(x)["echo"])["p"] for x in lines)
        assert got == sorted(payloads)
        await transport.close()

    run(body)


def test_misbehaving_server_handshake_and_tool_call() -> None:
    async def body() -> None:
        transport = misbehaving("none")
        rec = await started(transport)
        init = await handshake(transport, rec)
        assert init["result"]["protocolVersion"] == "2025-11-25"
        assert init["result"]["serverInfo"]["name"] == "misbehaving"
        await transport.send(frame(TOOLS_CALL))
        lines = await rec.wait_lines(2)
        assert json.loads(lines[1])["result"]["content"][0]["text"] == "echo: hi"
        await transport.close()
        assert rec.closed.expected and rec.closed.exit_code == 0

    run(body)


def test_fifty_megabyte_line_arrives_intact() -> None:
    size = 50 * 1024 * 1024

    async def body() -> None:
        transport = misbehaving("big-result", "--size", str(size))
        rec = await started(transport)
        await handshake(transport, rec)
        await transport.send(frame(TOOLS_CALL))
        lines = await rec.wait_lines(2, timeout=60)
        big = lines[1]
        head = b'{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"'
        tail = b'"}],"isError":false}}'
        assert len(big) == len(head) + size + len(tail)
        assert big.startswith(head) and big.endswith(tail)
        assert big[len(head) : -len(tail)] == b"x" * size
        chunks = [e for e in rec.events if isinstance(e, DataReceived)]
        assert len(chunks) > 1  # it came in many reads
        assert max(len(c.data) for c in chunks) <= 1 << 20
        await transport.close()

    run(body, timeout=90)


def test_describe_is_shell_quoted() -> None:
    transport = StdioTransport("my server", ["--name", "it's", "plain"])
    assert transport.describe() == "'my server' --name 'it'\"'\"'s' plain"
    assert shlex.split(transport.describe()) == ["my server", "--name", "it's", "plain"]


# ---------------------------------------------------------------------------------------------- stderr


def test_stderr_lines_and_exit_status() -> None:
    script = r"""
import sys
err = sys.stderr.buffer
err.write(b"first line\n")
err.write(b"bad \xff\xfe bytes\r\n")
err.write(b"y" * 3_000_000 + b"\n")
for i in range(100):
    err.write(b"line %d\n" % i)
err.write(b"no newline at the end")
err.flush()
sys.exit(7)
"""

    async def body() -> None:
        transport = python(script, stderr_tail_lines=5)
        rec = await started(transport)
        closed = await rec.wait_closed()
        assert closed.reason == "server process exited" and not closed.expected
        assert closed.exit_code == 7 and closed.signal is None
        lines = rec.stderr
        assert lines[0] == "first line"
        assert lines[1] == "bad \ufffd\ufffd bytes"
        # a line over stderr_line_bytes (64 KiB) is passed on once, cut there and marked; the rest is dropped
        [long_line] = [x for x in lines if x.startswith("yyy")]
        assert long_line.startswith("y" * 65536 + " \u2026 [cut: a stderr line of more than 64 KiB")
        assert "limit stderr_line_bytes = 64 KiB" in long_line and len(lines) == 2 + 1 + 100 + 1
        assert lines[-1] == "no newline at the end"
        assert lines[-2] == "line 99"
        assert closed.stderr_tail == ("line 96", "line 97", "line 98", "line 99", "no newline at the end")
        assert transport.stderr_tail == closed.stderr_tail
        assert "exit status 7" in closed.describe()

    run(body)


def test_killed_by_signal_is_reported() -> None:
    script = "import os, signal, sys; print('bye', file=sys.stderr, flush=True); os.kill(os.getpid(), signal.SIGKILL)"

    async def body() -> None:
        rec = await started(python(script))
        closed = await rec.wait_closed()
        assert closed.signal == signal.SIGKILL and closed.exit_code is None
        assert closed.stderr_tail == ("bye",)
        assert rec.stderr == ["bye"]

    run(body)


def test_crash_mode_reports_status_and_stderr_tail() -> None:
    async def body() -> None:
        transport = misbehaving("crash")
        rec = await started(transport)
        await handshake(transport, rec)
        await transport.send(frame(TOOLS_CALL))
        closed = await rec.wait_closed()
        assert closed.reason == "server process exited"
        assert closed.exit_code == 3
        assert closed.stderr_tail[-1] == "fatal: something broke"
        assert "fatal: something broke" in rec.stderr
        # the stderr line comes before the close
        idx_line = next(i for i, e in enumerate(rec.events) if isinstance(e, StderrLine))
        assert idx_line < len(rec.events) - 1
        with pytest.raises(TransportError, match=r"server process has exited \(exit status 3\)"):
            await transport.send(frame(TOOLS_CALL))
        await transport.close()  # after an unexpected close: no-op, no second event
        assert rec.closed is closed

    run(body)


def test_send_to_exited_process_raises() -> None:
    async def body() -> None:
        transport = python("import sys; sys.exit(5)")
        rec = await started(transport)
        await rec.wait_closed()
        with pytest.raises(TransportError, match=r"server process has exited \(exit status 5\)"):
            await transport.send(b"{}")

    run(body)


def test_send_to_process_that_closed_stdin_raises() -> None:
    # The server closes stdin and keeps running: writes hit a broken pipe.
    script = "import os, sys, time; os.close(0); print('ready', flush=True); time.sleep(30)"

    async def body() -> None:
        transport = python(script, close_timeout=0.2)
        rec = await started(transport)
        await rec.wait_lines(1)
        with pytest.raises(TransportError):
            for _ in range(100):
                await transport.send(b"x" * 100_000)
        await transport.close()
        assert rec.closed.expected

    run(body)


# ---------------------------------------------------------------------------------------------- ending


def test_close_stdout_mode_ends_without_hanging() -> None:
    async def body() -> None:
        transport = misbehaving("close-stdout", close_timeout=1.0)
        rec = await started(transport)
        await handshake(transport, rec)
        pid = transport.pid
        assert pid is not None
        started_at = time.monotonic()
        await transport.send(frame(TOOLS_CALL))
        closed = await rec.wait_closed(timeout=10)
        assert time.monotonic() - started_at < 5
        assert closed.reason == "server closed stdout but is still running"
        assert not closed.expected
        assert transport.returncode is not None
        assert process_gone(pid)
        await transport.close()
        assert rec.closed is closed

    run(body)


def test_stdout_closed_while_running_is_terminated() -> None:
    # Ignores SIGTERM too: the transport must escalate to SIGKILL.
    script = (
        "import os, signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
        "os.write(1, b'ready\\n'); os.close(1); time.sleep(60)"
    )

    async def body() -> None:
        transport = python(script, close_timeout=0.3)
        rec = await started(transport)
        closed = await rec.wait_closed(timeout=10)
        assert rec.lines == [b"ready"]
        assert closed.reason == "server closed stdout but is still running"
        assert transport.returncode == -signal.SIGKILL

    run(body)


def test_child_holding_stdout_after_exit_does_not_hang() -> None:
    # The server starts a child that inherits stdout and outlives it; the pipe never reaches EOF.
    script = (
        "import subprocess, sys; "
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); "
        "print(child.pid, flush=True)"
    )

    async def body() -> None:
        transport = python(script)
        rec = await started(transport)
        t0 = time.monotonic()
        closed = await rec.wait_closed(timeout=15)
        assert time.monotonic() - t0 < 8
        assert closed.reason == "server process exited" and closed.exit_code == 0
        child_pid = int(rec.lines[0])
        deadline = time.monotonic() + 5
        while not process_gone(child_pid) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert process_gone(child_pid), "the leftover child in the server's process group was not ended"

    run(body)


@pytest.mark.parametrize(
    ("ignore_term", "expected_signal"),
    [(False, signal.SIGTERM), (True, signal.SIGKILL)],
    ids=["sigterm", "sigkill"],
)
def test_close_escalates_when_server_ignores_stdin_eof(ignore_term: bool, expected_signal: int) -> None:
    script = (
        "import signal, sys, time\n"
        + ("signal.signal(signal.SIGTERM, signal.SIG_IGN)\n" if ignore_term else "")
        + "print('ready', flush=True)\n"
        + "time.sleep(60)\n"
    )

    async def body() -> None:
        transport = python(script, close_timeout=0.5)
        rec = await started(transport)
        await rec.wait_lines(1)
        pid = transport.pid
        assert pid is not None
        t0 = time.monotonic()
        await transport.close()
        elapsed = time.monotonic() - t0
        assert elapsed < 0.5 * 2 + 3  # stdin grace + SIGTERM grace + slack
        closed = rec.closed
        assert closed.expected and closed.reason == "closed by client"
        assert closed.signal == expected_signal and closed.exit_code is None
        assert process_gone(pid)
        assert any("terminating" in n for n in rec.notes)

    run(body)


def test_close_before_start_and_concurrent_closes() -> None:
    async def body() -> None:
        await python(ECHO).close()  # never started: nothing happens, no error

        transport = python(ECHO)
        rec = await started(transport)
        await asyncio.gather(transport.close(), transport.close(), transport.close())
        assert rec.closed.expected

    run(body)


def test_close_of_already_dead_process_does_not_raise() -> None:
    async def body() -> None:
        transport = python("pass")
        rec = await started(transport)
        await asyncio.sleep(0.5)  # likely exited; the watcher may or may not have noticed yet
        await transport.close()
        closed = rec.closed
        assert closed.exit_code == 0

    run(body)


def test_output_before_exit_is_delivered_before_closed() -> None:
    script = "import sys\nfor i in range(1000):\n    print('{\"n\": %d}' % i)\nprint('bye', file=sys.stderr)\n"

    async def body() -> None:
        rec = await started(python(script))
        closed = await rec.wait_closed()
        assert len(rec.lines) == 1000
        assert rec.stderr == ["bye"]
        assert closed.exit_code == 0

    run(body)


# ---------------------------------------------------------------------------------------------- start


def test_missing_command_raises() -> None:
    async def body() -> None:
        with pytest.raises(TransportError, match="command not found: no-such-command-xyz"):
            await StdioTransport("no-such-command-xyz").start(Recorder())
        with pytest.raises(TransportError, match="command not found"):
            await StdioTransport("./no/such/path").start(Recorder())
        with pytest.raises(TransportError, match="working directory does not exist"):
            await StdioTransport(PY, cwd="/no/such/dir/xyz").start(Recorder())

    run(body)


def test_non_executable_command_raises(tmp_path: Path) -> None:
    script = tmp_path / "server.sh"
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o644)

    async def body() -> None:
        with pytest.raises(TransportError, match="not executable"):
            await StdioTransport(str(script)).start(Recorder())

    run(body)


def test_env_is_merged_and_cwd_is_used(tmp_path: Path) -> None:
    script = (
        "import json, os; "
        "print(json.dumps({'foo': os.environ.get('FOO'), 'path': os.environ.get('PATH'), 'cwd': os.getcwd()}))"
    )

    async def body() -> None:
        transport = python(script, env={"FOO": "bar"}, cwd=str(tmp_path))
        rec = await started(transport)
        await rec.wait_closed()
        seen = json.loads(rec.lines[0])
        assert seen["foo"] == "bar"
        assert seen["path"] == os.environ.get("PATH")
        assert os.path.samefile(seen["cwd"], tmp_path)

    run(body)


def test_given_path_replaces_path_and_resolves_command(tmp_path: Path) -> None:
    bindir = tmp_path / "bin"
    bindir.mkdir()
    server = bindir / "my-server"
    server.write_text(f"#!{PY}\nimport os\nprint(os.environ['PATH'])\n")
    server.chmod(0o755)

    async def body() -> None:
        transport = StdioTransport("my-server", env={"PATH": str(bindir)})
        rec = await started(transport)
        closed = await rec.wait_closed()
        assert rec.lines == [str(bindir).encode()]
        assert closed.exit_code == 0
        # Without that PATH the command is not found.
        with pytest.raises(TransportError, match="command not found: my-server"):
            await StdioTransport("my-server").start(Recorder())

    run(body)


def test_relative_command_is_resolved_against_cwd(tmp_path: Path) -> None:
    server = tmp_path / "srv.py"
    server.write_text(f"#!{PY}\nprint('hello from srv')\n")
    server.chmod(0o755)

    async def body() -> None:
        rec = await started(StdioTransport("./srv.py", cwd=str(tmp_path)))
        await rec.wait_closed()
        assert rec.lines == [b"hello from srv"]

    run(body)


def test_start_twice_raises() -> None:
    async def body() -> None:
        transport = python(ECHO)
        await started(transport)
        with pytest.raises(TransportError, match="already started"):
            await transport.start(Recorder())
        await transport.close()

    run(body)


# ---------------------------------------------------------------------------------------------- robustness


def test_flood_of_notifications_is_received() -> None:
    async def body() -> None:
        transport = misbehaving("flood", "--count", "20000")
        rec = await started(transport)
        await handshake(transport, rec)
        await transport.send(frame(TOOLS_CALL))
        lines = await rec.wait_lines(1 + 20000 + 1, timeout=30)
        assert json.loads(lines[-1])["id"] == 2
        assert all(b"notifications/message" in x for x in lines[1:-1])
        await transport.close()

    run(body, timeout=60)


def test_sink_exception_does_not_break_the_transport() -> None:
    async def body() -> None:
        events: list[TransportEvent] = []

        def sink(event: TransportEvent) -> None:
            events.append(event)
            if isinstance(event, DataReceived):
                raise RuntimeError("consumer bug")

        transport = python(ECHO)
        await transport.start(sink)
        await transport.send(b"1")
        await transport.send(b"2")
        for _ in range(200):
            if sum(len(e.data) for e in events if isinstance(e, DataReceived)) >= 2 * len(b'{"echo": "1"}\n'):
                break
            await asyncio.sleep(0.01)
        await transport.close()
        assert isinstance(events[-1], TransportClosed)

    run(body)


def test_loop_shutdown_without_close_kills_the_process() -> None:
    pid_box: list[int] = []

    async def body() -> None:
        transport = python("import time; time.sleep(60)")
        await transport.start(Recorder())
        assert transport.pid is not None
        pid_box.append(transport.pid)
        # Return without closing: asyncio.run() cancels the transport's tasks.

    async def main() -> None:
        await asyncio.wait_for(body(), 10)

    asyncio.run(main())
    deadline = time.monotonic() + 5
    while not process_gone(pid_box[0]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process_gone(pid_box[0])
