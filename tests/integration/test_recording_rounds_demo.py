"""A multi-round-trip request against the real demo (2026-07-28, stdio) comes back from the recording as one
logical request: every round's request and response, in order, and the final result."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from asynckit import run

from inspector.client.connection import Connection
from inspector.protocol.session import Timeouts
from inspector.protocol.wire import Direction, Kind
from inspector.store.recording import RecordFilter, Recording
from inspector.store.recording.schema import ROUNDS_VERSION
from inspector.transports.stdio import StdioTransport

REPO = Path(__file__).resolve().parents[2]
CAPS: dict[str, object] = {"sampling": {}, "elicitation": {"form": {}}, "roots": {}}


def test_ask_twice_is_recorded_as_one_logical_request_of_three_rounds(tmp_path: Path) -> None:
    path = tmp_path / "session.sqlite3"

    async def body() -> None:
        with Recording(path, label="mrtr") as recording:
            transport = StdioTransport(sys.executable, ["-m", "inspector.demo", "--era", "modern"], cwd=str(REPO))
            async with Connection(
                transport,
                protocol_era="modern",
                capabilities=CAPS,
                timeouts=Timeouts(request=20),
                recorder=recording,
            ) as conn:
                await conn.list_tools()  # a request answered in one round, for contrast
                result = await conn.call_tool("ask_twice", {})
                assert result.get("isError") is not True, result
            check(recording, result)
        with Recording.open(path) as reopened:  # the finished file answers the same
            check(reopened, result)

    run(body, timeout=60)


def check(recording: Recording, result: dict[str, object]) -> None:
    assert recording.meta()["schema_version"] == str(ROUNDS_VERSION)
    calls = recording.rows(RecordFilter(kinds=[Kind.REQUEST], directions=[Direction.OUT], methods=["tools/call"]))
    assert len(calls) == 3, [c.raw for c in calls]
    for row in calls:
        found = recording.logical_request(row.seq)
        assert found is not None
        assert found.method == "tools/call" and found.origin == calls[0].msg_id
        assert [r.round for r in found.rounds] == [1, 2, 3]
        assert [r.request_seq for r in found.rounds] == [c.seq for c in calls]
        assert [r.request_id for r in found.rounds] == [c.msg_id for c in calls]
        assert len({r.request_id for r in found.rounds}) == 3  # every round its own id
        assert found.multi_round and all(r.response_seq is not None for r in found.rounds)
    logical = recording.logical_request(calls[0].seq)
    assert logical is not None
    # Every round's response, paired; the first two ask for input, the last is the tool's result.
    answers = []
    for r in logical.rounds:
        assert r.response_seq is not None
        assert recording.logical_request(r.response_seq) == logical
        assert recording.round_of(r.response_seq) == recording.round_of(r.request_seq) == r.round
        answer = recording.get(r.response_seq)
        assert answer is not None and answer.kind is Kind.RESPONSE and answer.msg_id == r.request_id
        answers.append(json.loads(answer.raw)["result"])
    assert [a.get("resultType") for a in answers[:2]] == ["input_required", "input_required"]
    assert answers[2].get("resultType", "complete") == "complete"
    final = recording.get(logical.final_response_seq or 0)
    assert final is not None and json.loads(final.raw)["result"]["content"] == result["content"]
    # The retries carry the input responses; the first round does not.
    sent = [json.loads(c.raw)["params"] for c in calls]
    assert "inputResponses" not in sent[0] and all("inputResponses" in p for p in sent[1:])
    assert recording.logical_request_for_id(calls[2].msg_id or 0) == logical
    # Requests answered in one round are not multi-round.
    listed = recording.rows(RecordFilter(kinds=[Kind.REQUEST], directions=[Direction.OUT], methods=["tools/list"]))
    assert listed
    single = recording.logical_request(listed[0].seq)
    assert single is not None and not single.multi_round and len(single.rounds) == 1
    assert recording.round_of(listed[0].seq) is None
