"""``--method servers/list|show|add|edit|remove``: the server catalog, as the official inspector CLI keeps it.

``servers/list`` and ``servers/show`` read ``--config FILE`` (read-only), ``--catalog FILE`` or the default
catalog (``$MCP_CATALOG_PATH``, else ``~/.mcp-inspector/mcp.json``; created empty when missing); with a catalog
our saved connection profiles are listed too (``"source": "profile"``). ``servers/add``, ``servers/edit``
(``--rename NAME`` renames) and ``servers/remove`` change the catalog, never a --config file. Results are the
official's: ``{"servers": [{"name", "type", "detail"}]}``, ``{"name", "type", "detail", "config", "settings"}``
with secrets redacted, ``{"ok": true, "action": "added"|"updated"|"removed", "server", "catalog"}``.

No secret value is written into the catalog: see :mod:`inspector.cli.catalog_secrets` (-e values and secret
headers go to the keyring; without a usable keyring such a write is refused, exit 1).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from inspector.cli.catalog_entries import (
    DEFAULT_ERA,
    REMOTE_TYPES,
    config_part,
    entry_type,
    inspector_part,
    is_sensitive_header,
    is_valid_name,
    sanitize_config,
    sanitize_settings,
    settings_view,
    summary,
    target_config,
    with_inspector_fields,
)
from inspector.cli.catalog_file import CatalogDocument, catalog_path, read_catalog, read_config, write_catalog
from inspector.cli.catalog_rules import check_catalog
from inspector.cli.catalog_rules import command_line_target as _target
from inspector.cli.catalog_rules import given as _given
from inspector.cli.catalog_secrets import CatalogSecrets, Field, secret_fields
from inspector.cli.errors import UsageError
from inspector.cli.exitcodes import ExitCode

if TYPE_CHECKING:
    from inspector.cli.args import CliOptions
    from inspector.store.profiles import ProfileStore

__all__ = ["WRITE_METHODS", "check_catalog", "collation_key", "run_catalog_method"]

WRITE_METHODS: Final = ("servers/add", "servers/edit", "servers/remove")


# -- output -----------------------------------------------------------------------------------------------------


def _print(opts: CliOptions, method: str, result: dict[str, Any]) -> None:
    from inspector.cli.output import Reporter

    reporter = Reporter(format=opts.format, quiet=opts.quiet)
    if opts.format != "human":
        reporter.raw_json(result)
        return
    if method == "servers/list":
        reporter.text(_human_list(result["servers"]))
    elif method == "servers/show":
        from inspector.cli.output import pretty_json

        lines = [f"{result['name']} ({result['type']}): {result['detail']}"]
        if result.get("source") == "profile":
            lines.append("a saved profile" + (" (shadowed by a catalog entry)" if result.get("shadowed") else ""))
        lines.append("config: " + pretty_json(result["config"]))
        if "settings" in result:
            lines.append("settings: " + pretty_json(result["settings"]))
        reporter.text("\n".join(lines) + "\n")
    else:
        renamed = f" (was {result['previousName']})" if "previousName" in result else ""
        reporter.text(f"{result['action']} {result['server']}{renamed} in {result['catalog']}\n")


def _human_list(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "no servers\n"
    width = max(len(row["name"]) for row in rows)
    kinds = max(len(row["type"]) for row in rows)
    lines = []
    for row in rows:
        note = ""
        if row.get("source") == "profile":
            note = "  (saved profile, shadowed by the catalog)" if row.get("shadowed") else "  (saved profile)"
        lines.append(f"{row['name']:<{width}}  {row['type']:<{kinds}}  {row['detail']}{note}")
    return "\n".join(lines) + "\n"


def _note(opts: CliOptions, line: str) -> None:
    if opts.quiet or opts.format == "json":
        return
    from inspector.cli.terminal import escape_line, write

    write(sys.stderr, f"note: {escape_line(line)}\n")


def collation_key(name: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Sort names as the official's ``localeCompare`` does for the names a catalog allows: ``_`` before ``-``
    before digits before letters, letters without regard to case first, then lower case before upper case."""
    primary: list[int] = []
    tertiary: list[int] = []
    for ch in name:
        if ch == "_":
            primary.append(1)
        elif ch == "-":
            primary.append(2)
        elif ch.isdigit():
            primary.append(100 + ord(ch))
        elif ch.isalpha():
            primary.append(1000 + ord(ch.casefold()[0]))
        else:
            primary.append(3 + ord(ch) % 90)
        tertiary.append(1 if ch.isupper() else 0)
    return tuple(primary), tuple(tertiary)


# -- reading ----------------------------------------------------------------------------------------------------


def _source(opts: CliOptions) -> tuple[CatalogDocument, bool]:
    """The file servers/list and servers/show read, and whether our profiles go with it (catalogs only)."""
    if _given(opts.config):
        return read_config((opts.config or "").strip()), False
    target = _target(opts)
    if target and not _given(opts.catalog):  # an ad-hoc server: the official lists it as "default"
        config = target_config(target, transport=opts.transport, env=opts.env, cwd=opts.cwd)
        return CatalogDocument(Path("<command line>"), {"mcpServers": {"default": config}}, writable=False), False
    return read_catalog(catalog_path(opts.catalog)), True


def _profiles() -> ProfileStore:
    from inspector.cli.profile_servers import load_profiles

    return load_profiles()


def list_servers(opts: CliOptions) -> dict[str, Any]:
    document, with_profiles = _source(opts)
    rows = sorted(
        (summary(name, document.servers[name]) for name in document.names()), key=lambda row: collation_key(row["name"])
    )
    if with_profiles:
        from inspector.cli.profile_servers import profile_summary

        taken = set(document.servers)
        profiles = []
        for profile in _profiles().list_profiles():
            profiles.append(profile_summary(profile, shadowed=profile.name in taken))
            taken.add(profile.name)
        rows += sorted(profiles, key=lambda row: collation_key(row["name"]))
    return {"servers": rows}


def _env_of(entry: dict[str, Any]) -> dict[str, Any]:
    env = entry.get("env")
    return dict(env) if isinstance(env, dict) else {}


def _with_overrides(entry: dict[str, Any], opts: CliOptions) -> dict[str, Any]:
    """The entry as a run of this command line would use it (-e, --cwd, --header, --protocol-era on top)."""
    out = dict(entry)
    if entry_type(entry) == "stdio":
        if opts.env:
            out["env"] = {**_env_of(entry), **opts.env}
        if _given(opts.cwd):
            out["cwd"] = (opts.cwd or "").strip()
    if opts.headers:
        out["headers"] = dict(opts.headers)
    if opts.protocol_era_given:
        out["protocolEra"] = opts.protocol_era
    return out


def show_server(opts: CliOptions) -> dict[str, Any]:
    name = (opts.server or "").strip()
    if not name:
        raise UsageError("servers/show needs --server NAME (the entry to show)")
    document, with_profiles = _source(opts)
    entry = document.entry(name)
    if entry is None:
        if with_profiles:
            from inspector.cli.profile_servers import profile_show

            profile = _profiles().find(name)
            if profile is not None:
                return profile_show(profile)
        raise UsageError(f"{_not_found(document, name)}; defined: {', '.join(document.names()) or 'none'}")
    entry = _with_overrides(entry, opts)
    result = {**summary(name, entry), "config": sanitize_config(config_part(entry))}
    settings = settings_view(entry)
    if settings is not None:
        result["settings"] = sanitize_settings(settings)
    return result


def _not_found(document: CatalogDocument, name: str) -> str:
    return f"no server named {name!r} in {document.path}"


# -- writing ----------------------------------------------------------------------------------------------------


def _name(opts: CliOptions, method: str) -> str:
    name = (opts.server or "").strip()
    if not name:
        raise UsageError(f"{method} needs --server NAME (the catalog entry)")
    return name


def _writable(opts: CliOptions) -> Path:
    if opts.config is not None:
        raise UsageError(
            "--config names a read-only session file; servers/add, edit and remove change the catalog "
            "(--catalog PATH, $MCP_CATALOG_PATH, or ~/.mcp-inspector/mcp.json)"
        )
    return catalog_path(opts.catalog)


def _hold(entry: dict[str, Any]) -> tuple[dict[str, Any], dict[Field, str]]:
    """The entry with its secret values replaced by empty placeholders, and those values."""
    out = dict(entry)
    held: dict[Field, str] = {}
    env = entry.get("env")
    if entry_type(entry) == "stdio" and isinstance(env, dict):
        out["env"] = {}
        for key, value in env.items():
            if isinstance(value, str) and value:
                held[("env", key)] = value
            out["env"][key] = "" if isinstance(value, str) else value
    headers = entry.get("headers")
    if isinstance(headers, dict):
        out["headers"] = {}
        for key, value in headers.items():
            if is_sensitive_header(key) and isinstance(value, str) and value:
                held[("header", key)] = value
                value = ""
            out["headers"][key] = value
    oauth = entry.get("oauth")
    if isinstance(oauth, dict) and isinstance(oauth.get("clientSecret"), str) and oauth["clientSecret"]:
        held[("oauth", "clientSecret")] = oauth["clientSecret"]
        rest = {key: value for key, value in oauth.items() if key != "clientSecret"}
        if rest:
            out["oauth"] = rest
        else:
            out.pop("oauth")
    return out, held


def _no_keyring(secrets: CatalogSecrets, what: str) -> UsageError:
    return UsageError(
        f"{what} would have to be written into the catalog {secrets.catalog}, and mcp-inspect keeps secrets "
        f"only in the keyring, which is not available ({secrets.reason}); nothing was changed"
    )


def _fresh_fields(opts: CliOptions) -> set[Field]:
    fields: set[Field] = {("env", key) for key in opts.env}
    fields |= {("header", key) for key, _ in opts.headers if is_sensitive_header(key)}
    return fields


def _commit(document: CatalogDocument, secrets: CatalogSecrets, server: str, held: dict[Field, str]) -> None:
    """Store ``held`` under ``server``, then write the file; on failure the keyring is put back."""
    prior = {fld: secrets.store.get(secrets.key(server, *fld)) for fld in held}
    for (kind, key), value in held.items():
        secrets.put(server, kind, key, value)
    try:
        write_catalog(document)
    except BaseException:
        for (kind, key), old in prior.items():
            if old is None:
                secrets.store.delete(secrets.key(server, kind, key))
            else:
                secrets.put(server, kind, key, old)
        raise


def add_server(opts: CliOptions) -> dict[str, Any]:
    name = _name(opts, "servers/add")
    path = _writable(opts)
    target = _target(opts)
    if not target:
        raise UsageError("servers/add needs the server: a command (and its arguments) or a URL, or --server-url URL")
    config = target_config(target, transport=opts.transport, env=opts.env, cwd=opts.cwd)
    fields: dict[str, Any] = {}
    if opts.headers:
        fields["headers"] = dict(opts.headers)
    if opts.protocol_era_given and opts.protocol_era != DEFAULT_ERA:
        fields["protocolEra"] = opts.protocol_era
    entry, held = _hold(with_inspector_fields(config, fields))
    secrets = CatalogSecrets(path)
    if held and not secrets.persistent:
        raise _no_keyring(secrets, _what(held))
    if not is_valid_name(name):
        raise UsageError(f"invalid server name {name!r}: use letters, digits, '-' and '_'")
    document = read_catalog(path, create=False, for_write=True)
    if name in document.servers:
        raise UsageError(f"a server named {name!r} already exists in {path} (change it with --method servers/edit)")
    document.set_entry(name, entry)
    _commit(document, secrets, name, held)
    if _profiles().find(name) is not None:
        _note(opts, f"the catalog entry {name!r} now comes before the saved profile of the same name for --server")
    return {"ok": True, "action": "added", "server": name, "catalog": str(path)}


def _what(held: dict[Field, str]) -> str:
    env = [key for kind, key in held if kind == "env"]
    headers = [key for kind, key in held if kind == "header"]
    parts = []
    if env:
        parts.append(f"the -e value{'s' if len(env) > 1 else ''} of {', '.join(env)}")
    if headers:
        parts.append(f"the secret header{'s' if len(headers) > 1 else ''} {', '.join(headers)}")
    if ("oauth", "clientSecret") in held:
        parts.append("the OAuth client secret")
    return " and ".join(parts)


def _missing(document: CatalogDocument, name: str) -> UsageError:
    hint = ""
    if _profiles().find(name) is not None:
        hint = " (it is a saved profile of the window: change profiles there)"
    return UsageError(f"{_not_found(document, name)}{hint}")


def edit_server(opts: CliOptions) -> dict[str, Any]:
    name = _name(opts, "servers/edit")
    path = _writable(opts)
    if opts.rename is not None and not opts.rename.strip():
        raise UsageError("--rename needs a non-empty name")
    new_name = (opts.rename or "").strip() or name
    target = _target(opts)
    patches_stdio = bool(opts.env) or _given(opts.cwd)
    if not (target or patches_stdio or opts.headers or opts.protocol_era_given or new_name != name):
        raise UsageError(
            "servers/edit needs something to change: a new command or URL, -e, --cwd, --header, --protocol-era "
            "or --rename"
        )
    if opts.transport is not None and not target:
        raise UsageError("--transport with servers/edit needs the new command or URL it applies to")
    document = read_catalog(path, create=False, for_write=True)
    existing = document.entry(name)
    if existing is None:
        raise _missing(document, name)
    secrets = CatalogSecrets(path)
    if opts.env and not secrets.persistent:
        raise _no_keyring(secrets, _what({("env", key): "" for key in opts.env}))
    if target:
        config = target_config(target, transport=opts.transport, env=opts.env, cwd=opts.cwd)
    else:
        config = config_part(existing)
        if patches_stdio:
            kind = entry_type(existing)
            if kind in REMOTE_TYPES:
                raise UsageError(f"-e and --cwd apply to stdio servers; {name!r} is {kind}")
            if opts.env:
                config["env"] = {**_env_of(existing), **opts.env}
            if _given(opts.cwd):
                config["cwd"] = (opts.cwd or "").strip()
    fields = inspector_part(existing)
    if opts.headers:
        fields["headers"] = dict(opts.headers)
    if opts.protocol_era_given:
        if opts.protocol_era == DEFAULT_ERA:
            fields.pop("protocolEra", None)
        else:
            fields["protocolEra"] = opts.protocol_era
    fresh = _fresh_fields(opts)
    entry, held = _hold(with_inspector_fields(config, fields))
    if not secrets.persistent:
        if any(fld in fresh for fld in held):
            raise _no_keyring(secrets, _what({fld: v for fld, v in held.items() if fld in fresh}))
        entry, held = with_inspector_fields(config, fields), {}  # values already in the file stay where they were
    if new_name != name:
        if not is_valid_name(new_name):
            raise UsageError(f"invalid new name {new_name!r}: use letters, digits, '-' and '_'")
        if new_name in document.servers:
            raise UsageError(f"a server named {new_name!r} already exists in {path}")
    # the values behind placeholders that stay: carried to the new name on a rename
    kept = [fld for fld in secret_fields(entry) if fld not in held]
    carried: dict[Field, str] = {}
    if new_name != name:
        for kind, key in kept:
            value = secrets.get(name, kind, key)
            if value is not None:
                carried[(kind, key)] = value
        if carried and not secrets.persistent:
            raise _no_keyring(secrets, "carrying the entry's secrets to its new name: " + _what(carried))
    document.set_entry(new_name, entry, replacing=name)
    _commit(document, secrets, new_name, {**carried, **held})
    still = set(secret_fields(entry))
    stale = [fld for fld in secret_fields(existing) if new_name != name or fld not in still]
    secrets.delete(name, stale)
    result: dict[str, Any] = {"ok": True, "action": "updated", "server": new_name}
    if new_name != name:
        result["previousName"] = name
    result["catalog"] = str(path)
    return result


def remove_server(opts: CliOptions) -> dict[str, Any]:
    name = _name(opts, "servers/remove")
    extras = [
        flag
        for flag, given in (
            ("a command or URL", bool(_target(opts))),
            ("--transport", opts.transport is not None),
            ("-e", bool(opts.env)),
            ("--cwd", _given(opts.cwd)),
            ("--header", bool(opts.headers)),
            ("--protocol-era", opts.protocol_era_given),
            ("--rename", opts.rename is not None),
        )
        if given
    ]
    if extras:
        raise UsageError(f"servers/remove takes only --server NAME; drop {', '.join(extras)}")
    path = _writable(opts)
    document = read_catalog(path, create=False, for_write=True)
    existing = document.entry(name)
    if existing is None:
        raise _missing(document, name)
    document.remove_entry(name)
    write_catalog(document)
    CatalogSecrets(path).delete(name, secret_fields(existing))
    return {"ok": True, "action": "removed", "server": name, "catalog": str(path)}


def run_catalog_method(opts: CliOptions) -> int:
    """Run one ``servers/*`` method: the result on stdout (exit 0); failures raise CliFailure."""
    check_catalog(opts)
    method = opts.method or ""
    handlers = {
        "servers/list": list_servers,
        "servers/show": show_server,
        "servers/add": add_server,
        "servers/edit": edit_server,
        "servers/remove": remove_server,
    }
    result = handlers[method](opts)
    _print(opts, method, result)
    return ExitCode.SUCCESS
