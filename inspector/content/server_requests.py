"""Qt-free logic of the server-request dialogs: reading a sampling request, building the answers, URL checks.

Everything here is plain data so the dialogs stay thin and the rules are tested without widgets.
"""

from __future__ import annotations

import base64
import mimetypes
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal
from urllib.parse import urlsplit

from inspector.protocol.sizes import format_size

__all__ = [
    "MAX_MEDIA_BYTES",
    "REJECT_CODE",
    "REJECT_MESSAGE",
    "STOP_REASONS",
    "ReplyDraft",
    "ReplyKind",
    "SamplingRequest",
    "UrlParts",
    "load_media",
    "split_url",
]

REJECT_CODE: Final = -1
"""The spec's code for "User rejected sampling request" (client/sampling, error handling)."""
REJECT_MESSAGE: Final = "User rejected sampling request"
STOP_REASONS: Final = ("endTurn", "stopSequence", "maxTokens", "toolUse")
MAX_MEDIA_BYTES: Final = 20 * 1024 * 1024

ReplyKind = Literal["text", "image", "audio", "tool_use"]


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


@dataclass(frozen=True, slots=True)
class SamplingRequest:
    """The parts of ``sampling/createMessage`` params the dialog shows, read leniently (servers err)."""

    messages: Any
    system_prompt: str | None
    max_tokens: Any
    temperature: Any
    stop_sequences: list[str]
    include_context: str | None
    metadata: Any
    hints: list[str]
    priorities: dict[str, float | None]
    """cost / speed / intelligence -> 0..1 (None: not given)."""
    tools: list[dict[str, Any]]
    tool_choice: Any

    @classmethod
    def parse(cls, params: dict[str, Any]) -> SamplingRequest:
        prefs = params.get("modelPreferences")
        prefs = prefs if isinstance(prefs, dict) else {}
        hints = [
            str(h.get("name")) for h in prefs.get("hints") or [] if isinstance(h, dict) and h.get("name") is not None
        ]
        priorities = {
            "cost": _number(prefs.get("costPriority")),
            "speed": _number(prefs.get("speedPriority")),
            "intelligence": _number(prefs.get("intelligencePriority")),
        }
        stops = params.get("stopSequences")
        tools = params.get("tools")
        system = params.get("systemPrompt")
        context = params.get("includeContext")
        return cls(
            messages=params.get("messages", []),
            system_prompt=system if isinstance(system, str) else None,
            max_tokens=params.get("maxTokens"),
            temperature=params.get("temperature"),
            stop_sequences=[str(s) for s in stops] if isinstance(stops, list) else [],
            include_context=context if isinstance(context, str) else None,
            metadata=params.get("metadata"),
            hints=hints,
            priorities=priorities,
            tools=[t for t in tools if isinstance(t, dict)] if isinstance(tools, list) else [],
            tool_choice=params.get("toolChoice"),
        )

    @property
    def has_preferences(self) -> bool:
        return bool(self.hints) or any(v is not None for v in self.priorities.values())

    def tool_names(self) -> list[str]:
        return [str(t.get("name")) for t in self.tools if isinstance(t.get("name"), str)]

    def suggested_model(self) -> str:
        """The first model hint, else a name that says who answered."""
        return self.hints[0] if self.hints else "mcp-inspector-manual"


@dataclass
class ReplyDraft:
    """What the person is writing as the answer; ``result()`` is the ``CreateMessageResult``."""

    kind: ReplyKind = "text"
    text: str = ""
    data: str = ""
    """Base64 of the image or audio file."""
    mime_type: str = ""
    file_name: str = ""
    tool_name: str = ""
    tool_input: Any = field(default_factory=dict)
    tool_use_id: str = field(default_factory=lambda: f"toolu_{uuid.uuid4().hex[:20]}")
    model: str = "mcp-inspector-manual"
    stop_reason: str = "endTurn"

    def content(self) -> dict[str, Any]:
        if self.kind == "text":
            return {"type": "text", "text": self.text}
        if self.kind in ("image", "audio"):
            return {"type": self.kind, "data": self.data, "mimeType": self.mime_type}
        return {"type": "tool_use", "id": self.tool_use_id, "name": self.tool_name, "input": self.tool_input}

    def problems(self) -> list[str]:
        """Why the draft cannot be sent yet (empty when it can)."""
        found: list[str] = []
        if self.kind == "text" and not self.text.strip():
            found.append("Write the reply text.")
        if self.kind in ("image", "audio") and not self.data:
            found.append(f"Choose an {self.kind} file.")
        if self.kind == "tool_use":
            if not self.tool_name.strip():
                found.append("Choose the tool to call.")
            if not isinstance(self.tool_input, dict):
                found.append("The tool input must be a JSON object.")
        if not self.model.strip():
            found.append("Name the model that answered.")
        return found

    def result(self) -> dict[str, Any]:
        out: dict[str, Any] = {"role": "assistant", "content": self.content(), "model": self.model.strip()}
        if self.stop_reason.strip():
            out["stopReason"] = self.stop_reason.strip()
        return out


def load_media(path: str | Path, kind: Literal["image", "audio"]) -> tuple[str, str]:
    """(base64 data, MIME type) of a file to send as image or audio content; ValueError with a clear reason."""
    file = Path(path)
    try:
        size = file.stat().st_size
    except OSError as exc:
        raise ValueError(f"cannot read {file.name}: {exc.strerror or exc}") from None
    if size > MAX_MEDIA_BYTES:
        raise ValueError(f"{file.name} is {format_size(size)}; the limit is {format_size(MAX_MEDIA_BYTES)}")
    mime, _ = mimetypes.guess_type(file.name)
    if mime is None or not mime.startswith(f"{kind}/"):
        raise ValueError(f"{file.name} does not look like an {kind} file ({mime or 'unknown type'})")
    try:
        raw = file.read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read {file.name}: {exc.strerror or exc}") from None
    return base64.b64encode(raw).decode("ascii"), mime


@dataclass(frozen=True, slots=True)
class UrlParts:
    """A URL cut so the host can be emphasised; ``openable`` only for http/https with a host."""

    scheme: str
    host: str
    before_host: str
    after_host: str
    openable: bool
    problem: str | None


def split_url(url: str) -> UrlParts:
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError as exc:
        return UrlParts("", "", url, "", False, f"not a valid URL ({exc})")
    scheme = parts.scheme.lower()
    index = url.lower().find(host.lower()) if host else -1
    before, after = (url[:index], url[index + len(host) :]) if index >= 0 else (url, "")
    if scheme not in ("http", "https"):
        problem = f"only http and https links are opened (this one is {scheme or 'without a scheme'})"
        return UrlParts(scheme, host, before, after, False, problem)
    if not host:
        return UrlParts(scheme, host, before, after, False, "the URL has no host")
    return UrlParts(scheme, host, before, after, True, None)
