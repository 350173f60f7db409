"""The project's copy of the public scenarios stays in step with ../shared/scenarios."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COPY = ROOT / "tests" / "scenarios"
SHARED = ROOT.parent / "shared" / "scenarios"


def test_the_project_carries_the_public_scenarios() -> None:
    names = sorted(p.name for p in COPY.glob("*.yaml"))
    assert len(names) >= 5, names


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/scenarios is not beside this checkout")
def test_copy_matches_shared_scenarios() -> None:
    shared = {p.name: p.read_bytes() for p in SHARED.iterdir() if p.is_file()}
    copied = {name: (COPY / name).read_bytes() for name in shared if (COPY / name).exists()}
    assert sorted(copied) == sorted(shared), "a public scenario is missing from tests/scenarios"
    stale = [name for name in shared if copied[name] != shared[name]]
    assert stale == [], f"tests/scenarios differs from ../shared/scenarios: {stale}"
