"""A turn's token usage and estimated cost reach the history record and the exports."""

from __future__ import annotations

import json

from agent_core.events import AnswerFinished, Usage, event_to_dict
from desktop.export import turn_to_json, turn_to_markdown, turn_usage
from desktop.history_store import SavedTurn


def test_usage_is_in_the_turn_exports() -> None:
    usage = Usage(100, 50, 2600, 0, 3, 0.0013)
    events = [event_to_dict(AnswerFinished("답", (), usage=usage))]
    record = SavedTurn(
        id=1,
        persona="hong",
        question="질문",
        answer="답",
        events=events,
        started_at=1_735_689_600.0,
        elapsed_ms=10.0,
        status="answered",
    )
    assert turn_usage(events) == {**event_to_dict(AnswerFinished("", (), usage=usage))["usage"]}
    document = json.loads(turn_to_json(record))
    assert document["usage"]["cache_read_input_tokens"] == 2600
    assert document["usage"]["cost_usd"] == 0.0013
    text = turn_to_markdown(record)
    assert "- **Tokens:** 2,700 in (2,600 from cache), 50 out, 3 model calls, ≈ $0.0013" in text
