"""Small edits of the OAuth flow's requests and answers: a form request with fields added, and a token answer
read for its ``token_type`` (the SDK's token model knows only ``Bearer``; a DPoP-bound token is ``DPoP``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl

import httpx2

__all__ = ["as_bearer_answer", "form_of", "with_form"]


def form_of(request: httpx2.Request) -> dict[str, str]:
    """The fields of an ``application/x-www-form-urlencoded`` request ({} for any other body)."""
    if "application/x-www-form-urlencoded" not in request.headers.get("content-type", ""):
        return {}
    try:
        return dict(parse_qsl(request.content.decode("utf-8", "replace"), keep_blank_values=True))
    except Exception:  # a streaming body we cannot read here
        return {}


def with_form(request: httpx2.Request, updates: Mapping[str, str]) -> httpx2.Request:
    """A copy of the form request ``request`` with ``updates`` set in its body (headers and extensions kept)."""
    form = {**form_of(request), **updates}
    headers = {k: v for k, v in request.headers.items() if k.lower() != "content-length"}
    return httpx2.Request(request.method, request.url, data=form, headers=headers, extensions=request.extensions)


def as_bearer_answer(response: httpx2.Response, body: bytes) -> tuple[httpx2.Response, str | None]:
    """(``response`` as the SDK can read it, the answer's ``token_type``): a ``DPoP`` token type is rewritten to
    ``Bearer`` in a copy of the answer (the caller keeps the binding); anything else is returned as it is."""
    try:
        value: Any = json.loads(body)
    except ValueError:
        return response, None
    token_type = value.get("token_type") if isinstance(value, dict) else None
    if not isinstance(token_type, str):
        return response, None
    if token_type.lower() != "dpop":
        return response, token_type
    rewritten = json.dumps({**value, "token_type": "Bearer"}).encode()
    headers = [
        (k, v) for k, v in response.headers.multi_items() if k.lower() not in ("content-length", "content-encoding")
    ]
    copy = httpx2.Response(response.status_code, headers=headers, content=rewritten, request=response.request)
    return copy, token_type
