"""A cheap look at a JSON-RPC frame: its shape and ids, for routing and for linking HTTP exchanges.

Transports know nothing about MCP methods, but an HTTP transport must tell a request (whose answer it
waits for) from a notification or a response (answered with 202), and it records which JSON-RPC ids an
exchange carried. Frames up to ``FULL_PARSE_BYTES`` are parsed; a larger one is scanned: the top level of
its first bytes (serialisers put ``id`` and ``method`` first) and its end (where some put ``id`` last).
A frame that is not JSON-RPC at all peeks as ``"other"``; nothing here raises.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Final, Literal

from inspector.transports.base import MessageId

__all__ = ["FULL_PARSE_BYTES", "Peek", "peek"]

FULL_PARSE_BYTES: Final = 256 * 1024
_HEAD: Final = 8192
_TAIL: Final = 512
_TAIL_ID: Final = re.compile(rb'[{,]\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?}\s*$')
_STRING: Final = re.compile(r'"(?:[^"\\]|\\.)*"')
_NUMBER: Final = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")

Shape = Literal["request", "notification", "response", "batch", "other"]


@dataclass(frozen=True, slots=True)
class Peek:
    kind: Shape
    method: str | None = None
    ids: tuple[MessageId, ...] = ()
    request_ids: tuple[MessageId, ...] = ()
    """Ids of the requests among the frame's messages (what waits for an answer)."""


def peek(frame: bytes) -> Peek:
    if len(frame) <= FULL_PARSE_BYTES:
        try:
            value = json.loads(frame)
        except (ValueError, RecursionError):
            return Peek("other")
        return _of_value(value)
    return _scan(frame)


def _id(value: Any) -> MessageId | None:
    if isinstance(value, bool):
        return None
    return value if isinstance(value, int | str) else None


def _of_message(value: Any) -> Peek:
    if not isinstance(value, dict):
        return Peek("other")
    rid = _id(value.get("id"))
    method = value.get("method")
    ids = (rid,) if rid is not None else ()
    if isinstance(method, str):
        if "id" in value:
            return Peek("request", method, ids, ids)
        return Peek("notification", method)
    if "result" in value or "error" in value:
        return Peek("response", None, ids)
    return Peek("other", None, ids)


def _of_value(value: Any) -> Peek:
    if not isinstance(value, list):
        return _of_message(value)
    parts = [_of_message(item) for item in value]
    return Peek(
        "batch",
        None,
        tuple(i for p in parts for i in p.ids),
        tuple(i for p in parts for i in p.request_ids),
    )


def _scan(frame: bytes) -> Peek:
    """The top-level ``id`` / ``method`` of a large object frame, from its head and its tail."""
    head = frame[:_HEAD].decode("utf-8", "ignore")
    start = len(head) - len(head.lstrip())
    if not head.startswith("{", start):
        return Peek("batch" if head.startswith("[", start) else "other")
    found = _top_level(head, start + 1)
    rid = _id(found.get("id"))
    if "id" not in found:
        tail = _TAIL_ID.search(frame[-_TAIL:])
        if tail is not None:
            try:
                rid = _id(json.loads(tail.group(1)))
            except ValueError:
                rid = None
    method = found.get("method")
    ids = (rid,) if rid is not None else ()
    if isinstance(method, str):
        return Peek("request", method, ids, ids) if rid is not None else Peek("notification", method)
    if "result" in found or "error" in found or rid is not None:
        return Peek("response", None, ids)
    return Peek("other")


def _top_level(text: str, pos: int) -> dict[str, Any]:
    """Key -> value (scalars only; ``...`` for containers) of the object members that fit in ``text``."""
    found: dict[str, Any] = {}
    size = len(text)
    while pos < size:
        while pos < size and text[pos] in " \t\r\n,":
            pos += 1
        key = _STRING.match(text, pos)
        if key is None:
            break
        name = json.loads(key.group(0))
        pos = key.end()
        while pos < size and text[pos] in " \t\r\n:":
            pos += 1
        if pos >= size:
            break
        char = text[pos]
        if char == '"':
            value = _STRING.match(text, pos)
            if value is None:
                found[name] = ...
                break
            found[name] = json.loads(value.group(0))
            pos = value.end()
        elif char in "{[":
            found[name] = ...
            end = _skip_container(text, pos)
            if end < 0:
                break
            pos = end
        else:
            number = _NUMBER.match(text, pos)
            if number is not None:
                found[name] = json.loads(number.group(0))
                pos = number.end()
            else:  # true / false / null
                word = text[pos : pos + 5].rstrip(",} \t\r\n")
                found[name] = {"true": True, "false": False, "null": None}.get(word, ...)
                pos += len(word) or 1
    return found


def _skip_container(text: str, pos: int) -> int:
    """The index after the container starting at ``pos``, or -1 when it does not end within ``text``."""
    depth = 0
    size = len(text)
    while pos < size:
        char = text[pos]
        if char == '"':
            string = _STRING.match(text, pos)
            if string is None:
                return -1
            pos = string.end()
            continue
        if char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return pos + 1
        pos += 1
    return -1
