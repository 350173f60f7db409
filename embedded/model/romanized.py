"""Korean names written in Latin letters ('Kim Do-won') as the Hangul names they may be.

The employees view stores names in Hangul. A presenter typing in English writes them
romanized, in any of the usual systems (Revised Romanization, McCune-Reischauer-like
spellings, passport habits: 'Do-hyun', 'Dohyeon', 'Lee', 'Park'). Each syllable is
compared by a loose key that folds the differences those systems make (eo/u, g/k, d/t,
b/p, j/ch, r/l), so one written name gives a few Hangul candidates to look up; the
platform's rows decide which of them exists.
"""

from __future__ import annotations

import itertools
import re
from functools import cache

_INITIALS = "g kk n d tt r m b pp s ss - j jj ch k t p h".split()
_MEDIALS = "a ae ya yae eo e yeo ye o wa wae oe yo u wo we wi yu eu ui i".split()
# Finals as romanized at a syllable's end; only those common in given names are kept.
_FINALS = {0: "", 1: "k", 4: "n", 8: "l", 16: "m", 17: "p", 21: "ng"}
_DOUBLE = {"kk", "tt", "pp", "ss", "jj"}

FAMILY_NAMES: dict[str, tuple[str, ...]] = {
    "kim": ("김",), "gim": ("김",), "lee": ("이",), "yi": ("이",), "rhee": ("이",),
    "park": ("박",), "pak": ("박",), "bak": ("박",), "choi": ("최",), "choe": ("최",),
    "jung": ("정",), "jeong": ("정",), "chung": ("정",), "kang": ("강",), "gang": ("강",),
    "cho": ("조",), "jo": ("조",), "yoon": ("윤",), "yun": ("윤",), "jang": ("장",),
    "chang": ("장",), "lim": ("임",), "im": ("임",), "han": ("한",), "oh": ("오",),
    "seo": ("서",), "suh": ("서",), "shin": ("신",), "sin": ("신",), "kwon": ("권",),
    "gwon": ("권",), "hwang": ("황",), "ahn": ("안",), "an": ("안",), "song": ("송",),
    "ryu": ("류", "유"), "yoo": ("유", "류"), "yu": ("유", "류"), "hong": ("홍",),
    "jeon": ("전",), "jun": ("전",), "chun": ("전", "천"), "ko": ("고",), "go": ("고",),
    "moon": ("문",), "mun": ("문",), "son": ("손",), "yang": ("양",), "bae": ("배",),
    "baek": ("백",), "paik": ("백",), "heo": ("허",), "huh": ("허",), "nam": ("남",),
    "shim": ("심",), "sim": ("심",), "noh": ("노",), "roh": ("노",), "no": ("노",),
    "ha": ("하",), "kwak": ("곽",), "gwak": ("곽",), "sung": ("성",), "seong": ("성",),
    "cha": ("차",), "joo": ("주",), "ju": ("주",), "woo": ("우",), "koo": ("구",),
    "gu": ("구",), "min": ("민",), "jin": ("진",), "na": ("나",), "ra": ("라", "나"),
    "ji": ("지",), "um": ("엄",), "eom": ("엄",), "chae": ("채",), "won": ("원",),
    "cheon": ("천",), "bang": ("방",), "kong": ("공",), "gong": ("공",), "hyun": ("현",),
    "hyeon": ("현",), "ham": ("함",), "byun": ("변",), "byeon": ("변",), "yeom": ("염",),
    "yeo": ("여",), "choo": ("추",), "chu": ("추",), "do": ("도",), "so": ("소",),
    "seok": ("석",), "sun": ("선",), "seon": ("선",), "seol": ("설",), "ma": ("마",),
    "gil": ("길",), "kil": ("길",), "yeon": ("연",), "pyo": ("표",), "myung": ("명",),
    "ki": ("기",), "gi": ("기",), "ban": ("반",), "wang": ("왕",), "geum": ("금",),
    "keum": ("금",), "ok": ("옥",), "yook": ("육",), "yuk": ("육",), "tak": ("탁",),
    "kook": ("국",), "guk": ("국",), "eun": ("은",), "yong": ("용",),
    "namgung": ("남궁",), "hwangbo": ("황보",), "jegal": ("제갈",), "sunwoo": ("선우",),
}  # fmt: skip
"""Family names as commonly romanized (passport spellings included)."""

_MAX_CANDIDATES = 48


def loose(latin: str) -> str:
    """A romanized syllable with the differences between romanization systems folded."""
    s = latin.lower()
    for old, new in (("oo", "u"), ("ee", "i"), ("sh", "s"), ("eo", "u"), ("eu", "u")):
        s = s.replace(old, new)
    for old, new in (("ae", "e"), ("oe", "e"), ("ch", "c"), ("j", "c"), ("g", "k")):
        s = s.replace(old, new)
    for old, new in (("d", "t"), ("b", "p"), ("r", "l")):
        s = s.replace(old, new)
    return s.replace("nk", "ng")  # ('-ng' folded to '-nk' by g→k above, restored)


@cache
def _syllables() -> dict[str, tuple[str, ...]]:
    """Loose key → Hangul syllables of a given name that romanize to it."""
    table: dict[str, list[str]] = {}
    for code in range(0xAC00, 0xD7A4):
        offset = code - 0xAC00
        initial, medial, final = offset // 588, (offset % 588) // 28, offset % 28
        if final not in _FINALS or _INITIALS[initial] in _DOUBLE:
            continue
        head = "" if _INITIALS[initial] == "-" else _INITIALS[initial]
        written = head + _MEDIALS[medial] + _FINALS[final]
        table.setdefault(loose(written), []).append(chr(code))
    return {key: tuple(found) for key, found in table.items()}


def _given_syllables(given: str) -> list[list[str]]:
    """Each way a given name ('Do-won', 'Dowon') splits into known syllables."""
    parts = [p for p in re.split(r"[-\s']+", given.lower()) if p]
    if len(parts) > 1:
        return [parts]
    word = parts[0] if parts else ""
    keys = _syllables()
    return [
        [word[:cut], word[cut:]]
        for cut in range(1, len(word))
        if loose(word[:cut]) in keys and loose(word[cut:]) in keys
    ]


def hangul_names(latin: str) -> list[str]:
    """Hangul names a romanized Korean name may stand for (a few dozen at most; [] if none).

    'Kim Do-won' and 'Do-won Kim' give 김도원 among a handful of others.
    """
    words = [w for w in re.split(r"\s+", latin.strip()) if w]
    if len(words) != 2:
        return []
    first, last = words
    if first.lower() in FAMILY_NAMES:
        family, given = first, last
    elif last.lower() in FAMILY_NAMES:
        family, given = last, first
    else:
        return []
    keys = _syllables()
    found: list[str] = []
    for split in _given_syllables(given):
        options = [keys.get(loose(part), ()) for part in split]
        if not all(options) or len(split) > 3:
            continue
        for surname in FAMILY_NAMES[family.lower()]:
            for combo in itertools.product(*options):
                found.append(surname + "".join(combo))
                if len(found) > _MAX_CANDIDATES:
                    return []  # too loose to look up
    return list(dict.fromkeys(found))
