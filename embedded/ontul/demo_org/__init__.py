"""The demo organisation: a seeded, deterministic Korean company.

``build_demo_database`` writes the SQLite database the embedded Ontul serves
and the ``ground_truth.json`` every test, scenario and benchmark asserts
against; ``verify_password`` checks a login against the stored hash.
"""

from embedded.ontul.demo_org.build import (
    DEFAULT_SEED,
    GROUND_TRUTH_NAME,
    build_demo_database,
    load_ground_truth,
)
from embedded.ontul.demo_org.passwords import verify_password

__all__ = [
    "DEFAULT_SEED",
    "GROUND_TRUTH_NAME",
    "build_demo_database",
    "load_ground_truth",
    "verify_password",
]
