"""Era rules: what differs between the handshake era (2024-11-05 ... 2025-11-25) and 2026-07-28.

The session (:mod:`inspector.protocol.session`) owns the request table, id matching, diagnostics, validation,
cancellation and the state machine; an ``EraRules`` object tells it how the session opens (``initialize`` or
``server/discover``), what every request carries besides its params (nothing, or the ``_meta`` envelope and
HTTP headers), how the opening result is read, which methods exist, and what results say beyond their
content. ``rules_for(version)`` is the one place that picks them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode, Severity
from inspector.protocol.envelope import SERVER_INFO_KEY, enveloped, meta_of
from inspector.protocol.versions import HANDSHAKE_VERSIONS, Era, era_of

if TYPE_CHECKING:
    from inspector.protocol import mcp_headers
    from inspector.protocol.session import ClientSession

__all__ = ["DiscoverRules", "EraRules", "HandshakeRules", "Opening", "rules_for"]

MODERN_REMOVED: Final = frozenset(
    {
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
        "tasks/list",
        "notifications/roots/list_changed",
        "notifications/initialized",
    }
)
"""Methods of the handshake era that 2026-07-28 removed."""


@dataclass(slots=True)
class Opening:
    """What the opening result established, or why it cannot be used."""

    version: str = ""
    capabilities: dict[str, Any] = field(default_factory=dict)
    server_info: dict[str, Any] = field(default_factory=dict)
    instructions: str | None = None
    failure: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)


def _opening_fields(result: dict[str, Any], info: Any, version: str) -> Opening:
    caps = result.get("capabilities")
    instructions = result.get("instructions")
    return Opening(
        version=version,
        capabilities=caps if isinstance(caps, dict) else {},
        server_info=info if isinstance(info, dict) else {},
        instructions=instructions if isinstance(instructions, str) else None,
    )


class EraRules:
    """The base: what both eras share. Subclasses set the class attributes and override the hooks."""

    era: Era
    opening_method: str
    early_methods: frozenset[str] = frozenset()
    """Requests that may be sent while the opening exchange runs."""
    removed_methods: frozenset[str] = frozenset()
    """Methods this era does not have: sending one is refused unless forced."""
    cancel_opening_notifies: bool = True
    """Cancelling the opening request tells the server (the handshake era forbids cancelling initialize)."""
    opening_repeatable: bool = True
    """The opening method may be sent again once the session is open (server/discover may; initialize not)."""

    def opening_params(self, s: ClientSession) -> dict[str, Any] | None:
        raise NotImplementedError

    def accept_opening(self, s: ClientSession, result: dict[str, Any]) -> Opening:
        raise NotImplementedError

    def after_opening(self, s: ClientSession) -> None:
        """What the client sends once the session is usable."""

    def envelope(
        self,
        s: ClientSession,
        method: str,
        params: dict[str, Any] | None,
        extensions: Mapping[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """The params as sent: what every request carries besides its own params (``extensions``: the extra
        extensions its logical request declares, ``envelope.declared_extensions``; None: the current context's)."""
        return params

    def headers(self, s: ClientSession, method: str, params: dict[str, Any] | None) -> dict[str, str]:
        """Per-message HTTP headers (none in the handshake era)."""
        return {}

    def observe_result(
        self,
        s: ClientSession,
        method: str,
        result: Any,
        diags: list[Diagnostic],
        params: dict[str, Any] | None = None,
    ) -> Any:
        """Look at the result of our ``method`` request (sent with ``params``, before the envelope) before it
        is delivered; return what is delivered."""
        return result


class HandshakeRules(EraRules):
    """``initialize`` + ``notifications/initialized``; the version and capabilities are settled once."""

    era = Era.HANDSHAKE
    opening_method = "initialize"
    early_methods = frozenset({"ping"})
    cancel_opening_notifies = False
    opening_repeatable = False

    def opening_params(self, s: ClientSession) -> dict[str, Any] | None:
        return {
            "protocolVersion": s.offered_version,
            "capabilities": s.client_capabilities,
            "clientInfo": s.client_info,
        }

    def accept_opening(self, s: ClientSession, result: dict[str, Any]) -> Opening:
        version = result.get("protocolVersion")
        if not isinstance(version, str) or version not in HANDSHAKE_VERSIONS:
            known = ", ".join(HANDSHAKE_VERSIONS)
            reason = f"the server chose protocol version {version!r}, which this client does not speak (known: {known})"
            return Opening(
                failure=reason,
                diagnostics=[Diagnostic(DiagnosticCode.VERSION_MISMATCH, reason, path="$.result.protocolVersion")],
            )
        opening = _opening_fields(result, result.get("serverInfo"), version)
        if version != s.offered_version:
            opening.diagnostics.append(
                Diagnostic(
                    DiagnosticCode.VERSION_MISMATCH,
                    f"the server chose protocol version {version} instead of the offered {s.offered_version}",
                    Severity.INFO,
                    "$.result.protocolVersion",
                )
            )
        return opening

    def after_opening(self, s: ClientSession) -> None:
        s.send_notification("notifications/initialized")


class DiscoverRules(EraRules):
    """2026-07-28: ``server/discover`` opens; every request carries the ``_meta`` envelope (and, over HTTP,
    the standard headers); ``input_required`` results are retried; servers identify themselves in results."""

    era = Era.MODERN
    opening_method = "server/discover"
    removed_methods = MODERN_REMOVED

    def __init__(self) -> None:
        self.tool_headers: dict[str, mcp_headers.HeaderParams] = {}
        """Tool name -> its ``x-mcp-header`` parameters, from the tools/list results seen so far."""
        self.dropped_tools: dict[str, mcp_headers.ToolDropped] = {}
        """Tool name -> why it was left out of the tools/list results seen so far (a later listing of the same
        name that is valid takes it out again), so the window can show what it dropped."""
        self._listings: dict[str, _ListingPage] = {}
        """Paginated tools/list listings under way: the ``nextCursor`` their next page is asked with -> what
        the listing's pages so far held (see :meth:`_observe_tools`)."""

    def opening_params(self, s: ClientSession) -> dict[str, Any] | None:
        return self.envelope(s, self.opening_method, None)

    def envelope(
        self,
        s: ClientSession,
        method: str,
        params: dict[str, Any] | None,
        extensions: Mapping[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        return enveloped(
            params,
            protocol_version=s.offered_version,
            capabilities=s.client_capabilities,
            client_info=s.client_info,
            log_level=s.log_level,
            extensions=extensions,
        )

    def headers(self, s: ClientSession, method: str, params: dict[str, Any] | None) -> dict[str, str]:
        if not s.header_rules:
            return {}
        from inspector.protocol import mcp_headers  # only where headers travel (HTTP): not on stdio start-up

        return mcp_headers.request_headers(method, params, s.offered_version, self.tool_headers)

    def accept_opening(self, s: ClientSession, result: dict[str, Any]) -> Opening:
        supported = result.get("supportedVersions")
        versions = [v for v in supported if isinstance(v, str)] if isinstance(supported, list) else []
        if s.offered_version not in versions:
            listed = ", ".join(versions) if versions else "none"
            reason = f"the server supports protocol versions {listed}, not {s.offered_version}"
            return Opening(
                failure=reason,
                diagnostics=[Diagnostic(DiagnosticCode.VERSION_MISMATCH, reason, path="$.result.supportedVersions")],
            )
        return _opening_fields(result, meta_of(result).get(SERVER_INFO_KEY), s.offered_version)

    def observe_result(
        self,
        s: ClientSession,
        method: str,
        result: Any,
        diags: list[Diagnostic],
        params: dict[str, Any] | None = None,
    ) -> Any:
        info = meta_of(result).get(SERVER_INFO_KEY)
        if isinstance(info, dict) and info != s.server_info:
            s.server_info = info
        if (
            s.header_rules
            and method == "tools/list"
            and isinstance(result, dict)
            and isinstance(result.get("tools"), list)
        ):
            return self._observe_tools(result, diags, params)
        return result

    def _observe_tools(
        self, result: dict[str, Any], diags: list[Diagnostic], params: dict[str, Any] | None
    ) -> dict[str, Any]:
        """One tools/list page: every tool it holds gets its annotations (or its drop) from this page alone,
        whatever an earlier listing said. A complete listing (its first page asked without a cursor, each next
        page with the previous page's ``nextCursor``, the last without one) then replaces everything: the tools
        none of its pages held are forgotten, dropped ones too. A page of no listing followed from its start
        (asked with another cursor) only updates the tools it holds: tools on pages not seen keep theirs."""
        from inspector.protocol import mcp_headers

        kept, dropped = mcp_headers.filter_tools(result["tools"])
        found = mcp_headers.header_params_by_tool(kept)
        listed = _ListingPage()
        for tool in kept:
            name = tool.get("name") if isinstance(tool, dict) else None
            if isinstance(name, str) and name not in listed.names:  # the first of a name wins
                listed.names.add(name)
                if name in found:
                    listed.headers[name] = found[name]
        for gone in dropped:
            if gone.name is not None and gone.name not in listed.names:
                listed.names.add(gone.name)
                listed.dropped[gone.name] = gone
            diags.append(
                Diagnostic(DiagnosticCode.SCHEMA, gone.message, Severity.VIOLATION, f"$.result.tools[{gone.index}]")
            )
        for name in listed.names:
            self.tool_headers.pop(name, None)  # re-listed without annotations: no Mcp-Param-* any more
            self.dropped_tools.pop(name, None)
        self.tool_headers.update(listed.headers)
        self.dropped_tools.update(listed.dropped)
        self._follow_listing(params, result.get("nextCursor"), listed)
        if not dropped:
            return result
        return {**result, "tools": kept}

    _LISTINGS_KEPT: Final = 8
    """Listings under way followed at once (abandoned ones are forgotten oldest first)."""

    def _follow_listing(self, params: dict[str, Any] | None, next_cursor: Any, page: _ListingPage) -> None:
        cursor = params.get("cursor") if isinstance(params, dict) else None
        if cursor is None:
            listing = _ListingPage()  # a first page: a new listing
        else:
            found = self._listings.pop(cursor, None) if isinstance(cursor, str) else None
            if found is None:
                return  # a page of no listing followed from its start: it cannot say what is gone
            listing = found
        listing.add(page)
        if isinstance(next_cursor, str):
            self._listings[next_cursor] = listing
            while len(self._listings) > self._LISTINGS_KEPT:
                del self._listings[next(iter(self._listings))]
            return
        # complete: what its pages held is all there is (a listing that ends later than another wins)
        self.tool_headers.clear()
        self.tool_headers.update(listing.headers)
        self.dropped_tools.clear()
        self.dropped_tools.update(listing.dropped)


@dataclass(slots=True)
class _ListingPage:
    """The tools of one tools/list page, or of the pages of one listing so far."""

    names: set[str] = field(default_factory=set)
    headers: dict[str, mcp_headers.HeaderParams] = field(default_factory=dict)
    """Valid tools that mirror at least one argument."""
    dropped: dict[str, mcp_headers.ToolDropped] = field(default_factory=dict)

    def add(self, page: _ListingPage) -> None:
        for name in page.names - self.names:  # a name listed on an earlier page keeps that page's entry
            if name in page.headers:
                self.headers[name] = page.headers[name]
            if name in page.dropped:
                self.dropped[name] = page.dropped[name]
        self.names |= page.names


def rules_for(version: str) -> EraRules:
    """The rules of ``version``'s era (a ``ValueError`` for an unknown version)."""
    if era_of(version) is Era.MODERN:
        return DiscoverRules()
    return HandshakeRules()
