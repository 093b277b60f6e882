"""A mana ability whose cost taps another permanent (CR 601.2h, 605.1a): "{T}, Tap an untapped
creature you control: Add one mana of any color." The creature is its controller's choice as the
cost is paid, among its untapped creatures (a summoning-sick one too: 302.6 restricts only its own
{T} abilities), not the permanent itself, which {T} taps."""

from __future__ import annotations

from mtg_outcomes.model.carddata import find
from mtg_outcomes.model.recognise import read_face
from tests.helpers import outcome_set, problems

ELVES = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: drum, card: Springleaf Drum, controller: you}
  - {id: e1, card: Llanowar Elves, controller: you, summoning_sick: true}
  - {id: e2, card: Llanowar Elves, controller: you}
"""


def test_601_2h_the_tap_cost_is_read() -> None:
    reading = read_face(find("Springleaf Drum").face)
    assert reading.understood
    assert reading.abilities == [{"mana": "any_color", "cost": ["T", {"tap": "creatures you control"}]}]


def test_601_2h_which_creature_is_tapped_is_a_choice() -> None:
    """Either Elf may be tapped for the Drum (the summoning-sick one too); the other stays untapped."""
    got = outcome_set(ELVES + "actions:\n  - tap_for_mana: {id: drum, choose: G}\n", "e1.tapped", "e2.tapped", "you.mana")
    assert got == {(True, False, ("G",)), (False, True, ("G",))}


def test_601_2h_the_tap_announced() -> None:
    got = outcome_set(ELVES + "actions:\n  - tap_for_mana: {id: drum, choose: G, tap: e2}\n  - tap_for_mana: e2\n",
                      "e1.tapped", "e2.tapped", "you.mana")
    assert got == {(False, True, ("G",))}


def test_601_2h_no_untapped_creature_no_activation() -> None:
    """Both Elves tapped: the cost can't be paid, nothing is added and the Drum stays untapped."""
    text = ELVES.replace("summoning_sick: true}", "tapped: true}").replace("controller: you}\n", "controller: you, tapped: true}\n")
    text = text.replace("{id: drum, card: Springleaf Drum, controller: you, tapped: true}", "{id: drum, card: Springleaf Drum, controller: you}")
    assert outcome_set(text + "actions:\n  - tap_for_mana: drum\n", "drum.tapped", "you.mana") == {(False, ())}


def test_601_2h_not_the_permanent_itself() -> None:
    """Jaspera Sentinel alone: {T} taps it, so it can't also be the creature tapped; no mana."""
    text = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: sentinel, card: Jaspera Sentinel, controller: you}
actions:
  - tap_for_mana: sentinel
"""
    assert outcome_set(text, "sentinel.tapped", "you.mana") == {(False, ())}


def test_601_2h_tap_on_an_ability_without_a_tap_cost_is_an_error() -> None:
    got = problems(ELVES + "actions:\n  - tap_for_mana: {id: e2, tap: e1}\n")
    assert any(p == "actions[0].tap_for_mana.tap" and "doesn't tap another permanent" in r for p, r in got), got


def test_601_2h_a_tap_cost_outside_mana_abilities_is_an_error() -> None:
    text = ELVES + """
sources: []
effects: []
actions: []
"""
    text = text.replace("{id: drum, card: Springleaf Drum, controller: you}",
                        "{id: drum, name: Test Drum, controller: you, types: [artifact], "
                        "abilities: [{activated: {gain_life: 1, who: you}, cost: [T, {tap: creatures you control}]}]}")
    assert any(p.endswith("cost[1].tap") and "mana abilities only" in r for p, r in problems(text))
