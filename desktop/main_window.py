"""The RegDesk main window: persona switcher, chat + tool panel, split view, status.

The window is the shell: toolbar, status line, the single/split pages and the
turn actions. What it delegates lives next to it: service start-up
(``desktop.service_startup``), approval dialogs (``desktop.approval_coordinator``),
history (``desktop.chat_history``), the sign-in placeholder
(``desktop.sign_in_placeholder``) and saving exports (``desktop.export_actions``).
"""

from __future__ import annotations

import gc
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.approval_coordinator import ApprovalCoordinator
from desktop.chat_history import ChatHistory
from desktop.demo_personas import DEMO_PERSONAS, demo_passwords
from desktop.question_edit import QuestionEdit
from desktop.service_startup import start_services
from desktop.sessions import SessionRegistry
from desktop.sign_in_placeholder import SignInPlaceholder
from desktop.tasks import deliver_pending, wait_for_tasks
from desktop.window_fit import fit_to_screen

if TYPE_CHECKING:
    from agent_core.approval import ApprovalDecision
    from agent_core.config import Endpoints
    from desktop.conversation_sidebar import ConversationSidebar
    from desktop.persona_pane import PersonaPane
    from desktop.services import ServiceProvider
    from desktop.session_like import SessionLike
    from desktop.split_view import SplitCompareView

_gc_frozen = False
"""True once the long-lived heap was frozen out of the collector (once per process)."""


class MainWindow(QMainWindow):
    """The main window; services start in the background as it opens."""

    services_ready = Signal(object)
    """``Endpoints`` once the platform and model are reachable."""
    services_failed = Signal(str)
    """A message when they could not be started."""
    persona_logged_in = Signal(str)
    """Username of a new session."""
    _history_failed = Signal(str)
    """A background history write failed (message for the status line)."""

    def __init__(
        self,
        provider: ServiceProvider,
        *,
        offer_login: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("RegDesk"))
        self.provider = provider
        self.endpoints: Endpoints | None = None
        self.offer_login = offer_login
        self.sessions = SessionRegistry(self)
        self.panes: dict[str, PersonaPane] = {}
        self.approvals = ApprovalCoordinator(self)
        self._chat_history = ChatHistory(
            lambda message, ms: self.statusBar().showMessage(message, ms),
            self._history_failed.emit,
        )
        self.last_comparison: tuple[list[dict[str, Any]], list[dict[str, Any]]] | None = None
        self._shut_down = False
        self._editing: tuple[PersonaPane, int] | None = None
        """(pane, turn index) of an earlier question being edited, until the next send."""
        from desktop.presenter import PresenterSignIn
        from desktop.settings import AppSettings

        self.text_zoom = AppSettings().text_zoom
        """Text zoom of chat, tool panel and strip (remembered in the UI settings)."""
        self._presenter = PresenterSignIn(self)
        self._presenter.finished.connect(self._presenter_signed_in)
        self._build_ui()
        self._history_failed.connect(lambda message: self.statusBar().showMessage(message, 15000))
        fit_to_screen(self, QSize(1280, 800))
        self._start_services()
        # Not needed for the first paint: open the history file right after it.
        self.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """After the window's first paint, open what the first frame did not need."""
        if watched is self and event.type() == QEvent.Type.Paint:
            self.removeEventFilter(self)
            QTimer.singleShot(0, self, self._after_first_paint)
        return super().eventFilter(watched, event)

    def _after_first_paint(self) -> None:
        if not self._shut_down:
            _ = self.history  # opens it

    # layout ------------------------------------------------------------------
    def _build_ui(self) -> None:
        toolbar = QToolBar(self.tr("Main"), self)
        toolbar.setObjectName("mainToolbar")
        toolbar.setMovable(False)
        self.addToolBar(toolbar)
        toolbar.addWidget(QLabel(self.tr(" Persona: "), self))
        self.persona_switcher = QComboBox(self)
        self.persona_switcher.setMinimumWidth(180)
        self.persona_switcher.setAccessibleName(self.tr("Persona switcher"))
        self.persona_switcher.currentIndexChanged.connect(self._switch_persona)
        toolbar.addWidget(self.persona_switcher)
        self.login_action = self._action(toolbar, self.tr("Sign in…"), self.open_login_dialog)
        toolbar.addSeparator()
        self.new_chat_action = self._action(toolbar, self.tr("New chat"), self.new_chat, "Ctrl+N")
        self.split_action = self._action(
            toolbar, self.tr("Split view"), self.toggle_split, "Ctrl+T"
        )
        self.split_action.setCheckable(True)
        self.present_action = self._action(
            toolbar, self.tr("Present: hong, park, cho"), self.present, "F5"
        )
        self.present_action.setToolTip(
            self.tr(
                "Sign in the demo personas hong, park and cho and compare them side by side,"
                " with persona cards (F5)"
            )
        )
        self.stop_action = self._action(toolbar, self.tr("Stop"), self.stop, "Esc")
        self.stop_action.setEnabled(False)
        toolbar.addSeparator()
        self.export_action = self._action(toolbar, self.tr("Export…"), self.export_current)
        self._action(toolbar, self.tr("Audit log"), self.open_audit_log)
        self._action(toolbar, self.tr("Access matrix"), self.open_matrix, "Ctrl+Shift+M")
        self._build_view_menu(toolbar)
        self._action(toolbar, self.tr("Settings"), self.open_settings)
        self._action(toolbar, self.tr("About"), self.open_about)
        QShortcut(QKeySequence("Ctrl+P"), self, self.focus_persona_switcher)

        self.single_stack = QStackedWidget(self)
        self.placeholder = SignInPlaceholder(self)
        self.placeholder.sign_in_requested.connect(self.open_login_dialog)
        self.placeholder.present_button.clicked.connect(lambda *_: self.present())
        self.placeholder_button = self.placeholder.button
        self.placeholder_status = self.placeholder.status
        self.single_stack.addWidget(self.placeholder)
        self.question_edit = QuestionEdit(self)
        self.question_edit.setFixedHeight(64)
        self.question_edit.set_prompt(self.tr("Ask a question"))
        self.question_edit.setAccessibleName(self.tr("Question"))
        self.question_edit.submitted.connect(self.send)
        self.send_button = QPushButton(self.tr("Send"), self)
        self.send_button.clicked.connect(self.send)
        quit_action = QAction(self.tr("Quit"), self)
        quit_action.setShortcut(QKeySequence("Ctrl+Q"))  # the platform may bind none (Windows)
        quit_action.setShortcutContext(Qt.ShortcutContext.ApplicationShortcut)
        quit_action.triggered.connect(self.close)
        self.addAction(quit_action)
        self.quit_action = quit_action
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(keys), self, self.send)
        ask_row = QHBoxLayout()
        ask_row.addWidget(self.question_edit, 1)
        ask_row.addWidget(self.send_button)
        chat_area = QWidget(self)
        chat_layout = QVBoxLayout(chat_area)
        chat_layout.setContentsMargins(4, 4, 4, 4)
        chat_layout.addWidget(self.single_stack, 1)
        chat_layout.addLayout(ask_row)
        self._sidebar: ConversationSidebar | None = None  # built at the first sign-in
        single = QSplitter(Qt.Orientation.Horizontal, self)
        single.addWidget(chat_area)
        self.single_splitter = single

        self._split_view: SplitCompareView | None = None  # built on first use (Ctrl+T)
        self.pages = QStackedWidget(self)
        self.single_page = single
        self.pages.addWidget(single)
        self.setCentralWidget(self.pages)

        self.status_label = QLabel(self.tr("Starting embedded platform and offline model…"), self)
        self.statusBar().addWidget(self.status_label, 1)
        self.connection_label = QLabel(self.tr("connecting"), self)
        self.statusBar().addPermanentWidget(self.connection_label)

    @property
    def split_view(self) -> SplitCompareView:
        """The split comparison (built on first use: the first paint does not need it)."""
        if self._split_view is None:
            from desktop.split_view import SplitCompareView

            view = SplitCompareView(self.sessions, self)
            view.all_finished.connect(self._comparison_ready)
            view.strip.export_requested.connect(self.export_comparison)
            view.pane_added.connect(self._wire_split_pane)
            view.pane_removed.connect(lambda *_: self._update_title())
            view.sign_in_requested.connect(self.open_login_dialog)
            view.show_cards(self.cards_action.isChecked())
            view.set_text_zoom(self.text_zoom)
            self.pages.addWidget(view)
            self._split_view = view
        return self._split_view

    def _in_split(self) -> bool:
        """True while the split comparison is the page in view."""
        return self._split_view is not None and self.pages.currentWidget() is self._split_view

    def _update_title(self) -> None:
        """Window title: who is asking (Qt adds " — RegDesk", the display name, itself)."""
        if self._in_split() and self.split_view.panes:
            who = ", ".join(p.persona for p in self.split_view.panes if p.persona)
            self.setWindowTitle(self.tr("Compare: {0}").format(who))
            return
        username = self.persona_switcher.currentData()
        if username:
            self.setWindowTitle(self.sessions.label(username))
        else:
            self.setWindowTitle(self.tr("RegDesk"))

    def _build_view_menu(self, toolbar: QToolBar) -> None:
        """View: persona cards and text zoom (window actions, so their keys work anywhere)."""
        menu = QMenu(self.tr("View"), self)
        self.cards_action = QAction(self.tr("Persona cards"), self)
        self.cards_action.setCheckable(True)
        self.cards_action.toggled.connect(self.show_persona_cards)
        menu.addAction(self.cards_action)
        menu.addSeparator()
        zooms = (
            ("zoom_in_action", self.tr("Larger text"), ("Ctrl+=", "Ctrl++"), 1),
            ("zoom_out_action", self.tr("Smaller text"), ("Ctrl+-",), -1),
            ("zoom_reset_action", self.tr("Actual text size"), ("Ctrl+0",), 0),
        )
        for name, text, keys, direction in zooms:
            action = QAction(text, self)
            action.setShortcuts([QKeySequence(k) for k in keys])
            action.triggered.connect(lambda *_, d=direction: self.zoom_text(d))
            menu.addAction(action)
            self.addAction(action)
            setattr(self, name, action)
        button = QToolButton(self)
        button.setText(self.tr("View"))
        button.setMenu(menu)
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        toolbar.addWidget(button)
        self.view_menu = menu

    def _action(
        self, toolbar: QToolBar, text: str, slot: Any, shortcut: str | None = None
    ) -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
            action.setToolTip(f"{text} ({shortcut})")
        action.triggered.connect(lambda *_: slot())
        toolbar.addAction(action)
        return action

    # services ----------------------------------------------------------------
    def _start_services(self) -> None:
        self._services_task = start_services(
            self.provider, self._on_services_ready, self._on_services_failed, owner=self
        )

    def _on_services_ready(self, endpoints: Endpoints) -> None:
        self.endpoints = endpoints
        backend = self.tr("embedded platform") if endpoints.embedded else self.tr("platform")
        self.status_label.setText(
            self.tr("{0} {1} · model: {2}").format(
                backend, endpoints.ontul_url, self._model_label()
            )
        )
        self.connection_label.setText(self.tr("connected"))
        self.placeholder_button.setEnabled(True)
        self.placeholder.present_button.setVisible(bool(demo_passwords(endpoints.ground_truth)))
        self.placeholder_status.setText(
            self.tr("Demo personas: hong (employee), park (manager), cho (HR officer).")
            if demo_passwords(endpoints.ground_truth)
            else ""
        )
        self.services_ready.emit(endpoints)
        if self.offer_login and not len(self.sessions):
            self.open_login_dialog()

    def _model_label(self) -> str:
        """The model's name for people, in the UI's language."""
        if self.endpoints is None:
            return ""
        if self.endpoints.offline_model:
            return self.tr("Offline demo model (deterministic, no LLM)")
        return self.endpoints.model_label

    def _on_services_failed(self, message: str) -> None:
        self.status_label.setText(self.tr("Could not start the services: {0}").format(message))
        self.connection_label.setText(self.tr("offline"))
        self.placeholder_status.setText(self.tr("The platform could not be started."))
        self.services_failed.emit(message)

    # sessions ------------------------------------------------------------------
    def login_persona(self, username: str, password: str) -> Any:
        """Log a persona in (blocking; for the headless driver and tests).

        Raises:
            AdminRefusedError, PlatformAuthError, PlatformNetworkError: from agent_core.
        """
        return self._login(self.endpoints.ontul_url if self.endpoints else "", username, password)

    def _login(self, server_url: str, username: str, password: str) -> Any:
        from agent_core.audit import default_audit_path
        from agent_core.session import PersonaSession

        if self.endpoints is None:
            raise RuntimeError(self.tr("The platform is not ready yet."))
        endpoints = self.endpoints
        if server_url and server_url.rstrip("/") != endpoints.ontul_url:
            endpoints = replace(endpoints, ontul_url=server_url.rstrip("/"))
        return PersonaSession.login(endpoints, username, password, audit_path=default_audit_path())

    def add_session(self, session: SessionLike) -> PersonaPane:
        """Show a logged-in persona: its own pane, history loaded, in the switcher."""
        username = session.username
        pane = self.panes.get(username)
        if pane is None:
            from desktop.persona_pane import PersonaPane  # the first login, not the first paint

            pane = PersonaPane(username, self)
            pane.approval_handler = self.approvals.ask
            pane.saver = self._chat_history.save
            pane.forget = self._chat_history.forget_turns
            pane.edit_requested.connect(self._edit_question)
            pane.export_turn_requested.connect(lambda i, p=pane: self.export_turn(p, i))
            pane.turn_started.connect(self._update_running)
            pane.turn_finished.connect(self._turn_finished)
            pane.turn_finished.connect(lambda *_: self.refresh_sidebar())
            pane.citation_clicked.connect(self.open_evidence)
            pane.suggestion_chosen.connect(self.ask_suggestion)
            pane.header.hide()  # the switcher already names the persona
            pane.show_card(self.cards_action.isChecked())
            if self.text_zoom != 1.0:
                pane.set_text_zoom(self.text_zoom)
            self.panes[username] = pane
            self.single_stack.addWidget(pane)
        pane.set_session(session)
        self.sessions.add(session)
        self._load_history(pane)
        self.refresh_sidebar()
        if self.persona_switcher.findData(username) < 0:
            self.persona_switcher.addItem(self.sessions.label(username), username)
        self.persona_switcher.setCurrentIndex(self.persona_switcher.findData(username))
        self.persona_logged_in.emit(username)
        return pane

    def open_login_dialog(self) -> Any:
        """Open the login dialog (non-modal); a session it produces is added."""
        if self.endpoints is None:
            return None
        from desktop.credentials import CredentialStore
        from desktop.login_dialog import LoginDialog

        if not hasattr(self, "_credentials"):
            self._credentials = CredentialStore()
        passwords = demo_passwords(self.endpoints.ground_truth)
        dialog = LoginDialog(
            self.endpoints.ontul_url,
            self._credentials,
            self._login,
            list(DEMO_PERSONAS) if passwords else [],
            self,
            demo_passwords=passwords,
            present=self.present if passwords else None,
        )
        dialog.accepted.connect(lambda: dialog.session and self.add_session(dialog.session))
        dialog.open()
        self.login_dialog = dialog
        return dialog

    def current_pane(self) -> PersonaPane | None:
        """The pane of the persona selected in the switcher."""
        widget = self.single_stack.currentWidget()
        return next((pane for pane in self.panes.values() if pane is widget), None)

    def _switch_persona(self, *_: object) -> None:
        username = self.persona_switcher.currentData()
        if username in self.panes:
            self.single_stack.setCurrentWidget(self.panes[username])
        self._update_running()
        self._update_title()
        self.refresh_sidebar()

    def focus_persona_switcher(self) -> None:
        """Ctrl+P: jump to the persona switcher."""
        self.persona_switcher.setFocus(Qt.FocusReason.ShortcutFocusReason)

    # turns -----------------------------------------------------------------------
    def ask_suggestion(self, question: str) -> None:
        """An example question picked on an empty chat: ask it."""
        self.question_edit.setPlainText(question)
        self.send()

    def send(self) -> bool:
        """Ask the current persona the question in the box."""
        if self._in_split():
            return self.split_view.ask_all()
        pane = self.current_pane()
        question = self.question_edit.toPlainText().strip()
        if not question:
            return False
        if pane is None:
            self._tell(self.tr("Nobody is signed in. Sign in first (Sign in… in the toolbar)."))
            return False
        if pane.running:
            self._tell(self.tr("Still answering the last question. Wait, or press Esc to stop it."))
            return False
        editing, self._editing = self._editing, None
        if editing is not None and editing[0] is pane and editing[1] < len(pane.turns):
            asked = pane.resend(editing[1], question)  # replaces that turn and the later ones
        else:
            asked = pane.ask(question, pane.history_pairs())
        if asked:
            self.question_edit.remember(question)
            self.question_edit.clear()
        return asked

    def _edit_question(self, question: str, index: int) -> None:
        """Edit and resend: the question goes back to the box; Send replaces that turn."""
        pane = self.sender()
        if not isinstance(pane, QWidget) or pane is not self.current_pane():
            return
        self._editing = (pane, index)
        self.question_edit.setText(question)
        self.question_edit.setFocus()
        self._tell(
            self.tr("Editing an earlier question: Send replaces it and the answers after it.")
        )

    def _edit_in_split(self, question: str) -> None:
        """In the split view, an edited question is asked of every pane again."""
        self.split_view.question.setText(question)
        self.split_view.question.setFocus()

    def _tell(self, message: str) -> None:
        """A short message in the status line (for a key press that did nothing)."""
        self.statusBar().showMessage(message, 8000)

    def stop(self) -> None:
        """Esc: stop every running turn in view."""
        if self._in_split():
            self.split_view.stop_all()
        elif (pane := self.current_pane()) is not None:
            pane.stop()

    def new_chat(self) -> None:
        """Ctrl+N: start a new conversation (the old one stays in the sidebar)."""
        if self._in_split():
            self.split_view.new_chat()
        elif (pane := self.current_pane()) is not None:
            pane.new_chat()
            if self._sidebar is not None:
                self._sidebar.select(None)
            self.question_edit.setFocus()

    # conversations -----------------------------------------------------------------
    @property
    def sidebar(self) -> ConversationSidebar:
        """The conversations of the persona in view (built when someone first signs in:
        before that there is nobody whose conversations it could list)."""
        if self._sidebar is None:
            from desktop.conversation_sidebar import ConversationSidebar

            sidebar = ConversationSidebar(self)
            sidebar.new_chat_requested.connect(self.new_chat)
            sidebar.conversation_chosen.connect(self.open_conversation)
            sidebar.rename_requested.connect(self._rename_conversation)
            sidebar.delete_requested.connect(self._delete_conversation)
            sidebar.search_changed.connect(lambda *_: self.refresh_sidebar())
            splitter = self.single_splitter
            splitter.insertWidget(0, sidebar)
            splitter.setStretchFactor(0, 0)
            splitter.setStretchFactor(1, 1)
            splitter.setSizes([230, max(400, splitter.width() - 230)])
            self._sidebar = sidebar
        return self._sidebar

    def refresh_sidebar(self) -> None:
        """List the current persona's conversations (or the search hits)."""
        pane = self.current_pane()
        if pane is None and self._sidebar is None:
            return
        store = self.history if pane is not None else None
        self.sidebar.setEnabled(pane is not None)
        if pane is None or store is None:
            self.sidebar.show_conversations([], None)
            return
        query = self.sidebar.query()
        if query:
            self.sidebar.show_hits(store.search(pane.persona, query))
        else:
            self.sidebar.show_conversations(store.conversations(pane.persona), pane.conversation_id)

    def open_conversation(self, conversation_id: int) -> None:
        """Show a saved conversation of the current persona."""
        pane = self.current_pane()
        if pane is None:
            return
        if pane.running:
            self._tell(self.tr("Still answering the last question. Wait, or press Esc to stop it."))
            return
        self._chat_history.open_conversation(pane, conversation_id)
        self.sidebar.select(conversation_id)

    def _rename_conversation(self, conversation_id: int, title: str) -> None:
        if self.history is not None:
            try:
                self.history.rename_conversation(conversation_id, title)
            except Exception as exc:  # HistoryWriteError: said in the status line
                self._tell(str(exc))
        self.refresh_sidebar()

    def _delete_conversation(self, conversation_id: int) -> None:
        from PySide6.QtWidgets import QMessageBox

        answer = QMessageBox.question(
            self,
            self.tr("Delete conversation"),
            self.tr("Delete this conversation and its answers? This cannot be undone."),
        )
        if answer != QMessageBox.StandardButton.Yes or self.history is None:
            return
        try:
            self.history.delete_conversation(conversation_id)
        except Exception as exc:
            self._tell(str(exc))
        for pane in self.panes.values():
            if pane.conversation_id == conversation_id and not pane.running:
                pane.new_chat()
        self.refresh_sidebar()

    # presenter mode and text zoom ------------------------------------------------
    def present(self) -> bool:
        """F5: sign in hong, park and cho at once and compare them side by side, with cards.

        The passwords come from the demo organisation, as for the login dialog's demo
        buttons; personas already signed in are kept (not signed in again).

        Returns:
            False when presenter mode cannot start (services not ready, no demo
            organisation, a turn running, a presenter sign-in already under way).
        """
        if self.endpoints is None:
            self._tell(self.tr("The platform is not ready yet."))
            return False
        passwords = demo_passwords(self.endpoints.ground_truth)
        missing = [u for u in DEMO_PERSONAS if u not in passwords]
        if missing:
            self._tell(
                self.tr("Presenter mode needs the demo organisation (no password for {0}).").format(
                    ", ".join(missing)
                )
            )
            return False
        if self._any_running():
            self._tell(self.tr("Still answering the last question. Wait, or press Esc to stop it."))
            return False
        wanted = [(u, passwords[u]) for u in DEMO_PERSONAS if self.sessions.get(u) is None]
        if not wanted:
            self._show_presentation()
            return True
        if not self._presenter.start(self.login_persona, wanted):
            return False
        self.present_action.setEnabled(False)
        self._tell(self.tr("Signing in {0}…").format(", ".join(u for u, _ in wanted)))
        return True

    def _presenter_signed_in(self, sessions: list[Any], failures: list[Any]) -> None:
        self.present_action.setEnabled(True)
        if self._shut_down:
            for session in sessions:
                getattr(session, "close", lambda: None)()
            return
        for session in sessions:
            self.add_session(session)
        if failures:
            from desktop.login_dialog import describe_login_error

            url = self.endpoints.ontul_url if self.endpoints else ""
            username, error = failures[0]
            self._tell(
                self.tr("Could not sign {0} in: {1}").format(
                    username, describe_login_error(error, url)
                )
            )
            return
        self._show_presentation()

    def _show_presentation(self) -> None:
        self.cards_action.setChecked(True)
        self.toggle_split(True)
        if self.split_view.set_personas(list(DEMO_PERSONAS)):
            self._update_title()
            self._tell(self.tr("Presenter mode: ask one question of hong, park and cho above."))

    def show_persona_cards(self, on: bool) -> None:
        """View ▸ Persona cards: each pane's header card, single and split view."""
        for pane in self.panes.values():
            pane.show_card(on)
        if self._split_view is not None:
            self._split_view.show_cards(on)

    def zoom_text(self, direction: int) -> float:
        """Ctrl+= / Ctrl+- / Ctrl+0: text of chat, tool panel and strip one step larger,
        smaller, or back to the UI's size; remembered for the next start."""
        from desktop.text_zoom import step_zoom

        self.set_text_zoom(step_zoom(self.text_zoom, direction))
        self._tell(self.tr("Text size {0}%").format(round(self.text_zoom * 100)))
        return self.text_zoom

    def set_text_zoom(self, factor: float, remember: bool = True) -> None:
        """Scale the text of every pane and the strip (``remember``: for the next start)."""
        from desktop.settings import AppSettings
        from desktop.text_zoom import clamp_zoom

        self.text_zoom = clamp_zoom(factor)
        for pane in self.panes.values():
            pane.set_text_zoom(self.text_zoom)
        if self._split_view is not None:
            self._split_view.set_text_zoom(self.text_zoom)
        if remember:
            settings = AppSettings()
            settings.text_zoom = self.text_zoom
            settings.sync()

    def toggle_split(self, on: bool | None = None) -> None:
        """Ctrl+T: switch between one persona and the split comparison."""
        on = not self._in_split() if on is None else on
        self.split_action.setChecked(on)
        if on and not self.split_view.panes:
            for username in self.sessions.usernames()[:2] or [""]:
                self.split_view.add_pane(username)
            if len(self.split_view.panes) < 2:
                self.split_view.add_pane()
        self.pages.setCurrentWidget(self.split_view if on else self.single_page)
        (self.split_view.question if on else self.question_edit).setFocus()
        self._update_running()
        self._update_title()

    def _wire_split_pane(self, pane: PersonaPane) -> None:
        """Connect a new split pane to approvals, citations and Stop, exactly once.

        Panes from "Add pane" were never connected before (their citations did
        nothing), and every login connected the others again (two evidence windows).
        """
        pane.approval_handler = self.approvals.ask
        pane.saver = self._chat_history.save
        pane.forget = self._chat_history.forget_turns
        pane.export_turn_requested.connect(lambda i, p=pane: self.export_turn(p, i))
        pane.edit_requested.connect(lambda q, _i: self._edit_in_split(q))
        pane.citation_clicked.connect(self.open_evidence)
        pane.turn_started.connect(self._update_running)
        pane.turn_finished.connect(self._turn_finished)
        split = next((s for s in self.split_view.split_panes if s.pane is pane), None)
        if split is not None:  # a pane's persona changed: the title names the new one
            split.persona_box.currentIndexChanged.connect(lambda *_: self._update_title())

    def all_panes(self) -> list[PersonaPane]:
        """Every pane, single and split."""
        split = self._split_view.panes if self._split_view is not None else []
        return [*self.panes.values(), *split]

    def _any_running(self) -> bool:
        return any(pane.running for pane in self.all_panes())

    def _update_running(self, *_: object) -> None:
        self.stop_action.setEnabled(self._any_running())
        pane = self.current_pane()
        self.send_button.setEnabled(pane is None or not pane.running)
        if self._split_view is not None:
            self._split_view.ask_button.setEnabled(not self._split_view.running)

    def _turn_finished(self, *_: object) -> None:
        self._update_running()
        if not self._any_running():
            # the window as context: never runs once the window is gone
            QTimer.singleShot(0, self, self._collect_garbage)

    def _collect_garbage(self) -> None:
        """Full garbage collection after a finished turn, while no other turn runs.

        Each turn leaves cyclic garbage (the SDK's per-stream pydantic classes, parsed
        SQL trees) that CPython's thresholds would keep for thousands of turns. After
        the first finished turn of the process, the ~200k long-lived objects of the
        services, the SDK and Qt are frozen out of the collector (once: the heap is
        shared by every window), so each later collection costs a few ms. Logging in,
        switching personas and toggling the split view never collect.
        """
        global _gc_frozen
        if self._any_running():
            return  # a turn started meanwhile; its end collects
        gc.collect()
        if not _gc_frozen:
            gc.freeze()
            _gc_frozen = True

    # approvals -------------------------------------------------------------------
    @property
    def approval_dialogs(self) -> list[Any]:
        """Approval dialogs open now, oldest first."""
        return self.approvals.dialogs

    @property
    def auto_approval(self) -> ApprovalDecision | None:
        """When set, every approval request gets this answer without a dialog."""
        return self.approvals.auto_approval

    @auto_approval.setter
    def auto_approval(self, decision: ApprovalDecision | None) -> None:
        self.approvals.auto_approval = decision

    # history -----------------------------------------------------------------------
    @property
    def history(self) -> Any:
        """The ``HistoryStore`` (opened on first use or right after the first paint)."""
        return self._chat_history.store

    @history.setter
    def history(self, store: Any) -> None:
        self._chat_history.store = store

    def _load_history(self, pane: PersonaPane) -> None:
        self._chat_history.load_into(pane)

    # export, evidence and dialogs ---------------------------------------------------
    def _comparison_ready(self, panes: list[dict[str, Any]], differences: list[Any]) -> None:
        self.last_comparison = (panes, differences)

    def export_current(self) -> None:
        """Export the comparison (split) or the current persona's conversation."""
        if self._in_split():
            self.export_comparison()
            return
        pane = self.current_pane()
        store = self.history
        records = (
            store.conversation_turns(pane.conversation_id)
            if pane is not None and pane.conversation_id and store is not None
            else []
        )
        if pane is None or not records:
            self._tell(self.tr("Nothing to export yet: ask a question first."))
            return
        from desktop.export import conversation_to_json, conversation_to_markdown

        titles = {c.id: c.title for c in store.conversations(pane.persona)}
        title = titles.get(pane.conversation_id, records[0].question)
        self._save_export(
            (title, records), conversation_to_markdown, conversation_to_json, "conversation"
        )

    def export_turn(self, pane: PersonaPane, index: int) -> None:
        """Export one turn of a pane's conversation (the chat's context menu)."""
        turn = pane.turns[index] if 0 <= index < len(pane.turns) else None
        store = self.history
        if turn is None or turn.turn_id is None or store is None:
            self._tell(self.tr("This turn is not saved, so it cannot be exported."))
            return
        from desktop.export import turn_to_json, turn_to_markdown

        record = next((r for r in store.turns(pane.persona, 100000) if r.id == turn.turn_id), None)
        if record is not None:
            self._save_export(record, turn_to_markdown, turn_to_json, "turn")

    def export_comparison(self) -> None:
        """Save the last comparison as Markdown or JSON."""
        if self.last_comparison is None:
            self._tell(self.tr("Nothing to compare yet: ask all panes a question first."))
            return
        from desktop.export import comparison_to_json, comparison_to_markdown

        panes, differences = self.last_comparison
        self._save_export(
            (panes, differences),
            lambda c: comparison_to_markdown(*c),
            lambda c: comparison_to_json(*c),
            "comparison",
        )

    def _save_export(self, item: Any, to_markdown: Any, to_json: Any, stem: str) -> None:
        from desktop.export_actions import save_export

        path = save_export(self, item, to_markdown, to_json, stem)
        if path is not None:
            self._tell(self.tr("Exported to {0}").format(path))

    def open_evidence(self, doc_no: str, version: int | None) -> None:
        """Show the cited document and version (fetched as the pane's persona)."""
        pane = self.sender()
        session = getattr(pane, "session", None) or next(iter(self.sessions), None)
        if session is None:
            return
        from desktop.evidence_view import EvidenceDialog

        search_hits = getattr(pane, "search_hits", None)
        hits = search_hits() if callable(search_hits) else []
        dialog = EvidenceDialog(session, doc_no, version, self, hits=hits)
        dialog.open()
        self.evidence_dialog = dialog

    def open_audit_log(self) -> None:
        """Show the local audit log."""
        from agent_core.audit import default_audit_path
        from desktop.audit_view import AuditLogDialog

        AuditLogDialog(default_audit_path(), self).open()

    def open_matrix(self) -> None:
        """Open the access matrix for the signed-in personas (one window, reused)."""
        from desktop.matrix_view import MatrixView

        if getattr(self, "matrix_view", None) is None:
            self.matrix_view = MatrixView(self.sessions, self)
        self.matrix_view.show()
        self.matrix_view.raise_()

    def open_settings(self) -> None:
        """Open the settings dialog."""
        from desktop.credentials import CredentialStore
        from desktop.settings import AppSettings
        from desktop.settings_dialog import SettingsDialog

        if not hasattr(self, "_credentials"):
            self._credentials = CredentialStore()
        settings = AppSettings()
        dialog = SettingsDialog(settings, self._credentials, self)
        dialog.accepted.connect(lambda: self.apply_look(settings.theme, settings.enter_sends))
        dialog.open()
        self.settings_dialog = dialog

    def apply_look(self, theme: str, enter_sends: bool = True) -> None:
        """Apply a theme and the Enter key's meaning now (Settings' OK): no restart needed."""
        from PySide6.QtWidgets import QApplication

        from desktop.question_edit import apply_enter_sends
        from desktop.theme import apply_theme

        apply_enter_sends(enter_sends)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, theme)

    def open_about(self) -> None:
        """Open the about box."""
        from desktop.about_dialog import AboutDialog
        from desktop.launcher import app_version

        url = self.endpoints.ontul_url if self.endpoints else ""
        label = self._model_label()
        AboutDialog(app_version(), url, label, self).open()

    # closing -------------------------------------------------------------------------
    def shutdown(self) -> None:
        """Cancel running turns, answer open approvals, wait for every thread."""
        if self._shut_down:
            return
        self._shut_down = True
        self._chat_history.may_open = False
        self.approvals.reject_all()
        if getattr(self, "matrix_view", None) is not None:
            self.matrix_view.shutdown()
        for pane in self.all_panes():
            pane.stop()
        for pane in self.all_panes():
            pane.shutdown()
        self._services_task.wait(30)
        evidence = getattr(self, "evidence_dialog", None)
        if evidence is not None:
            evidence.wait_fetched()  # it asks through a session closed below
        # Any other job (a sign-in attempt, an earlier evidence fetch) may still use a
        # session or client closed below: let it end (bounded), then deliver what it
        # left, so a late session is released by its on_orphaned.
        wait_for_tasks(10)
        deliver_pending()
        for session in self.sessions:
            close = getattr(session, "close", None)
            if close is not None:
                close()
        self._chat_history.close()  # waits for the turns being written
        for pane in self.all_panes():
            # their "saved" notices are queued: deliver them, so each turn ends reported
            QCoreApplication.sendPostedEvents(pane, QEvent.Type.MetaCall)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Closing with turns running cancels them and waits for their threads."""
        self.shutdown()
        super().closeEvent(event)
