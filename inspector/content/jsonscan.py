"""Lazy JSON for payloads too big to parse at once (no Qt).

``LazyJson`` keeps the payload text and never parses more than it is asked to show: a node's
children are enumerated on demand, in batches, by skipping over their values (a string is skipped
with ``str.find``; a container by a bracket scan). A container bigger than ``SMALL`` bytes is not
skipped on demand; its end comes from the background ``scan`` (one pass over the text, run in time
slices by the caller), and until then enumeration of its parent pauses right after it ("pending").

``PrettyStream`` re-indents the payload text in time slices, for the full-text viewer.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any, Final

from inspector.content.jsontree import JsonNode

__all__ = ["SMALL", "JsonSyntaxError", "LazyJson", "PrettyStream", "string_end"]

SMALL: Final = 65536
_WS: Final = re.compile(r"[ \t\n\r]*")
_STRUCT: Final = re.compile(r'["{}\[\]]')
_SCALAR: Final = re.compile(r"-?(?:\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|NaN|-?Infinity")
_CLOSE: Final = {"{": "}", "[": "]"}
_TYPES: Final = {"{": "object", "[": "array", '"': "string", "t": "boolean", "f": "boolean", "n": "null"}


class JsonSyntaxError(ValueError):
    """The payload is not well-formed JSON (at the offset in the message)."""


def string_end(text: str, p: int) -> int:
    """Offset just after the JSON string whose opening quote is at ``p`` (found with ``str.find``)."""
    q = text.find('"', p + 1)
    while q != -1:
        k = q - 1
        while text[k] == "\\":
            k -= 1
        if (q - 1 - k) % 2 == 0:
            return q + 1
        q = text.find('"', q + 1)
    raise JsonSyntaxError(f"unterminated string at offset {p}")


def _type_of(ch: str) -> str:
    return _TYPES.get(ch, "number")


class LazyJson:
    """A JSON text, enumerated lazily. See the module docstring."""

    cheap = False

    def __init__(self, text: str) -> None:
        self.text = text
        self.big: dict[int, int] = {}
        """Start offset -> offset of the closing bracket, for containers of SMALL bytes or more."""
        self.scan_pos = 0
        self.scan_done = False
        self.error: str | None = None
        self._stack: list[int] = []
        start = self._ws(0)
        if start >= len(text):
            self.error = "empty payload"
            self.scan_done = True
            start = 0
        self.root = JsonNode(None, 0, None, start, _type_of(text[start]) if text else "null")
        if not self.root.is_container and self.error is None:
            try:
                self.root.end = self.value_end(start)
            except JsonSyntaxError as exc:
                self.error = str(exc)

    def fork(self) -> LazyJson:
        """A fresh document over the same text that reuses what the scan found so far."""
        other = LazyJson(self.text)
        other.big = self.big
        if self.scan_done:
            other.scan_done = True
            other.scan_pos = len(self.text)
            other.error = self.error
        return other

    # ------------------------------------------------------------------ primitives

    def _ws(self, pos: int) -> int:
        m = _WS.match(self.text, pos)
        return m.end() if m is not None else pos

    def string_end(self, p: int) -> int:
        """Offset just after the string that starts with the quote at ``p``."""
        return string_end(self.text, p)

    def container_end(self, start: int) -> int | None:
        """Offset of the bracket closing the container at ``start``; None if it is big and not scanned yet."""
        known = self.big.get(start)
        if known is not None:
            return known
        text = self.text
        limit = min(len(text), start + SMALL)
        depth = 0
        pos = start
        while True:
            m = _STRUCT.search(text, pos, limit)
            if m is None:
                break
            p = m.start()
            c = text[p]
            if c == '"':
                pos = self.string_end(p)
                if pos > limit:
                    break
                continue
            if c == "{" or c == "[":
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    return p
            pos = p + 1
        if limit >= len(text) or (self.scan_done and self.error is None):
            raise JsonSyntaxError(f"unclosed {text[start]!r} at offset {start}")
        return None

    def value_end(self, start: int) -> int | None:
        """Exclusive end of the value at ``start`` (None: a big container not scanned yet)."""
        text = self.text
        if start >= len(text):
            raise JsonSyntaxError("unexpected end of payload")
        c = text[start]
        if c == '"':
            return self.string_end(start)
        if c == "{" or c == "[":
            end = self.container_end(start)
            return None if end is None else end + 1
        m = _SCALAR.match(text, start)
        if m is None or m.end() == start:
            raise JsonSyntaxError(f"unexpected {c!r} at offset {start}")
        return m.end()

    # ------------------------------------------------------------------ background scan

    def progress(self) -> float:
        return 1.0 if self.scan_done else self.scan_pos / max(1, len(self.text))

    def scan(self, deadline: float) -> bool:
        """Advance the bracket scan until ``deadline`` (perf_counter); True when it is finished."""
        if self.scan_done:
            return True
        text = self.text
        search = _STRUCT.search
        stack = self._stack
        big = self.big
        pos = self.scan_pos
        steps = 0
        try:
            while True:
                m = search(text, pos)
                if m is None:
                    if stack:
                        raise JsonSyntaxError(f"unclosed {text[stack[-1]]!r} at offset {stack[-1]}")
                    self.scan_done = True
                    pos = len(text)
                    break
                p = m.start()
                c = text[p]
                if c == '"':
                    pos = self.string_end(p)
                elif c == "{" or c == "[":
                    stack.append(p)
                    pos = p + 1
                else:
                    if not stack or _CLOSE[text[stack[-1]]] != c:
                        raise JsonSyntaxError(f"unexpected {c!r} at offset {p}")
                    s = stack.pop()
                    if p - s >= SMALL:
                        big[s] = p
                    pos = p + 1
                steps += 1
                if not steps & 255 and time.perf_counter() > deadline:
                    break
        except JsonSyntaxError as exc:
            self.error = str(exc)
            self.scan_done = True
        self.scan_pos = pos
        return self.scan_done

    # ------------------------------------------------------------------ enumeration

    def has_children(self, node: JsonNode) -> bool:
        if not node.is_container:
            return False
        if node.children:
            return True
        if node.complete:
            return False
        pos = self._ws(node.start + 1)
        return pos < len(self.text) and self.text[pos] not in "}]"

    def _after_value(self, node: JsonNode, end: int) -> int:
        text = self.text
        pos = self._ws(end)
        c = text[pos] if pos < len(text) else ""
        if c == ",":
            return pos + 1
        if c == _CLOSE[text[node.start]]:
            node.complete = True
            node.end = pos + 1
            return pos + 1
        raise JsonSyntaxError(f"expected ',' or {_CLOSE[text[node.start]]!r} at offset {pos}")

    def expand(self, node: JsonNode, max_items: int, deadline: float | None = None) -> list[JsonNode]:
        """Enumerate up to ``max_items`` more children of ``node``; returns the new ones.

        Stops early at ``deadline`` or when the previous child is a big container whose end the
        background scan has not found yet (``node.pending``). Raises ``JsonSyntaxError``.
        """
        if node.complete:
            return []
        text = self.text
        if node.pending is not None:
            end = self.value_end(node.pending.start)
            if end is None:
                return []
            node.pending.end = end
            node.pending = None
            node.resume = self._after_value(node, end)
        new: list[JsonNode] = []
        is_object = node.type == "object"
        close = "}" if is_object else "]"
        pos = node.resume
        while not node.complete and len(new) < max_items:
            pos = self._ws(pos)
            if pos >= len(text):
                raise JsonSyntaxError("unexpected end of payload")
            c = text[pos]
            if c == close and not node.children:
                node.complete = True
                node.end = pos + 1
                break
            key: str | int
            if is_object:
                if c != '"':
                    raise JsonSyntaxError(f"expected a member name at offset {pos}")
                key_end = self.string_end(pos)
                raw_key = text[pos + 1 : key_end - 1]
                key = json.loads(text[pos:key_end]) if "\\" in raw_key else raw_key
                pos = self._ws(key_end)
                if text[pos : pos + 1] != ":":
                    raise JsonSyntaxError(f"expected ':' at offset {pos}")
                pos = self._ws(pos + 1)
            else:
                key = len(node.children)
            if pos >= len(text):
                raise JsonSyntaxError("unexpected end of payload")
            child = JsonNode(node, len(node.children), key, pos, _type_of(text[pos]))
            node.children.append(child)
            new.append(child)
            end = self.value_end(pos)
            if end is None:
                node.pending = child
                break
            child.end = end
            pos = self._after_value(node, end)
            node.resume = pos
            if deadline is not None and time.perf_counter() > deadline:
                break
        return new

    # ------------------------------------------------------------------ display

    def preview(self, node: JsonNode, limit: int = 160) -> str:
        """A short text for a scalar (strings decoded and cut), or the source slice."""
        text = self.text
        if node.type == "string":
            stop = node.end - 1 if node.end is not None else len(text)
            raw = text[node.start + 1 : min(stop, node.start + 1 + limit * 2)]
            value = raw
            if "\\" in raw:
                for trim in range(7):
                    try:
                        value = json.loads('"' + raw[: len(raw) - trim] + '"')
                        break
                    except ValueError:
                        continue
            more = len(value) > limit or (node.end is None or node.start + 1 + limit * 2 < stop)
            return '"' + value[:limit].replace("\n", "⏎") + ("…" if more else '"')
        if node.end is not None and not node.is_container:
            return text[node.start : node.end]
        return ""

    def source(self, node: JsonNode) -> str | None:
        """The node's JSON text as in the payload (None while its end is unknown)."""
        return None if node.end is None else self.text[node.start : node.end]

    def summary(self, node: JsonNode) -> str:
        """The Value column: a container's count of members (so far), or the scalar's ``preview``."""
        if node.is_container and not node.children and not self.has_children(node):
            return "{}" if node.type == "object" else "[]"
        n = len(node.children)
        if node.type == "object":
            if node.complete:
                return f"{{{n:,} key{'s' if n != 1 else ''}}}"
            return f"{{{n:,}+ keys…}}" if n else "{…}"
        if node.type == "array":
            if node.complete:
                return f"[{n:,} item{'s' if n != 1 else ''}]"
            return f"[{n:,}+ items…]" if n else "[…]"
        return self.preview(node)

    def value(self, node: JsonNode) -> Any:
        """The node's value, parsed from its source (None while its end is unknown, or if it does not parse)."""
        source = self.source(node)
        if source is None:
            return None
        try:
            return json.loads(source)
        except ValueError:
            return None

    def size(self, node: JsonNode) -> int | None:
        return None if node.end is None else node.end - node.start


class PrettyStream:
    """Re-indents a JSON text in slices (strings are copied as they are, long ones cut)."""

    def __init__(self, text: str, indent: int = 2, max_string: int = 20_000) -> None:
        self.text = text
        self.pos = 0
        self.done = not text
        self._indent = " " * indent
        self._depth = 0
        self._max_string = max_string

    def step(self, deadline: float) -> str:
        """Text produced until ``deadline``; ``done`` is set at the end (or at a syntax error)."""
        text = self.text
        out: list[str] = []
        pos = self.pos
        steps = 0
        n = len(text)
        while True:
            m = _WS.match(text, pos)
            pos = m.end() if m is not None else pos
            if pos >= n:
                self.done = True
                break
            c = text[pos]
            if c == "{" or c == "[":
                after = _WS.match(text, pos + 1)
                nxt = after.end() if after is not None else pos + 1
                if nxt < n and text[nxt] == _CLOSE[c]:
                    out.append(c + _CLOSE[c])
                    pos = nxt + 1
                else:
                    self._depth += 1
                    out.append(c + "\n" + self._indent * self._depth)
                    pos += 1
            elif c == "}" or c == "]":
                self._depth = max(0, self._depth - 1)
                out.append("\n" + self._indent * self._depth + c)
                pos += 1
            elif c == ",":
                out.append(",\n" + self._indent * self._depth)
                pos += 1
            elif c == ":":
                out.append(": ")
                pos += 1
            elif c == '"':
                try:
                    end = string_end(text, pos)
                except JsonSyntaxError:
                    end = n
                if end - pos > self._max_string:
                    out.append(f'{text[pos : pos + self._max_string]}…"  ⟨{end - pos - self._max_string:,} more⟩')
                else:
                    out.append(text[pos:end])
                pos = end
            else:
                sm = _SCALAR.match(text, pos)
                if sm is None or sm.end() == pos:
                    out.append(text[pos : pos + 4096])
                    self.done = True
                    pos = n
                    break
                out.append(sm.group())
                pos = sm.end()
            steps += 1
            if not steps & 255 and time.perf_counter() > deadline:
                break
        self.pos = pos
        return "".join(out)
