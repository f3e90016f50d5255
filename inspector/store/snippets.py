"""Read a pasted ``mcpServers`` snippet: as much of a config file as people copy from a README.

Accepted, besides a whole file (``{"mcpServers": {...}}``, VS Code's ``{"servers": {...}}``): the servers object
alone (``{"github": {"command": ...}}``), its inside without the braces (``"github": {...}``), and one server
(``{"command": "uvx", ...}``, named ``server``). Comments and trailing commas are fine (JSONC). Malformed JSON
gives the line and column of the error in the text as pasted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

from inspector.store.imports import ImportResult, parse_config_data, strip_jsonc

__all__ = ["SNIPPET_SOURCE", "Snippet", "parse_snippet"]

SNIPPET_SOURCE: Final = "snippet"
_WRAPPERS: Final = ("mcpServers", "servers", "mcp")


@dataclass
class Snippet:
    result: ImportResult = field(default_factory=lambda: ImportResult(source=SNIPPET_SOURCE))
    line: int | None = None
    """Where malformed JSON went wrong (1-based), else None."""
    column: int | None = None

    @property
    def empty(self) -> bool:
        return not self.result.entries and not self.result.errors


def _load(text: str) -> Any:
    return json.loads(strip_jsonc(text))


def _looks_like_entry(value: Any) -> bool:
    return isinstance(value, dict) and any(key in value for key in ("command", "url", "serverUrl"))


def parse_snippet(text: str) -> Snippet:
    """The candidate profiles of a pasted snippet (an empty one for blank text)."""
    if not text.strip():
        return Snippet()
    try:
        data = _load(text)
    except json.JSONDecodeError as exc:
        if text.lstrip().startswith('"'):  # "name": {...} without the braces around it
            try:
                data = _load("{" + text + "}")
            except json.JSONDecodeError:
                data = None
            if data is not None:
                return Snippet(_parse(data))
        where = f"line {exc.lineno}, column {exc.colno}"
        message = f"{SNIPPET_SOURCE}:{exc.lineno}:{exc.colno}: invalid JSON at {where}: {exc.msg}"
        return Snippet(ImportResult(errors=[message], source=SNIPPET_SOURCE), exc.lineno, exc.colno)
    except RecursionError:
        return Snippet(
            ImportResult(errors=[f"{SNIPPET_SOURCE}: invalid JSON: nested too deeply"], source=SNIPPET_SOURCE)
        )
    return Snippet(_parse(data))


def _parse(data: Any) -> ImportResult:
    if isinstance(data, dict) and not any(key in data for key in _WRAPPERS):
        if _looks_like_entry(data):
            data = {"mcpServers": {"server": data}}
        elif data and all(_looks_like_entry(value) for value in data.values()):
            data = {"mcpServers": data}
    return parse_config_data(data, source=SNIPPET_SOURCE)
