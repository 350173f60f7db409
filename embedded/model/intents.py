"""Intent detection: which plan answers a question (a table, checked in order)."""

from __future__ import annotations

import calendar
import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from embedded.model.departments import asks_per_department, named_departments
from embedded.model.entities import (
    ARTICLE_NO,
    HEARD,
    MINE,
    VAT_APART,
    amount_spans,
    date_phrase,
    extract,
)
from embedded.model.lexicon import (
    APPROVERS,
    CUES,
    DEPARTMENTS,
    FOLLOW_UP_GENERIC,
    LEAVE_ASPECTS,
    LEAVE_TYPES,
    OVER_WORDS,
    RANKS,
    SPLIT_PURCHASE_WORDS,
    TITLE_SUFFIXES,
    TOPIC_WORDS,
)
from embedded.model.people import asked_fields, asks_roster, named_people

if TYPE_CHECKING:
    from collections.abc import Callable

    from embedded.model.entities import Entities


def _cue_pattern(words: tuple[str, ...]) -> re.Pattern[str] | None:
    """English cue words at a word's start ('used' is not in 'unused'; 'approve' is in
    'approves'); None when none."""
    latin = [w for w in words if w.isascii() and w == w.strip() and w]
    if not latin:
        return None
    alternatives = "|".join(re.escape(w) for w in sorted(latin, key=len, reverse=True))
    return re.compile(rf"(?<![a-z])(?:{alternatives})")


_CUE_PATTERNS = {name: _cue_pattern(words) for name, words in CUES.items()}


def _is_short_korean(word: str) -> bool:
    """A one-syllable Korean cue with its space ('내 ', '나 '): a word of its own only."""
    return len(word.strip()) == 1 and "가" <= word.strip() <= "힣"


_SHORT_KOREAN = {
    name: re.compile("|".join(rf"(?<![가-힣]){re.escape(w)}" for w in short))
    for name, words in CUES.items()
    if (short := [w for w in words if _is_short_korean(w)])
}
"""The one-syllable Korean cues of each name, matched only where a word starts ('국내 출장'
holds no '내 ')."""


@functools.lru_cache(maxsize=256)
def _without_names(question: str) -> str:
    """The question with the people it names taken out ('남은서' holds no '남은')."""
    for name in named_people(question):
        # only a name with a title or honorific is surely one ('남은서 대리'); '예전엔'
        # may read as a name and is a cue word with its particle
        if re.search(rf"{re.escape(name)}\s*(?:씨|님|{'|'.join(RANKS)}|팀장|본부장)", question):
            question = question.replace(name, " ")
    return question


def cue(question: str, name: str) -> bool:
    """True when the question contains one of the cue words of ``name``.

    Korean cues match inside words (particles attach to them); English cues match
    from a word's start only.
    """
    lowered = f" {_without_names(question).lower()} "
    # Korean cues, and cues written with their spaces (' i ', 'my '), match as written.
    if any(
        word in lowered
        for word in CUES[name]
        if (not word.isascii() or word != word.strip()) and not _is_short_korean(word)
    ):
        return True
    short = _SHORT_KOREAN.get(name)
    if short is not None and short.search(lowered):
        return True
    pattern = _CUE_PATTERNS[name]
    return pattern is not None and pattern.search(lowered) is not None


_REFUSED = re.compile(r"거부|거절|turn (?:it |them )?down|\brefuse|\bsay no\b|\breject", re.I)
_LEAVE_LIMIT = re.compile(r"한도|상한|\b(?:limit|cap|ceiling|maximum|max)\b", re.I)


def _names_leave(q: str) -> bool:
    lowered = q.lower()
    return any(word in lowered for word in LEAVE_TYPES)


def _can_take(q: str) -> bool:
    return any(w in q.lower() for w in ("쓸 수", "사용할 수", "can i", "take"))


_DAY_COUNT = re.compile(r"(?<![\d월])(?<!월\s)\d{1,3}\s*(?:일|days?\b)")  # not a date (1월 1일)


def _names_days(q: str) -> bool:
    """'25일 한도로', '30 days': a number of days named with a leave topic ('20일짜리 판',
    a version named by its figure, names none)."""
    return _names_leave(q) and _DAY_COUNT.search(_FIGURE_VERSION.sub(" ", q)) is not None


_FIGURE_VERSION = re.compile(
    r"(\d{1,3})\s?일\s?짜리\s?(?:판|버전|규정|개정판)|\bthe\s(\d{1,3})[\s-]days?\sversion\b", re.I
)


_DAYS_FIGURE = re.compile(r"\d{1,3}\s*(?:-\s*day\b|days?\b|일(?:짜리|로|이)?(?=\s|$|[?？]))", re.I)


_CHANGING = re.compile(
    r"늘어나|늘어난|늘어날|늘린다|늘려|줄어드|줄어든|줄어들|바뀐다|바뀐다는|바뀔|오른다|올라간다"
    r"|\b(?:increas|decreas|go(?:es|ing)? up|rais|chang)"
    # ('… a 30-day version. What's actually approved and when does it kick in?')
    r"|\bwhat'?s (?:actually )?approved\b|\bkicks? in\b|\d+[- ]day version\b",
    re.I,
)
"""A figure said to be coming ('30일로 늘어난다는', 'going up to 30 days')."""
_FROM_WHEN = re.compile(r"\bfrom when\b|\bstarting when\b", re.I)
_NOW = re.compile(r"지금|현재|바로|\bnow\b", re.I)


def version_figure(question: str) -> str | None:
    """The figure a version is named by ('20일짜리 판', 'the 20-day version' → '20일')."""
    match = _FIGURE_VERSION.search(question)
    return f"{match.group(1) or match.group(2)}일" if match else None


_CLAIM_NO = re.compile(r"(?<![A-Za-z0-9-])EXP-\d{4}-\d{4}(?!\d)")
_PO_NO = re.compile(r"(?<![A-Za-z0-9-])PO-\d{4}-\d{3}(?!\d)")


_SUPPOSING = re.compile(r"(?:하|리|려|해|면|서)면\b|면\s|\bif\b|\bwhat if\b|\bcan i\b")
"""A purchase supposed ('나눠서 올리면', 'if I split'), not one on record."""


def _about_orders(q: str, e: Entities) -> bool:
    """Purchase orders themselves (a PO number, or orders with their status/amount)."""
    if _PO_NO.search(q):
        return True
    lowered = q.lower()
    if any(w in lowered for w in SPLIT_PURCHASE_WORDS) and _SUPPOSING.search(lowered):
        return False  # '구매 건을 두 번으로 나눠서 올리면 …?': the rule on a split, no records
    orders = (
        any(
            w in lowered
            for w in (
                "purchase order",
                "purchase request",
                "purchase req",
                "구매 신청",
                "구매신청",
                "발주",
                "구매요청",
                "구매 요청",
                "구매 건",
                "구매건",
            )
        )
        or re.search(r"(?<![a-z])pos?(?![a-z])", lowered) is not None
    )  # 'the 42M won … PO', 'PO중에', 'PO들'
    if orders and any(w in lowered for w in ("status", "상태", "어떻게 됐", "진행 상황")):
        return True  # an order's status: the records, whatever amount names it
    if orders and e.amount is None and named_people(q):
        return True  # "Kim Do-hyun's laptop purchase order": that person's orders
    if (
        orders
        and e.amount is None
        and (MINE.search(lowered) or re.search(r"\bour\b|(?<![가-힣])우리\s", lowered))
    ):
        return True  # 'who has to approve my dev server expansion PO?': the asker's orders
    record = any(
        w in lowered
        for w in (
            "상태",
            "status",
            "대기",
            "waiting",
            "pending",
            "있어",
            "목록",
            "list",
            "확인",
            "check",
            "내역",
            " 건",
            "몇건",
            "몇 건",
            "몇개",
            "몇 개",
            "how many",
            "기다리",
            "총액",
            "합계",
            "합치",
            "total",
            "rejected",
            "approved?",
            "get approved",
            "승인됐",
            "승인 났",
            "반려",
            "requested",
            # one order's amount or requester ('발주 얼마짜리야', '금액 얼마야', '누가 올렸어')
            "얼마짜리",
            "얼마야",
            "금액 얼마",
            "금액이 얼마",
            "얼마였",
            "올렸",
            "올린",
            "who placed",
            "who requested",
            "how much was",
            "how much is",
            # the largest order, or orders over an amount ('3천만원 넘는 발주 있음?')
            "largest",
            "biggest",
            "제일 큰",
            "가장 큰",
            "젤 큰",
            "젤 비싼",
            "제일 비싼",
            "가장 비싼",
            "최고액",
            "most expensive",
            # which of the orders ('Which purchase orders need CEO approval?', '어떤 발주')
            "which",
            "어떤 발주",
            "무슨 발주",
            "뭐뭐",
        )
    )
    over = any(w in lowered for w in OVER_WORDS)
    return orders and (record or over) and (e.amount is None or over)


def _pending_anywhere(q: str, e: Entities) -> bool:
    """Revisions in flight asked about across documents (no document or topic named)."""
    if e.doc_nos or e.title_words:
        return False
    if _records(q):
        return False  # pending claims or orders are records, not revisions
    if cue(q, "version_compare") and e.keywords:
        return False  # 'what was it before the revision?': a rule then, not revisions
    if _asks_process(q):
        return False  # 'how is a duplicate revision request handled?': the rule on requests
    if cue(q, "pending_list"):
        return True
    topic = any(k in TOPIC_WORDS for k in e.keywords)
    return cue(q, "pending_any") and not topic and not cue(q, "days")


def _records(q: str) -> bool:
    """Claims or orders (HR records) are asked about, not regulation revisions."""
    return any(
        w in q.lower()
        for w in ("claim", "청구", "발주", "purchase order", "경비", "expense", "구매요청")
    )


_BY_STATUS = ("승인대기", "승인 대기", "대기 중", "대기중", "몇 건", "몇건", "반려된", "pending")


def expenses_by_status(q: str) -> bool:
    """'우리팀 경비 승인대기 몇 건이야': expenses asked by status or count are the claims."""
    lowered = q.lower()
    return any(w in lowered for w in ("경비", "expense")) and any(w in lowered for w in _BY_STATUS)


_MAY_CLAIM = re.compile(
    r"얼마까지|청구\s?(?:가능|돼|되나|되요|돼요|할\s?수)|\bhow much can\b|\bcan (?:i|we) claim\b"
    r"|\bis there a (?:cap|limit)\b"
)


def _claim_record(q: str) -> bool:
    """A filed claim asked about: its amount, status or whose it is (not the claim rule)."""
    lowered = q.lower()
    filed = re.search(r"\bexpenses? (?:i|we) (?:filed|submitted|claimed)\b|\bi filed\b", lowered)
    if not any(w in lowered for w in ("청구", "claim")) and not expenses_by_status(q) and not filed:
        return False

    if any(w in lowered for w in ("규정", "절차", "방법", "기한", "how do", "how to", "rule")):
        return False
    if _MAY_CLAIM.search(lowered):
        return False  # '야근 식대 얼마까지 청구 돼요?': what may be claimed is a rule
    if expenses_by_status(q):
        return True  # '우리 부서 expense 중에 아직 pending인거 몇건이야?': the claims
    status = (
        "승인",
        "상태",
        "얼마",
        "올렸",
        "했어",
        "한 건",
        "있어",
        "status",
        "approved",
        "how much",
        # the largest claim and who filed it ('제일 큰 금액 낸 사람', 'biggest … submitted')
        "낸 사람",
        "제일 큰",
        "가장 큰",
        "biggest",
        "largest",
        "submitted",
        # what became of it ('교통비 청구한 거 어떻게 됐어')
        "어떻게 됐",
        "어떻게 되었",
        "처리됐",
        "what happened",
    )
    return bool(named_people(q)) or cue(q, "self") or any(w in lowered for w in status)


def _purchase(q: str) -> bool:
    """A purchase is asked about ('구매팀' names a department, not a purchase)."""
    lowered = q.lower()
    for word in DEPARTMENTS:
        lowered = lowered.replace(word, " ")
    if _CLAIMED.search(lowered):
        return False  # '교통비 128,000원 청구한거 결재하려는데': an expense claim, no purchase
    return cue(lowered, "purchase")


_CLAIMED = re.compile(r"청구|교통비|식대|출장비|숙박비|\bclaim|\bexpense report|\breimburse")


_LIMIT_ASKED = ("얼마까지", "얼마", "금액", "how much", "amount", "up to", "limit", "한도")


def _approver_limit_asked(q: str) -> bool:
    """An approver is named and the amount they may approve is asked."""
    lowered = q.lower()
    return any(w in lowered for w in APPROVERS) and any(w in lowered for w in _LIMIT_ASKED)


def _claims_over(q: str) -> bool:
    """Claims checked against the cap ('claims … exceed', '청구 … 넘은')."""
    lowered = q.lower()
    claims = any(w in lowered for w in ("claim", "청구"))
    over = any(w in lowered for w in ("exceed", " over ", "넘은", "넘는", "초과"))
    return claims and over


_LINK_WORDS = ("온톨로지", "ontology", "연결된", "linked", "링크")


def _carry(e: Entities) -> bool:
    return "이월" in e.keywords


_ID_RECORDS = re.compile(
    r"직원\s?\d+\s?명|전부|전체|명단|뽑아|\ball employees\b|\bevery(?:one|body)\b"
)
_RULE_ASKED = re.compile(
    r"규정|지침|규칙|조항|\b(?:rules?|regulations?|polic(?:y|ies)|guidelines?)\b", re.I
)


_OWN_RECORDED = re.compile(
    r"\d+\s*일\s*(?:로|이라고|이라)?\s*(?:나와|돼|되어|찍혀|잡혀|적혀|들어가)"
)
"""A figure a record shows ('21일로 나와있는데')."""
_CITATION_ASKED = re.compile(r"근거\s*(?:doc_?no|문서\s?번호|조항|조문)", re.I)
_AGREES = re.compile(
    r"일치|같은지|같아\?|맞는지|어긋나|충돌|상충|다른지|다르지|다른데|달라|뭐가\s?맞|어느\s?쪽"
    r"|\bwhich (?:one )?(?:is right|applies|wins)\b|\bconsistent\b|\bmatch(?:es)?\b"
    r"|\bconflicts?\b|\bagree",
    re.I,
)


def _names_regulation(e: Entities) -> bool:
    return bool(e.title_words or e.doc_nos) or any(
        k in TOPIC_WORDS and k != "주민등록번호" for k in e.keywords
    )


def _about_person(q: str) -> bool:
    """Someone's own record: a name, or 'my …' with the HR database or no regulation named."""
    lowered = f" {q.lower()} "
    regulation = any(
        w in lowered for w in ("규정", "지침", "안내", "기준", "문의", "regulation", "guideline")
    )
    if regulation:
        return False
    if named_people(q):
        return True
    team = ("팀원", "우리 팀", "우리팀", "저희 팀", "부서원", " my team", " our team")
    # ('What phone number do I have on file?': the asker's own record)
    own = (
        *(" 내 ", " 제 ", " my ", "나의", "저의", " do i have ", " have i got ", " i have on "),
        *(" for me", " about me", " of me", " on me"),  # 'what do you have on file for me?'
    )
    return any(w in lowered for w in (*own, *team))


def _names_department(q: str) -> bool:
    """'우리 부서', 'my team', or a department by name ('인사팀', 'the HR team')."""
    lowered = q.lower()
    return cue(q, "department") or any(name in lowered for name in DEPARTMENTS)


def _record_word(q: str) -> bool:
    return any(
        w in q.lower()
        for w in (
            "사용일수",
            "사용 일수",
            "사용 기록",
            "얼마나",
            "며칠",
            "days used",
            "record",
            "took",
            "taken",
            "how much",
            "how many",
        )
    )


_RECORD_SYSTEM = ("erp", "인사db", "인사 db", "인사시스템", "기록", "찍혀", "부여일수", "사용일수")


def _own_record_asked(q: str) -> bool:
    """The caller's own record in the HR system is asked ('내 … ERP에 찍힌 사용일수')."""
    lowered = f" {q.lower()} "
    own = any(w in lowered for w in (" 내 ", " 제 ", " my ", "나의", "저의", " 나 "))
    return own and any(w in lowered for w in _RECORD_SYSTEM)


# Who is asked over: a group of employees, not the caller or a named person.
_GROUP_WORDS = (
    "팀",
    "부서",
    "전사",
    "회사 전체",
    "직원들",
    "사람들",
    "team",
    "department",
    "company",
    "employees",
    "everyone",
    "staff",
)
# What is computed over the records: a sum, an average, a head count, who.
_AGGREGATE_WORDS = (
    "합치면",
    "합치",
    "더하면",
    "합산",
    "합계",
    "총합",
    "총 ",
    "다 합",
    "평균",
    "몇 명",
    "몇명",
    "누구누구",
    "누가",
    "누구",
    "쓴 직원",
    "쓴 사람",
    "쓰는 사람",
    "쓰는 직원",
    "사용자",
    "많아?",
    "썼는지",
    "사용일수",
    # a group's use set out ('팀원들 올해 육아휴직 쓴 현황 정리해줘', 'a summary of …')
    "쓴 현황",
    "사용 현황",
    "사용현황",
    "현황",
    "summary",
    "breakdown",
    "in total",
    "total",
    "sum",
    "average",
    "how many people",
    "how many employees",
    "who ",
    "which of",
)
# A rule's figure is asked ('규정상 기본 연차', 'what annual cap applies').
_RULE_WORDS = (
    "한도",
    "규정상",
    "규정에",
    "규정으로",
    "기본 ",
    "최대",
    "cap",
    "limit",
    "entitle",
    "per the rule",
    "allowed",
    "applies",
    "apply",
    # who approves or permits is a rule, whatever group it names
    "approve",
    "approval",
    "승인",
    "결재",
    "허가",
)


def _over_group(q: str) -> bool:
    """A count, sum, average or 'who' over a group's records ('우리 팀 … 다 합치면')."""
    lowered = f" {q.lower()} "
    group = any(w in lowered for w in _GROUP_WORDS) or bool(named_departments(q))
    return group and any(
        re.search(rf"\b{re.escape(w.strip())}\b", lowered) if w.isascii() else w in lowered
        for w in _AGGREGATE_WORDS
    )  # ('sum' is no word of 'summer')


def _rule_asked(q: str) -> bool:
    """The question asks a rule's figure, not what the records hold."""
    lowered = q.lower()
    return any(w in lowered for w in _RULE_WORDS)


_WHO_WORDS = (
    "누구", "이름", "who is", "who's", "whose", "name", "pull up", "look up", "details",
    "인적사항", "인사기록", "인사 기록",
)  # fmt: skip


def _number_looked_up(q: str, e: Entities) -> bool:
    """'사번 X 누구야? 소속이랑 연락처도': an employee number's person and fields."""
    if not e.emp_nos or _names_leave(q):
        return False
    lowered = q.lower()
    fields = [f for f in asked_fields(q) if f != "사번"]
    return bool(fields) or cue(q, "person_contact") or any(w in lowered for w in _WHO_WORDS)


_DOUBLED_FUNCTION_WORD = re.compile(r"\b(the|a|an|of|to|is|and|in|for)\s+\1\b", re.I)


def _word_salad(q: str) -> bool:
    """English with a function word doubled ('the the') and no Hangul: no question form."""
    return re.search(r"[가-힣]", q) is None and _DOUBLED_FUNCTION_WORD.search(q) is not None


_UNIT_WORDS = ("나눠", "나누어", "쪼개", "반나절", "반차", "시간 단위", "단위로")
_UNIT_WORDS_EN = ("split", "half day", "half-day", "in halves", "by the hour", "hourly")


PARENT_CONFLICT = re.compile(
    r"(?:상위|모\s?규정|근거\s?(?:규정|문서)).{0,16}(?:안\s?맞|다른|다르게|달라|충돌|어긋|상충|모순|불일치)"
    r"|\b(?:contradict|conflict(?:s|ing)? with|disagree with|inconsistent with|out of line with)"
    r"\s+(?:their|its|the)\s+(?:parent|higher|upper)",
    re.I,
)
"""Which documents say otherwise than the one they derive from is asked."""
_ALSO_ALLOWED = re.compile(r"(?:것|거|건)도\s*(?:되나|돼|되나요|돼요|되냐|가능|괜찮)")
"""Whether something else is allowed too ('… 나눠주는것도 되나'): of the same subject."""
_REVISION_BROUGHT = re.compile(
    r"새로\s?(?:들어|생|추가)|\bwhat (?:was|got) added\b|\bnewly added\b|\bwhat'?s new\b", re.I
)
"""What a revision brought in is asked ('최근 개정 때 뭐가 새로 들어갔는지'), not whether a
rule stayed the same."""
_ANNUAL = re.compile(r"연차|\bannual leave\b|\bvacation days\b|\bpto\b", re.I)
_ENTITLED = re.compile(
    r"받을\s?수|받아야|나와야|부여(?:받|돼|되)|\bshould i (?:get|have)\b|\bam i entitled\b"
    r"|\bdo i get\b|\bi(?:'m| am) entitled\b",
    re.I,
)
"""One's own entitlement is asked ('며칠 받을 수 있어?', 'should I get')."""
_HOW_MUCH_MORE = re.compile(
    r"얼마나\s?(?:늘|더|바뀌|달라)|몇\s?일\s?(?:더|늘)|\bhow many more\b", re.I
)
"""How much a figure grows is asked ('얼마나 늘어?')."""
_MANY_ASKED = re.compile(
    r"그\s?중|하위|아래|밑에|딸린|어느|어떤|있나|있어|있는지|있습니까|뭐가\s?있"
    r"|\b(?:which|any|under|below|children|documents|guidelines)\b",
    re.I,
)
"""Documents asked of in the plural ('그중에 … 있나요?', 'which guidelines under …')."""
_MAY_USE = re.compile(
    r"써도|쓸\s?수|사용할\s?수|사용해도|가능|되나요?\?|돼\?|\b(?:can|may|allowed|ok to)\b", re.I
)
"""Whether something may be done is asked ('써도 돼?', 'can I')."""


def _asks_unit(q: str) -> bool:
    """How leave may be divided (half days, hours, splitting) is asked."""
    lowered = q.lower()
    return any(w in lowered for w in _UNIT_WORDS + _UNIT_WORDS_EN)


_OWN_WORDS = (" 내 ", " 제 ", " my ", "나의", "저의", " 나 ", " 내가 ", " i ")


_OWN_RECORD = re.compile(
    r"내\s*정보|내\s*인사\s*(?:정보|기록)"
    r"|\bmy (?:info|information|details|hr record|record|profile)\b"
)


def _own_field_asked(q: str) -> bool:
    """The caller's own hire date or employee number is asked ('my hire date'), not a rule
    that depends on it ('입사일 기준 연차 며칠')."""
    lowered = f" {q.lower()} "
    fields = [f for f in asked_fields(q) if f in ("입사일", "사번")]
    own = any(w in lowered for w in _OWN_WORDS)
    if own and _OWN_RECORD.search(lowered):
        return True  # '인사시스템에 내 정보 어떻게 등록돼 있어?': the caller's own record
    if re.search(r"\b(?:someone|somebody|anyone|a friend|a candidate|gets hired)\b", lowered):
        return False  # 'a referral bonus if someone I recommend gets hired': no field of mine
    return own and bool(fields) and not cue(q, "days") and not _names_leave(q)


_HIRE_EXTREMES = (
    "제일 빠른", "가장 빠른", "제일 먼저", "가장 먼저", "제일 오래", "가장 오래", "제일 최근",
    "가장 최근", "제일 늦게", "가장 늦게", "최장기",
)  # fmt: skip
_HIRE_EXTREMES_EN = ("earliest", "longest", "most senior", "most recent", "newest", "latest")


def _hire_extreme_asked(q: str) -> bool:
    """The first or last hire of a group is asked (hire date with a superlative, 'who')."""
    lowered = q.lower()
    hire = "입사일" in asked_fields(q) or any(
        w in lowered
        for w in (
            *(" hire", "최고참", "막내", "근무한", "근속", "다닌", "serving", "최장기"),
            *("been with us", "been here", "with the company", "오래 다닌", "오래 일한"),
        )
    )  # '제일 오래 근무한 직원': the first hire
    superlative = any(w in lowered for w in _HIRE_EXTREMES + _HIRE_EXTREMES_EN + ("최고참", "막내"))
    return hire and superlative and not named_people(q) and not _names_leave(q)


# Revisions still in flight: a comparison with one of them is the pending plans' question.
_IN_FLIGHT = ("개정안", "draft", "pending", "upcoming", "예정", "진행 중", "진행중")


_PROCESS_WORDS = (
    "어떻게",
    "처리",
    "절차",
    "누가",
    "누구",
    "아무나",
    "누구나",
    "할 수 있",
    "되나",
    "돼?",
)
_PROCESS_EN = re.compile(
    r"\b(?:how|who|handled|what happens|if someone|procedure|anyone|can i|can we)\b"
)


_ABOUT_REQUESTS = (
    "which", "what ", "list", "show", "pending", "rejected", "status", "how many", "any ",
    "어떤", "뭐 있", "뭐가 있", "목록", "현황", "진행 중", "진행중", "반려된", "있어?", "있나",
    "몇 건", "몇건",
)  # fmt: skip


def _asks_about_requests(q: str) -> bool:
    """The question asks which requests there are or how they stand, not to file one."""
    lowered = q.lower()
    return any(w in lowered for w in _ABOUT_REQUESTS)


def _asks_process(q: str) -> bool:
    """The question asks how something is done or handled, not to do it."""
    lowered = _HOW_IT_WENT.sub(" ", q.lower())  # '어떻게 됐어?' asks where it stands
    return any(w in lowered for w in _PROCESS_WORDS) or _PROCESS_EN.search(lowered) is not None


_HOW_IT_WENT = re.compile(r"어떻게\s*(?:됐|되었|돼\s*가|되어\s*가|되고\s*있|진행)")


_LODGING = ("숙박", "호텔", "숙소", "lodging", "hotel", "night")
_OTHER_TRIP_COSTS = (
    "일비", "교통비", "식비", "유류비", "자가용", "자차", "기름값", "주유", "daily allowance",
    "per diem", "transport", "fuel", "mileage", "meal", "gas",
)  # fmt: skip


def _other_trip_cost(q: str) -> bool:
    """A trip's other cost ('국내출장 일비 얼마'), not lodging: the article that states it."""
    lowered = q.lower()
    return any(w in lowered for w in _OTHER_TRIP_COSTS) and not any(w in lowered for w in _LODGING)


def _compares(q: str) -> bool:
    lowered = q.lower()
    return (
        cue(q, "version_compare")
        and not any(w in lowered for w in _IN_FLIGHT)
        # ('남은거 다음해로 넘길 수 있어 … 그 전 버전에서는?': the carry-over rule compared)
        and not (cue(q, "remaining") and not re.search(r"넘기|넘길|이월|carry", lowered))
        and not cue(q, "usage")
        and not _records(q)
    )


def _compares_document(q: str, e: Entities) -> bool:
    """Versions of a named document compared, nothing else named ('1판이랑 2판 차이')."""
    if not (_compares(q) and (e.doc_nos or e.title_words)):
        return False
    title = set(e.title_words)
    own = [k for k in e.keywords if k not in title and not cue(k, "version_compare")]
    return not [k for k in own if not re.fullmatch(r"\d+\s*(?:판|차)\S*", k)]


def _compares_rule(q: str, e: Entities) -> bool:
    """A rule compared with another version of it ('월급날 예전 판이랑 달라?')."""
    return _compares(q) and bool(e.doc_nos or e.title_words or e.keywords)


BENEFIT_ASKED = re.compile(
    r"\breimburs|\bphone bills?\b|\bbills?\b.{0,20}\b(?:pay|cover)|요금|통신비"
    # 'Can I claim my internet bill?': whether it is paid, not the claims filed
    r"|\bcan (?:i|we) (?:claim|expense)\b"
    # 'how much does the company cover?', '회사가 얼마 지원해줘?': a benefit's share
    r"|\bhow much (?:does|will|would) the company (?:cover|pay|reimburse|support)\b"
    r"|회사(?:가|에서)?\s*얼마(?:나)?\s*(?:지원|내줘|부담|보조)"
    r"|지원\s*(?:돼|되|해|받)",
    re.I,
)
"""A benefit asked about ('휴대폰 요금 지원돼?'): a phone word in it is no one to call."""
_ARTICLE_ASKED = re.compile(r"제\s*\d{1,3}\s*조|\barticle\s+\d{1,3}\b", re.I)
# Words that ask about a document as a whole, not about what one of its articles says.
_WHOLE_DOCUMENT = frozenset(
    "내용 요약 개요 설명 소개 이력 연혁 버전 차수 현황 정보 전문 원문 문서 규정 지침 "
    "summary overview history versions version document".split()
)


_PRECEDENCE_NOUNS = frozenset(
    "내용 규정 지침 규칙 기준 문서 사규 쪽 어느 둘 두 서로 우선 적용 따라 따라야 "
    "document documents rule rules regulation regulations guideline guidelines".split()
)


COMING_CHANGE = re.compile(
    # (what is about to change: '바뀌는', '바뀌어?', '바뀔'; not '바뀌었는지', the last change)
    r"(?:뭐가|무엇이|뭐|어떤\s?게|무슨\s?내용이?)\s*"
    r"(?:바뀌는|바뀌어(?![가-힣]{0,4}었)|바뀔|바뀐대|바뀐다|바뀌나|달라지는|달라진다|달라질|변경되는|변경될)"
    r"|\bwhat (?:exactly )?(?:changes|will change|is changing|'s changing|is going to change)\b"
    r"(?!\s+(?:were|was|did|have|had)\b)",
    re.I,
)
_ADDED = re.compile(
    r"언제\s*(?:생겼|생긴|추가(?:됐|되었|된)|신설(?:됐|되었|된)|들어왔|도입(?:됐|되었|된)"
    r"|만들어(?:졌|진)|added)"
    r"|\bwhen (?:was|were|did)\b.{0,60}\b(?:added|introduced|created|inserted)\b",
    re.I,
)


def asks_added(question: str) -> bool:
    """'기록 말소 조항 언제 생겼어?': when an article came into a document."""
    return _ADDED.search(question) is not None


_REVISION_HOW = re.compile(
    r"(?:개정|고쳐|바꿔|수정)\s?(?:을\s?|를\s?)?(?:요청|건의|제안|신청|해\s?달라)"
    r".{0,16}(?:어떻게|방법|절차|하려면|하면\s?돼|할\s?수\s?있|어디)"
    r"|\bhow (?:do|can|would|should) (?:i|we) (?:ask|request|propose|suggest|get)\b.{0,40}"
    r"\b(?:chang|revis|amend|updat|fix)\w*"
    r"|\b(?:request|propose|suggest) (?:a |an )?(?:revision|change|amendment)\b.{0,30}\bhow\b"
    r"|\bhow\b.{0,30}\b(?:request|propose) (?:a |an )?(?:revision|change|amendment)\b",
    re.I,
)


def _asks_precedence(q: str, e: Entities) -> bool:
    """Which document governs where two disagree, no rule's topic asked ('연차휴가
    운영지침이랑 근로시간 및 휴가규정 내용이 다르면 어느 쪽 따라야 돼요?')."""
    if not (cue(q, "precedence") and cue(q, "disagree")):
        return False
    title = {squash_word(w) for w in e.title_words}
    own = [
        k for k in e.keywords
        if k not in _PRECEDENCE_NOUNS and squash_word(k) not in title
        and not any(squash_word(k) in t for t in title)
        and not cue(k, "precedence") and not cue(k, "disagree")
        and not k.endswith(TITLE_SUFFIXES)  # a second title ('휴가규정')
    ]  # fmt: skip
    # each title written out may bring a word of its own ('근로시간 및 휴가규정')
    titles = [k for k in e.keywords if k.endswith(TITLE_SUFFIXES) and k not in TITLE_SUFFIXES]
    return len(own) <= 1 + len(titles)


def squash_word(word: str) -> str:
    return re.sub(r"\s+", "", word)


def _asks_inside_document(q: str, e: Entities) -> bool:
    """'FIN-GDL-001 숙박비 상한', 'HR-GDL-010 제4조': an article of the document numbered."""
    if not e.doc_nos or e.title_words:
        return False
    if _ARTICLE_ASKED.search(q):
        return True
    return any(
        k not in _WHOLE_DOCUMENT and k not in FOLLOW_UP_GENERIC and not cue(k, "describe_title")
        for k in e.keywords
    )


# (intent, test) in priority order; the first test that holds wins.
INTENTS: list[tuple[str, Callable[[str, Entities], bool]]] = [
    ("literal_sql", lambda q, e: e.sql is not None),
    # 'policy the days number blue the the': word salad, whatever cue word it holds; the
    # search plan says it did not understand.
    ("search", lambda q, e: _word_salad(q)),
    # '개정 요청해줘': file one; 'how is a duplicate revision request handled?' asks the rule.
    # Only a request to file one: 'which revision requests are pending?' asks to list
    # them (a write is never planned for a question about writes).
    (
        "revision_request",
        lambda q, e: (
            cue(q, "revision_request") and not _asks_process(q) and not _asks_about_requests(q)
        ),
    ),
    # 'Does the company reimburse mobile phone bills?', '휴대폰 요금 지원돼?': a benefit
    # asked, not anyone's phone number
    # ('max hotel reimbursement for 3 nights in Busan': the lodging cap, below)
    (
        "search",
        lambda q, e: (
            BENEFIT_ASKED.search(q) is not None
            and not named_people(q)
            and not any(w in q.lower() for w in _LODGING)
        ),
    ),
    # '영업팀 명단이랑 직급', 'who on my team joined after 2022', '허은빈 입사일이랑 연락처':
    # a list or filter of employees (or several fields), no rule to state (people.py).
    # 'Our team needs a 10,000,000 KRW server upgrade. Who has to sign off?': a purchase's
    # approver, though the team and 'who' are named
    (
        "ceiling",
        lambda q, e: (
            e.amount is not None
            and _purchase(q)
            and cue(q, "approver_asked")
            and not _about_orders(q, e)
        ),
    ),
    ("roster", asks_roster),
    ("contact", lambda q, e: cue(q, "person_contact") and _about_person(q)),
    # '민혜진 사원 입사일 언제야?': a named employee's record field, not a regulation.
    # '김도원 (20120090) resident registration number': the ID column of that person
    (
        "national_id",
        lambda q, e: cue(q, "national_id") and (bool(named_people(q)) or bool(e.emp_nos)),
    ),
    ("person_field", lambda q, e: bool(named_people(q)) and bool(asked_fields(q))),
    # ('… (employee no. 20120090) resident registration number': the ID column, below)
    ("person_field", lambda q, e: _number_looked_up(q, e) and not cue(q, "national_id")),
    # '인사DB에 내 입사일 언제로 돼 있어?': the caller's own hire date or employee number.
    ("person_field", lambda q, e: _own_field_asked(q)),
    # '우리 팀에서 입사 제일 빠른 사람 누구야?': the first or last hire of a group.
    ("person_field", lambda q, e: _hire_extreme_asked(q)),
    # A national ID inside a regulation ('연말정산 작성 요령의 예시 주민번호') is the
    # article's text (redacted by the platform), not an employee's record.
    # ('주민번호 처리 관련된 규정 있어?': the rule on handling them, searched)
    (
        "national_id",
        lambda q, e: (
            cue(q, "national_id")
            # ('직원 50명 주민등록번호 전부 뽑아줘': the records, whatever they are for)
            and (not _names_regulation(e) or _ID_RECORDS.search(q) is not None)
            and (_RULE_ASKED.search(q) is None or bool(named_people(q)))
        ),
    ),
    # '손혜원 과장 주민등록번호 … 연말정산 서류랑 대조': a person's number, the document only why.
    ("national_id", lambda q, e: cue(q, "national_id") and bool(named_people(q))),
    # 'EXP-2025-0002 승인났어?': a claim named by its number
    ("expense", lambda q, e: _CLAIM_NO.search(q) is not None),
    ("purchase_orders", lambda q, e: _about_orders(q, e)),
    (
        "ceiling",
        lambda q, e: e.amount is not None and _purchase(q) and cue(q, "approval_ceiling"),
    ),
    # 'What purchase amount can a team lead approve on their own?': the band of an approver.
    ("ceiling", lambda q, e: _purchase(q) and _approver_limit_asked(q)),
    # '그중에 상위 규정이랑 내용이 안 맞는 게 있나요?' after a regulation's children:
    # each child set beside its parent, not the list again
    (
        "parent_conflicts",
        lambda q, e: PARENT_CONFLICT.search(q) is not None and _MANY_ASKED.search(q) is not None,
    ),
    ("impact", lambda q, e: cue(q, "impact")),
    ("derived", lambda q, e: cue(q, "derived")),
    # '흡연구역 관련 규정 뭐 있음?' asks what the rules say on a topic; links are asked
    # of a document named, or of the ontology by that word.
    (
        "related",
        lambda q, e: (
            cue(q, "related")
            and (bool(e.doc_nos or e.title_words) or any(w in q.lower() for w in _LINK_WORDS))
        ),
    ),
    # The authority chain of a document named; '회의록을 업무 처리 근거로 인용할 수
    # 있어?' asks a rule about citing, not a chain.
    # ('… 3월에 한다고 되어 있는데, 상위 규칙과 일치합니까?': whether a text agrees with its
    # parent is the article beside the parent's, not the chain above it)
    (
        "authority",
        lambda q, e: (
            cue(q, "authority")
            and _names_regulation(e)
            and not _AGREES.search(q)
            and not _CITATION_ASKED.search(q)  # '근거 doc_no도 알려줘': the answer's source
        ),
    ),
    ("pending_list", lambda q, e: _pending_anywhere(q, e)),
    # '채용 운영지침 1판이랑 지금 판 비교', 'has that number always been the same?': the
    # article beside the same article of another version (a document's history and its
    # changed articles, when only the document is named).
    # 'Which lodging claims exceed the FIN-GDL-001 caps?': the claims, the document only
    # the rule they are checked against.
    ("expense", lambda q, e: cue(q, "expense") and _claims_over(q)),
    # 'DEV 연차 사용일수 합계 얼마야? HR 팀이랑 비교하면?': leave records per department
    ("usage", lambda q, e: asks_per_department(q) and _names_leave(q) and cue(q, "usage")),
    # '육아휴직 25일로 바뀐 거 시행됐어?', 'is the 30-day childcare leave in effect yet?': a
    # figure not yet in force, asked after
    (
        "pending_status",
        lambda q, e: (
            cue(q, "took_effect") and _DAYS_FIGURE.search(q) is not None and not version_figure(q)
        ),
    ),
    ("precedence", _asks_precedence),
    # '24일부터 정확히 뭐가 바뀌어?': what the approved revision still to come changes
    ("coming_change", lambda q, e: COMING_CHANGE.search(q) is not None and not e.version),
    # '기록 말소 조항 언제 생겼어?': the version that brought the article in
    ("article_added", lambda q, e: asks_added(q) and not e.doc_nos and not e.version),
    # '사규 개정 요청하려면 어떻게 해?', 'how do I ask for a guideline to be changed?': the
    # article on requesting a revision (and that this app can file one), not the document
    ("revision_how", lambda q, e: _REVISION_HOW.search(q) is not None),
    # '근로시간 및 휴가규정 HR-REG-002의 제5조는 뭐라고 되어 있어?': that article's text,
    # not the document's description
    ("search", lambda q, e: bool(e.doc_nos or e.title_words) and ARTICLE_NO.search(q) is not None),
    ("describe", lambda q, e: _compares_document(q, e)),
    ("search", lambda q, e: _compares_rule(q, e)),
    # 'version history랑 draft 상태': the history (drafts included) describes the document.
    ("describe", lambda q, e: bool(e.doc_nos or e.title_words) and cue(q, "describe_title")),
    # '30일로 늘어난다는 얘기 있던데 언제부터에요?': when a figure heard of applies, which
    # the revisions in flight answer (a draft has no date; the approved one has)
    (
        "pending_status",
        lambda q, e: (
            (cue(q, "effective_date") or _FROM_WHEN.search(q) is not None)
            and _DAYS_FIGURE.search(q) is not None
            and _CHANGING.search(q) is not None
            and _NOW.search(q) is None  # '지금 바로 25일 쓸 수 있어?': the days now too
        ),
    ),
    # '15일짜리 판은 언제부터 시행됐어?': when the version named by its figure took effect
    ("effective_date", lambda q, e: bool(version_figure(q)) and cue(q, "effective_date")),
    # 'when did HR-REG-003 version 2 take effect?': when the numbered version did
    (
        "effective_date",
        lambda q, e: bool(e.doc_nos) and e.version is not None and cue(q, "effective_date"),
    ),
    # 'HR-REG-003 언제부터 시행됐어?': since when the document named applies (its versions
    # and their dates), not whether a revision has taken effect
    (
        "describe",
        lambda q, e: (
            bool(e.doc_nos)
            and any(w in q.lower() for w in ("언제부터", "since when"))
            and not cue(q, "pending_any")
            and not cue(q, "upcoming")
        ),
    ),
    # '육아지원규정 언제부터 시행된 거예요?': when the version in force of a document
    # named by its title took effect
    (
        "effective_date",
        lambda q, e: (
            bool(e.title_words)
            and not e.doc_nos
            and any(w in q.lower() for w in ("언제부터", "since when"))
            and not cue(q, "pending_any")
            and not cue(q, "upcoming")
            and not _names_days(q)
        ),
    ),
    # '서울 숙박비 15만원으로 오른다는 얘기 있던데 확정된거야?': a lodging cap heard, checked
    # by the expense plan against the cap in force and the revisions in flight
    (
        "expense",
        lambda q, e: (
            e.amount is not None
            and HEARD.search(q) is not None
            and cue(q, "expense")
            and any(w in q.lower() for w in _LODGING)
        ),
    ),
    ("pending_status", lambda q, e: cue(q, "pending_status")),
    (
        "pending_status",
        lambda q, e: (
            cue(q, "pending_any")
            and not cue(q, "days")
            and not _records(q)
            and not _asks_process(q)
        ),
    ),
    # 'FIN-GDL-001 숙박비 상한': what an article of the numbered document says
    ("search", lambda q, e: _asks_inside_document(q, e) and not cue(q, "in_force_version")),
    ("describe", lambda q, e: bool(e.doc_nos)),
    ("in_force_version", lambda q, e: cue(q, "in_force_version") and not cue(q, "days")),
    # Who approves a purchase: an amount, or the approver asked for; another
    # attribute of purchasing (VAT in the amount, an urgent purchase) is an article.
    (
        "ceiling",
        lambda q, e: (
            (_purchase(q) and (e.amount is not None or cue(q, "approver_asked")))
            or (
                e.amount is not None
                and cue(q, "approval_ceiling")
                and not _CLAIMED.search(q.lower())  # (a claim approved is no purchase)
            )
        ),
    ),
    # The expense plan answers lodging caps and claims against them; another
    # attribute of a trip (its settlement deadline, the daily allowance) is the
    # article that states it.
    (
        "expense",
        lambda q, e: (
            cue(q, "expense")
            and (cue(q, "lodging_cap") or cue(q, "comply") or e.amount is not None)
            and not _other_trip_cost(q)
        ),
    ),
    # A claim filed ('류건석 과장 식대 청구 얼마 올렸어?', '도서구입비 청구한 건 승인
    # 났어?'): the claims records, which the expense plan lists.
    ("expense", lambda q, e: _claim_record(q)),
    # '우리 팀 육아휴직 다 합치면', '부서에서 연차 10일 이상 쓴 사람 누구': a sum, average,
    # head count or 'who' over a group's leave records, however many rule words it has.
    (
        "usage",
        lambda q, e: (
            _names_leave(q) and _over_group(q) and not _rule_asked(q) and not cue(q, "remaining")
        ),
    ),
    # '그 친구 남은 거 반차로 쪼개서 써도 돼?': whether what is left may be split is the
    # article on dividing leave, not the days left again.
    (
        "search",
        lambda q, e: (
            _asks_unit(q) and _MAY_USE.search(q) is not None and ("반차" in q or _names_leave(q))
        ),
    ),
    # '남은 거 내년으로 넘어가나' asks the carry-over rule, not the days left.
    # '쓴 거 빼고 몇일 남았는지': the days left (used only to reckon them), not a usage table.
    ("remaining", lambda q, e: cue(q, "remaining") and not _carry(e) and not _over_group(q)),
    # '내 연차 21일로 나와있는데 규정대로 맞는거야?': one's own grant as recorded, checked
    # (the record and the rule it follows), not a figure read off any article
    (
        "remaining",
        lambda q, e: (
            _names_leave(q) and MINE.search(q) is not None and bool(_OWN_RECORDED.search(q))
        ),
    ),
    # '나 올해 연차 총 며칠 받을 수 있어?', 'How many annual leave days should I get this
    # year under the rules?': one's own grant, which seniority adds to (the record and the
    # rule it follows), not the base days of the article
    (
        "remaining",
        lambda q, e: (
            _ANNUAL.search(q) is not None
            and cue(q, "self")
            and _ENTITLED.search(q) is not None
            and not _over_group(q)
        ),
    ),
    # A department's leave use; 'how many days a week can my team work from home'
    # names the team but asks a rule.
    (
        "usage",
        lambda q, e: (
            bool(e.emp_nos)
            # 'my team … open-source library' or '… what annual cap applies' names the
            # team but asks a rule: the team cues a records lookup only with the records.
            or (
                _names_department(q)
                and not _rule_asked(q)
                and (_names_leave(q) or _record_word(q) or _over_group(q))
                and (_names_leave(q) or not _names_regulation(e))  # a leave type is records
                and not cue(q, "remaining")  # '영업팀에서 연차 제일 적게 남은 사람': days left
            )
            or (
                cue(q, "usage")
                and (_names_leave(q) or _record_word(q))  # 'can the card be used at …' is no record
                and not (_rule_asked(q) and not _over_group(q))
                and not _carry(e)
                # ('제일 많이 쓴 사람은 며칠 남았어?': the days left of those who used most)
                and not (cue(q, "remaining") and re.search(r"남았|남은|잔여|\bleft\b", q))
            )
        ),
    ),
    ("remaining", lambda q, e: cue(q, "remaining") and not _carry(e)),
    # "<name> 육아휴직 사용일수": a named person's leave record, not the rule.
    ("usage", lambda q, e: _names_leave(q) and _record_word(q) and bool(named_people(q))),
    # 'ERP에 내 육아휴직 사용일수 찍혀 있는 거', '내 육아휴직 사용 기록': the caller's own
    # leave record (the HR view), not the rule.
    # '… ERP에 21일로 잡혀 있던데 규정상 기본 연차는': the rule, the record only mentioned.
    ("usage", lambda q, e: _names_leave(q) and _own_record_asked(q) and not _rule_asked(q)),
    # '곧 바뀐다며? 언제부터 며칠로 늘어나?': the days and when they change, which the
    # entitlement answer gives with the approved revision ('이번달에 바뀐다던데 그럼 얼마나
    # 늘어? 언제부터?': how much more, the same).
    (
        "rule_days",
        lambda q, e: (
            _names_leave(q) and cue(q, "upcoming") and _HOW_MUCH_MORE.search(q) is not None
        ),
    ),
    (
        "rule_days",
        lambda q, e: (
            _names_leave(q) and cue(q, "days") and cue(q, "upcoming") and cue(q, "effective_date")
        ),
    ),
    # '25일로 늘어난다던데 언제부터야?': when a figure starts is the rule's coming change.
    # ('… 한도가 며칠이었는지 확인 부탁드립니다. 부칙상 시행일은 1월 1일로 되어 있던데요.':
    # the date in the remark says why one asks; the days are asked)
    ("effective_date", lambda q, e: cue(_asked(q), "effective_date") and not _names_days(q)),
    # '반나절씩 나눠서 쓸 수 있어?': how leave may be divided is the article, not the days.
    ("search", lambda q, e: _names_leave(q) and _asks_unit(q)),
    (
        "rule_days",
        lambda q, e: (
            cue(q, "days")
            or _names_days(q)
            or (
                _names_leave(q)
                and (_can_take(q) or cue(q, "upcoming"))
                and not _carry(e)
                and _REFUSED.search(q) is None  # 'can I turn it down?': the approval article
            )
            # '육아휴직 한도는?', 'the childcare leave cap': a leave's limit is its days
            or (_names_leave(q) and _LEAVE_LIMIT.search(q) is not None and not _carry(e))
        ),
    ),
    ("search", lambda q, e: True),
]


@dataclass(frozen=True, slots=True)
class Intent:
    """One declared intent: what it answers, the words that cue it, what it needs."""

    name: str
    """Key of the plan that answers it (``planner.PLANS``)."""
    cues: tuple[str, ...]
    """Keys of ``lexicon.CUES`` its tests read."""
    needs: tuple[str, ...]
    """``Entities`` fields its plan uses."""
    steps: tuple[str, ...]
    """Tools its plan may call, in order."""
    answers: str
    """What it answers (narration of the plan)."""


REGISTRY: tuple[Intent, ...] = (
    Intent("literal_sql", (), ("sql",), ("query_hr",), "a SELECT the person wrote, as written"),
    Intent(
        "search",
        ("contact",),
        ("keywords", "title_words", "as_of"),
        ("search_regulations", "describe_regulation"),
        "the article the question points at, quoted (word salad first: not understood)",
    ),
    Intent(
        "revision_request",
        ("revision_request",),
        ("doc_nos", "title_words", "version", "reason"),
        ("search_regulations", "get_effective_version", "request_regulation_revision"),
        "file a revision request (the one write; approval first)",
    ),
    Intent(
        "ceiling",
        ("purchase", "approval_ceiling"),
        ("amount", "as_of"),
        ("search_regulations",),
        "who approves a purchase of an amount (on a date)",
    ),
    Intent(
        "roster",
        (),
        (),
        ("query_hr",),
        "employees listed or filtered (department, my team, title, hire date, days left) "
        "with the fields asked, from one SELECT",
    ),
    Intent(
        "contact",
        ("person_contact", "national_id"),
        (),
        ("query_hr",),
        "an employee's contact number as the platform shows it (masking, denial said)",
    ),
    Intent(
        "national_id", ("national_id",), (), ("query_hr",), "a national ID: tried, refusal said"
    ),
    Intent(
        "person_field",
        (),
        (),
        ("query_hr",),
        "a named employee's hire date, position, department or number, as the platform shows it",
    ),
    Intent(
        "expense",
        ("expense", "comply", "own_claim"),
        ("keywords", "amount", "as_of"),
        ("search_regulations", "query_hr"),
        "lodging caps, claims against them, hypothetical amounts, scope",
    ),
    Intent(
        "purchase_orders",
        ("approval_ceiling",),
        (),
        ("query_hr", "search_regulations"),
        "purchase orders with each one's approver from the amount bands",
    ),
    Intent(
        "parent_conflicts",
        (),
        ("doc_nos", "title_words"),
        ("search_regulations", "impact_of_change", "describe_regulation"),
        "the documents under one that state a point otherwise than their parent",
    ),
    Intent(
        "impact",
        ("impact",),
        ("doc_nos", "title_words"),
        ("search_regulations", "impact_of_change"),
        "documents affected by a change",
    ),
    Intent(
        "derived",
        ("derived",),
        ("doc_nos", "title_words"),
        ("search_regulations", "impact_of_change"),
        "documents deriving from one",
    ),
    Intent(
        "related",
        ("related",),
        ("doc_nos", "title_words"),
        ("search_regulations", "related_regulations"),
        "ontology links",
    ),
    Intent(
        "authority",
        ("authority",),
        ("doc_nos", "title_words"),
        ("search_regulations", "trace_authority"),
        "the authority chain up to the top",
    ),
    Intent(
        "pending_list",
        ("pending_list", "pending_any", "drafter", "this_month"),
        (),
        ("pending_revision", "query_hr", "search_regulations"),
        "revisions in flight across documents (mine, this month)",
    ),
    Intent(
        "usage",
        ("usage", "department"),
        ("emp_nos",),
        ("query_hr",),
        "leave used, per person, with extremes; sums, averages, head counts, who over a group",
    ),
    Intent(
        "pending_status",
        ("pending_status", "pending_any", "took_effect", "drafter"),
        ("doc_nos", "title_words", "keywords"),
        ("search_regulations", "pending_revision"),
        "a document's revisions in flight and whether they apply",
    ),
    Intent(
        "precedence",
        ("precedence", "disagree"),
        ("doc_nos", "title_words"),
        ("search_regulations", "describe_regulation"),
        "which of two disagreeing documents governs: the article on their order, their tiers",
    ),
    Intent(
        "coming_change",
        ("upcoming",),
        ("keywords", "title_words", "doc_nos"),
        ("search_regulations", "pending_revision"),
        "what an approved revision still to come changes: its date, summary, articles",
    ),
    Intent(
        "article_added",
        ("effective_date",),
        ("keywords", "title_words"),
        ("search_regulations", "describe_regulation"),
        "when an article came into its document: the version whose summary adds it",
    ),
    Intent(
        "revision_how",
        ("revision_request",),
        ("doc_nos",),
        ("search_regulations", "describe_regulation"),
        "how a revision is requested: the article on it, the document's owner, the tool",
    ),
    Intent(
        "describe",
        ("describe_title",),
        ("doc_nos", "title_words"),
        ("search_regulations", "describe_regulation", "pending_revision"),
        "what a document is and its version history",
    ),
    Intent(
        "effective_date",
        ("effective_date",),
        ("keywords", "title_words", "version", "as_of"),
        ("search_regulations", "describe_regulation"),
        "when a rule (or version N) took effect, printed date disclosed",
    ),
    Intent(
        "in_force_version",
        ("in_force_version",),
        ("doc_nos", "title_words", "as_of"),
        ("search_regulations", "get_effective_version", "pending_revision"),
        "which version is in force (on a date), and what comes next",
    ),
    Intent(
        "remaining",
        ("remaining", "self"),
        ("keywords", "emp_nos"),
        ("search_regulations", "query_hr", "pending_revision"),
        "days left now and under the approved next version",
    ),
    Intent(
        "rule_days",
        ("days", "upcoming"),
        ("keywords", "as_of", "relative"),
        ("search_regulations", "pending_revision"),
        "days a rule grants now, on a date, and what is about to change",
    ),
)
"""Every intent, in the order of the first test in ``INTENTS`` that picks it."""


def detect_intent(question: str, ents: Entities) -> str:
    """Return the name of the intent that answers the question.

    Args:
        question: The user's question.
        ents: Its entities.

    Returns:
        An intent name from ``INTENTS``.
    """
    plain = ents is extract(question)  # the question's own entities (extract is cached)
    if plain and question in _INTENT_OF:
        return _INTENT_OF[question]
    found = next((name for name, test in INTENTS if test(question, ents)), "search")
    if plain:
        _INTENT_OF[question] = found
    return found


_INTENT_OF: dict[str, str] = {}
"""Intents found this request (cleared with the entity cache by the planner)."""


def clear_intent_cache() -> None:
    """Forget the intents found (per request, so every request is timed cold)."""
    _INTENT_OF.clear()


# Where a question of several parts divides: a sentence end, '…랑,' / '…이랑,', ', 그리고',
# '…인지, ', ', and <verb>' (one scan, no backtracking).
_PART_BREAK = re.compile(
    r"(?<=[?？])\s+|(?<=[가-힣])(?:이랑|랑|하고),\s*|,\s*(?:그리고|그리구|글구)\s+|(?<=인지),\s+"
    r"|(?<=[았었였했])고,\s*"
    # '몇개 남았는지랑 반차 …': a question in -는지, then another
    r"|(?<=는지)(?:랑|이랑|하고)\s+"
    # '번호도 알려줘, 서류는 언제까지 내야 돼?': a request, then another question
    r"|(?<=알려줘),\s*|(?<=알려주세요),\s*|(?<=보여줘),\s*"
    # '… 100만이라고 써있던데. 그리고 월급날도': a remark, then another question
    r"|(?<=[가-힣][.])\s+(?=그리고\s|그리구\s|글구\s|또\s)"
    # '2024년 2월엔 몇일이었고 지금은 몇일?': then, and now
    r"|(?<=[았었였했]고)\s+(?=지금|현재|요즘|올해)"
    # (one scan per run of spaces: it starts only where the run does, and is possessive)
    r"|(?<!\s),?\s++and\s+(?=(?:are|is|was|were|do|does|did|what|whats|what's|how|which|who|when|can|will|would|could|should|has|have|had)\b)"
    # '며칠이고 신청은', '누가 결재하고 급할 땐', '뭐고 개정': a clause ends on -고
    r"|(?:(?<=이고)|(?<=되고)|(?<=하고)|(?<=뭐고)|(?<=얼마고)|(?<=누구고)|(?<=언제고)|(?<=어디고)"
    r"|(?<=이며)),?\s+",
    re.I,
)
_MAX_PARTS = 4
# Intents about a document itself (its versions, revisions, links): a title names it.
DOCUMENT_INTENTS = frozenset(
    {"pending_status", "pending_list", "describe", "in_force_version", "effective_date"}
    | {"authority", "impact", "derived", "related"}
)


# Records looked up: a piece after one that asks nothing of its own ('부서별로 나눠서',
# '소속이랑 연락처도') says how to show them.
_RECORD_INTENTS = frozenset({"usage", "person_field", "contact", "roster"})


# Words that open a sentence continuing the one before: an alternative ('아님') or a
# pointer back to what it named ('그날', '그거'). Such a piece is no question of its own.
_CONTINUING = (
    "아님",
    "아니면",
    "아니라면",
    "그중",
    "그 중",
    "그럼",
    "그러면",
    "그날",
    "그때",
    "그거",
    "그게",
    "그건",
    "그걸",
    "이때",
    "있으면",
    "없으면",
    "있다면",
    "없다면",
    "그 경우",
    "그런 경우",
    "or ",
    "if so",
    "if any",
    "if there",
    "if not",
    "and if",
    "what if",
    "then ",
    # why the answer is so ('왜 달라?', 'why?'): the same question, asked on
    "왜 ",
    "why",
    # 'Please include the indirect ones too': how to answer the part before
    "please include",
    "include the",
    "also include",
    "포함해서",
    "포함해줘",
    "포함해 줘",
)

# 'Has it been approved?': 'it' is what the part before named, unless the piece names a
# topic of its own ('are they within the travel expense rules?').
_PRONOUN_OPENERS = (
    "has it", "is it", "was it", "does it", "did it", "will it", "has that", "is that",
    "was that", "does that", "are they", "were they",
)  # fmt: skip


_QUESTION_WORD = re.compile(
    r"누가|누구|며칠|몇|얼마|언제|어디|어떻게|뭐|무엇|무슨|어느|who|what|when|how"
)


def _clause_not_question(text: str) -> bool:
    """A clause ending on -하고/-되고 that asks nothing ('2박 하고') leads into the next."""
    return text.endswith(("하고", "되고")) and _QUESTION_WORD.search(text) is None


WHICH_IS_RIGHT = (
    "뭐가 맞", "어느 게 맞", "어떤 게 맞", "어느 쪽", "뭘 따라", "뭐를 따라", "어느 걸 따라",
    "뭐가 적용", "어느 게 적용", "어떤 게 적용", "어느걸 따라", "뭐 따라야", "어떤 거 따라",
    "which is right", "which one is right", "which is correct", "which one applies",
    "which applies", "which one do i follow", "which should i follow",
)  # fmt: skip


_DISAGREE = ("다르", "달라", "다른 숫자", "differ", "different", "don't match", "do not match")
_DOCUMENT_NOUNS = frozenset(
    "지침 지침마다 규정 규정마다 문서 문서마다 숫자 숫자가 내용 확인 guideline guidelines "
    "document documents number numbers".split()
)


_CONFIRM_TAIL = re.compile(
    r"(?:맞지|맞아|맞죠|맞나요|맞나|그렇지|맞는\s?거지)\s*+[?？]?\s*+$|\b(?:right|correct)\s*+\?\s*+$"
)


_SOURCE_ASKED = re.compile(
    r"근거|출처|doc_?no|문서\s?번호|^조항|\bsource\b|\bcitation\b|\bwhich article\b", re.I
)
"""Where the answer comes from ('근거 doc_no도 알려줘'): asked of the part before."""
_UPDATE_WORDS = frozenset("개정 반영 갱신 업데이트 수정 변경 적용 이번 달".split())
"""Words of a part that asks whether a record must follow the rule's change, no topic."""
_CLAIM_STATED = re.compile(
    r"(?<![\d,.])\d[\d,.]*+[^\s\d]{0,5}\s*+(?:돼|되어|나와|적혀|써|쓰여)\s?있(?:는데|던데)"
)
"""A figure one text is said to state ('6개월로 돼있는데'), before '맞아?'."""


def _notes_disagreement(piece: str) -> bool:
    """'지침마다 숫자가 달라 보여서 확인하고 싶습니다': a remark that documents differ,
    naming nothing else; the answer to the part before shows where they do."""
    lowered = piece.lower()
    if not any(w in lowered for w in _DISAGREE) or _QUESTION_WORD.search(lowered):
        return False
    ents = extract(piece)
    other = [
        k for k in ents.keywords
        if k not in _DOCUMENT_NOUNS and not any(w in k for w in _DISAGREE)
    ]  # fmt: skip
    return not ents.doc_nos and len(other) <= 1  # ('보여서': one word of the remark's own)


def _continues(piece: str) -> bool:
    lowered = piece.lower()
    if lowered.startswith(_PRONOUN_OPENERS):
        ents = extract(piece)
        return not (ents.title_words or ents.doc_nos or len(ents.keywords) > 1)
    return lowered.startswith(_CONTINUING)


# A remark after the question ('규정마다 다르게 적혀 있는 것 같던데'): it says why one
# asks, it asks nothing of its own.
_REMARK_ENDINGS = (
    "던데", "던데요", "는데", "는데요", "은데", "같아", "같아요", "같음", "듯",
    # why one asks ('민원이 들어와서요', '직원들이 자꾸 물어봐서', '같은 팀인데')
    "와서요", "어서요", "아서요", "해서요", "라서요", "봐서", "봐서요", "와서", "해서",
    "라서", "인데", "인데요", "돼서", "되서", "돼서요", "되서요",
    # ('… 직제규칙이 다르게 써있어서', '… 100만이라고 돼있던데 헷갈리네')
    "있어서", "있어서요", "헷갈려서", "헷갈리네", "헷갈리네요", "헷갈림",
)  # fmt: skip


# A piece asking more about what the part before asked ('얼마로 올렸는지도', '남은 것도 알려줘').
_ALSO_ASKED = ("는지도", "인지도", "은지도", "것도 알려", "것도 같이", "도 알려줘", "도 같이 알려")


ASKS_CONTACT = re.compile(r"연락처|전화|문의|담당|내선|\b(?:contact|phone|tel)\b", re.I)
"""A question asking whom to call (whole English words: 'hotel' holds no 'tel')."""


def _also(piece: str) -> bool:
    return any(w in piece for w in _ALSO_ASKED)


_EN_REQUEST = re.compile(
    r"^\s*(?:please\s+)?(?:show|list|tell|give|find|check|compare|explain|pull|get|send|look"
    r"|summari[sz]e|break|sort|count|calculate|include|also|and)\b",
    re.I,
)


_SENTENCES = re.compile(r"[^.?？!]+[.?？!]*")


def _asked(question: str) -> str:
    """The question without the remarks after it ('… 되어 있던데요.' says why one asks)."""
    sentences = [m.group().strip() for m in _SENTENCES.finditer(question) if m.group().strip()]
    while len(sentences) > 1 and _remark(sentences[-1]):
        sentences.pop()
    return " ".join(sentences)


def _remark(piece: str) -> bool:
    text = piece.rstrip(" .!~ㅠㅜㅋㅎ^;")
    if "?" in piece or "？" in piece or _QUESTION_WORD.search(piece.lower()) is not None:
        return False
    if text.isascii():
        # 'A colleague told me it got approved.', 'Mine just started middle school.': a
        # statement after the question says why one asks; a request asks
        return bool(text) and _EN_REQUEST.match(text) is None
    return text.endswith(_REMARK_ENDINGS)


# A piece about the records the part before listed ('how many of those claims …', '그중').
_BACK_POINTER = re.compile(r"\b(?:of those|those|of them|among them|these)\b|그중|그 중|이 중")


# '2024년 5월에 … 샀을 때랑 지금이랑 결재권자 같아?', 'in May 2024 and now': one clause
# asking a rule as of a date and today.
_AND_NOW_KO = re.compile(
    r"(?:때|당시|에)?(?:이랑|랑|하고|과|와)\s?(?:지금|현재|요즘)(?:이랑|하고|과|와|은|이)?\s"
)
_AND_NOW_EN = re.compile(
    r",?\s(?:and|vs\.?|versus|compared (?:to|with))\s(?:now|today|currently)\b,?", re.I
)


_BETWEEN_DATES = re.compile(
    r"^\s*(?:이랑|랑|하고|과|와|vs\.?|versus|and|or|compared (?:to|with))\s*(?:on\s+)?$", re.I
)


_DATES_JOINED = re.compile(
    r"\d\s*(?:일|월|년)?\s*(?:이랑|랑|하고|과|와)\s*\d|\d\s*(?:vs\.?|versus|and|or|compared)\s",
    re.I,
)
"""A date joined to another ('22일이랑 23일', '2026-12-22 versus 2026-12-23')."""


def _two_dates(question: str) -> list[str]:
    """'on 2026-12-22 versus 2026-12-23', '12월 22일이랑 23일': the question as of each."""
    first = date_phrase(question)
    if not first:
        return []
    at = question.find(first) + len(first)
    second = date_phrase(question[at:])
    if not second or second == first:
        return []
    gap = question[at : at + question[at:].find(second)]
    if not _BETWEEN_DATES.match(gap):
        return []
    head, tail = question[: question.find(first)], question[at + len(gap) + len(second) :]
    return [" ".join(f"{head}{d}{tail}".split()) for d in (first, second)]


def _then_and_now(question: str) -> list[str]:
    """The question as of its date and as of today, when one clause asks both; [] if not."""
    # (the cheap tests first: most questions join no date to another date or to now)
    now_joined = _AND_NOW_KO.search(question) or _AND_NOW_EN.search(question)
    if not (now_joined or _DATES_JOINED.search(question)):
        return []
    phrase = date_phrase(question)
    if not phrase or _PART_BREAK.search(question):
        return []  # ('… 며칠이었죠? 그때랑 지금이랑 비교해서': parts of their own)
    both = _two_dates(question)
    if both or not now_joined:
        return both
    at = question.find(phrase) + len(phrase)
    match = _AND_NOW_KO.search(question, at) or _AND_NOW_EN.search(question, at)
    if match is None:
        return []
    ending = "때 " if question[match.start() : match.start() + 1] == "때" else " "
    then = " ".join(f"{question[: match.start()]}{ending}{question[match.end() :]}".split())
    rest = _without_date(then, phrase)
    now = f"지금 {rest}" if extract(question).lang == "ko" else f"{rest} now"
    return [then, now]


def _without_date(text: str, phrase: str) -> str:
    return " ".join(re.sub(re.escape(phrase) + r"(?:쯤)?(?:에는|에|엔|은|는)?", " ", text).split())


def split_parts(question: str) -> list[str]:
    """The parts of a multi-part question, or ``[question]``.

    A piece counts as a part only when it is answerable on its own (an intent other
    than the search fallback, or a topic of its own); other pieces join the part
    before them. A part naming no document borrows the title the first part names.
    """
    both = _then_and_now(question)
    if both:
        return both
    shared = _shared_predicate(question)
    if shared != question:
        parts = _split(shared)
        if len(parts) > 1:
            return parts
    return _split(question)


# 'A랑 B 얼마야?' (no comma): two subjects of one predicate, unless the question
# compares them ('서울이랑 부산 중에 어디가 더 비싸?').
_AND_BARE = re.compile(r"(?<=[가-힣]{2})(?:이랑|랑|와|과)\s+(?=[가-힣A-Za-z0-9])")
_COMPARING = re.compile(
    r"중에|중\s|비교|차이|같아|같은|같나|달라|다른|다르|\s더\s|사이|vs|안\s?맞|일치|충돌|어긋"
    # ('숙박비 한도랑 일비 합치면 최대 얼마?': one sum)
    r"|합치|합쳐|합하|합계|더하|더해|총\s|총액|\bplus\b|\btotal\b",
    re.I,
)


def _shared_predicate(question: str) -> str:
    """'출장 숙박비 한도랑 일비 얼마야?' as two questions with one predicate each
    ('출장 숙박비 한도 얼마야? 일비 얼마야?'), or the question unchanged."""
    match = _AND_BARE.search(question)
    if match is None or _COMPARING.search(question) or _PART_BREAK.search(question):
        return question
    first, second = question[: match.start()].strip(), question[match.end() :].strip()
    words = second.split()
    if not first or len(words) < 2:
        return question
    head = extract(words[0])
    if not (head.keywords or head.title_words or head.doc_nos):
        return question
    tail = " ".join(words[1:])
    joint = " " if tail.endswith(("?", "？")) else ", 그리고 "
    return f"{first} {tail}{joint}{second}"


def _split(question: str) -> list[str]:
    pieces = [p.strip() for p in _PART_BREAK.split(question) if p and p.strip()]
    if len(pieces) < 2 or len(pieces) > _MAX_PARTS * 2:
        return [question]
    parts: list[str] = []
    seen: list[tuple[str, tuple[str, ...]]] = []
    first = extract(pieces[0])
    named = first.title or (first.doc_nos[0] if first.doc_nos else "")
    whole = detect_intent(question, extract(question))
    orders = whole == "purchase_orders"
    dropped = False
    for piece in pieces:
        earlier = (
            (
                _back_then(parts[-1], piece)
                or _back_now(parts[-1], piece)
                or _other_amount(parts[-1], piece)
            )
            if parts
            else ""
        )
        if earlier:
            parts.append(earlier)  # '2023년 초에도 같았어?': the part before, as of then
            seen.append(("as_of", (earlier,)))
            continue
        ents = extract(piece)
        intent = detect_intent(piece, ents)
        nouns = [k for k in ents.keywords if k not in ents.derived]  # '적용되면' is no topic
        topic = tuple(nouns[:2]) + tuple(ents.title_words) + tuple(ents.doc_nos)
        if topic:
            standalone = (intent, topic) not in seen
        else:
            # A piece naming nothing ('지금 개정 진행 중인 것도') asks about the document
            # the first part names, when it asks something else about it.
            if named and intent not in DOCUMENT_INTENTS:
                # ('…, and what is its parent?': asked of the document the first part names)
                intent = detect_intent(f"{named} {piece}", extract(f"{named} {piece}"))
            standalone = (
                (bool(named) and intent in DOCUMENT_INTENTS and intent not in {i for i, _ in seen})
                or (
                    # 'How many people are in SAL and who's been with us the longest?': another
                    # question of the same records (a head count, then the first hire)
                    intent in _RECORD_INTENTS
                    and bool(seen)
                    and seen[-1][0] in _RECORD_INTENTS
                    and intent != seen[-1][0]
                )
                or (
                    # '… 어떻게 되는지, 그리고 최근 개정 때 뭐가 새로 들어갔는지': the revision
                    # of the document the first part names, compared with the one before
                    bool(named or first.keywords)
                    and cue(piece, "version_compare")
                    and not cue(parts[-1] if parts else "", "version_compare")
                )
            )
        if parts and _remark(piece) and piece.isascii():
            dropped = True
            continue  # 'The v3 addendum says it took effect on Jan 1.': why one asks, dropped
        if parts and (
            (_continues(piece) and intent not in ("remaining", "usage"))
            or _remark(piece)
            or (
                _also(piece)
                and not (ents.title_words or ents.doc_nos)
                # '… 언제까지 내? 문의 전화번호도 알려줘': whom to call is another part
                and not (ASKS_CONTACT.search(piece) and not ASKS_CONTACT.search(parts[-1]))
                # '… 며칠 안에 등록해야돼? 사용 금지 업종도 같이 알려줘': a rule's other point
                # asked too is a part of its own; what to include in a description is not
                and not (seen and seen[-1][0] not in DOCUMENT_INTENTS and ents.keywords)
            )
        ):
            standalone = False  # '아님 …', '그날이 …': the same question, asked on
        if (
            parts
            and seen[-1][0] in _RECORD_INTENTS
            and intent == "search"
            and not (ents.title_words or ents.doc_nos)
            and _QUESTION_WORD.search(piece.lower()) is None
        ):
            standalone = False  # '… 몇 명이야? 부서별로 나눠서', '… 누구야? 연락처도': how
        if (
            parts
            and cue(piece, "version_compare")
            and all(cue(k, "version_compare") for k in ents.keywords)
            and _REVISION_BROUGHT.search(piece) is None
        ):
            standalone = False  # '… 몇일까지 돼? 예전이랑 같아?': the same rule, then and now
        if parts and (
            any(w in piece.lower() for w in WHICH_IS_RIGHT) or _notes_disagreement(piece)
        ):
            # '… 숫자가 다르던데 뭐가 맞아?': which of the texts applies, which the answer
            # to the part before says wherever documents disagree
            continue
        if (
            parts
            and ASKS_CONTACT.search(parts[-1])
            and ents.keywords
            and all(ASKS_CONTACT.search(k) for k in ents.keywords)
        ):
            standalone = False  # '… 문의 어디로 하면 돼? 번호도 알려줘': the same contact
        if (
            parts
            and _CONFIRM_TAIL.search(piece)
            and not (ents.title_words or ents.doc_nos or ents.amount is not None)
            and len(ents.keywords) <= 1
        ):
            standalone = False  # '… 15만원으로 올랐다며? 공지 올려야 되는데 맞지?': the same
        if (
            parts
            and nouns
            and len(piece.split()) <= 4
            and not (ents.title_words or ents.doc_nos)
            and set(nouns) <= set(extract(parts[-1]).keywords)
        ):
            standalone = False  # '… 몇시~몇시 사이로 고를 수 있어? 7시 출근도 OK?': the same
        if (
            parts
            and ents.keywords
            and not (ents.title_words or ents.doc_nos)
            and all(k in _UPDATE_WORDS for k in ents.keywords)
        ):
            standalone = False  # '… 규정이랑 맞아? 이번 달 개정 반영해야 돼?': of the same rule
        if (
            parts
            and _SOURCE_ASKED.search(piece)
            and not (ents.title_words or ents.doc_nos)
            and all(_SOURCE_ASKED.search(k) or len(k) < 2 for k in ents.keywords)
        ):
            standalone = False  # '… 대결은 누가 해? 근거 doc_no도 알려줘': the answer's source
        if parts and _CONFIRM_TAIL.search(piece) and _CLAIM_STATED.search(piece):
            # '… 몇개월 보관해야함? 출입통제 지침엔 6개월로 돼있는데 맞아?': what one text says,
            # checked against the answer to the part before (the same question)
            standalone = False
        if parts and re.fullmatch(r"[가-힣]{2,8}도\s*[?？.!]*", piece.strip()):
            standalone = False  # '… 누구야? 입사일도': that too, of the part before
        if parts and not ents.keywords and len(piece.strip(" ?？.!")) <= 6:
            standalone = False  # '언제부터?', '왜?': asked of the part before
        if (
            parts
            and seen[-1][0] == "purchase_orders"
            and any(w in piece.lower() for w in ("결재", "승인", "approv", "sign"))
        ):
            standalone = False  # '… 발주 있음? 결재권자 누구?': the orders list their approvers
        if (
            parts
            and orders
            and intent in ("search", "purchase_orders", "ceiling")
            and not (ents.title_words or ents.doc_nos)
            # ('… PO-2025-001 결재권자 누구야? 그리고 딱 500만원짜리면?': an amount of its own)
            and not (ents.amount is not None and intent == "ceiling")
        ):
            standalone = False  # '구매요청 몇건이고 금액 합계는? 반려된건 뭐야': the same orders
        if (
            parts
            and whole in ("roster", "usage", "expense", "purchase_orders")
            and intent in ("search", whole)
            and (asks_per_department(piece) or _BACK_POINTER.search(piece.lower()))
            and not (ents.title_words or ents.doc_nos)
        ):
            standalone = False  # '전사 직원 몇명이고 부서별로 제일 많은 데는?': the same records
        if parts and VAT_APART.search(piece) and extract(parts[-1]).amount is not None:
            standalone = False  # '480만원이고 VAT 별도래요. 누가 결재해?': that amount, with VAT
        if parts and _clause_not_question(parts[-1]):
            standalone = False  # '2박 하고 22만원 냈으면': one question in two clauses
        if parts and not (standalone and len(piece) >= 4):
            parts[-1] = f"{parts[-1]} {piece}"
            continue
        parts.append(piece)
        seen.append((intent, topic))
    if len(parts) == 1 and dropped:
        return parts  # the question without the statement after it
    if len(parts) < 2 or len(parts) > _MAX_PARTS:
        return [question]
    if named:
        # ('… 클라우드 조항 시행된거야? 그리고 비밀번호 몇자리': a part with a topic of its
        # own asks about it, not about the document the first part names)
        parts = [parts[0]] + [p if _apart_from(p) else f"{named} {p}" for p in parts[1:]]
        return parts
    # '육아휴직 한도 며칠이고 신청은 어떻게 해?': a later rule question naming no topic
    # of its own asks about the first part's topic noun.
    noun = next(
        (
            k
            for k in first.keywords
            if (k in TOPIC_WORDS or k in LEAVE_TYPES) and not ASKS_CONTACT.search(k)
        ),
        "",
    )
    if noun:
        parts = [parts[0]] + [p if _names_own_topic(p) else f"{noun} {p}" for p in parts[1:]]
    elif first.keywords:
        # '연말정산 서류 언제까지 내? 문의 전화번호도 알려줘': whom to call about 연말정산;
        # '법인카드 … 등록해야돼? 사용 금지 업종도': the card's other rule
        subject = next(
            (k for k in first.keywords if not ASKS_CONTACT.search(k)), first.keywords[0]
        )  # ('연말정산 문의 contact number …': the year-end settlement, not the phone)
        parts = [parts[0]] + [
            f"{subject} {p}"
            if _contact_only(p) or not (_names_own_topic(p) or extract(p).derived)
            else p
            for p in parts[1:]
        ]
    # '육아휴직 나 얼마나 썼어? 12월 22일 개정 후엔 몇일 남아?': days left of the same leave
    kind = next((k for k in first.keywords if k in LEAVE_TYPES), "")
    mine = cue(parts[0], "self") and not named_people(parts[0])
    if kind:
        # '육아휴직 신청하면 누가 승인해? 그리고 안쓴거 이월 됨?': an aspect of leave asked
        # alone is of the leave the first part named
        parts = [parts[0]] + [
            f"{kind} {p}"
            if not _names_leave(p)
            and not extract(p).title_words
            and extract(p).keywords
            and all(k in LEAVE_ASPECTS or k in extract(p).derived for k in extract(p).keywords)
            else p
            for p in parts[1:]
        ]
        carried = []
        for p in parts[1:]:
            if detect_intent(p, extract(p)) in ("remaining", "usage") and not _names_leave(p):
                # whose days, too: the asker's, when the first part asked of them
                own = mine and not cue(p, "self") and not named_people(p)
                p = f"{'내 ' if own and first.lang == 'ko' else ''}{kind} {p}"
            carried.append(p)
        parts = [parts[0], *carried]
    return parts


# A piece asking the part before again as of another date ('2023년 초에도 같았어?',
# '2021년에 입사한 사람들은 몇개월이었고?', 'was it the same in 2022?'): the words it may
# hold besides the date, and the words that ask whether it was so then.
_THEN_LEAD = re.compile(
    r"^(?:에도|에는|에|엔|도|은|는|쯤|때는|때|당시에는|당시|이면|이라면|으로|로|이랑|랑|하고|과|와)\s*"
)
_NOW = re.compile(
    r"(?:(?:지금|현재|요즘|현행)(?:이랑|하고|은|는|도)?|\bcurrently\b|\bcurrent\b|\bnow\b|\btoday\b)\s*",
    re.I,
)
_THEN_FILLERS = frozenset(
    {
        "이전",
        "이전엔",
        "이전에는",
        "만약",
        "혹시",
        "그때",
        "당시",
        "사람",
        "사람들",
        "직원",
        "직원들",
        "신입",
        "입사",
        "입사한",
        "입사자",
        "입사했",
        "들어온",
        "들어왔",
        "들어온사람",
        "채용된",
        "합류한",
        # '23년 초엔 기준이 달랐던거 같은데 그땐 몇자리였어?': a remark and 'then'
        "달랐던거",
        "달랐던",
        "같은데",
        "그땐",
        "그때는",
        "뒤엔",
        "뒤에는",
        "후엔",
        # '12월 23일 이후엔 몇일 되는지 둘다': after that day, both asked
        "이후",
        "이후엔",
        "이후에는",
        "이후로",
        "지나면",
        "지나고",
        "둘다",
        "기준",
        "기준으론",
        "기준으로는",
        "기준으로",
        "규정",
        "바뀐다던데",
        "바뀐다는데",
        "바뀐다고",
    }
)
_THEN_SAME = re.compile(
    r"같았|같나|같아|같은가|똑같|달랐|다른가요|다른가|다른지|달라요|달라\?|다릅|달라졌|바뀌었|변했"
    r"|비교해서|비교해|비교하면|비교\b|\bcompared?\b"
    r"|\bsame\b|\bdifferent\b"
    r"|\bchanged?\b|\bback then\b|\bwhat was it\b|\bwhat were they\b|\bwhat about\b"
    r"|\bhow about\b|\bwas it\b|\bwhat was\b|어땠|였어|였나|였지|였고|었어|었나|었지|었고"
)
_ASKED_KINDS = (
    ("days", re.compile(r"며칠|몇\s?일|\bhow many days\b")),
    ("months", re.compile(r"몇\s?개월|몇\s?달|\bhow many months\b")),
    ("hours", re.compile(r"몇\s?시간|\bhow many hours\b")),
    ("percent", re.compile(r"몇\s?(?:퍼|%|프로)|\bpercent")),
    ("amount", re.compile(r"얼마|\bhow much\b")),
    ("who", re.compile(r"누가|누구|\bwho\b")),
)


def _asked_kinds(text: str) -> set[str]:
    lowered = text.lower()
    return {kind for kind, pattern in _ASKED_KINDS if pattern.search(lowered)}


def _back_then(before: str, piece: str) -> str:
    """The part before asked as of the date this piece names, when the piece asks only
    that ('2023년 초에도 같았어?'); '' otherwise."""
    phrase = date_phrase(piece)
    if not phrase or date_phrase(before):
        return ""
    if _remark(piece) and piece.isascii():
        return ""  # 'going to tokyo next month': why one asks, no question of its own
    rest = _THEN_LEAD.sub("", piece.replace(phrase, " ", 1).strip())
    intent = detect_intent(rest, extract(rest))
    # ('이후엔 몇일 되는지' reads as a rule's days: asked of the days left before, too)
    if intent not in ("search", "rule_days", detect_intent(before, extract(before))):
        return ""
    known = set(extract(before).keywords) | _THEN_FILLERS
    own = [k for k in extract(rest).keywords if k not in known and k[:2] not in known]
    if own:
        return ""
    asks = _QUESTION_WORD.search(rest.lower())
    if asks and not (_THEN_SAME.search(rest.lower()) or _asked_kinds(rest) & _asked_kinds(before)):
        return ""
    at = piece.find(phrase)
    if piece[:at].rstrip().lower().endswith("before"):
        phrase = f"before {phrase}"  # 'the threshold before July 2024': the day before it
    elif re.match(r"\s*(?:이전|전에|전엔|전까지|전(?=\s|$|이))", piece[at + len(phrase) :]):
        phrase = f"{phrase} 이전"
    return f"{phrase} {_NOW.sub('', before).strip()}"


def _other_amount(before: str, piece: str) -> str:
    """The purchase before asked again for another amount ('… 4,990,000원짜리면 팀장 전결로
    되나? 딱 500만원이면?'), when the piece names only that amount; '' otherwise."""
    spans, given = amount_spans(before), amount_spans(piece)
    if len(spans) != 1 or len(given) != 1 or detect_intent(before, extract(before)) != "ceiling":
        return ""
    start, end, _ = given[0]
    rest = f"{piece[:start]} {piece[end:]}"
    if extract(rest).keywords or len(rest.strip(" ?？.!딱만약그럼이면은요")) > 6:
        return ""
    at, until, _ = spans[0]
    return f"{before[:at]}{piece[start:end]}{before[until:]}"


def _back_now(before: str, piece: str) -> str:
    """The part before asked for today, when it named a date and this piece asks only
    'and now?' ('… 2024년 2월엔 몇일이었고 / 지금은 몇일?'); '' otherwise."""
    phrase = date_phrase(before)
    if not phrase or date_phrase(piece) or not _NOW.search(piece):
        return ""
    rest = _NOW.sub("", piece).strip()
    rest = _THEN_SAME.sub(" ", _THEN_LEAD.sub("", rest))  # '다른가요?' asks, names nothing
    known = set(extract(before).keywords) | _THEN_FILLERS
    if any(k not in known and k[:2] not in known for k in extract(rest).keywords):
        return ""
    undated = _without_date(before, phrase)
    return f"지금 {undated}" if extract(before).lang == "ko" else f"{undated} now"


def _contact_only(part: str) -> bool:
    """Whom to call is all a part asks ('문의 전화번호도 알려줘'), of no one named."""
    words = extract(part).keywords
    return bool(words) and all(ASKS_CONTACT.search(k) for k in words) and not named_people(part)


def _apart_from(part: str) -> bool:
    """A later part that asks of its own topic, not of the document the first part names
    ('… 그리고 비밀번호 몇자리': a rule of its own; '… 개정 진행 중인 것도': the document's)."""
    ents = extract(part)
    if ents.title_words or ents.doc_nos:
        return True
    return _names_own_topic(part) and detect_intent(part, ents) not in DOCUMENT_INTENTS


def _names_own_topic(part: str) -> bool:
    """A part names its own topic noun or document, or asks about records, not a rule."""
    ents = extract(part)
    if ents.title_words or ents.doc_nos or _records(part):
        return True
    if _ALSO_ALLOWED.search(part):
        return False  # '… 상품권 사서 나눠주는것도 되나': that too, with the first part's subject
    if _contact_only(part):
        return False  # '문의 전화번호도 알려줘': whom to call about the first part's topic
    if any(k in TOPIC_WORDS or k in LEAVE_TYPES or k in _OTHER_TRIP_COSTS for k in ents.keywords):
        return True  # ('… and the daily allowance?': 일비 is a topic of its own)
    # '그리고 휴게시간은 몇시부터?': a long noun of its own is its topic ('신청은 어떻게
    # 해?' names none: it asks about the first part's)
    if any(
        len(k) >= 3
        and re.fullmatch(r"[가-힣]+", k)
        and k not in ents.derived
        and k not in _THEN_FILLERS  # '신규 입사자랑 다른가요?': who, not what about
        and not ASKS_CONTACT.search(k)  # '문의 전화번호도': whom to call, about the same
        for k in ents.keywords
    ):
        return True
    return detect_intent(part, ents) != "search"


# Two dates asked side by side ('2023년 6월 30일이랑 7월 1일에', '2023-06-30 and 2023-07-01'):
# one question per date (the second date may leave its year to the first).
_TWO_DATES_KO = re.compile(
    r"((?:19|20)\d{2})년\s?(\d{1,2})월\s?(\d{1,2})일\s?(?:이랑|랑|과|와|하고|및|,)\s?"
    r"(?:((?:19|20)\d{2})년\s?)?(\d{1,2})월\s?(\d{1,2})일"
)
_TWO_DATES_ISO = re.compile(
    r"((?:19|20)\d{2}-\d{2}-\d{2})\s?(?:이랑|랑|과|와|하고|및|,|and|or|vs\.?)\s?"
    r"((?:19|20)\d{2}-\d{2}-\d{2})",
    re.I,
)


# A month with no year or day, spoken of as a span ('12월 중에', '12월 동안', '12월에').
_MONTH_ONLY = re.compile(r"(?<![\d년])(?<!년 )(\d{1,2})월\s?(?=중|동안|내내|에\s|에는)")


def _rule_over_month(q: str) -> bool:
    """A leave rule asked over a month, not records filed in it."""
    return _names_leave(q) and not _records(q) and not cue(q, "usage")


_SENTENCE_BREAK = re.compile(r"[?？!]\s*|\.\s+")


def split_amounts(question: str) -> tuple[list[str], list[str]]:
    """Who approves at two amounts ('450만원이랑 600만원 각각', '… 4.5 million won? And
    if it came to 6 million?'): the question once per amount, with the amounts as
    labels; ([], []) otherwise."""
    spans = amount_spans(question)
    if len(spans) != 2 or spans[0][2] == spans[1][2]:
        return [], []
    if any(w in question.lower() for w in SPLIT_PURCHASE_WORDS):
        return [], []  # one purchase in parts: added up, not asked one by one
    if detect_intent(question, extract(question)) != "ceiling":
        return [], []
    (s1, e1, v1), (s2, e2, v2) = spans
    unit = " won" if extract(question).lang == "en" else "원"
    labels = [f"{v1:,}{unit}", f"{v2:,}{unit}"]
    second = question[s2:e2]
    currency = re.search(r"\s*(?:won|krw)$", question[s1:e1], re.I)
    if currency and not re.search(r"(?:won|krw)$", second, re.I):
        second += currency.group()  # '6 million' after '4.5 million won'
    breaks = [m.end() for m in _SENTENCE_BREAK.finditer(question) if e1 <= m.end() <= s2]
    if not breaks:
        # in one sentence ('450만원이랑 600만원 각각', 'a 3M won purchase vs a 40M won one'):
        # the question once with each amount, the other left out
        return [
            " ".join(q.replace("각각 ", "").replace(" each", "").split())
            for q in (question[:s2] + question[e2:], question[:s1] + question[e1:])
        ], labels
    asked = question[: breaks[-1]].strip()
    return [asked, asked[:s1] + second + asked[e1:]], labels


_A_DATE = re.compile(
    r"(?:19|20)\d{2}\s?년\s?\d{1,2}\s?월(?:\s?\d{1,2}\s?일)?|(?:19|20)\d{2}-\d{2}-\d{2}"
)
_DATE_AGAIN = re.compile(
    r"[?？.]\s*+((?:19|20)\d{2}\s?년\s?\d{1,2}\s?월(?:\s?\d{1,2}\s?일)?|(?:19|20)\d{2}-\d{2}-\d{2})"
    r"\s?(?:은|는|엔|에는|에도)\s?(?:요|어때|어땠어)?\s?[?？]?\s*$"
)


def _date_asked_again(question: str) -> tuple[list[str], list[str]]:
    """'2024년 3월 기준 … 몇일이었지? 2025년 2월은?': the question once per date."""
    again = _DATE_AGAIN.search(question)
    if again is None:
        return [], []
    first = question[: again.start() + 1]
    said = _A_DATE.search(first)
    if said is None:
        return [], []
    second = first[: said.start()] + again.group(1) + first[said.end() :]
    return [first, second], [said.group(0), again.group(1)]


def split_dates(question: str) -> tuple[list[str], list[str]]:
    """The question once per date when it names two dates side by side, with the dates
    as labels; ([], []) otherwise."""
    parts, dates = _date_asked_again(question)
    if parts:
        return parts, dates
    ko = _TWO_DATES_KO.search(question)
    iso = None if ko else _TWO_DATES_ISO.search(question)
    if ko:
        year, month, day, year2, month2, day2 = ko.groups()
        dates = [
            f"{year}년 {int(month)}월 {int(day)}일",
            f"{year2 or year}년 {int(month2)}월 {int(day2)}일",
        ]
        start, end = ko.span()
    elif iso:
        dates = [iso.group(1), iso.group(2)]
        start, end = iso.span()
    else:
        month = _MONTH_ONLY.search(question)
        if month is None or not _rule_over_month(question):
            return [], []
        # '12월 중에 육아휴직 쓰면 한도': the month's first and last day (of this year),
        # so a version taking effect inside the month shows on both sides of it.
        m = int(month.group(1))
        if not 1 <= m <= 12:
            return [], []
        last = calendar.monthrange(2001, m)[1]  # (a non-leap year: 28 February is in any)
        dates = [f"{m}월 1일", f"{m}월 {last}일"]
        start, end = month.start(), month.end(1) + 1
    before, after = question[:start], question[end:]
    parts = [f"{before}{d}{after}".replace("각각 ", "").replace(" each", "") for d in dates]
    return parts, dates
