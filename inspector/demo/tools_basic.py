"""Demo tools: plain results, structured results, failures and rich input schemas."""

import datetime
import json
import random
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import AnyUrl, BaseModel, ConfigDict, Field

from inspector.demo.media import icon
from inspector.demo.schemas import (
    ORDER_SCHEMA,
    Attendee,
    Channel,
    Email,
    EmailReminder,
    Location,
    OnlineMeeting,
    Priority,
    PushReminder,
    Recurrence,
    SmsReminder,
    Visibility,
    WeatherReport,
)

__all__ = ["build_static_tools", "register_basic_tools"]

_READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, destructive_hint=False, open_world_hint=False)


def _format_number(value: float) -> str:
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


class AddResult(BaseModel):
    """The structured result of ``add``."""

    sum: float = Field(description="a + b")


# --- tools that need hand-built registration (see build_static_tools) -------------------------------------

_BAD_OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "temperature": {"type": "number"},
        "unit": {"type": "string", "enum": ["C", "F"]},
    },
    "required": ["temperature", "unit"],
    "additionalProperties": False,
}


async def bad_structured() -> CallToolResult:
    """Returns structuredContent that deliberately violates this tool's outputSchema.

    temperature is a string instead of a number, the required "unit" is missing and an extra "units" property
    is present. A conforming client must flag it; the inspector shows the violations.
    """
    return CallToolResult(
        content=[TextContent(text='{"temperature": "hot", "units": "kelvin"}')],
        structured_content={"temperature": "hot", "units": "kelvin"},
    )


class _PassThroughArgs(ArgModelBase):
    """Accept any arguments unchanged; validate_order checks them against its hand-written schema itself."""

    model_config = ConfigDict(extra="allow", arbitrary_types_allowed=True)

    def model_dump_one_level(self) -> dict[str, Any]:
        return {"arguments": dict(self.model_extra or {})}


async def validate_order(arguments: dict[str, Any]) -> CallToolResult:
    """Validate an order against a hand-written JSON Schema (draft 2020-12) on the server side.

    Returns isError with every violation, or the accepted order as structured JSON text.
    """
    from jsonschema import Draft202012Validator, FormatChecker

    validator = Draft202012Validator(ORDER_SCHEMA, format_checker=FormatChecker())
    errors = sorted(validator.iter_errors(arguments), key=lambda err: list(err.absolute_path))
    if errors:
        lines = [f"- {'/'.join(str(p) for p in err.absolute_path) or '(root)'}: {err.message}" for err in errors]
        return CallToolResult(content=[TextContent(text="Order rejected:\n" + "\n".join(lines))], is_error=True)
    total = sum(line.get("quantity", 1) * line["unit_price"] for line in arguments["lines"])
    return CallToolResult(
        content=[TextContent(text=json.dumps({"accepted": True, "total": round(total, 2), "order": arguments}))]
    )


def build_static_tools() -> list[Tool]:
    """Tools the ``MCPServer`` decorators cannot express, built by hand and passed as ``MCPServer(tools=...)``.

    * ``bad_structured`` advertises an outputSchema its result does not match. ``MCPServer`` derives
      outputSchema from a return annotation and then *validates* every result against it (a mismatch becomes an
      isError result), so the schema is attached to the tool's metadata without an output model: the SDK
      publishes it but does not validate it, and the mismatching structuredContent reaches the wire.
    * ``validate_order`` publishes a hand-written inputSchema (constructs pydantic never generates) and accepts
      any arguments, validating them itself.
    """
    bad = Tool.from_function(
        bad_structured,
        title="Bad structured output",
        annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
        structured_output=False,
    )
    bad.fn_metadata.output_schema = dict(_BAD_OUTPUT_SCHEMA)
    order = Tool(
        fn=validate_order,
        name="validate_order",
        title="Validate order (hand-written schema)",
        description=validate_order.__doc__ or "",
        parameters=ORDER_SCHEMA,
        fn_metadata=FuncMetadata(arg_model=_PassThroughArgs),
        is_async=True,
        context_kwarg=None,
        annotations=_READ_ONLY,
        icons=icon("tool"),
    )
    return [bad, order]


# --- decorator-registered tools ---------------------------------------------------------------------------


def register_basic_tools(server: MCPServer[Any]) -> None:
    @server.tool(
        title="Echo",
        annotations=ToolAnnotations(
            title="Echo", read_only_hint=True, idempotent_hint=True, destructive_hint=False, open_world_hint=False
        ),
        icons=icon("tool"),
        meta={"inspector.demo/category": "basics"},
        structured_output=False,
    )
    async def echo(message: Annotated[str, Field(description="Text to send back unchanged")]) -> str:
        """Return the message unchanged (fast; used by benchmarks)."""
        return message

    @server.tool(title="Add two numbers", annotations=_READ_ONLY)
    async def add(
        a: Annotated[float, Field(description="First addend")],
        b: Annotated[float, Field(description="Second addend")],
    ) -> Annotated[CallToolResult, AddResult]:
        """Add two numbers; the sum comes back as text and as structuredContent {"sum": ...}."""
        total = a + b
        return CallToolResult(content=[TextContent(text=_format_number(total))], structured_content={"sum": total})

    @server.tool(
        title="Get weather",
        annotations=ToolAnnotations(read_only_hint=True, idempotent_hint=False, open_world_hint=True),
        icons=icon("weather"),
    )
    async def get_weather(
        city: Annotated[str, Field(description="City name", min_length=1, examples=["Amsterdam", "Lagos"])],
        units: Annotated[Literal["metric", "imperial"], Field(description="Unit system")] = "metric",
    ) -> WeatherReport:
        """Made-up but deterministic weather for a city, with an outputSchema and structuredContent."""
        rng = random.Random(city.strip().lower())
        conditions = ("sunny", "cloudy", "rain", "snow", "fog", "storm")
        celsius = round(rng.uniform(-10, 35), 1)

        def to_units(celsius: float) -> float:
            return celsius if units == "metric" else round(celsius * 9 / 5 + 32, 1)

        today = datetime.date.today()
        forecast = []
        for offset in range(1, 4):
            high = celsius + rng.uniform(0, 6)
            forecast.append(
                {
                    "date": today + datetime.timedelta(days=offset),
                    "high": round(to_units(high), 1),
                    "low": round(to_units(high - rng.uniform(3, 10)), 1),
                    "conditions": rng.choice(conditions),
                }
            )
        return WeatherReport.model_validate(
            {
                "city": city,
                "temperature": to_units(celsius),
                "units": units,
                "conditions": rng.choice(conditions),
                "humidity": rng.randint(20, 100),
                "wind_kph": round(rng.uniform(0, 60), 1),
                "observed_at": datetime.datetime.now(datetime.UTC).replace(microsecond=0),
                "forecast": forecast,
            }
        )

    @server.tool(title="Business failure (isError)", annotations=_READ_ONLY)
    async def business_error(
        reason: Annotated[str, Field(description="Why the operation fails")] = "Insufficient funds",
    ) -> CallToolResult:
        """Always fails the way a tool should: a normal result with isError=true (not a JSON-RPC error)."""
        return CallToolResult(content=[TextContent(text=f"Payment declined: {reason}")], is_error=True)

    @server.tool(title="Protocol error (JSON-RPC error)", annotations=_READ_ONLY)
    async def protocol_error(
        code: Annotated[int, Field(description="JSON-RPC error code to answer with")] = -32000,
        message: Annotated[str, Field(description="Error message")] = "Something went wrong in the server",
    ) -> str:
        """Answers with a JSON-RPC error response instead of a result (contrast with business_error)."""
        raise MCPError(code=code, message=message, data={"tool": "protocol_error", "hint": "this is deliberate"})

    @server.tool(
        title="Create calendar event (rich schema)",
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False),
        icons=icon("tool"),
        structured_output=False,
    )
    async def create_event(
        title: Annotated[str, Field(description="Event title", min_length=1, max_length=120)],
        date: Annotated[datetime.date, Field(description="Day of the event (format: date)")],
        starts_at: Annotated[datetime.datetime, Field(description="Start time (format: date-time)")],
        organizer_email: Annotated[Email, Field(description="Organizer's e-mail (format: email)")],
        location: Annotated[
            Location | OnlineMeeting,
            Field(description="Where it happens: a discriminated oneOf of two object shapes", discriminator="kind"),
        ],
        attendees: Annotated[list[Attendee], Field(description="Invitees (array of objects)", min_length=1)],
        duration_hours: Annotated[float, Field(gt=0, le=24, multiple_of=0.25, description="0 < hours ≤ 24")] = 1.0,
        website: Annotated[AnyUrl | None, Field(description="Event page (format: uri, nullable)")] = None,
        priority: Annotated[Priority, Field(description="Enum with titles (oneOf const+title)")] = "normal",
        visibility: Annotated[Visibility, Field(description="Plain enum behind $ref")] = Visibility.INTERNAL,
        all_day: Annotated[bool, Field(description="Ignore the time of day")] = False,
        send_invites: Annotated[bool, Field(description="E-mail the attendees")] = True,
        capacity: Annotated[int, Field(ge=1, le=500, description="Integer between 1 and 500")] = 20,
        price: Annotated[float, Field(ge=0, lt=10000, multiple_of=0.01, description="0 ≤ price < 10000")] = 0.0,
        tags: Annotated[tuple[str, ...], Field(description="Array of strings, at most 10", max_length=10)] = ("demo",),
        channels: Annotated[tuple[Channel, ...], Field(description="Array of enums")] = ("email",),
        reminders: Annotated[
            list[EmailReminder | SmsReminder | PushReminder] | None,
            Field(description="anyOf of object shapes inside an array; nullable"),
        ] = None,
        recurrence: Annotated[Recurrence | None, Field(description="Nested object, nullable")] = None,
        notes: Annotated[str | None, Field(description="Nullable string (anyOf [string, null])")] = None,
        labels: Annotated[dict[str, str] | None, Field(description="Map of string to string")] = None,
    ) -> str:
        """Pretend to create an event; echoes back the validated arguments. Exercises every schema construct."""
        event = {
            "title": title,
            "date": date.isoformat(),
            "starts_at": starts_at.isoformat(),
            "duration_hours": duration_hours,
            "organizer_email": organizer_email,
            "location": location.model_dump(mode="json"),
            "attendees": [a.model_dump(mode="json") for a in attendees],
            "website": str(website) if website is not None else None,
            "priority": priority,
            "visibility": visibility.value,
            "all_day": all_day,
            "send_invites": send_invites,
            "capacity": capacity,
            "price": price,
            "tags": list(tags),
            "channels": list(channels),
            "reminders": [r.model_dump(mode="json") for r in reminders or []],
            "recurrence": recurrence.model_dump(mode="json") if recurrence is not None else None,
            "notes": notes,
            "labels": labels or {},
        }
        return json.dumps({"created": True, "event": event}, ensure_ascii=False, indent=2)

    @server.tool(title="Large result", annotations=_READ_ONLY, structured_output=False)
    async def large_result(
        kilobytes: Annotated[
            int, Field(ge=1, le=102_400, description="Approximate size of the text in KiB (max 100 MiB)")
        ] = 100,
        shape: Annotated[Literal["text", "json"], Field(description="Plain lines or one JSON document")] = "text",
    ) -> str:
        """A big text result for testing how the client renders large payloads."""
        target = kilobytes * 1024
        if shape == "json":
            rows: list[str] = []
            size = 2
            index = 0
            while size < target:
                # Formatted directly (not json.dumps per row) so a 50 MiB document takes about a second.
                ok = "true" if index % 2 == 0 else "false"
                row = f'{{"index": {index}, "name": "row {index}", "value": {index * 0.5}, "ok": {ok}}}'
                rows.append(row)
                size += len(row) + 2
                index += 1
            return "[" + ", ".join(rows) + "]"
        line = "The quick brown fox jumps over the lazy dog. "
        lines = [f"{i:08d} {line}" for i in range(target // (len(line) + 10) + 1)]
        return "\n".join(lines)[:target]
