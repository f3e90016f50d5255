"""What a subscriptions/listen acknowledgement says compared with what was asked (inspector.client.listen)."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.client.listen import compare_filters


@pytest.mark.parametrize(
    ("asked", "ack", "refused", "said"),
    [
        ({"toolsListChanged": True}, {"toolsListChanged": True}, {}, []),
        ({"toolsListChanged": True}, {}, {"toolsListChanged": True}, ["will not send toolsListChanged"]),
        ({}, {"promptsListChanged": True}, {}, ["acknowledged promptsListChanged, which was not asked for"]),
        ({"resourceSubscriptions": ["a", "b"]}, {"resourceSubscriptions": ["a"]}, {"resourceSubscriptions": ["b"]},
         ["did not acknowledge resource subscriptions b"]),
        ({"resourceSubscriptions": ["a"]}, {"resourceSubscriptions": ["a", "z"]}, {},
         ["acknowledged resource subscriptions nobody asked for: z"]),
        ({"taskIds": ["t1"]}, {}, {"taskIds": ["t1"]}, ["did not acknowledge task ids t1"]),
        ({"taskIds": ["t1"]}, {"taskIds": ["t1"]}, {}, []),
        # whatever the server sends, nothing raises
        ({"toolsListChanged": True, "taskIds": ["t"]}, "not an object", {"toolsListChanged": True, "taskIds": ["t"]},
         ["will not send toolsListChanged", "did not acknowledge task ids t"]),
        ({"resourceSubscriptions": ["a"]}, {"resourceSubscriptions": "a"}, {"resourceSubscriptions": ["a"]},
         ["did not acknowledge resource subscriptions a"]),
    ],
)  # fmt: skip
def test_compare_filters(asked: dict[str, Any], ack: Any, refused: dict[str, Any], said: list[str]) -> None:
    got_refused, lines = compare_filters(asked, ack)
    assert got_refused == refused
    assert len(lines) == len(said)
    for line, part in zip(lines, said, strict=True):
        assert part in line
