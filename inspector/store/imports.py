"""Import servers from the mcpServers-style config files other MCP clients keep.

Formats (one lenient parser reads them all; the format only changes defaults and wording):

- Claude Desktop ``claude_desktop_config.json``: ``{"mcpServers": {NAME: {"command", "args", "env"}}}``,
  remote entries with ``url`` (and ``type``).
- Cursor ``.cursor/mcp.json``: the same ``mcpServers`` shape; remote entries have ``url`` and
  ``headers`` (and sometimes no ``type``: a URL path ending in ``/sse`` means legacy SSE, any other
  means Streamable HTTP).
- VS Code ``.vscode/mcp.json``: ``{"inputs": [...], "servers": {NAME: {"type": "stdio"|"http"|"sse",
  ...}}}`` (also ``{"mcp": {...}}`` inside ``settings.json``). Values may refer to ``${input:ID}``:
  the reference is kept and the entry lists it in ``needs_input`` (a ``password`` input makes the
  variable or header secret). ``envFile`` is noted, not read. ``${workspaceFolder}`` is expanded when
  the file sits in ``<folder>/.vscode/``. Comments and trailing commas (JSONC) are accepted.
- Claude Code ``~/.claude.json``: the user's ``mcpServers`` and each project's
  (``projects.<folder>.mcpServers``, named ``NAME (folder)`` when the name is taken); a project's ``.mcp.json``
  is a plain ``mcpServers`` file. Entries have ``type`` (``stdio``/``http``/``sse``) as above.
- The official inspector's catalog ``~/.mcp-inspector/mcp.json``: ``mcpServers`` with ``type``
  (``stdio``/``http``/``sse``), ``url``, ``headers``, ``cwd``, plus ``roots``, ``requestTimeout``
  (ms) and ``oauth`` (``clientId``, ``clientSecret``, ``scopes``), which are imported too.

A file that cannot be read or parsed gives an :class:`ImportResult` with no entries and an error
naming the line and column; an entry of the wrong shape is skipped with an error naming the key
(``mcpServers.github.args[2]: expected a string, got a number``); the others still import.
Environment variables and headers whose names look like secrets (KEY, TOKEN, SECRET, PASSWORD,
AUTH, ...) are flagged secret, so the profile store puts their values in the keyring.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal
from urllib.parse import urlsplit

from inspector.protocol.jsontypes import json_type_phrase
from inspector.store.profiles import (
    AuthSettings,
    EnvVar,
    Header,
    HttpSettings,
    Profile,
    Root,
    StdioSettings,
    TransportKind,
)

__all__ = [
    "FORMAT_LABELS",
    "ImportEntry",
    "ImportFormat",
    "ImportResult",
    "InputRef",
    "NeedsInput",
    "RefKind",
    "detect_format",
    "import_file",
    "known_locations",
    "looks_secret",
    "parse_config",
    "parse_config_data",
    "strip_jsonc",
]

ImportFormat = Literal["auto", "claude", "claude-code", "cursor", "vscode", "inspector", "mcpServers"]

FORMAT_LABELS: Final[dict[str, str]] = {
    "claude": "Claude Desktop",
    "claude-code": "Claude Code",
    "cursor": "Cursor",
    "vscode": "VS Code",
    "inspector": "MCP Inspector catalog",
    "mcpServers": "mcpServers file",
}

_SECRET_WORDS: Final = ("KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "AUTH", "CREDENTIAL", "COOKIE", "SESSION")
_INPUT_REF: Final = re.compile(r"\$\{input:([^}]+)\}")
_OTHER_VAR: Final = re.compile(r"\$\{(?!input:)([^}]+)\}")
_TRANSPORT_ALIASES: Final[dict[str, TransportKind]] = {
    "stdio": "stdio",
    "http": "http",
    "streamable-http": "http",
    "streamable_http": "http",
    "streamablehttp": "http",
    "sse": "sse",
}
_ENTRY_KEYS: Final = frozenset(
    {
        "type", "transport", "command", "args", "env", "cwd", "url", "serverUrl", "headers", "envFile",
        "roots", "requestTimeout", "oauth", "disabled", "description",
    }
)  # fmt: skip


def looks_secret(name: str) -> bool:
    """True for names like API_KEY, GITHUB_TOKEN, DB_PASSWORD, Authorization, X-Api-Key."""
    upper = name.upper()
    return any(word in upper for word in _SECRET_WORDS)


# -- results -------------------------------------------------------------------------------------------


@dataclass
class InputRef:
    """A VS Code input (``inputs`` array): VS Code prompts for it when it starts the server."""

    id: str
    type: str = "promptString"
    description: str = ""
    password: bool = False
    default: str | None = None


RefKind = Literal["env", "header", "arg", "command", "url", "cwd"]


@dataclass
class NeedsInput:
    """A value that still contains ``${input:ID}``: the user must supply it before connecting."""

    kind: RefKind
    name: str
    """The variable or header name; for args the index as text; else the key."""
    input_id: str
    description: str = ""
    password: bool = False


@dataclass
class ImportEntry:
    """One server of the file, as a candidate profile for the preview (unchecked ones are not imported)."""

    name: str
    profile: Profile
    warnings: list[str] = field(default_factory=list)
    selected: bool = True
    needs_input: list[NeedsInput] = field(default_factory=list)
    env_file: str | None = None
    """VS Code/Cursor ``envFile``: noted, its variables are not imported."""

    @property
    def summary(self) -> str:
        """One line for the preview list."""
        p = self.profile
        if p.transport == "stdio":
            text = f"stdio: {shlex.join([p.stdio.command, *p.stdio.args])}"
            env = p.stdio.env
            if env:
                secret = sum(1 for v in env if v.secret)
                text += f" ({len(env)} env var{'s' if len(env) != 1 else ''}"
                text += f", {secret} secret)" if secret else ")"
            return text
        text = f"{p.transport}: {p.http.url}"
        if p.http.headers:
            n = len(p.http.headers)
            text += f" ({n} header{'s' if n != 1 else ''})"
        if p.auth.mode != "none":
            text += f" [auth: {p.auth.mode}]"
        return text


@dataclass
class ImportResult:
    entries: list[ImportEntry] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    source: str = ""
    format: str = ""
    """The format that was read (a key of FORMAT_LABELS), "" when nothing could be read."""
    inputs: list[InputRef] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    def selected_profiles(self) -> list[Profile]:
        return [entry.profile for entry in self.entries if entry.selected]


# -- reading -------------------------------------------------------------------------------------------


def strip_jsonc(text: str) -> str:
    """Blank out ``//`` and ``/* */`` comments and trailing commas, keeping every line and column.

    Strings are left alone. The result parses with ``json.loads`` when the input was valid JSONC, and
    any remaining error points at the same place in the original text.
    """
    out = list(text)
    i, n = 0, len(text)
    last_comma: int | None = None  # index of a comma not yet followed by a value
    while i < n:
        ch = text[i]
        if ch == '"':
            last_comma = None
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            continue
        if ch == "/" and i + 1 < n and text[i + 1] == "/":
            while i < n and text[i] != "\n":
                out[i] = " "
                i += 1
            continue
        if ch == "/" and i + 1 < n and text[i + 1] == "*":
            end = text.find("*/", i + 2)
            stop = n if end < 0 else end + 2
            for j in range(i, stop):
                if text[j] not in "\r\n":
                    out[j] = " "
            i = stop
            continue
        if ch == ",":
            last_comma = i
        elif ch in "}]":
            if last_comma is not None:
                out[last_comma] = " "
            last_comma = None
        elif not ch.isspace():
            last_comma = None
        i += 1
    return "".join(out)


def detect_format(data: Any, path: Path | None = None) -> str:
    """Which client wrote this (parsed) file: by its keys first, then by its name and folder."""
    if isinstance(data, dict) and "mcpServers" not in data:
        if "servers" in data or (isinstance(data.get("mcp"), dict) and "servers" in data["mcp"]):
            return "vscode"
    if path is not None:
        name, parent = path.name.lower(), path.parent.name.lower()
        if name == "claude_desktop_config.json":
            return "claude"
        if name == ".claude.json":
            return "claude-code"
        if parent == ".cursor":
            return "cursor"
        if parent == ".mcp-inspector":
            return "inspector"
        if parent == ".vscode":
            return "vscode"
    return "mcpServers"


def import_file(path: Path | str, format: ImportFormat = "auto") -> ImportResult:
    """Read and parse one config file; never raises for a bad file (see ``ImportResult.errors``)."""
    file = Path(path).expanduser()
    source = str(file)
    try:
        raw = file.read_bytes()
    except FileNotFoundError:
        return ImportResult(errors=[f"{source}: file not found"], source=source)
    except IsADirectoryError:
        return ImportResult(errors=[f"{source}: is a directory, not a file"], source=source)
    except OSError as exc:
        return ImportResult(errors=[f"{source}: cannot be read ({exc.strerror or exc})"], source=source)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return ImportResult(errors=[f"{source}: not UTF-8 text (byte {exc.start})"], source=source)
    return parse_config(text, source=source, format=format, path=file)


def parse_config(
    text: str,
    *,
    source: str = "<text>",
    format: ImportFormat = "auto",
    path: Path | None = None,
) -> ImportResult:
    """Parse the text of a config file (JSON, or JSONC as VS Code allows)."""
    try:
        data = json.loads(strip_jsonc(text))
    except json.JSONDecodeError as exc:
        message = f"{source}:{exc.lineno}:{exc.colno}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        return ImportResult(errors=[message], source=source)
    except RecursionError:
        return ImportResult(errors=[f"{source}: invalid JSON: nested too deeply"], source=source)
    return parse_config_data(data, source=source, format=format, path=path)


def parse_config_data(
    data: Any,
    *,
    source: str = "<data>",
    format: ImportFormat = "auto",
    path: Path | None = None,
) -> ImportResult:
    """Turn parsed JSON into candidate profiles."""
    result = ImportResult(source=source)
    if not isinstance(data, dict):
        result.errors.append(f"{source}: the top level must be a JSON object, not {json_type_phrase(data)}")
        return result
    fmt = detect_format(data, path) if format == "auto" else format
    result.format = fmt
    if fmt == "claude-code":
        return _claude_code(data, source, path, result)
    container, prefix = data, ""
    if fmt == "vscode" and "servers" not in data and isinstance(data.get("mcp"), dict):
        container, prefix = data["mcp"], "mcp."
    preferred = ("servers", "mcpServers") if fmt == "vscode" else ("mcpServers", "servers")
    key = next((k for k in preferred if k in container), None)
    if key is None:
        result.errors.append(f'{source}: no "{prefix}{preferred[0]}" object at the top level')
        return result
    servers = container[key]
    where = f"{prefix}{key}"
    if not isinstance(servers, dict):
        result.errors.append(f"{source}: {where}: expected an object of servers, got {json_type_phrase(servers)}")
        return result
    result.inputs = _parse_inputs(container.get("inputs"), f"{prefix}inputs", source, result.errors)
    if not servers:
        result.errors.append(f"{source}: {where} is empty: there is nothing to import")
        return result
    context = _Context(fmt, path, {i.id: i for i in result.inputs})
    for name, entry in servers.items():
        entry_where = f"{where}.{name}"
        try:
            result.entries.append(_parse_entry(str(name), entry, entry_where, context))
        except _ShapeError as exc:
            result.errors.append(f"{source}: {exc}")
    return result


def _claude_code(data: dict[str, Any], source: str, path: Path | None, result: ImportResult) -> ImportResult:
    """Claude Code: the file's ``mcpServers``, then each project's (``projects.<folder>.mcpServers``)."""
    groups: list[tuple[str, Any, Path | None, str]] = [("mcpServers", data.get("mcpServers"), path, "")]
    projects = data.get("projects")
    if isinstance(projects, dict):
        for folder, project in projects.items():
            if isinstance(project, dict) and project.get("mcpServers") is not None:
                where = f"projects[{json.dumps(folder)}].mcpServers"
                groups.append((where, project["mcpServers"], Path(folder) / ".mcp.json", str(folder)))
    taken: set[str] = set()
    for where, servers, context_path, folder in groups:
        if servers is None:
            continue
        if not isinstance(servers, dict):
            result.errors.append(f"{source}: {where}: expected an object of servers, got {json_type_phrase(servers)}")
            continue
        context = _Context("claude-code", context_path, {})
        for name, entry in servers.items():
            try:
                parsed = _parse_entry(str(name), entry, f"{where}.{name}", context)
            except _ShapeError as exc:
                result.errors.append(f"{source}: {exc}")
                continue
            if folder:
                parsed.warnings.insert(0, f"from the project {folder}")
                if parsed.name in taken:
                    parsed.name = parsed.profile.name = f"{parsed.name} ({Path(folder).name or folder})"
            taken.add(parsed.name)
            result.entries.append(parsed)
    if not result.entries and not result.errors:
        result.errors.append(f'{source}: no servers in "mcpServers" or in any project\'s "mcpServers"')
    return result


def known_locations() -> list[tuple[str, Path]]:
    """Where the supported clients keep their user-level files on this platform (existing or not).

    Project files (``.vscode/mcp.json``, ``.cursor/mcp.json`` in a project) are picked by the user.
    """
    home = Path.home()
    if sys.platform == "darwin":
        claude = home / "Library" / "Application Support" / "Claude"
        code_user = home / "Library" / "Application Support" / "Code" / "User"
    elif os.name == "nt":
        appdata = Path(os.environ.get("APPDATA", home / "AppData" / "Roaming"))
        claude = appdata / "Claude"
        code_user = appdata / "Code" / "User"
    else:
        xdg = Path(os.environ.get("XDG_CONFIG_HOME", home / ".config"))
        claude = xdg / "Claude"
        code_user = xdg / "Code" / "User"
    catalog = os.environ.get("MCP_CATALOG_PATH", "").strip()
    return [
        ("claude", claude / "claude_desktop_config.json"),
        ("cursor", home / ".cursor" / "mcp.json"),
        ("vscode", code_user / "mcp.json"),
        ("inspector", Path(catalog).expanduser() if catalog else home / ".mcp-inspector" / "mcp.json"),
    ]


# -- entries -------------------------------------------------------------------------------------------


class _ShapeError(ValueError):
    pass


@dataclass
class _Context:
    format: str
    path: Path | None
    inputs: dict[str, InputRef]

    @property
    def workspace(self) -> Path | None:
        """The folder ``${workspaceFolder}`` and relative paths refer to, when known."""
        if self.path is None:
            return None
        parent = self.path.resolve().parent
        return parent.parent if parent.name in (".vscode", ".cursor") else parent


def _parse_inputs(value: Any, where: str, source: str, errors: list[str]) -> list[InputRef]:
    if value is None:
        return []
    if not isinstance(value, list):
        errors.append(f"{source}: {where}: expected a list of inputs, got {json_type_phrase(value)}")
        return []
    inputs: list[InputRef] = []
    for i, item in enumerate(value):
        item_where = f"{where}[{i}]"
        if not isinstance(item, dict):
            errors.append(f"{source}: {item_where}: expected an object, got {json_type_phrase(item)}")
            continue
        input_id = item.get("id")
        if not isinstance(input_id, str) or not input_id:
            errors.append(f"{source}: {item_where}.id: expected a non-empty string, got {json_type_phrase(input_id)}")
            continue
        default = item.get("default")
        description = item.get("description")
        inputs.append(
            InputRef(
                id=input_id,
                type=str(item.get("type", "promptString")),
                description=description if isinstance(description, str) else "",
                password=item.get("password") is True,
                default=default if isinstance(default, str) else None,
            )
        )
    return inputs


def _string(entry: dict[str, Any], key: str, where: str) -> str | None:
    value = entry.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise _ShapeError(f"{where}.{key}: expected a string, got {json_type_phrase(value)}")
    return value


def _string_map(entry: dict[str, Any], key: str, where: str) -> dict[str, str]:
    value = entry.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _ShapeError(f"{where}.{key}: expected an object of strings, got {json_type_phrase(value)}")
    for name, item in value.items():
        if not isinstance(item, str):
            raise _ShapeError(f"{where}.{key}.{name}: expected a string, got {json_type_phrase(item)}")
    return dict(value)


def _string_list(entry: dict[str, Any], key: str, where: str) -> list[str]:
    value = entry.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise _ShapeError(f"{where}.{key}: expected a list of strings, got {json_type_phrase(value)}")
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise _ShapeError(f"{where}.{key}[{i}]: expected a string, got {json_type_phrase(item)}")
    return list(value)


def _transport(entry: dict[str, Any], where: str, warnings: list[str]) -> tuple[TransportKind, str | None]:
    """The transport and the URL (None for stdio)."""
    type_key = "type" if "type" in entry else "transport"
    declared = _string(entry, type_key, where)
    url_key = "url" if "url" in entry else "serverUrl"
    url = _string(entry, url_key, where)
    if declared is not None:
        kind = _TRANSPORT_ALIASES.get(declared.strip().lower())
        if kind is None:
            known = ", ".join(sorted(_TRANSPORT_ALIASES))
            raise _ShapeError(f"{where}.{type_key}: unknown transport {declared!r} (known: {known})")
    elif url is not None:
        kind = "sse" if urlsplit(url).path.rstrip("/").endswith("/sse") else "http"
        label = "legacy SSE" if kind == "sse" else "Streamable HTTP"
        warnings.append(f"no transport type given; {label} assumed from the URL")
    elif "command" in entry:
        kind = "stdio"
    else:
        raise _ShapeError(f'{where}: needs a "command" (stdio server) or a "url" (remote server)')
    if kind == "stdio":
        return kind, None
    if not url:
        raise _ShapeError(f'{where}.url: a {kind} server needs a non-empty "url"')
    if urlsplit(url).scheme.lower() not in ("http", "https") and not _INPUT_REF.search(url):
        raise _ShapeError(f"{where}.{url_key}: must be an http:// or https:// URL, got {url!r}")
    return kind, url


def _parse_entry(name: str, value: Any, where: str, context: _Context) -> ImportEntry:
    if not isinstance(value, dict):
        raise _ShapeError(f"{where}: expected an object, got {json_type_phrase(value)}")
    entry: dict[str, Any] = value
    warnings: list[str] = []
    kind, url = _transport(entry, where, warnings)
    profile = Profile(name=name, transport=kind)
    result = ImportEntry(name=name, profile=profile, warnings=warnings)

    if kind == "stdio":
        command = _string(entry, "command", where)
        if not command:
            raise _ShapeError(f'{where}.command: a stdio server needs a non-empty "command"')
        env = _string_map(entry, "env", where)
        profile.stdio = StdioSettings(
            command=command,
            args=_string_list(entry, "args", where),
            env=[EnvVar(k, v, looks_secret(k)) for k, v in env.items()],
            cwd=_string(entry, "cwd", where) or "",
        )
        for ignored in ("url", "serverUrl", "headers"):
            if ignored in entry:
                warnings.append(f'"{ignored}" is ignored for a stdio server')
    else:
        headers = _string_map(entry, "headers", where)
        profile.http = HttpSettings(url=url or "", headers=[Header(k, v, looks_secret(k)) for k, v in headers.items()])
        for ignored in ("command", "args", "env", "cwd"):
            if ignored in entry:
                warnings.append(f'"{ignored}" is ignored for a {kind} server')

    env_file = _string(entry, "envFile", where)
    if env_file:
        result.env_file = env_file
        warnings.append(f"envFile {env_file!r} is not read: add its variables to the profile by hand")
    if entry.get("disabled") is True:
        result.selected = False
        warnings.append("disabled in the source file (unchecked)")

    _inspector_fields(entry, where, profile, warnings)
    _references(result, context)
    _relative_cwd(profile, context, warnings)

    secret_names = [v.name for v in profile.stdio.env if v.secret] + [h.name for h in profile.http.headers if h.secret]
    if secret_names:
        warnings.append(f"kept in the keyring as secrets: {', '.join(secret_names)}")
    unknown = sorted(k for k in entry if k not in _ENTRY_KEYS)
    if unknown:
        warnings.append(f"ignored: {', '.join(unknown)}")
    return result


def _inspector_fields(entry: dict[str, Any], where: str, profile: Profile, warnings: list[str]) -> None:
    """``roots``, ``requestTimeout`` (ms) and ``oauth`` as the official inspector's catalog has them."""
    roots = entry.get("roots")
    if roots is not None:
        if not isinstance(roots, list):
            raise _ShapeError(f"{where}.roots: expected a list of {{uri, name}}, got {json_type_phrase(roots)}")
        for i, root in enumerate(roots):
            root_where = f"{where}.roots[{i}]"
            if not isinstance(root, dict):
                raise _ShapeError(f"{root_where}: expected an object, got {json_type_phrase(root)}")
            uri = _string(root, "uri", root_where)
            if not uri:
                raise _ShapeError(f'{root_where}.uri: a root needs a non-empty "uri"')
            profile.roots.append(Root(uri=uri, name=_string(root, "name", root_where)))
    timeout = entry.get("requestTimeout")
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
            raise _ShapeError(f"{where}.requestTimeout: expected a positive number of milliseconds")
        profile.timeouts.request = timeout / 1000.0
    oauth = entry.get("oauth")
    if oauth is not None:
        if not isinstance(oauth, dict):
            raise _ShapeError(f"{where}.oauth: expected an object, got {json_type_phrase(oauth)}")
        scopes_value = oauth.get("scopes")
        if isinstance(scopes_value, str):
            scopes = scopes_value.split()
        else:
            scopes = _string_list(oauth, "scopes", f"{where}.oauth")
        profile.auth = AuthSettings(
            mode="oauth",
            client_id=_string(oauth, "clientId", f"{where}.oauth") or "",
            client_secret=_string(oauth, "clientSecret", f"{where}.oauth") or None,
            scopes=scopes,
        )
        if profile.auth.client_secret:
            warnings.append("the OAuth client secret goes to the keyring")


def _values(profile: Profile) -> Iterator[tuple[RefKind, str, str, EnvVar | Header | None]]:
    """(kind, name, value, owner) for every text that may hold a ``${...}`` reference."""
    if profile.transport == "stdio":
        yield "command", "command", profile.stdio.command, None
        for i, arg in enumerate(profile.stdio.args):
            yield "arg", str(i), arg, None
        yield "cwd", "cwd", profile.stdio.cwd, None
        for var in profile.stdio.env:
            yield "env", var.name, var.value or "", var
    else:
        yield "url", "url", profile.http.url, None
        for header in profile.http.headers:
            yield "header", header.name, header.value or "", header


def _references(result: ImportEntry, context: _Context) -> None:
    profile = result.profile
    workspace = context.workspace if context.format == "vscode" else None
    if workspace is not None:
        _expand_workspace(profile, str(workspace), result.warnings)
    unexpanded: set[str] = set()
    for kind, name, text, owner in _values(profile):
        for match in _INPUT_REF.finditer(text):
            input_id = match.group(1)
            ref = context.inputs.get(input_id)
            result.needs_input.append(
                NeedsInput(
                    kind=kind,
                    name=name,
                    input_id=input_id,
                    description=ref.description if ref else "",
                    password=bool(ref and ref.password),
                )
            )
            if ref is None:
                result.warnings.append(f'{name} refers to input "{input_id}", which "inputs" does not declare')
            if ref is not None and ref.password and owner is not None:
                owner.secret = True
        unexpanded.update(match.group(0) for match in _OTHER_VAR.finditer(text))
    if result.needs_input:
        names = ", ".join(dict.fromkeys(n.name for n in result.needs_input))
        result.warnings.append(f"needs input before connecting: {names} (the ${{input:...}} reference is kept)")
    if unexpanded:
        result.warnings.append(f"not expanded by this app: {', '.join(sorted(unexpanded))}")


def _expand_workspace(profile: Profile, workspace: str, warnings: list[str]) -> None:
    token = "${workspaceFolder}"
    changed = False

    def expand(text: str) -> str:
        nonlocal changed
        if token in text:
            changed = True
            return text.replace(token, workspace)
        return text

    stdio = profile.stdio
    stdio.command = expand(stdio.command)
    stdio.args = [expand(arg) for arg in stdio.args]
    stdio.cwd = expand(stdio.cwd)
    for var in stdio.env:
        if var.value is not None:
            var.value = expand(var.value)
    if changed:
        warnings.append(f"${{workspaceFolder}} expanded to {workspace}")


def _relative_cwd(profile: Profile, context: _Context, warnings: list[str]) -> None:
    cwd = profile.stdio.cwd
    if profile.transport != "stdio" or not cwd or "${" in cwd or Path(cwd).expanduser().is_absolute():
        return
    base = context.workspace
    if base is None:
        warnings.append(f"relative working directory {cwd!r} kept as is")
        return
    profile.stdio.cwd = str(base / cwd)
    warnings.append(f"relative working directory {cwd!r} resolved to {profile.stdio.cwd}")
