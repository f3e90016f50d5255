"""``mcp-inspect --cli`` commands reproducing logged requests, checked against the CLI's own parser."""

from __future__ import annotations

import json
import shlex
from typing import Any

import pytest

from inspector.cli.args import parse_args
from inspector.cli.command_line import cli_command

TARGET = "python server.py --port 3"


def req(method: str, params: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": 1, "method": method}
    if params is not None:
        body["params"] = params
    return body


def parsed(text: str) -> Any:
    words = shlex.split(text)
    assert words[:2] == ["mcp-inspect", "--cli"]
    return parse_args(words[2:])


def test_tools_call_with_plain_strings_uses_tool_arg() -> None:
    command = cli_command(req("tools/call", {"name": "echo", "arguments": {"message": "hi there", "x": "a=b"}}), TARGET)
    assert command.exact and command.notes == []
    assert command.text == (
        "mcp-inspect --cli --method tools/call --tool-name echo --tool-arg 'message=hi there' --tool-arg x=a=b "
        "-- python server.py --port 3"
    )
    opts = parsed(command.text)
    assert opts.method == "tools/call" and opts.tool_name == "echo"
    assert opts.tool_arg_pairs == [("message", "hi there"), ("x", "a=b")]
    assert opts.target == ["python", "server.py", "--port", "3"]


@pytest.mark.parametrize(
    "arguments",
    [{"a": 1, "b": 2.5}, {"flag": True}, {"n": "3"}, {"obj": {"k": [1, None]}}, {"s": " padded"}, {"k=v": "x"}],
)
def test_tools_call_with_typed_values_uses_json(arguments: dict[str, Any]) -> None:
    command = cli_command(req("tools/call", {"name": "add", "arguments": arguments}), TARGET)
    assert command.exact
    opts = parsed(command.text)
    assert opts.tool_args_json == arguments and opts.tool_arg_pairs == []


def test_resources_prompts_logging_and_lists() -> None:
    read = cli_command(req("resources/read", {"uri": "file:///tmp/a b.txt"}), TARGET)
    assert read.exact and parsed(read.text).uri == "file:///tmp/a b.txt"
    prompt = cli_command(req("prompts/get", {"name": "greet", "arguments": {"who": "Ada Lovelace"}}), TARGET)
    opts = parsed(prompt.text)
    assert prompt.exact and opts.prompt_name == "greet" and opts.prompt_args == {"who": "Ada Lovelace"}
    level = cli_command(req("logging/setLevel", {"level": "warning"}), TARGET)
    assert level.exact and parsed(level.text).log_level == "warning"
    for method in ("ping", "tools/list", "resources/list", "resources/templates/list", "prompts/list"):
        command = cli_command(req(method), TARGET)
        assert command.exact and parsed(command.text).method == method
    paged = cli_command(req("tools/list", {"cursor": "abc"}), TARGET)
    assert paged.exact and "cursor" in paged.notes[0]


def test_other_methods_get_the_closest_command_and_say_so() -> None:
    command = cli_command(req("completion/complete", {"ref": {}, "argument": {}}), TARGET)
    assert not command.exact and "cannot send completion/complete" in command.notes[0]
    assert parsed(command.text).method == "ping"
    init = cli_command(req("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}}), TARGET)
    opts = parsed(init.text)
    assert opts.method == "ping" and opts.protocol_version == "2025-06-18" and "handshake" in init.notes[0]
    server_side = cli_command(req("sampling/createMessage", {"messages": []}), TARGET, direction="in")
    assert not server_side.exact and "sent by the server" in server_side.notes[0]
    bad_level = cli_command(req("logging/setLevel", {"level": "loud"}), TARGET)
    assert not bad_level.exact
    typed_prompt = cli_command(req("prompts/get", {"name": "p", "arguments": {"n": 3}}), TARGET)
    assert not typed_prompt.exact and parsed(typed_prompt.text).prompt_args == {"n": "3"}
    extra = cli_command(req("resources/read", {"uri": "a://b", "extra": 1}), TARGET)
    assert not extra.exact and "extra" in extra.notes[-1]


def test_meta_and_missing_target() -> None:
    params = {"name": "echo", "arguments": {"m": "x"}, "_meta": {"progressToken": 5}}
    command = cli_command(req("tools/call", params), None)
    assert not command.exact
    assert command.text.endswith("-- SERVER-COMMAND")
    assert any("_meta" in n for n in command.notes) and any("SERVER-COMMAND" in n for n in command.notes)
    assert cli_command({"jsonrpc": "2.0", "id": 1, "result": {}}, TARGET).text == ""


def test_unicode_and_quotes_survive_the_shell() -> None:
    arguments = {"text": 'l\'été "chaud" ✓', "n": 1}
    command = cli_command(req("tools/call", {"name": "echo", "arguments": arguments}), "node 'my server.js'")
    opts = parsed(command.text)
    assert opts.tool_args_json == arguments and opts.target == ["node", "my server.js"]
    assert json.loads(shlex.split(command.text)[shlex.split(command.text).index("--tool-args-json") + 1]) == arguments
