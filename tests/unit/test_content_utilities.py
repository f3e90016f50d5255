"""Server log entries (notifications/message), their filter, and the ping history — without Qt."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.content.utilities import (
    DATA_KEEP_LIMIT,
    LOG_LEVELS,
    TEXT_LIMIT,
    LogFilter,
    PingHistory,
    format_rtt,
    level_rank,
    matching_rows,
    parse_log_message,
)


def test_levels() -> None:
    assert [level_rank(level) for level in LOG_LEVELS] == list(range(8))
    assert level_rank("WARNING") == -1 and level_rank(None) == -1 and level_rank(3) == -1


def test_parse_well_formed() -> None:
    entry = parse_log_message({"level": "error", "logger": "db", "data": {"code": 7, "msg": "x\ny"}}, 3, 100.0)
    assert (entry.seq, entry.time, entry.level, entry.rank, entry.logger) == (3, 100.0, "error", 4, "db")
    assert entry.data == {"code": 7, "msg": "x\ny"}
    assert entry.text == '{"code":7,"msg":"x\\ny"}' and entry.problem is None and not entry.truncated
    text = parse_log_message({"level": "info", "data": "line one\n  line two"}, 1)
    assert text.text == "line one line two" and text.data == "line one\n  line two" and text.logger is None


@pytest.mark.parametrize(
    ("params", "problem"),
    [
        ({"level": "fatal", "data": 1}, "level 'fatal' is not one of"),
        ({"level": "info"}, '"data" is missing'),
        ({"level": "info", "logger": 5, "data": 1}, "logger should be a string"),
        ("nope", "params is not an object"),
        (None, "params is not an object"),
    ],
)
def test_parse_malformed(params: Any, problem: str) -> None:
    entry = parse_log_message(params, 1)
    assert entry.problem is not None and problem in entry.problem


def test_big_payloads_are_kept_compactly() -> None:
    big = {"blob": "x" * (DATA_KEEP_LIMIT * 4)}
    entry = parse_log_message({"level": "debug", "data": big}, 1)
    assert entry.truncated and isinstance(entry.data, str) and len(entry.data) == DATA_KEEP_LIMIT
    assert len(entry.text) == TEXT_LIMIT


def test_filter() -> None:
    entries = [
        parse_log_message({"level": level, "logger": f"log.{level}", "data": f"message {i}"}, i)
        for i, level in enumerate(LOG_LEVELS)
    ]
    entries.append(parse_log_message({"level": "weird", "data": "odd one"}, 99))
    assert matching_rows(entries, LogFilter()) == list(range(9))
    assert matching_rows(entries, LogFilter(min_rank=6)) == [6, 7, 8]  # non-standard levels always shown
    assert matching_rows(entries, LogFilter(needle="MESSAGE 3")) == [3]
    assert matching_rows(entries, LogFilter(needle="log.alert")) == [6]  # the logger is searched too
    assert matching_rows(entries, LogFilter(min_rank=4, needle="message"), start=5) == [5, 6, 7]
    assert LogFilter().is_empty and not LogFilter(needle="x").is_empty


def test_ping_history() -> None:
    history = PingHistory(size=3)
    assert history.stats() is None and history.last is None
    history.add(0.010, at=1.0)
    history.add(None, "timeout", at=2.0)
    history.add(0.030, at=3.0)
    assert history.stats() == pytest.approx((0.010, 0.020, 0.030))
    assert history.failures() == 1 and history.last is not None and history.last.time == 3.0
    history.add(0.020)
    assert len(history.samples) == 3 and history.failures() == 1  # the oldest fell out
    history.clear()
    assert history.stats() is None


@pytest.mark.parametrize(("seconds", "text"), [(0.0004, "0.4 ms"), (0.012, "12 ms"), (1.25, "1.25 s")])
def test_format_rtt(seconds: float, text: str) -> None:
    assert format_rtt(seconds) == text
