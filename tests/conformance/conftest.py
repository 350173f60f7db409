"""Conformance fixtures: the reference client against the embedded services.

The reference client (``../shared/reference-client/src/regdemo_agent``) is the
Ontul demo's own agent, written against a real Ontul and real Claude. It is
imported from ``../shared`` at test time and never copied into the project. The
platform and the offline model run for real on 127.0.0.1, once per quirk mode:
``ONTUL_QUIRKS`` unset and ``ONTUL_QUIRKS=real``.
"""

from __future__ import annotations

import inspect
import os
import shutil
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from collections.abc import Iterator
    from types import ModuleType

REPO_ROOT = Path(__file__).resolve().parents[2]
REFERENCE_SRC = REPO_ROOT.parent / "shared" / "reference-client" / "src"
PERSONAS = ("hong", "park", "cho")
QUIRK_MODES = (None, "real")
"""``ONTUL_QUIRKS`` values the platform runs with: unset, and the real platform's quirks."""


def quirk_id(mode: str | None) -> str:
    """Test id of a quirk mode."""
    return "quirks-unset" if mode is None else f"quirks-{mode}"


def _import_reference() -> ModuleType:
    if not (REFERENCE_SRC / "regdemo_agent" / "__init__.py").is_file():
        pytest.fail(
            f"the reference client is missing: expected it at {REFERENCE_SRC} "
            "(../shared/reference-client/src beside the repository; CI has it). "
            "It is imported from there, never copied into the project.",
            pytrace=False,
        )
    if str(REFERENCE_SRC) not in sys.path:
        sys.path.insert(0, str(REFERENCE_SRC))
    import regdemo_agent

    return regdemo_agent


@pytest.fixture(scope="session")
def reference() -> ModuleType:
    """The reference client's package (``regdemo_agent``), imported from ../shared."""
    return _import_reference()


@dataclass
class ConformanceStack:
    """The embedded platform and offline model in one quirk mode, plus ground truth."""

    quirks: str | None
    services: Any
    truth: dict[str, Any]

    @property
    def ontul_url(self) -> str:
        """Platform base URL."""
        return str(self.services.ontul_url)

    @property
    def model_url(self) -> str:
        """Offline model base URL (an Anthropic ``base_url``)."""
        return str(self.services.model_url)

    @property
    def db_path(self) -> Path:
        """The platform's SQLite file (to read the revision ledger)."""
        return Path(self.services.db_path)

    def password(self, persona: str) -> str:
        """The persona's demo password from ground truth."""
        return str(self.truth["personas"][persona]["password"])

    def ledger(self, doc_no: str, version: int) -> list[tuple[Any, ...]]:
        """Ledger rows (requested_by, idempotency_key) for one (doc, version)."""
        with sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True) as conn:
            return conn.execute(
                "SELECT requested_by, idempotency_key FROM revision_requests "
                "WHERE doc_no = ? AND version = ?",
                (doc_no, version),
            ).fetchall()


@pytest.fixture(scope="session")
def conformance_pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A freshly built demo database and ground truth, copied for every stack."""
    from embedded.launcher import platform_today, prepare_demo_database

    target = tmp_path_factory.mktemp("conformance-pristine")
    prepare_demo_database(target, platform_today())
    return target


def start_conformance_stack(
    quirks: str | None, source: Path, target: Path
) -> Iterator[ConformanceStack]:
    """Start both services on a private copy of the demo data in one quirk mode.

    ``ONTUL_QUIRKS`` is set (or removed) for the stack's lifetime, and passed as
    ``quirks=`` too when the launcher takes it.
    """
    from embedded.launcher import start_embedded

    shutil.copytree(source, target, dirs_exist_ok=True)
    saved = os.environ.get("ONTUL_QUIRKS")
    if quirks is None:
        os.environ.pop("ONTUL_QUIRKS", None)
    else:
        os.environ["ONTUL_QUIRKS"] = quirks
    try:
        kwargs: dict[str, Any] = {"data_dir": target}
        if "quirks" in inspect.signature(start_embedded).parameters:
            kwargs["quirks"] = quirks
        services = start_embedded(**kwargs)
        try:
            yield ConformanceStack(quirks, services, services.ground_truth)
        finally:
            services.stop()
    finally:
        if saved is None:
            os.environ.pop("ONTUL_QUIRKS", None)
        else:
            os.environ["ONTUL_QUIRKS"] = saved


@pytest.fixture(scope="module", params=QUIRK_MODES, ids=quirk_id)
def conformance(
    request: pytest.FixtureRequest,
    conformance_pristine: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[ConformanceStack]:
    """One stack per test module and quirk mode (each module's writes stay its own)."""
    target = tmp_path_factory.mktemp(f"conformance-{quirk_id(request.param)}")
    yield from start_conformance_stack(request.param, conformance_pristine, target)


@pytest.fixture(params=PERSONAS)
def persona(request: pytest.FixtureRequest) -> str:
    """hong, park and cho in turn."""
    return str(request.param)
