"""The strip under the split panes that says what differs between them."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from agent_core.compare import TOKEN_KINDS, row_count_table
from desktop.theme import error_color


class ComparisonStrip(QWidget):
    """Differences of the last "Ask all", rendered as short badges and a table."""

    export_requested = Signal()
    """The person wants the comparison exported."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel(self.tr("Comparison"), self)
        self.title.setStyleSheet("font-weight: 600;")
        self.body = QLabel(self)
        self.body.setTextFormat(Qt.TextFormat.RichText)
        self.body.setWordWrap(True)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.body.setAccessibleName(self.tr("Differences between personas"))
        self.export_button = QPushButton(self.tr("Export comparison…"), self)
        self.export_button.setEnabled(False)
        self.export_button.clicked.connect(self.export_requested)
        top = QHBoxLayout()
        top.addWidget(self.title)
        top.addStretch(1)
        top.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        self._layout = layout
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addLayout(top)
        # scrolls rather than growing: with three panes the differences ran to a dozen
        # lines and forced the window taller than a small screen
        scroll = QScrollArea(self)
        scroll.setWidget(self.body)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setMinimumHeight(60)
        self.scroll_area = scroll
        layout.addWidget(scroll, 1)
        self.panes: list[dict[str, Any]] = []
        self.differences: list[dict[str, Any]] = []
        self.show_waiting()

    def preferred_height(self) -> int:
        """Height that shows every difference without scrolling."""
        width = max(200, self.scroll_area.viewport().width())
        margins = self._layout.contentsMargins()
        return (
            self.title.sizeHint().height()
            + self.body.heightForWidth(width)
            + margins.top()
            + margins.bottom()
            + 2 * self._layout.spacing()
            + 12  # the scroll area frame and the table's cell spacing
        )

    def show_waiting(self, running: bool = False) -> None:
        """Nothing to compare yet (or the panes are still answering)."""
        self.panes, self.differences = [], []
        self.export_button.setEnabled(False)
        self.body.setText(
            self.tr("Comparing when every pane has answered…")
            if running
            else self.tr("Ask all panes the same question to compare the answers.")
        )

    def show_differences(
        self,
        panes: list[dict[str, Any]],
        differences: list[dict[str, Any]],
        left_out: list[dict[str, Any]] | None = None,
    ) -> None:
        """Render the differences of finished panes.

        Args:
            panes: The answered panes' turns as ``split_view.result_dict`` gives them.
            differences: ``agent_core.compare.compare_turns`` of those turns' records.
            left_out: Panes that did not answer (stopped, failed): named, not compared.
        """
        left_out = list(left_out or [])
        self.panes, self.differences = panes, differences
        self.export_button.setEnabled(bool(panes))
        personas = [str(p["persona"]) for p in panes]
        muted = self.palette().color(QPalette.ColorRole.PlaceholderText).name()
        lines: list[str] = []
        if left_out:
            words = {"cancelled": self.tr("stopped"), "failed": self.tr("failed")}
            names = ", ".join(
                f"{html.escape(str(p['persona']))}"
                f" ({html.escape(words.get(str(p['status']), str(p['status'])))})"
                for p in left_out
            )
            lines.append(
                f"<span style='color:{error_color()}'>"
                + self.tr("Not compared, no answer: {0}").format(names)
                + "</span>"
            )
        if len(panes) < 2:
            lines.append(self.tr("Fewer than two panes answered: nothing to compare."))
            self.body.setText("<br>".join(lines))
            return
        labels = self.kind_labels()
        tokens = [d for d in differences if d["kind"] in TOKEN_KINDS]
        if tokens:
            by_side: dict[str, dict[str, list[str]]] = {}
            for d in tokens:
                group = by_side.setdefault(", ".join(d["present"]), {})
                group.setdefault(d["kind"], []).append(html.escape(str(d["value"])))
            for side, kinds in by_side.items():
                groups = " &nbsp;·&nbsp; ".join(
                    f"<span style='color:{muted}'>{html.escape(labels[kind])}</span> "
                    + ", ".join(f"<b>{v}</b>" for v in values)
                    for kind, values in kinds.items()
                )
                lines.append(
                    self.tr("Only in <b>{0}</b>:").format(html.escape(side)) + " " + groups
                )
        else:
            lines.append(self.tr("The answers mention the same figures and documents."))
        for d in differences:
            if d["kind"] == "call_status":
                sides = " · ".join(
                    f"{html.escape(p)}: {self._status_html(s)}" for p, s in d["statuses"].items()
                )
                lines.append(self.tr("<b>{0}</b> calls: {1}").format(html.escape(d["tool"]), sides))
        table = row_count_table(panes)
        if table:
            head = "".join(f"<th>&nbsp;{html.escape(p)}&nbsp;</th>" for p in personas)
            rows = []
            for entry in table:
                counts = entry["counts"]
                cells = "".join(
                    f"<td align='right'>{'—' if counts[p] is None else counts[p]}</td>"
                    for p in personas
                )
                mark = f" style='color:{error_color()}'" if entry["differs"] else ""
                rows.append(f"<tr{mark}><td>{html.escape(entry['tool'])}</td>{cells}</tr>")
            # outside the f-string: lupdate does not see a tr() call inside one
            caption = html.escape(self.tr("Rows per tool"))
            lines.append(
                f"<table cellspacing='0' cellpadding='3'><tr><th align='left'>"
                f"{caption}</th>{head}</tr>{''.join(rows)}</table>"
            )
        self.body.setText("<br>".join(lines))

    def kind_labels(self) -> dict[str, str]:
        """Translated names of the token kinds."""
        return {
            "doc_no": self.tr("documents"),
            "version": self.tr("versions"),
            "article": self.tr("articles"),
            "date": self.tr("dates"),
            "days": self.tr("days"),
            "amount": self.tr("amounts"),
            "count": self.tr("counts"),
            "period": self.tr("periods"),
            "percent": self.tr("percentages"),
            "number": self.tr("other figures"),
        }

    def status_words(self) -> dict[str, str]:
        """Translated call statuses (the strip shows words, not codes)."""
        return {
            "ok": self.tr("ok"),
            "empty": self.tr("empty"),
            "error": self.tr("error"),
            "denied": self.tr("denied"),
        }

    def _status_html(self, status: str | None) -> str:
        words = self.status_words()
        text = html.escape(words.get(status, status) if status else self.tr("not called"))
        if status in ("denied", "error"):
            return f"<span style='color:{error_color()}'><b>{text}</b></span>"
        return text

    def text(self) -> str:
        """The strip's text without markup (tests, accessibility)."""
        from PySide6.QtGui import QTextDocument

        document = QTextDocument()
        document.setHtml(self.body.text())
        return document.toPlainText()
