"""Secret values (tokens, client secrets, secret env values and headers) in the OS keyring.

Every secret lives under the service name ``mcp-inspector-desktop`` with a key chosen by the caller
(profiles use ``profile/<id>/<kind>/<name>``). When no keyring service is usable — keyring's ``fail``
or ``null`` backend, an empty chainer, or a backend that raises when used — secrets are kept in this
process's memory for the session only, ``persistent`` is False and ``message`` says so. Nothing here
ever writes a secret to a file.

``keyring`` is imported, and its backend chosen, on the store's first use, not when it is made: loading the
keyring's backends takes a noticeable part of a second, which the window's first paint need not wait for.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import keyring.backend

__all__ = [
    "KEYRING_STORED_HINT",
    "KEYRING_WHERE",
    "SERVICE_NAME",
    "SESSION_ONLY_MESSAGE",
    "SESSION_STORED_HINT",
    "SESSION_WHERE",
    "SecretStore",
]

log = logging.getLogger(__name__)

SERVICE_NAME: Final = "mcp-inspector-desktop"
SESSION_ONLY_MESSAGE: Final = "No keyring service: secrets are kept for this session only"
KEYRING_WHERE: Final = "the OS keyring"
SESSION_WHERE: Final = "this session's memory only (no keyring service)"
KEYRING_STORED_HINT: Final = "stored in the keyring (type to replace)"
SESSION_STORED_HINT: Final = "kept for this session (type to replace)"

_PROBE_KEY: Final = "__probe__"


def _unusable_reason(backend: keyring.backend.KeyringBackend) -> str | None:
    """Why a backend cannot hold secrets, judged by its type alone (None: it may work)."""
    import keyring.backends.chainer
    import keyring.backends.fail
    import keyring.backends.null

    if isinstance(backend, keyring.backends.fail.Keyring):
        return "no keyring backend is installed"
    if isinstance(backend, keyring.backends.null.Keyring):
        return "the keyring is disabled (null backend)"
    if isinstance(backend, keyring.backends.chainer.ChainerBackend) and not list(backend.backends):
        return "no keyring backend is installed"
    return None


def _describe(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class SecretStore:
    """Get, set and delete secrets by key; the OS keyring when usable, else session memory.

    ``backend`` is a keyring backend to use instead of the process-wide one (tests pass their own).
    The first use loads the keyring (unless ``backend`` is given) and probes the backend once; any error from the
    backend at any time switches the store to session memory for the rest of the process (values set before stay
    where they were).
    """

    def __init__(
        self,
        backend: keyring.backend.KeyringBackend | None = None,
        *,
        service: str = SERVICE_NAME,
    ) -> None:
        self.service = service
        self._given = backend
        self._loaded = False
        self._backend: keyring.backend.KeyringBackend | None = None
        self._reason: str | None = None
        self._probed = False
        self._memory: dict[str, str] = {}

    def _load(self) -> None:
        """Choose the backend (once, on first use)."""
        if self._loaded:
            return
        self._loaded = True
        try:
            if self._given is not None:
                self._backend = self._given
            else:
                import keyring

                self._backend = keyring.get_keyring()
        except Exception as exc:  # a broken keyring configuration must not stop the app
            self._backend = None
            self._reason = f"the keyring could not be loaded ({_describe(exc)})"
        else:
            self._reason = _unusable_reason(self._backend)
        self._probed = self._reason is not None

    # -- state -------------------------------------------------------------------------------------

    @property
    def available(self) -> bool:
        """True when the OS keyring answers (probed once, lazily)."""
        self._load()
        if not self._probed:
            self._probed = True
            backend = self._backend
            assert backend is not None  # a missing backend always comes with a reason
            try:
                backend.get_password(self.service, _PROBE_KEY)
            except Exception as exc:
                self._fail(exc)
        return self._reason is None

    @property
    def persistent(self) -> bool:
        """True when secrets outlive this process (they are in the OS keyring)."""
        return self.available

    @property
    def reason(self) -> str | None:
        """Why the keyring is not used (None while it is)."""
        self.available  # noqa: B018 - probe
        return self._reason

    @property
    def message(self) -> str | None:
        """A sentence for the user when secrets are session-only (None when they persist)."""
        if self.available:
            return None
        return f"{SESSION_ONLY_MESSAGE}. Reason: {self._reason}."

    @property
    def where(self) -> str:
        """Where secret values go, in words for the user ("go to …", "removed from … too"): the one source of
        that wording, so no dialog says "the keyring" while secrets stay in memory."""
        return KEYRING_WHERE if self.available else SESSION_WHERE

    @property
    def stored_hint(self) -> str:
        """The placeholder of a field whose secret value is stored but not shown."""
        return KEYRING_STORED_HINT if self.available else SESSION_STORED_HINT

    @property
    def backend_name(self) -> str:
        self._load()
        if self._backend is None:
            return "none"
        cls = type(self._backend)
        return f"{cls.__module__}.{cls.__qualname__}"

    def _fail(self, exc: BaseException) -> None:
        if self._reason is None:
            self._reason = f"the keyring failed: {_describe(exc)}"
            log.warning("keyring unusable, keeping secrets in memory for this session: %s", self._reason)

    def _usable_backend(self) -> keyring.backend.KeyringBackend | None:
        return self._backend if self.available else None

    # -- operations --------------------------------------------------------------------------------

    def get(self, key: str) -> str | None:
        """The secret stored under ``key``, or None."""
        if key in self._memory:
            return self._memory[key]
        backend = self._usable_backend()
        if backend is None:
            return None
        try:
            return backend.get_password(self.service, key)
        except Exception as exc:
            self._fail(exc)
            return None

    def set(self, key: str, value: str) -> None:
        """Store ``value`` under ``key`` (in session memory when the keyring is unusable)."""
        backend = self._usable_backend()
        if backend is not None:
            try:
                backend.set_password(self.service, key, value)
            except Exception as exc:
                self._fail(exc)
            else:
                self._memory.pop(key, None)
                return
        self._memory[key] = value

    def delete(self, key: str) -> None:
        """Forget ``key``; a key that is not stored is fine."""
        self._memory.pop(key, None)
        backend = self._usable_backend()
        if backend is None:
            return
        import keyring.errors

        try:
            backend.delete_password(self.service, key)
        except keyring.errors.PasswordDeleteError:
            pass
        except Exception as exc:
            self._fail(exc)

    def copy(self, source: str, target: str) -> bool:
        """Store the secret of ``source`` under ``target`` too; False when ``source`` holds nothing."""
        value = self.get(source)
        if value is None:
            return False
        self.set(target, value)
        return True
