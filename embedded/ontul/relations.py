"""The semantic relations callers name, and the SQLite that backs each one.

A relation exposes public columns (what ``SELECT *`` returns) and may carry
hidden columns that only policy conditions and mask expressions can name
(for example ``body_redacted`` behind the chunk ``body``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from embedded.ontul.dates import epoch_day

if TYPE_CHECKING:
    from datetime import date


@dataclass(frozen=True)
class Relation:
    """One semantic relation.

    Attributes:
        name: Fully qualified name, e.g. ``semantic.hr.employees``.
        columns: Public columns in order.
        hidden: Extra backing columns conditions and masks may name.
        backing: SQL for the source: a table name or a ``SELECT`` (use
            ``{today}`` for the platform date as an epoch day).
        tables: Physical tables the backing reads.
        sql_visible: True when the SQL endpoint may name the relation.
    """

    name: str
    columns: tuple[str, ...]
    hidden: tuple[str, ...]
    backing: str
    tables: frozenset[str]
    sql_visible: bool = True

    def source_sql(self, today: date) -> str:
        """Return the FROM source for this relation (table name or parenthesised select).

        Args:
            today: The platform date, substituted for ``{today}`` as an epoch day
                (DATE columns hold epoch days, see ``embedded.ontul.dates``).

        Returns:
            SQL usable after ``FROM``.
        """
        if self.backing.lstrip().upper().startswith("SELECT"):
            return "(" + self.backing.replace("{today}", str(epoch_day(today))) + ")"
        return self.backing


_REG_JOIN = "FROM regulation_versions AS v JOIN regulations AS r ON r.doc_no = v.doc_no"

RELATIONS: dict[str, Relation] = {
    r.name: r
    for r in (
        Relation(
            "semantic.hr.employees",
            ("사번", "성명", "부서", "직급", "연락처", "주민등록번호", "입사일", "비고"),
            (),
            "hr_employees",
            frozenset({"hr_employees"}),
        ),
        Relation(
            "semantic.hr.leave_balance",
            ("사번", "성명", "부서", "휴가종류", "연도", "부여일수_ERP", "사용일수", "비고"),
            (),
            "hr_leave",
            frozenset({"hr_leave"}),
        ),
        Relation(
            "semantic.hr.expenses",
            (
                "청구번호",
                "사번",
                "성명",
                "부서",
                "유형",
                "지역",
                "숙박일수",
                "금액",
                "청구일",
                "상태",
                "비고",
            ),
            (),
            "hr_expenses",
            frozenset({"hr_expenses"}),
        ),
        Relation(
            "semantic.hr.purchase_orders",
            ("발주번호", "부서", "요청자사번", "성명", "품목", "금액", "상태", "비고"),
            (),
            "hr_purchase_orders",
            frozenset({"hr_purchase_orders"}),
        ),
        Relation(
            "semantic.reg.doc_index",
            (
                "doc_id",
                "doc_no",
                "title",
                "doc_class",
                "tier",
                "owner_dept",
                "citable",
                "sensitivity",
            ),
            (),
            "regulations",
            frozenset({"regulations"}),
        ),
        Relation(
            "semantic.reg.version_history",
            (
                "doc_no",
                "title",
                "version",
                "status",
                "effective_from",
                "effective_to",
                "stated_from",
                "date_mismatch",
                "summary",
                "sensitivity",
            ),
            ("doc_class", "tier", "owner_dept", "citable"),
            "SELECT v.doc_no AS doc_no, r.title AS title, v.version AS version, "
            "v.status AS status, v.effective_from AS effective_from, "
            "v.effective_to AS effective_to, v.stated_from AS stated_from, "
            "v.date_mismatch AS date_mismatch, v.summary AS summary, "
            "r.sensitivity AS sensitivity, r.doc_class AS doc_class, r.tier AS tier, "
            "r.owner_dept AS owner_dept, r.citable AS citable "
            f"{_REG_JOIN} WHERE v.status = 'APPROVED'",
            frozenset({"regulations", "regulation_versions"}),
        ),
        Relation(
            "semantic.reg.pending_revisions",
            ("문서번호", "제목", "개정차수", "단계", "요지", "예정시행일", "기안자사번"),
            ("sensitivity", "doc_class", "tier", "owner_dept", "citable"),
            # 단계: DRAFT / IN_REVIEW / REJECTED as recorded, APPROVED for an approved
            # version not yet in force. Rejected revisions stay listed on purpose.
            'SELECT v.doc_no AS "문서번호", r.title AS "제목", v.version AS "개정차수", '
            'v.status AS "단계", v.summary AS "요지", '
            "CASE WHEN v.status = 'APPROVED' THEN v.effective_from END AS \"예정시행일\", "
            'v.drafter AS "기안자사번", '
            "r.sensitivity AS sensitivity, r.doc_class AS doc_class, r.tier AS tier, "
            "r.owner_dept AS owner_dept, r.citable AS citable "
            f"{_REG_JOIN} WHERE v.status IN ('DRAFT', 'IN_REVIEW', 'REJECTED') "
            "OR (v.status = 'APPROVED' AND v.effective_from > {today})",
            frozenset({"regulations", "regulation_versions"}),
        ),
        # Retriever / ontology sources: not nameable from SQL, but filtered and
        # masked by the same engine.
        Relation(
            "semantic.rag.regulation_search",
            (
                "chunk_id",
                "doc_no",
                "title",
                "doc_class",
                "version",
                "effective_from",
                "effective_to",
                "stated_from",
                "date_mismatch",
                "article_no",
                "article_title",
                "body",
            ),
            ("tier", "owner_dept", "citable", "sensitivity", "status", "body_redacted"),
            "SELECT c.chunk_id AS chunk_id, c.doc_no AS doc_no, r.title AS title, "
            "r.doc_class AS doc_class, c.version AS version, "
            "v.effective_from AS effective_from, v.effective_to AS effective_to, "
            "v.stated_from AS stated_from, v.date_mismatch AS date_mismatch, "
            "c.article_no AS article_no, c.article_title AS article_title, c.body AS body, "
            "r.tier AS tier, r.owner_dept AS owner_dept, r.citable AS citable, "
            "r.sensitivity AS sensitivity, v.status AS status, "
            "coalesce(c.body_redacted, c.body) AS body_redacted "
            "FROM regulation_chunks AS c "
            "JOIN regulation_versions AS v ON v.doc_no = c.doc_no AND v.version = c.version "
            "JOIN regulations AS r ON r.doc_no = c.doc_no",
            frozenset({"regulations", "regulation_versions", "regulation_chunks"}),
            sql_visible=False,
        ),
        Relation(
            "reg.ontology.has_version",
            (
                "doc_no",
                "version",
                "status",
                "effective_from",
                "effective_to",
                "stated_from",
                "date_mismatch",
                "summary",
            ),
            ("sensitivity", "doc_class", "tier", "owner_dept", "citable", "title"),
            # Every version a document has, drafts and rejected ones included.
            "SELECT v.doc_no AS doc_no, v.version AS version, v.status AS status, "
            "v.effective_from AS effective_from, v.effective_to AS effective_to, "
            "v.stated_from AS stated_from, v.date_mismatch AS date_mismatch, "
            "v.summary AS summary, r.sensitivity AS sensitivity, r.doc_class AS doc_class, "
            "r.tier AS tier, r.owner_dept AS owner_dept, r.citable AS citable, r.title AS title "
            f"{_REG_JOIN}",
            frozenset({"regulations", "regulation_versions"}),
            sql_visible=False,
        ),
        Relation(
            "reg.ontology.Regulation",
            (
                "doc_id",
                "doc_no",
                "title",
                "doc_class",
                "tier",
                "owner_dept",
                "citable",
                "sensitivity",
                "latest_version",
            ),
            (),
            "SELECT r.doc_id AS doc_id, r.doc_no AS doc_no, r.title AS title, "
            "r.doc_class AS doc_class, "
            "r.tier AS tier, r.owner_dept AS owner_dept, r.citable AS citable, "
            "r.sensitivity AS sensitivity, (SELECT max(v.version) FROM regulation_versions "
            "AS v WHERE v.doc_no = r.doc_no AND v.status = 'APPROVED' "
            "AND v.effective_from <= {today}) AS latest_version FROM regulations AS r",
            frozenset({"regulations", "regulation_versions"}),
            sql_visible=False,
        ),
    )
}
"""Every relation the platform serves, by fully qualified name."""

REGULATION_NODES = RELATIONS["semantic.reg.doc_index"]
"""Graph traversals walk documents through the doc index relation."""

PHYSICAL_TABLES: frozenset[str] = frozenset(
    {
        "users",
        "regulations",
        "regulation_versions",
        "regulation_chunks",
        "regulation_links",
        "hr_employees",
        "hr_leave",
        "hr_expenses",
        "hr_purchase_orders",
        "revision_requests",
        "audit_log",
        "server_clock",
    }
)
"""The platform's own tables. Only an administrator's SQL may name them (SPEC §2:
AdministratorAccess bypasses everything); everyone else names semantic relations."""

CREDENTIAL_COLUMNS: frozenset[tuple[str, str]] = frozenset(
    {("users", "password_salt"), ("users", "password_hash")}
)
"""Never readable through SQL, even by an administrator: verification needs no hashes."""
