"""Tool results read in every form a real model reads: prose, pipe tables, JSON, frames, blocks.

The prose fixtures are written in the shapes the reference client's tools
return (../shared/reference-client, never imported here): a search hit header
``[DOC 제N차 제M조 시행 YYYY-MM-DD]`` then the article, a pipe table for HR rows,
``[DOC 제N차 개정 — STAGE] 요지 (예정 시행일 …, 기안 …)`` for pending revisions.
"""

from __future__ import annotations

from typing import Any

import pytest
from offered_tools import tool_definitions

from embedded.model.conversation import read_turn
from embedded.model.planner import plan_reply
from embedded.model.results import iso_date, json_value, read_result
from embedded.model.wire import MessagesRequest

REFERENCE_LIKE_PROMPT = "You answer questions about company regulations and HR records."
IDENTITY = "The person asking is {name} (username {user})."

SEARCH_CHILDCARE = (
    "[HR-REG-003 제3차 제3조 시행 2025-03-15]\n"
    "① 대상 직원은 자녀 1명당 연간 최대 20일의 육아휴직을 유급으로 사용할 수 있다.\n\n"
    "[HR-REG-003 제3차 부칙 시행 2025-03-15]\n이 규정은 2025년 1월 1일부터 시행한다."
)
SEARCH_LODGING = (
    "[FIN-GDL-001 제2차 제3조 시행 2024-01-01]\n"
    "숙박비는 실제 숙박한 일수에 따라 지급하되, 1박당 상한은 서울 1박당 100,000원(10만원), "
    "광역시 1박당 90,000원(9만원), 기타 지역 1박당 80,000원(8만원)으로 한다."
)
DESCRIBE_CHILDCARE = (
    "HR-REG-003 육아지원규정 (구분 REGULATION, 위계 2, 소관 HR)\n"
    "  제2차 [APPROVED] 시행 2023-06-01\n"
    "  제3차 [APPROVED] 시행 2025-03-15\n"
    "  제4차 [APPROVED] 시행 2026-12-22\n"
    "  제5차 [DRAFT] 시행 "
)
EFFECTIVE_CHILDCARE = (
    "HR-REG-003 육아지원규정 제3차 개정, 시행 2025-03-15 "
    "(문서 부칙에는 2025-01-01로 기재되어 있으나 결재 승인일 2025-03-15이 기준입니다)"
)
PENDING_CHILDCARE = (
    "[HR-REG-003 제4차 개정 — APPROVED] 육아휴직 25일로 확대 (예정 시행일 2026-12-22, "
    "기안 20090001)\n"
    "[HR-REG-003 제5차 개정 — DRAFT] 육아휴직 30일 검토 (예정 시행일 , 기안 20090001)"
)
LEAVE_HEADER = "사번 | 성명 | 부서 | 휴가종류 | 연도 | 사용일수"
HONG_LEAVE = LEAVE_HEADER + "\n20170003 | 홍가은 | DEV | 육아휴직 | 2026 | 12"
DEV_LEAVE = (
    "사번 | 성명 | 부서 | 휴가종류 | 연도 | 사용일수\n"
    "20170003 | 홍가은 | DEV | 육아휴직 | 2026 | 12\n"
    "20170061 | 이서준 | DEV | 육아휴직 | 2026 | 4\n"
    "20150010 | 홍지아 | DEV | 육아휴직 | 2026 | 6"
)


def run(
    question: str, results: dict[str, str], system: str = REFERENCE_LIKE_PROMPT
) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
    """Drive the planner with prose tool results (by tool name) to its final answer."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": question}]
    offered = tool_definitions()
    calls: list[tuple[str, dict[str, Any]]] = []
    for _ in range(14):
        request = MessagesRequest(
            model="m",
            max_tokens=512,
            messages=[
                {
                    "role": m["role"],
                    "content": [{"type": "text", "text": m["content"]}]
                    if isinstance(m["content"], str)
                    else m["content"],
                }
                for m in messages
            ],
            system=system,
            tools=offered,
        )
        blocks = plan_reply(request)
        uses = [b for b in blocks if b["type"] == "tool_use"]
        if not uses:
            return "".join(b["text"] for b in blocks if b["type"] == "text"), calls
        messages.append({"role": "assistant", "content": blocks})
        for use in uses:
            calls.append((use["name"], use["input"]))
        messages.append(
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": u["id"], "content": results[u["name"]]}
                    for u in uses
                ],
            }
        )
    raise AssertionError("planner did not finish")


# ── readers ──────────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("value", "iso"),
    [
        (20162, "2025-03-15"),
        ("20162", "2025-03-15"),
        ("2025-03-15", "2025-03-15"),
        ("2025-03-15T00:00:00", "2025-03-15"),
        (None, None),
        ("", ""),
    ],
)
def test_dates_render_as_iso(value: Any, iso: Any) -> None:
    assert iso_date(value) == iso


def test_search_prose_is_split_into_hits() -> None:
    data = read_result("search_regulations", SEARCH_CHILDCARE)
    hits = data["hits"]
    assert [h["doc_no"] for h in hits] == ["HR-REG-003", "HR-REG-003"]
    assert hits[0]["version"] == 3 and hits[0]["effective_from"] == "2025-03-15"
    assert hits[0]["article_no"] == "제3조" and "20일" in hits[0]["text"]
    assert hits[1]["article_no"] == "부칙"


def test_search_prose_with_epoch_day_header() -> None:
    data = read_result("search_regulations", "[HR-REG-003 제3차 제3조 시행 20162]\n본문")
    assert data["hits"][0]["effective_from"] == "2025-03-15"


def test_pipe_table_and_markdown_table() -> None:
    data = read_result("query_hr", HONG_LEAVE + "\n… 외 3건")
    assert data["columns"] == ["사번", "성명", "부서", "휴가종류", "연도", "사용일수"]
    assert data["rows"] == [["20170003", "홍가은", "DEV", "육아휴직", "2026", "12"]]
    md = "| 청구번호 | 청구일 | 금액 |\n|---|---|---:|\n| EXP-1 | 20089 | 220000 |"
    assert read_result("query_hr", md)["rows"] == [["EXP-1", "2025-01-01", "220000"]]


def test_json_with_korean_keys_and_epoch_days() -> None:
    body = (
        '{"rows": [{"문서번호": "HR-REG-003", "개정차수": 4, "단계": "APPROVED", '
        '"요지": "확대", "예정시행일": 20809}]}'
    )
    row = read_result("pending_revision", body)["pending"][0]
    assert row == {
        "doc_no": "HR-REG-003",
        "version": 4,
        "status": "APPROVED",
        "summary": "확대",
        "effective_from": "2026-12-22",
    }


def test_sql_columns_with_types_render_dates() -> None:
    body = '{"columns": [{"name": "사번", "type": "VARCHAR"}, {"name": "입사일", "type": "DATE"}], "rows": [["20170003", "17167"]]}'  # noqa: E501
    assert read_result("query_hr", body) == {
        "columns": ["사번", "입사일"],
        "rows": [["20170003", "2017-01-01"]],
    }


def test_framed_json_and_error_payloads() -> None:
    framed = (
        '<tool-data tool="query_hr" injection-suspected="false" truncated="false">\n'
        "Data returned by the tool.\n"
        '{"columns": ["사번"], "rows": [["20170003"]]}\n</tool-data>'
    )
    assert read_result("query_hr", framed)["rows"] == [["20170003"]]
    assert read_result("query_hr", '{"error": "column denied: 주민등록번호"}') == {
        "error": "column denied: 주민등록번호"
    }
    assert "error" in read_result("query_hr", "조회 실패: no such column: 부서코드")
    assert "error" in read_result("request_regulation_revision", "개정 요청이 거부되었습니다: 403")


def test_brackets_in_prose_are_not_json() -> None:
    assert json_value(SEARCH_CHILDCARE) is None
    assert json_value("[1, 2]") is None  # not records


def test_describe_effective_pending_and_lineage_prose() -> None:
    described = read_result("describe_regulation", DESCRIBE_CHILDCARE)
    assert described["regulation"] == {
        "doc_no": "HR-REG-003",
        "title": "육아지원규정",
        "doc_class": "REGULATION",
        "tier": "2",
        "owner_dept": "HR",
    }
    assert [v["version"] for v in described["versions"]] == [2, 3, 4, 5]
    assert described["versions"][3]["status"] == "DRAFT"
    version = read_result("get_effective_version", EFFECTIVE_CHILDCARE)["version"]
    assert version["version"] == 3 and version["title"] == "육아지원규정"
    assert version["date_mismatch"] and version["stated_from"] == "2025-01-01"
    pending = read_result("pending_revision", PENDING_CHILDCARE)["pending"]
    assert [(p["version"], p["status"], p["effective_from"]) for p in pending] == [
        (4, "APPROVED", "2026-12-22"),
        (5, "DRAFT", None),
    ]
    assert pending[0]["drafter"] == "20090001"
    chain = read_result(
        "trace_authority", "  └ HR-REG-002 근로시간 및 휴가규정\n    └ GEN-RUL-001 취업규칙"
    )["rows"]
    assert [(r["doc_no"], r["depth"], r["title"]) for r in chain] == [
        ("HR-REG-002", 1, "근로시간 및 휴가규정"),
        ("GEN-RUL-001", 2, "취업규칙"),
    ]
    impact = read_result(
        "impact_of_change", "2건이 영향을 받습니다:\n  SEC-GDL-001 보안 지침 (SEC)"
    )
    assert impact["rows"][0]["owner_dept"] == "SEC"


def test_empty_prose_is_no_rows_not_a_failure() -> None:
    assert read_result("search_regulations", "해당하는 규정을 찾지 못했습니다.")["hits"] == []
    assert read_result("query_hr", "조회 결과가 없습니다. (권한 범위 밖)")["rows"] == []
    assert read_result("describe_regulation", "HR-REG-999는 규정 목록에 없습니다.") == {
        "regulation": None,
        "versions": [],
    }
    missing = read_result(
        "get_effective_version", "HR-REG-003: 2020-01-01 시점에 유효한 버전이 없습니다."
    )
    assert missing["version"] is None


def test_content_blocks_are_read() -> None:
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "질문"}]},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": "query_hr", "input": {}}],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "t1",
                    "content": [
                        {"type": "image", "source": {"type": "base64", "data": "x"}},
                        {"type": "text", "text": HONG_LEAVE},
                    ],
                }
            ],
        },
    ]
    call = read_turn(messages).calls[0]
    assert not call.failed and call.data is not None and call.data["rows"][0][0] == "20170003"


# ── the planner on prose ─────────────────────────────────────────────────────


def test_remaining_from_one_persons_rows_without_identity_line() -> None:
    answer, calls = run(
        "나 육아휴직 며칠 남았어?",
        {
            "search_regulations": SEARCH_CHILDCARE,
            "query_hr": HONG_LEAVE,
            "pending_revision": PENDING_CHILDCARE,
        },
    )
    assert "8일" in answer and "20일 − 12일 = 8일" in answer
    assert "HR-REG-003 제3차 (시행 2025-03-15)" in answer
    # The approved revision is said, with the days recomputed under it (issue 13 item 4).
    assert "2026-12-22" in answer and "25 − 12 = 13" in answer
    sql = dict(calls)["query_hr"]["question_sql"]
    assert "휴가종류 = '육아휴직'" in sql and "성명" in sql and "부서코드" not in sql


def test_remaining_with_several_peoples_rows_is_ambiguous() -> None:
    answer, _ = run(
        "나 육아휴직 며칠 남았어?",
        {
            "search_regulations": SEARCH_CHILDCARE,
            "query_hr": DEV_LEAVE,
            "pending_revision": PENDING_CHILDCARE,
        },
    )
    assert "3명" in answer and "알 수 없습니다" in answer
    assert "12일 = 8일" not in answer and "= 8" not in answer


def test_english_usage_with_several_rows_is_ambiguous() -> None:
    answer, _ = run("How much childcare leave have I used?", {"query_hr": DEV_LEAVE})
    assert "ambiguous" in answer and "3 employees" in answer


def test_identity_line_is_still_a_hint() -> None:
    lookup = "사번 | 성명 | 부서\n20150010 | 홍지아 | DEV"
    system = REFERENCE_LIKE_PROMPT + "\n" + IDENTITY.format(name="홍지아", user="park")
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "text", "text": "나 육아휴직 며칠 썼어?"}]}
    ]
    offered = tool_definitions()
    for _ in range(6):
        blocks = plan_reply(
            MessagesRequest(
                model="m", max_tokens=64, messages=messages, system=system, tools=offered
            )
        )
        uses = [b for b in blocks if b["type"] == "tool_use"]
        if not uses:
            text = "".join(b["text"] for b in blocks if b["type"] == "text")
            assert "홍지아" in text and "6일" in text and "12일" not in text
            return
        use = uses[0]
        sql = str(use["input"].get("question_sql"))
        content = lookup if "semantic.hr.employees" in sql else DEV_LEAVE
        messages += [
            {"role": "assistant", "content": blocks},
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": use["id"], "content": content}],
            },
        ]
    raise AssertionError("no answer")


def test_version_in_force_learns_the_title_and_names_the_next_version() -> None:
    answer, calls = run(
        "육아지원규정은 지금 몇 차가 시행 중이야?",
        {
            "search_regulations": SEARCH_CHILDCARE,
            "describe_regulation": DESCRIBE_CHILDCARE,
            "get_effective_version": EFFECTIVE_CHILDCARE,
            "pending_revision": PENDING_CHILDCARE,
        },
    )
    assert [c[0] for c in calls] == [
        "search_regulations",
        "describe_regulation",
        "get_effective_version",
        "pending_revision",
    ]
    assert "제3차" in answer and "2025-03-15" in answer and "2026-12-22" in answer
    assert "부칙" in answer and "2025-01-01" in answer


def test_describe_from_prose_uses_pending_to_tell_current() -> None:
    answer, _ = run(
        "HR-REG-003이 무슨 규정이야?",
        {"describe_regulation": DESCRIBE_CHILDCARE, "pending_revision": PENDING_CHILDCARE},
    )
    assert "육아지원규정" in answer and "최신 개정은 제3차" in answer
    assert "제4차는 승인되었으나 2026-12-22부터" in answer and "제5차 개정안(DRAFT)" in answer


def test_lodging_cap_from_prose_cites_the_guideline() -> None:
    answer, _ = run("서울 출장 숙박비 한도가 얼마야?", {"search_regulations": SEARCH_LODGING})
    assert "100,000원" in answer and "FIN-GDL-001 제2차 (시행 2024-01-01)" in answer


MIXED_DEPARTMENTS = (
    LEAVE_HEADER + "\n20170003 | 홍가은 | DEV | 육아휴직 | 2026 | 12\n"
    "20090001 | 조태윤 | HR | 육아휴직 | 2026 | 7\n20110041 | 김서연 | FIN | 육아휴직 | 2026 | 4"
)


def test_my_department_over_several_departments_without_identity_is_ambiguous() -> None:
    answer, _ = run("우리 부서 육아휴직 얼마나 썼어?", {"query_hr": MIXED_DEPARTMENTS})
    assert "DEV, FIN, HR" in answer and "알 수 없습니다" in answer


def test_my_department_with_identity_is_the_askers_department() -> None:
    system = REFERENCE_LIKE_PROMPT + "\n" + IDENTITY.format(name="조태윤", user="cho")
    lookup = "사번 | 성명 | 부서\n20090001 | 조태윤 | HR"
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "text", "text": "우리 부서 육아휴직 얼마나 썼어?"}]}
    ]
    offered = tool_definitions()
    for _ in range(4):
        blocks = plan_reply(
            MessagesRequest(
                model="m", max_tokens=64, messages=messages, system=system, tools=offered
            )
        )
        uses = [b for b in blocks if b["type"] == "tool_use"]
        if not uses:
            text = "".join(b["text"] for b in blocks if b["type"] == "text")
            assert "부서 HR 기준" in text and "20090001" in text
            assert "20170003" not in text and "20110041" not in text
            return
        sql = str(uses[0]["input"].get("question_sql"))
        content = lookup if "semantic.hr.employees" in sql else MIXED_DEPARTMENTS
        messages += [
            {"role": "assistant", "content": blocks},
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": uses[0]["id"], "content": content}
                ],
            },
        ]
    raise AssertionError("no answer")
