"""The profiles file: :class:`ProfileStore` (CRUD, order, secrets), atomic writes, corrupt-file recovery.

Package-internal: the public names live in :mod:`inspector.store.profiles`, whose docstring
describes the file format and how secrets are handled.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Final, cast

from inspector.store.paths import UnwritableDirectory, config_dir, describe_os_error, ensure_directory
from inspector.store.profiles.json_values import ProfileFormatError, json_type
from inspector.store.profiles.model import Profile, new_id
from inspector.store.profiles.sections import AUTH_SECRETS, EnvVar, Header
from inspector.store.secrets import SecretStore

__all__ = ["FORMAT_VERSION", "PROFILES_FILENAME", "ProfileStore", "atomic_write_text", "secret_key"]

FORMAT_VERSION: Final = 1
PROFILES_FILENAME: Final = "profiles.json"


def secret_key(profile_id: str, kind: str, name: str) -> str:
    """The secret store key of one secret of one profile."""
    return f"profile/{profile_id}/{kind}/{name}"


# -- files -----------------------------------------------------------------------------------------------


def atomic_write_text(path: Path, text: str, *, mode: int | None = None) -> None:
    """Replace ``path`` with ``text`` so that a crash leaves either the old or the new file, whole.

    The text goes to a temp file in the same directory (mode 0600 unless ``mode`` is given), is
    flushed and fsynced, then ``os.replace`` swaps it in and the directory is fsynced. On any error
    the temp file is removed and the old file is untouched. A directory that cannot be created, or in
    which the temp file cannot be created, raises :class:`~inspector.store.paths.UnwritableDirectory`.
    """
    ensure_directory(path.parent)
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise UnwritableDirectory(path.parent, exc) from exc
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp_name, mode)
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
    _fsync_directory(path.parent)


def _fsync_directory(directory: Path) -> None:
    if os.name != "posix":
        return
    try:
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def _aside_path(path: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    candidate = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    return candidate


# -- the store ----------------------------------------------------------------------------------------------


class ProfileStore:
    """The ordered list of saved profiles, the file that holds them and the secrets that go with them.

    Every change (create, update, duplicate, delete, move, reorder) is saved at once; when saving
    fails the change is undone in memory and the ``OSError`` propagates (``UnwritableDirectory`` when the
    config dir cannot be written; the file on disk is left as it was). Profiles going in may carry
    secret values; profiles coming out never do (see :meth:`resolve_secrets`). All returned profiles
    are copies: change them, then pass them to :meth:`update`.
    """

    def __init__(self, path: Path | None = None, secrets: SecretStore | None = None) -> None:
        self.path = path if path is not None else config_dir() / PROFILES_FILENAME
        self.secrets = secrets if secrets is not None else SecretStore()
        self.load_warnings: list[str] = []
        self._profiles: list[Profile] = []
        self._file_extra: dict[str, Any] = {}
        self.load()

    # -- loading ---------------------------------------------------------------------------------

    def load(self) -> None:
        """(Re)read the file. Problems end up in ``load_warnings``; nothing here raises."""
        self.load_warnings = []
        self._profiles = []
        self._file_extra = {}
        try:
            raw = self.path.read_bytes()
        except (FileNotFoundError, NotADirectoryError):  # (no directory there: nothing saved yet)
            return
        except OSError as exc:
            self._warn(f"The profiles file {self.path} could not be read ({exc.strerror or exc}); no profiles loaded.")
            return
        try:
            data = json.loads(raw.decode("utf-8-sig"))
        except UnicodeDecodeError as exc:
            self._set_aside(f"is not UTF-8 text (byte {exc.start})")
            return
        except json.JSONDecodeError as exc:
            self._set_aside(f"is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})")
            return
        except RecursionError:
            self._set_aside("is not valid JSON (nested too deeply)")
            return
        if not isinstance(data, dict):
            self._set_aside(f"does not hold a JSON object (it holds {json_type(data)})")
            return
        entries = data.get("profiles", [])
        if not isinstance(entries, list):
            self._set_aside(f'has a "profiles" key that is {json_type(entries)}, not a list')
            return
        version = data.get("version", FORMAT_VERSION)
        if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT_VERSION:
            self._warn(
                f"The profiles file {self.path} was written by a newer version of the app (format {version}); "
                f"fields this version does not know are kept, but saving writes format {FORMAT_VERSION}."
            )
        self._file_extra = {k: v for k, v in data.items() if k not in {"version", "profiles"}}
        self._load_entries(entries)

    def _load_entries(self, entries: list[Any]) -> None:
        dropped: list[str] = []
        seen: set[str] = set()
        migrate = False
        for index, entry in enumerate(entries):
            try:
                profile = Profile.from_json(entry, "")
            except ProfileFormatError as exc:
                label = f"#{index + 1}"
                if isinstance(entry, dict) and isinstance(entry.get("name"), str) and entry["name"]:
                    label += f' ("{entry["name"]}")'
                dropped.append(f"profile {label} was skipped: {exc}")
                continue
            if profile.id in seen:
                old_id, profile.id = profile.id, new_id()
                self._warn(
                    f'Profile "{profile.name}" had the same id as another profile ({old_id}); it was given a new id '
                    "and its stored secrets need to be entered again."
                )
                migrate = True
            seen.add(profile.id)
            if self._adopt_plain_secrets(profile):
                migrate = True
            self._profiles.append(profile)
        if dropped:
            aside = self._copy_aside()
            where = f"The original file was copied to {aside}." if aside else "The original file could not be copied."
            self._warn(f"Some profiles in {self.path} could not be read: " + "; ".join(dropped) + f". {where}")
        if migrate:
            try:
                self.save()
            except OSError as exc:
                self._warn(f"The profiles file {self.path} could not be rewritten ({describe_os_error(exc)}).")

    def _adopt_plain_secrets(self, profile: Profile) -> bool:
        """Move secret values found in the file (hand edits) into the secret store. True if any."""
        found = [slot for slot in profile.secret_slots() if slot.value]
        for slot in found:
            self.secrets.set(secret_key(profile.id, slot.kind, slot.name), slot.value or "")
            profile.stored_secrets.add(slot.key)
            profile.set_secret(slot.kind, slot.name, None)
        if found:
            names = ", ".join(slot.name for slot in found)
            self._warn(
                f'Profile "{profile.name}" had secret values written in the profiles file ({names}); '
                "they were moved to the secret store and removed from the file."
            )
        return bool(found)

    def _set_aside(self, problem: str) -> None:
        aside = _aside_path(self.path)
        try:
            os.replace(self.path, aside)
        except OSError as exc:
            self._warn(
                f"The profiles file {self.path} {problem}, and it could not be moved aside ({exc.strerror or exc}). "
                "No profiles were loaded; saving will replace it."
            )
            return
        self._warn(
            f"The profiles file {self.path} {problem}. It was moved to {aside} and the profile list starts empty."
        )

    def _copy_aside(self) -> Path | None:
        aside = _aside_path(self.path)
        try:
            shutil.copy2(self.path, aside)
        except OSError:
            return None
        return aside

    def _warn(self, message: str) -> None:
        self.load_warnings.append(message)

    # -- reading ---------------------------------------------------------------------------------

    def list_profiles(self) -> list[Profile]:
        """All profiles, in the user's order (copies, secret values not loaded)."""
        return [p.copy() for p in self._profiles]

    def __iter__(self) -> Iterator[Profile]:
        return iter(self.list_profiles())

    def __len__(self) -> int:
        return len(self._profiles)

    def __contains__(self, profile_id: object) -> bool:
        return any(p.id == profile_id for p in self._profiles)

    def ids(self) -> list[str]:
        return [p.id for p in self._profiles]

    def get(self, profile_id: str) -> Profile:
        """The profile with this id; KeyError if there is none."""
        return self._profiles[self._index(profile_id)].copy()

    def find(self, name_or_id: str) -> Profile | None:
        """By id, else by exact name, else by case-insensitive name (the first match)."""
        folded = name_or_id.casefold()
        for match in (
            [p for p in self._profiles if p.id == name_or_id],
            [p for p in self._profiles if p.name == name_or_id],
            [p for p in self._profiles if p.name.casefold() == folded],
        ):
            if match:
                return match[0].copy()
        return None

    def resolve_secrets(self, profile: Profile) -> Profile:
        """A copy of ``profile`` with every secret not loaded (None) fetched from the secret store.

        Secrets the store does not have stay None; ``Profile.unresolved_secrets()`` lists them.
        """
        resolved = profile.copy()
        for slot in resolved.secret_slots():
            if slot.value is None:
                value = self.secrets.get(secret_key(resolved.id, slot.kind, slot.name))
                if value is not None:
                    resolved.set_secret(slot.kind, slot.name, value)
        return resolved

    def _index(self, profile_id: str) -> int:
        for i, profile in enumerate(self._profiles):
            if profile.id == profile_id:
                return i
        raise KeyError(profile_id)

    # -- changing ----------------------------------------------------------------------------------

    def create(self, profile: Profile, index: int | None = None) -> Profile:
        """Add a profile (at the end, or at ``index``); its secrets go to the secret store."""
        new = profile.copy()
        if not new.id or new.id in self:
            new.id = new_id()
        new.stored_secrets = set()
        stored, _ = self._commit_secrets(new, None)
        position = len(self._profiles) if index is None else max(0, min(index, len(self._profiles)))
        self._insert(position, stored)
        return stored.copy()

    def update(self, profile: Profile) -> Profile:
        """Replace the saved profile with the same id; KeyError if it does not exist."""
        index = self._index(profile.id)
        old = self._profiles[index]
        stored, stale = self._commit_secrets(profile.copy(), old)

        def replace(profiles: list[Profile]) -> None:
            profiles[index] = stored

        self._change(replace)
        for key in stale:
            self.secrets.delete(key)
        return stored.copy()

    def duplicate(self, profile_id: str, name: str | None = None) -> Profile:
        """A copy with a new id right after the original; stored secrets are copied too."""
        index = self._index(profile_id)
        original = self._profiles[index]
        clone = original.copy()
        clone.id = new_id()
        clone.name = name if name is not None else self._copy_name(original.name)
        clone.stored_secrets = set()
        for slot in original.secret_slots():
            source = secret_key(original.id, slot.kind, slot.name)
            if self.secrets.copy(source, secret_key(clone.id, slot.kind, slot.name)):
                clone.stored_secrets.add(slot.key)
        self._insert(index + 1, clone)
        return clone.copy()

    def delete(self, profile_id: str) -> None:
        """Remove a profile and its secrets."""
        index = self._index(profile_id)
        victim = self._profiles[index]
        self._change(lambda profiles: profiles.pop(index))
        self._forget_secrets(victim)

    def _forget_secrets(self, profile: Profile) -> None:
        keys = {slot.key for slot in profile.secret_slots()} | profile.stored_secrets
        keys |= {f"auth/{name}" for name in AUTH_SECRETS}
        for key in sorted(keys):
            kind, _, name = key.partition("/")
            self.secrets.delete(secret_key(profile.id, kind, name))

    def move(self, profile_id: str, index: int) -> None:
        """Move a profile to position ``index`` (clamped to the list)."""
        current = self._index(profile_id)

        def move(profiles: list[Profile]) -> None:
            profile = profiles.pop(current)
            profiles.insert(max(0, min(index, len(profiles))), profile)

        self._change(move)

    def reorder(self, ids: Iterable[str]) -> None:
        """Put the profiles in this order; ids not given keep their relative order at the end."""
        wanted = list(dict.fromkeys(ids))
        for profile_id in wanted:
            self._index(profile_id)
        rank = {profile_id: i for i, profile_id in enumerate(wanted)}

        def reorder(profiles: list[Profile]) -> None:
            profiles.sort(key=lambda p: rank.get(p.id, len(rank)))

        self._change(reorder)

    def save(self) -> None:
        """Write the file atomically."""
        document = {
            **self._file_extra,
            "version": FORMAT_VERSION,
            "profiles": [p.to_json() for p in self._profiles],
        }
        atomic_write_text(self.path, json.dumps(document, indent=2, ensure_ascii=False) + "\n")

    # -- internals ---------------------------------------------------------------------------------

    def _change(self, mutate: Callable[[list[Profile]], object]) -> None:
        before = list(self._profiles)
        mutate(self._profiles)
        try:
            self.save()
        except BaseException:
            self._profiles = before
            raise

    def _insert(self, position: int, profile: Profile) -> None:
        """Insert a new profile and save; when saving fails, its just-stored secrets are removed too."""
        try:
            self._change(lambda profiles: profiles.insert(position, profile))
        except BaseException:
            self._forget_secrets(profile)
            raise

    def _copy_name(self, name: str) -> str:
        names = {p.name for p in self._profiles}
        candidate = f"{name} (copy)"
        n = 1
        while candidate in names:
            n += 1
            candidate = f"{name} (copy {n})"
        return candidate

    def _commit_secrets(self, new: Profile, old: Profile | None) -> tuple[Profile, list[str]]:
        """Write ``new``'s known secret values to the secret store.

        Returns the profile to keep (secret values stripped, ``stored_secrets`` up to date) and the
        secret store keys that no longer belong to any slot (to delete once the file is saved).
        """
        old_stored = set(old.stored_secrets) if old is not None else set()
        # A secret turned plain without its value loaded keeps its stored value (now in the file).
        for kind, items in (("env", new.stdio.env), ("header", new.http.headers)):
            for item in cast(list[EnvVar | Header], items):
                if not item.secret and item.value is None:
                    previous = None
                    if f"{kind}/{item.name}" in old_stored:
                        previous = self.secrets.get(secret_key(new.id, kind, item.name))
                    item.value = previous or ""
        stored: set[str] = set()
        for slot in new.secret_slots():
            if slot.value is None:
                if slot.key in old_stored:
                    stored.add(slot.key)
            elif slot.kind == "auth" and slot.value == "":
                continue  # cleared
            else:
                self.secrets.set(secret_key(new.id, slot.kind, slot.name), slot.value)
                stored.add(slot.key)
        kept = new.without_secret_values()
        kept.stored_secrets = stored
        stale = [secret_key(new.id, *key.split("/", 1)) for key in sorted(old_stored - stored)]
        return kept, stale
