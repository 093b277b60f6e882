"""Lines read this session beside the helpers' families: subtype lords (205.3m, 613.4c), "whenever
~ is dealt damage, <one-shot>" (603.2), rebound (702.88a) and library searches (701.23) ignored
with their rule. Readings of the real cards' Oracle text (card data), outcomes derived by hand."""

from __future__ import annotations

from typing import Any

import pytest

from mtg_outcomes.model.recognise import read_text
from tests.helpers import outcome_set, reading


@pytest.mark.parametrize("name,abilities", [
    ("Merfolk Mistbinder", [{"pt": [1, 1], "to": "other merfolk you control"}]),
    ("Goblin Chieftain", [{"pt": [1, 1], "grant": ["haste"], "to": "other goblin creatures you control"}]),
    ("Crucible of Fire", [{"pt": [3, 3], "to": "dragon creatures you control"}]),
    ("Syphon Sliver", [{"grant": ["lifelink"], "to": "sliver creatures you control"}]),
])
def test_613_4c_subtype_lords(name: str, abilities: list[Any]) -> None:
    assert reading(name).abilities == abilities


def test_a_lord_of_no_subtype_is_not_read() -> None:
    """"Foos you control" names no subtype (205.3m): not a lord, not understood."""
    assert not read_text("Foos you control get +1/+1.", "Lord", ("creature",)).understood


def test_613_4c_a_creature_lord_pumps_the_others_of_its_type() -> None:
    """Goblin Chieftain makes Raging Goblin (1/1) a 2/2: blocked by Grizzly Bears (2/2), both die;
    the Chieftain itself is not pumped ("other")."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: chieftain, card: Goblin Chieftain, controller: you, attacking: A}
  - {id: goblin, card: Raging Goblin, controller: you, attacking: A}
  - {id: bears, card: Grizzly Bears, controller: A, blocking: goblin}
actions:
  - combat: {}
"""
    assert outcome_set(text, "goblin.dies", "bears.dies", "A.life") == {(True, True, 18)}


@pytest.mark.parametrize("name,abilities", [
    ("Wall of Hope", [{"trigger": "dealt_damage", "do": {"gain_life": "damage_dealt", "who": "you"}}]),
    ("Fungusaur", [{"trigger": "dealt_damage", "do": {"put_counters": {"+1/+1": 1}, "to": "self"}}]),
    ("Illusory Ambusher", [{"trigger": "dealt_damage", "do": {"draw": "damage_dealt", "who": "you"}}]),
])
def test_603_2_dealt_damage_triggers(name: str, abilities: list[Any]) -> None:
    assert reading(name).abilities == abilities


def test_603_2_a_creature_dealt_lethal_damage_still_triggers() -> None:
    """Wall of Hope (0/3) dealt 3 by the Hill Giant it blocks dies, and you gain 3 (the trigger's
    event happened while it was on the battlefield)."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: giant, card: Hill Giant, controller: A, attacking: you}
  - {id: wall, card: Wall of Hope, controller: you, blocking: giant}
actions:
  - combat: {}
"""
    assert outcome_set(text, "you.life", "wall.dies") == {(23, True)}


@pytest.mark.parametrize("name,abilities,rule", [
    # "Staggershock deals 2 damage to any target." / "Rebound" (ignored: next turn, 702.88a)
    ("Staggershock", [{"spell": {"deal": 2, "to": "target"}, "target": "any"}], "702.88a"),
    # "Search your library for a card, then shuffle and put that card on top. You lose 2 life."
    ("Vampiric Tutor", [{"spell": {"lose_life": 2, "who": "you"}}], "701.23"),
    # "{2}, {T}, Sacrifice this artifact: Search your library for a basic land card, put it onto
    # the battlefield tapped, then shuffle." (Evolving Wilds' kin): an ability a case can't activate
    ("Evolving Wilds", [], "701.23"),
])
def test_lines_dropped_or_ignored_with_their_rule(name: str, abilities: list[Any], rule: str) -> None:
    r = reading(name)
    assert r.abilities == abilities
    assert any(rule in (line.reason or "") for line in r.lines), [(line.status, line.reason) for line in r.lines]


def test_702_73a_a_changeling_is_every_creature_type() -> None:
    """Universal Automaton (1/1 artifact creature, changeling) beside Merfolk Mistbinder ("Other
    Merfolk you control get +1/+1."): it is a Merfolk, a 2/2, and survives 1 damage; an artifact,
    enchantment or land type it is not (702.73a), so "Equipment you control" doesn't reach it."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: lord, card: Merfolk Mistbinder, controller: you}
  - {id: bot, card: Universal Automaton, controller: you}
  - {id: rule, name: Test Rule, controller: you, types: [enchantment], abilities: [{pt: [0, -1], to: Equipment you control}]}
sources:
  - {id: ping, name: Test Ping, controller: A, types: [instant]}
actions:
  - damage: [{from: ping, to: bot, amount: 1}]
"""
    assert reading("Universal Automaton").keywords == ("changeling",) or \
        list(reading("Universal Automaton").keywords) == ["changeling"]
    assert outcome_set(text, "bot.dies", "bot.damage") == {(False, 1)}
    assert outcome_set(text.replace("card: Merfolk Mistbinder", "card: Grizzly Bears"), "bot.dies") == {(True,)}
