"""The README's images: each one it embeds exists, has alt text, is a small PNG without alpha, and every
screenshot the README screenshot test takes is embedded (so a renamed or dropped image is caught)."""

from __future__ import annotations

import re
import struct
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SHOTS_TEST = ROOT / "tests" / "gui" / "test_readme_screenshots.py"
IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")
MAX_BYTES = 250 * 1024
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    assert data.startswith(PNG_SIGNATURE), "not a PNG"
    chunks, at = [], len(PNG_SIGNATURE)
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind = data[at + 4 : at + 8]
        chunks.append((kind, data[at + 8 : at + 8 + length]))
        at += 12 + length
    return chunks


def _images() -> list[tuple[str, str]]:
    return IMAGE.findall(README.read_text(encoding="utf-8"))


def test_every_embedded_image_exists_with_alt_text_small_and_opaque() -> None:
    images = [(alt, src) for alt, src in _images() if not src.startswith(("http://", "https://"))]
    assert images, "the README embeds no images"
    for alt, src in images:
        path = ROOT / src
        assert path.is_file(), f"{src} is embedded but missing"
        assert len(alt.split()) >= 6, f"{src}: alt text too short to say what it shows: {alt!r}"
        data = path.read_bytes()
        assert len(data) < MAX_BYTES, f"{src} is {len(data)} bytes"
        chunks = _png_chunks(data)
        kind, header = chunks[0]
        assert kind == b"IHDR"
        width, height, _depth, colour_type = struct.unpack(">IIBB", header[:10])
        assert colour_type in (0, 2, 3), f"{src}: PNG colour type {colour_type} has an alpha channel"
        assert b"tRNS" not in [k for k, _ in chunks], f"{src}: transparency chunk"
        assert width >= 640 and height >= 400, f"{src}: {width}x{height}"


def test_every_readme_screenshot_the_suite_takes_is_embedded() -> None:
    taken = set(re.findall(r'"([a-z0-9-]+\.png)"', SHOTS_TEST.read_text(encoding="utf-8")))
    assert len(taken) >= 7
    embedded = {Path(src).name for _alt, src in _images()}
    assert taken - embedded == set()
