"""Profiles: the model, its JSON, the store (CRUD, order, atomic save, recovery) and where secrets go."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import keyring.backend
import keyring.backends.null
import keyring.errors
import pytest
from keyringkit import MemoryKeyring

from inspector.store.paths import config_dir, data_dir
from inspector.store.profiles import (
    FORMAT_VERSION,
    AuthSettings,
    ClientCapabilitySwitches,
    EnvVar,
    Header,
    HttpSettings,
    Profile,
    ProfileFormatError,
    ProfileStore,
    Root,
    StdioSettings,
    atomic_write_text,
    secret_key,
)
from inspector.store.secrets import SERVICE_NAME, SESSION_ONLY_MESSAGE, SecretStore

SECRETS = ("env-s3cr3t-value", "header-s3cr3t-value", "bearer-s3cr3t-value", "client-s3cr3t-value")


class DictKeyring(MemoryKeyring):
    """The tests' in-memory keyring, with the usernames it holds."""

    def keys(self) -> set[str]:
        return {username for (_service, username) in self.passwords}


@pytest.fixture
def backend() -> DictKeyring:
    return DictKeyring()


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "config" / "profiles.json"


@pytest.fixture
def store(path: Path, backend: DictKeyring) -> ProfileStore:
    return ProfileStore(path, SecretStore(backend))


def reopen(store: ProfileStore) -> ProfileStore:
    return ProfileStore(store.path, store.secrets)


def stdio_profile(name: str = "demo", **kwargs: Any) -> Profile:
    return Profile(name=name, stdio=StdioSettings(command="python", args=["-m", "inspector.demo"]), **kwargs)


def secret_profile(name: str = "secretive") -> Profile:
    return Profile(
        name=name,
        transport="http",
        stdio=StdioSettings(
            command="server",
            env=[EnvVar("LOG_LEVEL", "debug"), EnvVar("API_KEY", SECRETS[0], secret=True)],
        ),
        http=HttpSettings(
            url="https://example.com/mcp",
            headers=[Header("X-Tenant", "acme"), Header("Authorization", SECRETS[1], secret=True)],
        ),
        auth=AuthSettings(mode="bearer", bearer_token=SECRETS[2], client_id="cid", client_secret=SECRETS[3]),
    )


def all_bytes_under(*roots: Path) -> list[tuple[Path, bytes]]:
    found = []
    for root in roots:
        for file in root.rglob("*"):
            if file.is_file():
                found.append((file, file.read_bytes()))
    return found


# -- the model -------------------------------------------------------------------------------------------


def test_defaults() -> None:
    p = Profile(name="x")
    assert p.transport == "stdio"
    assert p.protocol_version == "2025-11-25"
    assert p.timeouts.request == 60.0 and p.timeouts.reset_on_progress is True and p.timeouts.max_total is None
    assert p.auth.mode == "none"
    assert len(p.id) == 36 and Profile(name="y").id != p.id
    assert p.sampling_auto_reply.enabled is False


def test_client_capabilities_all_on() -> None:
    p = Profile(name="x", capabilities=ClientCapabilitySwitches(sampling_tools=True))
    assert p.client_capabilities() == {
        "sampling": {"tools": {}},
        "elicitation": {"form": {}, "url": {}},
        "roots": {"listChanged": True},
    }


def test_client_capabilities_switches() -> None:
    caps = ClientCapabilitySwitches(
        sampling=False, elicitation_form=True, elicitation_url=False, roots=True, roots_list_changed=False
    )
    assert Profile(name="x", capabilities=caps).client_capabilities() == {
        "elicitation": {"form": {}},
        "roots": {},
    }
    nothing = ClientCapabilitySwitches(
        sampling=False, elicitation_form=False, elicitation_url=False, roots=False, roots_list_changed=False
    )
    assert Profile(name="x", capabilities=nothing).client_capabilities() == {}


def test_client_capabilities_for_older_versions() -> None:
    p = Profile(name="x", capabilities=ClientCapabilitySwitches(sampling_tools=True))
    assert p.client_capabilities("2025-06-18") == {"sampling": {}, "elicitation": {}, "roots": {"listChanged": True}}
    assert p.client_capabilities("2024-11-05") == {"sampling": {}, "roots": {"listChanged": True}}
    url_only = Profile(name="x", capabilities=ClientCapabilitySwitches(elicitation_form=False))
    assert "elicitation" not in url_only.client_capabilities("2025-06-18")
    assert url_only.client_capabilities("2025-11-25")["elicitation"] == {"url": {}}


def test_json_round_trip_keeps_everything_but_secret_values() -> None:
    p = secret_profile()
    p.roots = [Root("file:///home/me/project", "project"), Root("file:///tmp")]
    p.timeouts.max_total = 300
    p.sampling_auto_reply.enabled = True
    p.sampling_auto_reply.text = "canned"
    data = p.to_json()
    text = json.dumps(data)
    for secret in SECRETS:
        assert secret not in text
    assert {"name": "API_KEY", "secret": True} in data["stdio"]["env"]
    assert {"name": "Authorization", "secret": True} in data["http"]["headers"]
    assert data["auth"]["bearer_token"] == {"secret": True}
    assert data["auth"]["client_secret"] == {"secret": True}
    back = Profile.from_json(json.loads(text))
    assert back == p.without_secret_values()
    assert back.stored_secrets == {"env/API_KEY", "header/Authorization", "auth/bearer_token", "auth/client_secret"}


def test_from_json_fills_defaults_and_keeps_unknown_keys() -> None:
    p = Profile.from_json({"id": "abc", "name": "n", "future": [1], "stdio": {"command": "c", "shell": True}})
    assert p.id == "abc" and p.stdio.command == "c" and p.stdio.args == []
    assert p.timeouts.request == 60.0
    assert p.extra == {"future": [1]}
    assert p.stdio.extra == {"shell": True}
    data = p.to_json()
    assert data["future"] == [1] and data["stdio"]["shell"] is True


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"name": "n", "transport": "ws"}, "transport"),
        ({"name": "n", "stdio": {"args": ["a", 3]}}, "stdio.args[1]"),
        ({"name": "n", "stdio": {"env": [{"name": "A", "value": 1}]}}, "stdio.env[0].value"),
        ({"name": "n", "stdio": {"env": [{"value": "x"}]}}, "stdio.env[0].name"),
        ({"name": "n", "http": {"headers": {"A": "b"}}}, "http.headers"),
        ({"name": "n", "timeouts": {"request": "60"}}, "timeouts.request"),
        ({"name": "n", "timeouts": {"request": 0}}, "timeouts.request"),
        ({"name": "n", "capabilities": {"roots": "yes"}}, "capabilities.roots"),
        ({"name": "n", "auth": {"mode": "basic"}}, "auth.mode"),
        ({"name": "n", "auth": {"bearer_token": 12}}, "auth.bearer_token"),
        ({"name": "n", "roots": [{"name": "no uri"}]}, "roots[0].uri"),
        ({"name": 5}, "name"),
        ([], ""),
    ],
)
def test_from_json_names_the_bad_key(data: Any, where: str) -> None:
    with pytest.raises(ProfileFormatError) as info:
        Profile.from_json(data)
    assert info.value.where == where


# -- CRUD and order ----------------------------------------------------------------------------------------


def test_empty_store_without_a_file(store: ProfileStore, path: Path) -> None:
    assert store.list_profiles() == []
    assert store.load_warnings == []
    assert not path.exists()


def test_create_get_update_delete_persist(store: ProfileStore, path: Path) -> None:
    created = store.create(stdio_profile("one"))
    assert path.exists()
    assert store.get(created.id) == created
    second = store.create(stdio_profile("two"))
    assert [p.name for p in store.list_profiles()] == ["one", "two"]
    assert [p.name for p in reopen(store)] == ["one", "two"]

    changed = store.get(created.id)
    changed.name = "uno"
    changed.stdio.args.append("--verbose")
    changed.timeouts.request = 5
    store.update(changed)
    again = reopen(store).get(created.id)
    assert again.name == "uno" and again.stdio.args[-1] == "--verbose" and again.timeouts.request == 5

    store.delete(second.id)
    assert [p.name for p in reopen(store)] == ["uno"]
    with pytest.raises(KeyError):
        store.get(second.id)
    with pytest.raises(KeyError):
        store.delete(second.id)
    with pytest.raises(KeyError):
        store.update(Profile(name="ghost"))


def test_returned_profiles_are_copies(store: ProfileStore) -> None:
    created = store.create(stdio_profile("one"))
    created.name = "changed without update"
    store.list_profiles()[0].stdio.args.clear()
    assert store.get(created.id).name == "one"
    assert store.get(created.id).stdio.args == ["-m", "inspector.demo"]


def test_create_with_a_taken_id_gets_a_new_one(store: ProfileStore) -> None:
    first = store.create(stdio_profile("one"))
    second = store.create(stdio_profile("two", id=first.id))
    assert second.id != first.id
    assert len(store) == 2


def test_create_at_index_move_and_reorder(store: ProfileStore) -> None:
    a, b, c = (store.create(stdio_profile(n)) for n in "abc")
    d = store.create(stdio_profile("d"), index=0)
    assert [p.name for p in store] == ["d", "a", "b", "c"]
    store.move(d.id, 3)
    assert [p.name for p in store] == ["a", "b", "c", "d"]
    store.move(c.id, 0)
    assert [p.name for p in store] == ["c", "a", "b", "d"]
    store.move(c.id, 99)
    assert [p.name for p in store] == ["a", "b", "d", "c"]
    store.reorder([c.id, b.id])
    assert [p.name for p in store] == ["c", "b", "a", "d"]
    assert [p.name for p in reopen(store)] == ["c", "b", "a", "d"]
    store.reorder([a.id, b.id, c.id, d.id])
    assert store.ids() == [a.id, b.id, c.id, d.id]
    with pytest.raises(KeyError):
        store.reorder(["nope"])


def test_find_by_id_or_name(store: ProfileStore) -> None:
    p = store.create(stdio_profile("My Server"))
    found = store.find(p.id)
    assert found is not None and found.id == p.id
    found = store.find("My Server")
    assert found is not None and found.id == p.id
    found = store.find("my server")
    assert found is not None and found.id == p.id
    assert store.find("other") is None
    assert p.id in store


def test_duplicate_copies_secrets(store: ProfileStore, backend: DictKeyring) -> None:
    original = store.create(secret_profile("orig"))
    store.create(stdio_profile("after"))
    dup = store.duplicate(original.id)
    assert dup.id != original.id
    assert dup.name == "orig (copy)"
    assert [p.name for p in store] == ["orig", "orig (copy)", "after"]
    assert store.duplicate(original.id).name == "orig (copy 2)"
    resolved = store.resolve_secrets(store.get(dup.id))
    assert resolved.stdio.env[1].value == SECRETS[0]
    assert resolved.http.headers[1].value == SECRETS[1]
    assert resolved.auth.bearer_token == SECRETS[2]
    assert resolved.auth.client_secret == SECRETS[3]
    assert secret_key(dup.id, "env", "API_KEY") in backend.keys()
    # the copies are independent: deleting the original leaves the duplicate's secrets
    store.delete(original.id)
    assert store.resolve_secrets(store.get(dup.id)).auth.bearer_token == SECRETS[2]


def test_delete_removes_secrets(store: ProfileStore, backend: DictKeyring) -> None:
    keep = store.create(secret_profile("keep"))
    victim = store.create(secret_profile("victim"))
    assert any(victim.id in key for key in backend.keys())
    store.delete(victim.id)
    assert not any(victim.id in key for key in backend.keys())
    assert len([k for k in backend.keys() if keep.id in k]) == 4


# -- secrets -----------------------------------------------------------------------------------------------------


def test_secrets_go_to_the_keyring_under_profile_keys(store: ProfileStore, backend: DictKeyring) -> None:
    p = store.create(secret_profile())
    assert backend.passwords == {
        (SERVICE_NAME, f"profile/{p.id}/env/API_KEY"): SECRETS[0],
        (SERVICE_NAME, f"profile/{p.id}/header/Authorization"): SECRETS[1],
        (SERVICE_NAME, f"profile/{p.id}/auth/bearer_token"): SECRETS[2],
        (SERVICE_NAME, f"profile/{p.id}/auth/client_secret"): SECRETS[3],
    }
    # handed out without values; resolved on demand
    assert p.stdio.env[1].value is None and p.auth.bearer_token is None
    assert p.unresolved_secrets() == ["header Authorization", "bearer token"]  # an HTTP profile
    p.transport = "stdio"
    assert p.unresolved_secrets() == ["environment variable API_KEY"]
    resolved = store.resolve_secrets(store.get(p.id))
    assert resolved.stdio.env == [EnvVar("LOG_LEVEL", "debug"), EnvVar("API_KEY", SECRETS[0], True)]
    assert resolved.http.headers[1].value == SECRETS[1]
    assert resolved.auth.bearer_token == SECRETS[2] and resolved.auth.client_secret == SECRETS[3]
    assert resolved.unresolved_secrets() == []
    # and after a restart
    assert reopen(store).resolve_secrets(reopen(store).get(p.id)) == resolved


def test_secrets_never_reach_disk(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, backend: DictKeyring) -> None:
    monkeypatch.setenv("MCP_INSPECTOR_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("MCP_INSPECTOR_DATA_DIR", str(tmp_path / "data"))
    store = ProfileStore(secrets=SecretStore(backend))
    assert store.path == config_dir() / "profiles.json"
    p = store.create(secret_profile())
    dup = store.duplicate(p.id)
    edited = store.resolve_secrets(store.get(dup.id))
    edited.name = "edited"
    edited.stdio.env.append(EnvVar("DB_PASSWORD", "another-s3cr3t", secret=True))
    store.update(edited)
    store.move(dup.id, 0)
    store.save()
    files = all_bytes_under(config_dir(), data_dir())
    assert any(f.name == "profiles.json" for f, _ in files)
    for file, content in files:
        for secret in (*SECRETS, "another-s3cr3t"):
            assert secret.encode() not in content, f"{secret} found in {file}"
    assert "another-s3cr3t" in {v for v in backend.passwords.values()}


def test_update_keeps_unloaded_secrets_and_clears_on_empty(store: ProfileStore, backend: DictKeyring) -> None:
    p = store.create(secret_profile())
    unresolved = store.get(p.id)
    unresolved.name = "renamed"
    store.update(unresolved)  # None values: what is stored stays
    resolved = store.resolve_secrets(store.get(p.id))
    assert resolved.name == "renamed" and resolved.auth.bearer_token == SECRETS[2]
    assert reopen(store).get(p.id).to_json()["auth"]["bearer_token"] == {"secret": True}

    cleared = store.get(p.id)
    cleared.auth.bearer_token = ""
    store.update(cleared)
    assert secret_key(p.id, "auth", "bearer_token") not in backend.keys()
    assert reopen(store).get(p.id).to_json()["auth"]["bearer_token"] is None
    assert store.resolve_secrets(store.get(p.id)).auth.bearer_token is None
    assert store.resolve_secrets(store.get(p.id)).auth.client_secret == SECRETS[3]


def test_update_changes_secret_values_and_names(store: ProfileStore, backend: DictKeyring) -> None:
    p = store.create(secret_profile())
    edited = store.resolve_secrets(store.get(p.id))
    edited.stdio.env[1].name = "API_TOKEN"
    edited.stdio.env[1].value = "new-value"
    store.update(edited)
    assert secret_key(p.id, "env", "API_KEY") not in backend.keys()
    assert backend.passwords[(SERVICE_NAME, secret_key(p.id, "env", "API_TOKEN"))] == "new-value"


def test_unflagging_a_secret_moves_it_into_the_file(store: ProfileStore, backend: DictKeyring) -> None:
    p = store.create(secret_profile())
    plain = store.get(p.id)  # not resolved: the store fetches the value itself
    plain.stdio.env[1].secret = False
    store.update(plain)
    assert secret_key(p.id, "env", "API_KEY") not in backend.keys()
    assert reopen(store).get(p.id).stdio.env[1] == EnvVar("API_KEY", SECRETS[0], False)


def test_flagging_a_variable_secret_removes_it_from_the_file(store: ProfileStore, path: Path) -> None:
    p = store.create(stdio_profile())
    edited = store.get(p.id)
    edited.stdio.env = [EnvVar("TOKEN", "was-plain", secret=False)]
    store.update(edited)
    assert b"was-plain" in path.read_bytes()
    edited.stdio.env[0].secret = True
    store.update(edited)
    assert b"was-plain" not in path.read_bytes()
    assert store.resolve_secrets(store.get(p.id)).stdio.env[0].value == "was-plain"


def test_secret_values_found_in_the_file_are_moved_to_the_keyring(path: Path, backend: DictKeyring) -> None:
    path.parent.mkdir(parents=True)
    entry = {
        "id": "p1",
        "name": "hand edited",
        "stdio": {"command": "x", "env": [{"name": "API_KEY", "value": "typed-in-file", "secret": True}]},
        "auth": {"mode": "bearer", "bearer_token": "token-in-file"},
    }
    path.write_text(json.dumps({"version": 1, "profiles": [entry]}))
    store = ProfileStore(path, SecretStore(backend))
    assert len(store.load_warnings) == 1 and "moved to the secret store" in store.load_warnings[0]
    text = path.read_text()
    assert "typed-in-file" not in text and "token-in-file" not in text
    resolved = store.resolve_secrets(store.get("p1"))
    assert resolved.stdio.env[0].value == "typed-in-file"
    assert resolved.auth.bearer_token == "token-in-file"


def test_no_keyring_keeps_secrets_for_the_session_only(path: Path) -> None:
    secrets = SecretStore(keyring.backends.null.Keyring())
    assert not secrets.persistent
    assert secrets.message is not None and secrets.message.startswith(SESSION_ONLY_MESSAGE)
    store = ProfileStore(path, secrets)
    p = store.create(secret_profile())
    for secret in SECRETS:
        assert secret.encode() not in path.read_bytes()
    assert store.resolve_secrets(store.get(p.id)).auth.bearer_token == SECRETS[2]
    # next session: the profile is there, its secrets must be entered again
    later = ProfileStore(path, SecretStore(keyring.backends.null.Keyring()))
    resolved = later.resolve_secrets(later.get(p.id))
    assert resolved.unresolved_secrets() == ["header Authorization", "bearer token"]
    assert resolved.stdio.env[1].value is None


# -- atomic save -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("crash", [OSError("disk full"), KeyboardInterrupt()])
def test_crash_between_write_and_replace_leaves_the_old_file(
    store: ProfileStore, path: Path, monkeypatch: pytest.MonkeyPatch, crash: BaseException
) -> None:
    store.create(stdio_profile("one"))
    before = path.read_bytes()

    def crash_replace(src: Any, dst: Any) -> None:
        assert Path(src).read_bytes() != before  # the new content was fully written ...
        raise crash  # ... and then the process "died"

    monkeypatch.setattr("inspector.store.profiles.os.replace", crash_replace)
    with pytest.raises(type(crash)):
        store.create(stdio_profile("two"))
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(f.name for f in path.parent.iterdir()) == ["profiles.json"]  # temp file cleaned up
    assert [p.name for p in store] == ["one"]  # the change was undone in memory too
    assert [p.name for p in reopen(store)] == ["one"]


def test_atomic_write_text_replaces_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "f.json"
    atomic_write_text(target, "first\n")
    atomic_write_text(target, "second\n")
    assert target.read_text() == "second\n"
    assert os.stat(target).st_mode & 0o777 == 0o600
    atomic_write_text(target, "third\n", mode=0o644)
    assert os.stat(target).st_mode & 0o777 == 0o644
    assert [f.name for f in target.parent.iterdir()] == ["f.json"]


def test_file_format(store: ProfileStore, path: Path) -> None:
    p = store.create(stdio_profile("one"))
    data = json.loads(path.read_text())
    assert data["version"] == FORMAT_VERSION
    assert data["profiles"][0]["id"] == p.id
    assert data["profiles"][0]["stdio"] == {"command": "python", "args": ["-m", "inspector.demo"], "env": [], "cwd": ""}
    assert set(data["profiles"][0]) >= {
        "id", "name", "transport", "stdio", "http", "auth", "timeouts", "protocol_version",
        "capabilities", "roots", "sampling_auto_reply",
    }  # fmt: skip


def test_unknown_keys_survive_a_save(path: Path, backend: DictKeyring) -> None:
    path.parent.mkdir(parents=True)
    path.write_text(
        json.dumps(
            {
                "version": 1,
                "ui": {"collapsed": True},
                "profiles": [{"id": "p1", "name": "a", "color": "red", "http": {"url": "", "proxy": "p"}}],
            }
        )
    )
    store = ProfileStore(path, SecretStore(backend))
    assert store.load_warnings == []
    store.create(stdio_profile("b"))
    data = json.loads(path.read_text())
    assert data["ui"] == {"collapsed": True}
    assert data["profiles"][0]["color"] == "red"
    assert data["profiles"][0]["http"]["proxy"] == "p"


def test_newer_format_version_warns(path: Path, backend: DictKeyring) -> None:
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"version": 99, "profiles": [{"id": "p", "name": "n"}]}))
    store = ProfileStore(path, SecretStore(backend))
    assert len(store) == 1
    assert len(store.load_warnings) == 1 and "newer version" in store.load_warnings[0]


# -- corrupt files ------------------------------------------------------------------------------------------------


def corrupt_files(path: Path) -> list[Path]:
    return sorted(path.parent.glob("profiles.json.corrupt-*"))


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"version": 1, "profiles": [\n  {"id": "a",, }\n]}', "line 2, column 14"),
        ("[1, 2, 3]", "does not hold a JSON object"),
        ('{"version": 1, "profiles": {"a": {}}}', '"profiles" key that is an object'),
        ("", "line 1, column 1"),
    ],
)
def test_unreadable_file_is_moved_aside(path: Path, backend: DictKeyring, content: str, expected: str) -> None:
    path.parent.mkdir(parents=True)
    path.write_text(content)
    store = ProfileStore(path, SecretStore(backend))
    assert store.list_profiles() == []
    assert len(store.load_warnings) == 1
    warning = store.load_warnings[0]
    assert expected in warning
    (aside,) = corrupt_files(path)
    assert str(aside) in warning
    assert aside.read_text() == content
    assert not path.exists()
    # the app carries on: a new profile makes a fresh file, the corrupt copy stays
    store.create(stdio_profile("fresh"))
    assert [p.name for p in reopen(store)] == ["fresh"]
    assert aside.read_text() == content


def test_binary_garbage_is_moved_aside(path: Path, backend: DictKeyring) -> None:
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xff\xfe\x00garbage")
    store = ProfileStore(path, SecretStore(backend))
    assert "not UTF-8" in store.load_warnings[0]
    assert len(corrupt_files(path)) == 1


def test_one_bad_entry_loses_nothing_else(path: Path, backend: DictKeyring) -> None:
    path.parent.mkdir(parents=True)
    good1 = stdio_profile("good one").to_json()
    good2 = stdio_profile("good two").to_json()
    bad = stdio_profile("broken").to_json()
    bad["stdio"]["args"] = ["ok", 42]
    content = json.dumps({"version": 1, "profiles": [good1, bad, "not an object", good2]}, indent=2)
    path.write_text(content)
    store = ProfileStore(path, SecretStore(backend))
    assert [p.name for p in store] == ["good one", "good two"]
    assert len(store.load_warnings) == 1
    warning = store.load_warnings[0]
    assert 'profile #2 ("broken") was skipped: stdio.args[1]: expected a string, got a number' in warning
    assert "profile #3 was skipped: expected an object, got a string" in warning
    (aside,) = corrupt_files(path)
    assert aside.read_text() == content  # the dropped entries can still be recovered by hand
    assert str(aside) in warning
    assert path.read_text() == content  # nothing rewritten until the next change
    store.create(stdio_profile("new"))
    assert [p.name for p in reopen(store)] == ["good one", "good two", "new"]


def test_duplicate_ids_are_made_unique(path: Path, backend: DictKeyring) -> None:
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"profiles": [{"id": "same", "name": "a"}, {"id": "same", "name": "b"}]}))
    store = ProfileStore(path, SecretStore(backend))
    assert len(set(store.ids())) == 2
    assert "same id" in store.load_warnings[0]
    assert len(set(reopen(store).ids())) == 2


def test_unreadable_path_is_reported(tmp_path: Path, backend: DictKeyring) -> None:
    directory = tmp_path / "profiles.json"
    directory.mkdir()
    store = ProfileStore(directory, SecretStore(backend))
    assert store.list_profiles() == []
    assert "could not be read" in store.load_warnings[0]
