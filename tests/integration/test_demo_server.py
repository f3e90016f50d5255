"""The bundled demo server (``python -m inspector.demo``), driven by the official SDK client over stdio and HTTP."""

import base64
import json
import re
import struct
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TextIO

import anyio
import jsonschema
import mcp_types as types
import pytest
from mcp.client import Client
from mcp.client.context import ClientRequestContext
from mcp.client.session import ClientSession, IncomingMessage
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import ResourceUpdated, ToolsListChanged

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.timeout(90),
    # The SDK marks logging, subscribe, sampling and roots as deprecated for 2026-07-28; the demo covers them anyway.
    pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning"),
]

REPO_ROOT = Path(__file__).resolve().parents[2]
STEP_TIMEOUT = 30  # seconds for any single test body

EXPECTED_TOOLS = {
    "echo", "add", "get_weather", "bad_structured", "business_error", "protocol_error", "create_event",
    "validate_order", "large_result", "get_image", "get_audio", "get_resource_link", "get_embedded_resource",
    "mixed_content", "slow", "log_levels", "sample", "elicit_form", "list_roots", "toggle_tool", "write_file",
    "delete_file", "ask_twice", "ask_all_at_once", "retry_with_state", "route_query", "bad_header_tool",
    "task_slow", "task_needs_input", "task_cancellable",
}  # fmt: skip


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def errlog(tmp_path: Path) -> Iterator[TextIO]:
    with open(tmp_path / "demo-stderr.log", "w+", encoding="utf-8") as handle:
        yield handle


def _params(*extra: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["-m", "inspector.demo", "--clock-interval", "0.3", *extra], cwd=REPO_ROOT
    )


@asynccontextmanager
async def demo_session(errlog: TextIO, **kwargs: Any) -> AsyncIterator[ClientSession]:
    async with stdio_client(_params(), errlog=errlog) as (read, write), ClientSession(read, write, **kwargs) as session:
        await session.initialize()
        yield session


def _text(result: types.CallToolResult, index: int = 0) -> str:
    block = result.content[index]
    assert isinstance(block, types.TextContent), block
    return block.text


def _walk(schema: Any) -> Iterator[dict[str, Any]]:
    if isinstance(schema, dict):
        yield schema
        for value in schema.values():
            yield from _walk(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from _walk(item)


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return schema["$defs"][ref.removeprefix("#/$defs/")]  # type: ignore[no-any-return]
    return node


# --- handshake, tools --------------------------------------------------------------------------------------


async def test_initialize_reports_identity_and_capabilities(errlog: TextIO) -> None:
    with anyio.fail_after(STEP_TIMEOUT):
        async with demo_session(errlog) as session:
            result = session.initialize_result
            assert result is not None
            info = result.server_info
            assert info.name == "inspector-demo"
            assert info.title and info.version and info.website_url
            assert info.icons and all(icon.src.startswith("data:image/") for icon in info.icons)
            assert result.instructions and result.instructions.startswith("# ")
            caps = result.capabilities
            assert caps.tools and caps.tools.list_changed
            assert caps.prompts and caps.prompts.list_changed
            assert caps.resources and caps.resources.subscribe and caps.resources.list_changed
            assert caps.logging is not None and caps.completions is not None


async def test_tool_list_has_rich_schemas_annotations_and_icons(errlog: TextIO) -> None:
    with anyio.fail_after(STEP_TIMEOUT):
        async with demo_session(errlog) as session:
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert EXPECTED_TOOLS <= set(tools)

    schema = tools["create_event"].input_schema
    props = schema["properties"]
    nodes = list(_walk(schema))
    formats = {node["format"] for node in nodes if isinstance(node.get("format"), str)}
    assert {"date", "date-time", "email", "uri"} <= formats
    assert "$defs" in schema and any("$ref" in node for node in nodes)
    assert {"title", "date", "starts_at", "organizer_email", "location", "attendees"} <= set(schema["required"])
    assert all(isinstance(node.get("description"), str) for node in props.values())
    # enum with titles
    assert all({"const", "title"} <= set(choice) for choice in props["priority"]["oneOf"])
    assert props["priority"]["default"] == "normal"
    # numbers
    assert props["duration_hours"]["exclusiveMinimum"] == 0 and props["duration_hours"]["multipleOf"] == 0.25
    assert props["price"]["exclusiveMaximum"] == 10000 and props["price"]["minimum"] == 0
    assert props["capacity"]["minimum"] == 1 and props["capacity"]["maximum"] == 500
    assert props["all_day"]["type"] == "boolean" and props["all_day"]["default"] is False
    # arrays of scalars, enums and objects
    assert props["tags"]["items"] == {"type": "string"} and props["tags"]["default"] == ["demo"]
    assert "enum" in props["channels"]["items"]
    attendee = _resolve(schema, props["attendees"]["items"])
    assert attendee["type"] == "object" and "email" in attendee["properties"]
    # oneOf / anyOf of object shapes, nested objects
    shapes = [_resolve(schema, option) for option in props["location"]["oneOf"]]
    assert all(shape["type"] == "object" for shape in shapes) and len(shapes) == 2
    venue = next(shape for shape in shapes if "address" in shape["properties"])
    assert _resolve(schema, venue["properties"]["address"])["type"] == "object"
    reminders = next(option for option in props["reminders"]["anyOf"] if option.get("type") == "array")
    assert len(reminders["items"]["anyOf"]) == 3
    # nullable fields
    assert {"type": "null"} in props["notes"]["anyOf"] and props["notes"]["default"] is None

    order = tools["validate_order"].input_schema
    assert order["$defs"] and order["properties"]["coupon"]["type"] == ["string", "null"]

    assert tools["echo"].annotations and tools["echo"].annotations.read_only_hint is True
    assert tools["delete_file"].annotations and tools["delete_file"].annotations.destructive_hint is True
    assert tools["get_weather"].annotations and tools["get_weather"].annotations.open_world_hint is True
    assert tools["add"].annotations and tools["add"].annotations.idempotent_hint is True
    assert tools["get_weather"].title == "Get weather"
    assert tools["echo"].icons and tools["echo"].icons[0].mime_type == "image/svg+xml"
    assert tools["get_weather"].output_schema and tools["bad_structured"].output_schema


async def test_echo_add_and_structured_results(errlog: TextIO) -> None:
    with anyio.fail_after(STEP_TIMEOUT):
        async with demo_session(errlog) as session:
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            echo = await session.call_tool("echo", {"message": "héllo wörld"})
            assert not echo.is_error and _text(echo) == "héllo wörld"

            added = await session.call_tool("add", {"a": 1, "b": 2.5})
            assert _text(added) == "3.5" and added.structured_content == {"sum": 3.5}

            weather = await session.call_tool("get_weather", {"city": "Amsterdam", "units": "imperial"})
            assert not weather.is_error
            jsonschema.validate(weather.structured_content, tools["get_weather"].output_schema or {})
            assert weather.structured_content["units"] == "imperial"
            assert json.loads(_text(weather))["city"] == "Amsterdam"

            # The SDK client refuses structuredContent that violates the outputSchema ...
            with pytest.raises(RuntimeError, match="bad_structured"):
                await session.call_tool("bad_structured", {})
            # ... so fetch the raw result to check that it really is on the wire, and really invalid.
            raw = await session.send_request(
                types.CallToolRequest(params=types.CallToolRequestParams(name="bad_structured", arguments={})),
                types.CallToolResult,
            )
            validator = jsonschema.Draft202012Validator(tools["bad_structured"].output_schema or {})
            problems = {error.validator for error in validator.iter_errors(raw.structured_content)}
            assert {"type", "required", "additionalProperties"} <= problems


async def test_failures_and_server_side_validation(errlog: TextIO) -> None:
    with anyio.fail_after(STEP_TIMEOUT):
        async with demo_session(errlog) as session:
            failed = await session.call_tool("business_error", {"reason": "card expired"})
            assert failed.is_error and "card expired" in _text(failed)

            with pytest.raises(MCPError) as caught:
                await session.call_tool("protocol_error", {"code": -32010, "message": "nope"})
            assert caught.value.error.code == -32010

            invalid = await session.call_tool("add", {"a": "not a number", "b": 1})
            assert invalid.is_error

            rejected = await session.call_tool("validate_order", {"order_id": "x", "kind": "order", "lines": []})
            assert rejected.is_error and "lines" in _text(rejected)
            accepted = await session.call_tool(
                "validate_order",
                {
                    "order_id": "0b8e7f1c-5a9d-4c2e-9f3a-1d2c3b4a5e6f",
                    "kind": "order",
                    "lines": [{"sku": "ABC-1234", "unit_price": 2.5, "quantity": 2}],
                    "delivery": "pickup",
                    "pickup_store": "Utrecht",
                },
            )
            assert not accepted.is_error and json.loads(_text(accepted))["total"] == 5.0

            event = await session.call_tool(
                "create_event",
                {
                    "title": "Launch",
                    "date": "2030-01-02",
                    "starts_at": "2030-01-02T10:00:00Z",
                    "organizer_email": "ada@example.com",
                    "location": {"kind": "online", "url": "https://example.com/meet"},
                    "attendees": [{"name": "Alan", "email": "alan@example.com"}],
                    "reminders": [{"method": "sms", "phone": "+31612345678"}],
                },
            )
            assert not event.is_error, _text(event)
            assert json.loads(_text(event))["event"]["reminders"][0]["method"] == "sms"


async def test_media_and_resource_content(errlog: TextIO) -> None:
    with anyio.fail_after(STEP_TIMEOUT):
        async with demo_session(errlog) as session:
            image = await session.call_tool("get_image", {"color": "red", "width": 20, "height": 10})
            audio = await session.call_tool("get_audio", {"frequency": 440, "duration_ms": 100})
            links = await session.call_tool("get_resource_link", {"user_id": "grace"})
            embedded = await session.call_tool("get_embedded_resource", {})
            mixed = await session.call_tool("mixed_content", {})

    png_block = next(block for block in image.content if isinstance(block, types.ImageContent))
    png = base64.b64decode(png_block.data)
    assert png_block.mime_type == "image/png" and png.startswith(b"\x89PNG\r\n\x1a\n")
    assert struct.unpack(">II", png[16:24]) == (20, 10)

    wav_block = next(block for block in audio.content if isinstance(block, types.AudioContent))
    wav = base64.b64decode(wav_block.data)
    assert wav_block.mime_type == "audio/wav" and wav[:4] == b"RIFF" and wav[8:12] == b"WAVE"
    assert struct.unpack("<I", wav[4:8])[0] == len(wav) - 8

    link_uris = {block.uri for block in links.content if isinstance(block, types.ResourceLink)}
    assert {"demo://docs/readme", "demo://users/grace/profile"} <= link_uris

    resources = [block.resource for block in embedded.content if isinstance(block, types.EmbeddedResource)]
    assert any(isinstance(r, types.TextResourceContents) and r.mime_type == "application/json" for r in resources)
    assert any(isinstance(r, types.BlobResourceContents) and r.mime_type == "image/png" for r in resources)

    assert {block.type for block in mixed.content} == {"text", "image", "audio", "resource_link", "resource"}


# --- progress, cancellation, logging ----------------------------------------------------------------------


async def test_slow_sends_progress(errlog: TextIO) -> None:
    updates: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        updates.append((progress, total, message))

    with anyio.fail_after(STEP_TIMEOUT):
        async with demo_session(errlog) as session:
            result = await session.call_tool("slow", {"seconds": 0.5, "steps": 5}, progress_callback=on_progress)
    assert not result.is_error and "5 steps" in _text(result)
    assert [u[0] for u in updates] == [1, 2, 3, 4, 5]
    assert all(total == 5 for _, total, _ in updates)
    assert updates[-1][2] == "step 5/5"


async def test_slow_stops_when_cancelled(errlog: TextIO) -> None:
    first_progress = anyio.Event()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        first_progress.set()

    with anyio.fail_after(STEP_TIMEOUT):
        async with demo_session(errlog) as session:
            async with anyio.create_task_group() as group:

                async def call_slow() -> None:
                    await session.call_tool("slow", {"seconds": 60, "steps": 600}, progress_callback=on_progress)

                group.start_soon(call_slow)
                await first_progress.wait()
                group.cancel_scope.cancel()  # the SDK sends notifications/cancelled for the abandoned request
            # The server stops the loop early and keeps serving.
            for _ in range(50):
                errlog.seek(0)
                if "slow cancelled" in errlog.read():
                    break
                await anyio.sleep(0.1)
            errlog.seek(0)
            assert re.search(r"slow cancelled after \d+/600 steps", errlog.read())
            assert _text(await session.call_tool("echo", {"message": "still alive"})) == "still alive"


async def test_log_levels_and_set_level(errlog: TextIO) -> None:
    received: list[types.LoggingMessageNotificationParams] = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        received.append(params)

    levels = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
    with anyio.fail_after(STEP_TIMEOUT):
        async with demo_session(errlog, logging_callback=on_log) as session:
            await session.call_tool("log_levels", {"message": "ping"})
            assert [entry.level for entry in received] == levels
            assert any(isinstance(entry.data, dict) for entry in received)
            assert all(entry.logger == "inspector-demo.levels" for entry in received)

            received.clear()
            await session.set_logging_level("error")
            result = await session.call_tool("log_levels", {})
            assert [entry.level for entry in received] == levels[4:]
            assert "below the 'error' threshold" in _text(result)


# --- resources and templates ------------------------------------------------------------------------------


async def test_static_resources(errlog: TextIO) -> None:
    with anyio.fail_after(STEP_TIMEOUT):
        async with demo_session(errlog) as session:
            listed = {str(r.uri): r for r in (await session.list_resources()).resources}
            hello = await session.read_resource("demo://text/hello")
            config = await session.read_resource("demo://data/config.json")
            readme = await session.read_resource("demo://docs/readme")
            logo = await session.read_resource("demo://images/logo.png")
            with pytest.raises(MCPError):
                await session.read_resource("demo://nope")

    assert {"demo://text/hello", "demo://data/config.json", "demo://docs/readme", "demo://images/logo.png"} <= set(
        listed
    )
    assert {"demo://clock", "demo://audio/beep.wav"} <= set(listed)
    annotations = listed["demo://docs/readme"].annotations
    assert annotations and annotations.audience == ["user", "assistant"] and annotations.priority == 0.9
    assert annotations.last_modified
    assert listed["demo://images/logo.png"].mime_type == "image/png" and listed["demo://text/hello"].icons

    text = hello.contents[0]
    assert isinstance(text, types.TextResourceContents) and text.mime_type == "text/plain"
    json_text = config.contents[0]
    assert isinstance(json_text, types.TextResourceContents) and json_text.mime_type == "application/json"
    assert json.loads(json_text.text)["name"] == "inspector-demo"
    markdown = readme.contents[0]
    assert isinstance(markdown, types.TextResourceContents) and markdown.mime_type == "text/markdown"
    blob = logo.contents[0]
    assert isinstance(blob, types.BlobResourceContents) and blob.mime_type == "image/png"
    assert base64.b64decode(blob.blob).startswith(b"\x89PNG")


async def test_templates_and_completions(errlog: TextIO) -> None:
    with anyio.fail_after(STEP_TIMEOUT):
        async with demo_session(errlog) as session:
            templates = {t.uri_template for t in (await session.list_resource_templates()).resource_templates}
            profile = await session.read_resource("demo://users/ada/profile")
            nested = await session.read_resource("demo://files/src/util/strings.py")
            swatch = await session.read_resource("demo://colors/red.png")
            found = await session.read_resource("demo://search?q=hello&limit=5")
            with pytest.raises(MCPError) as missing:
                await session.read_resource("demo://users/nobody/profile")

            def template(uri: str) -> types.ResourceTemplateReference:
                return types.ResourceTemplateReference(uri=uri)

            users = await session.complete(
                template("demo://users/{user_id}/profile"), {"name": "user_id", "value": "a"}
            )
            paths = await session.complete(template("demo://files/{+path}"), {"name": "path", "value": "notes/"})
            colors = await session.complete(template("demo://colors/{name}.png"), {"name": "name", "value": "b"})

    assert {
        "demo://users/{user_id}/profile",
        "demo://files/{+path}",
        "demo://colors/{name}.png",
        "demo://search{?q,limit}",
    } <= templates
    first = profile.contents[0]
    assert isinstance(first, types.TextResourceContents) and json.loads(first.text)["name"] == "Ada Lovelace"
    assert isinstance(nested.contents[0], types.TextResourceContents) and "shout" in nested.contents[0].text
    assert isinstance(swatch.contents[0], types.BlobResourceContents)
    search = found.contents[0]
    assert isinstance(search, types.TextResourceContents) and json.loads(search.text)["query"] == "hello"
    assert missing.value.error.code == -32002
    assert users.completion.values == ["ada", "alan"] and users.completion.total == 2
    assert paths.completion.values == ["notes/ideas.txt", "notes/todo.txt"]
    assert colors.completion.values == ["black", "blue"]


async def test_clock_subscription_sends_updates(errlog: TextIO) -> None:
    updates: list[str] = []

    async def on_message(message: IncomingMessage) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            updates.append(message.params.uri)

    with anyio.fail_after(STEP_TIMEOUT):
        async with demo_session(errlog, message_handler=on_message) as session:
            before = await session.read_resource("demo://clock")
            await session.subscribe_resource("demo://clock")
            while len(updates) < 2:
                await anyio.sleep(0.05)
            after = await session.read_resource("demo://clock")
            await session.unsubscribe_resource("demo://clock")
            await anyio.sleep(0.4)  # let an in-flight tick land
            settled = len(updates)
            await anyio.sleep(1.0)
            assert len(updates) == settled, "updates continued after unsubscribe"
    assert set(updates) == {"demo://clock"}
    first, second = before.contents[0], after.contents[0]
    assert isinstance(first, types.TextResourceContents) and isinstance(second, types.TextResourceContents)
    assert first.text != second.text


async def test_toggle_tool_changes_lists_and_notifies(errlog: TextIO) -> None:
    methods: list[str] = []

    async def on_message(message: IncomingMessage) -> None:
        if not isinstance(message, Exception):
            methods.append(message.method)

    with anyio.fail_after(STEP_TIMEOUT):
        async with demo_session(errlog, message_handler=on_message) as session:
            assert "bonus_tool" not in {tool.name for tool in (await session.list_tools()).tools}
            await session.call_tool("toggle_tool", {})
            assert {
                "notifications/tools/list_changed",
                "notifications/prompts/list_changed",
                "notifications/resources/list_changed",
            } <= set(methods)
            assert "bonus_tool" in {tool.name for tool in (await session.list_tools()).tools}
            assert "bonus_prompt" in {prompt.name for prompt in (await session.list_prompts()).prompts}
            assert "demo://bonus" in {str(r.uri) for r in (await session.list_resources()).resources}
            assert _text(await session.call_tool("bonus_tool", {"text": "abc"})) == "bonus: cba"

            await session.call_tool("toggle_tool", {"enabled": False})
            assert "bonus_tool" not in {tool.name for tool in (await session.list_tools()).tools}
            assert "demo://bonus" not in {str(r.uri) for r in (await session.list_resources()).resources}
            assert methods.count("notifications/tools/list_changed") == 2


# --- prompts ----------------------------------------------------------------------------------------------


async def test_prompts_arguments_completion_and_content(errlog: TextIO) -> None:
    with anyio.fail_after(STEP_TIMEOUT):
        async with demo_session(errlog) as session:
            prompts = {prompt.name: prompt for prompt in (await session.list_prompts()).prompts}
            greeting = await session.get_prompt("greeting", {"name": "Ada"})
            review = await session.get_prompt("code_review", {"language": "python", "code": "print(1)"})
            media = await session.get_prompt("describe_media", {"color": "green"})
            with pytest.raises(MCPError):
                await session.get_prompt("greeting", {})
            ref = types.PromptReference(name="code_review")
            languages = await session.complete(ref, {"name": "language", "value": "ja"})
            frameworks = await session.complete(ref, {"name": "framework", "value": ""}, {"language": "rust"})

    assert {"greeting", "code_review", "describe_media"} <= set(prompts)
    args = {arg.name: arg.required for arg in prompts["code_review"].arguments or []}
    assert args == {"language": True, "code": True, "framework": False, "focus": False}
    assert prompts["greeting"].icons and prompts["greeting"].title == "Greeting"

    assert len(greeting.messages) == 1 and "Ada" in greeting.messages[0].content.text  # type: ignore[union-attr]
    assert len(review.messages) >= 4
    assert {message.role for message in review.messages} == {"user", "assistant"}
    assert any(isinstance(m.content, types.ImageContent) for m in review.messages)
    embedded = [m.content for m in review.messages if isinstance(m.content, types.EmbeddedResource)]
    assert embedded and isinstance(embedded[0].resource, types.TextResourceContents)
    assert embedded[0].resource.text == "print(1)"
    kinds = {message.content.type for message in media.messages}
    assert {"text", "image", "audio", "resource", "resource_link"} <= kinds

    assert languages.completion.values == ["java", "javascript"]
    assert frameworks.completion.values == ["actix", "axum", "tokio"]


# --- client features: sampling, elicitation, roots --------------------------------------------------------


async def test_sampling_elicitation_and_roots_round_trip(errlog: TextIO) -> None:
    seen: dict[str, Any] = {}

    async def sampling(
        context: ClientRequestContext, params: types.CreateMessageRequestParams
    ) -> types.CreateMessageResult:
        seen["sampling"] = params
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(text="Inspectors inspect."),
            model="test-llm",
            stop_reason="endTurn",
        )

    async def elicitation(context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(params, types.ElicitRequestFormParams)
        seen["schema"] = params.requested_schema
        defaults = {name: prop["default"] for name, prop in params.requested_schema["properties"].items()}
        return types.ElicitResult(action="accept", content=defaults)

    async def roots(context: ClientRequestContext) -> types.ListRootsResult:
        return types.ListRootsResult(
            roots=[types.Root.model_validate({"uri": "file:///tmp/project", "name": "project"})]
        )

    with anyio.fail_after(STEP_TIMEOUT):
        async with demo_session(
            errlog, sampling_callback=sampling, elicitation_callback=elicitation, list_roots_callback=roots
        ) as session:
            sampled = await session.call_tool("sample", {"prompt": "haiku please", "max_tokens": 50})
            elicited = await session.call_tool("elicit_form", {})
            rooted = await session.call_tool("list_roots", {})

    assert not sampled.is_error and json.loads(_text(sampled))["model"] == "test-llm"
    request = seen["sampling"]
    assert request.max_tokens == 50 and request.messages[0].content.text == "haiku please"

    schema = seen["schema"]
    props = schema["properties"]
    assert {prop["type"] for prop in props.values()} == {"string", "integer", "number", "boolean", "array"}
    assert all("default" in prop for prop in props.values())
    assert all({"const", "title"} <= set(option) for option in props["color"]["oneOf"])
    answer = json.loads(_text(elicited))
    assert answer["action"] == "accept" and answer["content"]["name"] == "Ada Lovelace"

    assert json.loads(_text(rooted))["roots"] == [{"uri": "file:///tmp/project", "name": "project"}]


async def test_client_features_without_capabilities_are_business_errors(errlog: TextIO) -> None:
    with anyio.fail_after(STEP_TIMEOUT):
        async with demo_session(errlog) as session:
            for tool in ("sample", "elicit_form", "list_roots"):
                result = await session.call_tool(tool, {})
                assert result.is_error and "did not declare" in _text(result)
                # force=true sends the request anyway; the SDK client answers with a JSON-RPC error
                forced = await session.call_tool(tool, {"force": True})
                assert forced.is_error and json.loads(_text(forced))["client_error"]["code"] == types.INVALID_REQUEST


async def test_modern_era_elicitation_uses_input_required(errlog: TextIO) -> None:
    async def elicitation(context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
        return types.ElicitResult(action="decline")

    with anyio.fail_after(STEP_TIMEOUT):
        async with Client(_params(), mode="2026-07-28", elicitation_callback=elicitation) as client:
            result = await client.call_tool("elicit_form", {})
            assert json.loads(_text(result)) == {"action": "decline"}
            assert _text(await client.call_tool("echo", {"message": "modern"})) == "modern"


async def test_modern_era_listen_stream_gets_clock_and_list_changes() -> None:
    seen: set[type] = set()
    with anyio.fail_after(STEP_TIMEOUT):
        async with (
            Client(_params(), mode="2026-07-28") as client,
            client.listen(tools_list_changed=True, resource_subscriptions=["demo://clock"]) as subscription,
        ):
            await client.call_tool("toggle_tool", {})
            async for event in subscription:
                seen.add(type(event))
                if {ResourceUpdated, ToolsListChanged} <= seen:
                    break
    assert {ResourceUpdated, ToolsListChanged} <= seen


# --- process-level ---------------------------------------------------------------------------------------


async def test_streamable_http_on_loopback() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "inspector.demo", "--http", "0"],
        cwd=REPO_ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        stderr = process.stderr

        def first_url() -> str:
            for line in stderr:
                match = re.search(r"listening on (http://127\.0\.0\.1:\d+/mcp)", line)
                if match:
                    return match.group(1)
            raise AssertionError("server exited without announcing its URL")

        with anyio.fail_after(STEP_TIMEOUT):
            url = await anyio.to_thread.run_sync(first_url, abandon_on_cancel=True)
            async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
                init = await session.initialize()
                assert init.server_info.name == "inspector-demo"
                names = {tool.name for tool in (await session.list_tools()).tools}
                assert EXPECTED_TOOLS <= names
                assert _text(await session.call_tool("echo", {"message": "over http"})) == "over http"
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
        if process.stderr is not None:
            process.stderr.close()  # or the GC closes it, with a ResourceWarning
    assert process.returncode is not None


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["--era", "future"], "invalid choice: 'future'"),
        (["--sse", "0", "--era", "modern"], "--era applies to stdio and --http"),
    ],
)
def test_era_flag_usage_errors(args: list[str], complaint: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "inspector.demo", *args],
        cwd=REPO_ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and complaint in done.stderr


@pytest.mark.parametrize("era", ["legacy", "modern", "both"])
def test_era_flag_reaches_the_stdio_server(era: str) -> None:
    discover = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "server/discover",
        "params": {
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            }
        },
    }
    done = subprocess.run(
        [sys.executable, "-m", "inspector.demo", "--era", era],
        cwd=REPO_ROOT,
        input=json.dumps(discover) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    answer = json.loads(done.stdout.splitlines()[0])
    assert done.returncode == 0
    assert ("error" in answer) == (era == "legacy"), answer


def test_demo_never_imports_qt() -> None:
    code = "import sys, inspector.demo, inspector.demo.__main__; assert not {'PySide6', 'qasync'} & set(sys.modules)"
    subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, check=True, timeout=60)
