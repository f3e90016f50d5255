"""``mcp-inspect --cli --completion SHELL`` run for real: the script comes from the CLI, is loaded into the shell,
and the shell's completion function is asked for candidates (bash: ``COMP_WORDS`` -> ``COMPREPLY``; zsh: the
function with the completion builtins replaced by recorders; fish: ``complete -C``). zsh and fish are used
when installed; without them, their scripts are still generated and checked for content.

``--server`` runs the command on the line (``mcp-inspect --cli --method servers/list --format json``); here a
stand-in ``mcp-inspect`` on PATH prints a known list and records its arguments.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.cli.completion import completion_flags

SERVERS_JSON = {"result": {"servers": [
    {"name": "alpha", "type": "stdio", "detail": 'python -c "print(\\"name\\": \\"evil\\")"'},
    {"name": "beta-2", "type": "streamable-http", "detail": "https://example.com/mcp"},
]}}  # fmt: skip


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "inspector", "--cli", *args], capture_output=True, text=True, timeout=60, check=False
    )


@pytest.fixture(scope="module")
def scripts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("completion")
    out = {}
    for shell in ("bash", "zsh", "fish"):
        proc = cli("--completion", shell)
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr == ""
        out[shell] = folder / f"mcp-inspect.{shell}"
        out[shell].write_text(proc.stdout)
    return out


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """A folder with files to complete; beside it a stand-in mcp-inspect (``../bin``, put on PATH) that records
    its arguments in ``../args.txt``."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "server.py").write_text("")
    (work / "settings.json").write_text("")
    (work / "sub").mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stub = bin_dir / "mcp-inspect"
    stub.write_text(f"#!/bin/sh\necho \"$@\" > {tmp_path / 'args.txt'}\ncat <<'EOF'\n{json.dumps(SERVERS_JSON)}\nEOF\n")
    stub.chmod(0o755)
    return work


def recorded(workdir: Path) -> str:
    """The arguments the stand-in mcp-inspect was last run with."""
    return (workdir.parent / "args.txt").read_text()


def shell_env(workdir: Path) -> dict[str, str]:
    return {**os.environ, "PATH": f"{workdir.parent / 'bin'}{os.pathsep}{os.environ['PATH']}", "HOME": str(workdir)}


# --- bash ---------------------------------------------------------------------------------------------------

BASH_ASK = r"""
source "$1"; shift
complete -p mcp-inspect
for line in "$@"; do
  read -r -a COMP_WORDS <<< "$line"
  [[ $line == *" " ]] && COMP_WORDS+=("")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
  _mcp_inspect
  echo "${COMPREPLY[*]}"
done
"""


def bash(script: Path, workdir: Path, *lines: str) -> list[str]:
    """``complete -p`` and then, per command line (words split at spaces; ``=`` as its own word, as bash's
    COMP_WORDBREAKS splits it), the candidates."""
    proc = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", BASH_ASK, "ask", str(script), *lines],
        capture_output=True, text=True, timeout=30, cwd=workdir, env=shell_env(workdir), check=False,
    )  # fmt: skip
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return proc.stdout.split("\n")[:-1]


def test_bash_registers_the_function(scripts: dict[str, Path], workdir: Path) -> None:
    assert bash(scripts["bash"], workdir) == ["complete -o bashdefault -o default -F _mcp_inspect mcp-inspect"]


def test_bash_completes_options_values_and_files(scripts: dict[str, Path], workdir: Path) -> None:
    answers = bash(
        scripts["bash"], workdir,
        "mcp-inspect --c",
        "mcp-inspect --cli --for",
        "mcp-inspect --cli --format ",
        "mcp-inspect --cli --format = j",
        "mcp-inspect --cli --method tools/",
        "mcp-inspect --cli --method servers/r",
        "mcp-inspect --cli --transport ",
        "mcp-inspect --cli --log-level e",
        "mcp-inspect --cli --protocol-era ",
        "mcp-inspect --cli --output-format ",
        "mcp-inspect --cli --output ser",
        "mcp-inspect --cli --config s",
        "mcp-inspect --cli --cwd ",
        "mcp-inspect --cli --limit message",
        "mcp-inspect --cli --load-",
        "mcp-inspect --cli --tool-name ",
        "mcp-inspect --cli -- --for",
        "mcp-inspect --cli --server ",
        "mcp-inspect --cli --catalog = /tmp/cat.json --server b",
    )  # fmt: skip
    assert answers[1:] == [
        "--cli",
        "--format",
        "text json human",
        "json",
        "tools/list tools/call",
        "servers/remove",
        "stdio http sse",
        "error emergency",
        "legacy modern auto",
        "json raw",
        "server.py",
        answers[12],  # below: in the order of the directory
        "sub",
        "message_bytes=",
        "--load-concurrency --load-duration --load-requests --load-rate",
        "",  # a value to type
        "",  # after --: the server's own arguments (file names, by the default completion)
        "alpha beta-2",
        "beta-2",
    ]
    assert sorted(answers[12].split()) == ["server.py", "settings.json", "sub"]
    assert recorded(workdir).split() == [
        "--cli", "--method", "servers/list", "--format", "json", "--catalog", "/tmp/cat.json",
    ]  # fmt: skip


def test_bash_offers_every_option(scripts: dict[str, Path], workdir: Path) -> None:
    offered = set(bash(scripts["bash"], workdir, "mcp-inspect --cli -")[1].split())
    assert offered == {name for flag in completion_flags() for name in flag.names}


def test_bash_server_names_of_our_own_catalog(scripts: dict[str, Path], workdir: Path) -> None:
    catalog = workdir / "mcp.json"
    catalog.write_text(json.dumps({"mcpServers": {"alpha": {"command": "x"}, "beta": {"url": "http://127.0.0.1:1/"}}}))
    stub = workdir.parent / "bin" / "mcp-inspect"
    stub.write_text(f'#!/bin/sh\nexec {sys.executable} -m inspector "$@"\n')
    assert bash(scripts["bash"], workdir, f"mcp-inspect --cli --catalog {catalog} --server ")[1] == "alpha beta"


# --- zsh ----------------------------------------------------------------------------------------------------

ZSH_ASK = r"""
autoload -Uz compinit && compinit -u -D
source "$1"; shift
print -r -- "registered $_comps[mcp-inspect]"
compadd() {
  local nospace=0 array=""
  while [[ $1 == -* && $1 != -- ]]; do
    case $1 in -S) nospace=1; shift ;; -a) array=$2; shift ;; esac; shift
  done
  [[ $1 == -- ]] && shift
  (( nospace )) && reply+=("(nospace)")
  if [[ -n $array ]]; then reply+=(${(P)array}); else reply+=("$@"); fi
}
_describe() { local entry; for entry in ${(P)${@[-1]}}; do reply+=("${entry%%:*}"); done }
_files() { reply+=("(files $*)") }
_message() { reply+=("(message)") }
compset() { reply+=("(compset $*)") }
for line in "$@"; do
  words=(${(s: :)line}); [[ $line == *" " ]] && words+=("")
  CURRENT=${#words}; reply=()
  _mcp_inspect
  print -r -- "${reply[*]}"
done
"""


def zsh(script: Path, workdir: Path, *lines: str) -> list[str]:
    proc = subprocess.run(
        ["zsh", "-f", "-c", ZSH_ASK, "ask", str(script), *lines],
        capture_output=True, text=True, timeout=30, cwd=workdir, env=shell_env(workdir), check=False,
    )  # fmt: skip
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return proc.stdout.split("\n")[:-1]


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed (its script is checked for content)")
def test_zsh_script(scripts: dict[str, Path], workdir: Path) -> None:
    syntax = subprocess.run(["zsh", "-n", str(scripts["zsh"])], capture_output=True, text=True, check=False)
    assert syntax.returncode == 0, syntax.stderr
    answers = zsh(
        scripts["zsh"], workdir,
        "mcp-inspect --c",
        "mcp-inspect --cli --format ",
        "mcp-inspect --cli --format=j",
        "mcp-inspect --cli --limit ",
        "mcp-inspect --cli --output ",
        "mcp-inspect --cli --cwd ",
        "mcp-inspect --cli --tool-name ",
        "mcp-inspect --cli python ",
        "mcp-inspect --cli -- --x",
        "mcp-inspect --cli --catalog=/tmp/c.json --server ",
    )  # fmt: skip
    assert answers[0] == "registered _mcp_inspect"
    assert answers[1] == "--cli --demo --version --help"
    assert answers[2:4] == ["text json human", "(compset -P *=) text json human"]
    assert answers[4].startswith("(nospace) message_bytes= ")
    assert answers[5:10] == ["(files )", "(files -/)", "(message)", "(files )", "(files )"]
    assert answers[10] == "alpha beta-2"
    assert "--catalog /tmp/c.json" in recorded(workdir)
    options = set(zsh(scripts["zsh"], workdir, "mcp-inspect --cli -")[1].split())
    assert options == {name for flag in completion_flags() for name in flag.names}


# --- fish ---------------------------------------------------------------------------------------------------


def fish(script: Path, workdir: Path, line: str) -> list[str]:
    proc = subprocess.run(
        ["fish", "--no-config", "-c", f"source {script}; complete -C {json.dumps(line)}"],
        capture_output=True, text=True, timeout=30, cwd=workdir, env=shell_env(workdir), check=False,
    )  # fmt: skip
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return [candidate.split("\t")[0] for candidate in proc.stdout.splitlines()]


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed (its script is checked for content)")
def test_fish_script(scripts: dict[str, Path], workdir: Path) -> None:
    syntax = subprocess.run(["fish", "--no-execute", str(scripts["fish"])], capture_output=True, text=True, check=False)
    assert syntax.returncode == 0, syntax.stderr
    script = scripts["fish"]
    assert fish(script, workdir, "mcp-inspect --c") == ["--cli"]
    assert fish(script, workdir, "mcp-inspect --cli --for") == ["--format"]
    assert sorted(fish(script, workdir, "mcp-inspect --cli --format ")) == ["human", "json", "text"]
    assert fish(script, workdir, "mcp-inspect --cli --format=j") == ["--format=json"]
    assert fish(script, workdir, "mcp-inspect --cli --method tools/") == ["tools/call", "tools/list"]
    assert fish(script, workdir, "mcp-inspect --cli --output se") == ["server.py", "settings.json"]
    assert fish(script, workdir, "mcp-inspect --cli --cwd ") == ["sub/"]
    assert fish(script, workdir, "mcp-inspect --cli --limit message") == ["message_bytes="]
    assert fish(script, workdir, "mcp-inspect --cli --server ") == ["alpha", "beta-2"]
    assert fish(script, workdir, "mcp-inspect --cli --catalog /tmp/c.json --server b") == ["beta-2"]
    assert "--catalog /tmp/c.json" in recorded(workdir)
    assert fish(script, workdir, "mcp-inspect --cli -- --for") == []  # the server's own arguments
    longs = {name for flag in completion_flags() for name in flag.names if name.startswith("--")}
    assert set(fish(script, workdir, "mcp-inspect --cli --")) == longs


# --- the command line ---------------------------------------------------------------------------------------


def test_an_unknown_shell_is_a_usage_error() -> None:
    proc = cli("--completion", "tcsh")
    assert proc.returncode == 1 and proc.stdout == ""
    error = json.loads(proc.stderr)["error"]
    assert error["code"] == "error" and "tcsh" in error["message"]
    proc = cli("--completion")
    assert proc.returncode == 1 and proc.stdout == ""


@pytest.mark.node
def test_the_official_cli_refuses_an_unknown_shell_the_same_way(tmp_path: Path) -> None:
    from sidebyside import both

    theirs, mine = both("--completion", "tcsh", home=tmp_path)
    assert (theirs.returncode, mine.returncode) == (1, 1)
    assert theirs.stdout == mine.stdout == ""
    assert json.loads(theirs.stderr)["error"]["code"] == json.loads(mine.stderr)["error"]["code"] == "error"
