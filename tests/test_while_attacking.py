"""Static abilities that apply only while their creature is attacking (CR 506.4, 611.3a):
``if_attacking: true`` on a ``grant:``/``pt:`` to itself. Outcomes derived by hand."""

from __future__ import annotations

import pytest

from model.carddata import find
from model.recognise import read_face

from .helpers import outcome_set, problems

KNIGHT = ("{id: knight, name: Test Knight, controller: %s, types: [creature], power: 3, toughness: 1, %s"
          "abilities: [{grant: [first strike], to: self, if_attacking: true}]}")
BEAR = "{id: bear, name: Test Bear, controller: %s, types: [creature], power: 2, toughness: 2, %s}"


@pytest.mark.parametrize("engine", ["graph", "cp"])
def test_506_4_first_strike_as_long_as_it_is_attacking(engine: str) -> None:
    """Attacking, the 3/1 has first strike: it kills the blocking 2/2 first and survives (702.7b);
    blocking an attacking 2/2 it has none: both are dealt damage at once and both die."""
    attack = f"""players:
  - {{name: you}}
  - {{name: A}}
battlefield:
  - {KNIGHT % ("you", "attacking: A, ")}
  - {BEAR % ("A", "blocking: knight")}
actions:
  - combat: {{}}
"""
    assert outcome_set(attack, "knight.dies", "bear.dies", engine=engine) == {(False, True)}
    block = f"""players:
  - {{name: A}}
  - {{name: you}}
battlefield:
  - {BEAR % ("A", "attacking: you")}
  - {KNIGHT % ("you", "blocking: bear, ")}
actions:
  - combat: {{}}
"""
    assert outcome_set(block, "knight.dies", "bear.dies", engine=engine) == {(True, True)}


def test_if_attacking_is_about_the_permanent_itself() -> None:
    text = """players:
  - {name: you}
battlefield:
  - {id: lord, name: Test Lord, controller: you, types: [creature], power: 1, toughness: 1,
     abilities: [{grant: [first strike], to: creatures you control, if_attacking: true}]}
"""
    assert problems(text)[0][0] == "battlefield[0].abilities[0].if_attacking"
    shield = text.replace("grant: [first strike]", "prevent: 1")
    assert problems(shield)[0][0] == "battlefield[0].abilities[0].if_attacking"


@pytest.mark.parametrize("name", ["Kor Scythemaster", "Soltari Lancer", "Thorned Moloch"])
def test_506_4_real_cards_first_strike_while_attacking(name: str) -> None:
    r = read_face(find(name).face)
    assert r.understood, [x.text for x in r.not_understood]
    assert {"grant": ["first strike"], "to": "self", "if_attacking": True} in r.abilities
