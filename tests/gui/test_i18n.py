"""Korean UI: every visible string translated (strip values, export headers, Qt's own
dialogs), and Hangul drawn in one regular-weight font."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication


@pytest.fixture
def korean(qapp: Any) -> Any:
    from desktop.i18n import install_translator

    assert install_translator(qapp, "ko")
    yield qapp
    install_translator(qapp, "en")


def test_qt_own_dialog_strings_are_korean(korean: Any) -> None:
    assert QCoreApplication.translate("QFileDialog", "Save As") == "다른 이름으로 저장"
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "취소"


def test_strip_values_and_new_widgets_are_korean(qtbot: Any, korean: Any) -> None:
    from desktop.comparison_strip import ComparisonStrip
    from desktop.conversation_sidebar import ConversationSidebar

    strip = ComparisonStrip()
    qtbot.addWidget(strip)
    panes = [
        {
            "persona": "hong",
            "status": "answered",
            "answer": "",
            "tools": [{"tool": "query_hr", "status": "denied", "row_count": 0}],
        },
        {
            "persona": "cho",
            "status": "answered",
            "answer": "",
            "tools": [{"tool": "query_hr", "status": "ok", "row_count": 3}],
        },
    ]
    statuses = {"hong": "denied", "cho": "ok"}
    strip.show_differences(
        panes, [{"kind": "call_status", "tool": "query_hr", "statuses": statuses}]
    )
    text = strip.text()
    assert "거부됨" in text and "성공" in text
    assert "denied" not in text and " ok" not in text
    sidebar = ConversationSidebar()
    qtbot.addWidget(sidebar)
    assert sidebar.new_button.text() == "새 대화"
    assert sidebar.search.placeholderText() == "대화 검색…"


def test_export_headers_and_statuses_are_korean(korean: Any) -> None:
    from desktop.export import comparison_to_markdown, turn_to_markdown
    from desktop.history_store import SavedTurn

    record = SavedTurn(1, "hong", "질문", "", [], 0.0, 5.0, "cancelled")
    text = turn_to_markdown(record)
    assert "**상태:** 중지됨" in text and "cancelled" not in text
    difference = {"kind": "doc_no", "value": "HR-GDL-003", "present": ["cho"], "absent": ["hong"]}
    compared = comparison_to_markdown(
        [{"persona": "hong", "answer": "a"}, {"persona": "cho", "answer": "b"}], [difference]
    )
    assert "| 종류 | 값 | 있는 쪽 | 없는 쪽 |" in compared
    assert "| 문서번호 | HR-GDL-003 | cho | hong |" in compared


def test_hangul_and_the_digits_beside_it_use_one_unhinted_font(qapp: Any) -> None:
    from PySide6.QtGui import QFont, QTextLayout

    from desktop.fonts import KOREAN_FAMILIES, apply_ui_font

    before = QFont(qapp.font())
    try:
        font = apply_ui_font(qapp, "ko")
        from PySide6.QtGui import QFontDatabase

        if not set(KOREAN_FAMILIES) & set(QFontDatabase.families()):
            pytest.skip("no Korean font installed")
        assert font.hintingPreference() == QFont.HintingPreference.PreferNoHinting
        layout = QTextLayout("남은 일수는 8일입니다 (시행 2025-03-15) HR-REG-003", font)
        layout.beginLayout()
        layout.createLine()
        layout.endLayout()
        families = {run.rawFont().familyName() for run in layout.glyphRuns()}
        assert len(families) == 1, families  # no switching font inside a Korean line
        assert all(run.rawFont().weight() < QFont.Weight.DemiBold for run in layout.glyphRuns())
    finally:
        qapp.setFont(before)
