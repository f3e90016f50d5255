"""From a saved profile to what the connection controller needs, and the built-in demo profile.

``connection_settings`` takes a profile whose secrets are resolved (``ProfileStore.resolve_secrets``)
and returns a ``ConnectionSettings`` whose transport factory starts the server with the profile's
command, arguments, environment (secret values included, in memory only) and working directory, and
whose handlers answer the server's requests with dialogs (``GuiRequestHandlers``: the profile's roots,
its sampling auto-reply, its declared capabilities).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Final

from PySide6.QtWidgets import QWidget

from inspector.demo.command import demo_command
from inspector.protocol.limits import Limits
from inspector.protocol.session import Timeouts
from inspector.store.profiles import Profile, StdioSettings
from inspector.transports.base import (
    Transport,
)
from inspector.transports.stdio import StdioTransport
from inspector.ui.connection.auth_view import AuthStepFeed
from inspector.ui.connection.controller import ConnectionSettings
from inspector.ui.server_requests.gui_handlers import GuiRequestHandlers
from inspector.ui.server_requests.url_elicitation import UrlElicitationDialog, explain_url_elicitation_required

if TYPE_CHECKING:
    import httpx2


__all__ = [
    "DEMO_HTTP_PROFILE_ID",
    "DEMO_PROFILE_ID",
    "HttpTransportFactory",
    "ProfileNotConnectable",
    "builtin_profile",
    "connection_settings",
    "demo_http_profile",
    "demo_profile",
    "is_demo",
]

DEMO_PROFILE_ID: Final = "builtin:demo"
"""The demo profile is never saved; this id marks it in the window state (open tabs)."""
DEMO_HTTP_PROFILE_ID: Final = "builtin:demo-http"
"""The demo server over Streamable HTTP (started by the connection, never saved)."""


class ProfileNotConnectable(Exception):
    """The profile cannot be used to connect yet (one line for the user)."""


def demo_profile() -> Profile:
    """The bundled demo server, run with this very interpreter."""
    command, *args = demo_command()  # the frozen app runs the demo through its own executable
    return Profile(
        name="Demo server",
        id=DEMO_PROFILE_ID,
        stdio=StdioSettings(command=command, args=args),
    )


def demo_http_profile() -> Profile:
    """The bundled demo server over Streamable HTTP (a fresh local process per connection)."""
    return Profile(name="Demo server (HTTP)", id=DEMO_HTTP_PROFILE_ID, transport="http")


def builtin_profile(profile_id: str) -> Profile | None:
    """The built-in profile with this id (None for any other id)."""
    if profile_id == DEMO_PROFILE_ID:
        return demo_profile()
    if profile_id == DEMO_HTTP_PROFILE_ID:
        return demo_http_profile()
    return None


def is_demo(profile_id: str) -> bool:
    return profile_id in (DEMO_PROFILE_ID, DEMO_HTTP_PROFILE_ID)


def _stdio_factory(settings: StdioSettings, env: dict[str, str], limits: Limits) -> Callable[[], Transport]:
    command, args, cwd = settings.command, list(settings.args), settings.cwd or None

    def factory() -> Transport:
        return StdioTransport(command, args, env=env, cwd=cwd, limits=limits)

    return factory


class HttpTransportFactory:
    """Builds the transport of an HTTP/SSE profile (secrets resolved), with its headers and auth."""

    def __init__(self, profile: Profile, limits: Limits) -> None:
        self.url = profile.http.url.strip()
        self.limits = limits
        self.transport = profile.transport
        self.headers = {h.name: h.value or "" for h in profile.http.headers if h.name}
        self.secret_headers = [h.name for h in profile.http.headers if h.name and h.secret]
        self.ca_bundle = profile.http.ca_bundle.strip() or None
        self.auth = copy.deepcopy(profile.auth)
        self.auth_feed = AuthStepFeed(self.url) if self.auth.mode == "oauth" else None

    def _auth(self) -> httpx2.Auth | None:
        a = self.auth
        if a.mode == "bearer":
            from inspector.auth import bearer_auth  # slow import: only when used

            return bearer_auth(a.bearer_token or "")
        if a.mode == "oauth" and self.auth_feed is not None:
            from inspector.auth import build_oauth_auth  # slow import: only when used

            return build_oauth_auth(
                self.url,
                client_id=a.client_id or None,
                client_secret=a.client_secret or None,
                cimd_url=a.cimd_url or None,
                scopes=list(a.scopes) or None,
                on_step=self.auth_feed.next_generation(),
                limits=self.limits,
            )
        return None

    def __call__(self) -> Transport:
        from inspector.transports.select import transport_for_target  # httpx2: imported when first used

        return transport_for_target(
            self.url,
            transport=self.transport,
            headers=self.headers,
            auth=self._auth(),
            ca_bundle=self.ca_bundle,
            secret_headers=self.secret_headers,
            limits=self.limits,
        )


def _check_http(profile: Profile) -> None:
    url = profile.http.url.strip()
    if not url:
        raise ProfileNotConnectable(f'"{profile.name}" has no server URL')
    if not url.lower().startswith(("http://", "https://")):
        raise ProfileNotConnectable(f'"{profile.name}" needs an http:// or https:// URL, not {url!r}')
    if profile.auth.mode == "oauth" and profile.auth.client_secret and not profile.auth.client_id:
        raise ProfileNotConnectable(f'"{profile.name}" has an OAuth client secret but no client id')


def _demo_http_transport() -> Transport:
    from inspector.demo.http_transport import DemoHttpTransport  # httpx2: imported when first used

    return DemoHttpTransport()


def _transport_factory(profile: Profile) -> Callable[[], Transport]:
    if profile.id == DEMO_HTTP_PROFILE_ID:
        return _demo_http_transport
    if profile.transport == "stdio":
        if not profile.stdio.command.strip():
            raise ProfileNotConnectable(f'"{profile.name}" has no command to run')
    else:
        _check_http(profile)
    missing = profile.unresolved_secrets()
    if missing:
        raise ProfileNotConnectable(
            f'"{profile.name}" needs a value for {", ".join(missing)} (edit the profile to enter it)'
        )
    try:
        limits = profile.effective_limits()
    except ValueError as exc:
        raise ProfileNotConnectable(f'"{profile.name}" has a bad limit: {exc}') from None
    if profile.transport == "stdio":
        env = {var.name: var.value or "" for var in profile.stdio.env if var.name}
        return _stdio_factory(profile.stdio, env, limits)
    return HttpTransportFactory(profile, limits)


def connection_settings(profile: Profile) -> ConnectionSettings:
    """ConnectionSettings for a profile with its secrets resolved; ProfileNotConnectable if it cannot be used."""
    factory = _transport_factory(profile)
    t = profile.timeouts
    timeouts = Timeouts(request=t.request, reset_on_progress=t.reset_on_progress, max_total=t.max_total)
    roots: list[dict[str, Any]] = [
        {"uri": root.uri, **({"name": root.name} if root.name else {})} for root in profile.roots
    ]
    capabilities = profile.client_capabilities(profile.protocol_version)
    handlers = GuiRequestHandlers(
        label=profile.name, roots=roots, auto_reply=profile.sampling_auto_reply, capabilities=capabilities
    )
    return ConnectionSettings(
        label=profile.name,
        transport_factory=factory,
        protocol_version=profile.protocol_version,
        protocol_era=profile.protocol_era,
        capabilities=capabilities,
        timeouts=timeouts,
        handlers=handlers,
        explain_url_required=partial(_explain_url_required, handlers),
        auth_feed=factory.auth_feed if isinstance(factory, HttpTransportFactory) else None,
    )


def _explain_url_required(
    handlers: GuiRequestHandlers, error_data: Any, parent: QWidget | None, message: str
) -> UrlElicitationDialog:
    """The URL-elicitation dialog for a -32042 error, following completion through the connection's tracker."""
    return explain_url_elicitation_required(error_data, parent, message=message, tracker=handlers.url_tracker)
