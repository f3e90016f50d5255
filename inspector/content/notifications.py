"""The notifications of one connection (no Qt): entries in arrival order, counts per method, search."""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Final

from inspector.protocol.diagnostics import Diagnostic

__all__ = ["STANDARD", "SUMMARY_CHARS", "NotificationEntry", "NotificationLog"]

STANDARD: Final = frozenset(
    {
        "notifications/cancelled",
        "notifications/progress",
        "notifications/message",
        "notifications/resources/updated",
        "notifications/resources/list_changed",
        "notifications/tools/list_changed",
        "notifications/prompts/list_changed",
        "notifications/elicitation/complete",
        "notifications/tasks/status",
    }
)
SUMMARY_CHARS: Final = 240


@dataclass(frozen=True, slots=True)
class NotificationEntry:
    seq: int
    wall: float
    method: str
    params: Any
    diagnostics: tuple[Diagnostic, ...] = ()
    _cache: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def standard(self) -> bool:
        return self.method in STANDARD

    def compact(self) -> str:
        if "compact" not in self._cache:
            text = "" if self.params is None else json.dumps(self.params, ensure_ascii=False, separators=(",", ":"))
            self._cache["compact"] = text
        return self._cache["compact"]

    def summary(self) -> str:
        text = self.compact() or "—"
        return text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 1] + "…"

    def pretty(self) -> str:
        body = "(no params)" if self.params is None else json.dumps(self.params, indent=2, ensure_ascii=False)
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.wall)) + f".{int(self.wall * 1000) % 1000:03d}"
        head = f"#{self.seq}  {self.method}  ·  {stamp}"
        if not self.standard:
            head += "\n(not a notification the MCP specification defines)"
        problems = "".join(f"\n⚠ {d}" for d in self.diagnostics)
        return f"{head}{problems}\n\n{body}"

    def matches(self, needle: str) -> bool:
        return needle in self.method.lower() or needle in self.compact().lower()


class NotificationLog:
    """The notifications of one connection, in arrival order, with running counts per method."""

    def __init__(self) -> None:
        self.entries: list[NotificationEntry] = []
        self.counts: Counter[str] = Counter()

    def __len__(self) -> int:
        return len(self.entries)

    def append(
        self, method: str, params: Any, diagnostics: tuple[Diagnostic, ...] = (), wall: float | None = None
    ) -> NotificationEntry:
        entry = NotificationEntry(
            len(self.entries) + 1, time.time() if wall is None else wall, method, params, diagnostics
        )
        self.entries.append(entry)
        self.counts[method] += 1
        return entry

    def clear(self) -> None:
        self.entries.clear()
        self.counts.clear()

    def matching(self, method: str | None, text: str, start: int = 0) -> list[int]:
        """Indices (from ``start``) of entries with that method (None: any) whose method or payload has ``text``."""
        needle = text.strip().lower()
        return [
            i
            for i in range(start, len(self.entries))
            if (method is None or self.entries[i].method == method) and (not needle or self.entries[i].matches(needle))
        ]
