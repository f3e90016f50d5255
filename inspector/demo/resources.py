"""Demo resources: static text/JSON/markdown/binary resources, RFC 6570 templates and a ticking clock."""

import json
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import Annotations, InputRequiredResult, ToolAnnotations
from pydantic import Field

from inspector.content.plural import plural
from inspector.demo.media import COLORS, icon, make_png, make_wav
from inspector.demo.mrtr import VAULT, VAULT_PATH, guarded_read
from inspector.demo.state import CLOCK_URI, USERS, DemoState

__all__ = ["RESOURCE_NOT_FOUND", "TEMPLATE_COMPLETIONS", "complete_template", "register_resources"]

RESOURCE_NOT_FOUND = -32002
"""The resource-not-found error code of MCP 2025-11-25."""

README = """# Inspector demo server

This server exists to be inspected. Everything an MCP inspector can show has an example here:

| Feature | Where |
| --- | --- |
| Rich input schemas | `create_event`, `validate_order` |
| Structured output | `add`, `get_weather`, and the deliberately wrong `bad_structured` |
| Content types | `get_image`, `get_audio`, `get_resource_link`, `get_embedded_resource`, `mixed_content` |
| Progress + cancellation | `slow` |
| Logging | `log_levels` |
| Client features | `sample`, `elicit_form`, `list_roots` |
| List changes | `toggle_tool` |
| Subscriptions | `demo://clock` changes every few seconds |
| Multi round-trip input | `ask_twice`, `ask_all_at_once`, `retry_with_state`, `greet_me`, `demo://files/vault/…` |
| Tasks | `task_slow`, `task_needs_input`, `task_cancellable` |
| HTTP header mirroring | `route_query`, and the invalid `bad_header_tool` |

> Every byte of media is generated in code.
"""

CONFIG: dict[str, Any] = {
    "name": "inspector-demo",
    "features": {"tools": True, "resources": True, "prompts": True, "logging": True, "completions": True},
    "limits": {"max_image_pixels": 1048576, "max_audio_ms": 10000},
    "owners": [{"name": "Ada", "email": "ada@example.com"}],
    "nullable": None,
    "ratio": 0.75,
}

_LAST_MODIFIED = "2025-06-18T12:00:00Z"


def _not_found(uri: str) -> MCPError:
    return MCPError(code=RESOURCE_NOT_FOUND, message="Resource not found", data={"uri": uri})


def register_resources(server: MCPServer[Any], state: DemoState) -> None:
    # --- static resources --------------------------------------------------------------------------------
    @server.resource(
        "demo://text/hello",
        name="hello",
        title="Hello (plain text)",
        description="A tiny text/plain resource",
        mime_type="text/plain",
        icons=icon("resource"),
        annotations=Annotations(audience=["user"], priority=0.2, last_modified=_LAST_MODIFIED),
    )
    async def hello() -> str:
        return "Hello, MCP Inspector!\n"

    @server.resource(
        "demo://docs/readme",
        name="readme",
        title="README (markdown)",
        description="What this demo server offers, as markdown",
        mime_type="text/markdown",
        icons=icon("resource"),
        annotations=Annotations(audience=["user", "assistant"], priority=0.9, last_modified=_LAST_MODIFIED),
    )
    async def readme() -> str:
        return README

    @server.resource(
        "demo://data/config.json",
        name="config",
        title="Configuration (JSON)",
        description="An application/json resource with nested objects, arrays, numbers and null",
        mime_type="application/json",
        annotations=Annotations(audience=["assistant"], priority=0.6),
        meta={"inspector.demo/kind": "json"},
    )
    async def config() -> str:
        return json.dumps(CONFIG, indent=2)

    @server.resource(
        "demo://images/logo.png",
        name="logo",
        title="Logo (PNG)",
        description="A binary image/png resource (returned as a base64 blob)",
        mime_type="image/png",
        icons=icon("image"),
        annotations=Annotations(audience=["user"], priority=0.4, last_modified=_LAST_MODIFIED),
    )
    async def logo() -> bytes:
        return make_png(128, 128, COLORS["violet"])

    @server.resource(
        "demo://audio/beep.wav",
        name="beep",
        title="Beep (WAV)",
        description="A binary audio/wav resource",
        mime_type="audio/wav",
    )
    async def beep() -> bytes:
        return make_wav(880, 300)

    @server.resource(
        CLOCK_URI,
        name="clock",
        title="Ticking clock",
        description="Changes every few seconds; subscribe to get notifications/resources/updated",
        mime_type="text/plain",
        icons=icon("clock"),
        annotations=Annotations(audience=["user"], priority=0.7),
    )
    async def clock() -> str:
        return state.clock_text()

    # --- templates ---------------------------------------------------------------------------------------
    @server.resource(
        "demo://users/{user_id}/profile",
        name="user-profile",
        title="User profile",
        description="JSON profile of a user; user_id completes to the known users",
        mime_type="application/json",
        icons=icon("resource"),
        annotations=Annotations(audience=["user", "assistant"], priority=0.5),
    )
    async def user_profile(user_id: str) -> str:
        user = USERS.get(user_id)
        if user is None:
            raise _not_found(f"demo://users/{user_id}/profile")
        return json.dumps(user, indent=2)

    @server.resource(
        "demo://files/{+path}",
        name="virtual-file",
        title="Virtual file",
        description="A file of the in-memory file system; {+path} keeps slashes (RFC 6570 reserved expansion). "
        "Files under vault/ are secrets: reading one asks the user to confirm first",
        mime_type="text/plain",
    )
    async def virtual_file(path: str, ctx: Context) -> str | InputRequiredResult:
        if path.startswith(VAULT_PATH):
            return await guarded_read(ctx, path.removeprefix(VAULT_PATH))
        text = state.files.get(path)
        if text is None:
            raise _not_found(f"demo://files/{path}")
        return text

    @server.resource(
        "demo://colors/{name}.png",
        name="color-swatch",
        title="Colour swatch (PNG)",
        description="A generated PNG of a named colour (binary template result)",
        mime_type="image/png",
        icons=icon("image"),
    )
    async def color_swatch(name: str) -> bytes:
        rgb = COLORS.get(name)
        if rgb is None:
            raise _not_found(f"demo://colors/{name}.png")
        return make_png(48, 48, rgb)

    @server.resource(
        "demo://search{?q,limit}",
        name="search",
        title="Search the virtual files",
        description="Form-style query expansion {?q,limit}; returns matching paths as JSON",
        mime_type="application/json",
    )
    async def search(q: str = "", limit: int = 10) -> str:
        needle = q.lower()
        hits = [path for path, text in sorted(state.files.items()) if needle in path.lower() or needle in text.lower()]
        return json.dumps({"query": q, "limit": limit, "results": hits[: max(0, limit)]}, indent=2)

    # --- tools that change resources ---------------------------------------------------------------------
    @server.tool(
        title="Write a virtual file",
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True),
    )
    async def write_file(
        ctx: Context,
        path: Annotated[str, Field(description="Relative path", pattern=r"^[\w.-]+(/[\w.-]+)*$")],
        text: Annotated[str, Field(description="New content")],
    ) -> str:
        """Creates or replaces a file served by demo://files/{+path}; subscribers get resources/updated."""
        state.files[path] = text
        uri = f"demo://files/{path}"
        sent = await state.subscriptions.notify_updated(uri)
        await ctx.notify_resource_updated(uri)
        return f"wrote {len(text)} characters to {uri} (notified {plural(sent, 'subscriber')})"

    @server.tool(
        title="Delete a virtual file",
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True),
    )
    async def delete_file(
        ctx: Context,
        path: Annotated[str, Field(description="Path of the file to delete, e.g. notes/todo.txt")],
    ) -> str:
        """Deletes a file of the in-memory file system (destructive); subscribers get resources/updated."""
        if state.files.pop(path, None) is None:
            from mcp.server.mcpserver.exceptions import ToolError

            raise ToolError(f"No such file: {path}")
        uri = f"demo://files/{path}"
        await state.subscriptions.notify_updated(uri)
        await ctx.notify_resource_updated(uri)
        return f"deleted {uri}"


TEMPLATE_COMPLETIONS = {
    "demo://users/{user_id}/profile": "user_id",
    "demo://files/{+path}": "path",
    "demo://colors/{name}.png": "name",
    "demo://search{?q,limit}": "q",
}


def complete_template(state: DemoState, uri_template: str, argument: str, value: str) -> list[str]:
    """Completion values for a template variable, filtered by the typed prefix."""
    prefix = value.lower()
    candidates: list[str]
    if argument == "user_id":
        candidates = sorted(USERS)
    elif argument == "path":
        candidates = sorted([*state.files, *(VAULT_PATH + secret for secret in VAULT)])
    elif argument == "name" and uri_template.startswith("demo://colors/"):
        candidates = sorted(COLORS)
    elif argument == "q":
        words = {word.strip(".,!:-#()'\"").lower() for text in state.files.values() for word in text.split()}
        candidates = sorted(word for word in words if len(word) > 2 and word.isalpha())
    elif argument == "limit":
        candidates = ["5", "10", "20", "50"]
    else:
        return []
    return [c for c in candidates if c.lower().startswith(prefix)]
