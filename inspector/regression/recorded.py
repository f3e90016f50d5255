"""A recorded session read for replay: the client's requests in order, each with its recorded answer and the
answers the client gave the server meanwhile (Qt-free).

:func:`read_session` walks a recording once, in seq order, and keeps:

* each request the client sent (``direction`` out, kind request) that a new session does not make by itself:
  not ``initialize`` / ``server/discover`` (the opening), not ``subscriptions/listen`` (a stream that never
  answers), not the later rounds of a 2026-07-28 multi-round-trip request (the replay's session sends them
  itself); each with its params (the 2026-07-28 ``_meta`` envelope and the progress token taken out: the new
  session writes its own), and the recorded answer to its last round (the final result, or the error);
* the answers to the server: each server request the client answered (sampling, elicitation, roots: handshake
  era) and each input of an ``input_required`` round (2026-07-28, from the retry's ``inputResponses``, by the
  input's key), given to the request in flight when it was asked;
* the era the recording spoke (its opening).

Notifications are not replayed (cancellations and progress belong to the run that sent them).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any, Final

from inspector.protocol.envelope import (
    CLIENT_CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    LOG_LEVEL_KEY,
    PROTOCOL_VERSION_KEY,
)
from inspector.protocol.mrtr import INPUT_METHODS, MRTR_METHODS
from inspector.protocol.versions import MODERN_VERSIONS
from inspector.protocol.wire import Direction, Kind, RequestId
from inspector.store.recording import RecordFilter, Recording, RecordingError, RecordRow

__all__ = ["OPENING_METHODS", "Answer", "RecordedRequest", "RecordedSession", "read_session"]

OPENING_METHODS: Final = frozenset({"initialize", "server/discover"})
STREAM_METHODS: Final = frozenset({"subscriptions/listen"})
_ENVELOPE: Final = frozenset({PROTOCOL_VERSION_KEY, CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, LOG_LEVEL_KEY})
_DROPPED_META: Final = frozenset({*_ENVELOPE, "progressToken"})
_PAGE: Final = 500


@dataclass(frozen=True, slots=True)
class Answer:
    """What the client answered one request of the server (or one input of an ``input_required`` round)."""

    method: str
    """``sampling/createMessage``, ``elicitation/create`` or ``roots/list``."""
    result: dict[str, Any] | None
    error: dict[str, Any] | None = None
    """The JSON-RPC error the client answered instead (handshake era)."""
    key: str | None = None
    """2026-07-28: the ``inputRequests`` key it answered."""


@dataclass(slots=True)
class RecordedRequest:
    """One request of the recorded session, to send again."""

    seq: int
    method: str
    request_id: RequestId | None
    params: dict[str, Any] | None
    """As recorded, without the 2026-07-28 envelope and the progress token."""
    response: dict[str, Any] | None
    """The recorded answer to its last round: ``{"result": ...}`` or ``{"error": ...}``; None when none was
    recorded (cancelled, the session ended first) or it was not JSON-RPC."""
    end_seq: int | None
    """The seq of that answer."""
    rounds: int = 1
    answers: list[Answer] = field(default_factory=list)
    """The answers given to the server while it was in flight, in order."""

    @property
    def subject(self) -> str | None:
        """What it is about: the tool's or prompt's name, the resource's URI (None for others)."""
        params = self.params or {}
        for key in ("name", "uri"):
            value = params.get(key)
            if isinstance(value, str):
                return value
        ref = params.get("ref")
        if isinstance(ref, dict):
            value = ref.get("name", ref.get("uri"))
            return value if isinstance(value, str) else None
        return None


@dataclass(slots=True)
class RecordedSession:
    """Everything a replay needs from one recording."""

    path: str
    target: str | None
    """What the recording was connected to (its ``meta``), when known."""
    protocol_version: str | None
    requests: list[RecordedRequest]
    session_answers: list[Answer] = field(default_factory=list)
    """Answers given while no request of the client was in flight (the roots a server asked for right away)."""

    @property
    def era(self) -> str | None:
        """``modern`` (2026-07-28), ``handshake``, or None when the recording holds no opening."""
        if self.protocol_version is None:
            return None
        return "modern" if self.protocol_version in MODERN_VERSIONS else "handshake"


def _json(row: RecordRow | None) -> Any:
    if row is None:
        return None
    try:
        return json.loads(row.raw)
    except (ValueError, RecursionError):
        return None


def _clean_params(params: Any) -> dict[str, Any] | None:
    if not isinstance(params, dict):
        return None
    out = dict(params)
    meta = out.get("_meta")
    if isinstance(meta, dict):
        kept = {k: v for k, v in meta.items() if k not in _DROPPED_META}
        if kept:
            out["_meta"] = kept
        else:
            del out["_meta"]
    return out


def _response_of(message: Any) -> dict[str, Any] | None:
    if not isinstance(message, dict):
        return None
    if "error" in message:
        return {"error": message["error"]}
    if "result" in message:
        return {"result": message["result"]}
    return None


def _rows(rec: Recording) -> Iterator[RecordRow]:
    kinds = RecordFilter(kinds=(Kind.REQUEST.value, Kind.RESPONSE.value, Kind.ERROR.value))
    after = 0
    while page := rec.rows_after(after, kinds, limit=_PAGE):
        yield from page
        after = page[-1].seq


@dataclass(slots=True)
class _Reading:
    rec: Recording
    requests: list[RecordedRequest] = field(default_factory=list)
    session_answers: list[Answer] = field(default_factory=list)
    version: str | None = None
    asked: dict[Any, tuple[str, int]] = field(default_factory=dict)
    """Server requests by id (as JSON text): their method and seq."""
    skip_seqs: set[int] = field(default_factory=set)
    """Later rounds of multi-round-trip requests (the replay's session sends its own)."""

    def out_request(self, row: RecordRow) -> None:
        message = _json(row)
        method = row.method or (message.get("method") if isinstance(message, dict) else None)
        if row.seq in self.skip_seqs or not isinstance(method, str):
            return
        params = message.get("params") if isinstance(message, dict) else None
        if method in OPENING_METHODS:
            self._opening(method, params, row)
            return
        if method in STREAM_METHODS:
            return
        logical = self.rec.logical_request(row.seq)
        end = logical.final_response_seq if logical is not None else self.rec.find_response(row.seq)
        rounds = logical.rounds if logical is not None else ()
        self.skip_seqs.update(r.request_seq for r in rounds[1:])
        request = RecordedRequest(
            seq=row.seq,
            method=method,
            request_id=row.msg_id,
            params=_clean_params(params),
            response=_response_of(_json(self.rec.get(end))) if end is not None else None,
            end_seq=end,
            rounds=max(1, len(rounds)),
        )
        for earlier, later in pairwise(rounds):
            request.answers.extend(self._inputs(earlier.response_seq, later.request_seq))
        self.requests.append(request)

    def _opening(self, method: str, params: Any, row: RecordRow) -> None:
        if self.version is not None:
            return
        if method == "initialize" and isinstance(params, dict):
            end = self.rec.find_response(row.seq)
            answered = _json(self.rec.get(end)) if end is not None else None
            result = answered.get("result") if isinstance(answered, dict) else None
            version = result.get("protocolVersion") if isinstance(result, dict) else None
            self.version = version if isinstance(version, str) else params.get("protocolVersion")
        elif isinstance(params, dict):
            end = self.rec.find_response(row.seq)
            answered = _json(self.rec.get(end)) if end is not None else None
            if isinstance(answered, dict) and "result" in answered:
                meta = params.get("_meta")
                version = meta.get(PROTOCOL_VERSION_KEY) if isinstance(meta, dict) else None
                self.version = version if isinstance(version, str) else None

    def _inputs(self, asked_seq: int | None, retry_seq: int) -> list[Answer]:
        """The inputs a retry answered: its ``inputResponses``, each with the method its round asked with."""
        asked = _json(self.rec.get(asked_seq)) if asked_seq is not None else None
        retry = _json(self.rec.get(retry_seq))
        result = asked.get("result") if isinstance(asked, dict) else None
        requests = result.get("inputRequests") if isinstance(result, dict) else None
        params = retry.get("params") if isinstance(retry, dict) else None
        responses = params.get("inputResponses") if isinstance(params, dict) else None
        if not isinstance(responses, dict):
            return []
        out: list[Answer] = []
        for key, value in responses.items():
            wanted = requests.get(key) if isinstance(requests, dict) else None
            method = wanted.get("method") if isinstance(wanted, dict) else None
            if isinstance(method, str) and method in INPUT_METHODS and isinstance(value, dict):
                out.append(Answer(method, value, key=key))
        return out

    def in_request(self, row: RecordRow) -> None:
        if row.method is not None:
            self.asked[json.dumps(row.msg_id)] = (row.method, row.seq)

    def out_answer(self, row: RecordRow) -> None:
        found = self.asked.pop(json.dumps(row.msg_id), None)
        if found is None:
            return
        method, asked_seq = found
        message = _json(row)
        if not isinstance(message, dict) or method not in INPUT_METHODS:
            return
        result = message.get("result")
        error = message.get("error")
        answer = Answer(
            method, result if isinstance(result, dict) else None, error if isinstance(error, dict) else None
        )
        owner = self._in_flight(asked_seq)
        (owner.answers if owner is not None else self.session_answers).append(answer)

    def _in_flight(self, seq: int) -> RecordedRequest | None:
        """The request the server asked during: the latest started that was still unanswered at ``seq`` (one
        that can take input first: tools/call, prompts/get, resources/read)."""
        pending = [r for r in self.requests if r.seq < seq and (r.end_seq is None or r.end_seq > seq)]
        if not pending:
            return None
        inputs = [r for r in pending if r.method in MRTR_METHODS]
        return (inputs or pending)[-1]


def read_session(path: Path | str) -> RecordedSession:
    """The session recorded at ``path``; ``RecordingError`` when it cannot be read as a recording."""
    rec = Recording.open(Path(path))
    try:
        reading = _Reading(rec)
        for row in _rows(rec):
            if row.kind is Kind.REQUEST:
                if row.direction is Direction.OUT:
                    reading.out_request(row)
                else:
                    reading.in_request(row)
            elif row.direction is Direction.OUT:
                reading.out_answer(row)
        meta = rec.meta()
    except RecordingError:
        raise
    except Exception as exc:  # a damaged file: one line, never a traceback
        raise RecordingError(f"cannot read {path}: {type(exc).__name__}: {exc}") from exc
    finally:
        rec.close()
    return RecordedSession(
        path=str(path),
        target=meta.get("target"),
        protocol_version=reading.version,
        requests=reading.requests,
        session_answers=reading.session_answers,
    )
