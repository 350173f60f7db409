"""Who a question is about: the caller ('I/my') or people named in it.

The caller's identity comes from the system prompt's identity line (bound by the
login, never a tool argument). Names become employee numbers only through one
query over the HR employees view, so the platform's row filters decide whom the
caller can find: a person outside the caller's scope is simply not found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from embedded.model.compose import rows_of
from embedded.model.entities import strip_particle
from embedded.model.lexicon import ALIASES, CUES, EN_TO_KO, LEAVE_TYPES, STOPWORDS, TOPIC_WORDS

if TYPE_CHECKING:
    from embedded.model.compose import Ctx
    from embedded.model.conversation import ToolCall

_IDENTITY = re.compile(r"The person asking is ([^\n()]{1,80}?) \(username [^)\s]{1,64}\)\.")
_SAFE_NAME = re.compile(r"[가-힣A-Za-z][가-힣A-Za-z ]{0,63}")
_HANGUL_WORD = re.compile(r"[가-힣]+")
_LATIN_NAME = r"([A-Z][a-z]+(?:[ -][A-Z][a-z]+){0,2})"
_LATIN_PATTERNS = (
    re.compile(_LATIN_NAME + r"'s\b"),
    re.compile(
        r"\b(?:has|did|does|is)\s+" + _LATIN_NAME + r"\s+(?:used|use|taken|take|got|have|left)\b"
    ),
)
EMPLOYEES_VIEW = "semantic.hr.employees"
"""The view names are resolved against."""
# Words of HR questions that are not names (the planner's vocabulary adds the rest).
_NOT_NAMES = frozenset(
    {
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
_NOT_NAME_ENDINGS = ("에", "에서", "로", "으로")
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
        if word.endswith(_NOT_NAME_ENDINGS) and word != raw.rstrip("씨님"):
            continue
        if word not in found:
            found.append(word)
    return found


def _name_ending_in_a(word: str) -> bool:
    """'홍지아', '김서아': a family name and a given name ending in 아 is a name, not a verb."""
    return len(word) == 3 and word[0] in _SURNAMES and word.endswith("아")


_VERB_SYLLABLES = frozenset("됐했었았였겠겼셨습봤왔줬된눠뤄춰")


def named_people(question: str) -> list[str]:
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
    return [n for n in found if _SAFE_NAME.fullmatch(n)][:6]


def quote(name: str) -> str:
    """SQL string literal of a name; only names matching the safe-name pattern pass.

    Raises:
        ValueError: When the name has anything but letters and spaces.
    """
    if not _SAFE_NAME.fullmatch(name):
        raise ValueError(f"not a plain name: {name!r}")
    return "'" + name.replace("'", "''") + "'"


def lookup_sql(names: list[str]) -> str:
    """The employee lookup by name (only safe names are ever passed)."""
    safe = [n for n in names if _SAFE_NAME.fullmatch(n)]
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
    ("입사일", ("입사", "hire date", "hired", "joined", "start date")),
    ("직급", ("직급", "직위", "position", "rank", "title")),
    ("부서", ("어느 부서", "무슨 부서", "부서가 어디", "소속이", "which department", "which team")),
    ("사번", ("사번", "employee number", "employee no", "employee id")),
)


def asked_fields(question: str) -> list[str]:
    """Columns of the employees view a question asks for ('입사일 언제야' → 입사일)."""
    lowered = question.lower()
    return [col for col, words in _FIELD_WORDS if any(w in lowered for w in words)]
