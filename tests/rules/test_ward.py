"""Ward (CR 702.21a): "Whenever this permanent becomes the target of a spell or ability an opponent
controls, counter that spell or ability unless that player pays [cost]." Recognised as
``{ward: <cost>}``; the targeting player's pay-or-countered choice is enumerated."""

from __future__ import annotations

import pytest

from mtg_outcomes.model.errors import CaseError
from mtg_outcomes.model.recognise import read_text
from mtg_outcomes.model.vocab import parse_ability
from tests.helpers import outcome_set

BOLT_AT = """
players: [{{name: you}}, {{name: A, life: {life}}}]
battlefield:
  - {{id: w, name: Warded, controller: you, types: [creature], power: 3, toughness: 3,
     abilities: [{{ward: {cost}}}]}}
actions:
  - cast: {{card: Lightning Bolt, controller: {caster}, target: w}}
"""


@pytest.mark.parametrize("text,ability", [
    ("Ward {2}", {"ward": [2]}),
    ("Ward—Pay 3 life.", {"ward": [{"pay_life": 3}]}),
    ("Ward—{1}, Pay 1 life.", {"ward": [1, {"pay_life": 1}]}),
    ("Ward {U}", {"ward": ["U"]}),
])
def test_ward_lines(text: str, ability: object) -> None:
    r = read_text(text, "Test Card", ["creature"])
    assert r.understood and r.abilities == [ability]
    parse_ability(ability, "abilities[0]")


def test_ward_in_a_keyword_line_keeps_the_other_keywords() -> None:
    r = read_text("Flying, trample, ward {2}", "Test Card", ["creature"])
    assert r.abilities == [{"ward": [2]}] and r.keywords == ["flying", "trample"]


@pytest.mark.parametrize("text", ["Ward—Discard a card.", "Ward—Sacrifice a creature."])
def test_ward_costs_outside_the_vocabulary_are_not_understood(text: str) -> None:
    assert not read_text(text, "Test Card", ["creature"]).understood


@pytest.mark.parametrize("value", [[], ["T"], [{"sacrifice": "self"}]])
def test_ward_cost_must_be_mana_or_life(value: object) -> None:
    with pytest.raises(CaseError):
        parse_ability({"ward": value}, "abilities[0]")


def test_pay_mana_or_be_countered() -> None:
    """Ward {2}: mana isn't tracked, so A can always pay; not paying counters the Bolt (701.6a)."""
    got = outcome_set(BOLT_AT.format(life=20, cost="[2]", caster="A"), "A.life", "w.damage", "w.dies")
    assert got == {(20, 3, True), (20, 0, False)}


def test_pay_life_is_a_life_loss() -> None:
    got = outcome_set(BOLT_AT.format(life=20, cost="[{pay_life: 2}]", caster="A"), "A.life", "A.life_lost", "w.dies")
    assert got == {(18, 2, True), (20, 0, False)}


def test_life_payment_needs_that_much_life() -> None:
    """119.4: at 1 life A can't pay 2 life, so the Bolt is countered; at exactly 2 A can, and
    then loses the game at 0 life (704.5a) before the Bolt resolves: the game is over (104.3)."""
    assert outcome_set(BOLT_AT.format(life=1, cost="[{pay_life: 2}]", caster="A"), "A.life", "w.dies") == {(1, False)}
    got = outcome_set(BOLT_AT.format(life=2, cost="[{pay_life: 2}]", caster="A"), "A.life", "A.lost", "w.dies")
    assert got == {(0, True, False), (2, False, False)}


def test_own_spells_dont_trigger_ward() -> None:
    """702.21a: only a spell or ability an opponent controls."""
    assert outcome_set(BOLT_AT.format(life=20, cost="[{pay_life: 2}]", caster="you"), "w.dies", "you.life") == {(True, 20)}


def test_teammates_are_not_opponents() -> None:
    """Two-Headed Giant: a teammate's spell doesn't trigger ward (810.2); an opponent's does."""
    case = """
format: two-headed-giant
players: [{name: you, team: 1}, {name: mate, team: 1}, {name: A, team: 2}, {name: B, team: 2}]
battlefield:
  - {id: w, name: Warded, controller: you, types: [creature], power: 3, toughness: 3, abilities: [{ward: [{pay_life: 4}]}]}
actions:
  - cast: {card: Lightning Bolt, controller: %s, target: w}
"""
    assert outcome_set(case % "mate", "w.dies", "team1.life") == {(True, 30)}
    assert outcome_set(case % "A", "w.dies", "team2.life") == {(True, 26), (False, 30)}


def test_countered_spell_does_none_of_its_parts() -> None:
    """A countered spell's later instructions don't happen either (701.6a): Lightning Helix's
    "and you gain 3 life" goes with it."""
    case = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: w, name: Warded, controller: you, types: [creature], power: 3, toughness: 3, abilities: [{ward: [1]}]}
actions:
  - cast: {card: Lightning Helix, controller: A, target: w}
"""
    assert outcome_set(case, "A.life", "w.dies") == {(23, True), (20, False)}


def test_cant_be_countered_spell_ignores_ward() -> None:
    case = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: w, name: Warded, controller: you, types: [creature], power: 3, toughness: 3, abilities: [{ward: [{pay_life: 3}]}]}
sources:
  - {id: s, name: Sure Shot, controller: A, types: [instant],
     abilities: [{cant_be_countered: true}, {spell: {deal: 3, to: target}, target: creature}]}
actions:
  - cast: {id: s, target: w}
"""
    assert outcome_set(case, "A.life", "w.dies") == {(20, True)}


def test_activated_ability_countered_keeps_its_cost_paid() -> None:
    """An activated ability countered by ward: its cost (2 life here) stays paid (601.2h, 701.6a)."""
    case = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: w, name: Warded, controller: you, types: [creature], power: 1, toughness: 1, abilities: [{ward: [{pay_life: 1}]}]}
  - {id: p, name: Pinger, controller: A, types: [artifact],
     abilities: [{activated: {deal: 1, to: target}, target: creature, cost: [{pay_life: 2}]}]}
actions:
  - activate: {id: p, target: w}
"""
    assert outcome_set(case, "A.life", "w.dies") == {(17, True), (18, False)}


def test_both_engines_agree_on_ward_before_the_damage() -> None:
    text = BOLT_AT.format(life=20, cost="[{pay_life: 2}]", caster="A")
    fields = ("A.life", "w.damage", "w.dies")
    assert outcome_set(text, *fields, engine="cp") == outcome_set(text, *fields)


def test_responses_beside_a_ward_trigger_are_refused_not_timed_silently() -> None:
    """117.3b: a response may be made with the ward trigger on the stack or after it resolves (the
    case doesn't say which, and the ward payment can depend on it): an error, not one timing."""
    from mtg_outcomes.model.errors import EngineError
    text = BOLT_AT.format(life=20, cost="[{pay_life: 2}]", caster="A").replace(
        "target: w}", "target: w, responses: [{leave: w}]}")
    with pytest.raises(EngineError, match="117.3b"):
        outcome_set(text, "A.life")
    # without ward the same response is fine: the Bolt's only target is gone (608.2b)
    assert outcome_set(text.replace("abilities: [{ward: [{pay_life: 2}]}]", "abilities: []"), "A.life", "w.dies") \
        == {(20, False)}
