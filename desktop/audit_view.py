"""The local audit log (JSON lines, hash-chained) as a table, with its chain status."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop.theme import error_color, problem_row_color, success_color

_PREFERRED = (
    "ts",
    "persona",
    "user",
    "caller",
    "event",
    "kind",
    "action",
    "tool",
    "decision",
    "status",
    "approved",
    "reason",
    "idempotency_key",
)
"""Columns shown first, when the records have them; the rest follow, hashes last."""

_LAST = ("prev", "hash")

ModelIndex = QModelIndex | QPersistentModelIndex


def read_audit_records(path: Path) -> tuple[list[dict[str, Any]], int]:
    """Read every JSON object of an audit log, skipping lines that are not JSON.

    Args:
        path: The JSON-lines file.

    Returns:
        ``(records, unreadable_line_count)``; no file means no records.
    """
    records: list[dict[str, Any]] = []
    unreadable = 0
    if not path.exists():
        return records, unreadable
    with path.open(encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except ValueError:
                unreadable += 1
                continue
            if isinstance(value, dict):
                records.append(value)
            else:
                unreadable += 1
    return records, unreadable


def audit_columns(records: list[dict[str, Any]]) -> list[str]:
    """Choose the column order: well-known fields first, hashes last.

    Args:
        records: Audit records.

    Returns:
        Every key that occurs, each once.
    """
    seen: list[str] = []
    for record in records:
        seen.extend(k for k in record if k not in seen)
    first = [k for k in _PREFERRED if k in seen]
    last = [k for k in _LAST if k in seen]
    middle = [k for k in seen if k not in first and k not in last]
    return first + middle + last


def _header_labels() -> dict[str, str]:
    return {
        "ts": QCoreApplication.translate("AuditLogDialog", "Time (UTC)"),
        "persona": QCoreApplication.translate("AuditLogDialog", "Persona"),
        "user": QCoreApplication.translate("AuditLogDialog", "User"),
        "event": QCoreApplication.translate("AuditLogDialog", "Event"),
        "kind": QCoreApplication.translate("AuditLogDialog", "Kind"),
        "action": QCoreApplication.translate("AuditLogDialog", "Action"),
        "tool": QCoreApplication.translate("AuditLogDialog", "Tool"),
        "decision": QCoreApplication.translate("AuditLogDialog", "Decision"),
        "status": QCoreApplication.translate("AuditLogDialog", "Status"),
        "approved": QCoreApplication.translate("AuditLogDialog", "Approved"),
        "reason": QCoreApplication.translate("AuditLogDialog", "Reason"),
        "arguments": QCoreApplication.translate("AuditLogDialog", "Arguments"),
        "idempotency_key": QCoreApplication.translate("AuditLogDialog", "Idempotency key"),
        "prev": QCoreApplication.translate("AuditLogDialog", "Previous hash"),
        "hash": QCoreApplication.translate("AuditLogDialog", "Hash"),
    }


def _display(value: Any, column: str) -> str:
    if value is None:
        return ""
    if column == "ts" and isinstance(value, str) and "T" in value:
        return value.replace("T", " ")[:19]
    if column in _LAST and isinstance(value, str):
        return value[:12] + "…" if len(value) > 12 else value
    if isinstance(value, bool):  # "True"/"False" read as Python, not as an answer
        return (
            QCoreApplication.translate("AuditLogDialog", "yes")
            if value
            else QCoreApplication.translate("AuditLogDialog", "no")
        )
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


class AuditTableModel(QAbstractTableModel):
    """Audit records as rows; the full value is the tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._records: list[dict[str, Any]] = []
        self._columns: list[str] = []
        self._untrusted_from: int | None = None

    def set_records(self, records: list[dict[str, Any]]) -> None:
        """Replace all rows.

        Args:
            records: Audit records, oldest first.
        """
        self.beginResetModel()
        self._records = records
        self._columns = audit_columns(records)
        self.endResetModel()

    def set_untrusted_from(self, line: int | None) -> None:
        """Mark rows from a 1-based line number on as untrusted (chain broken there).

        Args:
            line: First untrusted line, or None when the chain is intact.
        """
        self._untrusted_from = line
        if self._records:
            self.dataChanged.emit(
                self.index(0, 0), self.index(len(self._records) - 1, len(self._columns) - 1)
            )

    def is_untrusted(self, row: int) -> bool:
        """True when a row lies at or after the line where the chain broke."""
        return self._untrusted_from is not None and row + 1 >= self._untrusted_from

    @property
    def columns(self) -> list[str]:
        """Column keys in display order."""
        return list(self._columns)

    def record(self, row: int) -> dict[str, Any]:
        """Return the record shown in a row."""
        return self._records[row]

    def rowCount(self, parent: ModelIndex | None = None) -> int:
        """Rows: one per record."""
        return 0 if parent is not None and parent.isValid() else len(self._records)

    def columnCount(self, parent: ModelIndex | None = None) -> int:
        """Columns: one per key."""
        return 0 if parent is not None and parent.isValid() else len(self._columns)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Cell text; tooltip is the full value."""
        if not index.isValid():
            return None
        column = self._columns[index.column()]
        value = self._records[index.row()].get(column)
        if role == Qt.ItemDataRole.DisplayRole:
            return _display(value, column)
        if role == Qt.ItemDataRole.BackgroundRole and self.is_untrusted(index.row()):
            return QColor(problem_row_color())
        if role == Qt.ItemDataRole.ToolTipRole and value is not None:
            return (
                json.dumps(value, ensure_ascii=False, indent=1)
                if not isinstance(value, str)
                else value
            )
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        """Column keys across the top, line numbers down the side."""
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            if section >= len(self._columns):
                return None
            key = self._columns[section]
            return _header_labels().get(key, key)
        return str(section + 1)


class AuditLogDialog(QDialog):
    """Shows the local audit log, whether its hash chain is intact, and exports it.

    Args:
        path: The audit log file (JSON lines written by ``agent_core.audit``).
        parent: Parent widget.
    """

    def __init__(self, path: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._path = Path(path)
        self.chain_intact: bool | None = None
        self.setWindowTitle(self.tr("Audit log"))
        self.resize(900, 520)

        self.path_label = QLabel(str(self._path))
        self.path_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.chain_label = QLabel()
        self.chain_label.setObjectName("chainStatus")
        self.chain_label.setWordWrap(True)

        self.model = AuditTableModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText(self.tr("Filter by any text (persona, tool, …)"))
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self.proxy.setFilterFixedString)
        filter_label = QLabel(self.tr("&Filter:"))
        filter_label.setBuddy(self.filter_edit)

        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)

        self.refresh_button = QPushButton(self.tr("&Refresh"))
        self.refresh_button.clicked.connect(self.reload)
        self.export_button = QPushButton(self.tr("&Export…"))
        self.export_button.clicked.connect(self._choose_export)
        close_button = QPushButton(self.tr("&Close"))
        close_button.clicked.connect(self.accept)
        close_button.setDefault(True)

        filter_row = QHBoxLayout()
        filter_row.addWidget(filter_label)
        filter_row.addWidget(self.filter_edit, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.refresh_button)
        buttons.addWidget(self.export_button)
        buttons.addStretch(1)
        buttons.addWidget(close_button)

        layout = QVBoxLayout(self)
        layout.addWidget(self.path_label)
        layout.addWidget(self.chain_label)
        layout.addLayout(filter_row)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        self.reload()

    def reload(self) -> None:
        """Read the file again and re-check the chain."""
        records, unreadable = read_audit_records(self._path)
        self.model.set_records(records)
        self.table.resizeColumnsToContents()
        self.export_button.setEnabled(self._path.exists())
        self._show_chain_status(len(records), unreadable)

    def _show_chain_status(self, count: int, unreadable: int) -> None:
        if not self._path.exists():
            self.chain_intact = None
            self._set_status(self.tr("No audit records yet."), "")
            return
        try:
            from agent_core.audit import verify_audit_log
        except ImportError:
            self.chain_intact = None
            self._set_status(self.tr("The chain could not be checked in this build."), "")
            return
        ok, bad_line = verify_audit_log(self._path)
        self.chain_intact = ok
        self.model.set_untrusted_from(None if ok else bad_line)
        if ok:
            text = self.tr("✔ Hash chain intact: {count} records, none changed or removed.")
            self._set_status(text.format(count=count), success_color())
        else:
            text = self.tr(
                "✘ Hash chain broken at line {line}: the log was edited, reordered or "
                "cut after it was written. Records from that line on cannot be trusted."
            )
            self._set_status(text.format(line=bad_line), error_color())
        if unreadable:
            note = self.tr("{count} lines are not valid records.").format(count=unreadable)
            self.chain_label.setText(f"{self.chain_label.text()} {note}")

    def _set_status(self, text: str, color: str) -> None:
        self.chain_label.setText(text)
        self.chain_label.setStyleSheet(f"color: {color}; font-weight: bold;" if color else "")

    def _choose_export(self) -> None:
        target, _filter = QFileDialog.getSaveFileName(
            self,
            self.tr("Export audit log"),
            str(Path.home() / "regdesk-audit.jsonl"),
            self.tr("JSON lines, verifiable (*.jsonl);;CSV for spreadsheets (*.csv)"),
        )
        if target:
            self.export_to(Path(target))

    def export_to(self, target: Path) -> None:
        """Write the log to ``target``: CSV when it ends in ``.csv``, else an exact copy.

        The copy keeps every byte, so the exported file verifies like the original.

        Args:
            target: File to write.
        """
        if target.suffix.lower() == ".csv":
            records, _ = read_audit_records(self._path)
            columns = audit_columns(records)
            with target.open("w", encoding="utf-8-sig", newline="") as fh:
                writer = csv.writer(fh)
                writer.writerow(columns)
                for record in records:
                    writer.writerow(
                        [
                            json.dumps(v, ensure_ascii=False) if isinstance(v, dict | list) else v
                            for v in (record.get(c) for c in columns)
                        ]
                    )
        else:
            shutil.copyfile(self._path, target)
