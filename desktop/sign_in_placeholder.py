"""What the window shows before anyone signs in: what to do, and the button to do it."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget


class SignInPlaceholder(QWidget):
    """No persona yet: explains personas and offers to sign in once services are up.

    Its strings keep the ``MainWindow`` translation context they were written in.
    """

    sign_in_requested = Signal()
    """The user pressed "Sign in…"."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setSpacing(10)
        layout.addStretch(1)
        title = QLabel(QCoreApplication.translate("MainWindow", "Nobody is signed in yet"), self)
        title.setStyleSheet("font-size: 16pt; font-weight: 600;")
        text = QLabel(
            QCoreApplication.translate(
                "MainWindow",
                "RegDesk answers as the persona you sign in as: each sees only what the"
                " platform allows that person. Sign in as one persona to ask, or as"
                " several to compare their answers side by side (Ctrl+T).",
            ),
            self,
        )
        text.setWordWrap(True)
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        # a fixed width lets the layout ask the label for its wrapped height (a width
        # from the size hint alone clipped the second and third lines)
        text.setFixedWidth(520)
        text.setMinimumHeight(text.heightForWidth(520))
        self.button = QPushButton(QCoreApplication.translate("MainWindow", "Sign in…"), self)
        """Opens the login dialog; enabled once the platform is up."""
        self.button.setDefault(True)
        self.button.clicked.connect(lambda *_: self.sign_in_requested.emit())
        self.button.setEnabled(False)
        self.present_button = QPushButton(
            QCoreApplication.translate("MainWindow", "Present: hong, park, cho"), self
        )
        """Presenter mode (F5); shown once the demo organisation is known to be there."""
        self.present_button.setToolTip(
            QCoreApplication.translate(
                "MainWindow",
                "Sign in the demo personas hong, park and cho and compare them side by side,"
                " with persona cards (F5)",
            )
        )
        self.present_button.hide()
        self.status = QLabel(
            QCoreApplication.translate("MainWindow", "Starting the platform…"), self
        )
        """How the platform start-up is going (or the demo personas, once it is up)."""
        self.status.setEnabled(False)
        for widget in (title, text, self.button, self.present_button, self.status):
            layout.addWidget(widget, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(2)
