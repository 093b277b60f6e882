"""Persist and undying (CR 702.79a, 702.93a): the creature returns as a new object (400.7) with
its counter, once; both engines."""

from __future__ import annotations

from ..helpers import both_engines, reading

_FINKS = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: courser, card: Centaur Courser, controller: A, attacking: you}
  - {id: finks, card: Kitchen Finks, controller: you, blocking: courser}
actions:
  - combat: {}
"""


def test_finks_returns_undamaged_with_a_counter_and_gains_again() -> None:
    assert both_engines(_FINKS, "you.life", "finks.damage", "finks.counters.-1/-1", "courser.dies") == {(22, 0, 1, True)}


def test_undying_returns_with_a_plus_counter_and_not_twice() -> None:
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: u, name: Test Undying, controller: you, types: [creature], power: 2, toughness: 2,
     abilities: [{trigger: dies, do: {return_to_battlefield: self, with_counter: +1/+1}}]}
sources: [{id: s, name: Test Source, controller: A, types: [instant], colors: [red]}]
actions:
  - damage: [{from: s, to: u, amount: 2}]
  - damage: [{from: s, to: u, amount: 3}]
"""
    # the first death returns it with a +1/+1 counter (3/3); the second (it had one) does not
    assert both_engines(text, "u.dies", "u.counters.+1/+1", "u.damage") == {(True, 1, 3)}
    once = text.replace("  - damage: [{from: s, to: u, amount: 3}]\n", "")
    assert both_engines(once, "u.counters.+1/+1", "u.damage") == {(1, 0)}


def test_a_token_with_persist_does_not_return() -> None:
    """A token that dies ceases to exist (111.7, 704.5d): nothing returns."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: maker, name: Test Maker, controller: you, types: [artifact],
     abilities: [{activated: {create_tokens: 1, token: {name: Test Wisp, types: [creature], power: 1, toughness: 1,
                                                         abilities: [{trigger: dies, do: {return_to_battlefield: self,
                                                                                          with_counter: -1/-1}}]}}}]}
sources: [{id: s, name: Test Source, controller: A, types: [instant], colors: [red]}]
actions:
  - activate: {id: maker}
  - damage: [{from: s, to: maker-token1, amount: 1}]
"""
    assert both_engines(text, "maker-token1.dies", "maker-token1.counters.-1/-1") == {(True, 0)}


def test_the_recogniser_reads_persist() -> None:
    assert reading("Kitchen Finks").abilities[1] == {"trigger": "dies", "do": {"return_to_battlefield": "self",
                                                                               "with_counter": "-1/-1"}}
