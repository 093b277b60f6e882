"""A dies trigger watching others (CR 603.6c, 603.10a): "Whenever a creature dealt damage by this
creature this turn dies, ..." (Sengir Vampire) is ``{trigger: dies, from: {types: [creature],
dealt_damage_by: self}}``; it looks back in time, so it triggers even when its own creature dies
at the same time."""

from __future__ import annotations

from tests.helpers import outcome_set, reading

WATCH = {"types": ["creature"], "dealt_damage_by": "self"}



def test_603_6c_dealt_damage_dies_trigger_reading() -> None:
    """Sengir Vampire: "Flying" / "Whenever a creature dealt damage by this creature this turn
    dies, put a +1/+1 counter on this creature."; Rot Wolf: "..., you may draw a card.\""""
    assert reading("Sengir Vampire").abilities == [
        {"trigger": "dies", "from": WATCH, "do": {"put_counters": {"+1/+1": 1}, "to": "self"}}]
    assert reading("Rot Wolf").abilities == [
        {"trigger": "dies", "from": WATCH, "do": {"may": {"draw": 1, "who": "you"}}}]


FIGHT = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: vamp, card: Sengir Vampire, controller: you, attacking: A}
  - {id: spider, card: BLOCKER, controller: A, blocking: vamp}
  - {id: elves, card: Llanowar Elves, controller: A}
sources:
  - {id: rock, name: Test Rock, controller: you, types: [artifact]}
actions:
  - combat: {}
"""


def test_603_6c_a_creature_it_damaged_dies() -> None:
    got = outcome_set(FIGHT.replace("BLOCKER", "Giant Spider"), "spider.dies", "vamp.counters.+1/+1")
    assert got == {(True, 1)}


def test_603_6c_a_creature_it_didnt_damage_dies_no_trigger() -> None:
    """The Elves die to the rock's damage: the Vampire dealt them none, no counter."""
    text = FIGHT.replace("BLOCKER", "Giant Spider").replace("  - combat: {}", "  - damage: [{from: rock, to: elves, amount: 1}]")
    assert outcome_set(text, "elves.dies", "vamp.counters.+1/+1") == {(True, 0)}  # (no counter: 0, not absent)


def test_603_10a_it_triggers_as_it_dies_with_the_creature() -> None:
    """An ad hoc 2/2 that gains you 1 life when a creature it dealt damage to dies, blocked by a
    2/2: both die at once; looking back, it sees the blocker die: you gain 1."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: ghoul, name: Test Ghoul, controller: you, types: [creature], power: 2, toughness: 2, attacking: A,
     abilities: [{trigger: dies, from: {types: [creature], dealt_damage_by: self}, do: {gain_life: 1, who: you}}]}
  - {id: bears, card: Grizzly Bears, controller: A, blocking: ghoul}
actions:
  - combat: {}
"""
    assert outcome_set(text, "ghoul.dies", "bears.dies", "you.life") == {(True, True, 21)}
    for engine in ("graph", "cp"):
        assert outcome_set(text, "you.life", engine=engine) == {(21,)}
