"""Multi round-trip requests (MRTR, 2026-07-28): tools, a prompt and a resource that need client input.

In the modern era each answers ``resultType: "input_required"`` first and completes when the client retries
with ``inputResponses`` (and the echoed ``requestState``); in the handshake era the same input is asked with
real server requests mid-call. With ``sample``, ``elicit_form`` and ``list_roots`` (one request of each kind)
the demo covers:

==========================  ===============================================================================
``ask_twice``               two rounds: a name (form elicitation), then a confirmation that quotes it; the
                            first answer rides in ``requestState`` (SDK ``Resolve`` resolvers, one depending
                            on the other)
``ask_all_at_once``         one round with three ``inputRequests`` at once: elicitation, sampling, roots
                            (independent ``Resolve`` resolvers, batched by the SDK)
``retry_with_state``        an ``input_required`` with only ``requestState`` (no ``inputRequests``): the
                            client retries at once, echoing it; the result shows the state the server got back
prompt ``greet_me``         ``prompts/get`` that asks who the greeting is for
``demo://files/vault/…``    ``resources/read`` (of the files template) that asks the user to confirm before
                            revealing the secret
==========================  ===============================================================================

The SDK seals every ``requestState`` it sends (AES-GCM, bound to the request) and verifies every echo, so a
client sees an opaque string and a tampered one is refused with -32602.
"""

import json
from typing import Annotated, Any, Final, Literal

from mcp.server.mcpserver import Context, ElicitationResult, MCPServer
from mcp.server.mcpserver.prompts.base import Message, UserMessage
from mcp.server.mcpserver.resolve import Elicit, ListRoots, Resolve, Sample
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_REQUEST,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    CallToolResult,
    ClientCapabilities,
    CreateMessageResult,
    ElicitationCapability,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
    ListRootsResult,
    MissingRequiredClientCapabilityErrorData,
    SamplingMessage,
    TextContent,
    ToolAnnotations,
)
from pydantic import BaseModel, Field

from inspector.demo.client_input import ask_client, is_modern, json_result
from inspector.demo.media import icon

__all__ = ["NAME_KEY", "REVEAL_KEY", "VAULT", "VAULT_PATH", "VAULT_URI_PREFIX", "guarded_read", "register_mrtr"]

NAME_KEY: Final = "name"
"""The ``inputRequests`` key ``greet_me`` asks under."""
REVEAL_KEY: Final = "reveal"
"""The ``inputRequests`` key ``demo://files/vault/…`` asks under."""

VAULT_PATH: Final = "vault/"
"""Virtual files under this path (``demo://files/vault/…``) are secrets that need the user's confirmation."""
VAULT_URI_PREFIX: Final = "demo://files/vault/"
VAULT: Final[dict[str, str]] = {
    "recipe": "Grandma's pancakes: 2 eggs, 250 g flour, 500 ml milk, a pinch of salt.\n",
    "wifi": "SSID demo-net, password correct-horse-battery-staple\n",
    "launch-code": "0000 (it is always 0000)\n",
}

_INTERACTIVE = ToolAnnotations(read_only_hint=True, open_world_hint=True)


# --- resolvers (module level: their qualified names are the inputRequests keys) -----------------------


class NameForm(BaseModel):
    name: str = Field(description="Your name", min_length=1, max_length=60)


class Confirmation(BaseModel):
    correct: bool = Field(description="Is that right?")


class ColorChoice(BaseModel):
    color: Literal["red", "green", "blue"] = Field(description="Favourite colour")


async def ask_name() -> Elicit[NameForm]:
    return Elicit("What is your name?", NameForm)


async def confirm_name(name: Annotated[NameForm, Resolve(ask_name)]) -> Elicit[Confirmation]:
    return Elicit(f"You said your name is {name.name!r}. Is that right?", Confirmation)


async def pick_color() -> Elicit[ColorChoice]:
    return Elicit("Pick a colour", ColorChoice)


async def write_haiku() -> Sample:
    prompt = "Write a haiku about a server that asks three questions at once."
    return Sample([SamplingMessage(role="user", content=TextContent(text=prompt))], max_tokens=100)


async def fetch_roots() -> ListRoots:
    return ListRoots()


def _dump(model: BaseModel) -> Any:
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


def _require_elicitation(ctx: Context) -> None:
    """Refuse with -32021 when the client did not declare elicitation (MRTR must not ask for it then)."""
    required = ClientCapabilities(elicitation=ElicitationCapability())
    if ctx.request_context.session.check_client_capability(required):
        return
    data = MissingRequiredClientCapabilityErrorData(required_capabilities=required)
    raise MCPError(
        code=MISSING_REQUIRED_CLIENT_CAPABILITY,
        message="The client did not declare the elicitation capability this request needs",
        data=_dump(data),
    )


async def _elicit(ctx: Context, key: str, message: str, schema: dict[str, Any]) -> ElicitResult | InputRequiredResult:
    """Ask for a form in either era; a refusal in the handshake era is a JSON-RPC error here."""
    _require_elicitation(ctx)
    request = ElicitRequest(params=ElicitRequestFormParams(message=message, requested_schema=schema))
    answer = await ask_client(ctx, key, request, ElicitResult)
    if isinstance(answer, CallToolResult):
        raise MCPError(code=INVALID_REQUEST, message="The client refused the elicitation request")
    return answer


def register_mrtr(server: MCPServer[Any]) -> None:
    @server.tool(title="Two rounds of input (MRTR)", annotations=_INTERACTIVE, icons=icon("tool"))
    async def ask_twice(
        name: Annotated[NameForm, Resolve(ask_name)],
        confirmation: Annotated[ElicitationResult[Confirmation], Resolve(confirm_name)],
    ) -> CallToolResult:
        """Asks for your name, then (a second round) whether it is right; needs form elicitation."""
        return json_result({"name": name.name, "confirmation": _dump(confirmation)})

    @server.tool(title="Three inputs in one round (MRTR)", annotations=_INTERACTIVE, icons=icon("tool"))
    async def ask_all_at_once(
        color: Annotated[ColorChoice, Resolve(pick_color)],
        haiku: Annotated[CreateMessageResult, Resolve(write_haiku)],
        roots: Annotated[ListRootsResult, Resolve(fetch_roots)],
    ) -> CallToolResult:
        """Asks for a colour (elicitation), a haiku (sampling) and the roots at once; needs all three."""
        return json_result({"color": color.color, "haiku": _dump(haiku), "roots": _dump(roots)})

    @server.tool(title="Retry with requestState only (MRTR)", annotations=_INTERACTIVE, icons=icon("tool"))
    async def retry_with_state(
        ctx: Context,
        ticket: Annotated[str, Field(description="Put into the requestState of the first round")] = "demo",
    ) -> CallToolResult | InputRequiredResult:
        """First round: input_required with only requestState; the retry echoes it and the result shows it."""
        if not is_modern(ctx):
            return json_result({"rounds": 1, "note": "the handshake era has no requestState; nothing to retry"})
        echoed = ctx.request_state
        if echoed is None:
            return InputRequiredResult(request_state=json.dumps({"ticket": ticket, "round": 1}))
        return json_result({"rounds": 2, "request_state_received": json.loads(echoed)})

    @server.prompt(title="Greeting that asks your name (MRTR)", icons=icon("prompt"))
    async def greet_me(
        ctx: Context,
        style: Annotated[str, Field(description="friendly, formal, pirate, …")] = "friendly",
    ) -> list[Message] | InputRequiredResult:
        """A prompt that asks who it is for (form elicitation) before rendering."""
        schema = {"type": "object", "properties": {"name": {"type": "string", "title": "Name"}}, "required": ["name"]}
        answer = await _elicit(ctx, NAME_KEY, "Who is this greeting for?", schema)
        if isinstance(answer, InputRequiredResult):
            return answer
        name = (answer.content or {}).get("name") if answer.action == "accept" else None
        if not isinstance(name, str) or not name:
            return [UserMessage(f"Write a short {style} greeting for someone who prefers to stay anonymous.")]
        return [UserMessage(f"Write a short {style} greeting for {name}.")]


async def guarded_read(ctx: Context, secret: str) -> str | InputRequiredResult:
    """``demo://files/vault/{secret}``: asks the user to confirm (form elicitation) before revealing it.

    Raises the resource-not-found error (-32002) for an unknown secret.
    """
    text = VAULT.get(secret)
    uri = f"{VAULT_URI_PREFIX}{secret}"
    if text is None:
        raise MCPError(code=-32002, message="Resource not found", data={"uri": uri})
    schema = {
        "type": "object",
        "properties": {"reveal": {"type": "boolean", "title": f"Reveal {secret!r}?", "default": False}},
        "required": ["reveal"],
    }
    answer = await _elicit(ctx, REVEAL_KEY, f"Reveal {uri}?", schema)
    if isinstance(answer, InputRequiredResult):
        return answer
    if answer.action == "accept" and (answer.content or {}).get("reveal") is True:
        return text
    return "(not revealed)\n"
