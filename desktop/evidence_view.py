"""The cited document and version, opened from a citation chip.

Shows the cited version's article text (from the turn's own
``search_regulations`` hits, else one more ``search_regulations`` call), its
effective dates and any stated/approved date mismatch, and the document's
version table. Everything is fetched as the persona whose answer cited it,
through the session's own tools, so the platform's policies decide what is
shown — there is no second client here. The fetch runs off the GUI thread.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from desktop.tasks import run_in_background

if TYPE_CHECKING:
    from desktop.tasks import Job


def cited_hits(
    hits: list[dict[str, Any]], doc_no: str, version: int | None
) -> list[dict[str, Any]]:
    """The search hits of one document version, each article once, in article order.

    Args:
        hits: ``search_regulations`` hits this persona's tools returned.
        doc_no: Document number.
        version: The version wanted (None: any).

    Returns:
        The matching hits, deduplicated by article.
    """
    seen: dict[str, dict[str, Any]] = {}
    for hit in hits:
        if hit.get("doc_no") != doc_no:
            continue
        if version is not None and hit.get("version") != version:
            continue
        seen.setdefault(str(hit.get("article_no") or hit.get("article_title") or len(seen)), hit)
    return sorted(seen.values(), key=lambda h: _article_order(str(h.get("article_no") or "")))


def _article_order(article_no: str) -> tuple[int, str]:
    digits = "".join(ch for ch in article_no if ch.isdigit())
    return (int(digits) if digits else 10**6, article_no)


def fetch_evidence(
    session: Any, doc_no: str, version: int | None, hits: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Ask the persona's tools about a document and the cited version's articles.

    Article text comes from ``hits`` (the turn's own ``search_regulations``
    results) when they hold the cited version; otherwise from a
    ``search_regulations`` call for the document's title as of the version's
    effective date, kept to that document and version. Nothing is shown that
    the persona's tools did not return.

    Args:
        session: A ``PersonaSession`` (its ``tools`` map names to tools with ``run``).
        doc_no: Document number.
        version: Cited version, if any.
        hits: Search hits the persona already received, if any.

    Returns:
        ``{"describe": payload, "version": payload or None, "wanted": int or None,
        "articles": [hits], "articles_source": "turn"|"search"|None}``.
    """
    tools = session.tools
    describe = tools["describe_regulation"].run({"doc_no": doc_no}).payload
    effective = None
    wanted = version
    if version is None:
        effective = tools["get_effective_version"].run({"doc_no": doc_no}).payload
        wanted = ((effective or {}).get("version") or {}).get("version")
    result: dict[str, Any] = {
        "describe": describe,
        "version": effective,
        "wanted": wanted,
        "articles": [],
        "articles_source": None,
    }
    regulation = (describe or {}).get("regulation") if isinstance(describe, dict) else None
    if not regulation:
        return result
    articles = cited_hits(list(hits or []), doc_no, wanted)
    if articles:
        result.update(articles=articles, articles_source="turn")
        return result
    row = next(
        (v for v in describe.get("versions", []) if wanted is None or v.get("version") == wanted),
        None,
    )
    args: dict[str, Any] = {"question": str(regulation.get("title") or doc_no)}
    if row and row.get("effective_from"):
        args["as_of"] = row["effective_from"]
    searched = tools["search_regulations"].run(args).payload or {}
    found = cited_hits(list(searched.get("hits") or []), doc_no, wanted)
    if found:
        result.update(articles=found, articles_source="search")
    return result


def evidence_html(doc_no: str, version: int | None, evidence: dict[str, Any]) -> str:
    """Render fetched evidence as HTML (every value escaped)."""
    describe = evidence.get("describe") or {}
    if describe.get("error"):
        return f"<p><b>{html.escape(doc_no)}</b>: {html.escape(str(describe['error']))}</p>"
    regulation = describe.get("regulation")
    if not regulation:
        missing = html.escape(
            QCoreApplication.translate("EvidenceDialog", "not available to you or not present.")
        )
        return f"<p><b>{html.escape(doc_no)}</b>: {missing}</p>"
    e = html.escape
    effective = ((evidence.get("version") or {}).get("version") or {}).get("version")
    wanted = evidence.get("wanted", version if version is not None else effective)
    versions = list(describe.get("versions", []))
    cited = next((v for v in versions if v.get("version") == wanted), None)
    warn = "#ef6c00"
    parts = [
        f"<h2 style='margin-bottom:2px'>{e(doc_no)} {e(str(regulation.get('title', '')))}</h2>",
        f"<p style='margin-top:0'>{e(str(regulation.get('doc_class', '')))}"
        f" · {e(str(regulation.get('owner_dept', '')))}"
        f" · {e(str(regulation.get('sensitivity', '')))}</p>",
    ]
    if wanted is not None:
        heading = QCoreApplication.translate("EvidenceDialog", "Cited version: {0}").format(
            f"제{wanted}차"
        )
        parts.append(f"<h3>{e(heading)}</h3>")
    if cited:
        span = QCoreApplication.translate("EvidenceDialog", "Effective {0} → {1}")
        until = cited.get("effective_to") or QCoreApplication.translate(
            "EvidenceDialog", "in force"
        )
        parts.append("<p>" + e(span.format(cited.get("effective_from") or "?", until)))
        if cited.get("summary"):
            parts.append(f"<br>{e(str(cited['summary']))}")
        parts.append("</p>")
        if cited.get("date_mismatch"):
            note = QCoreApplication.translate(
                "EvidenceDialog",
                "The document states it takes effect on {0}, but the approved effective date"
                " is {1}. The approved date applies.",
            ).format(cited.get("stated_from") or "?", cited.get("effective_from") or "?")
            parts.append(f"<p style='color:{warn}'>⚠ {e(note)}</p>")
    elif wanted is not None:
        parts.append(
            "<p>"
            + e(
                QCoreApplication.translate(
                    "EvidenceDialog", "This version is not in the version history you can see."
                )
            )
            + "</p>"
        )
    articles = evidence.get("articles") or []
    if articles:
        source = (
            QCoreApplication.translate(
                "EvidenceDialog", "Article text as this persona's search returned it in the turn."
            )
            if evidence.get("articles_source") == "turn"
            else QCoreApplication.translate(
                "EvidenceDialog", "Article text as this persona's search returns it now."
            )
        )
        parts.append(f"<p><i>{e(source)}</i></p>")
        for hit in articles:
            title = f"{hit.get('article_no') or ''} {hit.get('article_title') or ''}".strip()
            body = e(str(hit.get("text") or "")).replace("\n", "<br>")
            parts.append(
                f"<h4 style='margin-bottom:2px'>{e(title)}</h4><p style='margin-top:0'>{body}</p>"
            )
    else:
        parts.append(
            "<p><i>"
            + e(
                QCoreApplication.translate(
                    "EvidenceDialog", "No article text of this version was returned to you."
                )
            )
            + "</i></p>"
        )
    parts += [
        "<h3>" + e(QCoreApplication.translate("EvidenceDialog", "Versions")) + "</h3>",
        "<table cellpadding='3'><tr>"
        + "".join(
            f"<th align='left'>{e(h)}</th>"
            for h in (
                QCoreApplication.translate("EvidenceDialog", "version"),
                QCoreApplication.translate("EvidenceDialog", "effective"),
                QCoreApplication.translate("EvidenceDialog", "until"),
                QCoreApplication.translate("EvidenceDialog", "stated"),
                QCoreApplication.translate("EvidenceDialog", "summary"),
            )
        )
        + "</tr>",
    ]
    for row in versions:
        mark = " style='background:#fff3c4; color:#1d2125'" if row.get("version") == wanted else ""
        mismatch = f" <span style='color:{warn}'>⚠</span>" if row.get("date_mismatch") else ""
        parts.append(
            f"<tr{mark}><td>제{e(str(row.get('version')))}차</td>"
            f"<td>{e(str(row.get('effective_from') or ''))}</td>"
            f"<td>{e(str(row.get('effective_to') or ''))}</td>"
            f"<td>{e(str(row.get('stated_from') or ''))}{mismatch}</td>"
            f"<td>{e(str(row.get('summary') or ''))}</td></tr>"
        )
    parts.append("</table>")
    return "".join(parts)


class EvidenceDialog(QDialog):
    """Shows a cited regulation and its versions, the cited one highlighted."""

    loaded = Signal()
    """The evidence arrived (or failed) and is shown."""

    def __init__(
        self,
        session: Any,
        doc_no: str,
        version: int | None,
        parent: QWidget | None = None,
        *,
        hits: list[dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(parent)
        cited = doc_no if version is None else f"{doc_no} 제{version}차"
        self.setWindowTitle(self.tr("Evidence: {0}").format(cited))
        self.resize(720, 640)
        self.doc_no, self.version, self.hits = doc_no, version, list(hits or [])
        self.evidence: dict[str, Any] = {}
        self.browser = QTextBrowser(self)
        self.browser.setPlainText(self.tr("Loading {0}…").format(doc_no))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        doc, cited_version, hits_seen = self.doc_no, self.version, self.hits

        def fetch(_: Job) -> dict[str, Any]:
            return fetch_evidence(session, doc, cited_version, hits_seen)

        self._fetch = run_in_background(
            fetch, name="regdesk-evidence", owner=self, on_done=self._show, on_failed=self._failed
        )

    def _failed(self, exc: BaseException) -> None:
        self._show({"describe": {"error": f"{type(exc).__name__}: {exc}"}})

    def _show(self, evidence: dict[str, Any]) -> None:
        self.evidence = evidence
        self.browser.setHtml(evidence_html(self.doc_no, self.version, evidence))
        self.loaded.emit()

    def wait_fetched(self, timeout_s: float = 10.0) -> None:
        """Wait for the fetch to end (closing, tests)."""
        self._fetch.wait(timeout_s)
