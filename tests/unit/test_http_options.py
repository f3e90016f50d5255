"""``HttpOptions``: the one value both HTTP transports are built from."""

from __future__ import annotations

import dataclasses

import pytest

from inspector.protocol.limits import DEFAULT_LIMITS, Limits
from inspector.transports.http import StreamableHttpTransport
from inspector.transports.http_options import HttpOptions
from inspector.transports.select import transport_for_target
from inspector.transports.sse import LegacySseTransport

URL = "http://127.0.0.1:9/mcp"


def test_options_are_frozen_and_normalised() -> None:
    headers = {"X-Key": "1"}
    options = HttpOptions(headers=headers, secret_headers=frozenset({"X-Key"}))
    headers["X-Other"] = "2"  # the caller's dict is copied
    assert dict(options.headers) == {"X-Key": "1"} and options.secret_headers == {"x-key"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.timeout = 1.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        options.headers["X"] = "y"  # type: ignore[index]
    assert options.with_changes() is options
    with pytest.raises(TypeError):
        options.with_changes(no_such_option=1)


def test_both_transports_keep_the_options_they_are_given() -> None:
    small = Limits(message_bytes=1024)
    options = HttpOptions(headers={"A": "b"}, timeout=5.0, limits=small)
    http = StreamableHttpTransport(URL, options)
    sse = LegacySseTransport(URL, options)
    assert http.options is options and sse.options is options


def test_keywords_still_build_a_transport() -> None:
    http = StreamableHttpTransport(URL, headers={"A": "b"}, timeout=5.0, sse_fallback=True)
    assert http.options == HttpOptions(headers={"A": "b"}, timeout=5.0)
    sse = LegacySseTransport(URL, endpoint_timeout=2.0)
    assert sse.options == HttpOptions(read_timeout=None, endpoint_timeout=2.0)  # an event stream may stay quiet


@pytest.mark.parametrize(
    ("url", "kind", "read_timeout"),
    [(URL, StreamableHttpTransport, 300.0), (URL[:-4] + "/sse", LegacySseTransport, None)],
)
def test_the_builder_makes_one_options_value(url: str, kind: type, read_timeout: float | None) -> None:
    transport = transport_for_target(url, headers={"A": "b"}, secret_headers=["A"], timeout=7.0, limits=DEFAULT_LIMITS)
    assert isinstance(transport, StreamableHttpTransport | LegacySseTransport) and isinstance(transport, kind)
    assert transport.options == HttpOptions(
        headers={"A": "b"}, secret_headers=frozenset({"a"}), timeout=7.0, read_timeout=read_timeout
    )
