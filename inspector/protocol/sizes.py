"""Byte sizes for people, the one formatter and parser every layer uses (sans-I/O).

``format_size`` writes IEC units (B, KiB, MiB, GiB): a whole number of a unit exactly (``256 MiB``, so a
size shown can be typed back), anything else with at most two decimals (``1.46 KiB``). ``parse_size`` reads
a plain number of bytes or a number with ``KB``/``MB``/``GB`` (powers of 1000) or ``KiB``/``MiB``/``GiB``
(powers of 1024).
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["GiB", "KiB", "MiB", "format_size", "parse_size"]

KiB: Final = 1024
MiB: Final = 1024 * KiB
GiB: Final = 1024 * MiB

_UNITS: Final[dict[str, int]] = {
    "": 1,
    "b": 1,
    "k": 1000,
    "kb": 1000,
    "m": 1000**2,
    "mb": 1000**2,
    "g": 1000**3,
    "gb": 1000**3,
    "kib": KiB,
    "mib": MiB,
    "gib": GiB,
}
_SIZE: Final = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$")


def parse_size(text: str | int) -> int:
    """``"64MiB"`` -> 67108864; ``"1.5KB"`` -> 1500; ``"42"`` / ``42`` -> 42. Raises ValueError."""
    if isinstance(text, bool):
        raise ValueError(f"not a size: {text!r}")
    if isinstance(text, int):
        if text < 0:
            raise ValueError(f"a size cannot be negative: {text}")
        return text
    match = _SIZE.match(text)
    if match is None:
        raise ValueError(f"not a size: {text!r} (a number of bytes, or with KB, MB, GB, KiB, MiB or GiB)")
    number, unit = match.groups()
    factor = _UNITS.get(unit.lower())
    if factor is None:
        raise ValueError(f"unknown size unit {unit!r} in {text!r} (KB, MB, GB, KiB, MiB, GiB)")
    return int(float(number) * factor)


def format_size(size: int) -> str:
    """``268435456`` -> ``"256 MiB"``, ``1536`` -> ``"1.5 KiB"``, ``1500`` -> ``"1.46 KiB"``, ``100`` -> ``"100 B"``."""
    for unit, factor in (("GiB", GiB), ("MiB", MiB), ("KiB", KiB)):
        if size >= factor:
            if size % factor == 0:
                return f"{size // factor} {unit}"
            return f"{size / factor:.2f}".rstrip("0").rstrip(".") + f" {unit}"
    return f"{size} B"
