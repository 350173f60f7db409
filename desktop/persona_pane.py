"""One persona's conversation: chat on the left, tool calls on the right."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QStyle,
    QStyleOptionButton,
    QStylePainter,
    QVBoxLayout,
    QWidget,
)

from agent_core.events import (
    AnswerDelta,
    AnswerFinished,
    ApprovalRequested,
    ModelCallFinished,
    ModelRetry,
    Narration,
    Thinking,
    ThinkingDelta,
    TurnCancelled,
    TurnFailed,
)
from agent_core.record import TurnRecord
from desktop.chat_view import ChatView
from desktop.persona_card import PersonaCard
from desktop.tool_call_model import ToolCallModel
from desktop.tool_call_panel import ToolCallPanel
from desktop.transcript_model import TranscriptModel
from desktop.verbatim import tool_values

if TYPE_CHECKING:
    from collections.abc import Iterator

    from PySide6.QtGui import QPaintEvent, QResizeEvent
    from PySide6.QtWidgets import QMenu

    from agent_core.approval import ApprovalDecision, Approver
    from agent_core.cancel import CancelToken
    from agent_core.events import AgentEvent, Usage
    from desktop.history_store import SavedTurn
    from desktop.session_like import SessionLike
    from desktop.settings import AppSettings
    from desktop.turn_worker import TurnController, TurnFunction

ApprovalHandler = Callable[["PersonaPane", "ApprovalRequested"], None]
"""Asks a person; must eventually call ``pane.answer_approval(request.call_id, decision)``."""

TurnSaver = Callable[["PaneResult", Callable[[BaseException | None], None]], None]
"""Commits a finished turn to history, then calls its second argument (from any
thread) with None once the turn is durable, or with the error that kept it from being."""


def example_questions() -> list[str]:
    """Questions offered on an empty chat, in the UI's language."""
    return [
        QCoreApplication.translate(
            "PersonaPane", "How many days of childcare leave do I have left?"
        ),
        QCoreApplication.translate(
            "PersonaPane", "Which version of the childcare support rule is in force today?"
        ),
        QCoreApplication.translate(
            "PersonaPane", "What is the lodging limit for a business trip to Seoul?"
        ),
        QCoreApplication.translate("PersonaPane", "Which regulations derive from the HR rule?"),
        QCoreApplication.translate(
            "PersonaPane", "Are any revisions pending for the annual leave regulation?"
        ),
        QCoreApplication.translate(
            "PersonaPane", "How much childcare leave has my department used?"
        ),
    ]


class SuggestionButton(QPushButton):
    """An example question that shrinks with its pane: elided text, full text as tooltip.

    A plain push button's minimum width is its whole text, so three split panes of
    English suggestions forced the window wider than a laptop screen.
    """

    MIN_WIDTH = 120
    """Narrowest the button gets (pixels)."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setToolTip(text)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def minimumSizeHint(self) -> QSize:
        """Narrow enough for a split pane; the text is elided instead."""
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), self.MIN_WIDTH), hint.height())

    def paintEvent(self, event: QPaintEvent) -> None:
        """Draw the button with its text elided to the width it has."""
        option = QStyleOptionButton()
        self.initStyleOption(option)
        room = self.style().subElementRect(QStyle.SubElement.SE_PushButtonContents, option, self)
        option.text = self.fontMetrics().elidedText(
            self.text(), Qt.TextElideMode.ElideRight, room.width() - 6
        )
        painter = QStylePainter(self)
        painter.drawControl(QStyle.ControlElement.CE_PushButton, option)


class SuggestionsView(QScrollArea):
    """An empty chat's invitation: a few example questions, one click each.

    It scrolls when short: in a split pane its full height forced the window taller
    than a small screen.
    """

    chosen = Signal(str)
    """The question a person picked."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.viewport().setBackgroundRole(QPalette.ColorRole.Window)
        content = QWidget(self)
        layout = QVBoxLayout(content)
        layout.addStretch(1)
        title = QLabel(self.tr("Ask about regulations, versions or your HR records."), content)
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        title.setWordWrap(True)
        title.setStyleSheet("font-size: 14pt; font-weight: 600;")
        hint = QLabel(self.tr("Try one of these, or type your own question below:"), content)
        hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        hint.setWordWrap(True)
        self.hint = hint
        layout.addWidget(title)
        layout.addWidget(hint)
        self.buttons: list[QPushButton] = []
        for question in example_questions():
            button = SuggestionButton(question, content)
            button.setFlat(False)
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            button.setStyleSheet("text-align: left; padding: 6px 12px;")
            button.clicked.connect(lambda *_, q=question: self.chosen.emit(q))
            row = QVBoxLayout()
            row.setContentsMargins(24, 0, 24, 0)
            row.addWidget(button)
            layout.addLayout(row)
            self.buttons.append(button)
        layout.addStretch(2)
        self.setWidget(content)

    def set_question_box_above(self, above: bool) -> None:
        """Say where the question box is (the split view has it above the panes)."""
        self.hint.setText(
            self.tr("Try one of these, or type your own question in the box above:")
            if above
            else self.tr("Try one of these, or type your own question below:")
        )


STREAMED = ("answer_delta", "thinking_delta")
"""Event kinds folded into the record's text: history keeps the text, not the pieces."""


@dataclass
class PaneResult:
    """One turn of a pane: its ``TurnRecord`` and what only the desktop knows of it.

    The record is the turn (calls, answer, citations, usage, how it ended); this
    adds the question as the pane asked it, where the turn is saved and where
    its rows begin in the pane's views.
    """

    record: TurnRecord
    """The turn, folded from its events (``TurnRecord.apply``)."""
    question: str
    """The question as asked in this pane (saved, shown and asked again on regenerate)."""
    started_at: float = 0.0
    """Wall-clock start (epoch seconds)."""
    saved: bool = False
    """True once the turn was committed to the history file."""
    conversation_id: int | None = None
    """The saved conversation the turn belongs to (None: a new one, not saved yet)."""
    turn_id: int | None = None
    """Its row in the history file, once saved."""
    row_start: int = 0
    """Transcript row of its question (where its rows begin)."""
    tool_start: int = 0
    """Tool-call row where its calls begin."""

    @property
    def persona(self) -> str:
        """Username the turn ran as."""
        return self.record.persona

    @property
    def status(self) -> str:
        """answered, failed, cancelled (or running)."""
        return self.record.status

    @property
    def answer(self) -> str:
        """The final answer ('' when the turn failed or was stopped)."""
        return self.record.answer if self.record.status == "answered" else ""

    @property
    def elapsed_ms(self) -> float:
        """Duration of the turn."""
        return self.record.elapsed_ms

    @property
    def message(self) -> str:
        """Failure message, if any."""
        return self.record.failure.message if self.record.failure is not None else ""

    @property
    def events(self) -> list[dict[str, Any]]:
        """The turn's events as history stores them (``event_to_dict``; no streamed pieces)."""
        from agent_core.events import event_to_dict

        return [event_to_dict(e) for e in self.stored_events()]

    def stored_events(self) -> tuple[AgentEvent, ...]:
        """The events history keeps (no streamed pieces), still as events.

        History encodes them in its writer thread: encoding a long turn here
        cost the GUI thread ~8 ms in the frame its answer completed.
        """
        return tuple(e for e in self.record.events if e.kind not in STREAMED)

    def row_counts(self) -> dict[str, int]:
        """Rows per tool, summed over calls of the same tool."""
        counts: dict[str, int] = {}
        for call in self.record.calls:
            counts[call.tool] = counts.get(call.tool, 0) + (call.row_count or 0)
        return counts


def session_turn(
    session: SessionLike, question: str, history: list[tuple[str, str]] | None = None
) -> TurnFunction:
    """Bind a persona session's ``run_turn`` to a question.

    Args:
        session: A logged-in ``PersonaSession``.
        question: What to ask.
        history: Earlier turns, passed through to ``run_turn``.

    Returns:
        A turn function for :class:`TurnController`.
    """

    def turn(approver: Approver, cancel: CancelToken) -> Iterator[AgentEvent]:
        return session.run_turn(question, approver=approver, cancel=cancel, history=history)

    return turn


class PersonaPane(QWidget):
    """Transcript, tool panel and one running turn at a time."""

    turn_started = Signal()
    """A turn began."""
    turn_finished = Signal(object)
    """A ``PaneResult`` of the turn that ended, emitted once it is in history (or failed to be)."""
    _saved = Signal(object, object)
    """(result, error or None) from the history writer's thread."""
    approval_pending = Signal(object)
    """An ``ApprovalRequested`` reached this pane."""
    citation_clicked = Signal(str, object)
    """(doc_no, version) of a clicked citation chip."""
    suggestion_chosen = Signal(str)
    """An example question picked on the empty chat."""
    edit_requested = Signal(str, int)
    """(question, turn index): the person wants to change an earlier question and ask again."""
    export_turn_requested = Signal(int)
    """A turn (index in ``turns``) to export."""

    def __init__(self, persona: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.persona = persona
        self.session: SessionLike | None = None
        self.transcript = TranscriptModel(self)
        self.tools = ToolCallModel(self)
        self.chat = ChatView(self)
        self.chat.setModel(self.transcript)
        self.tool_panel = ToolCallPanel(self.tools, self)
        self.header = QLabel(self)
        self.header.setTextFormat(Qt.TextFormat.PlainText)
        self.header_extra = QVBoxLayout()
        self.header_extra.setContentsMargins(0, 0, 0, 0)
        self.card = PersonaCard(self)
        """Who is asking and what they may see (presenter mode; hidden until asked for)."""
        self.card.hide()
        self._card_wanted = False
        self.suggestions = SuggestionsView(self)
        self.suggestions.chosen.connect(self.suggestion_chosen)
        self.chat_stack = QStackedWidget(self)
        self.chat_stack.addWidget(self.chat)
        self.chat_stack.addWidget(self.suggestions)
        self.transcript.rowsInserted.connect(self._update_empty)
        self.transcript.modelReset.connect(self._update_empty)
        self.transcript.rowsRemoved.connect(self._update_empty)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self.chat_stack)
        splitter.addWidget(self.tool_panel)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([3000, 2000])  # proportions: the tool panel keeps room to read
        self.splitter = splitter
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(self.header_extra)
        layout.addWidget(self.header)
        layout.addWidget(self.card)
        layout.addWidget(splitter, 1)
        self.activity = QLabel(self)
        """What the running turn is doing, with the time it has taken so far."""
        self.activity.setEnabled(False)  # muted text
        self.activity.setAccessibleName(self.tr("Turn progress"))
        self.activity.hide()
        layout.addWidget(self.activity)
        self._activity_timer = QTimer(self)
        self._activity_timer.setInterval(200)
        self._activity_timer.timeout.connect(self._update_activity)
        self.approval_handler: ApprovalHandler | None = None
        self.saver: TurnSaver | None = None
        """Commits finished turns; without one a turn is over as soon as its thread ends."""
        self.turns: list[PaneResult] = []
        """The turns of the conversation in view, oldest first."""
        self.forget: Callable[[list[PaneResult]], None] | None = None
        """Deletes turns from history (regenerated or edited away)."""
        self.chat.context_menu_requested.connect(self._add_turn_actions)
        self.conversation_id: int | None = None
        """The saved conversation in view (None: a new chat, not saved yet)."""
        self._saving: PaneResult | None = None
        self._saved.connect(self._on_saved)
        self.turn_factory: Callable[[str], TurnFunction] | None = None
        self.last_result: PaneResult | None = None
        self._controller: TurnController | None = None
        self._result: PaneResult | None = None
        self._started = 0.0
        self.chat.citation_clicked.connect(self.citation_clicked)
        self.chat.clicked.connect(lambda index: self.transcript.toggle(index.row()))
        self.settings_button = QPushButton(self.tr("Choose another model in Settings…"), self)
        self.settings_button.hide()
        self.settings_button.clicked.connect(self._open_settings)
        self.header_extra.addWidget(self.settings_button)
        self._retry_note = ""
        self._update_header()
        self._update_empty()

    def _open_settings(self) -> None:
        """Settings, for another model; a model of the same endpoint applies at once."""
        from desktop.credentials import CredentialStore
        from desktop.settings import AppSettings
        from desktop.settings_dialog import SettingsDialog

        settings = AppSettings()
        dialog = SettingsDialog(settings, CredentialStore(), self)
        dialog.accepted.connect(lambda: self._apply_model_settings(settings))
        dialog.open()

    def _apply_model_settings(self, settings: AppSettings) -> None:
        if settings.model not in ("claude", "endpoint") or self.running:
            return
        # the window's signed-in sessions (a pane on its own has just its own)
        sessions: list[SessionLike] = list(getattr(self.window(), "sessions", None) or [])
        if self.session is not None and self.session not in sessions:
            sessions.append(self.session)
        name = ""
        for session in sessions:
            if not session.endpoints.offline_model:
                name = session.use_model(
                    settings.model_name or None,
                    max_tokens=settings.max_tokens or None,
                    effort=settings.effort or None,
                )
        if name:
            self.settings_button.hide()
            self.transcript.add_notice(self.tr("Now using {0}. Ask again.").format(name))

    def _update_empty(self, *_: object) -> None:
        empty = self.transcript.rowCount() == 0
        self.chat_stack.setCurrentWidget(self.suggestions if empty else self.chat)

    def displayed_text(self) -> str:
        """Exactly what the chat shows for the last answer, as plain text ('' if none)."""
        from desktop.transcript_model import displayed_text

        answers = [row for row in self.transcript.rows if row.kind == "assistant"]
        return displayed_text(answers[-1]) if answers else ""

    def search_hits(self) -> list[dict[str, Any]]:
        """Every ``search_regulations`` hit this pane's persona received in this chat."""
        from agent_core.events import plain

        hits: list[dict[str, Any]] = []
        for call in self.tools.calls:
            if call.tool == "search_regulations":
                found = plain(call.payload.get("hits")) or []
                hits.extend(h for h in found if isinstance(h, dict))
        return hits

    # persona ----------------------------------------------------------------
    def set_session(self, session: SessionLike) -> None:
        """Bind the pane to a logged-in persona."""
        self.session = session
        self.persona = session.username
        self._update_header()

    def set_text_zoom(self, factor: float) -> None:
        """Scale the text of the chat, the tool panel (list and detail) and the card."""
        from desktop.text_zoom import zoom_widget

        detail = self.tool_panel.detail
        for widget in (
            self.chat,
            self.tool_panel,
            detail.json_view,  # fixed-pitch: their own font, not the panel's
            detail.arguments_view,
            detail.raw_view,
            self.card,
        ):
            zoom_widget(widget, factor)
        self._fit_card()

    def resizeEvent(self, event: QResizeEvent) -> None:
        """A short pane (small screen, large zoom) gets the compact persona card."""
        super().resizeEvent(event)
        self._fit_card()

    def _fit_card(self) -> None:
        from desktop.persona_card import COMPACT_BELOW_LINES

        lines = self.height() / max(1, self.chat.fontMetrics().lineSpacing())
        self.card.set_compact(lines < COMPACT_BELOW_LINES)

    def show_card(self, on: bool) -> None:
        """Show or hide the persona header card (presenter mode)."""
        self._card_wanted = on
        self.card.setVisible(on and bool(self.persona))

    @property
    def card_shown(self) -> bool:
        """True when the pane shows its persona card (wanted, and a persona to show)."""
        return self._card_wanted and bool(self.persona)

    def _update_header(self) -> None:
        name = self.session.display_name if self.session is not None else ""
        self.card.set_persona(self.persona, name)
        self.card.setVisible(self.card_shown)
        if not self.persona:
            self.header.setText(self.tr("No persona"))
        else:
            self.header.setText(f"{name} ({self.persona})" if name else self.persona)

    # turns --------------------------------------------------------------------
    @property
    def running(self) -> bool:
        """True while a turn runs, and after it until it is committed to history.

        A turn is never shown as finished before it is durable: killing the app
        right after an answer must not lose it.
        """
        if self._saving is not None:
            return True
        return self._controller is not None and self._controller.running

    @property
    def saving(self) -> bool:
        """True between the end of a turn's thread and its commit to history."""
        return self._saving is not None

    def ask(self, question: str, history: list[tuple[str, str]] | None = None) -> bool:
        """Start a turn with a question.

        Args:
            question: What to ask.
            history: Earlier (question, answer) pairs for the model's context.

        Returns:
            False when a turn is already running or no persona is bound.
        """
        question = question.strip()
        if not question or self.running:
            return False
        if self.turn_factory is not None:
            turn = self.turn_factory(question)
        elif self.session is not None:
            turn = session_turn(self.session, question, history)
        else:
            return False
        record = TurnRecord(persona=self.persona, question=question)
        result = PaneResult(record, question, started_at=time.time())
        result.conversation_id = self.conversation_id
        result.row_start, result.tool_start = self.transcript.rowCount(), self.tools.rowCount()
        self.transcript.add_question(question)
        self.tools.begin_turn(record, question)
        self.transcript.mark_attempt()
        self.settings_button.hide()
        self._retry_note = ""
        self._result = result
        self._started = time.perf_counter()
        from desktop.turn_worker import TurnController  # the first turn, not the first paint

        controller = TurnController(turn, self)
        controller.events_arrived.connect(self._on_events)
        controller.approval_requested.connect(self._on_approval)
        controller.finished.connect(self._on_finished)
        self._controller = controller
        controller.start()
        self._activity_timer.start()
        self._update_activity()
        self.turn_started.emit()
        return True

    def stop(self) -> None:
        """Cancel the running turn (it ends within a second)."""
        if self._controller is not None:
            self._controller.cancel()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel and wait for the turn's thread (window closing).

        Returns:
            True when no thread is left running.
        """
        if self._controller is None:
            return True
        self._controller.cancel()
        return self._controller.wait(timeout_ms)

    def answer_approval(self, call_id: str, decision: ApprovalDecision) -> bool:
        """Give the waiting turn a person's decision on approval request ``call_id``.

        Returns:
            False when no turn of this pane waits on that request (stale answers
            are dropped).
        """
        if self._controller is None:
            return False
        return self._controller.answer_approval(call_id, decision)

    def new_chat(self) -> None:
        """Start a new conversation: clear the transcript and tool calls (not while a turn runs)."""
        if self.running:
            return
        self.transcript.clear()
        self.tools.clear()
        self.turns = []
        self.conversation_id = None

    def show_conversation(self, conversation_id: int, saved: list[SavedTurn]) -> None:
        """Show a saved conversation, each turn with its tool calls, citations and real end.

        Args:
            conversation_id: The conversation; the next question continues it.
            saved: Its turns as the history store keeps them, oldest first.
        """
        from desktop.turn_replay import replay_turn

        if self.running:
            return
        self.new_chat()
        self.conversation_id = conversation_id
        self.turns = [replay_turn(self, turn) for turn in saved]

    def history_pairs(self, limit: int = 5) -> list[tuple[str, str]]:
        """Earlier (question, answer) pairs of this conversation for the model's context.

        Only answered turns: a stopped or failed turn's partial text is never sent
        back to the model as if it had been the answer.
        """
        pairs = [(t.question, t.answer) for t in self.turns if t.status == "answered" and t.answer]
        return pairs[-limit:]

    def turn_at(self, row: int) -> int:
        """The index in ``turns`` of the turn a transcript row belongs to (-1: none)."""
        found = -1
        for number, turn in enumerate(self.turns):
            if turn.row_start <= row:
                found = number
        return found

    def _add_turn_actions(self, menu: QMenu, row: int) -> None:
        index = self.turn_at(row)
        if index < 0 or self.running:
            return
        menu.addSeparator()
        if index == len(self.turns) - 1:
            menu.addAction(self.tr("Regenerate"), lambda: self.regenerate(index))
        question = self.turns[index].question
        menu.addAction(
            self.tr("Edit and resend…"), lambda: self.edit_requested.emit(question, index)
        )
        menu.addAction(self.tr("Export this turn…"), lambda: self.export_turn_requested.emit(index))

    def regenerate(self, index: int | None = None) -> bool:
        """Ask a turn's question again in its place (default the last turn).

        The old answer leaves the view and the history; the new one is asked with
        the conversation before it as context.

        Returns:
            False when nothing was asked (a turn runs, or there is no such turn).
        """
        index = len(self.turns) - 1 if index is None else index
        if self.running or not 0 <= index < len(self.turns):
            return False
        return self.resend(index, self.turns[index].question)

    def resend(self, index: int, question: str) -> bool:
        """Replace turn ``index`` and everything after it with a new question.

        Returns:
            False when nothing was asked.
        """
        question = question.strip()
        if self.running or not question or not 0 <= index < len(self.turns):
            return False
        removed = self.truncate_turns(index)
        if self.forget is not None:
            self.forget(removed)
        return self.ask(question, self.history_pairs())

    def truncate_turns(self, index: int) -> list[PaneResult]:
        """Remove turn ``index`` and every later one from view (regenerate, edit and resend).

        Returns:
            The removed turns (their ``turn_id`` s leave the history too).
        """
        if self.running or not 0 <= index < len(self.turns):
            return []
        removed, self.turns = self.turns[index:], self.turns[:index]
        self.transcript.truncate(removed[0].row_start)
        self.tools.truncate(removed[0].tool_start)
        return removed

    def _on_approval(self, request: ApprovalRequested) -> None:
        if self._controller is None:
            return  # the turn ended (stopped) before its request arrived: nothing to ask
        # the request's event is queued ahead of this signal: fold it (and what came
        # before) first, so the call shows as awaiting approval
        self._controller.flush_backlog()
        if self._controller is None:
            return  # that backlog held the turn's end (Stop): no dialog for a finished turn
        self.approval_pending.emit(request)
        if self.approval_handler is not None:
            self.approval_handler(self, request)
        else:
            from agent_core.approval import ApprovalDecision

            self.answer_approval(
                request.call_id, ApprovalDecision(False, "no one was available to approve")
            )

    def _on_events(self, batch: list[AgentEvent]) -> None:
        result = self._result
        if result is None:
            return
        for event in batch:
            # folded once; the tool list shows the call the fold changed, by index
            self.tools.apply(result.record.apply(event))
            if result.record.finished and not result.record.elapsed_ms:
                # timed at its final event: "finished" comes a frame or two later
                result.record.elapsed_ms = (time.perf_counter() - self._started) * 1000.0
            self._apply(event, result)

    def _apply(self, event: AgentEvent, result: PaneResult) -> None:
        """Show an event that ``result.record`` has just folded (tool calls are shown already)."""
        match event:
            case AnswerDelta():
                self.transcript.append_delta(event.text, event.step)
            case Narration():
                self.transcript.end_step_as_narration(event.step, event.text)
            case ThinkingDelta() | Thinking() | ModelRetry() | ModelCallFinished():
                self._apply_model_event(event)
            case AnswerFinished():
                # this turn's calls only: a row keeping every earlier value grew with the chat
                verbatim = tool_values(call.result for call in result.record.calls)
                self.transcript.finish_answer(event.text, event.citations, verbatim)
                if event.cut_off:
                    self.transcript.add_notice(
                        self.tr("Cut off: the answer reached the output limit and is incomplete.")
                    )
                self._show_usage(event.usage)
            case TurnFailed():
                self.transcript.discard_attempt()  # a partial answer is never kept as one
                self.transcript.drop_partial()  # nor a refused one
                self.transcript.end_streaming()
                self.transcript.add_notice(
                    self.failure_notice(event.failure, event.message, event.action)
                )
                self.settings_button.setVisible(event.action == "settings")
                self._show_usage(event.usage)
            case TurnCancelled():
                self.transcript.end_streaming()
                self.transcript.add_notice(self.tr("Stopped."))

    def _apply_model_event(
        self, event: ThinkingDelta | Thinking | ModelRetry | ModelCallFinished
    ) -> None:
        """Thinking rows, retries (the abandoned attempt's text dropped) and call boundaries."""
        from agent_core.model_failures import RETRY_WORDS

        match event:
            case ThinkingDelta():
                self._retry_note = ""
                self.transcript.append_thinking(event.text, event.step)
            case Thinking():
                self.transcript.finish_thinking(event.text)
            case ModelRetry():
                if event.discard:
                    self.transcript.discard_attempt()
                words = RETRY_WORDS.get(event.reason, event.reason)
                if event.reason == "max_tokens":
                    note = self.tr("Trying again with a larger output limit ({0})").format(words)
                else:
                    note = self.tr("retrying in {0} s ({1})").format(f"{event.delay_s:.0f}", words)
                self._retry_note = note
                self.transcript.add_notice(note)
                self.transcript.mark_attempt()
                self._update_activity()
            case ModelCallFinished():
                self._retry_note = ""
                if event.stop_reason not in ("max_tokens", "model_context_window_exceeded"):
                    self.transcript.mark_attempt()

    def _show_usage(self, usage: Usage | None) -> None:
        """Tokens and the estimated cost of the turn, as a line under it."""
        if usage is None or not usage.model_calls:
            return
        offline = self.session is not None and self.session.endpoints.offline_model
        if offline and usage.cost_usd is None:
            return  # the offline planner's token counts are estimates of nothing billed
        line = self.tr("{0} tokens in, {1} out").format(
            f"{usage.total_input_tokens:,}", f"{usage.output_tokens:,}"
        )
        if usage.cache_read_input_tokens:
            line += self.tr(" ({0} read from cache)").format(f"{usage.cache_read_share:.0%}")
        if usage.cost_usd is not None:
            line += self.tr(" · ≈ ${0}").format(f"{usage.cost_usd:.4f}")
        self.transcript.add_notice(line)

    def footer_text(self, result: PaneResult) -> str:
        """The small line under a turn's last row: how long it took (and whether it was saved)."""
        text = self.tr("{0} s").format(f"{result.elapsed_ms / 1000.0:.1f}")
        if self.saver is not None and not result.saved:
            text = self.tr("{0} · not saved").format(text)
        return text

    def failure_notice(self, failure: str, message: str, action: str | None = None) -> str:
        """What a failed turn tells the person: what to do first, the details after.

        Args:
            failure: The failure kind (auth, network, timeout, model, refused).
            message: The technical message (shortened here; the history keeps it whole).
            action: ``settings`` when the fix is in Settings (model, key, endpoint).

        Returns:
            One translated line.
        """
        if action == "settings":
            detail = message if len(message) <= 160 else message[:159] + "…"
            return self.tr("{0} Open Settings to fix it. ({1})").format(
                self.tr("The model endpoint refused this model or key."), detail
            )
        advice = {
            "auth": self.tr("Your sign-in is no longer valid. Sign in again and ask again."),
            "network": self.tr(
                "The platform could not be reached. Check that it runs, then ask again."
            ),
            "timeout": self.tr("The platform or the model took too long. Ask again."),
            "model": self.tr("The model did not give a usable answer. Ask again."),
            "refused": self.tr("The request was refused."),
            "internal": self.tr("RegDesk hit an internal error (a bug, logged). Ask again."),
        }.get(failure, self.tr("The turn failed."))
        detail = message if len(message) <= 160 else message[:159] + "…"
        return self.tr("{0} ({1}: {2})").format(advice, failure, detail)

    def _on_finished(self) -> None:
        controller, self._controller = self._controller, None
        result, self._result = self._result, None
        if controller is not None:
            controller.deleteLater()
        if result is None:
            return
        if not result.record.finished:  # the worker always ends a turn; this is a backstop
            self._result = result
            self._on_events([TurnFailed("internal", "the turn ended without a final event")])
            self._result = None
        if not result.record.elapsed_ms:
            result.record.elapsed_ms = (time.perf_counter() - self._started) * 1000.0
        if self.saver is None:
            self._settle(result)
            return
        self._saving = result  # before saving: a store that is missing answers at once
        self._update_activity()
        try:
            self.saver(result, lambda error: self._report_saved(result, error))
        except Exception as exc:  # a broken store must not keep the turn open forever
            self._on_saved(result, exc)

    def _report_saved(self, result: PaneResult, error: BaseException | None) -> None:
        try:
            self._saved.emit(result, error)  # queued to the GUI thread
        except RuntimeError:
            pass  # the pane is gone (window closed): nobody to tell

    def _on_saved(self, result: PaneResult, error: BaseException | None) -> None:
        if self._saving is not result:
            return
        self._saving = None
        result.saved = error is None
        self._settle(result)

    def _update_activity(self) -> None:
        """Show the elapsed time while a turn runs, and "saving…" until it is durable."""
        if self._saving is not None:
            self.activity.setText(self.tr("Saving…"))
        elif self.running:
            seconds = time.perf_counter() - self._started
            working = self.tr("Working… {0} s").format(f"{seconds:.1f}")
            note = self._retry_note
            self.activity.setText(f"{working} — {note}" if note else working)
        else:
            self._activity_timer.stop()
            self.activity.hide()
            return
        self.activity.show()

    def _settle(self, result: PaneResult) -> None:
        """The turn is over (and saved, when there is a history): say so."""
        self._update_activity()
        self.transcript.set_footer(self.footer_text(result))
        # the streamed pieces are in the record's text now (and history has the
        # rest): thousands of them per turn grew memory with the chat
        events = result.record.events
        events[:] = [e for e in events if e.kind not in STREAMED]
        self.turns.append(result)
        if result.conversation_id:
            self.conversation_id = result.conversation_id
        self.last_result = result
        self.turn_finished.emit(result)
