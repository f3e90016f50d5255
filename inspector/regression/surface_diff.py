"""Every change between two surface snapshots, classified breaking / compatible / cosmetic.

Breaking: a tool, prompt, resource, resource template or capability removed; a required argument added (tools
and prompts); an argument's type narrowed or an enum value removed (any narrowing of an inputSchema); a property
removed from an outputSchema or made optional there (any widening of an outputSchema, or the outputSchema
dropped); a tool turned destructive (``destructiveHint``, whose default is true, on a tool that is not
read-only); a tool's ``taskSupport`` made ``required`` or ``forbidden``.

Compatible: added tools, prompts, resources, templates, capabilities, optional arguments; widened input types,
new enum values; protocol version or era changes and other annotation or schema changes.

Cosmetic: descriptions, titles, icons, ``_meta``, the server's info and instructions, order.

A list that one side does not know (a recording that never asked for it) is not compared.
"""

from __future__ import annotations

import json
from typing import Any, Final

from inspector.regression.changes import Change, ChangeKind, key_path
from inspector.regression.schema_diff import diff_schemas
from inspector.regression.snapshot import LISTS

__all__ = ["diff_surfaces"]

_COSMETIC_ITEM_KEYS: Final = ("title", "description", "icons", "_meta", "name")
_TOOL_HANDLED: Final = frozenset({"inputSchema", "outputSchema", "annotations", "execution"})
_SINGULAR: Final = {
    "tools": "tool",
    "resources": "resource",
    "resourceTemplates": "resource template",
    "prompts": "prompt",
}


def diff_surfaces(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """The classified changes from ``old`` to ``new`` (snapshots), most serious first, then by path."""
    changes: list[Change] = []
    _header(old, new, changes)
    _capabilities(old.get("capabilities") or {}, new.get("capabilities") or {}, "$.capabilities", changes)
    for key, sort_key, _capability, _method in LISTS:
        if key in old and key in new:
            _items(key, sort_key, old[key] or [], new[key] or [], changes)
    order = {ChangeKind.BREAKING: 0, ChangeKind.COMPATIBLE: 1, ChangeKind.COSMETIC: 2}
    return sorted(changes, key=lambda c: order[c.kind])


def _header(old: dict[str, Any], new: dict[str, Any], changes: list[Change]) -> None:
    for key, kind in (
        ("era", ChangeKind.COMPATIBLE),
        ("protocolVersion", ChangeKind.COMPATIBLE),
        ("instructions", ChangeKind.COSMETIC),
    ):
        if old.get(key) != new.get(key):
            changes.append(Change(kind, f"$.{key}", f"{key} changed", old.get(key), new.get(key)))
    old_info, new_info = old.get("serverInfo") or {}, new.get("serverInfo") or {}
    for key in sorted(set(old_info) | set(new_info)):
        if old_info.get(key) != new_info.get(key):
            changes.append(
                Change(
                    ChangeKind.COSMETIC,
                    key_path("$.serverInfo", key),
                    f"server {key} changed",
                    old_info.get(key),
                    new_info.get(key),
                )
            )


def _capabilities(old: Any, new: Any, path: str, changes: list[Change]) -> None:
    """A capability (or a flag inside one) removed or turned off is breaking; one added is compatible."""
    if not isinstance(old, dict) or not isinstance(new, dict):
        if old != new:
            if _off(new):
                changes.append(Change(ChangeKind.BREAKING, path, "capability turned off", old, new))
            else:
                changes.append(Change(ChangeKind.COMPATIBLE, path, "capability changed", old, new))
        return
    for key in sorted(set(old) | set(new)):
        where = key_path(path, key)
        if key not in new:
            if not _off(old[key]) or isinstance(old[key], dict):
                changes.append(Change(ChangeKind.BREAKING, where, f'capability "{key}" removed', old[key], None))
        elif key not in old:
            if not _off(new[key]) or isinstance(new[key], dict):
                changes.append(Change(ChangeKind.COMPATIBLE, where, f'capability "{key}" added', None, new[key]))
        else:
            _capabilities(old[key], new[key], where, changes)


def _off(value: Any) -> bool:
    return value is None or value is False


def _items(key: str, sort_key: str, old: list[Any], new: list[Any], changes: list[Change]) -> None:
    noun = _SINGULAR[key]
    old_by = {str(item.get(sort_key)): item for item in old if isinstance(item, dict)}
    new_by = {str(item.get(sort_key)): item for item in new if isinstance(item, dict)}
    for name in sorted(set(old_by) | set(new_by)):
        path = key_path(f"$.{key}", name, quoted=True)
        if name not in new_by:
            renamed = _renamed_to(old_by[name], sort_key, {n: new_by[n] for n in new_by if n not in old_by})
            hint = f' (renamed to "{renamed}"?)' if renamed is not None else ""
            changes.append(Change(ChangeKind.BREAKING, path, f'{noun} "{name}" removed{hint}', old_by[name], None))
        elif name not in old_by:
            changes.append(Change(ChangeKind.COMPATIBLE, path, f'{noun} "{name}" added', None, new_by[name]))
        elif key == "tools":
            _tool(name, old_by[name], new_by[name], path, changes)
        elif key == "prompts":
            _prompt(name, old_by[name], new_by[name], path, changes)
        else:
            _plain(noun, name, old_by[name], new_by[name], path, changes, frozenset({sort_key}))


def _renamed_to(item: dict[str, Any], sort_key: str, added: dict[str, dict[str, Any]]) -> str | None:
    """The name of an added item that is ``item`` in all but its name (a rename), if there is one."""
    body = _same_text({k: v for k, v in item.items() if k != sort_key})
    for name, candidate in sorted(added.items()):
        if _same_text({k: v for k, v in candidate.items() if k != sort_key}) == body:
            return name
    return None


def _plain(
    noun: str,
    name: str,
    old: dict[str, Any],
    new: dict[str, Any],
    path: str,
    changes: list[Change],
    handled: frozenset[str],
) -> None:
    """Cosmetic keys as cosmetic, anything else not ``handled`` as a compatible change."""
    for key in sorted((set(old) | set(new)) - handled):
        if _same(old.get(key), new.get(key)):
            continue
        kind = ChangeKind.COSMETIC if key in _COSMETIC_ITEM_KEYS or key == "annotations" else ChangeKind.COMPATIBLE
        changes.append(
            Change(kind, key_path(path, key), f'{key} of {noun} "{name}" changed', old.get(key), new.get(key))
        )


def _tool(name: str, old: dict[str, Any], new: dict[str, Any], path: str, changes: list[Change]) -> None:
    _plain("tool", name, old, new, path, changes, _TOOL_HANDLED | {"name"})
    changes.extend(
        diff_schemas(
            old.get("inputSchema"), new.get("inputSchema"), direction="input", path=key_path(path, "inputSchema")
        )
    )
    old_out, new_out = old.get("outputSchema"), new.get("outputSchema")
    out_path = key_path(path, "outputSchema")
    if old_out is not None and new_out is None:
        changes.append(Change(ChangeKind.BREAKING, out_path, f'outputSchema of tool "{name}" removed', old_out, None))
    elif old_out is None and new_out is not None:
        changes.append(Change(ChangeKind.COMPATIBLE, out_path, f'outputSchema of tool "{name}" added', None, new_out))
    elif old_out is not None:
        changes.extend(diff_schemas(old_out, new_out, direction="output", path=out_path))
    _annotations(
        name, old.get("annotations") or {}, new.get("annotations") or {}, key_path(path, "annotations"), changes
    )
    _execution(name, old.get("execution") or {}, new.get("execution") or {}, key_path(path, "execution"), changes)


def _destructive(annotations: dict[str, Any]) -> bool:
    """Whether the annotations declare a tool that may destroy (the spec's defaults: not read-only, destructive)."""
    return annotations.get("readOnlyHint") is not True and annotations.get("destructiveHint", True) is not False


def _annotations(name: str, old: dict[str, Any], new: dict[str, Any], path: str, changes: list[Change]) -> None:
    if not _destructive(old) and _destructive(new):
        hint = "readOnlyHint" if old.get("readOnlyHint") is True else "destructiveHint"
        changes.append(
            Change(
                ChangeKind.BREAKING,
                key_path(path, hint),
                f'tool "{name}" turned destructive',
                old.get(hint),
                new.get(hint),
            )
        )
    elif _destructive(old) and not _destructive(new):
        changes.append(Change(ChangeKind.COMPATIBLE, path, f'tool "{name}" is no longer destructive', old, new))
    for key in sorted(set(old) | set(new)):
        if old.get(key) == new.get(key) or key in ("destructiveHint", "readOnlyHint"):
            continue
        kind = ChangeKind.COSMETIC if key == "title" else ChangeKind.COMPATIBLE
        changes.append(Change(kind, key_path(path, key), f'{key} of tool "{name}" changed', old.get(key), new.get(key)))
    for key in ("destructiveHint", "readOnlyHint"):
        if old.get(key) != new.get(key) and _destructive(old) == _destructive(new):
            changes.append(
                Change(
                    ChangeKind.COMPATIBLE,
                    key_path(path, key),
                    f'{key} of tool "{name}" changed',
                    old.get(key),
                    new.get(key),
                )
            )


def _execution(name: str, old: dict[str, Any], new: dict[str, Any], path: str, changes: list[Change]) -> None:
    before, after = old.get("taskSupport"), new.get("taskSupport")
    if before != after:
        breaking = after == "required" or (after in (None, "forbidden") and before in ("optional", "required"))
        kind = ChangeKind.BREAKING if breaking else ChangeKind.COMPATIBLE
        changes.append(
            Change(
                kind,
                key_path(path, "taskSupport"),
                f'task support of tool "{name}": {before or "forbidden"} -> {after or "forbidden"}',
                before,
                after,
            )
        )
    rest_old = {k: v for k, v in old.items() if k != "taskSupport"}
    rest_new = {k: v for k, v in new.items() if k != "taskSupport"}
    if rest_old != rest_new:
        changes.append(Change(ChangeKind.COMPATIBLE, path, f'execution of tool "{name}" changed', rest_old, rest_new))


def _prompt(name: str, old: dict[str, Any], new: dict[str, Any], path: str, changes: list[Change]) -> None:
    _plain("prompt", name, old, new, path, changes, frozenset({"name", "arguments"}))
    old_args = {str(a.get("name")): a for a in old.get("arguments") or [] if isinstance(a, dict)}
    new_args = {str(a.get("name")): a for a in new.get("arguments") or [] if isinstance(a, dict)}
    base = key_path(path, "arguments")
    for arg in sorted(set(old_args) | set(new_args)):
        where = key_path(base, arg, quoted=True)
        before, after = old_args.get(arg), new_args.get(arg)
        if after is None:
            changes.append(Change(ChangeKind.BREAKING, where, f'argument "{arg}" of prompt "{name}" removed', before))
        elif before is None:
            required = bool(after.get("required"))
            kind = ChangeKind.BREAKING if required else ChangeKind.COMPATIBLE
            what = "required" if required else "optional"
            changes.append(Change(kind, where, f'{what} argument "{arg}" of prompt "{name}" added', None, after))
        else:
            if bool(before.get("required")) != bool(after.get("required")):
                made = "required" if after.get("required") else "optional"
                kind = ChangeKind.BREAKING if after.get("required") else ChangeKind.COMPATIBLE
                changes.append(
                    Change(
                        kind,
                        key_path(where, "required"),
                        f'argument "{arg}" of prompt "{name}" made {made}',
                        before.get("required"),
                        after.get("required"),
                    )
                )
            _plain(f'prompt "{name}", argument', arg, before, after, where, changes, frozenset({"name", "required"}))
    old_order = [a for a in old_args if a in new_args]
    new_order = [a for a in new_args if a in old_args]
    if old_order != new_order:
        changes.append(
            Change(ChangeKind.COSMETIC, base, f'arguments of prompt "{name}" reordered', old_order, new_order)
        )


def _same_text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _same(a: Any, b: Any) -> bool:
    return _same_text(a) == _same_text(b)
