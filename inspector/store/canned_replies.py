"""Saved sampling replies ("canned replies"): answers a person gives often, kept for repeated testing.

One JSON file in the config dir, ``canned-replies.json``::

    {"version": 1, "replies": [{"name": "...", "content": {...} | [...], "model": "...", "stopReason": "..."}]}

``content`` is exactly what goes into the ``CreateMessageResult`` (one content block, or a list of them).
A file that cannot be read is set aside as ``canned-replies.json.corrupt`` rather than overwritten silently;
writes are atomic.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from inspector.store.paths import config_dir
from inspector.store.profiles.store import atomic_write_text

__all__ = ["CANNED_FILE", "CannedReplies", "CannedReply"]

CANNED_FILE: Final = "canned-replies.json"
_VERSION: Final = 1


@dataclass
class CannedReply:
    """One saved answer to ``sampling/createMessage``."""

    name: str
    content: dict[str, Any] | list[dict[str, Any]]
    model: str = "mcp-inspector"
    stop_reason: str = "endTurn"
    extra: dict[str, Any] = field(default_factory=dict)

    def result(self) -> dict[str, Any]:
        """The ``CreateMessageResult`` this reply sends."""
        out: dict[str, Any] = {"role": "assistant", "content": self.content, "model": self.model}
        if self.stop_reason:
            out["stopReason"] = self.stop_reason
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            **self.extra,
            "name": self.name,
            "content": self.content,
            "model": self.model,
            "stopReason": self.stop_reason,
        }

    @classmethod
    def from_json(cls, value: Any) -> CannedReply | None:
        """None for an entry that is not usable (kept out of the list, not fatal)."""
        if not isinstance(value, dict):
            return None
        name, content = value.get("name"), value.get("content")
        if not isinstance(name, str) or not name.strip():
            return None
        if not (isinstance(content, dict) or (isinstance(content, list) and all(isinstance(c, dict) for c in content))):
            return None
        model = value.get("model")
        stop = value.get("stopReason")
        extra = {k: v for k, v in value.items() if k not in ("name", "content", "model", "stopReason")}
        return cls(
            name=name.strip(),
            content=content,
            model=model if isinstance(model, str) else "mcp-inspector",
            stop_reason=stop if isinstance(stop, str) else "endTurn",
            extra=extra,
        )


class CannedReplies:
    """The saved replies, in the order the user made them. ``problem`` says why a file could not be read."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else config_dir() / CANNED_FILE
        self.replies: list[CannedReply] = []
        self.problem: str | None = None
        self.load()

    def load(self) -> None:
        self.replies = []
        self.problem = None
        try:
            text = self.path.read_text(encoding="utf-8")
        except (FileNotFoundError, NotADirectoryError):
            return
        except OSError as exc:
            self.problem = f"could not read {self.path}: {exc}"
            return
        try:
            data = json.loads(text)
        except ValueError as exc:
            self._set_aside(f"{self.path} is not JSON ({exc})")
            return
        entries = data.get("replies") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            self._set_aside(f"{self.path} has no list of replies")
            return
        for entry in entries:
            reply = CannedReply.from_json(entry)
            if reply is not None:
                self.replies.append(reply)

    def _set_aside(self, problem: str) -> None:
        aside = self.path.with_name(self.path.name + ".corrupt")
        try:
            os.replace(self.path, aside)
            self.problem = f"{problem}; moved to {aside.name}"
        except OSError:
            self.problem = problem

    def names(self) -> list[str]:
        return [reply.name for reply in self.replies]

    def get(self, name: str) -> CannedReply | None:
        return next((reply for reply in self.replies if reply.name == name), None)

    def put(self, reply: CannedReply) -> None:
        """Add ``reply``, or replace the one with the same name (keeping its place), and save."""
        for index, existing in enumerate(self.replies):
            if existing.name == reply.name:
                self.replies[index] = reply
                break
        else:
            self.replies.append(reply)
        self.save()

    def remove(self, name: str) -> bool:
        before = len(self.replies)
        self.replies = [reply for reply in self.replies if reply.name != name]
        if len(self.replies) != before:
            self.save()
            return True
        return False

    def save(self) -> None:
        """Write the file atomically. ``OSError`` (``UnwritableDirectory`` when the config dir cannot be written)
        leaves the file as it was and ``replies`` as changed: they last for the session."""
        data = {"version": _VERSION, "replies": [reply.to_json() for reply in self.replies]}
        atomic_write_text(self.path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
