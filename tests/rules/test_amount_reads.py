"""Amounts read as the action resolves (CR 608.2h): a player's own values for each player, the
X of the ability that made an effect, and never a quiet 0 for a value that isn't there."""

from __future__ import annotations

import pytest

from mtg_outcomes import enumerate_outcomes
from mtg_outcomes.cp.plan import cp_supported
from mtg_outcomes.model.errors import EngineError
from mtg_outcomes.values import evaluate

from ..helpers import case_from, outcome_set

HIDETSUGU = """
players:
  - {name: you}
  - {name: A, life: 15}
battlefield:
  - {id: hide, name: Test Hidetsugu, controller: you, types: [creature], colors: [red], power: 1, toughness: 2,
     abilities: [{activated: {deal: half_down(life_total), to: %s}, cost: [T]}]}
  - {id: bears, name: Test Bears, controller: A, types: [creature], colors: [green], power: 2, toughness: 2}
actions:
  - activate: {id: hide}
"""


def test_608_2h_damage_to_each_player_reads_that_players_life_total() -> None:
    # "half that player's life total, rounded down" (Heartless Hidetsugu): 10 to you, 7 to A
    assert outcome_set(HIDETSUGU % "each player", "you.life", "A.life") == {(10, 8)}


def test_119_1_a_permanent_has_no_life_total_to_read() -> None:
    with pytest.raises(EngineError, match="life_total"):
        enumerate_outcomes(case_from(HIDETSUGU % "each creature"))


def test_an_amount_reading_a_value_that_isnt_there_is_an_error_not_0() -> None:
    with pytest.raises(EngineError, match="prevented"):
        evaluate(("add", ("int", 1), ("var", "prevented")), {"X": 2})
    assert evaluate(("add", ("int", 1), ("var", "X")), {"X": 2}) == 3


X_SHIELD = """
players: [{name: A}, {name: you}]
battlefield:
  - {id: bears, name: Test Bears, controller: A, types: [creature], colors: [green], power: 2, toughness: 2}
  - {id: maker, name: Test Shield Maker, controller: you, types: [artifact],
     abilities: [{activated: {shield: X, to: you, then: {deal: X, to: A}}, cost: [X]}]}
actions:
  - activate: {id: maker, x: 2}
  - damage: [{from: bears, to: you, amount: 2}]
"""


def test_107_3_a_riders_x_is_the_x_of_the_ability_that_made_the_shield() -> None:
    # the shield prevents 2, then its rider deals X = 2 to A (615.5), not 0
    assert outcome_set(X_SHIELD, "you.life", "A.life") == {(20, 18)}
    case = case_from(X_SHIELD)
    assert "X, a life total" in (cp_supported(case) or "")  # the CP model holds no X: the graph answers
    assert {o.values.get("A.life") for o in enumerate_outcomes(case, engine="auto").outcomes} == {18}
