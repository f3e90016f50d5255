"""``--completion bash|zsh|fish``: a shell completion script for ``mcp-inspect``, generated from the parser.

Every option of :func:`inspector.cli.parser.build_parser` is offered; options with a closed set of values
complete those values (``--method``, ``--format``, ``--transport``, ``--log-level``, ``--protocol-era``,
``--output-format``, ``--protocol-version``, ``--grant``, ``--dpop``, ``--limit NAME=``), path options complete
file names (``--cwd`` directories), and ``--server`` completes the names in the catalog, read by running
``mcp-inspect --cli --method servers/list --format json`` (with the line's ``--catalog``) when TAB is pressed.
Words after ``--`` belong to the server command and complete as file names.
"""

from __future__ import annotations

import argparse
import re
import shlex
from dataclasses import dataclass
from typing import Final, Literal

from inspector.cli.errors import UsageError

__all__ = ["COMMAND", "SHELLS", "Flag", "completion_flags", "completion_script"]

COMMAND: Final = "mcp-inspect"
SHELLS: Final = ("bash", "zsh", "fish")
_FUNCTION: Final = "_mcp_inspect"

ValueKind = Literal["none", "choice", "file", "dir", "server", "free"]

_WINDOW_FLAGS: Final = (
    ("--cli", "run the headless command line (these completions)"),
    ("--demo", "open the window on the bundled demo server"),
    ("--version", "print the version and exit"),
    ("--help", "show the window's options"),
)
_FILE_METAVARS: Final = frozenset({"PATH", "FILE", "PEM-FILE"})
_DIR_METAVARS: Final = frozenset({"DIR"})


@dataclass(frozen=True, slots=True)
class Flag:
    """One option as a completion script needs it."""

    names: tuple[str, ...]
    value: ValueKind
    description: str
    choices: tuple[str, ...] = ()
    no_space: bool = False
    """The choices end in ``=`` (``--limit message_bytes=``): no space after them."""

    @property
    def long(self) -> str | None:
        return next((name for name in self.names if name.startswith("--")), None)

    @property
    def short(self) -> str | None:
        return next((name for name in self.names if not name.startswith("--")), None)


def _value_choices() -> dict[str, tuple[tuple[str, ...], bool]]:
    """Closed value sets the parser does not declare as argparse ``choices`` (checked later, by hand)."""
    from inspector.cli.auth_options import DPOP_MODES, GRANTS
    from inspector.cli.parser import CATALOG_METHODS, ONE_SHOT_METHODS
    from inspector.protocol.limits import Limits
    from inspector.protocol.versions import KNOWN_VERSIONS

    return {
        "--method": ((*ONE_SHOT_METHODS, *CATALOG_METHODS), False),
        "--transport": (("stdio", "http", "sse"), False),
        "--protocol-version": (tuple(KNOWN_VERSIONS), False),
        "--grant": (tuple(GRANTS), False),
        "--dpop": (tuple(DPOP_MODES), False),
        "--limit": (tuple(f"{name}=" for name in Limits.names()), True),
    }


def _describe(help_text: str | None) -> str:
    """An option's help shortened for a menu: without its parentheses, up to the first ``;`` or sentence end
    (or ``:`` after three words or more), at most 70 characters."""
    text = help_text or ""
    while True:
        shorter = re.sub(r"\s*\([^()]*\)", "", text)
        if shorter == text:
            break
        text = shorter
    text = re.split(r"; |\. ", text, maxsplit=1)[0]
    head, colon, _ = text.partition(": ")
    if colon and len(head.split()) >= 3:  # "method to invoke: a, b, c" -> "method to invoke"
        text = head
    text = text.strip().rstrip(",.;:")
    return text if len(text) <= 70 else text[:67].rstrip() + "..."


def completion_flags(parser: argparse.ArgumentParser | None = None) -> list[Flag]:
    """The parser's options (hidden ones left out), each with what its value completes to."""
    from inspector.cli.parser import NOT_BUILT_FLAGS, build_parser

    if parser is None:
        parser = build_parser()
    closed = _value_choices()
    flags: list[Flag] = []
    for action in parser._actions:
        if not action.option_strings or action.help == argparse.SUPPRESS:
            continue
        names = tuple(action.option_strings)
        long = next((name for name in names if name.startswith("--")), names[0])
        description = _describe(action.help)
        if long in NOT_BUILT_FLAGS:
            description = f"{NOT_BUILT_FLAGS[long]}: not available in {COMMAND} yet"
        metavar = action.metavar if isinstance(action.metavar, str) else ""
        if action.nargs == 0:
            flags.append(Flag(names, "none", description))
        elif action.choices is not None:
            flags.append(Flag(names, "choice", description, tuple(str(c) for c in action.choices)))
        elif long in closed:
            values, no_space = closed[long]
            flags.append(Flag(names, "choice", description, values, no_space))
        elif long == "--server":
            flags.append(Flag(names, "server", description))
        elif metavar in _FILE_METAVARS:
            flags.append(Flag(names, "file", description))
        elif metavar in _DIR_METAVARS:
            flags.append(Flag(names, "dir", description))
        else:
            flags.append(Flag(names, "free", description))
    return flags


def completion_script(shell: str) -> str:
    """The completion script for ``shell`` (bash, zsh or fish); another shell is a usage error (exit 1)."""
    if shell not in SHELLS:
        raise UsageError(f"--completion: unknown shell {shell!r}; one of: {', '.join(SHELLS)}")
    flags = completion_flags()
    if shell == "bash":
        return _bash(flags)
    if shell == "zsh":
        return _zsh(flags)
    return _fish(flags)


def _header(shell: str) -> str:
    return f"# {shell} completion for {COMMAND} (generated by `{COMMAND} --cli --completion {shell}`)."


def _words(values: tuple[str, ...] | list[str]) -> str:
    return shlex.quote(" ".join(values))


def _names(flags: list[Flag], kind: ValueKind) -> list[str]:
    return [name for flag in flags if flag.value == kind for name in flag.names]


# The catalog's server names, from the JSON of servers/list ({"result": {"servers": [{"name": ...}]}}).
_NAME_PATTERN: Final = r'"name": *"[^"\\]*"'


def _bash(flags: list[Flag]) -> str:
    cases: list[str] = []
    for flag in flags:
        if flag.value == "choice":
            nospace = "; compopt -o nospace 2>/dev/null" if flag.no_space else ""
            cases.append(
                f"    {'|'.join(flag.names)})\n"
                f'      COMPREPLY=($(compgen -W {_words(flag.choices)} -- "$cur")); compopt +o default 2>/dev/null'
                f"{nospace}; return 0 ;;"
            )
    by_kind: tuple[tuple[ValueKind, str], ...] = (
        ("file", 'COMPREPLY=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null'),
        ("dir", 'COMPREPLY=($(compgen -d -- "$cur")); compopt -o filenames 2>/dev/null'),
        ("server", f'COMPREPLY=($(compgen -W "$({_FUNCTION}_servers)" -- "$cur")); compopt +o default 2>/dev/null'),
        ("free", "compopt +o default 2>/dev/null"),  # a value to type: no file names
    )
    for kind, action in by_kind:
        if _names(flags, kind):
            cases.append(f"    {'|'.join(_names(flags, kind))})\n      {action}; return 0 ;;")
    every = [name for flag in flags for name in flag.names]
    window = [name for name, _ in _WINDOW_FLAGS]
    return f"""{_header("bash")}
# Load it with:  source <({COMMAND} --cli --completion bash)
# or save it as ~/.local/share/bash-completion/completions/{COMMAND}
{_FUNCTION}_servers() {{
  local i catalog=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    if [[ ${{COMP_WORDS[i]}} == --catalog ]]; then
      if [[ ${{COMP_WORDS[i+1]}} == = ]]; then catalog=(--catalog "${{COMP_WORDS[i+2]}}")
      else catalog=(--catalog "${{COMP_WORDS[i+1]}}"); fi
    fi
  done
  "${{COMP_WORDS[0]}}" --cli --method servers/list --format json "${{catalog[@]}}" </dev/null 2>/dev/null \\
    | grep -o '{_NAME_PATTERN}' | sed -e 's/^"name": *"//' -e 's/"$//'
}}
{_FUNCTION}() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}} i cli=0
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${{COMP_WORDS[i]}} in
      --) return 0 ;;  # the server command's own arguments: file names
      --cli) cli=1 ;;
    esac
  done
  if ((!cli)); then
    [[ $cur == -* ]] && COMPREPLY=($(compgen -W {_words(window)} -- "$cur"))
    return 0
  fi
  # --opt=value: bash splits it at "=" (COMP_WORDBREAKS) into --opt, =, value; complete the value
  if [[ $cur == = ]]; then
    cur=""
  elif [[ $prev == = ]] && ((COMP_CWORD >= 3)); then
    prev=${{COMP_WORDS[COMP_CWORD-2]}}
  fi
  case $prev in
{chr(10).join(cases)}
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W {_words(every)} -- "$cur"))
  fi
  return 0  # a server command (TARGET): file names
}}
complete -o bashdefault -o default -F {_FUNCTION} {COMMAND}
"""


def _sh_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _zsh_entry(name: str, description: str) -> str:
    return _sh_quote(name.replace("\\", "\\\\").replace(":", "\\:") + ":" + description)


def _zsh(flags: list[Flag]) -> str:
    cases: list[str] = []
    for flag in flags:
        if flag.value == "choice":
            suffix = "-S '' " if flag.no_space else ""
            values = " ".join(_sh_quote(value) for value in flag.choices)
            cases.append(f"    {'|'.join(flag.names)})\n      compadd {suffix}-- {values}; return ;;")
    by_kind: tuple[tuple[ValueKind, str], ...] = (
        ("file", "_files"),
        ("dir", "_files -/"),
        ("server", f'local -a servers; servers=(${{(f)"$({_FUNCTION}_servers)"}}); compadd -a servers'),
        ("free", "_message 'value'"),
    )
    for kind, action in by_kind:
        if _names(flags, kind):
            cases.append(f"    {'|'.join(_names(flags, kind))})\n      {action}; return ;;")
    options = "\n".join(f"    {_zsh_entry(name, flag.description)}" for flag in flags for name in flag.names)
    window = " ".join(_zsh_entry(name, description) for name, description in _WINDOW_FLAGS)
    return f"""#compdef {COMMAND}
{_header("zsh")}
# Load it with:  source <({COMMAND} --cli --completion zsh)
# or save it as _{COMMAND} in a directory of your $fpath (before compinit runs).
{_FUNCTION}_servers() {{
  local i catalog=()
  for (( i = 2; i < CURRENT; i++ )); do
    case ${{words[i]}} in
      --catalog) catalog=(--catalog "${{words[i+1]}}") ;;
      --catalog=*) catalog=(--catalog "${{words[i]#*=}}") ;;
    esac
  done
  "${{words[1]}}" --cli --method servers/list --format json "${{catalog[@]}}" </dev/null 2>/dev/null \\
    | grep -o '{_NAME_PATTERN}' | sed -e 's/^"name": *"//' -e 's/"$//'
}}
{_FUNCTION}() {{
  local cur=${{words[CURRENT]}} prev=${{words[CURRENT-1]}} i cli=0 inline=0
  for (( i = 2; i < CURRENT; i++ )); do
    case ${{words[i]}} in
      --) _files; return ;;  # the server command's own arguments
      --cli) cli=1 ;;
    esac
  done
  if (( ! cli )); then
    local -a modes; modes=({window})
    _describe -t modes 'mode' modes
    return
  fi
  if [[ $cur == --*=* ]]; then  # --opt=value: complete the value only
    prev=${{cur%%=*}}; compset -P '*='; cur=${{cur#*=}}; inline=1
  fi
  case $prev in
{chr(10).join(cases)}
  esac
  (( inline )) && return
  if [[ $cur == -* ]]; then
    local -a opts
    opts=(
{options}
    )
    _describe -t options 'option' opts
  else
    _files  # a server command (TARGET)
  fi
}}
if [[ ${{funcstack[1]}} == _{COMMAND} ]]; then
  {_FUNCTION} "$@"
else
  compdef {_FUNCTION} {COMMAND}
fi
"""


def _fish_quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _fish_line(flag: Flag) -> str:
    parts = [f"complete -c {COMMAND} -n {_FUNCTION}_options"]
    if flag.long is not None:
        parts.append(f"-l {flag.long[2:]}")
    if flag.short is not None:
        parts.append(f"-s {flag.short[1:]}")
    if flag.value == "choice":
        parts.append(f"-x -a {_fish_quote(' '.join(flag.choices))}")
    elif flag.value == "file":
        parts.append("-r -F")
    elif flag.value == "dir":
        parts.append("-x -a '(__fish_complete_directories)'")
    elif flag.value == "server":
        parts.append(f"-x -a '({_FUNCTION}_servers)'")
    elif flag.value == "free":
        parts.append("-x")
    parts.append(f"-d {_fish_quote(flag.description)}")
    return " ".join(parts)


def _fish(flags: list[Flag]) -> str:
    window = "\n".join(
        f"complete -c {COMMAND} -n {_FUNCTION}_window -l {name[2:]} -d {_fish_quote(description)}"
        for name, description in _WINDOW_FLAGS
    )
    lines = "\n".join(_fish_line(flag) for flag in flags)
    return f"""{_header("fish")}
# Load it with:  {COMMAND} --cli --completion fish | source
# or save it as ~/.config/fish/completions/{COMMAND}.fish
function {_FUNCTION}_window
    not contains -- --cli (commandline -opc)
end
function {_FUNCTION}_options  # --cli given, and no '--' yet (after it: the server command's arguments)
    set -l tokens (commandline -opc)
    contains -- --cli $tokens; and not contains -- -- $tokens
end
function {_FUNCTION}_servers
    set -l tokens (commandline -opc)
    set -l catalog
    set -l at (contains -i -- --catalog $tokens)
    and test $at -lt (count $tokens)
    and set catalog --catalog $tokens[(math $at + 1)]
    for token in $tokens
        string match -q -- '--catalog=*' $token; and set catalog --catalog (string replace -- '--catalog=' '' $token)
    end
    command -q -- $tokens[1]; or return 0
    $tokens[1] --cli --method servers/list --format json $catalog </dev/null 2>/dev/null \\
        | string match -r -a -g -- '"name": *"([^"\\\\\\\\]*)"'
end
{window}
{lines}
"""
