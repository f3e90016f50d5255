"""Tool-schema portability lint: legal JSON Schema that many clients still cannot use (sans-I/O, pure).

A tool's ``inputSchema`` and ``outputSchema`` are handed by clients to model providers whose schema
dialects are narrower than JSON Schema. Four rules, the same as the official inspector CLI's ``--strict``
(same names, severities and paths, so reports from both line up):

=================  ========  ======================================================================
boolean-schema     error     a bare ``true``/``false`` where a schema object belongs (anywhere but the
                             boolean-valued ``additionalProperties``, ``unevaluatedProperties``,
                             ``additionalItems``, ``unevaluatedItems``)
type-union         warning   ``type`` is a list of distinct JSON Schema type names
remote-ref         warning   ``$ref`` to another document (not ``#...``), unless the schema embeds an
                             ``$id`` anywhere (the reference may then resolve inside the document)
untyped-schema     warning   a schema object with no keyword that constrains the value (``if`` counts
                             only with ``then`` or ``else``), except directly under ``not``
=================  ========  ======================================================================

Paths are relative to the schema (``properties.city``, ``anyOf[1]``, ``properties["first-name"]``; ``""``
is the schema itself) and :attr:`SchemaFinding.location` prefixes the schema's name
(``inputSchema.properties.city``). The walk goes at most 64 levels deep and visits object members in
JavaScript's order (integer-like keys first), as the official CLI does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, Literal

__all__ = [
    "MAX_DEPTH",
    "FindingSeverity",
    "Rule",
    "SchemaFinding",
    "SchemaName",
    "count_findings",
    "findings_by_tool",
    "lint_schema",
    "result_findings",
    "schema_findings",
    "summarize",
]

FindingSeverity = Literal["error", "warning"]
SchemaName = Literal["inputSchema", "outputSchema"]
MAX_DEPTH: Final = 64


class Rule(StrEnum):
    """The lint's rules, by the official CLI's names."""

    BOOLEAN_SCHEMA = "boolean-schema"
    TYPE_UNION = "type-union"
    REMOTE_REF = "remote-ref"
    UNTYPED_SCHEMA = "untyped-schema"

    @property
    def severity(self) -> FindingSeverity:
        return "error" if self is Rule.BOOLEAN_SCHEMA else "warning"


@dataclass(frozen=True, slots=True)
class SchemaFinding:
    """One portability problem in one tool's schema."""

    tool: str
    """The tool's name."""
    tool_index: int
    """Its position in tools/list (two entries may share a name)."""
    schema: SchemaName
    rule: Rule
    path: str
    """Where in the schema: ``""`` (the schema itself), ``properties.city``, ``anyOf[1]``..."""
    issue: str
    suggestion: str

    @property
    def severity(self) -> FindingSeverity:
        return self.rule.severity

    @property
    def location(self) -> str:
        """The path with the schema's name in front: ``inputSchema.properties.city``."""
        return f"{self.schema}.{self.path}" if self.path else self.schema

    def to_json(self) -> dict[str, str]:
        """The official report's finding object (``rule, severity, schema, path, issue, suggestion``)."""
        return {
            "rule": self.rule.value,
            "severity": self.severity,
            "schema": self.schema,
            "path": self.path,
            "issue": self.issue,
            "suggestion": self.suggestion,
        }


# --- where subschemas are ------------------------------------------------------------------------------

# keyword -> {name: schema}
_MAP_KEYWORDS: Final = ("properties", "patternProperties", "dependentSchemas", "dependencies", "$defs", "definitions")
# keyword -> [schema, ...]
_ARRAY_KEYWORDS: Final = ("allOf", "anyOf", "oneOf", "prefixItems")
# keyword -> schema (``items`` may also be a list: the tuple form of drafts before 2020-12)
_SINGLE_KEYWORDS: Final = (
    "items",
    "contains",
    "not",
    "propertyNames",
    "if",
    "then",
    "else",
    "additionalProperties",
    "unevaluatedProperties",
    "additionalItems",
    "unevaluatedItems",
    "contentSchema",
)
# where a bare boolean is the usual spelling (``additionalProperties: false``)
_BOOLEAN_VALUED: Final = frozenset(
    {"additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems"}
)
# keywords that constrain the value (assertions, applicators, references); ``if`` alone does not
_CONSTRAINING: Final = frozenset(
    {
        *("type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"),
        *("maxLength", "minLength", "pattern", "format", "contentMediaType", "contentEncoding", "contentSchema"),
        *("maxItems", "minItems", "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties"),
        *("required", "dependentRequired", "allOf", "anyOf", "oneOf", "not", "items", "prefixItems", "contains"),
        *("additionalItems", "unevaluatedItems", "properties", "patternProperties", "additionalProperties"),
        *("unevaluatedProperties", "propertyNames", "dependentSchemas", "dependencies"),
        *("$ref", "$dynamicRef", "$recursiveRef"),
    }
)
_TYPE_NAMES: Final = frozenset({"null", "boolean", "object", "array", "number", "string", "integer"})
_IDENTIFIER: Final = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_ARRAY_INDEX: Final = re.compile(r"0|[1-9][0-9]*")
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_MAX_ARRAY_INDEX: Final = 2**32 - 2

Visit = Callable[[Any, str, str], None]


def _js_string(text: str) -> str:
    """``JSON.stringify(text)``: as json.dumps without ASCII escaping, lone surrogates as ``\\udXXX``."""
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(text, ensure_ascii=False))


def _member_path(parent: str, key: str) -> str:
    if _IDENTIFIER.fullmatch(key):
        return f"{parent}.{key}" if parent else key
    return f"{parent}[{_js_string(key)}]"


def _js_order(keys: Iterable[str]) -> list[str]:
    """An object's keys as JavaScript enumerates them: array indices ascending, then the rest as inserted."""
    indices: list[str] = []
    others: list[str] = []
    for key in keys:
        is_index = _ARRAY_INDEX.fullmatch(key) is not None and int(key) <= _MAX_ARRAY_INDEX
        (indices if is_index else others).append(key)
    return sorted(indices, key=int) + others


def _each_subschema(node: Mapping[str, Any], path: str, visit: Visit) -> None:
    """Call ``visit(subschema, its path, the keyword it sits under)`` for each direct subschema."""
    for keyword in _MAP_KEYWORDS:
        members = node.get(keyword)
        if isinstance(members, dict):
            base = _member_path(path, keyword)
            for name in _js_order(members):
                visit(members[name], _member_path(base, name), keyword)
    for keyword in _ARRAY_KEYWORDS:
        entries = node.get(keyword)
        if isinstance(entries, list):
            base = _member_path(path, keyword)
            for i, entry in enumerate(entries):
                visit(entry, f"{base}[{i}]", keyword)
    for keyword in _SINGLE_KEYWORDS:
        if keyword not in node:
            continue
        value = node[keyword]
        base = _member_path(path, keyword)
        if keyword == "items" and isinstance(value, list):
            for i, entry in enumerate(value):
                visit(entry, f"{base}[{i}]", keyword)
        else:
            visit(value, base, keyword)


def _declares_id(node: Any, depth: int = 0) -> bool:
    """Whether the schema embeds a non-empty ``$id`` anywhere (then ``$ref`` may resolve inside it)."""
    if depth > MAX_DEPTH or not isinstance(node, dict):
        return False
    if isinstance(node.get("$id"), str) and node["$id"]:
        return True
    found = [False]

    def visit(child: Any, _path: str, _keyword: str) -> None:
        if not found[0]:
            found[0] = _declares_id(child, depth + 1)

    _each_subschema(node, "", visit)
    return found[0]


# --- what each rule says ------------------------------------------------------------------------------

_DECLARE_IT: Final = 'Say what the value is, e.g. `{"type": "object", "additionalProperties": true}` for any object'


def _boolean_text(value: bool, keyword: str | None) -> tuple[str, str]:
    issue = f"A bare `{'true' if value else 'false'}` stands where a schema object belongs."
    if not value:
        return issue, (
            'Write `{"not": {}}`, the object spelling of `false`. (Removing the entry is not the same: with the '
            "default `additionalProperties` the property would then be allowed with any value instead of forbidden.)"
        )
    if keyword == "not":
        return issue, (
            "Write `{}`, the object spelling of `true`; under `not` it means exactly the same. (A concrete type "
            "here would let every value of the other types through.)"
        )
    return issue, f"{_DECLARE_IT}. This narrows the contract on purpose: `true` accepts every JSON value."


def _type_union_text(types: Sequence[str]) -> tuple[str, str]:
    listed = json.dumps(list(types), separators=(",", ":"))
    branches = ", ".join(f'{{"type": "{t}"}}' for t in types)
    issue = (
        f"`type` is a list ({listed}). JSON Schema allows it, and some model providers suggest it for nullable "
        "values, but a client that maps tool schemas onto a dialect with one `type` per schema (such as the "
        "OpenAPI subset of Gemini function declarations) may reject the tool or lose the constraint."
    )
    suggestion = (
        f'Use one `anyOf` branch per type: `{{"anyOf": [{branches}]}}`. (Making the property optional instead '
        "changes its meaning: a missing value is not `null`.)"
    )
    if "null" in types:
        suggestion += (
            " Dialects without a `null` type, such as OpenAPI 3.0, still cannot say the `null` branch: they write "
            "`nullable: true`, which is not JSON Schema, so no spelling suits both."
        )
    return issue, suggestion


def _remote_ref_text(ref: str) -> tuple[str, str]:
    return (
        f"`$ref` refers to another document (`{ref}`). Clients do not download schemas, so they drop the "
        "constraint or reject the tool.",
        "Copy the referenced schema in place, or put it under `$defs` and refer to it as `#/$defs/<name>`.",
    )


_UNTYPED_TEXT: Final = (
    "The schema has no validation keyword, so any value passes: it is a bare `true` written as an object.",
    f"{_DECLARE_IT}. That changes the contract on purpose: as written it constrains nothing.",
)


# --- the walk -----------------------------------------------------------------------------------------

Raw = tuple[Rule, str, str, str]
"""(rule, path, issue, suggestion)"""


def _is_type_union(value: list[Any]) -> bool:
    return bool(value) and all(isinstance(t, str) and t in _TYPE_NAMES for t in value) and len(set(value)) == len(value)


def _constrains(node: Mapping[str, Any]) -> bool:
    if any(key in _CONSTRAINING for key in node):
        return True
    return "if" in node and ("then" in node or "else" in node)


def _check_node(node: Mapping[str, Any], path: str, keyword: str | None, has_ids: bool) -> Iterator[Raw]:
    types = node.get("type")
    if isinstance(types, list) and _is_type_union(types):
        yield (Rule.TYPE_UNION, path, *_type_union_text(types))
    ref = node.get("$ref")
    if isinstance(ref, str) and ref and not ref.startswith("#") and not has_ids:
        yield (Rule.REMOTE_REF, path, *_remote_ref_text(ref))
    if keyword != "not" and not _constrains(node):
        yield (Rule.UNTYPED_SCHEMA, path, *_UNTYPED_TEXT)


def _walk(node: Any, path: str, keyword: str | None, depth: int, has_ids: bool, out: list[Raw]) -> None:
    if depth > MAX_DEPTH:
        return
    if isinstance(node, bool):
        if keyword not in _BOOLEAN_VALUED:
            out.append((Rule.BOOLEAN_SCHEMA, path, *_boolean_text(node, keyword)))
        return
    if not isinstance(node, dict):
        return  # not a schema at all: that is the protocol validation's business, not portability's
    out.extend(_check_node(node, path, keyword, has_ids))
    _each_subschema(node, path, lambda child, where, kw: _walk(child, where, kw, depth + 1, has_ids, out))


def lint_schema(schema: Any) -> list[Raw]:
    """Every finding in one schema, in the official order: a node's own, then its subschemas'."""
    out: list[Raw] = []
    _walk(schema, "", None, 0, _declares_id(schema), out)
    return out


def schema_findings(tools: Any) -> list[SchemaFinding]:
    """The findings for a tools/list ``tools`` array (anything else: none). Entries that are not objects
    with a string ``name`` are skipped; an absent schema is not linted."""
    findings: list[SchemaFinding] = []
    for index, tool in enumerate(tools if isinstance(tools, list) else []):
        if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
            continue
        which: SchemaName
        for which in ("inputSchema", "outputSchema"):
            if which not in tool:
                continue
            for rule, path, issue, suggestion in lint_schema(tool[which]):
                findings.append(SchemaFinding(tool["name"], index, which, rule, path, issue, suggestion))
    return findings


def result_findings(result: Any) -> list[SchemaFinding]:
    """The findings for a whole tools/list result (``{"tools": [...]}``)."""
    return schema_findings(result.get("tools") if isinstance(result, dict) else None)


def findings_by_tool(findings: Iterable[SchemaFinding]) -> list[dict[str, Any]]:
    """The official JSON shape: ``[{"toolName": ..., "findings": [finding, ...]}, ...]``, one per tool entry."""
    groups: dict[int, dict[str, Any]] = {}
    for finding in findings:
        group = groups.setdefault(finding.tool_index, {"toolName": finding.tool, "findings": []})
        group["findings"].append(finding.to_json())
    return list(groups.values())


def count_findings(findings: Sequence[SchemaFinding]) -> tuple[int, int, int]:
    """(errors, warnings, tools with findings)."""
    errors = sum(1 for f in findings if f.severity == "error")
    return errors, len(findings) - errors, len({f.tool_index for f in findings})


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def summarize(findings: Sequence[SchemaFinding]) -> str:
    """``2 errors, 1 warning across 3 tools`` (the official count's wording)."""
    errors, warnings, tools = count_findings(findings)
    return f"{_plural(errors, 'error')}, {_plural(warnings, 'warning')} across {_plural(tools, 'tool')}"
