"""A surface diff as a report: text (grouped by kind, one line per change) or JSON (``DIFF_FORMAT``).

JSON shape (documented in docs/INTERFACES.md)::

    {"format": "mcp-inspect/surface-diff", "version": 1, "old": "<file>", "new": "<file>",
     "summary": {"breaking": 1, "compatible": 0, "cosmetic": 2, "total": 3},
     "changes": [{"kind": "breaking", "path": "$.tools[\\"x\\"]...", "reason": "...", "old": ..., "new": ...}]}
"""

from __future__ import annotations

from typing import Any, Final

from inspector.regression.changes import KIND_ORDER, Change, counts

__all__ = ["DIFF_FORMAT", "DIFF_VERSION", "diff_json", "diff_text"]

DIFF_FORMAT: Final = "mcp-inspect/surface-diff"
DIFF_VERSION: Final = 1


def diff_json(changes: list[Change], old: str, new: str) -> dict[str, Any]:
    summary: dict[str, int] = counts(changes)
    summary["total"] = len(changes)
    return {
        "format": DIFF_FORMAT,
        "version": DIFF_VERSION,
        "old": old,
        "new": new,
        "summary": summary,
        "changes": [change.to_json() for change in _ordered(changes)],
    }


def diff_text(changes: list[Change]) -> str:
    """One line per change, ``breaking    $.tools["x"].inputSchema.required  required argument "y" added``,
    breaking first, then a summary line."""
    lines = [f"{change.kind.value:<10}  {change.path}  {change.reason}" for change in _ordered(changes)]
    tally = counts(changes)
    if changes:
        lines.append(", ".join(f"{tally[kind.value]} {kind.value}" for kind in KIND_ORDER))
    else:
        lines.append("no changes")
    return "\n".join(lines) + "\n"


def _ordered(changes: list[Change]) -> list[Change]:
    rank = {kind: i for i, kind in enumerate(KIND_ORDER)}
    return sorted(changes, key=lambda change: rank[change.kind])
