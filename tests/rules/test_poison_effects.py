"""Poison counters given by an effect (CR 122.1, 704.5c) and Poisonous N (702.70a), both engines."""

from __future__ import annotations

from mtg_outcomes.model.recognise import read_text

from ..helpers import both_engines


def test_poisonous_keyword_is_a_combat_damage_trigger() -> None:
    line = read_text("Poisonous 2", "Foo", ["creature"]).lines[0]
    assert line.status == "understood"
    assert list(line.abilities) == [{"trigger": "combat_damage_to_player", "do": {"get_poison": 2, "who": "that player"}}]


def test_that_player_is_the_player_dealt_combat_damage() -> None:
    """Two attackers with poisonous, one at each opponent: each player gets their own counters."""
    text = """
players: [{name: you}, {name: A}, {name: B}]
battlefield:
  - {id: s1, name: Test Snake One, controller: you, types: [creature], power: 1, toughness: 1, attacking: A,
     abilities: [{trigger: combat_damage_to_player, do: {get_poison: 1, who: that player}}]}
  - {id: s2, name: Test Snake Two, controller: you, types: [creature], power: 1, toughness: 1, attacking: B,
     abilities: [{trigger: combat_damage_to_player, do: {get_poison: 3, who: that player}}]}
  - {id: wall, name: Test Wall, controller: A, types: [creature], power: 0, toughness: 4, blocking: choose}
actions:
  - combat: {}
"""
    assert both_engines(text, "A.poison", "B.poison") == {(1, 3), (0, 3)}


def test_a_player_who_cant_get_poison_counters_gets_none_from_any_of_them() -> None:
    """Infect (120.3b), toxic (120.3g) and an effect's poison (122.1) all give A nothing; B gets theirs."""
    text = """
players: [{name: you}, {name: A}, {name: B}]
battlefield:
  - {id: m, name: Test Melira, controller: A, types: [enchantment], abilities: [{cant_get_poison: you}]}
  - {id: elf, name: Test Elf, controller: you, types: [creature], power: 2, toughness: 2, keywords: [infect], attacking: A}
  - {id: tox, name: Test Toxic, controller: you, types: [creature], power: 1, toughness: 1, keywords: [toxic 2], attacking: B}
  - {id: s, name: Test Snake, controller: you, types: [creature], power: 1, toughness: 1, attacking: A,
     abilities: [{trigger: combat_damage_to_player, do: {get_poison: 3, who: that player}}]}
  - {id: wall, name: Test Wall, controller: A, types: [creature], power: 0, toughness: 4, blocking: choose}
actions:
  - combat: {}
"""
    assert both_engines(text, "A.poison", "A.life", "B.poison", "B.life") == {(0, 19, 2, 19), (0, 20, 2, 19)}
