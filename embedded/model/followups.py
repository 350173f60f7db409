"""A follow-up read as the question it continues ('그럼 부산은?' after a Seoul cap question).

The planner is stateless, but the request carries the conversation: the question
before this one and the answer it got (``Turn.earlier``). A follow-up is read as
a whole question before anything else looks at it, so every plan sees one:

- a pointer to the document just discussed ('그 규정', 'that rule') becomes that
  document's number, taken from the earlier answer ('그 규정 상위 문서는?' →
  'FIN-GDL-001 상위 문서는?');
- a short follow-up that names a thing of a kind the earlier question named too
  (a place, a department, a rank, a leave type, a person, a date, an amount, a
  version) is the earlier question with that thing swapped in ('그럼 부산은?' →
  '부산 출장 숙박비 한도가 얼마야?'); a thing the earlier question had no word of its
  kind for is put in front of it ('작년엔?' → '작년 …');
- a short follow-up that names nothing of its own ('언제부터야?', 'and the version
  before?') is asked of the document the earlier answer cited.

A question with a topic of its own is left as written, marker or not.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from embedded.model.compose import said_in
from embedded.model.entities import (
    HEARD,
    VAT_APART,
    amount_spans,
    correct_english,
    date_phrase,
    extract,
    read_phrases,
    strip_particle,
    verb_noun,
    without_dates,
)
from embedded.model.intents import ASKS_CONTACT, COMING_CHANGE, PARENT_CONFLICT, WHICH_IS_RIGHT
from embedded.model.lexicon import (
    CUES,
    DEPARTMENTS,
    EN_TO_KO,
    FOLLOW_UP_GENERIC,
    FOLLOW_UP_MARKERS,
    FOREIGN_PLACES,
    LEAVE_ASPECTS,
    LEAVE_TYPES,
    PLACES,
    POINTING_FILLERS,
    RANKS,
    SPLIT_PURCHASE_WORDS,
)
from embedded.model.people import asked_fields, named_people

if TYPE_CHECKING:
    from collections.abc import Callable

_DOC_WORDS_EN = re.compile(r"\b(?:the\s+)?(?:rule|regulation|guideline|policy)s?\b", re.I)
_MORE_OF_IT = re.compile(
    r"더\s?(?:쓸|사용할|쓰게|쓸\s?수)|\b(?:use|take|get) more\b|\bmore days\b", re.I
)
"""More of what was asked before ('더 쓸 수 있게 되는 거야?', 'will I get more days?')."""
_FIELD_TOO = re.compile(
    r"[가-힣]도\s*(?:같이|함께|좀)?\s*(?:보여|알려|줘|확인|찾아)|\balso\b", re.I
)
"""One more field asked of the same person ('주민번호도 같이 보여줘', 'also his phone')."""


def _asks_national_id(text: str) -> bool:
    """The national ID number is asked for ('주민번호도', 'resident registration number')."""
    lowered = text.lower()
    return any(w in lowered for w in CUES["national_id"])


DOC_NO = re.compile(r"(?<![A-Za-z0-9-])[A-Z]{2,4}-[A-Z]{3}-\d{3}(?!\d)")
_DOC_POINTER_KO = re.compile(
    r"(?<![가-힣])(?:그|이|해당|위|방금\s*(?:말한|말씀하신)?|아까\s*(?:말한|말씀하신)?)\s*"
    r"(규정|지침|기준|문서|규칙|사규|조항|개정안|규정집)(?=[은는이가을를의도에\s?.,]|$)"
)
_DOC_POINTER_EN = re.compile(
    r"\b(?:that|this|the same|the said)\s+(rule|regulation|guideline|policy|document|article"
    r"|standard|revision|one|version)\b",
    re.I,
)
_RANKED = re.compile(r"\b(?:fewest|most|least)\b|제일|가장|젤", re.I)
_BEFORE_THAT = re.compile(r"\bbefore that\b|그\s?전(?:엔|에는)|\bwhat was it before\b", re.I)
_NAMED_VERSION = re.compile(
    r"\bversion\s*\d{1,2}\b|\bv\d{1,2}\b|제\s*\d{1,2}\s*차|\d{1,2}\s*차\s*개정", re.I
)
_WHICH_DOCUMENT = re.compile(
    r"^(?:which|what)\s+(?:document|regulation|rule|guideline|policy)\s+(?:is|was)\s+"
    r"(?:that|it|this)(?:\s+(?:in|from))?\b"
    r"|^(?:그거|그건|그게|이거|이건)\s*(?:어느|무슨|어떤)\s*(?:문서|규정|지침)(?:에\s*있|이야|야|에\s*나와)",
    re.I,
)
_VERSION_POINTER = re.compile(
    r"(?:그|이|해당|그\s*때)\s*(?:판|버전|차수|개정판)(?=[은는이가을를의도에엔\s?.,]|$)"
    r"|\b(?:that|this|the same)\s+version\b",
    re.I,
)
_PERSON_POINTER = re.compile(
    r"(?:^|\s)(?:그\s*사람|그\s*분|그\s*직원|이\s*사람|그\s*친구|걔)(?=[은는이가을를의도\s?]|$)"
    r"|\b(?:that person|that employee|that guy|him|her|his|their|he|she)\b",
    re.I,
)
_RECORD_POINTER = re.compile(
    r"^(?:그거|그건|그게|그걸|이거|이건|그\s*건|그\s*발주|그\s*청구|해당\s*건)(?=[은는이가을를의도\s?]|$)"
    r"|\b(?:that one|that order|that claim|it)\b(?=\s*\?|$)"
    r"|\b(?:each of them|all of them|each of those|those orders|those claims|them)\b",
    re.I,
)
_AMONG = re.compile(
    r"^(?:그\s*중(?:에서?|에)?|그중(?:에서?|에)?|among (?:them|those)|of (?:them|those))\s*", re.I
)
_AMONG_EN = re.compile(r"\b(?:which|who|how many|any|none|all)\s+of\s+(?:them|those|these)\b", re.I)
RECORD_ID = re.compile(r"\b(?:PO-\d{4}-\d{3}|EXP-\d{4}-\d{4})\b")
_DOC_VERSION = re.compile(
    r"(?<![A-Za-z0-9-])([A-Z]{2,4}-[A-Z]{3}-\d{3})\s*(?:의\s*)?(제\s*\d{1,2}\s*차|version \d{1,2})"
)
_COMPARED = re.compile(
    r"와 ([A-Z]{2,4}-[A-Z]{3}-\d{3}) 제(\d{1,2})차 \(시행 [\d-]+\)를 비교합니다"
    r"|compared with ([A-Z]{2,4}-[A-Z]{3}-\d{3}) version (\d{1,2})\b"
)
"""An answer that set a version beside an older one (plans_rules.compared): the older."""
_OLDER_POINTER = re.compile(
    r"\bthat one\b|(?:^|\s)(?:그건|그거|그게|그때|그\s*때)(?=[은는이가을를의도에엔\s?]|$)", re.I
)
_THERE = re.compile(r"\bthere\b|(?:^|\s)(?:거기|그곳|그\s*지역)(?=[은는에서도\s?]|$)", re.I)
"""A pointer at the place the earlier question named ('a 3-night stay there', '거기는')."""
_THEN_DATE = re.compile(
    r"\b(?:on|from|after)\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b"
    r"|\d{1,2}\s*월\s*\d{1,2}\s*일\s*(?:이후|부터|뒤|후)?(?:엔|에는|에)?"
    r"|\b(?:new|coming)\s+(?:rule|version)\b|\bkicks?\s+in\b|새\s*(?:규정|기준)",
    re.I,
)
"""When the days left are asked for ('once the new rule kicks in on Dec 23'): no topic."""
_ASKS_DAYS = re.compile(
    r"남았|남은|잔여|며칠|몇\s*일|몇일|썼|사용|\bdays?\b|\bleft\b|\bused\b", re.I
)
_ASKS_CAP = re.compile(r"한도|상한|\bcap\b|\blimit\b", re.I)
_KEEP_AFTER_DOC = {"조항": "조항", "개정안": "개정안", "article": "article", "revision": "revision"}
_VERSION = re.compile(
    r"(?:제\s*)?\d{1,2}\s*차(?!\s*[가-힣]{2})|\bv\d{1,2}\b|\bversion\s+\d{1,2}\b", re.I
)
_ASKS_LIMIT = re.compile(
    r"한도|최대|며칠|몇\s*일|일수|바뀌|달라|\d{1,3}\s*일(?:로|이|까지|짜리)"
    r"|\blimit\b|\bmaximum\b|\b\d+\s*days?\b|\bgoing up\b",
    re.I,
)
_THEN_WORDS = re.compile(r"예전엔|예전에는|예전|이전엔|이전에는|전엔|before|previously", re.I)
_POINTER_WORDS = re.compile(r"그거|그건|그게|그걸|이거|that|it", re.I)
_ASKS_LEFT = re.compile(r"남은|남았|남아|남나|남을|남는|남게|잔여|\bleft\b|remaining", re.I)
_USAGE_WORDS = re.compile(
    r"사용\s*현황|사용일수|얼마나\s*썼어?|보여\s*줘|알려\s*줘|\busage\b|\bshow\b"
    r"|(?:쓰는|쓴)\s*사람\s*(?:누구누구야|누구야|누구)?",
    re.I,
)
_ALSO_THAT = re.compile(r"(?:거|것|건)도(?:\s|$|[?？])|\b(?:too|as well)\b", re.I)
_OWN_WORDS = re.compile(r"(?:^|(?<=\s))(?:내|나의|제)(?=\s)|\bmy\b", re.I)
_TOKEN = re.compile(r"[\w가-힣-]+")
_SELF = re.compile(r"^나\b|\b나는?\s|제가|내가|\b(?:I|me|my)\b")


def resolve_followup(question: str, earlier: tuple[tuple[str, str], ...]) -> str:
    """Return ``question`` read as a whole question, given the conversation before it.

    An earlier question that was itself a follow-up is read whole first ('서울 …?',
    '그럼 부산은?', '제주는?': the last is the Seoul question for Jeju).

    Args:
        question: The question as asked (phrases already read).
        earlier: The earlier (question, answer) pairs, oldest first.

    Returns:
        The question to plan (``question`` itself when it is no follow-up).
    """
    whole: tuple[str, str] | None = None
    for asked, said in earlier[-4:]:
        text = read_phrases(correct_english(asked))
        whole = (_continue(text, whole), said)
    return _continue(question, whole)


CONFLICT_NOTED = (
    "다르게 정한",
    "서로 다르게 정하고",
    "states this differently",
    "state this point differently",
)
"""Words of an answer that set two documents' texts side by side (conflicts.py)."""


_REMARK_TAIL = re.compile(
    r"(?:던데|는데|라던데|다던데|있던데|같은데|인데)(?:요)?\s*+[.!~]*+\s*+$|\b(?:said|says|wrote|told)\b"
)
_BACK_IN = re.compile(r"\b(?:back )?(?:in|on|as of)\s*(?=[?？.]|$)", re.I)
_NOW_LEAD = re.compile(r"^\s*(?:and|so|ok|okay)?\s*(?:now|지금은|현재는)\s*[?？.!]*\s*", re.I)
_FIGURE = re.compile(r"(?<![\d,])\d[\d,]*+\s*+(?:일|원|만원|만|%|퍼센트|개월|시간|회|days?|won)")
"""A figure a question states ('30일로', '15만원')."""
_CHANGE_WORD = re.compile(
    r"(?:늘|올리|올린|올랐|올려|바뀌|바뀐|바꾼|바꿨|확정|줄|인상|변경|승인|결정|정해|정한|시행|반영"
    r"|던거|아냐|아니야|아닌가|맞아|맞지|맞나)"
    r"|(?:rais|increas|chang|confirm|approv|final)",
    re.I,
)
"""A word that says a figure changes or is settled ('늘린단', '확정된거임', 'raised')."""


_BARE_EXTREME = re.compile(
    r"^\s*(?:and|what about|how about|그럼|그리고|반대로)?\s*(?:the\s+)?"
    r"(least|fewest|lowest|most|highest|제일\s?적게|가장\s?적게|제일\s?많이|가장\s?많이)"
    r"(?:\s*(?:은|는|남은\s?사람은?|사람은?|one))?\s*[?？.]*\s*$",
    re.I,
)
_EXTREME_SWAPS = (
    (re.compile(r"\bmost\b", re.I), "least"),
    (re.compile(r"\b(?:least|fewest)\b", re.I), "most"),
    (re.compile(r"(제일|가장)\s?많이"), r"\1 적게"),
    (re.compile(r"(제일|가장)\s?적게"), r"\1 많이"),
)


def _flipped_extreme(question: str, before: str) -> str | None:
    """'and the least?' after 'who has the most annual leave left?': the question before,
    its superlative turned round (None when the follow-up is no bare superlative)."""
    if _BARE_EXTREME.match(question) is None:
        return None
    for pattern, other in _EXTREME_SWAPS:
        if pattern.search(before):
            return pattern.sub(other, before, count=1)
    return None


def _continue(question: str, earlier: tuple[str, str] | None) -> str:
    if not earlier or not earlier[0].strip() or DOC_NO.search(question):
        return question
    head, mark, tail = question.partition("?")
    if mark and tail.strip() and _REMARK_TAIL.search(tail):
        # '2025년 2월에는? 개정판 부칙엔 1월 1일 시행이라고 돼있던데': the follow-up read
        # whole, the remark after it kept (it may name a printed date to explain)
        whole = _continue(head + mark, earlier)
        if whole != head + mark:
            return f"{whole} {tail.strip()}"
    if COMING_CHANGE.search(question) and not (
        extract(question).title_words or _leave_type(question)
    ):
        # '이번달 24일부터 바뀐다는게 정확히 뭐가 바뀌는거예요?' after one's childcare days:
        # what the coming revision of that rule changes (not the days again, as of then)
        before, said = earlier
        topic = _leave_type(before) or extract(before).title or _cited_document(said) or ""
        if topic:
            return f"{_korean(topic) if extract(question).lang == 'ko' else topic} {question}"
    if HEARD.search(question) and extract(question).amount is not None and _place(question):
        # "and now? didn't management agree to raise Seoul to 150k?" after a cap in 2023:
        # the question before as of today, and the figure heard for the place named
        # checked in its words (the cap now, the revisions, the minutes)
        before = earlier[0]
        if _NOW_WORDS.search(question) and date_phrase(before):
            now = " ".join(_BACK_IN.sub(" ", without_dates(before)).split()).rstrip("?？. ")
            rest = _NOW_LEAD.sub("", question).strip()
            topic = " ".join(w for w in extract(now).keywords if w not in PLACES)
            return f"{now}? {topic} {rest}" if topic else f"{now}? {rest}"
        if not _NOW_WORDS.search(question):
            # 'Someone told me the meeting raised Seoul to 150k. Is that in effect?' after
            # the lodging caps: the figure heard, of the subject asked before
            subject = [w for w in extract(without_dates(before)).keywords[:3] if w not in PLACES]
            words = extract(question).keywords
            if subject and not any(w in words for w in subject):
                return f"{' '.join(subject)} {question}"
            return question
    before, said = earlier
    flipped = _flipped_extreme(question, before)
    if flipped:
        return flipped
    amount = extract(before).amount
    if (
        amount is not None
        and extract(question).amount is None
        and any(w in question.lower() for w in SPLIT_PURCHASE_WORDS)
    ):
        # '그럼 두 건으로 split해서 올리면 팀장 결재로 되는거죠?' after who approves a
        # 4.8M purchase: that purchase split (its VAT said apart, as before)
        vat = " + VAT" if VAT_APART.search(before) else ""
        return (
            f"{amount:,}원{vat} 구매를 {question}"
            if extract(question).lang == "ko"
            else (f"A {amount:,} won{vat} purchase: {question}")
        )
    if _MORE_OF_IT.search(question) and _ASKS_LEFT.search(before) and not _person(question):
        # '24일부터 바뀐다던데 그럼 나 더 쓸 수 있게 되는 거야?' after one's days left: the
        # days left again (that answer gives them under the coming rule too)
        return before
    if (
        HEARD.search(question)
        and _FIGURE.search(question)
        and not (extract(question).title_words or _leave_type(question) or _place(question))
        and all(
            _CHANGE_WORD.match(w)
            or w in FOLLOW_UP_GENERIC
            or w in POINTING_FILLERS
            or w.endswith(("회의", "회의록", "협의회", "meeting", "minutes"))  # where it was heard
            for w in extract(HEARD.sub(" ", question)).keywords
        )
    ):
        # '30일로 늘린단 얘기도 있던데 그건 확정된거임?' after one's childcare days: the
        # figure heard of that leave (or of the document the answer cited)
        leave = _leave_type(before)
        topic = (
            (_korean(leave) if extract(question).lang == "ko" else leave)
            if leave
            else extract(before).title
            or " ".join(extract(without_dates(before)).keywords[:4])
            or _cited_document(said)
            or ""
        )
        if topic:
            return f"{topic} {question}"
    lowered = question.lower()
    if any(w in said for w in CONFLICT_NOTED) and any(w in lowered for w in WHICH_IS_RIGHT):
        # '근데 경조금 지급지침엔 100만이라던데 which one applies?': the answer before set
        # the two texts side by side and said which governs; that question again
        return before
    cited = _cited_document(said) or _cited_document(before)
    if cited and PARENT_CONFLICT.search(question) and not extract(question).title_words:
        # '그중에 상위 규정이랑 내용이 안 맞는 게 있나요?' after a regulation's children:
        # those of the document the answer named
        rest = _AMONG.sub("", _without_marker(question), count=1)
        return f"{cited} {rest.strip()}"
    if cited and _NAMED_VERSION.search(question) and not extract(question).title_words:
        # 'And when does the version 5 draft take effect?': a version of the document cited
        return f"{cited} {_without_marker(question)}"
    where = _WHICH_DOCUMENT.search(unmarked := _without_marker(question)) if cited else None
    if where and cited:
        # 'which document is that in, and what is it based on?': the document cited before
        rest = unmarked[where.end() :]
        rest = re.sub(r"\b(?:it|that|this)\b", cited, rest, flags=re.I)
        rest = re.sub(r"(?:그거|그건|그게|그 문서|그 규정)", cited, rest)
        return " ".join(
            f"{cited} {'문서 설명' if extract(question).lang == 'ko' else 'overview'}{rest}".split()
        )
    title = extract(before).title
    unmarked = _without_marker(question)
    older = _COMPARED.search(said)
    pointer = _VERSION_POINTER.search(unmarked) or _OLDER_POINTER.search(unmarked)
    if older and pointer and not _NAMED_VERSION.search(unmarked):
        # 'when did that one take effect?' after v3 was set beside v2: the older one,
        # which the comparison brought up
        doc_no, number = older.group(1) or older.group(3), older.group(2) or older.group(4)
        ko = extract(unmarked).lang == "ko"
        label = f"{doc_no} 제{number}차" if ko else f"{doc_no} version {number}"
        asked = f"{unmarked[: pointer.start()]} {label} {unmarked[pointer.end() :]}"
        return " ".join(asked.split())
    version = _DOC_VERSION.search(said)
    if version and _VERSION_POINTER.search(question):
        # '그 판 부칙엔 …': the version the answer named (by the title asked, if one was)
        label = title or f"{version.group(1)} {version.group(2)}"
        return " ".join(_VERSION_POINTER.sub(f" {label} ", unmarked, count=1).split())
    if (
        any(c in unmarked.lower() for c in CUES["version_compare"])
        # ('and what was the limit before that?': after a rule, the version before)
        or _BEFORE_THAT.search(unmarked) is not None
    ) and _names_nothing(_THEN_WORDS.sub(" ", _POINTER_WORDS.sub(" ", unmarked)), of=before):
        if not title:
            # '그거 예전엔 몇일이었는데?' after '연차 이월 몇일까지 가능?': that question, then
            return f"{before.rstrip('?？!. ')} {unmarked}"
        if not _DOC_POINTER_KO.search(unmarked) and not _DOC_POINTER_EN.search(unmarked):
            # '그 전 버전은 며칠이었는데?' after '육아지원규정 지금 몇 판이 시행 중이야?': the
            # document's version before (a pointer at it is put in its place below)
            return f"{title} {unmarked}"
    referent = title or cited
    asked = unmarked.split("?")[0]  # ('… i remember it being once a week': why one asks)
    english = extract(asked).lang == "en"  # (a Korean date is swapped in below)
    if english and referent and extract(asked).as_of and not extract(before).as_of:
        # 'and what was the rule back in mid-2022?' after how many WFH days: the question
        # before, as of then (not the document's history)
        rest = _POINTER_WORDS.sub(" ", _DOC_WORDS_EN.sub(" ", asked))
        if _names_nothing(rest, of=before):
            return " ".join(f"{before.rstrip('?？!. ')} {rest}?".split())
    pointed = _point_at(unmarked, referent) if referent else None
    if pointed:
        return pointed
    person = _person(before) or _one_person_answered(said) or _extreme_answered(before, said)
    if person and not _person(unmarked) and _PERSON_POINTER.search(unmarked):
        # '그 사람 연락처도' after '남은서 대리 어느부서야?': 남은서's
        return " ".join(_PERSON_POINTER.sub(f" {person} ", unmarked, count=1).split())
    if (
        person
        and not _person(unmarked)
        and (_asks_national_id(unmarked) or asked_fields(unmarked))
        and (
            _ALSO_THAT.search(unmarked)
            or _FIELD_TOO.search(unmarked)
            or _short_follow_up(question, unmarked)
        )
    ):
        # '주민번호도 같이 보여줘' after 차주희's contact: 차주희's (the pronoun left out)
        return f"{person} {unmarked}"

    records = list(dict.fromkeys(RECORD_ID.findall(said)))
    pointer = _RECORD_POINTER.search(unmarked)
    if (
        0 < len(records) <= 3
        and not pointer
        and not RECORD_ID.search(unmarked)
        and _WHO_SIGNS.search(unmarked)
        and not extract(unmarked).title_words
        and not _person(unmarked)  # ('what about 곽호은's stay? the approved one': hers)
        # ('그 중 제일 큰 건은 …', 'which of those …': narrowed below, among the records)
        and not (_AMONG.match(unmarked) or _AMONG_EN.search(unmarked))
    ):
        # '2024년 초에 올렸으면 결재라인 달랐어요?' after one order listed: that order,
        # the pronoun left out as Korean leaves it
        return f"{' '.join(records)} {unmarked}"
    if 0 < len(records) <= 3 and pointer:
        # '그거 누가 결재해야 돼?' after one order listed: that order
        ids = " ".join(records)
        return " ".join(_RECORD_POINTER.sub(f" {ids} ", unmarked, count=1).split())
    if pointer and (records or _counted(said)):
        # '그거 금액 합치면 얼마야?' after the pending claims were counted: those claims
        rest = " ".join(_RECORD_POINTER.sub(" ", unmarked, count=1).split())
        return f"{before.rstrip('?？!. ')} {rest}"  # one question, not two parts
    if pointer and cited and not records and _RECORD_POINTER.match(unmarked):
        # '그거 누가 결재해?' after the childcare application rule: of that rule;
        # '그거 곧 늘어난다던데 …' after one's childcare days: of that leave
        leave = _leave_type(before) if _ASKS_DAYS.search(unmarked) else ""
        named = (_korean(leave) if extract(unmarked).lang == "ko" else leave) if leave else cited
        return " ".join(_RECORD_POINTER.sub(f" {named} ", unmarked, count=1).split())
    words = extract(unmarked).keywords
    if words and all(ASKS_CONTACT.search(w) for w in words) and not _person(unmarked):
        # '문의 전화번호는?' after a question on 연말정산: whom to call about it
        topic = next((k for k in extract(before).keywords if not ASKS_CONTACT.search(k)), "")
        if topic:
            return f"{topic} {unmarked}"
    described = _record_described(unmarked, said)
    if described:
        # 'the transport one - approved yet?': the one listed record the words describe
        return f"{described} {unmarked}"
    among = _AMONG.match(unmarked) or _AMONG_EN.search(unmarked)
    if among:
        rest = (
            unmarked[among.end() :]
            if among.re is _AMONG
            else f"{unmarked[: among.start()]} which {unmarked[among.end() :]}"
        )
        if _ASKS_LEFT.search(rest):
            # '그 중에 제일 많이 남은 사람' after the team's usage: days left, not days used
            before = " ".join(_USAGE_WORDS.sub(" ", before).split())
        # '그 중 제일 큰 건은 …': the earlier question narrowed (one question, not two;
        # '… 몇건이야? 목록도' keeps no question mark of its own to split at)
        return " ".join(f"{re.sub(r'[?？]', ' ', before).rstrip('!. ')} {rest}".split())
    if (
        _ASKS_LEFT.search(unmarked)
        and _RANKED.search(unmarked)
        and _ASKS_DAYS.search(before)
        and _names_nothing(_RANKED.sub(" ", unmarked), of=before)
    ):
        # 'Who has the fewest days left?' after the team's childcare leave used: days left
        # of the same records, ranked
        before = " ".join(_USAGE_WORDS.sub(" ", before).split())
        return f"{before.rstrip('?？!. ')} {unmarked}"
    body = unmarked
    place = _place(before)
    there = _THERE.search(body) if place and not _place(body) else None
    if there:
        # 'And for a 3-night stay there, what's the max?' after Busan's cap: in Busan
        return " ".join(f"{body[: there.start()]} {place} {body[there.end() :]}".split())
    leave = _leave_type(before)
    if leave and _ASKS_LEFT.search(body) and not _ASKS_LEFT.search(before):
        if (
            not _leave_type(body)
            and not _person(body)
            and _names_nothing(_THEN_DATE.sub(" ", body), of=before)
        ):
            # 'once the new rule kicks in on Dec 23, how many will I have left?' after the
            # childcare days used: the days left of that leave (on that date), not the
            # days used on it
            return _of_earlier(body, before, None)
    swapped = _swap_into(before, body) if _short_follow_up(question, body) else None
    if swapped:
        return swapped
    if _FAMILY_EVENT.search(before) and not _FAMILY_EVENT.search(body) and _ASKS_LEAVE.search(body):
        if not _leave_type(body):
            # '휴가는 며칠이고?' after '팀원이 부친상인데 경조금 얼마 나가요?': leave for that
            # event (특별휴가), not annual leave
            event = _FAMILY_EVENT.search(before)
            return f"{event.group(0) if event else ''} 경조사 {body}"
    leave = _leave_type(before)
    aspects = extract(body).keywords
    if (
        leave
        and not _leave_type(body)
        # ('이번달에 바뀐다던데 그럼 얼마나 늘어?': its change, asked with verbs alone)
        and (_ASKS_LIMIT.search(body) or aspects or _CHANGE_WORD.search(body))
        # ('이번달에 늘어난다던데 몇일로 바뀌는거?': a change of it, said with a verb)
        and all(
            w in LEAVE_ASPECTS or w in FOLLOW_UP_GENERIC or _CHANGE_WORD.match(w) for w in aspects
        )
        and not _ABOVE.search(body)  # '그 위에는?': up the chain, not of the leave
        # '그럼 남은건?': whose days left, below ('남은거 이월은 되나?' asks the carry-over)
        and (not _ASKS_LEFT.search(body) or _CARRIED.search(body) is not None)
    ):
        # ('부서장이 거절할수도 있어?' after how childcare leave is applied for: of it)
        # '12월 23일 이후에는 한도가 어떻게 바뀌어요?' after one's childcare days: its limit
        return f"{_korean(leave) if extract(body).lang == 'ko' else leave} {body}"
    if _names_nothing(body) and extract(body).keywords:
        # '그 뒤에 올라와 있는 초안도 있으면 알려줘': nothing named but what was asked about
        return _of_earlier(body, before, cited)
    if leave and not _leave_type(body) and _ASKS_DAYS.search(body) and _asks_of_someone(body):
        # 'How many days does 윤도주 have left?' after a childcare question: childcare days
        return f"{_korean(leave) if extract(body).lang == 'ko' else leave} {body}"
    place = _place(before)
    if (
        place
        and not _place(body)
        and _ASKS_CAP.search(body)
        and _names_nothing(_ASKS_CAP.sub(" ", body), of=before)
    ):
        # '… 서울 숙박비 15만원으로 올린다던데 확정된 거야? 지금 한도 얼마임': Seoul's cap
        return f"{place} {body}"
    if not _short_follow_up(question, body):
        return question
    if _names_nothing(body):
        return _of_earlier(body, before, cited)
    ents = extract(body)
    if (
        body != question.strip()
        and not (ents.title_words or ents.doc_nos or _person(body) or _place(body))
        and not _leave_type(body)
        and ents.keywords
        and all(w in FOLLOW_UP_GENERIC or (verb_noun(w) or "\0") in said for w in ents.keywords)
    ):
        # '그럼 초과된 2만원은 어떻게 되는 거야?' after one's lodging claim checked ('20,000원
        # 초과'): a verb of what the answer said, so of the same subject (its words first);
        # a noun of its own ('그리고 급여일도', '그럼 경조금은') is a question of its own
        subject = [w for w in extract(without_dates(before)).keywords[:4] if w not in body]
        if subject:
            return f"{' '.join(subject)} {body}"
    return question


_FAMILY_EVENT = re.compile(
    r"부친상|모친상|빙부상|빙모상|시부상|시모상|조부상|조모상|상을\s?당|장례|결혼식?|경조사|돌아가"
    r"|\b(?:funeral|bereavement|wedding|passed away)\b",
    re.I,
)
_ASKS_LEAVE = re.compile(r"휴가|\bleave\b|\bdays? off\b", re.I)
_CARRIED = re.compile(
    r"이월|넘어가|넘길|\bcarry|\broll (?:it |them |the \w+ )?(?:over|into)\b", re.I
)


def _of_earlier(body: str, before: str, cited: str | None) -> str:
    leave = _leave_type(before)
    if _ASKS_LEFT.search(body) and leave and _WHO.search(body):
        # "who's got the most days left?" after a team's usage: the same people's days
        # left, ranked (not the asker's own)
        group = " ".join(_USAGE_WORDS.sub(" ", before).split())
        return f"{group.rstrip('?？!. ')} {body}"
    if _ASKS_LEFT.search(body) and leave:
        # '그럼 남은건?' after '내 연차 몇개 썼어?': the days left of the same leave
        if _leave_type(body):
            return body
        own = _SELF.search(before) or re.search(r"(?:^|\s)내\s", before)
        mine = "내 " if own and not _SELF.search(body) else ""
        return f"{mine}{leave} {body}"
    if _ABOVE.search(body):
        # '그 위는?' after an authority question: the chain, which goes up to the top
        return before
    if _CONDITION.search(body):
        # '그날이 공휴일이면요?' after the payday: the same question, on that condition
        return " ".join(f"{before.rstrip('?？!. ')} {body}".split())
    return _of_earlier_asked(body, before, cited)


_WHO_SIGNS = re.compile(r"결재|승인권자|결재권자|\bapprov|\bsigns? off\b|\bsign-off\b", re.I)
_WHO = re.compile(r"\bwho(?:'s| is| has)?\b|누가|누구", re.I)
_CONDITION = re.compile(r"(?:이면|으면|라면|다면)(?:요)?\s*[?？]?\s*$|^(?:what )?if\b", re.I)
_ABOVE = re.compile(r"(?:^|\s)(?:그\s*)?위(?:는|에는|에)?\s*[?？]?$|\babove (?:that|it)\b", re.I)


def _of_earlier_asked(body: str, before: str, cited: str | None) -> str:
    if cited and not any(c in body.lower() for c in CUES["version_compare"]):
        return f"{cited} {body}"  # '상위 문서는?': of the document just cited
    # 'and the version before?': the same question, then (one question, not two parts)
    return f"{before.rstrip('?？!. ')} {body}"


_ONE_OF = re.compile(
    r"\b(?:the|that)\s+[\w-]+(?:\s+[\w-]+)?\s+one\b|[가-힣]+\s*(?:건|거)(?:은|는|요)?\b", re.I
)


def _record_described(body: str, said: str) -> str | None:
    """The one record of the earlier answer's list that the follow-up describes, or None.

    '… EXP-2025-0001 … 출장숙박 …' and '… EXP-2025-0002 … 교통비 …' listed, then 'the
    transport one': a word of the follow-up on exactly one listed line names its record.
    """
    lines = [line for line in said.splitlines() if RECORD_ID.search(line)]
    if len(lines) < 2 or not _ONE_OF.search(body):
        return None
    names = named_people(body)
    if names:
        # '곽호은 부장 서울 출장 건은 …': a person named is whose record is asked; only the
        # lines of that person describe it (another's Seoul stay is no answer)
        lines = [line for line in lines if any(n in line for n in names)]
        if not lines:
            return None
    # The words as written first ('노트북 건은?': the line that says 노트북, though the
    # lexicon reads 노트북 as 단말기), then as the lexicon reads them; ('결재대기인 건':
    # the one that is 결재대기)
    written = [strip_particle(w) for w in re.findall(r"[가-힣]{2,}", body)]
    for said_words in (written, extract(body).keywords):
        said_words = [w[:-1] if w.endswith("인") and len(w) >= 4 else w for w in said_words]
        words = [
            w
            for w in said_words
            if w not in FOLLOW_UP_GENERIC and len(w) > 1 and not all(w in line for line in lines)
        ]  # a word on every line ('승인대기') tells none apart
        chosen = {
            match.group(0)
            for line in lines
            if any(w in line for w in words) and (match := RECORD_ID.search(line))
        }
        if len(chosen) == 1:
            return chosen.pop()
    return None


def _counted(said: str) -> bool:
    """The answer counted records ('4건입니다', '3 claims')."""
    return re.search(r"\d+\s*건|\d+\s+(?:claims?|orders?|records?)\b", said) is not None


def _asks_of_someone(body: str) -> bool:
    return (
        bool(named_people(body))
        or re.search(r"^나\b|\b나는?\s|제가|내가|\b(?:I|me|my)\b", body) is not None
    )


def _cited_document(text: str) -> str | None:
    match = DOC_NO.search(text)
    return match.group(0) if match else None


def _point_at(question: str, doc_no: str) -> str | None:
    """'그 규정 상위 문서는?' → 'HR-REG-003 상위 문서는?' (None when nothing points)."""
    for pattern in (_DOC_POINTER_KO, _DOC_POINTER_EN):
        match = pattern.search(question)
        if match:
            kept = _KEEP_AFTER_DOC.get(match.group(1).lower(), "")
            named = f"{doc_no} {kept}".strip()
            return " ".join(
                f"{question[: match.start()]} {named} {question[match.end() :]}".split()
            )
    return None


def _without_marker(question: str) -> str:
    text = question.strip()
    lowered = text.lower()
    for marker in sorted(FOLLOW_UP_MARKERS, key=len, reverse=True):
        if lowered.startswith(marker):
            return text[len(marker) :].strip(" ,")
    return text


def _short_follow_up(question: str, body: str) -> bool:
    """Opens with a follow-up marker, is three words or fewer, or names only a swap.

    ('2024년 초에 올렸으면 달랐어?': a date and no topic word of its own.)
    """
    marked = body != question.strip()
    if marked or len(_TOKEN.findall(body)) <= 3 or _ALSO_THAT.search(body):
        return True
    # (not a person: 'How many days does 윤도주 have left?' asks of them, not the same again)
    return not extract(body).keywords and any(find(body) for find in (_date, _place, _amount))


def _names_nothing(body: str, of: str = "") -> bool:
    """No topic word of its own: every keyword is a filler, a generic noun or in ``of``.

    ``of`` is the question before: a word it named ('숙박비 … 지금 한도 얼마임', the
    topic the part borrowed) is no new topic.
    """
    named = set(extract(of).keywords) if of else set()
    words = [w for w in extract(body).keywords if w not in POINTING_FILLERS]
    return all(w in FOLLOW_UP_GENERIC or w in named for w in words)


def _swap_into(before: str, body: str) -> str | None:
    """The earlier question with each kind of thing ``body`` names put in (None if none).

    ``body`` must name nothing else: '부산은?' is the Seoul question for Busan, but
    '부산 지사 복지 포인트는?' is a question of its own.
    """
    english = extract(before).lang == "en"
    changed = before
    found = False
    rest = body
    taken: list[str] = []
    person = _person(body)
    for finder in _FINDERS:
        if finder is _rank and person and re.search(rf"{re.escape(person)}\s*{_rank(body)}", body):
            continue  # '곽호은 부장님': a title of the person, not a rank asked about
        # what one finder took is no one else's ('2021년 여름엔' holds no name '여름엔')
        left = body
        for t in taken:
            left = left.replace(t, " ", 1)
        new = finder(left)
        if not new:
            continue
        found = True
        taken.append(new)
        rest = " ".join(w for w in rest.split() if new not in w)  # '제주도는?' holds '제주'
        rest = " ".join(  # '내년 1월부터는?': a date of two words, and its particle
            w for w in rest.replace(new, " ", 1).split() if w.strip("?？!. ") not in _LONE_PARTICLES
        )
        old = finder(changed)
        put = new if english else _korean(new)
        if finder is _date and not old:
            changed = _NOW_WORDS.sub(" ", changed)  # '내년 1월' beside '지금': then, not now
        changed = changed.replace(old, put, 1) if old else f"{put} {changed}"
        changed = " ".join(changed.split())
    if not found or not _names_nothing(rest, of=before) or changed == before:
        return None  # (nothing swapped: '연차 남은건?' after a 연차 question asks anew)
    if person and person in changed and person not in before:
        # '곽호은 부장님 거도' after '내 출장비 청구 건': theirs, not the asker's
        changed = " ".join(_OWN_WORDS.sub(" ", changed).split())
    if _SUPPOSING.search(body):
        # '그럼 부산이었으면?' after a check of one's claims: supposed, not asked afresh
        return f"{changed.rstrip('?？!. ')} {body}"
    return changed


_LONE_PARTICLES = frozenset("부터는 부터 에는 엔 은 는 에 까지 까지는 도 이면 면".split())
_NOW_WORDS = re.compile(r"(?:^|(?<=\s))(?:지금|현재|요즘)(?=\s)|\b(?:now|currently|today)\b", re.I)
_SUPPOSING = re.compile(r"였으면|이었으면|였다면|이었다면|\bif it (?:had been|were|was)\b", re.I)


def _korean(word: str) -> str:
    return EN_TO_KO.get(word.lower(), word)


def _first_of(words: tuple[str, ...] | list[str], text: str) -> str:
    lowered = text.lower()
    hits = [(lowered.find(w.lower()), w) for w in words if w.lower() in lowered]
    if not hits:
        return ""
    at, word = min(hits, key=lambda h: (h[0], -len(h[1])))
    return text[at : at + len(word)]


def _place(text: str) -> str:
    english = [en for en, ko in EN_TO_KO.items() if ko in PLACES]
    # ('And Tokyo?' after a city's cap: a place abroad swaps in too, and is out of scope)
    abroad = [p for p in FOREIGN_PLACES if said_in(p, text.lower())]
    return _first_of(list(PLACES) + english + abroad, text)


def _department(text: str) -> str:
    return _first_of(list(DEPARTMENTS), text)


def _rank(text: str) -> str:
    return _first_of(RANKS, text)


def _leave_type(text: str) -> str:
    return _first_of(list(LEAVE_TYPES), text)


_ANSWERED_PERSON = re.compile(r"([가-힣]{2,4}) \((\d{8})[,)]")


_EXTREME_LINE = re.compile(
    r"가장\s*(적게|많이)\s*(?:남은|쓴)\s*사람:\s*([가-힣]{2,4}) \("
    r"|(Fewest|Most) days left:\s*([가-힣]{2,4}) \(|(Most|Least) used:\s*([가-힣]{2,4}) \("
)
_FEWEST = re.compile(r"적게|적은|덜|fewest|least", re.I)


def _extreme_answered(before: str, said: str) -> str:
    """The one person the answer named as the extreme the question asked for ('제일 적게
    남은 사람 누구야?' → '가장 적게 남은 사람: 차주희 (…'), '' when none or a tie."""
    fewest = _FEWEST.search(before) is not None
    for match in _EXTREME_LINE.finditer(said):
        side = next(g for g in (match.group(1), match.group(3), match.group(5)) if g)
        name = next(g for g in (match.group(2), match.group(4), match.group(6)) if g)
        after = said[match.end() : match.end() + 16]
        if (side in ("적게", "Fewest", "Least")) == fewest:
            # ('가장 적게 남은 사람: A (…), B (…)': a tie names no one person)
            return "" if re.match(r"[^)]*\),\s", after) else name
    return ""


def _one_person_answered(said: str) -> str:
    """The one employee an answer named ('김도현 (20180007, DEV 사원)'), '' unless one."""
    people = {name for name, _ in _ANSWERED_PERSON.findall(said)}
    return people.pop() if len(people) == 1 else ""


def _person(text: str) -> str:
    names = named_people(text)
    return names[0] if names else ""


def _amount(text: str) -> str:
    spans = amount_spans(text)
    return text[spans[0][0] : spans[0][1]] if spans else ""


def _version(text: str) -> str:
    match = _VERSION.search(text)
    return match.group(0) if match else ""


_DAY = re.compile(
    r"(?:(?:이번|다음)\s*달\s*|이달\s*|담달\s*|\d{1,2}\s*월\s*)\d{1,2}\s*일(?!\s*(?:동안|간))"
)


def _date(text: str) -> str:
    """A date as written: '2023년 초', '작년', or a day of a month ('이번 달 22일')."""
    phrase = date_phrase(text)
    if phrase:
        # 'before march 2024', '2024년 3월 전에는': the day before, kept with its date
        at = text.find(phrase)
        ahead = re.search(r"\bbefore\s+(?:the\s+)?$", text[:at], re.I)
        behind = re.match(r"\s*(?:이전|전에|전엔|전까지|전)", text[at + len(phrase) :])
        if ahead:
            return text[ahead.start() : at + len(phrase)]
        if behind:
            return text[at : at + len(phrase) + behind.end()]
        return phrase
    match = _DAY.search(text)
    return match.group(0) if match else ""


_NIGHTS_STAYED = re.compile(r"\d{1,2}\s*박|\b\d{1,2}[- ]nights?\b", re.I)


def _nights(text: str) -> str:
    found = _NIGHTS_STAYED.search(text)
    return found.group() if found else ""


_FINDERS: tuple[Callable[[str], str], ...] = (
    _nights,
    _place,
    _department,
    _rank,
    _leave_type,
    _date,
    _amount,
    _version,
    _person,
)
"""Each finds the first thing of its kind a text names, as written ('' when none)."""
