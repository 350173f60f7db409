"""The question's own words read against the articles found (issue 13).

``evidence`` decides which article a question written in words the lexicon was
never taught points at, and when none does; ``conflicts`` finds another
document stating the same point otherwise. Pure functions over hit dicts.
"""

from __future__ import annotations

from typing import Any

from embedded.model.conflicts import conflicting
from embedded.model.evidence import (
    answering,
    misses_subject,
    pairs,
    points_back,
    states_a_rule,
    strength,
)


def hit(
    doc_no: str, heading: str, text: str, article: str = "제3조", title: str = ""
) -> dict[str, Any]:
    return {
        "doc_no": doc_no,
        "title": title,
        "article_no": article,
        "article_title": heading,
        "text": text,
    }


INCIDENT = hit(
    "SEC-REG-001", "보안사고 대응", "보안사고를 발견한 직원은 즉시 보안팀에 신고하여야 한다."
)
PURPOSE = hit("SEC-REG-001", "목적", "이 규정은 보안사고를 예방하기 위한 사항을 정한다.", "제1조")
CHECKS = hit("SEC-REG-002", "보안 점검", "보안팀은 부서별 보안 점검을 정기적으로 한다.")
LEAVE_APPLY = hit("HR-GDL-002", "신청 방법", "연차휴가는 사용 예정일 전날까지 신청한다.")
CARD = hit(
    "FIN-GDL-002", "사용 제한", "법인카드는 유흥업소, 개인 용도의 물품 구매에 사용할 수 없다."
)


def test_pairs_keep_the_subject_and_drop_question_words_and_endings() -> None:
    found = pairs("보안사고 같아 보이는 걸 발견했는데 제가 뭐부터 해야 돼요?")
    assert {"보안", "사고", "발견"} <= found  # '보안사고' is no verb in -고
    assert not {"제가", "뭐부", "해야", "돼요"} & found


def test_the_article_meeting_most_words_answers_and_purpose_articles_never() -> None:
    question = "보안사고를 발견하면 누구한테 신고해?"
    assert answering(question, [PURPOSE, CHECKS, INCIDENT]) == [INCIDENT]
    assert not states_a_rule(PURPOSE)
    # Without the article on it, the purpose article (it names the topic) is no answer.
    assert answering(question, [PURPOSE]) == []


def test_one_common_word_is_no_answer() -> None:
    # '휴가' and '신청' alone do not make the annual-leave article an answer on pet leave.
    assert answering("반려동물 돌봄휴가는 어떻게 신청해?", [LEAVE_APPLY]) == []
    assert answering("연차휴가는 언제까지 신청해?", [LEAVE_APPLY]) == [LEAVE_APPLY]


def test_equally_strong_articles_are_quoted_together_in_search_order() -> None:
    first = hit("GEN-REG-002", "직무 분장", "각 부서의 분장 업무는 매년 3월에 검토한다.")
    second = hit("GEN-RUL-002", "직무 분장", "각 부서의 분장 업무는 매년 2월에 검토한다.")
    assert answering("부서 분장 업무 검토는 몇 월이야?", [first, second]) == [first, second]


def test_the_kind_of_thing_asked_counts_for_an_article_stating_one() -> None:
    dated = hit("HR-GDL-010", "일정", "직원은 1월 말까지 인사시스템에 제출한다.")
    undated = hit("HR-GDL-010", "제출 서류", "직원은 가족관계증명서를 함께 제출한다.")
    question = "연말정산 마감 언제까지야?"
    assert strength(question, dated)[0] == strength(question, undated)[0] + 2
    # what is asked outweighs a word named: '서류' in the heading does not win it back
    papers = "연말정산 서류 언제까지 내?"
    assert strength(papers, dated)[0] > strength(papers, undated)[0]


def test_a_long_noun_no_article_names_means_another_subject() -> None:
    assert misses_subject("법인차량 주말에 개인 용도로 써도 돼?", CARD, [CARD])
    car = hit("FIN-GDL-009", "법인차량", "법인차량은 업무 용도로만 운행한다.")
    assert not misses_subject("법인차량 주말에 개인 용도로 써도 돼?", CARD, [CARD, car])
    # A verb, however long, is no subject ('승인해줘도').
    assert not misses_subject("승인해줘도 돼?", CARD, [CARD])


def test_pointing_back() -> None:
    assert points_back("그거 그때 말한 거 몇이었지")
    assert points_back("pls do the thing from before")
    assert not points_back("육아휴직 며칠 남았어?")


def test_another_document_stating_the_point_otherwise_is_a_conflict() -> None:
    regulation = hit(
        "SAF-REG-001", "안전교육", "전 직원은 분기마다 6시간의 안전보건교육을 받아야 한다."
    )
    guideline = hit(
        "SAF-GDL-002", "안전교육", "전 직원은 분기마다 3시간의 안전보건교육을 받아야 한다."
    )
    twin = hit("SAF-GDL-001", "안전교육", "전 직원은 분기마다 6시간의 안전보건교육을 받아야 한다.")
    assert conflicting(regulation, [regulation, twin, guideline]) == [guideline]
    assert conflicting(regulation, [twin, CARD]) == []  # the same text, or another point
