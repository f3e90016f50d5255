"""The stdio transport: a server subprocess, newline-delimited messages on its stdin/stdout.

stdout is read in large chunks and handed on as ``DataReceived`` (framing happens in the protocol layer, a
single line may be tens of megabytes). stderr is cut into lines (leniently decoded) and handed on as
``StderrLine``; the last few are kept for the ``TransportClosed`` report. The process lives in its own
session (process group) on POSIX so that closing can signal the whole group when it has to escalate.

Ending, in every case, emits exactly one ``TransportClosed`` as the very last event:

* the client closes: stdin is closed, then SIGTERM after ``close_timeout``, then SIGKILL;
* the process exits: remaining stdout and stderr are drained (bounded) first;
* stdout closes while the process keeps running: that is a broken server, it is terminated.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shlex
import shutil
import signal as _signal
import time
from collections import deque
from collections.abc import Awaitable, Mapping, Sequence

from inspector.protocol.limits import DEFAULT_LIMITS, Limits
from inspector.transports.base import (
    DataReceived,
    EventSink,
    StderrLine,
    Transport,
    TransportClosed,
    TransportError,
    TransportEvent,
    TransportNote,
    message_of,
)

__all__ = ["StdioTransport"]

_log = logging.getLogger(__name__)

_STDOUT_CHUNK = 1 << 20
"""Largest chunk handed on per DataReceived."""
_STREAM_LIMIT = 8 << 20
"""StreamReader limit (buffering before the pipe is paused). We never readline, but keep it large anyway."""
_STDERR_CHUNK = 1 << 16

_EXIT_GRACE = 0.5
"""How long a process whose stdout reached EOF gets to exit before it counts as 'still running'."""
_STDOUT_IDLE_AFTER_EXIT = 2.0
"""How long stdout may stay open *and silent* after the process exited (a child holding the pipe)."""
_STDERR_IDLE_AFTER_EXIT = 1.0
"""The same for stderr: late stderr lines are passed on before TransportClosed, but not waited for forever."""
_DRAIN_CAP = 30.0
"""However busy a pipe still is after the process ended, we stop reading it after this long."""
_KILL_WAIT = 5.0
"""How long to wait for a SIGKILLed process to be reaped."""

_IS_POSIX = os.name == "posix"


def _exit_info(returncode: int | None) -> tuple[int | None, int | None]:
    """(exit_code, signal) from a returncode; a negative returncode means killed by that signal."""
    if returncode is None:
        return None, None
    if returncode < 0:
        return None, -returncode
    return returncode, None


def _describe_exit(returncode: int | None) -> str:
    code, sig = _exit_info(returncode)
    if sig is not None:
        return f"killed by signal {sig}"
    return f"exit status {code}"


def _utf8_cut(data: bytes | bytearray, limit: int) -> int:
    """A cut position <= limit that does not split a UTF-8 sequence (when the data is UTF-8 at all)."""
    cut = limit
    # Back off over at most 3 continuation bytes (0b10xxxxxx) to the start of the character.
    while cut > limit - 3 and cut > 0 and (data[cut] & 0xC0) == 0x80:
        cut -= 1
    return cut if cut > 0 else limit


class _ServerProtocol(asyncio.subprocess.SubprocessStreamProtocol):
    """asyncio's own subprocess protocol, plus an event set the moment the process exits.

    ``Process.wait()`` (Python 3.11) only returns once every pipe is closed too, which never happens while a
    grandchild holds stdout open; the exit itself is what we need to see.
    """

    def __init__(self, limit: int, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(limit=limit, loop=loop)
        self.exited = asyncio.Event()

    def process_exited(self) -> None:
        super().process_exited()
        self.exited.set()


class StdioTransport(Transport):
    """Runs a server as a subprocess and talks to it over stdin/stdout."""

    def __init__(
        self,
        command: str,
        args: Sequence[str] = (),
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
        stderr_tail_lines: int = 50,
        close_timeout: float = 2.0,
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        """``limits.stderr_line_bytes`` bounds one stderr line: a longer one is handed on cut there (marked so)
        and the rest of it is dropped. stdout is not framed here (the session's framer bounds a message)."""
        self._limits = limits
        self._command = command
        self._args = tuple(args)
        self._env = dict(env) if env is not None else {}
        self._cwd = cwd
        self._close_timeout = max(0.0, close_timeout)
        self._stderr_tail: deque[str] = deque(maxlen=max(0, stderr_tail_lines))

        self._sink: EventSink | None = None
        self._proc: asyncio.subprocess.Process | None = None
        self._own_group = False
        self._write_lock = asyncio.Lock()
        self._stdout_task: asyncio.Task[None] | None = None
        self._stderr_task: asyncio.Task[None] | None = None
        self._exited: asyncio.Event | None = None
        self._wait_task: asyncio.Task[bool] | None = None
        self._watch_task: asyncio.Task[None] | None = None
        self._end_task: asyncio.Task[None] | None = None
        self._starting = False
        self._closed_emitted = False
        self._last_activity: dict[str, float] = {}

    # ------------------------------------------------------------------ public

    def describe(self) -> str:
        return shlex.join([self._command, *self._args])

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    @property
    def returncode(self) -> int | None:
        return self._proc.returncode if self._proc is not None else None

    @property
    def stderr_tail(self) -> tuple[str, ...]:
        """The last ``stderr_tail_lines`` lines the server wrote on stderr."""
        return tuple(self._stderr_tail)

    @property
    def closed(self) -> bool:
        """True once the TransportClosed event has been emitted (or the transport was closed before starting)."""
        return self._closed_emitted

    async def start(self, sink: EventSink) -> None:
        if self._starting or self._proc is not None:
            raise TransportError("transport already started")
        if self._closed_emitted:
            raise TransportError("transport is closed")
        self._starting = True
        try:
            proc, exited = await self._spawn()
        finally:
            self._starting = False
        if self._closed_emitted:  # close() was called while we were spawning
            proc.kill()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(exited.wait(), _KILL_WAIT)
            self._close_subprocess_transport(proc)
            raise TransportError("transport was closed while starting")

        self._proc = proc
        self._exited = exited
        self._sink = sink
        self._emit(TransportNote(f"started {self.describe()} (pid {proc.pid})"))
        self._stdout_task = asyncio.create_task(self._read_stdout(proc), name=f"stdio-stdout-{proc.pid}")
        self._stderr_task = asyncio.create_task(self._read_stderr(proc), name=f"stdio-stderr-{proc.pid}")
        self._wait_task = asyncio.create_task(exited.wait(), name=f"stdio-wait-{proc.pid}")
        self._watch_task = asyncio.create_task(self._watch(), name=f"stdio-watch-{proc.pid}")

    async def _spawn(self) -> tuple[asyncio.subprocess.Process, asyncio.Event]:
        merged_env = dict(os.environ)
        merged_env.update(self._env)
        if self._cwd is not None and not os.path.isdir(self._cwd):
            raise TransportError(f"working directory does not exist: {self._cwd}")
        program = self._resolve(merged_env)

        self._own_group = _IS_POSIX
        loop = asyncio.get_running_loop()
        try:
            # What asyncio.create_subprocess_exec does, with a protocol that reports the exit itself.
            transport, protocol = await loop.subprocess_exec(
                lambda: _ServerProtocol(_STREAM_LIMIT, loop),
                program,
                *self._args,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=merged_env,
                cwd=self._cwd,
                start_new_session=self._own_group,
            )
        except OSError as exc:
            detail = exc.strerror or str(exc)
            raise TransportError(f"cannot start {self._command}: {detail}") from exc
        except (ValueError, TypeError) as exc:  # e.g. an embedded NUL byte in an argument
            raise TransportError(f"cannot start {self._command}: {message_of(exc)}") from exc
        return asyncio.subprocess.Process(transport, protocol, loop), protocol.exited

    async def send(self, frame: bytes, headers: Mapping[str, str] | None = None) -> None:
        """Write one line to the server's stdin; ``headers`` are ignored (stdio has no header layer)."""
        proc = self._proc
        if proc is None:
            raise TransportError("transport not started")
        async with self._write_lock:
            if proc.returncode is not None:
                raise TransportError(self._exited_message(proc))
            if self._end_task is not None or self._closed_emitted:
                raise TransportError("transport is closed")
            stdin = proc.stdin
            if stdin is None or stdin.is_closing():
                raise TransportError(await self._write_failed_message(proc, "server stdin is closed"))
            try:
                stdin.write(frame + b"\n")  # one write: one wake-up of the server per message
                await stdin.drain()
            except (BrokenPipeError, ConnectionResetError) as exc:
                raise TransportError(await self._write_failed_message(proc, "server closed its stdin")) from exc
            except OSError as exc:
                raise TransportError(f"cannot write to server: {exc.strerror or message_of(exc)}") from exc

    async def close(self) -> None:
        if self._proc is None:
            # Never started (or failed to start): nothing to end and no sink to tell.
            self._closed_emitted = True
            return
        if self._end_task is None:
            self._end_task = asyncio.create_task(self._end_by_client(), name=f"stdio-close-{self._proc.pid}")
            watch = self._watch_task
            if watch is not None and not watch.done():
                watch.cancel()
        await asyncio.shield(self._end_task)

    # ------------------------------------------------------------------ start helpers

    def _resolve(self, env: Mapping[str, str]) -> str:
        command = self._command
        if not command:
            raise TransportError("no command given")
        if os.path.dirname(command):
            path = command
            if self._cwd is not None and not os.path.isabs(path):
                path = os.path.join(self._cwd, path)
            if not os.path.exists(path):
                raise TransportError(f"command not found: {command}")
            if os.path.isdir(path) or not os.access(path, os.X_OK):
                raise TransportError(f"command is not executable: {command}")
            return path
        found = shutil.which(command, path=env.get("PATH", os.defpath))
        if found is None:
            raise TransportError(f"command not found: {command}")
        return found

    # ------------------------------------------------------------------ events

    def _emit(self, event: TransportEvent) -> None:
        if self._closed_emitted or self._sink is None:
            return
        if isinstance(event, TransportClosed):
            self._closed_emitted = True
        try:
            self._sink(event)
        except Exception:  # a broken consumer must not kill the readers (the connection supervises its own)
            _log.debug("transport event sink raised on %r", type(event).__name__, exc_info=True)

    def _closed_event(self, reason: str, *, expected: bool, with_exit: bool = True) -> TransportClosed:
        code, sig = _exit_info(self.returncode) if with_exit else (None, None)
        return TransportClosed(
            reason=reason, exit_code=code, signal=sig, stderr_tail=self.stderr_tail, expected=expected
        )

    @staticmethod
    def _exited_message(proc: asyncio.subprocess.Process) -> str:
        return f"server process has exited ({_describe_exit(proc.returncode)})"

    async def _write_failed_message(self, proc: asyncio.subprocess.Process, fallback: str) -> str:
        """Why a write failed: usually the process died, and its exit status is a moment away."""
        if proc.returncode is None and self._wait_task is not None:
            await self._wait_done(self._wait_task, _EXIT_GRACE)
        if proc.returncode is not None:
            return self._exited_message(proc)
        return fallback

    # ------------------------------------------------------------------ readers

    async def _read_stdout(self, proc: asyncio.subprocess.Process) -> None:
        stdout = proc.stdout
        if stdout is None:
            return
        try:
            while True:
                chunk = await stdout.read(_STDOUT_CHUNK)
                if not chunk:
                    return
                self._emit(DataReceived(chunk))
                self._touch("stdout")
                if (gate := self._read_gate()) is not None:
                    await gate
        except OSError as exc:
            self._emit(TransportNote(f"error reading server stdout: {message_of(exc)}"))

    async def _read_stderr(self, proc: asyncio.subprocess.Process) -> None:
        stderr = proc.stderr
        if stderr is None:
            return
        buf = bytearray()
        limit = max(1, self._limits.stderr_line_bytes)
        dropping = 0
        """Bytes of an overlong line dropped so far (0: not dropping)."""
        try:
            while True:
                chunk = await stderr.read(_STDERR_CHUNK)
                if not chunk:
                    return
                self._touch("stderr")
                if dropping:
                    pos = chunk.find(b"\n")
                    if pos == -1:
                        dropping += len(chunk)
                        continue
                    dropping = 0
                    chunk = chunk[pos + 1 :]
                scan_from = len(buf)
                buf += chunk
                start = 0
                pos = buf.find(b"\n", scan_from)
                while pos != -1:
                    if pos - start > limit:
                        self._stderr_line(buf[start : start + _utf8_cut(buf[start:], limit)], cut=True)
                    else:
                        self._stderr_line(buf[start:pos])
                    start = pos + 1
                    pos = buf.find(b"\n", start)
                if start:
                    del buf[:start]
                if len(buf) > limit:
                    self._stderr_line(buf[: _utf8_cut(buf, limit)], cut=True)
                    dropping = len(buf)
                    buf.clear()
        except OSError as exc:
            self._emit(TransportNote(f"error reading server stderr: {message_of(exc)}"))
        finally:
            # EOF, error or cancellation: a last line without newline still counts.
            if buf:
                self._stderr_line(buf)

    def _touch(self, stream: str) -> None:
        # time.monotonic() (what asyncio's loop.time() is): a reader's step may run while Qt delivers a last
        # notifier event outside the app's running loop during shutdown, and must not fail there.
        self._last_activity[stream] = time.monotonic()

    def _stderr_line(self, raw: bytes | bytearray, *, cut: bool = False) -> None:
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        line = bytes(raw).decode("utf-8", errors="replace")
        if cut:
            breach = self._limits.exceeded("stderr_line_bytes", "a stderr line", None)
            line += f" \u2026 [cut: {breach}; the rest of the line was dropped]"
        self._stderr_tail.append(line)
        self._emit(StderrLine(line))

    # ------------------------------------------------------------------ ending

    async def _watch(self) -> None:
        """Notice the server going away on its own (stdout EOF or process exit) and end the transport."""
        assert self._stdout_task is not None and self._wait_task is not None
        try:
            await asyncio.wait({self._stdout_task, self._wait_task}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            if self._end_task is None:  # cancelled from outside (loop shutdown), not by close()
                if self._finish("transport cancelled", expected=False):
                    await self._await_exit(_KILL_WAIT)
            raise
        if self._end_task is None:
            self._end_task = asyncio.create_task(self._end_unexpected(), name=f"stdio-end-{self.pid}")

    async def _end_unexpected(self) -> None:
        proc = self._proc
        stdout_task, wait_task = self._stdout_task, self._wait_task
        assert proc is not None and stdout_task is not None and wait_task is not None
        try:
            if stdout_task.done():
                await self._wait_done(wait_task, _EXIT_GRACE)
                if not wait_task.done():
                    self._emit(TransportNote(f"server closed stdout but is still running; terminating pid {proc.pid}"))
                    self._close_stdin()
                    await self._terminate(proc, wait_task)
                    self._emit(TransportNote(f"server process ended ({_describe_exit(proc.returncode)})"))
                    await self._drain_stderr()
                    self._emit(
                        self._closed_event("server closed stdout but is still running", expected=False, with_exit=False)
                    )
                    return
            else:
                await self._drain_stdout()
            await self._drain_stderr()
            self._emit(self._closed_event("server process exited", expected=False))
        finally:
            if self._finish("server connection ended", expected=False):
                await self._await_exit(_KILL_WAIT)

    async def _end_by_client(self) -> None:
        proc = self._proc
        wait_task = self._wait_task
        assert proc is not None and wait_task is not None
        try:
            if not wait_task.done():
                self._close_stdin()
                await self._wait_done(wait_task, self._close_timeout)
                if not wait_task.done():
                    self._emit(
                        TransportNote(
                            f"server did not exit within {self._close_timeout:g} s of stdin closing; terminating"
                        )
                    )
                    await self._terminate(proc, wait_task)
            await self._drain_stdout()
            await self._drain_stderr()
            self._emit(self._closed_event("closed by client", expected=True))
        finally:
            if self._finish("closed by client", expected=True):
                await self._await_exit(_KILL_WAIT)

    async def _terminate(self, proc: asyncio.subprocess.Process, wait_task: asyncio.Task[bool]) -> None:
        """SIGTERM, wait close_timeout, SIGKILL, wait. Bounded; never raises for a process already gone."""
        self._signal(proc, _signal.SIGTERM)
        await self._wait_done(wait_task, self._close_timeout)
        if wait_task.done():
            return
        self._emit(TransportNote(f"server did not exit after SIGTERM; killing pid {proc.pid}"))
        self._signal(proc, _signal.SIGKILL if _IS_POSIX else _signal.SIGTERM)
        await self._wait_done(wait_task, _KILL_WAIT)

    def _signal(self, proc: asyncio.subprocess.Process, sig: int) -> None:
        if proc.returncode is not None:
            return
        try:
            if self._own_group:
                try:
                    os.killpg(proc.pid, sig)
                    return
                except PermissionError:
                    pass
            if sig == _signal.SIGTERM:
                proc.terminate()
            else:
                proc.kill()
        except (ProcessLookupError, PermissionError):
            pass

    def _close_stdin(self) -> None:
        stdin = self._proc.stdin if self._proc is not None else None
        if stdin is not None and not stdin.is_closing():
            with contextlib.suppress(OSError, RuntimeError):
                stdin.close()

    @staticmethod
    async def _wait_done(task: Awaitable[object], timeout: float) -> None:
        """Wait for a task to finish, at most ``timeout`` seconds, without cancelling it."""
        fut = asyncio.ensure_future(task)
        if not fut.done():
            await asyncio.wait({fut}, timeout=timeout)

    async def _drain_stdout(self) -> None:
        task = self._stdout_task
        if task is None or task.done():
            return
        if not await self._drain(task, "stdout", _STDOUT_IDLE_AFTER_EXIT):
            self._emit(TransportNote("server stdout still open after the process ended (held by a child process?)"))
            self._kill_leftovers()
            await self._cancel(task)

    async def _drain_stderr(self) -> None:
        task = self._stderr_task
        if task is None or task.done():
            return
        if not await self._drain(task, "stderr", _STDERR_IDLE_AFTER_EXIT):
            self._kill_leftovers()
            await self._cancel(task)

    async def _drain(self, task: asyncio.Task[None], stream: str, idle: float) -> bool:
        """Let a reader run to EOF while it still gets data; False when it went quiet (or took too long)."""
        start = time.monotonic()
        while not task.done():
            now = time.monotonic()
            quiet_since = max(start, self._last_activity.get(stream, start))
            if now - quiet_since >= idle or now - start >= _DRAIN_CAP:
                return False
            await self._wait_done(task, min(idle - (now - quiet_since), _DRAIN_CAP - (now - start)))
        return True

    def _kill_leftovers(self) -> None:
        """The process is gone but something in its process group still holds our pipes: end the group."""
        proc = self._proc
        if proc is None or not self._own_group or proc.returncode is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, _signal.SIGKILL)
            self._emit(TransportNote(f"killed processes left in the server's process group {proc.pid}"))

    @staticmethod
    async def _cancel(task: asyncio.Task[None]) -> None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait({task}, timeout=1.0)

    def _finish(self, reason: str, *, expected: bool) -> bool:
        """Synchronous last step of every ending: nothing left running, TransportClosed sent exactly once.

        Returns True when the process was still running and had to be killed here (the ending was cancelled,
        e.g. by the event loop shutting down); the caller then gives the loop a moment to reap it.
        """
        proc = self._proc
        killed = False
        if proc is not None and proc.returncode is None:
            self._signal(proc, _signal.SIGKILL if _IS_POSIX else _signal.SIGTERM)
            killed = True
        for task in (self._stdout_task, self._stderr_task, self._watch_task):
            if task is None or task is asyncio.current_task():
                continue
            if not task.done():
                task.cancel()
            elif not task.cancelled() and (exc := task.exception()) is not None:
                # a bug, not the server: say so in the one line that ends the transport (no traceback on stderr)
                _log.debug("stdio transport task %s failed", task.get_name(), exc_info=exc)
                text = str(exc).strip()
                detail = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
                reason = f"internal error in the stdio transport ({task.get_name()}): {detail}"
                expected = False
        wait_task = self._wait_task
        if wait_task is not None and not wait_task.done() and not killed:
            wait_task.cancel()
        if proc is not None:
            self._close_subprocess_transport(proc)
        if not self._closed_emitted:
            self._emit(self._closed_event(reason, expected=expected))
        return killed

    @staticmethod
    def _close_subprocess_transport(proc: asyncio.subprocess.Process) -> None:
        """Close asyncio's subprocess transport now, rather than from __del__ after the loop may be closed."""
        transport = getattr(proc, "_transport", None)
        if isinstance(transport, asyncio.BaseTransport):
            with contextlib.suppress(Exception):
                transport.close()

    async def _await_exit(self, timeout: float) -> None:
        """Let the event loop notice a killed process's exit (so it is reaped and its Popen knows)."""
        proc = self._proc
        if proc is None:
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while proc.returncode is None and loop.time() < deadline:
            await asyncio.sleep(0.01)
