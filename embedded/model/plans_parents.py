"""Documents set beside the document they derive from ('그중에 상위 규정이랑 안 맞는 게
있어?', 'which of its guidelines contradict it?').

The documents under a regulation come from the link graph (``impact_of_change``); each
one's articles, and its parent's, from a search by the document's title that asks for
every hit (search ranks by words, so a title brings the document's own articles). An
article of a child on the point an article of its parent states, said otherwise, is a
conflict (``conflicts.conflicting``) when the two state different figures (boilerplate
that differs only in '이 지침' for '이 규정' is none). The parent is the higher document by the link
itself; the regulations' own article on the order of documents is quoted for what
governs, never a rule of the planner's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from embedded.model.compose import answer, call, cite, failure, not_found, titled
from embedded.model.conflicts import (
    ORDER_QUERY,
    conflicting,
    in_force_together,
    other_figures,
    searched_article,
)
from embedded.model.evidence import states_a_rule
from embedded.model.plans_docs import depth_of, resolve_doc
from embedded.model.plans_rules import as_of, document_articles, plan_search, topic_label

if TYPE_CHECKING:
    from embedded.model.compose import Blocks, Ctx

CHILDREN_CHECKED = 5
"""Documents under the one named whose articles are set beside their parent's (the
turn's tool rounds bound how many can be read)."""


def _title(ctx: Ctx, doc_no: str, hit: dict[str, Any] | None) -> tuple[Blocks | None, str]:
    """The named document's title: from the hit that named it, else its description."""
    if hit and hit.get("title"):
        return None, str(hit["title"])
    described = next(
        (c for c in ctx.turn.all("describe_regulation") if c.input.get("doc_no") == doc_no), None
    )
    if described is None:
        return call(ctx, "describe_regulation", {"doc_no": doc_no}), ""
    reg = (described.data or {}).get("regulation") if not described.failed else None
    return None, str((reg or {}).get("title") or "")


def plan_parent_conflicts(ctx: Ctx) -> Blocks:
    """Which documents under a regulation state a point otherwise than their parent."""
    doc_no, hit, step = resolve_doc(ctx)
    if step:
        return step
    if doc_no is None:
        return answer(not_found(ctx, topic_label(ctx), ctx.turn.last("search_regulations")))
    graph = ctx.turn.last("impact_of_change")
    if graph is None:
        return call(ctx, "impact_of_change", {"doc_no": doc_no})
    if graph.failed or graph.data is None:
        return answer(failure(ctx, graph))
    rows = [r for r in graph.data.get("rows") or [] if r.get("doc_no") != doc_no]
    rows = sorted(rows, key=depth_of)[:CHILDREN_CHECKED]
    step, root_title = _title(ctx, doc_no, hit)
    if step:
        return step
    titles = {doc_no: root_title, **{str(r.get("doc_no")): str(r.get("title") or "") for r in rows}}
    parent_of = {
        str(r.get("doc_no")): str(r.get("parent_doc_no") or doc_no) if depth_of(r) > 1 else doc_no
        for r in rows
    }
    if not rows:
        # 'HR-GDL-009는 상위 규정이랑 다른 게 있어?': nothing under it; the document itself
        # is set beside its parent by the article search (which notes a conflict)
        return plan_search(ctx)
    articles: dict[str, list[dict[str, Any]]] = {}
    for doc in [doc_no, *parent_of]:
        if not titles.get(doc):
            articles[doc] = []
            continue
        step, found = document_articles(ctx, doc, titles[doc])
        if step:
            return step
        articles[doc] = found
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for child, parent in parent_of.items():
        for article in articles.get(child, []):
            if not states_a_rule(article):
                continue
            for said in conflicting(article, articles.get(parent, [])):
                if other_figures(article, said) and in_force_together(article, said, as_of(ctx)):
                    pairs.append((article, said))
    checked = ", ".join(parent_of)
    if not pairs:
        return answer(
            ctx.t(
                f"{doc_no} 아래 문서({checked})의 조항을 각자의 상위 문서와 대조했지만, 같은 "
                "사항을 다르게 정한 곳은 찾지 못했습니다 (조회 가능한 문서 기준).",
                f"I set the articles of the documents under {doc_no} ({checked}) beside their "
                "parents' and found none that states a point differently (among the "
                "documents you may see).",
            )
        )
    step, rule = searched_article(ctx, ORDER_QUERY, ("상위", "충돌"))
    if step:
        return step
    lines = []
    for article, said in pairs:
        child_cite = cite(
            ctx, str(article.get("doc_no")), article.get("version"), article.get("effective_from")
        )
        parent_cite = cite(
            ctx, str(said.get("doc_no")), said.get("version"), said.get("effective_from")
        )
        lines.append(
            ctx.t(
                f"- {titled(article, child_cite)} {article.get('article_no') or ''}: "
                f'"{article.get("text")}"\n  ↔ 상위 {titled(said, parent_cite)} '
                f'{said.get("article_no") or ""}: "{said.get("text")}" → 상위 문서 '
                f"{said.get('doc_no')}의 내용이 적용됩니다.",
                f"- {titled(article, child_cite)} {article.get('article_no') or ''}: "
                f'"{article.get("text")}"\n  vs its parent {titled(said, parent_cite)} '
                f'{said.get("article_no") or ""}: "{said.get("text")}" → the parent '
                f"{said.get('doc_no')} governs.",
            )
        )
    basis = ""
    if rule is not None:
        citation = cite(
            ctx, str(rule.get("doc_no")), rule.get("version"), rule.get("effective_from")
        )
        basis = ctx.t(
            f'\n근거: {citation} {rule.get("article_no") or ""} "{rule.get("text")}"',
            f'\nBasis: {citation} {rule.get("article_no") or ""} "{rule.get("text")}"',
        )
    body = "\n".join(lines)
    return answer(
        ctx.t(
            f"{doc_no} 아래 문서 중 상위 문서와 다르게 정한 조항은 {len(pairs)}건입니다 "
            f"(대조한 문서: {checked}):\n{body}{basis}",
            f"{len(pairs)} article(s) under {doc_no} state a point differently from their "
            f"parent (documents checked: {checked}):\n{body}{basis}",
        )
    )
