""""As long as this creature is untapped, all damage that would be dealt to you by artifacts |
unblocked creatures is dealt to this creature instead." (Martyrs of Korlis, Veteran Bodyguard;
CR 614.9, 509.1h) and Kjeldoran Royal Guard's "{T}: All combat damage ... this turn ...": the
real cards' readings (card data), both engines, outcomes derived by hand."""

from __future__ import annotations

import pytest

from mtg_outcomes.model.errors import CaseErrors
from tests.helpers import both_engines, case_from

GUARD = """
active: A
players: [{name: you}, {name: A}]
battlefield:
  - {id: guard, card: Veteran Bodyguard, controller: you, tapped: TAPPED}
  - {id: bears, card: Grizzly Bears, controller: A, attacking: you}
  - {id: ogre, name: Ogre, controller: A, types: [creature], power: 3, toughness: 3, attacking: you}
  - {id: wall, name: Wall, controller: you, types: [creature], power: 0, toughness: 5, blocking: ogre}
actions:
  - combat: {}
"""




def test_untapped_it_takes_the_unblocked_creatures_damage() -> None:
    """Untapped, the Bodyguard (2/5) is dealt the unblocked Bears' 2; the blocked Ogre deals its
    3 to the wall, none to you."""
    assert both_engines(GUARD.replace("TAPPED", "false"), "guard.damage", "you.life", "wall.damage") == {(2, 20, 3)}


def test_tapped_it_takes_nothing() -> None:
    """Tapped, the condition fails: the Bears' 2 is dealt to you."""
    assert both_engines(GUARD.replace("TAPPED", "true"), "guard.damage", "you.life", "wall.damage") == {(0, 18, 3)}


def test_kjeldoran_royal_guard_for_the_turn() -> None:
    """Activated ({T}), the Royal Guard (2/5) takes the unblocked Bears' combat damage for the turn,
    though it is tapped by then (the condition is the ability's cost, not "as long as")."""
    text = GUARD.replace("card: Veteran Bodyguard", "card: Kjeldoran Royal Guard").replace(", tapped: TAPPED", "")
    text = text.replace("  - combat: {}", "  - activate: {id: guard}\n  - combat: {}")
    assert both_engines(text, "guard.damage", "you.life") == {(2, 20)}


def test_if_untapped_on_a_created_effect_is_an_error() -> None:
    """Only a permanent's static ability has a permanent of its own to be untapped."""
    with pytest.raises(CaseErrors, match="if_untapped"):
        case_from("""
players: [{name: you}, {name: A}]
battlefield:
  - {id: m, name: M, controller: you, types: [creature], power: 1, toughness: 6}
effects:
  - {id: e, controller: you, source: m, redirect: self, to: you, if_untapped: true}
actions:
  - damage: [{from: m, to: you, amount: 1}]
""")


def test_unblocked_in_a_selector() -> None:
    """in_combat takes unblocked; an unknown word is an error naming the three."""
    with pytest.raises(CaseErrors, match="attacking, blocking and/or unblocked"):
        case_from("""
players: [{name: you}, {name: A}]
battlefield:
  - {id: m, name: M, controller: you, types: [creature], power: 1, toughness: 6,
     abilities: [{redirect: self, to: you, from: {types: [creature], in_combat: [sideways]}}]}
actions:
  - damage: [{from: m, to: you, amount: 1}]
""")
