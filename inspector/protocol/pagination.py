"""Cursor pagination (``nextCursor``) as a pure helper: params for the next page, pages merged."""

from __future__ import annotations

from typing import Any

from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode

__all__ = ["Paginator"]


class Paginator:
    """Walks the pages of one list method. ``items_key`` is ``tools``, ``resources``, ``prompts``, ..."""

    def __init__(self, items_key: str, params: dict[str, Any] | None = None, *, max_pages: int = 10_000) -> None:
        self.items_key = items_key
        self._base = dict(params or {})
        self._cursor: str | None = None
        self._seen: set[str] = set()
        self._items: list[Any] = []
        self._last: dict[str, Any] = {}
        self.pages = 0
        self.max_pages = max_pages
        self.done = False
        self.diagnostics: list[Diagnostic] = []

    def next_params(self) -> dict[str, Any] | None:
        params = dict(self._base)
        if self._cursor is not None:
            params["cursor"] = self._cursor
        return params or None

    def add_page(self, result: Any) -> bool:
        """Take one page; return True when there are no more pages to ask for."""
        self.pages += 1
        if not isinstance(result, dict):
            self.done = True
            return True
        self._last = result
        items = result.get(self.items_key)
        if isinstance(items, list):
            self._items.extend(items)
        cursor = result.get("nextCursor")
        if cursor is None:
            self.done = True
        elif not isinstance(cursor, str):
            self.diagnostics.append(
                Diagnostic(DiagnosticCode.SCHEMA, "nextCursor must be a string", path="$.result.nextCursor")
            )
            self.done = True
        elif cursor in self._seen:
            self.diagnostics.append(
                Diagnostic(
                    DiagnosticCode.SCHEMA,
                    f"nextCursor {cursor[:60]!r} was already returned: the server's pagination loops; stopped",
                    path="$.result.nextCursor",
                )
            )
            self.done = True
        elif self.pages >= self.max_pages:
            self.diagnostics.append(
                Diagnostic(DiagnosticCode.SCHEMA, f"stopped after {self.max_pages} pages", path="$.result.nextCursor")
            )
            self.done = True
        else:
            self._seen.add(cursor)
            self._cursor = cursor
        return self.done

    def merged(self) -> dict[str, Any]:
        """The last page's result with every page's items and no ``nextCursor``."""
        out = {k: v for k, v in self._last.items() if k != "nextCursor"}
        out[self.items_key] = list(self._items)
        return out
