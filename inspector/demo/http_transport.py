"""The bundled demo server over Streamable HTTP, as one transport: it starts the server process and talks to it."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Final

from inspector.demo.command import demo_command
from inspector.transports.base import (
    EventSink,
    StderrLine,
    TransportClosed,
    TransportError,
    TransportEvent,
    TransportNote,
)
from inspector.transports.forwarding import ForwardingTransport
from inspector.transports.http import StreamableHttpTransport

__all__ = ["DEMO_URL_TIMEOUT", "DemoHttpTransport"]

DEMO_URL_TIMEOUT: Final = 30.0
"""Seconds the demo server may take to print the URL it listens on."""


class DemoHttpTransport(ForwardingTransport):
    """Starts ``python -m inspector.demo --http 0``, reads its URL from stderr, talks Streamable HTTP to it.

    The process belongs to this transport: it is stopped when the transport closes (or fails to start);
    its stderr lines after the URL are forwarded as StderrLine events.
    """

    def __init__(self, timeout: float = DEMO_URL_TIMEOUT, *, variant: str = "standard") -> None:
        self.timeout = timeout
        self.variant = variant
        """``--variant`` of the demo: ``standard`` or ``changed`` (:mod:`inspector.demo.variant_changed`)."""
        self.process: asyncio.subprocess.Process | None = None
        self.url: str | None = None
        self._inner: StreamableHttpTransport | None = None
        self._sink: EventSink | None = None
        self._reader: asyncio.Task[None] | None = None
        self._closed = False

    def describe(self) -> str:
        if self._inner is not None:
            return self._inner.describe()
        return " ".join(demo_command(*self._args()))

    async def start(self, sink: EventSink) -> None:
        if self._sink is not None or self._closed:
            raise TransportError("transport already started")
        self._sink = sink
        try:
            self.process = await asyncio.create_subprocess_exec(
                *demo_command(*self._args()),
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
        except OSError as exc:
            raise TransportError(f"cannot start the demo server: {exc}") from exc
        sink(TransportNote(f"demo server started, pid {self.process.pid}"))
        try:
            self.url = await asyncio.wait_for(self._read_url(), self.timeout)
        except (TimeoutError, TransportError) as exc:
            await self._stop_process()
            raise TransportError(f"the demo server did not start: {exc or 'no URL in time'}") from None
        self._reader = asyncio.get_running_loop().create_task(self._forward_stderr())
        self._inner = StreamableHttpTransport(self.url)
        self._inner.set_era(self.era)
        try:
            await self._inner.start(self._on_event)
        except BaseException:
            await self._stop_process()
            raise

    def _args(self) -> list[str]:
        variant = [] if self.variant == "standard" else ["--variant", self.variant]
        return ["--http", "0", *variant]

    async def _read_url(self) -> str:
        assert self.process is not None and self.process.stderr is not None
        while True:
            raw = await self.process.stderr.readline()
            if not raw:
                raise TransportError("it exited before listening")
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            if self._sink is not None:
                self._sink(StderrLine(line))
            if line.startswith("listening on "):
                return line.removeprefix("listening on ").strip()

    async def _forward_stderr(self) -> None:
        process = self.process
        if process is None or process.stderr is None:
            return
        while raw := await process.stderr.readline():
            if self._sink is not None and not self._closed:
                self._sink(StderrLine(raw.decode("utf-8", "replace").rstrip("\r\n")))

    def _on_event(self, event: TransportEvent) -> None:
        if self._sink is not None:
            self._sink(event)

    async def close(self) -> None:
        if self._closed:
            return
        inner = self._inner
        if inner is not None:
            await inner.close()  # emits TransportClosed(expected=True)
        self._closed = True
        await self._stop_process()
        if inner is None and self._sink is not None:
            self._sink(TransportClosed("closed", expected=True))

    async def _stop_process(self) -> None:
        process = self.process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
            try:
                await asyncio.wait_for(process.wait(), 5.0)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
            self._reader = None
