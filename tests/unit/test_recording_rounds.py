"""The rounds of a multi-round-trip request (2026-07-28) recorded as one logical request (schema version 3)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.protocol.wire import Direction, Kind, RequestId, WireMessage
from inspector.store.recording import LogicalRequest, Recording, RecordingError, RequestRound
from inspector.store.recording.schema import BASE_VERSION, HTTP_VERSION, ROUNDS_VERSION, table_names
from inspector.store.recording.writer import Batch, write_batches
from inspector.transports.base import HttpExchange


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "r.sqlite3"


@pytest.fixture
def rec(path: Path) -> Iterator[Recording]:
    with Recording(path) as recording:
        yield recording


def frame(obj: object) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


def call(rid: RequestId, origin: RequestId | None = None, round_: int = 1, method: str = "tools/call") -> WireMessage:
    params: dict[str, object] = {"name": "ask_twice"}
    if origin is not None:
        params["inputResponses"] = {"k": {"action": "accept"}}
    msg = WireMessage(
        Direction.OUT,
        frame({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}),
        Kind.REQUEST,
        method,
        rid,
    )
    if origin is not None:
        msg.origin, msg.round = origin, round_
    return msg


def answer(rid: RequestId, *, final: bool, method: str = "tools/call") -> WireMessage:
    result: dict[str, object] = (
        {"resultType": "complete", "content": []}
        if final
        else {"resultType": "input_required", "inputRequests": {"k": {"method": "elicitation/create"}}}
    )
    return WireMessage(Direction.IN, frame({"jsonrpc": "2.0", "id": rid, "result": result}), Kind.RESPONSE, method, rid)


def note() -> WireMessage:
    raw = frame({"jsonrpc": "2.0", "method": "notifications/message", "params": {}})
    return WireMessage(Direction.IN, raw, Kind.NOTIFICATION, "notifications/message")


def server_request(rid: RequestId) -> WireMessage:
    raw = frame({"jsonrpc": "2.0", "id": rid, "method": "ping"})
    return WireMessage(Direction.IN, raw, Kind.REQUEST, "ping", rid)


def three_rounds(recording: Recording) -> None:
    """seqs: 1 call id 5, 2 note, 3 input_required, 4 call id 8 (unrelated), 5 server ping id 5 (its own ids),
    6 round 2 id 6, 7 answer 8, 8 input_required to 6, 9 round 3 id 7, 10 final answer to 7."""
    recording.record_message(call(5))  # 1
    recording.record_message(note())  # 2
    recording.record_message(answer(5, final=False))  # 3
    recording.record_message(call(8, method="tools/list"))  # 4
    recording.record_message(server_request(5))  # 5
    recording.record_message(call(6, origin=5, round_=2))  # 6
    recording.record_message(answer(8, final=True, method="tools/list"))  # 7
    recording.record_message(answer(6, final=False))  # 8
    recording.record_message(call(7, origin=5, round_=3))  # 9
    recording.record_message(answer(7, final=True))  # 10


EXPECTED = LogicalRequest(
    5, "tools/call", (RequestRound(1, 1, 5, 3), RequestRound(2, 6, 6, 8), RequestRound(3, 9, 7, 10))
)


def user_version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


# -- one logical request from any of its rows ------------------------------------------------------------------------


@pytest.mark.parametrize("seq", [1, 3, 6, 8, 9, 10])
def test_every_row_of_the_request_gives_the_same_logical_request(rec: Recording, seq: int) -> None:
    three_rounds(rec)
    found = rec.logical_request(seq)
    assert found == EXPECTED
    assert found.multi_round and found.final_response_seq == 10 and found.request_seqs == (1, 6, 9)
    round_ = found.round_for_seq(seq)
    assert round_ is not None and round_.round == rec.round_of(seq)


@pytest.mark.parametrize(("seq", "round_"), [(1, 1), (3, 1), (6, 2), (8, 2), (9, 3), (10, 3)])
def test_round_of_each_row(rec: Recording, seq: int, round_: int) -> None:
    three_rounds(rec)
    assert rec.round_of(seq) == round_


@pytest.mark.parametrize("rid", [5, 6, 7])
def test_logical_request_for_the_id_of_any_round(rec: Recording, rid: int) -> None:
    three_rounds(rec)
    assert rec.logical_request_for_id(rid) == EXPECTED
    assert rec.logical_request_for_id(str(rid)) is None  # "5" is not 5
    assert rec.logical_request_for_id(99) is None


def test_other_rows_are_not_part_of_it(rec: Recording) -> None:
    three_rounds(rec)
    # A request answered in one round is a logical request of one round, and has no round number.
    single = LogicalRequest(8, "tools/list", (RequestRound(1, 4, 8, 7),))
    assert rec.logical_request(4) == single and rec.logical_request(7) == single
    assert not single.multi_round and single.final_response_seq == 7
    assert rec.round_of(4) is None and rec.round_of(7) is None
    # The server's own request with the same id as the origin: another id space.
    assert rec.logical_request(5) == LogicalRequest(5, "ping", (RequestRound(1, 5, 5, None),))
    assert rec.round_of(5) is None
    # Rows that are neither a request nor a response, and seqs that do not exist.
    assert rec.logical_request(2) is None and rec.round_of(2) is None
    assert rec.logical_request(11) is None and rec.round_of(11) is None


def test_a_request_still_waiting_for_its_last_answer(rec: Recording) -> None:
    rec.record_message(call(1))
    rec.record_message(answer(1, final=False))
    rec.record_message(call(2, origin=1, round_=2))
    found = rec.logical_request(1)
    assert found == LogicalRequest(1, "tools/call", (RequestRound(1, 1, 1, 2), RequestRound(2, 3, 2, None)))
    assert found.final_response_seq is None
    assert rec.round_of(2) == 1 and rec.round_of(3) == 2


def test_an_unpaired_response_has_no_logical_request(rec: Recording) -> None:
    rec.record_message(answer(42, final=True))
    assert rec.logical_request(1) is None and rec.round_of(1) is None


def test_a_reused_origin_id_starts_a_new_logical_request(rec: Recording) -> None:
    """Ids restart (a new session on reconnection): rounds stay with the request they followed."""
    rec.record_message(call(1))  # 1
    rec.record_message(answer(1, final=False))  # 2
    rec.record_message(call(2, origin=1, round_=2))  # 3
    rec.record_message(answer(2, final=True))  # 4
    rec.record_message(call(1))  # 5  the id again, a new request
    rec.record_message(answer(1, final=False))  # 6
    rec.record_message(call(2, origin=1, round_=2))  # 7
    rec.record_message(answer(2, final=False))  # 8
    rec.record_message(call(3, origin=1, round_=3))  # 9
    rec.record_message(answer(3, final=True))  # 10
    rec.record_message(call(1, method="tools/list"))  # 11  and again, answered at once
    rec.record_message(answer(1, final=True, method="tools/list"))  # 12
    first = LogicalRequest(1, "tools/call", (RequestRound(1, 1, 1, 2), RequestRound(2, 3, 2, 4)))
    second = LogicalRequest(
        1, "tools/call", (RequestRound(1, 5, 1, 6), RequestRound(2, 7, 2, 8), RequestRound(3, 9, 3, 10))
    )
    assert [rec.logical_request(s) for s in (1, 2, 3, 4)] == [first] * 4
    assert [rec.logical_request(s) for s in (5, 6, 7, 8, 9, 10)] == [second] * 6
    assert rec.logical_request(11) == LogicalRequest(1, "tools/list", (RequestRound(1, 11, 1, 12),))
    assert [rec.round_of(s) for s in range(1, 13)] == [1, 1, 2, 2, 1, 1, 2, 2, 3, 3, None, None]
    assert rec.logical_request_for_id(2) == second
    assert rec.logical_request_for_id(1) == LogicalRequest(1, "tools/list", (RequestRound(1, 11, 1, 12),))


def test_string_ids_keep_their_type(rec: Recording) -> None:
    rec.record_message(call(1, method="tools/list"))  # 1  int 1: not the origin below
    rec.record_message(call("1"))  # 2
    rec.record_message(answer("1", final=False))  # 3
    rec.record_message(call("ü-2", origin="1", round_=2))  # 4
    rec.record_message(answer("ü-2", final=True))  # 5
    expected = LogicalRequest("1", "tools/call", (RequestRound(1, 2, "1", 3), RequestRound(2, 4, "ü-2", 5)))
    assert rec.logical_request(5) == expected
    other = rec.logical_request(1)  # int 1 is not the origin "1" (its answer pairs as find_response pairs it)
    assert other is not None and other.origin == 1 and other.method == "tools/list" and other.request_seqs == (1,)
    assert rec.round_of(1) is None and rec.round_of(2) == 1


def test_a_later_round_without_its_first_request(rec: Recording) -> None:
    """A file whose first round is missing (cut short, written by hand) still groups what is there."""
    rec.record_message(call(2, origin=1, round_=2))
    rec.record_message(answer(2, final=True))
    assert rec.logical_request(2) == LogicalRequest(1, "tools/call", (RequestRound(2, 1, 2, 2),))
    assert rec.round_of(1) == 2


def test_prompts_and_resources_take_rounds_too(rec: Recording) -> None:
    rec.record_message(call(1, method="prompts/get"))
    rec.record_message(answer(1, final=False, method="prompts/get"))
    rec.record_message(call(2, origin=1, round_=2, method="prompts/get"))
    rec.record_message(answer(2, final=True, method="prompts/get"))
    found = rec.logical_request_for_id(2)
    assert found is not None and found.method == "prompts/get" and found.request_seqs == (1, 3)


# -- the file: version 3, written with the messages, older versions read ----------------------------------------------


def test_the_first_later_round_upgrades_the_file_to_version_3(path: Path) -> None:
    with Recording(path) as recording:
        recording.record_message(call(1))
        recording.record_message(answer(1, final=False))
        recording.flush()
        assert recording.meta()["schema_version"] == str(BASE_VERSION)
        assert recording.round_of(1) is None
        recording.record_message(call(2, origin=1, round_=2))
        recording.record_message(answer(2, final=True))
        assert recording.meta()["schema_version"] == str(ROUNDS_VERSION)
        assert recording.round_of(1) == 1
        # Version 3 has every table of version 2: an HTTP exchange later needs no upgrade and is linked.
        recording.record_transport(HttpExchange("POST", "http://127.0.0.1:1/mcp", 200, carried_ids=(2,)))
        recording.flush()
        assert recording.meta()["schema_version"] == str(ROUNDS_VERSION)
        assert recording.exchanges_for(3) == [5]
    assert user_version(path) == ROUNDS_VERSION
    with Recording.open(path) as reopened:
        assert reopened.logical_request(4) == LogicalRequest(
            1, "tools/call", (RequestRound(1, 1, 1, 2), RequestRound(2, 3, 2, 4))
        )
        assert reopened.exchanges_for(3) == [5]


def test_a_version_2_file_is_upgraded_to_3(path: Path) -> None:
    with Recording(path) as recording:
        recording.record_message(call(1))
        recording.record_transport(HttpExchange("POST", "http://127.0.0.1:1/mcp", 200, carried_ids=(1,)))
    assert user_version(path) == HTTP_VERSION
    with Recording(path) as recording:
        recording.record_message(answer(1, final=False))  # 3
        recording.record_message(call(2, origin=1, round_=2))  # 4
        recording.flush()
        assert recording.meta()["schema_version"] == str(ROUNDS_VERSION)
        assert recording.round_of(4) == 2 and recording.exchanges_for(1) == [2]
    assert user_version(path) == ROUNDS_VERSION


@pytest.mark.parametrize("with_http", [False, True], ids=["version-1", "version-2"])
def test_older_files_answer_no_rounds(path: Path, with_http: bool) -> None:
    with Recording(path) as recording:
        recording.record_message(call(1))  # 1
        if with_http:
            recording.record_transport(HttpExchange("POST", "http://127.0.0.1:1/mcp", 200, carried_ids=(1,)))
        recording.record_message(answer(1, final=True))
    assert user_version(path) == (HTTP_VERSION if with_http else BASE_VERSION)
    response = 3 if with_http else 2
    conn = sqlite3.connect(path)
    assert "request_rounds" not in table_names(conn)
    conn.close()
    for readonly in (True, False):
        with Recording.open(path, readonly=readonly) as old:
            single = LogicalRequest(1, "tools/call", (RequestRound(1, 1, 1, response),))
            assert old.logical_request(1) == single and old.logical_request(response) == single
            assert old.logical_request_for_id(1) == single
            assert old.round_of(1) is None and old.round_of(response) is None
    assert user_version(path) == (HTTP_VERSION if with_http else BASE_VERSION)  # reading changed nothing


def test_a_file_from_a_newer_version_is_refused(path: Path) -> None:
    with Recording(path) as recording:
        recording.record_message(call(1))
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {ROUNDS_VERSION + 1}")
    conn.close()
    with pytest.raises(RecordingError, match="newer version"):
        Recording.open(path)


def test_a_reader_sees_rounds_written_after_it_opened(path: Path) -> None:
    with Recording(path) as writer:
        writer.record_message(call(1))
        writer.record_message(answer(1, final=False))
        writer.flush()
        with Recording.open(path) as reader:
            assert reader.round_of(1) is None
            writer.record_message(call(2, origin=1, round_=2))
            writer.flush()
            assert reader.round_of(1) == 1 and reader.round_of(3) == 2


def test_in_memory_recordings_keep_rounds() -> None:
    with Recording.in_memory("test") as recording:
        three_rounds(recording)
        assert recording.logical_request(10) == EXPECTED


def test_rounds_go_in_the_same_transaction_as_their_messages(tmp_path: Path) -> None:
    """The rounds ride in the batch of their messages: one transaction for both, none of their own."""
    path = tmp_path / "t.sqlite3"
    Recording(path).close()
    conn = sqlite3.connect(path, isolation_level=None)
    statements: list[str] = []
    conn.set_trace_callback(statements.append)
    row = (1, 0.0, 0.0, "out", "request", "tools/call", "2", "int", 2, b"{}", None, 0, 0, None)
    write_batches(conn, [Batch([row], upgrade=ROUNDS_VERSION, rounds=[(1, "1", "int", 2)])], fts=False)
    assert [s for s in statements if s in ("BEGIN", "COMMIT")] == ["BEGIN", "COMMIT"]
    assert conn.execute("SELECT * FROM request_rounds").fetchall() == [(1, "1", "int", 2)]
    conn.close()


def test_a_failed_batch_keeps_its_rounds_for_the_retry(path: Path) -> None:
    with Recording(path) as recording:
        recording.record_message(call(1))
        recording.flush()
        writer_conn = recording._writer._conn  # type: ignore[union-attr]  # the writer is idle after flush()
        writer_conn.execute("PRAGMA busy_timeout = 0")  # fail at once instead of waiting for the lock
        blocker = sqlite3.connect(path, isolation_level=None, timeout=0)
        blocker.execute("BEGIN IMMEDIATE")  # the writer cannot commit while this holds the write lock
        try:
            recording.record_message(call(2, origin=1, round_=2))
            with pytest.raises(RecordingError, match="locked"):
                recording.flush()
            assert recording.pending == 1
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        recording.flush()
        assert recording.round_of(2) == 2 and recording.meta()["schema_version"] == str(ROUNDS_VERSION)


def test_a_session_without_rounds_stays_version_1(path: Path) -> None:
    with Recording(path) as recording:
        for rid in range(1, 50):
            recording.record_message(call(rid))
            recording.record_message(answer(rid, final=True))
    assert user_version(path) == BASE_VERSION


# -- any interleaving -----------------------------------------------------------------------------------------------

# A session: logical requests (how many rounds each, whether the last is answered) sent in an interleaved order.
_sessions = st.lists(st.tuples(st.integers(1, 4), st.booleans()), min_size=1, max_size=6).flatmap(
    lambda plan: st.tuples(
        st.just(plan),
        st.permutations([i for i, (rounds, answered) in enumerate(plan) for _ in range(rounds * 2 - (not answered))]),
    )
)


@settings(max_examples=60, deadline=None)
@given(_sessions)
def test_any_interleaving_of_logical_requests(session: tuple[list[tuple[int, bool]], list[int]]) -> None:
    plan, order = session
    ids = iter(range(1, 1000))
    origin: dict[int, int] = {}
    sent: dict[int, int] = {}  # steps taken per logical request
    expected: dict[int, list[RequestRound]] = {i: [] for i in range(len(plan))}
    with Recording.in_memory("hypothesis") as recording:
        for i in order:
            step = sent.get(i, 0)
            sent[i] = step + 1
            seq = recording.last_seq + 1
            if step % 2 == 0:  # a round's request
                rid = next(ids)
                number = step // 2 + 1
                origin.setdefault(i, rid)
                recording.record_message(call(rid) if number == 1 else call(rid, origin=origin[i], round_=number))
                expected[i].append(RequestRound(number, seq, rid, None))
            else:  # its answer
                last = expected[i][-1]
                assert isinstance(last.request_id, int)
                recording.record_message(answer(last.request_id, final=step == plan[i][0] * 2 - 1))
                expected[i][-1] = replace(last, response_seq=seq)
        for i, rounds in expected.items():
            want = LogicalRequest(origin[i], "tools/call", tuple(rounds))
            for r in rounds:
                for row in (r.request_seq, r.response_seq):
                    if row is not None:
                        assert recording.logical_request(row) == want
                        assert recording.round_of(row) == (r.round if len(rounds) > 1 else None)
                assert r.request_id is not None and recording.logical_request_for_id(r.request_id) == want
