"""Normalise chat messages (prompts/get ``messages``, sampling ``messages``) for a transcript view."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.content.blocks import as_block_list

__all__ = ["TranscriptMessage", "normalize_messages", "role_label"]

_ROLE_LABELS = {"user": "User", "assistant": "Assistant", "system": "System"}


@dataclass(frozen=True, slots=True)
class TranscriptMessage:
    """One message: its raw ``role`` (may be anything a server sent), its content as a list, and problems."""

    role: str
    blocks: list[Any]
    problems: list[str] = field(default_factory=list)

    @property
    def is_user(self) -> bool:
        return self.role == "user"

    @property
    def is_assistant(self) -> bool:
        return self.role == "assistant"


def role_label(role: str) -> str:
    return _ROLE_LABELS.get(role, role or "(no role)")


def normalize_messages(messages: object) -> list[TranscriptMessage]:
    """Messages as TranscriptMessages; malformed ones are kept, with problems, so nothing silently vanishes."""
    if not isinstance(messages, list):
        return [TranscriptMessage("", [], [f"messages should be an array, got {type(messages).__name__}"])]
    out: list[TranscriptMessage] = []
    for index, message in enumerate(messages):
        if not isinstance(message, dict):
            out.append(TranscriptMessage("", [message], [f"message {index} is not an object"]))
            continue
        problems: list[str] = []
        role = message.get("role")
        if role not in ("user", "assistant"):
            problems.append(f'message {index}: role should be "user" or "assistant", got {role!r}')
        if "content" not in message:
            problems.append(f"message {index} has no content")
        out.append(
            TranscriptMessage(str(role) if role is not None else "", as_block_list(message.get("content")), problems)
        )
    return out
