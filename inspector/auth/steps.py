"""What the OAuth flow did, step by step, for the Authorization view and the probe report.

An :class:`AuthStep` is one step (a challenge from the MCP server, discovery, registration, authorization,
token, refresh, or a notice) with the HTTP exchanges it made. Secrets never reach a step: credential
headers are masked and codes/tokens in URLs are replaced. Steps are emitted to ``on_step`` whenever they
change; a step keeps its ``index``, so a receiver replaces the earlier version of the same index.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Final
from urllib.parse import parse_qsl, quote, urlsplit, urlunsplit

import httpx2

__all__ = [
    "AuthStep",
    "AuthStepKind",
    "HttpExchange",
    "StepCallback",
    "StepRecorder",
    "StepStatus",
    "classify_request",
    "mask_headers",
    "mask_url",
]

log = logging.getLogger(__name__)

MASK: Final = "••••"
_SECRET_HEADERS: Final = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie", "dpop"})
_SECRET_HEADER_WORDS: Final = ("token", "secret", "api-key", "apikey", "password", "session")
_SECRET_PARAMS: Final = frozenset(
    {
        "code",
        "access_token",
        "refresh_token",
        "id_token",
        "client_secret",
        "code_verifier",
        "assertion",
        "client_assertion",
        "subject_token",
        "token",
    }
)


class AuthStepKind(StrEnum):
    CHALLENGE = "challenge"
    """The MCP server answered 401/403 (or still did after authorization)."""
    DISCOVERY = "discovery"
    REGISTRATION = "registration"
    AUTHORIZATION = "authorization"
    TOKEN = "token"
    TOKEN_EXCHANGE = "token_exchange"
    """Enterprise-managed authorization: the ID token for an ID-JAG at the enterprise IdP."""
    REFRESH = "refresh"
    NOTICE = "notice"


class StepStatus(StrEnum):
    RUNNING = "running"
    OK = "ok"
    FAILED = "failed"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class HttpExchange:
    """One HTTP request the flow made and the answer's status and headers (secrets masked)."""

    method: str
    url: str
    status: int | None
    request_headers: tuple[tuple[str, str], ...] = ()
    response_headers: tuple[tuple[str, str], ...] = ()
    elapsed: float | None = None
    """Seconds until the response headers arrived."""

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "url": self.url,
            "status": self.status,
            "request_headers": [list(pair) for pair in self.request_headers],
            "response_headers": [list(pair) for pair in self.response_headers],
            "elapsed": self.elapsed,
        }


@dataclass(frozen=True, slots=True)
class AuthStep:
    index: int
    kind: AuthStepKind
    status: StepStatus
    summary: str
    exchanges: tuple[HttpExchange, ...] = ()
    details: Mapping[str, str] = field(default_factory=dict)
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "kind": str(self.kind),
            "status": str(self.status),
            "summary": self.summary,
            "exchanges": [exchange.to_json() for exchange in self.exchanges],
            "details": dict(self.details),
            "error": self.error,
        }


StepCallback = Callable[[AuthStep], None]


def _mask_value(name: str, value: str) -> str:
    lower = name.lower()
    if lower in ("authorization", "proxy-authorization"):
        scheme, _, rest = value.partition(" ")
        return f"{scheme} {MASK}" if rest else MASK
    if lower == "location":
        return mask_url(value)
    if lower in _SECRET_HEADERS or any(word in lower for word in _SECRET_HEADER_WORDS):
        return MASK
    return value


def mask_headers(headers: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """Headers as (name, value) pairs with credentials masked (the scheme of Authorization kept)."""
    return tuple((name, _mask_value(name, value)) for name, value in headers)


def mask_url(url: str) -> str:
    """``url`` with the values of secret query parameters (code, tokens, secrets) masked."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    if not parts.query:
        return url
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    if not any(key in _SECRET_PARAMS for key, _ in pairs):
        return url
    query = "&".join(
        f"{quote(key, safe='')}={MASK if key in _SECRET_PARAMS else quote(value, safe='')}" for key, value in pairs
    )
    return urlunsplit(parts._replace(query=query))


def _form(request: httpx2.Request) -> dict[str, str]:
    content_type = request.headers.get("content-type", "")
    if "application/x-www-form-urlencoded" not in content_type:
        return {}
    try:
        return dict(parse_qsl(request.content.decode("utf-8", "replace")))
    except Exception:  # a streaming body we cannot read here
        return {}


def classify_request(request: httpx2.Request, original: httpx2.Request) -> AuthStepKind:
    """Which step a request of the auth flow belongs to (``original`` is the MCP request being sent)."""
    if request is original:
        return AuthStepKind.CHALLENGE
    if request.method == "POST":
        form = _form(request)
        if form.get("grant_type") == "refresh_token":
            return AuthStepKind.REFRESH
        if "grant_type" in form:
            return AuthStepKind.TOKEN
        return AuthStepKind.REGISTRATION
    return AuthStepKind.DISCOVERY


def exchange_of(request: httpx2.Request, response: httpx2.Response | None, elapsed: float | None) -> HttpExchange:
    return HttpExchange(
        method=request.method,
        url=mask_url(str(request.url)),
        status=response.status_code if response is not None else None,
        request_headers=mask_headers(request.headers.multi_items()),
        response_headers=mask_headers(response.headers.multi_items()) if response is not None else (),
        elapsed=elapsed,
    )


class StepRecorder:
    """Builds steps from the exchanges of the flow and emits each change to ``on_step``.

    ``describe(kind)`` supplies the summary and details of a step when it finishes (the provider knows
    what discovery found, which client was used, and so on).
    """

    def __init__(
        self,
        on_step: StepCallback | None = None,
        describe: Callable[[AuthStepKind], tuple[str, Mapping[str, str]]] | None = None,
    ) -> None:
        self._on_step = on_step
        self.describe = describe
        self.steps: list[AuthStep] = []
        self._current: AuthStep | None = None

    @property
    def current(self) -> AuthStep | None:
        return self._current

    def _emit(self, step: AuthStep) -> None:
        if step.index < len(self.steps):
            self.steps[step.index] = step
        else:
            self.steps.append(step)
        if self._on_step is not None:
            try:
                self._on_step(step)
            except Exception:  # a broken receiver must not break authorization
                log.exception("on_step callback failed")

    def begin(self, kind: AuthStepKind, summary: str = "", details: Mapping[str, str] | None = None) -> AuthStep:
        """Start a step (finishing the current one as OK)."""
        self.finish()
        step = AuthStep(len(self.steps), kind, StepStatus.RUNNING, summary or f"{kind}…", (), dict(details or {}))
        self._current = step
        self._emit(step)
        return step

    def update(self, *, summary: str | None = None, details: Mapping[str, str] | None = None) -> None:
        """Change the summary of the current step or add details to it."""
        step = self._current
        if step is None:
            return
        merged = {**step.details, **(details or {})}
        step = replace(step, summary=summary if summary is not None else step.summary, details=merged)
        self._current = step
        self._emit(step)

    def add(self, kind: AuthStepKind, exchange: HttpExchange) -> None:
        """Record an exchange of ``kind``, starting a new step when the kind changes."""
        if self._current is None or self._current.kind != kind:
            self.begin(kind)
        step = self._current
        assert step is not None
        step = replace(step, exchanges=(*step.exchanges, exchange))
        self._current = step
        self._emit(step)

    def note(self, kind: AuthStepKind, summary: str, details: Mapping[str, str] | None = None) -> None:
        """A finished, informational step (a notice, a challenge that is not retried)."""
        self.finish()
        step = AuthStep(len(self.steps), kind, StepStatus.INFO, summary, (), dict(details or {}))
        self._emit(step)

    def finish(self, status: StepStatus = StepStatus.OK, error: str | None = None) -> None:
        """End the current step (if any) with ``status``."""
        step = self._current
        if step is None:
            return
        self._current = None
        summary, details = step.summary, dict(step.details)
        if self.describe is not None:
            try:
                described, extra = self.describe(step.kind)
            except Exception:
                log.exception("describing an auth step failed")
            else:
                summary = described or summary
                details = {**extra, **details}
        self._emit(replace(step, status=status, summary=summary, details=details, error=error))

    def fail(self, error: str, kind: AuthStepKind | None = None) -> None:
        """End the current step as failed (or record a failed step of ``kind`` when none is running)."""
        if self._current is None:
            self.begin(kind or AuthStepKind.NOTICE)
        self.finish(StepStatus.FAILED, error)
