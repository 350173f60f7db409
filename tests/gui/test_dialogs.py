"""Approval, settings, audit log, about, translations and themes, as a user drives them."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import csv
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from PySide6.QtCore import QCoreApplication, QSettings, Qt
from PySide6.QtGui import QPalette
from PySide6.QtTest import QTest

from agent_core.events import ApprovalRequested
from desktop.about_dialog import AboutDialog
from desktop.approval_dialog import ApprovalDialog
from desktop.audit_view import AuditLogDialog
from desktop.credentials import CredentialStore
from desktop.i18n import install_translator
from desktop.settings import AppSettings
from desktop.settings_dialog import SettingsDialog
from desktop.theme import app_icon, apply_theme

if TYPE_CHECKING:
    from tests.gui.keyrings import DictKeyring

REQUEST = ApprovalRequested(
    call_id="toolu_1",
    persona="hong",
    tool="request_regulation_revision",
    arguments={"doc_no": "HR-REG-003", "version": 3, "reason": "시행일이 문서와 다릅니다"},
    idempotency_key="hong:HR-REG-003:3:5f2c",
)


def _approval(qtbot: Any) -> ApprovalDialog:
    dialog = ApprovalDialog(REQUEST)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitActive(dialog)  # mnemonics (Alt+A) only reach the active window
    return dialog


# -- approval ---------------------------------------------------------------------------


def test_approval_shows_everything_that_will_be_written(qtbot: Any) -> None:
    dialog = _approval(qtbot)
    assert dialog.persona_label.text() == "hong"
    assert dialog.tool_label.text() == "request_regulation_revision"
    assert dialog.key_label.text() == "hong:HR-REG-003:3:5f2c"
    assert json.loads(dialog.arguments_view.toPlainText()) == REQUEST.arguments
    assert "시행일이 문서와 다릅니다" in dialog.arguments_view.toPlainText()


def test_tab_to_approve_and_enter_approves_with_the_typed_reason(qtbot: Any) -> None:
    dialog = _approval(qtbot)
    QTest.keyClicks(dialog.reason_edit, "checked with HR")
    QTest.keyClick(dialog.reason_edit, Qt.Key.Key_Tab)
    assert dialog.focusWidget() is dialog.deny_button
    QTest.keyClick(dialog.deny_button, Qt.Key.Key_Tab)
    assert dialog.focusWidget() is dialog.approve_button
    QTest.keyClick(dialog.approve_button, Qt.Key.Key_Return)
    assert dialog.result() == ApprovalDialog.DialogCode.Accepted
    assert dialog.decision.approved
    assert dialog.decision.reason == "checked with HR"


def test_enter_in_the_reason_field_denies_and_returns_the_reason(qtbot: Any) -> None:
    dialog = _approval(qtbot)
    QTest.keyClicks(dialog.reason_edit, "not before the board meets")
    QTest.keyClick(dialog.reason_edit, Qt.Key.Key_Return)
    assert dialog.result() == ApprovalDialog.DialogCode.Rejected
    assert not dialog.decision.approved
    assert dialog.decision.reason == "not before the board meets"


def test_escape_denies_with_a_default_reason(qtbot: Any) -> None:
    dialog = _approval(qtbot)
    QTest.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()
    assert not dialog.decision.approved
    assert "hong" in dialog.decision.reason


def test_tab_to_approve_then_space_approves(qtbot: Any) -> None:
    dialog = _approval(qtbot)
    QTest.keyClick(dialog.reason_edit, Qt.Key.Key_Tab)  # -> Deny
    QTest.keyClick(dialog.focusWidget(), Qt.Key.Key_Tab)  # -> Approve
    assert dialog.focusWidget() is dialog.approve_button
    QTest.keyClick(dialog.approve_button, Qt.Key.Key_Space)
    assert dialog.decision.approved


# -- settings ---------------------------------------------------------------------------


def _settings(tmp_path: Path) -> AppSettings:
    return AppSettings(QSettings(str(tmp_path / "regdesk.ini"), QSettings.Format.IniFormat))


def test_settings_round_trip_and_the_key_goes_to_the_keyring(
    qtbot: Any, tmp_path: Path, test_keyring: DictKeyring
) -> None:
    settings = _settings(tmp_path)
    assert (settings.ontul_url, settings.model, settings.language, settings.theme) == (
        "",
        "offline",
        "system",
        "system",
    )
    dialog = SettingsDialog(settings, CredentialStore())
    qtbot.addWidget(dialog)
    dialog.show()

    dialog.embedded_check.setChecked(False)
    dialog.url_edit.setText("https://ontul.example.com/")
    dialog.model_combo.setCurrentIndex(dialog.model_combo.findData("claude"))
    dialog.key_edit.setText("sk-ant-api-key-123")
    dialog.language_combo.setCurrentIndex(dialog.language_combo.findData("ko"))
    dialog.theme_combo.setCurrentIndex(dialog.theme_combo.findData("dark"))
    dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()

    assert dialog.result() == SettingsDialog.DialogCode.Accepted
    reread = _settings(tmp_path)
    assert (reread.ontul_url, reread.model, reread.language, reread.theme) == (
        "https://ontul.example.com",
        "claude",
        "ko",
        "dark",
    )
    assert CredentialStore().load_api_key() == "sk-ant-api-key-123"
    assert "sk-ant-api-key-123" not in (tmp_path / "regdesk.ini").read_text(encoding="utf-8")


def test_settings_refuse_claude_without_a_key_and_a_bad_url(
    qtbot: Any, tmp_path: Path, test_keyring: DictKeyring
) -> None:
    settings = _settings(tmp_path)
    dialog = SettingsDialog(settings, CredentialStore())
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.embedded_check.setChecked(False)
    dialog.url_edit.setText("ontul.example.com")
    dialog.accept()
    assert dialog.isVisible()
    assert "http://" in dialog.error_label.text()

    dialog.embedded_check.setChecked(True)
    dialog.model_combo.setCurrentIndex(dialog.model_combo.findData("claude"))
    dialog.accept()
    assert dialog.isVisible()
    assert "API key" in dialog.error_label.text()
    assert _settings(tmp_path).model == "offline"


def test_corrupt_settings_read_back_as_defaults(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    settings.qsettings.setValue("model/choice", "gpt-9")
    settings.qsettings.setValue("ui/theme", 42)
    assert settings.model == "offline"
    assert settings.theme == "system"
    with pytest.raises(ValueError, match="one of"):
        settings.language = "fr"


# -- audit log --------------------------------------------------------------------------


def _write_audit_log(path: Path) -> None:
    audit = pytest.importorskip("agent_core.audit", reason="agent_core.audit not built yet")
    log = audit.AuditLog(path)
    log.append(
        {
            "persona": "hong",
            "event": "tool_call",
            "tool": "query_hr",
            "decision": "allow",
            "status": "ok",
        }
    )
    log.append(
        {
            "persona": "hong",
            "event": "approval",
            "tool": "request_regulation_revision",
            "approved": False,
            "reason": "not now",
        }
    )
    log.append(
        {
            "persona": "cho",
            "event": "tool_call",
            "tool": "search_regulations",
            "decision": "allow",
            "status": "ok",
        }
    )


def test_audit_viewer_shows_rows_and_an_intact_chain(qtbot: Any, tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    _write_audit_log(path)
    dialog = AuditLogDialog(path)
    qtbot.addWidget(dialog)

    assert dialog.model.rowCount() == 3
    assert dialog.model.columns[:2] == ["ts", "persona"]
    assert dialog.model.columns[-2:] == ["prev", "hash"]
    tool = dialog.model.columns.index("tool")
    assert dialog.model.index(1, tool).data() == "request_regulation_revision"
    approved = dialog.model.columns.index("approved")
    assert dialog.model.index(1, approved).data() == "no"  # an answer, not Python's False
    assert dialog.chain_intact is True
    assert "intact" in dialog.chain_label.text()
    assert dialog.model.headerData(1, Qt.Orientation.Horizontal) == "Persona"
    assert not any(dialog.model.is_untrusted(row) for row in range(3))

    dialog.filter_edit.setText("search_reg")
    assert dialog.proxy.rowCount() == 1


def test_audit_viewer_flags_a_tampered_line(qtbot: Any, tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    _write_audit_log(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1].replace('"approved": false', '"approved": true')
    assert '"approved": true' in lines[1]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    dialog = AuditLogDialog(path)
    qtbot.addWidget(dialog)

    assert dialog.chain_intact is False
    assert "line 2" in dialog.chain_label.text()
    assert dialog.model.rowCount() == 3  # still shown, so the edit can be inspected
    assert [dialog.model.is_untrusted(row) for row in range(3)] == [False, True, True]
    assert dialog.model.index(1, 0).data(Qt.ItemDataRole.BackgroundRole) is not None
    assert dialog.model.index(0, 0).data(Qt.ItemDataRole.BackgroundRole) is None


def test_audit_export_copies_exactly_or_writes_csv(qtbot: Any, tmp_path: Path) -> None:
    from agent_core.audit import verify_audit_log

    path = tmp_path / "audit.jsonl"
    _write_audit_log(path)
    dialog = AuditLogDialog(path)
    qtbot.addWidget(dialog)

    dialog.export_to(tmp_path / "copy.jsonl")
    assert (tmp_path / "copy.jsonl").read_bytes() == path.read_bytes()
    assert verify_audit_log(tmp_path / "copy.jsonl") == (True, None)

    dialog.export_to(tmp_path / "audit.csv")
    with (tmp_path / "audit.csv").open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["persona"] for r in rows] == ["hong", "hong", "cho"]


def test_audit_viewer_without_a_file_says_so(qtbot: Any, tmp_path: Path) -> None:
    dialog = AuditLogDialog(tmp_path / "none.jsonl")
    qtbot.addWidget(dialog)
    assert dialog.model.rowCount() == 0
    assert dialog.chain_intact is None
    assert not dialog.export_button.isEnabled()


# -- about, translations, theme ---------------------------------------------------------


def test_about_names_the_platform_and_the_model(qtbot: Any) -> None:
    dialog = AboutDialog(
        "0.1.0", "http://127.0.0.1:9", "Offline demo model (deterministic, no LLM)"
    )
    qtbot.addWidget(dialog)
    assert dialog.platform_label.text() == "http://127.0.0.1:9"
    assert "no LLM" in dialog.model_label.text()
    assert not app_icon().isNull()


def test_korean_translation_loads_and_translates(qapp: Any) -> None:
    try:
        assert install_translator(qapp, "ko") is True
        assert QCoreApplication.translate("ApprovalDialog", "&Approve") == "승인(&A)"
        assert QCoreApplication.translate("LoginDialog", "&Sign in") == "로그인(&S)"
    finally:
        assert install_translator(qapp, "en") is False
    assert QCoreApplication.translate("ApprovalDialog", "&Approve") == "&Approve"


def test_every_translation_is_finished() -> None:
    from desktop.i18n import TRANSLATIONS_DIR

    source = (TRANSLATIONS_DIR / "regdesk_ko.ts").read_text(encoding="utf-8")
    assert 'type="unfinished"' not in source


def _messages(ts: Path) -> set[tuple[str, str]]:
    import xml.etree.ElementTree as ET

    root = ET.parse(ts).getroot()
    return {
        (context.findtext("name") or "", message.findtext("source") or "")
        for context in root.iter("context")
        for message in context.iter("message")
    }


def test_translation_file_lists_every_string_the_code_translates(tmp_path: Path) -> None:
    """lupdate over desktop/ finds exactly the committed strings: none missed, none stale.

    A helper wrapping ``translate`` with a variable hides its strings from lupdate; the
    next update then dropped them from the .ts and the Korean UI showed them in English.
    """
    import shutil
    import subprocess
    import sys

    from desktop.i18n import TRANSLATIONS_DIR

    lupdate = Path(sys.executable).with_name("pyside6-lupdate")
    if not lupdate.exists():
        found = shutil.which("pyside6-lupdate")
        if found is None:
            pytest.skip("pyside6-lupdate is not installed")
        lupdate = Path(found)
    root = Path(__file__).resolve().parents[2]
    fresh = tmp_path / "fresh.ts"
    sources = sorted(str(p) for p in (root / "desktop").glob("*.py"))
    subprocess.run(
        [
            str(lupdate),
            *sources,
            "-source-language",
            "en",
            "-target-language",
            "ko",
            "-locations",
            "none",
            "-no-obsolete",
            "-ts",
            str(fresh),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    committed = _messages(TRANSLATIONS_DIR / "regdesk_ko.ts")
    current = _messages(fresh)
    assert current - committed == set(), "run scripts/update_translations and translate"
    assert committed - current == set(), "stale entries: run scripts/update_translations"


def test_themes_switch_palettes(qapp: Any) -> None:
    try:
        assert apply_theme(qapp, "dark") == "dark"
        assert qapp.palette().color(QPalette.ColorRole.Window).lightness() < 80
        assert apply_theme(qapp, "light") == "light"
        assert qapp.palette().color(QPalette.ColorRole.Window).lightness() > 200
        assert apply_theme(qapp, "system") in ("light", "dark")
    finally:
        apply_theme(qapp, "light")
