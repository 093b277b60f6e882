"""A target per chosen mode (CR 700.2a, 601.2c): a modal spell whose chosen modes each have a
target, one object may be the target of two modes (115.3), and 608.2b as it resolves: a mode
whose target is illegal does nothing to it, the spell doesn't resolve if every target is."""

from __future__ import annotations

import pytest

from mtg_outcomes.model.carddata import find
from mtg_outcomes.model.recognise import read_face
from tests.helpers import outcome_set, problems

BOARD = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: drake, card: Wind Drake, controller: A}
  - {id: bears, card: Grizzly Bears, controller: A}
"""


def test_700_2a_each_mode_of_branching_bolt_has_its_target() -> None:
    """Branching Bolt: "Choose one or both — • ... 3 damage to target creature with flying. • ...
    3 damage to target creature without flying.": both modes read, each with its own target."""
    reading = read_face(find("Branching Bolt").face)
    assert reading.understood
    assert reading.abilities == [
        {"modes": {"min": 1, "max": 2}},
        {"spell": {"deal": 3, "to": "target"}, "target": {"types": ["creature"], "with": ["flying"]}, "mode": 1},
        {"spell": {"deal": 3, "to": "target"}, "target": {"types": ["creature"], "without": "flying"}, "mode": 2},
    ]


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_601_2c_a_target_for_each_chosen_mode(engine: str) -> None:
    """You cast Branching Bolt choosing: mode 1 (the 2/2 flying Drake dies), mode 2 (the Bears
    die) or both (one target each: both die). Derived by hand: three outcomes."""
    got = outcome_set(BOARD + "actions:\n  - cast: {card: Branching Bolt, controller: you}\n",
                      "drake.dies", "bears.dies", engine=engine)
    assert got == {(True, False), (False, True), (True, True)}


def test_601_2c_announced_modes_and_targets() -> None:
    got = outcome_set(BOARD + "actions:\n  - cast: {card: Branching Bolt, controller: you, modes: [1, 2], targets: [drake, bears]}\n",
                      "drake.damage", "bears.damage")
    assert got == {(3, 3)}


def test_115_3_one_object_the_target_of_two_modes() -> None:
    """Winterflame ("• Tap target creature. • Winterflame deals 2 damage to target creature.") with
    only A's untapped 1/3 mana creature around (its tapped state is an outcome field): mode 1
    taps it, mode 2 deals it 2, both do both to it (each mode's "target" is another word, so the
    same creature is chosen twice)."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: giant, name: Test Elder, controller: A, types: [creature], power: 1, toughness: 3,
     abilities: [{mana: [G], cost: [T]}]}
actions:
  - cast: {card: Winterflame, controller: you}
"""
    assert outcome_set(text, "giant.tapped", "giant.damage") == {(True, 0), (False, 2), (True, 2)}
    both = text.replace("controller: you}", "controller: you, modes: [1, 2], targets: [giant, giant]}")
    assert outcome_set(both, "giant.tapped", "giant.damage") == {(True, 2)}


# an ad hoc "Choose one or both —" spell: mode 1 has an untargeted part after its targeted one
SPELL = BOARD + """
sources:
  - id: charm
    name: Test Charm
    controller: you
    types: [instant]
    abilities:
      - {modes: {min: 1, max: 2}}
      - {spell: {deal: 2, to: target}, target: creature, mode: 1}
      - {spell: {gain_life: 3, who: you}, mode: 1}
      - {spell: {deal: 1, to: target}, target: player, mode: 2}
"""


def test_608_2b_a_modes_illegal_target_gets_nothing_the_rest_happens() -> None:
    """The Bears (mode 1's target) leave before it resolves: the spell still resolves (A, mode
    2's target, is legal): A is dealt 1 and you gain 3 (mode 1's part that isn't done to the
    target, 608.2b)."""
    got = outcome_set(SPELL + "actions:\n  - cast: {id: charm, modes: [1, 2], targets: [bears, A], responses: [{leave: bears}]}\n",
                      "A.life", "you.life")
    assert got == {(19, 23)}


def test_608_2b_every_target_illegal_the_spell_doesnt_resolve() -> None:
    """Both targets illegal (the Bears left, A left the game... here: the Bears and the Drake,
    both modes targeting creatures): nothing happens, not even the life gain."""
    text = SPELL.replace("{spell: {deal: 1, to: target}, target: player, mode: 2}",
                         "{spell: {deal: 1, to: target}, target: creature, mode: 2}")
    got = outcome_set(text + "actions:\n  - cast: {id: charm, modes: [1, 2], targets: [bears, drake], "
                             "responses: [{leave: bears}, {leave: drake}]}\n", "you.life", "A.life")
    assert got == {(20, 20)}


@pytest.mark.parametrize("cast,path,reason", [
    ("{id: charm, modes: [1, 2], targets: [bears]}", "actions[0].cast.targets", "have 2 targets"),
    ("{id: charm, targets: [bears, A, you]}", "actions[0].cast.targets", "at most 2 targets"),
    ("{id: charm, modes: [1, 2], targets: [bears, A], divide: {bears: 1, A: 1}}", "actions[0].cast.divide", "doesn't divide"),
])
def test_601_2c_wrong_targets_for_the_modes_are_errors(cast: str, path: str, reason: str) -> None:
    got = problems(SPELL + f"actions:\n  - cast: {cast}\n")
    assert any(p == path and reason in r for p, r in got), got


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_704_3_damage_from_an_earlier_part_is_lethal_at_the_check(engine: str) -> None:
    """A spell's instructions are one resolution with no state-based action in between (608.2c,
    704.3): 3 damage to the 2/2 Drake, then 1 to each opponent; the Drake dies at the check after
    the spell, though the last damage event wasn't dealt to it (both engines)."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: drake, card: Wind Drake, controller: A}
sources:
  - id: s
    name: Test Spell
    controller: you
    types: [instant]
    abilities:
      - {spell: {deal: 3, to: target}, target: creature}
      - {spell: {deal: 1, to: opponents}}
actions:
  - cast: {id: s, target: drake}
"""
    assert outcome_set(text, "drake.dies", "A.life", engine=engine) == {(True, 19)}


def test_700_2a_more_targets_than_the_modes_chosen_can_have_is_an_error() -> None:
    """Abrade chooses one mode: two announced targets can't be its targets."""
    got = problems(BOARD + "actions:\n  - cast: {card: Abrade, controller: you, targets: [drake, bears]}\n")
    assert any(p == "actions[0].cast.targets" and "at most 1 target " in r for p, r in got), got
