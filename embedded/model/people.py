"""Who a question is about: the caller ('I/my') or people named in it.

The caller's identity comes from the system prompt's identity line (bound by the
login, never a tool argument). Names become employee numbers only through one
query over the HR employees view, so the platform's row filters decide whom the
caller can find: a person outside the caller's scope is simply not found.
"""

from __future__ import annotations

import calendar
import datetime as dt
import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from embedded.model.compose import rows_of
from embedded.model.entities import strip_particle
from embedded.model.lexicon import (
    ALIASES,
    CUES,
    DEPARTMENTS,
    EN_TO_KO,
    LEAVE_TYPES,
    RANKS,
    RANKS_EN,
    STOPWORDS,
    TOPIC_WORDS,
)
from embedded.model.romanized import hangul_names

if TYPE_CHECKING:
    from embedded.model.compose import Ctx
    from embedded.model.conversation import ToolCall
    from embedded.model.entities import Entities

_IDENTITY = re.compile(r"The person asking is ([^\n()]{1,80}?) \(username [^)\s]{1,64}\)\.")
# Letters and spaces, and a hyphen only between letters ('Do-won'; never '--')
_SAFE_NAME = re.compile(r"(?=.{1,64}\Z)[가-힣A-Za-z](?:[가-힣A-Za-z ]|-(?=[가-힣A-Za-z]))*")
_HANGUL_WORD = re.compile(r"[가-힣]+")
# ('Kim Do-won', 'Do-hyun Kim': a romanized given name keeps its hyphen)
_LATIN_NAME = r"([A-Z][a-z]+(?:-[a-z]+)?(?:[ -][A-Z][a-z]+(?:-[a-z]+)?){0,2})"
_LATIN_PATTERNS = (
    re.compile(_LATIN_NAME + r"'s\b"),
    re.compile(
        r"\b(?:has|did|does|is)\s+" + _LATIN_NAME + r"\s+(?:used|use|taken|take|got|have|left)\b"
    ),
)
_ROMANIZED = re.compile(r"\b([A-Z][a-z]+(?:-[a-z]+)? [A-Z][a-z]+(?:-[a-z]+)?)\b")
EMPLOYEES_VIEW = "semantic.hr.employees"
"""The view names are resolved against."""
# Words of HR questions that are not names (the planner's vocabulary adds the rest).
_NOT_NAMES = frozenset(
    {
        # a purchase or claim spoken of as one item ('구매건', '구입건'), not 구씨
        "구매건",
        # a verb's connective form ('승인대기인 것만 추려서'), not 추씨
        "추려서",
        "골라서",
        "구입건",
        "구매요청",
        "구매신청",
        # a verb made adjective ('2025년 2월에 육아휴직 신청한 직원'), '나와있는' (is written)
        "신청한",
        "사용한",
        "입사한",
        "퇴사한",
        "승인한",
        "제출한",
        "요청한",
        "청구한",
        "신고한",
        "나와있",
        "나와있는",
        "나와있어",
        "나와있나",
        "주차비",
        "주차",
        "주차장",
        "적혀있는",
        # head counts ('부서별 인원수', '총 인원'): 인 is a surname, 인원수 no name
        "인원수",
        "인원은",
        # nouns of the regulations themselves that start with a family name ('근거
        # 조항도 알려줘': 조항 + 도, not 조씨)
        "조항",
        "조문",
        "조건",
        "조치",
        "조정",
        "조직",
        "정보",
        "정책",
        "정산",
        "정기",
        "기준",
        "기간",
        "금액",
        "변경",
        "개정",
        "시행",
        "인원수는",
        "인원수도",
        # what is left ('남은건?', '남은게'): 남 is a surname, 남은 is no name
        "남은건",
        "남은게",
        "남은거",
        "남은건요",
        # before and after ('개정 전후로', '그 전이랑'): time words that start like a surname
        "전후",
        "전이",
        "전엔",
        "전에",
        "후엔",
        "후에",
        "최장기",
        "근속자",
        "이후엔",
        "이후에",
        "얼마나",
        "얼마",
        "한도",
        "상한",
        "며칠",
        "몇일",
        "사용",
        "사용일수",
        "일수",
        "남은",
        "잔여",
        "휴가",
        "현황",
        "기록",
        "직원",
        "부서",
        "우리",
        "올해",
        "작년",
        "내년",
        "지금",
        "현재",
        "전체",
        "모두",
        "각각",
        "사번",
        "본인",
        "제가",
        "내가",
        "나의",
        "저의",
        "혹시",
        "알려",
        "조회",
        "보여",
        "확인",
        "경비",
        "청구",
        "출장",
        "숙박",
        "숙박비",
        "내역",
        "합계",
        "총",
        "이번",
        "그럼",
        "그리고",
        "그런데",
        "근데",
        "진짜",
        "정확히",
        "대충",
        "얼마큼",
        "누가",
        "누구",
        "안내",
        "문의",
        "예시",
        "최고참",
        "막내",
        "고참",
        # roster words ('명단을', '구성원', '10일 이하인', '차장인 사람')
        "명단",
        "목록",
        "직급",
        "직위",
        "직책",
        "입사자",
        "입사일",
        "구성원",
        "조직도",
        "인원",
        "이하",
        "이상",
        "미만",
        "초과",
        "이내",
        "이전",
        "이후",
        "이하인",
        "이상인",
        "미만인",
        "초과인",
    }
)


# Common Korean family names: a name candidate must start with one.
_SURNAMES = frozenset(
    "김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민진나엄채원천방공현함변염여추도소석선설마길연위표명반왕금옥인맹탁국은편용예경봉"
)
_VERB_ENDINGS = (
    "어",
    "아",
    "줘",
    "요",
    "까",
    "니",
    "지",
    "야",
    "다",
    "고",
    "면",
    "래",
    "죠",
    "게",
    "데",
    "해",
    "해도",
)
# Titles and honorifics that mark the word before them as a person ('윤도주 대리').
_TITLES = frozenset(
    {"씨", "님", "대리", "과장", "차장", "부장", "사원", "주임", "팀장", "본부장", "이사", "선임"}
    | {"책임", "수석", "부장님", "과장님", "대리님", "팀장님"}
)
_NOT_NAME_ENDINGS = ("에", "에서", "로", "으로", "돼서", "되서")
_SENTENCE_ENDS = frozenset("네요죠돼")
_EN_NOT_NAMES = frozenset(
    {"what", "that", "this", "who", "it", "today", "company", "department", "team", "my", "the"}
    | {"show", "tell", "list", "give", "find", "get", "how", "is", "does", "did", "has", "please"}
)


# Whole words that make a question first-person ('얼마나' must not count as '나').
_SELF_WORDS = frozenset(
    {"나", "내", "제", "저", "내가", "나의", "제가", "저의", "나는", "저는", "본인"}
    | {"my", "i", "me", "mine", "i'm", "i've", "myself"}
)


def _vocabulary() -> frozenset[str]:
    words: set[str] = set(_NOT_NAMES) | set(STOPWORDS) | set(LEAVE_TYPES) | set(EN_TO_KO.values())
    words |= set(TOPIC_WORDS) | set(ALIASES) | set(_SELF_WORDS) | set(_TITLES)
    for cues in CUES.values():
        for phrase in cues:
            words.update(_HANGUL_WORD.findall(phrase))
    return frozenset(words)


_VOCABULARY = _vocabulary()


def asker_name(system: str) -> str:
    """Return the display name on the system prompt's identity line ('' when absent or unsafe)."""
    match = _IDENTITY.search(system or "")
    if match is None:
        return ""
    name = " ".join(match.group(1).split())
    return name if _SAFE_NAME.fullmatch(name) else ""


def _hangul_candidates(raw: str) -> list[str]:
    """The word as written and without its particle/honorific, when each could be a name."""
    forms = [raw, strip_particle(raw)]
    forms += [f[:-1] for f in forms if f.endswith(("씨", "님")) and len(f) >= 3]
    found = []
    for word in forms:
        if not 2 <= len(word) <= 4 or word in _VOCABULARY or word[0] not in _SURNAMES:
            continue
        if len(word) == 3 and word[:2] in _TITLES and word[2] in "인급들":
            continue  # '차장인 사람', '차장급': a title, not a name
        if word.endswith(_NOT_NAME_ENDINGS) and word != raw.rstrip("씨님"):
            continue
        if len(word) == 3 and word[-1] in _SENTENCE_ENDS:
            continue  # '기억이 안나네', '그렇대요': a sentence's end, not a name
        if len(word) == 3 and word[-1] == "하" and word[:2] in _VOCABULARY:
            continue  # '신청하는': a word made a verb (신청 + 하), not a name
        if len(word) == 3 and word[-1] in "에로를을와과랑" and word == raw:
            continue  # '최근에', '반대로': a word and its particle, not a name
        if word not in found:
            found.append(word)
    return found


def _name_ending_in_a(word: str) -> bool:
    """'홍지아', '김서아': a family name and a given name ending in 아 is a name, not a verb."""
    return len(word) == 3 and word[0] in _SURNAMES and word.endswith("아")


_VERB_SYLLABLES = frozenset("됐했었았였겠겼셨습봤왔줬된눠뤄춰")


def clear_name_cache() -> None:
    """Forget the names read so far (per request, so every request is timed cold)."""
    _named_people.cache_clear()


def named_people(question: str) -> list[str]:
    """Candidate person names in a question (see ``_named_people``); a fresh list."""
    return list(_named_people(question))


@functools.lru_cache(maxsize=256)
def _named_people(question: str) -> tuple[str, ...]:
    """Candidate person names in a question (Hangul 2–4 syllables not in the vocabulary, Latin).

    A Hangul candidate starts with a common family name and is no word the planner
    knows; both the word as written and without a trailing particle are tried
    ('…은' may end a name). Latin names are taken only in possessive or subject
    position ("X's leave", "has X used").
    """
    found: list[str] = []
    words = _HANGUL_WORD.findall(question)
    for i, raw in enumerate(words):
        if raw in _VOCABULARY or strip_particle(raw) in _VOCABULARY:
            continue
        ends_verb = raw.endswith(_VERB_ENDINGS) or strip_particle(raw).endswith(_VERB_ENDINGS)
        if ends_verb and not _name_ending_in_a(raw):
            continue
        titled = i + 1 < len(words) and words[i + 1] in _TITLES
        if any(ch in raw for ch in _VERB_SYLLABLES):
            continue  # '도입됐을', '생겼': a tense or a verb ending, in no Korean name
        for word in _hangul_candidates(raw):
            # Most Korean full names have three syllables; a two-syllable word
            # ('정리', '전사', '홍가' from '홍가은') is a name only as written and
            # with a title or honorific ('민준 씨', '김민 대리', '김민님').
            if len(word) == 2 and not (
                (titled and word == raw) or raw in (word + "씨", word + "님")
            ):
                continue
            # Four syllables untitled read as two nouns ('도서구입', '출장숙박'): a
            # four-syllable name is rare and is taken with a title ('남궁민수 과장').
            if len(word) == 4 and not (titled or raw.startswith((word + "씨", word + "님"))):
                continue
            if word not in found:
                found.append(word)
    for pattern in _LATIN_PATTERNS:
        for match in pattern.finditer(question):
            words = match.group(1).split()
            while words and words[0].lower() in _EN_NOT_NAMES:
                words = words[1:]
            name = " ".join(words)
            if name and name not in found:
                found.append(name)
    for match in _ROMANIZED.finditer(question):
        # 'Which department is Hong Ga-eun in?': a family name beside a given name
        name = match.group(1)
        if name not in found and not (set(name.lower().split()) & _EN_NOT_NAMES):
            if hangul_names(name):
                found.append(name)
    return tuple(n for n in found if _SAFE_NAME.fullmatch(n))[:6]


def quote(name: str) -> str:
    """SQL string literal of a name; only names matching the safe-name pattern pass.

    Raises:
        ValueError: When the name has anything but letters and spaces.
    """
    if not _SAFE_NAME.fullmatch(name):
        raise ValueError(f"not a plain name: {name!r}")
    return "'" + name.replace("'", "''") + "'"


def looked_up(names: list[str]) -> list[str]:
    """The names to look up: a romanized one ('Kim Do-won') as the Hangul names it may be."""
    expanded = [h for n in names for h in (hangul_names(n) if n.isascii() else []) or [n]]
    return [n for n in dict.fromkeys(expanded) if _SAFE_NAME.fullmatch(n)]


def lookup_sql(names: list[str]) -> str:
    """The employee lookup by name (only safe names are ever passed)."""
    safe = looked_up(names)
    where = (
        f"성명 = {quote(safe[0])}"
        if len(safe) == 1
        else "성명 IN (" + ", ".join(quote(n) for n in safe) + ")"
    )
    return f"SELECT 사번, 성명, 부서 FROM {EMPLOYEES_VIEW} WHERE {where} ORDER BY 사번"


def is_lookup(call_: ToolCall) -> bool:
    """True for a query_hr call over the employees view (a name lookup)."""
    return call_.name == "query_hr" and EMPLOYEES_VIEW in str(call_.input.get("question_sql"))


def lookup_call(ctx: Ctx) -> ToolCall | None:
    """The latest name lookup of this turn."""
    return next((c for c in reversed(ctx.turn.calls) if is_lookup(c)), None)


def records_call(ctx: Ctx) -> ToolCall | None:
    """The latest query_hr call that is not a name lookup."""
    return next(
        (c for c in reversed(ctx.turn.calls) if c.name == "query_hr" and not is_lookup(c)), None
    )


@dataclass(frozen=True, slots=True)
class Person:
    """One employee row the caller can see."""

    emp_no: str
    name: str
    dept: str


def people_of(call_: ToolCall | None) -> list[Person]:
    """The employees a lookup returned."""
    columns, rows = rows_of(call_)
    if "사번" not in columns:
        return []
    emp = columns.index("사번")
    name = columns.index("성명") if "성명" in columns else emp
    dept = columns.index("부서") if "부서" in columns else emp
    return [Person(str(r[emp]), str(r[name]), str(r[dept] if dept != emp else "")) for r in rows]


def asks_about_self(ctx: Ctx) -> bool:
    """True for a first-person question ('내', 'my', 'I') that is not about a department."""
    lowered = f" {ctx.turn.question.lower()} "
    mine = any(word in _SELF_WORDS for word in re.findall(r"[가-힣a-z']+", lowered))
    return mine and not any(word in lowered for word in CUES["department"])


_FIELD_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("입사일", ("입사", "hire date", "hired", "join", "start date", "started", "been here since")),
    ("직급", ("직급", "직위", "position", "rank", "title")),
    (
        "부서",
        (
            "어느 부서",
            "어느부서",
            "무슨 부서",
            "무슨부서",
            "부서가 어디",
            "부서 어디",
            "소속이",
            "소속 어디",
            "which department",
            "which team",
            "what department",
            "what team",
        ),
    ),
    ("사번", ("사번", "employee number", "employee no", "employee id")),
)


def asked_fields(question: str) -> list[str]:
    """Columns of the employees view a question asks for ('입사일 언제야' → 입사일)."""
    lowered = question.lower()
    return [col for col, words in _FIELD_WORDS if any(w in lowered for w in words)]


# ── Rosters: lists and filters of employees ─────────────────────────────────

_RANK_WORD = "|".join(RANKS)
# '대리 직급인', '과장급', '차장인 사람', '부장님들': a title as a filter (not '본부장', '사원증').
_RANK_KO = re.compile(
    rf"(?<![가-힣])({_RANK_WORD})(?:님)?(?:급)?(?:들)?(?![가-힣])"
    rf"|(?<![가-힣])({_RANK_WORD})(?=인|이|으로|로|만|은|는|을|를|이랑|랑|과|와|도|중|이상|이하|보다|급)"
)
_RANK_ABOVE_KO = re.compile(
    rf"({_RANK_WORD})(?:급)?\s?(이상|이하|보다 높|보다 위|보다 낮|보다 아래|초과|미만)"
)
_RANK_EN = re.compile(
    r"(?<![a-z])(" + "|".join(re.escape(w) for w, _ in RANKS_EN) + r")s?(?![a-z])"
)
_RANK_ABOVE_EN = re.compile(r"(?<![a-z])(or above|and above|or higher|and up|or below|or lower)")
_RANK_CONTEXT_EN = ("title", "rank", "position", "grade", "level")

_DEPT_CODE = re.compile(
    r"(?<![A-Za-z])(" + "|".join(sorted(set(DEPARTMENTS.values()))) + r")(?![A-Za-z])"
    r"\s?(?=팀|부서|직원|사람|team|dept|department|staff|employees|people|members)"
    r"|(?:부서|department)\s?(?:코드\s?)?(?:가|는|이|=|:)?\s?("
    + "|".join(sorted(set(DEPARTMENTS.values())))
    + r")(?![A-Za-z])",
    re.I,
)
# 'the staff list for DEV': a code after a preposition, written in capitals.
_DEPT_CODE_AFTER = re.compile(
    r"\b(?:for|in|of|from)\s(?:the\s)?(" + "|".join(sorted(set(DEPARTMENTS.values()))) + r")\b"
)
_HR_SYSTEM = re.compile(r"(?i)\bhr\s?(?:system|시스템|db|data|database|records?|view)")
_PER_DEPARTMENT = (
    "부서별", "팀별", "by 부서", "by department", "by dept", "per department", "each department",
)  # fmt: skip


def _department_words() -> tuple[tuple[str, str], ...]:
    """Every way a department is named: the lexicon's and their variants ('영업부서',
    'sales department', 'in sales')."""
    words: dict[str, str] = {}
    for word, code in DEPARTMENTS.items():
        words[word] = code
        if word.endswith("팀") and not word.isascii():
            stem = word[:-1]
            for form in (stem + "부서", stem + " 부서", stem + " 팀", stem + "부"):
                words.setdefault(form, code)
        if word.endswith(" team"):
            stem = word[: -len(" team")]
            for form in (stem + " department", stem + " dept", "in " + stem.split()[0] + " "):
                words.setdefault(form, code)
    return tuple(sorted(words.items(), key=lambda kv: len(kv[0]), reverse=True))


_DEPARTMENT_WORDS = _department_words()
TEAM_WORDS = ("팀원", "우리 팀", "우리팀", "저희 팀", "저희팀", "부서원", "my team", "our team")
"""Words asking for the asker's team (the contact plan lists the team's contacts)."""
_BY_HIRE = ("입사일 순", "입사 순", "입사순", "입사일순", "by hire date", "by start date")
_OWN_TEAM = (
    "팀원",
    "우리 팀",
    "우리팀",
    "저희 팀",
    "저희팀",
    "부서원",
    "우리 부서",
    "우리부서",
    "저희 부서",
    "같은 팀",
    "같은 부서",
    "my team",
    "our team",
    "my department",
    "our department",
    "my dept",
    "our dept",
    "my teammates",
    "my colleagues",
    "teammate",
)
_EVERYONE = (
    "회사 전체",
    "회사에서",
    "회사 직원",
    "전사",
    "전 직원",
    "전 사원",
    "모든 사원",
    "전체 직원",
    "총 직원",
    "직원 총",
    "총 인원",
    "전체 인원",
    "모든 직원",
    "직원 전체",
    "전체 명단",
    "company",
    "all employees",
    "all staff",
    "everyone",
    "everybody",
)
# Words that ask for a list of people ('명단', 'who'), and weaker ones that ask for it
# only with a verb of showing ('영업팀 직원들 보여줘', not 'can people on my team …').
_PEOPLE_WORDS = (
    "명단",
    "목록",
    "리스트",
    "구성원",
    "인원",
    "누구",
    "누가",
    "몇 명",
    "몇명",
    "입사자",
    "list",
    "roster",
    "who ",
    "who's",
    "whom",
    "how many people",
    "how many employees",
    "how many staff",
    "how many members",
    "headcount",
    "names",
)
_PEOPLE_WEAK = (
    "직원",
    "사람",
    "팀원",
    "부서원",
    "멤버",
    "people",
    "employees",
    "staff",
    "members",
    "everyone",
    "everybody",
    "colleagues",
    "teammates",
)
_SHOW_WORDS = ("보여", "알려", "뽑아", "정리해", "show", "give me", "tell me", "display")
# Fields a roster may show, and the words that ask for them (주민등록번호: never).
_ROSTER_FIELDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("직급", re.compile(r"직급|직위|직책|\btitles?\b|\bpositions?\b|\branks?\b|\bgrades?\b")),
    (
        "부서",
        re.compile(
            r"부서(?:랑|와|가|는|도|이랑|하고)|부서\s?(?:알려|뭐|어디|확인|좀|$)"
            r"|소속|무슨 부서|어느 부서|어떤 부서"
            r"|(?:and|which|what|my|own) department|department and"
            r"|department\s+(?:grade|title|rank|position|hire|phone|contact)|[—:-]\s*department"
        ),
    ),
    ("입사일", re.compile(r"입사|\bhire|\bhiring\b|\bjoin(?:ed)?\b|\bstart date|\bstarted\b")),
    (
        "연락처",
        re.compile(r"연락처|전화|(?<!사)번호|핸드폰|휴대폰|핸펀|phone|\bcontact|\bmobile\b|\bcell"),
    ),
    ("사번", re.compile(r"사번|직원번호|employee (?:number|no|id)|staff number")),
    ("비고", re.compile(r"비고|remark|notes?\b")),
)
_HIRE_WORDS = ("입사", "들어온", "들어왔", "joined", "hired", "hire", "started", "came on board")
# A date: ISO, or a year with an optional month and day ('2010년', '2017년 5월', 'in 2022').
_HIRE_DATE = re.compile(
    r"((?:19|20)\d{2})-(\d{2})-(\d{2})"
    r"|((?:19|20)\d{2})\s?년(?:\s?도)?(?:\s?(\d{1,2})\s?월)?(?:\s?(\d{1,2})\s?일)?"
    r"|(?<![\d-])((?:19|20)\d{2})(?![\d-])"
)
# What follows the date says the comparison; 'incl' marks a bound read either way
# ('2010년 이전': 2010 included by the dictionary, excluded by many speakers).
_HIRE_OPS_KO = (
    ("이전", "<=", True),
    ("이후", ">=", True),
    ("전에", "<", False),
    ("전 ", "<", False),
    ("전까지", "<", False),
    ("보다 먼저", "<", False),
    ("보다 전", "<", False),
    ("후에", ">", False),
    ("후 ", ">", False),
    ("보다 늦", ">", False),
    ("보다 나중", ">", False),
    ("부터", ">=", False),
    ("까지", "<=", False),
    ("에 입사", "=", False),
    ("입사", "=", False),
    ("에 들어", "=", False),
    ("도 입사", "=", False),
)
_HIRE_OPS_EN = (
    ("before", "<"),
    ("prior to", "<"),
    ("earlier than", "<"),
    ("after", ">"),
    ("later than", ">"),
    ("since", ">="),
    ("from", ">="),
    ("starting", ">="),
    ("until", "<="),
    ("through", "<="),
    ("by", "<="),
    ("in", "="),
    ("during", "="),
)
_LEFT_KO = re.compile(
    r"(\d{1,3})\s?일\s?(?:도\s?)?(이하|이상|미만|초과|보다 적|보다 많|넘|안 되|안되|밑|아래|까지)"
)
_USED_AFTER = re.compile(
    r"\d{1,3}\s?일\s?(?:도\s?)?(?:이하|이상|미만|초과|넘게|넘는|넘은)\s?(?:쓴|사용한|썼|사용)"
    r"|\b(?:used|taken|took)\s(?:at least|more than|over|at most|fewer than|less than)\s\d"
)
"""The days compared are days used ('10일 이상 쓴 사람'), not days left."""
_LEFT_EN = re.compile(
    r"(at most|no more than|fewer than|less than|under|below|at least|more than|over|above)"
    r"\s(\d{1,3})\s?days?|(\d{1,3})\s?days?\sor\s(less|fewer|more|under|over)"
)
_LEFT_OPS = {
    "이하": "<=",
    "까지": "<=",
    "이상": ">=",
    "미만": "<",
    "보다 적": "<",
    "안 되": "<",
    "안되": "<",
    "밑": "<",
    "아래": "<",
    "초과": ">",
    "보다 많": ">",
    "넘": ">",
    "at most": "<=",
    "no more than": "<=",
    "fewer than": "<",
    "less than": "<",
    "under": "<",
    "below": "<",
    "at least": ">=",
    "more than": ">",
    "over": ">",
    "above": ">",
    "less": "<=",
    "fewer": "<=",
    "more": ">=",
}
# Words of a rule or of other records: a roster is asked without any of them.
_NOT_ROSTER = (
    # what one must do or may do ('누구랑 협의해야 돼', 'who should approve'): a rule
    "해야",
    "하려면",
    "쓰려면",
    "받아야",
    "should",
    "must",
    "supposed to",
    "have to",
    "need to",
    "규정",
    "지침",
    "규칙",
    "정책",
    "한도",
    "상한",
    "출장",
    "숙박",
    "청구",
    "경비",
    "발주",
    # a purchase order by its short name ('우리 팀 PO 중에 반려된 거'), or a status of one
    " po ",
    " po중",
    " po들",
    " pos ",
    "반려",
    "rejected",
    "구매요청",
    "구매 요청",
    "결재",
    "주민",
    "급여",
    "연봉",
    "개정",
    "rule",
    "policy",
    "regulation",
    "guideline",
    "limit",
    " cap",
    "entitle",
    "allowance",
    "salary",
    "trip",
    "hotel",
    "lodging",
    "claim",
    "expense",
    "purchase order",
    "approv",
    "resident registration",
    "national id",
    "revision",
    # what a rule governs, asked of a team ('우리 팀 재택 승인은 누가 해?')
    "승인",
    "신청",
    "재택",
    "근무",
    "교육",
    "보고",
    "wfh",
    "work from home",
    "remote",
    "training",
    "can i ",
    "can we ",
    "allowed",
    "how often",
    "how long",
    # roles the employees view does not hold (팀장 is no 직급)
    "팀장",
    "본부장",
    "대표",
    "상사",
    "team lead",
    "boss",
    "supervisor",
)
_EXTREMES = (
    "제일",
    "가장",
    "최고참",
    "막내",
    "earliest",
    "latest",
    "most recent",
    "newest",
    "longest",
)


@dataclass(frozen=True, slots=True)
class HireBound:
    """A comparison of 입사일 with a date: ``op`` of '<', '<=', '>', '>=', '='."""

    op: str
    start: str
    """First day of the period named (ISO)."""
    end: str
    """Last day of the period named (ISO)."""
    either_way: bool = False
    """'2010년 이전': the period itself is included by the dictionary, not by every speaker."""


@dataclass(frozen=True, slots=True)
class Roster:
    """What a roster question asks: whom (filters) and what (fields)."""

    dept: str | None = None
    own_team: bool = False
    everyone: bool = False
    ranks: tuple[str, ...] = ()
    rank_said: str = ""
    """The title filter as asked ('과장 이상')."""
    hire: HireBound | None = None
    fields: tuple[str, ...] = ()
    people: bool = False
    """A person-list word ('명단', 'who', '사람') is in the question."""
    self_: bool = False
    leave: str | None = None
    left: tuple[str, int] | None = None
    """A days-left comparison ('10일 이하': ('<=', 10))."""
    left_of_used: bool = False
    """The comparison is of days used ('10일 이상 쓴 사람들 각자 몇 일 남았는지')."""
    by_hire: bool = False
    """Listed in order of hire ('입사일 순으로')."""
    per_dept: bool = False
    """Counted per department ('부서별로 몇 명')."""


def _rank_filter(question: str, lowered: str) -> tuple[tuple[str, ...], str]:
    above = _RANK_ABOVE_KO.search(question)
    if above:
        i = RANKS.index(above.group(1))
        op = above.group(2)
        if op in ("이상",):
            return RANKS[i:], above.group(0)
        if op in ("이하",):
            return RANKS[: i + 1], above.group(0)
        if op in ("초과", "보다 높", "보다 위"):
            return RANKS[i + 1 :], above.group(0)
        return RANKS[:i], above.group(0)
    found = [m.group(1) or m.group(2) for m in _RANK_KO.finditer(question)]
    if not found:
        english = _RANK_EN.search(lowered)
        if english is None:
            return (), ""
        rank = dict(RANKS_EN)[english.group(1)]
        later = _RANK_ABOVE_EN.search(lowered, english.end())
        said = english.group(0)
        if later and later.start() - english.end() < 12:
            i = RANKS.index(rank)
            higher = later.group(1) in ("or above", "and above", "or higher", "and up")
            return (RANKS[i:] if higher else RANKS[: i + 1]), f"{said} {later.group(1)}"
        return (rank,), said
    ranks = tuple(dict.fromkeys(found))
    return ranks, "·".join(ranks)


def _iso(year: int, month: int, day: int) -> str | None:
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        return None


def _hire_bound(question: str, lowered: str) -> HireBound | None:
    """'2010년 이전 입사자', 'joined after 2022', '2017년에 입사': the hire-date comparison."""
    if not any(w in lowered for w in _HIRE_WORDS):
        return None
    match = _HIRE_DATE.search(question)
    if match is None:
        return None
    g = match.groups()
    if g[0]:
        start = end = _iso(int(g[0]), int(g[1]), int(g[2]))
    else:
        year = int(g[3] or g[6])
        month = int(g[4]) if g[4] else None
        day = int(g[5]) if g[5] and month else None
        if month and day:
            start = end = _iso(year, month, day)
        elif month:
            start = _iso(year, month, 1)
            end = (
                _iso(year, month, calendar.monthrange(year, month)[1]) if 1 <= month <= 12 else None
            )
        else:
            start, end = _iso(year, 1, 1), _iso(year, 12, 31)
    if start is None or end is None:
        return None
    after = f"{question[match.end() : match.end() + 12]} ".lower()
    before = question[max(0, match.start() - 16) : match.start()].lower()
    for word, op, either in _HIRE_OPS_KO:
        if after.lstrip().startswith(word) or after.startswith(word):
            return HireBound(op, start, end, either and start != end)
    for word, op in _HIRE_OPS_EN:
        if re.search(rf"(?<![a-z]){word}\s(?:the\s)?(?:year\s)?$", before):
            return HireBound(op, start, end)
    if re.match(r"\s?or (?:earlier|before)", after):
        return HireBound("<=", start, end)
    if re.match(r"\s?or (?:later|after)", after):
        return HireBound(">=", start, end)
    return None


def _left_filter(question: str, lowered: str) -> tuple[str, int] | None:
    ko = _LEFT_KO.search(question)
    if ko:
        return _LEFT_OPS[ko.group(2)], int(ko.group(1))
    en = _LEFT_EN.search(lowered)
    if en is None:
        return None
    if en.group(1):
        return _LEFT_OPS[en.group(1)], int(en.group(2))
    return _LEFT_OPS[en.group(4)], int(en.group(3))


def roster_query(question: str) -> Roster:
    """Read a roster question: department, own team, title, hire date, fields, days left."""
    lowered = " " + re.sub(r"[?!.,]", " ", question.lower()) + " "
    # 'the HR system', 'HR DB': where records are kept, not the HR department.
    unsystem = _HR_SYSTEM.sub(" ", question)
    lowered_dept = _HR_SYSTEM.sub(" ", lowered)
    dept = next((code for word, code in _DEPARTMENT_WORDS if word in lowered_dept), None)
    if dept is None:
        code = _DEPT_CODE.search(unsystem)
        after = None if code else _DEPT_CODE_AFTER.search(unsystem)
        dept = (code.group(1) or code.group(2)).upper() if code else None
        dept = after.group(1) if after else dept
    scrubbed = lowered
    for word, _ in _DEPARTMENT_WORDS:
        scrubbed = scrubbed.replace(word, " ")
    # '전 사원', '모든 사원': everyone, not the title 사원.
    unranked = re.sub(r"(?:전|모든|전체)\s?사원", "전 직원", question)
    ranks, said = _rank_filter(unranked, lowered)
    if ranks and not any(r in question for r in RANKS):
        # An English title filters only when the question speaks of titles or of a
        # group ('managers on my team'), not 'who is my manager'.
        group = dept or any(w in lowered for w in _OWN_TEAM + _EVERYONE)
        plural = said.endswith("s") and " who " in lowered  # 'who are the managers'
        if not (group or plural or any(w in lowered for w in _RANK_CONTEXT_EN)):
            ranks, said = (), ""
    leave = next((kind for word, kind in LEAVE_TYPES.items() if word in lowered), None)
    words = re.findall(r"[가-힣a-z']+", lowered)
    return Roster(
        dept=dept,
        own_team=dept is None and any(w in lowered for w in _OWN_TEAM),
        everyone=any(w in lowered for w in _EVERYONE),
        ranks=ranks,
        rank_said=said,
        hire=None if leave else _hire_bound(question, lowered),
        fields=tuple(f for f, pattern in _ROSTER_FIELDS if pattern.search(scrubbed)),
        people=any(w in lowered for w in _PEOPLE_WORDS)
        or (any(w in lowered for w in _PEOPLE_WEAK) and any(w in lowered for w in _SHOW_WORDS)),
        self_=any(w in _SELF_WORDS for w in words),
        leave=leave,
        left=_left_filter(question, lowered) if leave else None,
        left_of_used=bool(leave and _USED_AFTER.search(question + " " + lowered)),
        by_hire=any(w in lowered for w in _BY_HIRE),
        per_dept=any(w in lowered for w in _PER_DEPARTMENT),
    )


_RULE_QUANTITY = re.compile(
    r"몇\s?(?:개월|달|시간|퍼센트|%)|며칠|\bhow many (?:months|hours|days)\b"
)


def asks_roster(question: str, ents: Entities) -> bool:
    """A list or filter of employees, or an employee's several fields, with no rule to state.

    '영업팀 직원 명단이랑 직급', 'Who on my team joined after 2022?', '대리 직급인 사람',
    'What title and department does the HR system have for me?', '우리 팀에서 육아휴직
    남은 거 10일 이하인 사람'. A single field of one person, contacts alone, the first or
    last hire, and leave used stay with the plans that answer them.
    """
    if ents.sql or ents.doc_nos or ents.title_words or ents.emp_nos:
        return False
    lowered = f" {question.lower()} "
    if _RULE_QUANTITY.search(lowered) and any(k in TOPIC_WORDS for k in ents.keywords):
        # '2021년에 입사한 사람들은 수습기간이 몇 개월이었어?': a rule's figure for them
        return False
    scrubbed = lowered
    for word, _ in _DEPARTMENT_WORDS:
        scrubbed = scrubbed.replace(word, " ")
    if any(w in scrubbed for w in _NOT_ROSTER):
        return False
    r = roster_query(question)
    group = bool(r.dept or r.own_team or r.everyone or r.per_dept)
    if r.leave:
        # Days left compared with a number, over a group: the ERP rows filtered.
        return (
            r.left is not None
            and (group or r.people)
            and any(w in lowered for w in CUES["remaining"])
        )
    if any(w in lowered for w in _EXTREMES) and "입사일" in r.fields:
        return False  # the first or last hire: person_field
    names = named_people(question)
    if names:
        return len(r.fields) >= 2  # several fields of a named person, all of them
    if not (group or r.ranks or r.hire):
        # The asker's own record: title, department or several fields (one hire date
        # or number alone: person_field).
        return r.self_ and (bool({"직급", "부서"} & set(r.fields)) or len(r.fields) >= 2)
    if not (r.people or r.fields or (r.ranks and group)):
        return False
    if (
        r.fields == ("연락처",)
        and not (r.ranks or r.hire)
        and any(w in lowered for w in TEAM_WORDS)
    ):
        return False  # the team's contacts: the contact plan
    return True
