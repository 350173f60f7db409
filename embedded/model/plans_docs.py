"""Plans about documents as objects: identity, graph links, pending revisions, requests."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from embedded.model.compose import (
    Blocks,
    Ctx,
    answer,
    best_articles,
    call,
    cite,
    content_words,
    date_note,
    describe_untitled,
    doc_hits,
    failure,
    hits_about,
    hits_of,
    hits_titled,
    josa,
    not_found,
    nothing_visible,
    squash,
    titled,
    with_titles,
)
from embedded.model.conflicts import ORDER_QUERY, searched_article
from embedded.model.intents import cue
from embedded.model.lexicon import LEAVE_TYPES, TITLE_SUFFIXES, TOPIC_WORDS
from embedded.model.people import asks_about_self, lookup_call, lookup_sql, people_of
from embedded.model.plans_rules import (
    as_of,
    asks_comparison,
    compared,
    search_query,
    topic_label,
)

if TYPE_CHECKING:
    from embedded.model.conversation import ToolCall

Resolved = tuple[str | None, dict[str, Any] | None, Blocks | None]


def resolve_doc(ctx: Ctx) -> Resolved:
    """Find the document the question names: a number, else a title via search.

    Returns:
        (doc_no, the search hit or None, a step to take first or None).
    """
    if ctx.ents.doc_nos:
        return ctx.ents.doc_nos[0], None, None
    searches = ctx.turn.all("search_regulations")
    if not searches:
        query = " ".join(ctx.ents.title_words) or " ".join(ctx.ents.keywords) or ctx.turn.question
        return None, None, call(ctx, "search_regulations", {"question": query})
    for search in searches:
        hits = _titled_match(ctx, with_titles(ctx, hits_of(search)))
        if hits:
            return str(hits[0].get("doc_no")), hits[0], None
    if ctx.ents.title_words:
        step = describe_untitled(ctx, hits_of(searches[-1]))
        if step:
            return None, None, step
    elif ctx.ents.keywords:
        # No title: the document whose text is about the question's subject ('육아휴직 개정안').
        # The subject is the first topic word ('the approved 25-day childcare revision':
        # 육아, not 승인), else the first word.
        words = ctx.ents.keywords
        lead = next((k for k in words if k in TOPIC_WORDS or k in LEAVE_TYPES), words[0])
        about = hits_about(with_titles(ctx, hits_of(searches[0])), [lead])
        if about:
            return str(about[0].get("doc_no")), about[0], None
    sibling, step = _sibling_title(ctx)
    if step:
        return None, None, step
    if sibling is None:
        return None, None, None
    return str(sibling.get("doc_no")), sibling, None


def _titled_match(ctx: Ctx, hits: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The hits whose title is the one the question names (or, failing that, its generic form)."""
    found = hits_titled(hits, ctx.ents.title_words) if ctx.ents.title_words else []
    if not found and len(ctx.ents.title_words) > 1:
        found = _by_generic_title(hits, ctx.ents.title_words)
    return found


def _title_stem(word: str) -> str | None:
    suffix = next((s for s in TITLE_SUFFIXES if word.endswith(s)), None)
    if suffix is None or len(word) <= len(suffix):
        return None
    return squash(word[: -len(suffix)])


def _sibling_title(ctx: Ctx) -> tuple[dict[str, Any] | None, Blocks | None]:
    """'인사규칙' when the corpus says '인사규정': the same stem with another title suffix.

    Returns:
        (the hit whose title is the stem plus some title suffix, or None;
        a search for the stem to make first, or None).
    """
    stems = [s for s in (_title_stem(w) for w in ctx.ents.title_words) if s]
    if not stems:
        return None, None
    searches = ctx.turn.all("search_regulations")
    for search in searches:
        for hit in with_titles(ctx, hits_of(search)):
            title = squash(str(hit.get("title", "")))
            for stem in stems:
                if title.startswith(stem) and title[len(stem) :] in TITLE_SUFFIXES:
                    return hit, None
    if len(searches) == 1 and not searches[0].failed:
        return None, call(ctx, "search_regulations", {"question": stems[0]})
    return None, None


def _renamed(ctx: Ctx, hit: dict[str, Any] | None) -> str:
    """Say so when the document found is titled differently from what was asked."""
    if not hit or not ctx.ents.title_words:
        return ""
    title = str(hit.get("title", ""))
    if all(squash(w) in squash(title) for w in ctx.ents.title_words):
        return ""
    asked = ctx.ents.title or " ".join(ctx.ents.title_words)
    return ctx.t(
        f"'{asked}'{josa(asked, '이라는', '라는')} 제목의 문서는 없어 가장 가까운 "
        f"{title}({hit.get('doc_no')}){josa(str(hit.get('doc_no')), '으로', '로')} "
        "보고 답합니다. ",
        f"No document is titled '{asked}'; I took it to mean {title} ({hit.get('doc_no')}). ",
    )


_GENERIC = ("규정", "지침", "기준", "규칙")


def _by_generic_title(hits: list[dict[str, Any]], words: list[str]) -> list[dict[str, Any]]:
    """ "연차휴가 규정": the topic may be an article of a regulation with a broader title."""
    generic = [w for w in words if w in _GENERIC]
    specific = [w for w in words if w not in _GENERIC]
    if not generic or not specific:
        return []
    kind = generic[0]
    return [
        h
        for h in hits_about(hits, specific)
        if str(h.get("title", "")).endswith(kind)
        and not any(g in str(h.get("title", "")) for g in _GENERIC if g != kind)
    ]


def _missing(ctx: Ctx) -> Blocks:
    search = ctx.turn.last("search_regulations")
    if search is not None and search.failed:
        return answer(failure(ctx, search))
    return answer(not_found(ctx, topic_label(ctx), search))


def plan_describe(ctx: Ctx) -> Blocks:
    """What a regulation is and which versions it has."""
    doc_no, _, step = resolve_doc(ctx)
    if step:
        return step
    if doc_no is None:
        return _missing(ctx)
    result = ctx.turn.last("describe_regulation")
    if result is None:
        return call(ctx, "describe_regulation", {"doc_no": doc_no})
    if result.failed or result.data is None:
        return answer(failure(ctx, result))
    reg = result.data.get("regulation")
    if not reg:
        return answer(not_found(ctx, doc_no, result))
    versions = result.data.get("versions") or []
    latest = _int(reg.get("latest_version")) or None
    not_yet: set[int] = set()
    if latest is None:
        # The result does not say which version is current: the pending revisions
        # (approved, not yet in force) are the grounded way to tell.
        pending = ctx.turn.last("pending_revision")
        if pending is None and ctx.has("pending_revision"):
            return call(ctx, "pending_revision", {"doc_no": doc_no})
        not_yet = {_int(p.get("version")) for p in _pending_rows(pending, doc_no)}
    in_force, later, drafts = _version_states(versions, latest, not_yet)
    if latest is None and in_force:
        latest = max(_int(v.get("version")) for v in in_force)
    listed = ", ".join(
        cite(ctx, doc_no, v.get("version"), v.get("effective_from"))
        + (f" — {v.get('summary')}" if v.get("summary") else "")
        for v in in_force
    )
    about = ", ".join(
        part
        for part in (
            ctx.t(f"분류 {reg.get('doc_class')}", str(reg.get("doc_class")))
            if reg.get("doc_class")
            else "",
            ctx.t(f"소관 {reg.get('owner_dept')}", f"owned by {reg.get('owner_dept')}")
            if reg.get("owner_dept")
            else "",
        )
        if part
    )
    about = f" ({about})" if about else ""
    if latest:
        current = ctx.t(
            f"현재 시행 중인 최신 개정은 제{latest}차입니다. ",
            f"The latest version in force is version {latest}. ",
        )
    else:
        current = ctx.t("시행 중인 버전을 확인할 수 없습니다. ", "No version in force was found. ")
    text = ctx.t(
        f"{doc_no}{josa(doc_no, '은', '는')} '{reg.get('title')}'입니다{about}. "
        f"{current}버전 이력: {listed or '없음'}.",
        f"{doc_no} is '{reg.get('title')}'{about}. {current}History: {listed or 'none'}.",
    )
    for v in later:
        text += ctx.t(
            f" 제{v.get('version')}차는 승인되었으나 "
            f"{v.get('effective_from')}부터 시행 예정입니다{_summary(v)}.",
            f" Version {v.get('version')} is approved and takes effect on "
            f"{v.get('effective_from')}{_summary(v)}.",
        )
    for v in drafts:
        text += ctx.t(
            f" 제{v.get('version')}차 개정안({v.get('status')})은 승인되지 않아 효력이 "
            f"없습니다{_summary(v)}.",
            f" Version {v.get('version')} ({v.get('status')}) is not approved and has no "
            f"effect{_summary(v)}.",
        )
    step, quoted = _asked_article(ctx, doc_no, str(reg.get("title") or ""))
    if step:
        return step
    if asks_comparison(ctx.turn.question) and len(in_force) > 1:
        # 'what changed between its versions': the changed articles set side by side.
        hits = [h for c in ctx.turn.all("search_regulations") for h in hits_of(c)]
        mine = [h for h in hits if h.get("doc_no") == doc_no and not h.get("as_of")]
        side = compared(ctx, mine, "") if mine else None
        if side and any(b["type"] == "tool_use" for b in side):
            return side
        if side:
            quoted += "\n\n" + "".join(b["text"] for b in side if b["type"] == "text")
    return answer(text + quoted)


_ALSO_ASKED = (
    "포함",
    "특히",
    "함께",
    "같이",
    "도 알려",
    "including",
    "include",
    "especially",
    "along with",
)


def _asked_article(ctx: Ctx, doc_no: str, title: str) -> tuple[Blocks | None, str]:
    """'overview 해줘, 연차 부여 기준 포함해서': the article on the words beyond the title.

    The document's articles among this turn's search hits (one search for the title
    and those words when none has them) that speak to the question's other words
    are quoted after the description; nothing when the question names no such words.
    """
    lowered = ctx.turn.question.lower()
    if not any(w in lowered for w in _ALSO_ASKED):
        return None, ""
    titled_words = squash(title)
    extra = [
        w
        for w in content_words(ctx.ents.keywords)
        if squash(w) not in titled_words and w not in ctx.ents.derived
    ]
    if not extra:
        return None, ""
    searches = ctx.turn.all("search_regulations")
    mine = doc_hits(with_titles(ctx, [h for c in searches for h in hits_of(c)]), doc_no)
    best = best_articles(mine, extra)
    query = f"{title} {' '.join(extra)}".strip()
    if not best and not any(c.input.get("question") == query for c in searches):
        return call(ctx, "search_regulations", {"question": query}), ""
    if not best:
        return None, ""
    lines = "\n".join(
        f"- {h.get('article_no') or ''} {h.get('article_title') or ''}: {h.get('text')}"
        for h in best
    )
    return None, ctx.t(f"\n관련 조항:\n{lines}", f"\nThe article on it:\n{lines}")


_NOT_APPROVED = ("DRAFT", "IN_REVIEW", "REJECTED", "PENDING")


def _summary(version: dict[str, Any]) -> str:
    return f" ({version.get('summary')})" if version.get("summary") else ""


Versions = list[dict[str, Any]]


def _version_states(
    versions: Versions, latest: int | None, not_yet: set[int]
) -> tuple[Versions, Versions, Versions]:
    """Split versions into (in force or superseded, approved but not yet in force, unapproved)."""
    in_force, later, drafts = [], [], []
    for v in versions:
        number = _int(v.get("version"))
        if str(v.get("status") or "").upper() in _NOT_APPROVED:
            drafts.append(v)
        elif (latest is not None and number > latest) or number in not_yet:
            later.append(v)
        else:
            in_force.append(v)
    return in_force, later, drafts


def _pending_rows(pending: ToolCall | None, doc_no: str) -> list[dict[str, Any]]:
    """The pending revisions of one document (none when the call failed or was not made)."""
    if pending is None or pending.failed or pending.data is None:
        return []
    rows = pending.data.get("pending") or []
    return [p for p in rows if isinstance(p, dict) and p.get("doc_no", doc_no) in (doc_no, None)]


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def depth_of(row: dict[str, Any]) -> int:
    """How many links a graph row is from the document asked about (1 when unsaid)."""
    return _int(row.get("depth") or 1)


def _graph_line(ctx: Ctx, row: dict[str, Any], indent: str) -> str:
    depth = depth_of(row)
    level = ctx.t(f"{depth}단계", f"depth {depth}")
    parent = row.get("parent_doc_no")
    via = ctx.t(f"{parent} 아래", f"under {parent}") if parent and depth > 1 else ""
    kind = row.get("doc_class") or row.get("owner_dept")
    detail = ", ".join(str(v) for v in (kind, level, via) if v)
    return f"{indent}- {row.get('doc_no')} {row.get('title') or ''} ({detail})"


def _graph_lines(ctx: Ctx, rows: list[dict[str, Any]], start: str) -> str:
    """The rows as a tree under their parents (each says its parent), else flat.

    The graph returns rows by depth, not by branch: indenting them in that order
    would set a document under whichever row came before it (DEV-GDL-002 under
    SEC-GDL-003, though its parent is DEV-GDL-001).
    """
    known = {str(r.get("doc_no")) for r in rows} | {start}
    if not all(r.get("parent_doc_no") in known for r in rows if depth_of(r) > 1):
        return "\n".join(_graph_line(ctx, r, "") for r in rows)
    children: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        parent = str(r.get("parent_doc_no")) if depth_of(r) > 1 else start
        children.setdefault(parent, []).append(r)
    lines: list[str] = []
    shown: set[str] = set()

    def walk(doc: str, level: int) -> None:
        for r in children.get(doc, []):
            key = str(r.get("doc_no"))
            if key in shown:
                continue
            shown.add(key)
            lines.append(_graph_line(ctx, r, "  " * level))
            walk(key, level + 1)

    walk(start, 0)
    lines += [_graph_line(ctx, r, "") for r in rows if str(r.get("doc_no")) not in shown]
    return "\n".join(lines)


_DIRECT_WORDS = ("바로 아래", "바로 위", "직접", "1단계", "directly", "immediate", "one level")


def _graph_rows(ctx: Ctx, tool: str, verb_ko: str, verb_en: str) -> Blocks:
    doc_no, hit, step = resolve_doc(ctx)
    if step:
        return step
    if doc_no is None:
        return _missing(ctx)
    result = ctx.turn.last(tool)
    if result is None:
        return call(ctx, tool, {"doc_no": doc_no})
    if result.failed or result.data is None:
        return answer(failure(ctx, result))
    rows = [r for r in result.data.get("rows") or [] if r.get("doc_no") != doc_no]
    direct = any(w in ctx.turn.question.lower() for w in _DIRECT_WORDS)
    if direct:
        rows = [r for r in rows if depth_of(r) == 1]
    name = f"{hit.get('title')}({doc_no})" if hit else doc_no
    if not rows:
        return answer(
            ctx.t(
                f"{name}에 대해 {verb_ko} 문서를 찾을 수 없습니다 (조회 가능한 범위 기준).",
                f"No documents {verb_en} {name} were found among those available to you.",
            )
        )
    lines = _graph_lines(ctx, rows, doc_no)
    scope = ctx.t("바로 한 단계(1단계) ", "directly (one link) ") if direct else ""
    return answer(
        _renamed(ctx, hit)
        + ctx.t(
            f"{name}의 {scope}{verb_ko} 문서는 {len(rows)}개입니다:\n{lines}",
            f"Documents {scope}{verb_en} {name}: {len(rows)}\n{lines}",
        )
        + ctx.t(
            "\n조회 권한 밖의 문서는 이 목록에 나오지 않습니다.",
            "\nDocuments outside your access are not listed.",
        )
    )


def plan_authority(ctx: Ctx) -> Blocks:
    """The chain of regulations a document derives from."""
    return _graph_rows(ctx, "trace_authority", "근거가 되는 상위", "that are the authority for")


def plan_impact(ctx: Ctx) -> Blocks:
    """Documents affected when a regulation changes."""
    return _graph_rows(
        ctx, "impact_of_change", "개정 시 영향을 받는 하위", "affected by a change to"
    )


def plan_derived(ctx: Ctx) -> Blocks:
    """The documents that derive from a regulation (its descendants in the link graph)."""
    return _graph_rows(
        ctx,
        "impact_of_change",
        "하위(이 규정을 근거로 한)",
        "that derive from",
    )


def plan_related(ctx: Ctx) -> Blocks:
    """Follow the ontology's derives_from links."""
    return _graph_rows(
        ctx, "related_regulations", "온톨로지 링크로 연결된", "linked in the ontology to"
    )


_FIGURE = re.compile(r"(?<![\d.])(\d{1,3})\s*(?:일|-?\s*days?\b)")


_BEYOND = (
    "beyond",
    "after the",
    "other than",
    "besides",
    "말고",
    "외에",
    "이후",
    "다음 개정",
    "그 다음",
    # '특히 30일짜리 v5는': every revision, that one singled out
    "특히",
    "especially",
    "in particular",
)


def _matching_figure(ctx: Ctx, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The revisions whose summary states the figure the question names ('30일 개정안')."""
    figures = {m.group(1) for m in _FIGURE.finditer(ctx.turn.question)}
    if not figures or any(w in ctx.turn.question.lower() for w in _BEYOND):
        return rows  # 'a draft beyond the 25-day version': the figure is where to start
    found = [
        p
        for p in rows
        if any(re.search(rf"(?<!\d){f}\s*일", str(p.get("summary") or "")) for f in figures)
    ]
    return found or rows


def _when_usable(ctx: Ctx) -> bool:
    """'언제부터 쓸 수 있어?' about a revision: the answer starts from whether it applies yet."""
    q = ctx.turn.question.lower()
    return any(w in q for w in ("언제부터", "from when", "when can", "when will"))


def plan_pending_status(ctx: Ctx) -> Blocks:
    """Whether a revision in flight has taken effect."""
    doc_no, hit, step = resolve_doc(ctx)
    if step:
        return step
    if doc_no is None:
        return _missing(ctx)
    result = ctx.turn.last("pending_revision")
    if result is None:
        return call(ctx, "pending_revision", {"doc_no": doc_no})
    if result.failed or result.data is None:
        return answer(failure(ctx, result))
    every = [p for p in result.data.get("pending") or [] if p.get("doc_no", doc_no) == doc_no]
    rows = _matching_figure(ctx, every)
    # ('is the 30-day version in effect?': not yet, and the approved 25-day one comes first)
    coming = [p for p in every if p not in rows and p.get("status") == "APPROVED"]
    current = ""
    if hit:
        now = cite(ctx, doc_no, hit.get("version"), hit.get("effective_from"))
        current = ctx.t(f"현재 시행 중인 것은 {now}입니다. ", f"The version in force is {now}. ")
    if not rows:
        return answer(
            _renamed(ctx, hit)
            + current
            + ctx.t(
                f"{doc_no}에 진행 중인 개정안은 없습니다.",
                f"There is no pending revision of {doc_no}.",
            )
        )
    parts = []
    for p in rows:
        version, eff = p.get("version"), p.get("effective_from")
        if cue(ctx.turn.question, "drafter") and p.get("drafter"):
            parts.append(
                ctx.t(
                    f"제{version}차 개정안의 기안자 사번은 {p.get('drafter')}입니다.",
                    f"Version {version} was drafted by employee no. {p.get('drafter')}.",
                )
            )
        if p.get("status") == "REJECTED":
            parts.append(
                ctx.t(
                    f"제{version}차 개정안은 반려(REJECTED)되어 진행 중이 아니며 시행되지 "
                    f"않습니다 ({p.get('summary') or ''}).",
                    f"version {version} was rejected (REJECTED): it is not in progress and will "
                    f"not take effect ({p.get('summary') or ''}).",
                )
            )
        elif p.get("status") == "APPROVED":
            parts.append(
                ctx.t(
                    f"제{version}차는 승인되었지만 {eff}부터 시행 예정으로 아직 시행되지 않았습니다"
                    f" ({p.get('summary') or ''}).",
                    f"version {version} is approved but takes effect on {eff}, so it is not in "
                    f"force yet ({p.get('summary') or ''}).",
                )
            )
        else:
            parts.append(
                ctx.t(
                    f"제{version}차 개정안은 {p.get('status')} 상태로 아직 승인되지 않아 시행되지 "
                    f"않았습니다 ({p.get('summary') or ''}).",
                    f"version {version} is a {p.get('status')} that is not approved and not in "
                    f"force ({p.get('summary') or ''}).",
                )
            )
    approved = any(p.get("status") == "APPROVED" for p in rows)
    live = [p for p in rows if p.get("status") != "REJECTED"]
    if not live:
        # '직제규칙 v3 revision 어떻게 됐어? still pending?': rejected, so none in progress
        lead = ctx.t(
            f"아니요, {doc_no}에 진행 중인 개정은 없습니다. ",
            f"No, {doc_no} has no revision in progress. ",
        )
    elif _when_usable(ctx) and approved and not cue(ctx.turn.question, "took_effect"):
        # '다음 개정은 언제부터 적용돼?': the date first, then that it is not yet in force
        eff = next(p.get("effective_from") for p in rows if p.get("status") == "APPROVED")
        lead = ctx.t(f"{eff}부터입니다 (아직 시행 전). ", f"From {eff} (not in force yet). ")
    elif cue(ctx.turn.question, "took_effect") or _when_usable(ctx):
        lead = ctx.t("아니요, 아직입니다. ", "Not yet. ")
    elif _asks_approved(ctx.turn.question) and not approved:
        lead = ctx.t("아니요, 승인되지 않았습니다. ", "No, it is not approved. ")
    elif not _asks_whether_any(ctx.turn.question):
        # 'who drafted …', '어디까지 진행됐어?': what the revision is, no yes or no
        lead = ctx.t(
            f"{doc_no}에 진행 중인 개정 {len(live)}건입니다: ",
            f"{doc_no} has {len(live)} revision(s) in progress: ",
        )
    else:
        lead = ctx.t(
            f"네, {doc_no}에 진행 중인 개정이 {len(live)}건 있습니다: ",
            f"Yes, {doc_no} has {len(live)} revision(s) in progress: ",
        )
    for p in coming:
        parts.append(
            ctx.t(
                f"한편 제{p.get('version')}차는 승인되어 {p.get('effective_from')}부터 시행될 "
                f"예정입니다 ({p.get('summary') or ''}).",
                f"Meanwhile version {p.get('version')} is approved and takes effect on "
                f"{p.get('effective_from')} ({p.get('summary') or ''}).",
            )
        )
    body = " ".join(parts)
    if lead.endswith(". "):
        body = body[:1].upper() + body[1:]  # a sentence of its own ('No. Version 5 is …')
    return answer(_renamed(ctx, hit) + lead + body + (" " + current if current else ""))


def _asks_approved(question: str) -> bool:
    """'is it approved?', '승인됐어?', '확정된 거야?': whether a change is settled."""
    lowered = question.lower()
    return any(w in lowered for w in ("approved", "승인", "확정", "finalised", "finalized"))


def _asks_whether_any(question: str) -> bool:
    """'개정안 있어?', 'is there a draft?': whether any revision is in flight."""
    lowered = question.lower()
    return any(
        w in lowered
        for w in ("있어", "있나", "있습니까", "있는지", "있음", "is there", "are there", "any ")
    )


def plan_revision_request(ctx: Ctx) -> Blocks:
    """File a revision request (the one write; the person approves it)."""
    doc_no, hit, step = resolve_doc(ctx)
    if step:
        return step
    if doc_no is None:
        return _missing(ctx)
    version = ctx.ents.version or (hit.get("version") if hit else None)
    if version is None and ctx.has("get_effective_version"):
        # 'SEC-REG-001 개정 요청 넣어줘': a revision of the version in force
        effective = ctx.turn.last("get_effective_version")
        if effective is None:
            return call(ctx, "get_effective_version", {"doc_no": doc_no})
        found = (effective.data or {}).get("version") if not effective.failed else None
        version = found.get("version") if isinstance(found, dict) else None
    if version is None:
        return answer(
            ctx.t(
                f"{doc_no}의 어느 차수에 대한 요청인지 알 수 없어 요청하지 않았습니다. "
                "차수를 알려주세요.",
                f"I could not tell which version of {doc_no} to request a revision of.",
            )
        )
    result = ctx.turn.last("request_regulation_revision")
    if result is None:
        reason = ctx.ents.reason or ctx.t("규정 개정 검토 요청", "Revision review requested")
        args = {"doc_no": doc_no, "version": int(version), "reason": reason}
        return call(ctx, "request_regulation_revision", args)
    target = cite(ctx, doc_no, version, None)
    status = str((result.data or {}).get("status") or "")
    raw = result.raw.lower()
    if status == "DENIED_BY_USER" or (result.failed and ("denied" in raw or "거부" in raw)):
        return answer(
            ctx.t(
                f"{target} 개정 요청은 사람의 승인이 필요한 쓰기 작업인데, 승인 요청이 거부되어 "
                "접수되지 않았습니다.",
                f"A revision request for {target} is a write that needs a person's approval; "
                "the approval was declined, so it was not filed.",
            )
        )
    if result.failed:
        return answer(
            ctx.t(f"{target} 개정 요청이 접수되지 않았습니다. ", "") + failure(ctx, result)
        )
    if status == "REPLAYED":
        return answer(
            ctx.t(
                f"{target} 개정 요청은 이미 접수된 요청입니다 (중복 요청 없음).",
                f"A revision request for {target} was already filed; no duplicate was created.",
            )
        )
    return answer(
        ctx.t(
            f"{target} 개정 요청이 접수되었습니다 (사유: {result.input.get('reason')}).",
            f"The revision request for {target} was filed (reason: {result.input.get('reason')}).",
        )
    )


def plan_in_force_version(ctx: Ctx) -> Blocks:
    """Which version of a regulation is in force (today or on a date), and what comes next."""
    doc_no, hit, step = resolve_doc(ctx)
    if step:
        return step
    if doc_no is None:
        return _missing(ctx)
    searched = ctx.turn.last("search_regulations")
    today = str(((searched.data if searched else None) or {}).get("as_of") or "")
    when = as_of(ctx) or today
    result = ctx.turn.last("get_effective_version")
    if result is None:
        return call(
            ctx, "get_effective_version", {"doc_no": doc_no, **({"as_of": when} if when else {})}
        )
    if result.failed or result.data is None:
        return answer(failure(ctx, result))
    version = result.data.get("version")
    title = hit.get("title") if hit else None
    name = f"{title}({doc_no})" if title else doc_no
    day = str(result.data.get("as_of") or when)
    label = day or ctx.t("오늘", "today")
    if not version:
        return answer(
            ctx.t(
                f"{label} 기준으로 시행 중인 {name}의 버전을 찾을 수 없습니다 "
                "(조회 가능한 범위 기준).",
                f"No version of {name} in force on {label} was found among what you can see.",
            )
        )
    pending = ctx.turn.last("pending_revision")
    if pending is None and ctx.has("pending_revision"):
        return call(ctx, "pending_revision", {"doc_no": doc_no})
    number, eff = version.get("version"), version.get("effective_from")
    citation = cite(ctx, doc_no, number, eff)
    text = _renamed(ctx, hit) + ctx.t(
        f"{label} 기준 {name}의 시행 버전은 제{number}차입니다: {citation}.",
        f"On {label} the version of {name} in force is version {number}: {citation}.",
    )
    if version.get("summary"):
        text += ctx.t(
            f" 개정 내용: {version.get('summary')}.", f" Summary: {version.get('summary')}."
        )
    text += date_note(ctx, version)
    rows = []
    if pending is not None and not pending.failed and pending.data is not None:
        rows = [p for p in pending.data.get("pending") or [] if p.get("doc_no", doc_no) == doc_no]
    for p in rows:
        if p.get("status") == "APPROVED" and str(p.get("effective_from")) > day:
            text += ctx.t(
                f" 제{p.get('version')}차는 승인되었지만 {p.get('effective_from')}부터 시행 "
                f"예정이라 아직 효력이 없습니다 ({p.get('summary') or ''}).",
                f" Version {p.get('version')} is approved but only takes effect on "
                f"{p.get('effective_from')}, so it is not in force yet ({p.get('summary') or ''}).",
            )
        elif p.get("status") == "REJECTED":
            text += ctx.t(
                f" 제{p.get('version')}차 개정안은 반려되어(REJECTED) 효력이 없습니다.",
                f" Version {p.get('version')} was rejected (REJECTED) and has no effect.",
            )
        elif p.get("status") != "APPROVED":
            text += ctx.t(
                f" 제{p.get('version')}차 개정안({p.get('status')})은 승인되지 않아 "
                "효력이 없습니다.",
                f" Version {p.get('version')} is a {p.get('status')} that is not approved and "
                "has no effect.",
            )
    return answer(text)


_STATUS_KO = {
    "APPROVED": "승인됨(시행 전)",
    "DRAFT": "초안(DRAFT, 미승인)",
    "IN_REVIEW": "검토 중(미승인)",
    "REJECTED": "반려됨(REJECTED)",
}


_STAGE_WORDS = (
    ("DRAFT", ("draft", "초안", "기안 단계", "미승인")),
    ("IN_REVIEW", ("in review", "under review", "검토 중", "검토중", "심의 중")),
    ("APPROVED", ("approved", "승인된", "승인 완료", "승인됐", "승인 난")),
    ("REJECTED", ("rejected", "반려")),
)


def _stages_asked(question: str) -> list[str]:
    """The one stage a question restricts the list to ('only drafts'); [] for none or several."""
    lowered = f"{question.lower()} "
    if any(w in lowered for w in _INCLUSIVE) or not any(w in lowered for w in _RESTRICTIVE):
        return []  # 'including rejected ones', 'which did I draft': no stage restricts
    named = [stage for stage, words in _STAGE_WORDS if any(w in lowered for w in words)]
    return named if len(named) == 1 else []


_INCLUSIVE = ("including", "as well", "along with", "포함", "까지 다", "전부", "모두")
_RESTRICTIVE = ("only", "just ", "still", "만 ", "만?", "만.", "것만", "건만", "안만", "뿐")


def plan_pending_list(ctx: Ctx) -> Blocks:
    """Revisions in flight across the documents the caller may see (optionally: drafted by
    the caller, or taking effect this month)."""
    result = ctx.turn.last("pending_revision")
    if result is None:
        return call(ctx, "pending_revision", {})
    if result.failed or result.data is None:
        return answer(failure(ctx, result))
    rows = [p for p in result.data.get("pending") or [] if isinstance(p, dict)]
    notes: list[str] = []
    if cue(ctx.turn.question, "drafter") and asks_about_self(ctx):
        if not ctx.asker:
            return answer(
                ctx.t(
                    "질문하신 분이 누구인지 알 수 없어 기안한 개정을 가려낼 수 없습니다.",
                    "I cannot tell who you are, so I cannot pick the revisions you drafted.",
                )
            )
        found = lookup_call(ctx)
        if found is None:
            return call(ctx, "query_hr", {"question_sql": lookup_sql([ctx.asker])})
        people = [] if found.failed else people_of(found)
        if len(people) != 1:
            return answer(not_found(ctx, ctx.t("질문하신 분의 직원 기록", "your employee record")))
        rows = [p for p in rows if str(p.get("drafter")) == people[0].emp_no]
        notes.append(
            ctx.t(
                f"기안자 사번 {people[0].emp_no}({people[0].name}) 기준",
                f"drafted by {people[0].name} (employee no. {people[0].emp_no})",
            )
        )
    if cue(ctx.turn.question, "this_month"):
        searched = ctx.turn.last("search_regulations")
        if searched is None:
            return call(ctx, "search_regulations", {"question": "사규 개정 시행일"})
        today = str((searched.data or {}).get("as_of") or "")
        if not today:
            return answer(
                ctx.t(
                    "오늘 날짜를 플랫폼에서 확인할 수 없어 이번 달 시행분을 가려낼 수 없습니다.",
                    "The platform did not report today's date, so I cannot tell this month's.",
                )
            )
        rows = [p for p in rows if str(p.get("effective_from") or "")[:7] == today[:7]]
        notes.append(ctx.t(f"{today[:7]} 시행 예정분", f"taking effect in {today[:7]}"))
    stages = _stages_asked(ctx.turn.question)
    if stages:
        # 'only the drafts', '승인된 것만': the stage named scopes the list.
        rows = [p for p in rows if str(p.get("status") or "") in stages]
        notes.append(ctx.t(f"단계 {', '.join(stages)}", f"stage {', '.join(stages)}"))
    scope = f" ({', '.join(notes)})" if notes else ""
    if not rows:
        return answer(
            nothing_visible(ctx, ctx.t(f"진행 중인 개정{scope}", f"pending revisions{scope}"))
        )
    lines = []
    for p in rows[:30]:
        status = str(p.get("status") or "")
        eff = p.get("effective_from") or ctx.t("미정", "no date")
        lines.append(
            ctx.t(
                f"- {p.get('doc_no')} {p.get('title') or ''} 제{p.get('version')}차: "
                f"{_STATUS_KO.get(status, status)} — {p.get('summary') or ''} "
                f"(예정 시행일 {eff}, 기안자 사번 {p.get('drafter') or '-'})",
                f"- {p.get('doc_no')} {p.get('title') or ''} version {p.get('version')}: "
                f"{status} — {p.get('summary') or ''} (effective {eff}, drafted by "
                f"{p.get('drafter') or '-'})",
            )
        )
    return answer(
        ctx.t(
            f"조회 가능한 진행 중인 개정은 {len(rows)}건입니다{scope}:\n",
            f"{len(rows)} revision(s) in progress visible to you{scope}:\n",
        )
        + "\n".join(lines)
        + ctx.t(
            "\n승인(APPROVED)된 개정도 예정 시행일 전까지는 효력이 없고, 초안·검토 중·반려된 "
            "개정은 효력이 없습니다.",
            "\nAn APPROVED revision has no effect until its date; drafts, revisions in review "
            "and rejected ones have none.",
        )
    )


_CLASS_KO = {"RULE": "규칙", "REGULATION": "규정", "GUIDELINE": "지침"}


def _described(ctx: Ctx, doc_no: str) -> dict[str, Any] | None:
    for c in ctx.turn.all("describe_regulation"):
        if c.input.get("doc_no") == doc_no and not c.failed and c.data:
            return c.data.get("regulation") or None
    return None


def _documents_named(ctx: Ctx, hits: list[dict[str, Any]]) -> list[str]:
    """The documents the question names, by number or by a title it writes out."""
    asked = squash(ctx.turn.question)
    named = list(dict.fromkeys(ctx.ents.doc_nos))
    # (the title words, and topic words long enough to be a title's: 'working hours
    # regulation' is read as 근로시간)
    titles = [squash(w) for w in [*ctx.ents.title_words, *ctx.ents.keywords] if len(w) >= 4]
    for hit in with_titles(ctx, hits):
        doc_no, title = str(hit.get("doc_no")), squash(str(hit.get("title") or ""))
        if doc_no in named or not title:
            continue
        if title in asked or any(t in title for t in titles):
            named.append(doc_no)
    return named[:3]


def plan_precedence(ctx: Ctx) -> Blocks:
    """Which document governs where two disagree: the regulations' own article on the
    order of documents, quoted, and for the documents the question names, their
    tiers side by side and the one that governs ('연차휴가 운영지침이랑 근로시간 및
    휴가규정 내용이 다르면 어느 쪽 따라야 돼요?')."""
    query = search_query(ctx)
    first = [c for c in ctx.turn.all("search_regulations") if c.input.get("question") == query]
    if not first:
        return call(ctx, "search_regulations", {"question": query})
    if first[0].failed:
        return answer(failure(ctx, first[0]))
    named = _documents_named(ctx, hits_of(first[0]))
    for doc_no in named:
        if not any(c.input.get("doc_no") == doc_no for c in ctx.turn.all("describe_regulation")):
            return call(ctx, "describe_regulation", {"doc_no": doc_no})
    step, rule = searched_article(ctx, ORDER_QUERY, ("상위", "충돌"))
    if step:
        return step
    if rule is None:
        return answer(not_found(ctx, ctx.t("사규 간 위계", "the order of documents")))
    citation = cite(ctx, str(rule.get("doc_no")), rule.get("version"), rule.get("effective_from"))
    head = f"{rule.get('article_no') or ''} {rule.get('article_title') or ''}".strip()
    text = ctx.t(
        f"사규끼리 내용이 다르면 위계가 높은 쪽을 따릅니다. {titled(rule, citation)} "
        f'{head}: "{rule.get("text")}"',
        f"Where documents disagree, the higher-ranking one governs. {titled(rule, citation)} "
        f'{head}: "{rule.get("text")}"',
    )
    ranked = []
    for doc_no in named:
        reg = _described(ctx, doc_no) or {}
        tier = reg.get("tier")
        if isinstance(tier, int | str) and str(tier).isdigit():
            ranked.append((int(tier), doc_no, reg))
    ranked.sort(key=lambda r: r[0])
    if len(ranked) >= 2:
        lines = "\n".join(
            ctx.t(
                f"- {doc_no} {reg.get('title') or ''}: "
                f"{_CLASS_KO.get(str(reg.get('doc_class')), reg.get('doc_class'))} (위계 {tier})",
                f"- {doc_no} {reg.get('title') or ''}: {reg.get('doc_class')} (tier {tier})",
            )
            for tier, doc_no, reg in ranked
        )
        top_tier, top_doc, top_reg = ranked[0]
        title = str(top_reg.get("title") or top_doc)
        if top_tier < ranked[1][0]:
            verdict = ctx.t(
                f"\n따라서 두 문서의 내용이 다르면 위계가 높은 {top_doc} {title}"
                f"{josa(title, '을', '를')} 따릅니다.",
                f"\nSo where they disagree, {top_doc} {title}, the higher tier, governs.",
            )
        else:
            verdict = ctx.t(
                "\n두 문서는 위계가 같아, 이 조항만으로는 어느 쪽이 우선하는지 정해지지 않습니다.",
                "\nBoth documents rank alike, so this article alone does not decide between them.",
            )
        text += ctx.t(f"\n물어보신 문서의 위계:\n{lines}", f"\nThe documents asked about:\n{lines}")
        text += verdict
    return answer(text)


REVISION_QUERY = "사규 개정 요청"
"""The search that finds the regulations' own article on requesting a revision."""


def plan_revision_how(ctx: Ctx) -> Blocks:
    """How a revision is requested: the article on it quoted, the owner of the document
    named (when one is), and that this app files such a request after approval."""
    step, rule = searched_article(ctx, REVISION_QUERY, ("개정", "요청"))
    if step:
        return step
    if rule is None:
        return answer(not_found(ctx, ctx.t("사규 개정 요청 절차", "how to request a revision")))
    owner = ""
    for doc_no in ctx.ents.doc_nos[:1]:
        if ctx.has("describe_regulation") and _described(ctx, doc_no) is None:
            if not any(
                c.input.get("doc_no") == doc_no for c in ctx.turn.all("describe_regulation")
            ):
                return call(ctx, "describe_regulation", {"doc_no": doc_no})
        reg = _described(ctx, doc_no) or {}
        if reg.get("owner_dept"):
            owner = ctx.t(
                f" {doc_no} {reg.get('title') or ''}의 주관부서는 {reg.get('owner_dept')}입니다.",
                f" The owner of {doc_no} {reg.get('title') or ''} is {reg.get('owner_dept')}.",
            )
    citation = cite(ctx, str(rule.get("doc_no")), rule.get("version"), rule.get("effective_from"))
    head = f"{rule.get('article_no') or ''} {rule.get('article_title') or ''}".strip()
    filing = (
        ctx.t(
            " 이 앱에서도 요청을 올릴 수 있습니다: 문서번호와 사유를 적어 '개정 요청해줘'라고 "
            "하시면, 승인 창에서 확인하신 뒤에 요청이 기록됩니다.",
            " This app can file one for you: name the document and your reason ('request a "
            "revision of …, reason: …'); it is recorded only after you approve it.",
        )
        if ctx.has("request_regulation_revision")
        else ""
    )
    return answer(
        ctx.t(
            f"사규 개정은 주관부서에 요청합니다. "
            f'{titled(rule, citation)} {head}: "{rule.get("text")}"',
            f"A revision is requested from the document's owner department. "
            f'{titled(rule, citation)} {head}: "{rule.get("text")}"',
        )
        + owner
        + filing
    )
