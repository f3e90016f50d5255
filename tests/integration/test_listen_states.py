"""The listen hooks a window follows (inspector.client.listen): each stream's state and reason, the watchers,
``streams()``, ``relisten()``, ``filter_items`` and one resource stream however many subscribes run at once.
Against the in-memory demo in 2026-07-28 and tests/servers/listen_misbehaving.py over stdio."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
from asynckit import run

from inspector.client.connection import Connection
from inspector.client.errors import RemoteError
from inspector.client.listen import FilterItem, ListenState, Subscription, filter_items
from inspector.demo.in_memory import demo_transport
from inspector.transports.stdio import StdioTransport

LISTEN_SERVER = Path(__file__).resolve().parent.parent / "servers" / "listen_misbehaving.py"


@pytest.mark.parametrize(
    ("asked", "ack", "items"),
    [
        ({"toolsListChanged": True}, None, [FilterItem("toolsListChanged", None, True, None)]),
        (
            {"toolsListChanged": True, "resourcesListChanged": True},
            {"toolsListChanged": True, "promptsListChanged": True},
            [
                FilterItem("toolsListChanged", None, True, True),
                FilterItem("promptsListChanged", None, False, True),
                FilterItem("resourcesListChanged", None, True, False),
            ],
        ),
        (
            {"resourceSubscriptions": ["a://1", "b://2"]},
            {"resourceSubscriptions": ["x://9", "a://1"]},
            [
                FilterItem("resourceSubscriptions", "a://1", True, True),
                FilterItem("resourceSubscriptions", "b://2", True, False),
                FilterItem("resourceSubscriptions", "x://9", False, True),
            ],
        ),
        ({"taskIds": ["t1"]}, {"resourceSubscriptions": "junk"}, [FilterItem("taskIds", "t1", True, False)]),
    ],
)
def test_filter_items(asked: dict[str, Any], ack: dict[str, Any] | None, items: list[FilterItem]) -> None:
    assert filter_items(asked, ack) == items


def test_concurrent_subscribes_leave_one_stream_and_watchers_hear_each_change() -> None:
    async def body() -> None:
        conn = Connection(demo_transport("modern", clock_interval=0.2), protocol_era="modern", listen_for_changes=True)
        async with conn:
            heard: list[tuple[Any, ListenState]] = []
            stop = conn.listening.watch(lambda sub: heard.append((sub.id, sub.state)))
            changes = conn.change_listen
            assert changes is not None and changes.state is ListenState.OPEN
            assert conn.listening.streams() == [changes]
            results = await asyncio.gather(
                conn.subscribe_resource("demo://clock"),
                conn.subscribe_resource("demo://files/a.txt"),
                conn.subscribe_resource("demo://text/hello"),
                return_exceptions=True,
            )
            assert [type(r) for r in results[:2]] == [dict, dict]
            assert isinstance(results[2], RemoteError)
            resources = conn.listening.resources
            assert resources is not None and resources.state is ListenState.OPEN
            assert conn.listening.streams() == [changes, resources], "a replaced stream was left open"
            assert sorted(resources.filter["resourceSubscriptions"]) == sorted(conn.listening.uris)
            assert len(conn.listening.uris) == 3
            assert (resources.id, ListenState.OPEN) in heard
            assert any(state is ListenState.CLOSED for _, state in heard)  # the replaced ones
            for _ in range(40):
                if resources.received:
                    break
                await asyncio.sleep(0.05)
            assert resources.received >= 1

            old_ids = (changes.id, resources.id)
            await conn.listening.relisten()
            new_changes, new_resources = conn.change_listen, conn.listening.resources
            assert new_changes is not None and new_resources is not None
            assert (new_changes.id, new_resources.id) != old_ids and new_changes is not changes
            assert changes.state.value == ListenState.CLOSED.value and changes.reason == "closed by the client"
            assert conn.listening.streams() == [new_changes, new_resources]
            assert new_resources.filter == resources.filter
            stop()
            n = len(heard)
            await conn.unsubscribe_resource("demo://clock")
            assert len(heard) == n
        assert new_changes.state.value == ListenState.CLOSED.value  # (mypy narrowed it to OPEN above)

    run(body)


def test_a_stream_the_server_ends_is_relistened_and_says_why() -> None:
    async def body() -> None:
        conn = Connection(
            StdioTransport(sys.executable, [str(LISTEN_SERVER), "--mode", "end-once"]),
            protocol_era="auto",
            listen_for_changes=True,
        )
        async with conn:
            sub = conn.change_listen
            assert sub is not None
            states: list[ListenState] = []

            def heard(s: Subscription) -> None:
                if s is sub and (not states or states[-1] is not s.state):
                    states.append(s.state)

            conn.listening.watch(heard)
            first = sub.id
            for _ in range(100):
                if sub.reopened and sub.state is ListenState.OPEN:
                    break
                await asyncio.sleep(0.05)
            assert states == [ListenState.RELISTENING, ListenState.CONNECTING, ListenState.OPEN]
            assert sub.id != first and sub.reopened == 1
            assert sub.reason == "listening again after: the server ended the subscription"
            assert sub.acknowledged == sub.filter

    run(body)
