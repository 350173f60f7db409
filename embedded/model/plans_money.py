"""Plans that compare money against regulation text: lodging caps, approval ceilings."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from embedded.model.compose import (
    Blocks,
    Ctx,
    answer,
    call,
    cite,
    content_words,
    date_note,
    failure,
    hits_of,
    josa,
    not_found,
    nothing_visible,
    out_of_scope,
    rows_of,
    scope_answer,
    scope_qualifier,
    squash,
    titled,
)
from embedded.model.conversation import ToolCall
from embedded.model.departments import asks_per_department, per_department
from embedded.model.entities import AMOUNT, HEARD, MINE, VAT_APART, amount_spans, korean_amount
from embedded.model.intents import cue, expenses_by_status
from embedded.model.lexicon import (
    APPROVERS,
    DEPARTMENTS,
    EN_TO_KO,
    OVER_WORDS,
    PLACES,
    SPLIT_PURCHASE_WORDS,
)
from embedded.model.people import (
    looked_up,
    lookup_call,
    lookup_sql,
    named_people,
    people_of,
    records_call,
)
from embedded.model.plans_hr import named_targets, table
from embedded.model.plans_rules import as_of

_CLAUSE = re.compile(r"[^\n.;·①②③④⑤⑥⑦⑧⑨⑩]+")
_SUBCLAUSE_BREAK = re.compile(r",\s++|(?<!\s)\s++/\s++")
_EXPENSE_SQL = (
    "SELECT 청구번호, 성명, 유형, 지역, 숙박일수, 금액, 청구일, 상태 FROM semantic.hr.expenses "
    "WHERE 숙박일수 > 0 ORDER BY 청구일"
)


def amounts_in(text: str) -> list[tuple[int, int]]:
    """Return (value in won, end offset) of each amount written in the text."""
    found = []
    for match in AMOUNT.finditer(text):
        value = korean_amount(match.group(1))
        if value:
            found.append((value, match.end()))
    return found


def _band(clause: str) -> tuple[int, int] | None:
    amounts = amounts_in(clause)
    if not amounts:
        return None
    low, high = 0, 10**15
    for value, end in amounts:
        after = clause[end : end + 6]
        if "초과" in after:
            low = value + 1
        elif "이상" in after:
            low = value
        elif "미만" in after:
            high = value - 1
        elif "이하" in after or "까지" in after:
            high = value
    return (low, high) if (low, high) != (0, 10**15) else None


def _subclauses(text: str) -> list[str]:
    clauses: list[str] = []
    for part in _CLAUSE.findall(text):
        clauses.extend(p.strip() for p in _SUBCLAUSE_BREAK.split(part) if p.strip())
    return clauses


def _search_first(ctx: Ctx, query: str) -> Blocks | None:
    """Search once, for the date the question names (a past or future rule applies then)."""
    if ctx.turn.last("search_regulations") is None:
        args = {"question": query, **({"as_of": ctx.ents.as_of} if ctx.ents.as_of else {})}
        return call(ctx, "search_regulations", args)
    return None


def _searched(ctx: Ctx, query: str) -> tuple[Blocks | None, Ctx, ToolCall]:
    """(a search to make first, or None; the context dated as asked; the search to read).

    A relative date ('3년 전', 'three years ago') is resolved against the platform's
    today, which the first search returns; the rule is then searched as of that day,
    and the context carries the date so the answer says which day it speaks of.
    """
    step = _search_first(ctx, query)
    if step:
        return step, ctx, ToolCall("search_regulations", {}, None)
    searches = ctx.turn.all("search_regulations")
    # the plan's own search, not one made beside it ('회의록' looked up for a rumour)
    own = [c for c in searches if c.input.get("question") == query]
    search = own[-1] if own else searches[-1]
    when = as_of(ctx) if ctx.ents.relative and not ctx.ents.as_of else None
    if when:
        ctx = replace(ctx, ents=replace(ctx.ents, as_of=when))
        dated = [c for c in ctx.turn.all("search_regulations") if c.input.get("as_of") == when]
        if not dated:
            args = {"question": query, "as_of": when}
            return call(ctx, "search_regulations", args), ctx, search
        search = dated[-1]
    return None, ctx, search


def _on(ctx: Ctx) -> tuple[str, str]:
    """'2024-06-30 기준 ' / 'On 2024-06-30, ' when the question names a date, else ''."""
    when = ctx.ents.as_of
    return (f"{when} 기준 ", f"On {when}, ") if when else ("", "")


def plan_ceiling(ctx: Ctx) -> Blocks:
    """Who approves a purchase of a given amount, from the ceilings in the guideline."""
    step, ctx, search = _searched(ctx, " ".join([*ctx.ents.keywords, "결재", "금액"]))
    if step:
        return step
    if search.failed:
        return answer(failure(ctx, search))
    amount = ctx.ents.amount
    parts = [v for _, _, v in amount_spans(ctx.turn.question)]
    summed_parts = ""
    count = _times(ctx.turn.question)
    if (
        len(parts) == 1
        and count > 1
        and any(w in ctx.turn.question.lower() for w in SPLIT_PURCHASE_WORDS)
        # ('480만원짜리 노트북을 두 건으로 나눠서': the one amount is the whole, split)
        and not _INTO_PARTS.search(ctx.turn.question)
    ):
        # '450만원짜리 두 대 … 한 대씩 따로 올리면': one purchase, each unit a request
        parts = parts * count
    if len(parts) > 1 and any(w in ctx.turn.question.lower() for w in SPLIT_PURCHASE_WORDS):
        # '420만원짜리랑 200만원 같은 목적으로 따로 올리면': one purchase, its parts added
        whole = _whole_of_parts(ctx.turn.question, parts)
        if whole is not None:
            # 'split a 6M purchase into two 3M requests': the whole is named; its parts
            # are what it is split into, not more to add
            parts = [v for v in parts if v != whole] * _times(ctx.turn.question)
        amount = whole if whole is not None else sum(parts)
        added = " + ".join(f"{v:,}" for v in parts)
        summed_parts = ctx.t(
            f"같은 목적의 구매를 나누어 올리면 합산한 금액으로 봅니다: {added} = {amount:,}원. ",
            f"Parts of one purchase requested separately count together: {added} = "
            f"{amount:,} won. ",
        )
    if amount is not None and not summed_parts and VAT_APART.search(ctx.turn.question):
        # '4,800,000원 + VAT': the guideline counts the total with VAT (제3조)
        net, amount = amount, amount * 11 // 10
        summed_parts = ctx.t(
            f"구매 금액은 부가가치세를 포함한 총액으로 봅니다: {net:,}원 × 1.1 = {amount:,}원. ",
            f"The amount counts with VAT included: {net:,} × 1.1 = {amount:,} won. ",
        )
    hits = [h for h in hits_of(search) if amounts_in(str(h.get("text")))]
    for hit in hits:
        for clause in _subclauses(str(hit.get("text"))):
            band = _band(clause)
            if amount is not None and band and band[0] <= amount <= band[1]:
                citation = cite(
                    ctx, str(hit.get("doc_no")), hit.get("version"), hit.get("effective_from")
                )
                who = clause.split(":", 1)[1].strip() if ":" in clause else ""
                on_ko, on_en = _on(ctx)
                lead = (
                    ctx.t(f"{on_ko}{who} 대상입니다. ", f"{on_en}approval required: {who}. ")
                    if who
                    else ""
                )
                lead = summed_parts + lead[:1].upper() + lead[1:]
                lead += _summed_rule(ctx, hits_of(search))
                if _RUMOUR.search(ctx.turn.question) and who:
                    # '천만원 이상은 대표이사 결재로 바꾼다던데 맞음?': what was heard, checked
                    step, said = _rumour_checked(ctx, str(hit.get("doc_no")), (who, who))
                    if step:
                        return step
                    lead += said.strip() + " "
                return answer(
                    lead
                    + ctx.t(
                        f"{amount:,}원 발주는 {titled(hit, citation)} "
                        f'{hit.get("article_no") or ""}의 "{clause}" 구간에 해당합니다.',
                        f'A {amount:,} won order falls under "{clause}" in {titled(hit, citation)} '
                        f"{hit.get('article_no') or ''}.",
                    )
                )
    wanted = next((v for k, v in APPROVERS.items() if k in ctx.turn.question.lower()), None)
    if amount is None and wanted:
        # 'What can a team lead approve on their own?': that approver's band
        for hit in hits:
            for clause in _subclauses(str(hit.get("text"))):
                if _band(clause) and ":" in clause and wanted in clause.split(":", 1)[1]:
                    citation = cite(
                        ctx, str(hit.get("doc_no")), hit.get("version"), hit.get("effective_from")
                    )
                    limits = clause.split(":", 1)[0].strip()
                    named = next(
                        (k for k, v in APPROVERS.items() if v == wanted and k.isascii()), wanted
                    )
                    # ('나눠서 올리면 팀장 전결로 …?': the parts are summed, said first)
                    return answer(
                        _summed_rule(ctx, hits_of(search))
                        + ctx.t(
                            f"{wanted} 결재 범위는 '{limits}'입니다. 근거: {titled(hit, citation)} "
                            f'{hit.get("article_no") or ""} "{clause}".',
                            f"The {named} ({wanted}) approves purchases of '{limits}'. Source: "
                            f'{titled(hit, citation)} {hit.get("article_no") or ""} "{clause}".',
                        )
                    )
    if hits:
        hit = hits[0]
        citation = cite(ctx, str(hit.get("doc_no")), hit.get("version"), hit.get("effective_from"))
        return answer(
            ctx.t(
                f"금액 구간을 확정할 수 없어 관련 조항을 그대로 인용합니다 — "
                f"{citation}: {hit.get('text')}",
                f"I could not place the amount in a band; the article says — {citation}: "
                f"{hit.get('text')}",
            )
        )
    return answer(not_found(ctx, " ".join(ctx.ents.keywords), search))


_TIMES = re.compile(
    r"\b(two|three|four)\b|(두|세|네)\s*(?:건|번|개|차례|대|대를)|(\d)\s*(?:건|번|개|대)", re.I
)
_GROUP_OWNED = re.compile(r"\bmy (?:department|dept|team|division|group)(?:'s)?\b", re.I)
"""'my department's orders': the group's, not the asker's own."""
_INTO_PARTS = re.compile(
    r"(?:두|세|네|\d)\s*(?:건|번|개|차례)\s*(?:으로|로)|\binto (?:two|three|four|\d)\b", re.I
)
"""The number of requests a whole is split into ('두 건으로', 'into two'), no units bought."""
_TIMES_WORDS = {"two": 2, "three": 3, "four": 4, "두": 2, "세": 3, "네": 4}


def _times(question: str) -> int:
    """How many equal parts a question splits into ('two 3M requests', '두 건'); 1 if unsaid."""
    match = _TIMES.search(question)
    if not match:
        return 1
    word = match.group(1) or match.group(2)
    return _TIMES_WORDS[word.lower()] if word else int(match.group(3))


def _whole_of_parts(question: str, parts: list[int]) -> int | None:
    """The largest amount when the others make it up ('6M … into two 3M'), else None."""
    whole = max(parts)
    rest = [v for v in parts if v != whole]
    if rest and sum(rest) * _times(question) == whole:
        return whole
    return None


def _summed_rule(ctx: Ctx, hits: list[dict[str, Any]]) -> str:
    """A purchase split in parts: the guideline's sentence that sums them, quoted."""
    if not any(w in ctx.turn.question.lower() for w in SPLIT_PURCHASE_WORDS):
        return ""
    for hit in hits:
        for sentence in re.split(r"(?<=다\.)\s*", str(hit.get("text"))):
            if "합산" in sentence:
                citation = cite(
                    ctx, str(hit.get("doc_no")), hit.get("version"), hit.get("effective_from")
                )
                return ctx.t(
                    f"나누어 요청해도 합산한 금액이 기준입니다: {citation} "
                    f'{hit.get("article_no") or ""} "{sentence.strip()}" ',
                    f"Splitting does not change the approver: the amounts are summed — "
                    f'{citation} {hit.get("article_no") or ""} "{sentence.strip()}" ',
                )
    return ""


def _cap_for(hits: list[dict[str, Any]], region: str) -> tuple[int, str, dict[str, Any]] | None:
    general: tuple[int, str, dict[str, Any]] | None = None
    for hit in hits:
        for clause in _subclauses(str(hit.get("text"))):
            amounts = amounts_in(clause)
            if not amounts or ("숙박" not in clause and "1박" not in clause and not region):
                continue
            if region and region in clause:
                start = clause.find(region)
                after = [a for a in amounts if a[1] > start]
                return (after or amounts)[0][0], clause, hit
            if general is None and ("숙박" in clause or "1박" in clause):
                general = (amounts[0][0], clause, hit)
    return general


_PROSPECTIVE = re.compile(
    r"\bcan (?:i )?claim\b|\bcould (?:i )?claim\b|청구할 수 있|청구 가능|받을 수 있"
    r"|\bnext week\b|\bnext month\b|다음\s?주|다음\s?달|\bheading to\b|\bgoing to\b"
    r"|갈\s?(?:건데|예정)|가는데|가면|\bplanning\b|\bif (?:i|we) (?:go|travel|fly|stay)\b"
    r"|\b(?:i'?m|we'?re) (?:going|travell?ing|flying)\b|\bwhen (?:i|we) (?:go|travel)\b"
    r"|\b(?:would|will|could|can) i (?:get|be paid)\b|\bthe most i (?:get|can)\b|\bget back\b",
    re.I,
)
"""A trip still ahead ('heading to Busan next week, what can I claim'): the rule, no claims."""


def _about_claims(ctx: Ctx) -> bool:
    """True when the question is about the caller's own claims, not the rule itself."""
    q = ctx.turn.question
    if _someones_filed(ctx):
        return True
    if _PROSPECTIVE.search(q) and not cue(q, "comply"):
        return False
    # 'EXP-2025-0005 한도 안이야?': a claim named by its number is a filed claim
    return cue(q, "self") or cue(q, "comply") or cue(q, "own_claim") or bool(CLAIM_NO.search(q))


def _english_name(ctx: Ctx, korean: str) -> str:
    """'Seoul (서울)' when the question named the place in English, else the Korean word."""
    lowered = ctx.turn.question.lower()
    english = next((en for en, ko in EN_TO_KO.items() if ko == korean and en in lowered), None)
    return f"{english.title()} ({korean})" if english else korean


_DEFINES = re.compile(r"(?<![가-힣])([가-힣]+)(?:은|는|이란|란)\s++([^.]*?)(?:을|를)\s*+말한다")
_NIGHT_WORDS = {
    **dict.fromkeys(("one", "a", "한", "일"), 1),
    **dict.fromkeys(("two", "두", "이"), 2),
    **dict.fromkeys(("three", "세", "삼"), 3),
    **dict.fromkeys(("four", "네", "사"), 4),
    **dict.fromkeys(("five", "다섯", "오"), 5),
    **dict.fromkeys(("six", "여섯", "육"), 6),
    **dict.fromkeys(("seven", "일곱", "칠"), 7),
}
_NIGHTS = re.compile(
    r"(?<!\d)(\d++)(?:\s*+|-)(?:박|nights?\b)|\b(one|two|three|four|five|six|seven)(?:\s++|-)nights?\b"
    r"|(?<![가-힣])(한|두|세|네|다섯|여섯|일곱)\s*밤|(?<![가-힣])(일|이|삼|사|오|육|칠)박",
    re.I,
)


def nights_in(question: str) -> int:
    """Nights named in the question ('2박', 'two nights', '이박', '두 밤'), 0 when none."""
    match = _NIGHTS.search(question)
    if match is None:
        return 0
    if match.group(1):
        return int(match.group(1))
    word = next(g for g in match.groups()[1:] if g)
    return _NIGHT_WORDS.get(word.lower(), 0)


_NOT_PLACES = ("숙박", "숙박비", "출장", "출장비", "한도", "상한", "금액", "총액", "1박")


def _category(texts: str, place: str) -> str | None:
    """The category a guideline defines to include ``place`` ('광역시는 부산, 대구 … 말한다')."""
    for match in _DEFINES.finditer(texts):
        if place in match.group(2) and match.group(1) != place:
            return match.group(1)
    return None


def _other_category(hits: list[dict[str, Any]]) -> str | None:
    """The catch-all region word of the caps ('기타 지역'), when the guideline has one."""
    for hit in hits:
        for clause in _subclauses(str(hit.get("text"))):
            match = re.search(r"(기타\s*지역|그\s*밖의\s*지역)", clause)
            if match and amounts_in(clause):
                return match.group(1)
    return None


_NEGATED_EN = re.compile(
    r"\b(?:not|other than|except|excluding|besides|outside(?:\s+of)?)\s+(?:in\s+|to\s+)?([a-z]+)",
    re.I,
)
_NEGATED_KO = re.compile(r"([가-힣]{2,4}?)\s*(?:말고|제외하고|제외|빼고|이외|외의|아닌)")


def _negated_places(question: str) -> set[str]:
    """Places the question rules out ('(not Seoul)', '서울 말고'): never the place asked."""
    english = {EN_TO_KO.get(w.lower(), "") for w in _NEGATED_EN.findall(question)}
    return (english | set(_NEGATED_KO.findall(question))) - {""}


_PLACE_LIKE = re.compile(r"[가-힣]{1,5}(?:특별시|광역시|시|군|도|읍|면)")
"""A Korean place name by its ending ('춘천시', '양평군', '강원도')."""


_CATEGORY_WORDS = ("광역시", "기타 지역", "기타지역", "지방")
_SCOPE_WORDS = ("국내", "해외")  # ('a domestic trip to a metropolitan city': no place)


def _reads_as_place(word: str) -> bool:
    return word in PLACES or _PLACE_LIKE.fullmatch(word) is not None


def _category_defined(texts: str, category: str) -> bool:
    """True when the guideline defines which places ``category`` takes in."""
    return any(m.group(1) == category for m in _DEFINES.finditer(texts))


def _region(ctx: Ctx, hits: list[dict[str, Any]]) -> tuple[str, str, str]:
    """(word to look the cap up by, place as asked, note on how it was placed)."""
    texts = " ".join(str(h.get("text")) for h in hits)
    names = named_people(ctx.turn.question)
    negated = _negated_places(ctx.turn.question)
    places = [
        w for w in ctx.ents.keywords
        if w not in _NOT_PLACES and w not in negated
        and not any(w in n or n in w for n in names)  # '곽호은' no place
    ]  # fmt: skip
    # a place named beside a category ('세종시 출장가면 … 광역시 기준이죠?') is placed by
    # the guideline, not by the category the question assumes
    unlisted = [
        p for p in places if p not in texts and _reads_as_place(p) and p not in _SCOPE_WORDS
    ]
    assumed = next((p for p in places if p in _CATEGORY_WORDS), "")
    for place in places:
        if place not in texts or (unlisted and place in _CATEGORY_WORDS):
            continue
        category = _category(texts, place)
        if category:
            name = _english_name(ctx, place)
            return (
                category,
                name,
                ctx.t(
                    f" ({place}{josa(place, '은', '는')} 지침상 {category}에 해당합니다.)",
                    f" ({name} counts as {category} in the guideline.)",
                ),
            )
        return place, _english_name(ctx, place), ""
    # a place the guideline does not list ('제주', 'Sejong'): a Korean word, as written or
    # as an English place name reads in Korean
    # (a word the guideline does not list is a place only when it reads as one: '어케',
    # 'how', had been costed as 기타 지역)
    unknown = [p for p in unlisted if p not in _CATEGORY_WORDS]
    other = _other_category(hits) if unknown else None
    if unknown and other:
        name = _english_name(ctx, unknown[0])
        premise = (
            ctx.t(
                f" {assumed} 기준이 아닙니다: 지침이 {assumed}로 정한 곳에 "
                f"{unknown[0]}{josa(unknown[0], '은', '는')} 없습니다.",
                f" Not the {assumed} cap: {name} is not among the places the guideline "
                f"defines as {assumed}.",
            )
            if assumed and assumed != other and _category_defined(texts, assumed)
            else ""
        )
        return (
            other,
            name,
            ctx.t(
                f" ({unknown[0]}{josa(unknown[0], '은', '는')} 지침에 따로 적힌 지역이 아니므로 "
                f"{other} 기준을 적용했습니다.)",
                f" ({name} is not a place the guideline lists, so the {other} cap applies.)",
            )
            + premise,
        )
    return "", "", ""


def _excess_article(hits: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The article on what happens above the cap, whole (its exceptions included)."""
    return next(
        (h for h in hits if "초과" in str(h.get("text")) and "부담" in str(h.get("text"))), None
    )


def _rule_cap(ctx: Ctx, hits: list[dict[str, Any]], every: list[dict[str, Any]]) -> Blocks:
    """Answer the lodging cap from the guideline alone (no claims looked up)."""
    scoped = out_of_scope(ctx, every)
    if scoped:
        return scope_answer(ctx, scoped)
    if not hits:
        search = ctx.turn.last("search_regulations")
        return answer(not_found(ctx, ctx.t("숙박비 상한 규정", "lodging cap"), search))
    region, asked, placed = _region(ctx, hits)
    found = _cap_for(hits, region) if region else None
    if found is not None and region not in found[1]:
        found = None
    if found is None:
        region, asked, placed = "", "", ""
        found = _cap_for(hits, "")
    if found is None:
        return answer(not_found(ctx, ctx.t("숙박비 상한 금액", "lodging cap amount")))
    cap, clause, hit = found
    whole = str(hit.get("text") or "")
    if not region and len({a for sub in _subclauses(whole) for a in amounts_in(sub)}) > 2:
        # no place asked, or none the guideline places: the caps differ by region, so
        # all of them are the answer (the first is no more the cap than the others)
        citation = cite(ctx, str(hit.get("doc_no")), hit.get("version"), hit.get("effective_from"))
        article = str(hit.get("article_no") or "")
        return answer(
            ctx.t(
                f'출장 숙박비 상한은 지역에 따라 다릅니다: "{whole}" '
                f"(근거: {titled(hit, citation)} {article}).",
                f'The lodging cap depends on the region: "{whole}" '
                f"(source: {titled(hit, citation)} {article}).",
            )
            + date_note(ctx, hit)
        )
    citation = cite(ctx, str(hit.get("doc_no")), hit.get("version"), hit.get("effective_from"))
    where = asked or (_english_name(ctx, region) if region else "")
    article = str(hit.get("article_no") or "")
    nights = nights_in(ctx.turn.question)
    lead = (
        ctx.t(
            f"{where + ' ' if where else ''}출장 숙박비 상한은 1박당 {cap:,}원입니다.",
            f"The lodging cap{' for ' + where if where else ''} is {cap:,} won per night.",
        )
        + placed
    )
    if nights > 1:
        lead += ctx.t(
            f" {nights}박이면 총 {cap * nights:,}원({cap:,}원 × {nights}박)까지입니다.",
            f" For {nights} nights the total cap is {cap * nights:,} won ({cap:,} × {nights}).",
        )
    if nights >= 1 and _PER_DIEM.search(ctx.turn.question) and _TOTAL.search(ctx.turn.question):
        # '2박3일 … 숙박비 한도랑 일비 합치면 최대 얼마?': the two caps added up
        step, added = _with_per_diem(ctx, every, cap, nights)
        if step:
            return step
        lead += added
    if _rumoured(ctx):
        step, said = _rumour_checked(ctx, str(hit.get("doc_no")), (f"{cap:,}원", f"{cap:,} won"))
        if step:
            return step
        lead += said
    else:
        lead += _hypothetical(ctx, cap, max(nights, 1), every)
    return answer(
        lead
        + _written_otherwise(ctx, clause, cap)
        + ctx.t(
            f' 근거: {titled(hit, citation)} {article} "{clause}". '
            "숙박한 일수만큼 지급되므로 상한 총액은 1박 상한 × 박수입니다"
            + ("." if nights > 1 else f" (예: 2박이면 {cap:,}원 × 2 = {cap * 2:,}원)."),
            f' Source: {titled(hit, citation)} {article} "{clause}". '
            "It is paid per night stayed, so the total cap is the nightly cap × nights"
            + ("." if nights > 1 else f" (e.g. 2 nights: {cap:,} × 2 = {cap * 2:,} won)."),
        )
        + date_note(ctx, hit)
    )


_ANY_OF_THEM = re.compile(
    r"\bany of (?:them|those)\b|\bdoes any\b|\bdo any\b|그\s*중에?\s*.{0,12}있(?:어|나|는지)"
)
_IN_WORDS = re.compile(r"\(\s*(\d+)\s*만\s*원\s*\)")


def _written_otherwise(ctx: Ctx, clause: str, cap: int) -> str:
    """The cap's figure written beside a different one in words ('72,000원(7만원)'):
    said, the figure in numerals taken as the cap."""
    written = _IN_WORDS.search(clause)
    if written is None or int(written.group(1)) * 10_000 == cap:
        return ""
    other = int(written.group(1)) * 10_000
    return ctx.t(
        f" 참고: 조문에는 {cap:,}원 옆에 괄호로 ({written.group(1)}만원)이 함께 적혀 있어 "
        f"표기가 서로 맞지 않습니다. 숫자로 적힌 {cap:,}원을 기준으로 답했습니다.",
        f" Note: the article writes {cap:,} won beside '({written.group(1)}만원)' "
        f"({other:,} won), which does not match; the figure in numerals, {cap:,} won, is used.",
    )


_ALL_CLAIMS_SQL = (
    "SELECT 청구번호, 성명, 부서, 유형, 지역, 숙박일수, 금액, 청구일, 상태 "
    "FROM semantic.hr.expenses ORDER BY 청구일"
)


# A field of a claim's record asked for ('청구일이 언제로 찍혀 있어', 'what status'): the record.
_CLAIM_FIELDS = ("청구일", "언제", "날짜", "상태", "청구번호", "when", "date", "status")


def _lists_claims(ctx: Ctx) -> bool:
    """True for 'show my claims': claims asked about, lodging and rules not named — or a
    field of the claims' records asked with no rule to check them against."""
    q = ctx.turn.question.lower()
    if expenses_by_status(q) and not _compliance(ctx):
        return True
    filed = re.search(r"\bexpenses? (?:i|we) (?:filed|submitted|claimed)\b|\bi filed\b", q)
    if not (cue(q, "own_claim") and ("청구" in q or "claim" in q)) and not filed:
        return False
    if any(w in q for w in _CLAIM_FIELDS) and not _compliance(ctx):
        return True
    lodging = any(w in q for w in ("숙박", "lodging", "hotel", "규정", "policy", "상한", "cap"))
    return not lodging and not _compliance(ctx)  # '… 청구했는데 한도 넘은 거예요?': checked


_RULE_WORDS = ("규정", "한도", "상한", "위반", "초과", "cap", "limit", "rule", "policy")


def _compliance(ctx: Ctx) -> bool:
    """The claims are to be checked against the rule, not just listed."""
    q = ctx.turn.question.lower()
    return cue(q, "comply") or any(w in q for w in _RULE_WORDS)


def _names_claimant(ctx: Ctx) -> bool:
    """'X 부장님 … 청구하셨는지': claims of a person the question names."""
    q = ctx.turn.question.lower()
    return bool(named_people(ctx.turn.question)) and ("청구" in q or "claim" in q)


# Statuses a question asks records by → the 상태 values they keep (the platform's words).
_STATUS_ASKED: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("반려", "rejected"), ("반려",)),
    (
        ("승인 안", "미승인", "승인대기", "결재대기", "대기", "진행 중", "pending", "waiting"),
        ("승인대기", "결재대기", "대기"),
    ),
)


def of_status(ctx: Ctx, columns: list[str], rows: list[list[Any]]) -> list[list[Any]]:
    """The records in the status the question asks for ('반려된 건', '승인 안 난 거'), else all.

    When no record has that status, every record is kept (and shown with its status).
    """
    return asked_status(ctx, columns, rows) or rows


def asked_status(ctx: Ctx, columns: list[str], rows: list[list[Any]]) -> list[list[Any]] | None:
    """The records in the status the question asks for (maybe none), or None when it
    asks for no status."""
    if "상태" not in columns:
        return None
    at = columns.index("상태")
    lowered = ctx.turn.question.lower()
    for asked, kept in _STATUS_ASKED:
        if any(w in lowered for w in asked):
            return [r for r in rows if str(r[at] or "") in kept]
    return None


_COUNT_ASKED = ("몇건", "몇 건", "몇개", "몇 개", "how many")


def status_asked_apart(question: str) -> bool:
    """The status is asked after the count or sum ('몇건이고 합계는? 반려된건 뭐야'): a
    question of its own about the same records, not a filter on the ones counted."""
    lowered = question.lower()
    counted = [lowered.find(w) for w in (*_COUNT_ASKED, *_SUM_ASKED) if w in lowered]
    status = [lowered.find(w) for asked, _ in _STATUS_ASKED for w in asked if w in lowered]
    if not (counted and status) or min(counted) > min(status):
        return False
    # 'How many were rejected?' asks the count of those: apart only across a break
    between = lowered[min(counted) : min(status)]
    return _ASKED_BREAK.search(between) is not None


_ASKED_BREAK = re.compile(r"[?？,]|고\s|이랑|랑\s|하고|\band\b|그리고")


def _of_kind(ctx: Ctx, columns: list[str], rows: list[list[Any]]) -> list[list[Any]]:
    """The claims of the kind the question names ('식대', '도서구입비'), else all of them.

    A question word matches a claim's 유형 when either contains the other's first two
    syllables; when no claim is of a kind the question names, every claim is kept.
    """
    if "유형" not in columns:
        return rows
    at = columns.index("유형")
    words = [squash(w) for w in content_words(ctx.ents.keywords) if len(w) >= 2]
    kinds = [
        r
        for r in rows
        if any(w[:2] in squash(str(r[at] or "")) for w in words if "가" <= w[0] <= "힣")
    ]
    return kinds or rows


CLAIM_NO = re.compile(r"(?<![A-Za-z0-9-])EXP-\d{4}-\d{4}(?!\d)")
"""A claim's number ('EXP-2025-0002')."""


_CLAIM_YEAR = re.compile(
    r"(20\d{2})\s*년(?:도)?(?!\s*\d{1,2}\s*월)|\b(?:in|for|during|from)\s+(20\d{2})\b(?!-)", re.I
)
"""A year the claims were filed in ('2024년에 올린 경비', 'claims filed in 2024')."""


def _in_year(
    ctx: Ctx, columns: list[str], rows: list[list[Any]]
) -> tuple[list[list[Any]], str | None]:
    """The claims filed in the year the question names (maybe none), and that year."""
    asked = _CLAIM_YEAR.search(ctx.turn.question)
    if not asked or "청구일" not in columns:
        return rows, None
    year = asked.group(1) or asked.group(2)
    at = columns.index("청구일")
    return [r for r in rows if str(r[at] or "").startswith(year)], year


def _none_in_year(ctx: Ctx, year: str, columns: list[str], rows: list[list[Any]]) -> str:
    at = columns.index("청구일")
    dates = sorted(str(r[at]) for r in rows if r[at])
    span = f"{dates[0]} – {dates[-1]}" if dates else ""
    return ctx.t(
        f"{year}년에 청구된 경비는 조회되지 않습니다. 조회 권한 범위 안의 경비 청구 "
        f"{len(rows)}건은 모두 다른 해의 것입니다 (청구일 {span}).",
        f"No expense claims filed in {year} are visible to you. The {len(rows)} claim(s) you "
        f"may see were all filed in another year (claim dates {span}).",
    )


_OWN_CLAIMS = re.compile(
    r"(?:내가|제가)\s*(?:올린|낸|청구한|신청한|제출한|올렸던|냈던)|(?:^|\s)(?:내|제)\s*(?:경비|청구)"
    r"|\bmy (?:expense )?(?:claims?|expenses)\b|\b(?:i|I) (?:filed|submitted)\b",
)
"""The asker's own claims asked ('내가 올린 경비 청구건'), not every claim they may see."""


def _own_claims(ctx: Ctx) -> tuple[Blocks | None, list[str] | None]:
    """(the lookup call or an honest answer, or None; the asker's 사번) for 'my claims'."""
    if not ctx.asker or not _OWN_CLAIMS.search(ctx.turn.question):
        return None, None
    found = lookup_call(ctx)
    if found is None:
        return call(ctx, "query_hr", {"question_sql": lookup_sql([ctx.asker])}), None
    people = [p for p in people_of(found) if re.fullmatch(r"[0-9]{8}", p.emp_no)]
    if len(people) != 1:
        return None, None  # not found, or namesakes: every claim visible, as asked
    return None, [people[0].emp_no]


def plan_claims(ctx: Ctx, emp_nos: list[str] | None = None, *, own: bool = False) -> Blocks:
    """List the expense claims the caller may see (the row filter decides whose)."""
    numbers = list(dict.fromkeys(CLAIM_NO.findall(ctx.turn.question)))
    result = records_call(ctx)
    if result is None:
        conditions = []
        if numbers:
            # 'EXP-2025-0002 승인났어? 얼마였지': those claims, whatever their status
            conditions.append(f"청구번호 IN ({', '.join(repr(n) for n in numbers)})")
        if emp_nos:
            listed = ", ".join(f"'{e}'" for e in emp_nos if re.fullmatch(r"[0-9]{8}", e))
            conditions.append(f"사번 IN ({listed})")
        dept = department_of(ctx)  # '영업팀 교통비 총액': that department's claims only
        if dept is not None:
            conditions.append(f"부서 = '{dept}'")
        sql = _ALL_CLAIMS_SQL
        if conditions:
            sql = sql.replace(" ORDER BY", f" WHERE {' AND '.join(conditions)} ORDER BY")
        return call(ctx, "query_hr", {"question_sql": sql})
    if result.failed:
        return answer(failure(ctx, result))
    columns, rows = rows_of(result)
    if own and not rows:
        return answer(
            ctx.t(
                f"질문하신 분({ctx.asker}) 명의로 올린 경비 청구는 조회되지 않습니다.",
                f"No expense claims filed by you ({ctx.asker}) are on record.",
            )
        )
    visible = rows
    rows, year = _in_year(ctx, columns, rows)
    if year and not rows and visible:
        return answer(_none_in_year(ctx, year, columns, visible))
    rows = rows if numbers else _of_kind(ctx, columns, rows)
    in_status = rows if numbers else of_status(ctx, columns, rows)
    apart = status_asked_apart(ctx.turn.question)  # '… in total, and how many are pending?'
    if not apart:
        rows = in_status
    if not rows and numbers:
        return answer(nothing_visible(ctx, ", ".join(numbers)))  # withheld or missing
    if not rows:
        return answer(
            ctx.t(
                "조회 가능한 경비 청구 내역을 찾을 수 없습니다.",
                "No expense claims are available to you (not found).",
            )
        )
    total = ""
    if "금액" in columns and len(rows) > 1:
        amounts = [int(r[columns.index("금액")] or 0) for r in rows]
        summed = " + ".join(f"{a:,}" for a in amounts)
        total = ctx.t(
            f"\n합계: {summed} = {sum(amounts):,}원",
            f"\nTotal: {summed} = {sum(amounts):,} won",
        )
    by_dept = ""
    if {"부서", "금액"} <= set(columns) and asks_per_department(ctx.turn.question):
        # '부서별로 경비청구 건수랑 금액 합계': the claims added up per department
        sums: dict[str, int] = {}
        counts: dict[str, int] = {}
        dept_at, amount_at = columns.index("부서"), columns.index("금액")
        for row in rows:
            dept = str(row[dept_at] or "")
            sums[dept] = sums.get(dept, 0) + int(row[amount_at] or 0)
            counts[dept] = counts.get(dept, 0) + 1
        by_dept = per_department(ctx, sums, counts, ("원", " won"), ("건", " claims")) + "\n"
    lead = (
        ctx.t(
            f"질문하신 분({ctx.asker}) 명의의 경비 청구 {len(rows)}건입니다.\n",
            f"{len(rows)} expense claim(s) filed by you ({ctx.asker}).\n",
        )
        if own
        else ctx.t(
            f"조회 권한 범위 안의 경비 청구 {len(rows)}건입니다.\n",
            f"{len(rows)} expense claim(s) visible to you.\n",
        )
    )
    return answer(
        lead
        + by_dept
        + ("" if by_dept else _largest(ctx, columns, rows))
        + table(columns, rows)
        + total
        + (_claims_in_status(ctx, columns, asked_status(ctx, columns, rows)) if apart else "")
    )


def _claims_in_status(ctx: Ctx, columns: list[str], rows: list[list[Any]] | None) -> str:
    """The claims in the status asked after the total ('… how many are still pending?')."""
    if rows is None or "청구번호" not in columns:
        return ""
    if not rows:
        return ctx.t("\n그 상태인 청구는 없습니다.", "\nNone of them is in that status.")
    at, no = columns.index("상태"), columns.index("청구번호")
    status = str(rows[0][at])
    named = ", ".join(str(r[no]) for r in rows)
    # ('… and how much is still pending?': their sum too)
    amounts = [int(r[columns.index("금액")] or 0) for r in rows] if "금액" in columns else []
    summed = (
        ctx.t(f", 합계 {sum(amounts):,}원", f", {sum(amounts):,} won in total") if amounts else ""
    )
    return ctx.t(
        f"\n{status} 상태인 청구: {len(rows)}건 ({named}){summed}",
        f"\nIn status {status}: {len(rows)} claim(s) ({named}){summed}",
    )


_LARGEST = (
    "가장 큰",
    "제일 큰",
    "젤 큰",
    "젤 많",
    "가장 많",
    "제일 많",
    "최고액",
    "최대 금액",
    "biggest",
    "largest",
)
_LARGEST_EN = ("highest", "most expensive", "the most")


def _largest(ctx: Ctx, columns: list[str], rows: list[list[Any]]) -> str:
    """The largest claim first, when the question asks for it ('biggest meal claim')."""
    lowered = ctx.turn.question.lower()
    if "금액" not in columns or not any(w in lowered for w in _LARGEST + _LARGEST_EN):
        return ""
    at = columns.index("금액")
    top = max(int(r[at] or 0) for r in rows)
    recs = [dict(zip(columns, r, strict=False)) for r in rows if int(r[at] or 0) == top]
    who = ", ".join(f"{r.get('청구번호')} {r.get('성명')} ({r.get('유형')})" for r in recs)
    return ctx.t(f"가장 큰 청구: {who} — {top:,}원\n", f"Largest claim: {who} — {top:,} won\n")


_PER_NIGHT = re.compile(r"1박|박당|하룻밤|\ba night\b|\bper night\b|/\s?night|\bnightly\b", re.I)


def _amount_per_night(question: str) -> bool:
    """The amount named is a night's ('1박에 13만원', '130,000 won a night'), not the stay's
    ('2 nights … claimed 220k'): a night word right beside the amount."""
    for start, end, _ in amount_spans(question):
        near = question[max(0, start - 8) : end + 12]
        if _PER_NIGHT.search(near):
            return True
    return False


def _hypothetical(ctx: Ctx, cap: int, nights: int, every: list[dict[str, Any]]) -> str:
    """An amount the question names ('22만원 냈으면', '130,000 won a night') against the cap."""
    amount = ctx.ents.amount
    if amount is None:
        return ""
    per_night = _amount_per_night(ctx.turn.question)
    allowed = cap if per_night else cap * nights
    unit = ctx.t("1박 " if per_night else f"{nights}박 ", "per night " if per_night else "")
    if amount <= allowed:
        return ctx.t(
            f" {unit}{amount:,}원은 한도 {allowed:,}원 이내입니다.",
            f" {amount:,} won {unit}is within the cap of {allowed:,} won.",
        )
    text = ctx.t(
        f" {unit}{amount:,}원은 한도 {allowed:,}원을 {amount - allowed:,}원 초과합니다 "
        f"({amount:,} − {allowed:,} = {amount - allowed:,}원).",
        f" {amount:,} won {unit}exceeds the cap of {allowed:,} won by {amount - allowed:,} won "
        f"({amount:,} − {allowed:,}).",
    )
    excess = _excess_article(every)
    if excess:
        citation = cite(
            ctx, str(excess.get("doc_no")), excess.get("version"), excess.get("effective_from")
        )
        text += ctx.t(
            f' 초과분 처리: {citation} {excess.get("article_no") or ""} "{excess.get("text")}"',
            f" What happens to the excess: {citation} {excess.get('article_no') or ''} — "
            f'"{excess.get("text")}"',
        )
    return text


_RUMOUR = re.compile(HEARD.pattern + r"|맞아\s*[?？]|맞지\s*[?？]|\bis that right\b", re.I)
"""What was heard (entities.HEARD), or a figure put up to be confirmed ('맞아?')."""
_MINUTES_ARTICLE = "회의록 지위 사규 인용"
"""What the regulations are searched for to find what meeting minutes count for."""


_FILED = re.compile(
    r"승인\s?났(?!다)|결재\s?났(?!다)|승인\s?됐(?!다)|승인\s?되었(?!다)|청구했|청구한|올렸(?!다)|올린(?!다)"
    r"|\bwas approved\b"
    r"|\bgot approved\b|\bfiled\b|\bclaimed\b"
)


def _rumoured(ctx: Ctx) -> bool:
    """'서울 숙박비 15만원으로 올랐다던데 맞아?': a figure heard, not a bill to check
    ('곽호은 부장 숙박비 224000원 승인났던데 한도초과 아님?', '2박에 22만원 청구했는데 다
    나오는거 맞아?' are claims to check, someone's or one's own)."""
    q = ctx.turn.question
    if _FILED.search(q):
        return False
    return ctx.ents.amount is not None and _RUMOUR.search(q) is not None


def _rumour_checked(ctx: Ctx, doc_no: str, now: tuple[str, str]) -> tuple[Blocks | None, str]:
    """Whether a revision to the heard figure is pending, and what minutes count for."""
    pending = ctx.turn.last("pending_revision")
    if pending is None and ctx.has("pending_revision"):
        return call(ctx, "pending_revision", {"doc_no": doc_no}), ""
    rows = [] if pending is None or pending.failed else (pending.data or {}).get("pending") or []
    heard = f"{ctx.ents.amount:,}"
    if rows:
        versions = ", ".join(
            ctx.t(f"제{r.get('version')}차({r.get('status')})", f"version {r.get('version')} "
                  f"({r.get('status')})")
            for r in rows
        )  # fmt: skip
        said = ctx.t(
            f" {doc_no}에는 진행 중인 개정이 있습니다: {versions}. 승인되어 시행되기 전까지는 "
            f"{now[0]}{josa(now[0], '이', '가')} 적용됩니다.",
            f" {doc_no} has revisions in progress: {versions}. Until one is approved and in "
            f"force, {now[1]} applies.",
        )
    else:
        said = ctx.t(
            f" {doc_no}에 진행 중인 개정안은 없습니다: 들은 내용({heard}원)은 승인된 규정이 "
            f"아니며, 지금은 {now[0]}{josa(now[0], '이', '가')} 적용됩니다.",
            f" There is no pending revision of {doc_no}: what was heard ({heard} won) is no "
            f"approved rule; {now[1]} applies.",
        )
    if not any(
        w in ctx.turn.question.lower()
        for w in ("회의", "위원회", "협의회", "경영진", "minutes", "meeting", "management", "board")
    ):
        return None, said
    searches = ctx.turn.all("search_regulations")
    done = [c for c in searches if c.input.get("question") == _MINUTES_ARTICLE]
    if not done:
        return call(ctx, "search_regulations", {"question": _MINUTES_ARTICLE}), ""
    for h in hits_of(done[0]):
        if "회의록" in str(h.get("text")) and "인용" in str(h.get("text")):
            citation = cite(ctx, str(h.get("doc_no")), h.get("version"), h.get("effective_from"))
            said += ctx.t(
                f" 회의록은 근거가 되지 않습니다: {citation} {h.get('article_no') or ''} "
                f'"{h.get("text")}"',
                f" Meeting minutes are no basis: {citation} {h.get('article_no') or ''} "
                f'"{h.get("text")}"',
            )
            break
    return None, said


_SUPPOSED = re.compile(
    r"였으면|이었으면|였다면|이었다면|라면|\bif it (?:had been|were|was)\b|\bhad it been\b", re.I
)


_PER_DIEM = re.compile(r"일비|per diem|daily allowance", re.I)
_TOTAL = re.compile(r"합치|합쳐|합계|합하|더하면|총|\btotal\b|\bin all\b|\bcombined\b", re.I)
_RATE_PER_DAY = re.compile(r"일비는[^.]*?1일당\s*([0-9][0-9,]*)원")
_TRIP_DAYS = re.compile(
    r"(\d{1,2})\s*박\s*(\d{1,2})\s*일|(\d{1,2})[\s-]?(?:일|days?)\b(?!당)", re.I
)


def _with_per_diem(
    ctx: Ctx, every: list[dict[str, Any]], cap: int, nights: int
) -> tuple[Blocks | None, str]:
    """The lodging cap for the nights plus the daily allowance for the days of the trip."""
    searches = ctx.turn.all("search_regulations")
    hits = every + [h for c in searches for h in hits_of(c)]
    found = next(((h, m) for h in hits if (m := _RATE_PER_DAY.search(str(h.get("text"))))), None)
    if found is None:
        if not any(c.input.get("question") == "출장 일비" for c in searches):
            return call(ctx, "search_regulations", {"question": "출장 일비"}), ""
        return None, ""
    source, match = found
    rate = int(match.group(1).replace(",", ""))
    citation = cite(
        ctx, str(source.get("doc_no")), source.get("version"), source.get("effective_from")
    )
    basis = f"{citation} {source.get('article_no') or ''}".strip()
    trip = _TRIP_DAYS.search(ctx.turn.question)
    days = int(trip.group(2) or trip.group(3)) if trip else nights + 1
    lodging, allowance = cap * nights, rate * days
    return None, ctx.t(
        f" 일비 {rate:,}원 × {days}일 = {allowance:,}원({basis})을 더하면 최대 "
        f"{lodging:,} + {allowance:,} = {lodging + allowance:,}원입니다.",
        f" With the daily allowance of {rate:,} won × {days} days = {allowance:,} won ({basis}), "
        f"the most is {lodging:,} + {allowance:,} = {lodging + allowance:,} won.",
    )


def _hypothetical_claim(ctx: Ctx) -> bool:
    """An amount is named and it is not about the caller's filed claims."""
    q = ctx.turn.question.lower()
    if _someones_filed(ctx):
        return False  # '곽호은 부장 … 224000원 승인났던데': that person's claim, as filed
    return ctx.ents.amount is not None and not any(w in q for w in ("청구", "claim"))


def _someones_filed(ctx: Ctx) -> bool:
    """A named person's claim spoken of as filed or approved."""
    q = ctx.turn.question
    return bool(named_people(q)) and _FILED.search(q) is not None


def plan_expense(ctx: Ctx) -> Blocks:
    """Check the caller's lodging claims against the lodging cap (arithmetic shown)."""
    numbers = list(dict.fromkeys(CLAIM_NO.findall(ctx.turn.question)))
    lodging = any(
        w in ctx.turn.question.lower() for w in ("숙박", "lodging", "hotel", "상한", "한도", "cap")
    )
    supposing = _SUPPOSED.search(ctx.turn.question) is not None and any(
        p in ctx.turn.question for p in PLACES
    )  # ('EXP-2025-0005 기타 지역이었으면 얼마까지?': reckoned as if stayed there)
    if numbers and not (_compliance(ctx) or lodging or supposing):
        return plan_claims(ctx)  # a claim named by its number: that claim's row
    emp_nos: list[str] = []
    if (named_people(ctx.turn.question) and _about_claims(ctx)) or _names_claimant(ctx):
        # Someone else's claims: resolved by name through the row filter first.
        blocks, people = named_targets(ctx)
        if blocks:
            return blocks
        emp_nos = [p.emp_no for p in people or [] if re.fullmatch(r"[0-9]{8}", p.emp_no)]
        if emp_nos and not (_compliance(ctx) or lodging):  # a lodging claim is checked
            return plan_claims(ctx, emp_nos)
    if _lists_claims(ctx) and not _rumoured(ctx):
        step, mine = _own_claims(ctx)
        if step:
            return step
        return plan_claims(ctx, mine, own=mine is not None)
    extra = f" {scope_qualifier(ctx)} 출장 적용" if scope_qualifier(ctx) else ""
    extra += " 초과 금액 본인 부담" if _hypothetical_claim(ctx) else ""
    step, ctx, search = _searched(ctx, "출장 숙박비 상한 " + " ".join(ctx.ents.keywords) + extra)
    if step:
        return step
    if search.failed:
        return answer(failure(ctx, search))
    hits = [
        h
        for h in hits_of(search)
        if "숙박" in str(h.get("text")) and amounts_in(str(h.get("text")))
    ]
    if not _about_claims(ctx) or _hypothetical_claim(ctx) or _rumoured(ctx):
        # ('15만원으로 올린다던데 그 기준으로 청구해도 돼?': the heard figure, not the claims)
        return _rule_cap(ctx, hits, hits_of(search))
    result = records_call(ctx)
    if result is None:
        sql = _EXPENSE_SQL
        if emp_nos:
            listed = ", ".join(f"'{e}'" for e in emp_nos)
            sql = sql.replace(" ORDER BY", f" AND 사번 IN ({listed}) ORDER BY")
        dept = department_of(ctx)  # a department named: its claims only
        if dept is not None:
            sql = sql.replace(" ORDER BY", f" AND 부서 = '{dept}' ORDER BY")
        if numbers:  # 'EXP-2025-0001이 규정에 맞아?': that claim checked
            listed = ", ".join(repr(n) for n in numbers)
            sql = sql.replace(" ORDER BY", f" AND 청구번호 IN ({listed}) ORDER BY")
        return call(ctx, "query_hr", {"question_sql": sql})
    if result.failed:
        return answer(failure(ctx, result))
    if not hits:
        return answer(not_found(ctx, ctx.t("숙박비 상한 규정", "lodging cap"), search))
    columns, rows = rows_of(result)
    if not rows:
        return answer(
            ctx.t(
                "조회 가능한 숙박비 청구 내역을 찾을 수 없습니다.",
                "No lodging claims are available to you (not found).",
            )
        )
    lines: list[str] = []
    overs: list[int] = []
    most = (0, "")
    # '그럼 부산이었으면?': the claims reckoned as if the stay had been in the place named
    supposed, supposed_as = "", ""
    lowered = ctx.turn.question.lower()
    named = [ko for en, ko in EN_TO_KO.items() if ko in PLACES and re.search(rf"\b{en}\b", lowered)]
    named += [p for p in PLACES if p in ctx.turn.question]
    if named and _SUPPOSED.search(ctx.turn.question):
        # only a place named supposes one ('청구였으면' is none)
        placed = replace(ctx, ents=replace(ctx.ents, keywords=named[:1]))
        supposed, supposed_as, _ = _region(placed, hits)
    region, status, exact, over_only = _claim_filters(ctx, supposed)
    counted = 0  # claims checked against their cap (listed or not)
    for row in rows:
        record = dict(zip(columns, row, strict=False))
        nights = int(record.get("숙박일수") or 0) or 1
        total = int(record.get("금액") or 0)
        if region and record.get("지역") != region:
            continue  # '광역시 출장숙박 청구 중에': that region's claims
        if status and record.get("상태") != status:
            continue  # 'which of those are still pending?': that status's
        if supposed and supposed != record.get("지역"):
            record["지역"] = ctx.t(
                f"{supposed_as}{josa(supposed_as, '이었다면', '였다면')} "
                f"({record.get('지역')} 대신)",
                f"had it been {supposed_as} (not {record.get('지역')})",
            )
        cap_info = _cap_for(hits, supposed or str(record.get("지역") or ""))
        if cap_info is None:
            continue
        cap, clause, hit = cap_info
        per_night = total // nights
        allowed = cap * nights
        over = total - allowed
        verdict = (
            ctx.t("상한 이내(적합)", "within the cap")
            if over <= 0
            else ctx.t(f"{over:,}원 초과", f"over the cap by {over:,} won")
        )
        citation = cite(ctx, str(hit.get("doc_no")), hit.get("version"), hit.get("effective_from"))
        article = str(hit.get("article_no") or "")
        who = f"{record.get('성명')}, " if record.get("성명") else ""
        lines.append(
            ctx.t(
                f"- 청구 {record.get('청구번호')} ({who}{record.get('지역')}, {nights}박, "
                f"{record.get('상태') or ''}): 청구액 {total:,}원 (1박 {per_night:,}원), "
                f"한도 {cap:,}원 × {nights}박 = {allowed:,}원 → {verdict}\n"
                f'  근거: {citation} {article} "{clause}"',
                f"- claim {record.get('청구번호')} ({who}{record.get('지역')}, {nights} nights, "
                f"{record.get('상태') or ''}): "
                f"claimed {total:,} won ({per_night:,} per night); cap {cap:,} × {nights} "
                f"= {allowed:,} won → {verdict}\n"
                f'  Source: {citation} {article} "{clause}"',
            )
        )
        counted += 1
        if (exact and over != 0) or (over_only and over <= 0):
            lines.pop()  # '딱 상한에 맞춘 건', '초과한 건 다 뽑아줘': only those listed
            if over > 0:
                overs.append(over)
            continue
        if over > 0:
            overs.append(over)
            most = max(most, (over, str(record.get("청구번호"))))
    if exact:
        return answer(_exact_lead(ctx, lines) + "\n".join(lines))
    if not lines and over_only and not overs:
        return answer(
            ctx.t(
                "조건에 맞는 숙박비 청구 중 상한을 넘은 건은 없습니다.",
                "None of the lodging claims asked about exceeds the cap.",
            )
        )
    if not lines:
        return answer(
            ctx.t(
                "숙박비 상한 금액을 규정에서 확인할 수 없습니다.\n",
                "I could not find the lodging cap amount.\n",
            )
            + table(columns, rows)
        )
    lead = (
        ctx.t(
            f"숙박비 청구 {counted}건 중 {len(overs)}건이 상한을 넘습니다.",
            f"{len(overs)} of {counted} lodging claim(s) exceed the cap.",
        )
        if overs
        else ctx.t(
            f"숙박비 청구 {counted}건 모두 상한 이내입니다.",
            f"All {counted} lodging claim(s) are within the cap.",
        )
    )
    if len(overs) > 1:
        # '… which one is over by the most?': the largest excess, named
        tied = overs.count(most[0]) > 1
        lead += ctx.t(
            f" 가장 많이 초과한 청구는 {most[1]}({most[0]:,}원 초과)입니다."
            if not tied
            else f" 가장 큰 초과액은 {most[0]:,}원입니다.",
            f" The largest excess is {most[1]} ({most[0]:,} won over)."
            if not tied
            else f" The largest excess is {most[0]:,} won.",
        )
    note = _excess_rule(ctx, hits_of(search)) if overs else ""
    return answer(lead + ctx.t(" 청구별 계산:\n", " Per claim:\n") + "\n".join(lines) + note)


_EXACT = re.compile(
    r"딱\s*상한|정확히\s*상한|상한에\s*(?:딱\s*)?맞춰|\bexactly (?:at|the) (?:the )?cap", re.I
)
_OVER_LISTED = re.compile(
    # ('… 청구한거 한도 넘은거지?' asks whether that one is over, not for those over)
    r"(?:초과한|넘은|넘는)\s*(?:건|거|것|청구)(?!지|죠|\s*맞)"
    r"|\b(?:went|go|goes|are) over\b|\bexceed(?:ed|s)?\b",
    re.I,
)
_PENDING_WORDS = re.compile(
    r"승인\s*대기|대기\s*중|아직\s*승인\s*(?:안|전)|\bpending\b|\bawaiting\b|\bnot yet approved\b"
    r"|\b(?:waiting|waits) (?:for|on) (?:approval|sign-?off)\b|\bstill waiting\b",
    re.I,
)
_STATUS_OF_CHECKED = re.compile(
    r"\bwhich (?:of (?:those|them|these) )?(?:were|was|are|got)\b.{0,24}\b(?:approved|pending)\b"
    r"|그\s?중(?:에)?.{0,12}(?:승인|대기).{0,6}(?:건|거)\s?(?:은|는)?\s?(?:어느|뭐|있)",
    re.I,
)
"""A claim's status asked of the claims checked, not a filter on them."""
_APPROVED_WORDS = re.compile(
    r"승인\s*(?:된|됐|난|완료)|\balready[- ]approved\b|\b(?:were|was|been) approved\b"
    r"|\bapproved (?:[a-z]+ )?(?:ones?|claims?|stays?|expenses?)\b",
    re.I,
)
_REGIONS = {"서울": "서울", "광역시": "광역시", "기타 지역": "기타 지역", "기타지역": "기타 지역"}


def _claim_filters(ctx: Ctx, supposed: str) -> tuple[str, str, bool, bool]:
    """(region, status, exactly at the cap, over the cap only) the question asks for."""
    q = ctx.turn.question
    region = ""
    if not supposed:
        region = next((r for w, r in _REGIONS.items() if w in q), "")
        if re.search(r"\bmetropolitan\b", q, re.I):
            region = "광역시"
        elif re.search(r"\bseoul\b", q, re.I):
            region = "서울"
    status = "승인대기" if _PENDING_WORDS.search(q) else "승인" if _APPROVED_WORDS.search(q) else ""
    if status and _STATUS_OF_CHECKED.search(q):
        status = ""  # '… which exceed, and which of those were approved anyway?': each status said
    return region, status, bool(_EXACT.search(q)), bool(_OVER_LISTED.search(q))


def _exact_lead(ctx: Ctx, lines: list[str]) -> str:
    if not lines:
        return ctx.t(
            "상한 금액과 정확히 같은 숙박비 청구는 없습니다.",
            "No lodging claim is exactly at the cap.",
        )
    return ctx.t(
        f"상한 금액과 정확히 같게 청구한 건은 {len(lines)}건입니다:\n",
        f"{len(lines)} claim(s) are exactly at the cap:\n",
    )


_EXCESS_SENTENCE = re.compile(r"[^.。]*초과[^.。]*부담[^.。]*[.。]")


def _excess_rule(ctx: Ctx, hits: list[dict[str, Any]]) -> str:
    """What the rule says about the excess, quoted from a search hit; nothing if none says."""
    for hit in hits:
        found = _EXCESS_SENTENCE.search(str(hit.get("text") or ""))
        if found:
            citation = cite(
                ctx, str(hit.get("doc_no")), hit.get("version"), hit.get("effective_from")
            )
            article = str(hit.get("article_no") or "")
            # the sentence and the exceptions after it ('다만 … 승인을 받은 경우에는 …')
            quoted = str(hit.get("text") or "")[found.start() :].strip()
            return ctx.t(
                f'\n초과분: "{quoted}" ({citation} {article})',
                f'\nOn the excess, the rule says: "{quoted}" ({citation} {article})',
            )
    return ""


_PO_SQL = "SELECT 발주번호, 부서, 성명, 품목, 금액, 상태 FROM semantic.hr.purchase_orders"
PO_NO = re.compile(r"(?<![A-Za-z0-9-])PO-\d{4}-\d{3}(?!\d)")
_WAITING = ("결재대기", "대기", "waiting", "pending", "awaiting", "미결")


def department_of(ctx: Ctx) -> str | None:
    """The 부서 code of a department the question names ('보안팀' → SEC)."""
    lowered = ctx.turn.question.lower()
    return next((code for word, code in DEPARTMENTS.items() if word in lowered), None)


def _po_sql(ctx: Ctx) -> str:
    conditions = []
    numbers = PO_NO.findall(ctx.turn.question)
    if numbers:
        conditions.append("발주번호 IN (" + ", ".join(f"'{n}'" for n in numbers[:5]) + ")")
    dept = department_of(ctx)
    if dept:
        conditions.append(f"부서 = '{dept}'")
    if any(w in ctx.turn.question.lower() for w in _WAITING):
        conditions.append("상태 = '결재대기'")
    where = " WHERE " + " AND ".join(conditions) if conditions else ""
    return f"{_PO_SQL}{where} ORDER BY 발주번호"


def _approver(hits: list[dict[str, Any]], amount: int) -> tuple[str, str, dict[str, Any]] | None:
    """(approver, band clause, hit) for an amount, from the guideline's bands."""
    for hit in hits:
        for clause in _subclauses(str(hit.get("text"))):
            band = _band(clause)
            if band and band[0] <= amount <= band[1]:
                who = clause.split(":", 1)[1].strip() if ":" in clause else clause
                return who, clause, hit
    return None


_SUM_ASKED = (
    "합치면",
    "합계",
    "총액",
    "총 금액",
    "총금액",
    "다 합",
    "더하면",
    "total",
    "sum",
    "in all",
    "combined",
    "add up",
    "altogether",
)


def _orders_total(ctx: Ctx, amounts: list[int], every: bool = False) -> str:
    """The orders' amounts added up, when the question asks for the sum (``every``: of
    all the orders visible, when only some are listed: '합계랑 제일 큰 건')."""
    if len(amounts) < 2 or not any(w in ctx.turn.question.lower() for w in _SUM_ASKED):
        return ""
    added = " + ".join(f"{a:,}" for a in amounts)
    if every:
        return ctx.t(
            f"\n조회 가능한 발주 {len(amounts)}건 합계: {added} = {sum(amounts):,}원",
            f"\nTotal of the {len(amounts)} orders visible: {added} = {sum(amounts):,} won",
        )
    return ctx.t(
        f"\n합계: {added} = {sum(amounts):,}원",
        f"\nTotal: {added} = {sum(amounts):,} won",
    )


def _in_status_line(ctx: Ctx, columns: list[str], rows: list[list[Any]]) -> str:
    """The orders in the status asked after the count ('… 반려된건 뭐야'), named."""
    at, no, item = (columns.index(c) for c in ("상태", "발주번호", "품목"))
    named = ", ".join(f"{r[no]} {r[item]}" for r in rows)
    status = str(rows[0][at]) if rows else ""
    return ctx.t(f"\n{status} 상태인 발주: {named}", f"\nIn status {status}: {named}")


_LARGEST_ORDER = (
    "largest",
    "biggest",
    "제일 큰",
    "가장 큰",
    "제일 비싼",
    "젤 큰",
    "젤 비싼",
    "가장 비싼",
    "최고액",
)


def _orders_asked(ctx: Ctx, columns: list[str], rows: list[list[Any]]) -> list[list[Any]]:
    """The orders the question asks for: over an amount named ('3천만원 넘는 발주'), or
    the largest ('Which purchase order is the largest'); all of them otherwise."""
    if "금액" not in columns or not rows:
        return rows
    at = columns.index("금액")
    lowered = ctx.turn.question.lower()
    if ctx.ents.amount is not None and any(w in lowered for w in OVER_WORDS):
        return [r for r in rows if int(r[at] or 0) > ctx.ents.amount]
    if any(w in lowered for w in _LARGEST_ORDER):
        top = max(int(r[at] or 0) for r in rows)
        return [r for r in rows if int(r[at] or 0) == top]
    return rows


BANDS_QUERY = "구매 결재 금액 결재권자"
"""The search that finds the purchase-approval bands (today's, or as of a date)."""
_DIFFERS = re.compile(r"달랐|다르|달라|같았|같아|같나|\bdiffer|\bsame\b|\bchange", re.I)
_THEN_RULE = re.compile(
    r"예전\s*기준|이전\s*기준|옛\s*기준|전\s*버전|개정\s*전|예전\s*규정|예전엔|전에는"
    r"|\bold (?:rule|standard|bands?|version)\b|\bbefore the (?:revision|change)\b"
    r"|\bprevious (?:rule|version|standard)\b",
    re.I,
)


def _bands_before(
    ctx: Ctx, cited: dict[str, Any]
) -> tuple[Blocks | None, tuple[str, list[dict[str, Any]]] | None]:
    """(a call to make first, None) or (None, (citation, bands)) of the version before
    the one cited; (None, None) when there is none."""
    doc_no = str(cited.get("doc_no"))
    described = [c for c in ctx.turn.all("describe_regulation") if c.input.get("doc_no") == doc_no]
    if not described:
        if not ctx.has("describe_regulation"):
            return None, None
        return call(ctx, "describe_regulation", {"doc_no": doc_no}), None
    versions = [
        v
        for v in (described[0].data or {}).get("versions") or []
        if isinstance(v, dict)
        and v.get("status") == "APPROVED"
        and int(v.get("version") or 0) < int(cited.get("version") or 0)
    ]
    if not versions:
        return None, None
    older = max(versions, key=lambda v: int(v.get("version") or 0))
    since = str(older.get("effective_from"))
    done = [c for c in ctx.turn.all("search_regulations") if c.input.get("as_of") == since]
    if not done:
        return call(ctx, "search_regulations", {"question": BANDS_QUERY, "as_of": since}), None
    hits = [
        h for h in hits_of(done[0]) if h.get("doc_no") == doc_no and amounts_in(str(h.get("text")))
    ]
    citation = cite(ctx, doc_no, older.get("version"), older.get("effective_from"))
    return None, (citation, hits)


def _then_line(
    ctx: Ctx,
    then: tuple[str, list[dict[str, Any]]],
    bands_now: list[dict[str, Any]],
    rows: list[list[Any]],
    columns: list[str],
) -> str:
    """Each order's approver under the version before, and whether any differs."""
    citation, hits = then
    parts, differs = [], False
    for row in rows:
        rec = dict(zip(columns, row, strict=False))
        amount = int(rec.get("금액") or 0)
        now = _approver(bands_now, amount)
        old = _approver(hits, amount)
        who = old[0] if old else ctx.t("확인 불가", "not found")
        parts.append(f"{rec.get('발주번호')} → {who}")
        differs = differs or (old is not None and now is not None and old[0] != now[0])
    verdict = ctx.t(
        "결재권자가 달라지는 발주가 있습니다." if differs else "결재권자는 같습니다.",
        "Some approver differs." if differs else "The approvers are the same.",
    )
    return ctx.t(
        f"{citation} 기준으로는: {', '.join(parts)} — {verdict}",
        f"Under {citation}: {', '.join(parts)} — {verdict}",
    )


def plan_purchase_orders(ctx: Ctx) -> Blocks:
    """Purchase orders the caller may see, each with its approver from the guideline's bands."""
    result = ctx.turn.last("query_hr")
    if result is None:
        return call(ctx, "query_hr", {"question_sql": _po_sql(ctx)})
    if result.failed:
        return answer(failure(ctx, result))
    columns, rows = rows_of(result)
    visible = len(rows)
    apart = status_asked_apart(ctx.turn.question)
    in_status = of_status(ctx, columns, rows)
    if not apart:
        rows = in_status
    whose = set(looked_up(named_people(ctx.turn.question)))  # (a romanized name too)
    if not whose and ctx.asker and MINE.search(_GROUP_OWNED.sub(" ", ctx.turn.question)):
        whose = {ctx.asker}  # 'my … PO': the asker's own orders ('my team's': the team's)
    if whose and "성명" in columns:
        # '노민준 발주한 거': that person's orders, when the caller may see any of them.
        at = columns.index("성명")
        rows = [r for r in rows if str(r[at]) in whose] or rows
    every = rows
    rows = _orders_asked(ctx, columns, rows)
    if not rows:
        return answer(nothing_visible(ctx, ctx.t("해당 발주", "those purchase orders")))
    step = _search_first(ctx, BANDS_QUERY)
    if step:
        return step
    search = ctx.turn.all("search_regulations")[0]  # (a later one is of the version before)
    hits = [h for h in hits_of(search) if amounts_in(str(h.get("text")))]
    then_asked: tuple[str, list[dict[str, Any]]] | None = None
    if ctx.ents.as_of and _DIFFERS.search(ctx.turn.question) and hits:
        # '그거 2024년 상반기에 올렸으면 결재권자 달랐나?': the bands then beside today's
        undated = [c for c in ctx.turn.all("search_regulations") if not c.input.get("as_of")]
        if not undated:
            return call(ctx, "search_regulations", {"question": BANDS_QUERY})
        then_hit = hits[0]
        then_asked = (
            cite(ctx, str(then_hit.get("doc_no")), then_hit.get("version"),
                 then_hit.get("effective_from")),
            hits,
        )  # fmt: skip
        hits = [h for h in hits_of(undated[0]) if amounts_in(str(h.get("text")))]
    wanted = next((v for k, v in APPROVERS.items() if k in ctx.turn.question.lower()), None)
    lines, cited, listed = [], None, 0
    amounts: list[int] = []
    for row in rows:
        rec = dict(zip(columns, row, strict=False))
        amount = int(rec.get("금액") or 0)
        found = _approver(hits, amount)
        who = found[0] if found else ctx.t("결재권자 확인 불가", "approver not found")
        named = bool(PO_NO.search(ctx.turn.question))
        # ('how many are pending, and does any of them need the CEO?': all of them, each
        # with its approver, not only the CEO's)
        whether = _ANY_OF_THEM.search(ctx.turn.question) is not None
        if wanted and not named and not whether and (found is None or wanted not in found[0]):
            continue
        if wanted and named:
            yes = found is not None and wanted in found[0]
            lines.append(
                ctx.t(
                    f"{'네' if yes else '아니요'}, {rec.get('발주번호')}는 {wanted} 결재 "
                    f"{'대상입니다' if yes else '대상이 아닙니다'}.",
                    f"{'Yes' if yes else 'No'}: {rec.get('발주번호')} "
                    f"{'needs' if yes else 'does not need'} {wanted}'s approval.",
                )
            )
        cited = cited or (found[2] if found else None)
        listed += 1
        amounts.append(amount)
        head = f"- {rec.get('발주번호')} ({rec.get('부서')}, {rec.get('성명')}) {rec.get('품목')}"
        lines.append(
            ctx.t(
                f"{head}: {amount:,}원, 상태 {rec.get('상태')} → {who}",
                f"{head}: {amount:,} won, status {rec.get('상태')} → {who}",
            )
        )
    if lines and then_asked is not None:
        lines.append(_then_line(ctx, then_asked, hits, rows, columns))
    elif lines and cited and _THEN_RULE.search(ctx.turn.question):
        # '예전 기준이었으면 결재권자 달랐나?': each order under the version before, too
        step, then = _bands_before(ctx, cited)
        if step:
            return step
        if then is not None:
            lines.append(_then_line(ctx, then, hits, rows, columns))
    if not lines:
        return answer(
            ctx.t(
                f"조회된 발주 {len(rows)}건 중 {wanted} 결재 대상은 없습니다.",
                f"None of the {len(rows)} purchase order(s) visible to you needs {wanted}.",
            )
        )
    source = ""
    if cited:
        citation = cite(
            ctx, str(cited.get("doc_no")), cited.get("version"), cited.get("effective_from")
        )
        source = ctx.t(
            f"\n결재권자는 {titled(cited, citation)} {cited.get('article_no') or ''}의 금액 "
            "구간 기준입니다.",
            f"\nApprovers from the amount bands of {titled(cited, citation)} "
            f"{cited.get('article_no') or ''}.",
        )
    if listed < visible:
        # the largest, those over an amount, those in a status: of the orders visible
        heading = ctx.t(
            f"조회 권한 범위 안의 발주 {visible}건 중 해당하는 {listed}건입니다:\n",
            f"{listed} of the {visible} purchase order(s) visible to you:\n",
        )
    else:
        heading = ctx.t(
            f"조회 권한 범위 안의 발주 {listed}건입니다:\n",
            f"{listed} purchase order(s) visible to you:\n",
        )
    return answer(
        heading
        + "\n".join(lines)
        + (
            _orders_total(ctx, amounts)
            if len(rows) == len(every)
            else _orders_total(ctx, [int(r[columns.index("금액")] or 0) for r in every], every=True)
        )
        + (_in_status_line(ctx, columns, in_status) if apart and in_status != rows else "")
        + source
        + ctx.t(
            "\n권한 밖의 발주는 보이지 않으므로 포함되지 않았습니다.",
            "\nPurchase orders outside your access are not visible and are not included.",
        )
    )
