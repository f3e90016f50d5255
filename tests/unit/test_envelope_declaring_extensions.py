"""``declaring_extensions``: per-request extensions added to the 2026-07-28 envelope, only inside its context."""

from __future__ import annotations

import asyncio

from inspector.protocol.envelope import CLIENT_CAPABILITIES_KEY, declaring_extensions, enveloped
from inspector.protocol.tasks import TASKS_EXTENSION


def _caps(capabilities: dict[str, object]) -> object:
    params = enveloped(None, protocol_version="2026-07-28", capabilities=capabilities, client_info=None, log_level=None)
    return params["_meta"][CLIENT_CAPABILITIES_KEY]


def test_extensions_are_declared_inside_the_context_only() -> None:
    base = {"sampling": {}, "extensions": {"x/other": {"a": 1}}}
    assert _caps(base) == base
    with declaring_extensions({TASKS_EXTENSION: {}}):
        assert _caps(base) == {"sampling": {}, "extensions": {"x/other": {"a": 1}, TASKS_EXTENSION: {}}}
        with declaring_extensions({"x/more": {}}):
            assert set(_caps({})["extensions"]) == {TASKS_EXTENSION, "x/more"}  # type: ignore[index]
        assert _caps({}) == {"extensions": {TASKS_EXTENSION: {}}}
    assert _caps(base) == base
    assert base == {"sampling": {}, "extensions": {"x/other": {"a": 1}}}  # the session's own dict is untouched


def test_the_context_follows_one_asyncio_task_not_its_neighbours() -> None:
    async def main() -> tuple[object, object]:
        seen: list[object] = []
        release = asyncio.Event()

        async def declaring() -> None:
            with declaring_extensions({TASKS_EXTENSION: {}}):
                await release.wait()
                seen.append(_caps({}))

        async def plain() -> None:
            await asyncio.sleep(0)
            seen.append(_caps({}))
            release.set()

        await asyncio.gather(declaring(), plain())
        return seen[0], seen[1]

    plain_caps, task_caps = asyncio.run(main())
    assert plain_caps == {}
    assert task_caps == {"extensions": {TASKS_EXTENSION: {}}}
