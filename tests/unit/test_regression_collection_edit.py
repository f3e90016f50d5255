"""Editing a collection's calls without Qt: rename, a new request (params typed as JSON), duplicate, move."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from inspector.regression.assertions import assertion_from_json, outcome
from inspector.regression.collection import (
    Collection,
    CollectionError,
    SavedCall,
    edited_request,
    load_collection,
    parse_params,
    save_collection,
)

ECHO = SavedCall("echo", "tools/call", {"name": "echo", "arguments": {"message": "hi"}}, (outcome("ok"),), 500)
HELLO = SavedCall("hello", "resources/read", {"uri": "demo://text/hello"}, (outcome("ok"),))
PING = SavedCall("ping", "ping")
THREE = Collection("three", (ECHO, HELLO, PING))


def _names(collection: Collection) -> list[str]:
    return [saved.name for saved in collection.calls]


def test_rename_keeps_the_place_and_everything_but_the_name() -> None:
    renamed = THREE.renamed("hello", "  the hello resource ")
    assert _names(renamed) == ["echo", "the hello resource", "ping"]
    assert renamed.calls[1] == SavedCall("the hello resource", HELLO.method, HELLO.params, HELLO.assertions)
    assert THREE.renamed("echo", "echo") == THREE  # the same name is no change


@pytest.mark.parametrize(
    ("new", "says"),
    [("ping", "another call is named 'ping' already"), ("   ", "a call needs a non-empty name"), ("", "non-empty")],
)
def test_rename_refuses_a_taken_or_empty_name(new: str, says: str) -> None:
    with pytest.raises(CollectionError) as caught:
        THREE.renamed("echo", new)
    assert says in caught.value.problem
    assert (caught.value.call, caught.value.field_name) == ("echo", "name")
    with pytest.raises(KeyError):
        THREE.renamed("nobody", "x")


def test_parse_params_reads_an_object_or_nothing() -> None:
    assert parse_params('{"uri": "demo://x",\n "n": [1, 2]}') == {"uri": "demo://x", "n": [1, 2]}
    assert parse_params("  \n") is None


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"name": "echo",\n  "arguments": {"message": "hi"', "not JSON: Expecting ',' delimiter at line 2 column 32"),
        ('{"name": }', "not JSON: Expecting value at line 1 column 10"),
        ("[1, 2]", "a JSON object {...}, not a list"),
        ('"echo"', "not a string"),
        ("null", "not null"),
        ("3", "not a number"),
    ],
)
def test_parse_params_says_why_not_and_where(text: str, says: str) -> None:
    with pytest.raises(CollectionError) as caught:
        parse_params(text)
    assert says in caught.value.problem
    assert caught.value.field_name == "params"


def test_a_new_request_keeps_name_assertions_and_timeout() -> None:
    edited = edited_request(ECHO, " tools/call ", {"name": "add", "arguments": {"a": 1, "b": 2}})
    assert edited == SavedCall(
        "echo", "tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}}, ECHO.assertions, 500
    )
    changed = THREE.with_request("ping", "notifications/none", None)
    assert _names(changed) == _names(THREE)
    assert (changed.calls[2].method, changed.calls[2].params) == ("notifications/none", None)
    assert changed.calls[:2] == THREE.calls[:2]


def test_a_new_request_a_file_could_not_hold_is_refused() -> None:
    with pytest.raises(CollectionError) as caught:
        edited_request(HELLO, "resources/read", {"url": "demo://text/hello"})
    assert (caught.value.field_name, caught.value.problem) == ("params.uri", "resources/read needs a string 'uri'")
    with pytest.raises(CollectionError) as caught:
        edited_request(HELLO, " ", None)
    assert caught.value.field_name == "method"
    with pytest.raises(CollectionError) as caught:
        edited_request(ECHO, "tools/call", {"name": "echo", "arguments": [1]})
    assert caught.value.field_name == "params.arguments"
    # an assertion only a tool call has does not follow the request to another method
    schema = replace(ECHO, assertions=(outcome("ok"), assertion_from_json({"kind": "output_schema"}, "tools/call")))
    with pytest.raises(CollectionError) as caught:
        edited_request(schema, "prompts/get", {"name": "greeting"})
    assert caught.value.field_name == "assertions[1]" and "only for tools/call" in caught.value.problem


def test_duplicate_puts_a_uniquely_named_copy_after_the_original() -> None:
    once, copy = THREE.duplicated("echo")
    assert _names(once) == ["echo", "echo (copy)", "hello", "ping"]
    assert (copy.method, copy.params, copy.assertions, copy.timeout_ms) == (
        ECHO.method,
        ECHO.params,
        ECHO.assertions,
        ECHO.timeout_ms,
    )
    twice, second = once.duplicated("echo")
    assert second.name == "echo (copy 2)"
    assert _names(twice) == ["echo", "echo (copy 2)", "echo (copy)", "hello", "ping"]
    assert twice.copy_name("echo") == "echo (copy 3)"


def test_move_changes_the_run_order_and_stops_at_the_ends() -> None:
    assert _names(THREE.moved("ping", -1)) == ["echo", "ping", "hello"]
    assert _names(THREE.moved("ping", -5)) == ["ping", "echo", "hello"]
    assert _names(THREE.moved("echo", 1)) == ["hello", "echo", "ping"]
    assert THREE.moved("echo", -1) is THREE and THREE.moved("ping", 1) is THREE
    assert THREE.index_of("hello") == 1


def test_edited_collection_is_saved_and_read_back_in_its_order(tmp_path: Path) -> None:
    edited, _ = THREE.renamed("hello", "resource").moved("ping", -2).duplicated("resource")
    edited = edited.with_request("echo", "tools/call", {"name": "echo", "arguments": {"message": "bye"}})
    target = tmp_path / "edited.collection.json"
    save_collection(edited, target)
    reread = load_collection(target)
    assert _names(reread) == ["ping", "echo", "resource", "resource (copy)"]
    assert reread == edited
