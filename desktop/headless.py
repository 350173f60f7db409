"""The headless driver: the real main window, offscreen, asked from the command line.

``regdesk gui --offscreen --split hong,cho --ask Q [--screenshot F.png] [--json] [--approve]``
opens the window in split mode, logs the personas in with the demo passwords,
asks every pane at once, waits for them all (writes denied unless
``--approve``), grabs a screenshot and prints what each pane answered. With
``--json`` each pane also gives ``displayed_text``: exactly what its chat shows
for the last answer, as plain text (so a check can see how it was rendered).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QEventLoop,
    QMessageLogContext,
    QTimer,
    QtMsgType,
    qFormatLogMessage,
    qInstallMessageHandler,
)

from agent_core.approval import ApprovalDecision

if TYPE_CHECKING:
    from desktop.main_window import MainWindow
    from desktop.services import ServiceProvider


OFFSCREEN_NOISE = "This plugin does not support propagateSizeHints()"
"""What the offscreen platform plugin says for every window shown (and nothing else)."""

MessageHandler = Callable[[QtMsgType, QMessageLogContext, str], None]


def quiet_offscreen_plugin() -> Callable[[], None]:
    """Drop the offscreen plugin's ``propagateSizeHints()`` warning; forward the rest.

    Every other Qt message goes to the handler installed before (or to stderr
    in Qt's own format when there was none).

    Returns:
        A function that puts the previous handler back.
    """
    previous: MessageHandler | None = None

    def handler(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
        if kind == QtMsgType.QtWarningMsg and message == OFFSCREEN_NOISE:
            return
        if previous is not None:
            previous(kind, context, message)
        else:
            sys.stderr.write(qFormatLogMessage(kind, context, message) + "\n")

    previous = qInstallMessageHandler(handler)

    def restore() -> None:
        qInstallMessageHandler(previous)

    return restore


def gui_parser() -> argparse.ArgumentParser:
    """The options of ``regdesk gui`` (the window, or with ``--offscreen`` its headless driver)."""
    parser = argparse.ArgumentParser(
        prog="regdesk gui",
        description=(
            "Open the RegDesk window. With --offscreen, run the headless driver instead: "
            "sign the personas in, ask, wait, and print the answers (or JSON) and a screenshot."
        ),
        epilog=(
            "Without --offscreen the window needs a display (DISPLAY or WAYLAND_DISPLAY). "
            "REGDESK_DATA_DIR keeps history, audit log and UI settings in one directory."
        ),
    )
    parser.add_argument("--offscreen", action="store_true", help="no visible window")
    parser.add_argument("--split", default="", help="comma-separated personas, e.g. hong,cho")
    parser.add_argument("--as", dest="persona", default="", help="one persona, single view")
    parser.add_argument("--ask", default="", help="the question")
    parser.add_argument("--screenshot", type=Path, default=None, help="write a PNG here")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--approve", action="store_true", help="approve writes (default deny)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds to wait in all")
    parser.add_argument("--size", default="1400x860", help="window size WxH")
    parser.add_argument(
        "--tool-detail", type=Path, default=None, help="also grab the tool panel (search call)"
    )
    parser.add_argument(
        "--evidence", type=Path, default=None, help="also open the first citation and grab it"
    )
    parser.add_argument("--lang", default="", help="UI language for this run: en or ko")
    parser.add_argument("--theme", default="", help="light or dark for this run")
    parser.add_argument(
        "--present",
        action="store_true",
        help="presenter mode (F5): hong, park and cho side by side, with persona cards",
    )
    parser.add_argument("--cards", action="store_true", help="show persona cards")
    parser.add_argument("--zoom", type=float, default=0.0, help="text zoom for this run, e.g. 1.25")
    return parser


def parse_gui_args(argv: list[str]) -> argparse.Namespace:
    """Options of ``regdesk gui`` in headless mode.

    Args:
        argv: Arguments after ``gui`` (``--offscreen`` already removed or not).

    Returns:
        The parsed options.
    """
    return gui_parser().parse_args(argv)


def _wait(condition: Any, timeout_s: float) -> bool:
    """Spin the event loop until ``condition()`` or the timeout."""
    loop = QEventLoop()
    timer = QTimer()
    timer.setInterval(20)

    def check() -> None:
        if condition():
            loop.quit()

    timer.timeout.connect(check)
    deadline = QTimer()
    deadline.setSingleShot(True)
    deadline.timeout.connect(loop.quit)
    timer.start()
    deadline.start(int(timeout_s * 1000))
    if not condition():
        loop.exec()
    timer.stop()
    deadline.stop()
    return bool(condition())


def drive(window: MainWindow, options: argparse.Namespace) -> dict[str, Any]:
    """Log in, ask, wait, screenshot; return the results.

    Args:
        window: A main window created with ``offer_login=False``.
        options: From :func:`parse_gui_args`.

    Returns:
        ``{"panes": [...], "differences": [...], "screenshot": path or None}``.
    """
    from desktop.demo_personas import DEMO_PERSONAS, demo_passwords
    from desktop.split_view import result_dict

    if not _wait(lambda: window.endpoints is not None, options.timeout):
        raise RuntimeError("the services did not start in time")
    assert window.endpoints is not None
    passwords = demo_passwords(window.endpoints.ground_truth)
    present = bool(getattr(options, "present", False))
    if present:
        options.split = ",".join(DEMO_PERSONAS)
    personas = [p for p in options.split.split(",") if p] or [options.persona or "hong"]
    if getattr(options, "zoom", 0.0):
        window.set_text_zoom(options.zoom, remember=False)
    if getattr(options, "cards", False):
        window.cards_action.setChecked(True)
    if present:
        if not window.present() or not _wait(
            lambda: window._in_split() and [p.persona for p in window.split_view.panes] == personas,
            options.timeout,
        ):
            raise RuntimeError(
                "presenter mode did not start: " + window.statusBar().currentMessage()
            )
    for persona in personas if not present else []:
        if persona not in passwords:
            raise RuntimeError(f"no demo password for {persona!r} (is the platform embedded?)")
        window.add_session(window.login_persona(persona, passwords[persona]))
    window.auto_approval = (
        ApprovalDecision(True, "approved with --approve")
        if options.approve
        else ApprovalDecision(False, "denied by the headless driver (no --approve)")
    )
    split = bool(options.split)
    if split and not present:
        window.toggle_split(True)
        for pane, persona in zip(window.split_view.panes, personas, strict=False):
            split_pane = next(s for s in window.split_view.split_panes if s.pane is pane)
            split_pane.persona_box.setCurrentIndex(split_pane.persona_box.findData(persona))
        while len(window.split_view.panes) < len(personas):
            window.split_view.add_pane(personas[len(window.split_view.panes)])
    if split:
        panes = window.split_view.panes
    else:
        window.persona_switcher.setCurrentIndex(window.persona_switcher.findData(personas[0]))
        panes = [window.panes[personas[0]]]
    results: list[dict[str, Any]] = []
    differences: list[dict[str, Any]] = []
    if options.ask:
        if split:
            window.split_view.ask_all(options.ask)
        else:
            window.question_edit.setPlainText(options.ask)
            window.send()
        if not _wait(lambda: not any(p.running for p in panes), options.timeout):
            for pane in panes:
                pane.stop()
            _wait(lambda: not any(p.running for p in panes), 5.0)
        results = [
            {**result_dict(p.last_result), "displayed_text": p.displayed_text()}
            for p in panes
            if p.last_result is not None
        ]
        if split and window.last_comparison is not None:
            differences = window.last_comparison[1]
    for pane in panes if not present else []:  # one result expanded, as a person would
        if pane.tools.rowCount():
            pane.tool_panel.table.selectRow(pane.tools.rowCount() - 1)
    _wait(lambda: False, 0.1)  # let the last flush paint
    screenshot = None
    if options.screenshot is not None:
        options.screenshot.parent.mkdir(parents=True, exist_ok=True)
        window.grab().save(str(options.screenshot))
        screenshot = str(options.screenshot)
    output: dict[str, Any] = {
        "panes": results,
        "differences": differences,
        "screenshot": screenshot,
    }
    if options.tool_detail is not None and panes:
        output["tool_detail"] = _grab_tool_detail(panes[0], options.tool_detail)
    if options.evidence is not None and panes:
        output["evidence"] = _grab_evidence(window, panes[0], options.evidence, options.timeout)
    return output


def _grab_tool_detail(pane: Any, path: Path) -> str:
    """Select the pane's first search call (else its last call) and grab its tool panel."""
    calls = pane.tools.calls
    position = next(
        (i for i, c in enumerate(calls) if c.tool == "search_regulations" and c.row_count),
        len(calls) - 1,
    )
    if position >= 0:
        pane.tool_panel.table.selectRow(position)
    panel = pane.tool_panel
    total = sum(pane.splitter.sizes())
    pane.splitter.setSizes([total - 760, 760])  # give the panel room, as a person would
    _wait(lambda: False, 0.1)
    path.parent.mkdir(parents=True, exist_ok=True)
    panel.grab().save(str(path))
    return str(path)


def _grab_evidence(window: Any, pane: Any, path: Path, timeout_s: float) -> str | None:
    """Open the first citation of the pane's last answer as that persona and grab it."""
    from desktop.evidence_view import EvidenceDialog

    result = pane.last_result
    citations = [
        c
        for e in (result.events if result is not None else [])
        if e.get("kind") == "answer_finished"
        for c in e.get("citations") or []
    ]
    if not citations:
        return None
    cited = citations[0]
    dialog = EvidenceDialog(
        pane.session, cited["doc_no"], cited.get("version"), window, hits=pane.search_hits()
    )
    loaded: list[bool] = []
    dialog.loaded.connect(lambda: loaded.append(True))
    dialog.show()
    _wait(lambda: bool(loaded), timeout_s)
    _wait(lambda: False, 0.1)
    path.parent.mkdir(parents=True, exist_ok=True)
    dialog.grab().save(str(path))
    dialog.wait_fetched()
    dialog.close()
    return str(path)


def run_headless(provider: ServiceProvider, args: list[str]) -> int:
    """Run the headless driver (``regdesk gui --offscreen …``).

    Args:
        provider: Starts the services.
        args: Options for :func:`parse_gui_args`.

    Returns:
        0 when every pane answered, 1 otherwise.
    """
    options = parse_gui_args(args)
    from desktop.app import ensure_app
    from desktop.main_window import MainWindow

    quiet_offscreen_plugin()
    app = ensure_app([])
    if options.lang:
        from desktop.i18n import install_translator

        install_translator(app, options.lang)
        from desktop.fonts import apply_ui_font
        from desktop.i18n import resolve_language

        apply_ui_font(app, resolve_language(options.lang))
    if options.theme:
        from desktop.theme import apply_theme

        apply_theme(app, options.theme)
    width, _, height = options.size.partition("x")
    window = MainWindow(provider, offer_login=False)
    window.resize(int(width), int(height))
    window.show()
    try:
        output = drive(window, options)
    except Exception as exc:
        sys.stderr.write(f"regdesk gui: {exc}\n")
        return 1
    finally:
        window.shutdown()
        window.close()
        provider.stop()
    if options.json:
        from desktop.bundled_font import font_report

        output["font"] = font_report(app.font(), [p["answer"] for p in output["panes"]])
        sys.stdout.write(json.dumps(output, ensure_ascii=False, indent=2) + "\n")
    else:
        for pane in output["panes"]:
            sys.stdout.write(
                f"== {pane['persona']} ({pane['elapsed_ms']:.0f} ms)\n{pane['answer']}\n\n"
            )
        if output["screenshot"]:
            sys.stdout.write(f"screenshot: {output['screenshot']}\n")
    answered = all(p["status"] == "answered" for p in output["panes"])
    return 0 if output["panes"] and answered else 1
