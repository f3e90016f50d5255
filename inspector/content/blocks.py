"""Classify MCP content blocks and describe their parts, as plain data for any front end.

A content block is the raw JSON dict that crossed the wire (``{"type": "text", "text": ...}``). Nothing here
trusts it: every accessor tolerates missing or mistyped fields and reports what is wrong as a readable problem
string instead of raising, because an inspector must show a broken block, not crash on it.
"""

from __future__ import annotations

import base64
import binascii
import string
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from inspector.protocol.jsontypes import json_type

__all__ = [
    "Badge",
    "BlockKind",
    "InvalidBase64Error",
    "annotation_badges",
    "as_block_list",
    "block_problems",
    "classify_block",
    "decode_base64",
    "decoded_size",
]


class BlockKind(StrEnum):
    """What a content block is, by its ``type`` discriminator (plus UNKNOWN for anything else)."""

    TEXT = "text"
    IMAGE = "image"
    AUDIO = "audio"
    RESOURCE_LINK = "resource_link"
    RESOURCE = "resource"
    TOOL_USE = "tool_use"
    TOOL_RESULT = "tool_result"
    UNKNOWN = "unknown"


_REQUIRED: dict[BlockKind, tuple[tuple[str, type | tuple[type, ...]], ...]] = {
    BlockKind.TEXT: (("text", str),),
    BlockKind.IMAGE: (("data", str), ("mimeType", str)),
    BlockKind.AUDIO: (("data", str), ("mimeType", str)),
    BlockKind.RESOURCE_LINK: (("uri", str), ("name", str)),
    BlockKind.RESOURCE: (("resource", dict),),
    BlockKind.TOOL_USE: (("id", str), ("name", str), ("input", dict)),
    BlockKind.TOOL_RESULT: (("toolUseId", str), ("content", list)),
}


def classify_block(block: object) -> BlockKind:
    """The kind of ``block``; UNKNOWN for a non-dict or an unrecognised ``type``."""
    if not isinstance(block, dict):
        return BlockKind.UNKNOWN
    kind = block.get("type")
    if not isinstance(kind, str):
        return BlockKind.UNKNOWN
    try:
        found = BlockKind(kind)
    except ValueError:
        return BlockKind.UNKNOWN
    return BlockKind.UNKNOWN if found is BlockKind.UNKNOWN else found


def block_problems(block: object) -> list[str]:
    """Readable problems with a block's shape (missing or mistyped required fields); empty when it is fine."""
    if not isinstance(block, dict):
        return [f"content block is a {json_type(block)}, not an object"]
    kind = classify_block(block)
    if kind is BlockKind.UNKNOWN:
        raw = block.get("type")
        return ['content block has no "type"'] if raw is None else [f"unknown content type {raw!r}"]
    problems: list[str] = []
    for name, expected in _REQUIRED[kind]:
        if name not in block:
            problems.append(f'missing required field "{name}"')
        elif not isinstance(block[name], expected):
            problems.append(f'"{name}" should be {_type_word(expected)}, got {json_type(block[name])}')
    if kind is BlockKind.RESOURCE and isinstance(block.get("resource"), dict):
        resource = block["resource"]
        if not isinstance(resource.get("uri"), str):
            problems.append('embedded resource has no string "uri"')
        if not isinstance(resource.get("text"), str) and not isinstance(resource.get("blob"), str):
            problems.append('embedded resource has neither "text" nor "blob"')
    return problems


def as_block_list(content: object) -> list[Any]:
    """A message's content as a list: sampling messages may carry one block or a list; None means none."""
    if content is None:
        return []
    if isinstance(content, list):
        return list(content)
    return [content]


@dataclass(frozen=True, slots=True)
class Badge:
    """A small label for an annotation: ``text`` to show, ``tooltip`` to explain, ``kind`` to style."""

    text: str
    tooltip: str
    kind: str


def annotation_badges(annotations: object) -> list[Badge]:
    """Badges for a block's ``annotations`` (audience, priority, lastModified, and any other keys)."""
    if not isinstance(annotations, dict) or not annotations:
        return []
    badges: list[Badge] = []
    audience = annotations.get("audience")
    if isinstance(audience, list):
        who = ", ".join(str(a) for a in audience) or "nobody"
        badges.append(Badge(f"for {who}", "annotations.audience: who this content is intended for", "audience"))
    elif audience is not None:
        badges.append(Badge(f"audience {audience!r}", "annotations.audience should be a list of roles", "warning"))
    priority = annotations.get("priority")
    if isinstance(priority, int | float) and not isinstance(priority, bool):
        valid = 0 <= priority <= 1
        badges.append(
            Badge(
                f"priority {priority:g}",
                "annotations.priority: 1 = most important, 0 = least"
                + ("" if valid else " (out of range: must be 0..1)"),
                "priority" if valid else "warning",
            )
        )
    elif priority is not None:
        badges.append(Badge(f"priority {priority!r}", "annotations.priority should be a number 0..1", "warning"))
    modified = annotations.get("lastModified")
    if modified is not None:
        badges.append(Badge(f"modified {modified}", "annotations.lastModified (ISO 8601)", "modified"))
    for key in sorted(set(annotations) - {"audience", "priority", "lastModified"}):
        badges.append(Badge(f"{key}: {annotations[key]}", f"non-standard annotation {key!r}", "other"))
    return badges


_ALPHABET = frozenset(string.ascii_letters + string.digits + "+/=")


class InvalidBase64Error(ValueError):
    """Base64 data that cannot be decoded; the message says why in words a user understands."""


def decode_base64(data: object) -> bytes:
    """Decode standard base64 strictly (whitespace and line breaks tolerated); raise InvalidBase64Error."""
    if not isinstance(data, str):
        raise InvalidBase64Error(f"base64 data should be a string, got {json_type(data)}")
    compact = "".join(data.split())
    if not compact:
        raise InvalidBase64Error("base64 data is empty")
    try:
        return base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError) as exc:
        bad = next((c for c in compact if c not in _ALPHABET), None)
        if bad is not None:
            position = data.index(bad)
            hint = " (it looks like base64url; MCP uses standard base64)" if bad in "-_" else ""
            raise InvalidBase64Error(
                f"invalid base64: character {bad!r} at position {position} is not in the base64 alphabet{hint}"
            ) from exc
        raise InvalidBase64Error(f"invalid base64 ({exc}); length {len(compact)}") from exc


def decoded_size(data: str) -> int:
    """The byte size base64 ``data`` decodes to, computed without decoding it."""
    compact_len = len(data) - sum(data.count(c) for c in " \t\r\n")
    padding = 2 if data.rstrip().endswith("==") else 1 if data.rstrip().endswith("=") else 0
    return max(0, compact_len * 3 // 4 - padding)


def _type_word(expected: type | tuple[type, ...]) -> str:
    words: dict[type, str] = {str: "a string", dict: "an object", list: "an array"}
    if isinstance(expected, tuple):
        return " or ".join(words.get(t, t.__name__) for t in expected)
    return words.get(expected, expected.__name__)
