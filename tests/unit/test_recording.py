"""The traffic recorder: one SQLite file per session, buffered writes, reads for the log."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode, Severity
from inspector.protocol.wire import Direction, Kind, WireMessage
from inspector.store import paths
from inspector.store.recording import (
    FTS_MAX_BYTES,
    RecordFilter,
    Recording,
    RecordingError,
    fts5_available,
)
from inspector.transports.base import (
    DataReceived,
    FrameReceived,
    HttpExchange,
    StderrLine,
    TransportClosed,
    TransportNote,
)

SEARCH_MODES = [
    pytest.param(True, id="fts5", marks=pytest.mark.skipif(not fts5_available(), reason="SQLite without FTS5")),
    pytest.param(False, id="like"),
]


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.CONFIG_DIR_ENV, str(tmp_path / "config"))
    monkeypatch.setenv(paths.DATA_DIR_ENV, str(tmp_path / "data"))


@pytest.fixture
def rec(tmp_path: Path) -> Iterator[Recording]:
    with Recording.create(tmp_path, label="test") as recording:
        yield recording


def frame(obj: object) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


def request(id_: int | str, method: str, params: object = None, direction: Direction = Direction.OUT) -> WireMessage:
    body: dict[str, object] = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        body["params"] = params
    return WireMessage(direction, frame(body), Kind.REQUEST, method=method, id=id_)


def response(
    id_: int | str, result: object, method: str | None = None, direction: Direction = Direction.IN
) -> WireMessage:
    raw = frame({"jsonrpc": "2.0", "id": id_, "result": result})
    return WireMessage(direction, raw, Kind.RESPONSE, method=method, id=id_, latency=0.25)


def notification(method: str, params: object = None, direction: Direction = Direction.IN) -> WireMessage:
    return WireMessage(
        direction, frame({"jsonrpc": "2.0", "method": method, "params": params}), Kind.NOTIFICATION, method
    )


def a_session(recording: Recording) -> None:
    """A small, varied session: seqs 1..9."""
    recording.record_message(request(1, "initialize", {"protocolVersion": "2025-11-25"}))  # 1
    recording.record_message(response(1, {"serverInfo": {"name": "Weather Server"}}, "initialize"))  # 2
    recording.record_message(notification("notifications/initialized", direction=Direction.OUT))  # 3
    recording.record_message(request(2, "tools/list"))  # 4
    recording.record_message(request(1, "roots/list", direction=Direction.IN))  # 5: the server's own id 1
    recording.record_transport(StderrLine("server: listing tools for you"))  # 6
    recording.record_message(response(1, {"roots": []}, "roots/list", direction=Direction.OUT))  # 7
    recording.record_message(  # 8
        WireMessage(
            Direction.IN,
            frame({"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "get_weather"}]}}),
            Kind.RESPONSE,
            method="tools/list",
            id=2,
            diagnostics=[Diagnostic(DiagnosticCode.SCHEMA, "inputSchema missing", path="$.result.tools[0]")],
            latency=0.5,
        )
    )
    recording.record_message(notification("notifications/progress", {"progress": 1}))  # 9


# -- paths ------------------------------------------------------------------------------------


def test_paths_honour_environment(tmp_path: Path) -> None:
    assert paths.config_dir() == tmp_path / "config"
    assert paths.data_dir() == tmp_path / "data"
    assert paths.recordings_dir() == tmp_path / "data" / "recordings"
    assert paths.recordings_dir().is_dir() and paths.config_dir().is_dir()


def test_paths_default_to_platform_dirs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(paths.CONFIG_DIR_ENV)
    monkeypatch.setenv(paths.DATA_DIR_ENV, "  ")
    created: list[Path] = []

    def ensure(path: Path) -> Path:
        created.append(path)
        return path

    monkeypatch.setattr(paths, "_ensure", ensure)
    assert paths.APP_NAME in str(paths.config_dir())
    assert paths.APP_NAME in str(paths.data_dir())
    assert created


# -- creating and opening -----------------------------------------------------------------------


def test_create_names_the_file_and_writes_meta(tmp_path: Path) -> None:
    with Recording.create(label="my server / prod!", target="uvx weather") as recording:
        path = recording.path
        assert path.parent == tmp_path / "data" / "recordings"
        assert re.fullmatch(r"\d{8}T\d{6}Z-my-server-prod-[0-9a-f]{6}\.sqlite3", path.name), path.name
        meta = recording.meta()
        assert meta["schema_version"] == "1"
        assert meta["label"] == "my server / prod!"
        assert meta["target"] == "uvx weather"
        assert abs(float(meta["created_wall"]) - time.time()) < 60
        assert meta["fts"] == ("fts5" if fts5_available() else "none")
        recording.set_target("npx other")
        assert recording.meta()["target"] == "npx other"
    other = Recording.create(tmp_path, label="///")
    assert "-session-" in other.path.name and other.path.parent == tmp_path
    other.close()


def test_open_rejects_what_is_not_a_recording(tmp_path: Path) -> None:
    with pytest.raises(RecordingError):
        Recording.open(tmp_path / "missing.sqlite3")
    (tmp_path / "junk.sqlite3").write_bytes(b"not a database at all" * 100)
    with pytest.raises(RecordingError):
        Recording.open(tmp_path / "junk.sqlite3")
    other = sqlite3.connect(tmp_path / "other.sqlite3")
    other.execute("CREATE TABLE t(x)")
    other.commit()
    other.close()
    with pytest.raises(RecordingError):
        Recording.open(tmp_path / "other.sqlite3")
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    with pytest.raises(RecordingError):
        Recording.open(empty)


# -- round trip -----------------------------------------------------------------------------------


def test_every_field_round_trips(rec: Recording) -> None:
    before = time.monotonic(), time.time()
    diagnostics = [
        Diagnostic(DiagnosticCode.SCHEMA, "bad result", path="$.result.x"),
        Diagnostic(DiagnosticCode.UNKNOWN_KEYS, "extra key", severity=Severity.WARNING, raw=b"\xff{oops"),
    ]
    raw = frame({"jsonrpc": "2.0", "id": "abc", "result": {"text": "héllo ✓"}})
    rec.record_message(
        WireMessage(Direction.IN, raw, Kind.RESPONSE, "tools/call", "abc", diagnostics, forced=True, latency=1.5)
    )
    rec.record_message(WireMessage(Direction.OUT, b'{"jsonrpc":"2.0","id":7,"method":"ping"}', Kind.REQUEST, "ping", 7))
    rec.record_message(WireMessage(Direction.IN, b"\xff\xfenot utf-8", Kind.INVALID))
    after = time.monotonic(), time.time()

    first = rec.get(1)
    assert first is not None
    assert first.seq == 1
    assert before[0] <= first.mono <= after[0]
    assert before[1] <= first.wall <= after[1]
    assert first.time.timestamp() == pytest.approx(first.wall)
    assert first.direction is Direction.IN
    assert first.kind is Kind.RESPONSE
    assert first.method == "tools/call"
    assert first.msg_id == "abc" and first.id_type == "str"
    assert first.size == len(raw)
    assert first.raw == raw.decode()
    assert first.diag_count == 2
    assert first.diagnostics == [d.to_json() for d in diagnostics]
    assert first.forced is True
    assert first.latency == 1.5
    assert first.raw_truncated is False

    second = rec.get(2)
    assert second is not None
    assert second.msg_id == 7 and second.id_type == "int"
    assert second.direction is Direction.OUT and second.kind is Kind.REQUEST
    assert second.diagnostics == [] and second.diag_count == 0
    assert second.forced is False and second.latency is None

    third = rec.get(3)
    assert third is not None
    assert third.raw == "\\xff\\xfenot utf-8"
    assert third.msg_id is None and third.id_type is None and third.method is None
    assert rec.get(4) is None
    assert rec.last_seq == 3


def test_transport_events(rec: Recording) -> None:
    rec.record_transport(DataReceived(b'{"jsonrpc":"2.0"}\n'))
    rec.record_transport(FrameReceived(b"{}"))
    rec.record_transport(TransportNote("process started, pid 42"))
    rec.record_transport(StderrLine("Traceback (most recent call last):"))
    rec.record_transport(TransportClosed("server exited", exit_code=3, stderr_tail=("boom",)))
    rows = rec.rows()
    assert [(r.kind, r.direction, r.raw) for r in rows] == [
        (Kind.TRANSPORT, Direction.IN, "process started, pid 42"),
        (Kind.STDERR, Direction.IN, "Traceback (most recent call last):"),
        (Kind.TRANSPORT, Direction.IN, "server exited; exit status 3; last stderr: boom"),
    ]


def test_ids_keep_their_type(rec: Recording) -> None:
    rec.record_message(request(1, "ping"))  # 1
    rec.record_message(request("1", "ping"))  # 2
    rec.record_message(response("1", {}))  # 3
    rec.record_message(response(1, {}))  # 4
    ids = [(r.msg_id, r.id_type) for r in rec.rows()]
    assert ids == [(1, "int"), ("1", "str"), ("1", "str"), (1, "int")]
    assert rec.find_response(1) == 4
    assert rec.find_response(2) == 3
    assert rec.find_request(3) == 2
    assert rec.find_request(4) == 1


# -- filters, paging, counting ----------------------------------------------------------------------


def test_filters(rec: Recording) -> None:
    a_session(rec)

    def seqs(f: RecordFilter) -> list[int]:
        found = [r.seq for r in rec.rows(f, 0, 1000)]
        assert rec.count(f) == len(found)
        return found

    assert seqs(RecordFilter()) == list(range(1, 10))
    assert seqs(RecordFilter(kinds=[Kind.REQUEST])) == [1, 4, 5]
    assert seqs(RecordFilter(kinds="request")) == [1, 4, 5]
    assert seqs(RecordFilter(kinds=["response", "stderr"])) == [2, 6, 7, 8]
    assert seqs(RecordFilter(directions=[Direction.OUT])) == [1, 3, 4, 7]
    assert seqs(RecordFilter(kinds=["request"], directions=["in"])) == [5]
    assert seqs(RecordFilter(methods=["tools/list"])) == [4, 8]
    assert seqs(RecordFilter(methods=["tools/list", "roots/list"], kinds=["response"])) == [7, 8]
    assert seqs(RecordFilter(diagnostics_only=True)) == [8]
    assert seqs(RecordFilter(diagnostics_only=True, directions=["out"])) == []
    assert seqs(RecordFilter(kinds=[])) == []
    assert seqs(RecordFilter(methods=["nope"])) == []
    assert rec.methods() == ["initialize", "notifications/initialized", "notifications/progress", "roots/list",
                             "tools/list"]  # fmt: skip
    assert rec.methods(RecordFilter(directions=["out"], kinds=["request"])) == ["initialize", "tools/list"]


def test_paging(rec: Recording) -> None:
    a_session(rec)
    assert [r.seq for r in rec.rows(None, 2, 3)] == [3, 4, 5]
    assert [r.seq for r in rec.rows(None, 8, 3)] == [9]
    assert rec.rows(None, 20, 3) == []
    requests = RecordFilter(kinds=["request"])
    assert [r.seq for r in rec.rows(requests, 1, 5)] == [4, 5]
    assert [r.seq for r in rec.rows_after(4, requests)] == [5]
    assert [r.seq for r in rec.rows_after(0, None, 2)] == [1, 2]
    assert rec.rows_after(9) == []


def test_selective_and_broad_filters_agree(tmp_path: Path) -> None:
    """Rare filters go through an index, common ones walk the table; both must give the same rows."""
    with Recording.create(tmp_path) as recording:
        expected_errors = []
        for i in range(3000):
            if i % 500 == 7:
                raw = frame({"jsonrpc": "2.0", "id": i, "error": {"code": -32601, "message": "no"}})
                recording.record_message(WireMessage(Direction.IN, raw, Kind.ERROR, "tools/call", i))
                expected_errors.append(i + 1)
            else:
                recording.record_message(notification("notifications/message", {"i": i}))
        errors = RecordFilter(kinds=["error"])
        assert recording.count(errors) == 6
        assert [r.seq for r in recording.rows(errors, 0, 100)] == expected_errors
        assert [r.seq for r in recording.rows(errors, 4, 100)] == expected_errors[4:]
        assert [r.seq for r in recording.rows(RecordFilter(methods=["tools/call"]), 0, 100)] == expected_errors
        broad = RecordFilter(kinds=["notification"])
        assert recording.count(broad) == 2994
        page = recording.rows(broad, 1000, 5)
        assert [r.seq for r in page] == [s for s in range(1, 3001) if s not in expected_errors][1000:1005]


# -- search -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("use_fts", SEARCH_MODES)
def test_search(tmp_path: Path, use_fts: bool) -> None:
    with Recording.create(tmp_path, use_fts=use_fts) as recording:
        assert recording.fts is use_fts
        a_session(recording)
        assert recording.search("weather") == [2, 8]
        assert recording.search("WEATHER server") == [2]  # case-insensitive, every term must match
        assert recording.search("tools/li") == [4]  # phrase whose last word may continue
        assert recording.search("get_weather") == [8]
        assert recording.search("listing tools") == [6]  # stderr text is searchable
        assert recording.search('"roots":[]') == [7]
        assert recording.search("[]") == [7]  # no letters: substring match
        assert recording.search("zebra") == []
        assert recording.search("   ") == []
        assert recording.search("notifications", limit=2) == [3, 9]
        text_and_kind = RecordFilter(text="tools", kinds=["response"])
        assert [r.seq for r in recording.rows(text_and_kind)] == [8]
        assert recording.count(text_and_kind) == 1
        assert recording.count(RecordFilter(text="weather")) == 2


def test_like_fallback_matches_substrings(tmp_path: Path) -> None:
    with Recording.create(tmp_path, use_fts=False) as recording:
        a_session(recording)
        assert recording.fts is False
        assert recording.search("eather") == [2, 8]
        assert recording.search("100%") == []
        assert recording.search("get_") == [8]  # "_" is not a wildcard


@pytest.mark.skipif(not fts5_available(), reason="SQLite without FTS5")
def test_fts_file_can_be_searched_with_like(tmp_path: Path) -> None:
    with Recording.create(tmp_path) as recording:
        a_session(recording)
        path = recording.path
    with Recording.open(path, use_fts=False) as reader:
        assert reader.fts is False
        assert reader.search("eather") == [2, 8]
    with Recording.open(path) as reader:
        assert reader.fts is True
        assert reader.search("eather") == []  # word prefixes only
        assert reader.search("weath") == [2, 8]


# -- pairing ------------------------------------------------------------------------------------------


def test_find_response(rec: Recording) -> None:
    a_session(rec)
    assert rec.find_response(1) == 2  # client request 1 -> server response 1
    assert rec.find_response(4) == 8
    assert rec.find_response(5) == 7  # server request 1 -> client response 1, not the client's id 1
    assert rec.find_response(2) is None  # not a request
    assert rec.find_response(3) is None
    assert rec.find_response(99) is None
    assert rec.find_request(2) == 1
    assert rec.find_request(7) == 5
    assert rec.find_request(8) == 4
    assert rec.find_request(9) is None


def test_find_response_does_not_cross_a_reused_id(rec: Recording) -> None:
    rec.record_message(request(5, "tools/call"))  # 1: never answered
    rec.record_message(request(5, "tools/call"))  # 2: same id again
    rec.record_message(response(5, {}))  # 3
    error = frame({"jsonrpc": "2.0", "id": 6, "error": {"code": -1, "message": "x"}})
    rec.record_message(request(6, "ping"))  # 4
    rec.record_message(WireMessage(Direction.IN, error, Kind.ERROR, "ping", 6))  # 5
    assert rec.find_response(1) is None
    assert rec.find_response(2) == 3
    assert rec.find_response(4) == 5
    assert rec.find_request(3) == 2


def test_find_response_prefers_a_well_formed_answer(rec: Recording) -> None:
    rec.record_message(request(3, "tools/call"))  # 1
    broken = b'{"jsonrpc":"2.0","id":3,"result":{},"error":{"code":1,"message":"both"}}'
    rec.record_message(WireMessage(Direction.IN, broken, Kind.INVALID, id=3))  # 2
    rec.record_message(response(3, {}))  # 3
    rec.record_message(request(4, "tools/call"))  # 4
    rec.record_message(WireMessage(Direction.IN, broken.replace(b":3", b":4"), Kind.INVALID, id=4))  # 5
    assert rec.find_response(1) == 3
    assert rec.find_response(4) == 5
    assert rec.find_request(2) == 1


# -- export -------------------------------------------------------------------------------------------


def test_export_jsonl(rec: Recording, tmp_path: Path) -> None:
    a_session(rec)
    rec.record_message(WireMessage(Direction.IN, b"{broken json", Kind.INVALID))  # 10
    rec.record_message(WireMessage(Direction.IN, b'{"x": NaN}', Kind.INVALID))  # 11
    rec.record_transport(StderrLine("42"))  # 12
    out = tmp_path / "export.jsonl"
    assert rec.export_jsonl(out) == 12
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 12
    first = lines[0]
    assert first["seq"] == 1
    assert first["direction"] == "out" and first["kind"] == "request" and first["method"] == "initialize"
    assert first["id"] == 1
    assert first["message"] == {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                "params": {"protocolVersion": "2025-11-25"}}  # fmt: skip
    assert first["diagnostics"] == [] and first["forced"] is False
    assert first["time"].endswith("+00:00")
    assert lines[7]["diagnostics"][0]["code"] == "schema"
    assert lines[7]["latency"] == 0.5
    assert lines[9]["message"] == "{broken json"
    assert lines[10]["message"] == '{"x": NaN}'
    assert lines[11]["message"] == "42" and lines[11]["kind"] == "stderr"
    assert rec.export_jsonl(out, RecordFilter(kinds=["request"])) == 3
    assert [json.loads(line)["seq"] for line in out.read_text().splitlines()] == [1, 4, 5]


def test_export_keeps_string_ids_and_odd_text(rec: Recording, tmp_path: Path) -> None:
    rec.record_message(response("1", {"text": "snow ❄ \ud800"}))
    out = tmp_path / "e.jsonl"
    rec.export_jsonl(out)
    (line,) = out.read_text(encoding="utf-8").splitlines()
    obj = json.loads(line)
    assert obj["id"] == "1"
    assert obj["message"]["result"]["text"] == "snow ❄ \ud800"


def test_lone_surrogates_from_the_server_do_not_break_the_recording(rec: Recording) -> None:
    """A server may send ``"\\ud800"`` (valid JSON) as a method, an id, or text a diagnostic quotes: SQLite
    cannot store such text, and every later write would fail with it."""
    odd = WireMessage(
        Direction.IN,
        b'{"jsonrpc":"2.0","id":"\\ud800","method":"\\ud800"}',
        Kind.REQUEST,
        method="\ud800",
        id="\ud800",
        diagnostics=[Diagnostic(DiagnosticCode.UNKNOWN_METHOD, "\ud800 is not a client method")],
    )
    rec.record_message(odd)
    rec.record_message(response("\ud800", {}, "\ud800", direction=Direction.OUT))
    rec.record_transport(HttpExchange("GET", "http://127.0.0.1/mcp", 200, event_id="\udc80", note="\ud800"))
    rec.record_message(request(1, "ping"))
    rec.flush()
    rows = rec.rows()
    assert [r.method for r in rows] == ["\\ud800", "\\ud800", None, "ping"]
    assert rows[0].msg_id == "\\ud800"
    assert rows[0].diagnostics[0]["message"] == "\ud800 is not a client method"  # (stored as a JSON escape)
    assert rec.find_response(1) == 2  # the same text on both sides: they are still linked
    assert json.loads(rows[2].raw)["event_id"] == "\udc80"


# -- redaction ----------------------------------------------------------------------------------------


def test_redaction(tmp_path: Path) -> None:
    def mask(data: bytes) -> bytes:
        return re.sub(rb"Bearer [A-Za-z0-9._-]+", b"Bearer ***", data)

    with Recording.create(tmp_path, redact=mask) as recording:
        raw = frame({"jsonrpc": "2.0", "id": 1, "method": "x", "params": {"auth": "Bearer s3cr3t.token"}})
        bad = Diagnostic(DiagnosticCode.INVALID_JSON, "bad", raw=b"Authorization: Bearer s3cr3t.token")
        recording.record_message(WireMessage(Direction.OUT, raw, Kind.REQUEST, "x", 1, [bad]))
        recording.record_transport(StderrLine("using Bearer s3cr3t.token"))
        row = recording.get(1)
        assert row is not None
        assert "s3cr3t" not in row.raw and "Bearer ***" in row.raw
        assert row.size == len(raw)
        assert "s3cr3t" not in json.dumps(row.diagnostics)
        stderr = recording.get(2)
        assert stderr is not None and stderr.raw == "using Bearer ***"
        assert recording.search("s3cr3t") == []
        path = recording.path
    assert b"s3cr3t" not in path.read_bytes()


# -- buffering and files ------------------------------------------------------------------------------


def stored_rows(path: Path) -> int:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT count(*) FROM messages").fetchone()[0])
    finally:
        conn.close()


def wait_for(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_flush_by_count_and_by_close(tmp_path: Path) -> None:
    recording = Recording.create(tmp_path, flush_rows=10, flush_interval=3600)
    for i in range(9):
        recording.record_message(notification("n", {"i": i}))
    assert recording.pending == recording.buffered == 9
    assert recording.committed_seq == 0
    assert stored_rows(recording.path) == 0
    recording.record_message(notification("n", {"i": 9}))
    assert recording.buffered == 0  # handed to the writer, which commits on its own
    wait_for(lambda: stored_rows(recording.path) == 10)
    wait_for(lambda: recording.pending == 0)
    assert recording.committed_seq == recording.last_seq == 10
    for i in range(5):
        recording.record_message(notification("n", {"i": i}))
    assert stored_rows(recording.path) == 10
    recording.close()
    recording.close()  # idempotent
    assert recording.closed
    assert stored_rows(recording.path) == 15
    assert not Path(f"{recording.path}-wal").exists()  # a finished recording is a single file
    with pytest.raises(RecordingError):
        recording.record_message(notification("n"))
    with pytest.raises(RecordingError):
        recording.count()


def test_flush_by_time_and_by_reading(tmp_path: Path) -> None:
    with Recording.create(tmp_path, flush_rows=1000, flush_interval=3600) as recording:
        recording.record_message(notification("n"))
        assert stored_rows(recording.path) == 0
        assert recording.count() == 1  # reads see everything recorded
        assert stored_rows(recording.path) == 1
        recording.flush()
    with Recording.create(tmp_path, flush_rows=1000, flush_interval=0.0) as recording:
        recording.record_message(notification("n"))
        assert recording.buffered == 0
        wait_for(lambda: stored_rows(recording.path) == 1)


def test_record_calls_never_wait_for_the_disk(tmp_path: Path) -> None:
    """Another connection holds the write lock: recording goes on, the rows are written once it is free."""
    with Recording.create(tmp_path, flush_rows=10, flush_interval=3600) as recording:
        recording.set_target("python server.py")
        recording.flush()
        blocker = sqlite3.connect(recording.path, isolation_level=None)
        try:
            blocker.execute("BEGIN IMMEDIATE")
            start = time.perf_counter()
            for i in range(1000):
                recording.record_message(notification("notifications/progress", {"progress": i}))
            assert time.perf_counter() - start < 2.0  # the writer waits for the lock, not the recorder
            assert recording.pending == 1000 and recording.buffered == 0
            assert stored_rows(recording.path) == 0
            blocker.execute("ROLLBACK")
        finally:
            blocker.close()
        recording.flush()
        assert recording.pending == 0
        assert stored_rows(recording.path) == 1000
        assert recording.search("999") == [1000]
        assert recording.meta()["target"] == "python server.py"


def test_a_failed_write_is_reported_and_retried(tmp_path: Path) -> None:
    recording = Recording.create(tmp_path, flush_rows=50, flush_interval=3600)
    recording.record_message(notification("n"))
    recording.flush()
    conn = sqlite3.connect(recording.path)
    try:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    finally:
        conn.close()
    writer_conn = recording._writer._conn  # type: ignore[union-attr]  # the writer is idle after flush()
    writer_conn.execute(f"PRAGMA max_page_count = {pages + 2}")  # a disk that is about to be full
    big = "x" * 20_000
    for i in range(200):  # record calls go on while the writer fails
        recording.record_message(notification("notifications/message", {"data": big, "i": i}))
    with pytest.raises(RecordingError, match="full"):
        recording.flush()
    assert recording.write_error is not None and "full" in recording.write_error
    assert recording.pending == 200 and recording.committed_seq == 1
    with pytest.raises(RecordingError, match="full"):
        recording.count()
    writer_conn.execute("PRAGMA max_page_count = 1073741823")  # space again: the queued rows are retried
    recording.flush()
    assert recording.write_error is None and recording.pending == 0
    assert recording.count() == 201
    assert recording.search("notifications/message") == list(range(2, 202))
    recording.close()
    assert stored_rows(recording.path) == 201


def test_backlog_marks(tmp_path: Path) -> None:
    with Recording.create(tmp_path, flush_rows=10, flush_interval=3600, backlog_rows=100) as recording:
        assert not recording.backlogged and recording.drained
        blocker = sqlite3.connect(recording.path, isolation_level=None)
        try:
            blocker.execute("BEGIN IMMEDIATE")  # the writer cannot commit
            for i in range(99):
                recording.record_message(notification("n", {"i": i}))
            assert not recording.backlogged and not recording.drained  # 99 waiting: not under half of 100
            recording.record_message(notification("n"))
            assert recording.backlogged
            blocker.execute("ROLLBACK")
        finally:
            blocker.close()
        wait_for(lambda: recording.drained)
        assert not recording.backlogged
    assert not recording.backlogged and recording.drained  # closed


def test_a_failing_writer_never_asks_producers_to_wait(tmp_path: Path) -> None:
    with Recording.create(tmp_path, flush_rows=10, flush_interval=3600, backlog_rows=20) as recording:
        recording.record_message(notification("n"))
        recording.flush()
        recording._writer._conn.execute("PRAGMA query_only = 1")  # type: ignore[union-attr]  # every write fails
        for i in range(50):
            recording.record_message(notification("n", {"i": i}))
        wait_for(lambda: recording.write_error is not None)
        assert recording.pending == 50
        assert not recording.backlogged and recording.drained  # waiting would not help
        recording._writer._conn.execute("PRAGMA query_only = 0")  # type: ignore[union-attr]
        recording.flush()
        assert recording.count() == 51


def test_in_memory_recording_writes_in_the_callers_thread() -> None:
    with Recording(":memory:", flush_rows=2) as recording:
        recording.record_message(notification("a"))
        assert recording.pending == 1
        recording.record_message(notification("b"))
        assert recording.pending == 0 and recording.committed_seq == 2
        assert recording.count() == 2


def test_reopen_read_only_and_append(tmp_path: Path) -> None:
    with Recording.create(tmp_path, label="first") as recording:
        a_session(recording)
        path = recording.path
    with Recording.open(path) as reader:
        assert reader.readonly
        assert reader.count() == 9
        assert reader.meta()["label"] == "first"
        assert reader.find_response(4) == 8
        assert [r.seq for r in reader.rows(None, 7, 5)] == [8, 9]
        with pytest.raises(RecordingError):
            reader.record_message(notification("n"))
        with pytest.raises(RecordingError):
            reader.set_target("x")
    with Recording.open(path, readonly=False) as writer:
        writer.record_message(notification("notifications/late"))
        assert writer.last_seq == 10
    with Recording.open(path) as reader:
        assert reader.count() == 10
        assert reader.methods(RecordFilter(kinds=["notification"]))[0] == "notifications/initialized"


def test_live_reader_sees_flushed_rows(tmp_path: Path) -> None:
    with Recording.create(tmp_path) as recording:
        a_session(recording)
        recording.flush()
        with Recording.open(recording.path) as reader:
            assert reader.count() == 9
            recording.record_message(notification("n"))
            recording.flush()
            assert reader.count() == 10
            assert [r.seq for r in reader.rows_after(9)] == [10]
            assert reader.last_seq == 10


# -- volume -------------------------------------------------------------------------------------------


def test_flood_of_notifications(tmp_path: Path) -> None:
    n = 100_000
    messages = [notification("notifications/progress", {"progressToken": "t", "progress": i, "total": n})
                for i in range(n)]  # fmt: skip
    with Recording.create(tmp_path, label="flood") as recording:
        start = time.perf_counter()
        for message in messages:
            recording.record_message(message)
        recording.flush()
        elapsed = time.perf_counter() - start
        print(f"\nrecorded {n} notifications in {elapsed:.3f} s ({elapsed / n * 1e6:.1f} us each)")
        assert elapsed < 10
        assert recording.count() == n
        assert recording.count(RecordFilter(kinds=["notification"], directions=["in"])) == n
        last = recording.rows(None, n - 1, 10)
        assert [r.seq for r in last] == [n]
        assert '"progress":99999' in last[0].raw
        assert recording.search("99999") == [n]


def test_large_frame(tmp_path: Path) -> None:
    text = "x" * (5 * 1024 * 1024) + " needle-at-the-end"
    raw = frame({"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": text}]}})
    assert len(raw) > FTS_MAX_BYTES
    with Recording.create(tmp_path) as recording:
        recording.record_message(request(1, "tools/call"))
        recording.record_message(WireMessage(Direction.IN, raw, Kind.RESPONSE, "tools/call", 1))
        assert recording.pending == 0 or recording.count() == 2
        row = recording.get(2)
        assert row is not None
        assert row.size == len(raw)
        assert row.raw.encode() == raw
        (preview,) = recording.rows(RecordFilter(kinds=["response"]), raw_limit=100)
        assert preview.raw == raw[:100].decode() and preview.raw_truncated
        assert recording.search("needle") == [2]  # beyond the full-text index's cut
        assert recording.search("zzz") == []
        assert recording.find_response(1) == 2
        path = recording.path
    with Recording.open(path) as reader:
        again = reader.get(2)
        assert again is not None and len(again.raw) == len(raw)


def test_truncated_preview_does_not_split_characters(rec: Recording) -> None:
    rec.record_message(WireMessage(Direction.IN, "aé✓".encode(), Kind.INVALID))
    (row,) = rec.rows(raw_limit=4)  # "a" + "é" (2 bytes) + the first byte of "✓"
    assert row.raw == "aé" and row.raw_truncated


# -- flush cost ---------------------------------------------------------------------------------------


def test_full_text_index_is_merged_in_the_background(tmp_path: Path) -> None:
    with Recording.create(tmp_path, flush_rows=20, flush_interval=3600) as recording:
        conn = sqlite3.connect(recording.path)
        try:
            config = dict(conn.execute("SELECT k, v FROM messages_fts_config").fetchall())
            assert conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000  # other connections: default
        finally:
            conn.close()
        assert config["automerge"] == 0 and config["crisismerge"] > 16
        for i in range(2000):  # 100 flushes: 100 segments without merging
            recording.record_message(notification("notifications/progress", {"progress": i, "word": f"w{i}"}))
        recording.flush()
        assert recording.search("w1999") == [2000]
        assert recording.search("w7") == [8, *range(71, 81), *range(701, 801)]
        path = recording.path
    assert not Path(f"{path}-wal").exists()
    with Recording.open(path) as reader:
        assert reader.count() == 2000 and reader.search("w1234") == [1235]
