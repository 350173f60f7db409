"""The physical SQLite schema (docs/architecture.md, "Physical tables")."""

from __future__ import annotations

SCHEMA_SQL = """
CREATE TABLE users(user_id TEXT PRIMARY KEY,
      display_name TEXT, password_salt TEXT, password_hash TEXT,
      is_admin INTEGER, active INTEGER,
      groups TEXT,
      attrs TEXT);
CREATE TABLE regulations(doc_id INTEGER UNIQUE, doc_no TEXT PRIMARY KEY, title TEXT, doc_class TEXT,
      tier INTEGER,
      owner_dept TEXT, citable INTEGER, sensitivity TEXT);
CREATE TABLE regulation_versions(doc_no TEXT, version INTEGER, status TEXT,
      effective_from INTEGER, effective_to INTEGER, stated_from INTEGER,
      date_mismatch INTEGER, summary TEXT, drafter TEXT, PRIMARY KEY(doc_no, version));
CREATE TABLE regulation_chunks(chunk_id INTEGER PRIMARY KEY, doc_no TEXT, version INTEGER,
      article_no TEXT,
      article_title TEXT, body TEXT, body_redacted TEXT);
CREATE TABLE regulation_links(child_doc_no TEXT, parent_doc_no TEXT);
CREATE TABLE hr_employees(사번 TEXT PRIMARY KEY, 성명 TEXT, 부서 TEXT, 직급 TEXT, 연락처 TEXT,
      주민등록번호 TEXT, 입사일 INTEGER, 비고 TEXT);
CREATE TABLE hr_leave(사번 TEXT, 성명 TEXT, 부서 TEXT, 휴가종류 TEXT, 연도 INTEGER,
      부여일수_ERP INTEGER, 사용일수 INTEGER, 비고 TEXT);
CREATE TABLE hr_expenses(청구번호 TEXT PRIMARY KEY, 사번 TEXT, 성명 TEXT, 부서 TEXT, 유형 TEXT,
      지역 TEXT, 숙박일수 INTEGER, 금액 INTEGER, 청구일 INTEGER, 상태 TEXT, 비고 TEXT);
CREATE TABLE hr_purchase_orders(발주번호 TEXT PRIMARY KEY, 부서 TEXT, 요청자사번 TEXT, 성명 TEXT,
      품목 TEXT, 금액 INTEGER, 상태 TEXT, 비고 TEXT);
CREATE TABLE revision_requests(request_id INTEGER PRIMARY KEY, doc_no TEXT, version INTEGER,
      reason TEXT, requested_by TEXT, idempotency_key TEXT UNIQUE, status TEXT,
      created_at TEXT);
CREATE TABLE audit_log(id INTEGER PRIMARY KEY, ts TEXT, user_id TEXT, action TEXT,
      resource TEXT, decision TEXT, query TEXT);
CREATE TABLE server_clock(today TEXT);
"""
"""Tables exactly as the contract names them, plus the one-row ``server_clock`` helper.

DATE columns (``effective_from``, ``effective_to``, ``stated_from``, ``입사일``, ``청구일``)
hold Int32 epoch days, as the real engine stores them (see ``embedded.ontul.dates``);
``server_clock.today`` is the platform's own ISO setting, never served."""

INDEX_SQL = """
CREATE INDEX idx_chunks_doc_version ON regulation_chunks(doc_no, version);
CREATE INDEX idx_links_child ON regulation_links(child_doc_no);
CREATE INDEX idx_links_parent ON regulation_links(parent_doc_no);
CREATE INDEX idx_leave_emp ON hr_leave(사번);
CREATE INDEX idx_leave_dept ON hr_leave(부서);
CREATE INDEX idx_expenses_emp ON hr_expenses(사번);
CREATE INDEX idx_employees_dept ON hr_employees(부서);
"""
"""Indexes created after the bulk insert."""
