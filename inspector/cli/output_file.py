"""``--output PATH`` / ``--output-format json|raw``: the result written to a file instead of stdout.

As the official CLI:

* ``json`` (the default): the whole result, pretty-printed (two spaces), with a final newline;
* ``raw`` (tools/call and resources/read only): the text of the result's content blocks (``content`` of a tool
  result, ``contents`` of a resource; an embedded resource counts by its own text or blob) joined with
  newlines; when there is no text, the decoded bytes of its one binary block (image, audio, blob). A result
  with neither, or with several binary blocks and no text, has no raw form: refused with ``output_not_raw``.

The file is replaced when it exists; its directory must exist. A file that cannot be written ends the run with
``output_write_failed``. Both refusals exit 1 (as the official CLI).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Mapping
from typing import Any, Final, Literal

from inspector.cli.errors import CliFailure

__all__ = ["RAW_METHODS", "Written", "render_for_file", "render_raw", "write_result_file"]

RAW_METHODS: Final = ("tools/call", "resources/read")
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_WHITESPACE: Final = re.compile(r"[\t\n\f\r ]+")

Written = dict[str, Any]
"""``{"path": ..., "format": "json"|"raw", "bytes": N}``: what was written (printed as ``{"output": ...}``)."""


def _not_raw(message: str) -> CliFailure:
    return CliFailure("error", message, envelope_code="output_not_raw")


def _payload(block: Any) -> tuple[str, str] | None:
    """``("text", text)`` or ``("binary", base64)`` of one content block (an embedded resource by its own)."""
    if not isinstance(block, Mapping):
        return None
    nested = block.get("resource")
    if isinstance(nested, Mapping):
        return _payload(nested)
    for key, kind in (("text", "text"), ("data", "binary"), ("blob", "binary")):
        value = block.get(key)
        if isinstance(value, str):
            return kind, value
    return None


def _decode(data: str) -> bytes:
    """Base64 as browsers' ``atob`` reads it: ASCII whitespace ignored, missing padding tolerated."""
    compact = _WHITESPACE.sub("", data)
    if len(compact) % 4 == 1:
        raise ValueError("truncated base64")
    return base64.b64decode(compact + "=" * (-len(compact) % 4), validate=True)


def _utf8(text: str) -> bytes:
    """UTF-8 of a server's text; a lone surrogate (valid JSON, not encodable) becomes U+FFFD."""
    return _SURROGATE.sub("\ufffd", text).encode("utf-8")


def render_raw(result: Any, method: str) -> bytes:
    """The raw form of a tools/call or resources/read result (see the module docstring)."""
    blocks = (
        result.get("contents" if method == "resources/read" else "content") if isinstance(result, Mapping) else None
    )
    payloads = [p for p in map(_payload, blocks if isinstance(blocks, list) else []) if p is not None]
    texts = [value for kind, value in payloads if kind == "text"]
    if texts:
        return _utf8("\n".join(texts))
    binaries = [value for kind, value in payloads if kind == "binary"]
    if len(binaries) == 1:
        try:
            return _decode(binaries[0])
        except (binascii.Error, ValueError):
            raise _not_raw(
                f"the {method} result's binary content is not valid base64, so it has no raw form; "
                "use --output-format json"
            ) from None
    if not binaries:
        raise _not_raw(f"the {method} result has no text or binary content to write as raw; use --output-format json")
    raise _not_raw(
        f"the {method} result has {len(binaries)} binary blocks and no text, so it has no single raw form; "
        "use --output-format json"
    )


def render_for_file(result: Any, method: str, fmt: Literal["json", "raw"]) -> bytes:
    """The bytes ``--output`` writes for ``result`` in ``fmt``."""
    if fmt == "raw":
        return render_raw(result, method)
    text = json.dumps(result, ensure_ascii=False, indent=2, default=repr) + "\n"
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text).encode("utf-8")


def write_result_file(result: Any, method: str, path: str, fmt: Literal["json", "raw"] = "json") -> Written:
    """Write ``result`` to ``path`` (replacing it) in ``fmt``; returns what was written."""
    data = render_for_file(result, method, fmt)
    try:
        with open(path, "wb") as handle:
            handle.write(data)
    except OSError as exc:
        raise CliFailure(
            "error",
            f"could not write --output file {path}: {exc.strerror or exc}",
            envelope_code="output_write_failed",
        ) from None
    return {"path": path, "format": fmt, "bytes": len(data)}
