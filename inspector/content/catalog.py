"""What the tools and prompts lists show, as plain Python (no Qt): entries parsed from raw list results,
annotation badges, and a filter over a precomputed lower-case haystack (fast enough for thousands of tools).

Entries keep the raw dict they came from; malformed items become entries with ``problems`` rather than
being dropped, so a broken server is visible in the list.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from inspector.content.blocks import Badge

__all__ = [
    "CatalogEntry",
    "PromptArgument",
    "describe_hints",
    "filter_entries",
    "parse_prompts",
    "parse_tools",
    "prompt_badges",
    "tool_badges",
]

_HINTS: Final = (
    # (annotation key, badge text, badge kind, tooltip)
    ("readOnlyHint", "read-only", "ok", "readOnlyHint: the tool does not modify its environment"),
    ("destructiveHint", "destructive", "error", "destructiveHint: the tool may perform destructive updates"),
    ("idempotentHint", "idempotent", "info", "idempotentHint: calling it again with the same arguments has no "
     "additional effect"),
    ("openWorldHint", "open world", "warning", "openWorldHint: the tool interacts with an open world of external "
     "entities (e.g. the web)"),
)  # fmt: skip
_DEFAULTS: Final = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False, "openWorldHint": True}
FALLBACK_SCHEMA: Final[dict[str, Any]] = {"type": "object"}


@dataclass(frozen=True, slots=True)
class PromptArgument:
    name: str
    description: str = ""
    required: bool = False
    title: str = ""


@dataclass(slots=True)
class CatalogEntry:
    """One tool or prompt as the lists show it."""

    name: str
    title: str
    description: str
    raw: dict[str, Any]
    badges: list[Badge] = field(default_factory=list)
    icons: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    input_schema: dict[str, Any] = field(default_factory=dict)
    output_schema: dict[str, Any] | None = None
    arguments: list[PromptArgument] = field(default_factory=list)
    haystack: str = ""
    kind: str = "tool"
    """``tool`` or ``prompt``."""
    unavailable: str = ""
    """Why the entry cannot be used ("" when it can): a tool the client dropped for an invalid ``x-mcp-header``
    annotation is listed struck through with this reason, and cannot be run."""

    @property
    def label(self) -> str:
        """The title when there is one, else the name."""
        return self.title or self.name

    def signature(self) -> str:
        """Compact JSON of the raw definition (to tell whether a refreshed entry changed)."""
        return json.dumps(self.raw, sort_keys=True, default=str)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _icons(raw: dict[str, Any]) -> list[dict[str, Any]]:
    icons = raw.get("icons")
    if not isinstance(icons, list):
        return []
    return [i for i in icons if isinstance(i, dict) and isinstance(i.get("src"), str)]


def tool_badges(annotations: Any) -> list[Badge]:
    """Badges for the hints a tool declares as true (destructive only when it is not read-only)."""
    if not isinstance(annotations, dict):
        return []
    badges: list[Badge] = []
    for key, text, kind, tooltip in _HINTS:
        if annotations.get(key) is not True:
            continue
        if key == "destructiveHint" and annotations.get("readOnlyHint") is True:
            continue  # meaningless for a read-only tool (the spec says so)
        badges.append(Badge(text, tooltip, kind))
    return badges


def describe_hints(annotations: Any) -> str:
    """Every hint with its value, declared or default, one per line (for tooltips)."""
    given = annotations if isinstance(annotations, dict) else {}
    lines = []
    for key, default in _DEFAULTS.items():
        if key in given:
            lines.append(f"{key}: {json.dumps(given[key])}")
        else:
            lines.append(f"{key}: {json.dumps(default)} (default, not declared)")
    return "\n".join(lines)


def _entry_name(raw: dict[str, Any], problems: list[str]) -> str:
    name = raw.get("name")
    if isinstance(name, str) and name:
        return name
    problems.append("no name" if name is None else f"name is not a string: {name!r}")
    return "" if name is None else str(name)


def parse_tools(tools: Any) -> list[CatalogEntry]:
    """Entries for a tools/list result's ``tools`` (anything else yields no entries)."""
    entries: list[CatalogEntry] = []
    for raw in tools if isinstance(tools, list) else []:
        if not isinstance(raw, dict):
            continue
        problems: list[str] = []
        name = _entry_name(raw, problems)
        annotations = raw.get("annotations")
        title = _text(raw.get("title")) or (_text(annotations.get("title")) if isinstance(annotations, dict) else "")
        schema = raw.get("inputSchema")
        if not isinstance(schema, dict):
            problems.append("no inputSchema object" if schema is None else "inputSchema is not an object")
            schema = dict(FALLBACK_SCHEMA)
        output = raw.get("outputSchema")
        if output is not None and not isinstance(output, dict):
            problems.append("outputSchema is not an object")
            output = None
        description = _text(raw.get("description"))
        entry = CatalogEntry(
            name=name,
            title=title,
            description=description,
            raw=raw,
            badges=tool_badges(annotations),
            icons=_icons(raw),
            problems=problems,
            input_schema=schema,
            output_schema=output,
        )
        if problems:
            entry.badges.append(Badge("malformed", "; ".join(problems), "warning"))
        entry.haystack = f"{name}\n{title}\n{description}".lower()
        entries.append(entry)
    return entries


def _arguments(raw: Any, problems: list[str]) -> list[PromptArgument]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        problems.append("arguments is not an array")
        return []
    out: list[PromptArgument] = []
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            problems.append(f"argument without a name: {item!r}"[:120])
            continue
        out.append(
            PromptArgument(item["name"], _text(item.get("description")), item.get("required") is True,
                           _text(item.get("title")))
        )  # fmt: skip
    return out


def prompt_badges(arguments: Sequence[PromptArgument]) -> list[Badge]:
    if not arguments:
        return [Badge("no arguments", "This prompt takes no arguments", "neutral")]
    required = sum(1 for a in arguments if a.required)
    text = f"{len(arguments)} arg{'s' * (len(arguments) != 1)}"
    tooltip = ", ".join(f"{a.name}{' (required)' if a.required else ''}" for a in arguments)
    return [Badge(text + (f" · {required} required" if required else ""), tooltip, "info")]


def parse_prompts(prompts: Any) -> list[CatalogEntry]:
    """Entries for a prompts/list result's ``prompts``."""
    entries: list[CatalogEntry] = []
    for raw in prompts if isinstance(prompts, list) else []:
        if not isinstance(raw, dict):
            continue
        problems: list[str] = []
        name = _entry_name(raw, problems)
        arguments = _arguments(raw.get("arguments"), problems)
        entry = CatalogEntry(
            name=name,
            title=_text(raw.get("title")),
            description=_text(raw.get("description")),
            raw=raw,
            badges=prompt_badges(arguments),
            icons=_icons(raw),
            problems=problems,
            arguments=arguments,
            kind="prompt",
        )
        if problems:
            entry.badges.append(Badge("malformed", "; ".join(problems), "warning"))
        entry.haystack = f"{entry.name}\n{entry.title}\n{entry.description}".lower()
        entries.append(entry)
    return entries


def filter_entries(entries: Sequence[CatalogEntry], text: str) -> list[int]:
    """Indexes of the entries matching every word of ``text`` (case-insensitive, in name/title/description)."""
    words = text.lower().split()
    if not words:
        return list(range(len(entries)))
    return [i for i, entry in enumerate(entries) if all(w in entry.haystack for w in words)]
