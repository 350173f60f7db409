"""Plans that answer from regulation text: entitlements, effective dates, pending revisions."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING, Any

from embedded.model.compose import (
    MOST_DAYS,
    Blocks,
    Ctx,
    answer,
    article_matches,
    article_score,
    best_articles,
    call,
    came_back_empty,
    cite,
    content_words,
    date_note,
    days_in,
    days_sentence,
    describe_untitled,
    doc_hits,
    failure,
    hits_about,
    hits_of,
    hits_titled,
    in_days,
    josa,
    not_covered,
    not_found,
    not_understood,
    nothing_visible,
    out_of_scope,
    scope_answer,
    scope_qualifier,
    squash,
    title_of,
    titled,
    today_of,
    with_titles,
)
from embedded.model.conflicts import conflict_note, said_text, searched_article, tier_of
from embedded.model.entities import ARTICLE_NO, korean_amount, resolve_relative, without_dates
from embedded.model.evidence import (
    MIN_SHARED,
    answering,
    chatter,
    misses_subject,
    pairs,
    points_back,
    says_where,
    states_a_rule,
    states_asked,
    strength,
    unnamed_nouns,
    weight,
)
from embedded.model.intents import ASKS_CONTACT, BENEFIT_ASKED, cue, version_figure
from embedded.model.lexicon import (
    EN_COMMON,
    EN_TO_KO,
    FOLLOW_UP_GENERIC,
    LEAVE_TYPES,
    PERIOD_WORDS,
    POINTING_FILLERS,
    STOPWORDS,
    TITLE_SUFFIXES,
    TOPIC_WORDS,
)
from embedded.model.people import named_people

if TYPE_CHECKING:
    from embedded.model.conversation import ToolCall

_CONTACT_WORDS = ("연락처", "전화", "문의", "담당", "내선", "contact", "phone", "tel")
_LINE = re.compile(r"[^\n.]+")
_RULE_ABOUT_DATES = 3
"""Question words an article must mention to be the rule a dated question asks about."""


def search_query(ctx: Ctx) -> str:
    """Return the words to search for: the title, else the topic words, else the question."""
    if ctx.ents.title_words:
        # The title finds the document; the other topic words find the article in it
        # (a compound written without its space, '금품수수', in its halves too: the
        # article heads it '금품 수수').
        title = ctx.ents.title_words
        extra = [k for k in ctx.ents.keywords if not any(t in k or k in t for t in title)]
        halves = [
            f"{k[:2]} {k[2:]}" for k in extra[:4] if len(k) == 4 and re.fullmatch("[가-힣]+", k)
        ]
        signs = [_SIGNS[k] for k in extra[:4] if k in _SIGNS and _SIGNS[k] not in extra]
        return " ".join([*title, *extra[:4], *halves, *signs])
    if ctx.ents.keywords:
        words = ctx.ents.keywords
        if any(k in LEAVE_TYPES for k in words):
            # 'ERP에 찍혀 있는데 규정상 기본 연차는': the record is only mentioned; its
            # words would find the article about the HR system, not the entitlement.
            words = [k for k in words if k not in _RECORD_MENTIONS] or words
        return " ".join(words)
    return ctx.turn.question


# Words that mention where a figure is recorded, not what the rule is about.
_RECORD_MENTIONS = frozenset({"인사시스템", "인사db", "erp", "찍혀", "잡혀", "규정상", "기록"})


def as_of(ctx: Ctx) -> str | None:
    """The date the question asks about: named, or relative to the platform's today."""
    if ctx.ents.as_of or ctx.ents.relative is None:
        return ctx.ents.as_of
    searches = ctx.turn.all("search_regulations")
    today = (searches[0].data or {}).get("as_of") if searches else None
    if not isinstance(today, str):
        return None
    try:
        return resolve_relative(today, ctx.ents.relative)
    except ValueError:
        return None


def first_search(ctx: Ctx, query: str | None = None) -> Blocks | None:
    """Return the search call to make next, or None when the main search has been made.

    A relative date ('작년 이맘때') needs today's date first: the platform reports
    it with every search, so the first search runs for today and tells us.
    """
    searches = ctx.turn.all("search_regulations")
    when = as_of(ctx)
    if searches and (when is None or primary_search(ctx) is not None):
        return None
    if searches and ctx.ents.relative and when is None:
        return None  # today could not be read: answer from the search we have
    args: dict[str, Any] = {"question": query or search_query(ctx)}
    if when:
        args["as_of"] = when
    return call(ctx, "search_regulations", args)


def primary_search(ctx: Ctx) -> ToolCall | None:
    """The search that answers the question: the one run for the asked date."""
    searches = ctx.turn.all("search_regulations")
    when = as_of(ctx)
    if when and ctx.ents.relative:
        return next((s for s in searches if s.input.get("as_of") == when), None)
    return searches[0] if searches else None


def topic_hits(ctx: Ctx) -> list[dict[str, Any]]:
    """Return the main search's hits about the question, the topic's own article first."""
    hits = with_titles(ctx, hits_of(primary_search(ctx)))
    if ctx.ents.title_words:
        found = hits_titled(hits, ctx.ents.title_words)
    else:
        found = hits_about(hits, ctx.ents.keywords) if ctx.ents.keywords else hits
    subject = squash(ctx.ents.keywords[0]) if ctx.ents.keywords else ""
    if not subject:
        return found
    words = [squash(k) for k in ctx.ents.keywords]

    def rank(hit: dict[str, Any]) -> tuple[int, bool]:
        # The article that mentions more of the question's topic words ('연차' and
        # '이월') answers it; among equals, an article titled with the subject
        # ('제5조 연차휴가') states the rule itself, while a guideline that merely
        # mentions it ('반차 2회는 연차휴가 1일') does not.
        hay = squash(f"{hit.get('article_title', '')} {hit.get('text', '')}")
        score = sum((2 if w in TOPIC_WORDS else 1) for w in words if w in hay)
        return -score, subject not in squash(str(hit.get("article_title", "")))

    return sorted(found, key=rank)


def topic_label(ctx: Ctx) -> str:
    """Return how to name the topic in the answer."""
    topics = [k for k in ctx.ents.keywords if k in TOPIC_WORDS][:2]
    if not ctx.ents.title and len(topics) == 2:
        return " ".join(topics)  # '연차 이월', not just '연차'
    # ('사내 흡연구역': the smoking area is what is asked about, not '사내')
    named = [k for k in ctx.ents.keywords if k not in _GENERIC_LABELS] or ctx.ents.keywords
    return ctx.ents.title or (named[0] if named else ctx.turn.question)


def _asked_label(ctx: Ctx) -> str:
    """What was asked, all of it ('연장근로 택시 교통비'), for saying it is not covered:
    one word of it ('연장근로') is a topic other articles do speak of."""
    if ctx.ents.title:
        return ctx.ents.title
    asked = [k for k in ctx.ents.keywords if k not in _GENERIC_LABELS][:3]
    return " ".join(asked) if len(asked) > 1 else topic_label(ctx)


# Words every benefit or procedure article says: meeting only these, an article is no
# answer to a question whose subject it never names.
def _specific_title(ctx: Ctx) -> bool:
    """A title the question names that is more than words every rule has ('지원 규정' of
    '학자금 지원 규정 있나?' names no document: the subject is 학자금)."""
    words = [w for w in ctx.ents.title_words if w not in _GENERIC_MET and w not in TITLE_SUFFIXES]
    return bool(words) or bool(ctx.ents.doc_nos)


_GENERIC_MET = frozenset(
    "지원 지급 회사 직원 규정 기준 관련 제도 사용 신청 승인 비용 금액 계산 방법 처리 절차 "
    "사내 경비 정산 청구".split()
)

_GENERIC_LABELS = frozenset("사내 회사 우리 직원 팀 부서 company our staff".split())


# An upper limit an article states ('1인당 3만원 이하', '50만원까지'): an amount the
# question names is held against it.
_UPPER_LIMIT = re.compile(
    r"(?<![당\d,])\s?(\d[\d,]*(?:\s?[천백만억]+)*|[천백만억]+)\s?원\s?(이하|이내|까지|미만)"
)


_PAYING = re.compile(r"지급|지원|부담|정산|보상|수당|비용|환급|보전")
"""Words of an article that pays for something (a benefit asked is answered by one)."""


_SHARE = re.compile(r"(\d{1,3})\s?(?:퍼센트|%|프로)")


def share_of(ctx: Ctx, hits: list[dict[str, Any]]) -> str:
    """'교육비 120만원이면 얼마 지원해줘?' under '90퍼센트를 지원': that share of the amount
    asked, worked out, when the articles quoted state one share; '' otherwise."""
    asked = ctx.ents.amount
    if not asked or not re.search(r"얼마|how much|\bamount\b", ctx.turn.question.lower()):
        return ""
    shares = {int(m.group(1)) for h in hits for m in _SHARE.finditer(str(h.get("text") or ""))}
    if len(shares) != 1:
        return ""
    share = shares.pop()
    part = asked * share // 100
    return ctx.t(
        f"\n물어보신 금액으로 계산하면 {asked:,}원 × {share}% = {part:,}원입니다.",
        f"\nFor the amount asked: {asked:,} won × {share}% = {part:,} won.",
    )


def against_limit(ctx: Ctx, hits: list[dict[str, Any]]) -> str:
    """'5만원짜리 받아도 돼?' under '3만원 이하': whether the amount asked is within the
    one upper limit the articles quoted state, with both figures; '' otherwise."""
    asked = ctx.ents.amount
    if not asked:
        return ""
    limits = {
        (value, m.group(0).strip(), m.group(2))
        for h in hits
        for m in _UPPER_LIMIT.finditer(str(h.get("text") or ""))
        if (value := korean_amount(m.group(1))) is not None and value > 0
    }
    if len(limits) != 1:
        return ""  # none, or several (which one applies is for the reader to see)
    value, phrase, bound = limits.pop()
    within = asked < value if bound == "미만" else asked <= value
    sign = ("<" if bound == "미만" else "≤") if within else ("≥" if bound == "미만" else ">")
    figures = f"{asked:,}원 {sign} {value:,}원"
    if within:
        return ctx.t(
            f"\n물어보신 금액은 '{phrase}' 기준 안에 듭니다 ({figures}).",
            f"\nThe amount asked about is within '{phrase}' ({figures}).",
        )
    return ctx.t(
        f"\n물어보신 금액은 '{phrase}' 기준을 넘습니다 ({figures}).",
        f"\nThe amount asked about exceeds '{phrase}' ({figures}), so it is not allowed "
        "under this article.",
    )


def quote_articles(
    ctx: Ctx, hits: list[dict[str, Any]], lead: tuple[str, str] = ("", "")
) -> Blocks:
    """Quote the articles that answer the question, each with its citation (beside the
    version before, when the question asks how it was before)."""
    if asks_comparison(ctx.turn.question) and hits:
        searches = ctx.turn.all("search_regulations")
        step = compared(ctx, hits, str(searches[0].input.get("question") or "") if searches else "")
        if step:
            return step
    named = _article_numbers(ctx.turn.question)
    if named and not lead[0] and not any(str(h.get("article_no")) in named for h in hits):
        # 'What does Article 5 of … say?' when no article found is 제5조: said, not
        # another article passed off as the one that answers
        numbers = ", ".join(named)
        lead = (
            f"검색된 조항 중에 {numbers}는 없었습니다. 찾은 조항만 옮깁니다. ",
            f"{numbers} was not among the articles found; quoting those that were. ",
        )
    absent = _subject_unspoken(ctx, hits) if not lead[0] else ""
    if absent:
        # 'Do we have a sabbatical policy?' met by the annual-leave article on '근속' and
        # '휴가': the subject itself is in no article found, so nothing here answers it
        searches = ctx.turn.all("search_regulations")
        return answer(honest_miss(ctx, absent, searches[0] if searches else None))
    tiers = [tier_of(ctx, str(h.get("doc_no"))) for h in hits]
    if len({h.get("doc_no") for h in hits}) > 1 and all(t is not None for t in tiers):
        # documents that disagree, once described: the one that governs is quoted first
        # (the guideline's '6개월' is not the answer where the regulation says 12)
        order = sorted(range(len(hits)), key=lambda i: (tiers[i], i))
        hits = [hits[i] for i in order]
    lines = []
    for hit in hits:
        citation = cite(ctx, str(hit.get("doc_no")), hit.get("version"), hit.get("effective_from"))
        name = titled(hit, citation, "{title} {citation}")
        head = f"{hit.get('article_no') or ''} {hit.get('article_title') or ''}".strip()
        lines.append(f"- {name} {head}: {hit.get('text')}")
    body = "\n".join(lines)
    step, conflict = conflict_note(ctx, hits[0], hits)
    if step:
        return step  # the documents' tiers (and their order's article) first
    return answer(
        ctx.t(
            f"{lead[0]}관련 조항은 다음과 같습니다.\n{body}"
            if lead[0]
            else f"질문에 해당하는 조항입니다.\n{body}",
            f"{lead[1]}The article on it:\n{body}"
            if lead[1]
            else f"The article that answers this:\n{body}",
        )
        + against_limit(ctx, hits)
        + share_of(ctx, hits)
        + date_note(ctx, hits[0])
        + conflict
    )


def _subject_unspoken(ctx: Ctx, hits: list[dict[str, Any]]) -> str:
    """A kind of leave or allowance the question names that no article quoted speaks of
    (else ''): the article met other words of the question, not what it asks about.

    Read off the question itself (not off a verb); a question naming a document or an
    article is answered by that document whatever its words.
    """
    if ctx.ents.title_words or ctx.ents.doc_nos or not ctx.ents.keywords or not hits:
        return ""
    # a kind of leave or allowance named ('career breaks or sabbaticals': 안식휴가 is what
    # is asked, whatever '경력' meets; other words may be put otherwise in the text)
    kinds = [k for k in ctx.ents.keywords if k.endswith(_KIND_NOUNS) and k not in _KIND_NOUNS]
    for subject in kinds:
        if subject in ctx.ents.derived or subject in _GENERIC_MET or len(subject) < 2:
            continue
        if not any(_matched(h, [subject]) for h in hits):
            return subject
    return ""


_KIND_NOUNS = ("휴가", "휴직", "수당")


_MAX_SEARCHES = 4
"""Searches a plan makes before it stops looking (the rescue search counts)."""


_PROCESS_ONLY = frozenset("계산 정산 지급 신청 처리 적용 확인 부담 지원 절차 방법".split())
"""Words of what is done ('calculated', 'reimburse'), never the subject of a question."""


def question_query(ctx: Ctx) -> tuple[str, str] | None:
    """The question as written, to search for, and the text to weigh articles by.

    The text is the question with the topic words the lexicon read off it ('반려'
    read as '거부'): what the plans understood counts, and what they missed too.
    An English question is searched for and weighed by the Korean words its phrases
    map to, and only when every content word of it is known: an unmapped word
    ('refer a candidate') may be the whole point of the question. None when nothing
    of the question can be weighed.
    """
    words = " ".join(ctx.ents.keywords)
    if not ctx.ko and ctx.ents.keywords and all(k in _PROCESS_ONLY for k in ctx.ents.keywords):
        # 'How is severance pay calculated …?', '… reimburse children's tuition?': what is
        # done to the subject ('계산', '정산') is left; any article that calculates is no
        # answer about severance
        return None
    if ctx.ko:
        query = " ".join(ctx.turn.question.split())
        text = f"{query} {words}"
    elif len(ctx.ents.keywords) >= 2 or (ctx.ents.keywords and not _unknown_english(ctx)):
        # Two mapped words are enough to weigh articles by (an unmapped word may be
        # filler, 'wants to send me'); one alone only when nothing else was unknown.
        query = text = words
    else:
        return None
    return (query, text) if len(pairs(text)) >= MIN_SHARED else None


def rescue(ctx: Ctx, against: dict[str, Any] | None = None) -> Blocks | None:
    """Before saying the regulations do not cover it: the question itself searched.

    The plans read the question through word lists; a word they were never taught
    leaves them with nothing or with a neighbouring article. The regulations are
    searched once for the question as written, and the article that speaks most
    strongly to it (``evidence.answering``) is quoted. With ``against`` (the article
    a plan would quote), only a stronger article replaces it. None when the search
    finds nothing better: the caller then answers as it would have.
    """
    asked = question_query(ctx)
    if asked is None:
        return None
    query, text = asked
    searches = ctx.turn.all("search_regulations")
    done = [c for c in searches if c.input.get("question") == query]
    if not done:
        if len(searches) >= _MAX_SEARCHES:
            return None
        args: dict[str, Any] = {"question": query}
        when = as_of(ctx)
        if when:
            args["as_of"] = when
        return call(ctx, "search_regulations", args)
    hits = with_titles(ctx, hits_of(done[0]))
    if ctx.ents.doc_nos:
        hits = [h for h in hits if h.get("doc_no") in ctx.ents.doc_nos]  # the one numbered
    elif ctx.ents.title_words:
        hits = hits_titled(hits, ctx.ents.title_words)
    chosen = answering(text, hits)
    if not chosen or (ctx.ko and misses_subject(ctx.turn.question, chosen[0], hits)):
        return None
    if (
        against is not None
        and states_a_rule(against)
        and weight(text, chosen[0])[0] <= weight(text, against)[0]
    ):
        return None  # the plan's article meets the question's words as well: it stands
    return quote_articles(ctx, chosen)


_NAMED_VERSION = re.compile(
    r"(?<!\d)(\d{1,2})\s*(?:판|차)(?![가-힣])|\b(?:version|v)\s*(\d{1,2})\b", re.I
)
"""A version named in a question ('1판', '제2차', 'version 1')."""


def asks_comparison(question: str) -> bool:
    """The question sets a rule beside another version of it."""
    return cue(question, "version_compare")


def _older_versions(ctx: Ctx, doc_no: str, current: int) -> list[dict[str, Any]] | None:
    """The versions to compare with: the one named, else every one before ``current``,
    newest first ([] when there is none). None when the document's versions are not
    known yet (describe it first).
    """
    described = [c for c in ctx.turn.all("describe_regulation") if c.input.get("doc_no") == doc_no]
    if not described:
        return None
    versions = [v for v in (described[0].data or {}).get("versions") or [] if isinstance(v, dict)]
    in_force = [v for v in versions if v.get("status") == "APPROVED" and v.get("effective_from")]
    named = [
        int(a or b) for a, b in _NAMED_VERSION.findall(ctx.turn.question) if int(a or b) != current
    ]
    if named:
        return [v for v in in_force if int(v.get("version") or 0) == named[0]]
    earlier = [v for v in in_force if int(v.get("version") or 0) < current]
    return sorted(earlier, key=lambda v: -int(v.get("version") or 0))


# Words of a version summary that say how, not what ('개정: 이월 한도 조정').
_SUMMARY_FILLER = frozenset(
    "개정 제정 신설 조항 기준 변경 조정 인상 인하 강화 완화 추가 삭제 정비 명확화 및 등".split()
)


def _changed_topics(ctx: Ctx, doc_no: str, version: int) -> list[str]:
    """What the version's summary says it changed, as words ('이월', '한도'); [] unknown."""
    described = [c for c in ctx.turn.all("describe_regulation") if c.input.get("doc_no") == doc_no]
    versions = (described[0].data or {}).get("versions") or [] if described else []
    summary = next(
        (str(v.get("summary") or "") for v in versions
         if isinstance(v, dict) and str(v.get("version")) == str(version)),
        "",
    )  # fmt: skip
    words = re.findall(r"[가-힣]{2,}", summary.split(":", 1)[-1])
    title = (
        squash(str((described[0].data or {}).get("regulation", {}).get("title") or ""))
        if described
        else ""
    )
    # ('개정: 징계 기록 말소 기준 신설' of 징계 양정기준: 징계 names the document, every
    # article speaks of it; 기록 말소 is what changed)
    return [w for w in dict.fromkeys(words) if w not in _SUMMARY_FILLER and w not in title]


def _own_topic(ctx: Ctx) -> list[str]:
    """What the question names to compare beyond the document ('면접위원 수랑 수습기간')."""
    title = {squash(w) for w in ctx.ents.title_words}
    return [
        k for k in content_words(ctx.ents.keywords)
        if squash(k) not in title and not any(squash(k) in t or t in squash(k) for t in title)
        and not cue(k, "version_compare") and not _NAMED_VERSION.search(k)
        # ('PUR-GDL-001 개정 전 버전은 어땠어?': a version is what is compared, no topic)
        and k not in FOLLOW_UP_GENERIC and not _VERSION_WORD.match(k)
    ]  # fmt: skip


_VERSION_WORD = re.compile(r"버전|차수|개정판|판(?:이|은|을|으로)?$|version", re.I)
_WHAT_CHANGED = re.compile(
    r"차이|바뀐\s*(?:점|게|거|것|내용)|달라진|달라졌|바뀌었|바꼈|변경된\s*(?:점|내용)|변경됐"
    r"|뭐가\s*달라|무엇이\s*달라|다른\s*점"
    r"|\b(?:what|anything)\s+(?:has\s+)?changed\b|\bdifferences?\b|\bdiffer\b",
    re.I,
)
"""The change itself asked ('1판이랑 2판 차이'), not what a topic was before."""


def compared(ctx: Ctx, quoted: list[dict[str, Any]], query: str) -> Blocks | None:
    """The quoted articles, each beside the same article in the version asked about.

    The document's versions are read (describe), the regulations are searched as
    of the older version's first day, and each article is matched by its heading
    (its number may have moved). Says whether each changed; an article the older
    version does not have is said to be new. None when the comparison cannot be
    made (no version before, the tools missing): the caller quotes as usual.
    """
    quoted = [h for h in quoted if states_a_rule(h)] or quoted  # a purpose article is no rule
    if not quoted or not ctx.has("describe_regulation"):
        return None
    top = quoted[0]
    doc_no = str(top.get("doc_no"))
    try:
        current = int(top.get("version") or 0)
    except (TypeError, ValueError):
        return None
    quoted = [h for h in quoted if str(h.get("doc_no")) == doc_no]
    olders = _older_versions(ctx, doc_no, current)
    if olders is None:
        return call(ctx, "describe_regulation", {"doc_no": doc_no})
    if not olders:
        return None
    changed = _changed_topics(ctx, doc_no, current)
    said = " ".join(f"{h.get('article_title')} {h.get('text')}" for h in quoted)
    own = _own_topic(ctx)
    # ('법카 등록 기한 예전엔 며칠?': the article on registering is compared, back to the
    # version that said it otherwise, though the last revision changed another article;
    # 'what changed between the versions of the expense guideline?' asks the change)
    met = not _WHAT_CHANGED.search(ctx.turn.question) and any(w in said for w in own)
    if changed and not (own and (met or any(w in said for w in changed))):
        # The document as a whole ('1판이랑 2판 차이가 뭐야?'), or articles the version
        # did not change: the articles its summary names ('개정: 이월 한도 조정') are
        # the ones compared.
        query = f"{title_of(top)} {' '.join(changed)}"
        now = [
            c for c in ctx.turn.all("search_regulations")
            if c.input.get("question") == query and not c.input.get("as_of")
        ]  # fmt: skip
        if not now:
            return call(ctx, "search_regulations", {"question": query})
        on_topic = [
            h for h in with_titles(ctx, hits_of(now[0]))
            if h.get("doc_no") == doc_no and states_a_rule(h)
            and any(w in f"{h.get('article_title')} {h.get('text')}" for w in changed)
        ]  # fmt: skip
        # ('괴롭힘은 어떻게 나와있어? 최근 개정때 뭐 바뀌었는지도': the article asked about,
        # unchanged, beside the ones the revision changed)
        kept = [
            h for h in quoted
            if own and any(w in f"{h.get('article_title')} {h.get('text')}" for w in own)
        ][:1]  # fmt: skip
        quoted = kept + [h for h in on_topic[:3] if h not in kept] or quoted
        top = quoted[0]
    headings = " ".join(str(h.get("article_title") or "") for h in quoted)
    old_query = f"{title_of(top)} {headings} {query}".strip()
    same_then: list[str] = []
    for older in olders:
        # Each version back in turn, until one said it otherwise ('has it changed
        # over time?': the version before may have said the same as now).
        since = str(older.get("effective_from"))
        done = [c for c in ctx.turn.all("search_regulations") if c.input.get("as_of") == since]
        if not done:
            return call(ctx, "search_regulations", {"question": old_query, "as_of": since})
        then = [
            h for h in hits_of(done[0])
            if h.get("doc_no") == doc_no and str(h.get("version")) == str(older.get("version"))
        ]  # fmt: skip
        lines, differs = _beside(ctx, quoted, then, older)
        if differs or older is olders[-1]:
            break
        same_then.append(str(older.get("version")))
    now_cite = cite(ctx, doc_no, current, top.get("effective_from"))
    old_cite = cite(ctx, doc_no, older.get("version"), since)
    body = "\n".join(lines)
    if same_then:
        body += ctx.t(
            f"\n(그 사이 제{', 제'.join(same_then)}차는 지금과 같았습니다.)",
            f"\n(Version {', '.join(same_then)} in between said the same as now.)",
        )
    return answer(
        ctx.t(
            f"{titled(top, now_cite, '{title} {citation}')}와 {old_cite}를 비교합니다.\n{body}",
            f"{titled(top, now_cite, '{title} {citation}')} compared with {old_cite}:\n{body}",
        )
    )


def _beside(
    ctx: Ctx, quoted: list[dict[str, Any]], then: list[dict[str, Any]], older: dict[str, Any]
) -> tuple[list[str], bool]:
    """Each quoted article beside the same-headed article of ``older`` (its hits
    ``then``), and whether any of them differs. Articles whose text changed come
    first, then articles added since, then those that say the same."""
    lines: list[tuple[int, str]] = []
    for hit in quoted:
        heading = str(hit.get("article_title") or "")
        same = next((h for h in then if str(h.get("article_title") or "") == heading), None)
        head = f"{hit.get('article_no') or ''} {heading}".strip()
        now_text = str(hit.get("text") or "")
        if same is None:
            lines.append(
                (
                    1,
                    ctx.t(
                        f'- {head}: 지금 "{now_text}" — 제{older.get("version")}차에서는 이 조항을 '
                        "찾을 수 없습니다 (그 뒤에 생긴 조항일 수 있습니다).",
                        f'- {head}: now "{now_text}" — not found in version '
                        f"{older.get('version')} (it may have been added since).",
                    ),
                )
            )
            continue
        old_text = str(same.get("text") or "")
        # (a document's management number in brackets is no change of the rule)
        differs = squash(said_text(same)) != squash(said_text(hit))
        lines.append(
            (
                0 if differs else 2,
                ctx.t(
                    f'- {head}: 지금 "{now_text}" / 제{older.get("version")}차 "{old_text}" → '
                    + ("바뀌었습니다." if differs else "같습니다."),
                    f'- {head}: now "{now_text}" / version {older.get("version")} "{old_text}" → '
                    + ("changed." if differs else "unchanged."),
                ),
            )
        )
    lines.sort(key=lambda line: line[0])
    return [text for _, text in lines], any(rank < 2 for rank, _ in lines)


_RESTRICTED_MARK = re.compile(r"대외비로\s*관리")
"""How an article says the details it points to are restricted ('그 기준은 대외비로 관리한다';
not an article that merely names the class, '대외비, 내부용, 공개로 분류')."""


def last_look(ctx: Ctx) -> Blocks | None:
    """Before 'not covered': a restricted detail, or a revision still in draft, that speaks to it.

    An article found may say that the details asked for are kept restricted
    ('세부 양정 기준은 … 대외비로 관리한다'): then nothing the caller may see covers
    them, which is said with that article. Otherwise the revisions in flight are
    read once: a draft or approved revision whose summary names the question's
    subject ('클라우드 서비스 이용 보안 조항 신설') is told, as not in force. None when
    neither applies (the caller says it is not covered).
    """
    words = " ".join(ctx.ents.keywords)
    text = f"{ctx.turn.question} {words}" if ctx.ko else words
    if not text.strip():
        return None
    every = [h for c in ctx.turn.all("search_regulations") for h in hits_of(c)]
    for hit in every:
        if _RESTRICTED_MARK.search(str(hit.get("text"))) and strength(text, hit)[0] >= 2:
            citation = cite(
                ctx, str(hit.get("doc_no")), hit.get("version"), hit.get("effective_from")
            )
            head = f"{hit.get('article_no') or ''} {hit.get('article_title') or ''}".strip()
            return answer(
                ctx.t(
                    "질문하신 세부 내용은 조회 가능한 규정에 없습니다. "
                    f"{titled(hit, citation)} {head}에 "
                    f'따르면 "{hit.get("text")}" — 그 기준은 대외비로 관리되어, 열람 권한이 없으면 '
                    "볼 수 없습니다 (권한 밖이라 확인할 수 없습니다).",
                    f"The details asked for are not in the regulations available to you. "
                    f'{titled(hit, citation)} {head} says "{hit.get("text")}" — they are kept '
                    "restricted (대외비), so they are not available to you without that clearance.",
                )
            )
    if not ctx.has("pending_revision"):
        return None
    pending = [c for c in ctx.turn.all("pending_revision") if not c.input.get("doc_no")]
    if not pending:
        return call(ctx, "pending_revision", {})
    rows = [r for r in (pending[0].data or {}).get("pending") or [] if isinstance(r, dict)]
    named = [
        r for r in rows
        if r.get("status") in ("DRAFT", "IN_REVIEW", "APPROVED")
        and strength(text, {"text": r.get("summary")})[0] >= 1
        and not misses_subject(text, {"text": r.get("summary")}, [])
        and any(
            len(w) >= 2 and w in str(r.get("summary")) and not any(
                w in f"{h.get('article_title')} {h.get('text')}" for h in every
            )  # a subject some article in force speaks of is no draft-only subject
            for w in ctx.ents.keywords
        )
    ]  # fmt: skip
    if not named:
        return None
    lines = "\n".join(
        f"- {r.get('doc_no')} {r.get('title') or ''} "
        + ctx.t(f"제{r.get('version')}차", f"version {r.get('version')}")
        + f" ({r.get('status')}): {r.get('summary')}"
        for r in named
    )
    return answer(
        ctx.t(
            f"지금 시행 중인 규정에는 이 내용이 없습니다. 다만 진행 중인 개정안이 다룹니다 "
            f"(아직 효력이 없습니다):\n{lines}",
            f"No regulation in force covers this. A revision in progress addresses it "
            f"(it has no effect yet):\n{lines}",
        )
    )


def honest_miss(ctx: Ctx, what: str, source: ToolCall | None = None) -> str:
    """Nothing answers: 'not covered' (or 'nothing you may see'), unless the question
    only points back at something said before ('그거 그때 말한 거'): that is not understood."""
    if points_back(ctx.turn.question) or chatter(ctx.turn.question):
        return not_understood(ctx)
    return not_found(ctx, what, source)


_PERIOD = re.compile(r"\d|일주일|하루|이틀|사흘|나흘|한 달|두 달|개월|주일|즉시|당일|전날")
"""A period or a figure an article states (a deadline in words counts: '일주일 안에')."""
_NO_DAY_COUNT = (
    "규정에 일수(며칠)가 적혀 있지 않아 며칠인지는 찾을 수 없습니다. ",
    "The regulations state no number of days for this, so I cannot find a figure. ",
)


def article_answer(
    ctx: Ctx, search: ToolCall | None = None, days_asked: bool = False
) -> Blocks | None:
    """Quote the article the search found that speaks to the question, or None.

    Retrieval decides the topic: the main search ran on the question's words, and
    the article that mentions most of them (at least two) answers it. None when no
    article speaks to the question: the caller then says honestly it is not covered.
    """
    if ctx.ents.title_words or ctx.ents.doc_nos:
        return None  # a document named and not found is not found: no other one stands in
    hits = with_titles(ctx, hits_of(search or primary_search(ctx)))
    best = best_articles(hits, ctx.ents.keywords, weak=ctx.ents.derived)
    if not best or (ctx.ko and misses_subject(ctx.turn.question, best[0], hits)):
        return None  # none speaks to it, or none names what it is about ('법인차량')
    # The asked attribute checked: a question for a number of days that the article
    # does not state is told so before the article is quoted (no figure is made up).
    figureless = days_asked and not any(_PERIOD.search(str(h.get("text"))) for h in best)
    return quote_articles(ctx, best, _NO_DAY_COUNT if figureless else ("", ""))


def searched_topic(
    ctx: Ctx, quote_fallback: bool = False, days_asked: bool = False
) -> tuple[Blocks | None, list[dict[str, Any]]]:
    """Search first, then return the question's hits, best first.

    With ``quote_fallback``, a search whose hits do not match the topic filter but
    whose best article speaks to the question quotes that article instead of
    saying it is not covered.

    Returns:
        ``(blocks, [])`` when the plan must emit ``blocks`` now (the search to
        make, a failure, or "not found"); otherwise ``(None, hits)`` with at
        least one hit.
    """
    step = first_search(ctx)
    if step:
        return step, []
    search = primary_search(ctx) or ctx.turn.all("search_regulations")[0]
    if search.failed:
        return answer(failure(ctx, search)), []
    hits = topic_hits(ctx)
    if not hits and ctx.ents.title_words:
        step = describe_untitled(ctx, hits_of(search))
        if step:
            return step, []
    if not hits and as_of(ctx):
        step = _before_first_version(ctx, str(as_of(ctx)))
        if step:
            return step, []
    if not hits and quote_fallback:
        quoted = article_answer(ctx, search, days_asked)
        if quoted:
            return quoted, []
    if not hits:
        found = rescue(ctx) or last_look(ctx)
        if found:
            return found, []
        return answer(honest_miss(ctx, topic_label(ctx), search)), []
    return None, hits


def _before_first_version(ctx: Ctx, when: str) -> Blocks | None:
    """Nothing in force on the asked date: is it a date before the rule's first version?

    Searches without the date, describes the document found, and answers with its
    first version's start date; None when that does not explain the empty search.
    """
    undated = [s for s in ctx.turn.all("search_regulations") if not s.input.get("as_of")]
    if not undated:
        return call(ctx, "search_regulations", {"question": search_query(ctx)})
    hits = with_titles(ctx, hits_of(undated[0]))
    found = hits_titled(hits, ctx.ents.title_words) if ctx.ents.title_words else []
    found = found or (hits_about(hits, ctx.ents.keywords) if ctx.ents.keywords else [])
    if not found:
        return None
    doc_no = str(found[0].get("doc_no"))
    described = ctx.turn.last("describe_regulation")
    if described is None:
        return call(ctx, "describe_regulation", {"doc_no": doc_no})
    versions = [] if described.failed else (described.data or {}).get("versions") or []
    starts = sorted(str(v.get("effective_from")) for v in versions if v.get("effective_from"))
    if not starts or starts[0] <= when:
        return None
    first = next(v for v in versions if str(v.get("effective_from")) == starts[0])
    label = topic_label(ctx)
    title = str(found[0].get("title") or doc_no)
    citation = cite(ctx, doc_no, first.get("version"), starts[0])
    return answer(
        ctx.t(
            f"{when} 기준으로 시행 중인 {label} 규정은 찾을 수 없습니다: {title}의 첫 버전인 "
            f"{citation}{josa(citation, '이', '가')} {starts[0]}부터 시행되었으므로, 그 전인 "
            f"{when}에는 적용되는 규정이 없었습니다.",
            f"Not found for that date: no regulation on {label} was in force on {when}. The first "
            f"version of {title}, {citation}, took effect on {starts[0]}, after that date.",
        )
    )


def _upcoming(
    ctx: Ctx, doc_no: str, today: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    pending = ctx.turn.last("pending_revision")
    if pending is None or pending.failed or pending.data is None:
        return [], []
    rows = [p for p in pending.data.get("pending") or [] if p.get("doc_no", doc_no) == doc_no]
    approved = [
        p for p in rows if p.get("status") == "APPROVED" and str(p.get("effective_from")) > today
    ]
    drafts = [p for p in rows if p.get("status") != "APPROVED"]
    return approved, drafts


def _future_days(
    ctx: Ctx, version: dict[str, Any], topic: list[str]
) -> tuple[int | None, Blocks | None]:
    days = days_in(str(version.get("summary") or ""), topic)
    if days is not None:
        return days, None
    eff = version.get("effective_from")
    for search in ctx.turn.all("search_regulations")[1:]:
        if search.input.get("as_of") == eff:
            hits = doc_hits(hits_of(search), str(version.get("doc_no")))
            return days_in(" ".join(str(h.get("text")) for h in hits), topic), None
    args = {"question": search_query(ctx), "as_of": eff}
    return None, call(ctx, "search_regulations", args)


Coming = tuple[list[tuple[dict[str, Any], int | None]], list[dict[str, Any]]]


def _search_day(ctx: Ctx) -> str:
    """The day the main search was made as of ('' when unknown)."""
    searches = ctx.turn.all("search_regulations")
    search = primary_search(ctx) or (searches[0] if searches else None)
    return str(((search.data if search else None) or {}).get("as_of") or "")


def coming_changes(ctx: Ctx, doc_no: str, topic: list[str]) -> tuple[Blocks | None, Coming]:
    """What is about to change in a document: approved versions (with their figure) and drafts.

    Asks for the pending revisions first (once), and for a search as of an approved
    version's start date when its summary states no figure.

    Returns:
        (a step to take first, ([], [])) or (None, ([(version, days or None)], drafts)).
    """
    if ctx.turn.last("pending_revision") is None and ctx.has("pending_revision"):
        return call(ctx, "pending_revision", {"doc_no": doc_no}), ([], [])
    approved, drafts = _upcoming(ctx, doc_no, _search_day(ctx))
    found: list[tuple[dict[str, Any], int | None]] = []
    for version in approved:
        days, step = _future_days(ctx, version, topic)
        if step:
            return step, ([], [])
        found.append((version, days))
    return None, (found, drafts)


_MOST_WORDS = (
    "최대",
    "최장",
    "한도",
    "상한",
    "제일 많이",
    "가장 많이",
    "maximum",
    "max ",
    "at most",
)


def asks_most(question: str) -> bool:
    """'연차 최대 며칠까지', 'the maximum annual leave': the limit, not the first figure."""
    lowered = f"{question.lower()} "
    return any(w in lowered for w in _MOST_WORDS)


_BASE_WORDS = ("기본", "base ", "basic ")


def _base_and_most(question: str) -> bool:
    """'기본 부여일수는 며칠이고 최대 몇일까지야?': the base figure and the limit, both."""
    lowered = question.lower()
    return asks_most(question) and any(w in lowered for w in _BASE_WORDS)


def plan_rule_days(ctx: Ctx) -> Blocks:
    """How many days a rule grants, and its limit too when both are asked."""
    blocks = _rule_days(ctx)
    if not _base_and_most(ctx.turn.question) or any(b["type"] == "tool_use" for b in blocks):
        return blocks
    text = "".join(b["text"] for b in blocks if b["type"] == "text")
    limit = MOST_DAYS.search(text)  # the limit the quoted rule sentence states
    if limit is None:
        return blocks
    most = limit.group(1) or limit.group(2)
    return answer(text + ctx.t(f" 한도(최대)는 {most}일입니다.", f" The limit is {most} days."))


_OTHER_SPAN = re.compile(r"(?<!\d)\d{1,3}\s*(?:영업일|근무일|주일?|개월)\s*(?:이내|안에?)")


def _rule_days(ctx: Ctx) -> Blocks:
    """How many days a rule grants (now, on a past date, and what is about to change)."""
    blocks, hits = searched_topic(ctx, quote_fallback=True, days_asked=True)
    if blocks:
        return blocks
    top = hits[0]
    doc_no = str(top.get("doc_no"))
    texts = " ".join(str(h.get("text")) for h in doc_hits(hits, doc_no))
    topic = ctx.ents.keywords or ctx.ents.title_words
    most = asks_most(ctx.turn.question) and not _base_and_most(ctx.turn.question)
    days = days_in(texts, topic, most=most)
    citation = cite(ctx, doc_no, top.get("version"), top.get("effective_from"))
    if days is None:
        stated = article_answer(ctx, days_asked=True) or rescue(ctx)
        if stated:
            return stated  # the rule states no number of days: what it does say
        span = _OTHER_SPAN.search(str(top.get("text") or ""))
        if span:
            # '사용 후 3영업일 안에': a span in working days (or weeks, months) is the answer
            where = f"{titled(top, citation)} {top.get('article_no') or ''}"
            return answer(
                ctx.t(
                    f'{span.group(0)}입니다. {where}: "{top.get("text")}"',
                    f'{span.group(0)}. {where}: "{top.get("text")}"',
                )
            )
        every = [h for c in ctx.turn.all("search_regulations") for h in hits_of(c)]
        unheard = [
            k
            for k in ctx.ents.keywords
            if len(k) >= 3
            and k not in ctx.ents.derived
            and not any(_matched(h, [k]) for h in every)
        ]
        if unheard and not (ctx.ents.title_words or ctx.ents.doc_nos):
            # 'how many reserve-forces (예비군) training days are paid?': the training
            # article found has no days, and nothing found speaks of 예비군 at all
            searches = ctx.turn.all("search_regulations")
            return answer(honest_miss(ctx, unheard[0], searches[0] if searches else None))
        return answer(
            ctx.t(
                f"{citation}을 찾았지만 일수를 명시한 조항은 찾을 수 없습니다: {top.get('text')}",
                f"I found {citation}, but no article states a number of days: {top.get('text')}",
            )
        )
    if _confirms(ctx, days):
        # '반차 2번이면 연차 1일로 치는 거야?': the question states the figure and asks
        # whether the rule says so; the article answers, not "연차는 1일입니다".
        stated = article_answer(ctx)
        if stated:
            return stated
    when = as_of(ctx)
    if when:
        return _dated_days(ctx, top, days, citation, when)
    if ctx.turn.last("pending_revision") is None and ctx.has("pending_revision"):
        return call(ctx, "pending_revision", {"doc_no": doc_no})
    search = primary_search(ctx) or ctx.turn.all("search_regulations")[0]
    today = str((search.data or {}).get("as_of") or "")
    approved, drafts = _upcoming(ctx, doc_no, today)
    label = topic_label(ctx)
    quoted = days_sentence(texts, days)
    # '개인정보는 3일입니다' reads as a grant of days: a subject that is no leave or
    # topic noun is left out, and the rule's own sentence says what the days are.
    subject = f"{label}{josa(label, '은', '는')} " if _leave_or_topic(label) else ""
    text = ctx.t(
        f"현재 시행 중인 {citation}에 따르면 {subject}{'최대 ' if most else ''}{days}일입니다"
        + (f' ("{quoted}").' if quoted else "."),
        f"Under {citation}, currently in force, the {'maximum' if most else 'figure'} is "
        f"{days} days" + (f' ("{quoted}").' if quoted else "."),
    ) + date_note(ctx, top)
    for version in approved:
        next_days, step = _future_days(ctx, version, topic)
        if step:
            return step
        next_cite = cite(ctx, doc_no, version.get("version"), None)
        eff = version.get("effective_from")
        figure = ctx.t(f"{next_days}일로 ", f"to {next_days} days ") if next_days else ""
        text += ctx.t(
            f" 다만 {next_cite}{josa(next_cite, '이', '가')} 승인되어 "
            f"{eff}{in_days(ctx, eff)}부터 {figure}바뀔 예정이며, "
            f"아직 시행 전이므로 그 전까지는 {days}일이 적용됩니다.",
            f" An approved {next_cite} changes this {figure}from {eff}{in_days(ctx, eff)}; "
            "it is not in force "
            f"yet, so until then {days} days apply.",
        ) + _record_against(ctx, days, next_days, eff)
    for version in drafts:
        text += ctx.t(
            f" 제{version.get('version')}차 개정안({version.get('status')})은 아직 승인되지 않아 "
            "효력이 없습니다.",
            f" A draft version {version.get('version')} ({version.get('status')}) is not "
            "approved and has no effect.",
        )
    if not approved and not drafts and cue(ctx.turn.question, "upcoming"):
        # '곧 바뀐다던데': asked about a change, and none is in flight for the document
        text += ctx.t(
            f" {doc_no}에 대해 진행 중인 개정은 없어, 바뀔 예정은 확인되지 않습니다.",
            f" No revision of {doc_no} is in progress, so no change is scheduled.",
        )
    return answer(text)


_ASKED_DAYS = re.compile(r"(?<![\d월])(\d{1,3})\s*(?:일|days?\b)")
_RECORD_NAMED = re.compile(r"(?<![a-z])erp(?![a-z])|인사\s?시스템|인사\s?db|\bhr system\b", re.I)


def _record_against(ctx: Ctx, days: int, next_days: int | None, eff: Any) -> str:
    """'ERP에 20일로 돼 있는데 규정이랑 맞아?': the recorded figure the question states set
    beside the rule now and the approved one to come (whether the record must follow)."""
    if not _RECORD_NAMED.search(ctx.turn.question) or not next_days:
        return ""
    stated = [int(m.group(1)) for m in _ASKED_DAYS.finditer(ctx.turn.question)]
    if days not in stated:
        return ""
    return ctx.t(
        f" 질문하신 기록의 {days}일은 지금 시행 중인 규정과 같지만, {eff}부터는 {next_days}일로 "
        "맞춰야 합니다.",
        f" The recorded {days} days match the rule in force now, but from {eff} they must "
        f"become {next_days}.",
    )


_HOW_MANY = ("며칠", "몇 일", "몇일", "몇개", "how many", "how long", "얼마")


def _confirms(ctx: Ctx, days: int) -> bool:
    """The question names the very figure the rule states and asks no number of days."""
    question = ctx.turn.question.lower()
    named = {int(m.group(1)) for m in _ASKED_DAYS.finditer(question)}
    return days in named and not any(w in question for w in _HOW_MANY)


def _leave_or_topic(label: str) -> bool:
    return all(w in TOPIC_WORDS or w in LEAVE_TYPES for w in label.split())


def approved_not_yet(ctx: Ctx, doc_no: str, version: Any) -> dict[str, Any] | None:
    """The pending row when ``version`` of ``doc_no`` is approved but not yet in force."""
    pending = ctx.turn.last("pending_revision")
    if pending is None or pending.failed or pending.data is None:
        return None
    for row in pending.data.get("pending") or []:
        same = str(row.get("doc_no", doc_no)) == doc_no and str(row.get("version")) == str(version)
        if same and row.get("status") == "APPROVED":
            return dict(row)
    return None


def _drafts_note(ctx: Ctx, doc_no: str) -> str:
    """' 제5차 개정안(DRAFT)은 승인되지 않아 효력이 없습니다 (…)': what is only proposed."""
    pending = ctx.turn.last("pending_revision")
    rows = [] if pending is None or pending.failed else (pending.data or {}).get("pending") or []
    notes = [
        ctx.t(
            f" 제{r.get('version')}차 개정안({r.get('status')})은 승인되지 않아 효력이 없습니다"
            + (f" ({r.get('summary')})." if r.get("summary") else "."),
            f" Version {r.get('version')} ({r.get('status')}) is not approved and has no effect"
            + (f" ({r.get('summary')})." if r.get("summary") else "."),
        )
        for r in rows
        if r.get("status") != "APPROVED" and r.get("문서번호", r.get("doc_no", doc_no)) == doc_no
    ]
    return "".join(notes)


def _approved_soon_after(ctx: Ctx, doc_no: str, when: str) -> bool:
    """An approved version not yet in force takes effect within 90 days after ``when``."""
    pending = ctx.turn.last("pending_revision")
    rows = [] if pending is None or pending.failed else (pending.data or {}).get("pending") or []
    for row in rows:
        eff = str(row.get("effective_from") or "")
        if row.get("status") != "APPROVED" or str(row.get("doc_no", doc_no)) != doc_no:
            continue
        try:
            gap = (date.fromisoformat(eff) - date.fromisoformat(when)).days
        except ValueError:
            continue
        if 0 < gap <= 90:
            return True
    return False


def _approved_after(ctx: Ctx, doc_no: str, when: str) -> str:
    """Approved versions taking effect after a day still to come, and the drafts."""
    pending = ctx.turn.last("pending_revision")
    rows = [] if pending is None or pending.failed else (pending.data or {}).get("pending") or []
    notes = [
        ctx.t(
            f" 다만 {r.get('effective_from')}부터는 승인된 제{r.get('version')}차 개정이 "
            f"시행됩니다 ({r.get('summary') or ''}).",
            f" From {r.get('effective_from')}, the approved version {r.get('version')} takes "
            f"effect ({r.get('summary') or ''}).",
        )
        for r in rows
        if r.get("status") == "APPROVED"
        and str(r.get("doc_no", doc_no)) == doc_no
        and str(r.get("effective_from") or "") > when
    ]
    return "".join(notes) + _drafts_note(ctx, doc_no)


def _dated_days(ctx: Ctx, top: dict[str, Any], days: int, citation: str, when: str) -> Blocks:
    """The figure on an asked date: in force then, or — a future date — approved to apply then."""
    doc_no = str(top.get("doc_no"))
    if ctx.turn.last("pending_revision") is None and ctx.has("pending_revision"):
        return call(ctx, "pending_revision", {"doc_no": doc_no})
    label = topic_label(ctx)
    coming = approved_not_yet(ctx, doc_no, top.get("version"))
    if coming is not None:
        return answer(
            ctx.t(
                f"{days}일입니다. {when} 기준으로는 {citation}{josa(citation, '이', '가')} "
                f"적용됩니다: 승인되어 {coming.get('effective_from')}부터 시행될 예정인 개정으로, "
                f"그날부터 {label}{josa(label, '은', '는')} {days}일입니다. 시행 전까지는 현행 "
                "규정의 일수가 적용됩니다.",
                f"{days} days. On {when} {citation} applies: it is approved and takes effect on "
                f"{coming.get('effective_from')}, granting {days} days from that day; until then "
                "the version in force today applies.",
            )
            + _drafts_note(ctx, doc_no)
        )
    texts = " ".join(str(h.get("text")) for h in doc_hits(topic_hits(ctx), doc_no))
    quoted = days_sentence(texts, days)
    quote = f' ("{quoted}")' if quoted else ""
    printed = ""
    figures = re.findall(r"(?<!\d)(\d{1,3})\s*일", without_dates(ctx.turn.question))
    other_figure = any(int(n) != days for n in figures)
    if (_says_printed_date(ctx.turn.question) or other_figure) and ctx.has("describe_regulation"):
        # '규정엔 1월 1일부터 시행이라고 써있던데': a later version printed with a date on or
        # before the one asked, in force only from its approval, is named with both dates
        described = next(
            (c for c in ctx.turn.all("describe_regulation") if c.input.get("doc_no") == doc_no),
            None,
        )
        if described is None:
            return call(ctx, "describe_regulation", {"doc_no": doc_no})
        printed = _printed_before(ctx, described, when)
    today = today_of(ctx)
    soon = _approved_soon_after(ctx, doc_no, when)
    if not today and soon:
        # the platform's today unknown (a dated question, a first turn): no tense is
        # guessed; an approved change shortly after the day asked is said beside it
        said = ctx.t(
            f"{days}일입니다. {when} 기준으로는 {citation}에 따라 "
            f"{label}{josa(label, '은', '는')} {days}일입니다{quote}.",
            f"{days} days. On {when} {citation} applies, which states {days} days{quote}.",
        ) + _approved_after(ctx, doc_no, when)
    elif today and when > today:
        # a day still to come: the version in force today is the one that will be then
        said = ctx.t(
            f"{days}일입니다. {when}에도 {citation}{josa(citation, '이', '가')} 시행 중이므로 "
            f"{label}{josa(label, '은', '는')} {days}일입니다{quote}.",
            f"{days} days. On {when} {citation} will still be in force, "
            f"which states {days} days{quote}.",
        ) + _approved_after(ctx, doc_no, when)
    else:
        said = ctx.t(
            f"{days}일입니다. {when} 기준으로 시행 중이던 {citation}에 따르면 "
            f"{label}{josa(label, '은', '는')} {days}일이었습니다{quote}.",
            f"{days} days. On {when} the version in force was {citation}, "
            f"which stated {days} days{quote}.",
        )
    return answer(said + date_note(ctx, top) + printed)


def _says_printed_date(question: str) -> bool:
    """The question says what a text prints ('부칙엔 1월 1일', '시행이라고 써있던데')."""
    return any(w in question for w in ("써있", "써 있", "적혀", "찍혀", "나와 있", "부칙")) or any(
        w in question.lower() for w in ("printed", "it says")
    )


def _printed_before(ctx: Ctx, described: ToolCall, when: str) -> str:
    """The later version whose printed date is on or before ``when`` but which took
    effect after it, with both dates, or ''."""
    versions = [] if described.failed else (described.data or {}).get("versions") or []
    for v in versions:
        stated, eff = str(v.get("stated_from") or ""), str(v.get("effective_from") or "")
        if v.get("status") == "APPROVED" and stated and eff and stated <= when < eff:
            later = cite(ctx, str(v.get("doc_no")), v.get("version"), eff)
            return ctx.t(
                f" 참고: {later}는 부칙에 {stated}로 적혀 있지만 승인일 {eff}부터 시행되어, "
                f"{when}에는 아직 적용되지 않았습니다.",
                f" Note: {later} prints {stated} but took effect on its approval date {eff}, "
                f"so on {when} it did not apply yet.",
            )
    return ""


_DATE_WORDS = ("시행", "부칙", "효력", "개정", "제정", "승인")


def _names_article(hit: dict[str, Any], words: list[str]) -> bool:
    """A question word is the article's own title ('회계연도'), and not a word of dates."""
    heading = {squash(w) for w in str(hit.get("article_title") or "").split()}
    return any(squash(w) in heading and not w.startswith(_DATE_WORDS) for w in words)


_FIRST = ("처음", "최초", "맨 처음", "제정", "도입", "first version", "originally", "introduced")


EFFECT_QUERY = "사규 효력 발생 승인일 시행일"
"""What the regulations are searched for to find their article on when a rule takes effect."""
_WHY = ("왜", "이유", "달라", "다른", "why", "differ", "reason")


def effect_basis(ctx: Ctx, hit: dict[str, Any]) -> tuple[Blocks | None, str]:
    """Why a printed date is not the date in force: the regulations' own article, cited.

    Asked only when the version's dates differ and the question asks why; the
    article is searched for ('승인일', '시행일' in one text) rather than stated by the
    planner. ``(a search to make, '')`` or ``(None, the sentence)`` ('' when not asked).
    """
    lowered = ctx.turn.question.lower()
    if not hit.get("date_mismatch") or not any(w in lowered for w in _WHY):
        return None, ""
    step, rule = searched_article(ctx, EFFECT_QUERY, ("승인일", "시행일"))
    if step:
        return step, ""
    if rule is None:
        return None, ""
    citation = cite(ctx, str(rule.get("doc_no")), rule.get("version"), rule.get("effective_from"))
    head = f"{rule.get('article_no') or ''} {rule.get('article_title') or ''}".strip()
    return None, ctx.t(
        f' 근거: {citation} {head} "{rule.get("text")}"',
        f' The rule: {citation} {head} "{rule.get("text")}"',
    )


def _version_effective(
    ctx: Ctx, top: dict[str, Any], number: int | None, figure: str | None = None
) -> Blocks:
    """When version ``number`` (None: the first; or the one whose summary states
    ``figure``) took effect, the date it states, what it said."""
    doc_no = str(top.get("doc_no"))
    described = ctx.turn.last("describe_regulation")
    if described is None:
        return call(ctx, "describe_regulation", {"doc_no": doc_no})
    versions = [] if described.failed else (described.data or {}).get("versions") or []
    if not top.get("title") and not described.failed:
        regulation = (described.data or {}).get("regulation") or {}
        top = {**top, "title": regulation.get("title")}
    by_figure = [
        v
        for v in versions
        if figure
        and v.get("status") == "APPROVED"
        and re.search(rf"(?<!\d){figure}", str(v.get("summary") or ""))
    ]
    if by_figure:
        version = by_figure[0]
        number = version.get("version")
    elif figure:
        # no version's summary states it: the version the search found
        number = top.get("version")
        version = next((v for v in versions if str(v.get("version")) == str(number)), None)
    elif number is None:
        dated = [v for v in versions if v.get("effective_from")]
        version = min(dated, key=lambda v: str(v.get("effective_from")), default=None)
        number = version.get("version") if version else None
    else:
        version = next((v for v in versions if str(v.get("version")) == str(number)), None)
    if version is None:
        what = ctx.t(f"{doc_no} 제{number}차", f"{doc_no} version {number}") if number else doc_no
        return answer(not_found(ctx, what))
    eff = version.get("effective_from")
    citation = cite(ctx, doc_no, number, eff)
    summary = str(version.get("summary") or "")
    said = ctx.t(f" 그 버전의 내용: {summary}.", f" That version: {summary}.") if summary else ""
    status = str(version.get("status") or "")
    if status != "APPROVED" or not eff:
        # a rejected or unapproved revision never takes effect, whatever date it prints
        today = today_of(ctx) or "9999-12-31"
        current = max(
            (
                v
                for v in versions
                if v.get("status") == "APPROVED" and str(v.get("effective_from") or "z") <= today
            ),
            key=lambda v: str(v.get("effective_from")),
            default=None,
        )
        now = (
            ctx.t(
                f" 현행은 제{current.get('version')}차 "
                f"(시행 {current.get('effective_from')})입니다.",
                f" The version in force is version {current.get('version')} (effective "
                f"{current.get('effective_from')}).",
            )
            if current
            else ""
        )
        kind = {"REJECTED": ("반려된", "rejected"), "DRAFT": ("승인되지 않은", "unapproved")}.get(
            status, ("승인되지 않은", "unapproved")
        )
        return answer(
            ctx.t(
                f"{titled(top, citation)}{josa(citation, '은', '는')} {kind[0]} "
                f"개정안({status})이라 시행되지 않습니다 (효력이 없습니다).",
                f"{titled(top, citation)} is {'an' if kind[1][0] in 'aeiou' else 'a'} "
                f"{kind[1]} revision ({status}): it has no effect and no date of effect.",
            )
            + said
            + now
        )
    today = today_of(ctx)
    if today and str(eff) > today:
        # approved, still to come: when it will apply, and that until then it does not
        return answer(
            ctx.t(
                f"{titled(top, citation)}{josa(citation, '은', '는')} 승인되었고 "
                f"{eff}{in_days(ctx, eff)}부터 시행됩니다. 그 전까지는 현행 버전이 적용됩니다.",
                f"{titled(top, citation)} is approved and takes effect on "
                f"{eff}{in_days(ctx, eff)}; until then the version in force applies.",
            )
            + said
        )
    step, basis = effect_basis(ctx, {**version, "effective_from": eff})
    if step:
        return step
    return answer(
        ctx.t(
            f"{titled(top, citation)}의 실제 시행일은 승인일인 {eff}입니다.",
            f"{titled(top, citation)} took effect on its approval date, {eff}.",
        )
        + said
        + date_note(ctx, {**version, "effective_from": eff})
        + basis
    )


def plan_effective_date(ctx: Ctx) -> Blocks:
    """When a regulation took effect, disclosing a stated/approved date mismatch."""
    first = ctx.ents.version is None and any(w in ctx.turn.question.lower() for w in _FIRST)
    blocks, hits = searched_topic(ctx, quote_fallback=not first)
    if blocks:
        return blocks
    # ('when did HR-REG-003 version 2 take effect?': of the document numbered, which
    # its versions describe though no article the search found is of it)
    top = next(
        (h for h in hits if h.get("doc_no") in ctx.ents.doc_nos),
        {"doc_no": ctx.ents.doc_nos[0]} if ctx.ents.doc_nos else hits[0],
    )
    if ctx.ents.version is not None:
        return _version_effective(ctx, top, ctx.ents.version)
    if first:
        return _version_effective(ctx, top, None)  # '처음 생겼을 땐 언제부터': the first version
    figure = version_figure(ctx.turn.question)
    if figure:
        return _version_effective(ctx, top, None, figure)  # '20일짜리 판은 언제부터'
    if not (ctx.ents.title_words or ctx.ents.doc_nos or as_of(ctx)):
        # No document named: '부칙의 시행일과 승인일이 다르면 뭘 기준으로 봐?' asks the
        # rule about effective dates, which the article that speaks of them states;
        # '회계연도가 언제부터 언제까지야?' asks what the article titled so says.
        words = content_words(ctx.ents.keywords)
        best = best_articles(
            with_titles(ctx, hits_of(primary_search(ctx))), ctx.ents.keywords, weak=ctx.ents.derived
        )
        if best and (
            article_score(best[0], words) >= _RULE_ABOUT_DATES or _names_article(best[0], words)
        ):
            return quote_articles(ctx, best)
    citation = cite(ctx, str(top.get("doc_no")), top.get("version"), top.get("effective_from"))
    step, basis = effect_basis(ctx, top)
    if step:
        return step
    when = as_of(ctx)
    if when:
        return answer(
            ctx.t(
                f"{when} 기준으로 시행 중이던 {title_of(top)}의 버전은 {citation}이며, "
                f"{top.get('effective_from')}부터 시행되었습니다.",
                f"On {when} the version of {title_of(top)} in force was {citation}; it applied "
                f"from {top.get('effective_from')}.",
            )
            + date_note(ctx, top)
            + basis
        )
    return answer(
        ctx.t(
            f"{title_of(top)}의 현행 버전은 {citation}이며, {top.get('effective_from')}부터 "
            "시행되고 있습니다.",
            f"The version of {title_of(top)} in force is {citation}; it has applied since "
            f"{top.get('effective_from')}.",
        )
        + date_note(ctx, top)
        + basis
    )


def _contact_score(line: str) -> int:
    lowered = line.lower()
    score = sum(w in lowered for w in _CONTACT_WORDS)
    return score + (2 if re.search(r"\d{2,4}-|\*{2,}", line) else 0)


_DEADLINE_ASKED = re.compile(r"언제까지|마감|기한|\bdeadline\b|\bby when\b|\bdue\b", re.I)
_DEADLINE_SAID = re.compile(r"까지|기한|마감|이내|안에")


def _deadline_too(ctx: Ctx, hits: list[dict[str, Any]], contact: dict[str, Any]) -> str:
    """'서류 언제까지 내고 어디로 문의하면 돼요?': the same document's deadline, beside its
    contact, when the question asks both."""
    if not _DEADLINE_ASKED.search(ctx.turn.question):
        return ""
    for hit in hits:
        text = str(hit.get("text") or "")
        if hit is contact or hit.get("doc_no") != contact.get("doc_no"):
            continue
        if _DEADLINE_SAID.search(text):
            return ctx.t(
                f' 기한: {hit.get("article_no") or ""} "{text}"',
                f' Deadline: {hit.get("article_no") or ""} "{text}"',
            )
    return ""


def _contact_lines(ctx: Ctx, hits: list[dict[str, Any]]) -> Blocks:
    # The line that carries a number (or its masked form) is the contact; prefer it.
    ranked = sorted(
        hits,
        key=lambda h: (
            -max((_contact_score(ln) for ln in _LINE.findall(str(h.get("text")))), default=0)
        ),
    )
    for hit in ranked:
        lines = [ln.strip() for ln in _LINE.findall(str(hit.get("text")))]
        found = sorted(
            (ln for ln in lines if _contact_score(ln) > 0), key=_contact_score, reverse=True
        )
        if found:
            citation = cite(
                ctx, str(hit.get("doc_no")), hit.get("version"), hit.get("effective_from")
            )
            quoted = " / ".join(f'"{ln}"' for ln in found[:3])
            return answer(
                ctx.t(
                    f"{titled(hit, citation, '{title} ({citation})')}에 다음과 같이 나와 "
                    f"있습니다: {quoted}. "
                    "표시된 내용은 조회 권한에 따라 가려진(마스킹된) 부분이 있을 수 있습니다.",
                    f"{titled(hit, citation, '{title} ({citation})')} says: {quoted}. "
                    "Parts may be masked "
                    "for your access level.",
                )
                + _deadline_too(ctx, hits, hit)
            )
    return answer(not_found(ctx, topic_label(ctx)))


def _article_numbers(question: str) -> list[str]:
    """Articles named by number, as the rules print them ('article 2' is 제2조)."""
    found = (f"제{m.group(1) or m.group(2)}조" for m in ARTICLE_NO.finditer(question))
    return list(dict.fromkeys(found))


WHOLE_DOCUMENT_LIMIT = 20
"""Search hits asked for when one document's articles are wanted all at once."""


def document_articles(
    ctx: Ctx, doc_no: str, title: str
) -> tuple[Blocks | None, list[dict[str, Any]]]:
    """Every article of one document a search by its title brings (search ranks by
    words, so the title brings the document's own articles): (the step that makes that
    search, []) first, then (None, the document's hits); (None, []) with no title."""
    done = next(
        (
            c
            for c in ctx.turn.all("search_regulations")
            if c.input.get("question") == title and c.input.get("limit")
        ),
        None,
    )
    if done is None:
        if not title:
            return None, []
        args: dict[str, Any] = {"question": title, "limit": WHOLE_DOCUMENT_LIMIT}
        when = as_of(ctx)
        if when:
            args["as_of"] = when
        return call(ctx, "search_regulations", args), []
    if done.failed:
        return None, []
    return None, [h for h in with_titles(ctx, hits_of(done)) if h.get("doc_no") == doc_no]


def _named_articles(ctx: Ctx, hits: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """'HR-GDL-010 제2조': the articles named by number among one document's hits.

    Returns those found and the numbers named that no hit has (to be said so).
    """
    named = _article_numbers(ctx.turn.question)
    found = [h for h in hits if str(h.get("article_no") or "") in named]
    have = {str(h.get("article_no")) for h in found}
    return found, [n for n in named if n not in have]


_SIGNS = {"결재": "승인", "승인": "결재"}


def ranked_articles(ctx: Ctx, hits: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One document's hits, the article the question points at first.

    An article named by number ('제3조') leads; then the articles that mention
    more of the question's words beyond the subject ('수습기간', '지급일').
    """
    named = set(_article_numbers(ctx.turn.question))
    words = content_words(ctx.ents.keywords)
    # the title's words tell documents apart, not the articles inside one
    words = [w for w in words if w not in ctx.ents.title_words] or words
    # who signs is '결재' in one rule and '승인' in another
    words += [_SIGNS[w] for w in words if w in _SIGNS and _SIGNS[w] not in words]

    def score(hit: dict[str, Any]) -> int:
        exact = 100 if str(hit.get("article_no") or "") in named else 0
        return exact + article_score({**hit, "title": ""}, words)

    return sorted(hits, key=score, reverse=True)


def _subject_again(
    ctx: Ctx, search: ToolCall, against: dict[str, Any] | None = None
) -> Blocks | None:
    """Search once more for the subject alone when the other words swamped the search.

    'Is there a limit on gifts from vendors?': the search for both words returned
    vendor articles only, none mentioning gifts. When no hit mentions the subject at
    all, the subject is searched alone and its articles (the question's other words
    kept where they appear) answer; None when that does not apply or finds nothing.
    With ``against`` (the article the plan would quote), the subject's article answers
    only when it meets more of the question than that one.
    """
    words = content_words(ctx.ents.keywords)
    if len(words) < 2 or ctx.ents.title_words or ctx.ents.doc_nos:
        return None
    # The first word no hit mentions ('거래처 … 선물': the search found the partner
    # articles, none about gifts): the subject the other words swamped.
    said = [squash(f"{h.get('article_title')} {h.get('text')}") for h in hits_of(search)]
    missing = [
        w
        for w in words[:3]
        if not any(squash(w) in t for t in said) and not says_where(ctx.turn.question, w)
    ]  # fmt: skip ('협력사에서' says where the gift comes from, not what it is)
    # (English: the Korean words it maps to, and the question for what it asks)
    text = ctx.turn.question if ctx.ko else f"{' '.join(ctx.ents.keywords)} {ctx.turn.question}"
    for subject in [w for w in missing if w not in _PROCESS_ONLY][:2]:
        # ('How is severance pay calculated?': '계산' alone is what is done, no subject;
        # an article that calculates something else answers nothing)
        again = [
            c for c in ctx.turn.all("search_regulations") if c.input.get("question") == subject
        ]  # fmt: skip
        if not again:
            args: dict[str, Any] = {"question": subject}
            if search.input.get("as_of"):
                args["as_of"] = search.input["as_of"]
            return call(ctx, "search_regulations", args)
        order = [subject, *(k for k in ctx.ents.keywords if k != subject)]  # the subject first
        found = hits_about(with_titles(ctx, hits_of(again[0])), order)
        if not found:
            continue
        best = sorted(found, key=lambda h: -article_score(h, words))
        if ctx.ko and misses_subject(ctx.turn.question, best[0], found):
            continue  # '사내 헬스장': the articles on '사내' name no gym
        # (alone, an article must meet two words of a Korean question; an English one
        # maps to few Korean words, and its subject met is enough)
        bar = strength(text, against)[0] + 1 if against is not None else 2 if ctx.ko else 1
        if strength(text, best[0])[0] < bar:
            continue  # no stronger than the plan's article, or meeting one word alone
        return quote_articles(ctx, best[:1])
    return None


_FUNCTION_WORDS = frozenset(
    "is are was were do does did can could should will would the a an there we i you my our "
    "what how when who which where why any have has of for to in on at from with about".split()
)


# Words that give an English question its form: an auxiliary, a question word, a request.
_QUESTION_FORM = frozenset(
    "is are was were do does did can could should will would may must what how when who which "
    "where why tell show list give explain find".split()
)
# Pointers and fillers that name nothing ('그거 뭐더라'): no topic of their own.
_VAGUE_WORDS = frozenset(
    {"그거", "그게", "그것", "이거", "이게", "저거", "저게", "뭐더라", "뭐였지", "뭐였더라"}
    | {"뭐지", "거시기", "아무거나", "뭔가", "그거뭐"}
)
_JAMO_RUN = re.compile(r"[ㄱ-ㅎㅏ-ㅣ]{2,}")
_DOUBLED_WORD = re.compile(r"\b([a-z]+)\s+\1\b")


def _plain_english(question: str) -> bool:
    """An English question in plain words (two function words at least, a question's form,
    no word doubled as in 'the the'), not word salad."""
    lowered = question.lower()
    words = re.findall(r"[a-z]+", lowered)
    return (
        not re.search(r"[가-힣]", question)
        and (
            sum(w in _FUNCTION_WORDS for w in words) >= 2
            # ('Do employees get stock options?': a question's form from its first word)
            or (len(words) >= 3 and words[0] in _QUESTION_FORM and question.rstrip().endswith("?"))
        )
        and any(w in _QUESTION_FORM for w in words)
        and _DOUBLED_WORD.search(lowered) is None
    )


def _names_nothing(ctx: Ctx) -> bool:
    """Keyboard mash or pointers only ('ㅁㄴㅇㄹ ㅋㅋ 그거 뭐더라'): no word names a topic."""
    if ctx.ents.title_words or ctx.ents.doc_nos:
        return False
    topics = [k for k in ctx.ents.keywords if k not in _VAGUE_WORDS]
    if not topics:
        return bool(ctx.ents.keywords) or _JAMO_RUN.search(ctx.turn.question) is not None
    return False


def _speaking(hits: list[dict[str, Any]], words: list[str]) -> list[dict[str, Any]]:
    """The best article and those after it that mention a question word (no bystanders)."""
    if not words or not hits:
        return hits
    return hits[:1] + [h for h in hits[1:] if article_score(h, words) > 0]


def _only_points_back(ctx: Ctx) -> bool:
    """'아까 말한 그거 다시 알려줘': a pointer back and nothing it names of its own."""
    if ctx.ents.title_words or ctx.ents.doc_nos or not points_back(ctx.turn.question):
        return False
    return all(k in POINTING_FILLERS for k in ctx.ents.keywords)


def _numbered_document(ctx: Ctx) -> tuple[Ctx, Blocks | None]:
    """'FIN-GDL-001 숙박비 상한': the numbered document's title joins the search words.

    Search finds articles by their words, not by document number, so the document is
    described once for its title; a number no description returns is nothing to see.
    """
    if not ctx.ents.doc_nos or ctx.ents.title_words or not ctx.has("describe_regulation"):
        return ctx, None
    doc_no = ctx.ents.doc_nos[0]
    described = next(
        (c for c in ctx.turn.all("describe_regulation") if c.input.get("doc_no") == doc_no), None
    )  # (a later description is of another document: one that disagrees, for its tier)
    if described is None:
        return ctx, call(ctx, "describe_regulation", {"doc_no": doc_no})
    reg = (described.data or {}).get("regulation") if not described.failed else None
    if not reg or not reg.get("title"):
        if described.failed and not came_back_empty(described):
            return ctx, answer(failure(ctx, described))
        return ctx, answer(nothing_visible(ctx, doc_no))
    title = str(reg["title"])
    ents = replace(ctx.ents, title=title, title_words=title.split())
    return replace(ctx, ents=ents), None


_HANGUL_WORDS = re.compile(r"[가-힣]{2,}")


def plan_search(ctx: Ctx) -> Blocks:
    """Find the regulation the question is about and quote what it says."""
    if _names_nothing(ctx) or _only_points_back(ctx):
        return answer(not_understood(ctx))
    ctx, step = _numbered_document(ctx)
    if step:
        return step
    names = named_people(ctx.turn.question)
    if names:
        # '차주희 반차 쪼개서 써도 돼?': the person is whom the rule is asked for, no topic
        # of the regulations to search for or to report as not covered
        topic = [k for k in ctx.ents.keywords if not any(n.startswith(k) for n in names)]
        unnamed = re.sub(
            "(?:" + "|".join(map(re.escape, names)) + r")(?:씨|님)?[은는이가의도]?\s*",
            "",
            ctx.turn.question,
        )
        ctx = replace(
            ctx,
            turn=replace(ctx.turn, question=unnamed),
            ents=replace(ctx.ents, keywords=topic),
        )
    if not (ctx.ents.keywords or ctx.ents.title_words or ctx.ents.doc_nos):
        # Nothing in the question names a topic the lexicon knows. The question as
        # written is searched; an article is quoted only when it meets the question's
        # own words as strongly as ``answering`` demands ('규정 개정 요청은 아무나 할 수
        # 있는거야?' is met by 제5조 개정 요청), never whatever ranks first.
        korean = not _plain_english(ctx.turn.question)
        if korean and (
            points_back(ctx.turn.question) or not _HANGUL_WORDS.search(ctx.turn.question)
        ):
            return answer(not_understood(ctx))
        step = first_search(ctx, ctx.turn.question)
        if step:
            return step
        search = primary_search(ctx) or ctx.turn.all("search_regulations")[0]
        if search.failed and not came_back_empty(search):
            return answer(failure(ctx, search))
        if points_back(ctx.turn.question):
            return answer(not_understood(ctx))
        answered = answering(ctx.turn.question, hits_of(search)) if korean else []
        if answered:
            return quote_articles(ctx, answered)
        if korean:
            return answer(not_understood(ctx))
        # 'Is there a dress code?': a plain question on a topic the lexicon does not
        # know, searched; no hit is quoted, so the regulations do not cover it.
        return answer(not_covered(ctx, ctx.turn.question.strip()))
    benefit = BENEFIT_ASKED.search(ctx.turn.question) is not None
    # ('휴대폰 요금 지원돼?' asks a benefit: the phone is its subject, no one to call)
    contact = ASKS_CONTACT.search(ctx.turn.question) is not None and not benefit
    if contact:
        # '연말정산 문의 contact 번호': whom to call is asked, the topic is 연말정산
        topic = [k for k in ctx.ents.keywords if not ASKS_CONTACT.search(k)]
        if topic:
            ctx = replace(ctx, ents=replace(ctx.ents, keywords=topic))
    step = first_search(ctx, f"{search_query(ctx)} 문의처 전화 담당자" if contact else None)
    if step:
        return step
    search = primary_search(ctx) or ctx.turn.all("search_regulations")[0]
    if search.failed:
        return answer(failure(ctx, search))
    hits = topic_hits(ctx)
    if not hits and ctx.ents.title_words:
        step = describe_untitled(ctx, hits_of(search))
        if step:
            return step
    if not hits and as_of(ctx):
        step = _before_first_version(ctx, str(as_of(ctx)))
        if step:
            return step
    if not hits and not contact:
        quoted = article_answer(ctx, search) or _subject_again(ctx, search)
        if quoted:
            return quoted
    if not hits and not contact:
        found = rescue(ctx) or last_look(ctx)
        if found:
            return found
    if not hits and _named_document_unseen(ctx):
        # '인사평가 보정기준 보여줘' (restricted from this persona): a document named by its
        # title that no search shows; whether it is withheld or does not exist, it is
        # nothing this person may see, and is not said to be a topic left uncovered.
        named = ctx.ents.title or _EN_DOCUMENT_NAME.search(ctx.turn.question)
        what = named if isinstance(named, str) else named.group(0) if named else ""
        return answer(nothing_visible(ctx, what or " ".join(ctx.ents.title_words)))
    if not hits:
        return answer(honest_miss(ctx, _asked_label(ctx), search))
    if contact:
        return _contact_lines(ctx, hits)
    # The article that speaks most to the question's words picks the document; the
    # topic filter's order only breaks ties (retrieval decides, not the first word).
    scope = scope_qualifier(ctx)
    # A scope word ('해외') qualifies the question; it is not what the article is about.
    words = [w for w in content_words(ctx.ents.keywords) if w != scope]
    top = max(hits, key=lambda h: article_score(h, words)) if words else hits[0]
    doc_no = str(top.get("doc_no"))
    if scope and scope not in str(top.get("text")):
        # 'daily allowance for overseas trips': the document's own scope decides; a
        # domestic rule is not stated for abroad. Where it says what it applies to is
        # searched for once when the first search did not bring it.
        every = [h for c in ctx.turn.all("search_regulations") for h in hits_of(c)]
        scoped = out_of_scope(ctx, doc_hits(with_titles(ctx, every), doc_no))
        if scoped:
            return scope_answer(ctx, scoped)
        if len(ctx.turn.all("search_regulations")) < 2:
            query = f"{title_of(top)} {scope} 적용 범위"
            return call(ctx, "search_regulations", {"question": query})
    citation = cite(ctx, doc_no, top.get("version"), top.get("effective_from"))
    quoted = _speaking(ranked_articles(ctx, doc_hits(hits, doc_no))[:3], words)
    numbered, missing = _named_articles(ctx, doc_hits(hits, doc_no))
    if missing:
        # 'What does Article 5 of HR-REG-002 say?': search ranks articles by words, not
        # number, so the document's whole text is asked for once (by its title, every
        # hit it allows) and the article named looked for among them
        step, whole = document_articles(ctx, doc_no, str(top.get("title") or ""))
        if step:
            return step
        numbered, missing = _named_articles(ctx, whole)
    quoted = numbered or quoted
    articles = [
        f"- {h.get('article_no') or ''} {h.get('article_title') or ''}: {h.get('text')}".strip()
        for h in quoted
    ]
    body = "\n".join(articles)
    title = top.get("title")
    english = f"{title} — relevant articles of {citation}" if title else f"Articles of {citation}"
    caveat = (
        ""
        if numbered
        else _no_amount(ctx, quoted) or _unaddressed(ctx, top, hits_of(search), words)
    )
    if caveat:
        # A word no article found speaks of may be the subject the others swamped
        # ('거래처 … 선물'): searched alone first. (An amount the article does not state
        # is no word unmet: '자가용 유류비 얼마?' is 제5조, which sets no figure.)
        unmet = not (_no_amount(ctx, quoted) and _matched(quoted[0] if quoted else top, words) > 1)
        again = _subject_again(ctx, search, against=quoted[0] if quoted else top) if unmet else None
        if again:
            return again
        every = [h for c in ctx.turn.all("search_regulations") for h in hits_of(c)]
        absent = unnamed_nouns([w for w in words if w not in ctx.ents.derived], every)
        against = quoted[0] if quoted else top
        met = [
            w
            for w in words
            if _matched(against, [w])
            and w not in _GENERIC_MET
            and not (benefit and ASKS_CONTACT.search(w))
        ]
        if (
            ctx.ko
            and absent
            and not _specific_title(ctx)
            and not answering(ctx.turn.question, [against])
            and not any(w in TOPIC_WORDS or w in LEAVE_TYPES for w in met)
        ):
            # '사무실 흡연구역 관련 규정': the office rules are found, but no article found
            # speaks of smoking areas at all; quoting them would answer something else.
            return answer(honest_miss(ctx, absent[0], search))
        unheard = [w for w in words if not any(_matched(h, [w]) for h in every)]
        unheard += _unknown_english(ctx)
        pays = any(_PAYING.search(str(h.get("text") or "")) for h in quoted or [top])
        unpaid = [
            w
            for w in words
            if not _matched(against, [w]) and w not in _GENERIC_MET and not ASKS_CONTACT.search(w)
        ] + _unknown_english(ctx)
        if benefit and unpaid and not pays and not (ctx.ents.title or ctx.ents.doc_nos):
            # 'does the company pay my home internet bill on remote days?': the remote-work
            # articles found say nothing of paying for anything; the bill is the subject
            return answer(honest_miss(ctx, unpaid[0], search))
        if unheard and not met and not _specific_title(ctx):
            # 'does the company pay for parking?': the article found meets no word asked
            # but a general one ('지급'); the subject is in no article at all
            return answer(honest_miss(ctx, unheard[0], search))
    # The article the topic words found, checked against the question as written: an
    # article sharing more of it answers instead (the words may have missed its point).
    # (an article named by number is the one asked for: no other replaces it)
    found = None if numbered else rescue(ctx, against=quoted[0] if quoted else top)
    if not found and caveat and not numbered:
        found = last_look(ctx)  # what was asked is in no article quoted: restricted, or a draft
    if found:
        return found
    if asks_comparison(ctx.turn.question):
        step = compared(ctx, quoted or [top], search_query(ctx))
        if step:
            return step
    if (
        ctx.ko
        and not ctx.ents.title_words
        and misses_subject(
            ctx.turn.question,
            quoted[0] if quoted else top,
            [h for c in ctx.turn.all("search_regulations") for h in hits_of(c)],
        )
    ):
        # '법인차량 개인 용도': the article found speaks of the card, not the car.
        return answer(honest_miss(ctx, _asked_label(ctx), search))
    step, conflict = conflict_note(ctx, quoted[0] if quoted else top, quoted)
    if step:
        return step
    if missing:
        caveat += ctx.t(
            f"검색된 {doc_no} 조항 중에 {', '.join(missing)}는 없었습니다. 찾은 조항만 옮깁니다. ",
            f"{', '.join(missing)} of {doc_no} was not among the articles found; "
            "quoting those that were. ",
        )
    return answer(
        (_no_rate(ctx, quoted) or ("" if _no_amount(ctx, quoted) else _no_limit(ctx, quoted)))
        + caveat
        + ctx.t(
            f"{titled(top, citation, '{title} — {citation}')}의 관련 조항입니다.\n{body}",
            f"{english}:\n{body}",
        )
        + against_limit(ctx, quoted)
        + share_of(ctx, quoted)
        + date_note(ctx, top)
        + conflict
        + _restricted_note(ctx, quoted)
        + _times_count(ctx, quoted)
    )


_PER_UNIT = re.compile(r"1(일|박|회)당\s*([0-9][0-9,]*)원")
_COUNT_ASKED = re.compile(
    r"(?<![0-9월.])([1-9][0-9]?)[\s-]?(일|박|회|days?|nights?|times)(?!당)(?![a-z])", re.I
)
_UNIT_EN = {"day": "일", "days": "일", "night": "박", "nights": "박", "times": "회"}
_UNIT_KO_EN = {"일": "day", "박": "night", "회": "time"}


def _times_count(ctx: Ctx, quoted: list[dict[str, Any]]) -> str:
    """'일비 하루 얼마? 3일 출장이면 total은?': a rate per day (night, time) that an
    article quoted states, multiplied out for the count the question names."""
    rates = {
        (m.group(1), m.group(2)) for h in quoted for m in _PER_UNIT.finditer(str(h.get("text")))
    }
    # ('3박 4일 출장 일비는?': the count in the rate's own unit, the days, not the nights)
    for asked in _COUNT_ASKED.finditer(ctx.turn.question):
        count, unit = int(asked.group(1)), _UNIT_EN.get(asked.group(2).lower(), asked.group(2))
        if len({r for u, r in rates if u == unit}) > 1:
            return (
                ""  # '서울 1박당 100,000원, 광역시 1박당 90,000원': which one is not ours to pick
            )
        for hit in quoted:
            rate = _PER_UNIT.search(str(hit.get("text")))
            if rate and rate.group(1) == unit:
                per = int(rate.group(2).replace(",", ""))
                return ctx.t(
                    f"\n{count}{unit}이면 {per:,}원 × {count} = {per * count:,}원입니다.",
                    f"\nFor {count} {_UNIT_KO_EN[unit]}{'s' if count > 1 else ''}: "
                    f"{per:,} × {count} = {per * count:,} won.",
                )
    return ""


def _named_document_unseen(ctx: Ctx) -> bool:
    """The question names a document by a whole title ('인사평가 보정기준', '징계양정기준':
    a word glued to its title suffix), and no search of this turn found one titled so."""
    words = ctx.ents.title_words
    every = [h for c in ctx.turn.all("search_regulations") for h in hits_of(c)]
    if words and ctx.ents.lang == "en" and _EN_DOCUMENT_WORD.search(ctx.turn.question):
        # 'the disciplinary sanction guideline': an English name of a title
        return not hits_titled(with_titles(ctx, every), words)
    if not words or not ctx.ents.title or ctx.ents.lang != "ko":
        return False
    last = words[-1]
    suffix = next((x for x in TITLE_SUFFIXES if last.endswith(x)), "")
    if not suffix or len(last) <= len(suffix):
        return False  # '이용 규정': a bare suffix names a topic as often as a title
    return not hits_titled(with_titles(ctx, every), words)


_EN_DOCUMENT_WORD = re.compile(r"\b(?:guidelines?|standards?|regulations?)\b", re.I)
_EN_DOCUMENT_NAME = re.compile(
    r"(?:\b[a-z-]+\s+){1,3}(?:guidelines?|standards?|regulations?)\b", re.I
)
"""'the disciplinary sanction guideline' as written (up to three words before its kind)."""


def _restricted_note(ctx: Ctx, quoted: list[dict[str, Any]]) -> str:
    """An article quoted says its details are kept restricted ('그 기준은 대외비로
    관리한다'): the answer says so, rather than let the quote stand for the details."""
    if not any(_RESTRICTED_MARK.search(str(h.get("text"))) for h in quoted):
        return ""
    return ctx.t(
        "\n\n참고: 이 조항이 말하는 세부 기준은 대외비로 관리되어, 열람 권한이 없으면 "
        "볼 수 없습니다.",
        "\n\nNote: the detailed standards this article refers to are kept restricted (대외비); "
        "they are not available to you without that clearance.",
    )


_EN_PLAIN = frozenset(
    "worth accept receive send sent gave give given offer offered happens happen falls fall paid "
    "standard normal usual hours hour week weeks weekly daily monthly yearly month months "
    "expense expenses much many days need does have would about there their company please "
    "tell know want like this that with from what when which where should could take make "
    "allowed allow rule rules policy policies regulation regulations guideline guidelines "
    "long soon often every each other also into after before over under them they your "
    "yours mine being been were will shall must just only some more most than then again "
    "okay fine right wrong here work working get getting give given maximum minimum "
    "employee employees staff people person week weeks month months year years time times "
    "allowance limit amount number total january february march april june july august "
    "september october november december say end start beginning "
    # how a question compares or dates what it asks ('threshold now vs before')
    "threshold thresholds cutoff different differ difference same changed change changes "
    "current currently today early late earlier later previous previously versus back ago "
    "since until used required require requirement level levels "
    # what a person says around a question ('Quick one - …', 'just wondering')
    "quick question wondering curious hey hello thanks actually basically".split()
)


def _unknown_english(ctx: Ctx) -> list[str]:
    """English words of the question the lexicon did not map ('taxi ride'), in order."""
    if ctx.ko:
        return []
    lowered = ctx.turn.question.lower()
    known = {t for phrase in EN_TO_KO for t in phrase.split() if phrase in lowered}
    words = re.findall(r"[a-z]{4,}", lowered)
    plain = _EN_PLAIN | EN_COMMON | STOPWORDS
    return [
        w
        for w in dict.fromkeys(words)
        if w not in plain and w not in known and w.removesuffix("s") not in known | plain
    ][:3]


def _matched(hit: dict[str, Any], words: list[str]) -> int:
    return article_matches(hit, words)


# An amount asked for ('얼마야', '얼마 나와'); '얼마나 자주' asks how often, not how much.
_AMOUNT_ASKED = (
    "얼마야",
    "얼마까지",
    "얼마 나",
    "얼마예",
    "얼마에요",
    "얼마인",
    "얼마지",
    "얼마를",
    "얼마씩",
    "얼마 받",
    "얼마 줘",
    "얼마가",
    "얼마 쳐",
    "얼마 인정",
    "얼마 지원",
    "얼마 지급",
    "얼마나 나",
    "얼마나 받",
    "금액",
    "how much",
    "what amount",
)
_AMOUNT_STATED = re.compile(
    r"\d[\d,]*+\s*+(?:원|만원|만\s*원|won|만\s*포인트|포인트)|\d++\s*+(?:퍼센트|%)"
)


_QUANTITY_STATED = re.compile(r"\d+\s*(?:시간|일|회|개월|주|년|명|퍼센트|%)")


_RATE_ASKED = re.compile(
    r"몇\s?배|배율|가산율|할증|몇\s?퍼센트|몇\s?%|\bhow many times\b|\bwhat rate\b|\bmultiplier\b",
    re.I,
)
_RATE_STATED = re.compile(r"(?<![\d.])\d++(?:\.\d++)?\s*+(?:배|퍼센트|%)|할증|가산율")


def _no_rate(ctx: Ctx, quoted: list[dict[str, Any]]) -> str:
    """A rate asked for ('연장근로수당 몇배로 쳐줌?') that no quoted article states: said
    first (the articles are still what the regulations say on the subject)."""
    if not _RATE_ASKED.search(ctx.turn.question):
        return ""
    if any(_RATE_STATED.search(str(h.get("text"))) for h in quoted):
        return ""
    return ctx.t(
        "규정에 배율(가산율)이 적혀 있지 않아 몇 배인지는 찾을 수 없습니다. ",
        "The regulations found state no rate for this, so I cannot give one. ",
    )


_LIMIT_ASKED = re.compile(r"한도|상한|\blimit\b|\bcap\b|\bceiling\b|\bmaximum\b|\bmax\b", re.I)


def _no_limit(ctx: Ctx, quoted: list[dict[str, Any]]) -> str:
    """A limit asked for ('법카 월 한도 얼마야?') that no quoted article states (no amount
    or quantity in any of them): said first."""
    if not _LIMIT_ASKED.search(ctx.turn.question) or not quoted:
        return ""
    texts = [str(h.get("text")) for h in quoted]
    if any(_AMOUNT_STATED.search(t) or _QUANTITY_STATED.search(t) for t in texts):
        return ""
    return ctx.t(
        "규정에 한도(금액이나 횟수)가 적혀 있지 않아 한도는 찾을 수 없습니다. ",
        "The regulations found set no limit for this, so I cannot give one. ",
    )


def _no_amount(ctx: Ctx, quoted: list[dict[str, Any]]) -> str:
    """An amount asked for ('경조금 얼마 나와?') that no quoted article states: said first."""
    lowered = ctx.turn.question.lower().replace("초과 금액", " ")  # the excess is no sum asked
    if not any(w in lowered for w in _AMOUNT_ASKED):
        return ""
    if any(_AMOUNT_STATED.search(str(h.get("text"))) for h in quoted):
        return ""
    if any(_QUANTITY_STATED.search(str(h.get("text"))) for h in quoted) and not re.search(
        r"얼마|금액|\bcost\b|\bwon\b|\bpay\b|\bmoney\b", lowered
    ):
        return ""  # 'how much OT per week': hours asked, and stated ('1주 12시간')
    if re.search(r"기간|동안|\bhow long\b|\bperiod\b", lowered) and any(
        _QUANTITY_STATED.search(str(h.get("text"))) for h in quoted
    ):
        return ""  # '수습 기간은 얼마예요?': how long, and stated ('2개월의 수습 기간')
    return ctx.t(
        "규정에 금액이 적혀 있지 않아 얼마인지는 찾을 수 없습니다. ",
        "The regulations found state no amount for this, so I cannot find a figure. ",
    )


_VERB_FORM = re.compile(r"(?:는|됨|음|함|요|까|던거|된거|한거|는중|뭐뭐)$")
"""Korean word endings of a verb or a filler ('받아도됨', '쓰는중'), never a topic asked."""
_NOT_NOUN_ENDINGS = ("ing", "ory", "ed", "ly", "ive", "able", "ible", "ful", "ous", "al")
"""English endings of words that are seldom the subject asked about (adjectives, verbs)."""
_ASKED_KIND_WORDS = frozenset("한도 상한 금액 기한 마감 기간 limit cap amount deadline".split())


def _unaddressed(
    ctx: Ctx, top: dict[str, Any], every: list[dict[str, Any]], words: list[str]
) -> str:
    """Say which asked words no article speaks of, when the article quoted has the subject only.

    '법인카드 한도 얼마야?': the card's articles are found, but none states a limit. The
    articles are still quoted (they are what the regulations say on the subject) after
    an honest sentence that what was asked for is not in them.
    """
    unknown = _unknown_english(ctx)
    if len(words) + len(unknown) < 2 or _matched(top, words) > 1:
        return ""
    # '한도 얼마에요?' answered by '3만원 이하': the amount asked for is stated
    stated = states_asked(ctx.turn.question, str(top.get("text") or ""))
    missing = [
        w
        for w in words
        if w not in ctx.ents.derived
        and not _VERB_FORM.search(w)  # '받아도됨', '쓰는': how one asks, no topic
        and w not in PERIOD_WORDS
        and not (stated and w in _ASKED_KIND_WORDS)
        and not any(_matched(h, [w]) for h in every)
    ]
    if not missing and _matched(top, words):
        # 'Is code review mandatory before merging?': the article meets the subject; an
        # English word the lexicon does not know that reads as no noun ('mandatory',
        # 'merging') is no topic left unmet ('Can I expense a taxi ride?' still names taxi)
        unknown = [w for w in unknown if not w.endswith(_NOT_NOUN_ENDINGS)]
    missing += unknown
    if not missing:
        return ""
    asked = " ".join(missing)
    return ctx.t(
        f"조회된 규정에서 '{asked}'에 대한 내용은 찾을 수 없습니다. ",
        f"I could not find anything on '{asked}' in the regulations found. ",
    )


def mentions(text: str, words: list[str]) -> bool:
    """True when the text mentions every word (spacing ignored)."""
    hay = squash(text)
    return all(squash(w) in hay for w in words)


def plan_article_added(ctx: Ctx) -> Blocks:
    """When an article came into its document: the first version whose summary names it
    as added, from the document's history; the article itself as it reads now."""
    blocks, hits = searched_topic(ctx, quote_fallback=True)
    if blocks:
        return blocks
    top = hits[0]
    doc_no = str(top.get("doc_no"))
    described = [c for c in ctx.turn.all("describe_regulation") if c.input.get("doc_no") == doc_no]
    if not described and ctx.has("describe_regulation"):
        return call(ctx, "describe_regulation", {"doc_no": doc_no})
    versions = (described[0].data or {}).get("versions") or [] if described else []
    heading = squash(str(top.get("article_title") or ""))
    title = squash(title_of(top))
    words = [w for w in content_words(ctx.ents.keywords) if squash(w) not in title]
    for version in sorted(
        (v for v in versions if isinstance(v, dict)), key=lambda v: int(v.get("version") or 0)
    ):
        summary = squash(str(version.get("summary") or ""))
        if (heading and heading in summary) or (words and all(squash(w) in summary for w in words)):
            citation = cite(ctx, doc_no, version.get("version"), version.get("effective_from"))
            article = f"{top.get('article_no') or ''} {top.get('article_title') or ''}".strip()
            return answer(
                ctx.t(
                    f"{article}{josa(article, '은', '는')} {titled(top, citation)}에서 생겼습니다 "
                    f"(요지: {version.get('summary')}). 그 전 판에는 이 조항이 없었습니다. "
                    f'지금 내용: "{top.get("text")}"',
                    f"{article} came in with {titled(top, citation)} (summary: "
                    f"{version.get('summary')}); the versions before it do not have it. It reads: "
                    f'"{top.get("text")}"',
                )
            )
    return quote_articles(ctx, hits[:3])


def plan_coming_change(ctx: Ctx) -> Blocks:
    """What an approved revision still to come changes ('24일부터 정확히 뭐가 바뀌어?'):
    when it takes effect, its summary, and each article it words otherwise, now beside
    then; the drafts that have no effect."""
    blocks, hits = searched_topic(ctx, quote_fallback=True)
    if blocks:
        return blocks
    top = next((h for h in hits if h.get("doc_no") in ctx.ents.doc_nos), hits[0])
    doc_no = str(top.get("doc_no"))
    if ctx.turn.last("pending_revision") is None and ctx.has("pending_revision"):
        return call(ctx, "pending_revision", {"doc_no": doc_no})
    # (the platform lists an approved revision as pending only until it takes effect)
    approved, _ = _upcoming(ctx, doc_no, "")
    if not approved:
        return answer(
            ctx.t(
                f"{title_of(top)}({doc_no})에 승인되어 시행을 기다리는 개정은 없습니다.",
                f"No approved revision of {title_of(top)} ({doc_no}) is waiting to take effect.",
            )
            + _drafts_note(ctx, doc_no)
        )
    coming = approved[0]
    eff = str(coming.get("effective_from"))
    query = f"{title_of(top)} {coming.get('summary') or ''}"
    searched = {
        (c.input.get("question"), c.input.get("as_of")): c
        for c in ctx.turn.all("search_regulations")
    }
    for as_of in (None, eff):
        if (query, as_of) not in searched:
            args = {"question": query, **({"as_of": as_of} if as_of else {})}
            return call(ctx, "search_regulations", args)
    now_by_head = {
        str(h.get("article_title")): h for h in doc_hits(hits_of(searched[(query, None)]), doc_no)
    }
    lines = []
    for hit in doc_hits(hits_of(searched[(query, eff)]), doc_no):
        head = str(hit.get("article_title") or "")
        before = now_by_head.get(head)
        if str(hit.get("article_no") or "").startswith("부칙") or before is None:
            continue  # (the addendum's own date is no change of a rule)
        if squash(str(before.get("text"))) != squash(str(hit.get("text"))):
            lines.append(
                ctx.t(
                    f'- {hit.get("article_no") or ""} {head}: 지금 "{before.get("text")}" → '
                    f'{eff}부터 "{hit.get("text")}"',
                    f'- {hit.get("article_no") or ""} {head}: now "{before.get("text")}" → '
                    f'from {eff} "{hit.get("text")}"',
                )
            )
    citation = cite(ctx, doc_no, coming.get("version"), eff)
    lead = ctx.t(
        f"{titled(top, citation)}{josa(citation, '이', '가')} 승인되어 {eff}{in_days(ctx, eff)}"
        f"부터 시행됩니다 (요지: {coming.get('summary') or ''}). 그 전까지는 현행 버전이 "
        "적용됩니다.",
        f"{titled(top, citation)} is approved and takes effect on {eff}{in_days(ctx, eff)} "
        f"(summary: {coming.get('summary') or ''}); until then the version in force applies.",
    )
    changed = (
        ctx.t("\n바뀌는 조항:\n", "\nArticles that change:\n") + "\n".join(lines) if lines else ""
    )
    return answer(lead + changed + _drafts_note(ctx, doc_no))
