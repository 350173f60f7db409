"""The real main window on freshly started embedded services, for GUI benchmarks."""

from __future__ import annotations

from typing import Any


def open_window(pace_s: float, personas: tuple[str, ...] = ()) -> tuple[Any, Any]:
    """Start the embedded services, show a MainWindow and sign the personas in.

    Args:
        pace_s: Pause between the offline model's streamed chunks.
        personas: Demo personas to sign in, in order.

    Returns:
        ``(services, window)``; the caller shuts the window and stops the services.
    """
    from PySide6.QtCore import QEventLoop

    from agent_core.config import OFFLINE_MODEL_NAME, Endpoints
    from desktop.app import ensure_app
    from desktop.demo_personas import demo_passwords
    from desktop.main_window import MainWindow
    from desktop.services import FixedEndpoints
    from embedded.launcher import start_embedded

    ensure_app([])
    services = start_embedded(model_pace_s=pace_s)
    endpoints = Endpoints(
        str(services.ontul_url),
        services.model_url,
        "offline",
        OFFLINE_MODEL_NAME,
        True,
        services.ground_truth,
    )
    window = MainWindow(FixedEndpoints(endpoints), offer_login=False)
    window.show()
    if window.endpoints is None:
        ready = QEventLoop()
        window.services_ready.connect(lambda *_: ready.quit())
        if window.endpoints is None:
            ready.exec()
    passwords = demo_passwords(services.ground_truth)
    for persona in personas:
        window.add_session(window.login_persona(persona, passwords[persona]))
    return services, window
