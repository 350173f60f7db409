"""Edit the app's preferences: platform, model (endpoint, model, key, budget), language, theme."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop.tasks import run_in_background
from desktop.theme import error_color

if TYPE_CHECKING:
    from desktop.credentials import CredentialStore
    from desktop.settings import AppSettings
    from desktop.tasks import Job


class SettingsDialog(QDialog):
    """Preferences; saved to ``AppSettings`` (and the key to the keyring) on OK.

    Args:
        settings: The preferences to edit.
        credentials: Where the API key is kept.
        parent: Parent widget.
    """

    models_loaded = Signal(object)
    """The endpoint's model list (a list of ``ModelChoice``), or a message when it has none."""

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
        self.model_combo.addItem(
            self.tr("Another Messages-API endpoint (Ollama, llama.cpp, a gateway)"), "endpoint"
        )
        self.model_combo.setCurrentIndex(max(0, self.model_combo.findData(settings.model)))
        self.model_combo.currentIndexChanged.connect(self._sync_enabled)
        self.base_url_edit = QLineEdit(settings.model_base_url)
        self.base_url_edit.setPlaceholderText("http://localhost:11434")
        self.model_name_combo = QComboBox()
        self.model_name_combo.setEditable(True)
        self.model_name_combo.addItem(self.tr("Newest Sonnet the endpoint lists"), "")
        if settings.model_name:
            self.model_name_combo.addItem(settings.model_name, settings.model_name)
            self.model_name_combo.setCurrentIndex(1)
        self.load_models_button = QPushButton(self.tr("&Load models"))
        self.load_models_button.clicked.connect(self.load_models)
        self.models_note = QLabel()
        self.models_note.setWordWrap(True)
        self.models_note.setObjectName("modelsNote")
        self.models_loaded.connect(self._on_models_loaded)
        self.max_tokens_spin = QSpinBox()
        self.max_tokens_spin.setRange(0, 128000)
        self.max_tokens_spin.setSingleStep(1024)
        self.max_tokens_spin.setSpecialValueText(self.tr("Default (16,000)"))
        self.max_tokens_spin.setValue(settings.max_tokens)
        self.effort_combo = QComboBox()
        self.effort_combo.addItem(self.tr("The model's default"), "")
        for level in ("low", "medium", "high", "xhigh", "max"):
            self.effort_combo.addItem(level, level)
        self.effort_combo.setCurrentIndex(max(0, self.effort_combo.findData(settings.effort)))
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
        base_label = QLabel(self.tr("Endpoint &URL:"))
        base_label.setBuddy(self.base_url_edit)
        model_form.addRow(base_label, self.base_url_edit)
        self._base_label = base_label
        name_label = QLabel(self.tr("Model &name:"))
        name_label.setBuddy(self.model_name_combo)
        name_row = QHBoxLayout()
        name_row.addWidget(self.model_name_combo, 1)
        name_row.addWidget(self.load_models_button)
        model_form.addRow(name_label, name_row)
        model_form.addRow("", self.models_note)
        budget_label = QLabel(self.tr("Output &budget (tokens):"))
        budget_label.setBuddy(self.max_tokens_spin)
        model_form.addRow(budget_label, self.max_tokens_spin)
        effort_label = QLabel(self.tr("Thinking &effort:"))
        effort_label.setBuddy(self.effort_combo)
        model_form.addRow(effort_label, self.effort_combo)
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
        self.enter_sends_check = QCheckBox(
            self.tr("Enter &sends the question (Shift+Enter: new line); off: Ctrl+Enter sends")
        )
        self.enter_sends_check.setChecked(settings.enter_sends)
        look_form.addRow(self.enter_sends_check)
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
        choice = self.model_combo.currentData()
        remote = choice in ("claude", "endpoint")
        for widget in (
            self.key_edit,
            self.show_key_check,
            self.forget_key_check,
            self.model_name_combo,
            self.load_models_button,
            self.effort_combo,
        ):
            widget.setEnabled(remote)
        self.base_url_edit.setVisible(choice == "endpoint")
        self._base_label.setVisible(choice == "endpoint")
        self.error_label.hide()

    def chosen_model_name(self) -> str:
        """The model in the picker: its id ('' for the newest Sonnet), or the typed name."""
        index = self.model_name_combo.currentIndex()
        typed = self.model_name_combo.currentText().strip()
        if index >= 0 and self.model_name_combo.itemText(index) == typed:
            return str(self.model_name_combo.itemData(index) or "")
        return typed

    def load_models(self) -> None:
        """Ask the endpoint for its models (in the background); the picker fills with them."""
        choice = self.model_combo.currentData()
        base_url = self.base_url_edit.text().strip() if choice == "endpoint" else ""
        key = self.key_edit.text().strip() or self._credentials.load_api_key() or ""
        self.load_models_button.setEnabled(False)
        self.models_note.setText(self.tr("Asking the endpoint for its models…"))

        def fetch(_: Job) -> Any:
            return _fetch_models(base_url or None, key)

        # emitted in the GUI thread; a dialog closed meanwhile hears nothing
        run_in_background(fetch, name="regdesk-models", owner=self, on_done=self.models_loaded.emit)

    def _on_models_loaded(self, outcome: Any) -> None:
        self.load_models_button.setEnabled(self.model_combo.currentData() in ("claude", "endpoint"))
        if not isinstance(outcome, list):
            self.models_note.setText(
                self.tr("This endpoint lists no models; type the model name.")
                if outcome is None
                else str(outcome)
            )
            return
        current = self.chosen_model_name()
        combo = self.model_name_combo
        while combo.count() > 1:
            combo.removeItem(1)
        for model in outcome:
            if model.lifecycle == "retired":
                continue
            label = f"{model.display_name} ({model.id})"
            if model.lifecycle == "deprecated":
                label += self.tr(" — deprecated")
            combo.addItem(label, model.id)
        found = combo.findData(current)
        if found < 0 and current:
            combo.addItem(current, current)
            found = combo.count() - 1
        combo.setCurrentIndex(max(0, found))
        self.models_note.setText(self.tr("{0} models listed.").format(combo.count() - 1))

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
        if self.model_combo.currentData() == "endpoint":
            url = QUrl(self.base_url_edit.text().strip())
            if url.scheme() not in ("http", "https") or not url.host():
                return self.base_url_edit, self.tr(
                    "Enter the endpoint's URL, starting with http:// or https://."
                )
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
        settings.model_base_url = self.base_url_edit.text()
        settings.model_name = self.chosen_model_name()
        settings.max_tokens = self.max_tokens_spin.value()
        settings.effort = str(self.effort_combo.currentData() or "")
        settings.language = str(self.language_combo.currentData())
        settings.theme = str(self.theme_combo.currentData())
        settings.enter_sends = self.enter_sends_check.isChecked()
        settings.sync()
        key = self.key_edit.text().strip()
        if key:
            self._credentials.save_api_key(key)
        elif self.forget_key_check.isChecked():
            self._credentials.save_api_key("")
        super().accept()


def _fetch_models(base_url: str | None, key: str) -> Any:
    """The endpoint's models (``ModelChoice`` list or None), or a message why not."""
    import anthropic

    from agent_core.config import NO_KEY
    from agent_core.model_catalog import list_models

    try:
        client = anthropic.Anthropic(api_key=key or NO_KEY, base_url=base_url, max_retries=1)
        try:
            return list_models(client, refresh=True)
        finally:
            client.close()
    except Exception as exc:  # shown in the dialog
        return str(exc)
