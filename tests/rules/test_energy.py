"""Energy counters (CR 107.14, 122.1): a player's counters, got by ``get_energy`` and paid by a
``pay_energy`` cost; the recogniser's "you get {E}{E}" and "Pay {E}{E}" on real cards."""

from __future__ import annotations

from mtg_outcomes.model.carddata import find
from mtg_outcomes.model.recognise import read_face

from ..helpers import outcome_set

PLAYERS = """
players:
  - {name: you, energy: 1}
  - {name: A}
"""
PINGER = """
battlefield:
  - id: pinger
    name: Pinger
    controller: you
    types: [artifact]
    abilities:
      - {activated: {deal: 1, to: A}, cost: [{pay_energy: 2}]}
"""


def test_107_14_an_energy_cost_needs_that_many_counters() -> None:
    """1 energy can't pay {E}{E} (601.2h: not activated); after getting 3 more, two activations
    pay 4 and a third can't."""
    text = PLAYERS + PINGER + """
actions:
  - activate: {id: pinger}
  - {get_energy: 3, who: you}
  - activate: {id: pinger}
  - activate: {id: pinger}
  - activate: {id: pinger}
"""
    assert outcome_set(text, "you.energy", "A.life") == {(0, 18)}


def test_107_14_energy_in_both_engines() -> None:
    text = PLAYERS + PINGER + """
actions:
  - {get_energy: 1, who: you}
  - activate: {id: pinger}
"""
    assert outcome_set(text, "you.energy", "A.life") == outcome_set(text, "you.energy", "A.life", engine="cp") == {(0, 19)}


def test_recognised_energy_lines() -> None:
    """Aether Hub: "When this land enters, you get {E}." / "{T}: Add {C}." / "{T}, Pay {E}: Add
    one mana of any color."; Longtusk Cub: "Whenever this creature deals combat damage to a
    player, you get {E}{E}." / "Pay {E}{E}: Put a +1/+1 counter on this creature.\""""
    hub = read_face(find("Aether Hub").face)
    assert hub.understood
    assert hub.abilities == [{"trigger": "enters", "do": {"get_energy": 1, "who": "you"}},
                             {"mana": ["C"], "cost": ["T"]},
                             {"mana": "any_color", "cost": ["T", {"pay_energy": 1}]}]
    cub = read_face(find("Longtusk Cub").face)
    assert cub.understood
    assert cub.abilities == [{"trigger": "combat_damage_to_player", "do": {"get_energy": 2, "who": "you"}},
                             {"activated": {"put_counters": {"+1/+1": 1}, "to": "self"}, "cost": [{"pay_energy": 2}]}]
