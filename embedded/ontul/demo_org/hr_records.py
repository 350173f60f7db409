"""HR/ERP rows: employees, leave, expense claims and purchase orders.

Every row that some persona must not see carries a unique canary in ``비고``;
rows every persona may see (hong's own) carry plain notes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from embedded.ontul.demo_org import business_rules as rules
from embedded.ontul.demo_org.personas import PERSONAS

if TYPE_CHECKING:
    from embedded.ontul.demo_org.canaries import CanaryMint

DEPT_SIZES: dict[str, int] = {"DEV": 12, "HR": 7, "FIN": 8, "SEC": 7, "SAL": 9, "PUR": 7}
RANKS = ("사원", "사원", "대리", "대리", "과장", "과장", "차장", "부장")
SURNAMES = "김이박최정강윤장임한오서신권황안송류전고문양손배백허남심노하곽성차주우구민"
GIVEN = "민서지현우준예은도하수연진영호성재태희경아승혜유나원빈주윤건동석"


@dataclass(frozen=True)
class Employee:
    """One ``hr_employees`` row."""

    emp_no: str
    name: str
    dept: str
    rank: str
    phone: str
    national_id: str
    hired: str
    note: str
    canary: str | None


@dataclass(frozen=True)
class LeaveRow:
    """One ``hr_leave`` row."""

    emp_no: str
    dept: str
    kind: str
    year: int
    granted: int | None
    """부여일수_ERP: the days the ERP granted for the year (None where it records none)."""
    days: int
    note: str
    canary: str | None


@dataclass(frozen=True)
class ExpenseRow:
    """One ``hr_expenses`` row."""

    claim_no: str
    emp_no: str
    dept: str
    kind: str
    region: str | None
    nights: int | None
    amount: int
    claimed_on: str
    status: str
    note: str
    canary: str | None


@dataclass(frozen=True)
class PurchaseRow:
    """One ``hr_purchase_orders`` row."""

    po_no: str
    dept: str
    requester: str
    item: str
    amount: int
    status: str
    note: str
    canary: str | None


@dataclass(frozen=True)
class HrData:
    """All HR rows, in insertion order."""

    employees: tuple[Employee, ...]
    leave: tuple[LeaveRow, ...]
    expenses: tuple[ExpenseRow, ...]
    purchases: tuple[PurchaseRow, ...]

    def employee(self, emp_no: str) -> Employee:
        """Look up an employee by number.

        Args:
            emp_no: 사번.

        Returns:
            The employee row.
        """
        return next(e for e in self.employees if e.emp_no == emp_no)


def _note(mint: CanaryMint, owner: str, text: str) -> tuple[str, str | None]:
    """Plain note for hong's rows (visible to every persona), canary otherwise."""
    if owner == rules.DEMO_EMP_NO:
        return text, None
    marker = mint.mint()
    return f"{text} {marker}", marker


class _Generator:
    def __init__(self, seed: int, mint: CanaryMint, leave_year: int) -> None:
        self.rng = random.Random(f"{seed}:hr")
        self.mint = mint
        self.leave_year = leave_year
        self.phones: set[str] = set()
        self.ids: set[str] = set()
        self.emp_nos = {p.emp_no for p in PERSONAS if p.emp_no}
        self.names = {p.display_name for p in PERSONAS}

    def phone(self) -> str:
        while True:
            phone = f"010-{self.rng.randint(2000, 9999)}-{self.rng.randint(1000, 9999)}"
            if phone not in self.phones:
                self.phones.add(phone)
                return phone

    def national_id(self, prefix: str = "") -> str:
        while True:
            if prefix:
                birth = prefix + f"{self.rng.randint(10, 28):02d}"
                year = 1900 + int(prefix[:2])
            else:
                year = self.rng.randint(1968, 2001)
                month, day = self.rng.randint(1, 12), self.rng.randint(1, 28)
                birth = f"{year % 100:02d}{month:02d}{day:02d}"
            gender = self.rng.choice("12") if year < 2000 else self.rng.choice("34")
            nid = f"{birth}-{gender}{self.rng.randint(0, 999999):06d}"
            if nid not in self.ids:
                self.ids.add(nid)
                return nid

    def emp_no(self) -> str:
        while True:
            emp_no = f"{self.rng.randint(2005, 2024)}{self.rng.randint(11, 99):04d}"
            if emp_no not in self.emp_nos:
                self.emp_nos.add(emp_no)
                return emp_no

    def name(self) -> str:
        while True:
            name = self.rng.choice(SURNAMES) + self.rng.choice(GIVEN) + self.rng.choice(GIVEN)
            if name not in self.names and name[1] != name[2]:
                self.names.add(name)
                return name

    def hired(self, emp_no: str) -> str:
        return f"{emp_no[:4]}-{self.rng.randint(1, 12):02d}-{self.rng.randint(1, 28):02d}"

    def employees(self) -> list[Employee]:
        people: list[Employee] = []
        for persona in PERSONAS:
            if not persona.emp_no:
                continue
            prefix = "9406" if persona.emp_no == rules.DEMO_EMP_NO else ""
            note, canary = _note(self.mint, persona.emp_no, "재직")
            people.append(
                Employee(
                    persona.emp_no,
                    persona.display_name,
                    persona.dept,
                    persona.rank,
                    self.phone(),
                    self.national_id(prefix),
                    self.hired(persona.emp_no),
                    note,
                    canary,
                )
            )
        for dept, size in DEPT_SIZES.items():
            existing = sum(1 for e in people if e.dept == dept)
            for _ in range(size - existing):
                emp_no = self.emp_no()
                note, canary = _note(self.mint, emp_no, "재직")
                people.append(
                    Employee(
                        emp_no,
                        self.name(),
                        dept,
                        self.rng.choice(RANKS),
                        self.phone(),
                        self.national_id(),
                        self.hired(emp_no),
                        note,
                        canary,
                    )
                )
        return people

    def leave(self, people: list[Employee]) -> list[LeaveRow]:
        rows: list[LeaveRow] = []

        def add(emp: Employee, kind: str, days: int, text: str) -> None:
            note, canary = _note(self.mint, emp.emp_no, text)
            granted = rules.erp_granted_days(kind, int(emp.hired[:4]), self.leave_year)
            rows.append(
                LeaveRow(emp.emp_no, emp.dept, kind, self.leave_year, granted, days, note, canary)
            )

        for emp in people:
            add(emp, "연차", self.rng.randint(1, 11), "연차 사용 현황")
        childcare = {
            rules.DEMO_EMP_NO: rules.DEMO_CHILDCARE_USED,
            "20090001": rules.HR_OFFICER_CHILDCARE_USED,
        }
        dev_others = [
            e
            for e in people
            if e.dept == "DEV" and e.emp_no not in childcare and e.emp_no != "20150010"
        ]
        other_depts = [e for e in people if e.dept not in ("DEV", "HR")]
        for emp in self.rng.sample(dev_others, 4) + self.rng.sample(other_depts, 3):
            childcare[emp.emp_no] = self.rng.choice([2, 4, 5, 6, 9, 10, 11, 14])
        for emp in people:
            if emp.emp_no in childcare:
                add(emp, "육아휴직", childcare[emp.emp_no], "육아휴직 사용")
        for emp in self.rng.sample(people, 5):
            if emp.emp_no != rules.DEMO_EMP_NO:
                add(emp, "병가", self.rng.randint(1, 3), "병가 사용")
        return rows

    def expenses(self, people: list[Employee]) -> list[ExpenseRow]:
        rows: list[ExpenseRow] = []
        hong = next(e for e in people if e.emp_no == rules.DEMO_EMP_NO)
        cap = rules.LODGING_CAPS[rules.DEMO_LODGING_REGION]
        claims: list[tuple[Employee, str, str | None, int | None, int]] = [
            (
                hong,
                "출장숙박",
                rules.DEMO_LODGING_REGION,
                rules.DEMO_LODGING_NIGHTS,
                cap * rules.DEMO_LODGING_NIGHTS + rules.DEMO_LODGING_EXCESS,
            ),
            (hong, "교통비", None, None, 59_800),
        ]
        regions = ["서울", "광역시", "기타 지역"]
        for emp in self.rng.sample([e for e in people if e.emp_no != hong.emp_no], 22):
            kind = self.rng.choice(["출장숙박", "출장숙박", "교통비", "식대", "도서구입"])
            if kind == "출장숙박":
                region = self.rng.choice(regions)
                nights = self.rng.randint(1, 4)
                per_night = rules.LODGING_CAPS[region] + self.rng.choice(
                    [-15_000, -5_000, 0, 12_000]
                )
                claims.append((emp, kind, region, nights, per_night * nights))
            else:
                claims.append((emp, kind, None, None, self.rng.randint(8, 160) * 1_000))
        for index, (emp, kind, where, stay, amount) in enumerate(claims, start=1):
            day = f"2025-{self.rng.randint(1, 3):02d}-{self.rng.randint(1, 28):02d}"
            status = self.rng.choice(["승인", "승인", "승인대기"]) if index > 1 else "승인대기"
            note, canary = _note(self.mint, emp.emp_no, f"{kind} 청구")
            rows.append(
                ExpenseRow(
                    f"EXP-2025-{index:04d}",
                    emp.emp_no,
                    emp.dept,
                    kind,
                    where,
                    stay,
                    amount,
                    day,
                    status,
                    note,
                    canary,
                )
            )
        return rows

    def purchases(self, people: list[Employee]) -> list[PurchaseRow]:
        plan = [
            ("DEV", "20150010", "개발 서버 증설", rules.DEMO_PURCHASE_AMOUNT, "결재대기"),
            ("DEV", "", "개발자 노트북 2대", 4_200_000, "승인"),
            ("SEC", "", "보안관제 장비 교체", 42_000_000, "결재대기"),
            ("FIN", "", "회계 소프트웨어 라이선스", 7_500_000, "승인"),
            ("SAL", "", "전시회 부스 제작", 3_300_000, "승인"),
            ("HR", "", "직무교육 위탁 운영", 18_000_000, "승인"),
            ("PUR", "", "사무용품 연간 단가계약", 2_400_000, "승인"),
            ("DEV", "", "테스트 단말기", 900_000, "반려"),
        ]
        rows: list[PurchaseRow] = []
        for index, (dept, requester, item, amount, status) in enumerate(plan, start=1):
            if not requester:
                pool = [e for e in people if e.dept == dept and e.emp_no != rules.DEMO_EMP_NO]
                requester = self.rng.choice(pool).emp_no
            note, canary = _note(self.mint, requester, "구매 요청")
            rows.append(
                PurchaseRow(
                    f"PO-2025-{index:03d}", dept, requester, item, amount, status, note, canary
                )
            )
        return rows


def build_hr_records(seed: int, mint: CanaryMint, leave_year: int) -> HrData:
    """Generate every HR row for ``seed``.

    Args:
        seed: generator seed.
        mint: source of canary markers (shared with the regulation builder).
        leave_year: the year the leave balances are for: the server clock's, so "days
            left" and a revision taking effect later this year speak of the same year.

    Returns:
        The rows, in insertion order.
    """
    gen = _Generator(seed, mint, leave_year)
    people = gen.employees()
    return HrData(
        tuple(people),
        tuple(gen.leave(people)),
        tuple(gen.expenses(people)),
        tuple(gen.purchases(people)),
    )
