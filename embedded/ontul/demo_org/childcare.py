"""HR-REG-003 육아지원규정: five versions, one of them dated relative to today.

Each version names only its own number of childcare days, always in the form
"최대 N일의 육아휴직", so a planner can read it next to the word 육아휴직.
"""

from __future__ import annotations

from datetime import date, timedelta

from embedded.ontul.demo_org import business_rules as rules
from embedded.ontul.demo_org.model import DocumentSpec, VersionSpec, compose_version

TITLE = "육아지원규정"
V1_FROM = "2019-01-01"
V2_FROM = "2023-07-01"
V3_FROM = "2025-03-15"
V3_STATED = "2025-01-01"


def _articles(days: int, *, flexible: bool, spouse: bool) -> list[tuple[str, str]]:
    pairs = [
        (
            "목적",
            "이 규정은 자녀를 양육하는 직원이 일과 가정을 함께 돌볼 수 있도록 회사가 "
            "제공하는 육아 지원 제도의 기준과 절차를 정함을 목적으로 한다.",
        ),
        (
            "적용 대상",
            "이 규정은 만 8세 이하이거나 초등학교 2학년 이하인 자녀를 양육하는 "
            "정규직 및 계약직 직원에게 적용한다.",
        ),
        (
            "육아휴직",
            f"① 대상 직원은 자녀 1명당 연간 최대 {days}일의 육아휴직을 유급으로 "
            "사용할 수 있다. ② 육아휴직은 하루 단위로 나누어 사용할 수 있으며, "
            "사용하지 않은 일수는 다음 해로 이월되지 않는다.",
        ),
        (
            "신청 및 승인",
            "육아휴직을 사용하려는 직원은 인사시스템에서 사용 예정일 이전에 "
            "신청하고 소속 부서장의 승인을 받아야 한다. 부서장은 업무상 "
            "불가피한 경우를 제외하고 신청을 거부할 수 없다.",
        ),
        (
            "불이익 금지",
            "회사는 육아 지원 제도를 이용하였다는 이유로 해당 직원에게 인사평가, "
            "승진, 보수 등에서 불리한 처우를 하여서는 아니 된다.",
        ),
    ]
    if flexible:
        pairs.append(
            (
                "육아기 근로시간 단축",
                "자녀를 양육하는 직원은 육아휴직과 별도로 출퇴근 시각을 조정하거나 "
                "소정근로시간을 줄여 근무할 것을 신청할 수 있다.",
            )
        )
    if spouse:
        pairs.append(
            (
                "배우자 출산 지원",
                "배우자가 출산한 직원에게는 별도의 배우자 출산휴가를 부여하며, "
                "그 세부 기준은 근로시간 및 휴가규정에 따른다.",
            )
        )
    pairs.append(
        (
            "사용 현황 관리",
            "인사팀은 직원별 육아 지원 제도 사용 현황을 인사시스템에 기록하고, "
            "직원은 본인의 사용 일수와 잔여 일수를 조회할 수 있다.",
        )
    )
    return pairs


def childcare_document(today: date) -> DocumentSpec:
    """Build HR-REG-003 with v4 effective ``today + 21 days``.

    Args:
        today: the clock the server runs on.

    Returns:
        The document spec.
    """
    next_from = (today + timedelta(days=rules.CHILDCARE_NEXT_OFFSET_DAYS)).isoformat()
    days = rules.CHILDCARE_DAYS
    versions: list[VersionSpec] = [
        compose_version(
            TITLE,
            1,
            V1_FROM,
            f"제정: 연간 최대 {days[1]}일의 육아휴직 도입",
            _articles(days[1], flexible=False, spouse=False),
        ),
        compose_version(
            TITLE,
            2,
            V2_FROM,
            f"개정: 육아휴직 연간 최대 {days[2]}일, 육아기 근로시간 단축 신설",
            _articles(days[2], flexible=True, spouse=False),
        ),
        compose_version(
            TITLE,
            3,
            V3_FROM,
            f"개정: 육아휴직 연간 최대 {days[3]}일, 배우자 출산 "
            f"지원 신설 (부칙 기재 시행일 {V3_STATED}, 승인일 {V3_FROM})",
            _articles(days[3], flexible=True, spouse=True),
            stated_from=V3_STATED,
        ),
        compose_version(
            TITLE,
            4,
            next_from,
            f"개정: 육아휴직 연간 최대 {days[4]}일 ({next_from} 시행 예정)",
            _articles(days[4], flexible=True, spouse=True),
        ),
        compose_version(
            TITLE,
            5,
            None,
            f"개정안(미승인): 육아휴직 연간 최대 {days[5]}일 검토",
            _articles(days[5], flexible=True, spouse=True),
        ),
    ]
    return DocumentSpec(
        rules.CHILDCARE_DOC_NO, TITLE, "REGULATION", "HR", ("GEN-RUL-001",), tuple(versions)
    )
