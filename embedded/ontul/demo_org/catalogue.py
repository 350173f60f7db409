"""All documents of the demo organisation, in insertion order."""

from __future__ import annotations

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
    docs = [*key, *filler, *minutes_documents()]
    numbers = [doc.doc_no for doc in docs]
    if len(set(numbers)) != len(numbers):
        raise ValueError("duplicate document number in the demo corpus")
    missing = {p for doc in docs for p in doc.parents} - set(numbers)
    if missing:
        raise ValueError(f"parents missing from the demo corpus: {sorted(missing)}")
    return docs
