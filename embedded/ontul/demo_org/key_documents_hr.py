"""Hand-written key documents: the top rule and the HR regulations the scenarios use."""

from __future__ import annotations

from embedded.ontul.demo_org import business_rules as rules
from embedded.ontul.demo_org.model import DocumentSpec, compose_version

NOTICE_PHONE = "02-3456-7890"
"""Contact number printed in the 연말정산 notice (redacted for most callers)."""
NOTICE_NATIONAL_ID = "850315-1048276"
"""National-ID-shaped sample printed in the notice prose (redacted for most callers)."""


def _top_rule() -> DocumentSpec:
    title = "사규 기본규칙"
    common = [
        (
            "목적",
            "이 규칙은 회사의 사규 체계와 사규의 제정·개정·폐지 절차를 정하여 사규가 "
            "일관되게 운영되도록 함을 목적으로 한다.",
        ),
        (
            "사규의 체계",
            "사규는 규칙, 규정, 지침의 순서로 위계를 이루며, 하위 사규는 반드시 "
            "근거가 되는 상위 사규를 명시하여야 한다. 하위 사규가 상위 사규와 "
            "충돌하는 경우 상위 사규를 따른다.",
        ),
        (
            "제정 및 개정",
            "사규를 제정하거나 개정하려는 주관부서는 개정안을 작성하여 관계부서 "
            "협의를 거친 후 승인권자의 승인을 받아야 한다.",
        ),
    ]
    effect = (
        "효력의 발생",
        "사규는 승인권자가 승인한 날부터 효력을 가진다. 사규 본문이나 "
        "부칙에 기재된 시행일이 승인일보다 앞서는 경우에도 승인일을 시행일로 보며, "
        "승인일 이후의 날짜를 시행일로 정한 경우에는 그 날부터 효력을 가진다.",
    )
    later = [
        (
            "개정 요청",
            "직원은 사규의 내용이 현실에 맞지 않거나 개선이 필요하다고 판단하면 "
            "사유를 적어 주관부서에 개정을 요청할 수 있다. 같은 사규의 같은 판에 "
            "대한 동일인의 요청은 하나의 요청으로 처리한다.",
        ),
        (
            "공개와 열람",
            "사규는 전 직원이 열람할 수 있도록 게시한다. 다만 대외비로 지정된 "
            "사규는 열람 권한이 부여된 직원만 열람할 수 있다.",
        ),
        (
            "회의록의 지위",
            "위원회 및 회의의 회의록은 논의 경과를 기록한 자료일 뿐 사규가 "
            "아니므로 업무 처리의 근거로 인용할 수 없다.",
        ),
    ]
    return DocumentSpec(
        "GEN-RUL-001",
        title,
        "RULE",
        "GEN",
        (),
        (
            compose_version(title, 1, "2018-01-01", "제정", [*common, *later[:2]]),
            compose_version(
                title,
                2,
                "2022-01-01",
                "개정: 효력 발생 기준(승인일 원칙) 명확화, 회의록의 지위 신설",
                [*common, effect, *later],
            ),
        ),
    )


def _personnel() -> DocumentSpec:
    title = "인사규정"
    base = [
        (
            "목적",
            "이 규정은 직원의 채용, 배치, 승진, 징계 등 인사관리에 필요한 사항을 정함을 "
            "목적으로 한다.",
        ),
        (
            "채용",
            "직원의 채용은 공개경쟁을 원칙으로 하며, 채용 절차와 방법은 인사팀장이 따로 정한다.",
        ),
        (
            "배치 및 전보",
            "회사는 직원의 역량과 경력, 본인의 희망을 고려하여 부서에 배치하며 "
            "업무상 필요한 경우 전보할 수 있다.",
        ),
        (
            "승진",
            "승진은 인사평가 결과, 경력, 교육 이수 실적을 종합하여 인사위원회의 심의를 "
            "거쳐 결정한다.",
        ),
        (
            "징계의 종류",
            "징계는 견책, 감봉, 정직, 해고로 구분한다. 비위 유형별 세부 양정 "
            "기준은 인사팀이 따로 정하며, 그 기준은 대외비로 관리한다.",
        ),
        (
            "징계 절차",
            "징계는 인사위원회의 의결을 거쳐 대표이사가 행한다. 징계 대상자에게는 "
            "위원회 개최 전에 소명할 기회를 주어야 한다.",
        ),
    ]
    records = (
        "인사기록",
        "인사팀은 직원의 인사기록을 보관하며, 주민등록번호 등 고유식별정보는 "
        "법령상 필요한 범위에서만 처리하고 접근 권한을 제한한다.",
    )
    return DocumentSpec(
        "HR-REG-001",
        title,
        "REGULATION",
        "HR",
        ("GEN-RUL-001",),
        (
            compose_version(title, 1, "2018-03-01", "제정", base),
            compose_version(
                title, 2, "2023-01-01", "개정: 인사기록 보호 조항 신설", [*base, records]
            ),
        ),
    )


def _working_time() -> DocumentSpec:
    title = "근로시간 및 휴가규정"

    def pairs(annual: int, cap: int) -> list[tuple[str, str]]:
        return [
            (
                "목적",
                "이 규정은 직원의 근로시간, 휴게, 휴일 및 휴가에 관한 사항을 정함을 목적으로 한다.",
            ),
            ("근로시간", "소정근로시간은 휴게시간을 제외하고 1일 8시간, 1주 40시간으로 한다."),
            (
                "휴게시간",
                "휴게시간은 낮 12시부터 오후 1시까지로 하되, 부서장은 업무 사정에 따라 "
                "조정할 수 있다.",
            ),
            (
                "연장근로",
                "연장근로는 본인의 동의와 부서장의 사전 승인을 받아야 하며, 1주 "
                "12시간을 넘을 수 없다.",
            ),
            (
                "연차휴가",
                f"1년간 8할 이상 출근한 직원에게 연 {annual}일의 유급 연차휴가를 "
                f"부여하고, 근속 2년마다 1일을 가산하되 총 일수는 {cap}일을 한도로 한다.",
            ),
            (
                "특별휴가",
                "회사는 결혼, 출산, 사망 등 경조사가 있는 직원에게 유급 특별휴가를 "
                "부여한다. 육아와 관련한 휴가는 육아지원규정에서 따로 정한다.",
            ),
            (
                "운영 세부사항",
                "연차휴가의 신청, 이월, 사용 촉진 등 운영에 필요한 세부사항은 "
                "인사팀이 지침으로 정한다.",
            ),
        ]

    return DocumentSpec(
        "HR-REG-002",
        title,
        "REGULATION",
        "HR",
        ("GEN-RUL-001",),
        (
            compose_version(title, 1, "2018-03-01", "제정", pairs(16, 24)),
            compose_version(
                title,
                2,
                "2024-01-01",
                "개정: 연차휴가 부여 일수 상향",
                pairs(rules.ANNUAL_LEAVE_DAYS, rules.ANNUAL_LEAVE_CAP),
            ),
        ),
    )


def _annual_leave_guideline() -> DocumentSpec:
    title = "연차휴가 운영지침"

    def pairs(carry: int) -> list[tuple[str, str]]:
        return [
            (
                "목적",
                "이 지침은 근로시간 및 휴가규정에 따른 연차휴가의 신청과 사용, 이월에 "
                "관한 세부 운영 기준을 정함을 목적으로 한다.",
            ),
            (
                "신청 방법",
                "연차휴가는 인사시스템으로 사용 예정일 전날까지 신청하며, 긴급한 "
                "사유가 있는 경우 사후에 신청할 수 있다.",
            ),
            (
                "반차 사용",
                "연차휴가는 오전 또는 오후 반일 단위로 나누어 사용할 수 있으며, "
                "반차 2회는 연차휴가 1일로 계산한다.",
            ),
            (
                "이월",
                f"당해 연도에 사용하지 못한 연차휴가는 최대 {carry}일까지 다음 연도로 "
                "이월할 수 있고, 이월된 휴가는 다음 연도 상반기 안에 사용하여야 한다.",
            ),
            (
                "사용 촉진",
                "인사팀은 매년 하반기에 미사용 연차휴가가 많은 직원과 그 부서장에게 "
                "사용 계획을 제출하도록 안내한다.",
            ),
            (
                "승인권자",
                "연차휴가의 승인권자는 소속 팀장으로 하며, 팀장의 휴가는 본부장이 승인한다.",
            ),
        ]

    return DocumentSpec(
        "HR-GDL-002",
        title,
        "GUIDELINE",
        "HR",
        ("HR-REG-002",),
        (
            compose_version(title, 1, "2019-01-01", "제정", pairs(4)),
            compose_version(title, 2, "2024-03-01", "개정: 이월 한도 조정", pairs(6)),
        ),
    )


def _discipline() -> DocumentSpec:
    title = "징계 양정기준"
    base = [
        (
            "목적",
            "이 기준은 인사규정에 따른 징계의 양정을 비위 유형과 정도에 따라 공정하고 "
            "일관되게 정하기 위한 세부 기준을 정함을 목적으로 한다.",
        ),
        (
            "양정의 원칙",
            "징계 양정은 비위의 동기, 고의 또는 과실의 정도, 피해 규모, 평소의 "
            "근무태도를 종합하여 정한다.",
        ),
        (
            "금품 수수",
            "직무와 관련하여 금품이나 향응을 받은 경우 그 금액이 소액이라도 정직 "
            "이상으로 하고, 요구하여 받은 경우에는 해고로 한다.",
        ),
        (
            "직장 내 괴롭힘",
            "직장 내 괴롭힘이 확인된 경우 감봉 이상으로 하며, 반복되거나 "
            "피해가 중대한 경우 해고까지 할 수 있다.",
        ),
        (
            "보안 위반",
            "대외비 자료를 승인 없이 외부로 반출한 경우 정직 이상으로 하고, 고의로 "
            "유출한 경우 해고로 한다.",
        ),
        (
            "감경과 가중",
            "자진 신고하거나 피해를 회복한 경우 한 단계 감경할 수 있고, 최근 징계 "
            "이력이 있는 경우 한 단계 가중한다.",
        ),
    ]
    erase = (
        "기록 말소",
        "견책 이하의 징계 기록은 일정 기간 추가 비위가 없으면 인사기록에서 "
        "말소하며, 말소 여부는 인사위원회가 확인한다.",
    )
    return DocumentSpec(
        "HR-GDL-003",
        title,
        "GUIDELINE",
        "HR",
        ("HR-REG-001",),
        (
            compose_version(title, 1, "2020-07-01", "제정", base),
            compose_version(
                title, 2, "2024-07-01", "개정: 징계 기록 말소 기준 신설", [*base, erase]
            ),
        ),
        sensitivity="대외비",
    )


def _year_end_notice() -> DocumentSpec:
    title = "연말정산 안내"
    pairs = [
        (
            "목적",
            "이 안내는 전 직원의 근로소득 연말정산 일정과 제출 서류, 문의처를 알리기 위한 것이다.",
        ),
        (
            "일정",
            "직원은 국세청 간소화 자료를 내려받아 1월 말까지 인사시스템에 제출하고, "
            "인사팀은 2월 급여에서 정산 결과를 반영한다.",
        ),
        (
            "제출 서류",
            "부양가족 공제를 신청하는 직원은 가족관계증명서를 함께 제출한다. 작성 "
            f"요령 화면에 예시로 나온 주민등록번호 {NOTICE_NATIONAL_ID}을 그대로 "
            "입력하지 말고 반드시 본인과 부양가족의 정보를 입력한다.",
        ),
        (
            "문의처",
            f"연말정산 관련 문의는 인사팀 급여 담당자(전화 {NOTICE_PHONE})에게 하며, "
            "근무시간 중에만 응대한다.",
        ),
    ]
    return DocumentSpec(
        "HR-GDL-010",
        title,
        "GUIDELINE",
        "HR",
        ("HR-REG-006",),
        (compose_version(title, 1, "2025-01-02", "2024년 귀속 연말정산 안내", pairs),),
        tags=("notice",),
    )


def hr_key_documents() -> list[DocumentSpec]:
    """The hand-written HR and top-rule documents.

    Returns:
        Document specs in insertion order.
    """
    return [
        _top_rule(),
        _personnel(),
        _working_time(),
        _annual_leave_guideline(),
        _discipline(),
        _year_end_notice(),
    ]
