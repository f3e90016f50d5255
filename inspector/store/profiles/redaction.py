"""Masking a profile's secret values in what is recorded (the recording's ``Redactor``)."""

from __future__ import annotations

import json
from typing import Final

from inspector.store.profiles import Profile
from inspector.store.recording import Redactor

__all__ = ["MASK", "MIN_SECRET_LENGTH", "secret_redactor"]

MASK: Final = b"********"
MIN_SECRET_LENGTH: Final = 3
"""Shorter secret values are not masked in recordings (they would mask unrelated text everywhere)."""


def secret_redactor(profile: Profile) -> Redactor | None:
    """A function masking the profile's secret values (as typed and JSON-escaped) in recorded payloads."""
    needles: set[bytes] = set()
    for slot in profile.secret_slots():
        if slot.value is not None and len(slot.value) >= MIN_SECRET_LENGTH:
            needles.add(slot.value.encode("utf-8"))
            needles.add(json.dumps(slot.value, ensure_ascii=True)[1:-1].encode("ascii"))
            needles.add(json.dumps(slot.value, ensure_ascii=False)[1:-1].encode("utf-8"))
    if not needles:
        return None
    ordered = sorted(needles, key=len, reverse=True)

    def redact(data: bytes) -> bytes:
        for needle in ordered:
            if needle in data:
                data = data.replace(needle, MASK)
        return data

    return redact
