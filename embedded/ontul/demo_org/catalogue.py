"""All documents of the demo organisation, in insertion order."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from embedded.ontul.demo_org.childcare import childcare_document
from embedded.ontul.demo_org.corpus import generic_documents
from embedded.ontul.demo_org.key_documents_hr import hr_key_documents
from embedded.ontul.demo_org.key_documents_ops import ops_key_documents
from embedded.ontul.demo_org.minutes import minutes_documents

if TYPE_CHECKING:
    from datetime import date

    from embedded.ontul.demo_org.model import DocumentSpec


def all_documents(today: date, seed: int) -> list[DocumentSpec]:
    """Every document: hand-written key documents, composed filler, meeting notes.

    Args:
        today: the server's clock (HR-REG-003 v4 is dated from it).
        seed: generator seed.

    Returns:
        Document specs; document numbers are unique and every parent exists.
    """
    key = [*hr_key_documents(), childcare_document(today), *ops_key_documents()]
    filler = generic_documents(seed, {doc.doc_no: doc.title for doc in key})
    filler[0] = with_rejected_revision(filler[0])
    docs = [*key, *filler, *minutes_documents()]
    numbers = [doc.doc_no for doc in docs]
    if len(set(numbers)) != len(numbers):
        raise ValueError("duplicate document number in the demo corpus")
    missing = {p for doc in docs for p in doc.parents} - set(numbers)
    if missing:
        raise ValueError(f"parents missing from the demo corpus: {sorted(missing)}")
    return docs


def with_rejected_revision(doc: DocumentSpec) -> DocumentSpec:
    """``doc`` with one more revision, drafted and rejected.

    A rejected revision stays listed in ``semantic.reg.pending_revisions``:
    "submitted and rejected" is a different fact from "there is no revision".

    Args:
        doc: a document whose last version is approved.

    Returns:
        The document with a REJECTED version appended (same articles, no dates).
    """
    last = doc.versions[-1]
    rejected = dataclasses.replace(
        last,
        version=last.version + 1,
        status="REJECTED",
        effective_from=None,
        stated_from=None,
        summary=f"개정안(반려): {doc.title} 세부 기준 정비",
    )
    return dataclasses.replace(doc, versions=(*doc.versions, rejected))
