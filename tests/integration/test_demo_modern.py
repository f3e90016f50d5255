"""The demo server's protocol eras (``--era legacy|modern|both``) and its 2026-07-28 features.

Driven by the official SDK client (``mcp.client.Client``, which speaks 2026-07-28) wherever it can express the
exchange, and by raw JSON-RPC (``demowire``) for refusals, exact statuses and 2025-11-25 tasks. Every server is
a real ``python -m inspector.demo`` process on stdio or on 127.0.0.1.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import ExitStack, asynccontextmanager
from typing import Any, ClassVar, Literal

import anyio
import mcp_types as types
import pytest
from demowire import LEGACY, MODERN, REPO_ROOT, HttpPeer, StdioPeer, demo_http, envelope
from mcp.client import Client
from mcp.client.context import ClientRequestContext
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import PromptsListChanged, ResourcesListChanged, ResourceUpdated, ToolsListChanged
from pydantic import ConfigDict

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.timeout(120),
    pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning"),
]

STEP = 30  # seconds for any single test body
TASKS = "io.modelcontextprotocol/tasks"
TRANSPORTS = ("stdio", "http")
MODERN_ERAS = ("modern", "both")
LEGACY_ERAS = ("legacy", "both")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def http_demo() -> Iterator[Callable[[str], str]]:
    """One HTTP demo per era for the whole module, started on first use: ``http_demo(era) -> url``."""
    with ExitStack() as stack:
        urls: dict[str, str] = {}

        def url(era: str) -> str:
            if era not in urls:
                urls[era] = stack.enter_context(demo_http("--era", era))
            return urls[era]

        yield url


def stdio_params(era: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["-m", "inspector.demo", "--clock-interval", "0.3", "--era", era], cwd=REPO_ROOT
    )


def target(transport: str, era: str, http_demo: Callable[[str], str]) -> StdioServerParameters | str:
    return stdio_params(era) if transport == "stdio" else http_demo(era)


def text_of(result: types.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, types.TextContent), block
    return block.text


# --- client callbacks (declare sampling, elicitation and roots) ------------------------------------------


async def elicit_defaults(context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
    assert isinstance(params, types.ElicitRequestFormParams)
    content: dict[str, Any] = {}
    for name, prop in params.requested_schema.get("properties", {}).items():
        if prop.get("type") == "boolean":
            content[name] = True  # says yes to every question
        elif "default" in prop:
            content[name] = prop["default"]
        elif "enum" in prop:
            content[name] = prop["enum"][0]
        else:
            content[name] = "Ada"
    return types.ElicitResult(action="accept", content=content)


async def sample_fixed(
    context: ClientRequestContext, params: types.CreateMessageRequestParams
) -> types.CreateMessageResult:
    return types.CreateMessageResult(
        role="assistant", content=types.TextContent(text="three questions, one reply"), model="test-llm"
    )


async def roots_fixed(context: ClientRequestContext) -> types.ListRootsResult:
    return types.ListRootsResult(roots=[types.Root.model_validate({"uri": "file:///tmp/project", "name": "project"})])


CALLBACKS: dict[str, Any] = {
    "elicitation_callback": elicit_defaults,
    "sampling_callback": sample_fixed,
    "list_roots_callback": roots_fixed,
}
ALL_CAPABILITIES: dict[str, Any] = {"elicitation": {"form": {}}, "sampling": {}, "roots": {}}


# --- eras: discover / initialize, raw ---------------------------------------------------------------------


@pytest.mark.parametrize("era", ["legacy", "modern", "both"])
async def test_stdio_discover_and_initialize_per_era(era: str) -> None:
    with anyio.fail_after(STEP):
        async with StdioPeer.start("--era", era) as peer:
            discover = await peer.request("server/discover", {"_meta": envelope()})
        async with StdioPeer.start("--era", era) as peer:
            initialize = await peer.initialize()
    if era == "legacy":
        assert discover["error"]["code"] == types.METHOD_NOT_FOUND
    else:
        result = discover["result"]
        assert result["supportedVersions"] == [MODERN] and result["resultType"] == "complete"
        assert result["instructions"].startswith("# Inspector demo server")
        assert result["capabilities"]["extensions"] == {TASKS: {}}
        assert result["capabilities"]["tools"] == {"listChanged": True}
        assert result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "inspector-demo"
    if era == "modern":
        assert initialize["error"] == {
            "code": types.METHOD_NOT_FOUND,
            "message": "Method not found",
            "data": "initialize",
        }
    else:
        result = initialize["result"]
        assert result["protocolVersion"] == LEGACY and result["serverInfo"]["name"] == "inspector-demo"
        assert result["capabilities"]["tasks"] == {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}


@pytest.mark.parametrize("era", ["legacy", "modern", "both"])
async def test_http_discover_and_initialize_per_era(era: str, http_demo: Callable[[str], str]) -> None:
    with anyio.fail_after(STEP):
        async with HttpPeer.connect(http_demo(era)) as peer:
            discover = await peer.modern("server/discover")
            initialize = await peer.request(
                "initialize",
                {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "w", "version": "1"}},
            )
    if era == "legacy":
        # A 2025-11-25-only server: an unsupported MCP-Protocol-Version is a 400, and it has no server/discover.
        assert discover.status == 400 and discover.response["error"]["code"] == types.METHOD_NOT_FOUND
    else:
        assert discover.status == 200 and discover.response["result"]["supportedVersions"] == [MODERN]
    if era == "modern":
        assert initialize.status == 404
        assert initialize.response["error"]["code"] == types.METHOD_NOT_FOUND
        assert "mcp-session-id" not in initialize.headers
    else:
        assert initialize.status == 200 and initialize.response["result"]["protocolVersion"] == LEGACY
        assert initialize.headers.get("mcp-session-id")


async def test_http_modern_only_refuses_handshake_traffic(http_demo: Callable[[str], str]) -> None:
    with anyio.fail_after(STEP):
        async with HttpPeer.connect(http_demo("modern")) as peer:
            no_header = await peer.request("tools/list", {"_meta": envelope()})
            old_header = await peer.request("tools/list", {}, headers={"mcp-protocol-version": LEGACY})
            get = await peer.client.get(peer.url, headers={"accept": "text/event-stream"})
    assert no_header.status == 400 and no_header.response["error"]["code"] == types.HEADER_MISMATCH
    assert old_header.status == 400
    assert old_header.response["error"]["code"] == types.UNSUPPORTED_PROTOCOL_VERSION
    assert old_header.response["error"]["data"] == {"supported": [MODERN], "requested": LEGACY}
    assert get.status_code == 405


async def test_http_legacy_only_refuses_modern_requests(http_demo: Callable[[str], str]) -> None:
    with anyio.fail_after(STEP):
        async with HttpPeer.connect(http_demo("legacy")) as peer:
            tools = await peer.modern("tools/list")
            await peer.initialize()
            listed = await peer.request("tools/list")
    assert tools.status == 400 and tools.response["error"]["code"] == types.INVALID_REQUEST
    assert "Unsupported protocol version" in tools.response["error"]["message"]
    assert listed.status == 200 and "echo" in {tool["name"] for tool in listed.response["result"]["tools"]}


async def test_stdio_refusals_of_the_other_era() -> None:
    with anyio.fail_after(STEP):
        async with StdioPeer.start("--era", "modern") as peer:
            bare = await peer.request("tools/list", {})
            listed = await peer.request("tools/list", {"_meta": envelope()})
            ping = await peer.request("ping", {"_meta": envelope()})
        async with StdioPeer.start("--era", "legacy") as peer:
            early = await peer.request("tools/list", {"_meta": envelope()})
            await peer.initialize()
            subscriptions = await peer.request(
                "subscriptions/listen", {"_meta": envelope(), "notifications": {"toolsListChanged": True}}
            )
    assert bare["error"]["code"] == types.INVALID_PARAMS  # the SDK's modern ladder: no _meta envelope
    assert "echo" in {tool["name"] for tool in listed["result"]["tools"]}
    assert ping["error"]["code"] == types.METHOD_NOT_FOUND  # ping does not exist in 2026-07-28
    assert early["error"]["code"] == types.INVALID_PARAMS  # the handshake comes first
    assert subscriptions["error"]["code"] == types.METHOD_NOT_FOUND


# --- eras: what the official SDK client makes of them -----------------------------------------------------


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("era", ["legacy", "modern", "both"])
async def test_sdk_client_auto_mode_lands_in_the_served_era(
    transport: str, era: str, http_demo: Callable[[str], str]
) -> None:
    with anyio.fail_after(STEP):
        async with Client(target(transport, era, http_demo)) as client:
            version = client.protocol_version
            echoed = text_of(await client.call_tool("echo", {"message": f"{era} over {transport}"}))
        if era != "both":
            other = MODERN if era == "legacy" else "legacy"
            # A client pinned to the other era fails (over stdio the failure comes out of the transport's task group).
            with pytest.RaisesGroup(MCPError, allow_unwrapped=True, flatten_subgroups=True):
                async with Client(target(transport, era, http_demo), mode=other) as mismatched:
                    await mismatched.list_tools()
    assert version == (LEGACY if era == "legacy" else MODERN)
    assert echoed == f"{era} over {transport}"


# --- MRTR (2026-07-28): input_required, then the retry with inputResponses ---------------------------------


@asynccontextmanager
async def modern_client(
    transport: str, era: str, http_demo: Callable[[str], str], **kwargs: Any
) -> AsyncIterator[Client]:
    async with Client(target(transport, era, http_demo), mode=MODERN, **{**CALLBACKS, **kwargs}) as client:
        yield client


def accept(content: dict[str, Any]) -> types.ElicitResult:
    return types.ElicitResult(action="accept", content=content)


SAMPLED = types.CreateMessageResult(role="assistant", content=types.TextContent(text="a haiku"), model="test-llm")
ROOTS = types.ListRootsResult(roots=[types.Root.model_validate({"uri": "file:///tmp/project", "name": "project"})])


async def call_round(
    client: Client, name: str, arguments: dict[str, Any], responses: Any = None, state: str | None = None
) -> types.CallToolResult | types.InputRequiredResult:
    result = await client.session.call_tool(
        name, arguments, input_responses=responses, request_state=state, allow_input_required=True
    )
    assert isinstance(result, types.CallToolResult | types.InputRequiredResult), result
    return result


def methods_of(result: types.InputRequiredResult) -> dict[str, str]:
    return {key: request.method for key, request in (result.input_requests or {}).items()}


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("era", MODERN_ERAS)
async def test_single_request_tools_round_trip(transport: str, era: str, http_demo: Callable[[str], str]) -> None:
    cases: list[tuple[str, str, str, Any]] = [
        ("elicit_form", "form", "elicitation/create", accept({"name": "Grace", "email": "grace@example.com"})),
        ("sample", "sample", "sampling/createMessage", SAMPLED),
        ("list_roots", "roots", "roots/list", ROOTS),
    ]
    with anyio.fail_after(STEP):
        async with modern_client(transport, era, http_demo) as client:
            for tool, key, method, answer in cases:
                first = await call_round(client, tool, {})
                assert isinstance(first, types.InputRequiredResult), (tool, first)
                assert methods_of(first) == {key: method}
                done = await call_round(client, tool, {}, {key: answer}, first.request_state)
                assert isinstance(done, types.CallToolResult) and not done.is_error, (tool, done)
                assert json.loads(text_of(done)) == answer.model_dump(by_alias=True, mode="json", exclude_none=True)


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("era", MODERN_ERAS)
async def test_ask_twice_takes_two_rounds_carried_by_request_state(
    transport: str, era: str, http_demo: Callable[[str], str]
) -> None:
    with anyio.fail_after(STEP):
        async with modern_client(transport, era, http_demo) as client:
            first = await call_round(client, "ask_twice", {})
            assert isinstance(first, types.InputRequiredResult) and first.request_state
            (name_key,) = first.input_requests or {}
            assert methods_of(first) == {name_key: "elicitation/create"}
            second = await call_round(client, "ask_twice", {}, {name_key: accept({"name": "Ada"})}, first.request_state)
            assert isinstance(second, types.InputRequiredResult) and second.request_state
            (confirm_key,) = second.input_requests or {}
            assert confirm_key != name_key
            question = (second.input_requests or {})[confirm_key].params
            assert isinstance(question, types.ElicitRequestFormParams) and "'Ada'" in question.message
            # Only the second question is answered: the first answer rides in requestState.
            done = await call_round(
                client, "ask_twice", {}, {confirm_key: accept({"correct": True})}, second.request_state
            )
            assert isinstance(done, types.CallToolResult) and not done.is_error
            assert json.loads(text_of(done)) == {
                "name": "Ada",
                "confirmation": {"action": "accept", "data": {"correct": True}},
            }
            # The SDK's own driver converges on the same thing through the callbacks.
            driven = await client.call_tool("ask_twice", {})
            assert json.loads(text_of(driven))["name"] == "Ada"


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("era", MODERN_ERAS)
async def test_ask_all_at_once_sends_three_requests_in_one_round(
    transport: str, era: str, http_demo: Callable[[str], str]
) -> None:
    with anyio.fail_after(STEP):
        async with modern_client(transport, era, http_demo) as client:
            first = await call_round(client, "ask_all_at_once", {})
            assert isinstance(first, types.InputRequiredResult)
            by_method = {method: key for key, method in methods_of(first).items()}
            assert set(by_method) == {"elicitation/create", "sampling/createMessage", "roots/list"}
            answers = {
                by_method["elicitation/create"]: accept({"color": "green"}),
                by_method["sampling/createMessage"]: SAMPLED,
                by_method["roots/list"]: ROOTS,
            }
            done = await call_round(client, "ask_all_at_once", {}, answers, first.request_state)
            assert isinstance(done, types.CallToolResult) and not done.is_error, done
            payload = json.loads(text_of(done))
            assert payload["color"] == "green" and payload["haiku"]["model"] == "test-llm"
            assert payload["roots"]["roots"] == [{"uri": "file:///tmp/project", "name": "project"}]
        # Without the capabilities it needs, the server must not ask: -32021.
        async with Client(target(transport, era, http_demo), mode=MODERN) as bare:
            with pytest.raises(MCPError) as refused:
                await call_round(bare, "ask_all_at_once", {})
    assert refused.value.error.code == types.MISSING_REQUIRED_CLIENT_CAPABILITY


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("era", MODERN_ERAS)
async def test_request_state_alone_round_trips_opaque(
    transport: str, era: str, http_demo: Callable[[str], str]
) -> None:
    with anyio.fail_after(STEP):
        async with modern_client(transport, era, http_demo) as client:
            first = await call_round(client, "retry_with_state", {"ticket": "t-42"})
            assert isinstance(first, types.InputRequiredResult)
            assert not first.input_requests and first.request_state
            assert "t-42" not in first.request_state  # sealed by the SDK: opaque to the client
            done = await call_round(client, "retry_with_state", {"ticket": "t-42"}, None, first.request_state)
            assert isinstance(done, types.CallToolResult)
            assert json.loads(text_of(done)) == {"rounds": 2, "request_state_received": {"ticket": "t-42", "round": 1}}
            with pytest.raises(MCPError) as tampered:
                await call_round(
                    client, "retry_with_state", {"ticket": "t-42"}, None, first.request_state[:-4] + "AAAA"
                )
            with pytest.raises(MCPError) as rebound:  # bound to the request it was minted for
                await call_round(client, "retry_with_state", {"ticket": "other"}, None, first.request_state)
            assert json.loads(text_of(await client.call_tool("retry_with_state", {})))["rounds"] == 2
    assert tampered.value.error.code == rebound.value.error.code == types.INVALID_PARAMS


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("era", MODERN_ERAS)
async def test_prompt_and_resource_that_need_input(transport: str, era: str, http_demo: Callable[[str], str]) -> None:
    with anyio.fail_after(STEP):
        async with modern_client(transport, era, http_demo) as client:
            prompt = await client.session.get_prompt("greet_me", {"style": "pirate"}, allow_input_required=True)
            assert isinstance(prompt, types.InputRequiredResult) and methods_of(prompt) == {
                "name": "elicitation/create"
            }
            rendered = await client.session.get_prompt(
                "greet_me",
                {"style": "pirate"},
                input_responses={"name": accept({"name": "Grace"})},
                request_state=prompt.request_state,
                allow_input_required=True,
            )
            assert isinstance(rendered, types.GetPromptResult)
            assert rendered.messages[0].content == types.TextContent(text="Write a short pirate greeting for Grace.")

            uri = "demo://files/vault/recipe"
            read = await client.session.read_resource(uri, allow_input_required=True)
            assert isinstance(read, types.InputRequiredResult) and methods_of(read) == {"reveal": "elicitation/create"}
            revealed = await client.session.read_resource(
                uri, input_responses={"reveal": accept({"reveal": True})}, allow_input_required=True
            )
            kept = await client.session.read_resource(
                uri, input_responses={"reveal": types.ElicitResult(action="decline")}, allow_input_required=True
            )
            driven = await client.get_prompt("greet_me", {})
    assert isinstance(revealed, types.ReadResourceResult) and isinstance(kept, types.ReadResourceResult)
    first, second = revealed.contents[0], kept.contents[0]
    assert isinstance(first, types.TextResourceContents) and "pancakes" in first.text
    assert isinstance(second, types.TextResourceContents) and second.text == "(not revealed)\n"
    assert "Ada" in str(driven.messages[0].content)


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("era", LEGACY_ERAS)
async def test_handshake_era_asks_the_same_questions_as_server_requests(
    transport: str, era: str, http_demo: Callable[[str], str]
) -> None:
    with anyio.fail_after(STEP):
        async with Client(target(transport, era, http_demo), mode="legacy", **CALLBACKS) as client:
            twice = json.loads(text_of(await client.call_tool("ask_twice", {})))
            everything = json.loads(text_of(await client.call_tool("ask_all_at_once", {})))
            state = json.loads(text_of(await client.call_tool("retry_with_state", {})))
            prompt = await client.get_prompt("greet_me", {})
            vault = await client.read_resource("demo://files/vault/wifi")
    assert twice == {"name": "Ada", "confirmation": {"action": "accept", "data": {"correct": True}}}
    assert everything["haiku"]["model"] == "test-llm" and everything["roots"]["roots"][0]["name"] == "project"
    assert state["rounds"] == 1
    assert "Ada" in str(prompt.messages[0].content)
    contents = vault.contents[0]
    assert isinstance(contents, types.TextResourceContents) and "SSID" in contents.text


# --- subscriptions/listen ---------------------------------------------------------------------------------


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("era", MODERN_ERAS)
async def test_listen_acknowledges_a_subset_and_delivers(
    transport: str, era: str, http_demo: Callable[[str], str]
) -> None:
    wanted = {ToolsListChanged, PromptsListChanged, ResourcesListChanged, ResourceUpdated}
    seen: set[type] = set()
    with anyio.fail_after(STEP):
        async with (
            modern_client(transport, era, http_demo) as client,
            client.listen(
                tools_list_changed=True,
                prompts_list_changed=True,
                resources_list_changed=True,
                resource_subscriptions=["demo://clock", "demo://text/hello", "demo://files/notes/todo.txt"],
            ) as subscription,
        ):
            honored = subscription.honored
            await client.call_tool("toggle_tool", {"enabled": True})
            async for event in subscription:
                seen.add(type(event))
                if isinstance(event, ResourceUpdated):
                    assert event.uri == "demo://clock"
                if wanted <= seen:
                    break
            await client.call_tool("toggle_tool", {"enabled": False})  # leave a shared server as it was
    assert honored.tools_list_changed and honored.prompts_list_changed and honored.resources_list_changed
    # demo://text/hello never changes, so the demo does not take the subscription: the ack is a subset.
    assert honored.resource_subscriptions == ["demo://clock", "demo://files/notes/todo.txt"]


async def test_listen_never_acknowledges_task_ids() -> None:
    notifications = {"toolsListChanged": True, "taskIds": ["no-such-task"]}
    with anyio.fail_after(STEP):
        async with StdioPeer.start("--era", "modern") as peer:
            refused = await peer.request("subscriptions/listen", {"_meta": envelope(), "notifications": notifications})
            listen_id = peer.next_id()
            await peer.send(
                {
                    "jsonrpc": "2.0",
                    "id": listen_id,
                    "method": "subscriptions/listen",
                    "params": {"_meta": envelope({"extensions": {TASKS: {}}}), "notifications": notifications},
                }
            )
            ack = await peer.wait_for(lambda m: m.get("method") == "notifications/subscriptions/acknowledged")
            await peer.notify("notifications/cancelled", {"requestId": listen_id})
    assert refused["error"]["code"] == types.MISSING_REQUIRED_CLIENT_CAPABILITY
    assert refused["error"]["data"] == {"requiredCapabilities": {"extensions": {TASKS: {}}}}
    assert ack["params"]["notifications"] == {"toolsListChanged": True}
    assert ack["params"]["_meta"] == {"io.modelcontextprotocol/subscriptionId": listen_id}


# --- x-mcp-header -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("era", MODERN_ERAS)
async def test_header_tool_is_mirrored_and_the_invalid_one_dropped(era: str, http_demo: Callable[[str], str]) -> None:
    arguments = {"region": "eu-west1", "priority": 3, "verbose": True, "query": "SELECT 2"}
    with anyio.fail_after(STEP):
        async with modern_client("http", era, http_demo) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            result = json.loads(text_of(await client.call_tool("route_query", arguments)))
        async with HttpPeer.connect(http_demo(era)) as peer:
            raw = await peer.modern("tools/list")
            mismatch = await peer.request(
                "tools/call",
                {"name": "route_query", "arguments": arguments, "_meta": envelope()},
                headers={
                    "mcp-protocol-version": MODERN,
                    "mcp-method": "tools/call",
                    "mcp-name": "route_query",
                    "mcp-param-region": "us-east1",
                    "mcp-param-priority": "3",
                    "mcp-param-verbose": "true",
                },
            )
    # The SDK client drops the tool whose annotation is invalid; the server does list it.
    assert "route_query" in tools and "bad_header_tool" not in tools
    props = tools["route_query"].input_schema["properties"]
    assert {name: props[name].get("x-mcp-header") for name in props} == {
        "region": "Region",
        "priority": "Priority",
        "verbose": "Verbose",
        "query": None,
    }
    assert {props[name]["type"] for name in ("region", "priority", "verbose")} == {"string", "integer", "boolean"}
    listed = {tool["name"]: tool for tool in raw.response["result"]["tools"]}
    assert listed["bad_header_tool"]["inputSchema"]["properties"]["score"] == {
        "type": "number",
        "description": "x-mcp-header on a number: not allowed, so the whole tool is invalid",
        "x-mcp-header": "Score",
    }
    assert result["arguments"] == arguments
    headers = result["headers"]
    assert {key: headers[key] for key in headers if key.startswith("mcp-param-")} == {
        "mcp-param-region": "eu-west1",
        "mcp-param-priority": "3",
        "mcp-param-verbose": "true",
    }
    assert headers["mcp-method"] == "tools/call" and headers["mcp-name"] == "route_query"
    assert mismatch.status == 400 and mismatch.response["error"]["code"] == types.HEADER_MISMATCH


async def test_header_tools_over_stdio_and_in_the_handshake_era() -> None:
    with anyio.fail_after(STEP):
        async with Client(stdio_params("both"), mode=MODERN) as client:
            result = json.loads(text_of(await client.call_tool("route_query", {"region": "x"})))
        async with Client(stdio_params("both"), mode="legacy") as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            bad = json.loads(text_of(await client.call_tool("bad_header_tool", {"score": 2.5})))
    assert result["headers"] is None  # stdio carries no headers
    assert {"route_query", "bad_header_tool"} <= names  # x-mcp-header means nothing before 2026-07-28
    assert bad == {"score": 2.5, "label": None}


# --- ttlMs / cacheScope -----------------------------------------------------------------------------------


async def test_cache_hints_on_list_results() -> None:
    with anyio.fail_after(STEP):
        async with StdioPeer.start("--era", "modern") as peer:
            answers = {
                method: (await peer.request(method, {"_meta": envelope()}))["result"]
                for method in ("server/discover", "resources/templates/list", "tools/list", "prompts/list")
            }
            read = (await peer.request("resources/read", {"uri": "demo://clock", "_meta": envelope()}))["result"]
            asked = await peer.request(
                "resources/read", {"uri": "demo://files/vault/recipe", "_meta": envelope({"elicitation": {}})}
            )
    hints = {method: (result["ttlMs"], result["cacheScope"]) for method, result in answers.items()}
    assert hints == {
        "server/discover": (60_000, "public"),
        "resources/templates/list": (3_600_000, "public"),
        "tools/list": (0, "private"),
        "prompts/list": (0, "private"),
    }
    assert (read["ttlMs"], read["cacheScope"]) == (0, "private")
    # An input_required result is never cacheable.
    assert asked["result"]["resultType"] == "input_required" and "ttlMs" not in asked["result"]


# --- tasks: the io.modelcontextprotocol/tasks extension (2026-07-28), through the SDK client -------------


class CreatedTask(types.Result):
    """``CreateTaskResult`` of the tasks extension (what the client claims with ``resultType: "task"``)."""

    model_config = ConfigDict(extra="allow")
    result_type: Literal["task"] = "task"
    task_id: str
    status: str
    created_at: str
    last_updated_at: str
    ttl_ms: int | None
    poll_interval_ms: int | None = None


class TaskState(types.Result):
    """``tasks/get`` of the tasks extension."""

    model_config = ConfigDict(extra="allow")
    task_id: str
    status: str
    status_message: str | None = None
    ttl_ms: int | None
    poll_interval_ms: int | None = None
    input_requests: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


class Ack(types.Result):
    """The empty acknowledgement of ``tasks/update`` / ``tasks/cancel`` (with its ``resultType``)."""

    result_type: str | None = None


class UpdateTaskParams(types.RequestParams):
    task_id: str
    input_responses: dict[str, Any]


class TasksGet(types.Request[types.GetTaskRequestParams, Literal["tasks/get"]]):
    method: Literal["tasks/get"] = "tasks/get"
    params: types.GetTaskRequestParams
    name_param: ClassVar[str | None] = "taskId"


class TasksUpdate(types.Request[UpdateTaskParams, Literal["tasks/update"]]):
    method: Literal["tasks/update"] = "tasks/update"
    params: UpdateTaskParams
    name_param: ClassVar[str | None] = "taskId"


class TasksCancel(types.Request[types.CancelTaskRequestParams, Literal["tasks/cancel"]]):
    method: Literal["tasks/cancel"] = "tasks/cancel"
    params: types.CancelTaskRequestParams
    name_param: ClassVar[str | None] = "taskId"


async def task_state(client: Client, task_id: str) -> TaskState:
    return await client.session.send_request(TasksGet(params=types.GetTaskRequestParams(task_id=task_id)), TaskState)


async def poll(client: Client, task_id: str, *, until: set[str], history: list[TaskState]) -> TaskState:
    """``tasks/get`` at the advertised interval until the status is one of ``until`` (bounded)."""
    for _ in range(300):
        state = await task_state(client, task_id)
        history.append(state)
        if state.status in until:
            return state
        await anyio.sleep((state.poll_interval_ms or 100) / 1000)
    raise AssertionError(f"task {task_id} never reached {until}: {history[-1]}")


async def resolve_task(created: CreatedTask, ctx: ClaimContext) -> types.CallToolResult:
    """Drive a task to its end: poll, approve whatever it asks, return its result."""
    for _ in range(300):
        state = await ctx.session.send_request(
            TasksGet(params=types.GetTaskRequestParams(task_id=created.task_id)), TaskState
        )
        if state.status == "completed":
            return types.CallToolResult.model_validate(state.result)
        assert state.status in ("working", "input_required"), state
        if state.input_requests:
            responses = {key: {"action": "accept", "content": {"approve": True}} for key in state.input_requests}
            await ctx.session.send_request(
                TasksUpdate(params=UpdateTaskParams(task_id=created.task_id, input_responses=responses)), types.Result
            )
        await anyio.sleep((state.poll_interval_ms or 100) / 1000)
    raise AssertionError("the task did not finish")


class TasksClient(ClientExtension):
    """Test-only client side of the tasks extension: claims ``resultType: "task"`` and polls it to the end."""

    identifier = TASKS

    def claims(self) -> list[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=CreatedTask, resolve=resolve_task)]


async def start_task(client: Client, name: str, arguments: dict[str, Any]) -> CreatedTask:
    created = await client.session.call_tool(name, arguments, allow_claimed=True)
    assert isinstance(created, CreatedTask), created
    return created


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("era", MODERN_ERAS)
async def test_modern_tasks_run_to_completion(transport: str, era: str, http_demo: Callable[[str], str]) -> None:
    history: list[TaskState] = []
    with anyio.fail_after(STEP):
        async with modern_client(transport, era, http_demo, extensions=[TasksClient()]) as client:
            created = await start_task(client, "task_slow", {"seconds": 0.8, "steps": 4})
            done = await poll(client, created.task_id, until={"completed", "failed", "cancelled"}, history=history)

            asking = await start_task(client, "task_needs_input", {"message": "Ship it?"})
            waiting = await poll(client, asking.task_id, until={"input_required"}, history=[])
            update = TasksUpdate(
                params=UpdateTaskParams(
                    task_id=asking.task_id,
                    input_responses={
                        "approval": {"action": "accept", "content": {"approve": True, "note": "go"}},
                        "unknown-key": {"action": "decline"},  # ignored, as the extension says
                    },
                )
            )
            acked = await client.session.send_request(update, Ack)
            approved = await poll(client, asking.task_id, until={"completed", "failed"}, history=[])

            transparent = await client.call_tool("task_needs_input", {})  # the claim's resolver drives it
            with pytest.raises(MCPError) as unknown:
                await task_state(client, "no-such-task")
    assert created.status == "working" and created.ttl_ms and created.poll_interval_ms
    assert done.status == "completed" and done.result is not None
    assert done.result["content"][0]["text"].startswith("Finished 4 steps")
    assert done.result["resultType"] == "complete"
    messages = [state.status_message for state in history if state.status == "working"]
    assert any(message and message.startswith("step ") for message in messages)

    assert waiting.input_requests is not None and set(waiting.input_requests) == {"approval"}
    request = waiting.input_requests["approval"]
    assert request["method"] == "elicitation/create" and request["params"]["message"] == "Ship it?"
    assert acked.result_type == "complete"
    assert approved.status == "completed" and approved.result is not None
    outcome = json.loads(approved.result["content"][0]["text"])
    assert outcome["approved"] is True and outcome["answer"]["content"]["note"] == "go"
    assert json.loads(text_of(transparent))["approved"] is True
    assert unknown.value.error.code == types.INVALID_PARAMS


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_modern_task_cancel_and_clients_without_the_extension(
    transport: str, http_demo: Callable[[str], str]
) -> None:
    with anyio.fail_after(STEP):
        async with modern_client(transport, "modern", http_demo, extensions=[TasksClient()]) as client:
            created = await start_task(client, "task_cancellable", {"seconds": 60})
            await poll(client, created.task_id, until={"working"}, history=[])
            ack = await client.session.send_request(
                TasksCancel(params=types.CancelTaskRequestParams(task_id=created.task_id)), Ack
            )
            cancelled = await poll(client, created.task_id, until={"cancelled", "completed"}, history=[])
        seen_progress: list[float] = []

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            seen_progress.append(progress)

        async with modern_client(transport, "modern", http_demo) as plain:
            inline = await plain.call_tool("task_slow", {"seconds": 0.3, "steps": 3}, progress_callback=on_progress)
            with pytest.raises(MCPError) as required:
                await plain.call_tool("task_cancellable", {})
    assert ack.result_type == "complete"
    assert cancelled.status == "cancelled"
    assert text_of(inline).startswith("Finished 3 steps") and seen_progress == [1, 2, 3]
    assert required.value.error.code == types.MISSING_REQUIRED_CLIENT_CAPABILITY
    assert required.value.error.data == {"requiredCapabilities": {"extensions": {TASKS: {}}}}


# --- tasks: 2025-11-25 (handshake era), raw JSON-RPC --------------------------------------------------------


ServerRequestHandler = Callable[[dict[str, Any]], Any]


class LegacyWire:
    """A handshake-era session over stdio or HTTP: ``call`` returns the JSON-RPC response message."""

    def __init__(self, stdio: StdioPeer | None, http: HttpPeer | None) -> None:
        self.stdio, self.http = stdio, http

    @classmethod
    @asynccontextmanager
    async def open(cls, transport: str, era: str, http_demo: Callable[[str], str]) -> AsyncIterator[LegacyWire]:
        capabilities: dict[str, Any] = {"elicitation": {"form": {}}}
        if transport == "stdio":
            async with StdioPeer.start("--era", era) as peer:
                await peer.initialize(capabilities)
                yield cls(peer, None)
        else:
            async with HttpPeer.connect(http_demo(era)) as http:
                await http.initialize(capabilities)
                yield cls(None, http)

    async def call(
        self, method: str, params: dict[str, Any] | None = None, on_request: ServerRequestHandler | None = None
    ) -> dict[str, Any]:
        if self.stdio is not None:
            return await self.stdio.request(method, params, on_request=on_request)
        assert self.http is not None
        answer = await self.http.request(method, params, on_request=on_request)
        assert answer.status == 200, answer
        response: dict[str, Any] = answer.response
        return response

    async def poll(self, task_id: str, until: set[str], history: list[dict[str, Any]]) -> dict[str, Any]:
        for _ in range(300):
            task: dict[str, Any] = (await self.call("tasks/get", {"taskId": task_id}))["result"]
            history.append(task)
            if task["status"] in until:
                return task
            await anyio.sleep(task["pollInterval"] / 1000)
        raise AssertionError(f"task {task_id} never reached {until}")


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("era", LEGACY_ERAS)
async def test_legacy_tasks_run_to_completion(transport: str, era: str, http_demo: Callable[[str], str]) -> None:
    history: list[dict[str, Any]] = []
    asked: list[dict[str, Any]] = []

    async def approve(request: dict[str, Any]) -> dict[str, Any]:
        asked.append(request)
        return {"action": "accept", "content": {"approve": True}}

    with anyio.fail_after(STEP):
        async with LegacyWire.open(transport, era, http_demo) as wire:
            tools = {tool["name"]: tool for tool in (await wire.call("tools/list"))["result"]["tools"]}
            created = await wire.call(
                "tools/call",
                {"name": "task_slow", "arguments": {"seconds": 0.8, "steps": 4}, "task": {"ttl": 60_000}},
            )
            task = created["result"]["task"]
            done = await wire.poll(task["taskId"], {"completed", "failed", "cancelled"}, history)
            result = (await wire.call("tasks/result", {"taskId": task["taskId"]}))["result"]
            listed = (await wire.call("tasks/list"))["result"]["tasks"]

            asking = await wire.call("tools/call", {"name": "task_needs_input", "arguments": {}, "task": {}})
            asking_id = asking["result"]["task"]["taskId"]
            waiting = await wire.poll(asking_id, {"input_required"}, [])
            # tasks/result blocks until the end and carries the task's elicitation on its own stream.
            approved = (await wire.call("tasks/result", {"taskId": asking_id}, on_request=approve))["result"]
    assert {name: tools[name].get("execution") for name in ("task_slow", "task_needs_input", "task_cancellable")} == {
        "task_slow": {"taskSupport": "optional"},
        "task_needs_input": {"taskSupport": "required"},
        "task_cancellable": {"taskSupport": "required"},
    }
    assert "execution" not in tools["echo"]
    assert task["status"] == "working" and task["ttl"] == 60_000 and task["pollInterval"] > 0
    assert created["result"]["_meta"]["io.modelcontextprotocol/model-immediate-response"]
    types.CreateTaskResult.model_validate(created["result"])
    assert done["status"] == "completed"
    assert any(state.get("statusMessage", "").startswith("step ") for state in history)
    assert result["content"][0]["text"].startswith("Finished 4 steps") and "resultType" not in result
    assert result["_meta"]["io.modelcontextprotocol/related-task"] == {"taskId": task["taskId"]}
    assert task["taskId"] in {listed_task["taskId"] for listed_task in listed}

    assert waiting["status"] == "input_required"
    assert [request["method"] for request in asked] == ["elicitation/create"]
    assert asked[0]["params"]["_meta"]["io.modelcontextprotocol/related-task"] == {"taskId": asking_id}
    assert json.loads(approved["content"][0]["text"])["approved"] is True


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_legacy_task_cancel_and_task_rules(transport: str, http_demo: Callable[[str], str]) -> None:
    with anyio.fail_after(STEP):
        async with LegacyWire.open(transport, "legacy", http_demo) as wire:
            created = await wire.call("tools/call", {"name": "task_cancellable", "arguments": {}, "task": {}})
            task_id = created["result"]["task"]["taskId"]
            cancelled = (await wire.call("tasks/cancel", {"taskId": task_id}))["result"]
            again = await wire.call("tasks/cancel", {"taskId": task_id})
            after = (await wire.call("tasks/get", {"taskId": task_id}))["result"]
            no_result = await wire.call("tasks/result", {"taskId": task_id})
            unknown = await wire.call("tasks/get", {"taskId": "no-such-task"})
            without_task = await wire.call("tools/call", {"name": "task_cancellable", "arguments": {}})
            forbidden = await wire.call("tools/call", {"name": "echo", "arguments": {"message": "x"}, "task": {}})
            inline = (await wire.call("tools/call", {"name": "task_slow", "arguments": {"seconds": 0.2}}))["result"]
            update = await wire.call("tasks/update", {"taskId": task_id, "inputResponses": {}})
    assert cancelled["status"] == "cancelled" and cancelled["taskId"] == task_id
    assert again["error"]["code"] == types.INVALID_PARAMS  # already terminal
    assert after["status"] == "cancelled"
    assert no_result["error"]["code"] == types.INVALID_PARAMS
    assert unknown["error"]["code"] == types.INVALID_PARAMS
    assert without_task["error"]["code"] == types.METHOD_NOT_FOUND  # taskSupport: required
    assert forbidden["error"]["code"] == types.METHOD_NOT_FOUND  # no taskSupport
    assert inline["content"][0]["text"].startswith("Finished 4 steps")
    assert update["error"]["code"] == types.METHOD_NOT_FOUND  # tasks/update is the extension's


async def test_legacy_task_status_notifications() -> None:
    with anyio.fail_after(STEP):
        async with LegacyWire.open("stdio", "legacy", lambda era: "") as wire:
            created = await wire.call(
                "tools/call", {"name": "task_slow", "arguments": {"seconds": 0.4, "steps": 2}, "task": {}}
            )
            task_id = created["result"]["task"]["taskId"]
            await wire.poll(task_id, {"completed"}, [])
            assert wire.stdio is not None
            statuses = [n["params"] for n in wire.stdio.notifications("notifications/tasks/status")]
    assert statuses and all(params["taskId"] == task_id for params in statuses)
    assert statuses[-1]["status"] == "completed"
    assert [params["statusMessage"] for params in statuses if params["status"] == "working"] == ["step 1/2", "step 2/2"]
    for params in statuses:
        types.TaskStatusNotificationParams.model_validate(params)
