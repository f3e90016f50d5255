"""Authorization that never asks a person: for runs that must use what is stored (``--stored-auth-only``) or
have nobody to ask (no terminal).

Stored tokens are still sent and refreshed, and grants without a person (client credentials, jwt-bearer) still
run; only the step that would open a browser raises :class:`InteractionRefused` instead.
"""

from __future__ import annotations

from mcp.client.auth import OAuthFlowError
from mcp.shared.auth import AuthorizationCodeResult

__all__ = ["InteractionRefused", "NoInteraction", "interaction_refused"]


class InteractionRefused(OAuthFlowError):
    """The flow needed a person to authorize in a browser, and this run may not ask one."""


class NoInteraction:
    """The SDK's redirect and callback handlers for a run that may not ask anyone to authorize."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    async def redirect_handler(self, authorization_url: str) -> None:
        raise InteractionRefused(f"authorization in a browser is needed, but {self.reason}")

    async def callback_handler(self) -> AuthorizationCodeResult:
        raise InteractionRefused(f"authorization in a browser is needed, but {self.reason}")


def interaction_refused(exc: BaseException) -> InteractionRefused | None:
    """The :class:`InteractionRefused` that ``exc`` is or was caused by (None: another failure)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, InteractionRefused):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None
