"""The transports' era switch and per-message headers, without I/O: which headers a message may bring, how they
merge with the transport's own, and what each transport says about cancellation in each era."""

from __future__ import annotations

import string
import sys
from collections.abc import Mapping

import pytest
from hypothesis import given
from hypothesis import strategies as st

from inspector.protocol.versions import Era
from inspector.transports.base import EventSink, Transport
from inspector.transports.http import StreamableHttpTransport, _header_problem
from inspector.transports.sse import LegacySseTransport
from inspector.transports.stdio import StdioTransport

URL = "http://127.0.0.1:9/mcp"


class Minimal(Transport):
    async def start(self, sink: EventSink) -> None:
        pass

    async def send(self, frame: bytes, headers: Mapping[str, str] | None = None) -> None:
        pass

    async def close(self) -> None:
        pass

    def describe(self) -> str:
        return "minimal"


@pytest.mark.parametrize(
    ("name", "value", "problem"),
    [
        ("MCP-Protocol-Version", "2026-07-28", None),
        ("Mcp-Method", "tools/call", None),
        ("Mcp-Name", "=?base64?SGVsbG8sIOS4lueVjA==?=", None),
        ("Mcp-Param-Text", "two words\tand a tab", None),
        ("Mcp-Param-Empty", "", None),
        ("Mcp-Name", "a\r\nX-Evil: 1", "the value of Mcp-Name cannot be sent as it is: it holds the control "
         "character U+000D at position 1"),
        ("Mcp-Name", "caf\u00e9", "the value of Mcp-Name cannot be sent as it is: it holds the non-ASCII "
         "character U+00E9 at position 3"),
        ("Mcp-Name", "nul\x00", "the value of Mcp-Name cannot be sent as it is: it holds the control character "
         "U+0000 at position 3"),
        ("Mcp Name", "x", "'Mcp Name' is not a valid HTTP header name"),
        ("Mcp-Name:", "x", "'Mcp-Name:' is not a valid HTTP header name"),
        ("", "x", "'' is not a valid HTTP header name"),
        ("accept", "text/html", "accept is set by the transport itself"),
        ("Content-Type", "text/plain", "Content-Type is set by the transport itself"),
        ("MCP-SESSION-ID", "abc", "MCP-SESSION-ID is set by the transport itself"),
        ("Last-Event-ID", "1", "Last-Event-ID is set by the transport itself"),
    ],
)  # fmt: skip
def test_which_message_headers_can_be_sent(name: str, value: str, problem: str | None) -> None:
    assert _header_problem(name, value) == problem


@given(st.text(alphabet=string.ascii_letters + string.digits + string.punctuation + " \t", max_size=200))
def test_any_visible_ascii_value_can_be_sent(value: str) -> None:
    assert _header_problem("Mcp-Param-X", value) is None


@given(st.text(max_size=50), st.sampled_from("\r\n\x00\x7f\x1b\x85"), st.text(max_size=50))
def test_a_value_with_a_control_character_never_goes_out(before: str, control: str, after: str) -> None:
    assert _header_problem("Mcp-Param-X", before + control + after) is not None


def test_a_message_version_replaces_the_negotiated_one_case_insensitively() -> None:
    transport = StreamableHttpTransport(URL, headers={"Authorization": "Bearer x"})
    transport.on_negotiated("2025-11-25")
    transport._session_id = "sid-1"
    merged = transport._post_headers(
        "sid-1", {"mcp-protocol-version": "2025-06-18", "Mcp-Method": "ping"}, Era.HANDSHAKE
    )
    assert merged == {
        "Accept": "application/json, text/event-stream",
        "Mcp-Session-Id": "sid-1",
        "Content-Type": "application/json",
        "mcp-protocol-version": "2025-06-18",
        "Mcp-Method": "ping",
    }
    plain = transport._post_headers("sid-1", {}, Era.HANDSHAKE)
    assert plain["MCP-Protocol-Version"] == "2025-11-25"  # today's headers when the message brings none


def test_modern_posts_carry_only_accept_content_type_and_the_message_headers() -> None:
    transport = StreamableHttpTransport(URL)
    transport.set_era(Era.MODERN)
    transport.on_negotiated("2026-07-28")  # ignored in the modern era
    assert transport.protocol_version is None
    sent = {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}
    assert transport._post_headers(None, sent, Era.MODERN) == {
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        **sent,
    }


def test_switching_eras_forgets_the_other_eras_state() -> None:
    transport = StreamableHttpTransport(URL, sse_fallback=True)
    transport.on_negotiated("2025-11-25")
    transport._session_id = "sid-1"
    transport._established = True
    transport.set_era(Era.HANDSHAKE)  # the same era: nothing changes
    assert (transport.session_id, transport.protocol_version, transport._established) == ("sid-1", "2025-11-25", True)
    transport.set_era(Era.MODERN)  # no client yet: nothing to DELETE, nothing spawned
    assert (transport.session_id, transport.protocol_version, transport._want_listen) == (None, None, False)
    transport._established = True
    transport.set_era(Era.HANDSHAKE)
    assert transport.era is Era.HANDSHAKE and not transport._established  # the first POST probes again


def test_every_transport_remembers_its_era_and_only_modern_http_cancels_by_closing() -> None:
    transports: list[Transport] = [
        Minimal(),
        StdioTransport(sys.executable, ["-c", "pass"]),
        LegacySseTransport("http://127.0.0.1:9/sse"),
        StreamableHttpTransport(URL),
    ]

    def state(transport: Transport) -> tuple[Era, bool]:
        return transport.era, transport.cancels_by_closing

    for transport in transports:
        assert state(transport) == (Era.HANDSHAKE, False)
        transport.set_era(Era.MODERN)
        assert state(transport) == (Era.MODERN, isinstance(transport, StreamableHttpTransport))
        transport.set_era(Era.HANDSHAKE)
        assert state(transport) == (Era.HANDSHAKE, False)
