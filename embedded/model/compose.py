"""Shared pieces for planning and composing answers: context, citations, hit reading."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from embedded.model.entities import strip_particle
from embedded.model.lexicon import OUT_OF_SCOPE_WORDS, SCOPE_QUALIFIERS
from embedded.model.wire import new_id

if TYPE_CHECKING:
    from embedded.model.conversation import ToolCall, Turn
    from embedded.model.entities import Entities

Blocks = list[dict[str, Any]]
"""Reply content blocks (text and tool_use)."""

# 'N일' as a number of days: not a day of the month ('매월 21일', '1월 1일').
_DAYS = re.compile(r"(?<![월\d])(?<!월\s)(\d{1,3})\s*일(?!자|\s*당|\s*마다|\s*기준)")
"""A figure of days (not a rate: '출장 1일당 25,000원' states no duration)."""
_SENTENCE = re.compile(r"[^.\n。]+")
_GRANT_WORDS = ("부여", "사용할 수", "최대", "연간", "한도", "지급")

NARRATION: dict[str, tuple[str, str]] = {
    "search_regulations": ("규정을 검색하겠습니다.", "Searching the regulations."),
    "get_effective_version": ("시행 중인 버전을 확인하겠습니다.", "Checking the version in force."),
    "trace_authority": ("근거 규정을 추적하겠습니다.", "Tracing the authority chain."),
    "impact_of_change": ("영향을 받는 문서를 확인하겠습니다.", "Checking dependent documents."),
    "query_hr": ("인사 데이터를 조회하겠습니다.", "Querying HR data."),
    "pending_revision": ("진행 중인 개정을 확인하겠습니다.", "Checking pending revisions."),
    "describe_regulation": ("규정 정보를 조회하겠습니다.", "Looking up the regulation."),
    "related_regulations": ("온톨로지 링크를 따라가겠습니다.", "Following the ontology links."),
    "request_regulation_revision": (
        "개정 요청을 제출하겠습니다. 승인이 필요합니다.",
        "Submitting a revision request; it needs approval.",
    ),
}


@dataclass(frozen=True, slots=True)
class Ctx:
    """Everything a plan step may read."""

    turn: Turn
    """The question and the tool calls so far."""
    ents: Entities
    """Entities of the question."""
    tools: frozenset[str]
    """Tools the client offered."""
    asker: str = ""
    """Display name of the person asking (from the system prompt's identity line)."""
    today: str = ""
    """The platform's today from the system prompt's date line ('' when absent)."""

    @property
    def ko(self) -> bool:
        """True when the answer is in Korean."""
        return self.ents.lang == "ko"

    def t(self, ko: str, en: str) -> str:
        """Pick the Korean or English wording."""
        return ko if self.ko else en

    def has(self, tool: str) -> bool:
        """True when the client offered this tool."""
        return tool in self.tools


def call(ctx: Ctx, name: str, args: dict[str, Any]) -> Blocks:
    """Return a narration block and one tool_use block (or an answer if the tool is absent)."""
    if not ctx.has(name):
        return answer(
            ctx.t(
                f"이 질문에 필요한 도구({name})를 사용할 수 없어 확인할 수 없습니다.",
                f"The tool {name} is not available, so I cannot check this.",
            )
        )
    tool_id = new_id("toolu_")
    narration = NARRATION.get(name, ("도구를 호출하겠습니다.", "Calling a tool."))
    return [
        {"type": "text", "text": ctx.t(*narration)},
        {"type": "tool_use", "id": tool_id, "name": name, "input": args},
    ]


def answer(text: str) -> Blocks:
    """Return a final answer."""
    return [{"type": "text", "text": text}]


def cite(ctx: Ctx, doc_no: str, version: Any, effective: Any) -> str:
    """Format a citation: ``HR-REG-003 제3차 (시행 2025-03-15)`` / ``version 3 (effective …)``."""
    if version is None:
        return doc_no
    if effective:
        return ctx.t(
            f"{doc_no} 제{version}차 (시행 {effective})",
            f"{doc_no} version {version} (effective {effective})",
        )
    return ctx.t(f"{doc_no} 제{version}차", f"{doc_no} version {version}")


def failure(ctx: Ctx, call_: ToolCall) -> str:
    """Say that a tool call failed or was refused, without inventing anything."""
    message = call_.error_text
    denied = any(
        w in message.lower() for w in ("denied", "forbidden", "not allowed", "권한", "거부")
    )
    if denied:
        return ctx.t(
            f"권한이 없어 조회할 수 없습니다 (거부됨: {message}).",
            f"This is not available to you: the request was denied ({message}).",
        )
    return ctx.t(
        f"조회가 실패하여 확인할 수 없습니다 ({message}).",
        f"The lookup failed, so I cannot confirm this ({message}).",
    )


# The three honest non-answers (SPEC §5): worded apart, and only the last speaks
# of access — and only when a tool actually came back empty.
NOT_UNDERSTOOD_KO = "질문을 이해하지 못했습니다"
"""Opening words of the 'did not understand' answer (Korean)."""
NOT_UNDERSTOOD_EN = "I (the offline demo model) did not understand this"
"""Opening words of the 'did not understand' answer (English)."""


def not_understood(ctx: Ctx) -> str:
    """The planner did not understand the question (it is a planner, not an LLM)."""
    return ctx.t(
        f"{NOT_UNDERSTOOD_KO}. 저는 정해진 유형의 질문에만 답하는 오프라인 데모 모델"
        "(결정적 플래너, LLM 아님)입니다. 이런 질문에 답할 수 있습니다: "
        "'나 육아휴직 며칠 남았어?', '육아지원규정은 지금 몇 차가 시행 중이야?', "
        "'서울 출장 숙박비 한도가 얼마야?', 'HR-REG-003 근거 규정 알려줘'.",
        f"{NOT_UNDERSTOOD_EN} question — it is a deterministic planner, not an LLM. "
        "Questions I can answer: 'How many days of childcare leave do I have left?', "
        "'Which version of the childcare support rule is in force today?', "
        "'What is the lodging limit for a business trip to Seoul?', "
        "'Which regulations derive from the HR rule?'.",
    )


def not_covered(ctx: Ctx, what: str) -> str:
    """The tools answered, but no regulation they returned covers ``what``."""
    return ctx.t(
        f"조회된 규정은 '{what}'에 대해 다루지 않습니다. 해당 내용을 규정에서 찾을 수 없어 "
        "추측하지 않겠습니다.",
        f"The regulations do not cover '{what}': no regulation found addresses it, "
        "so I will not guess.",
    )


def nothing_visible(ctx: Ctx, what: str) -> str:
    """A tool came back empty: nothing the caller may see (the one non-answer about access)."""
    return ctx.t(
        f"'{what}'에 대해 조회 가능한 결과가 없습니다. 플랫폼이 보여줄 수 있는 자료를 돌려주지 "
        "않았습니다 (권한 밖이거나 존재하지 않는 정보일 수 있어 추측하지 않겠습니다).",
        f"Nothing came back that you may see for '{what}': it is not available to you (you "
        "may not have access) or does not exist, so I will not guess.",
    )


def came_back_empty(call_: ToolCall | None) -> bool:
    """True when a call succeeded and returned no hits, rows or object at all."""
    if call_ is None or call_.failed or call_.data is None:
        return False
    data = call_.data
    for key in ("hits", "rows", "pending"):
        if key in data:
            return not data[key]
    if "regulation" in data:
        return data["regulation"] is None
    if "version" in data:
        return data["version"] is None
    return False


def not_found(ctx: Ctx, what: str, source: ToolCall | None = None) -> str:
    """Say nothing answers ``what``: 'nothing you may see' only when ``source`` came back empty.

    A regulation search that matched no text at all means the regulations do not
    speak of it (the words of the question are in none of them): that is "not
    covered", not a question of access. An empty record lookup is what may be
    withheld from the caller, and says so.
    """
    if came_back_empty(source) and source is not None and source.name != "search_regulations":
        return nothing_visible(ctx, what)
    return not_covered(ctx, what)


def squash(text: str) -> str:
    """Lower-case and drop whitespace, for matching Korean words written with or without spaces."""
    return re.sub(r"\s+", "", text).lower()


def hits_of(call_: ToolCall | None) -> list[dict[str, Any]]:
    """Return the hits of a search call (empty when it failed)."""
    if call_ is None or call_.failed or call_.data is None:
        return []
    hits = call_.data.get("hits") or []
    return [h for h in hits if isinstance(h, dict)]


def known_titles(ctx: Ctx) -> dict[str, str]:
    """Titles of documents learnt from this turn's results (describe, versions, graph rows)."""
    titles: dict[str, str] = {}
    for call_ in ctx.turn.calls:
        data = call_.data or {}
        if call_.failed:
            continue
        found: list[Any] = [data.get("regulation"), data.get("version")]
        found += list(data.get("rows") or []) if call_.name != "query_hr" else []
        for item in found:
            if isinstance(item, dict) and item.get("doc_no") and item.get("title"):
                titles.setdefault(str(item["doc_no"]), str(item["title"]))
    return titles


def with_titles(ctx: Ctx, hits: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The hits with a title filled in where the search result gave none and one is known."""
    titles = known_titles(ctx)
    return [
        h if h.get("title") or str(h.get("doc_no")) not in titles
        else {**h, "title": titles[str(h.get("doc_no"))]}
        for h in hits
    ]  # fmt: skip


def title_of(hit: dict[str, Any]) -> str:
    """A hit's title, or its document number when the result gave no title."""
    return str(hit.get("title") or hit.get("doc_no") or "")


def titled(hit: dict[str, Any], citation: str, around: str = "{title} {citation}") -> str:
    """``around`` filled with the hit's title and the citation; the citation alone untitled.

    The citation already names the document, so a missing title is left out
    rather than replaced by the document number a second time.
    """
    title = str(hit.get("title") or "")
    return around.format(title=title, citation=citation) if title else citation


_TITLE_LOOKUPS = 3


def describe_untitled(ctx: Ctx, hits: list[dict[str, Any]]) -> Blocks | None:
    """Ask for the title of the next untitled document among the top hits, or None.

    A search result may carry no titles (the reference client's prose gives
    document number, version and article only); a question that names a
    regulation by title needs them, so the top few documents are described.
    """
    if not ctx.has("describe_regulation"):
        return None
    asked = {str(c.input.get("doc_no")) for c in ctx.turn.all("describe_regulation")}
    candidates: list[str] = []
    for hit in with_titles(ctx, hits):
        doc_no = str(hit.get("doc_no") or "")
        if doc_no and doc_no not in candidates:
            candidates.append(doc_no)
            if not hit.get("title") and doc_no not in asked:
                return call(ctx, "describe_regulation", {"doc_no": doc_no})
        if len(candidates) >= _TITLE_LOOKUPS:
            break
    return None


def hits_about(hits: list[dict[str, Any]], words: list[str]) -> list[dict[str, Any]]:
    """Return the hits about the question's topic.

    The first topic word (the subject) must appear, and at least half of the
    others, so one stray word in a question does not hide a real answer while an
    unknown subject ('반려동물') still finds nothing.
    """
    if not words:
        return list(hits)
    hays = [
        squash(f"{hit.get('title', '')} {hit.get('article_title') or ''} {hit.get('text', '')}")
        for hit in hits
    ]
    subject = squash(words[0])
    # A word no hit mentions ('생겼', '찍혀') tells no hit from another: filler, not counted.
    rest = [w for w in (squash(w) for w in words[1:]) if any(w in hay for hay in hays)]
    return [
        hit
        for hit, hay in zip(hits, hays, strict=True)
        if subject in hay and sum(w in hay for w in rest) >= len(rest) // 2
    ]


# Words that name a kind of document, not what a question asks about it.
_GENERIC_PREFIXES = ("규정", "지침", "규칙", "기준", "사규처럼", "규정대", "내용")


def content_words(keywords: list[str]) -> list[str]:
    """The question's words that can tell one article from another (document-kind words out)."""
    return [w for w in keywords if not w.startswith(_GENERIC_PREFIXES) and len(w) >= 2]


_TOKEN = re.compile(r"[가-힣A-Za-z0-9]+")


def _hay(hit: dict[str, Any]) -> tuple[str, list[str]]:
    """An article's title, heading and text: squashed, and as its words."""
    text = f"{hit.get('title') or ''} {hit.get('article_title') or ''} {hit.get('text') or ''}"
    return squash(text), [t.lower() for t in _TOKEN.findall(text)]


def _word_in(word: str, hay: tuple[str, list[str]]) -> bool:
    """True when the article has ``word`` inside one of its words (a compound counts:
    '교육' in '안전보건교육'), or, for a longer Korean word, a word starting with its
    two-syllable stem ('접속' for '접속하려면'). Never across a space: '이 사업장' holds
    no '이사'. A phrase of several words ('코드 리뷰') is matched spacing ignored.
    """
    squashed, tokens = hay
    if " " in word.strip():
        return squash(word) in squashed
    word = word.lower()
    if len(word) >= 3 and any(word in t for t in tokens):
        return True
    # A two-syllable word begins or ends a word of the text ('교육' ends '안전보건교육'),
    # never sits inside one by chance ('전보' in '안전보건').
    if any(t.startswith(word) or strip_particle(t).endswith(word) for t in tokens):
        return True
    stem = word[:2]
    return len(word) >= 3 and "가" <= word[0] <= "힣" and any(t.startswith(stem) for t in tokens)


def article_score(hit: dict[str, Any], words: list[str]) -> int:
    """How many of ``words`` an article's title and text mention.

    A word that is a whole word of the article's own title ('긴급' of '긴급 구매')
    counts twice: that article is about it, not merely mentioning it.
    """
    heading = str(hit.get("article_title") or "")
    hay = _hay(hit)
    own = {squash(w) for w in heading.split()}
    whole = squash(heading)

    def heads(word: str) -> bool:
        # '금품수수' heads '제3조 금품 수수' though the heading spaces it
        key = squash(word)
        return key in own or (len(key) >= 4 and key in whole)

    return sum(_word_in(w, hay) + heads(w) for w in words)


def article_matches(hit: dict[str, Any], words: list[str]) -> int:
    """How many different ``words`` an article mentions."""
    hay = _hay(hit)
    return sum(_word_in(w, hay) for w in words)


def best_articles(
    hits: list[dict[str, Any]], keywords: list[str], limit: int = 2, weak: tuple[str, ...] = ()
) -> list[dict[str, Any]]:
    """The articles among ``hits`` that speak to the question, best first, or [].

    Retrieval found the hits; the question's own words decide which article answers
    it. An article counts only when it mentions at least two of the question's
    content words (the one word, for a one-word question), one of them no ``weak``
    word (a noun read off a verb, '적용' of '적용되면', tells little alone), and only
    the best-scoring articles are kept, so a neighbouring article is never quoted
    for the asked one.
    """
    words = content_words(keywords)
    if not words or not hits or all(w in weak for w in words):
        return []
    if len(words) == 1:
        # One word decides alone only as itself: its stem ('진행' of '진행상태') is no topic.
        one = squash(words[0])
        hits = [h for h in hits if one in squash(f"{h.get('article_title')} {h.get('text')}")]
    need = min(2, len(words))
    scored = []
    for i, hit in enumerate(hits):
        hay = _hay(hit)
        matched = [w for w in words if _word_in(w, hay)]
        if len(matched) >= need and any(w not in weak for w in matched):
            scored.append((article_score(hit, words), i, hit))
    if not scored:
        return []
    best = max(s for s, _, _ in scored)
    chosen = sorted((t for t in scored if t[0] == best), key=lambda t: t[1])
    return [h for _, _, h in chosen[:limit]]


def hits_titled(hits: list[dict[str, Any]], words: list[str]) -> list[dict[str, Any]]:
    """Return the hits whose regulation title contains every title word (best match first)."""
    wanted = [squash(w) for w in words if squash(w) not in ("공지", "안내")] or [
        squash(w) for w in words
    ]
    return [h for h in hits if all(w in squash(str(h.get("title", ""))) for w in wanted)]


def rows_of(call_: ToolCall | None) -> tuple[list[str], list[list[Any]]]:
    """Return (columns, rows) of a query_hr call."""
    if call_ is None or call_.data is None:
        return [], []
    columns = [str(c) for c in call_.data.get("columns") or []]
    rows = [r for r in call_.data.get("rows") or [] if isinstance(r, list)]
    return columns, rows


MOST_DAYS = re.compile(
    r"(?:최대|최장|총\s*일수는)\s*(\d{1,3})\s*일|(\d{1,3})\s*일[을를]?\s*(?:한도|상한|초과할 수 없)"
)


def days_in(text: str, topic: list[str], most: bool = False) -> int | None:
    """Return the first 'N일' figure in a sentence that mentions the topic.

    Args:
        text: Article text.
        topic: Words the sentence should mention (any of them).
        most: The most is asked ('최대 몇일'): a figure the sentence states as the
            limit ('총 일수는 27일을 한도로') comes before its first figure.

    Returns:
        The number of days, or None when no sentence states one.
    """
    sentences = _SENTENCE.findall(text)
    on_topic = [s for s in sentences if any(squash(w) in squash(s) for w in topic)]
    # A sentence on every topic word ('연차휴가 … 6일까지 … 이월') answers before one
    # on the subject alone; a sentence that grants something states the entitlement.
    every = [s for s in on_topic if all(squash(w) in squash(s) for w in topic)]
    granting = [s for s in on_topic if any(w in s for w in _GRANT_WORDS)]
    # Only a sentence on the topic states its figure: another sentence's 'N일' is
    # another rule's (a lodging cap's nights are no settlement deadline).
    ordered = every + granting + on_topic if topic else sentences
    if most:
        for sentence in ordered:
            limit = MOST_DAYS.search(sentence)
            if limit:
                return int(limit.group(1) or limit.group(2))
    for sentence in ordered:
        match = _DAYS.search(sentence)
        if match:
            return int(match.group(1))
    return None


def days_sentence(text: str, days: int) -> str:
    """The sentence of ``text`` that states ``days`` (quoted with the figure), or ''."""
    for sentence in _SENTENCE.findall(text):
        if any(int(m.group(1)) == days for m in _DAYS.finditer(sentence)):
            return sentence.strip()
    return ""


def doc_hits(hits: list[dict[str, Any]], doc_no: str) -> list[dict[str, Any]]:
    """Return the hits of one document."""
    return [h for h in hits if h.get("doc_no") == doc_no]


def today_of(ctx: Ctx) -> str:
    """Today's date as the platform's undated searches report it, else as the system
    prompt's date line gives it ('' when neither has)."""
    for c in ctx.turn.all("search_regulations"):
        today = str((c.data or {}).get("as_of") or "") if not c.input.get("as_of") else ""
        if today:
            return today
    return ctx.today


# (a line marked '(local clock)' is the machine's date, not the platform's: not used)
_TODAY_LINE = re.compile(r"\bToday is (\d{4}-\d{2}-\d{2})\.(?!\s*\(local clock\))")


def today_in(system: str) -> str:
    """The ISO date of the system prompt's 'Today is …' line, when the platform told it
    ('' when absent, or marked '(local clock)': the machine's date may not be the
    platform's)."""
    match = _TODAY_LINE.search(system or "")
    return match.group(1) if match else ""


def in_days(ctx: Ctx, when: Any) -> str:
    """'(21일 뒤)' / ' (in 21 days)' after a date still to come, '' otherwise."""
    today = today_of(ctx)
    try:
        left = (date.fromisoformat(str(when)) - date.fromisoformat(today)).days
    except ValueError:
        return ""
    if left <= 0:
        return ""
    return ctx.t(f"({left}일 뒤)", f" (in {left} days)")


def date_note(ctx: Ctx, hit: dict[str, Any]) -> str:
    """Disclose a stated/approved date mismatch, or return ''."""
    if not hit.get("date_mismatch"):
        return ""
    stated, effective = hit.get("stated_from"), hit.get("effective_from")
    return ctx.t(
        f" 참고: 부칙에 기재된 시행일 {stated}과 승인일 {effective}가 다르며, "
        f"승인일 기준으로 {effective}부터 시행된 것으로 봅니다.",
        f" Note: the document states {stated} as its start date, but it was approved "
        f"on {effective}; the approval date governs, so it applies from {effective}.",
    )


_DIGIT_HAS_FINAL = {"0": True, "1": True, "3": True, "6": True, "7": True, "8": True}


def josa(word: str, after_final: str, after_vowel: str) -> str:
    """Pick the Korean particle that fits the word's last sound ('은'/'는', '이'/'가').

    Args:
        word: The word the particle follows.
        after_final: The form used after a final consonant (받침).
        after_vowel: The form used after a vowel.

    Returns:
        One of the two forms.
    """
    text = word.rstrip(" )")
    if not text:
        return after_final
    last = text[-1]
    if "가" <= last <= "힣":
        return after_final if (ord(last) - 0xAC00) % 28 else after_vowel
    if last.isdigit():
        return after_final if _DIGIT_HAS_FINAL.get(last, False) else after_vowel
    return after_final


def scope_qualifier(ctx: Ctx) -> str | None:
    """The scope word the question puts on the rule ('해외' for 'overseas'), if any."""
    lowered = ctx.turn.question.lower()
    for word, said in SCOPE_QUALIFIERS:
        if any(said_in(w, lowered) for w in said):
            return word
    return None


def said_in(word: str, lowered: str) -> bool:
    """A word of the question, whole: an English one between word boundaries ('paris' is
    not in 'comparison'), a Korean one not the tail of a longer word ('파리' of '해파리')."""
    if word.isascii():
        return re.search(rf"\b{re.escape(word)}\b", lowered) is not None
    return re.search(rf"(?<![가-힣]){re.escape(word)}", lowered) is not None


def out_of_scope(ctx: Ctx, hits: list[dict[str, Any]]) -> tuple[str, dict[str, Any]] | None:
    """The rule sentence that leaves the question's scope out ('해외 출장은 별도로 정한다')."""
    word = scope_qualifier(ctx)
    if word is None:
        return None
    for hit in hits:
        for sentence in re.split(r"(?<=[.다])\s+|,\s*", str(hit.get("text"))):
            if word in sentence and any(w in sentence for w in OUT_OF_SCOPE_WORDS):
                return str(hit.get("text")).strip(), hit
    return None


def scope_answer(ctx: Ctx, found: tuple[str, dict[str, Any]]) -> Blocks:
    """The rule found leaves the question's scope out: said, with the sentence that does."""
    text, hit = found
    word = scope_qualifier(ctx) or ""
    citation = cite(ctx, str(hit.get("doc_no")), hit.get("version"), hit.get("effective_from"))
    article = str(hit.get("article_no") or "")
    return answer(
        ctx.t(
            f"조회된 규정은 {word} 출장을 다루지 않습니다. "
            f'{titled(hit, citation)} {article}: "{text}" — 이 지침은 {word} 출장에 '
            "적용되지 않으므로, 그 금액을 이 지침으로 답할 수 없습니다.",
            f"The regulations found do not cover this: {titled(hit, citation)} {article} says "
            f'"{text}" — its caps do not apply to {word} (overseas) trips, so no cap for them '
            "can be given from it (no regulation found sets one).",
        )
    )
