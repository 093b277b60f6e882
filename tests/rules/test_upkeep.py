"""Upkeep triggers (CR 503.1a, 603.6): "At the beginning of your upkeep, ..." recognised as
``{trigger: upkeep, turn: yours, do: ...}`` and fired by the case's ``upkeep: {}`` action."""

from __future__ import annotations

import pytest
import yaml

from mtg_outcomes.model import parse_case
from mtg_outcomes.model.carddata import find
from mtg_outcomes.model.errors import CaseErrors
from mtg_outcomes.model.recognise import read_face, read_text
from tests.helpers import both_engines, outcome_set


def abilities(name: str) -> list[object]:
    reading = read_face(find(name).face)
    assert reading.understood, [r.text for r in reading.not_understood]
    return reading.abilities


def test_your_upkeep() -> None:
    """Juzám Djinn: "At the beginning of your upkeep, Juzám Djinn deals 1 damage to you.\""""
    assert abilities("Juzám Djinn") == [{"trigger": "upkeep", "turn": "yours", "do": {"deal": 1, "to": "you"}}]


def test_each_upkeep_with_two_instructions() -> None:
    """Baleful Force: "At the beginning of each upkeep, you draw a card and you lose 1 life." (and trample)"""
    assert abilities("Baleful Force") == [
        {"trigger": "upkeep", "do": [{"draw": 1, "who": "you"}, {"lose_life": 1, "who": "you"}]}]


def test_each_opponents_upkeep() -> None:
    text = "At the beginning of each opponent's upkeep, this enchantment deals 1 damage to each opponent."
    assert read_text(text, "Test Card", ("enchantment",)).abilities == [
        {"trigger": "upkeep", "turn": "opponents", "do": {"deal": 1, "to": "opponents"}}]


BOARD = """
players: [{name: you}, {name: A}]
battlefield:
  - {id: djinn, card: Juzám Djinn, controller: you}
  - {id: ench, name: Test Curse, controller: A, types: [enchantment],
     abilities: [{trigger: upkeep, turn: opponents, do: {lose_life: 2, who: opponents}}]}
  - {id: force, card: Baleful Force, controller: A}
"""


def test_upkeep_fires_the_active_players_and_each_upkeep_triggers() -> None:
    """your upkeep: the Djinn's 1 to you, A's "each opponent's upkeep" 2, A's Baleful Force draws A a card."""
    got = outcome_set(BOARD + "actions:\n  - upkeep: {}\n", "you.life", "A.life", "A.cards_drawn", "you.cards_drawn")
    assert got == {(17, 19, 1, 0)}


def test_without_the_upkeep_action_nothing_triggers() -> None:
    got = outcome_set(BOARD + "actions:\n  - end_step: {}\n", "you.life", "A.life")
    assert got == {(20, 20)}


def test_upkeep_takes_no_options() -> None:
    with pytest.raises(CaseErrors) as exc:
        parse_case(yaml.safe_load(BOARD + "actions:\n  - upkeep: 3\n"), "<inline>")
    assert any("upkeep takes no options" in e.reason for e in exc.value.errors)


def test_upkeep_triggers_on_the_battlefield_in_a_cp_step_and_a_later_upkeep() -> None:
    """No damage batch begins an upkeep (503.1a), so the Djinn's upkeep trigger on the battlefield
    doesn't stop the CP model. Your 3-point shield ("the next 3", 615.7) takes the Djinn's first
    1, then 2 of the Imp's 2 and the Ogre's 3 dealt at once (3 dealt: 17), and the second
    upkeep's 1 is dealt (16), however the 2 are split between the two sources."""
    text = BOARD.replace("""  - {id: ench, name: Test Curse, controller: A, types: [enchantment],
     abilities: [{trigger: upkeep, turn: opponents, do: {lose_life: 2, who: opponents}}]}
  - {id: force, card: Baleful Force, controller: A}
""", """sources:
  - {id: imp, name: Imp, controller: A, types: [instant]}
  - {id: ogre, name: Ogre, controller: A, types: [instant]}
  - {id: salve, name: Salve, controller: you, types: [instant]}
effects:
  - {id: s, shield: 3, to: you, controller: you, source: salve}
""") + """actions:
  - upkeep: {}
  - damage: [{from: imp, to: you, amount: 2}, {from: ogre, to: you, amount: 3}]
  - upkeep: {}
"""
    assert both_engines(text, "you.life", "s.remaining") == {(16, 0)}
