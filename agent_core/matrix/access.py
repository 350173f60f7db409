"""The effective-access matrix: what each persona can see, observed through their own token.

No model is involved and nothing is written. For every persona (each a
``PlatformClient`` logged in as that person — an administrator is refused):

* **relations** — ``SELECT count(*)``: visible with the row count, or denied
  with the platform's message. Retrievers, object types and links are invoked
  once with the catalog's probe arguments; their row count is that probe's.
* **columns** — one ``SELECT * … LIMIT n`` sample per relation (and the
  retriever, object and link probes' results). A catalog column missing from
  the result is selected by name to get the platform's refusal: denied. A
  column is *masked* when a value the persona sees matches the catalog's mask
  pattern (``\\*{3,}``: a run of asterisks, the visible shape of every mask in
  the demo). The platform evaluates predicates on the *masked* expression (a
  predicate must not confirm a guess), so a "does my value round-trip" query
  cannot tell a mask apart; the shape is the only observation that does not
  ask the platform for anything the persona may not see. A column with no
  non-empty value in the sample cannot show a mask: it is reported
  ``not_observed`` with a detail saying why (no rows, or all empty or NULL).
  Masked sample values are shown in the probe summary; visible values never
  are (the matrix's outputs carry no row data).
* **documents** — the catalog's probe list plus every document any persona
  sees marked restricted, looked up on each read path (index, versions, object
  type, version link, graph retriever): visible if any path returns it.
* **action** — the platform has no dry run, and invoking the action writes a
  ledger row, so it is ``not_probed``.
"""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from agent_core.errors import AdminRefusedError, PlatformError
from agent_core.matrix.cells import Cell, CellKind, CellStatus, Probe, ProbeStep

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from agent_core.cancel import CancelToken
    from agent_core.matrix.catalog import Catalog, DocumentProbe, Tabular
    from agent_core.platform_client import PlatformClient

SAMPLE_ROWS = 200
"""Rows sampled per relation to observe column masks."""

OBJECT_LIMIT = 1000
"""Row cap of an object-type probe (the platform's maximum)."""

LINK_LIMIT = 200
"""Row cap of a link probe."""

PROBE_FAILURE_KINDS = ("auth", "network", "timeout", "server")
"""Failures that say nothing about access: the cell becomes ``not_probed``."""

POLICY_REFUSAL = re.compile(
    r"access denied|denied by policy|are available to you|permission denied|forbidden|권한|거부",
    re.IGNORECASE,
)
"""Wording of the platform's policy refusals: ``access denied: <action> on <resource>``
(no grant), ``column <c> is denied by policy and cannot be referenced`` (a denied
column), ``no columns of <relation> are available to you`` (every column denied).
Other ``status: error`` answers (``no such column``, ``unknown relation``, a SQL
deadline, a result too large, a parse error) are not policy answers."""


def is_policy_refusal(exc: PlatformError) -> bool:
    """True when a platform error is its policy's answer (HTTP 403, or a refusal naming a
    denied resource or column), not a failed request.

    Args:
        exc: The error a probe got.

    Returns:
        Whether the cell is *denied* (else it is *error* or *not_probed*).
    """
    return exc.status == 403 or bool(POLICY_REFUSAL.search(exc.message))


NO_DRY_RUN = (
    "not invoked: the platform offers no dry run for {name}, and invoking it writes "
    "a ledger row, so permission cannot be observed without writing (the agent asks "
    "the person before every call)"
)


def _sql_literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


class PersonaProber:
    """Probes the catalog as one persona and collects cells and probes.

    Args:
        client: The persona's logged-in client.
        catalog: What to probe.
        cancel: Checked between probes.
    """

    def __init__(
        self, client: PlatformClient, catalog: Catalog, cancel: CancelToken | None = None
    ) -> None:
        self.client = client
        self.persona = client.username
        self.catalog = catalog
        self.cancel = cancel
        self.mask = re.compile(catalog.mask_pattern)
        self.cells: list[Cell] = []
        self.probes: list[Probe] = []
        self.documents: dict[str, dict[str, Any]] = {}
        """doc_no → {id, restricted} for every document this persona's index lists."""

    # -- recording ---------------------------------------------------------

    def _add(
        self,
        kind: CellKind,
        name: str,
        status: CellStatus,
        steps: Sequence[ProbeStep],
        rows: int | None = None,
        detail: str | None = None,
    ) -> None:
        self.cells.append(Cell(self.persona, kind, name, status, rows, detail))
        self.probes.append(Probe(self.persona, kind, name, tuple(steps)))

    def _cancelled(self) -> bool:
        return self.cancel is not None and self.cancel.cancelled

    @staticmethod
    def _failed(exc: PlatformError) -> tuple[CellStatus, str]:
        if exc.kind in PROBE_FAILURE_KINDS:
            return "not_probed", f"probe failed ({exc.kind}): {exc.message}"
        if is_policy_refusal(exc):
            return "denied", exc.message
        return "error", f"platform error, not a policy answer: {exc.message}"

    @staticmethod
    def _outcome(data: dict[str, Any]) -> str:
        cols = ", ".join(str(c) for c in data.get("columns") or ())
        return f"{data.get('rowCount', 0)} rows; columns: {cols or '(none)'}"

    # -- columns -------------------------------------------------------------

    def _columns(self, entry: Tabular, data: dict[str, Any], step: ProbeStep, sql: bool) -> None:
        returned = [str(c) for c in data.get("columns") or ()]
        rows = data.get("rows") or []
        for col in [*entry.columns, *(c for c in returned if c not in entry.columns)]:
            name = f"{entry.name}.{col}"
            extra = "" if col in entry.columns else " (not in the catalog)"
            if col not in returned:
                self._missing_column(entry, col, name, step, sql)
                continue
            i = returned.index(col)
            # an empty string shows a mask no better than NULL does
            values = [str(r[i]) for r in rows if i < len(r) and r[i] is not None]
            values = [v for v in values if v.strip()]
            masked = [v for v in values if self.mask.search(v)]
            if masked:
                example = masked[0] if len(masked[0]) <= 40 else masked[0][:40] + "…"
                outcome = f"{len(masked)} of {len(values)} values show a mask, e.g. {example!r}"
                self._add(
                    "column",
                    name,
                    "masked",
                    [ProbeStep(step.request, outcome)],
                    detail=f"{len(masked)} of {len(values)} sampled values masked{extra}",
                )
            elif values:
                outcome = f"{len(values)} non-empty values, none masked (values not kept)"
                self._add(
                    "column",
                    name,
                    "visible",
                    [ProbeStep(step.request, outcome)],
                    detail=f"returned unmasked{extra}",
                )
            else:
                why = (
                    f"all {len(rows)} sampled values are empty or NULL"
                    if rows
                    else "the sample has no rows"
                )
                outcome = f"{why}: a mask cannot show"
                self._add(
                    "column",
                    name,
                    "not_observed",
                    [ProbeStep(step.request, outcome)],
                    detail=f"in the schema, but {why}, so no mask could be observed{extra}",
                )

    def _missing_column(
        self, entry: Tabular, col: str, name: str, step: ProbeStep, sql: bool
    ) -> None:
        if not sql:
            self._add("column", name, "denied", [step], detail="not in the result")
            return
        query = f"SELECT {_ident(col)} FROM {entry.name} LIMIT 1"
        try:
            self.client.execute_sql(query)
        except PlatformError as exc:
            status, detail = self._failed(exc)
            self._add("column", name, status, [step, ProbeStep(query, exc.message)], detail=detail)
            return
        self._add(
            "column",
            name,
            "visible",
            [step, ProbeStep(query, "selectable by name")],
            detail="selectable by name but left out of SELECT *",
        )

    def _deny_columns(self, entry: Tabular, step: ProbeStep, status: CellStatus) -> None:
        said = {"error": "could not be probed (platform error)"}.get(status)
        for col in entry.columns:
            self._add(
                "column",
                f"{entry.name}.{col}",
                status,
                [step],
                detail=f"{entry.name} {said or 'is ' + status.replace('_', ' ')}",
            )

    # -- entries ---------------------------------------------------------------

    def relation(self, entry: Tabular) -> None:
        """Probe one SQL relation and its columns."""
        count_sql = f"SELECT count(*) AS n FROM {entry.name}"
        try:
            counted = self.client.execute_sql(count_sql)
        except PlatformError as exc:
            status, detail = self._failed(exc)
            step = ProbeStep(count_sql, exc.message)
            self._add("relation", entry.name, status, [step], detail=detail)
            self._deny_columns(entry, step, status)
            return
        rows = int(counted["rows"][0][0]) if counted["rows"] else 0
        count_step = ProbeStep(count_sql, f"count = {rows}")
        sample_sql = f"SELECT * FROM {entry.name} LIMIT {SAMPLE_ROWS}"
        try:
            sample = self.client.execute_sql(sample_sql)
        except PlatformError as exc:
            step = ProbeStep(sample_sql, exc.message)
            self._add(
                "relation",
                entry.name,
                "visible",
                [count_step, step],
                rows,
                f"counted; SELECT * refused: {exc.message}",
            )
            self._deny_columns(entry, step, "not_probed")
            return
        step = ProbeStep(sample_sql, self._outcome(sample))
        self._add("relation", entry.name, "visible", [count_step, step], rows)
        self._columns(entry, sample, step, sql=True)

    def _resolve(self, value: Any) -> Any:
        """Turn ``{"doc_id_of": doc_no}`` into the id this persona's index gives it."""
        if isinstance(value, dict) and "doc_id_of" in value:
            doc = self.documents.get(str(value["doc_id_of"]))
            if doc is None or doc.get("id") is None:
                raise LookupError(
                    f"{value['doc_id_of']} is not in this persona's document index, "
                    "so there is no id to probe with"
                )
            return doc["id"]
        return value

    def _tabular(self, entry: Tabular, request: str, call: Callable[[], dict[str, Any]]) -> None:
        try:
            data = call()
        except PlatformError as exc:
            status, detail = self._failed(exc)
            step = ProbeStep(request, exc.message)
            self._add("relation", entry.name, status, [step], detail=detail)
            self._deny_columns(entry, step, status)
            return
        step = ProbeStep(request, self._outcome(data))
        rows = int(data.get("rowCount") or 0)
        self._add("relation", entry.name, "visible", [step], rows, f"probe: {request}")
        self._columns(entry, data, step, sql=False)

    def retriever(self, entry: Tabular) -> None:
        """Invoke one retriever with its probe arguments."""
        try:
            args = {k: self._resolve(v) for k, v in entry.args.items()}
        except LookupError as exc:
            self._add("relation", entry.name, "not_probed", [], detail=str(exc))
            return
        request = f"POST /api/v1/retrievers/{entry.name}/invoke {_json({'args': args})}"
        self._tabular(entry, request, lambda: self.client.invoke_retriever(entry.name, args))

    def object_type(self, entry: Tabular) -> None:
        """Query one object type (all rows up to the platform's cap)."""
        request = f"POST /api/v1/object-types/{entry.name}/query {_json({'limit': OBJECT_LIMIT})}"
        self._tabular(
            entry, request, lambda: self.client.query_objects(entry.name, limit=OBJECT_LIMIT)
        )

    def link(self, entry: Tabular) -> None:
        """Traverse one link type from its probe source key."""
        try:
            key = str(self._resolve(entry.source_key))
        except LookupError as exc:
            self._add("relation", entry.name, "not_probed", [], detail=str(exc))
            return
        body = {"sourceKey": key, "limit": LINK_LIMIT}
        request = f"POST /api/v1/link-types/{entry.name}/traverse {_json(body)}"
        self._tabular(
            entry, request, lambda: self.client.traverse_link(entry.name, key, limit=LINK_LIMIT)
        )

    def action(self) -> None:
        """Report the write action without invoking it."""
        action = self.catalog.action
        if action is None:
            return
        reason = NO_DRY_RUN.format(name=action.name)
        if action.dry_run:
            reason = "the catalog says a dry run exists, but RegDesk has no client for it yet"
        self._add(
            "action",
            action.name,
            "not_probed",
            [ProbeStep("(no request sent)", reason)],
            detail=reason,
        )

    # -- documents ---------------------------------------------------------------

    def list_documents(self) -> None:
        """Read this persona's document index (ids and restricted marks)."""
        docs = self.catalog.documents
        if docs is None:
            return
        sql = (
            f"SELECT {_ident(docs.key)}, {_ident(docs.id_column)}, "
            f"{_ident(docs.restricted_column)} FROM {docs.index}"
        )
        try:
            data = self.client.execute_sql(sql)
        except PlatformError:
            return  # the index relation's own cell already says why
        for key, doc_id, mark in data["rows"]:
            self.documents[str(key)] = {
                "id": doc_id,
                "restricted": str(mark) == docs.restricted_value,
            }

    def document(self, doc_no: str, doc_id: Any) -> None:
        """Look one document up on every read path the catalog names."""
        docs = self.catalog.documents
        assert docs is not None
        steps: list[ProbeStep] = []
        seen: list[str] = []
        missed: list[str] = []
        failed: list[tuple[CellStatus, str]] = []
        """Paths that answered with an error that is not a policy answer."""

        def path(label: str, request: str, call: Callable[[], bool]) -> None:
            try:
                found = call()
            except PlatformError as exc:
                steps.append(ProbeStep(request, exc.message))
                status, detail = self._failed(exc)
                if status == "denied":
                    missed.append(f"{label} (refused)")
                else:
                    failed.append((status, f"{label}: {detail}"))
                return
            steps.append(ProbeStep(request, "returned" if found else "not returned"))
            (seen if found else missed).append(label)

        index_sql = f"SELECT {_ident(docs.key)} FROM {docs.index}"
        steps.append(ProbeStep(index_sql, "listed" if doc_no in self.documents else "not listed"))
        (seen if doc_no in self.documents else missed).append(docs.index)
        where = f"{_ident(docs.key)} = {_sql_literal(doc_no)}"
        if docs.versions:
            sql = f"SELECT count(*) FROM {docs.versions} WHERE {where}"
            path(docs.versions, sql, lambda: bool(self.client.execute_sql(sql)["rows"][0][0]))
        if docs.object_type:
            req = f"POST /api/v1/object-types/{docs.object_type}/query " + _json(
                {"filters": {docs.key: doc_no}, "limit": 1}
            )
            path(
                docs.object_type,
                req,
                lambda: bool(
                    self.client.query_objects(
                        docs.object_type, filters={docs.key: doc_no}, limit=1
                    )["rowCount"]
                ),
            )
        if docs.version_link:
            req = f"POST /api/v1/link-types/{docs.version_link}/traverse " + _json(
                {"sourceKey": doc_no, "limit": 1}
            )
            path(
                docs.version_link,
                req,
                lambda: bool(self.client.traverse_link(docs.version_link, doc_no, limit=1)["rows"]),
            )
        if docs.graph_retriever and doc_id is not None:
            args = {"doc_id": doc_id}
            req = f"POST /api/v1/retrievers/{docs.graph_retriever}/invoke " + _json({"args": args})

            def depth_zero() -> bool:
                rows = self.client.invoke_retriever(docs.graph_retriever, args)
                cols = rows["columns"]
                key_i = cols.index("doc_no") if "doc_no" in cols else None
                return any(key_i is not None and r[key_i] == doc_no for r in rows["rows"])

            path(docs.graph_retriever, req, depth_zero)
        errors = "; ".join(text for _, text in failed)
        if seen:
            detail = "visible via " + ", ".join(seen)
            if missed:
                detail += "; not via " + ", ".join(missed) + " (inconsistent across paths)"
            if failed:
                detail += "; " + errors
            self._add("document", doc_no, "visible", steps, detail=detail)
        elif failed:
            # a path that failed says nothing: the document may be on it
            status: CellStatus = "error" if any(st == "error" for st, _ in failed) else "not_probed"
            detail = errors
            if missed:
                detail += "; not returned on " + ", ".join(missed)
            self._add("document", doc_no, status, steps, detail=detail)
        else:
            self._add(
                "document",
                doc_no,
                "hidden",
                steps,
                detail=f"not returned on {len(missed)} paths: " + ", ".join(missed),
            )

    # -- the whole catalog ----------------------------------------------------

    def probe_catalog(self) -> None:
        """Probe every relation, retriever, object type, link and the action."""
        self.list_documents()
        groups: list[tuple[tuple[Tabular, ...], Callable[[Tabular], None]]] = [
            (self.catalog.relations, self.relation),
            (self.catalog.retrievers, self.retriever),
            (self.catalog.object_types, self.object_type),
            (self.catalog.links, self.link),
        ]
        for entries, probe in groups:
            for entry in entries:
                if self._cancelled():
                    return
                probe(entry)
        self.action()


def _check_not_admin(client: PlatformClient) -> None:
    if client.is_admin:
        raise AdminRefusedError(
            f"{client.username} is an administrator account; the access matrix observes "
            "only ordinary people's own access"
        )


def documents_to_probe(catalog: Catalog, probers: Sequence[PersonaProber]) -> dict[str, Any]:
    """The documents every persona is checked for, with an id where any persona knows it.

    Args:
        catalog: The catalog (its ``documents.probe`` list).
        probers: Probers that have listed their documents.

    Returns:
        doc_no → integer id (or None), in a stable order.
    """
    docs: DocumentProbe | None = catalog.documents
    if docs is None:
        return {}
    wanted = list(docs.probe)
    for p in probers:
        wanted.extend(sorted(d for d, info in p.documents.items() if info["restricted"]))
    ids: dict[str, Any] = {}
    for doc_no in dict.fromkeys(wanted):
        ids[doc_no] = next(
            (p.documents[doc_no]["id"] for p in probers if doc_no in p.documents), None
        )
    return ids


def probe_access(
    clients: Sequence[PlatformClient],
    catalog: Catalog,
    cancel: CancelToken | None = None,
    on_persona_done: Callable[[str], None] | None = None,
) -> tuple[list[Cell], list[Probe]]:
    """Build the effective-access matrix for several personas at once.

    Args:
        clients: One logged-in client per persona (administrators are refused).
        catalog: What to probe.
        cancel: Stops probing between requests.
        on_persona_done: Called with a username when its probes are finished.

    Returns:
        Cells and probes, persona by persona in the order given.

    Raises:
        AdminRefusedError: A client is an administrator.
    """
    for client in clients:
        # is_admin is only known after a login: never probe with an unchecked account
        if getattr(client, "_access", None) is None:
            client.login()
        _check_not_admin(client)
    probers = [PersonaProber(c, catalog, cancel) for c in clients]
    with ThreadPoolExecutor(max_workers=max(1, len(probers)), thread_name_prefix="matrix") as pool:
        list(pool.map(lambda p: p.probe_catalog(), probers))
        docs = documents_to_probe(catalog, probers)

        def check_documents(p: PersonaProber) -> None:
            for doc_no, doc_id in docs.items():
                if cancel is not None and cancel.cancelled:
                    return
                p.document(doc_no, doc_id)
            if on_persona_done is not None:
                on_persona_done(p.persona)

        list(pool.map(check_documents, probers))
    cells = [c for p in probers for c in p.cells]
    probes = [pr for p in probers for pr in p.probes]
    return cells, probes
