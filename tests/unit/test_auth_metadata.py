"""Metadata diagnostics, document URL checks, the token check and the flow lock (no sockets)."""

from __future__ import annotations

import asyncio
import json

import httpx2
import pytest
from asynckit import run
from mcp.client.auth import OAuthFlowError

from inspector.auth.metadata import DiscoveryLog, Document, check_document_urls, document_of, problem_of, short
from inspector.auth.provider import _FlowLock, check_token_body

ASM = "https://as.example/.well-known/oauth-authorization-server"
GOOD_ASM = {
    "issuer": "https://as.example",
    "authorization_endpoint": "https://as.example/a",
    "token_endpoint": "https://as.example/t",
}


def answer(status: int, body: bytes, content_type: str = "application/json", url: str = ASM) -> httpx2.Response:
    return httpx2.Response(
        status, content=body, headers={"content-type": content_type}, request=httpx2.Request("GET", url)
    )


@pytest.mark.parametrize(
    ("status", "body", "content_type", "problem"),
    [
        (404, b"nope", "text/plain", "answered 404 (text/plain)"),
        (200, b"<html><title>x</title>", "text/html; charset=utf-8", "answered 200 with an HTML page (text/html)"),
        (200, b"<!DOCTYPE html>", "application/json", "with an HTML page (application/json)"),
        (200, b'{"issuer": ', "application/json", "with something that is not JSON"),
        (200, b"[1]", "application/json", "JSON that is not an object (list)"),
        (200, json.dumps({**GOOD_ASM, "token_endpoint": None}).encode(), "application/json", "token_endpoint field is"),
        (200, json.dumps({"issuer": "https://as.example"}).encode(), "application/json", "its authorization_endpoint"),
        (200, json.dumps(GOOD_ASM).encode(), "application/json", None),
    ],
)
def test_problem_of_an_authorization_server_metadata_answer(
    status: int, body: bytes, content_type: str, problem: str | None
) -> None:
    found = problem_of(Document.ASM, answer(status, body, content_type), body)
    if problem is None:
        assert found is None
    else:
        assert found is not None and problem in found, found


def test_problem_of_protected_resource_metadata_names_the_missing_field() -> None:
    body = json.dumps({"resource": "https://mcp.example/mcp"}).encode()
    found = problem_of(Document.PRM, answer(200, body), body)
    assert found == "answered 200 but its authorization_servers field is missing"


def test_document_of() -> None:
    assert document_of(httpx2.URL(ASM)) is Document.ASM
    assert document_of(httpx2.URL("https://as.example/.well-known/openid-configuration/t1")) is Document.ASM
    assert document_of(httpx2.URL("https://as.example/t1/.well-known/openid-configuration")) is Document.ASM
    assert document_of(httpx2.URL("https://mcp.example/.well-known/oauth-protected-resource/mcp")) is Document.PRM
    assert document_of(httpx2.URL("https://mcp.example/anything")) is Document.PRM


def test_check_document_urls_names_the_document_and_the_field() -> None:
    check_document_urls(Document.ASM, ASM, json.dumps(GOOD_ASM).encode())
    check_document_urls(Document.ASM, ASM, b"not json")  # left to the SDK
    bad = {**GOOD_ASM, "registration_endpoint": "http://10.1.2.3/register"}
    with pytest.raises(ValueError, match=r"metadata \(https://as.example/.+\) field registration_endpoint 'http://10"):
        check_document_urls(Document.ASM, ASM, json.dumps(bad).encode())
    prm = {"resource": "https://m/mcp", "authorization_servers": ["https://a", "http://b.example"]}
    with pytest.raises(ValueError, match=r"field authorization_servers\[1\] 'http://b.example' is not https"):
        check_document_urls(Document.PRM, "https://m/.well-known/oauth-protected-resource", json.dumps(prm).encode())


def test_discovery_log_cause() -> None:
    log = DiscoveryLog()
    assert log.cause(have_prm=False, have_asm=False) is None
    log.record(Document.PRM, answer(404, b"", "text/html", "https://m/.well-known/oauth-protected-resource"), b"")
    log.record(Document.PRM, answer(404, b"", "text/html", "https://m/.well-known/oauth-protected-resource"), b"")
    log.record(Document.ASM, answer(500, b"", "text/plain"), b"")
    cause = log.cause(have_prm=False, have_asm=False)
    assert cause is not None and cause.count("oauth-protected-resource answered 404") == 1
    assert "the authorization server's metadata could not be read: https://as.example" in cause
    assert log.cause(have_prm=False, have_asm=True) is None  # the legacy path found its metadata: PRM is fine
    log.record(Document.ASM, answer(200, json.dumps(GOOD_ASM).encode()), json.dumps(GOOD_ASM).encode())
    assert log.found[Document.ASM] == ASM and log.misses[Document.ASM] == []


def test_short() -> None:
    assert short("a\r\n  b") == "a b"
    assert len(short("x" * 10_000)) == 300


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"access_token": "a\\r\\nb", "token_type": "Bearer"}', "its access_token holds U+000D at position 1"),
        (b'{"access_token": "ok", "refresh_token": "r t"}', "its refresh_token holds U+0020 at position 1"),
        (b'{"access_token": "ok", "token_type": "Bearer\\n"}', "its token_type holds U+000A"),
        (b'{"access_token": ""}', "has no access_token"),
        (b'{"token_type": "Bearer"}', "has no access_token"),
        (b"[]", "is not a JSON object"),
        (b"<html>", "is not JSON"),
    ],
)
def test_check_token_body_refuses(body: bytes, message: str) -> None:
    with pytest.raises(OAuthFlowError, match=message.replace("+", "\\+")):
        check_token_body(body, "token response")


def test_check_token_body_accepts_and_leaves_broken_refresh_answers_to_the_sdk() -> None:
    check_token_body(b'{"access_token": "at-Zz09-._~+/=", "token_type": "Bearer", "expires_in": 3}', "token response")
    check_token_body(b"<html>", "refresh token response", whole=False)
    with pytest.raises(OAuthFlowError, match="U\\+000D"):
        check_token_body(b'{"access_token": "a\\rb"}', "refresh token response", whole=False)


def test_the_flow_lock_may_be_released_by_another_task() -> None:
    async def go() -> None:
        lock = _FlowLock()
        await lock.__aenter__()
        await asyncio.create_task(lock.__aexit__(None, None, None))  # what the async-generator finalizer does
        async with lock:  # not stuck
            pass

    run(go, timeout=5)
