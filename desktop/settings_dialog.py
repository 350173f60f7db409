"""Edit the app's preferences: platform, model (and its API key), language, theme."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from desktop.theme import error_color

if TYPE_CHECKING:
    from desktop.credentials import CredentialStore
    from desktop.settings import AppSettings


class SettingsDialog(QDialog):
    """Preferences; saved to ``AppSettings`` (and the key to the keyring) on OK.

    Args:
        settings: The preferences to edit.
        credentials: Where the API key is kept.
        parent: Parent widget.
    """

    def __init__(
        self,
        settings: AppSettings,
        credentials: CredentialStore,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._settings = settings
        self._credentials = credentials
        self._had_key = bool(credentials.load_api_key())
        self.setWindowTitle(self.tr("Settings"))
        self.setMinimumWidth(480)

        # Platform
        self.embedded_check = QCheckBox(self.tr("Use the built-in &demo platform"))
        self.url_edit = QLineEdit(settings.ontul_url)
        self.url_edit.setPlaceholderText("https://ontul.example.com")
        self.embedded_check.setChecked(not settings.ontul_url)
        self.embedded_check.toggled.connect(self._sync_enabled)
        platform_box = QGroupBox(self.tr("Data platform"))
        platform_form = QFormLayout(platform_box)
        platform_form.addRow(self.embedded_check)
        url_label = QLabel(self.tr("Ontul &URL:"))
        url_label.setBuddy(self.url_edit)
        platform_form.addRow(url_label, self.url_edit)

        # Model
        self.model_combo = QComboBox()
        self.model_combo.addItem(self.tr("Offline demo model (deterministic, no LLM)"), "offline")
        self.model_combo.addItem(self.tr("Claude (Anthropic API)"), "claude")
        self.model_combo.setCurrentIndex(max(0, self.model_combo.findData(settings.model)))
        self.model_combo.currentIndexChanged.connect(self._sync_enabled)
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit.setPlaceholderText(
            self.tr("A key is saved; type to replace it") if self._had_key else self.tr("sk-ant-…")
        )
        self.show_key_check = QCheckBox(self.tr("S&how"))
        self.show_key_check.toggled.connect(
            lambda shown: self.key_edit.setEchoMode(
                QLineEdit.EchoMode.Normal if shown else QLineEdit.EchoMode.Password
            )
        )
        self.forget_key_check = QCheckBox(self.tr("&Forget the saved key"))
        self.forget_key_check.setVisible(self._had_key)
        model_box = QGroupBox(self.tr("Model"))
        model_form = QFormLayout(model_box)
        model_label = QLabel(self.tr("&Model:"))
        model_label.setBuddy(self.model_combo)
        model_form.addRow(model_label, self.model_combo)
        key_label = QLabel(self.tr("API &key:"))
        key_label.setBuddy(self.key_edit)
        model_form.addRow(key_label, self.key_edit)
        model_form.addRow("", self.show_key_check)
        model_form.addRow("", self.forget_key_check)
        key_note = QLabel(
            self.tr("The key is stored in the system keyring, never in a settings file.")
            if credentials.available
            else credentials.notice or ""
        )
        key_note.setWordWrap(True)
        key_note.setObjectName("keyNote")
        model_form.addRow(key_note)

        # Appearance
        self.language_combo = QComboBox()
        self.language_combo.addItem(self.tr("Same as the system"), "system")
        self.language_combo.addItem("English", "en")
        self.language_combo.addItem("한국어", "ko")
        self.language_combo.setCurrentIndex(max(0, self.language_combo.findData(settings.language)))
        self.theme_combo = QComboBox()
        self.theme_combo.addItem(self.tr("Same as the system"), "system")
        self.theme_combo.addItem(self.tr("Light"), "light")
        self.theme_combo.addItem(self.tr("Dark"), "dark")
        self.theme_combo.setCurrentIndex(max(0, self.theme_combo.findData(settings.theme)))
        look_box = QGroupBox(self.tr("Appearance"))
        look_form = QFormLayout(look_box)
        language_label = QLabel(self.tr("&Language:"))
        language_label.setBuddy(self.language_combo)
        theme_label = QLabel(self.tr("&Theme:"))
        theme_label.setBuddy(self.theme_combo)
        look_form.addRow(language_label, self.language_combo)
        look_form.addRow(theme_label, self.theme_combo)
        restart_note = QLabel(
            self.tr("A new server, model or language applies the next time RegDesk starts.")
        )
        restart_note.setWordWrap(True)
        look_form.addRow(restart_note)

        self.error_label = QLabel()
        self.error_label.setObjectName("errorLabel")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(f"color: {error_color()};")
        self.error_label.hide()

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(platform_box)
        layout.addWidget(model_box)
        layout.addWidget(look_box)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self._sync_enabled()

    def _sync_enabled(self) -> None:
        self.url_edit.setEnabled(not self.embedded_check.isChecked())
        claude = self.model_combo.currentData() == "claude"
        for widget in (self.key_edit, self.show_key_check, self.forget_key_check):
            widget.setEnabled(claude)
        self.error_label.hide()

    def _validate(self) -> tuple[QWidget, str] | None:
        if not self.embedded_check.isChecked():
            url = QUrl(self.url_edit.text().strip())
            if url.scheme() not in ("http", "https") or not url.host():
                return self.url_edit, self.tr(
                    "Enter the Ontul URL, starting with http:// or https://, "
                    "or use the built-in demo platform."
                )
        if self.model_combo.currentData() == "claude":
            keeps_key = self._had_key and not self.forget_key_check.isChecked()
            if not self.key_edit.text().strip() and not keeps_key:
                return self.key_edit, self.tr("Claude needs an API key.")
        return None

    def accept(self) -> None:
        """Validate, save and close; on a problem show it inline and stay open."""
        problem = self._validate()
        if problem is not None:
            widget, message = problem
            self.error_label.setText(message)
            self.error_label.show()
            widget.setFocus()
            return
        settings = self._settings
        settings.ontul_url = "" if self.embedded_check.isChecked() else self.url_edit.text()
        settings.model = str(self.model_combo.currentData())
        settings.language = str(self.language_combo.currentData())
        settings.theme = str(self.theme_combo.currentData())
        settings.sync()
        key = self.key_edit.text().strip()
        if key:
            self._credentials.save_api_key(key)
        elif self.forget_key_check.isChecked():
            self._credentials.save_api_key("")
        super().accept()
