"""Per-tool argument history: order, de-duplication, caps, persistence, sensitive fields, damaged files."""

from __future__ import annotations

import itertools
import json
import os
import stat
from pathlib import Path

import pytest

from inspector.store.history import MAX_ENTRY_CHARS, ArgumentHistory, history_dir, scrub_sensitive


def _clock() -> itertools.count[float]:
    return itertools.count(1_700_000_000.0, 1.0)


def _history(tmp_path: Path, key: str = "profile-1", **kwargs: int) -> ArgumentHistory:
    ticks = _clock()
    return ArgumentHistory(key, tmp_path, clock=lambda: next(ticks), **kwargs)


def test_newest_first_and_same_arguments_move_to_the_top(tmp_path: Path) -> None:
    h = _history(tmp_path)
    h.record("echo", {"message": "one"})
    h.record("echo", {"message": "two"})
    h.record("add", {"a": 1, "b": 2})
    assert [e.arguments for e in h.entries("echo")] == [{"message": "two"}, {"message": "one"}]
    again = h.record("echo", {"message": "one"})
    assert [e.arguments for e in h.entries("echo")] == [{"message": "one"}, {"message": "two"}]
    assert h.latest("echo") == again
    # key order does not make a different entry
    h.record("add", {"b": 2, "a": 1})
    assert len(h.entries("add")) == 1
    assert h.tools() == ["add", "echo"]
    assert h.entries("nothing") == [] and h.latest("nothing") is None


def test_persisted_per_server_and_reloaded(tmp_path: Path) -> None:
    h = _history(tmp_path, "server A")
    h.record("echo", {"message": "kept"})
    other = _history(tmp_path, "server B")
    assert other.entries("echo") == []
    assert other.path != h.path
    again = ArgumentHistory("server A", tmp_path)
    assert [e.arguments for e in again.entries("echo")] == [{"message": "kept"}]
    data = json.loads(h.path.read_text(encoding="utf-8"))
    assert data["version"] == 1 and data["server"] == "server A"
    assert data["tools"]["echo"][0]["arguments"] == {"message": "kept"}
    if os.name == "posix":
        assert stat.S_IMODE(h.path.stat().st_mode) == 0o600


def test_default_location_is_the_config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCP_INSPECTOR_CONFIG_DIR", str(tmp_path / "cfg"))
    h = ArgumentHistory("builtin:demo")
    h.record("echo", {"message": "x"})
    assert h.path.parent == history_dir() == tmp_path / "cfg" / "history"
    assert h.path.is_file() and ":" not in h.path.name


def test_cap_per_tool(tmp_path: Path) -> None:
    h = _history(tmp_path, max_per_tool=3)
    for i in range(6):
        h.record("echo", {"message": str(i)})
    assert [e.arguments["message"] for e in h.entries("echo")] == ["5", "4", "3"]
    assert len(json.loads(h.path.read_text())["tools"]["echo"]) == 3


def test_remove_and_clear(tmp_path: Path) -> None:
    h = _history(tmp_path)
    first = h.record("echo", {"message": "a"})
    h.record("echo", {"message": "b"})
    h.remove("echo", first)
    assert [e.arguments for e in h.entries("echo")] == [{"message": "b"}]
    h.clear("echo")
    assert h.entries("echo") == []
    assert "echo" not in json.loads(h.path.read_text())["tools"]


def test_two_writers_do_not_lose_each_others_entries(tmp_path: Path) -> None:
    one = _history(tmp_path)
    two = _history(tmp_path)
    one.record("echo", {"message": "from one"})
    two.record("add", {"a": 1, "b": 1})
    two.record("echo", {"message": "from two"})
    fresh = ArgumentHistory("profile-1", tmp_path)
    assert {json.dumps(e.arguments) for e in fresh.entries("echo")} == {
        '{"message": "from one"}',
        '{"message": "from two"}',
    }
    assert fresh.entries("add")


def test_write_only_and_password_fields_are_not_kept(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "$defs": {
            "card": {"type": "object", "properties": {"number": {"type": "string", "writeOnly": True}, "name": {}}}
        },
        "properties": {
            "user": {"type": "string"},
            "password": {"type": "string", "format": "password"},
            "card": {"$ref": "#/$defs/card"},
            "cards": {"type": "array", "items": {"$ref": "#/$defs/card"}},
        },
    }
    value = {
        "user": "ada",
        "password": "hunter2",
        "card": {"number": "4111", "name": "Ada"},
        "cards": [{"number": "5500", "name": "B"}],
    }
    kept, removed = scrub_sensitive(schema, value)
    assert kept == {"user": "ada", "card": {"name": "Ada"}, "cards": [{"name": "B"}]}
    assert removed == ["password", "card.number", "cards[0].number"]
    h = _history(tmp_path)
    entry = h.record("login", value, schema)
    assert entry.omitted == ("password", "card.number", "cards[0].number")
    text = h.path.read_text()
    assert "hunter2" not in text and "4111" not in text and "5500" not in text
    assert ArgumentHistory("profile-1", tmp_path).entries("login")[0].omitted == entry.omitted


def test_huge_argument_sets_stay_in_memory(tmp_path: Path) -> None:
    h = _history(tmp_path)
    big = {"blob": "x" * (MAX_ENTRY_CHARS + 10)}
    entry = h.record("upload", big)
    assert not entry.persisted
    assert h.entries("upload")[0].arguments == big
    assert not h.path.exists() or "x" * 100 not in h.path.read_text()
    h.remove("upload", entry)
    assert h.entries("upload") == []


def test_damaged_file_is_set_aside(tmp_path: Path) -> None:
    h = _history(tmp_path)
    h.record("echo", {"message": "x"})
    h.path.write_text("{ not json", encoding="utf-8")
    again = ArgumentHistory("profile-1", tmp_path)
    assert again.entries("echo") == []
    assert again.load_error is not None and "set aside" in again.load_error
    assert h.path.with_suffix(".corrupt").is_file()
    again.record("echo", {"message": "y"})
    assert [e.arguments for e in ArgumentHistory("profile-1", tmp_path).entries("echo")] == [{"message": "y"}]


def test_bad_entries_are_skipped(tmp_path: Path) -> None:
    h = _history(tmp_path)
    h.path.parent.mkdir(parents=True, exist_ok=True)
    h.path.write_text(
        json.dumps({"version": 1, "tools": {"echo": [{"at": "yesterday", "arguments": {}}, 5, {"at": 3}, {"at": 4,
                    "arguments": {"ok": True}}], "7": "nope"}}),
        encoding="utf-8",
    )  # fmt: skip
    again = ArgumentHistory("profile-1", tmp_path)
    assert [e.arguments for e in again.entries("echo")] == [{"ok": True}]


def test_unwritable_directory_keeps_working_in_memory(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    h = ArgumentHistory("k", blocker)
    h.record("echo", {"message": "x"})
    assert h.save_error is not None
    assert h.entries("echo")[0].arguments == {"message": "x"}


def test_summary_is_one_cut_line() -> None:
    from inspector.store.history import HistoryEntry

    entry = HistoryEntry({"message": "é" * 300}, 0.0)
    assert entry.summary(40).endswith("…") and len(entry.summary(40)) == 40
    assert HistoryEntry({"a": 1}, 0.0).summary() == '{"a": 1}'
