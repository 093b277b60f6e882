"""Effects on groups created by resolving spells and abilities ("Creatures you control get +1/+1
until end of turn", CR 611.2c: the permanents there as it resolves) and the prevention shapes
read from real cards ("... dealt to ~ by creatures", Phantom Flock's counter rider, "this turn
to/by ..." spells, 615.1a, 615.5)."""

from __future__ import annotations

from typing import Any

import pytest

from mtg_outcomes.model.carddata import find
from mtg_outcomes.model.recognise import read_face, read_text
from mtg_outcomes.model.vocab import parse_ability
from tests.helpers import outcome_set


def abilities(name: str) -> list[Any]:
    r = read_face(find(name).face)
    assert r.understood, [x.text for x in r.not_understood]
    for j, ab in enumerate(r.abilities):
        parse_ability(ab, f"abilities[{j}]")
    return r.abilities


@pytest.mark.parametrize("name,expected", [
    ("Overrun", [{"spell": {"pt": [3, 3], "grant": ["trample"], "to": "creatures you control"}}]),
    ("Make a Stand", [{"spell": {"pt": [1, 0], "grant": ["indestructible"], "to": "creatures you control"}}]),
    ("Champion Lancer", [{"prevent": "all", "to": "self", "from": "creatures"}]),
    ("Argothian Treefolk", [{"prevent": "all", "to": "self", "from": {"types": ["artifact"]}}]),
    ("Divine Light", [{"spell": {"prevent": "all", "to": "creatures you control", "duration": "turn"}}]),
    ("Phantom Flock", [{"enters_with": {"+1/+1": 3}},
                       {"prevent": "all", "to": "self", "then": {"remove_counters": {"+1/+1": 1}, "to": "self"}}]),
])
def test_real_cards(name: str, expected: list[Any]) -> None:
    assert abilities(name) == expected


@pytest.mark.parametrize("text,types,expected", [
    ("Creatures your opponents control get -1/-1 until end of turn.", ("sorcery",),
     [{"spell": {"pt": [-1, -1], "to": "creatures an opponent controls"}}]),
    ("{2}{W}: Creatures you control gain lifelink until end of turn.", ("enchantment",),
     [{"activated": {"grant": ["lifelink"], "to": "creatures you control"}, "cost": [2, "W"]}]),
    ("Prevent all noncombat damage that would be dealt to other creatures you control.", ("creature",),
     [{"prevent": "all", "to": "other creatures you control", "combat": False}]),
    ("Prevent all damage that would be dealt this turn by creatures your opponents control.", ("instant",),
     [{"spell": {"prevent": "all", "from": "creatures an opponent controls", "duration": "turn"}}]),
    ("Prevent all combat damage that would be dealt by target attacking creature this turn.", ("instant",),
     [{"spell": {"prevent": "all", "combat": True, "from": "target", "duration": "turn"},
       "target": {"types": ["creature"], "in_combat": ["attacking"]}}]),
    ("{T}: Prevent the next 2 damage that would be dealt to target artifact creature this turn.", ("creature",),
     [{"activated": {"shield": 2, "to": "target"}, "cost": ["T"], "target": {"types": ["artifact", "creature"]}}]),
])
def test_templates(text: str, types: tuple[str, ...], expected: list[Any]) -> None:
    r = read_text(text, "Test Card", types)
    assert r.understood and r.abilities == expected
    for j, ab in enumerate(r.abilities):
        parse_ability(ab, f"abilities[{j}]")


@pytest.mark.parametrize("text", [
    "Prevent all damage that would be dealt to ~ by creatures it's blocking.",  # needs the combat relation
    "Prevent all damage that would be dealt this turn to creatures you control this turn.",
])
def test_not_understood(text: str) -> None:
    assert not read_text(text, "Test Card", ("creature",)).understood


PUMP = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: a, card: Grizzly Bears, controller: you}
  - {id: b, card: Grizzly Bears, controller: A}
sources:
  - {id: pump, name: Pump, controller: you, types: [instant], abilities: [{spell: {pt: [-2, -2], to: %s}}]}
actions:
  - cast: {id: pump}
  - enter: {id: c, card: Grizzly Bears, controller: A}
"""


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_a_group_is_fixed_as_the_effect_begins(engine: str) -> None:
    """611.2c: A's Bears there as the spell resolves gets -2/-2 and dies (704.5f); the one that
    enters afterwards doesn't; yours isn't in the group."""
    got = outcome_set(PUMP % "creatures an opponent controls", "a.dies", "b.dies", "c.dies")
    assert got == {(False, True, False)}


def test_a_group_with_nothing_in_it_changes_nothing() -> None:
    assert outcome_set(PUMP % "planeswalkers", "a.dies", "b.dies", "c.dies") == {(False, False, False)}


@pytest.mark.parametrize("phrase,expected", [
    ("deals 4 damage to target blue creature", {"types": ["creature"], "colors": ["blue"]}),
    ("deals 4 damage to target white or blue creature", {"types": ["creature"], "colors": ["white", "blue"]}),
    ("deals 3 damage to target wizard creature", {"types": ["creature"], "subtypes": ["Wizard"]}),
])
def test_target_filters_from_colours_and_subtypes(phrase: str, expected: Any) -> None:
    r = read_text(f"Test Card {phrase}.", "Test Card", ("instant",))
    assert r.understood and r.abilities[0]["target"] == expected


def test_destroy_target_subtype_is_a_permanent_of_that_subtype() -> None:
    r = read_text("Destroy target Wall.", "Test Card", ("instant",))
    assert r.abilities == [{"spell": {"destroy": "target"}, "target": {"types": ["permanent"], "subtypes": ["Wall"]}}]
    assert not read_text("Destroy target nonblack creature.", "Test Card", ("instant",)).understood


def test_parch_at_a_green_creature_has_one_mode() -> None:
    """700.2a: Parch's mode 2 needs a blue creature; at Grizzly Bears only mode 1 can be chosen."""
    case = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: bears, card: Grizzly Bears, controller: you}
actions:
  - cast: {card: Parch, controller: A, target: bears}
"""
    assert outcome_set(case, "bears.damage", "bears.dies") == {(2, True)}


@pytest.mark.parametrize("text,expected", [
    ("Test Card deals 2 damage to each of two targets.",
     [{"spell": {"deal": 2, "to": "target"}, "target": "any", "targets": {"min": 2, "max": 2}}]),
    ("Test Card deals X damage to each creature with flying and each player.",
     [{"spell": {"deal": "X", "to": ["each player", {"types": ["creature"], "with": ["flying"]}]}}]),
    ("Test Card deals 3 damage to each creature and each planeswalker.",
     [{"spell": {"deal": 3, "to": ["creatures", "planeswalkers"]}}]),
    ("Draw X cards.", [{"spell": {"draw": "X", "who": "you"}}]),
])
def test_more_damage_shapes(text: str, expected: list[Any]) -> None:
    r = read_text(text, "Test Card", ("sorcery",))
    assert r.understood and r.abilities == expected
    for j, ab in enumerate(r.abilities):
        parse_ability(ab, f"abilities[{j}]")


def test_each_of_two_targets_needs_two() -> None:
    """601.2c: with one creature there is no legal pair of targets, so Jagged Lightning can't be cast."""
    case = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: bears, card: Grizzly Bears, controller: you}
actions:
  - cast: {card: Jagged Lightning, controller: A}
"""
    assert outcome_set(case, "bears.damage", "bears.dies") == {(0, False)}
