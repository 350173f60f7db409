"""The declared intent registry resolves: every intent has a plan, known cues and entities."""

from __future__ import annotations

import dataclasses

from offered_tools import TOOLS

from embedded.model.entities import Entities
from embedded.model.intents import INTENTS, REGISTRY
from embedded.model.lexicon import CUES
from embedded.model.planner import PLANS


def test_every_intent_name_resolves_to_one_record_and_one_plan() -> None:
    names = [i.name for i in REGISTRY]
    assert len(names) == len(set(names))
    assert set(names) == set(PLANS)
    assert {name for name, _ in INTENTS} == set(PLANS)


def test_registry_is_in_the_order_the_table_first_picks_each_intent() -> None:
    first: list[str] = []
    for name, _ in INTENTS:
        if name not in first:
            first.append(name)
    assert [i.name for i in REGISTRY] == first


def test_cues_entities_and_steps_are_declared_names() -> None:
    fields = {f.name for f in dataclasses.fields(Entities)}
    for intent in REGISTRY:
        assert set(intent.cues) <= set(CUES), intent.name
        assert set(intent.needs) <= fields, intent.name
        assert set(intent.steps) <= set(TOOLS), intent.name
        assert intent.answers, intent.name


def test_the_last_intent_answers_anything() -> None:
    assert INTENTS[-1][0] == "search"
    assert INTENTS[-1][1]("", Entities(lang="ko"))
