"""Split view: one question box over several persona panes and a comparison strip."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from agent_core.compare import compare_turns
from desktop.comparison_strip import ComparisonStrip
from desktop.persona_pane import PersonaPane
from desktop.question_edit import QuestionEdit
from desktop.theme import error_color
from desktop.verbatim import tool_values

if TYPE_CHECKING:
    from desktop.persona_pane import PaneResult
    from desktop.sessions import SessionRegistry


def result_dict(result: PaneResult) -> dict[str, Any]:
    """The comparison/export shape of a pane's turn, read from its record."""
    from agent_core.events import usage_to_dict
    from desktop.export import call_summary

    record = result.record
    return {
        "persona": result.persona,
        "question": result.question,
        "answer": result.answer,
        "status": result.status,
        "tools": [call_summary(call) for call in record.calls],
        "row_counts": result.row_counts(),
        "elapsed_ms": round(record.elapsed_ms, 1),
        "started_at": result.started_at,
        "verbatim": list(tool_values(call.result for call in record.calls)),
        "usage": usage_to_dict(record.usage),
        "cut_off": record.cut_off,
    }


SIGN_IN = "\x00sign-in"
"""Item data of the persona menu's "Sign in…" entry."""


class SplitPane(QWidget):
    """A persona pane with a persona chooser and a remove button above it."""

    remove_requested = Signal(object)
    sign_in_requested = Signal()
    """The pane's persona menu's "Sign in…": sign another persona in for this pane."""

    def __init__(self, sessions: SessionRegistry, persona: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.sessions = sessions
        self.pane = PersonaPane(persona, self)
        self.persona_box = QComboBox(self)
        self.persona_box.setAccessibleName(self.tr("Persona of this pane"))
        self.remove_button = QToolButton(self)
        self.remove_button.setText("✕")
        self.remove_button.setToolTip(self.tr("Remove this pane"))
        self.remove_button.clicked.connect(lambda: self.remove_requested.emit(self))
        self.outcome = QLabel(self)
        """Says when the pane's last turn did not answer (stopped, failed)."""
        self.outcome.hide()
        self.pane.turn_started.connect(self.outcome.hide)
        self.pane.turn_finished.connect(self._show_outcome)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.persona_box, 1)
        top.addWidget(self.outcome)
        top.addWidget(self.remove_button)
        self.pane.header.hide()
        self.pane.suggestions.set_question_box_above(True)
        # side by side panes are narrow: chat above its tool calls reads better
        self.pane.splitter.setOrientation(Qt.Orientation.Vertical)
        # the answer is what people compare: it gets most of the height, the tool
        # calls (list and detail) the rest (it was the other way round before)
        self.pane.splitter.setStretchFactor(0, 3)
        self.pane.splitter.setStretchFactor(1, 2)
        self.pane.splitter.setSizes([600, 400])
        self.pane.header_extra.addLayout(top)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.pane)
        self._waiting_for_sign_in = False
        self._known: set[str] = set()
        self._fill(persona)
        self.persona_box.currentIndexChanged.connect(self._chosen)
        # a bound slot, not a lambda: Qt drops the connection when this pane is
        # deleted, so a sign-in after "Remove this pane" does not reach a dead widget
        sessions.changed.connect(self._sessions_changed)

    @Slot()
    def _sessions_changed(self) -> None:
        self._fill(self.pane.persona)

    def _show_outcome(self, result: PaneResult) -> None:
        """Mark a pane whose answer is missing: it is left out of the comparison."""
        words = {"cancelled": self.tr("stopped"), "failed": self.tr("failed")}
        if result.status == "answered":
            self.outcome.hide()
            return
        self.outcome.setText(words.get(result.status, result.status))
        self.outcome.setToolTip(self.tr("Not answered: left out of the comparison"))
        self.outcome.setStyleSheet(f"color: {error_color()}; font-weight: 600;")
        self.outcome.show()

    def _fill(self, persona: str) -> None:
        usernames = self.sessions.usernames()
        if self._waiting_for_sign_in and usernames and usernames[-1] not in self._known:
            persona = usernames[-1]  # the persona just signed in from this pane's menu
        self._waiting_for_sign_in = False
        self._known = set(usernames)
        self.persona_box.blockSignals(True)
        self.persona_box.clear()
        for username in usernames:
            self.persona_box.addItem(self.sessions.label(username), username)
        self.persona_box.addItem(self.tr("Sign in…"), SIGN_IN)
        position = self.persona_box.findData(persona) if persona else -1
        # no persona of its own: the pane waits for a sign-in instead of repeating another
        sign_in = self.persona_box.count() - 1
        self.persona_box.setCurrentIndex(position if position >= 0 else sign_in)
        self.persona_box.blockSignals(False)
        self._bind_current()

    def _chosen(self, *_: object) -> None:
        """The person picked an entry of the persona menu."""
        if self.persona_box.currentData() == SIGN_IN:
            if self.pane.session is not None:  # keep showing who the pane still is
                self.persona_box.blockSignals(True)
                self.persona_box.setCurrentIndex(self.persona_box.findData(self.pane.persona))
                self.persona_box.blockSignals(False)
            self._waiting_for_sign_in = True
            self.sign_in_requested.emit()
            return
        self._bind_current()

    def show_persona(self, username: str) -> None:
        """Switch the pane to a signed-in persona (as if picked in its menu)."""
        position = self.persona_box.findData(username)
        if position >= 0 and position != self.persona_box.currentIndex():
            self.persona_box.setCurrentIndex(position)  # binds it (_chosen)
        elif position >= 0:
            self._bind_current()

    def _bind_current(self) -> None:
        username = self.persona_box.currentData()
        if username == SIGN_IN:
            return
        session = self.sessions.get(username) if username else None
        if session is not None and session is not self.pane.session and not self.pane.running:
            self.pane.set_session(session)
            self.pane.new_chat()


class SplitCompareView(QWidget):
    """Ask every pane the same question at once; compare when all have answered."""

    all_finished = Signal(object, object)
    """(panes as dicts, differences) when every pane of an "Ask all" finished."""
    pane_added = Signal(object)
    """A ``PersonaPane`` just added (the window connects approvals and citations)."""
    pane_removed = Signal()
    """A pane was removed."""
    sign_in_requested = Signal()
    """A pane's persona menu asked to sign another persona in."""

    def __init__(self, sessions: SessionRegistry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.sessions = sessions
        self.question = QuestionEdit(self)
        self.question.set_prompt(self.tr("One question for every pane"))
        self.question.setAccessibleName(self.tr("Question for all panes"))
        self.question.setFixedHeight(self.question.fontMetrics().lineSpacing() * 2 + 14)
        self.question.submitted.connect(self.ask_all)
        self.ask_button = QPushButton(self.tr("Ask all"), self)
        self.ask_button.clicked.connect(self.ask_all)
        self.add_button = QPushButton(self.tr("Add pane"), self)
        self.add_button.clicked.connect(lambda: self.add_pane())
        top = QHBoxLayout()
        top.addWidget(self.question, 1)
        top.addWidget(self.ask_button)
        top.addWidget(self.add_button)
        self.pane_splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.pane_splitter.setChildrenCollapsible(False)
        self.strip = ComparisonStrip(self)
        vertical = QSplitter(Qt.Orientation.Vertical, self)
        vertical.addWidget(self.pane_splitter)
        vertical.addWidget(self.strip)
        vertical.setStretchFactor(0, 4)
        vertical.setStretchFactor(1, 1)
        self.vertical_splitter = vertical
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(vertical, 1)
        self.split_panes: list[SplitPane] = []
        self.cards_shown = False
        """Whether each pane shows its persona card (presenter mode)."""
        self._level_timer = QTimer(self)
        self._level_timer.setSingleShot(True)
        self._level_timer.setInterval(0)
        self._level_timer.timeout.connect(self._level_cards)
        self.pane_splitter.splitterMoved.connect(lambda *_: self._level_timer.start())
        self.text_zoom = 1.0
        """Text zoom of new panes (the window sets it)."""
        self._waiting: set[PersonaPane] = set()
        self._results: dict[PersonaPane, PaneResult] = {}

    @property
    def panes(self) -> list[PersonaPane]:
        """The persona panes, left to right."""
        return [split.pane for split in self.split_panes]

    @property
    def running(self) -> bool:
        """True while any pane's turn runs."""
        return any(pane.running for pane in self.panes)

    def add_pane(self, persona: str = "") -> PersonaPane:
        """Add a pane (for ``persona``, else the first persona not shown yet)."""
        if not persona:
            shown = {pane.persona for pane in self.panes}
            unused = [u for u in self.sessions.usernames() if u not in shown]
            # nobody left to show: the pane offers "Sign in…" (hong compared with hong
            # would show no difference and prove nothing)
            persona = unused[0] if unused else ""
        split = SplitPane(self.sessions, persona, self.pane_splitter)
        split.remove_requested.connect(self.remove_pane)
        split.sign_in_requested.connect(self.sign_in_requested)
        split.pane.turn_finished.connect(self._pane_finished)
        split.pane.suggestion_chosen.connect(self.ask_all)
        split.pane.show_card(self.cards_shown)
        if self.text_zoom != 1.0:
            split.pane.set_text_zoom(self.text_zoom)
        self.pane_splitter.addWidget(split)
        self.split_panes.append(split)
        self._update_buttons()
        self.pane_added.emit(split.pane)
        return split.pane

    def set_personas(self, usernames: list[str]) -> bool:
        """Show exactly these signed-in personas, one pane each, left to right.

        Returns:
            False (nothing changed) while a pane's turn runs.
        """
        if self.running or not usernames:
            return False
        for split in self.split_panes[len(usernames) :]:
            self.remove_pane(split)
        for position, username in enumerate(usernames):
            if position < len(self.split_panes):
                self.split_panes[position].show_persona(username)
            else:
                self.add_pane(username)
        sizes = [max(1, self.pane_splitter.width() // len(usernames))] * len(usernames)
        self.pane_splitter.setSizes(sizes)  # equal widths: no persona is the small one
        self._level_timer.start()
        return True

    def show_cards(self, on: bool) -> None:
        """Show or hide every pane's persona card."""
        self.cards_shown = on
        for pane in self.panes:
            pane.show_card(on)
        self._level_timer.start()

    def resizeEvent(self, event: Any) -> None:
        """Pane widths changed: the persona cards are levelled again."""
        super().resizeEvent(event)
        if self.cards_shown:
            self._level_timer.start()

    def _level_cards(self) -> None:
        """Give every card the height of the tallest, so the chats below start level
        (a role that wraps in one pane pushed that pane's chat down)."""
        cards = [pane.card for pane in self.panes if pane.card_shown]
        for card in cards:
            card.setMinimumHeight(0)
        height = max((card.text_height() for card in cards), default=0)
        for card in cards:
            card.setMinimumHeight(height)

    def set_text_zoom(self, factor: float) -> None:
        """Scale the text of every pane and of the comparison strip."""
        from desktop.text_zoom import zoom_widget

        self.text_zoom = factor
        for pane in self.panes:
            pane.set_text_zoom(factor)
        zoom_widget(self.strip, factor)
        self._level_timer.start()

    def remove_pane(self, split: SplitPane) -> None:
        """Remove a pane (not while its turn runs)."""
        if split.pane.running or len(self.split_panes) <= 1:
            return
        self.split_panes.remove(split)
        split.hide()
        split.setParent(None)
        split.deleteLater()
        self._update_buttons()
        self.pane_removed.emit()

    def _update_buttons(self) -> None:
        for split in self.split_panes:
            split.remove_button.setEnabled(len(self.split_panes) > 2)

    def ask_all(self, question: str | None = None) -> bool:
        """Start the same question in every pane at once.

        Args:
            question: The question (a picked suggestion); default the question
                box's text, which is then cleared.

        Returns:
            False when nothing was started (no question, a pane still running).
        """
        from_box = not isinstance(question, str)  # a button's ``clicked`` passes a bool
        text = (self.question.text() if from_box else str(question)).strip()
        if not text or self.running or not self.panes:
            return False
        self._results.clear()
        self._waiting = set()
        for pane in self.panes:
            if pane.ask(text):
                self._waiting.add(pane)
        if not self._waiting:
            return False
        if from_box:  # a picked suggestion leaves what the person typed alone
            self.question.remember(text)
            self.question.clear()
        self.strip.show_waiting(running=True)
        return True

    def stop_all(self) -> None:
        """Stop every running pane."""
        for pane in self.panes:
            pane.stop()

    def new_chat(self) -> None:
        """Clear every pane and the strip."""
        for pane in self.panes:
            pane.new_chat()
        self.strip.show_waiting()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Stop every pane and wait for their threads."""
        return all([pane.shutdown(timeout_ms) for pane in self.panes])

    def _pane_finished(self, result: PaneResult) -> None:
        pane = self.sender()
        if not isinstance(pane, PersonaPane) or pane not in self._waiting:
            return
        self._waiting.discard(pane)
        self._results[pane] = result
        if self._waiting:
            return
        results = [self._results[p] for p in self.panes if p in self._results]
        panes = [result_dict(result) for result in results]
        # the comparison of ``regdesk compare --json``, on the same records; a stopped
        # or failed pane has no answer to compare and is named, not judged
        differences = compare_turns([result.record for result in results])["differences"]
        answered = [p for p in panes if p["status"] == "answered"]
        left_out = [p for p in panes if p["status"] != "answered"]
        self.strip.show_differences(answered, differences, left_out)
        self._fit_strip()
        self.all_finished.emit(panes, differences)

    def _fit_strip(self) -> None:
        """Give the comparison strip the height its differences need (at most ~45%)."""
        sizes = self.vertical_splitter.sizes()
        total = sum(sizes)
        if total <= 0:
            return
        # with persona cards (presenter mode) the panes already give up a card's height
        share = 0.3 if self.cards_shown else 0.45
        wanted = min(self.strip.preferred_height(), int(total * share))
        if wanted > sizes[1]:
            self.vertical_splitter.setSizes([total - wanted, wanted])
