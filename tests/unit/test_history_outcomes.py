"""The argument history keeps how each call ended (outcome, duration) and still loads files written before
outcomes existed."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.store.history import ArgumentHistory


def _clock() -> float:
    return 1767000000.5


def test_an_old_history_file_loads_and_gains_outcomes(tmp_path: Path) -> None:
    history = ArgumentHistory("srv", tmp_path, clock=_clock)
    old = {"version": 1, "server": "srv", "tools": {"echo": [{"at": 1766000000.0, "arguments": {"message": "hi"}}]}}
    history.path.write_text(json.dumps(old), encoding="utf-8")
    history = ArgumentHistory("srv", tmp_path, clock=_clock)
    assert history.load_error is None
    (entry,) = history.entries("echo")
    assert entry.arguments == {"message": "hi"} and entry.outcome is None and entry.duration is None

    fresh = history.record("echo", {"message": "again"})
    assert fresh.outcome is None
    done = history.set_outcome("echo", fresh, "isError", 0.25)
    assert done.outcome == "isError" and done.duration == 0.25

    reread = ArgumentHistory("srv", tmp_path, clock=_clock)
    newest, oldest = reread.entries("echo")
    assert (newest.arguments, newest.outcome, newest.duration) == ({"message": "again"}, "isError", 0.25)
    assert (oldest.arguments, oldest.outcome, oldest.duration) == ({"message": "hi"}, None, None)
    saved = json.loads(reread.path.read_text(encoding="utf-8"))["tools"]["echo"]
    assert saved[0]["outcome"] == "isError" and "outcome" not in saved[1]


def test_damaged_outcome_fields_are_dropped_not_fatal(tmp_path: Path) -> None:
    history = ArgumentHistory("srv", tmp_path)
    entries = [
        {"at": 2.0, "arguments": {}, "outcome": 7, "duration": "slow"},
        {"at": 1.0, "arguments": {"a": 1}, "outcome": "error -32602", "duration": -3},
    ]
    history.path.parent.mkdir(parents=True, exist_ok=True)
    history.path.write_text(json.dumps({"version": 1, "tools": {"t": entries}}), encoding="utf-8")
    first, second = ArgumentHistory("srv", tmp_path).entries("t")
    assert (first.outcome, first.duration) == (None, None)
    assert (second.outcome, second.duration) == ("error -32602", None)


def test_session_only_entries_take_outcomes_too(tmp_path: Path) -> None:
    history = ArgumentHistory("srv", tmp_path)
    big = {"blob": "x" * (70 * 1024)}
    entry = history.record("t", big)
    assert not entry.persisted
    history.set_outcome("t", entry, "ok", 1.5)
    (kept,) = history.entries("t")
    assert kept.outcome == "ok" and kept.duration == 1.5
