"""The deliberately changed build of the demo server (``--variant changed``), for regression tests.

``apply_variant(server, "changed")`` edits a freshly built standard server in place; ``"standard"`` leaves it
alone. The changed build differs from the standard one by exactly these changes (the diff, the replay and the
collections tests each catch them):

Breaking
  * ``echo`` is renamed ``echo_message`` (same arguments, same result): the tool ``echo`` is removed.
  * ``get_weather`` gains a required argument ``country`` (string).
  * ``get_weather``'s outputSchema loses the property ``wind_kph`` (and its structuredContent the value).
  * ``large_result``'s argument ``shape`` loses the enum value ``"json"`` (only ``"text"`` is left).
  * ``create_event`` turns destructive (``annotations.destructiveHint`` false -> true).
  * ``add`` answers differently to the same call: its text content is ``"1 + 2 = 3"`` instead of ``"3"``
    (structuredContent ``{"sum": 3}`` unchanged) — invisible in a surface diff, caught by replay and collections.

Compatible
  * a new tool ``multiply`` (a, b -> a * b, structuredContent ``{"product": ...}``).
  * ``business_error`` gains an optional argument ``code`` (string, default ``"E_DECLINED"``; result unchanged).

Cosmetic
  * ``protocol_error``'s description changes.
  * ``business_error``'s title changes (``"Business failure (isError)"`` -> ``"Business failure"``).
"""

from __future__ import annotations

import datetime
from typing import Annotated, Any, Final, Literal, get_args

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from inspector.demo.schemas import ForecastDay

__all__ = ["DEFAULT_VARIANT", "VARIANTS", "Variant", "apply_variant"]

Variant = Literal["standard", "changed"]
VARIANTS: Final[tuple[Variant, ...]] = get_args(Variant)
DEFAULT_VARIANT: Final[Variant] = "standard"

RENAMED: Final = ("echo", "echo_message")
"""(old name, new name) of the renamed tool."""


class WeatherReportChanged(BaseModel):
    """``get_weather``'s structured result in the changed build: ``wind_kph`` is gone."""

    city: str
    country: str
    temperature: float = Field(description="Current temperature in the requested units")
    units: Literal["metric", "imperial"]
    conditions: Literal["sunny", "cloudy", "rain", "snow", "fog", "storm"]
    humidity: int = Field(ge=0, le=100, description="Relative humidity in percent")
    observed_at: datetime.datetime
    forecast: list[ForecastDay] = Field(description="The next three days")


class ProductResult(BaseModel):
    """The structured result of ``multiply``."""

    product: float = Field(description="a * b")


def apply_variant(server: MCPServer[Any], variant: Variant) -> None:
    """Turn the standard demo ``server`` into ``variant`` (nothing to do for ``"standard"``)."""
    if variant == "standard":
        return
    if variant != "changed":
        raise ValueError(f"unknown demo variant {variant!r}; expected one of {', '.join(VARIANTS)}")
    _rename_echo(server)
    _change_weather(server)
    _change_large_result(server)
    _change_add(server)
    _change_business_error(server)
    _change_annotations_and_descriptions(server)
    _add_multiply(server)


def _tool(server: MCPServer[Any], name: str) -> Any:
    tool = server._tool_manager.get_tool(name)
    if tool is None:  # pragma: no cover - the standard build always has it
        raise LookupError(f"the standard demo has no tool {name!r}")
    return tool


def _rename_echo(server: MCPServer[Any]) -> None:
    old, new = RENAMED
    echo = _tool(server, old)
    server.remove_tool(old)
    server.add_tool(
        echo.fn,
        name=new,
        title=echo.title,
        description=echo.description,
        annotations=echo.annotations,
        icons=echo.icons,
        meta=echo.meta,
        structured_output=False,
    )


def _change_weather(server: MCPServer[Any]) -> None:
    weather = _tool(server, "get_weather")
    original = weather.fn

    async def get_weather(
        city: Annotated[str, Field(description="City name", min_length=1, examples=["Amsterdam", "Lagos"])],
        country: Annotated[str, Field(description="Country of the city", min_length=1)],
        units: Annotated[Literal["metric", "imperial"], Field(description="Unit system")] = "metric",
    ) -> WeatherReportChanged:
        """Made-up but deterministic weather for a city, with an outputSchema and structuredContent."""
        report = (await original(city=city, units=units)).model_dump(mode="json")
        report.pop("wind_kph", None)
        return WeatherReportChanged.model_validate({**report, "country": country})

    server.remove_tool("get_weather")
    server.add_tool(
        get_weather, title=weather.title, annotations=weather.annotations, icons=weather.icons, meta=weather.meta
    )


def _change_large_result(server: MCPServer[Any]) -> None:
    large = _tool(server, "large_result")
    original = large.fn

    async def large_result(
        kilobytes: Annotated[
            int, Field(ge=1, le=102_400, description="Approximate size of the text in KiB (max 100 MiB)")
        ] = 100,
        shape: Annotated[Literal["text"], Field(description="Plain lines")] = "text",
    ) -> str:
        """A big text result for testing how the client renders large payloads."""
        text: str = await original(kilobytes=kilobytes, shape=shape)
        return text

    server.remove_tool("large_result")
    server.add_tool(large_result, title=large.title, annotations=large.annotations, structured_output=False)
    # pydantic publishes a one-value Literal as "const"; the point is an enum that lost a value.
    shape = _tool(server, "large_result").parameters["properties"]["shape"]
    shape.pop("const", None)
    shape["enum"] = ["text"]


def _change_add(server: MCPServer[Any]) -> None:
    add = _tool(server, "add")
    original = add.fn

    async def changed_add(a: float, b: float) -> Any:
        result: CallToolResult = await original(a=a, b=b)
        text = result.content[0].text if isinstance(result.content[0], TextContent) else ""
        return result.model_copy(update={"content": [TextContent(text=f"{_num(a)} + {_num(b)} = {text}")]})

    add.fn = changed_add


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() and abs(value) < 1e15 else repr(value)


def _change_business_error(server: MCPServer[Any]) -> None:
    failure = _tool(server, "business_error")

    async def business_error(
        reason: Annotated[str, Field(description="Why the operation fails")] = "Insufficient funds",
        code: Annotated[str, Field(description="A machine-readable failure code")] = "E_DECLINED",
    ) -> CallToolResult:
        """Always fails the way a tool should: a normal result with isError=true (not a JSON-RPC error)."""
        return CallToolResult(content=[TextContent(text=f"Payment declined: {reason}")], is_error=True)

    server.remove_tool("business_error")
    server.add_tool(business_error, title="Business failure", annotations=failure.annotations)


def _change_annotations_and_descriptions(server: MCPServer[Any]) -> None:
    event = _tool(server, "create_event")
    base = event.annotations or ToolAnnotations()
    event.annotations = base.model_copy(update={"destructive_hint": True})
    error = _tool(server, "protocol_error")
    error.description = "Answers every call with a JSON-RPC error response (compare business_error)."


def _add_multiply(server: MCPServer[Any]) -> None:
    async def multiply(
        a: Annotated[float, Field(description="First factor")],
        b: Annotated[float, Field(description="Second factor")],
    ) -> Annotated[CallToolResult, ProductResult]:
        """Multiply two numbers; the product comes back as text and as structuredContent {"product": ...}."""
        product = a * b
        return CallToolResult(content=[TextContent(text=_num(product))], structured_content={"product": product})

    server.add_tool(
        multiply,
        title="Multiply two numbers",
        annotations=ToolAnnotations(read_only_hint=True, idempotent_hint=True, destructive_hint=False),
    )
