"""A choice made by another player as a spell resolves (CR 608.2d, 101.4): Blazing Salvo."""

from __future__ import annotations

from ..helpers import both_engines, problems


def test_the_creatures_controller_chooses_and_an_indestructible_creature_changes_nothing() -> None:
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: golem, name: Test Golem, controller: A, types: [creature], power: 2, toughness: 2, keywords: [indestructible]}
actions:
  - cast: {card: Blazing Salvo, controller: you, target: golem}
"""
    assert both_engines(text, "A.life", "golem.damage", "golem.dies") == {(20, 3, False), (15, 0, False)}


def test_unless_is_a_spells_deal_to_one_player() -> None:
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: p, name: Test Pinger, controller: you, types: [artifact],
     abilities: [{activated: {deal: 1, to: target, unless: {deal: 2, to: A}}, target: creature}]}
actions: []
"""
    assert any(path.endswith("unless") for path, _ in problems(text))


def test_a_target_creature_deals_damage_to_each_other_creature() -> None:
    """Chandra's Ignition: "each other creature" is other than the target dealing it (608.2c);
    its lifelink gains its controller the total (702.15b)."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: hawk, card: Vampire Nighthawk, controller: you}
  - {id: bear, name: Test Bear, controller: A, types: [creature], power: 2, toughness: 2}
actions:
  - cast: {card: Chandra's Ignition, controller: you, target: hawk}
"""
    # 2 to the bear (deathtouch: it dies) and 2 to A: you gain 4
    assert both_engines(text, "you.life", "A.life", "bear.dies", "hawk.damage") == {(24, 18, True, 0)}
