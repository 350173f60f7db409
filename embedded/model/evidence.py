"""The question's own words read against the articles a search returned.

The planner's word lists miss words they were never taught: '보안사고' ends in
-고 and is read as a verb, '발견했는데' is dropped as one. Before a plan says the
regulations do not cover a question, the question as written is searched, and the
article sharing most of its syllable pairs with it answers: the platform's
retrieval ranks, the question's own syllables confirm. Nothing here knows a
topic; the vocabulary is whatever the search returned.

A Korean word is matched by its syllable pairs ('업무분장' meets '분장 업무'), the
question's endings and particles cut first and its question words ('며칠',
'누구한테') left out, so that what is left is what it is about.
"""

from __future__ import annotations

import re
from typing import Any

from embedded.model.entities import strip_particle
from embedded.model.lexicon import POINTING_BACK

MIN_SHARED = 2
"""Syllable pairs an article must share with the question to answer it."""
_MOST_QUOTED = 3
"""Articles quoted when several speak to the question equally."""

_HANGUL_RUN = re.compile(r"[가-힣]+")
_SPACES = re.compile(r"\s+")

# Words that ask or point rather than name a subject: no pair of theirs tells one
# article from another.
_ASKING = frozenset(
    "어떻게 어떤 얼마 얼마나 얼마까지 얼마야 며칠 몇일 누가 누구 누구한테 누구에게 누구야 "
    "언제 언제까지 어디 어디서 무엇 무슨 뭐야 뭐지 뭐가 뭐부터 뭘로 뭐든 있어 있나 있나요 "
    "있어요 있는지 없어 되나 "
    "되나요 돼요 되는 하나 해야 해야돼 해야해 하는 하는지 하면 해도 알려 알려줘 알려주세요 궁금 "
    "궁금해 질문 제가 저는 내가 나는 우리 우리팀 회사 직원 규정 지침 규칙 기준 사규 관련 경우 "
    "그냥 혹시 지금 요즘 같은 같아 같은데 정도 대해 대한 좀 있으면 없으면 어떻게돼 되는지 거야 "
    "건가 건지 건가요 거예요 인가요 인지 라고 이라고 받아야 받을 받으려면".split()
    # Dates and alternatives: when, not what ('다음주 월요일', '아님 당일에').
    + "다음주 다음 이번주 이번 지난주 지난 월요일 화요일 수요일 목요일 금요일 토요일 일요일 "
    "내일 오늘 어제 모레 올해 작년 내년 금년 아님 아니면 그럼".split()
)
# Verb and sentence endings cut from a word's end, longest first (the stem keeps two syllables).
_ENDINGS = tuple(
    sorted(
        set(
            "했는데 하는데 했어 했어요 하려면 하려고 하려는 하면 하고 해서 해도 해야 했고 하는 "
            "한 할 되면 되고 돼서 돼도 되는 된 될 되나 되나요 돼요 됐어 됐는데 이면 이고 "
            "인데 인지 이야 는데 은데 려면 려고 으면 "
            "면 고 서 도 요 야 지 나 니 까 어 아 게 죠 는 은 을 를".split()
        ),
        key=len,
        reverse=True,
    )
)
# Pairs that are endings or glue in any sentence ('하는', '있는', '에서'): no evidence.
_GLUE_PAIRS = frozenset(
    "하는 되는 있는 하여 한다 해야 하고 에서 으로 이나 이면 에게 까지 부터 하면 하게 해서 했는 "
    "는데 있어 있나 되나 어야 아야 한테 하려 려면 으면 니다 습니 합니 입니 세요 주세".split()
)


def _stem(word: str) -> str:
    word = strip_particle(word)
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 2:
            return word[: -len(ending)]
    return word


def _words(text: str) -> list[frozenset[str]]:
    """Each content word of a text as its syllable pairs (question words, endings, glue out)."""
    found: list[frozenset[str]] = []
    for raw in _HANGUL_RUN.findall(text):
        if raw in _ASKING:
            continue
        whole = strip_particle(raw)
        word = _stem(whole)
        if word in _ASKING or len(word) < 2:
            continue
        # The stem's pairs, and the whole word's: an ending may be a noun's own end
        # ('보안사고' is no verb in -고), and an ending's pairs are glue anyway.
        own = frozenset({whole[i : i + 2] for i in range(len(whole) - 1)} - _GLUE_PAIRS)
        if not own:
            continue
        # One word said twice ('신청해' and the topic word '신청') is one word.
        same = next((k for k, w in enumerate(found) if w & own), None)
        if same is None:
            found.append(own)
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
# asked kind of thing ('언제까지' — '1월 말까지', '2주 안에') meets one more of its words.
_ASKED_KINDS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (
        re.compile(r"언제까지|마감|기한|기간 안|deadline|by when|how long do"),
        re.compile(
            r"\d+\s*(?:일|주|개월|시간|년)\s*(?:안에|이내|전까지|전에|까지)|월\s*말까지|까지\s"
        ),
    ),
    (
        re.compile(r"얼마|금액|how much|amount"),
        re.compile(r"\d[\d,]*\s*(?:원|만원|퍼센트|%)"),
    ),
    (
        re.compile(
            r"몇\s*(?:명|시간|회|번|개월|년|주)|how many (?:people|hours|times|months|years)"
        ),
        re.compile(r"\d+\s*(?:명|시간|회|번|개월|년|주)"),
    ),
)


def _states_asked(text: str, hay: str) -> bool:
    lowered = text.lower()
    return any(asks.search(lowered) and states.search(hay) for asks, states in _ASKED_KINDS)


def strength(text: str, hit: dict[str, Any]) -> tuple[int, int]:
    """``(words met, pairs shared)``: how strongly an article speaks to ``text``.

    A word is met when at least half of its syllable pairs are in the article
    ('돌봄휴가' is not met by '휴가' alone); pairs break ties between articles that
    meet as many words.
    """
    hay = _hay(hit)
    words = _words(text)
    met = sum(2 * sum(p in hay for p in w) >= len(w) for w in words)
    met += _states_asked(text, str(hit.get("text") or ""))
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


# Syllables that end a verb or a sentence: a long word ending so is no subject noun.
_VERB_TAIL = frozenset("다요고서도야데지까줘해돼죠네면어아게는은을를라려며니거")


def misses_subject(text: str, hit: dict[str, Any], others: list[dict[str, Any]]) -> bool:
    """A long noun of the question ('법인차량') that no article names, only its sibling.

    A compound of four syllables or more is what the question is specifically
    about; when neither the article nor any other hit of the search meets it, the
    article meeting the question's other words ('개인 용도') is about something else
    (the card, not the car).
    """
    hays = [_hay(h) for h in [hit, *others]]
    # Only the question's first long noun: where a Korean question states its subject
    # ('법인차량 주말에 …'); a later one ('프로젝트에 오픈소스 라이브러리') is context.
    for raw in _HANGUL_RUN.findall(text):
        word = _stem(strip_particle(raw))
        for particle in _MORE_PARTICLES:  # '사규처럼' is 사규 + 처럼
            if word.endswith(particle) and len(word) - len(particle) >= 2:
                word = word[: -len(particle)]
                break
        if len(word) < 4 or word[-1] in _VERB_TAIL or word in _ASKING:
            continue
        own = [word[i : i + 2] for i in range(len(word) - 1)]
        # A sibling of the word is in the article ('법인' of 법인카드 for '법인차량'), the
        # word itself nowhere: the article is about that sibling. A word none of whose
        # pairs appears ('프로젝트에 … 라이브러리') is context, not the subject.
        sibling = any(p in hays[0] for p in own)
        return sibling and all(2 * sum(p in hay for p in own) < len(own) for hay in hays)
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
    if met < min(2, count) or shared_pairs < MIN_SHARED or misses_subject(text, best, hits):
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


def points_back(question: str) -> bool:
    """True when the question points at something said before ('그때 말한', 'last time')."""
    lowered = f" {question.lower()} "
    return any(w in lowered for w in POINTING_BACK)
