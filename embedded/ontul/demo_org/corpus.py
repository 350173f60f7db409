"""The template-composed part of the corpus: the documents around the key ones.

Each document draws articles from its topic's pool (``corpus_topics``) in a
seeded order; later versions amend figures and add an article, the way real
사규 grow.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from embedded.ontul.demo_org.corpus_topics import TOPICS, TopicArticle
from embedded.ontul.demo_org.model import DocumentSpec, VersionSpec, compose_version, josa

DEPT_NAMES = {
    "HR": "인사팀",
    "FIN": "재무팀",
    "SEC": "보안팀",
    "PUR": "구매팀",
    "SAL": "영업팀",
    "DEV": "개발팀",
    "GEN": "경영지원팀",
}


class Entry(NamedTuple):
    """One catalogue line of a template-composed document."""

    doc_no: str
    title: str
    subject: str
    doc_class: str
    owner: str
    parent: str | None
    topic: str
    versions: int
    sensitivity: str = "일반"


CATALOGUE: tuple[Entry, ...] = (
    Entry("GEN-RUL-002", "직제규칙", "회사의 조직과 직위", "RULE", "GEN", None, "조직", 2),
    Entry(
        "GEN-REG-001",
        "문서관리규정",
        "문서의 작성, 보존 및 폐기",
        "REGULATION",
        "GEN",
        "GEN-RUL-001",
        "문서",
        2,
    ),
    Entry(
        "GEN-REG-002",
        "위임전결규정",
        "결재 권한의 위임",
        "REGULATION",
        "GEN",
        "GEN-RUL-002",
        "조직",
        3,
    ),
    Entry("HR-REG-004", "복무규정", "직원의 복무", "REGULATION", "HR", "GEN-RUL-001", "복무", 3),
    Entry(
        "HR-REG-005",
        "교육훈련규정",
        "직원의 교육훈련",
        "REGULATION",
        "HR",
        "GEN-RUL-001",
        "교육",
        2,
    ),
    Entry(
        "HR-REG-006",
        "보수규정",
        "직원의 보수와 복리후생",
        "REGULATION",
        "HR",
        "GEN-RUL-001",
        "보수",
        2,
    ),
    Entry(
        "FIN-REG-001",
        "회계규정",
        "회계 처리와 예산 집행",
        "REGULATION",
        "FIN",
        "GEN-RUL-001",
        "회계",
        2,
    ),
    Entry(
        "SEC-REG-002",
        "물리보안규정",
        "사업장의 물리적 보안",
        "REGULATION",
        "SEC",
        "GEN-RUL-001",
        "보안",
        2,
    ),
    Entry(
        "SAF-REG-001",
        "안전보건규정",
        "사업장의 안전과 보건",
        "REGULATION",
        "GEN",
        "GEN-RUL-001",
        "안전",
        2,
    ),
    Entry(
        "ETH-REG-001",
        "윤리규정",
        "임직원의 윤리적 행동",
        "REGULATION",
        "GEN",
        "GEN-RUL-001",
        "윤리",
        2,
    ),
    Entry(
        "SAL-REG-001",
        "영업관리규정",
        "영업 활동과 거래처 관리",
        "REGULATION",
        "SAL",
        "GEN-RUL-001",
        "영업",
        2,
    ),
    Entry(
        "HR-GDL-001",
        "채용 운영지침",
        "직원 채용의 운영",
        "GUIDELINE",
        "HR",
        "HR-REG-001",
        "인사",
        2,
    ),
    Entry(
        "HR-GDL-004",
        "인사평가 보정기준",
        "인사평가 결과의 보정",
        "GUIDELINE",
        "HR",
        "HR-REG-001",
        "인사",
        2,
        "대외비",
    ),
    Entry(
        "HR-GDL-005",
        "유연근무 운영지침",
        "유연근무제의 운영",
        "GUIDELINE",
        "HR",
        "HR-REG-002",
        "복무",
        2,
    ),
    Entry(
        "HR-GDL-006",
        "재택근무 운영지침",
        "재택근무의 운영",
        "GUIDELINE",
        "HR",
        "HR-REG-004",
        "복무",
        2,
    ),
    Entry(
        "HR-GDL-007", "교육비 지원지침", "교육비의 지원", "GUIDELINE", "HR", "HR-REG-005", "교육", 2
    ),
    Entry(
        "HR-GDL-008",
        "복리후생 운영지침",
        "복리후생 제도의 운영",
        "GUIDELINE",
        "HR",
        "HR-REG-006",
        "보수",
        2,
    ),
    Entry(
        "HR-GDL-009",
        "경조금 지급지침",
        "경조금과 경조 지원",
        "GUIDELINE",
        "HR",
        "HR-REG-006",
        "보수",
        1,
    ),
    Entry(
        "FIN-GDL-002",
        "법인카드 사용지침",
        "법인카드의 사용과 관리",
        "GUIDELINE",
        "FIN",
        "FIN-REG-001",
        "회계",
        3,
    ),
    Entry(
        "FIN-GDL-003",
        "경비 정산지침",
        "업무 경비의 정산",
        "GUIDELINE",
        "FIN",
        "FIN-REG-001",
        "회계",
        2,
    ),
    Entry(
        "FIN-GDL-004",
        "임원 보수 지급기준",
        "임원 보수의 지급",
        "GUIDELINE",
        "FIN",
        "HR-REG-006",
        "보수",
        2,
        "대외비",
    ),
    Entry(
        "PUR-GDL-002",
        "협력업체 평가지침",
        "협력업체의 선정과 평가",
        "GUIDELINE",
        "PUR",
        "PUR-REG-001",
        "구매",
        2,
    ),
    Entry(
        "PUR-GDL-003",
        "계약 관리지침",
        "구매 계약의 체결과 관리",
        "GUIDELINE",
        "PUR",
        "PUR-REG-001",
        "구매",
        2,
    ),
    Entry(
        "SEC-GDL-001",
        "정보자산 관리지침",
        "정보자산의 식별과 관리",
        "GUIDELINE",
        "SEC",
        "SEC-REG-001",
        "보안",
        2,
    ),
    Entry(
        "SEC-GDL-002",
        "개인정보 처리지침",
        "개인정보의 처리와 보호",
        "GUIDELINE",
        "SEC",
        "SEC-REG-001",
        "개인정보",
        3,
    ),
    Entry(
        "SEC-GDL-003",
        "접근통제 지침",
        "정보시스템 접근통제",
        "GUIDELINE",
        "SEC",
        "SEC-REG-001",
        "보안",
        2,
    ),
    Entry(
        "SEC-GDL-004",
        "원격접속 보안지침",
        "사외에서의 원격접속",
        "GUIDELINE",
        "SEC",
        "SEC-GDL-003",
        "보안",
        2,
    ),
    Entry(
        "SEC-GDL-005",
        "출입통제 지침",
        "사업장 출입통제",
        "GUIDELINE",
        "SEC",
        "SEC-REG-002",
        "보안",
        1,
    ),
    Entry(
        "DEV-GDL-001",
        "소프트웨어 개발보안 지침",
        "소프트웨어 개발 보안",
        "GUIDELINE",
        "DEV",
        "SEC-REG-001",
        "개발",
        2,
    ),
    Entry(
        "DEV-GDL-002",
        "오픈소스 사용지침",
        "오픈소스 소프트웨어의 사용",
        "GUIDELINE",
        "DEV",
        "DEV-GDL-001",
        "개발",
        1,
    ),
    Entry(
        "SAF-GDL-001",
        "사무실 안전점검 지침",
        "사무실 안전점검",
        "GUIDELINE",
        "GEN",
        "SAF-REG-001",
        "안전",
        2,
    ),
    Entry(
        "SAF-GDL-002",
        "비상대응 지침",
        "비상 상황의 대응",
        "GUIDELINE",
        "GEN",
        "SAF-REG-001",
        "안전",
        1,
    ),
    Entry(
        "ETH-GDL-001",
        "선물 및 접대 기준",
        "선물과 접대의 허용 범위",
        "GUIDELINE",
        "GEN",
        "ETH-REG-001",
        "윤리",
        2,
    ),
    Entry(
        "ETH-GDL-002",
        "이해충돌 신고지침",
        "이해충돌의 신고와 처리",
        "GUIDELINE",
        "GEN",
        "ETH-REG-001",
        "윤리",
        1,
    ),
    Entry(
        "GEN-GDL-001",
        "문서보존 기준",
        "문서의 보존 기간과 폐기",
        "GUIDELINE",
        "GEN",
        "GEN-REG-001",
        "문서",
        2,
    ),
    Entry(
        "SAL-GDL-001",
        "영업 할인 승인지침",
        "판매 할인의 승인",
        "GUIDELINE",
        "SAL",
        "SAL-REG-001",
        "영업",
        2,
    ),
    Entry(
        "SAL-GDL-002",
        "고객정보 취급지침",
        "고객정보의 취급",
        "GUIDELINE",
        "SAL",
        "SAL-REG-001",
        "개인정보",
        2,
    ),
)
"""Template-composed documents, in insertion order."""

_PURPOSES = (
    "{this} {subject}에 관한 기준과 절차를 정하여 업무를 공정하고 효율적으로 처리함을 "
    "목적으로 한다.",
    "{this} {subject}에 관하여 필요한 사항을 정하고 관련 책임을 분명히 함을 목적으로 한다.",
    "{this} {parent}에서 위임한 {subject}에 관한 세부 사항을 정함을 목적으로 한다.",
)
_SCOPES = (
    "{this} 회사의 모든 임직원에게 적용한다. 다만 다른 사규에 특별한 규정이 있으면 그에 따른다.",
    "{this} 본사와 모든 사업장에 근무하는 임직원 및 파견 인력에게 적용한다.",
)


def _noun(title: str) -> str:
    for noun in ("규칙", "규정", "지침", "기준"):
        if title.endswith(noun):
            return noun
    return "규정"


def _fill(article: TopicArticle, version: int) -> tuple[str, str]:
    title, body, values = article
    if values:
        body = body.replace("{n}", values[min(version, len(values)) - 1])
    return title, body


def _amendment_summary(previous: dict[str, str], topical: list[tuple[str, str]]) -> str:
    added = [title for title, _ in topical if title not in previous]
    changed = [title for title, body in topical if title in previous and previous[title] != body]
    parts = [f"{title} 조항 신설" for title in added]
    if changed:
        parts.append(f"{', '.join(changed)} 기준 변경")
    return "개정: " + (", ".join(parts) or "자구 정비")


def _compose(entry: Entry, rng: random.Random, parent_title: str, start_year: int) -> DocumentSpec:
    this = josa(f"이 {_noun(entry.title)}", "은", "는")
    pool = list(TOPICS[entry.topic])
    rng.shuffle(pool)
    # Articles named after the document's own subject lead (원격접속 in 원격접속 보안지침).
    focus = (entry.title + entry.subject).replace(" ", "")
    pool.sort(key=lambda article: article[0].replace(" ", "") not in focus)
    base_count = rng.randint(4, 5)
    purposes = _PURPOSES if entry.parent else _PURPOSES[:2]
    purpose = rng.choice(purposes).format(this=this, subject=entry.subject, parent=parent_title)
    scope = rng.choice(_SCOPES).format(this=this)
    dept = josa(DEPT_NAMES[entry.owner], "은", "는")
    duties = (
        f"{dept} 이 {_noun(entry.title)}의 운영을 총괄하고, 각 부서장은 소속 직원이 "
        f"{josa(f'이 {_noun(entry.title)}', '을', '를')} 지키도록 관리한다."
    )
    versions: list[VersionSpec] = []
    previous: dict[str, str] = {}
    year = start_year
    for version in range(1, entry.versions + 1):
        topical = [_fill(article, version) for article in pool[: base_count + version - 1]]
        pairs = [("목적", purpose), ("적용 범위", scope), *topical, ("책임과 권한", duties)]
        if version > 1:
            pairs.append(
                (
                    "위반 시 조치",
                    f"{josa(f'이 {_noun(entry.title)}', '을', '를')} "
                    "위반한 사실이 확인되면 주관부서는 시정을 요구하고 관련 사규에 따라 "
                    "조치한다.",
                )
            )
        month = rng.choice((1, 3, 4, 7, 9, 10))
        summary = "제정" if version == 1 else _amendment_summary(previous, topical)
        previous = dict(topical)
        versions.append(
            compose_version(entry.title, version, f"{year}-{month:02d}-01", summary, pairs)
        )
        year += rng.randint(1, 2)
    return DocumentSpec(
        entry.doc_no,
        entry.title,
        entry.doc_class,
        entry.owner,
        (entry.parent,) if entry.parent else (),
        tuple(versions),
        sensitivity=entry.sensitivity,
    )


def generic_documents(seed: int, titles: dict[str, str]) -> list[DocumentSpec]:
    """Compose every catalogue document.

    Args:
        seed: generator seed.
        titles: titles of the hand-written documents, so a child can name its parent.

    Returns:
        Document specs in catalogue order.
    """
    known = dict(titles)
    known.update({entry.doc_no: entry.title for entry in CATALOGUE})
    docs = []
    for entry in CATALOGUE:
        rng = random.Random(f"{seed}:corpus:{entry.doc_no}")
        # Every version stays in the past for any today from 2025 on: the last one
        # is at most 2024, two years per revision at the most.
        start_year = 2018 + rng.randint(0, 6 - 2 * (entry.versions - 1))
        parent_title = known.get(entry.parent or "", "상위 사규")
        docs.append(_compose(entry, rng, parent_title, start_year))
    return docs
