"""Replay of a recorded session against a target: send the client's requests again, compare the answers (asyncio).

``replay(session, conn, answers, ...)`` takes a :class:`~inspector.regression.recorded.RecordedSession` and an
open :class:`~inspector.client.connection.Connection` whose handlers are ``answers`` (a
:class:`~inspector.regression.answers.RecordedAnswers`), and sends each recorded request in order, one at a time:

* the params as recorded, except the volatile values of earlier answers that later requests send back (the
  ``cursor`` of the next page, the ``taskId`` of ``tasks/get``), replaced by the values the target gave;
* in either era: the target's era may differ from the recording's. A 2026-07-28 target has no ``ping`` (a
  ``server/discover`` round trip stands in), no ``logging/setLevel`` (the level rides in later requests' ``_meta``)
  and no ``resources/(un)subscribe`` (skipped); the 2026-07-28 envelope of each result (``resultType``,
  ``cacheScope``, ``ttlMs``, ``_meta``) is not compared when the eras differ;
* tasks: a ``tasks/get`` that found the task still ``working`` is skipped (its answer depends on timing); one that
  found it in another status polls the target until the task is in that status or finished, then compares;
* each bounded by ``timeout`` seconds in all (progress does not extend it); a target that hangs fails that request,
  a target that went away fails the rest at once;
* each answer compared with the recorded one (:mod:`inspector.regression.structural`), the paths matching an
  ``ignore`` pattern (:mod:`inspector.protocol.jsonpath_query`, with everything below them) and the volatile values
  (:mod:`inspector.regression.volatile`) left out. The paths are from the JSON-RPC message: ``$.result...`` or
  ``$.error...``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

from inspector.client.connection import Connection
from inspector.client.errors import ClientError, RemoteError, RequestTimeout, message_of
from inspector.protocol.jsonpath import JsonPath, format_path
from inspector.protocol.jsonpath_query import JsonPattern, compile_pattern
from inspector.protocol.versions import Era
from inspector.regression.answers import RecordedAnswers
from inspector.regression.outcome import Ignored, Outcome, ReplayReport, RequestResult
from inspector.regression.recorded import RecordedRequest, RecordedSession
from inspector.regression.structural import MISSING, compare
from inspector.regression.volatile import MAPPED_KEYS, volatile_reason

__all__ = ["DEFAULT_TIMEOUT", "ReplayConfig", "era_name", "replay"]

DEFAULT_TIMEOUT: Final = 30.0
_NOT_IN_MODERN: Final = {
    "resources/subscribe": "2026-07-28 has no resources/subscribe (a client listens instead)",
    "resources/unsubscribe": "2026-07-28 has no resources/unsubscribe (a client listens instead)",
}
_MAPPED_PARAMS: Final = frozenset({"cursor", "taskId"})
_TERMINAL: Final = frozenset({"completed", "failed", "cancelled"})
_POLL: Final = 0.1
_POLL_MAX: Final = 1.0


class ReplayConfig:
    """The ``--ignore`` patterns (checked at once: ``JsonPathError`` for a malformed one) and the bound on each
    request."""

    def __init__(self, ignore: Sequence[str] = (), timeout: float = DEFAULT_TIMEOUT) -> None:
        self.ignore = tuple(ignore)
        self.patterns: tuple[JsonPattern, ...] = tuple(compile_pattern(p) for p in self.ignore)
        self.timeout = timeout


def era_name(era: Era | None) -> str | None:
    """``handshake`` / ``modern``, as a recording's era is named."""
    return None if era is None else ("modern" if era is Era.MODERN else "handshake")


def _mapped(value: Any, mapping: dict[str, Any], key: str | None = None) -> Any:
    """``value`` with every ``cursor`` / ``taskId`` the recording got from an answer replaced by the target's."""
    if isinstance(value, dict):
        return {k: _mapped(v, mapping, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_mapped(v, mapping, key) for v in value]
    if key in _MAPPED_PARAMS and isinstance(value, str) and value in mapping:
        return mapping[value]
    return value


class _Comparison:
    """The skip rule of one comparison: collects what it left out and the values to map in later requests."""

    def __init__(self, patterns: Sequence[JsonPattern], eras_differ: bool, mapping: dict[str, Any]) -> None:
        self.patterns = patterns
        self.eras_differ = eras_differ
        self.mapping = mapping
        self.ignored: list[Ignored] = []

    def __call__(self, parts: JsonPath, old: Any, new: Any) -> bool:
        for pattern in self.patterns:
            if pattern.matches(parts, descendants=True):
                if old != new:
                    self.ignored.append(Ignored(format_path(parts), f"--ignore {pattern.text}"))
                return True
        presence = old is MISSING or new is MISSING
        if not presence and old == new:
            return False
        reason = volatile_reason(parts, old, new, eras_differ=self.eras_differ, presence=presence)
        if reason is None:
            return False
        self.ignored.append(Ignored(format_path(parts), reason))
        if not presence and parts and parts[-1] in MAPPED_KEYS and isinstance(old, str):
            self.mapping[old] = new
        return True


def _error_of(exc: RemoteError) -> dict[str, Any]:
    error: dict[str, Any] = {"code": exc.code, "message": exc.message}
    if exc.data is not None:
        error["data"] = exc.data
    return {"error": error}


def _task_status(response: Any) -> str | None:
    result = response.get("result") if isinstance(response, dict) else None
    status = result.get("status") if isinstance(result, dict) else None
    return status if isinstance(status, str) else None


async def _poll(conn: Connection, params: dict[str, Any] | None, until: frozenset[str], timeout: float) -> Any:
    """``tasks/get`` until the task is in one of ``until`` (the replay's timeout bounds it)."""
    while True:
        live = await conn.request("tasks/get", params, forced=True, timeout=timeout, fresh=True)
        status = _task_status({"result": live})
        if status is None or status in until:
            return live
        interval = live.get("pollInterval") if isinstance(live, dict) else None
        wait = interval / 1000 if isinstance(interval, int | float) and interval > 0 else _POLL
        await asyncio.sleep(min(wait, _POLL_MAX))


async def _send(conn: Connection, request: RecordedRequest, params: dict[str, Any] | None, timeout: float) -> Any:
    method = request.method
    if conn.era is Era.MODERN and method == "ping":
        return await conn.ping()
    if conn.era is Era.MODERN and method == "logging/setLevel":
        level = (params or {}).get("level")
        return await conn.set_logging_level(str(level))
    if method == "tasks/get":
        recorded = _task_status(request.response)
        if recorded is not None:
            return await _poll(conn, params, _TERMINAL | {recorded}, timeout)
    return await conn.request(method, params, forced=True, timeout=timeout, fresh=True)


def _skip_reason(conn: Connection, request: RecordedRequest) -> str | None:
    if request.response is None:
        return "the recording holds no answer to it (cancelled, or the session ended first)"
    if request.method == "tasks/get" and _task_status(request.response) == "working":
        return (
            "a poll of a task still working when recorded: its answer depends on timing (the task's later polls "
            "are compared)"
        )
    if conn.era is Era.MODERN and request.method in _NOT_IN_MODERN:
        return _NOT_IN_MODERN[request.method]
    return None


async def _replay_one(
    conn: Connection,
    answers: RecordedAnswers,
    request: RecordedRequest,
    index: int,
    config: ReplayConfig,
    eras_differ: bool,
    mapping: dict[str, Any],
) -> RequestResult:
    result = RequestResult(
        index=index,
        seq=request.seq,
        method=request.method,
        request_id=request.request_id,
        subject=request.subject,
        outcome=Outcome.SKIPPED,
        recorded=request.response,
        answers_recorded=len(request.answers),
    )
    reason = _skip_reason(conn, request)
    if reason is not None:
        result.reason = reason
        return result
    if not conn.is_open:
        result.outcome, result.error = Outcome.FAILED, f"not sent: {conn.not_open_reason()}"
        return result
    answers.begin(request.answers)
    params = _mapped(request.params, mapping)
    started = time.monotonic()
    live: dict[str, Any]
    try:
        async with asyncio.timeout(config.timeout):
            live = {"result": await _send(conn, request, params, config.timeout)}
    except RemoteError as exc:
        live = _error_of(exc)
    except (TimeoutError, RequestTimeout):
        result.outcome, result.error = Outcome.FAILED, f"no answer within {config.timeout:g} s"
        return result
    except ClientError as exc:
        result.outcome, result.error = Outcome.FAILED, message_of(exc)
        return result
    finally:
        result.latency_ms = (time.monotonic() - started) * 1000
        result.answers_used = answers.used
        result.notes.extend(answers.notes)
    result.live = live
    rule = _Comparison(config.patterns, eras_differ, mapping)
    assert request.response is not None
    result.diff = compare(request.response, live, skip=rule)
    result.ignored = rule.ignored
    if "error" in live and "result" in request.response:
        error = live["error"]
        result.outcome = Outcome.FAILED
        result.error = f"JSON-RPC error {error.get('code')}: {error.get('message')}"
    else:
        result.outcome = Outcome.CHANGED if result.diff else Outcome.SAME
    return result


async def replay(
    session: RecordedSession,
    conn: Connection,
    answers: RecordedAnswers,
    *,
    config: ReplayConfig | None = None,
    target: str = "",
    on_result: Callable[[RequestResult], None] | None = None,
) -> ReplayReport:
    """Send every recorded request to ``conn`` (open, its handlers ``answers``) and compare; the whole report.
    ``on_result`` hears of each request as it is done (a window's progress)."""
    config = config or ReplayConfig()
    server = conn.server
    report = ReplayReport(
        recording=session.path,
        target=target,
        recorded_era=session.era,
        recorded_version=session.protocol_version,
        target_era=era_name(conn.era) if server is not None else None,
        target_version=server.protocol_version if server is not None else None,
        ignore=config.ignore,
    )
    eras_differ = session.era is not None and report.target_era is not None and session.era != report.target_era
    if eras_differ:
        report.notes.append(
            f"the recording speaks the {session.era} era, the target the {report.target_era} era: the 2026-07-28 "
            "envelope of each result is not compared"
        )
    if session.era is None:
        report.notes.append("the recording holds no opening (initialize or server/discover): its era is unknown")
    mapping: dict[str, Any] = {}
    for index, request in enumerate(session.requests, start=1):
        result = await _replay_one(conn, answers, request, index, config, eras_differ, mapping)
        report.results.append(result)
        if on_result is not None:
            on_result(result)
    return report
