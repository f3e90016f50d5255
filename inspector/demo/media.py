"""Small media generated in code for the demo server: PNG images, WAV audio and SVG icons.

Nothing here reads files: every byte is produced with ``zlib``/``struct``/``math`` so the demo server is a
single self-contained package.
"""

import base64
import math
import struct
import zlib
from typing import Literal

from mcp_types import Icon

__all__ = [
    "COLORS",
    "icon",
    "make_png",
    "make_wav",
    "png_data_uri",
    "svg_data_uri",
]

COLORS: dict[str, tuple[int, int, int]] = {
    "red": (220, 50, 47),
    "orange": (203, 75, 22),
    "yellow": (181, 137, 0),
    "green": (133, 153, 0),
    "cyan": (42, 161, 152),
    "blue": (38, 139, 210),
    "violet": (108, 113, 196),
    "magenta": (211, 54, 130),
    "gray": (147, 161, 161),
    "black": (0, 0, 0),
    "white": (255, 255, 255),
}
"""Named colours accepted by the image tools, the colour swatch template and the prompts."""

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png_chunk(kind: bytes, payload: bytes) -> bytes:
    crc = zlib.crc32(kind + payload) & 0xFFFFFFFF
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", crc)


def make_png(width: int = 64, height: int = 64, color: tuple[int, int, int] = COLORS["blue"]) -> bytes:
    """A valid RGBA PNG: a filled disc of ``color`` with a soft diagonal shade on a transparent background."""
    if not (1 <= width <= 4096 and 1 <= height <= 4096):
        raise ValueError("width and height must be between 1 and 4096")
    red, green, blue = color
    cx, cy = (width - 1) / 2, (height - 1) / 2
    radius = min(width, height) / 2 - 0.5
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # filter type "None" for this scanline
        for x in range(width):
            inside = (x - cx) ** 2 + (y - cy) ** 2 <= radius**2
            if not inside:
                rows += b"\x00\x00\x00\x00"
                continue
            shade = 0.65 + 0.35 * (1 - (x + y) / max(1, width + height - 2))
            rows += bytes((int(red * shade), int(green * shade), int(blue * shade), 255))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA, no interlace
    return (
        _PNG_SIGNATURE
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + _png_chunk(b"IEND", b"")
    )


def make_wav(frequency: float = 440.0, duration_ms: int = 500, sample_rate: int = 8000) -> bytes:
    """A valid 16-bit mono PCM WAV with a sine tone that fades in and out (no clicks)."""
    if duration_ms < 1 or sample_rate < 1000:
        raise ValueError("duration_ms must be >= 1 and sample_rate >= 1000")
    count = max(1, sample_rate * duration_ms // 1000)
    fade = max(1, min(count // 10, sample_rate // 50))
    frames = bytearray()
    for i in range(count):
        envelope = min(1.0, i / fade, (count - 1 - i) / fade)
        value = int(0.6 * 32767 * envelope * math.sin(2 * math.pi * frequency * i / sample_rate))
        frames += struct.pack("<h", value)
    fmt = struct.pack("<HHIIHH", 1, 1, sample_rate, sample_rate * 2, 2, 16)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(frames)) + frames
    return b"RIFF" + struct.pack("<I", len(body)) + body


def png_data_uri(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def svg_data_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


_SVG_TEMPLATE = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24">'
    '<rect x="1" y="1" width="22" height="22" rx="5" fill="{bg}"/>{body}</svg>'
)

_SVG_BODIES: dict[str, str] = {
    # a magnifying glass over a plug: the inspector demo itself
    "server": '<circle cx="10" cy="10" r="5.5" fill="none" stroke="{fg}" stroke-width="2"/>'
    '<path d="M14 14l5.5 5.5" stroke="{fg}" stroke-width="2.4" stroke-linecap="round"/>',
    "tool": '<path d="M6 18l7-7m1.5-4.5a3 3 0 1 0 3 3" fill="none" stroke="{fg}" stroke-width="2.2" '
    'stroke-linecap="round"/>',
    "resource": '<path d="M7 5h7l4 4v10H7z" fill="none" stroke="{fg}" stroke-width="2" stroke-linejoin="round"/>'
    '<path d="M9.5 13h6M9.5 16h6" stroke="{fg}" stroke-width="1.6"/>',
    "prompt": '<path d="M5 7h14v8H10l-4 3v-3H5z" fill="none" stroke="{fg}" stroke-width="2" stroke-linejoin="round"/>',
    "clock": '<circle cx="12" cy="12" r="7" fill="none" stroke="{fg}" stroke-width="2"/>'
    '<path d="M12 8v4l3 2" stroke="{fg}" stroke-width="2" stroke-linecap="round" fill="none"/>',
    "image": '<rect x="5" y="6" width="14" height="12" rx="1.5" fill="none" stroke="{fg}" stroke-width="2"/>'
    '<path d="M6 17l4.5-5 3 3 2-2 3 4" fill="none" stroke="{fg}" stroke-width="1.6"/>',
    "weather": '<circle cx="9" cy="10" r="3.5" fill="{fg}"/>'
    '<path d="M9 18h8a3 3 0 0 0 0-6 4 4 0 0 0-7.5 1.5A2.3 2.3 0 0 0 9 18z" fill="{fg}" opacity=".8"/>',
}

_THEMES: dict[Literal["light", "dark"], tuple[str, str]] = {
    "light": ("#2f6feb", "#ffffff"),
    "dark": ("#9ecbff", "#0d1117"),
}


def icon(kind: str, *, themed: bool = False) -> list[Icon]:
    """Icons for ``kind`` (a key of the SVG table) as data: URIs; ``themed`` adds light and dark variants."""
    body = _SVG_BODIES[kind]
    if not themed:
        bg, fg = _THEMES["light"]
        svg = _SVG_TEMPLATE.format(bg=bg, body=body.format(fg=fg))
        return [Icon(src=svg_data_uri(svg), mime_type="image/svg+xml", sizes=["any"])]
    icons: list[Icon] = []
    for theme, (bg, fg) in _THEMES.items():
        svg = _SVG_TEMPLATE.format(bg=bg, body=body.format(fg=fg))
        icons.append(Icon(src=svg_data_uri(svg), mime_type="image/svg+xml", sizes=["any"], theme=theme))
    icons.append(Icon(src=png_data_uri(make_png(48, 48)), mime_type="image/png", sizes=["48x48"]))
    return icons
