"""A surface snapshot built from a recording: its opening answer and the list answers it holds, all pages.

The opening is the last successful ``initialize`` (handshake era) or ``server/discover`` (2026-07-28) answer;
each list (tools, resources, templates, prompts) is the last complete listing recorded: a request without a
``cursor`` starts a listing, the requests with the cursors it handed out add their pages to it. A list the
recording never asked for is left out of the snapshot (it is not empty: it is unknown), and
``recordedLists`` in the snapshot names the lists that were there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from inspector.protocol.envelope import PROTOCOL_VERSION_KEY, SERVER_INFO_KEY, meta_of
from inspector.protocol.versions import MODERN_VERSION, MODERN_VERSIONS, Era
from inspector.protocol.wire import Direction, Kind
from inspector.regression.snapshot import LISTS, SnapshotError, build_snapshot
from inspector.store.recording import RecordFilter, Recording, RecordingError, RecordRow

__all__ = ["snapshot_from_recording"]

_OPENINGS: Final = {"initialize": Era.HANDSHAKE, "server/discover": Era.MODERN}
_PAGE: Final = 500


def snapshot_from_recording(path: Path | str) -> dict[str, Any]:
    """The surface the recording at ``path`` saw. Raises SnapshotError (one line) for an unreadable file or one
    without an opening answer."""
    try:
        recording = Recording.open(path, readonly=True)
    except (RecordingError, OSError) as exc:
        raise SnapshotError(f"cannot read the recording {path}: {exc}") from None
    try:
        return _Reader().read(recording, str(path))
    finally:
        recording.close()


class _Reader:
    def __init__(self) -> None:
        self.requests: dict[tuple[str | None, str | None], dict[str, Any]] = {}
        self.opening: tuple[str, dict[str, Any], dict[str, Any]] | None = None
        self.listings: dict[str, list[Any]] = {}
        self.open_listing: dict[str, list[Any]] = {}

    def read(self, recording: Recording, name: str) -> dict[str, Any]:
        methods = {*_OPENINGS, *(method for *_rest, method in LISTS)}
        query = RecordFilter(kinds={Kind.REQUEST.value, Kind.RESPONSE.value}, methods=methods)
        offset = 0
        while rows := recording.rows(query, offset, _PAGE):
            for row in rows:
                self._row(row)
            offset += len(rows)
        if self.opening is None:
            raise SnapshotError(f"{name}: the recording has no answer to initialize or server/discover")
        method, request, result = self.opening
        era = _OPENINGS[method]
        if era is Era.MODERN:
            offered = meta_of(request.get("params")).get(PROTOCOL_VERSION_KEY)
            supported = [v for v in result.get("supportedVersions") or [] if v in MODERN_VERSIONS]
            version = offered if isinstance(offered, str) else (supported[0] if supported else MODERN_VERSION)
            info = meta_of(result).get(SERVER_INFO_KEY)
        else:
            version = str(result.get("protocolVersion", ""))
            info = result.get("serverInfo")
        instructions = result.get("instructions")
        capabilities = result.get("capabilities")
        snapshot = build_snapshot(
            era=era,
            protocol_version=version,
            server_info=info if isinstance(info, dict) else {},
            capabilities=capabilities if isinstance(capabilities, dict) else {},
            instructions=instructions if isinstance(instructions, str) else None,
            lists=self.listings,
        )
        for key, *_rest in LISTS:
            if key not in self.listings:
                del snapshot[key]
        snapshot["recordedLists"] = sorted(self.listings)
        return snapshot

    def _row(self, row: RecordRow) -> None:
        try:
            message = json.loads(row.raw)
        except ValueError:
            return
        if not isinstance(message, dict):
            return
        key = (None if row.msg_id is None else str(row.msg_id), row.id_type)
        if row.direction == Direction.OUT and row.kind == Kind.REQUEST:
            self.requests[key] = message
            return
        if row.direction != Direction.IN or row.kind != Kind.RESPONSE or row.method is None:
            return
        result = message.get("result")
        if not isinstance(result, dict):
            return
        request = self.requests.pop(key, {})
        if row.method in _OPENINGS:
            self.opening = (row.method, request, result)
            return
        for list_key, _sort_key, _capability, method in LISTS:
            if method == row.method:
                self._page(list_key, request, result)

    def _page(self, key: str, request: dict[str, Any], result: dict[str, Any]) -> None:
        params = request.get("params")
        cursor = params.get("cursor") if isinstance(params, dict) else None
        items = result.get(key)
        page = list(items) if isinstance(items, list) else []
        if cursor is None or key not in self.open_listing:
            self.open_listing[key] = page
        else:
            self.open_listing[key].extend(page)
        self.listings[key] = self.open_listing[key]
