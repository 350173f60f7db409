"""The cited document and version, opened from a citation chip.

Fetched as the persona whose answer cited it, through the session's own tools
(``describe_regulation`` and ``get_effective_version``), so the platform's
policies decide what is shown — there is no second client here. The fetch runs
off the GUI thread.
"""

from __future__ import annotations

import html
import threading
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget


def fetch_evidence(session: Any, doc_no: str, version: int | None) -> dict[str, Any]:
    """Ask the persona's tools about a document.

    Args:
        session: A ``PersonaSession`` (its ``tools`` map names to tools with ``run``).
        doc_no: Document number.
        version: Cited version, if any.

    Returns:
        ``{"describe": payload, "version": payload or None}`` as the tools returned them.
    """
    tools = session.tools
    describe = tools["describe_regulation"].run({"doc_no": doc_no}).payload
    effective = None
    if version is None:
        effective = tools["get_effective_version"].run({"doc_no": doc_no}).payload
    return {"describe": describe, "version": effective}


def _tr(text: str) -> str:
    return QCoreApplication.translate("EvidenceDialog", text)


def evidence_html(doc_no: str, version: int | None, evidence: dict[str, Any]) -> str:
    """Render fetched evidence as HTML (every value escaped)."""
    describe = evidence.get("describe") or {}
    if describe.get("error"):
        return f"<p><b>{html.escape(doc_no)}</b>: {html.escape(str(describe['error']))}</p>"
    regulation = describe.get("regulation")
    if not regulation:
        missing = html.escape(_tr("not available to you or not present."))
        return f"<p><b>{html.escape(doc_no)}</b>: {missing}</p>"
    e = html.escape
    parts = [
        f"<h3>{e(doc_no)} {e(str(regulation.get('title', '')))}</h3>",
        f"<p>{e(str(regulation.get('doc_class', '')))} · {e(str(regulation.get('owner_dept', '')))}"
        f" · {e(str(regulation.get('sensitivity', '')))}</p>",
        "<table cellpadding='3'><tr>"
        + "".join(
            f"<th>{e(_tr(h))}</th>" for h in ("version", "effective", "until", "stated", "summary")
        )
        + "</tr>",
    ]
    effective = ((evidence.get("version") or {}).get("version") or {}).get("version")
    wanted = version if version is not None else effective
    for row in describe.get("versions", []):
        mark = " style='background:#fff3c4'" if row.get("version") == wanted else ""
        mismatch = " ⚠" if row.get("date_mismatch") else ""
        parts.append(
            f"<tr{mark}><td>제{e(str(row.get('version')))}차</td>"
            f"<td>{e(str(row.get('effective_from') or ''))}</td>"
            f"<td>{e(str(row.get('effective_to') or ''))}</td>"
            f"<td>{e(str(row.get('stated_from') or ''))}{mismatch}</td>"
            f"<td>{e(str(row.get('summary') or ''))}</td></tr>"
        )
    parts.append("</table>")
    return "".join(parts)


class _Relay(QObject):
    done = Signal(object)


class EvidenceDialog(QDialog):
    """Shows a cited regulation and its versions, the cited one highlighted."""

    loaded = Signal()
    """The evidence arrived (or failed) and is shown."""

    def __init__(
        self, session: Any, doc_no: str, version: int | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Evidence: {0}").format(doc_no))
        self.resize(640, 420)
        self.doc_no, self.version = doc_no, version
        self.browser = QTextBrowser(self)
        self.browser.setPlainText(self.tr("Loading {0}…").format(doc_no))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        self._relay = _Relay(self)
        self._relay.done.connect(self._show, Qt.ConnectionType.QueuedConnection)
        self._thread = threading.Thread(
            target=self._fetch, args=(session,), name="regdesk-evidence", daemon=True
        )
        self._thread.start()

    def _fetch(self, session: Any) -> None:
        try:
            result: Any = fetch_evidence(session, self.doc_no, self.version)
        except Exception as exc:  # shown in the dialog
            result = {"describe": {"error": f"{type(exc).__name__}: {exc}"}}
        self._relay.done.emit(result)

    def _show(self, evidence: dict[str, Any]) -> None:
        self.browser.setHtml(evidence_html(self.doc_no, self.version, evidence))
        self.loaded.emit()

    def wait_fetched(self, timeout_s: float = 10.0) -> None:
        """Join the fetch thread (closing, tests)."""
        self._thread.join(timeout_s)
