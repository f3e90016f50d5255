"""The server catalog (servers/list, show, add, edit, remove; --catalog, --config, --server) next to the official CLI.

Each CLI works on its own copy of the same catalog file and its own HOME; after every step both files must hold
the same JSON and both exits must agree. The official CLI keeps secrets in a file store in its HOME
(``MCP_INSPECTOR_SECRET_STORE=file``, else it refuses -e and --rename without an OS keychain); ours in a test
keyring file (:mod:`filekeyring`). Where we deliberately differ (a secret header is never written into the file)
the test says so.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from filekeyring import keyring_env, stored
from sidebyside import Outcome, official, ours

pytestmark = pytest.mark.node

DEMO = [sys.executable, "-m", "inspector.demo"]
START = {
    "mcpServers": {
        "keep": {"type": "stdio", "command": "node", "args": ["kept.js"]},
        "web": {"type": "streamable-http", "url": "http://127.0.0.1:9/mcp", "headers": {"X-Region": "eu"}},
    }
}


class Pair:
    """The two CLIs, each with its HOME and its copy of the catalog."""

    def __init__(self, root: Path, start: dict[str, Any] | None = START) -> None:
        self.root = root
        self.homes = {"official": root / "official", "ours": root / "ours"}
        self.catalogs = {side: home / "catalog" / "mcp.json" for side, home in self.homes.items()}
        for path in self.catalogs.values():
            path.parent.mkdir(parents=True)
            if start is not None:
                path.write_text(json.dumps(start, indent=2), encoding="utf-8")
        self.keyring = root / "ours-keyring.json"
        self.env = {
            "official": {"MCP_INSPECTOR_SECRET_STORE": "file"},
            "ours": keyring_env(self.keyring),
        }

    def run(self, *args: str, catalog: bool = True) -> tuple[Outcome, Outcome]:
        outcomes = []
        for side, cli in (("official", official), ("ours", ours)):
            extra = ["--catalog", str(self.catalogs[side])] if catalog else []
            outcomes.append(cli(*args, *extra, home=self.homes[side], env=self.env[side], cwd=self.root))
        return outcomes[0], outcomes[1]

    def files(self) -> tuple[Any, Any]:
        return tuple(json.loads(self.catalogs[side].read_text(encoding="utf-8")) for side in ("official", "ours"))  # type: ignore[return-value]

    def same_file(self) -> Any:
        theirs, mine = self.files()
        assert mine == theirs
        return mine

    def result(self, outcome: Outcome, side: str) -> Any:
        """The stdout document with this side's catalog path made neutral."""
        return json.loads(outcome.stdout.replace(str(self.catalogs[side]), "CATALOG"))


def same(pair: Pair, *args: str, rc: int = 0) -> Any:
    """Both CLIs run ``args`` with the same exit code and the same resulting file; their results must match."""
    theirs, mine = pair.run(*args)
    assert (theirs.returncode, mine.returncode) == (rc, rc), (theirs.stderr, mine.stderr)
    pair.same_file()
    if rc != 0:
        for outcome in (theirs, mine):
            assert json.loads(outcome.stderr.strip().splitlines()[-1])["error"]["code"] == "error", outcome.stderr
        return None
    assert pair.result(mine, "ours") == pair.result(theirs, "official")
    return pair.result(mine, "ours")


def test_add_edit_rename_remove_leave_the_same_file(tmp_path: Path) -> None:
    pair = Pair(tmp_path)
    same(pair, "--method", "servers/add", "--server", "py", "-e", "TOKEN=abc", "--cwd", "/tmp", "python", "-m", "srv")
    assert pair.files()[1]["mcpServers"]["py"]["env"] == {"TOKEN": ""}  # the value is in each one's secret store
    assert "abc" in stored(pair.keyring).values()
    same(pair, "--method", "servers/add", "--server", "remote", "--header", "X-Trace: 1", "--protocol-era", "modern",
         "http://127.0.0.1:9/mcp")  # fmt: skip
    same(pair, "--method", "servers/add", "--server", "events", "--server-url", "http://127.0.0.1:9/sse")
    same(pair, "--method", "servers/add", "--server", "legacy", "--transport", "sse", "http://127.0.0.1:9/events")
    same(pair, "--method", "servers/edit", "--server", "py", "--cwd", "/var")
    same(pair, "--method", "servers/edit", "--server", "py", "-e", "MODE=fast")
    same(pair, "--method", "servers/edit", "--server", "remote", "--header", "X-Other: 2")
    same(pair, "--method", "servers/edit", "--server", "remote", "--protocol-era", "legacy")
    same(pair, "--method", "servers/edit", "--server", "events", "--rename", "events2")
    same(pair, "--method", "servers/edit", "--server", "keep", "node", "other.js", "--flag")
    same(pair, "--method", "servers/edit", "--server", "legacy", "--transport", "http", "http://127.0.0.1:9/x")
    same(pair, "--method", "servers/remove", "--server", "web")
    final = pair.same_file()
    assert list(final["mcpServers"]) == ["keep", "py", "remote", "events2", "legacy"]


@pytest.mark.parametrize(
    "args",
    [
        ("--method", "servers/add", "--server", "keep", "node", "x.js"),  # exists
        ("--method", "servers/add", "--server", "bad name", "node", "x.js"),
        ("--method", "servers/add", "--server", "n"),  # no server
        ("--method", "servers/add", "node", "x.js"),  # no name
        ("--method", "servers/add", "--server", "n", "http://127.0.0.1:9/unknown"),  # transport not from the path
        ("--method", "servers/add", "--server", "n", "--cwd", "/tmp", "http://127.0.0.1:9/mcp"),
        ("--method", "servers/add", "--server", "n", "--rename", "m", "node", "x.js"),
        ("--method", "servers/edit", "--server", "keep"),  # nothing to change
        ("--method", "servers/edit", "--server", "keep", "--rename", "web"),  # exists
        ("--method", "servers/edit", "--server", "keep", "--rename", "a b"),
        ("--method", "servers/edit", "--server", "missing", "--cwd", "/tmp"),
        ("--method", "servers/edit", "--server", "web", "-e", "A=1"),  # stdio only
        ("--method", "servers/edit", "--server", "keep", "--transport", "sse", "--cwd", "/tmp"),
        ("--method", "servers/remove", "--server", "missing"),
        ("--method", "servers/remove", "--server", "keep", "--cwd", "/tmp"),
        ("--method", "servers/show"),
        ("--method", "servers/show", "--server", "missing"),
        ("--method", "servers/list", "--rename", "x"),
    ],
)
def test_refusals_match_and_change_nothing(tmp_path: Path, args: tuple[str, ...]) -> None:
    pair = Pair(tmp_path)
    same(pair, *args, rc=1)
    assert pair.files()[1] == START


def test_list_and_show_print_the_same(tmp_path: Path) -> None:
    pair = Pair(tmp_path)
    same(pair, "--method", "servers/add", "--server", "Alpha", "-e", "K=v", "--cwd", "/tmp", "node", "a.js")
    same(pair, "--method", "servers/add", "--server", "_under", "--protocol-era", "auto", "http://127.0.0.1:9/sse")
    listed = same(pair, "--method", "servers/list")
    assert [row["name"] for row in listed["servers"]] == ["_under", "Alpha", "keep", "web"]
    for name in ("Alpha", "_under", "keep", "web"):
        shown = same(pair, "--method", "servers/show", "--server", name)
        assert shown["name"] == name
    assert same(pair, "--method", "servers/show", "--server", "Alpha")["config"]["env"] == {"K": "[redacted]"}
    theirs, mine = pair.run("--method", "servers/list", "--format", "json")
    assert (theirs.returncode, mine.returncode) == (0, 0)
    assert json.loads(mine.stdout) == json.loads(theirs.stdout)
    assert "result" in json.loads(mine.stdout)


def test_config_is_read_only_and_must_exist(tmp_path: Path) -> None:
    pair = Pair(tmp_path)
    config = tmp_path / "session.json"
    config.write_text(json.dumps(START), encoding="utf-8")
    theirs, mine = pair.run("--config", str(config), "--method", "servers/list", catalog=False)
    assert (theirs.returncode, mine.returncode) == (0, 0)
    assert json.loads(mine.stdout) == json.loads(theirs.stdout)
    for args in (
        ("--config", str(config), "--method", "servers/add", "--server", "n", "node", "x"),
        ("--config", str(tmp_path / "absent.json"), "--method", "servers/list"),
        ("--config", str(config), "--catalog", str(tmp_path / "c.json"), "--method", "servers/list"),
    ):
        theirs, mine = pair.run(*args, catalog=False)
        assert (theirs.returncode, mine.returncode) == (1, 1), (args, theirs.stderr, mine.stderr)
    assert json.loads(config.read_text()) == START
    assert not (tmp_path / "absent.json").exists() and not (tmp_path / "c.json").exists()


def test_the_default_catalog_is_created_in_home(tmp_path: Path) -> None:
    pair = Pair(tmp_path, start=None)
    theirs, mine = pair.run("--method", "servers/list", catalog=False)
    assert (theirs.returncode, mine.returncode) == (0, 0)
    assert json.loads(mine.stdout) == json.loads(theirs.stdout) == {"servers": []}
    files = [json.loads((pair.homes[side] / ".mcp-inspector" / "mcp.json").read_text()) for side in pair.homes]
    assert files[0] == files[1] == {"mcpServers": {}}
    # MCP_CATALOG_PATH names another one
    for side in pair.env:
        pair.env[side]["MCP_CATALOG_PATH"] = str(pair.catalogs[side])
    theirs, mine = pair.run("--method", "servers/add", "--server", "a", "node", "a.js", catalog=False)
    assert (theirs.returncode, mine.returncode) == (0, 0), (theirs.stderr, mine.stderr)
    pair.same_file()


def test_a_secret_header_is_kept_out_of_our_file(tmp_path: Path) -> None:
    """Where we differ on purpose: the official writes an Authorization header into mcp.json in plaintext."""
    pair = Pair(tmp_path)
    # (the URL first: the official's --header takes every following NAME:VALUE-looking word, a URL too)
    args = ("http://127.0.0.1:9/mcp", "--method", "servers/add", "--server", "auth",
            "--header", "Authorization: Bearer s3cret", "--header", "X-Region: eu")  # fmt: skip
    theirs, mine = pair.run(*args)
    assert (theirs.returncode, mine.returncode) == (0, 0), mine.stderr
    official_file, our_file = pair.files()
    assert official_file["mcpServers"]["auth"]["headers"] == {"Authorization": "Bearer s3cret", "X-Region": "eu"}
    assert our_file["mcpServers"]["auth"]["headers"] == {"Authorization": "", "X-Region": "eu"}
    assert "s3cret" not in pair.catalogs["ours"].read_text()
    assert "Bearer s3cret" in stored(pair.keyring).values()
    # both show it redacted
    theirs, mine = pair.run("--method", "servers/show", "--server", "auth")
    assert pair.result(mine, "ours")["settings"]["headers"] == pair.result(theirs, "official")["settings"]["headers"]


def test_without_a_keyring_we_refuse_env_values_as_the_official_does_without_a_store(tmp_path: Path) -> None:
    pair = Pair(tmp_path)
    pair.env = {"official": {"MCP_INSPECTOR_SECRET_STORE": "memory"}, "ours": {}}  # ours: conftest's null keyring
    same(pair, "--method", "servers/add", "--server", "n", "-e", "K=V", "node", "x.js", rc=1)
    assert pair.files()[1] == START


def test_server_from_the_catalog_runs_the_demo(tmp_path: Path) -> None:
    pair = Pair(tmp_path)
    same(pair, "--method", "servers/add", "--server", "demo", *DEMO)
    theirs, mine = pair.run("--server", "demo", "--method", "tools/list", "--protocol-era", "legacy")
    assert (theirs.returncode, mine.returncode) == (0, 0), (theirs.stderr, mine.stderr)
    names = [{tool["name"] for tool in json.loads(out.stdout)["tools"]} for out in (theirs, mine)]
    assert names[0] == names[1] and len(names[0]) >= 10
    theirs, mine = pair.run("--server", "missing", "--method", "tools/list")
    assert (theirs.returncode, mine.returncode) == (1, 1)


def test_without_server_the_only_entry_runs(tmp_path: Path) -> None:
    solo = Pair(tmp_path / "solo", start={"mcpServers": {}})
    same(solo, "--method", "servers/add", "--server", "demo", *DEMO)
    theirs, mine = solo.run("--method", "tools/list")
    assert (theirs.returncode, mine.returncode) == (0, 0), (theirs.stderr, mine.stderr)
    several = Pair(tmp_path / "several")  # START has two entries: both refuse to guess
    theirs, mine = several.run("--method", "tools/list")
    assert (theirs.returncode, mine.returncode) == (1, 1)
    # and with no catalog flag the default catalog in HOME is the source
    empty = Pair(tmp_path / "empty", start=None)
    theirs, mine = empty.run("--method", "tools/list", catalog=False)
    assert (theirs.returncode, mine.returncode) == (1, 1)
    for home in empty.homes.values():
        assert json.loads((home / ".mcp-inspector" / "mcp.json").read_text()) == {"mcpServers": {}}


def test_an_http_entry_runs_and_its_keyring_header_reaches_the_server(tmp_path: Path) -> None:
    from demowire import demo_http
    from servers.http_misbehaving import MisbehavingHttpServer

    pair = Pair(tmp_path)
    with demo_http() as url:
        same(pair, url, "--method", "servers/add", "--server", "web2", "--header", "X-Region: eu")
        theirs, mine = pair.run("--server", "web2", "--method", "tools/list", "--protocol-era", "legacy")
        assert (theirs.returncode, mine.returncode) == (0, 0), (theirs.stderr, mine.stderr)
        names = [{tool["name"] for tool in json.loads(out.stdout)["tools"]} for out in (theirs, mine)]
        assert names[0] == names[1]
    # ours keeps a secret header in the keyring, not in the file, and sends it
    with MisbehavingHttpServer() as server:
        catalog = ("--catalog", str(pair.catalogs["ours"]))
        mine = ours(server.url(), "--method", "servers/add", "--server", "auth", *catalog,
                    "--header", "Authorization: Bearer t0ken", "--header", "X-Region: eu",
                    home=pair.homes["ours"], env=pair.env["ours"])  # fmt: skip
        assert mine.returncode == 0, mine.stderr
        assert "t0ken" not in pair.catalogs["ours"].read_text()
        mine = ours("--server", "auth", "--method", "tools/list", *catalog, home=pair.homes["ours"],
                    env=pair.env["ours"])  # fmt: skip
        assert mine.returncode == 0, mine.stderr
        sent = [seen.headers for seen in server.seen("POST", "/mcp")]
        assert sent and all(h.get("authorization") == "Bearer t0ken" and h.get("x-region") == "eu" for h in sent)


def test_a_catalog_entry_added_by_the_official_with_env_runs_here(tmp_path: Path) -> None:
    """The official keeps -e values in its own store; ours finds them there (its plaintext secrets file)."""
    pair = Pair(tmp_path)
    script = tmp_path / "needs_env.py"
    script.write_text(
        "import os, runpy, sys\n"
        "if os.environ.get('DEMO_KEY') != 'k-42':\n"
        "    sys.exit('DEMO_KEY is ' + repr(os.environ.get('DEMO_KEY')))\n"
        "runpy.run_module('inspector.demo', run_name='__main__')\n",
        encoding="utf-8",
    )
    theirs = official("--method", "servers/add", "--server", "demo", "-e", "DEMO_KEY=k-42", sys.executable,
                      str(script), "--catalog", str(pair.catalogs["official"]), home=pair.homes["official"],
                      env=pair.env["official"])  # fmt: skip
    assert theirs.returncode == 0, theirs.stderr
    entry = json.loads(pair.catalogs["official"].read_text())["mcpServers"]["demo"]
    assert entry["env"] == {"DEMO_KEY": ""}  # the official's placeholder: the value is in its secrets file
    shutil.copy(pair.catalogs["official"], pair.catalogs["ours"])
    shutil.copytree(pair.homes["official"] / ".mcp-inspector", pair.homes["ours"] / ".mcp-inspector")
    run = ("--server", "demo", "--method", "ping", "--catalog", str(pair.catalogs["ours"]))
    mine = ours(*run, home=pair.homes["ours"], env=pair.env["ours"])
    assert mine.returncode == 0, mine.stderr
    # and without that store the value is missing: the server refuses to start
    (pair.homes["ours"] / ".mcp-inspector" / "secrets.json").unlink()
    mine = ours(*run, home=pair.homes["ours"], env=pair.env["ours"])
    assert mine.returncode == 1 and "DEMO_KEY is ''" in mine.stderr, mine.stderr
