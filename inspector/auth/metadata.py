"""What was wrong with a metadata document the OAuth flow fetched, and whether its URLs may be used.

The SDK reads protected-resource metadata (RFC 9728) and authorization-server metadata (RFC 8414 / OIDC
discovery) and, when a document is missing or unusable, silently tries the next well-known URL and in the
end falls back to default endpoints at the MCP server's origin (``/authorize``, ``/token``,
``/register``). When that fallback then fails, its error ("Registration failed: 404") says nothing about
the real cause. :class:`DiscoveryLog` keeps, per document, what each URL answered (status, content type,
not JSON, which field is missing or invalid) so the provider can say it instead; :func:`check_document_urls`
applies the OAuth URL rule to the URL fields of a document as soon as it arrives, before the SDK uses any.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

import httpx2
from mcp.shared.auth import OAuthMetadata, ProtectedResourceMetadata
from pydantic import ValidationError

from inspector.auth.urls import check_oauth_url
from inspector.transports.base import message_of

__all__ = ["DiscoveryLog", "Document", "check_document_urls", "document_of", "short"]

_SHORT: Final = 300
_ASM_PATHS: Final = ("/.well-known/oauth-authorization-server", "/.well-known/openid-configuration")
_ASM_URL_FIELDS: Final = ("issuer", "authorization_endpoint", "token_endpoint", "registration_endpoint")
"""The URL fields of authorization-server metadata the flow uses (fetched, opened, or compared as issuer)."""


class Document(StrEnum):
    PRM = "the protected resource metadata"
    ASM = "the authorization server's metadata"


def short(text: str) -> str:
    """``text`` on one line of at most 300 characters (a server's error page can be a megabyte long)."""
    line = " ".join(text.split())
    return line if len(line) <= _SHORT else line[: _SHORT - 1] + "\u2026"


def document_of(url: httpx2.URL) -> Document:
    """Which document a discovery request asks for (the SDK asks for protected-resource metadata first, at
    the challenge's ``resource_metadata`` URL or the RFC 9728 well-known URLs)."""
    path = url.path
    if any(path.startswith(p) or path.endswith(p) for p in _ASM_PATHS):
        return Document.ASM
    return Document.PRM


def _media(response: httpx2.Response) -> str:
    return response.headers.get("content-type", "no content type").split(";")[0].strip() or "no content type"


def _first_error(exc: ValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return short(message_of(exc))
    error = errors[0]
    where = ".".join(str(part) for part in error.get("loc", ()))
    if error.get("type") == "missing":
        return f"its {where} field is missing"
    message = str(error.get("msg", "invalid"))
    return f"its {where} field is invalid ({short(message)})" if where else short(message)


def problem_of(document: Document, response: httpx2.Response, body: bytes) -> str | None:
    """Why ``response`` (to a request for ``document``) gives the flow nothing usable; None when it does."""
    status, media = response.status_code, _media(response)
    if status != 200:
        return f"answered {status} ({media})"
    if "html" in media or body.lstrip()[:15].lower().startswith((b"<!doctype html", b"<html")):
        return f"answered 200 with an HTML page ({media}), not JSON"
    try:
        value = json.loads(body)
    except ValueError as exc:
        return f"answered 200 ({media}) with something that is not JSON ({short(message_of(exc))})"
    if not isinstance(value, dict):
        return f"answered 200 with JSON that is not an object ({type(value).__name__})"
    model = ProtectedResourceMetadata if document is Document.PRM else OAuthMetadata
    try:
        model.model_validate(value)
    except ValidationError as exc:
        return f"answered 200 but {_first_error(exc)}"
    return None


def check_document_urls(document: Document, url: str, body: bytes) -> dict[str, Any] | None:
    """Apply the OAuth URL rule to the URL fields of ``document`` (read from ``url``); ValueError naming the
    field and the document for the first that breaks it. Returns the document (None for a body that is not a
    JSON object, which is left to the SDK and :func:`problem_of`)."""
    try:
        value: Any = json.loads(body)
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    where = f"{document.value} ({short(url)})"
    if document is Document.PRM:
        servers = value.get("authorization_servers")
        for index, server in enumerate(servers if isinstance(servers, list) else []):
            if isinstance(server, str):
                check_oauth_url(server, f"{where} field authorization_servers[{index}]")
        return value
    for name in _ASM_URL_FIELDS:
        found = value.get(name)
        if isinstance(found, str):
            check_oauth_url(found, f"{where} field {name}")
    return value


@dataclass
class DiscoveryLog:
    """What each metadata URL of the current flow answered, per document."""

    misses: dict[Document, list[str]] = field(default_factory=lambda: {Document.PRM: [], Document.ASM: []})
    found: dict[Document, str] = field(default_factory=dict)
    """The URL each document was read from, once it was."""

    def clear(self) -> None:
        for misses in self.misses.values():
            misses.clear()
        self.found.clear()

    def record(self, document: Document, response: httpx2.Response, body: bytes) -> None:
        url = str(response.request.url)
        problem = problem_of(document, response, body)
        if problem is None:
            self.found[document] = url
            self.misses[document].clear()
        elif (miss := f"{short(url)} {problem}") not in self.misses[document]:
            self.misses[document].append(miss)

    def cause(self, *, have_prm: bool, have_asm: bool) -> str | None:
        """Which documents could not be read and why (None when every one the flow needed was)."""
        parts: list[str] = []
        if not have_prm and self.misses[Document.PRM] and not have_asm:
            parts.append(f"{Document.PRM.value} could not be read: " + "; ".join(self.misses[Document.PRM][-3:]))
        if not have_asm and self.misses[Document.ASM]:
            parts.append(f"{Document.ASM.value} could not be read: " + "; ".join(self.misses[Document.ASM][-3:]))
        return "; ".join(parts) or None
