"""A recorded JSON-RPC id reads back as it was sent (``1`` and ``"1"`` differ); an id JSON-RPC does not allow
(true, 1.5, a list) reads back as its text, the same through every reader of the recording."""

from __future__ import annotations

import pytest

from inspector.store.recording.schema import decode_id, encode_id


@pytest.mark.parametrize("value", [0, 7, -3, 2**53 + 1, "1", "", "req-1", "ü"])
def test_valid_ids_round_trip_with_their_type(value: int | str) -> None:
    decoded = decode_id(*encode_id(value))
    assert decoded == value and type(decoded) is type(value)


@pytest.mark.parametrize(("value", "text"), [(True, "true"), (1.5, "1.5"), ([1], "[1]"), ({"a": 1}, '{"a":1}')])
def test_ids_json_rpc_does_not_allow_read_back_as_their_text(value: object, text: str) -> None:
    assert encode_id(value) == (text, "json")
    assert decode_id(*encode_id(value)) == text


def test_no_id_stays_none() -> None:
    assert encode_id(None) == (None, None) and decode_id(None, None) is None
