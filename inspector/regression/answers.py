"""The replay's answers to the server: what the recording answered, in the same order (Qt-free).

:class:`RecordedAnswers` is the replay connection's ``ServerRequestHandlers``. Before each request is sent again,
the replay gives it the answers recorded while that request was in flight (:meth:`RecordedAnswers.begin`). A
sampling, elicitation or roots request of the server (handshake era) or an input of an ``input_required`` round
(2026-07-28, matched by its key first) takes the next recorded answer of the same method, so a recording made in
one era answers a replay in the other. When the recording has no answer left for what the server asks now, the
session's own recorded answers of that method are tried (a roots list given at the start), then the headless
answers of the CLI; each such fallback is noted on the request (:attr:`RecordedAnswers.notes`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from inspector.client.handlers import HandlerError, HeadlessHandlers, current_request
from inspector.regression.recorded import Answer

__all__ = ["RecordedAnswers"]


class RecordedAnswers:
    """Answers the server with the recording's answers (see the module docstring)."""

    def __init__(self, session_answers: Sequence[Answer] = (), fallback: HeadlessHandlers | None = None) -> None:
        self._session = list(session_answers)
        self._pending: list[Answer] = []
        self._fallback = fallback or HeadlessHandlers()
        self.notes: list[str] = []
        """What was answered without a recorded answer, since the last :meth:`begin`."""
        self.used = 0
        """How many recorded answers were given since the last :meth:`begin`."""

    def begin(self, answers: Sequence[Answer]) -> None:
        """The next request is about to be sent: these are the answers recorded while it was in flight."""
        self._pending = list(answers)
        self.notes = []
        self.used = 0

    def _take(self, method: str) -> Answer | None:
        info = current_request.get()
        key = info.input_key if info is not None else None
        if key is not None:
            for index, answer in enumerate(self._pending):
                if answer.key == key and answer.method == method:
                    return self._pending.pop(index)
        for index, answer in enumerate(self._pending):
            if answer.method == method:
                return self._pending.pop(index)
        return None

    async def _answer(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        answer = self._take(method)
        if answer is None:
            answer = next((a for a in reversed(self._session) if a.method == method), None)
            if answer is None:
                self.notes.append(
                    f"the server asked {method}, which the recording has no answer for: answered "
                    "as the CLI does headless"
                )
                return await self._headless(method, params)
        self.used += 1
        if answer.error is not None:
            code = answer.error.get("code")
            message = answer.error.get("message")
            raise HandlerError(
                code if isinstance(code, int) else -32603,
                message if isinstance(message, str) else "error",
                answer.error.get("data"),
            )
        return dict(answer.result or {})

    async def _headless(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if method == "sampling/createMessage":
            return await self._fallback.create_message(params)
        if method == "elicitation/create":
            return await self._fallback.elicit(params)
        return await self._fallback.list_roots(params)

    async def create_message(self, params: dict[str, Any]) -> dict[str, Any]:
        return await self._answer("sampling/createMessage", params)

    async def elicit(self, params: dict[str, Any]) -> dict[str, Any]:
        return await self._answer("elicitation/create", params)

    async def list_roots(self, params: dict[str, Any]) -> dict[str, Any]:
        return await self._answer("roots/list", params)
