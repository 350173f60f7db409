"""Two documents that state one point differently: both shown, and which one governs.

The corpus repeats a rule in the regulation and in its guidelines; where a
guideline was not revised with its regulation the two disagree ('분기마다 6시간'
against '3시간'). An answer quoting one of them is then only half true. Another
document's article with the same heading and nearly the same words but a different
text is a conflict: each document is described (its tier: rule, regulation,
guideline), the regulations' own article on the order of documents is searched for,
and the answer says which text applies — citing that article, never a rule of the
planner's own.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from embedded.model.compose import call, cite, hits_of, squash, titled
from embedded.model.evidence import pairs, states_a_rule
from embedded.model.intents import WHICH_IS_RIGHT

if TYPE_CHECKING:
    from embedded.model.compose import Blocks, Ctx

ORDER_QUERY = "하위 사규 상위 사규 충돌 위계"
"""What the regulations are searched for to find their article on the order of documents."""
_SAME_POINT = 0.6
"""Share of syllable pairs two article texts have in common to be about one point."""


_FIGURE = re.compile(r"(?<![\w-])\d[\d,.]*")


def _figures(text: str) -> set[str]:
    """The numbers a text states ('2개월', '120만', '10자리'), as written."""
    return {m.group().rstrip(",.") for m in _FIGURE.finditer(text)}


_TRAILING_NOTE = re.compile(r"\s*\([^()]*\)\s*$")


def said_text(hit: dict[str, Any]) -> str:
    """An article's text without a trailing note in brackets ('(문서관리번호 …)')."""
    return _TRAILING_NOTE.sub("", str(hit.get("text") or ""))


def other_figures(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Both articles state figures, and not the same ones ('100만' against '120만'): a
    difference of substance, not of wording ('이 지침' for '이 규정')."""
    left, right = _figures(said_text(a)), _figures(said_text(b))
    return bool(left) and bool(right) and left != right


def _same_point(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Same heading, or texts sharing most of their syllable pairs, yet not the same text
    nor the same figures (a document's management number or wording aside)."""
    text_a, text_b = said_text(a), said_text(b)
    if squash(text_a) == squash(text_b):
        return False
    if _figures(text_a) and _figures(text_a) == _figures(text_b):
        return False
    if squash(str(a.get("article_title") or "")) == squash(str(b.get("article_title") or "")):
        return True
    left, right = pairs(text_a), pairs(text_b)
    union = left | right
    return bool(union) and len(left & right) / len(union) >= _SAME_POINT


def conflicting(top: dict[str, Any], every: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Other documents' articles on the point ``top`` states, saying it otherwise."""
    found: list[dict[str, Any]] = []
    for hit in every:
        if hit.get("doc_no") == top.get("doc_no") or not states_a_rule(hit):
            continue
        if any(h.get("doc_no") == hit.get("doc_no") for h in found):
            continue
        if _same_point(top, hit) and pairs(str(hit.get("article_title") or "")) & pairs(
            str(top.get("article_title") or "") + str(top.get("text") or "")
        ):
            found.append(hit)
    return found[:2]


def searched_article(
    ctx: Ctx, query: str, words: tuple[str, ...]
) -> tuple[Blocks | None, dict[str, Any] | None]:
    """The regulations' own article on a point, found by a search for ``query``.

    ``(the search to make first, None)``, or ``(None, the first hit whose text has
    every one of ``words``)`` — None when the search found no such article.
    """
    done = [c for c in ctx.turn.all("search_regulations") if c.input.get("question") == query]
    if not done:
        return call(ctx, "search_regulations", {"question": query}), None
    found = (h for h in hits_of(done[0]) if all(w in str(h.get("text")) for w in words))
    return None, next(found, None)


def tier_of(ctx: Ctx, doc_no: str) -> int | None:
    """The document's tier, from this turn's description of it (None if not described)."""
    for c in ctx.turn.all("describe_regulation"):
        if c.input.get("doc_no") == doc_no and not c.failed and c.data:
            tier = (c.data.get("regulation") or {}).get("tier")
            return int(tier) if isinstance(tier, int | str) and str(tier).isdigit() else None
    return None


def _agreeing(
    every: list[dict[str, Any]], sides: list[dict[str, Any]], docs: list[str]
) -> list[dict[str, Any]]:
    """Articles of other documents saying what one side says, under the same heading
    ('복리후생' in the regulation, as in one of two disagreeing guidelines)."""
    found: list[dict[str, Any]] = []
    for hit in every:
        doc_no = str(hit.get("doc_no"))
        if doc_no in docs or any(str(h.get("doc_no")) == doc_no for h in found):
            continue
        if not states_a_rule(hit):
            continue
        for side in sides:
            same_heading = squash(str(hit.get("article_title") or "")) == squash(
                str(side.get("article_title") or "")
            )
            text, said = str(hit.get("text") or ""), str(side.get("text") or "")
            if same_heading and (squash(text) == squash(said) or _figures(text) == _figures(said)):
                found.append({**hit, "_agrees_with": str(side.get("doc_no"))})
                break
    return found[:1]


def in_force_together(a: dict[str, Any], b: dict[str, Any], on: str | None) -> bool:
    """Both articles were in force on ``on`` (or, with no date asked, at some same time).

    A guideline of 2021-04 does not conflict, in the summer of 2021, with a regulation
    version that took effect in 2021-10 (dates are ISO strings; no end is still in force).
    """

    def window(hit: dict[str, Any]) -> tuple[str, str]:
        return str(hit.get("effective_from") or ""), str(hit.get("effective_to") or "9999-12-31")

    (a_from, a_to), (b_from, b_to) = window(a), window(b)
    if on:
        return a_from <= on < a_to and b_from <= on < b_to
    return a_from < b_to and b_from < a_to


def conflict_note(
    ctx: Ctx, top: dict[str, Any], quoted: list[dict[str, Any]] | None = None
) -> tuple[Blocks | None, str]:
    """``(a call to make first, '')`` or ``(None, the note to add)`` ('' when no conflict).

    ``quoted`` are the articles the answer already shows: a conflicting one among
    them is not shown twice, but counts when deciding which document governs. Where
    the documents that disagree rank alike (two guidelines), the document above them
    that says what one of them says decides (it is searched for by the heading).
    """
    every = [h for c in ctx.turn.all("search_regulations") for h in hits_of(c)]
    shown = {str(h.get("doc_no")) for h in quoted or []}
    asked_which = any(w in ctx.turn.question.lower() for w in WHICH_IS_RIGHT)
    # ('… says 1,000,000 — which applies?': the article stating a figure is the point, though
    # another article of the document was quoted first)
    figured = [h for h in quoted or [] if h is not top and _figures(said_text(h))]
    for candidate in [top, *(figured if asked_which else [])]:
        others = [
            o
            for o in conflicting(candidate, every + [h for h in quoted or [] if h is not candidate])
            if in_force_together(candidate, o, ctx.ents.as_of)
        ]
        if others:
            top = candidate
            break
    point = top if _figures(said_text(top)) or not figured else figured[0]
    heading = str(point.get("article_title") or "")
    if (
        not others
        and heading
        and asked_which
        and not any(c.input.get("question") == heading for c in ctx.turn.all("search_regulations"))
    ):
        # 'The 경조금 지급지침 says 1,000,000 — which applies?': the searches found that
        # guideline only; its heading is searched once for the documents that say otherwise
        return call(ctx, "search_regulations", {"question": heading}), ""
    if not others or not ctx.has("describe_regulation"):
        return None, ""
    sides = [top, *others]
    docs = [str(top.get("doc_no")), *(str(o.get("doc_no")) for o in others)]
    for doc_no in docs:
        if not any(c.input.get("doc_no") == doc_no for c in ctx.turn.all("describe_regulation")):
            return call(ctx, "describe_regulation", {"doc_no": doc_no}), ""
    tiers = {d: tier_of(ctx, d) for d in docs}
    if len({t for t in tiers.values() if t is not None}) == 1:
        # Alike in rank: the heading searched once, for a document above them.
        heading = str(top.get("article_title") or "")
        if heading and not any(
            c.input.get("question") == heading for c in ctx.turn.all("search_regulations")
        ):
            return call(ctx, "search_regulations", {"question": heading}), ""
        every = [h for c in ctx.turn.all("search_regulations") for h in hits_of(c)]
        for hit in _agreeing(every, sides, docs):
            doc_no = str(hit.get("doc_no"))
            if not any(
                c.input.get("doc_no") == doc_no for c in ctx.turn.all("describe_regulation")
            ):
                return call(ctx, "describe_regulation", {"doc_no": doc_no}), ""
            tiers[doc_no] = tier_of(ctx, doc_no)
            sides.append(hit)
            docs.append(doc_no)
    step, rule = searched_article(ctx, ORDER_QUERY, ("상위", "충돌"))
    if step:
        return step, ""
    lines = []
    for hit in (o for o in others if str(o.get("doc_no")) not in shown):
        citation = cite(ctx, str(hit.get("doc_no")), hit.get("version"), hit.get("effective_from"))
        head = f"{hit.get('article_no') or ''} {hit.get('article_title') or ''}".strip()
        lines.append(f"- {titled(hit, citation)} {head}: {hit.get('text')}")
    known = {d: t for d, t in tiers.items() if t is not None}
    ranked = sorted(known, key=lambda d: known[d])
    body = "\n".join(lines)
    disagreeing = docs[: len(others) + 1]
    if body:
        note = ctx.t(
            f"\n\n참고: 같은 사항을 다르게 정한 문서가 있습니다.\n{body}",
            f"\n\nNote: another document states this differently:\n{body}",
        )
    else:
        note = ctx.t(
            f"\n\n참고: 위의 {', '.join(disagreeing)}는 같은 사항을 서로 다르게 정하고 있습니다.",
            f"\n\nNote: {', '.join(disagreeing)} above state this point differently.",
        )
    if len(ranked) >= 2 and known[ranked[0]] < known[ranked[1]]:
        higher = ranked[0]
        said = next(h for h in sides if str(h.get("doc_no")) == higher)
        basis = ""
        if rule is not None:
            citation = cite(
                ctx, str(rule.get("doc_no")), rule.get("version"), rule.get("effective_from")
            )
            basis = f' ({citation} {rule.get("article_no") or ""}: "{rule.get("text")}")'
        if higher in disagreeing and higher != str(top.get("doc_no")):
            # the article quoted first is overruled: what applies is said in its words
            note += ctx.t(
                f"\n위계가 높은 {higher}(위계 {known[higher]})의 내용이 적용됩니다{basis}. "
                f'따라서 적용되는 기준은 "{said.get("text")}"({higher} '
                f"{said.get('article_no') or ''})입니다.",
                f"\nThe higher-ranking document {higher} (tier {known[higher]}) governs{basis}. "
                f'So what applies is "{said.get("text")}" ({higher} '
                f"{said.get('article_no') or ''}).",
            )
        elif higher in disagreeing:
            note += ctx.t(
                f"\n위계가 높은 {higher}(위계 {known[higher]})의 내용이 적용됩니다{basis}.",
                f"\nThe higher-ranking document {higher} (tier {known[higher]}) governs{basis}.",
            )
        else:
            cited = cite(ctx, higher, said.get("version"), said.get("effective_from"))
            note += ctx.t(
                f"\n두 문서보다 위계가 높은 {cited}(위계 {known[higher]}) "
                f'{said.get("article_no") or ""}가 "{said.get("text")}"라고 정하고 있어, '
                f"{said.get('_agrees_with')}의 내용이 적용됩니다{basis}.",
                f"\n{cited} (tier {known[higher]}), above both, says "
                f'"{said.get("text")}" ({said.get("article_no") or ""}), so '
                f"{said.get('_agrees_with')} applies{basis}.",
            )
    return None, note
