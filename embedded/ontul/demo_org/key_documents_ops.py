"""Hand-written key documents: travel, purchasing and information security."""

from __future__ import annotations

from embedded.ontul.demo_org import business_rules as rules
from embedded.ontul.demo_org.model import DocumentSpec, compose_version, korean_amount, won

OLD_LODGING_RATIO = 0.8
"""FIN-GDL-001 v1 caps were this fraction of today's."""
OLD_APPROVAL_TIERS: tuple[rules.ApprovalTier, ...] = (
    rules.ApprovalTier(0, 3_000_000, "팀장"),
    rules.ApprovalTier(3_000_000, 20_000_000, "본부장"),
    rules.ApprovalTier(20_000_000, None, "대표이사"),
)


def _travel_rule() -> DocumentSpec:
    title = "여비규정"
    pairs = [
        (
            "목적",
            "이 규정은 직원이 업무로 출장할 때 지급하는 여비의 종류와 지급 원칙을 "
            "정함을 목적으로 한다.",
        ),
        ("여비의 종류", "여비는 교통비, 숙박비, 일비 및 식비로 구분한다."),
        (
            "실비 정산 원칙",
            "여비는 실제 지출한 금액을 증빙에 따라 정산하는 것을 원칙으로 하되, "
            "항목별 상한은 재무팀이 지침으로 정한다.",
        ),
        (
            "출장 승인",
            "출장은 출발 전에 소속 부서장의 승인을 받아야 하며, 해외 출장은 "
            "본부장의 승인을 추가로 받아야 한다.",
        ),
    ]
    return DocumentSpec(
        "FIN-REG-002",
        title,
        "REGULATION",
        "FIN",
        ("GEN-RUL-001",),
        (compose_version(title, 1, "2019-07-01", "제정", pairs),),
    )


def _lodging_text(caps: dict[str, int]) -> str:
    parts = [f"{region} 1박당 {won(cap)}({korean_amount(cap)})" for region, cap in caps.items()]
    return (
        "숙박비는 실제 숙박한 일수에 따라 지급하되, 1박당 상한은 "
        + ", ".join(parts)
        + "으로 한다. 광역시는 부산, 대구, 인천, 광주, 대전, 울산을 말한다."
    )


def _lodging_guideline() -> DocumentSpec:
    title = "출장비 지급 지침"
    old_caps = {region: int(cap * OLD_LODGING_RATIO) for region, cap in rules.LODGING_CAPS.items()}

    def pairs(caps: dict[str, int]) -> list[tuple[str, str]]:
        return [
            (
                "목적",
                "이 지침은 여비규정에 따라 국내 출장 시 지급하는 교통비, 숙박비, 일비의 "
                "상한과 정산 절차를 정함을 목적으로 한다.",
            ),
            ("적용 범위", "이 지침은 임직원의 국내 출장에 적용하며, 해외 출장은 별도로 정한다."),
            ("숙박비 상한", _lodging_text(caps)),
            (
                "상한 초과분의 처리",
                "숙박비가 상한을 넘는 경우 초과 금액은 본인이 부담한다. "
                "다만 행사 등으로 상한 이내의 숙소를 구할 수 없는 사정을 "
                "출장 전에 소명하여 부서장의 승인을 받은 경우에는 그러하지 "
                "아니하다.",
            ),
            (
                "교통비",
                "교통비는 철도, 고속버스 등 대중교통의 실제 요금을 지급하며, 자가용을 "
                "이용한 경우 유류비는 회사 기준 단가로 계산한다.",
            ),
            ("일비", f"일비는 출장 1일당 {won(25_000)}을 정액으로 지급한다."),
            (
                "정산 절차",
                "출장자는 출장을 마친 후 2주 안에 영수증을 첨부하여 경비 정산을 "
                "신청하고, 재무팀은 지침 위반 여부를 확인한 후 지급한다.",
            ),
        ]

    return DocumentSpec(
        "FIN-GDL-001",
        title,
        "GUIDELINE",
        "FIN",
        ("FIN-REG-002",),
        (
            compose_version(title, 1, "2021-01-01", "제정", pairs(old_caps)),
            compose_version(
                title,
                2,
                "2024-01-01",
                "개정: 지역별 숙박비 상한 인상",
                pairs(dict(rules.LODGING_CAPS)),
            ),
        ),
    )


def _purchase_rule() -> DocumentSpec:
    title = "구매규정"
    pairs = [
        (
            "목적",
            "이 규정은 회사가 필요로 하는 물품과 용역을 구매하는 절차와 원칙을 정함을 "
            "목적으로 한다.",
        ),
        (
            "구매 원칙",
            "구매는 경쟁을 원칙으로 하며, 특정 업체에 대한 특혜나 부당한 분할 "
            "발주를 하여서는 아니 된다.",
        ),
        (
            "구매 요청",
            "구매가 필요한 부서는 품목, 수량, 예산을 적은 구매요청서를 작성하여 구매팀에 제출한다.",
        ),
        ("결재", "구매 금액에 따른 결재권자는 구매팀이 정하는 구매 결재 기준에 따른다."),
    ]
    return DocumentSpec(
        "PUR-REG-001",
        title,
        "REGULATION",
        "PUR",
        ("GEN-RUL-001",),
        (compose_version(title, 1, "2019-03-01", "제정", pairs),),
    )


def _tier_text(tiers: tuple[rules.ApprovalTier, ...]) -> str:
    lines = []
    for number, tier in enumerate(tiers, start=1):
        low = f"{korean_amount(tier.minimum)}({won(tier.minimum)}) 이상" if tier.minimum else ""
        high = (
            f"{korean_amount(tier.maximum)}({won(tier.maximum)}) 미만"
            if tier.maximum is not None
            else ""
        )
        band = " ".join(part for part in (low, high) if part)
        lines.append(f"{'①②③④'[number - 1]} 구매 금액 {band}: {tier.approver} 결재")
    return " ".join(lines)


def _purchase_guideline() -> DocumentSpec:
    title = "구매 결재 기준"

    def pairs(tiers: tuple[rules.ApprovalTier, ...]) -> list[tuple[str, str]]:
        return [
            ("목적", "이 기준은 구매규정에 따라 구매 금액별 결재권자를 정함을 목적으로 한다."),
            ("금액별 결재권자", _tier_text(tiers)),
            (
                "금액의 산정",
                "구매 금액은 부가가치세를 포함한 총액으로 하며, 같은 목적의 구매를 "
                "나누어 요청한 경우에는 합산한 금액을 기준으로 한다.",
            ),
            (
                "긴급 구매",
                "재해 복구 등 긴급한 경우에는 결재권자의 구두 승인을 받아 먼저 구매하고 "
                "사후에 서면 결재를 받는다.",
            ),
        ]

    return DocumentSpec(
        "PUR-GDL-001",
        title,
        "GUIDELINE",
        "PUR",
        ("PUR-REG-001",),
        (
            compose_version(title, 1, "2020-01-01", "제정", pairs(OLD_APPROVAL_TIERS)),
            compose_version(
                title, 2, "2024-07-01", "개정: 결재 금액 구간 상향", pairs(rules.APPROVAL_TIERS)
            ),
        ),
    )


def _security_rule() -> DocumentSpec:
    title = "정보보안규정"
    base = [
        (
            "목적",
            "이 규정은 회사의 정보자산을 보호하고 보안사고를 예방하기 위하여 필요한 "
            "사항을 정함을 목적으로 한다.",
        ),
        (
            "적용 범위",
            "이 규정은 임직원, 파견 근로자 및 회사의 정보시스템에 접근하는 외부 "
            "용역 인력에게 적용한다.",
        ),
        (
            "정보보호 조직",
            "정보보호 최고책임자는 보안팀장이 겸임하며, 각 부서장은 소관 "
            "정보자산의 보안 책임자가 된다.",
        ),
        (
            "정보자산의 분류",
            "정보자산은 중요도에 따라 대외비, 내부용, 공개로 분류하고 등급에 "
            "맞는 보호 조치를 적용한다.",
        ),
        (
            "접근권한 관리",
            "정보시스템 접근권한은 업무에 필요한 최소한의 범위에서 부여하며, "
            "퇴직하거나 전보된 직원의 권한은 지체 없이 회수한다.",
        ),
        (
            "개인정보 보호",
            "개인정보는 수집 목적의 범위에서만 이용하며, 고유식별정보는 "
            "암호화하거나 화면에서 가려서 표시한다.",
        ),
    ]
    extra = [
        (
            "보안사고 대응",
            "보안사고를 발견한 직원은 즉시 보안팀에 신고하여야 하며, 보안팀은 "
            "피해 확산을 막는 조치를 먼저 한 후 원인을 조사한다.",
        ),
        (
            "세부 지침",
            "정보자산 관리, 개인정보 처리, 접근통제, 원격접속에 관한 세부 사항은 "
            "보안팀이 지침으로 정한다.",
        ),
    ]
    cloud = (
        "클라우드 서비스",
        "외부 클라우드 서비스에 업무 자료를 저장하려는 부서는 보안팀의 "
        "사전 보안성 검토를 받아야 하며, 대외비 자료는 회사가 승인한 서비스에만 저장한다.",
    )
    return DocumentSpec(
        "SEC-REG-001",
        title,
        "REGULATION",
        "SEC",
        ("GEN-RUL-001",),
        (
            compose_version(title, 1, "2019-05-01", "제정", base),
            compose_version(
                title,
                2,
                "2024-05-01",
                "개정: 보안사고 대응 및 세부 지침 위임 조항 신설",
                [*base, *extra],
            ),
            compose_version(
                title,
                3,
                None,
                "개정안(미승인): 클라우드 서비스 이용 보안 조항 신설",
                [*base, *extra, cloud],
            ),
        ),
    )


def ops_key_documents() -> list[DocumentSpec]:
    """The hand-written travel, purchasing and security documents.

    Returns:
        Document specs in insertion order.
    """
    return [
        _travel_rule(),
        _lodging_guideline(),
        _purchase_rule(),
        _purchase_guideline(),
        _security_rule(),
    ]
