"""The question's own words read against the articles a search returned.

The planner's word lists miss words they were never taught: '보안사고' ends in
-고 and is read as a verb, '발견했는데' is dropped as one. Before a plan says the
regulations do not cover a question, the question as written is searched, and the
article that meets most of its words answers: the platform's retrieval ranks, the
question's own words confirm. Nothing here knows a topic; the vocabulary is
whatever the search returned (the question words and endings cut first live in
the lexicon).

A Korean word is matched by its syllable pairs ('업무분장' meets '분장 업무'), the
question's endings and particles cut first and its question words ('며칠',
'누구한테') left out, so that what is left is what it is about.
"""

from __future__ import annotations

import re
from typing import Any

from embedded.model.entities import extract, strip_particle
from embedded.model.lexicon import (
    BEYOND_THE_TOOLS,
    CHATTER,
    EVIDENCE_ASKING,
    EVIDENCE_ENDINGS,
    EVIDENCE_GLUE,
    LEAVE_TYPES,
    OFF_TOPIC,
    PERIOD_WORDS,
    POINTING_BACK,
    TOPIC_WORDS,
)

MIN_SHARED = 2
"""Syllable pairs an article must share with the question to answer it."""
_MOST_QUOTED = 3
"""Articles quoted when several speak to the question equally."""

_HANGUL_RUN = re.compile(r"[가-힣]+")
_SPACES = re.compile(r"\s+")


def _stem(word: str) -> str:
    word = strip_particle(word)
    for ending in EVIDENCE_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 2:
            return word[: -len(ending)]
    return word


def _words(text: str) -> list[frozenset[str]]:
    """Each content word of a text as its syllable pairs (question words, endings, glue out)."""
    found: list[frozenset[str]] = []
    for raw in _HANGUL_RUN.findall(text):
        if raw in EVIDENCE_ASKING:
            continue
        whole = strip_particle(raw)
        word = _stem(whole)
        if word in EVIDENCE_ASKING or len(word) < 2:
            continue
        # The stem's pairs, and the whole word's: an ending may be a noun's own end
        # ('보안사고' is no verb in -고), and an ending's pairs are glue anyway.
        own = frozenset({whole[i : i + 2] for i in range(len(whole) - 1)} - EVIDENCE_GLUE)
        if not own:
            continue
        # One word said twice ('신청해' and the topic word '신청') is one word.
        same = next((k for k, w in enumerate(found) if w <= own or own <= w), None)
        if same is None:
            found.append(own)  # ('승인하는거' and '승인해' share a pair, yet each is met)
        else:
            found[same] |= own
    return found


def pairs(text: str) -> frozenset[str]:
    """The syllable pairs of a text's Korean words, question words and endings left out."""
    return frozenset().union(*_words(text))


def _hay(hit: dict[str, Any]) -> str:
    text = f"{hit.get('title') or ''}{hit.get('article_title') or ''}{hit.get('text') or ''}"
    return _SPACES.sub("", text)


# What a question asks for, and how an article states it: an article that states the
# asked kind of thing ('언제까지' — '1월 말까지', '2주 안에') meets two more of its words.
_AMOUNT_RULED = re.compile(r"\d[\d,]*\s*(?:원|만원|퍼센트|%)")
"""An amount or share an article states ('3만원 이하', '90퍼센트')."""
_ASKED_KINDS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (
        re.compile(r"언제까지|마감|기한|기간 안|deadline|by when|how long do"),
        re.compile(
            r"\d+\s*(?:일|주|개월|시간|년)\s*(?:안에|이내|전까지|전에|까지)|월\s*말까지|까지\s"
        ),
    ),
    (re.compile(r"얼마|금액|how much|amount|\bvalue\b|\bworth\b"), _AMOUNT_RULED),
    (
        re.compile(
            r"몇\s*(?:명|시간|회|번|개월|년|주)|how many (?:people|hours|times|months|years)"
        ),
        re.compile(r"\d+\s*(?:명|시간|회|번|개월|년|주)"),
    ),
)


def states_asked(text: str, hay: str) -> bool:
    """The question asks a kind of thing ('언제까지', '얼마') that the article states."""
    lowered = text.lower()
    return any(asks.search(lowered) and states.search(hay) for asks, states in _ASKED_KINDS)


_AMOUNT_GIVEN = re.compile(r"\d[\d,]*+\s*+(?:만\s*)?원|\d[\d,]*+\s*+(?:won|krw)\b", re.I)


def holds_amount(text: str, hay: str) -> bool:
    """The question names an amount ('5만원짜리 … 받아도 돼?') and the article states one
    to hold it against ('3만원 이하')."""
    return bool(_AMOUNT_GIVEN.search(text)) and bool(_AMOUNT_RULED.search(hay))


def strength(text: str, hit: dict[str, Any]) -> tuple[int, int]:
    """``(words met, pairs shared)``: how strongly an article speaks to ``text``.

    A word is met when at least half of its syllable pairs are in the article
    ('돌봄휴가' is not met by '휴가' alone); pairs break ties between articles that
    meet as many words.
    """
    hay = _hay(hit)
    words = _words(text)
    met = sum(2 * sum(p in hay for p in w) >= len(w) for w in words)
    # What the question asks ('언제까지') outweighs a word it names ('서류'): the article
    # stating a deadline answers it, not the one merely about the papers.
    met += 2 * states_asked(text, str(hit.get("text") or ""))
    return met, sum(p in hay for p in frozenset().union(*words))


# Particles the lexicon's list leaves on a word ('사규처럼', '부서마다').
_MORE_PARTICLES = ("처럼", "같이", "보다", "마다", "만큼", "대로", "까지", "부터", "한테", "이랑")


def weight(text: str, hit: dict[str, Any]) -> tuple[int, int, int]:
    """``(words the heading and text meet, words met with the title too, pairs)``.

    The title is every article's of a document: it tells documents apart, not the
    articles inside one ('오픈소스 사용지침' is in both 제3조 and 제6조), so the
    article's own words rank first.
    """
    own = strength(text, {**hit, "title": ""})[0]
    met, shared_pairs = strength(text, hit)
    return own, met, shared_pairs


_ASKING_HEADS = tuple("뭐 뭘 무엇 얼마 몇 누구 누가 언제 어디 어떤 무슨 어느".split())

# Particles of place or time: a noun carrying one says where or when, not what about.
_CONTEXT_PARTICLES = ("에", "에서", "에는", "에서는", "엔", "에도", "때", "때는")

# Syllables that end a verb made to qualify a noun ('들어온', '바뀐', '지난'): no subject.
_ADNOMINAL = frozenset("온운인한된던될할난린진간")

# Syllables that end a verb or a sentence: a long word ending so is no subject noun.
_VERB_TAIL = frozenset(
    "다요고서도야데지까줘해돼죠네면어아게는은을를라려며니거었았였겠셨했됐줌됨함져때"
)


_AMOUNT_WORD = re.compile(r"[십백천만억]*원(?:짜리|어치|정도|가량|씩|대|까지|이면|인데)")


def misses_subject(text: str, hit: dict[str, Any], others: list[dict[str, Any]]) -> bool:
    """A long noun of the question ('법인차량') that no article names, only its sibling.

    A compound of four syllables or more is what the question is specifically
    about; when neither the article nor any other hit of the search meets it, the
    article meeting the question's other words ('개인 용도') is about something else
    (the card, not the car).
    """
    hays = [_hay(h) for h in [hit, *others]]
    if _absent_subject(text, hit, hays):
        return True
    # a kind of leave named ('병가는 1년에 며칠 유급이야?') that the article does not
    # name: it is about another leave (childcare leave is paid too)
    named = {v for k, v in LEAVE_TYPES.items() if re.search(r"[가-힣]", k) and k in text}
    if named and not any(kind in hays[0] for kind in named):
        return True
    # Only the question's first long noun: where a Korean question states its subject
    # ('법인차량 주말에 …'); a later one ('프로젝트에 오픈소스 라이브러리') is context.
    for raw in _HANGUL_RUN.findall(text):
        word = _stem(strip_particle(raw))
        for particle in _MORE_PARTICLES:  # '사규처럼' is 사규 + 처럼
            if word.endswith(particle) and len(word) - len(particle) >= 2:
                word = word[: -len(particle)]
                break
        if word.endswith("여") and word[-2:-1] in _VERB_TAIL:
            word = word[:-1]  # '지원해줘여', '되나여': a casual ending, still a verb
        if len(word) < 4 or word[-1] in _VERB_TAIL or word in EVIDENCE_ASKING:
            continue
        if _AMOUNT_WORD.match(word):
            continue  # '5만원짜리': the rest of an amount, no subject
        own = [word[i : i + 2] for i in range(len(word) - 1)]
        # A sibling of the word is in the article ('법인' of 법인카드 for '법인차량'), the
        # word itself nowhere: the article is about that sibling. A word none of whose
        # pairs appears ('프로젝트에 … 라이브러리') is context, not the subject.
        sibling = any(p in hays[0] for p in own)
        return sibling and all(2 * sum(p in hay for p in own) < len(own) for hay in hays)
    return False


def unnamed_nouns(words: list[str], hits: list[dict[str, Any]]) -> list[str]:
    """The long nouns among ``words`` ('흡연구역', three syllables or more) that no hit
    names even in part (no syllable pair of theirs in any hit): subjects the
    regulations found do not speak of."""
    hays = [_hay(h) for h in hits]
    found = []
    for word in words:
        word = word[:-1] if word.endswith("들") and len(word) > 3 else word  # '신입들'
        if (
            len(word) < 3
            or not _HANGUL_RUN.fullmatch(word)
            or word[-1] in _VERB_TAIL
            or word[-1] in _ADNOMINAL
            or word in PERIOD_WORDS
        ):
            continue
        pairs = [word[i : i + 2] for i in range(len(word) - 1)]
        if not any(p in hay for hay in hays for p in pairs):
            found.append(word)
    return found


def says_where(text: str, noun: str) -> bool:
    """The noun carries a particle of place or time in the question ('협력사에서')."""
    at = text.find(noun)
    return at >= 0 and text[at + len(noun) :].startswith(_CONTEXT_PARTICLES)


_GENERIC_NOUNS = ("지원", "제도", "규정", "관련", "기준", "내용", "직원", "회사")


def _absent_subject(text: str, hit: dict[str, Any], hays: list[str]) -> bool:
    """The question's first topic noun of three syllables or more ('동호회', '헬스장')
    is named by no article at all, and the article meets fewer than two of its other
    words whole: the article is about something else. A noun saying where or when
    ('프로젝트에') is context, and is passed over."""
    for noun in extract(text).keywords:
        noun = _stem(noun)  # ('승인하는거' is 승인)
        if len(noun) < 3 or not _HANGUL_RUN.fullmatch(noun) or noun.startswith(_ASKING_HEADS):
            continue  # '뭐부터', '얼마짜리': what is asked, not what about
        at = text.find(noun)
        after = text[at + len(noun) :] if at >= 0 else ""
        if noun.endswith(_CONTEXT_PARTICLES) or (at >= 0 and after.startswith(_CONTEXT_PARTICLES)):
            continue
        own = [noun[i : i + 2] for i in range(len(noun) - 1)]
        # Named when most of its pairs are in one article ('자금' alone does not name 학자금)
        if any(2 * sum(p in hay for p in own) > len(own) for hay in hays):
            return False
        # The other words met whole ('이용료' is not met by '이용하였다'):
        rest = text.replace(noun, " ")
        for generic in _GENERIC_NOUNS:  # '지원 제도': said of every benefit, no topic
            rest = rest.replace(generic, " ")
        met = sum(all(p in hays[0] for p in w) for w in _words(rest))
        # the kind of thing asked, stated ('한도 얼마' — '3만원 이하'), is met too
        met += states_asked(text, str(hit.get("text") or ""))
        return met < 2
    return False


def states_a_rule(hit: dict[str, Any]) -> bool:
    """An article of purpose or commencement ('제1조 목적', '부칙 시행일') names its topics
    but states no rule about them: it answers no question but what the document is for."""
    heading = str(hit.get("article_title") or "")
    return heading not in ("목적", "시행일") and str(hit.get("article_no") or "") != "부칙"


def answering(text: str, hits: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The articles that answer ``text``, best first, or [].

    Articles are ranked by the words of the question they meet, then the pairs
    they share, then the search's own order. The best must meet two words (its
    one word, for a question of one) and share ``MIN_SHARED`` pairs, so that one
    common word ('휴가', '사업장') finds no answer to '반려동물 돌봄휴가' or '전보되면
    이사비'. Articles that speak to it as strongly are quoted beside it (three at
    most): the search cannot tell which one the question means, and where two
    documents disagree ('매년 2월' in one, '매년 3월' in another) the reader sees both.
    """
    count = len(_words(text))
    scored = [(weight(text, h), i, h) for i, h in enumerate(hits) if states_a_rule(h)]
    scored.sort(key=lambda s: (-s[0][0], -s[0][1], -s[0][2], s[1]))
    if not scored:
        return []
    (_, met, shared_pairs), _, best = scored[0]
    # An article stating the kind of thing asked ('얼마' — '3만원') needs one shared pair
    # besides ('선물'): the figure asked for is the rest of the evidence.
    best_text = str(best.get("text") or "")
    needed = 1 if states_asked(text, best_text) or holds_amount(text, best_text) else MIN_SHARED
    if met < min(2, count) or shared_pairs < needed or misses_subject(text, best, hits):
        return []
    chosen = [best]
    texts = {_SPACES.sub("", str(best.get("text")))}
    for score, _, hit in scored[1:]:
        if score != scored[0][0] or len(chosen) == _MOST_QUOTED:
            break
        text_of = _SPACES.sub("", str(hit.get("text")))
        if text_of not in texts:  # the same sentence in a second document is said once
            chosen.append(hit)
            texts.add(text_of)
    return chosen


_CHATTER_NOISE = re.compile(r"[ㄱ-ㅣ]+|\d+|[^\w\s]+")


_RULE_WORDS = (
    "규정", "지침", "기준", "규칙", "휴가", "출장", "근무", "수당", "rule", "policy",
    "regulation", "guideline", "allowed", "can i", "may i", "leave", "trip", "work",
)  # fmt: skip
"""Words that make a question about the weather one about a rule ('폭설 때 재택근무 기준')."""
_OFF_TOPIC = re.compile(
    "|".join(rf"\b{re.escape(w)}\b" if w.isascii() else re.escape(w) for w in OFF_TOPIC)
)
"""``OFF_TOPIC`` words; an English one whole ('rain' is not in 'training')."""


_BEYOND = re.compile("|".join(BEYOND_THE_TOOLS), re.I)


def beyond_the_tools(question: str) -> bool:
    """An opinion asked of the model, or a task done for the asker (``BEYOND_THE_TOOLS``)."""
    return _BEYOND.search(question) is not None


def chatter(question: str) -> bool:
    """True when a message is chatter only: laughter and jamo ('ㅋㅋ', 'ㅁㄴㅇㄹ'),
    interjections and mic checks (``CHATTER``), digits, punctuation, keyboard mash —
    or a question on a subject no regulation or record speaks of (``OFF_TOPIC``:
    the weather, a football score) that names no topic of theirs."""
    lowered = question.lower()
    if _OFF_TOPIC.search(lowered) and not any(w in lowered for w in (*TOPIC_WORDS, *_RULE_WORDS)):
        return True
    words = _CHATTER_NOISE.sub(" ", question).lower().split()
    return all(
        w in CHATTER or (w.isascii() and len(w) >= 3 and not re.search(r"[aeiouy]", w))
        for w in words
    )


_HAD_TO = re.compile(r"(?:어|아|여)야\s*했던\s*거")


def points_back(question: str) -> bool:
    """True when the question points at something said before ('그때 말한', 'last time')."""
    # ('승인 받았어야 했던 거야?': what had to be done, not something said before)
    lowered = _HAD_TO.sub(" ", f" {question.lower()} ")
    # A Korean pointer opens its word ('그게'), it is not the end of one ('잠그게').
    return any(
        re.search(rf"(?<![가-힣]){re.escape(w)}", lowered) if _HANGUL_RUN.match(w) else w in lowered
        for w in POINTING_BACK
    )
