"""RFC 6570 URI templates of ``resources/templates/list``: their variables, expansion, preview, completion.

Parsing and expansion are done by the ``uritemplate`` library; this module adds what a form needs: one
``TemplateVariable`` per variable (with the expression's operator, so the form can say whether ``/`` is kept
or whether the variable is an optional query parameter), a preview that leaves unfilled required variables
visible as ``{name}``, and the ``completion/complete`` request pieces (reference, context, parsed result).

A value left empty is *undefined* in RFC 6570 terms: simple and reserved expressions expand to nothing and
query-style ones are omitted. Values of exploded variables (``{/path*}``, ``{?list*}``) are split on commas.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from uritemplate import URITemplate
from uritemplate.variable import URIVariable, VariableValueDict

__all__ = [
    "CompletionResult",
    "TemplateError",
    "TemplateVariable",
    "UriTemplate",
    "completion_context",
    "parse_completion",
    "template_reference",
]

_EXPRESSION: Final = re.compile(r"\{([^{}]*)\}")
_REQUIRED_OPERATORS: Final = frozenset(("", "+"))
"""Operators whose expansion sits inside the path: without a value the URI is not the intended one."""

_OPERATOR_HINTS: Final = {
    "": "simple expansion: reserved characters such as / ? # are percent-encoded",
    "+": "reserved expansion: / ? # and other reserved characters are kept as typed",
    "#": "fragment expansion: adds #value",
    ".": "label expansion: adds .value",
    "/": "path segment: adds /value (omitted when empty)",
    ";": "path parameter: adds ;name=value (omitted when empty)",
    "?": "query parameter: adds ?name=value (omitted when empty)",
    "&": "query continuation: adds &name=value (omitted when empty)",
}


class TemplateError(ValueError):
    """A URI template that cannot be parsed (the message says why)."""


@dataclass(frozen=True, slots=True)
class TemplateVariable:
    """One variable of a template, with the expression it appears in."""

    name: str
    operator: str = ""
    explode: bool = False
    prefix: int | None = None

    @property
    def required(self) -> bool:
        """Simple and reserved expressions need a value for the URI to make sense; the others may be omitted."""
        return self.operator in _REQUIRED_OPERATORS

    @property
    def hint(self) -> str:
        """One line about how the value is expanded (for help texts and tooltips)."""
        parts = [_OPERATOR_HINTS.get(self.operator, f"operator {self.operator!r}")]
        if self.prefix is not None:
            parts.append(f"only the first {self.prefix} characters are used")
        if self.explode:
            parts.append("several values may be given, separated by commas")
        return "; ".join(parts)


@dataclass(frozen=True, slots=True)
class CompletionResult:
    """A parsed ``completion/complete`` result; ``problem`` is set when the result was malformed."""

    values: tuple[str, ...] = ()
    total: int | None = None
    has_more: bool = False
    problem: str | None = None


class UriTemplate:
    """A parsed RFC 6570 template. Raises ``TemplateError`` for templates that cannot be parsed."""

    def __init__(self, template: str) -> None:
        self.template = template
        _check_braces(template)
        try:
            self._parsed = URITemplate(template)
        except (ValueError, IndexError) as exc:
            raise TemplateError(f"invalid URI template {template!r}: {exc}") from None
        seen: dict[str, TemplateVariable] = {}
        for expression in self._parsed.variables:
            operator = expression.operator.value
            for name, options in expression.variables:
                if not name:
                    raise TemplateError(f"invalid URI template {template!r}: an expression has an empty name")
                if name not in seen:
                    seen[name] = TemplateVariable(name, operator, bool(options.get("explode")), options.get("prefix"))
        self.variables: tuple[TemplateVariable, ...] = tuple(seen.values())

    @property
    def names(self) -> list[str]:
        return [v.name for v in self.variables]

    def variable(self, name: str) -> TemplateVariable | None:
        return next((v for v in self.variables if v.name == name), None)

    def missing(self, values: Mapping[str, str]) -> list[str]:
        """Required variables without a value."""
        return [v.name for v in self.variables if v.required and not values.get(v.name)]

    def is_complete(self, values: Mapping[str, str]) -> bool:
        return not self.missing(values)

    def expand(self, values: Mapping[str, str]) -> str:
        """The URI for these values (empty values are undefined and expand to nothing)."""
        return self._parsed.expand(self._defined(values))

    def preview(self, values: Mapping[str, str]) -> str:
        """Like ``expand``, but expressions with an unfilled required variable stay visible as ``{…}``."""
        defined = self._defined(values)
        expressions = iter(self._parsed.variables)

        def replace(match: re.Match[str]) -> str:
            expression: URIVariable = next(expressions)
            if expression.operator.value in _REQUIRED_OPERATORS and not any(
                n in defined for n in expression.variable_names
            ):
                return match.group(0)
            return expression.expand(defined).get(expression.original) or ""

        return _EXPRESSION.sub(replace, self.template)

    def _defined(self, values: Mapping[str, str]) -> VariableValueDict:
        out: VariableValueDict = {}
        for variable in self.variables:
            value = values.get(variable.name)
            if not value:
                continue
            if variable.explode:
                out[variable.name] = [part.strip() for part in value.split(",") if part.strip()]
            else:
                out[variable.name] = value
        return out


def _check_braces(template: str) -> None:
    depth = 0
    for position, char in enumerate(template):
        if char == "{":
            depth += 1
            if depth > 1:
                raise TemplateError(f"invalid URI template {template!r}: nested '{{' at {position}")
        elif char == "}":
            depth -= 1
            if depth < 0:
                raise TemplateError(f"invalid URI template {template!r}: unmatched '}}' at {position}")
    if depth:
        raise TemplateError(f"invalid URI template {template!r}: unclosed '{{'")
    if "{}" in template:
        raise TemplateError(f"invalid URI template {template!r}: empty expression '{{}}'")


def template_reference(template: str) -> dict[str, str]:
    """The ``ref`` of a ``completion/complete`` request for a resource template."""
    return {"type": "ref/resource", "uri": template}


def completion_context(values: Mapping[str, str], exclude: str) -> dict[str, Any] | None:
    """The ``context`` of a completion request: the other arguments already filled (None when there are none)."""
    arguments = {name: value for name, value in values.items() if name != exclude and value}
    return {"arguments": arguments} if arguments else None


def parse_completion(result: Any) -> CompletionResult:
    """Read ``{"completion": {"values": [...], "total"?, "hasMore"?}}`` leniently (bad values are skipped)."""
    completion = result.get("completion") if isinstance(result, dict) else None
    if not isinstance(completion, dict):
        return CompletionResult(problem='the result has no "completion" object')
    raw = completion.get("values")
    if not isinstance(raw, list):
        return CompletionResult(problem='"completion.values" is not an array')
    values = tuple(v for v in raw if isinstance(v, str))
    total = completion.get("total")
    problem = None if len(values) == len(raw) else "some completion values are not strings (ignored)"
    return CompletionResult(
        values=values,
        total=total if isinstance(total, int) and not isinstance(total, bool) else None,
        has_more=completion.get("hasMore") is True,
        problem=problem,
    )
