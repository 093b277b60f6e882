"""Trample over planeswalkers (CR 702.19c, e, f) and trample into a battle (702.19b, 120.3h)."""

from __future__ import annotations

import pytest

from mtg_outcomes import enumerate_outcomes

from ..helpers import case_from, outcome_set

PLAYERS = """\
id: inline
players:
  - {name: A}
  - {name: you}
battlefield:
"""
HEAD = PLAYERS + """\
  - {id: walker, name: Walker, controller: you, types: [planeswalker], loyalty: 3}
"""


def test_the_cr_example_every_assignment() -> None:
    """702.19c example: 1/1 and 7/7 (trample over planeswalkers) at a 3-loyalty planeswalker."""
    text = HEAD + """\
  - {id: bear, name: Bear, controller: A, types: [creature], power: 1, toughness: 1, attacking: walker}
  - {id: wurm, name: Wurm, controller: A, types: [creature], power: 7, toughness: 7, keywords: [trample over planeswalkers], attacking: walker}
actions:
  - combat: {}
"""
    assert outcome_set(text, "you.life") == {(life,) for life in range(15, 21)}
    assert case_from(text).warnings == ()


def test_blockers_need_lethal_and_the_planeswalker_its_loyalty_first() -> None:
    """A blocked 7/7: 2 to the 2/2 and 3 to the walker before any reaches you: at most 2."""
    text = HEAD + """\
  - {id: wurm, name: Wurm, controller: A, types: [creature], power: 7, toughness: 7, keywords: [trample over planeswalkers], attacking: walker}
  - {id: bear, name: Bear, controller: you, types: [creature], power: 2, toughness: 2, blocking: wurm}
actions:
  - combat: {}
"""
    found = outcome_set(text, "you.life", "walker.dies", "bear.dies")
    assert {life for life, _, _ in found} == {18, 19, 20}
    assert all(w and b for life, w, b in found if life < 20)  # damage to you: the walker and the bear die


def test_plain_trample_never_reaches_the_planeswalkers_controller() -> None:
    """702.19f: without trample over planeswalkers, all of it stays on the walker and the blocker."""
    text = HEAD + """\
  - {id: wurm, name: Wurm, controller: A, types: [creature], power: 7, toughness: 7, keywords: [trample], attacking: walker}
actions:
  - combat: {}
"""
    assert outcome_set(text, "you.life", "walker.dies") == {(20, True)}


def test_the_walker_left_all_to_its_controller_when_unblocked() -> None:
    """702.19e: the planeswalker removed from combat and no blocker: all the damage to you."""
    text = HEAD + """\
  - {id: wurm, name: Wurm, controller: A, types: [creature], power: 7, toughness: 7, keywords: [trample over planeswalkers], attacking: walker}
  - {id: rhino, name: Rhino, controller: A, types: [creature], power: 4, toughness: 4, keywords: [trample], attacking: walker}
actions:
  - leave: walker
  - combat: {}
"""
    assert outcome_set(text, "you.life") == {(13,)}


def test_attacking_a_player_it_is_trample_on_both_engines() -> None:
    """702.19c: against a player the variant assigns as 702.19b says; the CP model agrees."""
    text = PLAYERS + """\
  - {id: wurm, name: Wurm, controller: A, types: [creature], power: 5, toughness: 5, keywords: [trample over planeswalkers], attacking: you}
  - {id: bear, name: Bear, controller: you, types: [creature], power: 2, toughness: 2, blocking: wurm}
actions:
  - combat: {}
"""
    graph = outcome_set(text, "you.life", "bear.damage")
    assert graph == {(17, 2), (18, 3), (19, 4), (20, 5)}
    cp = enumerate_outcomes(case_from(text), engine="cp", fields=["you.life", "bear.damage"])
    assert {(o.values["you.life"], o.values["bear.damage"]) for o in cp.outcomes} == graph


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_120_3c_damage_past_the_loyalty_removes_every_counter(engine: str) -> None:
    """A 7/7 unblocked at a 3-loyalty planeswalker: 7 damage removes its three loyalty counters,
    not seven: loyalty is a count of counters (122.1e), 0 at the least, and it dies (704.5i)."""
    text = HEAD + """\
  - {id: wurm, name: Wurm, controller: A, types: [creature], power: 7, toughness: 7, attacking: walker}
actions:
  - combat: {}
"""
    assert outcome_set(text, "walker.loyalty", "walker.dies", engine=engine) == {(0, True)}


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_120_3h_damage_past_the_defense_removes_every_counter(engine: str) -> None:
    """A battle with 2 defense dealt 5 by a spell: defense 0, not -3 (122.1g), and it dies (704.5v)."""
    text = PLAYERS + """\
  - {id: siege, name: Siege, controller: you, types: [battle], defense: 2}
sources:
  - {id: sp, name: Spell, controller: A, types: [instant], colors: [red]}
actions:
  - {deal: 5, to: siege, from: sp}
"""
    assert outcome_set(text, "siege.defense", "siege.dies", engine=engine) == {(0, True)}
