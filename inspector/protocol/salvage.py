"""Reading what can be read from answers the JSON parser refused, and numbers a float cannot hold."""

from __future__ import annotations

import json
import math
import re
from typing import Any, Final

from inspector.protocol.wire import RequestId

__all__ = ["DECIMAL_ID", "finite", "salvage_id"]

_ID_NEAR_START: Final = re.compile(
    rb'^\s*\{[^{}\[\]]{0,200}?"id"\s*:\s*(-?\d{1,30}(?=\s*[,}])|"(?:[^"\\]|\\.){0,200}")'
)
_METHOD_KEY: Final = re.compile(rb'"method"\s*:')
DECIMAL_ID: Final = re.compile(r"-?[0-9]{1,30}")


def finite(value: Any) -> float | None:
    """A JSON number as a finite float, or None (not a number, a bool, or too large for a float)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def salvage_id(raw: bytes) -> RequestId | None:
    """Read the id of a response whose frame cannot be parsed, when it stands near the start."""
    head = raw[:512]
    if _METHOD_KEY.search(head):
        return None  # a request or notification from the server, not an answer to us
    m = _ID_NEAR_START.match(head)
    if m is None:
        return None
    token = m.group(1)
    if token.startswith(b'"'):
        try:
            value = json.loads(token)
        except ValueError:
            return None
        return value if isinstance(value, str) else None
    return int(token)
