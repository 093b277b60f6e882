"""Triggers on life loss and life gain (CR 603.2, 119.3, 119.9, 120.3a), both engines."""

from __future__ import annotations

from ..helpers import both_engines, reading


def test_exquisite_blood_reads_the_life_lost_in_combat() -> None:
    """A's blocker is chosen (509.1); the combat damage A is dealt is its life loss (120.3a), one
    event for the batch, and Exquisite Blood gains you that much."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: blood, card: Exquisite Blood, controller: you}
  - {id: b2, name: Test Two, controller: you, types: [creature], power: 2, toughness: 2, attacking: A}
  - {id: b3, name: Test Three, controller: you, types: [creature], power: 3, toughness: 3, attacking: A}
  - {id: wall, name: Test Wall, controller: A, types: [creature], power: 0, toughness: 4, blocking: choose}
actions:
  - combat: {}
"""
    assert both_engines(text, "A.life", "you.life") == {(15, 25), (17, 23), (18, 22)}


def test_paying_life_is_losing_life() -> None:
    """119.4: paying life is losing it; "whenever you lose life" sees it (a hand-written trigger)."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: w, name: Test Watcher, controller: A, types: [enchantment],
     abilities: [{trigger: lose_life, to: opponents, do: {deal: 1, to: you}}]}
  - {id: p, name: Test Payer, controller: you, types: [artifact],
     abilities: [{activated: {gain_life: 3, who: you}, cost: [{pay_life: 2}]}]}
  - {id: bear, name: Test Bear, controller: A, types: [creature], power: 2, toughness: 2, attacking: you}
actions:
  - activate: {id: p}
  - combat: {}
"""
    # you pay 2 (A's watcher deals 1 to A), gain 3, then the bear's 2 (A's watcher: 1 more to A)
    assert both_engines(text, "you.life", "A.life") == {(19, 18)}


def test_the_recogniser_reads_life_change_triggers() -> None:
    blood = reading("Exquisite Blood").abilities
    assert blood == [{"trigger": "lose_life", "to": "opponents", "do": {"gain_life": "amount", "who": "you"}}]
