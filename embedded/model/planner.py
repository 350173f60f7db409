"""The deterministic planner: from the conversation so far to the next reply.

Stateless per request. It reads the question and the tool results of this turn,
picks an intent, and the intent's plan either asks for the next tool call or
composes the answer from the tool results alone.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from embedded.model import (
    plans_docs,
    plans_hr,
    plans_money,
    plans_parents,
    plans_people,
    plans_roster,
    plans_rules,
)
from embedded.model.compose import (
    Blocks,
    Ctx,
    answer,
    call,
    cite,
    hits_of,
    not_understood,
    squash,
    today_in,
)
from embedded.model.conversation import Turn, read_turn
from embedded.model.departments import department_carried
from embedded.model.entities import HEARD, correct_english, date_phrase, extract, read_phrases
from embedded.model.evidence import beyond_the_tools, chatter, says_where
from embedded.model.followups import CONFLICT_NOTED, resolve_followup
from embedded.model.intents import (
    DOCUMENT_INTENTS,
    clear_intent_cache,
    detect_intent,
    split_amounts,
    split_dates,
    split_parts,
)
from embedded.model.lexicon import LEAVE_TYPES
from embedded.model.people import asker_name, clear_name_cache, named_people

if TYPE_CHECKING:
    from collections.abc import Callable

    from embedded.model.conversation import ToolCall
    from embedded.model.entities import Entities
    from embedded.model.wire import MessagesRequest

PLANS: dict[str, Callable[[Ctx], Blocks]] = {
    "literal_sql": plans_hr.plan_literal_sql,
    "revision_request": plans_docs.plan_revision_request,
    "roster": plans_roster.plan_roster,
    "contact": plans_people.plan_contact,
    "person_field": plans_people.plan_person_field,
    "national_id": plans_hr.plan_national_id,
    "parent_conflicts": plans_parents.plan_parent_conflicts,
    "impact": plans_docs.plan_impact,
    "derived": plans_docs.plan_derived,
    "related": plans_docs.plan_related,
    "authority": plans_docs.plan_authority,
    "pending_list": plans_docs.plan_pending_list,
    "pending_status": plans_docs.plan_pending_status,
    "precedence": plans_docs.plan_precedence,
    "revision_how": plans_docs.plan_revision_how,
    "article_added": plans_rules.plan_article_added,
    "coming_change": plans_rules.plan_coming_change,
    "describe": plans_docs.plan_describe,
    "in_force_version": plans_docs.plan_in_force_version,
    "purchase_orders": plans_money.plan_purchase_orders,
    "ceiling": plans_money.plan_ceiling,
    "expense": plans_money.plan_expense,
    "usage": plans_hr.plan_usage,
    "remaining": plans_hr.plan_remaining,
    "effective_date": plans_rules.plan_effective_date,
    "rule_days": plans_rules.plan_rule_days,
    "search": plans_rules.plan_search,
}

_MAX_ROUNDS = 12
MAX_QUESTION_CHARS = 2000
"""Longest question the planner reads; a longer one is answered with a request to shorten it."""
_PEOPLE_INTENTS = frozenset({"usage", "remaining"})


def _too_long(question: str) -> Blocks:
    korean = sum("가" <= ch <= "힣" for ch in question[:MAX_QUESTION_CHARS]) > 10
    limit = f"{MAX_QUESTION_CHARS:,}"
    if korean:
        return answer(
            f"질문이 너무 깁니다 ({len(question):,}자). 이 오프라인 플래너는 {limit}자까지 "
            "읽습니다. 질문을 줄여서 다시 물어봐 주세요."
        )
    return answer(
        f"The question is too long ({len(question):,} characters); this offline planner reads "
        f"up to {limit}. Please ask a shorter question."
    )


def plan_reply(request: MessagesRequest) -> list[dict[str, Any]]:
    """Return the reply content blocks for a Messages request.

    A question of several parts ('잔여일수랑, 숙박비 청구가 한도 안인지') is answered
    part by part: each part is planned on the tool calls made for it, in order.

    Args:
        request: The validated request.

    Returns:
        Text and tool_use blocks.
    """
    extract.cache_clear()  # per request: see entities.extract
    clear_name_cache()  # (the same for the names a question holds)
    date_phrase.cache_clear()  # (and its dates)
    clear_intent_cache()  # (and the intents found)
    turn = read_turn(request.messages)
    if len(turn.question) > MAX_QUESTION_CHARS:
        return _too_long(turn.question)
    # the question as the regulations would word it: every check below reads the same text
    turn = replace(turn, question=read_phrases(correct_english(turn.question)))
    # '그럼 부산은?': a follow-up is read as the question it continues
    turn = replace(turn, question=resolve_followup(turn.question, turn.earlier))
    by_kind, kinds = _per_leave_type(turn.question)
    if by_kind:
        return _plan_parts(request, turn, by_kind, summed=_asks_sum(turn.question), labels=kinds)
    by_amount, amounts = split_amounts(turn.question)
    if by_amount:
        return _plan_parts(request, turn, by_amount, labels=amounts)
    by_date, dates = split_dates(turn.question)
    if by_date:
        return _plan_parts(request, turn, by_date, labels=dates)
    parts = split_parts(turn.question)
    if len(parts) > 1:
        return _plan_parts(request, turn, parts)
    if parts and parts[0] != turn.question:
        turn = replace(turn, question=parts[0])  # (a statement after it dropped)
    return _plan_one(request, turn)


_SUM_WORDS = ("합치", "합하", "합계", "총 ", "모두 합", "in total", "combined", "altogether", "sum")
_LEFT = re.compile(r"남은 일수는 (\d{1,3})일|(\d{1,3}) days left")


def _asks_sum(question: str) -> bool:
    lowered = f" {question.lower()} "
    return any(w in lowered for w in _SUM_WORDS)


def _per_leave_type(question: str) -> tuple[list[str], list[str]]:
    """'육휴랑 연차 각각 몇일 남았어': one part per leave type named (and the types), or [].

    Days left are reckoned per leave type (each has its own rule and grant), so a
    question naming two types is asked once for each, the other type's words left out.
    """
    lowered = question.lower()
    kinds: list[str] = []
    for word, kind in LEAVE_TYPES.items():
        if word in lowered and kind not in kinds:
            kinds.append(kind)
    if len(kinds) != 2:
        return [], []
    if detect_intent(question, extract(question)) not in _PEOPLE_INTENTS:
        return [], []
    parts = []
    for kind in kinds:
        text = question
        others = [w for w, k in LEAVE_TYPES.items() if k != kind and w in lowered]
        for word in sorted(others, key=len, reverse=True):
            text = re.sub(re.escape(word), " ", text, flags=re.I)
        parts.append(" ".join(text.split()))
    return parts, kinds


def _plan_one(request: MessagesRequest, turn: Turn, lang: str | None = None) -> Blocks:
    ents = extract(turn.question)
    if lang:
        ents = replace(ents, lang=lang)
    ents = _read_again(turn, ents)
    intent = detect_intent(turn.question, ents)
    if intent in _PEOPLE_INTENTS:
        # A person's name is whom the question is about, not the topic of the rule.
        names = set(named_people(turn.question))
        ents = replace(ents, keywords=[k for k in ents.keywords if k not in names])
    ctx = Ctx(
        turn=turn,
        ents=ents,
        tools=frozenset(request.tool_names()),
        asker=asker_name(request.system),
        today=today_in(request.system),
    )
    if not turn.question:
        return answer(ctx.t("질문을 찾을 수 없습니다.", "I could not find a question."))
    if chatter(turn.question) or (intent != "revision_request" and beyond_the_tools(turn.question)):
        # 'ㅋㅋㅋ 헐 대박': nothing to look up; '괜찮은 규정이라고 생각함?', '연차 신청 넣어줘':
        # an opinion, or a task no tool does
        return answer(not_understood(ctx))
    minutes, planned = _minutes_apart(ctx)
    blocks = PLANS[intent](planned)
    if _heard_at_a_meeting(ctx) and all(b["type"] == "text" for b in blocks):
        blocks = _with_minutes_note(ctx, blocks, minutes)
    if turn.round >= _MAX_ROUNDS and any(b["type"] == "tool_use" for b in blocks):
        return answer(
            ctx.t(
                "도구 호출이 너무 많아 여기서 멈춥니다. 확인할 수 없습니다.",
                "Too many tool calls; stopping here without an answer.",
            )
        )
    return blocks


# ── What minutes count for ────────────────────────────────────────────────────
# '노사협의회에서 40일로 늘린다고 했다던데 official이야?': whatever the plan answers (the
# rule in force, the revisions in flight), a figure heard at a meeting is checked against
# what the rules say minutes are. The search for that is the planner's own: the plan is
# run on the turn without it, so no plan ever reads it as its topic's search.
MINUTES_QUERY = "회의록 사규 아님 업무 근거 인용"
_MEETING_WORDS = re.compile(
    r"회의|위원회|협의회|심의위|\bminutes\b|\bmeeting\b|\bcommittee\b", re.I
)


def _heard_at_a_meeting(ctx: Ctx) -> bool:
    return bool(HEARD.search(ctx.turn.question) and _MEETING_WORDS.search(ctx.turn.question))


def _minutes_apart(ctx: Ctx) -> tuple[ToolCall | None, Ctx]:
    """The planner's minutes search (if made) and the context without it."""
    ours = [
        c
        for c in ctx.turn.calls
        if c.name == "search_regulations" and c.input.get("question") == MINUTES_QUERY
    ]
    if not ours:
        return None, ctx
    rest = [c for c in ctx.turn.calls if c not in ours]
    return ours[-1], replace(ctx, turn=replace(ctx.turn, calls=rest))


def _with_minutes_note(ctx: Ctx, blocks: Blocks, minutes: ToolCall | None) -> Blocks:
    text = "".join(str(b.get("text") or "") for b in blocks)
    if "회의록은" in text or "Meeting minutes" in text:
        return blocks  # the plan said it already (the lodging cap's rumour check does)
    if minutes is None:
        return call(ctx, "search_regulations", {"question": MINUTES_QUERY})
    for hit in hits_of(minutes):
        body = str(hit.get("text") or "")
        if "회의록" in body and "인용" in body:
            citation = cite(
                ctx, str(hit.get("doc_no")), hit.get("version"), hit.get("effective_from")
            )
            return answer(
                text
                + ctx.t(
                    f"\n회의에서 나온 이야기는 규정이 아닙니다: {citation} "
                    f'{hit.get("article_no") or ""} "{body}"',
                    f"\nWhat was said at a meeting is no rule: {citation} "
                    f'{hit.get("article_no") or ""} "{body}"',
                )
            )
    return blocks


def _read_again(turn: Turn, ents: Entities) -> Entities:
    """The entities corrected by what this turn's searches found and where words stand."""
    if ents.title_words[-1:] in _BARE_SUFFIXES and _no_such_title(turn, ents.title_words):
        # '승인 기준', '육아휴직 규정' read as a document's title ('구매 결재 기준' is one),
        # yet no document the searches found is titled so: the words are the topic. (A
        # title glued to its suffix, '양정기준', stays one: a restricted document's title
        # finds nothing.)
        # '연차휴가 규정에 개정 예정인 게 있어?' still says a regulation is meant: a bare
        # 규정 or 지침 is dropped only when the question asks about records.
        untitled = replace(ents, title=None, title_words=[])
        # ('the parent doc of the password guideline': a document's place in the hierarchy
        # is asked, the document being whichever the topic's search finds)
        graph = detect_intent(turn.question, ents) in _GRAPH_INTENTS
        if not graph and (
            ents.title_words[-1] == "기준"
            or detect_intent(turn.question, untitled)
            not in (DOCUMENT_INTENTS | {"revision_request"})
        ):
            ents = untitled  # '육아휴직 규정 바뀐다던데 며칠로': the rule, not a title
    if ents.lang == "ko" and len(ents.keywords) > 1:
        # '협력사에서 … 선물': a noun saying where is context; the topic words lead
        where = [k for k in ents.keywords if says_where(turn.question, k)]
        if where and len(where) < len(ents.keywords):
            ents = replace(ents, keywords=[k for k in ents.keywords if k not in where] + where)
    return ents


_GRAPH_INTENTS = frozenset({"authority", "derived", "related", "impact"})
_BARE_SUFFIXES = (["기준"], ["규정"], ["지침"], ["규칙"])
"""A title's last word standing apart ('육아휴직 규정'): a generic noun as often as a title."""


def _no_such_title(turn: Turn, words: list[str]) -> bool:
    """The searches of this turn found titled articles, none titled with ``words``."""
    titles = [
        squash(str(h.get("title")))
        for c in turn.all("search_regulations")
        for h in hits_of(c)
        if h.get("title")
    ]
    wanted = [squash(w) for w in words]
    return bool(titles) and not any(all(w in t for w in wanted) for t in titles)


def _plan_parts(
    request: MessagesRequest,
    turn: Turn,
    parts: list[str],
    summed: bool = False,
    labels: list[str] | None = None,
) -> Blocks:
    """Plan each part in turn; the calls of this turn are replayed to find each part's own.

    The planner is deterministic: replaying a part on the calls made so far asks for
    exactly the calls it asked for before, so the first calls that complete it are
    its own and the next part starts after them. At most parts × calls plans run.
    """
    lang = extract(turn.question).lang
    texts: list[str] = []
    start = 0
    for index, part in enumerate(parts):
        if index and texts:
            # '… 며칠로 바뀌어? 그 뒤에 올라와 있는 초안도 있으면 알려줘': a part that names
            # nothing of its own continues the part before, as a follow-up would
            part = resolve_followup(part, ((parts[index - 1], texts[-1]),))
            part = department_carried(part, parts[index - 1])
            part = _date_carried(part, parts[index - 1])
            if (
                not labels  # (labelled parts are answered one for one)
                and _AGREEMENT.search(part)
                and not _NOW_ASKED.search(part)  # ('… 그때 기준은 뭐였고 지금은?': asked again)
                and any(w in texts[-1] for w in CONFLICT_NOTED)
            ):
                # '… what was the limit? Did the guideline and the regulation agree?': the
                # answer before set the two texts side by side and said which governs
                continue
            trip = _TRIP_LENGTH.search(turn.question)
            if trip and not _TRIP_LENGTH.search(part):
                # '대구로 3박 4일 출장 … 숙박비와 일비는?': the trip's length is every part's
                part = f"{trip.group(0)} 출장 {part}"
        used = start
        while True:
            sub = Turn(question=part, calls=turn.calls[start:used], round=turn.round)
            blocks = _plan_one(request, sub, lang)
            uses = [b for b in blocks if b["type"] == "tool_use"]
            if not uses:
                text = "".join(b["text"] for b in blocks if b["type"] == "text")
                if texts and text == texts[-1] and date_phrase(part):
                    dated = any("as_of" in c.input for c in turn.calls[start:used])
                    # '2021년 초에도 같았나?': the same articles were in force then — said
                    # only when the part's lookups were made as of that date
                    if dated:
                        text = (
                            "위와 같습니다. 그때도 같은 조항이 시행 중이었습니다."
                            if lang == "ko"
                            else "The same as above: the same articles were in force then."
                        )
                    else:
                        text = (
                            "그 시점을 기준으로는 확인하지 못했습니다 (위 답은 오늘 기준입니다)."
                            if lang == "ko"
                            else "I could not look this up as of that date (the answer above "
                            "is as of today)."
                        )
                if not (texts and text == texts[-1] and not labels):
                    texts.append(text)  # ('… 어디까지 왔어? 승인 난 거랑 초안 둘 다': one answer)
                start = used
                break
            if used >= len(turn.calls):
                return blocks  # this part's next call
            used += 1
    if len(texts) == 1:
        return answer(texts[0])
    heads = [f"{label}: " for label in labels] if labels else [""] * len(texts)
    numbered = [
        f"{i}) {head}{text}" for i, (head, text) in enumerate(zip(heads, texts, strict=True), 1)
    ]
    total = _total_left(texts, lang) if summed else ""
    return answer("\n\n".join(numbered) + total)


_TRIP_LENGTH = re.compile(r"(?<!\d)\d{1,2}\s*박\s*\d{1,2}\s*일")
"""A trip's length as nights and days ('3박 4일')."""
_AGREEMENT = re.compile(
    r"\b(?:agree|agreed|consistent|match(?:ed)?|conflict(?:ed)?|contradict(?:ed)?)\b"
    r"|일치|같았|맞았|충돌|달랐|다르게",
    re.I,
)
"""Whether two texts agree is asked."""
_NOW_ASKED = re.compile(r"^\s*(?:지금|현재|요즘|now|today)|\b(?:now|today|currently)\b", re.I)
_AT_THAT_TIME = re.compile(
    r"\b(?:at that time|back then|at the time|then)\b|그\s?때|당시|그\s?시점", re.I
)


def _date_carried(part: str, before: str) -> str:
    """A part asked 'at that time' with no date of its own is asked on the date the part
    before named ('In March 2023, …? Did the two agree at that time?')."""
    if date_phrase(part) or not _AT_THAT_TIME.search(part) or _NOW_ASKED.search(part):
        return part  # ('지금 … 그때 기준은 뭐였고': the part asked now, whatever it repeats)
    when = date_phrase(before)
    if not when:
        return part
    ko = extract(part).lang == "ko"
    return f"{when} 기준 {part}" if ko else f"In {when}, {part}"


def _total_left(texts: list[str], lang: str) -> str:
    """The days left of each part added up, when every part stated its days left."""
    found = [_LEFT.search(t) for t in texts]
    if not found or not all(found):
        return ""
    days = [int(next(g for g in m.groups() if g)) for m in found if m]
    summed = " + ".join(str(d) for d in days)
    if lang == "ko":
        return f"\n\n지금 기준으로 합치면 {summed} = {sum(days)}일입니다."
    return f"\n\nAdded up as of today: {summed} = {sum(days)} days."
