"""Pydantic models whose JSON Schemas exercise every construct an inspector's argument form must render.

``create_event`` takes these as parameters, so its ``inputSchema`` contains: string formats (date, date-time,
email, uri), enums with titles (``oneOf`` of ``const`` + ``title``), plain enums behind ``$ref``/``$defs``,
numbers with minimum/maximum/exclusive bounds/multipleOf, booleans, arrays of scalars, arrays of enums, arrays
of objects, nested objects, a discriminated ``oneOf`` and a plain ``anyOf`` of object shapes, nullable fields
(``anyOf [T, null]``), defaults, required fields, descriptions and examples.
"""

import datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import AnyUrl, BaseModel, ConfigDict, Field, WithJsonSchema

__all__ = [
    "ORDER_SCHEMA",
    "Address",
    "Attendee",
    "Channel",
    "Email",
    "EmailReminder",
    "ForecastDay",
    "Location",
    "OnlineMeeting",
    "Priority",
    "PushReminder",
    "Recurrence",
    "SmsReminder",
    "Visibility",
    "WeatherReport",
]

Email = Annotated[
    str,
    Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$", examples=["ada@example.com"]),
    # pydantic's EmailStr needs the optional email-validator package; the schema is what the inspector reads.
    WithJsonSchema({"type": "string", "format": "email", "examples": ["ada@example.com"]}),
]

_PRIORITY_CHOICES: list[dict[str, Any]] = [
    {"const": "low", "title": "Low — whenever"},
    {"const": "normal", "title": "Normal"},
    {"const": "high", "title": "High — notify everyone"},
    {"const": "urgent", "title": "Urgent 🚨"},
]

Priority = Annotated[
    Literal["low", "normal", "high", "urgent"],
    # An enum whose options carry display titles: JSON Schema spells it as oneOf of const + title.
    WithJsonSchema({"type": "string", "title": "Priority", "oneOf": _PRIORITY_CHOICES, "default": "normal"}),
]


class Visibility(StrEnum):
    """Who can see the event (a plain enum, emitted once under $defs and referenced by $ref)."""

    PUBLIC = "public"
    INTERNAL = "internal"
    PRIVATE = "private"


Channel = Literal["email", "sms", "push", "slack"]


class Address(BaseModel):
    """A postal address (an object nested two levels deep)."""

    street: str = Field(description="Street and number", min_length=1, max_length=200)
    city: str = Field(description="City", min_length=1)
    postal_code: str | None = Field(None, description="Postal code, if any", pattern=r"^[A-Za-z0-9 -]{2,10}$")
    country: str = Field("NL", description="ISO 3166-1 alpha-2 country code", min_length=2, max_length=2)


class Location(BaseModel):
    """A physical venue."""

    kind: Literal["venue"] = "venue"
    name: str = Field(description="Venue name", examples=["Conference room B"])
    address: Address
    capacity: int | None = Field(None, ge=1, description="Seats available, when known")


class OnlineMeeting(BaseModel):
    """An online meeting link."""

    kind: Literal["online"] = "online"
    url: AnyUrl = Field(description="Join link")
    dial_in: str | None = Field(None, description="Optional phone dial-in number")


class Attendee(BaseModel):
    """Someone invited to the event (items of an array of objects)."""

    model_config = ConfigDict(title="Attendee")

    name: str = Field(description="Full name", min_length=1)
    email: Email = Field(description="Where the invitation goes")
    role: Literal["required", "optional", "organizer"] = Field("required", description="Attendance role")
    plus_ones: int = Field(0, ge=0, le=3, description="Guests this attendee may bring")


class EmailReminder(BaseModel):
    """Remind by e-mail."""

    method: Literal["email"] = "email"
    minutes_before: int = Field(30, ge=0, le=10080, multiple_of=5)
    subject: str | None = Field(None, max_length=120)


class SmsReminder(BaseModel):
    """Remind by text message."""

    method: Literal["sms"] = "sms"
    minutes_before: int = Field(15, ge=0, le=1440)
    phone: str = Field(description="E.164 phone number", pattern=r"^\+[1-9]\d{6,14}$", examples=["+31612345678"])


class PushReminder(BaseModel):
    """Remind with a push notification."""

    method: Literal["push"] = "push"
    minutes_before: int = Field(10, ge=0, le=1440)
    sound: bool = True


class Recurrence(BaseModel):
    """How the event repeats."""

    frequency: Literal["daily", "weekly", "monthly"] = "weekly"
    interval: int = Field(1, ge=1, le=52, description="Every N periods")
    weekdays: list[Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]] = Field(
        default_factory=list, description="Days of the week (weekly only)", max_length=7
    )
    until: datetime.date | None = Field(None, description="Last occurrence (inclusive); open-ended when null")


class WeatherReport(BaseModel):
    """The structured result of ``get_weather`` (its outputSchema)."""

    city: str
    temperature: float = Field(description="Current temperature in the requested units")
    units: Literal["metric", "imperial"]
    conditions: Literal["sunny", "cloudy", "rain", "snow", "fog", "storm"]
    humidity: int = Field(ge=0, le=100, description="Relative humidity in percent")
    wind_kph: float = Field(ge=0)
    observed_at: datetime.datetime
    forecast: list["ForecastDay"] = Field(description="The next three days")


class ForecastDay(BaseModel):
    date: datetime.date
    high: float
    low: float
    conditions: Literal["sunny", "cloudy", "rain", "snow", "fog", "storm"]


WeatherReport.model_rebuild()


# A hand-written JSON Schema (draft 2020-12) with constructs pydantic never emits, for ``validate_order``.
ORDER_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "title": "Order",
    "description": "A hand-written schema: $defs/$ref (including a recursive one), type arrays, const, "
    "prefixItems, patternProperties, dependentRequired, if/then, uniqueItems and exclusive bounds.",
    "$defs": {
        "sku": {"type": "string", "pattern": "^[A-Z]{3}-\\d{4}$", "examples": ["ABC-1234"]},
        "line": {
            "type": "object",
            "properties": {
                "sku": {"$ref": "#/$defs/sku"},
                "quantity": {"type": "integer", "minimum": 1, "maximum": 999, "default": 1},
                "unit_price": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.01},
                "gift": {"type": "boolean", "default": False},
            },
            "required": ["sku", "unit_price"],
            "additionalProperties": False,
        },
        "category": {
            "type": "object",
            "description": "A recursive tree of categories",
            "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/category"}},
            },
            "required": ["name"],
        },
    },
    "properties": {
        "order_id": {"type": "string", "format": "uuid", "description": "Client-chosen id (uuid)"},
        "kind": {"const": "order", "description": "Always the literal string 'order'"},
        "lines": {"type": "array", "items": {"$ref": "#/$defs/line"}, "minItems": 1, "maxItems": 20},
        "coupon": {"type": ["string", "null"], "default": None, "description": "Nullable via a type array"},
        "delivery": {
            "type": "string",
            "enum": ["standard", "express", "pickup"],
            "default": "standard",
        },
        "pickup_store": {"type": "string", "description": "Required when delivery is 'pickup'"},
        "card_number": {"type": "string", "pattern": "^\\d{12,19}$", "writeOnly": True},
        "cvv": {"type": "string", "pattern": "^\\d{3,4}$"},
        "geo": {
            "type": "array",
            "description": "A [latitude, longitude] tuple",
            "prefixItems": [
                {"type": "number", "minimum": -90, "maximum": 90},
                {"type": "number", "minimum": -180, "maximum": 180},
            ],
            "items": False,
        },
        "labels": {"type": "array", "items": {"type": "string", "minLength": 1}, "uniqueItems": True},
        "attributes": {
            "type": "object",
            "description": "Free-form attributes whose keys start with x-",
            "patternProperties": {"^x-": {"type": ["string", "number", "boolean"]}},
            "additionalProperties": False,
        },
        "category": {"$ref": "#/$defs/category"},
        "deliver_after": {"type": "string", "format": "date-time"},
        "contact": {"type": "string", "format": "email"},
        "website": {"type": "string", "format": "uri"},
    },
    "required": ["order_id", "kind", "lines"],
    "dependentRequired": {"card_number": ["cvv"]},
    "if": {"properties": {"delivery": {"const": "pickup"}}, "required": ["delivery"]},
    "then": {"required": ["pickup_store"]},
    "additionalProperties": False,
}
