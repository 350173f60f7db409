"""Asking where to save an export, in Markdown or JSON, and saving it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QMessageBox

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtWidgets import QWidget


def save_export(
    parent: QWidget,
    item: Any,
    to_markdown: Callable[[Any], str],
    to_json: Callable[[Any], str],
    stem: str,
) -> Path | None:
    """Ask for a file and write ``item`` to it; the chosen name or filter picks the format.

    A failed write is shown in a message box; cancelling the dialog writes nothing.
    Strings keep the ``MainWindow`` translation context they were written in.

    Args:
        parent: The window the dialogs belong to.
        item: What to export (a history record, or panes and differences).
        to_markdown: Renders ``item`` as Markdown.
        to_json: Renders ``item`` as JSON.
        stem: Suggested file name part (``regdesk-<stem>.md``).

    Returns:
        The file written, or None (cancelled or failed).
    """
    path, chosen = QFileDialog.getSaveFileName(
        parent,
        QCoreApplication.translate("MainWindow", "Export"),
        str(Path.home() / f"regdesk-{stem}.md"),
        QCoreApplication.translate("MainWindow", "Markdown (*.md);;JSON (*.json)"),
    )
    if not path:
        return None
    as_json = path.endswith(".json") or "json" in chosen.lower()
    try:
        Path(path).write_text(to_json(item) if as_json else to_markdown(item), "utf-8")
    except OSError as exc:
        QMessageBox.warning(
            parent, QCoreApplication.translate("MainWindow", "Export failed"), str(exc)
        )
        return None
    return Path(path)
