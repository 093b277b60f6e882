"""Spells with two targets (CR 601.2c: each instance of the word "target" is its own target):
bites ("Target creature you control deals damage equal to its power to target creature you don't
control": the first target is the source, 120.1) and "~ deals 2 damage to target creature and 2
damage to target player or planeswalker" (120.2); each target checked as the spell resolves
(608.2b). Readings of the real cards' Oracle text (card data), outcomes derived by hand."""

from __future__ import annotations

import pytest

from mtg_outcomes.model.carddata import find
from mtg_outcomes.model.recognise import read_face
from tests.helpers import outcome_set, problems, reading

BITE = {"spell": {"deal": {"power": "target"}, "from": "target", "to": "second target"},
        "target": "creatures you control", "second_target": "creatures you don't control"}



def test_601_2c_bite_reading() -> None:
    """Rabid Bite; Stew the Coneys (and "Create a Food token."); Fall of the Hammer ("another
    target creature"); Bite Down ("target creature or planeswalker you don't control")."""
    assert reading("Rabid Bite").abilities == [BITE]
    assert reading("Stew the Coneys").abilities == [BITE, {"spell": {"create_tokens": 1, "token": "Food"}}]
    assert reading("Fall of the Hammer").abilities == [
        {**BITE, "second_target": "creature", "another": True}]
    assert reading("Bite Down").abilities == [
        {**BITE, "second_target": ["creatures you don't control", "planeswalkers you don't control"]}]


def test_601_2c_two_recipients_reading() -> None:
    """Lunge: "Lunge deals 2 damage to target creature and 2 damage to target player or planeswalker.\""""
    assert reading("Lunge").abilities == [
        {"spell": {"deal": 2, "to": "target", "also": [{"deal": 2, "to": "second target"}]},
         "target": "creature", "second_target": ["each player", "planeswalkers"]}]


def test_a_bite_with_an_unknown_rider_is_not_understood() -> None:
    """Infectious Bite: "... Each opponent gets a poison counter." (not in the vocabulary)."""
    assert not read_face(find("Infectious Bite").face).understood


FIELD = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: hawk, card: Vampire Nighthawk, controller: you}
  - {id: bears, card: Grizzly Bears, controller: you}
  - {id: giant, card: Hill Giant, controller: A}
  - {id: elves, card: Llanowar Elves, controller: A}
actions:
  - CAST
"""


def case(cast: str) -> str:
    return FIELD.replace("CAST", cast)


def test_601_2c_the_caster_chooses_every_legal_pair() -> None:
    """Two of yours times two of A's: the Bears (2) don't kill the Giant (3/3); the Nighthawk
    (deathtouch, lifelink) does and gains 2; either kills the Elves."""
    got = outcome_set(case("cast: {card: Rabid Bite, controller: you}"), "giant.damage", "giant.dies", "elves.dies", "you.life")
    assert got == {(2, False, False, 20), (2, True, False, 22), (0, False, True, 20), (0, False, True, 22)}


def test_120_1_the_first_target_is_the_source() -> None:
    got = outcome_set(case("cast: {card: Rabid Bite, controller: you, targets: [hawk, giant]}"),
                      "giant.dies", "you.life", "hawk.damage", "bears.damage")
    assert got == {(True, 22, 0, 0)}


def test_608_2b_recipient_gone_nothing_is_dealt() -> None:
    got = outcome_set(case("cast: {card: Rabid Bite, controller: you, targets: [hawk, giant], responses: [{leave: giant}]}"),
                      "you.life", "elves.dies")
    assert got == {(20, False)}


def test_608_2b_source_gone_it_deals_nothing() -> None:
    got = outcome_set(case("cast: {card: Rabid Bite, controller: you, targets: [hawk, giant], responses: [{leave: hawk}]}"),
                      "giant.damage", "you.life")
    assert got == {(0, 20)}


def test_608_2b_both_gone_the_spell_doesnt_resolve() -> None:
    """Stew the Coneys with both targets gone: no Food either."""
    got = outcome_set(case("cast: {card: Stew the Coneys, controller: you, targets: [bears, elves], "
                           "responses: [{leave: bears}, {leave: elves}]}"), "you.life")
    assert got == {(20,)}
    one = outcome_set(case("cast: {card: Stew the Coneys, controller: you, targets: [bears, elves], "
                           "responses: [{leave: bears}]}"), "elves.dies")
    assert one == {(False,)}


def test_601_2c_another_target_creature_differs() -> None:
    """Fall of the Hammer: your creature and another target creature: the Nighthawk can't be both;
    it may bite your own Bears."""
    got = outcome_set(case("cast: {card: Fall of the Hammer, controller: you}"), "bears.dies", "hawk.damage")
    assert got == {(True, 0), (False, 0), (False, 2)}  # hawk bites the Bears; the Bears bite the hawk; others
    text = case("cast: {card: Fall of the Hammer, controller: you, targets: [hawk, hawk]}")
    assert any("named twice" in reason for _, reason in problems(text))


def test_120_2_lunge_both_at_once_and_one_gone() -> None:
    """Lunge at the Elves and A: the Elves die and A is dealt 2; with the Elves gone, A still is."""
    assert outcome_set(case("cast: {card: Lunge, controller: you, targets: [elves, A]}"), "elves.dies", "A.life") == {(True, 18)}
    assert outcome_set(case("cast: {card: Lunge, controller: you, targets: [elves, A], responses: [{leave: elves}]}"),
                       "elves.damage", "A.life") == {(0, 18)}


@pytest.mark.parametrize("cast,reason", [
    ("cast: {card: Rabid Bite, controller: you, target: hawk}", "give targets: [first, second]"),
    ("cast: {card: Rabid Bite, controller: you, targets: [hawk]}", "two targets"),
])
def test_two_target_cast_errors(cast: str, reason: str) -> None:
    assert any(reason in r for _, r in problems(case(cast)))


def test_second_target_without_second_target_requirement_is_an_error() -> None:
    text = """
players: [{name: you}, {name: A}]
sources: [{id: s, name: Test Spell, controller: you, types: [sorcery], abilities: [{spell: {deal: 2, to: second target}, target: creature}]}]
actions:
  - cast: {id: s}
"""
    assert any("second_target" in r for _, r in problems(text))


TWO_HEADED = """
format: two-headed-giant
players: [{name: you, team: 1}, {name: mate, team: 1}, {name: A, team: 2}, {name: B, team: 2}]
battlefield:
  - {id: hawk, card: Vampire Nighthawk, controller: you}
  - {id: ox, card: Hill Giant, controller: mate}
  - {id: giant, card: Hill Giant, controller: A}
actions:
  - cast: {card: Rabid Bite, controller: you}
"""


def test_810_2_you_dont_control_includes_a_teammates_creature() -> None:
    """Two-Headed Giant: "target creature you don't control" is any creature another player
    controls, a teammate's too (only "an opponent controls" leaves it out): the Nighthawk may bite
    the teammate's Hill Giant or A's."""
    got = outcome_set(TWO_HEADED, "ox.dies", "giant.dies")
    assert got == {(True, False), (False, True)}


def test_115_3_one_object_for_both_instances_of_target() -> None:
    """Two instances of the word "target" may each choose the same object unless the second says
    "another" (115.3): a spell dealing 2 to target creature and 2 to target creature may name the
    Giant twice and deals it 4 (it dies); Fall of the Hammer's "another" still refuses it."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: giant, card: Hill Giant, controller: A}
sources:
  - {id: s, name: Twin Jolt, controller: you, types: [instant],
     abilities: [{spell: {deal: 2, to: target, also: [{deal: 2, to: second target}]}, target: creature, second_target: creature}]}
actions:
  - cast: {id: s, targets: [giant, giant]}
"""
    assert outcome_set(text, "giant.damage", "giant.dies") == {(4, True)}
