"""What the CLI prints: JSON documents (the default, as the official CLI), a readable rendering for people.

Rendering never fails on a malformed result (servers send anything): whatever the readable
renderer cannot handle is printed as pretty JSON instead. Nothing a server sent reaches the terminal raw:
control characters, bidi overrides and lone surrogates are escaped (:mod:`inspector.cli.terminal`), in
JSON as ``\\uXXXX`` inside their strings (the document still parses to what the server sent).
"""

from __future__ import annotations

import base64
import binascii
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TextIO

from inspector.cli.coerce import declared_types
from inspector.cli.errors import CliFailure
from inspector.cli.terminal import escape_json, escape_line, escape_text, write
from inspector.protocol.error_codes import explain_error

__all__ = [
    "Reporter",
    "dump_json",
    "error_document",
    "explain_failure",
    "pretty_json",
    "render_text",
    "report_failure",
    "result_document",
    "violation_lines",
]

_DESCRIPTION_MAX: Final = 160
_JSON_DIAGNOSTICS_MAX: Final = 500


def dump_json(value: Any) -> str:
    """Compact JSON on one line, without spaces, as the official CLI prints it (results may be huge), terminal-safe."""
    return escape_json(json.dumps(value, ensure_ascii=False, allow_nan=False, default=repr, separators=(",", ":")))


def pretty_json(value: Any) -> str:
    """Indented JSON, terminal-safe."""
    return escape_json(json.dumps(value, ensure_ascii=False, indent=2, default=repr))


def result_document(result: Any) -> str:
    """The one JSON object printed on stdout with ``--format json``."""
    return dump_json({"result": result})


def error_document(error: Mapping[str, Any]) -> str:
    """The one JSON object printed on stderr when the run failed (text and json formats)."""
    return dump_json({"error": dict(error)})


def violation_lines(diagnostics: Sequence[Any], limit: int = 50) -> list[str]:
    """One line per diagnostic, for ``--strict`` in human format (at most ``limit``, then a count)."""
    lines = [f"  {escape_line(str(diagnostic))}" for diagnostic in diagnostics[:limit]]
    if len(diagnostics) > limit:
        lines.append(f"  ... and {len(diagnostics) - limit} more")
    return lines


# --- readable rendering -------------------------------------------------------------------------


def _first_line(text: Any) -> str:
    if not isinstance(text, str):
        return ""
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= _DESCRIPTION_MAX else line[: _DESCRIPTION_MAX - 1] + "…"


def _name(value: Any) -> str:
    return escape_line(value) if isinstance(value, str) else f"(invalid name: {json.dumps(value, default=repr)})"


def _field(value: Any) -> str:
    """A value shown inside one line (a URI, a MIME type, a role): never more than one line."""
    return escape_line(value if isinstance(value, str) else str(value))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _type_text(schema: Any, root: Mapping[str, Any]) -> str:
    if isinstance(schema, Mapping) and isinstance(schema.get("enum"), list):
        members = schema["enum"]
        shown = ", ".join(dump_json(m) for m in members[:6])
        return f"one of {shown}{', …' if len(members) > 6 else ''}"
    types = declared_types(schema, root)
    if not types:
        return "any"
    return "|".join(sorted(types))


def _items(result: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    value = result.get(key)
    if not isinstance(value, list):
        raise TypeError(f"{key} is not a list")
    return [item for item in value if isinstance(item, Mapping)]


def _render_tools(result: Mapping[str, Any]) -> str:
    tools = _items(result, "tools")
    lines = [_plural(len(tools), "tool")]
    for tool in tools:
        description = _first_line(tool.get("description"))
        lines.append(f"- {_name(tool.get('name'))}" + (f": {description}" if description else ""))
        schema = tool.get("inputSchema")
        if not isinstance(schema, Mapping):
            continue
        props = schema.get("properties")
        required_value = schema.get("required")
        required: list[Any] = required_value if isinstance(required_value, list) else []
        if isinstance(props, Mapping):
            for name, prop in props.items():
                flags = ", required" if name in required else ""
                about = _first_line(prop.get("description")) if isinstance(prop, Mapping) else ""
                line = f"    {_field(name)}: {_type_text(prop, schema)}{flags}" + (f" — {about}" if about else "")
                lines.append(line)
    return "\n".join(lines)


def _render_resources(result: Mapping[str, Any], key: str, uri_key: str, word: str) -> str:
    entries = _items(result, key)
    lines = [_plural(len(entries), word)]
    for entry in entries:
        name = entry.get("title") or entry.get("name")
        mime = entry.get("mimeType")
        line = f"- {_field(entry.get(uri_key))}"
        if name:
            line += f"  {_field(name)}"
        if mime:
            line += f" ({_field(mime)})"
        lines.append(line)
        description = _first_line(entry.get("description"))
        if description:
            lines.append(f"    {description}")
    return "\n".join(lines)


def _render_prompts(result: Mapping[str, Any]) -> str:
    prompts = _items(result, "prompts")
    lines = [_plural(len(prompts), "prompt")]
    for prompt in prompts:
        description = _first_line(prompt.get("description"))
        lines.append(f"- {_name(prompt.get('name'))}" + (f": {description}" if description else ""))
        arguments = prompt.get("arguments")
        if isinstance(arguments, list):
            for argument in arguments:
                if not isinstance(argument, Mapping):
                    continue
                flags = " (required)" if argument.get("required") else ""
                about = _first_line(argument.get("description"))
                lines.append(f"    {_field(argument.get('name'))}{flags}" + (f" — {about}" if about else ""))
    return "\n".join(lines)


def _blob_size(data: Any) -> str:
    if not isinstance(data, str):
        return "no data"
    try:
        return f"{len(base64.b64decode(data, validate=True))} bytes"
    except (binascii.Error, ValueError):
        return f"{len(data)} characters of invalid base64"


def _render_resource_contents(contents: Mapping[str, Any]) -> list[str]:
    mime = f" ({_field(contents['mimeType'])})" if contents.get("mimeType") else ""
    header = f"[resource {_field(contents.get('uri'))}" + mime
    if isinstance(contents.get("text"), str):
        return [header + "]", contents["text"]]
    return [header + f", {_blob_size(contents.get('blob'))}]"]


def _render_content(item: Any) -> list[str]:
    if not isinstance(item, Mapping):
        return [pretty_json(item)]
    kind = item.get("type")
    if kind == "text":
        return [str(item.get("text", ""))]
    if kind in ("image", "audio"):
        return [f"[{kind} {_field(item.get('mimeType', '?'))}, {_blob_size(item.get('data'))}]"]
    if kind == "resource_link":
        name = item.get("title") or item.get("name")
        return [f"[resource link {_field(item.get('uri'))}" + (f" ({_field(name)})" if name else "") + "]"]
    if kind == "resource" and isinstance(item.get("resource"), Mapping):
        return _render_resource_contents(item["resource"])
    return [pretty_json(item)]


def _render_tool_result(result: Mapping[str, Any]) -> str:
    lines: list[str] = []
    if result.get("isError") is True:
        lines.append("tool returned an error (isError: true):")
    content = result.get("content")
    if isinstance(content, list):
        for item in content:
            lines.extend(_render_content(item))
    if "structuredContent" in result:
        lines.append("structuredContent:")
        lines.append(pretty_json(result["structuredContent"]))
    if not lines:
        lines.append("(no content)")
    return "\n".join(lines)


def _render_read(result: Mapping[str, Any]) -> str:
    lines: list[str] = []
    for contents in _items(result, "contents"):
        lines.extend(_render_resource_contents(contents))
    return "\n".join(lines) if lines else "(no contents)"


def _render_prompt(result: Mapping[str, Any]) -> str:
    lines: list[str] = []
    description = result.get("description")
    if isinstance(description, str) and description:
        lines.append(description)
    for message in _items(result, "messages"):
        content = message.get("content")
        items = content if isinstance(content, list) else [content]
        body: list[str] = []
        for item in items:
            body.extend(_render_content(item))
        lines.append(f"[{_field(message.get('role'))}] " + "\n".join(body))
    return "\n".join(lines) if lines else "(no messages)"


def _render_initialize(result: Mapping[str, Any]) -> str:
    info = result.get("serverInfo")
    info = info if isinstance(info, Mapping) else {}
    name = _field(info.get("title") or info.get("name") or "?")
    version = _field(info.get("version", "?"))
    era = f", {_field(result['era'])} era" if "era" in result else ""
    lines = [f"{name} {version} (protocol {_field(result.get('protocolVersion', '?'))}{era})"]
    caps = result.get("capabilities")
    if isinstance(caps, Mapping):
        lines.append("capabilities: " + (", ".join(_field(key) for key in caps) or "none"))
    instructions = result.get("instructions")
    if isinstance(instructions, str) and instructions.strip():
        lines.append("instructions:")
        lines.extend(f"  {line}" for line in instructions.strip().splitlines())
    return "\n".join(lines)


def _render_empty(result: Mapping[str, Any]) -> str:
    return "ok" if not result else pretty_json(result)


_RENDERERS: Final[dict[str, Callable[[Mapping[str, Any]], str]]] = {
    "tools/list": _render_tools,
    "resources/list": lambda r: _render_resources(r, "resources", "uri", "resource"),
    "resources/templates/list": lambda r: _render_resources(r, "resourceTemplates", "uriTemplate", "template"),
    "prompts/list": _render_prompts,
    "tools/call": _render_tool_result,
    "resources/read": _render_read,
    "prompts/get": _render_prompt,
    "initialize": _render_initialize,
    "ping": _render_empty,
    "logging/setLevel": _render_empty,
}


def render_text(method: str, result: Any) -> str:
    """A readable rendering of one method's result, terminal-safe; pretty JSON for anything unexpected."""
    renderer = _RENDERERS.get(method)
    if renderer is not None and isinstance(result, Mapping):
        try:
            return escape_text(renderer(result))
        except (TypeError, ValueError, AttributeError, KeyError):
            pass
    return pretty_json(result)


# --- the reporter -------------------------------------------------------------------------------


@dataclass(slots=True)
class Reporter:
    """Where output goes, in which format. Every line goes through :mod:`inspector.cli.terminal`.

    ``text`` (the default, as the official CLI): the result as pretty JSON on stdout, failures as one
    ``{"error": ...}`` line on stderr. ``json``: one ``{"result": ...}`` line on stdout, the same failure line.
    ``human``: our readable summary, failures as one ``error: ...`` line. ``quiet``: nothing but the result
    (or the failure) -- no warnings, status lines or server stderr.
    """

    format: str = "text"
    out: TextIO = field(default_factory=lambda: sys.stdout)
    err: TextIO = field(default_factory=lambda: sys.stderr)
    quiet: bool = False

    @property
    def chatty(self) -> bool:
        """Whether advisory lines (warnings, notes) go to stderr: not with --quiet, not with --format json."""
        return not self.quiet and self.format != "json"

    def warn(self, message: str) -> None:
        """A warning line on stderr (text and human formats, not with --quiet)."""
        if self.chatty:
            write(self.err, f"warning: {escape_line(message)}\n")

    def status(self, line: str) -> None:
        """A progress line of our own on stderr (``task ...: working``): human format only, not with --quiet."""
        if self.format == "human" and not self.quiet:
            write(self.err, escape_line(line) + "\n")

    def server_stderr(self, line: str) -> None:
        """A line the stdio server wrote on its stderr, passed through (as the official CLI), unless --quiet."""
        if not self.quiet:
            write(self.err, escape_line(line.rstrip("\r\n")) + "\n")

    def text(self, text: str) -> None:
        """Text of our own that may hold a server's strings (human format)."""
        write(self.out, escape_text(text))

    def result(self, method: str, result: Any) -> None:
        if self.format == "json":
            write(self.out, result_document(result) + "\n", json=True)
        elif self.format == "human":
            write(self.out, render_text(method, result) + "\n")
        else:
            write(self.out, pretty_json(result) + "\n", json=True)

    def wrote(self, written: Mapping[str, Any], extras: Mapping[str, Any] | None = None) -> None:
        """``--output``: ``{"output": {...}, **extras}`` on stdout with --format json, else one line on stderr."""
        if self.format == "json":
            write(self.out, dump_json({"output": dict(written), **(extras or {})}) + "\n", json=True)
        elif not self.quiet:
            line = f"Wrote {written['bytes']} bytes ({written['format']}) to {written['path']}"
            write(self.err, escape_line(line) + "\n")

    def raw_json(self, value: Any) -> None:
        """Print a JSON value as is (pretty), wrapped as ``{"result": ...}`` in json format."""
        write(self.out, (result_document(value) if self.format == "json" else pretty_json(value)) + "\n", json=True)

    def document(self, value: Any) -> None:
        """One JSON document on stdout (the probe report): indented, or on one line in json format."""
        write(self.out, (dump_json(value) if self.format == "json" else pretty_json(value)) + "\n", json=True)

    def failure(self, failure: CliFailure) -> None:
        report_failure(failure, self.format, self.err)

    def violations(self, diagnostics: list[Any], cause: CliFailure | None) -> None:
        """The --strict report: what the server did wrong (and what else failed, if anything)."""
        n = len(diagnostics)
        message = f"the server violated the protocol {n} time{'s' if n != 1 else ''}"
        if self.format == "human":
            if cause is not None:
                report_failure(cause, "human", self.err)
            write(self.err, f"error: {message}:\n" + "\n".join(violation_lines(diagnostics)) + "\n")
            return
        if self.format == "text" and not self.quiet:  # readable first, then the envelope (as the official --strict)
            write(self.err, "\n".join(violation_lines(diagnostics)) + "\n")
        extra: dict[str, Any] = {"diagnostics": [d.to_json() for d in diagnostics[:_JSON_DIAGNOSTICS_MAX]]}
        if n > _JSON_DIAGNOSTICS_MAX:
            extra["omitted"] = n - _JSON_DIAGNOSTICS_MAX
        if cause is not None:
            extra["cause"] = cause.to_json()
        report_failure(CliFailure("violation", message, extra=extra), self.format, self.err)


def explain_failure(failure: CliFailure) -> str | None:
    """What a server's error code means (MCP's own codes), for a failure that carries one; else None."""
    if failure.kind != "protocol" or failure.code is None:
        return None
    method = failure.extra.get("method")
    return explain_error(failure.code, failure.message, failure.data, method if isinstance(method, str) else None)


def report_failure(failure: CliFailure, fmt: str, err: TextIO) -> None:
    """A failure on stderr, terminal-safe: one ``{"error": {...}}`` line (text and json formats, as the
    official CLI), or one ``error: ...`` line with ``--format human``.

    A server error with an MCP meaning gets its explanation: ``"explanation"`` in the envelope, or after the
    human line (`` — ...``).
    """
    explanation = explain_failure(failure)
    if fmt == "human":
        line = failure.line() + (f" — {explanation}" if explanation is not None else "")
        write(err, escape_line(line) + "\n")
        return
    document = failure.to_json()
    if explanation is not None:
        document["explanation"] = explanation
    write(err, error_document(document) + "\n", json=True)
