"""A spell's excess damage dealt to the target's controller instead (CR 120.4a), both engines."""

from __future__ import annotations

from ..helpers import both_engines, problems


def test_flame_spill_excess_ignores_indestructible() -> None:
    """Lethal is the toughness less the damage marked, indestructible or not (Flame Spill rulings,
    2020-04-17); the blocker's controller is read as the spell resolves."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: golem, name: Test Golem, controller: A, types: [creature], power: 2, toughness: 2, keywords: [indestructible]}
  - {id: bear, name: Test Bear, controller: A, types: [creature], power: 2, toughness: 2, damage: 1}
actions:
  - cast: {id: spill1, card: Flame Spill, controller: you, target: golem}
  - cast: {id: spill2, card: Flame Spill, controller: you, target: bear}
"""
    assert both_engines(text, "A.life", "golem.damage", "golem.dies", "bear.dies") == {(15, 2, False, True)}  # 2 + 3 excess (the bear had 1 marked)


def test_excess_to_controller_goes_with_one_deal() -> None:
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: p, name: Test Pinger, controller: you, types: [artifact],
     abilities: [{activated: {deal: 2, to: target, excess_to_controller: true, also: [{deal: 1, to: you}]}, target: any}]}
actions: []
"""
    assert any(path.endswith("excess_to_controller") for path, _ in problems(text))
