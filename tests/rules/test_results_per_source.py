"""CR 120.3: a damage event's results are read per source, so two sources' damage to one
recipient is summed only when their results are the same (one definition, results.event_results,
in both engines)."""

from __future__ import annotations

from ..helpers import both_engines

BOARD = """
players:
  - {name: you}
  - {name: A}
battlefield:
  - {id: ench, name: Test Torment, controller: you, types: [enchantment], abilities: [%s]}
  - {id: red, name: Test Red, controller: you, types: [creature], colors: [red], power: 2, toughness: 2}
  - {id: green, name: Test Green, controller: you, types: [creature], colors: [green], power: 3, toughness: 3}
actions:
  - damage: [{from: green, to: A, amount: 3%s}, {from: red, to: A, amount: 2, combat: true}]
"""


def test_120_3_as_though_infect_from_one_colour_reaches_that_source_only() -> None:
    # the red source's 2 are poison (120.3b), the green source's 3 life loss (120.3a)
    text = BOARD % ("{as_though: infect, from: red sources}", "")
    assert both_engines(text, "A.life", "A.poison") == {(17, 2)}


def test_120_3_a_combat_only_as_though_leaves_noncombat_damage_alone() -> None:
    text = BOARD % ("{as_though: infect, combat: true}", "")
    assert both_engines(text, "A.life", "A.poison") == {(17, 2)}
    text = BOARD % ("{as_though: infect, combat: true}", ", combat: true")
    assert both_engines(text, "A.life", "A.poison") == {(20, 5)}


def test_120_3_as_though_wither_from_one_colour_on_a_blocker() -> None:
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: ench, name: Test Torment, controller: you, types: [enchantment], abilities: [{as_though: wither, from: red sources}]}
  - {id: red, name: Test Red, controller: you, types: [creature], colors: [red], power: 2, toughness: 2, attacking: A}
  - {id: green, name: Test Green, controller: you, types: [creature], colors: [green], power: 2, toughness: 2, attacking: A}
  - {id: wall, name: Test Wall, controller: A, types: [creature], colors: [white], power: 0, toughness: 5,
     blocking: [red, green]}
actions:
  - combat: {}
"""
    assert both_engines(text, "wall.counters.-1/-1", "wall.damage") == {(2, 2)}
