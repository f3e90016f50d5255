"""``mcp-inspect --cli --snapshot`` and ``mcp-inspect --diff`` against real servers over stdio: the bundled demo
in both eras (standard and the deliberately changed build), recordings of real sessions, server-everything."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nodetools
import pytest
from clikit import run_inspector
from replaykit import demo_command, era_args, record, stdio

from inspector.client.connection import Connection
from inspector.regression.snapshot import SNAPSHOT_FORMAT

ERAS = ("legacy", "modern")

# Every change the changed build makes that a surface shows: (kind, path, words of the reason).
EXPECTED = [
    ("breaking", '$.tools["echo"]', 'tool "echo" removed (renamed to "echo_message"?)'),
    ("breaking", '$.tools["get_weather"].inputSchema.required', 'required argument "country" added'),
    ("breaking", '$.tools["large_result"].inputSchema.properties.shape.enum', 'enum value "json" removed'),
    ("breaking", '$.tools["get_weather"].outputSchema.properties.wind_kph', 'property "wind_kph" removed'),
    ("breaking", '$.tools["create_event"].annotations.destructiveHint', 'tool "create_event" turned destructive'),
    ("compatible", '$.tools["echo_message"]', 'tool "echo_message" added'),
    ("compatible", '$.tools["multiply"]', 'tool "multiply" added'),
    ("compatible", '$.tools["business_error"].inputSchema.properties.code', 'optional argument "code" added'),
    ("cosmetic", '$.tools["protocol_error"].description', "description"),
    ("cosmetic", '$.tools["business_error"].title', "title"),
]


def snapshot(path: Path, era: str, variant: str = "standard") -> Path:
    proc = run_inspector(
        "--cli", "--snapshot", *era_args(era), "--output", str(path), "--", *demo_command(era, variant), timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert path.is_file()
    return path


def diff(old: Path, new: Path, *args: str, cli: bool = False) -> Any:
    return run_inspector(*(["--cli"] if cli else []), "--diff", str(old), str(new), *args, timeout=60)


def assert_expected(changes: list[dict[str, Any]]) -> None:
    for kind, path, words in EXPECTED:
        hits = [c for c in changes if c["path"] == path]
        assert hits, f"no change at {path}: {[c['path'] for c in changes]}"
        assert any(c["kind"] == kind and words in c["reason"] for c in hits), (path, hits)


@pytest.mark.parametrize("era", ERAS)
def test_snapshot_of_the_demo_is_stable_and_complete(tmp_path: Path, era: str) -> None:
    first = snapshot(tmp_path / "first.json", era)
    second = snapshot(tmp_path / "second.json", era)
    assert first.read_bytes() == second.read_bytes()
    text = first.read_text(encoding="utf-8")
    document = json.loads(text)
    assert text == json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    assert document["format"] == SNAPSHOT_FORMAT and document["version"] == 1
    assert document["era"] == ("handshake" if era == "legacy" else "modern")
    assert document["protocolVersion"] == ("2025-11-25" if era == "legacy" else "2026-07-28")
    assert document["serverInfo"]["name"] == "inspector-demo"
    assert {"tools", "resources", "prompts"} <= set(document["capabilities"])
    names = [tool["name"] for tool in document["tools"]]
    assert names == sorted(names) and {"echo", "get_weather", "create_event", "task_slow"} <= set(names)
    weather = next(tool for tool in document["tools"] if tool["name"] == "get_weather")
    assert {"inputSchema", "outputSchema", "annotations", "icons", "title", "description"} <= set(weather)
    uris = [resource["uri"] for resource in document["resources"]]
    assert uris == sorted(uris) and "demo://clock" in uris
    templates = [template["uriTemplate"] for template in document["resourceTemplates"]]
    assert "demo://users/{user_id}/profile" in templates
    prompts = {prompt["name"]: prompt for prompt in document["prompts"]}
    assert prompts["greeting"]["arguments"]
    assert diff(first, second).returncode == 0


@pytest.mark.parametrize("era", ERAS)
def test_diff_catches_every_change_of_the_changed_build(tmp_path: Path, era: str) -> None:
    standard = snapshot(tmp_path / "standard.json", era)
    changed = snapshot(tmp_path / "changed.json", era, "changed")
    proc = diff(standard, changed, "--format", "json")
    assert proc.returncode == 10, proc.stderr
    report = json.loads(proc.stdout)
    assert report["format"] == "mcp-inspect/surface-diff" and report["version"] == 1
    assert report["old"] == str(standard) and report["new"] == str(changed)
    changes = report["changes"]
    assert_expected(changes)
    summary = report["summary"]
    assert summary["total"] == len(changes)
    assert summary["breaking"] == sum(1 for c in changes if c["kind"] == "breaking") == 5
    kinds = [c["kind"] for c in changes]
    assert kinds == sorted(kinds, key=["breaking", "compatible", "cosmetic"].index)
    text = diff(standard, changed, cli=True)
    assert text.returncode == 10
    lines = text.stdout.splitlines()
    assert 'breaking    $.tools["get_weather"].inputSchema.required  required argument "country" added' in lines
    assert (
        lines[-1]
        == f"{summary['breaking']} breaking, {summary['compatible']} compatible, {summary['cosmetic']} cosmetic"
    )
    backwards = diff(changed, standard, "--format", "json")
    assert backwards.returncode == 10  # the rename back removes echo_message
    same = diff(standard, standard)
    assert same.returncode == 0 and same.stdout == "no changes\n"


async def _lists(conn: Connection) -> None:
    await conn.list_tools()
    await conn.list_resources()
    await conn.list_resource_templates()
    await conn.list_prompts()


@pytest.mark.parametrize("era", ERAS)
def test_diff_from_recordings(tmp_path: Path, era: str) -> None:
    recorded_standard = record(stdio(demo_command(era)), tmp_path, _lists, era=era)
    recorded_changed = record(stdio(demo_command(era, "changed")), tmp_path, _lists, era=era)
    standard = snapshot(tmp_path / "standard.json", era)
    # A recording of the same server shows the same surface as its snapshot.
    same = diff(recorded_standard, standard, "--format", "json")
    assert same.returncode == 0, same.stdout
    assert json.loads(same.stdout)["summary"]["total"] == 0
    proc = diff(recorded_standard, recorded_changed, "--format", "json")
    assert proc.returncode == 10, proc.stderr
    assert_expected(json.loads(proc.stdout)["changes"])
    assert diff(standard, recorded_changed).returncode == 10


def test_unreadable_inputs_exit_1_with_one_line(tmp_path: Path) -> None:
    good = snapshot(tmp_path / "good.json", "legacy")
    not_json = tmp_path / "notes.txt"
    not_json.write_text("hello", encoding="utf-8")
    other_json = tmp_path / "other.json"
    other_json.write_text('{"tools": []}', encoding="utf-8")
    fake_db = tmp_path / "fake.sqlite3"
    fake_db.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    for bad, words in (
        (tmp_path / "missing.json", "cannot read"),
        (not_json, "neither a snapshot"),
        (other_json, "not a surface snapshot"),
        (fake_db, "cannot read the recording"),
    ):
        proc = diff(good, bad)
        assert proc.returncode == 1, proc.stdout
        assert proc.stdout == ""
        assert len(proc.stderr.strip().splitlines()) == 1 and words in proc.stderr, proc.stderr
    as_json = diff(bad, good, "--format", "json")
    assert as_json.returncode == 1
    assert json.loads(as_json.stderr)["error"]["message"]
    usage = run_inspector("--diff", str(good), timeout=60)
    assert usage.returncode == 1 and "usage: mcp-inspect --diff OLD NEW" in usage.stderr


def test_snapshot_flags_in_help_and_clashes() -> None:
    help_text = run_inspector("--cli", "--help", timeout=60).stdout
    assert "--snapshot" in help_text and "--diff OLD NEW" in help_text
    clash = run_inspector("--cli", "--snapshot", "--method", "tools/list", "--demo", timeout=60)
    assert clash.returncode == 1 and "--snapshot" in clash.stderr and "--method" in clash.stderr


@pytest.mark.node
def test_snapshot_of_server_everything(tmp_path: Path) -> None:
    server = nodetools.require_server_everything("stdio")
    paths = []
    for name in ("one.json", "two.json"):
        path = tmp_path / name
        proc = run_inspector("--cli", "--snapshot", "--output", str(path), "--", *server, timeout=120)
        assert proc.returncode == 0, proc.stderr
        paths.append(path)
    assert paths[0].read_bytes() == paths[1].read_bytes()
    document = json.loads(paths[0].read_text(encoding="utf-8"))
    names = {tool["name"] for tool in document["tools"]}
    assert "echo" in names and len(names) > 5
    assert document["resources"] and document["prompts"]
    assert diff(paths[0], paths[1]).returncode == 0


@pytest.mark.parametrize("variant", ["standard", "changed"])
def test_snapshot_over_http_of_either_build(variant: str) -> None:
    import asyncio

    from inspector.demo.http_transport import DemoHttpTransport
    from inspector.regression.snapshot import take_snapshot

    async def take() -> dict[str, Any]:
        async with Connection(DemoHttpTransport(variant=variant)) as conn:
            return await take_snapshot(conn)

    transport = DemoHttpTransport(variant=variant)
    assert ("--variant" in transport.describe()) is (variant == "changed")
    document = asyncio.run(take())
    names = {tool["name"] for tool in document["tools"]}
    assert document["era"] == "modern"  # auto speaks 2026-07-28 to the demo
    assert ("echo_message" in names, "echo" in names) == ((True, False) if variant == "changed" else (False, True))


def test_the_changed_build_still_works() -> None:
    """Its tools answer (the changes are the only differences): the renamed tool, the new argument, the new tool,
    and the one result that changed."""
    import asyncio

    from mcp.client import Client

    from inspector.demo.server import build_server

    async def calls(variant: str) -> dict[str, Any]:
        async with Client(build_server(clock_interval=60, variant=variant)) as client:
            out: dict[str, Any] = {"add": await client.call_tool("add", {"a": 1, "b": 2})}
            if variant == "changed":
                out["echo"] = await client.call_tool("echo_message", {"message": "hi"})
                out["weather"] = await client.call_tool("get_weather", {"city": "Lagos", "country": "NG"})
                out["old weather"] = await client.call_tool("get_weather", {"city": "Lagos"})
                out["multiply"] = await client.call_tool("multiply", {"a": 2, "b": 3})
                out["json"] = await client.call_tool("large_result", {"kilobytes": 1, "shape": "json"})
            return out

    standard, changed = asyncio.run(calls("standard")), asyncio.run(calls("changed"))
    assert standard["add"].content[0].text == "3" and changed["add"].content[0].text == "1 + 2 = 3"
    assert standard["add"].structured_content == changed["add"].structured_content == {"sum": 3}
    assert changed["echo"].content[0].text == "hi"
    weather = changed["weather"].structured_content
    assert not changed["weather"].is_error and weather["country"] == "NG" and "wind_kph" not in weather
    assert changed["old weather"].is_error
    assert changed["multiply"].structured_content == {"product": 6}
    assert changed["json"].is_error
