"""Running a replay from the window: a fresh connection to the chosen target, answered with the recording's answers.

:class:`ReplayRun` reads the recording (in a worker thread), opens its own connection with the target's settings
(never the tab's: its handlers would ask a person; this one answers with the recording,
:mod:`inspector.regression.answers`) and runs :func:`inspector.regression.replay.replay` as an asyncio task on the
window's loop. Signals: ``started(total)``, ``resultReady(RequestResult)`` per request, ``finished(ReplayReport)``,
``failed(message)`` (the recording cannot be read, the target cannot be opened) and ``cancelled()``. Opening is
bounded by ``connect_timeout``, each request by the replay's own timeout.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Final

from PySide6.QtCore import QObject, Signal

from inspector.client.connection import Connection
from inspector.client.errors import ClientError, message_of
from inspector.regression.answers import RecordedAnswers
from inspector.regression.recorded import read_session
from inspector.regression.replay import ReplayConfig, replay
from inspector.store.recording import RecordingError
from inspector.ui.connection.controller import ConnectionSettings

__all__ = ["CONNECT_TIMEOUT", "ReplayRun", "ReplayTarget"]

CONNECT_TIMEOUT: Final = 30.0


@dataclass(frozen=True, slots=True)
class ReplayTarget:
    """A target to choose: its name in the list and how to connect to it."""

    label: str
    settings: ConnectionSettings


class ReplayRun(QObject):
    started = Signal(int)
    resultReady = Signal(object)
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, parent: QObject | None = None, *, connect_timeout: float = CONNECT_TIMEOUT) -> None:
        super().__init__(parent)
        self.connect_timeout = connect_timeout
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self, recording: str, target: ReplayTarget, config: ReplayConfig) -> None:
        if self.running:
            return
        self._task = asyncio.ensure_future(self._run(recording, target, config))

    def cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def _run(self, recording: str, target: ReplayTarget, config: ReplayConfig) -> None:
        try:
            session = await asyncio.to_thread(read_session, recording)
        except (RecordingError, OSError) as exc:
            self.failed.emit(f"Cannot read the recording: {exc}")
            return
        except asyncio.CancelledError:
            self.cancelled.emit()
            return
        self.started.emit(len(session.requests))
        s = target.settings
        answers = RecordedAnswers(session.session_answers)
        conn = Connection(
            s.transport_factory(),
            protocol_version=s.protocol_version,
            protocol_era=s.protocol_era,
            capabilities=s.capabilities,
            handlers=answers,
            timeouts=s.timeouts,
            reuse_discover=False,
        )
        try:
            try:
                async with asyncio.timeout(self.connect_timeout):
                    await conn.connect()
            except TimeoutError:
                self.failed.emit(f"Could not connect to {target.label} within {self.connect_timeout:g} s")
                return
            except ClientError as exc:
                self.failed.emit(f"Could not connect to {target.label}: {message_of(exc)}")
                return
            report = await replay(
                session, conn, answers, config=config, target=target.label, on_result=self.resultReady.emit
            )
        except asyncio.CancelledError:
            self.cancelled.emit()
            return
        except Exception as exc:  # the window must never see a traceback
            self.failed.emit(f"The replay failed: {type(exc).__name__}: {exc}")
            return
        finally:
            await _close(conn)
        self.finished.emit(report)


async def _close(conn: Any) -> None:
    try:
        await asyncio.shield(conn.close())
    except (Exception, asyncio.CancelledError):
        pass
