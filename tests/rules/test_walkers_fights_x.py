"""Loyalty abilities (CR 606), fights (701.14), X chosen by the caster (107.3), Fireball's even
division, Banefire's "if X is 5 or more", modes chosen more than once (700.2d) and excess damage
to a controller (120.4a): readings of the real cards' Oracle text (card data), outcomes derived by
hand from the rules, both engines where the CP model applies."""

from __future__ import annotations

import pytest

from mtg_outcomes.model.errors import CaseError
from mtg_outcomes.model.vocab import parse_ability
from tests.helpers import both_engines, case_error, outcome_set, problems, reading


def test_606_loyalty_lines_read_as_activations_with_their_cost() -> None:
    """Chandra Nalaar: [+1], [−X] and the [−8] at a player and the creatures they control."""
    got = reading("Chandra Nalaar").abilities
    assert got == [
        {"activated": {"deal": 1, "to": "target"}, "target": ["each player", "planeswalkers"], "cost": [{"loyalty": 1}]},
        {"activated": {"deal": "X", "to": "target"}, "target": "creature", "cost": [{"loyalty": "-X"}]},
        {"activated": {"deal": 10, "to": "target", "also": [{"deal": 10, "to": {"types": ["creature"], "controller": "target"}}]},
         "cost": [{"loyalty": -8}], "target": ["each player", "planeswalkers"]}]
    jace = reading("Jace Beleren").abilities
    assert [ab["cost"] for ab in jace] == [[{"loyalty": 2}], [{"loyalty": -1}], [{"loyalty": -10}]]
    assert jace[2]["activated"] == {"mill": 20, "who": "target"}


def test_605_1a_a_loyalty_ability_is_never_a_mana_ability() -> None:
    from mtg_outcomes.model.recognise.base import cost, mana_cost

    assert cost("[+1]") == [{"loyalty": 1}] and cost("[\u22123]") == [{"loyalty": -3}] and cost("[0]") == [{"loyalty": 0}]
    assert cost("[+X]") is None
    assert mana_cost("[+1]") is None


def test_606_4_loyalty_cost_vocabulary() -> None:
    ab = parse_ability({"activated": {"deal": "X", "to": "target"}, "target": "creature", "cost": [{"loyalty": "-X"}]}, "p")
    assert ab.cost == (("loyalty", "-X"),)
    with pytest.raises(CaseError, match="-X"):
        parse_ability({"activated": {"deal": 1, "to": "you"}, "cost": [{"loyalty": "+X"}]}, "p")
    with pytest.raises(CaseError, match="one loyalty cost"):
        parse_ability({"activated": {"deal": 1, "to": "you"}, "cost": [{"loyalty": 1}, {"loyalty": -1}]}, "p")


WALKER = """
players: [{name: you}, {name: A}]
active: ACTIVE
battlefield:
  - {id: chandra, card: Chandra Nalaar, controller: you}
  - {id: giant, card: Hill Giant, controller: A}
actions:
  - ACTION
"""


def walker(action: str, active: str = "you") -> str:
    return WALKER.replace("ACTION", action).replace("ACTIVE", active)


def test_606_3_only_during_its_controllers_turn() -> None:
    text = walker("activate: {id: chandra, ability: 1, x: 3, target: giant}", active="A")
    assert both_engines(text, "giant.damage", "chandra.loyalty") == {(0, 6)}
    assert both_engines(walker("activate: {id: chandra, ability: 1, x: 3, target: giant}"),
                        "giant.dies", "chandra.loyalty") == {(True, 3)}


def test_606_3_only_with_the_stack_empty() -> None:
    """Activated in response to A's Lightning Bolt at the Giant: refused; the Bolt still resolves."""
    text = walker("cast: {card: Lightning Bolt, controller: A, target: you, responses: "
                  "[{activate: {id: chandra, ability: 0, target: A}}]}")
    assert outcome_set(text, "A.life", "you.life", "chandra.loyalty") == {(20, 17, 6)}


def test_107_3a_x_left_to_the_player_in_a_range() -> None:
    """Blaze with X from 1 to 3 at the Giant (3/3): three outcomes, the last lethal."""
    text = walker("cast: {card: Blaze, controller: you, target: giant, x: {min: 1, max: 3}}")
    assert both_engines(text, "giant.damage", "giant.dies") == {(1, False), (2, False), (3, True)}
    assert any("x must be" in reason for _, reason in problems(walker("cast: {card: Blaze, controller: you, target: giant, "
                                                                      "x: {min: 3, max: 1}}")))


FIGHT = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: bears, card: Grizzly Bears, controller: you}
  - {id: giant, card: Hill Giant, controller: A}
  - {id: elves, card: Llanowar Elves, controller: A}
actions:
  - ACTION
"""


def test_701_14a_prey_upon_reading_and_the_casters_choice() -> None:
    assert reading("Prey Upon").abilities == [
        {"spell": {"fight": "second target", "from": "target"}, "target": "creatures you control",
         "second_target": "creatures you don't control"}]
    got = outcome_set(FIGHT.replace("ACTION", "cast: {card: Prey Upon, controller: you}"),
                      "bears.dies", "giant.damage", "elves.dies")
    # the Bears fight the Giant (2 to it, 3 back: the Bears die) or the Elves (2 to them, 1 back)
    assert got == {(True, 2, False), (False, 0, True)}


def test_701_14a_a_fight_written_by_hand_names_both_creatures() -> None:
    text = FIGHT.replace("ACTION", "{fight: elves, from: bears}")
    assert both_engines(text, "elves.dies", "bears.damage") == {(True, 1)}


def test_701_14c_a_creature_that_fights_itself_deals_twice_its_power() -> None:
    text = FIGHT.replace("ACTION", "{fight: giant, from: giant}")
    assert outcome_set(text, "giant.damage", "giant.dies") == {(6, True)}


def test_701_14b_an_illegal_fighter_means_no_damage() -> None:
    """Swift Kick (+1/+0, then fight): the Giant leaves in response; the Bears are still pumped but
    no damage is dealt by or to anyone."""
    text = FIGHT.replace("ACTION", "cast: {card: Swift Kick, controller: you, targets: [bears, giant], responses: [{leave: giant}]}")
    assert outcome_set(text, "bears.damage", "elves.damage") == {(0, 0)}


def test_fight_vocabulary_errors() -> None:
    with pytest.raises(CaseError, match="the creature fought is one"):
        parse_ability({"spell": {"fight": "creatures", "from": "target"}, "target": "creature"}, "p")


def test_107_3_fireball_even_division_and_no_division_to_announce() -> None:
    assert reading("Fireball").abilities == [
        {"spell": {"deal": "X", "to": "target", "divided": "evenly"}, "target": "any", "targets": {"min": 1, "max": "any"}}]
    text = FIGHT.replace("ACTION", "cast: {card: Fireball, controller: you, targets: [A, giant, elves], x: 7}")
    assert both_engines(text, "A.life", "giant.damage", "elves.dies") == {(18, 2, True)}  # 7 / 3 = 2
    bad = FIGHT.replace("ACTION", "cast: {card: Fireball, controller: you, targets: [A, giant], x: 4, divide: {A: 2, giant: 2}}")
    assert "divides its damage evenly" in case_error(bad)


def test_615_12_banefire_reading_and_x_threshold() -> None:
    got = reading("Banefire").abilities
    assert got[1:] == [{"cant_be_countered": True, "if_x_at_least": 5},
                       {"cant_be_prevented": True, "from": "self", "if_x_at_least": 5}]
    with pytest.raises(CaseError, match="if_x_at_least goes with"):
        parse_ability({"prevent": "all", "to": "you", "if_x_at_least": 5}, "p")


def test_700_2d_modes_chosen_more_than_once() -> None:
    got = reading("Fiery Confluence").abilities
    assert got[0] == {"modes": 3, "repeat": True}
    text = FIGHT.replace("ACTION", "cast: {card: Fiery Confluence, controller: you, modes: [2, 2, 2]}")
    assert both_engines(text, "A.life", "bears.damage") == {(14, 0)}
    # a mode is chosen at most once unless the spell says otherwise (700.2d)
    twice = FIGHT.replace("ACTION", "cast: {card: Boros Charm, controller: you, modes: [2, 2]}")
    assert any("at most once" in reason for _, reason in problems(twice))


def test_120_4a_excess_to_the_controller_only_with_trample() -> None:
    """Ram Through: the Giant (no trample) at the Elves: all 3 to them, none to A."""
    text = FIGHT.replace("ACTION", "cast: {card: Ram Through, controller: you, targets: [bears, elves]}")
    assert both_engines(text, "A.life", "elves.damage") == {(20, 2)}
    flame = FIGHT.replace("ACTION", "cast: {card: Flame Spill, controller: you, target: elves}")
    assert both_engines(flame, "A.life", "elves.damage") == {(17, 1)}


def test_701_37_monstrosity_once_and_monstrous_before_the_case() -> None:
    assert reading("Ill-Tempered Cyclops").abilities == [{"activated": {"monstrosity": 3}, "cost": [5, "R"]}]
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: cyclops, card: Ill-Tempered Cyclops, controller: you, MONSTROUS}
actions:
  - activate: {id: cyclops}
"""
    assert both_engines(text.replace(", MONSTROUS", ""), "cyclops.counters.+1/+1") == {(3,)}
    # already monstrous before the case (701.37a): nothing happens
    assert both_engines(text.replace("MONSTROUS", "monstrous: true"), "cyclops.counters.+1/+1") == {(0,)}


def test_114_emblem_reading_and_vocabulary() -> None:
    from mtg_outcomes.model.carddata import find
    from mtg_outcomes.model.recognise import read_face

    lines = read_face(find("Gideon, Ally of Zendikar").face).lines
    emblem = next(r for r in lines if "emblem" in r.text)
    assert emblem.abilities == ({"activated": {"emblem": {"pt": [1, 1], "to": "creatures you control"}},
                                 "cost": [{"loyalty": -4}]},)
    with pytest.raises(CaseError, match="an emblem is modelled"):
        parse_ability({"activated": {"emblem": {"pt": [1, 1], "to": "self"}}}, "p")


def test_601_2c_a_fight_mode_announces_both_targets() -> None:
    """Plow Through with its targets announced and its mode left to the caster: only the fight
    mode takes two targets (the Vehicle mode has none to choose), so it is the one cast."""
    text = FIGHT.replace("ACTION", "cast: {card: Plow Through, controller: you, targets: [bears, giant]}")
    assert both_engines(text, "bears.dies", "giant.damage") == {(True, 2)}
