"""Start the embedded platform and offline model in this process, on loopback."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from embedded.model.server import ModelServer
from embedded.ontul.demo_org import build_demo_database
from embedded.ontul.server import OntulServer

DB_NAME = "demo.sqlite"
GROUND_TRUTH_NAME = "ground_truth.json"


@dataclass
class EmbeddedServices:
    """Running embedded services; call ``stop()`` when done."""

    ontul: OntulServer | None
    """The platform, unless only the model was asked for."""
    model: ModelServer | None
    """The offline model, unless only the platform was asked for."""
    ground_truth: dict[str, Any] | None
    """The demo organisation's facts (None without the platform)."""
    db_path: Path | None
    """The platform's SQLite database."""
    _scratch: Path | None = field(default=None, repr=False)

    @property
    def ontul_url(self) -> str | None:
        """Base URL of the platform, or None."""
        return self.ontul.url if self.ontul else None

    @property
    def model_url(self) -> str | None:
        """Base URL of the offline model (an Anthropic ``base_url``), or None."""
        return self.model.url if self.model else None

    def stop(self) -> None:
        """Stop both services and remove a scratch database directory."""
        if self.model is not None:
            self.model.stop()
        if self.ontul is not None:
            self.ontul.stop()
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)


def prepare_demo_database(data_dir: Path, today: date) -> tuple[Path, dict[str, Any]]:
    """Build the demo database in ``data_dir`` unless one for ``today`` is there.

    The approved future version of the childcare rule is dated relative to the
    server's clock, so a database built on another day is rebuilt.

    Args:
        data_dir: Writable directory for the database and ground truth.
        today: The platform's date.

    Returns:
        The database path and the ground truth.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    db_path = data_dir / DB_NAME
    truth_path = data_dir / GROUND_TRUTH_NAME
    if db_path.exists() and truth_path.exists():
        truth: dict[str, Any] = json.loads(truth_path.read_text(encoding="utf-8"))
        if truth.get("today") == today.isoformat():
            return db_path, truth
    for stale in (
        db_path,
        truth_path,
        data_dir / (DB_NAME + "-wal"),
        data_dir / (DB_NAME + "-shm"),
    ):
        stale.unlink(missing_ok=True)
    return db_path, build_demo_database(db_path, today)


def platform_today() -> date:
    """The platform's date: ``ONTUL_TODAY`` (ISO) if set, else today."""
    configured = os.environ.get("ONTUL_TODAY")
    return date.fromisoformat(configured) if configured else date.today()


def start_embedded(
    *,
    today: date | None = None,
    token_ttl_s: int | None = None,
    model_pace_s: float | None = None,
    data_dir: Path | None = None,
    host: str = "127.0.0.1",
    ontul_port: int = 0,
    model_port: int = 0,
    platform: bool = True,
    model: bool = True,
) -> EmbeddedServices:
    """Start the embedded services on free loopback ports (or the given ones).

    Args:
        today: The platform's date; default ``platform_today()``.
        token_ttl_s: Access-token lifetime; default ``ONTUL_TOKEN_TTL_S`` or 900.
        model_pace_s: Pause between streamed chunks; default ``REGDESK_MODEL_PACE_MS``/1000 or 0.
        data_dir: Where the database lives; default a scratch directory removed on stop.
        host: Interface to bind (loopback unless told otherwise).
        ontul_port: Platform port, 0 for a free one.
        model_port: Model port, 0 for a free one.
        platform: Start the platform.
        model: Start the offline model.

    Returns:
        The running services.
    """
    today = today or platform_today()
    if token_ttl_s is None:
        token_ttl_s = int(os.environ.get("ONTUL_TOKEN_TTL_S", "900"))
    if model_pace_s is None:
        model_pace_s = float(os.environ.get("REGDESK_MODEL_PACE_MS", "0")) / 1000.0
    scratch: Path | None = None
    ontul: OntulServer | None = None
    truth: dict[str, Any] | None = None
    db_path: Path | None = None
    if platform:
        if data_dir is None:
            scratch = Path(tempfile.mkdtemp(prefix="regdesk-ontul-"))
            data_dir = scratch
        db_path, truth = prepare_demo_database(data_dir, today)
        ontul = OntulServer(
            db_path, host=host, port=ontul_port, token_ttl_s=token_ttl_s, today=today
        ).start()
    model_server: ModelServer | None = None
    if model:
        try:
            model_server = ModelServer(host=host, port=model_port, pace_s=model_pace_s).start()
        except BaseException:
            if ontul is not None:
                ontul.stop()
            raise
    return EmbeddedServices(ontul, model_server, truth, db_path, _scratch=scratch)
