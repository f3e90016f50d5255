"""Unified diffs of two versions of a text (a resource before and after notifications/resources/updated)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from enum import StrEnum

__all__ = ["DIFF_SIZE_LIMIT", "DiffLine", "DiffLineKind", "TextDiff", "diff_texts"]

DIFF_SIZE_LIMIT = 2_000_000
"""Characters per side above which no line diff is computed (difflib is slow on huge inputs)."""


class DiffLineKind(StrEnum):
    HEADER = "header"
    HUNK = "hunk"
    ADDED = "added"
    REMOVED = "removed"
    CONTEXT = "context"


@dataclass(frozen=True, slots=True)
class DiffLine:
    kind: DiffLineKind
    text: str


@dataclass(frozen=True, slots=True)
class TextDiff:
    """A unified diff as classified lines, with counts; ``note`` explains when no diff could be computed."""

    lines: list[DiffLine] = field(default_factory=list)
    added: int = 0
    removed: int = 0
    note: str = ""

    @property
    def identical(self) -> bool:
        return not self.lines and not self.note

    def as_text(self) -> str:
        return "\n".join(line.text for line in self.lines)


def diff_texts(
    old: str, new: str, *, old_label: str = "previous", new_label: str = "current", context: int = 3
) -> TextDiff:
    """The unified diff from ``old`` to ``new`` (``---``/``+++`` headers, ``@@`` hunks, ``+``/``-`` lines)."""
    if old == new:
        return TextDiff()
    if len(old) > DIFF_SIZE_LIMIT or len(new) > DIFF_SIZE_LIMIT:
        return TextDiff(
            note=f"The texts differ, but they are too large to diff here ({len(old):,} -> {len(new):,} characters)."
        )
    lines: list[DiffLine] = []
    added = removed = 0
    raw = difflib.unified_diff(
        old.splitlines(), new.splitlines(), fromfile=old_label, tofile=new_label, n=context, lineterm=""
    )
    for text in raw:
        if text.startswith(("---", "+++")) and len(lines) < 2:
            kind = DiffLineKind.HEADER
        elif text.startswith("@@"):
            kind = DiffLineKind.HUNK
        elif text.startswith("+"):
            kind = DiffLineKind.ADDED
            added += 1
        elif text.startswith("-"):
            kind = DiffLineKind.REMOVED
            removed += 1
        else:
            kind = DiffLineKind.CONTEXT
        lines.append(DiffLine(kind, text))
    if not lines:  # only line endings / a trailing newline changed
        return TextDiff(note="The texts differ only in line endings or trailing whitespace at the end.")
    return TextDiff(lines, added, removed)
