"""Vocabulary for the planner: how words in a question map to intents and search words.

Vocabulary only: no answers, figures, document numbers or dates live here.
"""

from __future__ import annotations

# English phrases → Korean words the regulations use (for search and matching).
EN_TO_KO: dict[str, str] = {
    "childcare leave": "육아휴직",
    "childcare": "육아",
    "parental leave": "육아휴직",
    "annual leave": "연차휴가",
    "disciplinary": "징계",
    "discipline": "징계",
    "penalty": "양정",
    "penalties": "양정",
    "information security": "정보보안",
    "security": "보안",
    "business trip": "출장",
    "lodging": "숙박",
    "hotel": "숙박",
    "expense": "경비",
    "purchase order": "발주",
    "purchase": "구매",
    "approval": "결재",
    "year-end tax": "연말정산",
    "contact": "연락처",
    "pet": "반려동물",
    "regulation": "규정",
    "guideline": "기준",
}

# English phrases that name a regulation title (→ the Korean words of that title).
EN_TITLE_WORDS: dict[str, list[str]] = {
    "disciplinary penalty": ["징계", "양정"],
    "childcare support": ["육아지원"],
    "annual leave": ["연차휴가"],
    "information security": ["정보보안"],
}

# Leave topics: question word → the 휴가유형 value in the HR leave view.
LEAVE_TYPES: dict[str, str] = {
    "육아휴직": "육아휴직",
    "육아": "육아휴직",
    "childcare": "육아휴직",
    "parental": "육아휴직",
    "연차": "연차",
    "annual leave": "연차",
}

# Words that carry no topic: ignored when checking that a hit is about the question.
STOPWORDS: frozenset[str] = frozenset(
    {
        "며칠",
        "몇",
        "며칠까지",
        "얼마나",
        "알려줘",
        "알려",
        "주세요",
        "있어",
        "있나요",
        "있어요",
        "쓸",
        "수",
        "나",
        "내",
        "우리",
        "지금",
        "현재",
        "당장",
        "기준",
        "규정",
        "지침",
        "무슨",
        "어떤",
        "언제",
        "언제부터",
        "누가",
        "해",
        "해야",
        "하나요",
        "이야",
        "뭐야",
        "보여줘",
        "관련",
        "대한",
        "되는",
        "전부",
        "다시",
        "사번",
        "개정",
        "요청",
        "사유",
        "짜리",
        "대해",
        "직원",
        "직원들",
        "곧",
        "바뀌는",
        "것도",
        "있으면",
        "이",
        "그",
        "what",
        "how",
        "many",
        "days",
        "day",
        "can",
        "i",
        "take",
        "me",
        "show",
        "the",
        "of",
        "is",
        "a",
        "an",
        "do",
        "have",
        "left",
        "my",
        "for",
        "in",
        "to",
        "are",
        "which",
        "when",
        "guideline",
        "regulation",
        "rule",
        "policy",
    }
)

# Korean particles stripped from the end of a word before matching.
PARTICLES: tuple[str, ...] = (
    "에서는",
    "으로는",
    "에서",
    "으로",
    "에게",
    "까지",
    "부터",
    "에는",
    "이란",
    "이야",
    "은",
    "는",
    "이",
    "가",
    "을",
    "를",
    "에",
    "의",
    "로",
    "도",
    "와",
    "과",
    "란",
)

# Suffixes that make a word a regulation title.
TITLE_SUFFIXES: tuple[str, ...] = ("운영지침", "규정", "지침", "기준", "규칙", "세칙", "공지")

# Words that may precede a bare title suffix without being part of the title.
NOT_TITLE_WORDS: frozenset[str] = frozenset(
    {"근거", "상위", "관련", "어떤", "무슨", "이", "그", "내", "우리", "해당", "모든", "전체"}
)

# Intent cue words (Korean and English), checked against the lower-cased question.
CUES: dict[str, tuple[str, ...]] = {
    "revision_request": (
        "개정 요청",
        "개정요청",
        "revision request",
        "request a revision",
        "request revision",
    ),
    "national_id": ("주민등록번호", "주민번호", "resident registration", "national id"),
    "impact": ("영향", "impact", "affected"),
    "related": ("온톨로지", "ontology", "related regulation", "연결된 규정", "관련 규정"),
    "authority": ("근거", "상위 규정", "authority", "derives from", "based on"),
    "describe": (
        "무슨 규정",
        "몇 차",
        "어떤 규정",
        "what is",
        "what regulation",
        "which regulation",
    ),
    "pending_status": ("개정안", "draft", "시행됐", "시행되었", "시행된"),
    "upcoming": (
        "곧 바뀌",
        "바뀌는",
        "예정",
        "upcoming",
        "change soon",
        "지금 당장",
        "right now",
        "앞으로",
    ),
    "approval_ceiling": ("결재", "전결", "approve", "approval"),
    "purchase": ("발주", "구매", "purchase"),
    "expense": ("숙박", "출장", "경비", "lodging", "hotel", "expense"),
    "comply": ("맞아", "맞나", "적합", "초과", "규정에", "comply", "within", "allowed"),
    "remaining": ("남았", "남은", "잔여", "left", "remaining"),
    "usage": ("썼어", "사용 현황", "사용현황", "얼마나 썼", "사용했", "used", "usage"),
    "effective_date": (
        "언제부터",
        "시행일",
        "언제 시행",
        "when did",
        "effective date",
        "since when",
    ),
    "days": ("며칠", "몇 일", "몇일", "how many days", "days"),
    "contact": ("연락처", "전화", "담당자", "contact", "phone"),
    "self": ("나 ", "내 ", "제 ", "my ", " i ", "i have"),
    "department": ("우리 부서", "부서 직원", "our team", "my team", "department"),
}
