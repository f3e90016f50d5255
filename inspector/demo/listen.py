"""``subscriptions/listen`` with an acknowledgement that can differ from the request (2026-07-28).

The SDK's ``ListenHandler`` honours every kind a client asks for. The demo narrows the request first, so a
client sees an acknowledged *subset*:

* ``toolsListChanged``, ``promptsListChanged``, ``resourcesListChanged``: honoured (``toggle_tool`` fires them).
* ``resourceSubscriptions``: only the URIs the demo ever updates are kept — ``demo://clock`` (every tick) and
  ``demo://files/…`` (``write_file``/``delete_file``); any other URI is left out of the acknowledgement.
* ``taskIds`` (the tasks extension's ``notifications/tasks``): never acknowledged — the demo's tasks are
  polled with ``tasks/get``. Asked for without declaring the extension, the request is refused with -32021
  as the extension requires.
"""

from typing import Any, Final

from mcp.server.context import ServerRequestContext
from mcp.server.mcpserver.server import require_client_extension
from mcp.server.subscriptions import ListenHandler, SubscriptionBus
from mcp_types import SubscriptionFilter, SubscriptionsListenRequestParams, SubscriptionsListenResult

from inspector.demo.state import CLOCK_URI

__all__ = ["FILES_PREFIX", "DemoListen", "honored_filter", "is_watchable"]

FILES_PREFIX: Final = "demo://files/"
_TASKS_EXTENSION: Final = "io.modelcontextprotocol/tasks"


def is_watchable(uri: str) -> bool:
    """Whether the demo ever sends ``notifications/resources/updated`` for ``uri``."""
    return uri == CLOCK_URI or (uri.startswith(FILES_PREFIX) and len(uri) > len(FILES_PREFIX))


def honored_filter(requested: SubscriptionFilter) -> SubscriptionFilter:
    """The part of ``requested`` the demo agrees to deliver (extension keys such as ``taskIds`` dropped)."""
    uris = [uri for uri in requested.resource_subscriptions or () if is_watchable(uri)]
    return SubscriptionFilter(
        tools_list_changed=requested.tools_list_changed,
        prompts_list_changed=requested.prompts_list_changed,
        resources_list_changed=requested.resources_list_changed,
        resource_subscriptions=uris or None,
    )


class DemoListen:
    """The ``subscriptions/listen`` handler: narrows the filter, then the SDK's ``ListenHandler`` serves it."""

    def __init__(self, bus: SubscriptionBus) -> None:
        self._handler = ListenHandler(bus)

    async def __call__(
        self, ctx: ServerRequestContext[Any, Any], params: SubscriptionsListenRequestParams
    ) -> SubscriptionsListenResult:
        if "taskIds" in (params.notifications.model_extra or {}):
            require_client_extension(ctx, _TASKS_EXTENSION)
        narrowed = params.model_copy(update={"notifications": honored_filter(params.notifications)})
        return await self._handler(ctx, narrowed)
