"""Facts about media bytes without a GUI: sniffed format, WAV parameters, file suffixes."""

from __future__ import annotations

import base64
import io
import mimetypes
import wave
from urllib.parse import unquote_to_bytes

from inspector.content.mime import essence

__all__ = ["decode_data_uri", "describe_audio", "mime_mismatch", "sniff_mime_type", "suffix_for"]

_SIGNATURES: tuple[tuple[bytes, int, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", 0, "image/png"),
    (b"\xff\xd8\xff", 0, "image/jpeg"),
    (b"GIF87a", 0, "image/gif"),
    (b"GIF89a", 0, "image/gif"),
    (b"BM", 0, "image/bmp"),
    (b"WEBP", 8, "image/webp"),
    (b"WAVE", 8, "audio/wav"),
    (b"ID3", 0, "audio/mpeg"),
    (b"OggS", 0, "audio/ogg"),
    (b"fLaC", 0, "audio/flac"),
    (b"%PDF-", 0, "application/pdf"),
    (b"PK\x03\x04", 0, "application/zip"),
)
_EQUIVALENT = {
    "audio/x-wav": "audio/wav",
    "audio/wave": "audio/wav",
    "audio/vnd.wave": "audio/wav",
    "image/jpg": "image/jpeg",
    "audio/mp3": "audio/mpeg",
}
_SUFFIXES = {
    "audio/wav": ".wav",
    "audio/mpeg": ".mp3",
    "audio/ogg": ".ogg",
    "audio/flac": ".flac",
    "image/jpeg": ".jpg",
    "text/markdown": ".md",
    "application/json": ".json",
    "text/plain": ".txt",
}


def sniff_mime_type(data: bytes) -> str:
    """The mimeType the leading bytes reveal; "" when unrecognised. SVG is recognised by its root element."""
    for magic, offset, mime in _SIGNATURES:
        if data[offset : offset + len(magic)] == magic:
            return mime
    head = data[:512].lstrip().lower()
    if head.startswith(b"<svg") or (head.startswith(b"<?xml") and b"<svg" in head):
        return "image/svg+xml"
    if data[4:8] == b"ftyp":
        return "video/mp4" if not data[8:11] == b"M4A" else "audio/mp4"
    return ""


def mime_mismatch(declared: str | None, data: bytes) -> str:
    """A warning when the bytes are clearly another format than the declared mimeType; "" when consistent."""
    sniffed = sniff_mime_type(data)
    wanted = essence(declared)
    wanted = _EQUIVALENT.get(wanted, wanted)
    if not sniffed or not wanted or sniffed == wanted:
        return ""
    return f"declared {wanted}, but the bytes look like {sniffed}"


def describe_audio(data: bytes) -> str:
    """``mono · 8000 Hz · 16-bit · 0.50 s`` for a WAV file; "" for anything the stdlib cannot read."""
    try:
        with wave.open(io.BytesIO(data)) as wav:
            channels = wav.getnchannels()
            rate = wav.getframerate()
            bits = wav.getsampwidth() * 8
            seconds = wav.getnframes() / rate if rate else 0.0
    except (wave.Error, EOFError, ValueError, OSError):
        return ""
    layout = {1: "mono", 2: "stereo"}.get(channels, f"{channels} channels")
    return f"{layout} · {rate} Hz · {bits}-bit · {seconds:.2f} s"


def suffix_for(mime_type: str | None, uri: str | None = None) -> str:
    """A file suffix (with the dot) for saving a payload: from the mimeType, else the URI, else ``.bin``."""
    kind = essence(mime_type)
    kind = _EQUIVALENT.get(kind, kind)
    if kind in _SUFFIXES:
        return _SUFFIXES[kind]
    guessed = mimetypes.guess_extension(kind, strict=False) if kind else None
    if guessed:
        return guessed
    if uri:
        tail = uri.rsplit("/", 1)[-1]
        if "." in tail and len(tail.rsplit(".", 1)[1]) <= 5:
            return "." + tail.rsplit(".", 1)[1]
    return ".bin"


def decode_data_uri(uri: str) -> tuple[str, bytes] | None:
    """(mime type, bytes) of a ``data:`` URI, or None when it is not one or does not decode."""
    if not uri.startswith("data:") or "," not in uri:
        return None
    header, _, payload = uri[5:].partition(",")
    params = header.split(";")
    mime = params[0].strip().lower() or "text/plain"
    try:
        if "base64" in (p.strip().lower() for p in params[1:]):
            data = base64.b64decode(payload, validate=False)
        else:
            data = unquote_to_bytes(payload)
    except ValueError:
        return None
    return mime, data
