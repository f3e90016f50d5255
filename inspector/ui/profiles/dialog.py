"""The profile editor: transport (stdio, or HTTP/SSE with headers and auth), environment (with secret values),
timeouts, protocol version, client side.

Opened with ``open()`` (never ``exec()``); the buttons are attributes (``ok_button``, ``cancel_button``,
``add_env_button`` ...) so tests click them. ``profile()`` returns the edited copy: fields this editor
does not show (unknown keys) are kept as they were. A secret (env value, secret header, bearer token,
OAuth client secret) whose value is in the keyring is not loaded into the editor: its field stays empty
("stored in the keyring") and an empty field keeps the stored value.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import Final

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.content.era_summary import CHOICE_HELP, CHOICE_LABELS
from inspector.protocol.versions import HANDSHAKE_VERSIONS, EraChoice
from inspector.store.profiles import Header, Profile
from inspector.store.secrets import KEYRING_STORED_HINT, SecretStore
from inspector.ui.connection.roots import folder_root
from inspector.ui.profiles.views import EnvTable, LimitsTable, RootsTable
from inspector.ui.widgets.theme import themed_style

__all__ = ["ProfileDialog"]

STORED_HINT = KEYRING_STORED_HINT
AUTH_MODE_LABELS = (("None", "none"), ("Bearer token", "bearer"), ("OAuth 2.1", "oauth"))


ERA_CHOICES: Final = tuple((choice.value, CHOICE_LABELS[choice]) for choice in CHOICE_LABELS)
"""(stored value of ``Profile.protocol_era``, label): Automatic, the handshake, 2026-07-28."""


class HeaderTable(EnvTable):
    """Name / value / secret rows for HTTP headers; a secret's value is masked and kept in the keyring."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHorizontalHeaderLabels(["Header", "Value", "Secret"])
        self.setColumnWidth(0, 200)

    def add_row(self, name: str = "", value: str | None = "", secret: bool = False, stored: bool = False) -> int:
        row = super().add_row(name, value, secret, stored)
        self.name_edit(row).setPlaceholderText("X-Header-Name")
        return row

    def headers(self) -> list[Header]:
        return [Header(name=v.name, value=v.value, secret=v.secret) for v in self.variables()]


def _seconds_box(maximum: float) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(0.0, maximum)
    box.setDecimals(1)
    box.setSuffix(" s")
    box.setSpecialValueText("no limit")
    box.setSingleStep(5.0)
    return box


class ProfileDialog(QDialog):
    """Create (``profile=None``) or edit a profile."""

    def __init__(
        self, profile: Profile | None = None, parent: QWidget | None = None, *, secrets: SecretStore | None = None
    ) -> None:
        """``secrets``: where secret values go (its ``stored_hint`` is the placeholder of a stored secret)."""
        super().__init__(parent)
        self.stored_hint = secrets.stored_hint if secrets is not None else STORED_HINT
        self.editing = profile is not None
        self.save_hook: Callable[[], str | None] | None = None
        """Called on Save once the fields are valid: None when saved, else why not (the dialog stays open)."""
        self._base = profile.copy() if profile is not None else Profile(name="")
        self.setWindowTitle("Edit profile" if self.editing else "New profile")
        self.setModal(True)
        self.resize(720, 560)

        self.tabs = QTabWidget()
        self.tabs.addTab(self._server_page(), "Server")
        self.tabs.addTab(self._connection_page(), "Connection")
        self.tabs.addTab(self._client_page(), "Client")

        self.error_label = QLabel()
        themed_style(
            self.error_label,
            lambda t: (
                f"color: {t.error_fg}; background: {t.error_bg}; border: 1px solid {t.error_border};"
                " border-radius: 6px; padding: 4px 8px;"
            ),
        )
        self.error_label.setWordWrap(True)
        self.error_label.hide()

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.cancel_button = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self._load(self._base)

    # -- pages -----------------------------------------------------------------------------------

    def _server_page(self) -> QWidget:
        page = QWidget()
        form = QFormLayout()
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText("e.g. weather (local)")
        self.transport_combo = QComboBox()
        for label, kind in (("stdio (local process)", "stdio"), ("Streamable HTTP", "http"), ("SSE (legacy)", "sse")):
            self.transport_combo.addItem(label, kind)
        form.addRow("Name:", self.name_edit)
        form.addRow("Transport:", self.transport_combo)

        self.stdio_group = stdio = QGroupBox("Local process (stdio)")
        stdio_form = QFormLayout(stdio)
        self.command_edit = QLineEdit()
        self.command_edit.setPlaceholderText("e.g. uvx, npx, python")
        self.args_edit = QLineEdit()
        self.args_edit.setPlaceholderText("shell-style, e.g. -m my_server --verbose")
        self.cwd_edit = QLineEdit()
        self.cwd_edit.setPlaceholderText("(the inspector's working directory)")
        self.cwd_button = QPushButton("Browse…")
        cwd_row = QHBoxLayout()
        cwd_row.addWidget(self.cwd_edit, 1)
        cwd_row.addWidget(self.cwd_button)
        self.env_table = EnvTable()
        self.env_table.stored_hint = self.stored_hint
        self.add_env_button = QPushButton("Add variable")
        self.remove_env_button = QPushButton("Remove")
        env_buttons = QHBoxLayout()
        env_buttons.addWidget(self.add_env_button)
        env_buttons.addWidget(self.remove_env_button)
        env_buttons.addStretch(1)
        env_box = QVBoxLayout()
        env_box.addWidget(self.env_table)
        env_box.addLayout(env_buttons)
        stdio_form.addRow("Command:", self.command_edit)
        stdio_form.addRow("Arguments:", self.args_edit)
        stdio_form.addRow("Working dir:", cwd_row)
        stdio_form.addRow("Environment:", env_box)

        self.http_group = QGroupBox("Remote server (HTTP / SSE)")
        http_form = QFormLayout(self.http_group)
        self.url_edit = QLineEdit()
        self.url_edit.setPlaceholderText("https://example.com/mcp")
        self.header_table = HeaderTable()
        self.header_table.stored_hint = self.stored_hint
        self.add_header_button = QPushButton("Add header")
        self.remove_header_button = QPushButton("Remove")
        header_buttons = QHBoxLayout()
        header_buttons.addWidget(self.add_header_button)
        header_buttons.addWidget(self.remove_header_button)
        header_buttons.addStretch(1)
        header_box = QVBoxLayout()
        header_box.addWidget(self.header_table)
        header_box.addLayout(header_buttons)
        self.ca_bundle_edit = QLineEdit()
        self.ca_bundle_edit.setPlaceholderText("(system trust store only)")
        self.ca_bundle_button = QPushButton("Browse…")
        ca_row = QHBoxLayout()
        ca_row.addWidget(self.ca_bundle_edit, 1)
        ca_row.addWidget(self.ca_bundle_button)
        http_form.addRow("URL:", self.url_edit)
        http_form.addRow("Headers:", header_box)
        http_form.addRow("CA bundle:", ca_row)
        http_form.addRow(self._auth_box())
        self.add_header_button.clicked.connect(lambda: self.header_table.add_row())
        self.remove_header_button.clicked.connect(self.header_table.remove_selected)
        self.ca_bundle_button.clicked.connect(self._browse_ca_bundle)
        self.transport_combo.currentIndexChanged.connect(lambda _i: self._show_transport_fields())

        self.add_env_button.clicked.connect(lambda: self.env_table.add_row())
        self.remove_env_button.clicked.connect(self.env_table.remove_selected)
        self.cwd_button.clicked.connect(self._browse_cwd)

        layout = QVBoxLayout(page)
        layout.addLayout(form)
        layout.addWidget(stdio, 1)
        layout.addWidget(self.http_group, 1)
        return page

    def _auth_box(self) -> QGroupBox:
        box = QGroupBox("Authorization")
        form = QFormLayout(box)
        self.auth_mode_combo = QComboBox()
        for label, mode in AUTH_MODE_LABELS:
            self.auth_mode_combo.addItem(label, mode)
        form.addRow("Mode:", self.auth_mode_combo)
        self.auth_stack = QStackedWidget()
        self.auth_stack.addWidget(QWidget())  # none

        bearer = QWidget()
        bearer_form = QFormLayout(bearer)
        bearer_form.setContentsMargins(0, 0, 0, 0)
        self.bearer_token_edit = QLineEdit()
        self.bearer_token_edit.setEchoMode(QLineEdit.EchoMode.Password)
        bearer_form.addRow("Token:", self.bearer_token_edit)
        self.auth_stack.addWidget(bearer)

        oauth = QWidget()
        oauth_form = QFormLayout(oauth)
        oauth_form.setContentsMargins(0, 0, 0, 0)
        self.client_id_edit = QLineEdit()
        self.client_id_edit.setPlaceholderText("(a CIMD URL or dynamic registration)")
        self.client_secret_edit = QLineEdit()
        self.client_secret_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.client_secret_edit.setPlaceholderText("(a public client)")
        self.cimd_url_edit = QLineEdit()
        self.cimd_url_edit.setPlaceholderText("https://… client metadata document (optional)")
        self.scopes_edit = QLineEdit()
        self.scopes_edit.setPlaceholderText("space-separated (the server's choice when empty)")
        oauth_form.addRow("Client ID:", self.client_id_edit)
        oauth_form.addRow("Client secret:", self.client_secret_edit)
        oauth_form.addRow("CIMD URL:", self.cimd_url_edit)
        oauth_form.addRow("Scopes:", self.scopes_edit)
        self.auth_stack.addWidget(oauth)
        form.addRow(self.auth_stack)
        self.auth_mode_combo.currentIndexChanged.connect(self.auth_stack.setCurrentIndex)
        return box

    def _era_changed(self, _index: int = 0) -> None:
        """The era combo's tooltip explains the chosen era; 2026-07-28 offers no handshake version."""
        choice = EraChoice(str(self.era_combo.currentData() or EraChoice.AUTO.value))
        self.era_combo.setToolTip(CHOICE_HELP[choice])
        modern = choice is EraChoice.MODERN
        self.version_combo.setEnabled(not modern)
        self.version_combo.setToolTip(
            "Not used: 2026-07-28 opens with server/discover, not initialize" if modern
            else "The version initialize offers (in Automatic: when the server does not speak 2026-07-28)"
        )  # fmt: skip

    def _connection_page(self) -> QWidget:
        page = QWidget()
        form = QFormLayout()
        self.era_combo = QComboBox()
        for era, label in ERA_CHOICES:
            self.era_combo.addItem(label, era)
            self.era_combo.setItemData(
                self.era_combo.count() - 1, CHOICE_HELP[EraChoice(era)], Qt.ItemDataRole.ToolTipRole
            )
        form.addRow("Protocol era:", self.era_combo)
        self.version_combo = QComboBox()
        for version in HANDSHAKE_VERSIONS:
            self.version_combo.addItem(version, version)
        form.addRow("Handshake-era version to offer:", self.version_combo)
        self.era_combo.currentIndexChanged.connect(self._era_changed)
        self._era_changed()

        box = QGroupBox("Timeouts")
        tform = QFormLayout(box)
        self.request_timeout = _seconds_box(86400.0)
        self.reset_on_progress = QCheckBox("Progress notifications restart the request timeout")
        self.max_total_timeout = _seconds_box(7 * 86400.0)
        tform.addRow("Request timeout:", self.request_timeout)
        tform.addRow("", self.reset_on_progress)
        tform.addRow("Maximum total time:", self.max_total_timeout)
        hint = QLabel("The request timeout also bounds the handshake (initialize).")
        hint.setEnabled(False)
        tform.addRow("", hint)

        limits_box = QGroupBox("Limits on what is read from the server")
        limits_layout = QVBoxLayout(limits_box)
        self.limits_table = LimitsTable()
        limits_layout.addWidget(self.limits_table)
        limits_hint = QLabel(
            "A message, body, line or stream that breaks a limit is ended with a diagnostic naming it. "
            "Sizes take KB, MB, GB, KiB, MiB or GiB; hover a name for what it bounds."
        )
        limits_hint.setWordWrap(True)
        limits_hint.setEnabled(False)
        limits_layout.addWidget(limits_hint)

        layout = QVBoxLayout(page)
        layout.addLayout(form)
        layout.addWidget(box)
        layout.addWidget(limits_box, 1)
        return page

    def _client_page(self) -> QWidget:
        page = QWidget()
        caps = QGroupBox("Client capabilities to declare")
        grid = QVBoxLayout(caps)
        self.sampling_check = QCheckBox("Sampling (sampling/createMessage)")
        self.sampling_tools_check = QCheckBox("Sampling with tools")
        self.elicitation_form_check = QCheckBox("Elicitation: form mode")
        self.elicitation_url_check = QCheckBox("Elicitation: URL mode")
        self.roots_check = QCheckBox("Roots (roots/list)")
        self.roots_list_changed_check = QCheckBox("Roots: listChanged notifications")
        for check, indent in (
            (self.sampling_check, 0),
            (self.sampling_tools_check, 24),
            (self.elicitation_form_check, 0),
            (self.elicitation_url_check, 0),
            (self.roots_check, 0),
            (self.roots_list_changed_check, 24),
        ):
            line = QHBoxLayout()
            line.addSpacing(indent)
            line.addWidget(check, 1)
            grid.addLayout(line)
        self.sampling_check.toggled.connect(self.sampling_tools_check.setEnabled)
        self.roots_check.toggled.connect(self.roots_list_changed_check.setEnabled)

        roots = QGroupBox("Roots offered to the server")
        rlayout = QVBoxLayout(roots)
        self.roots_table = RootsTable()
        self.add_root_button = QPushButton("Add root")
        self.add_folder_button = QPushButton("Add folder…")
        self.add_folder_button.setToolTip("Pick a local folder; it is offered as a file:// root")
        self.remove_root_button = QPushButton("Remove")
        rbuttons = QHBoxLayout()
        rbuttons.addWidget(self.add_root_button)
        rbuttons.addWidget(self.add_folder_button)
        rbuttons.addWidget(self.remove_root_button)
        rbuttons.addStretch(1)
        rlayout.addWidget(self.roots_table)
        rlayout.addLayout(rbuttons)
        self.add_root_button.clicked.connect(lambda: self._edit_new_root())
        self.add_folder_button.clicked.connect(lambda: self.choose_root_folder())
        self.remove_root_button.clicked.connect(lambda: self.roots_table.removeRow(self.roots_table.currentRow()))

        auto = QGroupBox("Sampling auto-reply (for repeated testing)")
        alayout = QVBoxLayout(auto)
        self.auto_reply_check = QCheckBox("Answer every sampling request with this text, without a dialog")
        self.auto_reply_text = QLineEdit()
        self.auto_reply_text.setPlaceholderText("The canned assistant reply")
        alayout.addWidget(self.auto_reply_check)
        alayout.addWidget(self.auto_reply_text)
        self.auto_reply_check.toggled.connect(self.auto_reply_text.setEnabled)
        self.auto_reply_text.setEnabled(False)

        layout = QVBoxLayout(page)
        layout.addWidget(caps)
        layout.addWidget(auto)
        layout.addWidget(roots, 1)
        return page

    # -- behaviour -------------------------------------------------------------------------------

    def add_root_folder(self, path: str) -> None:
        root = folder_root(path)
        self.roots_table.add_root(root.uri, root.name or "")

    def choose_root_folder(self) -> QFileDialog:
        """A non-blocking folder picker; the chosen folder becomes a file:// root."""
        picker = QFileDialog(self, "Add a folder as a root")
        picker.setFileMode(QFileDialog.FileMode.Directory)
        picker.setOption(QFileDialog.Option.ShowDirsOnly, True)
        picker.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        picker.fileSelected.connect(self.add_root_folder)
        picker.open()
        return picker

    def _edit_new_root(self) -> None:
        row = self.roots_table.add_root()
        self.roots_table.setCurrentCell(row, 0)
        item = self.roots_table.item(row, 0)
        if item is not None:
            self.roots_table.editItem(item)

    def _browse_cwd(self) -> None:
        picker = QFileDialog(self, "Working directory", self.cwd_edit.text())
        picker.setFileMode(QFileDialog.FileMode.Directory)
        picker.setOption(QFileDialog.Option.ShowDirsOnly, True)
        picker.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        picker.fileSelected.connect(self.cwd_edit.setText)
        picker.open()

    def _browse_ca_bundle(self) -> None:
        picker = QFileDialog(self, "CA bundle (PEM)", self.ca_bundle_edit.text())
        picker.setFileMode(QFileDialog.FileMode.ExistingFile)
        picker.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        picker.fileSelected.connect(self.ca_bundle_edit.setText)
        picker.open()

    def transport(self) -> str:
        return str(self.transport_combo.currentData())

    def _show_transport_fields(self) -> None:
        local = self.transport() == "stdio"
        self.stdio_group.setVisible(local)
        self.stdio_group.setEnabled(local)
        self.http_group.setVisible(not local)
        self.http_group.setEnabled(not local)

    def _load_secret(self, edit: QLineEdit, value: str | None, key: str, p: Profile) -> None:
        edit.setText(value or "")
        if value is None and key in p.stored_secrets:
            edit.setPlaceholderText(self.stored_hint)
        edit.setProperty("stored", value is None and key in p.stored_secrets)

    def _load(self, p: Profile) -> None:
        self.name_edit.setText(p.name)
        self.transport_combo.setCurrentIndex(max(0, self.transport_combo.findData(p.transport)))
        self._show_transport_fields()
        self.command_edit.setText(p.stdio.command)
        self.args_edit.setText(shlex.join(p.stdio.args))
        self.cwd_edit.setText(p.stdio.cwd)
        for var in p.stdio.env:
            self.env_table.add_row(var.name, var.value, var.secret, stored=f"env/{var.name}" in p.stored_secrets)
        self.url_edit.setText(p.http.url)
        for header in p.http.headers:
            stored = f"header/{header.name}" in p.stored_secrets
            self.header_table.add_row(header.name, header.value, header.secret, stored=stored)
        self.ca_bundle_edit.setText(p.http.ca_bundle)
        a = p.auth
        self.auth_mode_combo.setCurrentIndex(max(0, self.auth_mode_combo.findData(a.mode)))
        self.auth_stack.setCurrentIndex(self.auth_mode_combo.currentIndex())
        self._load_secret(self.bearer_token_edit, a.bearer_token, "auth/bearer_token", p)
        self.client_id_edit.setText(a.client_id)
        self._load_secret(self.client_secret_edit, a.client_secret, "auth/client_secret", p)
        self.cimd_url_edit.setText(a.cimd_url)
        self.scopes_edit.setText(" ".join(a.scopes))
        self.era_combo.setCurrentIndex(max(0, self.era_combo.findData(p.protocol_era)))
        index = self.version_combo.findData(p.protocol_version)
        if index < 0:
            self.version_combo.addItem(p.protocol_version, p.protocol_version)
            index = self.version_combo.count() - 1
        self.version_combo.setCurrentIndex(index)
        t = p.timeouts
        self.request_timeout.setValue(t.request or 0.0)
        self.reset_on_progress.setChecked(t.reset_on_progress)
        self.max_total_timeout.setValue(t.max_total or 0.0)
        self.limits_table.set_overrides(p.limits)
        c = p.capabilities
        self.sampling_check.setChecked(c.sampling)
        self.sampling_tools_check.setChecked(c.sampling_tools)
        self.sampling_tools_check.setEnabled(c.sampling)
        self.elicitation_form_check.setChecked(c.elicitation_form)
        self.elicitation_url_check.setChecked(c.elicitation_url)
        self.roots_check.setChecked(c.roots)
        self.roots_list_changed_check.setChecked(c.roots_list_changed)
        self.roots_list_changed_check.setEnabled(c.roots)
        for root in p.roots:
            self.roots_table.add_root(root.uri, root.name or "")
        self.auto_reply_check.setChecked(p.sampling_auto_reply.enabled)
        self.auto_reply_text.setText(p.sampling_auto_reply.text)
        self.auto_reply_text.setEnabled(p.sampling_auto_reply.enabled)

    def problems(self) -> list[str]:
        """What keeps the profile from being saved (empty: it can be saved)."""
        found: list[str] = []
        if not self.name_edit.text().strip():
            found.append("Give the profile a name.")
        if self.transport() == "stdio":
            if not self.command_edit.text().strip():
                found.append("Enter the command that starts the server.")
        else:
            found += self._http_problems()
        try:
            shlex.split(self.args_edit.text())
        except ValueError as exc:
            found.append(f"The arguments cannot be parsed: {exc}.")
        names = [v.name for v in self.env_table.variables()]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            found.append(f"Environment variables set twice: {', '.join(duplicates)}.")
        try:
            self.limits_table.overrides()
        except ValueError as exc:
            found.append(f"Limits: {exc}.")
        return found

    def _http_problems(self) -> list[str]:
        found: list[str] = []
        url = self.url_edit.text().strip()
        if not url.lower().startswith(("http://", "https://")):
            found.append("Enter the server's http:// or https:// URL.")
        names = [h.name for h in self.header_table.headers()]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            found.append(f"Headers set twice: {', '.join(duplicates)}.")
        mode = self.auth_mode_combo.currentData()
        if mode == "bearer" and not self.bearer_token_edit.text() and not self.bearer_token_edit.property("stored"):
            found.append("Enter the bearer token.")
        if mode == "oauth":
            has_secret = bool(self.client_secret_edit.text()) or bool(self.client_secret_edit.property("stored"))
            if has_secret and not self.client_id_edit.text().strip():
                found.append("A client secret needs its client ID.")
            cimd = self.cimd_url_edit.text().strip()
            if cimd and not cimd.lower().startswith("https://"):
                found.append("The CIMD URL must be an https:// URL.")
        return found

    def accept(self) -> None:
        problems = self.problems()
        if not problems and self.save_hook is not None:
            failure = self.save_hook()  # e.g. the config dir cannot be written: stay open, nothing typed is lost
            problems = [failure] if failure else []
        if problems:
            self.error_label.setText(" ".join(problems))
            self.error_label.show()
            return
        super().accept()

    def profile(self) -> Profile:
        """The edited profile (a copy; secrets as typed, or None to keep the stored ones)."""
        p = self._base.copy()
        p.name = self.name_edit.text().strip()
        transport = self.transport()
        if transport in ("stdio", "http", "sse"):
            p.transport = transport  # type: ignore[assignment]
        p.http.url = self.url_edit.text().strip()
        p.http.headers = self.header_table.headers()
        p.http.ca_bundle = self.ca_bundle_edit.text().strip()
        a = p.auth
        mode = str(self.auth_mode_combo.currentData())
        if mode in ("none", "bearer", "oauth"):
            a.mode = mode  # type: ignore[assignment]
        a.bearer_token = self.bearer_token_edit.text() or None  # empty: keep what is stored
        a.client_id = self.client_id_edit.text().strip()
        a.client_secret = self.client_secret_edit.text() or None
        a.cimd_url = self.cimd_url_edit.text().strip()
        a.scopes = self.scopes_edit.text().split()
        p.stdio.command = self.command_edit.text().strip()
        try:
            p.stdio.args = shlex.split(self.args_edit.text())
        except ValueError:
            p.stdio.args = self.args_edit.text().split()
        p.stdio.cwd = self.cwd_edit.text().strip()
        p.stdio.env = self.env_table.variables()
        p.protocol_version = str(self.version_combo.currentData())
        era = str(self.era_combo.currentData())
        p.protocol_era = "modern" if era == "modern" else "legacy" if era == "legacy" else "auto"
        p.timeouts.request = self.request_timeout.value() or None
        p.timeouts.reset_on_progress = self.reset_on_progress.isChecked()
        p.timeouts.max_total = self.max_total_timeout.value() or None
        try:
            p.limits = self.limits_table.overrides()
        except ValueError:
            pass  # problems() refuses to accept the dialog with a bad value: keep the profile's limits
        c = p.capabilities
        c.sampling = self.sampling_check.isChecked()
        c.sampling_tools = self.sampling_tools_check.isChecked()
        c.elicitation_form = self.elicitation_form_check.isChecked()
        c.elicitation_url = self.elicitation_url_check.isChecked()
        c.roots = self.roots_check.isChecked()
        c.roots_list_changed = self.roots_list_changed_check.isChecked()
        p.roots = self.roots_table.roots()
        p.sampling_auto_reply.enabled = self.auto_reply_check.isChecked()
        p.sampling_auto_reply.text = self.auto_reply_text.text()
        return p
