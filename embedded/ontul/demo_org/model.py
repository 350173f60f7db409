"""Plain data structures the demo organisation is described with.

The generator builds these first and writes the database and the ground truth
from the same objects, so no figure is typed twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Article:
    """One article (조) of a regulation version; becomes one chunk row."""

    no: str
    """Article number as printed, e.g. ``제5조`` or ``부칙``."""
    title: str
    """Article heading, e.g. ``육아휴직``."""
    body: str
    """Full article text (before any canary is attached)."""


@dataclass(frozen=True)
class VersionSpec:
    """One version of a document; ``effective_to`` is derived by the builder."""

    version: int
    """Revision number, 1-based."""
    status: str
    """``APPROVED``, ``DRAFT`` or ``REJECTED``."""
    effective_from: str | None
    """Approval date (ISO) — the authoritative start; ``None`` for drafts."""
    stated_from: str | None
    """Start date printed in the document's 부칙 (ISO), may differ."""
    summary: str
    """One-line change summary."""
    articles: tuple[Article, ...]
    """Articles in order."""


@dataclass(frozen=True)
class DocumentSpec:
    """A regulation document and all its versions."""

    doc_no: str
    """Document number, e.g. ``HR-REG-003``."""
    title: str
    """Korean title."""
    doc_class: str
    """``RULE`` | ``REGULATION`` | ``GUIDELINE`` | ``MINUTES``."""
    owner_dept: str
    """Owning department code."""
    parents: tuple[str, ...]
    """Documents this one derives from (authority)."""
    versions: tuple[VersionSpec, ...]
    """Versions in ascending order."""
    sensitivity: str = "일반"
    """``일반`` or ``대외비`` (restricted)."""
    citable: bool = True
    """``False`` for meeting notes, which search must never return."""
    tags: tuple[str, ...] = field(default=())
    """Free-form labels used by the builder (e.g. ``notice``)."""

    @property
    def tier(self) -> int:
        """Tier number stored in ``regulations.tier``."""
        return {"RULE": 1, "REGULATION": 2, "GUIDELINE": 3, "MINUTES": 9}[self.doc_class]


def has_final_consonant(word: str) -> bool:
    """Whether the last Hangul syllable of ``word`` ends in a consonant (받침).

    Args:
        word: Korean word; a trailing non-Hangul character counts as no 받침.

    Returns:
        True when the word takes 은/이/을/과 rather than 는/가/를/와.
    """
    last = word.rstrip()[-1:]
    if not last or not "가" <= last <= "힣":
        return False
    return (ord(last) - ord("가")) % 28 != 0


def josa(word: str, with_batchim: str, without_batchim: str) -> str:
    """Attach the right particle, e.g. ``josa("규정", "은", "는") == "규정은"``.

    Args:
        word: the noun.
        with_batchim: particle after a final consonant.
        without_batchim: particle after a vowel.

    Returns:
        The noun with its particle.
    """
    return word + (with_batchim if has_final_consonant(word) else without_batchim)


def korean_date(iso: str) -> str:
    """Render ``2025-01-01`` as ``2025년 1월 1일``.

    Args:
        iso: ISO date.

    Returns:
        The date as printed in Korean regulations.
    """
    year, month, day = (int(part) for part in iso.split("-"))
    return f"{year}년 {month}월 {day}일"


def won(amount: int) -> str:
    """Render an amount as ``5,000,000원``.

    Args:
        amount: amount in won.

    Returns:
        Comma-grouped figure with the 원 unit.
    """
    return f"{amount:,}원"


def korean_amount(amount: int) -> str:
    """Render an amount in Korean units, e.g. ``500만원``, ``3천만원``, ``1억원``.

    Args:
        amount: amount in won; must be a multiple of 10,000.

    Returns:
        The amount in 억/천만/만 units.
    """
    if amount % 100_000_000 == 0:
        return f"{amount // 100_000_000}억원"
    if amount % 10_000_000 == 0:
        return f"{amount // 10_000_000}천만원"
    return f"{amount // 10_000:,}만원"


ADDENDUM_NOUNS = ("규칙", "규정", "지침", "기준", "안내")


def addendum(title: str, stated_from: str | None) -> Article:
    """The closing 부칙 that prints the document's own start date.

    Args:
        title: document title; its last noun (규정, 지침, …) names the document.
        stated_from: ISO date printed as 시행일, or None for a draft awaiting approval.

    Returns:
        The 부칙 article.
    """
    noun = next((n for n in ADDENDUM_NOUNS if title.endswith(n)), "문서")
    subject = josa(f"이 {noun}", "은", "는")
    if stated_from is None:
        body = f"{subject} 승인권자의 승인을 받은 날부터 시행한다."
    else:
        body = f"{subject} {korean_date(stated_from)}부터 시행한다."
    return Article("부칙", "시행일", body)


def compose_version(
    title: str,
    version: int,
    effective_from: str | None,
    summary: str,
    pairs: list[tuple[str, str]],
    stated_from: str | None = None,
) -> VersionSpec:
    """Number the articles 제1조… and append the 부칙.

    Args:
        title: document title.
        version: revision number.
        effective_from: approval date (ISO); None makes a DRAFT.
        summary: change summary.
        pairs: ``(article title, body)`` in order.
        stated_from: date printed in the 부칙; defaults to ``effective_from``.

    Returns:
        The version.
    """
    printed = stated_from if stated_from is not None else effective_from
    articles = [
        Article(f"제{index}조", head, body) for index, (head, body) in enumerate(pairs, start=1)
    ]
    articles.append(addendum(title, printed))
    status = "APPROVED" if effective_from is not None else "DRAFT"
    return VersionSpec(version, status, effective_from, printed, summary, tuple(articles))
