"""Synthesise a value for a JSON Schema (no Qt): tool arguments for the probe, answers for headless runs.

Each node gets, in order: what the caller's ``hint`` proposes, its ``default``, its first ``examples`` entry
(or OpenAPI ``example``), its ``const``, its first ``enum`` member, else a minimal valid value honouring
``type`` (first non-null one), ``format``, ``minimum``/``maximum`` (exclusive too) and ``multipleOf``,
``minLength``/``maxLength``, simple ``pattern``s, ``minItems``/``uniqueItems``/``prefixItems``/``contains``,
``required``/``minProperties``/``dependentRequired`` and local ``$ref``/``$defs``, folding ``allOf`` and
trying the branches of ``oneOf``/``anyOf`` in order. Optional properties are left out unless they declare a
default. The result is then validated with ``jsonschema`` and repaired from the errors where it can be
(``if``/``then``/``else`` and ``anyOf`` of ``required`` lists, ``additionalProperties: false``...); what
cannot be satisfied is reported in :attr:`Synthesis.errors`, never raised.
"""

from __future__ import annotations

import importlib
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from inspector.schema.refs import RefError, Resolver, merge_all_of
from inspector.schema.validate import SchemaValidator, format_checker

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

__all__ = ["NO_HINT", "Hint", "Synthesis", "sample_for_pattern", "synthesize", "synthesize_arguments"]

Path = tuple[str | int, ...]
NO_HINT: Final = object()
"""What a :data:`Hint` returns to let the synthesiser choose."""
Hint = Callable[[Path, Mapping[str, Any]], Any]
"""``hint(path, schema)``: a value for the node at ``path`` (schema already dereferenced), or ``NO_HINT``."""

MAX_DEPTH: Final = 16
_REPAIR_ROUNDS: Final = 12
# fmt: off
_FORMAT_SAMPLES: Final = {
    "email": "user@example.com", "idn-email": "user@example.com", "hostname": "example.com",
    "idn-hostname": "example.com", "uri": "https://example.com", "iri": "https://example.com",
    "url": "https://example.com", "uri-reference": "https://example.com", "iri-reference": "https://example.com",
    "uri-template": "https://example.com/{id}", "date": "2025-01-01", "date-time": "2025-01-01T00:00:00Z",
    "time": "00:00:00Z", "duration": "P1D", "uuid": "00000000-0000-4000-8000-000000000000", "ipv4": "127.0.0.1",
    "ipv6": "::1", "json-pointer": "/", "relative-json-pointer": "0", "regex": ".*",
}
# fmt: on
_REGENERATE: Final = frozenset(
    (
        "type",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "multipleOf",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minItems",
        "uniqueItems",
        "contains",
    )
)  # fmt: skip
_STRING_KEYS: Final = ("minLength", "maxLength", "pattern", "format")
_NUMBER_KEYS: Final = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
_ARRAY_KEYS: Final = ("items", "prefixItems", "minItems", "maxItems", "contains", "uniqueItems")
_OBJECT_KEYS: Final = ("properties", "required", "additionalProperties", "minProperties", "patternProperties")


@dataclass(frozen=True, slots=True)
class Synthesis:
    value: Any
    errors: tuple[str, ...] = ()
    """Validation problems the value still has (empty: it is valid against the schema)."""
    notes: tuple[str, ...] = ()
    """What the synthesiser could not honour (an unsupported pattern, a recursive ``$ref``...)."""

    @property
    def valid(self) -> bool:
        return not self.errors


# --- patterns -----------------------------------------------------------------------------------------------

# Patterns are parsed with the standard library's own regex parser (``re._parser``, private but unchanged
# from 3.11 to 3.13). Should it change, every pattern just counts as not simple enough: the sample is then
# a plain string and validation reports the mismatch.
_CATEGORY_SAMPLES: Final = {"DIGIT": "0", "WORD": "a", "SPACE": " ", "NOT_DIGIT": "a", "NOT_WORD": "-"}
_CANDIDATES: Final = "aA0x_-. "


def _in_class(char: str, members: list[tuple[Any, Any]]) -> bool:
    for op, av in members:
        name = str(op)
        if (name == "LITERAL" and chr(av) == char) or (name == "RANGE" and av[0] <= ord(char) <= av[1]):
            return True
        if name == "CATEGORY":
            kind = str(av).removeprefix("CATEGORY_")
            tests = {"DIGIT": char.isdigit(), "WORD": char.isalnum() or char == "_", "SPACE": char.isspace()}
            negated = kind.startswith("NOT_")
            if tests.get(kind.removeprefix("NOT_"), False) != negated:
                return True
    return False


def _sample(items: Any) -> str:
    out: list[str] = []
    for op, av in items:
        name = str(op)
        if name == "LITERAL":
            out.append(chr(av))
        elif name in ("NOT_LITERAL", "ANY"):
            out.append("b" if name == "NOT_LITERAL" and av == ord("a") else "a")
        elif name == "IN":
            members = list(av)
            if members and str(members[0][0]) == "NEGATE":
                out.append(next(c for c in _CANDIDATES if not _in_class(c, members[1:])))
            else:
                out.append(
                    next(c for c in _CANDIDATES + "".join(_first_member(m) for m in members) if _in_class(c, members))
                )
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            out.append(_sample(av[2]) * av[0])
        elif name in ("SUBPATTERN", "ATOMIC_GROUP"):
            out.append(_sample(av[-1] if name == "SUBPATTERN" else av))
        elif name == "BRANCH":
            out.append(_sample(av[1][0]))
        elif name not in ("AT", "ASSERT", "ASSERT_NOT"):  # anchors and lookarounds add no characters
            raise ValueError(f"unsupported regex construct {name}")
    return "".join(out)


def _first_member(member: tuple[Any, Any]) -> str:
    op, av = str(member[0]), member[1]
    if op == "LITERAL":
        return str(chr(av))
    if op == "RANGE":
        return str(chr(av[0]))
    return _CATEGORY_SAMPLES.get(str(av).removeprefix("CATEGORY_"), "")


def sample_for_pattern(pattern: str) -> str | None:
    """A short string ``re.search(pattern, s)`` accepts, or None when the pattern is not simple enough."""
    try:
        parser = importlib.import_module("re._parser")
        sample = _sample(parser.parse(pattern))
        return sample if re.search(pattern, sample) else None
    except Exception:  # an unsupported construct, an invalid pattern, a changed parser: no sample
        return None


# --- the synthesiser -----------------------------------------------------------------------------------------


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _infer_type(schema: Mapping[str, Any]) -> str | None:
    declared = schema.get("type")
    if isinstance(declared, str):
        return declared
    if isinstance(declared, list):
        names = [t for t in declared if isinstance(t, str)]
        return next((t for t in names if t != "null"), names[0] if names else None)
    for keys, name in ((_OBJECT_KEYS, "object"), (_ARRAY_KEYS, "array"), (_STRING_KEYS, "string")):
        if any(key in schema for key in keys):
            return name
    return "number" if any(key in schema for key in _NUMBER_KEYS) else None


def _get_at(root: Any, path: Path) -> Any:
    for part in path:
        root = root[part]
    return root


def _set_at(root: Any, path: Path, value: Any) -> Any:
    if not path:
        return value
    _get_at(root, path[:-1])[path[-1]] = value
    return root


class _Synth:
    def __init__(self, root: Any, hint: Hint | None) -> None:
        self.root = root
        self.resolver = Resolver(root)
        self.hint = hint
        self.notes: list[str] = []
        self.objects: dict[Path, Mapping[str, Any]] = {}
        checker = SchemaValidator(root if isinstance(root, Mapping | bool) else {})
        self.validator: Any = checker.validator_class(root, format_checker=format_checker())

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def resolve(self, schema: Any, refs: tuple[str, ...]) -> tuple[Any, tuple[str, ...]]:
        schema, refs = self.resolver.deref(schema, refs)
        if isinstance(schema, Mapping) and isinstance(schema.get("allOf"), list):
            merged, refs = merge_all_of(schema, self.resolver, refs)
            if merged is None:
                self.note("allOf branches that cannot be combined: the first branch was used")
                first = schema["allOf"][0] if schema["allOf"] else {}
                return self.resolve({**{k: v for k, v in schema.items() if k != "allOf"}, **first}, refs)
            schema = merged
        return schema, refs

    def value(self, schema: Any, path: Path, refs: tuple[str, ...] = (), *, fresh: bool = False) -> Any:
        try:
            node, refs = self.resolve(schema, refs)
        except RefError as exc:
            self.note(f"{exc}: not expanded further")
            return {}
        if node is True or node is None:
            return ""
        if not isinstance(node, Mapping):
            return None
        if self.hint is not None and not fresh:
            hinted = self.hint(path, node)
            if hinted is not NO_HINT:
                return hinted
        if not fresh:
            if "default" in node:
                return node["default"]
            examples = node.get("examples")
            if isinstance(examples, list) and examples:
                return examples[0]
            if "example" in node:
                return node["example"]
        if "const" in node:
            return node["const"]
        enum = node.get("enum")
        if isinstance(enum, list) and enum:
            return next((member for member in enum if member is not None), enum[0])
        if len(path) > MAX_DEPTH:
            self.note(f"nested deeper than {MAX_DEPTH} levels: a minimal value was used")
            return {} if _infer_type(node) == "object" else ([] if _infer_type(node) == "array" else None)
        for key in ("oneOf", "anyOf"):
            branches = node.get(key)
            if isinstance(branches, list) and branches:
                return self.variant(node, key, branches, path, refs)
        return self.by_type(node, _infer_type(node), path, refs)

    def variant(self, node: Mapping[str, Any], key: str, branches: list[Any], path: Path, refs: tuple[str, ...]) -> Any:
        rest = {k: v for k, v in node.items() if k not in (key, "default", "examples", "example")}
        candidates = []
        nullish = [
            b for b in branches if isinstance(b, Mapping) and (b.get("type") == "null" or b.get("const", 0) is None)
        ]
        for branch in [b for b in branches if not any(b is n for n in nullish)] + nullish:
            merged = {**rest, **branch} if isinstance(branch, Mapping) else branch
            candidate = self.value(merged, path, refs, fresh=True)
            if self.fits(node, candidate):
                return candidate
            candidates.append(candidate)
        non_null = [c for c in candidates if c is not None]
        return non_null[0] if non_null else candidates[0]

    def fits(self, schema: Any, value: Any) -> bool:
        try:
            return bool(self.validator.evolve(schema=schema).is_valid(value))
        except Exception:  # an unusable subschema: let validation at the end report it
            return False

    def by_type(self, node: Mapping[str, Any], kind: str | None, path: Path, refs: tuple[str, ...]) -> Any:
        if kind == "object":
            return self.obj(node, path, refs)
        if kind == "array":
            return self.array(node, path, refs)
        if kind in ("integer", "number"):
            return self.number(node, integer=kind == "integer")
        if kind == "boolean":
            return False
        if kind == "null":
            return None
        return self.string(node)

    def obj(self, node: Mapping[str, Any], path: Path, refs: tuple[str, ...]) -> dict[str, Any]:
        self.objects[path] = node
        props: Mapping[str, Any] = node["properties"] if isinstance(node.get("properties"), Mapping) else {}
        required = [name for name in node.get("required") or [] if isinstance(name, str)]
        out: dict[str, Any] = {}
        for name in required:
            out[name] = self.value(self.property_schema(node, name), (*path, name), refs)
        for name, sub in props.items():
            if name in out:
                continue
            try:
                resolved, _ = self.resolve(sub, refs)
            except RefError:
                continue
            if isinstance(resolved, Mapping) and "default" in resolved:
                out[name] = self.value(sub, (*path, name), refs)
        minimum = node.get("minProperties")
        spare = iter([name for name in props if name not in out] + [f"key{i}" for i in range(1, 1000)])
        while isinstance(minimum, int) and len(out) < minimum:
            name = next(spare)
            if name not in out:
                out[name] = self.value(self.property_schema(node, name), (*path, name), refs)
        self.add_dependencies(node, out, path, refs)
        return out

    def add_dependencies(self, node: Mapping[str, Any], out: dict[str, Any], path: Path, refs: tuple[str, ...]) -> None:
        for key in ("dependentRequired", "dependencies"):
            deps = node.get(key)
            for owner, needed in deps.items() if isinstance(deps, Mapping) else ():
                for name in needed if owner in out and isinstance(needed, list) else ():
                    if isinstance(name, str) and name not in out:
                        out[name] = self.value(self.property_schema(node, name), (*path, name), refs)

    @staticmethod
    def property_schema(node: Mapping[str, Any], name: str) -> Any:
        props = node.get("properties")
        if isinstance(props, Mapping) and name in props:
            return props[name]
        patterns = node.get("patternProperties")
        if isinstance(patterns, Mapping):
            for pattern, sub in patterns.items():
                try:
                    if re.search(pattern, name):
                        return sub
                except re.error:
                    continue
        extra = node.get("additionalProperties")
        return extra if isinstance(extra, Mapping) else {}

    def array(self, node: Mapping[str, Any], path: Path, refs: tuple[str, ...]) -> list[Any]:
        prefix = node.get("prefixItems")
        items = node.get("items")
        if isinstance(items, list):  # draft-07 tuple form
            prefix, items = items, node.get("additionalItems")
        prefix = prefix if isinstance(prefix, list) else []
        wanted: int = node["minItems"] if isinstance(node.get("minItems"), int) else 0
        out: list[Any] = []
        for i in range(wanted):
            sub = prefix[i] if i < len(prefix) else (items if isinstance(items, Mapping | bool) else {})
            out.append(self.value(sub, (*path, i), refs))
        if node.get("uniqueItems") is True:
            out = self.distinct(out)
        contains = node.get("contains")
        if contains is not None and not any(self.fits(contains, item) for item in out):
            out.append(self.value(contains, (*path, len(out)), refs))
        return out

    @staticmethod
    def distinct(values: list[Any]) -> list[Any]:
        out: list[Any] = []
        for i, value in enumerate(values):
            if value in out and not isinstance(value, bool) and isinstance(value, int | float | str):
                value = value + i if isinstance(value, int | float) else f"{value}{i}"
            out.append(not value if value in out and isinstance(value, bool) else value)
        return out  # an enum of too few members, or objects: validation reports what is left

    def number(self, node: Mapping[str, Any], *, integer: bool) -> int | float:
        low, high = _number(node.get("minimum")), _number(node.get("maximum"))
        xlow, xhigh = node.get("exclusiveMinimum"), node.get("exclusiveMaximum")
        step = 1.0 if integer else 0.5
        if xlow is True and low is not None:  # draft-04 boolean form
            low, xlow = None, low
        if xhigh is True and high is not None:
            high, xhigh = None, high
        xl, xh = _number(xlow), _number(xhigh)
        value = 0.0
        if low is not None and value < low:
            value = low
        if xl is not None and value <= xl:
            value = xl + step if xh is None or xl + step < xh else (xl + xh) / 2
        if high is not None and value > high:
            value = high
        if xh is not None and value >= xh:
            value = xh - step if xl is None or xh - step > xl else (xl + xh) / 2
        multiple = _number(node.get("multipleOf"))
        if multiple:
            value = math.ceil(value / multiple) * multiple
        if integer:
            value = math.ceil(value)
        return int(value) if value == int(value) else value

    def string(self, node: Mapping[str, Any]) -> str:
        minimum: int = node["minLength"] if isinstance(node.get("minLength"), int) else 0
        maximum: int | None = node["maxLength"] if isinstance(node.get("maxLength"), int) else None
        pattern: str | None = node["pattern"] if isinstance(node.get("pattern"), str) else None
        text = _FORMAT_SAMPLES.get(str(node.get("format")), "")
        if pattern is not None and not (text and _searches(pattern, text)):
            sample = sample_for_pattern(pattern)
            if sample is None:
                self.note(f"pattern {pattern!r} is not simple enough to satisfy; a plain string was used")
            else:
                text = sample
        if len(text) < minimum:
            padded = text + "x" * (minimum - len(text))
            if pattern is not None and not _searches(pattern, padded):
                padded = (text or "x") * (minimum // max(len(text), 1) + 1)
            text = padded
        if maximum is not None and len(text) > maximum:
            text = text[:maximum]
        return text

    # --- repair ------------------------------------------------------------------------------------------

    def repair(self, value: Any) -> Any:
        tried: set[tuple[Path, str]] = set()
        for _ in range(_REPAIR_ROUNDS):
            try:
                errors = list(self.validator.iter_errors(value))
            except Exception:  # a broken schema: validation reports it
                return value
            changed = False
            for error in errors:
                for leaf in _leaves(error):
                    value, did = self.fix(value, leaf, tried)
                    changed = changed or did
            if not changed:
                break
        return value

    def fix(self, value: Any, error: ValidationError, tried: set[tuple[Path, str]]) -> tuple[Any, bool]:
        path: Path = tuple(error.absolute_path)
        try:
            target = _get_at(value, path)
        except (KeyError, IndexError, TypeError):
            return value, False
        kind = str(error.validator)
        if kind == "required" and isinstance(target, dict):
            node = self.objects.get(path, {})
            names = [n for n in error.validator_value if isinstance(n, str) and n not in target]
            if (path, f"required {names}") in tried:
                return value, False
            tried.add((path, f"required {names}"))
            for name in names:
                own = error.schema if isinstance(error.schema, Mapping) else {}
                sub = own.get("properties", {}).get(name) if isinstance(own.get("properties"), Mapping) else None
                target[name] = self.value(sub if sub is not None else self.property_schema(node, name), (*path, name))
            return value, bool(names)
        if kind == "additionalProperties" and error.validator_value is False and isinstance(target, dict):
            schema = error.schema if isinstance(error.schema, Mapping) else {}
            known = schema.get("properties", {}) if isinstance(schema.get("properties"), Mapping) else {}
            extras = [name for name in target if name not in known and self.property_schema(schema, name) == {}]
            for name in extras:
                del target[name]
            return value, bool(extras)
        key = (path, kind)
        if key in tried:
            return value, False
        tried.add(key)
        if kind == "const":
            return _set_at(value, path, error.validator_value), True
        if kind == "enum" and isinstance(error.validator_value, list) and error.validator_value:
            return _set_at(value, path, error.validator_value[0]), True
        if kind in _REGENERATE:
            fresh = self.value(error.schema, path, fresh=True)
            return _set_at(value, path, fresh), fresh != target
        return value, False


def _searches(pattern: str, text: str) -> bool:
    try:
        return re.search(pattern, text) is not None
    except re.error:
        return False


def _leaves(error: ValidationError) -> list[ValidationError]:
    """The errors to act on: for ``anyOf``/``oneOf``, those of the branch that is closest to passing."""
    if error.validator not in ("anyOf", "oneOf") or not error.context:
        return [error]
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0] if sub.relative_schema_path else 0, []).append(sub)
    best = min(branches.values(), key=len)
    return [leaf for sub in best for leaf in _leaves(sub)]


def synthesize(schema: Any, *, hint: Hint | None = None) -> Synthesis:
    """A value for ``schema``, repaired against validation errors where possible; never raises."""
    synth = _Synth(schema, hint)
    try:
        value = synth.repair(synth.value(schema, ()))
    except RecursionError:
        return Synthesis(None, ("the schema nests too deeply to synthesise a value",), tuple(synth.notes))
    errors = tuple(str(error) for error in SchemaValidator(schema).errors(value)) if isinstance(schema, Mapping) else ()
    return Synthesis(value, errors, tuple(synth.notes))


def synthesize_arguments(input_schema: Any, *, hint: Hint | None = None) -> Synthesis:
    """Tool arguments for ``input_schema``: always a JSON object (``{}`` when the schema gives no object)."""
    if not isinstance(input_schema, Mapping):
        return Synthesis({}, ("the inputSchema is not a JSON object",))
    result = synthesize(input_schema, hint=hint)
    if isinstance(result.value, dict):
        return result
    notes = (*result.notes, f"the schema does not describe an object; {{}} was sent instead of {result.value!r}")
    return Synthesis({}, result.errors, notes)
