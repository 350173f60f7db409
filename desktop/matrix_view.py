"""The Matrix view: who can see what, as every signed-in persona, and what changed.

It shows the same ``MatrixRun`` the CLI prints (``agent_core.matrix.run``): the
access grid (personas as columns), the question grid, and the changes against a
loaded baseline. Clicking a cell shows the probing requests and what came back
(or the answer and tool calls). Runs go off the GUI thread (a ``desktop.tasks`` task); a
progress bar follows the question cells and Cancel stops them. Every persona
shown is signed in by the person at this window, so every cell's content stays
within what they may already see (the split view's boundary); exports go only
where they choose.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QFont, QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from agent_core.matrix.baseline import load_run, save_run
from agent_core.matrix.catalog import load_catalog
from agent_core.matrix.questions import adhoc_questions, load_questions
from agent_core.matrix.report import SYMBOLS, cell_text, to_html, to_json, to_markdown
from agent_core.matrix.run import run_matrix
from desktop.tasks import run_in_background

if TYPE_CHECKING:
    from collections.abc import Callable

    from agent_core.matrix.cells import Cell, MatrixRun, QuestionCell
    from agent_core.matrix.questions import MatrixQuestion
    from desktop.sessions import SessionRegistry
    from desktop.tasks import Job, Task

ModelIndex = QModelIndex | QPersistentModelIndex

_GROUP = {
    "visible": "good", "allowed": "good", "pass": "good", "masked": "partial",
    "denied": "bad", "fail": "bad", "hidden": "hidden", "not_probed": "neutral",
    "not_observed": "unobserved",
    "cancelled": "neutral", "answered": "info", "error": "warn",
}  # fmt: skip
"""Statuses that share a colour."""

_COLOURS = {
    "good": (("#d9f2df", "#14532d"), ("#163b22", "#a7f3bf")),
    "partial": (("#fdf0c4", "#6b4e00"), ("#41360f", "#fde68a")),
    "bad": (("#fbd9d7", "#8a1c14"), ("#4a1d1a", "#fecaca")),
    "hidden": (("#e6e1f5", "#42307d"), ("#2e2650", "#ddd6fe")),
    "neutral": (("#eceef1", "#3d4756"), ("#2a2f37", "#cbd2dc")),
    "unobserved": (("#cdeef3", "#0e4f5c"), ("#0f3a42", "#9be7f2")),
    "info": (("#dde9fb", "#1e3a8a"), ("#1e2e4d", "#bfdbfe")),
    "warn": (("#fde3cf", "#7c2d12"), ("#4a2a14", "#fed7aa")),
}
"""(light, dark) × (background, text) per colour group; the HTML report's hues."""


def status_colors(status: str, palette: QPalette) -> tuple[QColor, QColor]:
    """Background and foreground of a status cell for the current (light or dark) palette.

    Args:
        status: Cell status.
        palette: The widget's palette.

    Returns:
        (background, foreground).
    """
    group = _GROUP.get(status)
    if group is None:
        return palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text)
    dark = palette.color(QPalette.ColorRole.Base).lightness() < 128
    bg, fg = _COLOURS[group][1 if dark else 0]
    return QColor(bg), QColor(fg)


class _GridModel(QAbstractTableModel):
    """Rows × personas; column 0 names the row."""

    def __init__(self, palette: Callable[[], QPalette], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.palette = palette
        """The view's current palette (asked on every paint: the theme can change live)."""
        self.personas: list[str] = []
        self.rows: list[tuple[str, str]] = []
        self.changed: set[tuple[str, ...]] = set()
        self.only_differing = False
        self._all_rows: list[tuple[str, str]] = []

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 1 + len(self.personas)

    def _statuses(self, row: tuple[str, str]) -> list[str]:
        raise NotImplementedError

    def set_only_differing(self, on: bool) -> None:
        """Show only rows where the personas' statuses (or row counts) differ."""
        self.beginResetModel()
        self.only_differing = on
        self.rows = [r for r in self._all_rows if not on or len(set(self._statuses(r))) > 1]
        self.endResetModel()

    def _reset(self, personas: list[str], rows: list[tuple[str, str]]) -> None:
        self.beginResetModel()
        self.personas = personas
        self._all_rows = rows
        self.rows = [r for r in rows if not self.only_differing or len(set(self._statuses(r))) > 1]
        self.endResetModel()


class AccessMatrixModel(_GridModel):
    """The access grid: one row per relation / column / document / action."""

    def __init__(self, palette: Callable[[], QPalette], parent: QObject | None = None) -> None:
        super().__init__(palette, parent)
        self._cells: dict[tuple[str, str, str], Cell] = {}

    def set_run(self, run: MatrixRun) -> None:
        """Show a run's access cells."""
        self._cells = {c.key: c for c in run.cells}
        self.changed = {(d.persona, d.kind, d.name) for d in run.diff or () if d.area == "access"}
        self._reset(list(run.personas), run.entries())

    def _statuses(self, row: tuple[str, str]) -> list[str]:
        # row counts too: a relation every persona sees, but differently filtered, differs
        return [f"{c.status}:{c.rows}" for p in self.personas if (c := self._cells.get((p, *row)))]

    def cell_at(self, index: ModelIndex) -> Cell | None:
        """The cell under an index (None in the name column)."""
        if not index.isValid() or index.column() == 0:
            return None
        kind, name = self.rows[index.row()]
        return self._cells.get((self.personas[index.column() - 1], kind, name))

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.tr("Name") if section == 0 else self.personas[section - 1]
        return None

    def data(self, index: ModelIndex, role: int = 0) -> Any:
        if not index.isValid():
            return None
        kind, name = self.rows[index.row()]
        if index.column() == 0:
            if role == Qt.ItemDataRole.DisplayRole:
                return f"{kind} · {name}"
            return None
        cell = self.cell_at(index)
        if cell is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return cell_text(cell)
        if role == Qt.ItemDataRole.ToolTipRole:
            return cell.detail or cell.status
        if role in (Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.ForegroundRole):
            bg, fg = status_colors(cell.status, self.palette())
            return bg if role == Qt.ItemDataRole.BackgroundRole else fg
        if role == Qt.ItemDataRole.FontRole and cell.key in self.changed:
            font = QFont()
            font.setBold(True)
            return font
        return None


class QuestionMatrixModel(_GridModel):
    """The question grid: one row per case, pass / fail / answered per persona."""

    def __init__(self, palette: Callable[[], QPalette], parent: QObject | None = None) -> None:
        super().__init__(palette, parent)
        self._cells: dict[tuple[str, str], QuestionCell] = {}

    def set_run(self, run: MatrixRun) -> None:
        """Show a run's question cells."""
        self._cells = {q.key: q for q in run.questions}
        self.changed = {(d.persona, d.name) for d in run.diff or () if d.area == "question"}
        self._reset(list(run.personas), run.cases())

    def _statuses(self, row: tuple[str, str]) -> list[str]:
        return [q.status for p in self.personas if (q := self._cells.get((p, row[0])))]

    def cell_at(self, index: ModelIndex) -> QuestionCell | None:
        """The question cell under an index (None in the question column)."""
        if not index.isValid() or index.column() == 0:
            return None
        return self._cells.get((self.personas[index.column() - 1], self.rows[index.row()][0]))

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.tr("Question") if section == 0 else self.personas[section - 1]
        return None

    def data(self, index: ModelIndex, role: int = 0) -> Any:
        if not index.isValid():
            return None
        case, ask = self.rows[index.row()]
        if index.column() == 0:
            if role == Qt.ItemDataRole.DisplayRole:
                return ask
            return case if role == Qt.ItemDataRole.ToolTipRole else None
        q = self.cell_at(index)
        if q is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{SYMBOLS.get(q.status, '')} {q.status}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return "; ".join(q.failures) or q.answer[:300]
        if role in (Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.ForegroundRole):
            bg, fg = status_colors(q.status, self.palette())
            return bg if role == Qt.ItemDataRole.BackgroundRole else fg
        if role == Qt.ItemDataRole.FontRole and q.key in self.changed:
            font = QFont()
            font.setBold(True)
            return font
        return None


class MatrixView(QWidget):
    """The access matrix window for policy authors.

    Args:
        sessions: The signed-in personas (their own tokens; never an administrator).
        parent: Owner window.
    """

    run_finished = Signal(object)
    """A run finished (the ``MatrixRun``)."""

    def __init__(self, sessions: SessionRegistry, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle(self.tr("RegDesk — access matrix"))
        self.sessions = sessions
        self.run: MatrixRun | None = None
        self.baseline: MatrixRun | None = None
        self.baseline_name: str | None = None
        self.question_file: Path | None = None
        self._task: Task[MatrixRun] | None = None
        """The running matrix (a ``desktop.tasks`` task)."""
        self._waiting: dict[str, int] = {}
        """Cells waiting per persona whose session is running a turn of its own."""
        self._running_text = ""
        """The status line of the running matrix (shown again when no cell waits)."""
        self._build_ui()
        sessions.changed.connect(self._refresh_personas)
        self._refresh_personas()
        self.resize(1100, 720)

    # layout ---------------------------------------------------------------------
    def _build_ui(self) -> None:
        self.persona_row = QHBoxLayout()
        self.persona_boxes: dict[str, QCheckBox] = {}
        self.probe_button = QPushButton(self.tr("Probe access"), self)
        self.probe_button.clicked.connect(lambda: self.start(with_questions=False))
        self.questions_button = QPushButton(self.tr("Questions file…"), self)
        self.questions_button.clicked.connect(self._choose_questions)
        self.question_edit = QLineEdit(self)
        self.question_edit.setPlaceholderText(self.tr("…or type a question for every persona"))
        self.ask_button = QPushButton(self.tr("Run questions"), self)
        self.ask_button.clicked.connect(lambda: self.start(with_questions=True))
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        QShortcut(QKeySequence("Esc"), self, self.cancel)
        self.progress = QProgressBar(self)
        self.progress.setFormat(self.tr("%v / %m cells"))
        self.progress.setTextVisible(False)  # until questions run
        self.progress.setValue(0)
        self.baseline_button = QPushButton(self.tr("Load baseline…"), self)
        self.baseline_button.clicked.connect(self._choose_baseline)
        self.save_button = QPushButton(self.tr("Save as baseline…"), self)
        self.save_button.clicked.connect(self._save_baseline)
        self.export_button = QPushButton(self.tr("Export report…"), self)
        self.export_button.clicked.connect(self._export)
        self.only_differing = QCheckBox(self.tr("Only rows where personas differ"), self)
        self.only_differing.toggled.connect(self._filter)
        self.status = QLabel(self.tr("Sign in as the personas to compare, then probe."), self)

        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Personas:"), self))
        top.addLayout(self.persona_row)
        top.addStretch(1)
        top.addWidget(self.probe_button)
        questions = QHBoxLayout()
        questions.addWidget(self.questions_button)
        questions.addWidget(self.question_edit, 1)
        questions.addWidget(self.ask_button)
        questions.addWidget(self.progress)
        questions.addWidget(self.cancel_button)
        files = QHBoxLayout()
        files.addWidget(self.baseline_button)
        files.addWidget(self.save_button)
        files.addWidget(self.export_button)
        files.addStretch(1)
        files.addWidget(self.only_differing)

        self.access_model = AccessMatrixModel(self.palette, self)
        self.question_model = QuestionMatrixModel(self.palette, self)
        self.access_table = self._table(self.access_model)
        self.question_table = self._table(self.question_model)
        self.access_table.setAccessibleName(self.tr("Access matrix"))
        self.question_table.setAccessibleName(self.tr("Question matrix"))
        self.changes = QListWidget(self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.access_table, self.tr("Access"))
        self.tabs.addTab(self.question_table, self.tr("Questions"))
        self.tabs.addTab(self.changes, self.tr("Changes"))
        self.detail = QPlainTextEdit(self)  # plain text: values shown verbatim
        self.detail.setReadOnly(True)
        self.detail.setPlaceholderText(self.tr("Click a cell to see the probe and its result."))
        self.detail.setAccessibleName(self.tr("Cell detail"))
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self.tabs)
        splitter.addWidget(self.detail)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(questions)
        layout.addLayout(files)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.status)

    def _table(self, model: _GridModel) -> QTableView:
        table = QTableView(self)
        table.setModel(model)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.verticalHeader().setVisible(False)
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        table.horizontalHeader().setMinimumSectionSize(90)
        model.modelReset.connect(lambda: self._fit_name_column(table))
        table.clicked.connect(self.show_detail)
        table.activated.connect(self.show_detail)
        return table

    @staticmethod
    def _fit_name_column(table: QTableView) -> None:
        """The name column as wide as its text (up to half the table); personas share the rest."""
        header = table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        table.resizeColumnToContents(0)
        table.setColumnWidth(0, min(table.columnWidth(0), max(200, table.width() // 2)))

    def _refresh_personas(self) -> None:
        names = self.sessions.usernames()
        for name in list(self.persona_boxes):
            if name not in names:
                self.persona_boxes.pop(name).deleteLater()
        for name in names:
            if name not in self.persona_boxes:
                box = QCheckBox(self.sessions.label(name), self)
                box.setChecked(True)
                self.persona_boxes[name] = box
                self.persona_row.addWidget(box)
        self._set_running(self._task is not None)

    def selected_personas(self) -> list[str]:
        """Checked personas, in sign-in order."""
        return [n for n in self.sessions.usernames() if self.persona_boxes[n].isChecked()]

    # running ------------------------------------------------------------------------
    def _questions(self) -> list[MatrixQuestion]:
        session = next(iter(self.sessions), None)
        endpoints = getattr(session, "endpoints", None)
        truth = getattr(endpoints, "ground_truth", None) or {}
        found = load_questions([self.question_file], truth) if self.question_file else []
        return found + adhoc_questions([self.question_edit.text()])

    def start(self, with_questions: bool) -> bool:
        """Run the matrix for the checked personas.

        Args:
            with_questions: Also ask the questions (file and typed one).

        Returns:
            False when it could not start (nobody signed in, already running, bad file).
        """
        personas = self.selected_personas()
        if self._task is not None or not personas:
            return False
        try:
            questions = self._questions() if with_questions else []
            catalog = load_catalog()
        except (OSError, KeyError, ValueError) as exc:
            self.status.setText(self.tr("Could not read the questions: {0}").format(exc))
            return False
        sessions: dict[str, Any] = {p: self.sessions.get(p) for p in personas}
        first = sessions[personas[0]]
        job = {
            "clients": [sessions[p].client for p in personas],
            "catalog": catalog,
            "platform_url": first.client.base_url,
            "questions": questions,
            "login": lambda p: sessions[p],
            "borrowed_sessions": True,
            "model_label": first.endpoints.model_label,
            "truth": first.endpoints.ground_truth,
            "baseline": self.baseline,
            "baseline_name": self.baseline_name,
        }
        self.progress.setRange(0, max(1, len(questions) * len(personas)))
        self.progress.setValue(0)
        self.progress.setTextVisible(bool(questions))

        def probe(work: Job) -> MatrixRun:
            # (done, total) and (persona, waiting) reach the view in order, as reports
            return run_matrix(
                cancel=work.cancel,
                on_progress=lambda done, total, _cell: work.report(("progress", done, total)),
                on_busy=lambda persona, waiting: work.report(("busy", persona, waiting)),
                **job,
            )

        self._set_running(True)
        self._running_text = self.tr("Probing as {0}…").format(", ".join(personas))
        self.status.setText(self._running_text)
        self._task = run_in_background(
            probe,
            name="regdesk-matrix",
            owner=self,
            on_progress=self._on_reports,
            on_done=self._on_finished,
            on_failed=lambda exc: self._on_failed(f"{type(exc).__name__}: {exc}"),
        )
        return True

    def cancel(self) -> None:
        """Stop the running matrix (turns end, queued cells come back cancelled)."""
        if self._task is not None:
            self._task.cancel()
            self.status.setText(self.tr("Cancelling…"))

    def _set_running(self, running: bool) -> None:
        has = bool(self.sessions.usernames())
        self.probe_button.setEnabled(has and not running)
        self.ask_button.setEnabled(has and not running)
        self.cancel_button.setEnabled(running)
        self.save_button.setEnabled(self.run is not None and not running)
        self.export_button.setEnabled(self.run is not None and not running)

    def _join(self) -> None:
        if self._task is not None:
            self._task.wait(30)
        self._task = None
        self._waiting.clear()
        self._show_waiting()

    def _on_reports(self, reports: list[tuple[str, Any, Any]]) -> None:
        for kind, first, second in reports:
            if kind == "progress":
                self._on_progress(first, second)
            else:
                self._on_busy(first, second)

    def _on_progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, total)
        self.progress.setValue(done)

    def _on_busy(self, persona: str, waiting: bool) -> None:
        """Say which personas' sessions are busy with their own turn (the cells wait)."""
        count = self._waiting.get(persona, 0) + (1 if waiting else -1)
        if count > 0:
            self._waiting[persona] = count
        else:
            self._waiting.pop(persona, None)
        self._show_waiting()

    def _show_waiting(self) -> None:
        if not self._waiting:
            self.progress.setFormat(self.tr("%v / %m cells"))
            if self._task is not None:
                self.status.setText(self._running_text)
            return
        self.progress.setFormat(self.tr("%v / %m — busy — waiting"))
        self.progress.setTextVisible(True)
        wide = self.progress.fontMetrics().horizontalAdvance(self.progress.text()) + 24
        self.progress.setMinimumWidth(max(self.progress.minimumWidth(), wide))  # not clipped
        names = ", ".join(self.sessions.label(p) for p in sorted(self._waiting))
        self.status.setText(
            self.tr("{0}: busy — waiting for the question running in the pane to end").format(names)
        )

    def _on_finished(self, run: MatrixRun) -> None:
        self._join()
        self.show_run(run)
        self._set_running(False)
        self.run_finished.emit(run)

    def _on_failed(self, message: str) -> None:
        self._join()
        self._set_running(False)
        self.status.setText(self.tr("The matrix failed: {0}").format(message))

    def shutdown(self) -> None:
        """Cancel a running matrix and wait for its thread (the window is closing)."""
        self.cancel()
        self._join()

    def changeEvent(self, event: QEvent) -> None:
        """A theme switch repaints the cells in the new palette's colours."""
        if event.type() == QEvent.Type.PaletteChange:
            for model in (self.access_model, self.question_model):
                if model.rowCount():
                    last = model.index(model.rowCount() - 1, model.columnCount() - 1)
                    model.dataChanged.emit(model.index(0, 0), last)
        super().changeEvent(event)

    def closeEvent(self, event: Any) -> None:
        """Closing cancels a run and waits for it."""
        self.shutdown()
        super().closeEvent(event)

    # showing ---------------------------------------------------------------------------
    def show_run(self, run: MatrixRun) -> None:
        """Show a run in the grids (the same data ``regdesk matrix`` prints)."""
        self.run = run
        self.access_model.set_run(run)
        self.question_model.set_run(run)
        self.changes.clear()
        for change in run.diff or ():
            self.changes.addItem(change.describe())
        if run.diff is not None and not run.diff:
            self.changes.addItem(self.tr("No changes against {0}").format(self.baseline_name))
        shown = ("denied", "masked", "hidden", "error")
        counts = {s: sum(c.status == s for c in run.cells) for s in shown}
        text = self.tr("{0} cells: {1} denied, {2} masked, {3} hidden").format(
            len(run.cells), counts["denied"], counts["masked"], counts["hidden"]
        )
        if counts["error"]:
            text += self.tr("; {0} platform errors (not policy answers)").format(counts["error"])
        if run.questions:
            failed = sum(q.status in ("fail", "error") for q in run.questions)
            text += self.tr("; {0} question cells, {1} failing").format(len(run.questions), failed)
        if run.diff is not None:
            text += self.tr("; {0} changes against the baseline").format(len(run.diff))
        self.status.setText(text)
        if run.diff:
            self.tabs.setCurrentWidget(self.changes)
        elif run.questions:
            self.tabs.setCurrentWidget(self.question_table)

    def _filter(self, on: bool) -> None:
        self.access_model.set_only_differing(on)
        self.question_model.set_only_differing(on)

    def show_detail(self, index: QModelIndex) -> None:
        """Show what is behind a clicked cell: the probe requests, or the turn."""
        if self.run is None:
            return
        lines: list[str] = []
        if index.model() is self.access_model:
            cell = self.access_model.cell_at(index)
            if cell is None:
                return
            lines.append(f"{cell.persona} · {cell.kind} {cell.name}: {cell_text(cell)}")
            if cell.detail:
                lines.append(cell.detail)
            probe = self.run.probe(cell.persona, cell.kind, cell.name)
            for step in probe.steps if probe else ():
                lines += ["", step.request, f"→ {step.outcome}"]
        else:
            q = self.question_model.cell_at(index)
            if q is None:
                return
            lines += [f"{q.persona} · {q.case}: {q.status} ({q.elapsed_ms:.0f} ms)", q.ask, ""]
            lines.append(q.answer)
            lines += [f"✕ {f}" for f in q.failures] + [f"· {n}" for n in q.notes]
            for call in q.tool_calls:
                args = json.dumps(call.get("arguments"), ensure_ascii=False)
                lines.append(
                    f"{call.get('name')} {args} → {call.get('status')}, "
                    f"{call.get('row_count')} rows"
                )
        self.detail.setPlainText("\n".join(lines))

    # files --------------------------------------------------------------------------------
    def _choose_questions(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Questions (scenario YAML)"), "", self.tr("YAML (*.yaml *.yml)")
        )
        if path:
            self.set_question_file(Path(path))

    def set_question_file(self, path: Path | None) -> None:
        """Use a scenario YAML's questions on the next question run."""
        self.question_file = path
        self.questions_button.setText(path.name if path else self.tr("Questions file…"))

    def _choose_baseline(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Baseline"), "", self.tr("Matrix run (*.json)")
        )
        if path:
            self.set_baseline(Path(path))

    def set_baseline(self, path: Path) -> None:
        """Diff the next run against a saved one."""
        try:
            self.baseline = load_run(path)
        except (OSError, ValueError, KeyError) as exc:
            QMessageBox.warning(self, self.tr("Baseline"), str(exc))
            return
        self.baseline_name = path.name
        self.baseline_button.setText(self.tr("Baseline: {0}").format(path.name))

    def _save_baseline(self) -> None:
        if self.run is None:
            return
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Save as baseline"), "matrix-baseline.json", self.tr("JSON (*.json)")
        )
        if path:
            save_run(self.run, path)
            self.status.setText(self.tr("Saved {0}").format(path))

    def _export(self) -> None:
        if self.run is None:
            return
        path, _ = QFileDialog.getSaveFileName(
            self,
            self.tr("Export report"),
            "matrix-report.html",
            self.tr("HTML report (*.html);;Markdown (*.md);;JSON (*.json)"),
        )
        if path:
            self.export(Path(path))

    def export(self, path: Path) -> Path:
        """Write the shown run as HTML, Markdown or JSON (by the file's suffix)."""
        assert self.run is not None
        render = {".md": to_markdown, ".json": to_json}.get(path.suffix.lower(), to_html)
        path.write_text(render(self.run), encoding="utf-8")
        self.status.setText(self.tr("Exported {0}").format(path))
        return path
