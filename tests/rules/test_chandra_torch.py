"""Chandra, Torch of Defiance's loyalty abilities (CR 606): "Add {R}{R}." (106.4, 605.1a: a loyalty
ability is never a mana ability), the exiled card cast or not as the case says (608.2g; the
library isn't tracked), and an emblem with a triggered ability (114.1, 114.4): readings of the real
card, outcomes derived by hand, both engines."""

from __future__ import annotations

import pytest

from mtg_outcomes.model.errors import CaseError
from mtg_outcomes.model.vocab import parse_ability
from tests.helpers import both_engines, outcome_set, problems, reading


def test_every_line_is_read() -> None:
    got = reading("Chandra, Torch of Defiance").abilities
    assert got[0] == {"activated": {"deal": 2, "to": "opponents", "if_exiled_not_cast": True}, "cost": [{"loyalty": 1}]}
    assert got[1] == {"activated": {"add_mana": ["R", "R"]}, "cost": [{"loyalty": 1}]}
    assert got[3] == {"activated": {"emblem": {"trigger": "cast", "spells": "any", "do": {"deal": 5, "to": "any"}}},
                      "cost": [{"loyalty": -7}]}


def test_vocabulary_checks() -> None:
    with pytest.raises(CaseError, match="mana symbols"):
        parse_ability({"activated": {"add_mana": ["X"]}, "cost": [{"loyalty": 1}]}, "p")
    with pytest.raises(CaseError, match="unknown trigger"):
        parse_ability({"activated": {"emblem": {"trigger": None}}}, "p")


CHANDRA = """
players: [{name: you}, {name: A}]
active: you
battlefield:
  - {id: chandra, card: "Chandra, Torch of Defiance", controller: you, loyalty: LOYALTY}
  - {id: bears, card: Grizzly Bears, controller: A}
actions:
  - ACTION
"""


def chandra(action: str, loyalty: int = 4) -> str:
    return CHANDRA.replace("ACTION", action).replace("LOYALTY", str(loyalty))


def test_608_2g_the_exiled_card_cast_or_not_is_the_cases() -> None:
    got = problems(chandra("activate: {id: chandra, ability: 0}"))
    assert got[0][0] == "actions[0].activate.cast_exiled" and "isn't tracked" in got[0][1]
    assert both_engines(chandra("activate: {id: chandra, ability: 0, cast_exiled: false}"),
                        "A.life", "chandra.loyalty") == {(18, 5)}
    assert both_engines(chandra("activate: {id: chandra, ability: 0, cast_exiled: true}"),
                        "A.life", "chandra.loyalty") == {(20, 5)}
    got = problems(chandra("activate: {id: chandra, ability: 2, cast_exiled: true}"))
    assert got[0][0] == "actions[0].activate.cast_exiled"


def test_605_1a_add_mana_is_an_activation_with_its_loyalty_cost() -> None:
    text = chandra("activate: {id: chandra, ability: 1}")
    assert outcome_set(text, "you.mana", "chandra.loyalty") == {(("R", "R"), 5)}


def test_114_4_the_emblem_triggers_on_each_spell_cast_after() -> None:
    """[−7] at 7 loyalty (0: the graveyard, 704.5i; the emblem stays, 114.4), then two Shocks at
    A: each cast triggers the emblem (5 to any target, chosen as it goes on the stack, 603.3d);
    both at A: 20 - 2x(5 + 2) = 6."""
    text = chandra("activate: {id: chandra, ability: 3}\n  - cast: {id: s1, card: Shock, controller: you, target: A}\n"
                   "  - cast: {id: s2, card: Shock, controller: you, target: A}", loyalty=7)
    # the emblem's targets (A, you or the Bears; the Bears only once: dead after the first, 608.2b
    # and 603.3d), the Shocks' 4 at A every time
    got = outcome_set(text, "A.life", "you.life", "bears.dies", "chandra.dies")
    assert got == {(6, 20, False, True), (11, 20, True, True), (11, 15, False, True), (16, 15, True, True),
                   (16, 10, False, True)}
