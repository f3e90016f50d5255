"""A transport that wraps another one and hands it everything the connection says (the one place that lists
what a wrapper must pass on: messages with their headers, the era, the negotiated version, abandoned requests)."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from inspector.protocol.limits import Limits
from inspector.protocol.versions import Era
from inspector.transports.base import MessageId, Transport, TransportError

__all__ = ["ForwardingTransport"]


class ForwardingTransport(Transport):
    """Subclasses set ``_inner`` (None until their inner transport exists) and implement start/close/describe."""

    _inner: Transport | None = None

    def _target(self) -> Transport:
        if self._inner is None:
            raise TransportError("transport not started")
        return self._inner

    @property
    def limits(self) -> Limits:
        return self._inner.limits if self._inner is not None else super().limits

    async def send(self, frame: bytes, headers: Mapping[str, str] | None = None) -> None:
        target = self._target()
        if headers:
            await target.send(frame, headers)
        else:
            await target.send(frame)

    def set_era(self, era: Era) -> None:
        super().set_era(era)
        if self._inner is not None:
            self._inner.set_era(era)

    @property
    def endpoint(self) -> str | None:
        return self._inner.endpoint if self._inner is not None else None

    @property
    def carries_headers(self) -> bool:
        return self._inner is not None and self._inner.carries_headers

    @property
    def cancels_by_closing(self) -> bool:
        return self._inner is not None and self._inner.cancels_by_closing

    def on_negotiated(self, protocol_version: str) -> None:
        if self._inner is not None:
            self._inner.on_negotiated(protocol_version)

    def abandon(self, request_ids: Collection[MessageId]) -> None:
        if self._inner is not None:
            self._inner.abandon(request_ids)
