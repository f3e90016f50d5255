"""Per-tool argument history: the argument sets a user sent to each tool of a server, newest first.

One JSON file per server key (the profile id) in ``config_dir()/history``::

    {"version": 1, "server": "<key>", "tools": {"echo": [{"at": 1767000000.0, "arguments": {...},
                                                         "outcome": "ok", "duration": 0.054}, ...]}}

``outcome`` (``ok``, ``isError``, ``error -32602``, ``cancelled``, ``timed out``, ``failed``) and ``duration``
(seconds) are added when the call ends (``set_outcome``); entries written before they existed, or of a call that
never ended, have neither and load as they are.

Writes are atomic (temp file + rename, mode 0600) and merge with what is on disk first, so two windows
sharing a server key do not drop each other's entries. Sending the same arguments again moves that entry
to the top instead of adding a duplicate; each tool keeps at most ``max_per_tool`` entries.

Arguments of fields the tool's inputSchema marks ``writeOnly`` (or ``format: password``) are never kept:
``scrub_sensitive`` removes them and the entry lists what was left out (``HistoryEntry.omitted``).
A damaged file is set aside (``*.corrupt``) and the history starts empty; ``load_error`` says why.
Qt-free.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from inspector.store.paths import config_dir, describe_os_error
from inspector.store.profiles.store import atomic_write_text

__all__ = ["FORMAT_VERSION", "ArgumentHistory", "HistoryEntry", "history_dir", "scrub_sensitive"]

FORMAT_VERSION: Final = 1
MAX_PER_TOOL: Final = 25
MAX_ENTRY_CHARS: Final = 64 * 1024
"""Argument sets larger than this (as JSON) are remembered for the session only, not written to disk."""
_MAX_DEPTH: Final = 12


def history_dir() -> Path:
    return config_dir() / "history"


def canonical(value: Any) -> str:
    """The JSON text two argument sets are compared by (key order does not matter)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One argument set sent to a tool at ``at`` (seconds since the epoch)."""

    arguments: Any
    at: float
    omitted: tuple[str, ...] = ()
    """Paths of sensitive fields that were not kept (writeOnly / password)."""
    persisted: bool = True
    key: str = field(default="", compare=False)
    outcome: str | None = field(default=None, compare=False)
    """How the call ended (see the module docstring); None while it runs, or from an older history file."""
    duration: float | None = field(default=None, compare=False)
    """How long the call took, in seconds."""

    def summary(self, limit: int = 160) -> str:
        """The arguments as one line of compact JSON, cut at ``limit`` characters."""
        text = json.dumps(self.arguments, ensure_ascii=False, separators=(", ", ": "))
        return text if len(text) <= limit else text[: limit - 1] + "…"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"at": self.at, "arguments": self.arguments}
        if self.omitted:
            data["omitted"] = list(self.omitted)
        if self.outcome is not None:
            data["outcome"] = self.outcome
        if self.duration is not None:
            data["duration"] = self.duration
        return data

    @staticmethod
    def from_json(data: Any) -> HistoryEntry | None:
        if not isinstance(data, dict) or "arguments" not in data:
            return None
        at = data.get("at")
        if not isinstance(at, int | float) or isinstance(at, bool):
            return None
        omitted = data.get("omitted")
        names = tuple(str(p) for p in omitted) if isinstance(omitted, list) else ()
        arguments = data["arguments"]
        outcome = data.get("outcome")
        duration = data.get("duration")
        if not isinstance(duration, int | float) or isinstance(duration, bool) or duration < 0:
            duration = None
        return HistoryEntry(
            arguments,
            float(at),
            names,
            True,
            canonical(arguments),
            outcome if isinstance(outcome, str) and outcome else None,
            float(duration) if duration is not None else None,
        )


def _resolve(schema: Any, root: Any) -> Any:
    """Follow a local ``$ref`` (``#/$defs/x``, ``#/definitions/x``) once; anything else as is."""
    if isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#/"):
        node: Any = root
        for part in schema["$ref"][2:].split("/"):
            node = node.get(part.replace("~1", "/").replace("~0", "~")) if isinstance(node, dict) else None
        return node if isinstance(node, dict) else schema
    return schema


def _sensitive(schema: Any) -> bool:
    return isinstance(schema, dict) and (schema.get("writeOnly") is True or schema.get("format") == "password")


def scrub_sensitive(schema: Any, value: Any) -> tuple[Any, list[str]]:
    """``value`` without the properties ``schema`` marks writeOnly or ``format: password`` (nested objects and
    arrays of objects included, local ``$ref`` followed), and the dotted paths that were removed."""
    removed: list[str] = []

    def walk(node: Any, val: Any, path: str, depth: int) -> Any:
        node = _resolve(node, schema)
        if depth > _MAX_DEPTH or not isinstance(node, dict):
            return val
        if isinstance(val, dict) and isinstance(node.get("properties"), dict):
            out: dict[str, Any] = {}
            for key, item in val.items():
                sub = _resolve(node["properties"].get(key), schema)
                where = f"{path}.{key}" if path else key
                if _sensitive(sub):
                    removed.append(where)
                    continue
                out[key] = walk(sub, item, where, depth + 1) if sub is not None else item
            return out
        if isinstance(val, list) and isinstance(node.get("items"), dict):
            return [walk(node["items"], item, f"{path}[{i}]", depth + 1) for i, item in enumerate(val)]
        return val

    return walk(schema, value, "", 0), removed


def _slug(key: str) -> str:
    readable = re.sub(r"[^A-Za-z0-9_.-]+", "_", key).strip("._")[:40] or "server"
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:12]
    return f"{readable}-{digest}"


class ArgumentHistory:
    """The argument history of one server (``server_key``), per tool, newest first."""

    def __init__(
        self,
        server_key: str,
        directory: Path | None = None,
        *,
        max_per_tool: int = MAX_PER_TOOL,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.server_key = server_key
        self._directory = directory
        self.max_per_tool = max_per_tool
        self._clock = clock
        self._tools: dict[str, list[HistoryEntry]] = {}
        self._session_only: dict[str, list[HistoryEntry]] = {}
        self.load_error: str | None = None
        self.save_error: str | None = None
        self._tools = self._read()

    @property
    def path(self) -> Path:
        directory = self._directory if self._directory is not None else history_dir()
        return directory / f"{_slug(self.server_key)}.json"

    # -- reading -----------------------------------------------------------------------------------------

    def entries(self, tool: str) -> list[HistoryEntry]:
        """The tool's argument sets, newest first (session-only ones included)."""
        merged = self._tools.get(tool, []) + self._session_only.get(tool, [])
        merged.sort(key=lambda e: e.at, reverse=True)
        return merged[: self.max_per_tool]

    def tools(self) -> list[str]:
        return sorted(set(self._tools) | set(self._session_only))

    def latest(self, tool: str) -> HistoryEntry | None:
        found = self.entries(tool)
        return found[0] if found else None

    # -- changing ----------------------------------------------------------------------------------------

    def record(self, tool: str, arguments: Any, schema: Any = None) -> HistoryEntry:
        """Remember ``arguments`` as the tool's newest entry (sensitive fields of ``schema`` left out)."""
        kept, omitted = scrub_sensitive(schema, arguments) if schema is not None else (arguments, [])
        key = canonical(kept)
        persist = len(key) <= MAX_ENTRY_CHARS
        entry = HistoryEntry(kept, self._clock(), tuple(omitted), persist, key)
        if not persist:
            bucket = [e for e in self._session_only.get(tool, []) if e.key != key]
            self._session_only[tool] = [entry, *bucket][: self.max_per_tool]
            return entry
        self._update(tool, lambda items: [entry, *[e for e in items if e.key != key]])
        return entry

    def set_outcome(self, tool: str, entry: HistoryEntry, outcome: str, duration: float | None) -> HistoryEntry:
        """Note how the call of ``entry`` ended (it stays where it is); the updated entry."""
        done = replace(entry, outcome=outcome, duration=duration)

        def mark(items: list[HistoryEntry]) -> list[HistoryEntry]:
            return [done if e.key == entry.key and e.at == entry.at else e for e in items]

        if not entry.persisted:
            self._session_only[tool] = mark(self._session_only.get(tool, []))
        else:
            self._update(tool, mark)
        return done

    def remove(self, tool: str, entry: HistoryEntry) -> None:
        if not entry.persisted:
            self._session_only[tool] = [e for e in self._session_only.get(tool, []) if e.key != entry.key]
            return
        self._update(tool, lambda items: [e for e in items if e.key != entry.key])

    def clear(self, tool: str) -> None:
        self._session_only.pop(tool, None)
        self._update(tool, lambda items: [])

    # -- file --------------------------------------------------------------------------------------------

    def _update(self, tool: str, change: Callable[[list[HistoryEntry]], list[HistoryEntry]]) -> None:
        """Apply ``change`` to the tool's entries as they are on disk now, then write the file."""
        current = self._read(quiet=True)
        items = change(current.get(tool, []))[: self.max_per_tool]
        if items:
            current[tool] = items
        else:
            current.pop(tool, None)
        self._tools = current
        self._write()

    def _read(self, *, quiet: bool = False) -> dict[str, list[HistoryEntry]]:
        path = self.path
        try:
            text = path.read_text(encoding="utf-8")
        except (FileNotFoundError, NotADirectoryError):
            return {}
        except OSError as exc:
            if not quiet:
                self.load_error = f"could not read {path}: {exc}"
            return dict(self._tools)
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or not isinstance(data.get("tools"), dict):
                raise ValueError("not a history file")
        except (ValueError, RecursionError) as exc:
            self.load_error = f"{path.name} was damaged ({exc}); it was set aside and the history starts empty"
            with contextlib.suppress(OSError):
                path.replace(path.with_suffix(".corrupt"))
            return {}
        tools: dict[str, list[HistoryEntry]] = {}
        for name, raw in data["tools"].items():
            if isinstance(name, str) and isinstance(raw, list):
                entries = [e for e in (HistoryEntry.from_json(item) for item in raw) if e is not None]
                if entries:
                    entries.sort(key=lambda e: e.at, reverse=True)
                    tools[name] = entries[: self.max_per_tool]
        return tools

    def _write(self) -> None:
        data = {
            "version": FORMAT_VERSION,
            "server": self.server_key,
            "tools": {name: [e.to_json() for e in entries] for name, entries in sorted(self._tools.items())},
        }
        try:
            atomic_write_text(self.path, json.dumps(data, ensure_ascii=False, indent=1) + "\n", mode=0o600)
            self.save_error = None
        except OSError as exc:  # the history is a convenience: keep working in memory
            self.save_error = f"argument history kept for this session only: {describe_os_error(exc)}"
