"""Collection files: a stable round trip, the shipped schema, and clear messages for bad files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from inspector.regression.assertions import assertion_from_json
from inspector.regression.collection import (
    Collection,
    CollectionError,
    SavedCall,
    call_for,
    dumps_collection,
    load_collection,
    loads_collection,
    save_collection,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"
EXAMPLES = sorted((DOCS / "collections").glob("*.collection.json"))
SCHEMA = json.loads((DOCS / "collection.schema.json").read_text(encoding="utf-8"))


def _doc(*calls: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"version": 1, "name": "c", "calls": list(calls), **extra}


def _call(**fields: Any) -> dict[str, Any]:
    return {"name": "one", "method": "tools/call", "params": {"name": "echo"}, **fields}


def test_examples_exist_and_validate_against_the_shipped_schema() -> None:
    assert len(EXAMPLES) >= 2
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for path in EXAMPLES:
        validator.validate(json.loads(path.read_text(encoding="utf-8")))
        collection = load_collection(path)
        assert collection.calls, path
        assert collection.source == str(path)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_are_written_as_the_module_writes(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert dumps_collection(load_collection(path)) == text
    assert text.endswith("}\n")


def test_round_trip_is_stable_and_sorted(tmp_path: Path) -> None:
    raw = _doc(
        _call(
            params={"name": "echo", "arguments": {"z": 1, "a": {"y": 2, "b": [3, {"d": 4, "c": 5}]}}},
            assertions=[{"value": {"k2": 1, "k1": 2}, "path": "$.structuredContent", "kind": "contains"}],
            timeout_ms=250,
        ),
        description="about",
    )
    first = dumps_collection(loads_collection(json.dumps(raw)))
    target = tmp_path / "c.json"
    save_collection(loads_collection(first), target)
    assert target.read_text(encoding="utf-8") == first
    assert dumps_collection(load_collection(target)) == first
    assert first.endswith("\n") and not first.endswith("\n\n")
    written = json.loads(first)
    assert list(written) == ["version", "name", "description", "calls"]
    call = written["calls"][0]
    assert list(call) == ["name", "method", "params", "timeout_ms", "assertions"]
    assert list(call["params"]["arguments"]) == ["a", "z"]
    assert list(call["params"]["arguments"]["a"]["b"][1]) == ["c", "d"]
    assert list(call["assertions"][0]) == ["kind", "path", "value"]
    assert "  " in first.splitlines()[1][:2]  # indent 2
    jsonschema.Draft202012Validator(SCHEMA).validate(written)


def test_every_assertion_kind_round_trips_and_validates() -> None:
    kinds = [
        {"kind": "outcome", "expect": "ok"},
        {"kind": "outcome", "expect": "isError"},
        {"kind": "outcome", "expect": "error", "code": -32602},
        {"kind": "equals", "path": "$.content[0].text", "value": "hi"},
        {"kind": "contains", "path": "$..text", "value": "h", "all": True},
        {"kind": "matches", "path": "$.content[*].text", "regex": "^h"},
        {"kind": "output_schema"},
        {"kind": "content_types", "types": ["text", "image"]},
        {"kind": "latency", "max_ms": 250},
        {"kind": "latency", "max_ms": 0.5},
    ]
    for raw in kinds:
        assert assertion_from_json(raw).to_json() == raw
    doc = _doc(_call(assertions=kinds))
    jsonschema.Draft202012Validator(SCHEMA).validate(doc)
    assert json.loads(dumps_collection(loads_collection(json.dumps(doc))))["calls"][0]["assertions"] == kinds


BAD = [
    ("[]", "a collection is a JSON object"),
    ("{", "not JSON"),
    (json.dumps({"name": "c", "calls": []}), "version: this inspector reads version 1 (the field is missing)"),
    (json.dumps({"version": 2, "name": "c", "calls": []}), "version: this inspector reads version 1, not 2"),
    (json.dumps({"version": 1, "calls": []}), "name: a string"),
    (json.dumps({"version": 1, "name": "c"}), "calls: a list of calls"),
    (json.dumps(_doc(extra=1)), "extra: unknown field"),
    (json.dumps({"version": 1, "name": "c", "calls": ["x"]}), "calls[0]: a call is an object"),
    (json.dumps(_doc({"method": "ping"})), "calls[0].name: every call has a non-empty string name"),
    (json.dumps(_doc(_call(), _call())), "call 'one': two calls have this name"),
    (json.dumps(_doc(_call(method=""))), "call 'one': method: a non-empty string"),
    (json.dumps(_doc(_call(params=[1]))), "call 'one': params: an object"),
    (json.dumps(_doc(_call(params={"arguments": {}}))), "call 'one': params.name: tools/call needs a string 'name'"),
    (
        json.dumps(_doc(_call(method="resources/read", params={"name": "x"}))),
        "params.uri: resources/read needs a string 'uri'",
    ),
    (json.dumps(_doc(_call(params={"name": "e", "arguments": [1]}))), "params.arguments: an object or absent"),
    (json.dumps(_doc(_call(timeout_ms=0))), "timeout_ms: a positive whole number"),
    (json.dumps(_doc(_call(timeout_ms=True))), "timeout_ms: a positive whole number"),
    (json.dumps(_doc(_call(bogus=1))), "call 'one': bogus: unknown field"),
    (json.dumps(_doc(_call(assertions={}))), "assertions: a list of assertions"),
    (json.dumps(_doc(_call(assertions=[{"kind": "nope"}]))), "assertions[0]: kind: one of outcome"),
    (json.dumps(_doc(_call(assertions=[3]))), "assertions[0]: an assertion is an object"),
    (
        json.dumps(_doc(_call(assertions=[{"kind": "outcome", "expect": "fine"}]))),
        "assertions[0]: expect: one of ok, isError, error",
    ),
    (
        json.dumps(_doc(_call(assertions=[{"kind": "outcome", "expect": "ok", "code": 1}]))),
        'code: only with "expect": "error"',
    ),
    (
        json.dumps(_doc(_call(assertions=[{"kind": "outcome", "expect": "error", "code": "x"}]))),
        "code is a whole number",
    ),
    (
        json.dumps(_doc(_call(assertions=[{"kind": "equals", "path": "content", "value": 1}]))),
        "assertions[0]: path: bad JSON path pattern 'content' at character 0",
    ),
    (json.dumps(_doc(_call(assertions=[{"kind": "equals", "path": "$.a"}]))), "value: required"),
    (
        json.dumps(_doc(_call(assertions=[{"kind": "matches", "path": "$.a", "regex": "("}]))),
        "regex: not a regular expression",
    ),
    (json.dumps(_doc(_call(assertions=[{"kind": "matches", "path": "$.a"}]))), "regex: a regular expression"),
    (json.dumps(_doc(_call(assertions=[{"kind": "content_types", "types": []}]))), "types: a non-empty list"),
    (json.dumps(_doc(_call(assertions=[{"kind": "latency", "max_ms": -1}]))), "max_ms: a positive number"),
    (
        json.dumps(_doc(_call(assertions=[{"kind": "latency"}]))),
        "max_ms: a positive number of milliseconds, not (nothing)",
    ),
    (
        json.dumps(_doc(_call(method="prompts/get", assertions=[{"kind": "output_schema"}]))),
        "output_schema: only for tools/call",
    ),
    (json.dumps(_doc(_call(assertions=[{"kind": "output_schema", "x": 1}]))), "x: not a field of a output_schema"),
]


@pytest.mark.parametrize(("text", "fragment"), BAD)
def test_bad_files_name_file_call_and_field(text: str, fragment: str) -> None:
    with pytest.raises(CollectionError) as caught:
        loads_collection(text, "bad.json")
    message = str(caught.value)
    assert message.startswith("bad.json: "), message
    assert fragment in message, message


def test_the_schema_rejects_what_loading_rejects() -> None:
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for text, _fragment in BAD:
        try:
            raw = json.loads(text)
        except json.JSONDecodeError:
            continue
        if "two calls have this name" in _fragment or "not a regular expression" in _fragment:
            continue  # unique names and a regex that compiles are not expressible in JSON Schema
        assert not validator.is_valid(raw), text


def test_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(CollectionError, match=r"missing\.json: cannot read the file"):
        load_collection(tmp_path / "missing.json")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(CollectionError, match="not UTF-8 text"):
        load_collection(binary)


def test_editing_helpers() -> None:
    saved = call_for("tools/call", {"name": "echo", "arguments": {"message": "hi"}, "_meta": {"progressToken": 1}})
    assert saved.name == "tools/call echo"
    assert saved.params == {"name": "echo", "arguments": {"message": "hi"}}
    assert [a.to_json() for a in saved.assertions] == [{"kind": "outcome", "expect": "ok"}]
    assert call_for("resources/read", {"uri": "demo://x"}).name == "resources/read demo://x"
    assert call_for("ping", None).name == "ping"
    collection = Collection("c").with_call(saved)
    assert collection.unique_name("tools/call echo") == "tools/call echo (2)"
    second = SavedCall(collection.unique_name(saved.name), "ping")
    collection = collection.with_call(second)
    assert [c.name for c in collection.calls] == ["tools/call echo", "tools/call echo (2)"]
    replaced = collection.with_call(SavedCall("tools/call echo", "ping"))
    assert [c.method for c in replaced.calls] == ["ping", "ping"]
    assert [c.name for c in replaced.without_call("tools/call echo").calls] == ["tools/call echo (2)"]
    with pytest.raises(KeyError):
        collection.call("nope")
