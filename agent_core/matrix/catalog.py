"""What the access matrix probes: a deployment's catalog.

Ontul has no listing endpoint (SPEC §2 lists every route; none enumerates
relations, retrievers, object types or links), so the catalog comes from a file
per deployment. The demo organisation's ships as ``resources/catalogs/demo.json``.
A value ``{"doc_id_of": "HR-GDL-002"}`` in probe arguments is resolved per
persona through that persona's own document index.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CATALOG_DIR = Path(__file__).resolve().parents[2] / "resources" / "catalogs"
"""Where the catalog files shipped with RegDesk live."""

DEMO_CATALOG = CATALOG_DIR / "demo.json"
"""The demo organisation's catalog."""

DEFAULT_MASK_PATTERN = r"\*{3,}"
"""A value showing a run of three or more asterisks is taken as masked."""


@dataclass(frozen=True)
class Tabular:
    """A relation, retriever, object type or link type and the columns it should have."""

    name: str
    """Fully qualified name, e.g. ``semantic.hr.employees``."""
    columns: tuple[str, ...]
    """Columns the catalog declares (the probe reports each one)."""
    args: dict[str, Any] = field(default_factory=dict)
    """Probe arguments (retrievers)."""
    source_key: Any = None
    """Probe source key (links): a string or ``{"doc_id_of": doc_no}``."""
    key: str = ""
    """Key property (object types)."""


@dataclass(frozen=True)
class DocumentProbe:
    """How restricted documents are found and checked on every read path."""

    index: str
    """Relation listing documents (SQL)."""
    key: str
    """Document number column."""
    id_column: str
    """Integer id column (graph retrievers and GRAPH links take it)."""
    restricted_column: str
    """Column marking sensitivity."""
    restricted_value: str
    """Value of that column on restricted documents."""
    versions: str = ""
    """Relation of versions keyed by ``key`` (SQL)."""
    object_type: str = ""
    """Object type keyed by ``key``."""
    version_link: str = ""
    """JOIN link whose source key is the document number."""
    graph_retriever: str = ""
    """Retriever taking ``{"doc_id": id}`` whose depth-0 row is the document."""
    probe: tuple[str, ...] = ()
    """Documents always probed, beside those any persona sees marked restricted."""


@dataclass(frozen=True)
class ActionEntry:
    """The write action."""

    name: str
    """Action type, e.g. ``reg.ontology.request_revision``."""
    args: tuple[str, ...]
    """Argument names."""
    dry_run: bool = False
    """True only if the platform can check permission without writing."""


@dataclass(frozen=True)
class Catalog:
    """Everything one deployment exposes to the matrix."""

    deployment: str
    """Human name of the deployment."""
    source: str
    """Where the catalog came from (a file path, or ``platform``)."""
    relations: tuple[Tabular, ...]
    """SQL relations."""
    retrievers: tuple[Tabular, ...]
    """Retrievers with probe arguments."""
    object_types: tuple[Tabular, ...]
    """Object types."""
    links: tuple[Tabular, ...]
    """Link types with probe source keys."""
    documents: DocumentProbe | None
    """Restricted-document probing, or None."""
    action: ActionEntry | None
    """The write action, or None."""
    mask_pattern: str = DEFAULT_MASK_PATTERN
    """Regex a visibly masked value matches."""


def _tabular(raw: dict[str, Any]) -> Tabular:
    return Tabular(
        name=str(raw["name"]),
        columns=tuple(str(c) for c in raw.get("columns") or ()),
        args=dict(raw.get("args") or {}),
        source_key=raw.get("source_key"),
        key=str(raw.get("key") or ""),
    )


def catalog_from_dict(raw: dict[str, Any], source: str = "dict") -> Catalog:
    """Build a catalog from its JSON form.

    Args:
        raw: The parsed catalog file.
        source: Where it came from (shown in reports).

    Returns:
        The catalog.

    Raises:
        KeyError: A required key is missing.
    """
    docs = raw.get("documents")
    action = raw.get("action")
    return Catalog(
        deployment=str(raw.get("deployment") or source),
        source=source,
        relations=tuple(_tabular(r) for r in raw.get("relations") or ()),
        retrievers=tuple(_tabular(r) for r in raw.get("retrievers") or ()),
        object_types=tuple(_tabular(r) for r in raw.get("object_types") or ()),
        links=tuple(_tabular(r) for r in raw.get("links") or ()),
        documents=DocumentProbe(
            index=str(docs["index"]),
            key=str(docs["key"]),
            id_column=str(docs["id_column"]),
            restricted_column=str(docs["restricted_column"]),
            restricted_value=str(docs["restricted_value"]),
            versions=str(docs.get("versions") or ""),
            object_type=str(docs.get("object_type") or ""),
            version_link=str(docs.get("version_link") or ""),
            graph_retriever=str(docs.get("graph_retriever") or ""),
            probe=tuple(str(d) for d in docs.get("probe") or ()),
        )
        if docs
        else None,
        action=ActionEntry(
            name=str(action["name"]),
            args=tuple(str(a) for a in action.get("args") or ()),
            dry_run=bool(action.get("dry_run")),
        )
        if action
        else None,
        mask_pattern=str(raw.get("mask_pattern") or DEFAULT_MASK_PATTERN),
    )


def load_catalog(path: Path | str | None = None) -> Catalog:
    """Read a catalog file (the demo organisation's by default).

    Ontul offers no endpoint that lists its catalog, so a file is the only
    source; when one appears, list it here and fall back to the file.

    Args:
        path: Catalog JSON file; None for ``resources/catalogs/demo.json``.

    Returns:
        The catalog.
    """
    file = Path(path) if path is not None else DEMO_CATALOG
    raw = json.loads(file.read_text(encoding="utf-8"))
    return catalog_from_dict(raw, str(file))
