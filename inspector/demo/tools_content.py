"""Demo tools returning every content block type: image, audio, resource_link, embedded resources."""

import base64
import json
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp_types import (
    Annotations,
    AudioContent,
    BlobResourceContents,
    ContentBlock,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
    ToolAnnotations,
)
from pydantic import Field

from inspector.demo.media import COLORS, icon, make_png, make_wav

__all__ = ["register_content_tools"]

_READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, destructive_hint=False, open_world_hint=False)

ColorName = Literal["red", "orange", "yellow", "green", "cyan", "blue", "violet", "magenta", "gray", "black", "white"]


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def register_content_tools(server: MCPServer[Any]) -> None:
    @server.tool(title="Generate an image", annotations=_READ_ONLY, icons=icon("image"))
    async def get_image(
        color: Annotated[ColorName, Field(description="Colour of the disc")] = "blue",
        width: Annotated[int, Field(ge=1, le=1024, description="Width in pixels")] = 64,
        height: Annotated[int, Field(ge=1, le=1024, description="Height in pixels")] = 64,
    ) -> list[ContentBlock]:
        """A PNG generated in code (image content), with a caption."""
        png = make_png(width, height, COLORS[color])
        return [
            TextContent(text=f"A {width}x{height} {color} disc ({len(png)} bytes of PNG)"),
            ImageContent(data=_b64(png), mime_type="image/png"),
        ]

    @server.tool(title="Generate audio", annotations=_READ_ONLY)
    async def get_audio(
        frequency: Annotated[float, Field(ge=20, le=8000, description="Tone frequency in Hz")] = 440.0,
        duration_ms: Annotated[int, Field(ge=10, le=10_000, description="Length in milliseconds")] = 500,
    ) -> list[ContentBlock]:
        """A WAV sine tone generated in code (audio content)."""
        sample_rate = 16000 if frequency > 3500 else 8000
        wav = make_wav(frequency, duration_ms, sample_rate)
        return [
            TextContent(text=f"{frequency:g} Hz for {duration_ms} ms"),
            AudioContent(data=_b64(wav), mime_type="audio/wav"),
        ]

    @server.tool(title="Resource links", annotations=_READ_ONLY)
    async def get_resource_link(
        user_id: Annotated[str, Field(description="User whose profile to link to")] = "ada",
    ) -> list[ContentBlock]:
        """Returns resource_link blocks pointing at resources the client can read with resources/read."""
        return [
            TextContent(text="Here are some resources you can open:"),
            ResourceLink(
                uri="demo://docs/readme",
                name="readme",
                title="Demo README",
                description="The demo server's documentation (markdown)",
                mime_type="text/markdown",
                icons=icon("resource"),
            ),
            ResourceLink(
                uri=f"demo://users/{user_id}/profile",
                name=f"{user_id}-profile",
                title=f"Profile of {user_id}",
                mime_type="application/json",
                annotations=Annotations(audience=["user"], priority=0.5),
            ),
            ResourceLink(uri="demo://images/logo.png", name="logo", mime_type="image/png", size=None),
        ]

    @server.tool(title="Embedded resources", annotations=_READ_ONLY)
    async def get_embedded_resource(
        include_binary: Annotated[bool, Field(description="Also embed a binary (blob) resource")] = True,
    ) -> list[ContentBlock]:
        """Returns resources embedded in the result: a text resource (JSON) and optionally a blob (PNG)."""
        config = {"theme": "dark", "retries": 3, "endpoints": ["https://example.com/a", "https://example.com/b"]}
        blocks: list[ContentBlock] = [
            EmbeddedResource(
                resource=TextResourceContents(
                    uri="demo://data/config.json", mime_type="application/json", text=json.dumps(config, indent=2)
                ),
                annotations=Annotations(audience=["assistant"], priority=0.8),
            )
        ]
        if include_binary:
            blocks.append(
                EmbeddedResource(
                    resource=BlobResourceContents(
                        uri="demo://images/logo.png", mime_type="image/png", blob=_b64(make_png(32, 32))
                    )
                )
            )
        return blocks

    @server.tool(title="Every content type at once", annotations=_READ_ONLY)
    async def mixed_content() -> list[ContentBlock]:
        """One result holding text, image, audio, resource_link and embedded resource blocks, with annotations."""
        return [
            TextContent(
                text="**Markdown** text block for the user",
                annotations=Annotations(audience=["user"], priority=1.0, last_modified="2025-01-01T00:00:00Z"),
            ),
            TextContent(text="A plain note meant for the model", annotations=Annotations(audience=["assistant"])),
            ImageContent(data=_b64(make_png(24, 24, COLORS["green"])), mime_type="image/png"),
            AudioContent(data=_b64(make_wav(660, 200)), mime_type="audio/wav"),
            ResourceLink(uri="demo://clock", name="clock", title="Ticking clock", mime_type="text/plain"),
            EmbeddedResource(
                resource=TextResourceContents(uri="demo://text/hello", mime_type="text/plain", text="Hello!")
            ),
        ]
