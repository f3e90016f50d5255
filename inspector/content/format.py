"""Small display helpers shared by the log widgets (no Qt)."""

from __future__ import annotations

__all__ = ["LINE_BREAK_WIDTH", "break_long_lines", "human_duration"]

LINE_BREAK_WIDTH = 4000
"""Text views break lines longer than this (laying out one huge line is what freezes a text widget)."""


def human_duration(seconds: float) -> str:
    """``0.42 ms``, ``12.3 ms``, ``1.25 s``."""
    ms = seconds * 1000
    if ms < 1:
        return f"{ms:.2f} ms"
    if ms < 1000:
        return f"{ms:.1f} ms"
    return f"{seconds:.2f} s"


def break_long_lines(text: str, width: int = LINE_BREAK_WIDTH) -> tuple[str, bool]:
    """``text`` with lines longer than ``width`` broken into pieces; and whether any was."""
    if len(text) <= width or all(len(line) <= width for line in text.split("\n")):
        return text, False
    pieces: list[str] = []
    for line in text.split("\n"):
        if line:
            pieces.extend(line[i : i + width] for i in range(0, len(line), width))
        else:
            pieces.append("")
    return "\n".join(pieces), True
