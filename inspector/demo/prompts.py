"""Demo prompts: required and optional arguments, completions, multi-message and multi-modal results."""

import base64
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.prompts.base import AssistantMessage, Message, UserMessage
from mcp_types import (
    Annotations,
    AudioContent,
    BlobResourceContents,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextResourceContents,
)
from pydantic import Field

from inspector.demo.media import COLORS, icon, make_png, make_wav

__all__ = ["FRAMEWORKS", "LANGUAGES", "TONES", "complete_prompt", "register_prompts"]

TONES = ["friendly", "formal", "pirate", "haiku", "shakespearean"]
LANGUAGES = ["python", "typescript", "javascript", "rust", "go", "java", "kotlin", "swift", "c", "cpp", "ruby"]
FRAMEWORKS: dict[str, list[str]] = {
    "python": ["django", "fastapi", "flask", "pyside6", "pytest"],
    "typescript": ["angular", "nestjs", "react", "svelte", "vue"],
    "javascript": ["express", "react", "vue"],
    "rust": ["actix", "axum", "tokio"],
    "go": ["echo", "gin"],
    "java": ["quarkus", "spring"],
}
_EXTENSIONS = {"python": "py", "typescript": "ts", "javascript": "js", "rust": "rs", "cpp": "cpp", "c": "c"}


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def register_prompts(server: MCPServer[Any]) -> None:
    @server.prompt(title="Greeting", icons=icon("prompt"))
    async def greeting(
        name: Annotated[str, Field(description="Who to greet (required)")],
        tone: Annotated[str, Field(description="friendly, formal, pirate, … (optional, completes)")] = "friendly",
    ) -> list[Message]:
        """A one-message prompt with a required and an optional argument."""
        return [UserMessage(f"Write a short {tone} greeting for {name}.")]

    @server.prompt(title="Code review", icons=icon("prompt"))
    async def code_review(
        language: Annotated[str, Field(description="Programming language (required, completes)")],
        code: Annotated[str, Field(description="The code to review (required)")],
        framework: Annotated[
            str | None, Field(description="Framework (optional; completions depend on the language)")
        ] = None,
        focus: Annotated[str, Field(description="What to focus on (optional)")] = "readability",
    ) -> list[Message]:
        """A multi-message conversation: text, an embedded code resource, an assistant turn and an image."""
        extension = _EXTENSIONS.get(language, "txt")
        stack = f"{language} ({framework})" if framework else language
        return [
            UserMessage(f"Please review this {stack} code. Focus on {focus}."),
            UserMessage(
                EmbeddedResource(
                    resource=TextResourceContents(
                        uri=f"demo://snippets/review.{extension}", mime_type=f"text/x-{language}", text=code
                    ),
                    annotations=Annotations(audience=["assistant"], priority=1.0),
                )
            ),
            AssistantMessage("Happy to. Is there a diagram of how this code fits into the system?"),
            UserMessage(ImageContent(data=_b64(make_png(96, 64, COLORS["cyan"])), mime_type="image/png")),
            UserMessage("That diagram is the architecture. Now give me your review as a bulleted list."),
        ]

    @server.prompt(title="Describe media", icons=icon("image"))
    async def describe_media(
        color: Annotated[str, Field(description="Colour of the generated image (optional, completes)")] = "blue",
        include_audio: Annotated[str, Field(description="'yes' or 'no' (prompt arguments are strings)")] = "yes",
    ) -> list[Message]:
        """Multi-modal messages: image, audio, an embedded blob resource and a resource link."""
        rgb = COLORS.get(color, COLORS["blue"])
        messages: list[Message] = [
            UserMessage("Describe the following media in one sentence each."),
            UserMessage(ImageContent(data=_b64(make_png(64, 64, rgb)), mime_type="image/png")),
        ]
        if include_audio.lower() in ("yes", "true", "1"):
            messages.append(UserMessage(AudioContent(data=_b64(make_wav(523.25, 400)), mime_type="audio/wav")))
        messages.append(
            UserMessage(
                EmbeddedResource(
                    resource=BlobResourceContents(
                        uri="demo://images/logo.png", mime_type="image/png", blob=_b64(make_png(32, 32))
                    )
                )
            )
        )
        messages.append(UserMessage(ResourceLink(uri="demo://docs/readme", name="readme", mime_type="text/markdown")))
        return messages


def complete_prompt(prompt: str, argument: str, value: str, context: dict[str, str] | None) -> list[str]:
    """Completion values for a prompt argument; ``context`` holds arguments the user already filled in."""
    prefix = value.lower()
    candidates: list[str]
    if prompt == "greeting" and argument == "tone":
        candidates = TONES
    elif prompt == "greeting" and argument == "name":
        candidates = ["Ada", "Alan", "Barbara", "Edsger", "Grace"]
    elif prompt == "code_review" and argument == "language":
        candidates = LANGUAGES
    elif prompt == "code_review" and argument == "framework":
        language = (context or {}).get("language", "")
        candidates = FRAMEWORKS.get(language, sorted({f for group in FRAMEWORKS.values() for f in group}))
    elif prompt == "code_review" and argument == "focus":
        candidates = ["readability", "performance", "security", "tests", "naming"]
    elif prompt == "describe_media" and argument == "color":
        candidates = sorted(COLORS)
    elif prompt == "describe_media" and argument == "include_audio":
        candidates = ["yes", "no"]
    else:
        return []
    return sorted(c for c in candidates if c.lower().startswith(prefix))
