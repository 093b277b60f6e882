"""The effect vocabulary's parser (model/vocab/)."""

from __future__ import annotations

import pytest

from mtg_outcomes.model.errors import CaseError
from mtg_outcomes.model.vocab import parse_ability, parse_effect


@pytest.mark.parametrize("raw", [{"redirect": "target", "shield": 2}, {"shield": 2, "redirect": "target"}])
def test_partial_redirection_in_either_key_order(raw: dict) -> None:
    spec = parse_effect(raw, "effects[0]")
    assert spec.kind == "redirect" and spec.shield == ("int", 2)


def test_two_effect_kinds_are_an_error() -> None:
    with pytest.raises(CaseError) as err:
        parse_effect({"shield": 2, "multiply": 2}, "effects[0]")
    assert err.value.path == "effects[0].multiply"


def test_redirect_with_another_kind_is_an_error() -> None:
    with pytest.raises(CaseError) as err:
        parse_effect({"redirect": "target", "shield": 2, "multiply": 2}, "effects[0]")
    assert err.value.path == "effects[0].multiply"


def test_enters_with_counters_reads_x() -> None:

    ab = parse_ability({"enters_with": {"+1/+1": "X"}}, "abilities[0]")
    assert ab.kind == "enters_with" and ab.counters == (("+1/+1", ("var", "X")),)


def test_enters_with_rejects_other_variables() -> None:

    with pytest.raises(CaseError) as err:
        parse_ability({"enters_with": {"+1/+1": "prevented"}}, "abilities[0]")
    assert err.value.path == "abilities[0].enters_with.+1/+1"


def test_enters_trigger_takes_no_filter() -> None:

    with pytest.raises(CaseError) as err:
        parse_ability({"trigger": "enters", "to": "you", "do": {"deal": "X", "to": "any"}}, "abilities[0]")
    assert err.value.path == "abilities[0].to"


def test_activated_cost_remove_counters() -> None:

    ab = parse_ability({"activated": {"deal": 1, "to": "target"}, "target": "any",
                        "cost": [{"remove_counters": {"+1/+1": 1}}, 4]}, "abilities[0]")
    assert ab.cost == (("remove_counters", "+1/+1", 1), "4")


def test_a_static_mana_replacement_may_filter_by_type() -> None:
    """`mana:` on a mana replacement is its type filter, not a mana ability (a static ability
    with an effect kind is an effect)."""
    ab = parse_ability({"multiply_mana": 2, "to": "lands", "mana": "G"}, "abilities[0]")
    assert ab.kind == "static" and ab.effect is not None
    assert (ab.effect.kind, ab.effect.mana) == ("multiply_mana", "G")
    assert parse_ability({"mana": ["G"], "cost": ["T"]}, "abilities[0]").kind == "mana"


def test_every_kind_the_parsers_accept_is_a_tagged_kind() -> None:
    """The parsers build kinds from these tuples: each word must be a member of its enum (a word
    added to a tuple but not to model.kinds would fail only when a case uses it)."""
    from mtg_outcomes.model.effects import EFFECT_KINDS, EffectKind
    from mtg_outcomes.model.kinds import AbilityKind, ActionKind, TriggerEvent
    from mtg_outcomes.model.vocab.abilities import _ABILITY_KEYS
    from mtg_outcomes.model.vocab.common import ONE_SHOT_KINDS, RIDER_KINDS, TRIGGERS

    assert {str(k) for k in (*ONE_SHOT_KINDS, *RIDER_KINDS)} <= {k.value for k in ActionKind}
    assert set(_ABILITY_KEYS) <= {k.value for k in AbilityKind}
    assert set(TRIGGERS) == {k.value for k in TriggerEvent}
    assert set(EFFECT_KINDS) == {k.value for k in EffectKind}
