"""Exiled instead of dying for the creatures a source dealt damage to (CR 614.1a, 120.1): "If a
creature dealt damage this way would die this turn, exile it instead." (a spell's own damage) and
"If a creature dealt damage by ~ this turn would die, exile it instead." (a static ability); the
selector key ``dealt_damage_by:`` and the permanent state ``dealt_damage_by:``."""

from __future__ import annotations

from tests.helpers import outcome_set, problems, reading

DEALT = {"types": ["creature"], "dealt_damage_by": "self"}



def test_614_1a_dealt_damage_this_way_reading() -> None:
    """Pillar of Flame; Anger of the Gods ("deals 3 damage to each creature"); Underworld Fires
    ("a permanent dealt damage this way")."""
    assert reading("Pillar of Flame").abilities == [
        {"spell": {"deal": 2, "to": "target"}, "target": "any"}, {"spell": {"exile_instead": True, "to": DEALT}}]
    assert reading("Anger of the Gods").abilities == [
        {"spell": {"deal": 3, "to": "creatures"}}, {"spell": {"exile_instead": True, "to": DEALT}}]
    assert reading("Underworld Fires").abilities[1] == {
        "spell": {"exile_instead": True, "to": {"types": ["permanent"], "dealt_damage_by": "self"}}}


def test_614_1a_dealt_damage_by_this_creature_reading() -> None:
    """Kumano's Pupils: "If a creature dealt damage by this creature this turn would die, exile it instead.\""""
    assert reading("Kumano's Pupils").abilities == [{"exile_instead": True, "to": DEALT}]


ANGER = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: bears, card: Grizzly Bears, controller: A}
  - {id: wall, card: Wall of Stone, controller: A}
sources:
  - {id: rock, name: Test Rock, controller: you, types: [artifact]}
effects: EFFECTS
actions:
  - cast: {card: Yamabushi's Storm, controller: you}
  - damage: [{from: rock, to: bears, amount: 2}]
"""


def test_614_1a_dealt_damage_by_the_spell_is_exiled() -> None:
    """The Storm deals 1 to the Bears; 2 more from the rock kill them: exiled, not dead."""
    assert outcome_set(ANGER.replace("EFFECTS", "[]"), "bears.dies", "bears.damage") == {(False, 3)}


def test_120_1_prevented_damage_isnt_dealt_so_it_dies() -> None:
    """A shield prevents the Storm's 1 to the Bears (615.7): not dealt damage by it, they die."""
    text = ANGER.replace("EFFECTS", "[{id: guard, shield: 1, to: bears, controller: A, source: bears}]")
    assert outcome_set(text, "bears.dies") == {(True,)}


PUPILS = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: pupils, card: Kumano's Pupils, controller: you}
  - {id: bears, card: Grizzly Bears, controller: A, damage: 1, BY}
sources:
  - {id: rock, name: Test Rock, controller: you, types: [artifact]}
actions:
  - damage: [{from: rock, to: bears, amount: 1}]
"""


def test_614_1a_damage_earlier_this_turn_is_named_by_the_case() -> None:
    """The Bears' marked damage came from the Pupils earlier this turn (``dealt_damage_by:``):
    exiled; without it (another source), they die."""
    assert outcome_set(PUPILS.replace("BY", "dealt_damage_by: [pupils]"), "bears.dies") == {(False,)}
    assert outcome_set(PUPILS.replace(", BY", ""), "bears.dies") == {(True,)}


def test_dealt_damage_by_unknown_id_is_an_error() -> None:
    assert any("unknown id 'nobody'" in r for _, r in problems(PUPILS.replace("BY", "dealt_damage_by: [nobody]")))


def test_selector_dealt_damage_by_in_an_effect() -> None:
    """An ad hoc effect reads the selector too: prevent all damage to creatures the rock dealt
    damage to this turn (the second hit is prevented)."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: giant, card: Hill Giant, controller: A}
sources:
  - {id: rock, name: Test Rock, controller: you, types: [artifact]}
effects:
  - {id: ward, prevent: all, to: {types: [creature], dealt_damage_by: rock}, controller: A, source: giant}
actions:
  - damage: [{from: rock, to: giant, amount: 1}]
  - damage: [{from: rock, to: giant, amount: 1}]
"""
    assert outcome_set(text, "giant.damage") == {(1,)}
