"""Notifications from the server: the checks every one gets (timing, known method, schema, declared
capability) and what ``notifications/progress`` does to the request it reports on."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from inspector.protocol.capabilities import has_capability, notification_capability
from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode, Severity
from inspector.protocol.events import ProgressReceived
from inspector.protocol.frame_context import FrameContext
from inspector.protocol.methods import is_known_server_notification
from inspector.protocol.salvage import finite
from inspector.protocol.session_types import PendingRequest

__all__ = ["apply_progress", "screen_notification"]


def screen_notification(
    method: str,
    params: Any,
    ctx: FrameContext,
    *,
    version: str,
    settled: bool,
    server_capabilities: dict[str, Any],
    validation: ModuleType | None,
) -> list[Diagnostic]:
    """Put on ``ctx`` what is wrong with a server notification (``settled``: the opening is over); return the
    schema findings (None of them when ``validation`` is off), which the notification's event carries too."""
    if not settled and method != "notifications/message":
        ctx.diag(DiagnosticCode.BEFORE_HANDSHAKE, f"{method} sent before the handshake completed", Severity.WARNING)
    diags: list[Diagnostic] = []
    if is_known_server_notification(method, version):
        if validation is not None:
            diags = validation.validate_server_notification(method, version, params)
            ctx.wire.diagnostics.extend(diags)
    else:
        ctx.diag(
            DiagnosticCode.UNKNOWN_METHOD,
            f"{method} is not a server notification in MCP {version}",
            Severity.WARNING,
        )
    cap = notification_capability(method)
    if cap is not None and settled and not has_capability(server_capabilities, cap):
        ctx.diag(
            DiagnosticCode.UNDECLARED_CAPABILITY,
            f"{method} sent, but the server did not declare '{cap}'",
            Severity.WARNING,
        )
    return diags


def apply_progress(
    pending: PendingRequest | None,
    params: dict[str, Any],
    ctx: FrameContext,
    *,
    clock: Callable[[], float],
    validating: bool,
) -> None:
    """``notifications/progress`` for ``pending`` (the request its token names, None if it names none): record
    the progress, restart the request's deadline when its timeouts say so, and put a ``ProgressReceived`` on
    ``ctx``. ``validating``: the schema check already reported a progress that is not a number."""
    if pending is None:
        ctx.diag(
            DiagnosticCode.UNKNOWN_PROGRESS_TOKEN,
            f"progress for token {params.get('progressToken')!r}, which matches no pending request",
            Severity.WARNING,
            "$.params.progressToken",
        )
        return
    progress = finite(params.get("progress"))
    if progress is None:
        if not validating:
            ctx.diag(DiagnosticCode.SCHEMA, "progress must be a number", path="$.params.progress")
        return
    if pending.last_progress is not None and progress <= pending.last_progress:
        ctx.diag(
            DiagnosticCode.SCHEMA,
            f"progress went from {pending.last_progress:g} to {progress:g}; it must increase",
            Severity.WARNING,
            "$.params.progress",
        )
    pending.last_progress = progress
    if pending.timeouts.reset_on_progress and pending.timeouts.request is not None:
        pending.deadline = clock() + pending.timeouts.request
    message = params.get("message")
    ctx.events.append(
        ProgressReceived(
            pending.id, progress, finite(params.get("total")), message if isinstance(message, str) else None
        )
    )
