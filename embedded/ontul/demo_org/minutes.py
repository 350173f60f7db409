"""Meeting notes (MINUTES): not citable, but about the same topics as the rules.

They deliberately mention figures that differ from the regulations in force, so
a search that forgets the citable filter gives itself away.
"""

from __future__ import annotations

from embedded.ontul.demo_org.model import Article, DocumentSpec, VersionSpec

_MEETINGS: tuple[tuple[str, str, str, str, tuple[tuple[str, str], ...]], ...] = (
    (
        "GEN-MIN-001",
        "노사협의회 회의록(2025년 1분기)",
        "HR",
        "2025-02-12",
        (
            (
                "육아휴직 확대 요구",
                "근로자위원은 육아휴직을 연간 40일까지 늘려 달라고 요구하였고, "
                "회사위원은 재원과 대체인력 문제를 들어 추가 검토하기로 하였다.",
            ),
            (
                "연차휴가 이월",
                "연차휴가 이월 한도를 없애자는 의견이 있었으나 합의에 이르지 못하였다.",
            ),
            ("후속 조치", "인사팀은 다음 회의까지 육아 지원 제도 이용 실태를 조사하여 보고한다."),
        ),
    ),
    (
        "GEN-MIN-002",
        "인사위원회 회의록(징계 기준 개선 논의)",
        "HR",
        "2024-11-20",
        (
            (
                "징계 양정 개선",
                "위원들은 징계 양정이 부서마다 다르게 적용된다는 지적에 따라 "
                "유형별 사례집을 만들기로 하였다.",
            ),
            ("소명 절차", "징계 대상자의 소명 기간을 늘리자는 의견이 제시되었다."),
        ),
    ),
    (
        "GEN-MIN-003",
        "경영회의 회의록(출장비 현실화)",
        "FIN",
        "2025-01-22",
        (
            (
                "출장 숙박비 상한",
                "재무팀은 국내 출장 시 서울 숙박비 상한을 1박당 150,000원으로 "
                "올리는 안을 보고하였으나, 예산 영향을 더 검토한 후 결정하기로 "
                "하였다.",
            ),
            ("출장 일비", "일비를 정액에서 실비로 바꾸는 안은 보류되었다."),
        ),
    ),
    (
        "GEN-MIN-004",
        "정보보호위원회 회의록(2024년 하반기)",
        "SEC",
        "2024-12-05",
        (
            (
                "보안 점검 결과",
                "하반기 점검에서 퇴직자 계정 두 건이 회수되지 않은 사실이 확인되어 "
                "즉시 조치하였다.",
            ),
            ("원격접속", "재택근무 확대에 따라 원격접속 보안지침을 정비하기로 하였다."),
        ),
    ),
    (
        "GEN-MIN-005",
        "구매심의위원회 회의록(2025년 2월)",
        "PUR",
        "2025-02-26",
        (
            (
                "결재 구간 조정",
                "천만원 이상 구매는 모두 대표이사가 결재하자는 의견이 있었으나 "
                "현행 기준을 유지하기로 하였다.",
            ),
            ("단가계약 확대", "사무용품과 소모품은 연간 단가계약으로 전환하기로 하였다."),
        ),
    ),
)


def minutes_documents() -> list[DocumentSpec]:
    """The non-citable meeting notes.

    Returns:
        Document specs in insertion order.
    """
    docs = []
    for doc_no, title, dept, held_on, items in _MEETINGS:
        articles = tuple(
            Article(f"안건 {index}", head, body)
            for index, (head, body) in enumerate(items, start=1)
        )
        version = VersionSpec(1, "APPROVED", held_on, held_on, f"{held_on} 회의 기록", articles)
        docs.append(DocumentSpec(doc_no, title, "MINUTES", dept, (), (version,), citable=False))
    return docs
