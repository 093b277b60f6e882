""""{0}: The next 1 damage that would be dealt to this creature this turn is dealt to target
creature you control instead." (the en-Kor, CR 615.7, 614.9): an activated partial redirection
to its target; readings of the real cards' Oracle text (card data), outcomes derived by hand."""

from __future__ import annotations

from mtg_outcomes.model.carddata import find
from mtg_outcomes.model.recognise import read_face
from tests.helpers import outcome_set

NOMADS = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: nomads, card: Nomads en-Kor, controller: you}
  - {id: bears, card: Grizzly Bears, controller: you}
  - {id: elves, card: Llanowar Elves, controller: A}
sources:
  - {id: bolt, name: Lightning Bolt, controller: A, colors: [red], types: [instant]}
actions:
  - activate: {id: nomads, TARGET}
  - damage: [{from: bolt, to: nomads, amount: 1}]
"""


def test_615_7_redirect_next_n_to_target_reading() -> None:
    r = read_face(find("Nomads en-Kor").face)
    assert r.understood and r.abilities == [
        {"activated": {"redirect": "target", "shield": 1, "to": "self"}, "target": "creatures you control", "cost": [0]}]
    z = read_face(find("Zealous Inquisitor").face)
    assert z.understood and z.abilities[0]["target"] == "creature"


def test_614_9_the_next_damage_goes_to_the_target() -> None:
    """Nomads en-Kor (1/1) redirects the next 1 to the Bears: it survives, the Bears have 1."""
    got = outcome_set(NOMADS.replace("TARGET", "target: bears"), "nomads.dies", "bears.damage")
    assert got == {(False, 1)}


def test_602_2b_the_target_is_its_controllers_choice_among_legal_ones() -> None:
    """Without a target named: the Nomads themselves or the Bears (creatures you control), never
    A's Elves; to itself, the damage stays and the Nomads die."""
    got = outcome_set(NOMADS.replace("activate: {id: nomads, TARGET}", "activate: {id: nomads}"),
                      "nomads.dies", "bears.damage", "elves.damage")
    assert got == {(False, 1, 0), (True, 0, 0)}
