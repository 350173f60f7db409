"""Entity extraction from a question: documents, dates, people, amounts, titles."""

from __future__ import annotations

import calendar
import functools
import re
from dataclasses import dataclass, field
from datetime import date, timedelta

from embedded.model.lexicon import (
    ALIASES,
    CUES,
    EN_COMMON,
    EN_REWRITES,
    EN_SHORTHAND,
    EN_TITLE_WORDS,
    EN_TO_KO,
    GENERIC_TITLE_HEADS,
    KO_PHRASES,
    LEAVE_TYPES,
    NOT_TITLE_WORDS,
    PARTICLES,
    STOPWORDS,
    TITLE_SUFFIXES,
    TOPIC_WORDS,
)

_DOC_NO = re.compile(r"(?<![A-Za-z0-9-])[A-Z]{2,4}-[A-Z]{2,4}-\d{3}(?!\d)")
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{1,2})(?:-(\d{1,2}))?\b")
_KO_DATE = re.compile(r"(\d{4}|(?<!\d)\d{2})\s*년\s*(\d{1,2})\s*월(?:\s*(\d{1,2})\s*일)?")
"""'2025년 2월 (1일)', and '25년 2월' (a two-digit year before a month is this century's)."""
_EN_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
# 'Feb 1, 2025', 'Sept. 2024': abbreviated months too (the longest name tried first)
_EN_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
_EN_MONTHS["sept"] = 9
_MONTH_NAMES = "|".join(sorted(_EN_MONTHS, key=len, reverse=True))
_EN_DATE = re.compile(
    r"\b(" + _MONTH_NAMES + r")\.?\s+(?:(\d{1,2})(?:st|nd|rd|th)?,?\s+)?(\d{4})\b"
    r"|\b(\d{1,2})(?:st|nd|rd|th)?\s+(" + _MONTH_NAMES + r")\.?,?\s+(\d{4})\b",
    re.I,
)
_KO_YEAR = re.compile(
    r"(\d{4})\s*년(?!\s*\d{1,2}\s*월)\s*(연말|말|하반기|연초|초|상반기|중반|봄|여름|가을|겨울)?"
    # '23년 상반기': a two-digit year only with the part of it named (not '근속 23년')
    r"|(?<!\d)(\d{2})\s*년\s*(연말|하반기|연초|상반기|중반|봄|여름|가을|겨울|초(?!과)|말(?!\w))"
)
_EN_YEAR = re.compile(
    r"\b(?:(end|close|beginning|start|early|late|middle|mid|spring|summer|autumn|fall|winter)"
    r"(?:\s+of\s+|-|\s+))?"
    r"(?:in\s+|as\s+of\s+|of\s+)?(?<![-\w])((?:19|20)\d{2})(?![-\w])",
    re.I,
)
_KO_RELATIVE = re.compile(
    r"(재작년|작년|지난\s*+해|(?<!\d)(\d{1,3}+)\s*+년\s*+전|(?<!\d)(\d{1,3}+)\s*+(?:개월|달)\s*+전)"
    r"\s*+(이맘때|말|연말|초|연초)?"
)
_MONTH_AFTER = re.compile(r"\s*+(?:에\s*+)?(\d{1,2})\s*+월\s*+(초|중순|말)?")
"""A month named right after a relative year ('작년 3월 초')."""
_EN_RELATIVE = re.compile(
    r"\b(?:(end|beginning|start) of\s++)?(last year|a year ago|one year ago|(\d{1,3}+) years? ago"
    r"|(\d{1,3}+) months? ago|(two|three|four|five|six) years ago)\b",
    re.I,
)
_KO_MONTH_DAY = re.compile(r"(?<![\d년])(?<!년\s)(\d{1,2})\s*+월\s*+(\d{1,2})\s*+일")
_EN_MONTH_DAY = re.compile(
    r"\b(" + _MONTH_NAMES + r")\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?!,?\s*+\d)", re.I
)
_YEAR_PART = {
    "연말": (12, 31),
    "말": (12, 31),
    "하반기": (12, 31),
    "end": (12, 31),
    "close": (12, 31),
    "late": (12, 31),
    "연초": (1, 1),
    "초": (1, 1),
    "beginning": (1, 1),
    "start": (1, 1),
    "early": (1, 1),
    "상반기": (6, 30),
    "중반": (6, 30),
    "middle": (6, 30),
    "mid": (6, 30),
    # a season: its last month's end ('2021년 여름' is 2021-08-31)
    "봄": (5, 31),
    "spring": (5, 31),
    "여름": (8, 31),
    "summer": (8, 31),
    "가을": (11, 30),
    "autumn": (11, 30),
    "fall": (11, 30),
    "겨울": (12, 31),
    "winter": (12, 31),
}
_LONE_PARTICLE = re.compile(
    r"(?:^|\s)(?:에는|에서는|에서|에|의|까지는|까지|부터는|부터|으로는|으로|로는|로|엔|은|는)(?=\s|$)"
)
_EMP_NO = re.compile(r"(?<!\d)(\d{8})(?!\d)")
# ('v3은': a Korean particle may follow the number, so no word boundary is asked there)
_VERSION = re.compile(
    r"(?<!\d)(\d{1,4}+)\s*+차|\bversion\s*+(\d{1,4}+)(?![\d.])|\bv(\d{1,4}+)(?![\d.A-Za-z])"
    # '직제규칙 3판', '제2판' (not '판매', '판단')
    r"|(?<!\d)(\d{1,2}+)\s?판(?![매단결정례])",
    re.I,
)
_HANGUL = re.compile(r"[가-힣]")
_JAMO = re.compile(r"[ㄱ-ㅣ]")
_WORD = re.compile(r"[가-힣A-Za-z0-9]+")
_SELECT = re.compile(r"\b(?:select|with)\b", re.I)
_FROM = re.compile(r"\bfrom\b", re.I)
_KO_DIGITS = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7, "팔": 8, "구": 9}
_KO_SMALL_UNITS = {"십": 10, "백": 100, "천": 1000}
_KO_BIG_UNITS = {"만": 10_000, "억": 100_000_000}
# An amount is a run of number tokens ('1억 2천만', '10,000,000', '천만') before 원.
# Linear: the tokens are possessive (no re-splitting a run of digits), and a
# match may start only where a run starts (not inside one, nor after a token and
# a space), so each run is read from one start only.
_AMOUNT_TOKEN = r"(?:[0-9][0-9,.]*+|[일이삼사오육칠팔구]?[십백천만억])"
_AMOUNT_CHAR = "[0-9,.십백천만억]"
AMOUNT = re.compile(
    rf"(?<!{_AMOUNT_CHAR})(?<!{_AMOUNT_CHAR}\s)(?!(?<=[일이삼사오육칠팔구])[십백천만억])"
    rf"({_AMOUNT_TOKEN}++(?:\s{_AMOUNT_TOKEN}++)*+)\s*+원"
)
_VERB_ENDINGS = (
    "할때",
    "될때",
    "줘",
    "어",
    "아",
    "야",
    "면",
    "고",
    "요",
    "까",
    "니",
    "다",
    "해",
    "었지",
    "았지",
    "였지",
    "이지",
    "는지",
    "은지",
    "게",
    "돼",
    "될",
    "뀔",
    "래",
    "죠",
    "나",
    "데",
    "지",
    "음",
    "되",
    "던",
)
# ('4.2M won', '10m KRW': the short scales too)
_EN_AMOUNT = re.compile(
    r"(?<![0-9,.])([0-9][0-9,.]*+)\s*+(million|thousand|billion|mn|bn|m|k)?\s*+(?:won|krw)\b",
    re.I,
)
_EN_AMOUNT_PREFIX = re.compile(
    r"(?:\bkrw|₩)\s*+([0-9][0-9,.]*+)\s*+(million|thousand|billion)?", re.I
)
_REASON_ENDINGS = ("입니다", "이야", "야", "으로", "로")
_EN_REASON = re.compile(
    r"\b(?:because|reason:?|since)\s++"
    r"|\b(?:revision|request)\b[^.?!]{0,40}?\bto "
    r"(?=add |remove |change |update |raise |lower |extend |allow )",
    re.I,
)
_ABOUT_PREFIX = re.compile(r"^.*?(?:에\s*+대해서?|에\s*+대하여)\s*+")
_SQL_TAIL = re.compile(
    r"(?<![\s.!?])\s*+(?:실행해\s*+줘|실행해주세요|실행|돌려\s*+줘|run it|please)?[.!?]*+\s*+$"
)


# Longest phrase first: 'wedding gift' is a congratulatory payment before 'gift' is a gift.
_EN_PHRASES = sorted(EN_TO_KO.items(), key=lambda item: -len(item[0]))
_CARRY_OVER = ("넘길", "넘기", "넘긴", "넘겨", "넘어가", "넘어갈", "이월되", "이월할")

MAX_KEYWORDS = 12
"""Topic words kept (a question's topic is a few words; the rest is noise)."""


@dataclass(frozen=True, slots=True)
class Entities:
    """What a question names."""

    lang: str
    """'ko' or 'en': the language to answer in."""
    doc_nos: list[str] = field(default_factory=list)
    """Document numbers named, in order."""
    as_of: str | None = None
    """ISO date the question asks about, when it names a past or future date."""
    emp_nos: list[str] = field(default_factory=list)
    """Eight-digit employee numbers named."""
    amount: int | None = None
    """An amount of money in won, when named."""
    version: int | None = None
    """A version number named ('3차', 'version 3')."""
    title_words: list[str] = field(default_factory=list)
    """Words of a regulation title the question names (Korean)."""
    title: str | None = None
    """The title phrase as written (Korean), when there is one."""
    keywords: list[str] = field(default_factory=list)
    """Topic words (Korean where a mapping exists), particles and stopwords removed."""
    reason: str | None = None
    """The reason given for a revision request."""
    sql: str | None = None
    """A literal SELECT statement in the question."""
    derived: tuple[str, ...] = ()
    """Keywords read off a verb ('접속' of '접속하려면'): weaker evidence of the topic."""
    relative: tuple[int, str] | None = None
    """A date relative to today: (months back, 'same' | 'start' | 'end' of that year, or
    'md:MM-DD' for a month and day named without a year)."""


_MAX_AMOUNT_CHARS = 40
_PLAIN_NUMBER = re.compile(r"\d{1,15}(?:\.\d{1,6})?")


MINE = re.compile(
    r"\bmy\b|(?<![가-힣])(?:(?:내|제)\s|내가|제가)"
    r"|\bi(?:'ve| have)? (?:put|filed|submitted|raised|placed|created|requested|made)\b"
    r"|\b(?:do|did|have) i (?:have|got)\b",  # 'Do I have any purchase orders in progress?'
    re.I,
)
"""The asker's own records ('my PO', '내가 올린', 'I put in a PO'; not 'our', '우리')."""

VAT_APART = re.compile(
    r"\+\s*(?:vat|부가세|부가가치세)|(?:vat|부가세|부가가치세)\s*(?:별도|제외|미포함|빼고)"
    r"|\b(?:plus|excluding|before|excl\.?)\s+vat\b|\bvat (?:not included|excluded|extra)\b",
    re.I,
)
"""An amount given without its VAT ('4,800,000원 + VAT', 'VAT 별도')."""

ARTICLE_NO = re.compile(r"제\s*(\d{1,3})\s*조|\barticle\s+(\d{1,3})\b", re.I)
"""An article named by number ('제5조', 'article 5')."""

HEARD = re.compile(
    r"던데|다더라|다는데|라는데|다며|랬는데|얘기|소문|[다라]고\s?했|사실이야|진짜야|[다라]고\s?들었"
    r"|\bheard\b|\brumou?r|\bsupposedly\b|\btold me\b|\bagreed?\b|\bis (?:that|it) true\b"
    r"|\bgoing up\b|\b(?:went|gone|goes) up\b",
    re.I,
)
"""Words that report what someone said ('15만원으로 오른다는 얘기 있던데', 'I heard'):
a figure beside them was heard, not read in a rule (the one reading of it for intents,
follow-ups and the money plans)."""


def _number(text: str) -> float | None:
    """A plain number of at most 15 digits (commas removed), else None (no inf, no '1.2.3')."""
    text = text.replace(",", "")
    return float(text) if _PLAIN_NUMBER.fullmatch(text) else None


def korean_amount(text: str) -> int | None:
    """Parse an amount such as '천만원', '3천5백만', '1억 2천만', '10,000,000'.

    Args:
        text: The number part (without '원').

    Returns:
        The value, or None when it is not a number.
    """
    text = text.replace(",", "").replace(" ", "")
    if not text or len(text) > _MAX_AMOUNT_CHARS:
        return None
    plain = _number(text)
    if plain is not None:
        return int(plain)
    total, section, number = 0, 0, 0
    for match in re.finditer(r"\d+(?:\.\d+)?|.", text):
        token = match.group()
        if token[0].isdigit():
            value = _number(token)
            if value is None:
                return None
            number = value  # type: ignore[assignment]
        elif token in _KO_DIGITS:
            number = _KO_DIGITS[token]
        elif token in _KO_SMALL_UNITS:
            section += (number or 1) * _KO_SMALL_UNITS[token]
            number = 0
        elif token in _KO_BIG_UNITS:
            total += (section + number or 1) * _KO_BIG_UNITS[token]
            section, number = 0, 0
        else:
            return None
    return int(total + section + number)


_EN_SCALED = re.compile(
    r"(?<![0-9,.])([0-9][0-9,.]*+)\s*+(million|thousand|billion|mn|bn|m|k)\b", re.I
)
_EN_SCALES = {
    "thousand": 1_000, "k": 1_000, "million": 1_000_000, "m": 1_000_000,
    "mn": 1_000_000, "billion": 1_000_000_000, "bn": 1_000_000_000,
}  # fmt: skip


_GROUPED = re.compile(r"(?<![\d,.\w-])\d{1,3}(?:,\d{3})++(?![\d,]|\.\d)")
"""A figure written with thousands separators ('30,000,000')."""


def amount_spans(question: str) -> list[tuple[int, int, int]]:
    """Every amount the question writes, as (start, end, value), in order.

    '4.5 million won … if it came to 6 million': an English amount after the first
    may leave out its currency.
    """
    found: list[tuple[int, int, int]] = []
    for match in AMOUNT.finditer(question):
        value = korean_amount(match.group(1))
        if value:
            found.append((match.start(), match.end(), value))
    for pattern in (_EN_AMOUNT, _EN_SCALED):
        for match in pattern.finditer(question):
            number = _number(match.group(1))
            if number is None or any(a <= match.start() < b for a, b, _ in found):
                continue
            scale = _EN_SCALES.get((match.group(2) or "").lower(), 1)
            if pattern is _EN_SCALED or scale > 1 or number >= 1_000:
                found.append((match.start(), match.end(), int(number * scale)))
    if found:
        # '5,000,000 won … and what about exactly 30,000,000?': a later figure written
        # with thousands separators is an amount too, its currency left out
        for match in _GROUPED.finditer(question, max(e for _, e, _ in found)):
            value = int(match.group(0).replace(",", ""))
            if value >= 10_000 and not any(a <= match.start() < b for a, b, _ in found):
                found.append((match.start(), match.end(), value))
    return sorted(found)


def _amount(question: str) -> int | None:
    for match in AMOUNT.finditer(question):
        value = korean_amount(match.group(1))
        if value:
            return value
    en = _EN_AMOUNT.search(question) or _EN_AMOUNT_PREFIX.search(question)
    number = _number(en.group(1)) if en else None
    if en and number is not None:
        scale = {
            "thousand": 1_000, "k": 1_000, "million": 1_000_000, "m": 1_000_000,
            "mn": 1_000_000, "billion": 1_000_000_000, "bn": 1_000_000_000,
        }  # fmt: skip
        return int(number * scale.get((en.group(2) or "").lower(), 1))
    # 'who signs off on a 4.2 million purchase': a scaled English figure, currency left out
    scaled = _EN_SCALED.search(question)
    number = _number(scaled.group(1)) if scaled else None
    if scaled and number is not None:
        return int(number * _EN_SCALES[scaled.group(2).lower()])
    return None


def _as_of(question: str) -> str | None:
    # 'mid-2024', 'early-2023': the hyphen joins a year part, not a date.
    question = re.sub(r"\b(mid|early|late|end)-((?:19|20)\d{2})\b", r"\1 \2", question, flags=re.I)
    # A month without a day means "during that month": its last day is in it.
    for pattern, month_group in ((_KO_DATE, 2), (_ISO_DATE, 2)):
        match = pattern.search(question)
        if match:
            year, month = int(match.group(1)), int(match.group(month_group))
            year += 2000 if year < 100 else 0
            if not 1 <= month <= 12:
                continue
            day = match.group(3)
            last = calendar.monthrange(year, month)[1]
            return date(year, month, min(int(day), last) if day else last).isoformat()
    en = _EN_DATE.search(question)
    if en:
        name, day, year_text = (
            en.group(1, 2, 3) if en.group(1) else (en.group(5), en.group(4), en.group(6))
        )
        year, month = int(year_text), _EN_MONTHS[name.lower()]
        last = calendar.monthrange(year, month)[1]
        return date(year, month, min(int(day), last) if day else last).isoformat()
    # A year alone means its end (the last day is in it), unless a part is named.
    for pattern, part_group, year_group in ((_KO_YEAR, 2, 1), (_EN_YEAR, 1, 2)):
        match = pattern.search(question)
        if match:
            year_text, part = match.group(year_group), match.group(part_group)
            if pattern is _KO_YEAR and year_text is None:  # '23년 상반기'
                year_text, part = str(2000 + int(match.group(3))), match.group(4)
            month, day = _YEAR_PART.get((part or "").lower(), (12, 31))
            return date(int(year_text), month, day).isoformat()
    return None


_KO_AHEAD = re.compile(
    r"(\d{1,3})\s?(일|주|개월|달)\s?(?:뒤|후|지나)|(다음\s?달|내달|담달|다음\s?주)"
)
_EN_AHEAD = re.compile(
    r"\b(?:in\s+(\d{1,3}|a|one|two|three|four)\s+(day|week|month)s?\b"
    r"|(\d{1,3}|a|one|two|three|four)\s+(day|week|month)s?\s+from\s+now\b"
    r"|next\s+(month|week)\b)",
    re.I,
)
_EN_COUNTS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4}
_THIS_MONTH = re.compile(
    r"(?:이번\s?달|이달|금월)\s?(?:(\d{1,2})\s?일|(말|초|중순))"
    r"|\b(?:the\s+)?(end|middle|start) of (?:this|the) month\b"
    r"|\b(?:on\s+)?the\s+(\d{1,2})(?:st|nd|rd|th)\s+of\s+this\s+month\b",
    re.I,
)
"""'이번달 23일', '이달 말', 'the end of this month': a day of the platform's month."""
_NEXT_YEAR = re.compile(
    # ('내년으로 넘길 수 있어?', 'carry over to next year': where days go, no date asked)
    r"내년(?!\s*(?:으로|로)\s*[^?？.]{0,12}?(?:넘|이월|가져))\s*(?:(\d{1,2})\s*월)?"
    r"|(?<!to )\bnext\s+(?:year\b|(" + _MONTH_NAMES + r")\b)",
    re.I,
)


def _ahead(count: int, unit: str) -> tuple[int, str]:
    """N days/weeks/months from today: (months back, anchor) with a negative span."""
    if unit in ("개월", "달", "month"):
        return -count, "same"
    return 0, f"d:{count * (7 if unit in ('주', 'week') else 1)}"


def _relative_ahead(question: str) -> tuple[int, str] | None:
    """'3주 뒤', '다음 달', 'in two weeks', 'next month': a date after today."""
    this = _THIS_MONTH.search(question)
    if this:
        day = this.group(1) or this.group(4)
        part = (this.group(2) or this.group(3) or "").lower()
        if not day:
            day = {"말": "31", "end": "31", "중순": "15", "middle": "15"}.get(part, "01")
        return 0, f"tm:{int(day):02d}"
    year = _NEXT_YEAR.search(question)
    if year:
        # '내년 1월', 'next January': that month's last day next year; '내년': its first day
        name = (year.group(2) or "").lower()
        month = int(year.group(1)) if year.group(1) else _EN_MONTHS.get(name)
        after = re.match(r"\s*(\d{1,2})\s*일", question[year.end() :]) if year.group(1) else None
        day = (0, f"md:{month:02d}-{int(after.group(1)):02d}") if after else _month_day(question)
        if day and (not month or int(day[1][3:5]) == month):
            # '내년 1월 10일', 'on January 10 next year': that day of next year
            return -12, f"ym:{day[1][3:]}"
        if month and 1 <= month <= 12:
            return -12, f"ym:{month:02d}-31"
        return -12, "start"
    ko = _KO_AHEAD.search(question)
    if ko:
        if ko.group(3):
            return _ahead(1, "주" if "주" in ko.group(3) else "달")
        return _ahead(int(ko.group(1)), ko.group(2))
    en = _EN_AHEAD.search(question)
    if en:
        if en.group(5):
            return _ahead(1, en.group(5).lower())
        count, unit = (en.group(1), en.group(2)) if en.group(1) else (en.group(3), en.group(4))
        count = count.lower()
        return _ahead(int(count) if count.isdigit() else _EN_COUNTS[count], unit.lower())
    return None


_EN_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def _relative(question: str) -> tuple[int, str] | None:
    """'작년 이맘때', '2년 전', 'a year ago', 'end of last year' → (months back, anchor)."""
    ahead = _relative_ahead(question)
    if ahead:
        return ahead
    ko = _KO_RELATIVE.search(question)
    if ko:
        word, years, months, part = ko.group(1), ko.group(2), ko.group(3), ko.group(4) or ""
        back = 24 if word == "재작년" else 12
        if years:
            back = 12 * int(years)
        elif months:
            back = int(months)
        anchor = "end" if part in ("말", "연말") else "start" if part in ("초", "연초") else "same"
        month = _MONTH_AFTER.match(question, ko.end())
        if month and 1 <= int(month.group(1)) <= 12 and years is None and months is None:
            # '작년 3월 초': that month of that year (its start, middle or end), not today's
            # day a year back.
            day = {"중순": "15", "말": "31"}.get(month.group(2) or "", "01")
            return back, f"ym:{int(month.group(1)):02d}-{day}"
        return back, anchor
    en = _EN_RELATIVE.search(question)
    if en:
        part = (en.group(1) or "").lower()
        back = 12
        if en.group(5):
            back = 12 * _EN_COUNTS[en.group(5).lower()]
        elif en.group(3):
            back = 12 * int(en.group(3))
        elif en.group(4):
            back = int(en.group(4))
        return back, "end" if part == "end" else "start" if part else "same"
    return None


def _month_day(question: str) -> tuple[int, str] | None:
    """'12월 22일', 'December 22' without a year: that day of the platform's current year."""
    ko = _KO_MONTH_DAY.search(question)
    en = None if ko else _EN_MONTH_DAY.search(question)
    if ko:
        month, day = int(ko.group(1)), int(ko.group(2))
    elif en:
        month, day = _EN_MONTHS[en.group(1).lower()], int(en.group(2))
    else:
        return None
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return 0, f"md:{month:02d}-{day:02d}"


def resolve_relative(today: str, relative: tuple[int, str]) -> str:
    """Turn a relative date into an ISO date, given today's ISO date.

    Args:
        today: Today as the platform reports it.
        relative: (months back, anchor) from the question.

    Returns:
        The ISO date.
    """
    base = date.fromisoformat(today)
    back, anchor = relative
    if anchor.startswith("d:"):
        return (base + timedelta(days=int(anchor[2:]))).isoformat()
    if anchor.startswith("tm:"):
        last = calendar.monthrange(base.year, base.month)[1]
        return date(base.year, base.month, min(int(anchor[3:]), last)).isoformat()
    if anchor.startswith("md:"):
        month, day = int(anchor[3:5]), int(anchor[6:8])
        last = calendar.monthrange(base.year, month)[1]
        return date(base.year, month, min(day, last)).isoformat()
    if anchor.startswith("ym:"):
        month, day = int(anchor[3:5]), int(anchor[6:8])
        year = base.year - back // 12
        last = calendar.monthrange(year, month)[1]
        return date(year, month, min(day, last)).isoformat()
    months = base.year * 12 + base.month - 1 - back
    year, month = divmod(months, 12)
    month += 1
    if anchor == "end":
        return date(year, 12, 31).isoformat()
    if anchor == "start":
        return date(year, 1, 1).isoformat()
    return date(year, month, min(base.day, calendar.monthrange(year, month)[1])).isoformat()


def _by_last_syllable(particles: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """The particles grouped by their last character, each group in ``PARTICLES`` order."""
    groups: dict[str, list[str]] = {}
    for particle in particles:
        groups.setdefault(particle[-1], []).append(particle)
    return {last: tuple(group) for last, group in groups.items()}


_PARTICLES_BY_LAST = _by_last_syllable(PARTICLES)
"""Only the particles a word can end in are tried (one dict lookup per word)."""


def strip_particle(word: str) -> str:
    """Remove one trailing Korean particle from a word (keeping at least two syllables)."""
    if not word or word in TOPIC_WORDS:
        return word  # '연차휴가' ends in 가 but is no 연차휴 + particle
    for particle in _PARTICLES_BY_LAST.get(word[-1], ()):
        if word.endswith(particle) and len(word) - len(particle) >= 2:
            return word[: -len(particle)]
    return word


_SENTENCE_END = re.compile(r"[?？.!,]")
_ENDS_A_VERB = ("돼", "요", "야", "어", "아", "지", "까", "죠", "해", "와", "니", "나", "데")


_PARTICLE_ENDS = ("을", "를", "은", "는", "에", "의", "로", "도", "인", "된", "던", "와", "서")
"""Endings of a word that is no title's first word ('규정을', '팀에서')."""
_NOUNS_IN_GA = ("휴가", "평가", "대가", "국가", "단가", "원가", "물가", "전문가")
"""Nouns that end in 가 themselves (the subject particle 가 ends the others)."""


_RELATION_HEADS = frozenset({"상위", "하위", "근거", "관련", "모든", "전체", "해당", "위", "밑"})
"""Heads that make a regulation word a relation ('상위규정'), not a document's title."""


def _korean_title(question: str) -> tuple[str | None, list[str]]:
    found = list(_WORD.finditer(question))
    words = [m.group() for m in found]
    for i, raw in enumerate(words):
        word = strip_particle(raw)
        suffix = next((s for s in TITLE_SUFFIXES if word.endswith(s)), None)
        if suffix is None or not _HANGUL.search(word):
            continue
        if word[: -len(suffix)] in _RELATION_HEADS:
            continue  # '상위규정까지 알려줘': the documents above, no title
        parts = [word]
        if i > 0:
            before = words[i - 1]
            between = question[found[i - 1].end() : found[i].start()]
            if (
                re.fullmatch(r"[가-힣]{2,}", before)  # '몇 일 기준이야': no '일 기준'
                and before not in NOT_TITLE_WORDS
                and not before.endswith(_PARTICLE_ENDS)
                # '한도가 윤리규정이랑': a subject, not a title's first word ('연차휴가 규정' is)
                and not (before.endswith("가") and not before.endswith(_NOUNS_IN_GA))
                # '얼마 나와? 지침이랑', '받아야돼? 지침': a question ended before the word
                and not _SENTENCE_END.search(between)
                and not before.endswith(_ENDS_A_VERB)
                and not before.endswith(("랑", "하고", "과"))  # '지침이랑 규정': two nouns
                and strip_particle(before) not in TITLE_SUFFIXES
            ):
                parts.insert(0, before)
                if before in GENERIC_TITLE_HEADS and word == suffix:
                    first = strip_particle(words[i - 2]) if i > 1 else ""
                    if not re.fullmatch(r"[가-힣]{2,}", first) or first in NOT_TITLE_WORDS:
                        continue  # '주차비 지원 규정' names no title (the topic is searched)
                    parts.insert(0, first)  # '육아 지원 규정'
        if len(parts) == 1 and word == suffix:
            continue  # a bare "규정" names no particular regulation
        return " ".join(parts), parts
    return None, []


_HYPHENATED = re.compile(r"(?<=[a-z])-(?=[a-z])")


def _english_title(lowered: str) -> list[str]:
    lowered = _HYPHENATED.sub(" ", lowered)
    for phrase, words in EN_TITLE_WORDS.items():
        if phrase in lowered:
            return list(words)
    return []


_DOCUMENT_RELATIONS = CUES["authority"] + CUES["derived"]
_EN_DOCUMENT = re.compile(
    r"\b([a-z][a-z ]{1,40}?)\s+(guidelines?|regulations?|rules?|policy|policies|standards?)\b"
)
_EN_DOCUMENT_KIND = {"guideline": "지침", "regulation": "규정", "rule": "규칙", "polic": "규정",
                     "standard": "기준"}  # fmt: skip


def _topic_document(lowered: str) -> list[str]:
    """'… of the password guideline' → ['비밀번호', '지침'] ([] when no word is known)."""
    found = _EN_DOCUMENT.search(lowered)
    if found is None:
        return []
    words = [EN_TO_KO[w] for w in found.group(1).split()[-2:] if w in EN_TO_KO]
    kind = next(ko for en, ko in _EN_DOCUMENT_KIND.items() if found.group(2).startswith(en))
    return [*dict.fromkeys(words), kind] if words else []


_GENERIC_NOUNS = frozenset(
    "종류 구분 방법 내용 범위 대상 사항 경우 관련 연간 매주 매월 매년 매일".split()
)


def _keywords(question: str, lang: str) -> tuple[list[str], tuple[str, ...]]:
    """(topic words, those of them read off a verb)."""
    # 'open-source', 'follow-up': a hyphenated English compound is the phrase spaced.
    lowered = _HYPHENATED.sub(" ", question.lower())
    found: list[str] = []
    derived: list[str] = []
    # English phrases map to the regulations' Korean words, also inside a Korean
    # question ('내 childcare leave 잔여일수').
    at: dict[str, int] = {}
    for phrase, ko in _EN_PHRASES:
        where = lowered.find(phrase)
        if where >= 0 and ko not in found:
            if ko not in STOPWORDS:
                found.append(ko)
                at[ko] = where
            lowered = lowered.replace(phrase, " " * len(phrase))
    # In the order the question says them (the longest phrase was only matched first).
    found.sort(key=lambda k: at.get(k, 0))
    if lang == "en":
        # Korean words inside an English question ('club activities (사내 동호회)') are
        # the regulations' own words for the subject
        for raw in _WORD.findall(question):
            word = ALIASES.get(strip_particle(raw), strip_particle(raw))
            if _HANGUL.fullmatch(word[:1] or " ") and len(word) >= 2 and word not in STOPWORDS:
                if word not in found:
                    found.append(word)
        return sorted(found, key=lambda w: w in _GENERIC_NOUNS), ()
    for raw in _WORD.findall(question):
        stripped = strip_particle(raw)
        word = ALIASES.get(stripped, stripped)
        # ('신고해야돼' read as 신고: a noun already, not a verb to read a noun off)
        aliased = word != stripped or raw.endswith(("해야", "해야돼"))
        if word.startswith(_CARRY_OVER) or raw.startswith(_CARRY_OVER):  # '넘어가' is no 넘어 + 가
            word = "이월"  # '내년으로 넘길 수 있는지', '넘어가나': carried over
        if raw in STOPWORDS or word in STOPWORDS or not _HANGUL.search(word) or len(word) < 2:
            continue
        if word.startswith("몇"):
            continue  # '몇번', '몇회', '몇시간': how many is asked, not what about
        if not aliased and (word.endswith(_VERB_ENDINGS) or re.search(r"\d", word)):
            # '접속하려면', '대피해', '차감되는': a noun made a verb keeps its noun.
            word = verb_noun(word)
            if not word or word in STOPWORDS or word in found:
                continue
            derived.append(word)
        if word not in found:
            found.append(word)
    # A known topic noun is the subject wherever it stands ('팀원 육아휴직 한도').
    # A word of any topic ('종류' of 'kinds of training', '방법') is never the subject.
    ordered = sorted(
        found,
        key=lambda w: (w in _GENERIC_NOUNS, w not in TOPIC_WORDS and w not in LEAVE_TYPES),
    )
    return ordered, tuple(derived)


# Endings that make a verb of a noun ('접속하려면' = 접속 + 하려면, '차감되는' = 차감 + 되는),
# longest first; the noun before them must keep two syllables.
_NOUN_VERB_ENDINGS = tuple(
    sorted(
        {
            f"{stem}{tail}"
            for stem in ("하", "되", "해", "돼", "했", "됐", "할", "될", "한", "된")
            for tail in (
                "",
                "려면",
                "면",
                "야",
                "도",
                "는",
                "는지",
                "나",
                "나요",
                "요",
                "서",
                "고",
                "때",
                # '조퇴하려는데', '신청하려고', '변경됐는데': what one means to do, or did
                "려는데",
                "려고",
                "려는",
                "는데",
                "니까",
            )
        }
        | {"하는거", "되는거", "하는 거", "시키", "시켜"}
        # a favour done ('할인해줬으면', '승인해주면', '처리해줬는데'): the noun
        | {f"해{give}{tail}" for give in ("줬", "주") for tail in ("으면", "면", "는데", "어", "")},
        key=len,
        reverse=True,
    )
)


def verb_noun(word: str) -> str:
    """The noun of a 하다/되다 verb ('접속하려면' → '접속'), or '' when it is none."""
    if re.search(r"\d", word):
        return ""
    for ending in _NOUN_VERB_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 2:
            return ALIASES.get(word[: -len(ending)], word[: -len(ending)])
    return ""


_BEFORE_MONTH = re.compile(
    r"\bbefore\s++(?:the\s++)?(?:" + _MONTH_NAMES + r")\.?\s++(?:\d{1,2},?\s++)?\d{4}\b"
    r"|\d{4}\s*년\s*\d{1,2}\s*월\s*(?:이전|전에|전엔|전까지|전에는|전\s*기준|전이면|전이었으면|전\b)",
    re.I,
)
_BEFORE_YEAR = re.compile(
    r"\bbefore\s++(?:the\s++year\s++)?\d{4}\b(?!\s*-)"
    r"|\d{4}\s*년\s*(?:이\s*)?(?:이전|전에|전엔|전까지|전에는|되기\s*전|오기\s*전)",
    re.I,
)
_QUOTED_AFTER = re.compile(
    r"^\s*(?:로|으로|이라고|라고|이라|라|로는|으로는|이|가)?\s*(?:시행(?:이라고|이라|일로|으로|일이라고)?\s*)?"
    r"(?:찍혀|적혀|써\s?있|써\s?져|쓰여|나와\s?있|돼\s?있|되어\s?있|기재|명시|표시|printed|stated|written)",
    re.I,
)


def _quoted_date(text: str) -> bool:
    """The date is what a document says ('2025년 1월 1일로 찍혀 있는데', 'printed as
    2025-01-01'), not the date the question asks about."""
    phrase = date_phrase(text)
    if not phrase:
        # '부칙엔 1월1일로 돼있던데': a day of a month the text prints, no year
        day = re.search(r"\d{1,2}\s*월\s*\d{1,2}\s*일", text)
        return bool(day and _QUOTED_AFTER.match(text[day.end() :]))
    at = text.find(phrase) + len(phrase)
    tail = text[at:]
    for unit in ("일", "월"):  # '2025년 1월 1일' ends the phrase at '1월'; the day follows
        tail = re.sub(rf"^\s*\d{{1,2}}\s*{unit}", "", tail)
    before = text[: text.find(phrase)].lower()
    return bool(_QUOTED_AFTER.match(tail)) or before.rstrip().endswith(
        ("printed as", "stated as", "says", "printed", "states")
    )


_DATE_PATTERNS = (
    _THIS_MONTH, _NEXT_YEAR, _KO_AHEAD, _EN_AHEAD, _KO_DATE, _KO_RELATIVE, _KO_YEAR, _ISO_DATE,
    _EN_DATE, _EN_RELATIVE, _EN_YEAR, _KO_MONTH_DAY, _EN_MONTH_DAY,
)  # fmt: skip
"""Every way a date is written: ahead of today, on a day, relative, a year."""


_WEEKDAY = re.compile(r"[월화수목금토일]요일|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b", re.I)
"""A day of the week ('다음주 월요일'): when, never what a rule is about."""


_ENGLISH_ONLY = frozenset({_EN_AHEAD, _EN_DATE, _EN_RELATIVE, _EN_YEAR, _EN_MONTH_DAY})
_LATIN_WORD = re.compile(r"[A-Za-z]{3}")


def _patterns_for(text: str) -> tuple[re.Pattern[str], ...]:
    """The date patterns worth trying: the English ones only where an English word is
    (each tries its month names at every word boundary, costly on a long run of digits)."""
    if _LATIN_WORD.search(text):
        return _DATE_PATTERNS
    return tuple(p for p in _DATE_PATTERNS if p not in _ENGLISH_ONLY)


@functools.lru_cache(maxsize=512)
def date_phrase(text: str) -> str:
    """The first date phrase a text names as written ('2023년 초', '재작년', 'early 2023'),
    or '' when it names none."""
    found = [m.span() for pattern in _patterns_for(text) if (m := pattern.search(text))]
    if not found:
        return ""
    start = min(s for s, _ in found)
    end = max(e for s, e in found if s == start)
    month = _MONTH_AFTER.match(text, end)
    if month and _KO_RELATIVE.match(text, start):
        end = month.end()  # '작년 3월 초'
    return text[start:end].strip()


def _without_dates(question: str) -> str:
    """The question with its date phrases removed ('2024년 말', '작년 이맘때' are not topics)."""
    for pattern in (*_patterns_for(question), _WEEKDAY):
        question = pattern.sub(" ", question)
    # The particle that followed a removed date ('2023년 초에는' → '에는') is no word either.
    return _LONE_PARTICLE.sub(" ", question)


def without_dates(question: str) -> str:
    """The question with its date phrases removed (a follow-up that asks it 'now')."""
    return " ".join(_without_dates(question).split())


_GLUED_TRIP = re.compile(r"(?<=[가-힣]{2})(출장비|출장|숙박비)")


def read_phrases(question: str) -> str:
    """A phrase the regulations say otherwise, read as theirs ('외부교육' → '사외 교육')."""
    for phrase, theirs in KO_PHRASES.items():
        question = question.replace(phrase, theirs)
    return question


def respace(question: str) -> str:
    """Put back a space skipped after a whole topic word ('육아휴직남은거' → '육아휴직 남은거'),
    and read a phrase the regulations say otherwise as theirs ('외부 교육' → '사외 교육')."""
    question = read_phrases(question)
    for word in sorted((w for w in LEAVE_TYPES if len(w) >= 4 and _HANGUL.search(w)), key=len):
        question = re.sub(rf"({word})(?=[가-힣]{{2,}})", r"\1 ", question)
    # '부산출장', '해외출장비': a place or scope glued to the trip word.
    return _GLUED_TRIP.sub(r" \1", question)


def _stated_reason(question: str) -> str:
    """'… 사유는 X입니다': the text after the first 사유는, its ending and punctuation removed."""
    found = [
        (question.find(m), m) for m in ("사유는", "사유:", "사유 :", "이유는") if m in question
    ]
    if not found:
        return ""
    at, marker = min(found)
    text = question[at + len(marker) :].lstrip()
    text = text[1:].lstrip() if text[:1] in (":", "：") else text
    text = text.rstrip()
    text = text[:-1].rstrip() if text[-1:] in (".", "!", "?") else text
    for ending in _REASON_ENDINGS:
        if text.endswith(ending) and len(text) > len(ending):
            return text[: -len(ending)].rstrip()
    return text


def _reason_before_marker(question: str) -> str:
    """'X를 사유로 …': the clause before the first 사유로 (after the last comma before it)."""
    at = question.find("사유로")
    if at < 0:
        return ""
    clause = question[:at]
    clause = clause[clause.rfind(",") + 1 :].strip()
    if clause.endswith(("을", "를")) and len(clause) > 1:
        clause = clause[:-1].rstrip()
    return clause


def _english_reason(question: str) -> str:
    """'… because X.': the rest of the line after the first because/reason/since."""
    match = _EN_REASON.search(question)
    if match is None:
        return ""
    rest = question[match.end() :].split("\n", 1)[0].rstrip()
    return rest[:-1] if rest[-1:] in (".", "!", "?") else rest


def _reason(question: str) -> str | None:
    # String scans, not lazy regexes: '사유는' + spaces + 'x' made those cubic.
    for read in (_stated_reason, _reason_before_marker, _english_reason):
        reason = read(question).strip(" ,.")
        reason = _ABOUT_PREFIX.sub("", reason)
        if reason:
            return reason
    return None


def _sql_start(question: str) -> int:
    """Where a literal SELECT (or WITH) with a FROM after it starts, or -1."""
    match = _SELECT.search(question)
    if match is None or _FROM.search(question, match.end()) is None:
        return -1
    return match.start()


def _language(question: str) -> str:
    """'ko' unless the question is English prose that only quotes a Korean name or word."""
    if not _HANGUL.search(question) and not _JAMO.search(question):
        return "en"
    start = _sql_start(question)
    prose = _DOC_NO.sub(" ", question[:start] if start >= 0 else question)
    hangul = len(re.findall(r"[가-힣]+", prose))
    latin = len(re.findall(r"\b[A-Za-z]{2,}\b", prose))
    # English prose quoting a name or a title ('versus 곽호은, the other 부장 on my team').
    return "en" if (hangul <= 1 and latin >= 4) or (latin >= 6 and latin >= 3 * hangul) else "ko"


_EN_TOKEN = re.compile(r"[A-Za-z]+")
_MIN_TYPO_LEN = 5
_MAX_TYPO_TOKENS = 80


def _english_vocabulary() -> dict[tuple[str, int], set[str]]:
    """The lexicon's English words, bucketed by first letter and length."""
    words: set[str] = set()
    phrases = list(EN_TO_KO) + list(EN_TITLE_WORDS) + [w for c in CUES.values() for w in c]
    for phrase in phrases:
        words.update(t for t in _EN_TOKEN.findall(phrase.lower()) if len(t) >= _MIN_TYPO_LEN - 1)
    buckets: dict[tuple[str, int], set[str]] = {}
    for word in words:
        buckets.setdefault((word[0], len(word)), set()).add(word)
    return buckets


_EN_VOCAB = _english_vocabulary()
_INFLECTIONS = ("ing", "ed", "ly", "es", "s")
_EN_KNOWN = {w for bucket in _EN_VOCAB.values() for w in bucket}


def _one_edit(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` differ by one substitution, insertion, deletion or swap."""
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        i = diff[0] if len(diff) == 2 else -1
        return i >= 0 and diff[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1 :]


_REWRITE = re.compile(
    r"\b(?:" + "|".join(re.escape(p) for p in sorted(EN_REWRITES, key=len, reverse=True)) + r")\b",
    re.I,
)


def correct_english(question: str) -> str:
    """Fix casual English the lexicon would miss: shorthand ('biz') and one-letter typos.

    A word of five letters or more that the lexicon does not know becomes the one
    lexicon word a single edit away ('allowence' → 'allowance'); with none or
    several, it stays. Linear: each word is compared with the lexicon words of its
    first letter and a length within one.
    """
    if not _EN_TOKEN.search(question):
        return question
    start = _sql_start(question)
    if start < 0:
        # 'my direct reports', 'these days': read as the lexicon's words
        question = _REWRITE.sub(lambda m: EN_REWRITES[m.group().lower()], question)
        start = _sql_start(question)
    if start >= 0:
        # a statement to run is passed on verbatim; the prose before it is read
        return correct_english(question[:start]) + question[start:] if start else question
    out: list[str] = []
    last = 0
    for n, match in enumerate(_EN_TOKEN.finditer(question)):
        if n >= _MAX_TYPO_TOKENS:
            break
        word = match.group()
        lowered = word.lower()
        fixed = EN_SHORTHAND.get(lowered)
        if word.isupper():
            fixed = None  # 'WHERE', 'ERP': written so on purpose
        elif (
            fixed is None
            and len(lowered) >= _MIN_TYPO_LEN
            and lowered not in _EN_KNOWN
            and lowered not in EN_COMMON
        ):
            # 'waiting' is a word of its own, not 'writing' misspelt: an inflected word
            # becomes only another form of its own stem ('passes' → 'passed').
            suffix = next((x for x in _INFLECTIONS if lowered.endswith(x)), "")
            stem = lowered[: len(lowered) - len(suffix)] if suffix else ""
            near = {
                cand
                for size in (len(lowered) - 1, len(lowered), len(lowered) + 1)
                for cand in _EN_VOCAB.get((lowered[0], size), ())
                if _one_edit(lowered, cand) and (not stem or cand.startswith(stem))
            }
            fixed = near.pop() if len(near) == 1 else None
        if fixed is not None:
            out.append(question[last : match.start()])
            out.append(fixed)
            last = match.end()
    out.append(question[last:])
    return "".join(out)


@functools.lru_cache(maxsize=256)
def extract(question: str) -> Entities:
    """Extract the entities of a question.

    Pure and called many times per reply on the same texts (the question, its parts,
    their rewrites), so the results are kept; ``plan_reply`` clears them per request,
    so one request's work never makes another's faster (and the bench stays honest).

    Args:
        question: The user's question.

    Returns:
        The entities found.
    """
    lang = _language(question)
    question = respace(question)
    lowered = question.lower()
    title, title_words = _korean_title(_without_dates(question)) if lang == "ko" else (None, [])
    if lang == "en":
        title_words = _english_title(lowered)
        if not title_words:
            # English quoting a Korean title ('If the 정보보안규정 gets amended'): the title
            # as written, when it is one whole word ending like a title.
            quoted = [
                w for w in re.findall(r"[가-힣]{3,}", question)
                if w.endswith(TITLE_SUFFIXES) and w not in TITLE_SUFFIXES
            ]  # fmt: skip
            if quoted:
                title, title_words = quoted[0], [quoted[0]]
        if not title_words and any(w in lowered for w in _DOCUMENT_RELATIONS):
            # 'the parent doc of the password guideline': the document the topic before
            # 'guideline' names, in the corpus's words (as '비밀번호 지침 상위 규정' is read)
            title_words = _topic_document(lowered)
    relative = _relative(question)
    absolute = None if relative else _as_of(question)
    if relative and (
        _KO_DATE.search(question) or _ISO_DATE.search(question) or _EN_DATE.search(question)
    ):
        # '작년 상반기(2024년 5월)': the month written out says which day is meant
        relative, absolute = None, _as_of(question)
    if relative is None and absolute is None:
        relative = _month_day(question)
    if _quoted_date(question):
        relative, absolute = None, None  # '시행일이 2025년 1월 1일로 찍혀 있는데': what a text says
    elif absolute and _BEFORE_MONTH.search(question):
        # 'before July 2024', '2024년 7월 이전': the day before that month began
        named = date.fromisoformat(absolute)
        last = calendar.monthrange(named.year, named.month)[1]
        begun = named.replace(day=1) if named.day == last else named  # a month, or a day
        absolute = date.fromordinal(begun.toordinal() - 1).isoformat()
    elif absolute and _BEFORE_YEAR.search(question):
        # 'before 2024', '2024년 되기 전엔': the last day of the year before
        absolute = date(date.fromisoformat(absolute).year - 1, 12, 31).isoformat()
    version_match = _VERSION.search(question)
    version = None
    if version_match:
        version = int(next(g for g in version_match.groups() if g))
    keywords, derived = _keywords(_without_dates(question), lang)
    start = _sql_start(question)
    sql = _SQL_TAIL.sub("", question[start:].strip(), count=1) if start >= 0 else None
    return Entities(
        lang=lang,
        doc_nos=_DOC_NO.findall(question),
        as_of=absolute,
        relative=relative,
        emp_nos=_EMP_NO.findall(question),
        amount=_amount(question),
        version=version,
        title_words=title_words,
        title=title,
        keywords=keywords[:MAX_KEYWORDS],
        derived=derived,
        reason=_reason(question),
        sql=sql,
    )
